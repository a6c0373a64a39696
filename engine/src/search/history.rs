//! What one search thread learns about quiet moves while it runs: two
//! killer moves per ply (the last quiet moves that cut off there) and a
//! history table by side, from and to square. Both order the quiet moves of
//! later nodes (`picker.rs`); both last as long as one search.

use super::params::HISTORY_BONUS_MAX;
use super::score::MAX_PLY;
use crate::moves::Move;
use crate::position::Position;

/// History values stay within +-HISTORY_MAX (the update is a weighted
/// average that saturates there).
pub(super) const HISTORY_MAX: i32 = 16_384;

/// The history table: for each side, from-square and to-square, how often
/// a quiet move cut off (positive) or was searched in vain before a cutoff
/// (negative), weighted by depth.
pub(super) struct History {
    table: Vec<i32>,
}

impl History {
    pub fn new() -> History {
        History {
            table: vec![0; 2 * 64 * 64],
        }
    }

    #[inline(always)]
    fn index(pos: &Position, mv: &Move) -> usize {
        (pos.side_to_move() as usize) << 12 | mv.from.index() << 6 | mv.to.index()
    }

    /// The history value of `mv` played in `pos`.
    #[inline(always)]
    pub fn get(&self, pos: &Position, mv: &Move) -> i32 {
        self.table[Self::index(pos, mv)]
    }

    fn update(&mut self, pos: &Position, mv: &Move, bonus: i32) {
        let h = &mut self.table[Self::index(pos, mv)];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// A quiet move cut off at `depth`: it gains, the quiet moves searched
    /// before it (`tried`) lose as much.
    pub fn reward_cutoff(&mut self, pos: &Position, mv: &Move, tried: &[Move], depth: i32) {
        let bonus = (depth * depth).min(HISTORY_BONUS_MAX);
        self.update(pos, mv, bonus);
        for q in tried {
            self.update(pos, q, -bonus);
        }
    }
}

/// Two killer moves per ply, the most recent first.
pub(super) struct Killers([[Move; 2]; MAX_PLY + 2]);

impl Killers {
    pub fn new() -> Killers {
        Killers([[Move::NONE; 2]; MAX_PLY + 2])
    }

    /// The killers of `ply`, the most recent first.
    #[inline(always)]
    pub fn get(&self, ply: usize) -> [Move; 2] {
        self.0[ply]
    }

    /// `mv` cut off at `ply`: it becomes the first killer there.
    pub fn store(&mut self, ply: usize, mv: Move) {
        let k = &mut self.0[ply];
        if k[0] != mv {
            *k = [mv, k[0]];
        }
    }
}
