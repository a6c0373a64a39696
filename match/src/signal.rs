//! Ctrl-C (SIGINT) and SIGTERM (a job system's cancel or time limit, a
//! container stop): the runner stops its games, writes what it has, exits
//! with 128 + the signal's number (130, 143), as a shell reports a process
//! the signal killed.
//!
//! No dependency is added for this: the handler only stores into atomics
//! (async-signal-safe), installed with the C library's `signal`, which the
//! standard library links anyway. The runner's main loop polls the flag
//! every 100 ms (it is the "watcher"), aborts the games in progress, writes
//! the tables and the results file, and exits. After the first signal the
//! default actions are restored, so a second one kills the runner at once.
//! Engines run in their own process groups, so a Ctrl-C typed at the
//! terminal does not reach them (the runner ends them).

use std::sync::atomic::{AtomicI32, Ordering};

/// The number of the first signal received (0: none).
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// The signals handled.
#[cfg(unix)]
const HANDLED: [(i32, &str); 2] = [(2, "SIGINT"), (15, "SIGTERM")];

/// Whether SIGINT or SIGTERM has arrived.
pub fn interrupted() -> bool {
    RECEIVED.load(Ordering::SeqCst) != 0
}

/// The signal that arrived, by name ("SIGINT"), if any.
pub fn received() -> Option<&'static str> {
    let n = RECEIVED.load(Ordering::SeqCst);
    #[cfg(unix)]
    return HANDLED
        .iter()
        .find(|&&(s, _)| s == n)
        .map(|&(_, name)| name);
    #[cfg(not(unix))]
    return (n != 0).then_some("Ctrl-C");
}

/// The exit status of a runner the signal stopped: 128 + its number (130
/// when none is known).
pub fn exit_status() -> i32 {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => 130,
        n => 128 + n,
    }
}

#[cfg(unix)]
mod imp {
    use super::{HANDLED, RECEIVED};
    use std::sync::atomic::Ordering;

    const SIG_DFL: usize = 0;

    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }

    extern "C" fn on_signal(n: i32) {
        let _ = RECEIVED.compare_exchange(0, n, Ordering::SeqCst, Ordering::SeqCst);
    }

    pub fn install() {
        let handler = on_signal as extern "C" fn(i32) as usize;
        for (n, _) in HANDLED {
            // SAFETY: `signal` is the C library's; the handler only
            // performs an atomic compare-exchange, which is
            // async-signal-safe.
            unsafe {
                signal(n, handler);
            }
        }
    }

    pub fn restore_default() {
        for (n, _) in HANDLED {
            // SAFETY: as above; SIG_DFL is the default disposition.
            unsafe {
                signal(n, SIG_DFL);
            }
        }
    }
}

#[cfg(not(unix))]
mod imp {
    pub fn install() {}
    pub fn restore_default() {}
}

/// Installs the handlers (once per process is enough; repeating is
/// harmless).
pub fn install() {
    imp::install();
}

pub fn restore_default() {
    imp::restore_default();
}
