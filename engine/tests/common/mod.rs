//! Helpers shared by the integration tests: the naive generator, and the
//! bridges between it and the engine (positions, moves, rules).
#![allow(dead_code)] // each test binary uses a different part of this module

pub mod naive;

use naive::{Board, NaiveMove, NaiveRules, Piece};
use tama_engine::rng::Rng;
use tama_engine::{CaptureRemoval, Color, Move, Position, Rules, Square, Variant};

pub fn naive_rules(r: Rules) -> NaiveRules {
    NaiveRules {
        armenian: r.variant == Variant::Armenian,
        immediate: r.capture_removal == CaptureRemoval::Immediate,
        mid_capture_promotion: r.mid_capture_promotion,
    }
}

/// The engine's position, square by square, as a naive board.
pub fn to_naive(pos: &Position) -> Board {
    let mut b = Board::empty(pos.side_to_move() == Color::White);
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            b.cells[sq.index()] = Some(Piece {
                white: p.color == Color::White,
                king: p.king,
            });
        }
    }
    b
}

/// The naive board as an engine position (through the FEN parser).
pub fn to_position(b: &Board, rules: Rules) -> Position {
    let fen = b.to_fen();
    Position::from_fen(&fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

pub fn naive_move(m: &Move) -> NaiveMove {
    let mut captured: Vec<u8> = m.captures.iter().map(|s| s.index() as u8).collect();
    captured.sort_unstable();
    NaiveMove {
        from: m.from.index() as u8,
        to: m.to.index() as u8,
        captured,
        promotes: m.promotes,
    }
}

pub fn move_name(m: &NaiveMove) -> String {
    let mut s = format!(
        "{}{}{}",
        naive::square_name(m.from),
        if m.captured.is_empty() { "-" } else { "x" },
        naive::square_name(m.to)
    );
    if !m.captured.is_empty() {
        let c: Vec<String> = m.captured.iter().map(|&c| naive::square_name(c)).collect();
        s.push_str(&format!(" [takes {}]", c.join(",")));
    }
    if m.promotes {
        s.push_str(" =K");
    }
    s
}

/// A random position: `per_side` caps the pieces of each side (at most 16),
/// `king_percent` is the chance that a piece is a king. No man stands on its
/// own far rank (a piece drawn there becomes a king). Side to move random.
pub fn random_board(rng: &mut Rng, per_side: u64, king_percent: u64) -> Board {
    let mut b = Board::empty(rng.below(2) == 0);
    for white in [true, false] {
        let n = rng.below(per_side.min(16) + 1);
        let mut placed = 0;
        while placed < n {
            let sq = rng.below(64) as usize;
            if b.cells[sq].is_some() {
                continue;
            }
            let rank = sq / 8;
            let own_far = (white && rank == 7) || (!white && rank == 0);
            let king = own_far || rng.below(100) < king_percent;
            b.cells[sq] = Some(Piece { white, king });
            placed += 1;
        }
    }
    b
}

/// Every combination of the rule options, named for messages.
pub fn all_rules() -> Vec<Rules> {
    let v: Vec<Rules> = Rules::all().collect();
    assert_eq!(v.len(), 8);
    v
}
