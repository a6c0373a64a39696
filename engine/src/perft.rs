//! Perft: the number of leaf nodes of the legal move tree at a given depth.
//!
//! Leaves are counted at exactly the given depth (a position with no legal
//! move above that depth adds nothing) with bulk counting at the last ply.
//! `perft` counts each distinct move once; `perft_routes` counts every jump
//! route separately, as the kish crate does.

use crate::movegen::{self, generate_with_routes};
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Leaves at `depth`, each distinct move counted once.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => movegen::count(pos) as u64,
        // No one reads the hash keys of the tree: they are left stale.
        2 => {
            let mut list = MoveList::new();
            movegen::generate(pos, &mut list);
            list.iter()
                .map(|m| movegen::count(&pos.play_unhashed(m)) as u64)
                .sum()
        }
        _ => {
            let mut list = MoveList::new();
            movegen::generate(pos, &mut list);
            list.iter()
                .map(|m| perft(&pos.play_unhashed(m), depth - 1))
                .sum()
        }
    }
}

/// Leaves at `depth`, every jump route of a capture counted.
pub fn perft_routes(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 && !movegen::has_capture(pos) {
        return movegen::count(pos) as u64;
    }
    let moves = generate_with_routes(pos);
    if depth == 1 {
        return moves.iter().map(|&(_, n)| n as u64).sum();
    }
    moves
        .iter()
        .map(|(m, n)| *n as u64 * perft_routes(&pos.play(m), depth - 1))
        .sum()
}

/// Perft split by root move: each root move's leaves, and their total.
pub struct Divide {
    /// Each root move once, with its route count folded into the figure
    /// when routes are counted.
    pub moves: Vec<(Move, u64)>,
    /// What `perft` (or `perft_routes`) gives: the sum of `moves`, except at
    /// depth 0, where the root itself is the one leaf and no move splits it.
    pub total: u64,
}

/// Perft split by root move (each root move once, with its route count
/// folded into the figure when `routes` is set).
pub fn divide(pos: &Position, depth: u32, routes: bool) -> Divide {
    if depth == 0 {
        return Divide {
            moves: Vec::new(),
            total: 1,
        };
    }
    let moves: Vec<(Move, u64)> = generate_with_routes(pos)
        .iter()
        .map(|&(m, n)| {
            let child = pos.play(&m);
            let count = if routes {
                n as u64 * perft_routes(&child, depth - 1)
            } else {
                perft(&child, depth - 1)
            };
            (m, count)
        })
        .collect();
    let total = moves.iter().map(|&(_, n)| n).sum();
    Divide { moves, total }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn turkish_start_matches_kish_route_figures() {
        // kish's published figures for depths 1-6 (routes and distinct moves
        // agree there: the first duplicate route appears at ply 7).
        let start = Position::startpos(Rules::TURKISH);
        let expected = [8u64, 64, 708, 7538, 85090, 931312];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft_routes(&start, d as u32 + 1), n, "depth {}", d + 1);
            assert_eq!(perft(&start, d as u32 + 1), n, "depth {}", d + 1);
        }
    }

    #[test]
    fn divide_sums_to_perft() {
        let start = Position::startpos(Rules::ARMENIAN);
        let total = divide(&start, 4, false).total;
        assert_eq!(total, perft(&start, 4));
    }
}
