//! Ctrl-C (SIGINT) and SIGTERM (a job system's cancel or time limit, a
//! container stop): a long run (a match, data generation) stops its work,
//! writes what it has, and exits with 128 + the signal's number (130, 143),
//! as a shell reports a process the signal killed.
//!
//! The handler only stores into an atomic (async-signal-safe); it is
//! installed with the C library's `signal` (libc), which the standard
//! library links anyway. On Windows the C runtime delivers Ctrl-C (and
//! Ctrl-Break) as SIGINT through the same call; nothing sends SIGTERM
//! there. The run polls `interrupted` (the runner every 100 ms). After the
//! first signal the caller may restore the default actions, so that a
//! second one kills the process at once.

use std::sync::atomic::{AtomicI32, Ordering};

/// The number of the first signal received (0: none).
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// The signals handled, with their names.
const HANDLED: [(libc::c_int, &str); 2] = [(libc::SIGINT, "SIGINT"), (libc::SIGTERM, "SIGTERM")];

/// Whether SIGINT or SIGTERM has arrived.
pub fn interrupted() -> bool {
    RECEIVED.load(Ordering::SeqCst) != 0
}

/// The signal that arrived, by name ("SIGINT"), if any.
pub fn received() -> Option<&'static str> {
    let n = RECEIVED.load(Ordering::SeqCst);
    HANDLED
        .iter()
        .find(|&&(s, _)| s == n)
        .map(|&(_, name)| name)
}

/// The exit status of a run the signal stopped: 128 + its number (130
/// when none is known).
pub fn exit_status() -> i32 {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => 128 + libc::SIGINT,
        n => 128 + n,
    }
}

extern "C" fn on_signal(n: libc::c_int) {
    let _ = RECEIVED.compare_exchange(0, n, Ordering::SeqCst, Ordering::SeqCst);
}

/// Installs the handlers (once per process is enough; repeating is
/// harmless).
pub fn install() {
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    for (n, _) in HANDLED {
        // SAFETY: the C library's `signal` with a handler that only
        // performs an atomic compare-exchange, which is async-signal-safe.
        unsafe {
            libc::signal(n, handler);
        }
    }
}

/// Gives SIGINT and SIGTERM back their default actions (ending the
/// process).
pub fn restore_default() {
    for (n, _) in HANDLED {
        // SAFETY: as above; SIG_DFL is the default disposition.
        unsafe {
            libc::signal(n, libc::SIG_DFL);
        }
    }
}
