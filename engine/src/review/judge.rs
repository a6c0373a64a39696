//! How a move is judged: the evaluation as an expected score (a logistic of
//! the score, fitted to Tama's own games: docs/evaluation.md, "The expected
//! score"), the loss of a move as the expected score it gave away, its mark,
//! and the endgame databases' verdict, which overrides the search.

use crate::egtb::{Tablebase, Value, Wdl};
use crate::movegen;
use crate::notation::pdn::Nag;
use crate::search::Score;
use crate::{Color, Move, Position, Variant};
use std::fmt;

/// The scale `K` of the expected score `1 / (1 + exp(-cp / K))`, per
/// variant, in centi-men: the `K` `tama train` fits to self-play games of
/// Tama (the command is in docs/evaluation.md).
pub const fn expected_score_scale(variant: Variant) -> f64 {
    match variant {
        Variant::Armenian => 162.0,
        Variant::Turkish => 150.0,
    }
}

/// A loss of expected score (of 1) from this on is an inaccuracy.
pub const INACCURACY: f64 = 0.05;
/// From this on, a mistake.
pub const MISTAKE: f64 = 0.10;
/// From this on, a blunder.
pub const BLUNDER: f64 = 0.20;
/// A move is the only one that holds when every other loses at least this
/// much more...
pub const ONLY_MOVE_GAP: f64 = BLUNDER;
/// ...and it keeps at least this expected score (a lost position has no
/// move that holds).
pub const ONLY_MOVE_FLOOR: f64 = 0.3;

/// A position's value for one side: an evaluation, or a forced end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// Centi-men.
    Cp(i32),
    /// A win in this many moves (0: the game is won).
    Win(u32),
    /// A loss in this many moves (0: the game is lost, no move left).
    Loss(u32),
}

impl Eval {
    /// A search score, from the side to move's view.
    pub fn of_score(score: Score) -> Eval {
        match score {
            Score::Cp(v) => Eval::Cp(v),
            Score::Mate(n) if n > 0 => Eval::Win(n as u32),
            Score::Mate(n) => Eval::Loss(n.unsigned_abs()),
        }
    }

    /// The same value from the other side's view.
    pub fn flip(self) -> Eval {
        match self {
            Eval::Cp(v) => Eval::Cp(-v),
            Eval::Win(n) => Eval::Loss(n),
            Eval::Loss(n) => Eval::Win(n),
        }
    }

    /// The value from White's view, of a position where `side` is to move.
    pub fn for_white(self, side: Color) -> Eval {
        match side {
            Color::White => self,
            Color::Black => self.flip(),
        }
    }

    /// The expected score (0 to 1) of the side this value is for.
    pub fn expected(self, variant: Variant) -> f64 {
        match self {
            Eval::Cp(v) => 1.0 / (1.0 + (-f64::from(v) / expected_score_scale(variant)).exp()),
            Eval::Win(_) => 1.0,
            Eval::Loss(_) => 0.0,
        }
    }
}

impl fmt::Display for Eval {
    /// `+0.35` (men), `+#12` (a win in 12 moves), `-#3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Eval::Cp(v) => write!(
                f,
                "{}{:.2}",
                if v < 0 { "-" } else { "+" },
                f64::from(v.abs()) / 100.0
            ),
            Eval::Win(n) => write!(f, "+#{n}"),
            Eval::Loss(n) => write!(f, "-#{n}"),
        }
    }
}

/// The mark a loss of expected score earns (none below an inaccuracy).
pub fn mark(loss: f64) -> Option<Nag> {
    if loss >= BLUNDER {
        Some(Nag::Blunder)
    } else if loss >= MISTAKE {
        Some(Nag::Mistake)
    } else if loss >= INACCURACY {
        Some(Nag::Inaccuracy)
    } else {
        None
    }
}

/// The points (of 1) a database value is worth to its side.
pub fn points(value: Value) -> f64 {
    match value.wdl {
        Wdl::Win => 1.0,
        Wdl::Draw => 0.5,
        Wdl::Loss => 0.0,
    }
}

/// A database value from the other side's view.
pub fn flip(value: Value) -> Value {
    let wdl = match value.wdl {
        Wdl::Win => Wdl::Loss,
        Wdl::Draw => Wdl::Draw,
        Wdl::Loss => Wdl::Win,
    };
    Value { wdl, ..value }
}

/// A database value in words: `win in 11` (moves), `draw`, `loss in 4`,
/// `win` when the table keeps no distance.
pub fn verdict(value: Value) -> String {
    let word = match value.wdl {
        Wdl::Win => "win",
        Wdl::Draw => return "draw".to_string(),
        Wdl::Loss => "loss",
    };
    match value.plies {
        Some(p) => format!("{word} in {}", p.div_ceil(2)),
        None => word.to_string(),
    }
}

/// What the databases say about `pos` (`None`: they do not hold it), and
/// the moves that keep that value: the quickest win, the slowest loss,
/// every move that holds the draw.
pub fn tables_verdict(tables: &Tablebase, pos: &Position) -> Option<(Value, Vec<Move>)> {
    let value = tables.probe(pos)?;
    // Each move ranked for the side to move: points first, then the
    // distance (a shorter win, a longer loss).
    let rank = |v: Value| {
        let plies = i64::from(v.plies.unwrap_or(0));
        let points = (points(v) * 2.0) as i64;
        points * 100_000
            + match v.wdl {
                Wdl::Win => -plies,
                Wdl::Loss => plies,
                Wdl::Draw => 0,
            }
    };
    let ranked: Vec<(Move, i64)> = movegen::legal_moves(pos)
        .iter()
        .filter_map(|m| tables.probe(&pos.play(m)).map(|v| (*m, rank(flip(v)))))
        .collect();
    let best = ranked.iter().map(|&(_, r)| r).max();
    let moves = ranked
        .into_iter()
        .filter(|&(_, r)| Some(r) == best)
        .map(|(m, _)| m)
        .collect();
    Some((value, moves))
}

/// One side's marks over a game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Moves played.
    pub moves: usize,
    /// Moves marked `!`.
    pub only_moves: usize,
    /// Moves marked `?!`.
    pub inaccuracies: usize,
    /// Moves marked `?`.
    pub mistakes: usize,
    /// Moves marked `??`.
    pub blunders: usize,
    /// The sum of the losses of expected score.
    pub total_loss: f64,
}

impl Summary {
    /// Counts one move.
    pub fn add(&mut self, nag: Option<Nag>, loss: f64) {
        self.moves += 1;
        self.total_loss += loss;
        match nag {
            Some(Nag::Only) => self.only_moves += 1,
            Some(Nag::Inaccuracy) => self.inaccuracies += 1,
            Some(Nag::Mistake) => self.mistakes += 1,
            Some(Nag::Blunder) => self.blunders += 1,
            None => {}
        }
    }

    /// The mean loss of expected score per move, in percent.
    pub fn average_loss_percent(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            100.0 * self.total_loss / self.moves as f64
        }
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} moves, inaccuracies {}, mistakes {}, blunders {}, only moves {}, average loss {:.1}%",
            self.moves,
            self.inaccuracies,
            self.mistakes,
            self.blunders,
            self.only_moves,
            self.average_loss_percent()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn losses_map_to_marks_and_values_read_as_words() {
        assert_eq!(mark(0.049), None);
        assert_eq!(mark(INACCURACY), Some(Nag::Inaccuracy));
        assert_eq!(mark(0.15), Some(Nag::Mistake));
        assert_eq!(mark(0.5), Some(Nag::Blunder));
        assert_eq!(mark(BLUNDER), Some(Nag::Blunder));
        assert_eq!(mark(BLUNDER - 0.001), Some(Nag::Mistake));
        let even = Eval::Cp(0).expected(Variant::Armenian);
        assert!((even - 0.5).abs() < 1e-12);
        let man_up = Eval::Cp(100).expected(Variant::Armenian);
        assert!(man_up > 0.6 && man_up < 1.0, "{man_up}");
        assert_eq!(Eval::Cp(-35).to_string(), "-0.35");
        assert_eq!(Eval::Win(3).flip().to_string(), "-#3");
        assert_eq!(Eval::Cp(20).for_white(Color::Black), Eval::Cp(-20));
        assert_eq!(verdict(Value::decided(21)), "win in 11");
        assert_eq!(verdict(flip(Value::decided(21))), "loss in 11");
        assert_eq!(verdict(Value::DRAW), "draw");
        let mut s = Summary::default();
        s.add(Some(Nag::Blunder), 0.4);
        s.add(None, 0.0);
        assert_eq!((s.moves, s.blunders), (2, 1));
        assert!((s.average_loss_percent() - 20.0).abs() < 1e-9);
    }
}
