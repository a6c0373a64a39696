//! How much memory the transposition table may take: what the machine can
//! spare, not whatever the allocator hands out.
//!
//! A GUI's `Hash` is a wish. On Linux an allocation of most of the machine
//! succeeds (pages are only promised), and the table is then written all
//! over by the search: two engines of a match asking for 64 GB on a 24 GB
//! machine would run it out of memory. So the table is capped at half of
//! the most memory this process could ever use (the tightest of the limits
//! the system gives, `tama_os::machine`). The other half is the margin: the
//! operating system, the GUI, the opponent engine of a match, the search
//! threads' stacks.

pub use tama_os::machine::MemoryLimits;

const MB: u64 = 1 << 20;

/// The most megabytes the table may have under `limits`: half of the
/// tightest limit (at least 1 MB), or `None` when no limit is known.
pub fn hash_cap_mb(limits: &MemoryLimits) -> Option<usize> {
    let (ceiling, _) = limits.tightest()?;
    Some(((ceiling / 2 / MB).max(1)).min(usize::MAX as u64) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GB: u64 = 1 << 30;

    #[test]
    fn the_cap_is_half_of_the_tightest_limit() {
        // A 24 GB machine and nothing else: 12 GB, not the 16 GB that
        // halving 64 GB until the allocation succeeds used to take.
        let machine = MemoryLimits {
            physical: Some(24 * GB),
            ..MemoryLimits::default()
        };
        assert_eq!(hash_cap_mb(&machine), Some(12 * 1024));
        // In a 2 GB container on that machine: 1 GB.
        let container = MemoryLimits {
            cgroup: Some(2 * GB),
            ..machine
        };
        assert_eq!(hash_cap_mb(&container), Some(1024));
        // Under `ulimit -v 1000000` (kB): about 488 MB.
        let ulimit = MemoryLimits {
            address_space: Some(1_000_000 * 1024),
            ..container
        };
        assert_eq!(hash_cap_mb(&ulimit), Some(488));
        // A tiny limit still leaves the smallest table; none known, no cap.
        let tiny = MemoryLimits {
            cgroup: Some(100),
            ..MemoryLimits::default()
        };
        assert_eq!(hash_cap_mb(&tiny), Some(1));
        assert_eq!(hash_cap_mb(&MemoryLimits::default()), None);
    }
}
