//! Solving a pair that keeps distances: decided entries are played
//! backwards level by level (distance 0, 1, 2, ... plies), so that every
//! distance is the shortest win and the longest loss.
//!
//! A loss at level L makes every undecided predecessor a win in L + 1; a
//! win at L takes one off each undecided predecessor's count, and a count
//! reaching zero is a loss one ply after its slowest successor. A win
//! through an exit is pending at its distance (a quicker win inside the
//! pair may still come), and so is a loss whose slowest exit is further
//! than the level that completed it: both become final at their level.

use super::{cells, flag_words, for_each_chunk, Look, Pair, Solved, Successor, CHUNK};
use crate::egtb::placement::Placement;
use crate::egtb::value::Value;
use crate::movegen;
use crate::moves::MoveList;
use std::sync::atomic::{
    AtomicU32, AtomicU64,
    Ordering::{AcqRel, Relaxed, Release},
};

/// Working memory per entry: its `Cell`.
pub(super) const BYTES_PER_ENTRY: u64 = std::mem::size_of::<AtomicU32>() as u64;

// Entry states (one u16 each):
/// Not decided yet.
const UNDECIDED: u16 = 0xFFFF;
const DRAW: u16 = 0xFFFE;
/// Set on a distance that is not final yet.
const PENDING: u16 = 0x8000;
/// Distances stay below this (and below `PENDING`).
const MAX_DISTANCE: u32 = 0x7FF0;

#[inline(always)]
fn distance_of(state: u16) -> u32 {
    u32::from(state & !PENDING)
}

/// A distance set but not final yet (never `UNDECIDED` or `DRAW`, whose
/// bits include `PENDING`).
#[inline(always)]
fn is_pending(state: u16) -> bool {
    state < DRAW && state & PENDING != 0
}

#[inline(always)]
fn is_decided_at(state: u16, level: u32) -> bool {
    state < DRAW && distance_of(state) == level
}

fn encode_distance(d: u32) -> u16 {
    assert!(
        d < MAX_DISTANCE,
        "distance {d} beyond what the build can hold"
    );
    d as u16
}

/// An entry's working state packed in a word, so that a retraction
/// touches one cache line (the build is bound by these random accesses):
/// the state (bits 16..32), the successors inside the pair not yet known
/// to be won for the mover (bits 8..16), and the slowest exit into a won
/// position (bits 0..8: the loss distance it gives, its plies plus one;
/// `EXIT_UNKNOWN` when that does not fit).
#[derive(Clone, Copy)]
struct Cell(u32);

const COUNT_ONE: u32 = 1 << 8;
const EXIT_UNKNOWN: u32 = 0xFF;

impl Cell {
    fn new(state: u16, count: u8, slowest_exit: u32) -> Cell {
        Cell(u32::from(state) << 16 | u32::from(count) << 8 | slowest_exit.min(EXIT_UNKNOWN))
    }

    #[inline(always)]
    fn state(self) -> u16 {
        (self.0 >> 16) as u16
    }

    #[inline(always)]
    fn count(self) -> u32 {
        (self.0 >> 8) & 0xFF
    }

    #[inline(always)]
    fn slowest_exit(self) -> u32 {
        self.0 & 0xFF
    }

    /// The same count and exit under another state.
    #[inline(always)]
    fn with_state(self, state: u16) -> Cell {
        Cell(u32::from(state) << 16 | (self.0 & 0xFFFF))
    }

    fn of(look: Look) -> Cell {
        match look {
            Look::Draw => Cell::new(DRAW, 0, 0),
            Look::Decided { distance, pending } => {
                let d = encode_distance(distance);
                Cell::new(if pending { PENDING | d } else { d }, 0, 0)
            }
            Look::Open {
                count,
                slowest_exit,
            } => {
                let count = u8::try_from(count).expect("fewer than 128 quiet moves");
                // Should every inside move lose too, the loss is no quicker
                // than the slowest exit (`loss_distance`).
                Cell::new(UNDECIDED, count, slowest_exit)
            }
        }
    }
}

/// The working state of one pair.
pub(super) struct Solver<'p, 'a> {
    pair: &'p Pair<'a>,
    cells: Vec<AtomicU32>,
    max_level: AtomicU32,
    /// Per chunk of `CHUNK` entries, bit `d % 64` set while some entry of
    /// the chunk decided at distance `d` may wait for its level: a level
    /// reads only the chunks that have work (most have none).
    due: Vec<AtomicU64>,
}

/// Solves `pair` on `threads` threads.
pub(super) fn solve<'p, 'a>(pair: &'p Pair<'a>, threads: usize) -> Solver<'p, 'a> {
    let solver = Solver {
        pair,
        cells: cells(pair.len() as usize, || AtomicU32::new(0)),
        due: flag_words(pair.len().div_ceil(CHUNK)),
        max_level: AtomicU32::new(0),
    };
    solver.solve(threads);
    solver
}

impl Solved for Solver<'_, '_> {
    fn value(&self, entry: u64) -> Value {
        match self.state(entry) {
            UNDECIDED | DRAW => Value::DRAW,
            s => {
                debug_assert!(!is_pending(s), "pending after the last level");
                Value::decided(distance_of(s))
            }
        }
    }
}

impl Solver<'_, '_> {
    fn len(&self) -> u64 {
        self.cells.len() as u64
    }

    #[inline(always)]
    fn cell(&self, entry: u64) -> Cell {
        Cell(self.cells[entry as usize].load(Relaxed))
    }

    #[inline(always)]
    fn state(&self, entry: u64) -> u16 {
        self.cell(entry).state()
    }

    /// Notes that `entry` was given distance `d` (after storing it): its
    /// level must visit its chunk.
    #[inline]
    fn decided(&self, entry: u64, d: u32) {
        self.due[(entry / CHUNK) as usize].fetch_or(1 << (d % 64), Release);
        self.max_level.fetch_max(d, Relaxed);
    }

    fn solve(&self, threads: usize) {
        for_each_chunk(self.len(), threads, |range| {
            let mut moves = MoveList::new();
            for entry in range {
                let cell = Cell::of(self.pair.first_look(entry, &mut moves));
                self.cells[entry as usize].store(cell.0, Relaxed);
                if cell.state() < DRAW {
                    self.decided(entry, distance_of(cell.state()));
                }
            }
        });
        let mut level = 0;
        while level <= self.max_level.load(Relaxed) {
            let bit = 1u64 << (level % 64);
            for_each_chunk(self.len(), threads, |range| {
                // Cleared first: an entry marked after this is seen below
                // (the Acquire pairs with `decided`'s Release) or keeps its bit.
                let due = &self.due[(range.start / CHUNK) as usize];
                if due.fetch_and(!bit, AcqRel) & bit == 0 {
                    return;
                }
                let mut later = false;
                for entry in range {
                    let s = self.state(entry);
                    if is_decided_at(s, level) {
                        if is_pending(s) {
                            // Nothing else writes a decided entry's cell.
                            let cell = self.cell(entry).with_state(encode_distance(level));
                            self.cells[entry as usize].store(cell.0, Relaxed);
                        }
                        self.propagate(entry, level);
                    } else if s < DRAW && distance_of(s) % 64 == level % 64 {
                        later |= distance_of(s) > level;
                    }
                }
                if later {
                    due.fetch_or(bit, Release);
                }
            });
            level += 1;
        }
    }

    /// Plays back one entry decided at `level`.
    fn propagate(&self, entry: u64, level: u32) {
        let next = level + 1;
        let lost_here = level % 2 == 0;
        // Numbers first, states after: the state loads miss the cache, and
        // a loop of independent loads lets them overlap.
        let preds = self.pair.predecessors(entry);
        let mut cells = [Cell(0); crate::moves::MAX_MOVES];
        for (k, &(q, _)) in preds.iter().enumerate() {
            cells[k] = self.cell(q);
        }
        for (k, &(q, take)) in preds.iter().enumerate() {
            let word = &self.cells[q as usize];
            if lost_here {
                // Each predecessor wins by moving here. Another thread may
                // change its count meanwhile: retry until the word holds.
                let improves = |c: Cell| {
                    let s = c.state();
                    s == UNDECIDED || (is_pending(s) && distance_of(s) > next)
                };
                let mut c = cells[k];
                while improves(c) {
                    match word.compare_exchange_weak(
                        c.0,
                        c.with_state(encode_distance(next)).0,
                        Relaxed,
                        Relaxed,
                    ) {
                        Ok(_) => {
                            self.decided(q, next);
                            break;
                        }
                        Err(now) => c = Cell(now),
                    }
                }
                continue;
            }
            // A win here: an escape fewer for each predecessor.
            if cells[k].state() != UNDECIDED {
                continue;
            }
            let before = Cell(word.fetch_sub(take * COUNT_ONE, Relaxed));
            if before.count() == take {
                // Every move loses (a predecessor with a winning move keeps
                // that move in its count), so nothing else writes it now.
                debug_assert_eq!(before.state(), UNDECIDED);
                let d = self.loss_distance(q, before, level);
                let s = if d == next {
                    encode_distance(d)
                } else {
                    PENDING | encode_distance(d)
                };
                word.store(Cell::new(s, 0, 0).0, Relaxed);
                self.decided(q, d);
            }
        }
    }

    /// The distance of an entry all of whose moves lose, its last inside
    /// successor having been found won at `level`: one more than its
    /// slowest. Levels come in order, so no inside successor is slower
    /// than `level`; the slowest exit was kept by the first look.
    fn loss_distance(&self, entry: u64, cell: Cell, level: u32) -> u32 {
        if cell.slowest_exit() != EXIT_UNKNOWN {
            return (level + 1).max(cell.slowest_exit());
        }
        // An exit too slow for the cell's byte: look at every move again.
        let pair = self.pair;
        let (t, i) = pair.locate(entry);
        let pos = pair.tables[t].placement(i).to_position(pair.rules);
        let mut slowest = level;
        let mut moves = MoveList::new();
        movegen::generate(&pos, &mut moves);
        for mv in moves.iter() {
            let d = match pair.successor(t, &Placement::of(&pos.play(mv))) {
                Successor::Inside(e) => distance_of(self.state(e)),
                Successor::Exit(v) => v.plies.expect("distances kept"),
            };
            slowest = slowest.max(d);
        }
        slowest + 1
    }
}
