//! Static evaluation in centi-men (a man = 100), from the side to move's view.
//!
//! Contract: `evaluate` for the search, `breakdown` for the `eval` command.

use crate::position::Position;
use crate::rules::Color;
use std::fmt;

#[derive(Clone, Debug)]
pub struct EvalTerm {
    pub name: &'static str,
    pub white: i32,
    pub black: i32,
}

#[derive(Clone, Debug)]
pub struct EvalBreakdown {
    pub terms: Vec<EvalTerm>,
    /// White's view (positive: White is better).
    pub total_white: i32,
    /// What `evaluate` returns: the side to move's view.
    pub side_to_move: i32,
}

pub fn evaluate(pos: &Position) -> i32 {
    breakdown(pos).side_to_move
}

pub fn breakdown(pos: &Position) -> EvalBreakdown {
    let material = |c: Color| pos.men(c).count() as i32 * 100 + pos.kings(c).count() as i32 * 250;
    let terms = vec![EvalTerm {
        name: "material",
        white: material(Color::White),
        black: material(Color::Black),
    }];
    let total_white: i32 = terms.iter().map(|t| t.white - t.black).sum();
    let side_to_move = match pos.side_to_move() {
        Color::White => total_white,
        Color::Black => -total_white,
    };
    EvalBreakdown {
        terms,
        total_white,
        side_to_move,
    }
}

impl fmt::Display for EvalBreakdown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<16} {:>7} {:>7} {:>7}",
            "term", "white", "black", "total"
        )?;
        for t in &self.terms {
            writeln!(
                f,
                "{:<16} {:>7} {:>7} {:>7}",
                t.name,
                t.white,
                t.black,
                t.white - t.black
            )?;
        }
        write!(
            f,
            "total (white's view) {}, side to move {}",
            self.total_white, self.side_to_move
        )
    }
}
