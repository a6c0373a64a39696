//! The signals the input reader gives a running search (`stop`, the ponder
//! hit and when its line was read), and the rule that a search that must
//! not answer by itself waits for them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Stop and ponder-hit signals, shared between the input reader and the search.
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// When the ponder hit's line was read (`None` before the hit).
    hit_at: Mutex<Option<Instant>>,
    /// Wakes `wait_until_released` on `stop` or the hit.
    released: Condvar,
}

impl SearchControl {
    /// Neither stopped nor pondering.
    pub fn new() -> SearchControl {
        SearchControl::default()
    }

    /// Ends the running search (it answers within milliseconds).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
        self.wake();
    }

    /// Whether `stop` was called since the last `reset`.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// The opponent played the expected move, as the line read at `at`
    /// says: the ponder search goes on as a normal search on the real
    /// clock, which the GUI started when it sent that line, so ours starts
    /// when it was read, not when the search next looks.
    pub fn ponder_hit(&self, at: Instant) {
        *self.lock_hit() = Some(at);
        self.pondering.store(false, Ordering::Release);
        self.wake();
    }

    /// Whether the search is still on the opponent's time.
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// When the ponder hit's line was read, if it came.
    pub fn ponder_hit_at(&self) -> Option<Instant> {
        *self.lock_hit()
    }

    /// Resets the signals before a new search (`pondering` as given).
    pub fn reset(&self, pondering: bool) {
        *self.lock_hit() = None;
        self.stop.store(false, Ordering::Release);
        self.pondering.store(pondering, Ordering::Release);
    }

    /// A ponder search, or an `infinite` one, never answers before it is
    /// told (`stop`, or the ponder hit), even when it has searched all it
    /// could: blocks until then.
    pub fn wait_until_released(&self, infinite: bool) {
        let mut guard = self.lock_hit();
        while !self.is_stopped() && (infinite || self.is_pondering()) {
            // The signals are set before `wake` takes the lock, and checked
            // here under it, so no wake-up is lost; the timeout is a guard.
            guard = self
                .released
                .wait_timeout(guard, Duration::from_millis(100))
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    fn wake(&self) {
        let _guard = self.lock_hit();
        self.released.notify_all();
    }

    /// The hit's time (a panic elsewhere while it was held leaves a valid
    /// `Option`: the lock's poisoning is ignored).
    fn lock_hit(&self) -> std::sync::MutexGuard<'_, Option<Instant>> {
        self.hit_at.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
