//! How much memory the transposition table may take: what the machine can
//! spare, not whatever the allocator hands out.
//!
//! A GUI's `Hash` is a wish. On Linux an allocation of most of the machine
//! succeeds (pages are only promised), and the table is then written all
//! over by the search: two engines of a match asking for 64 GB on a 24 GB
//! machine would run it out of memory. So the table is capped at half of
//! the most memory this process could ever use: the machine's RAM, or less
//! when a cgroup (a container) or the address-space limit (`ulimit -v`)
//! says so. The other half is the margin: the operating system, the GUI,
//! the opponent engine of a match, the search threads' stacks.

// The readers of Linux's files are compiled (and tested) everywhere; on
// Windows the limits come from the system call instead.
#![cfg_attr(windows, allow(dead_code))]

use std::path::Path;

/// What the system says about the memory this process may use, in bytes
/// (`None`: not known or no limit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryLimits {
    /// The machine's RAM (`MemTotal` of /proc/meminfo).
    pub physical: Option<u64>,
    /// The memory limit of this process's cgroup (v2 `memory.max` or v1
    /// `memory.limit_in_bytes`, the tightest along the cgroup's path).
    pub cgroup: Option<u64>,
    /// The soft address-space limit (`ulimit -v`).
    pub address_space: Option<u64>,
}

const MB: u64 = 1 << 20;

impl MemoryLimits {
    /// The limits of the running process: on Linux from /proc and the
    /// cgroup files, on Windows the machine's physical memory; `None`
    /// elsewhere.
    #[cfg(windows)]
    pub fn of_this_process() -> MemoryLimits {
        MemoryLimits {
            physical: windows_physical_memory(),
            ..MemoryLimits::default()
        }
    }

    /// The limits of the running process: on Linux from /proc and the
    /// cgroup files (`None` where those are missing), on Windows the
    /// machine's physical memory.
    #[cfg(not(windows))]
    pub fn of_this_process() -> MemoryLimits {
        MemoryLimits {
            physical: read(Path::new("/proc/meminfo")).and_then(|t| meminfo_total(&t)),
            cgroup: cgroup_limit(),
            address_space: read(Path::new("/proc/self/limits"))
                .and_then(|t| address_space_limit(&t)),
        }
    }

    /// The most megabytes the table may have: half of the tightest limit
    /// (at least 1 MB), or `None` when no limit is known.
    pub fn hash_cap_mb(&self) -> Option<usize> {
        let ceiling = [self.physical, self.cgroup, self.address_space]
            .into_iter()
            .flatten()
            .min()?;
        Some(((ceiling / 2 / MB).max(1)).min(usize::MAX as u64) as usize)
    }

    /// Which limit the cap comes from, for the message that reports it.
    pub fn tightest(&self) -> &'static str {
        let named = [
            (self.physical, "the machine's memory"),
            (self.cgroup, "the cgroup memory limit"),
            (self.address_space, "the address-space limit (ulimit -v)"),
        ];
        named
            .into_iter()
            .filter_map(|(v, name)| v.map(|v| (v, name)))
            .min_by_key(|&(v, _)| v)
            .map_or("no known limit", |(_, name)| name)
    }
}

/// The machine's physical memory (`ullTotalPhys`), as Windows reports it.
#[cfg(windows)]
fn windows_physical_memory() -> Option<u64> {
    use windows_sys::Win32::System::SystemInformation::{GlobalMemoryStatusEx, MEMORYSTATUSEX};
    // SAFETY: MEMORYSTATUSEX is plain data; the call fills it in when its
    // length field is set, and reports failure otherwise.
    unsafe {
        let mut status: MEMORYSTATUSEX = std::mem::zeroed();
        status.dwLength = std::mem::size_of::<MEMORYSTATUSEX>() as u32;
        (GlobalMemoryStatusEx(&mut status) != 0).then_some(status.ullTotalPhys)
    }
}

fn read(path: &Path) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// `MemTotal:  24567890 kB` -> bytes.
fn meminfo_total(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb.saturating_mul(1024))
}

/// The soft limit of the `Max address space` line of /proc/self/limits
/// (`unlimited`: none).
fn address_space_limit(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("Max address space"))?;
    line["Max address space".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// A cgroup limit file's value: a byte count, or `max` (v2) / a huge
/// number (v1, "unlimited") for none.
fn limit_value(text: &str) -> Option<u64> {
    let v: u64 = text.trim().parse().ok()?;
    // cgroup v1 writes "no limit" as the largest page-aligned i64.
    (v < 1 << 60).then_some(v)
}

/// The tightest memory limit of this process's cgroup and its ancestors
/// (v2), or of its v1 memory cgroup; also the files at the root of
/// /sys/fs/cgroup, which is what a container sees of its own cgroup.
fn cgroup_limit() -> Option<u64> {
    let root = Path::new("/sys/fs/cgroup");
    let mut files = vec![
        root.join("memory.max"),
        root.join("memory/memory.limit_in_bytes"),
    ];
    if let Some(own) = read(Path::new("/proc/self/cgroup")) {
        for line in own.lines() {
            // "0::/user.slice/..." (v2) or "4:memory:/docker/..." (v1).
            let mut parts = line.splitn(3, ':');
            let (_, controllers, path) = (parts.next(), parts.next(), parts.next());
            let (Some(controllers), Some(path)) = (controllers, path) else {
                continue;
            };
            let (dir, file) = match controllers {
                "" => (root.to_path_buf(), "memory.max"),
                c if c.split(',').any(|c| c == "memory") => {
                    (root.join("memory"), "memory.limit_in_bytes")
                }
                _ => continue,
            };
            let mut p = Path::new(path.trim_start_matches('/'));
            loop {
                files.push(dir.join(p).join(file));
                match p.parent() {
                    Some(up) => p = up,
                    None => break,
                }
            }
        }
    }
    files
        .iter()
        .filter_map(|f| read(f).and_then(|t| limit_value(&t)))
        .min()
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
        assert_eq!(machine.hash_cap_mb(), Some(12 * 1024));
        assert_eq!(machine.tightest(), "the machine's memory");
        // In a 2 GB container on that machine: 1 GB.
        let container = MemoryLimits {
            cgroup: Some(2 * GB),
            ..machine
        };
        assert_eq!(container.hash_cap_mb(), Some(1024));
        assert_eq!(container.tightest(), "the cgroup memory limit");
        // Under `ulimit -v 1000000` (kB): about 488 MB.
        let ulimit = MemoryLimits {
            address_space: Some(1_000_000 * 1024),
            ..container
        };
        assert_eq!(ulimit.hash_cap_mb(), Some(488));
        assert_eq!(ulimit.tightest(), "the address-space limit (ulimit -v)");
        // A tiny limit still leaves the smallest table; none known, no cap.
        let tiny = MemoryLimits {
            cgroup: Some(100),
            ..MemoryLimits::default()
        };
        assert_eq!(tiny.hash_cap_mb(), Some(1));
        assert_eq!(MemoryLimits::default().hash_cap_mb(), None);
    }

    #[test]
    fn system_files_are_read() {
        let meminfo = "MemTotal:       24558516 kB\nMemFree:         1234 kB\n";
        assert_eq!(meminfo_total(meminfo), Some(24558516 * 1024));
        assert_eq!(meminfo_total("MemFree: 3 kB\n"), None);
        let limits = "Limit                     Soft Limit           Hard Limit           Units     \n\
                      Max stack size            8388608              unlimited            bytes     \n\
                      Max address space         4096000000           unlimited            bytes     \n";
        assert_eq!(address_space_limit(limits), Some(4096000000));
        let unlimited = limits.replace("4096000000 ", "unlimited  ");
        assert_eq!(address_space_limit(&unlimited), None);
        assert_eq!(limit_value("max\n"), None);
        assert_eq!(limit_value("9223372036854771712\n"), None);
        assert_eq!(limit_value("2147483648\n"), Some(2 * GB));
    }
}
