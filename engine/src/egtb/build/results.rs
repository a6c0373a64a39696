//! Solving a pair that keeps only win/draw/loss, in one byte an entry.
//!
//! Without distances the order in which decided entries are played back
//! does not matter: a position is won when some move leads to a lost one,
//! lost when every move leads to a won one, whatever is found first. So an
//! entry needs no level, only whether it has been played back yet; and a
//! pass over the chunks that hold newly decided entries plays them back,
//! until a pass finds none.

use super::{cells, flag_words, for_each_chunk, Look, Pair, Solved, CHUNK};
use crate::egtb::value::{Value, Wdl};
use crate::moves::MoveList;
use std::collections::HashMap;
use std::sync::atomic::{
    AtomicBool, AtomicU64, AtomicU8,
    Ordering::{AcqRel, Relaxed, Release},
};
use std::sync::Mutex;

/// Working memory per entry: its byte.
pub(super) const BYTES_PER_ENTRY: u64 = 1;

// A cell: below `OVERFLOW` an undecided entry's count (`Look::Open`).
/// Undecided, its count too large for the byte: kept in `overflow`. Only
/// positions with more than 124 quiet moves (five kings in Armenian)
/// come near it.
const OVERFLOW: u8 = 250;
/// Decided, not played back yet.
const WIN_NEW: u8 = 251;
const LOSS_NEW: u8 = 252;
/// Decided and played back.
const WIN: u8 = 253;
const LOSS: u8 = 254;
const DRAW: u8 = 255;

/// The working state of one pair.
pub(super) struct Solver<'p, 'a> {
    pair: &'p Pair<'a>,
    cells: Vec<AtomicU8>,
    /// Counts of the `OVERFLOW` entries.
    overflow: Mutex<HashMap<u64, u32>>,
    /// One bit per chunk of `CHUNK` entries: set while the chunk may hold
    /// an entry decided and not played back.
    due: Vec<AtomicU64>,
}

/// Solves `pair` on `threads` threads.
pub(super) fn solve<'p, 'a>(pair: &'p Pair<'a>, threads: usize) -> Solver<'p, 'a> {
    let solver = Solver {
        pair,
        cells: cells(pair.len() as usize, || AtomicU8::new(DRAW)),
        overflow: Mutex::new(HashMap::new()),
        due: flag_words(pair.len().div_ceil(CHUNK).div_ceil(64)),
    };
    solver.solve(threads);
    solver
}

impl Solved for Solver<'_, '_> {
    fn value(&self, entry: u64) -> Value {
        match self.cells[entry as usize].load(Relaxed) {
            WIN => Value::without_distance(Wdl::Win),
            LOSS => Value::without_distance(Wdl::Loss),
            c => {
                debug_assert!(c != WIN_NEW && c != LOSS_NEW, "not played back");
                Value::DRAW
            }
        }
    }
}

impl Solver<'_, '_> {
    /// The word and bit of `entry`'s chunk in `due`.
    #[inline]
    fn due_bit(&self, entry: u64) -> (&AtomicU64, u64) {
        let chunk = entry / CHUNK;
        (&self.due[(chunk / 64) as usize], 1 << (chunk % 64))
    }

    /// Notes that `entry` was decided (after storing it).
    #[inline]
    fn decided(&self, entry: u64) {
        let (word, bit) = self.due_bit(entry);
        word.fetch_or(bit, Release);
    }

    fn solve(&self, threads: usize) {
        let len = self.pair.len();
        for_each_chunk(len, threads, |range| {
            let mut moves = MoveList::new();
            for entry in range {
                let cell = match self.pair.first_look(entry, &mut moves) {
                    Look::Draw => DRAW,
                    Look::Decided { distance, .. } if distance % 2 == 1 => WIN_NEW,
                    Look::Decided { .. } => LOSS_NEW,
                    Look::Open { count, .. } => match u8::try_from(count) {
                        Ok(c) if c < OVERFLOW => c,
                        _ => {
                            self.overflow.lock().unwrap().insert(entry, count);
                            OVERFLOW
                        }
                    },
                };
                self.cells[entry as usize].store(cell, Relaxed);
                if cell == WIN_NEW || cell == LOSS_NEW {
                    self.decided(entry);
                }
            }
        });
        loop {
            let busy = AtomicBool::new(false);
            for_each_chunk(len, threads, |range| {
                // Cleared first: an entry decided after this is seen below
                // (the Acquire pairs with `decided`'s Release) or keeps the
                // bit for the next pass.
                let (word, bit) = self.due_bit(range.start);
                if word.fetch_and(!bit, AcqRel) & bit == 0 {
                    return;
                }
                busy.store(true, Relaxed);
                for entry in range {
                    let cell = &self.cells[entry as usize];
                    // Only this thread plays back the entries of this chunk,
                    // and nothing else writes a decided entry.
                    match cell.load(Relaxed) {
                        WIN_NEW => {
                            cell.store(WIN, Relaxed);
                            self.propagate(entry, false);
                        }
                        LOSS_NEW => {
                            cell.store(LOSS, Relaxed);
                            self.propagate(entry, true);
                        }
                        _ => {}
                    }
                }
            });
            if !busy.load(Relaxed) {
                break;
            }
        }
    }

    /// Plays back one decided entry: a loss makes every undecided
    /// predecessor a win; a win takes its share off every undecided
    /// predecessor's count, and a count reaching zero is a loss.
    fn propagate(&self, entry: u64, lost_here: bool) {
        let preds = self.pair.predecessors(entry);
        // Touch every cell first: the loads miss the cache, and a loop of
        // independent loads lets them overlap.
        let mut seen = [0u8; crate::moves::MAX_MOVES];
        for (k, &(q, _)) in preds.iter().enumerate() {
            seen[k] = self.cells[q as usize].load(Relaxed);
        }
        for (k, &(q, take)) in preds.iter().enumerate() {
            let cell = &self.cells[q as usize];
            let mut c = seen[k];
            // Another thread may change an undecided count meanwhile:
            // retry until the byte holds.
            loop {
                let next = if c > OVERFLOW {
                    break; // decided
                } else if lost_here {
                    WIN_NEW
                } else if c == OVERFLOW {
                    self.take_overflow(q, take);
                    break;
                } else {
                    debug_assert!(u32::from(c) >= take, "a count below its moves");
                    let left = c - take as u8;
                    if left == 0 {
                        LOSS_NEW
                    } else {
                        left
                    }
                };
                match cell.compare_exchange_weak(c, next, Relaxed, Relaxed) {
                    Ok(_) => {
                        if next == WIN_NEW || next == LOSS_NEW {
                            self.decided(q);
                        }
                        break;
                    }
                    Err(now) => c = now,
                }
            }
        }
    }

    /// A win takes `take` off the count of `entry`, an `OVERFLOW` entry.
    fn take_overflow(&self, entry: u64, take: u32) {
        let mut overflow = self.overflow.lock().unwrap();
        let count = overflow.get_mut(&entry).expect("an overflow entry's count");
        *count -= take;
        if *count == 0 {
            overflow.remove(&entry);
            // Every move loses (a predecessor with a winning move keeps
            // that move in its count), so nothing else writes it now.
            let cell = &self.cells[entry as usize];
            debug_assert_eq!(cell.load(Relaxed), OVERFLOW);
            cell.store(LOSS_NEW, Relaxed);
            self.decided(entry);
        }
    }
}
