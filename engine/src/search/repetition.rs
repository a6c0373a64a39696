//! Repetition on the search path: the keys of the game since its last
//! irreversible move, then of every position the search has stepped into,
//! so that a node can tell whether its position occurred before (a draw).

use super::score::MAX_PLY;
use crate::moves::Move;
use crate::position::Position;

/// The keys of the game and of the current search path, with how many
/// reversible plies lead up to each ply (how far back a repetition may be).
pub(super) struct Repetitions {
    keys: Vec<u64>,
    /// Reversible plies before each ply of the search path.
    rev: [usize; MAX_PLY + 2],
}

impl Repetitions {
    /// Starts from the game's keys since its last irreversible move, the
    /// root position last.
    pub fn new(game_keys: &[u64]) -> Repetitions {
        let mut keys = Vec::with_capacity(game_keys.len() + MAX_PLY + 8);
        keys.extend_from_slice(game_keys);
        let mut rev = [0; MAX_PLY + 2];
        rev[0] = game_keys.len().saturating_sub(1);
        Repetitions { keys, rev }
    }

    /// Steps from `pos` at `ply` into `child` by `mv`. What can repeat is
    /// what `Game` counts for threefold repetition: `Position::is_reversible`.
    #[inline(always)]
    pub fn push(&mut self, pos: &Position, mv: &Move, child: &Position, ply: usize) {
        self.rev[ply + 1] = if pos.is_reversible(mv) {
            self.rev[ply] + 1
        } else {
            0
        };
        self.keys.push(child.key());
    }

    /// Steps back (after the child's search).
    #[inline(always)]
    pub fn pop(&mut self) {
        self.keys.pop();
    }

    /// Whether the move into `ply` (1 or more) can be undone, so that the
    /// position may come back.
    #[inline(always)]
    pub fn reversible_into(&self, ply: usize) -> bool {
        ply > 0 && self.rev[ply] > 0
    }

    /// Whether the position at `ply` (the last pushed) occurred before, in
    /// the game or on the search path, with the same side to move.
    #[inline(always)]
    pub fn is_repetition(&self, ply: usize) -> bool {
        let r = self.rev[ply];
        if r < 4 {
            return false;
        }
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let mut i = 4;
        while i <= r {
            if self.keys[n - 1 - i] == key {
                return true;
            }
            i += 2;
        }
        false
    }
}
