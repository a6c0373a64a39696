//! Ctrl-C (SIGINT): the runner stops its games, writes what it has, exits.
//!
//! No dependency is added for this: the handler only stores into an atomic
//! flag (async-signal-safe), installed with the C library's `signal`, which
//! the standard library links anyway. The runner's main loop polls the flag
//! every 100 ms (it is the "watcher"), aborts the games in progress, writes
//! the tables and the results file, and exits with status 130. After the
//! first Ctrl-C the default action is restored, so a second one kills the
//! runner at once. Engines run in their own process groups, so a Ctrl-C
//! typed at the terminal does not reach them (the runner ends them).

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

#[cfg(unix)]
mod imp {
    use super::INTERRUPTED;
    use std::sync::atomic::Ordering;

    const SIGINT: i32 = 2;
    const SIG_DFL: usize = 0;

    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }

    extern "C" fn on_sigint(_: i32) {
        INTERRUPTED.store(true, Ordering::SeqCst);
    }

    pub fn install() {
        let handler = on_sigint as extern "C" fn(i32) as usize;
        // SAFETY: `signal` is the C library's; the handler only performs an
        // atomic store, which is async-signal-safe.
        unsafe {
            signal(SIGINT, handler);
        }
    }

    pub fn restore_default() {
        // SAFETY: as above; SIG_DFL is the default disposition.
        unsafe {
            signal(SIGINT, SIG_DFL);
        }
    }
}

#[cfg(not(unix))]
mod imp {
    pub fn install() {}
    pub fn restore_default() {}
}

/// Installs the SIGINT handler (once per process is enough; repeating is harmless).
pub fn install() {
    imp::install();
}

pub fn restore_default() {
    imp::restore_default();
}
