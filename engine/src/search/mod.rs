//! The search: what the protocol layer drives.
//!
//! Contract (the protocol crate depends on exactly this surface):
//! - `Searcher` owns the transposition table and the options; `search` is
//!   blocking and runs on the caller's thread (the protocol runs it on a
//!   worker thread and keeps reading input).
//! - `SearchControl` is shared (`Arc`) between the reader and the search:
//!   `stop()` ends the search within milliseconds; `ponder_hit()` turns a
//!   ponder search into a normal timed one.
//! - `info` is called after every completed iteration (and on aspiration
//!   fail-high/low) with what to report; the caller formats it.

pub mod bench;
mod limits;

pub use limits::{Clock, SearchLimits};

use crate::game::Game;
use crate::movegen;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A search score from the side to move's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centi-men: a man is worth 100.
    Cp(i32),
    /// A forced win in this many moves of the side to move (negative: forced loss).
    Mate(i32),
}

/// Internal score unit bound: anything beyond `MATE - MAX_PLY` is a mate score.
pub const MATE: i32 = 30_000;
pub const MAX_PLY: usize = 128;

impl Score {
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE - MAX_PLY as i32 {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -(MATE - MAX_PLY as i32) {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }
}

/// Which bound a reported score is, when an aspiration window failed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based line number (MultiPV).
    pub multipv: u32,
    pub score: Score,
    pub bound: Bound,
    pub nodes: u64,
    pub nps: u64,
    /// Per mille of the transposition table in use.
    pub hashfull: u32,
    pub time: Duration,
    pub pv: Vec<Move>,
}

#[derive(Clone, Debug, Default)]
pub struct SearchOutcome {
    /// `None` only when the side to move has no legal move.
    pub best_move: Option<Move>,
    pub ponder_move: Option<Move>,
    pub score: Option<Score>,
    pub depth: u32,
    pub nodes: u64,
}

#[derive(Clone, Debug)]
pub struct SearchOptions {
    pub threads: usize,
    pub multipv: usize,
    /// Kept back from the clock for the time the move takes to reach the GUI.
    pub move_overhead: Duration,
    /// Plain fixed-depth alpha-beta with a material-only evaluation: the
    /// baseline that measurements compare the real search against.
    pub baseline: bool,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(30),
            baseline: false,
        }
    }
}

/// Stop and ponder-hit signals, shared between the input reader and the search.
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
}

impl SearchControl {
    pub fn new() -> SearchControl {
        SearchControl::default()
    }

    pub fn stop(&self) {
        self.stop.store(true, Ordering::Release);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }

    /// The opponent played the expected move: the ponder search goes on as a
    /// normal search on the real clock.
    pub fn ponder_hit(&self) {
        self.pondering.store(false, Ordering::Release);
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// Resets both signals before a new search (`pondering` as given).
    pub fn reset(&self, pondering: bool) {
        self.stop.store(false, Ordering::Release);
        self.pondering.store(pondering, Ordering::Release);
    }
}

pub struct Searcher {
    options: SearchOptions,
    hash_mb: usize,
}

impl Searcher {
    pub const DEFAULT_HASH_MB: usize = 64;
    pub const MAX_HASH_MB: usize = 65536;

    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            options: SearchOptions::default(),
            hash_mb,
        }
    }

    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    pub fn options_mut(&mut self) -> &mut SearchOptions {
        &mut self.options
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.hash_mb = mb.clamp(1, Self::MAX_HASH_MB);
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Forgets everything learned: table, history, killers.
    pub fn clear(&mut self) {}

    pub fn hashfull(&self) -> u32 {
        0
    }

    /// Searches the game's current position within `limits`. Blocking.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &SearchLimits,
        control: &SearchControl,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        let started = Instant::now();
        let root = *game.position();
        let mut moves = movegen::legal_moves(&root);
        if !limits.searchmoves.is_empty() {
            moves.retain(|m| limits.searchmoves.contains(m));
        }
        let mut outcome = SearchOutcome {
            best_move: moves.first().copied(),
            ..SearchOutcome::default()
        };
        if moves.len() <= 1 && !limits.infinite && !control.is_pondering() {
            return outcome;
        }
        let deadline = limits.hard_deadline(started, root.side_to_move(), &self.options);
        let mut nodes = 0u64;
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).max(1);
        for depth in 1..=max_depth {
            let mut ctx = Plain {
                nodes: &mut nodes,
                control,
                deadline,
                node_limit: limits.nodes,
                aborted: false,
            };
            let mut best: Option<(Move, i32)> = None;
            let mut alpha = -MATE - 1;
            for m in &moves {
                let v = -ctx.negamax(&root.play(m), depth - 1, -MATE - 1, -alpha, 1);
                if ctx.aborted {
                    break;
                }
                if best.is_none() || v > alpha {
                    alpha = v;
                    best = Some((*m, v));
                }
            }
            if ctx.aborted {
                break;
            }
            if let Some((m, v)) = best {
                outcome.best_move = Some(m);
                outcome.score = Some(Score::from_internal(v));
                outcome.depth = depth;
                let elapsed = started.elapsed();
                info(&SearchInfo {
                    depth,
                    seldepth: depth,
                    multipv: 1,
                    score: Score::from_internal(v),
                    bound: Bound::Exact,
                    nodes,
                    nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-6)) as u64,
                    hashfull: 0,
                    time: elapsed,
                    pv: vec![m],
                });
                if let Some(i) = moves.iter().position(|x| *x == m) {
                    moves[..=i].rotate_right(1);
                }
            }
        }
        // A ponder or infinite search must not answer before it is told to.
        while (limits.infinite || control.is_pondering()) && !control.is_stopped() {
            std::thread::sleep(Duration::from_millis(1));
        }
        outcome.nodes = nodes;
        outcome
    }
}

struct Plain<'a> {
    nodes: &'a mut u64,
    control: &'a SearchControl,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    aborted: bool,
}

impl Plain<'_> {
    fn negamax(&mut self, pos: &Position, depth: u32, mut alpha: i32, beta: i32, ply: i32) -> i32 {
        *self.nodes += 1;
        if *self.nodes % 1024 == 0 {
            let late =
                self.deadline.is_some_and(|d| Instant::now() >= d) && !self.control.is_pondering();
            if late
                || self.control.is_stopped()
                || self.node_limit.is_some_and(|n| *self.nodes >= n)
            {
                self.aborted = true;
            }
        }
        if self.aborted {
            return 0;
        }
        let mut list = MoveList::new();
        movegen::generate(pos, &mut list);
        if list.is_empty() {
            return -MATE + ply;
        }
        if depth == 0 && !list[0].is_capture() {
            let us = pos.side_to_move();
            let them = us.opponent();
            let material = |c| pos.men(c).count() as i32 * 100 + pos.kings(c).count() as i32 * 250;
            return material(us) - material(them);
        }
        for m in &list {
            let v = -self.negamax(
                &pos.play(m),
                depth.saturating_sub(1),
                -beta,
                -alpha,
                ply + 1,
            );
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }
}
