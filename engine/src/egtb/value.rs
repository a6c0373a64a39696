//! What a database says about a position, from the side to move's view.

use std::fmt;

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
/// Win, draw or loss for the side to move (ordered worst first).
pub enum Wdl {
    /// The side to move loses with best play.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins with best play.
    Win,
}

/// The result with best play and, where the table keeps it, the distance
/// to the end of the game: plies until the loser has no move, the winner
/// hurrying and the loser holding out.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Value {
    /// The result with best play.
    pub wdl: Wdl,
    /// `None` for a draw, and for tables that keep only win/draw/loss.
    pub plies: Option<u32>,
}

impl Value {
    /// A draw (draws have no distance).
    pub const DRAW: Value = Value {
        wdl: Wdl::Draw,
        plies: None,
    };

    /// A decided position `plies` from the end: a loss when even (the side
    /// with no move at ply 0 is to move), a win when odd.
    pub const fn decided(plies: u32) -> Value {
        Value {
            wdl: if plies % 2 == 0 { Wdl::Loss } else { Wdl::Win },
            plies: Some(plies),
        }
    }

    /// A result from a table that keeps no distance.
    pub const fn without_distance(wdl: Wdl) -> Value {
        Value { wdl, plies: None }
    }
}

impl fmt::Display for Value {
    /// `win N`, `draw` or `loss N`, N being `-` when the table has no distance.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = match self.wdl {
            Wdl::Win => "win",
            Wdl::Draw => return f.write_str("draw"),
            Wdl::Loss => "loss",
        };
        match self.plies {
            Some(n) => write!(f, "{word} {n}"),
            None => write!(f, "{word} -"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parity_of_the_distance_tells_the_result() {
        assert_eq!(Value::decided(0).wdl, Wdl::Loss);
        assert_eq!(Value::decided(7).to_string(), "win 7");
        assert_eq!(Value::decided(12).to_string(), "loss 12");
        assert_eq!(Value::without_distance(Wdl::Win).to_string(), "win -");
        assert_eq!(Value::DRAW.to_string(), "draw");
    }
}
