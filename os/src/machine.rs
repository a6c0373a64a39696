//! What the machine offers this process: the memory it may use, as the
//! system says, and how many CPUs it may run on. How much of it a program
//! takes is the program's policy (the protocol's cap of the transposition
//! table, `tama_protocol::memory`).
//!
//! What is read, per platform:
//! - Linux: the machine's RAM (`MemTotal` of /proc/meminfo), the memory
//!   limit of the process's cgroup (v2 `memory.max` or v1
//!   `memory.limit_in_bytes`, the tightest along its path: a container's),
//!   and the soft address-space limit (`ulimit -v`, /proc/self/limits);
//! - macOS: the machine's RAM (`sysctl hw.memsize`);
//! - Windows: the machine's RAM (`GlobalMemoryStatusEx`);
//! - elsewhere: nothing.

// The readers of Linux's files are compiled (and tested) everywhere; the
// other systems answer through a call instead.
#![cfg_attr(not(target_os = "linux"), allow(dead_code))]

use std::path::Path;

/// The memory limits of a process, in bytes (`None`: not known or no
/// limit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MemoryLimits {
    /// The machine's RAM.
    pub physical: Option<u64>,
    /// The memory limit of this process's cgroup (Linux).
    pub cgroup: Option<u64>,
    /// The soft address-space limit (`ulimit -v`; Linux).
    pub address_space: Option<u64>,
}

impl MemoryLimits {
    /// The limits of the running process, as far as this platform says
    /// (the module's list).
    pub fn of_this_process() -> MemoryLimits {
        #[cfg(target_os = "linux")]
        let limits = MemoryLimits {
            physical: read(Path::new("/proc/meminfo")).and_then(|t| meminfo_total(&t)),
            cgroup: cgroup_limit(),
            address_space: read(Path::new("/proc/self/limits"))
                .and_then(|t| address_space_limit(&t)),
        };
        #[cfg(any(windows, target_os = "macos"))]
        let limits = MemoryLimits {
            physical: physical_memory(),
            ..MemoryLimits::default()
        };
        #[cfg(not(any(target_os = "linux", windows, target_os = "macos")))]
        let limits = MemoryLimits::default();
        limits
    }

    /// The tightest limit known, with what it is, for messages that report
    /// it: `(bytes, "the machine's memory")`; `None` when none is known.
    pub fn tightest(&self) -> Option<(u64, &'static str)> {
        [
            (self.physical, "the machine's memory"),
            (self.cgroup, "the cgroup memory limit"),
            (self.address_space, "the address-space limit (ulimit -v)"),
        ]
        .into_iter()
        .filter_map(|(v, name)| v.map(|v| (v, name)))
        .min_by_key(|&(v, _)| v)
    }
}

/// How many CPUs this process may run threads on (1 when the system does
/// not say).
pub fn cpu_count() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The machine's physical memory (`ullTotalPhys`), as Windows reports it.
#[cfg(windows)]
fn physical_memory() -> Option<u64> {
    use windows_sys::Win32::System::SystemInformation::{GlobalMemoryStatusEx, MEMORYSTATUSEX};
    // SAFETY: MEMORYSTATUSEX is plain data; the call fills it in when its
    // length field is set, and reports failure otherwise.
    unsafe {
        let mut status: MEMORYSTATUSEX = std::mem::zeroed();
        status.dwLength = std::mem::size_of::<MEMORYSTATUSEX>() as u32;
        (GlobalMemoryStatusEx(&mut status) != 0).then_some(status.ullTotalPhys)
    }
}

/// The machine's physical memory (`hw.memsize`), as macOS reports it.
#[cfg(target_os = "macos")]
fn physical_memory() -> Option<u64> {
    let mut bytes: u64 = 0;
    let mut len = std::mem::size_of::<u64>();
    // SAFETY: hw.memsize is a 64-bit integer; the call writes at most
    // `len` bytes into `bytes` and reports failure otherwise.
    let status = unsafe {
        libc::sysctlbyname(
            c"hw.memsize".as_ptr(),
            (&mut bytes as *mut u64).cast(),
            &mut len,
            std::ptr::null_mut(),
            0,
        )
    };
    (status == 0 && len == std::mem::size_of::<u64>() && bytes > 0).then_some(bytes)
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

    #[test]
    fn the_tightest_limit_is_named() {
        let machine = MemoryLimits {
            physical: Some(24 * GB),
            ..MemoryLimits::default()
        };
        assert_eq!(machine.tightest(), Some((24 * GB, "the machine's memory")));
        let container = MemoryLimits {
            cgroup: Some(2 * GB),
            ..machine
        };
        assert_eq!(
            container.tightest(),
            Some((2 * GB, "the cgroup memory limit"))
        );
        let ulimit = MemoryLimits {
            address_space: Some(GB),
            ..container
        };
        assert_eq!(
            ulimit.tightest(),
            Some((GB, "the address-space limit (ulimit -v)"))
        );
        assert_eq!(MemoryLimits::default().tightest(), None);
    }

    /// Where the platform has a reading (Linux, macOS, Windows), the
    /// machine's memory is found: a cap that silently vanished would let
    /// `Hash` take what the machine cannot spare.
    #[test]
    #[cfg(any(target_os = "linux", target_os = "macos", windows))]
    fn this_machine_has_a_memory_reading() {
        let physical = MemoryLimits::of_this_process().physical;
        assert!(
            physical.is_some_and(|b| b >= 64 << 20),
            "no plausible physical memory read: {physical:?}"
        );
    }
}
