//! One test per rule, each on a small position reasoned by hand; one module
//! per kind of move, the helpers they share here.
//!
//! Boards are drawn with rank 8 at the top: `w`/`b` are white/black men,
//! `W`/`B` white/black kings, `.` an empty square. A move is written by its
//! identity: `from-to` for a quiet move, `fromxto[captured squares]` for a
//! capture (whatever the route), `=K` when the man ends crowned.

mod end_of_game;
mod king_captures;
mod man_captures;
mod options;
mod quiet;

use crate::movegen::{capture_routes, count, legal_moves};
use crate::moves::Move;
use crate::position::Position;
use crate::rules::{CaptureRemoval, Rules, Variant};

const ARMENIAN: Rules = Rules::ARMENIAN;
const TURKISH: Rules = Rules::TURKISH;

fn rules(variant: Variant, removal: CaptureRemoval, mid_capture_promotion: bool) -> Rules {
    Rules {
        variant,
        capture_removal: removal,
        mid_capture_promotion,
    }
}

fn pos(fen: &str, rules: Rules) -> Position {
    Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn id(m: &Move) -> String {
    let promo = if m.promotes { "=K" } else { "" };
    if m.is_capture() {
        let mut taken: Vec<String> = m.captures.iter().map(|s| s.to_string()).collect();
        taken.sort();
        format!("{}x{}[{}]{promo}", m.from, m.to, taken.join(","))
    } else {
        format!("{}-{}{promo}", m.from, m.to)
    }
}

/// The legal moves, sorted, each by its identity. Also checks that no move
/// comes twice and that the bulk count agrees.
fn moves(fen: &str, rules: Rules) -> Vec<String> {
    let p = pos(fen, rules);
    let list = legal_moves(&p);
    let mut v: Vec<String> = list.iter().map(id).collect();
    v.sort();
    let n = v.len();
    v.dedup();
    assert_eq!(v.len(), n, "a move listed twice in {fen}");
    assert_eq!(count(&p), n, "bulk count in {fen}");
    v
}

/// The legal moves of the piece on `from` only.
fn moves_from(fen: &str, rules: Rules, from: &str) -> Vec<String> {
    moves(fen, rules)
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect()
}

/// Every legal capture route as its landing squares, sorted.
fn routes(fen: &str, rules: Rules) -> Vec<String> {
    let mut v: Vec<String> = capture_routes(&pos(fen, rules))
        .iter()
        .map(|r| {
            let mut s = r.mv.from.to_string();
            for l in &r.landings {
                s.push('x');
                s.push_str(&l.to_string());
            }
            s
        })
        .collect();
    v.sort();
    v
}

fn strs(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}
