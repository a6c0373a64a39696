//! Algebraic move text: `d3-d4` for a quiet move, the landing squares in
//! order for a capture (`d4xd6xf6`).
//!
//! Parsing accepts `d3-d4`, `d3d4`, a full capture route (`x` or `:` between
//! squares) and the short form `from x to` when exactly one legal move
//! matches. Any valid route of a move parses to that move.

use super::shorten;
use crate::movegen::{capture_routes, legal_moves, CaptureRoute};
use crate::moves::Move;
use crate::position::Position;
use crate::square::Square;
use std::fmt;

/// Why a move text was refused (by either notation).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// Not move text at all.
    Malformed(String),
    /// Well-formed, but no legal move matches.
    Illegal(String),
    /// Several legal moves match; the candidates in full (algebraic)
    /// route form.
    Ambiguous {
        /// The text as given.
        text: String,
        /// The matching moves, each as its full route.
        candidates: Vec<String>,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed(m) | MoveError::Illegal(m) => f.write_str(m),
            MoveError::Ambiguous { text, candidates } => write!(
                f,
                "ambiguous move {text}: it matches {}",
                candidates.join(", ")
            ),
        }
    }
}

impl std::error::Error for MoveError {}

/// The squares named in a move text, in order.
fn squares_of(text: &str) -> Result<Vec<Square>, MoveError> {
    let shown = shorten(text);
    let malformed = |why: &str| {
        Err(MoveError::Malformed(format!(
            "malformed move {shown:?}: {why} (expected e.g. d3-d4 or d4xd6xf6)"
        )))
    };
    let bytes = text.as_bytes();
    let mut squares = Vec::new();
    let mut i = 0;
    let mut need_square = true;
    while i < bytes.len() {
        if need_square {
            let Some(sq) = text.get(i..i + 2).and_then(Square::parse) else {
                return malformed("expected a square a1..h8");
            };
            squares.push(sq);
            i += 2;
            need_square = false;
            if squares.len() > 64 {
                return malformed("too many squares");
            }
        } else {
            match bytes[i] {
                b'-' | b'x' | b'X' | b':' => {
                    i += 1;
                    need_square = true;
                }
                _ if bytes[i].is_ascii_alphabetic() => need_square = true,
                _ => return malformed("unexpected character"),
            }
        }
    }
    if need_square && !squares.is_empty() {
        return malformed("ends with a separator");
    }
    if squares.len() < 2 {
        return malformed("a move names at least two squares");
    }
    Ok(squares)
}

fn route_text(from: Square, landings: &[Square]) -> String {
    let mut s = from.to_string();
    for sq in landings {
        s.push('x');
        s.push_str(&sq.to_string());
    }
    s
}

impl CaptureRoute {
    /// This route in text, its landing squares in order: `d4xd6xf6`.
    pub fn text(&self) -> String {
        route_text(self.mv.from, &self.landings)
    }
}

impl Position {
    /// The move in text: for a capture, one of its routes (the first the
    /// generator finds, so always the same one).
    pub fn move_text(&self, mv: &Move) -> String {
        if !mv.is_capture() {
            return format!("{}-{}", mv.from, mv.to);
        }
        capture_routes(self)
            .into_iter()
            .find(|r| r.mv == *mv)
            .map(|r| route_text(mv.from, &r.landings))
            // Not legal here: still say something truthful.
            .unwrap_or_else(|| format!("{}x{}", mv.from, mv.to))
    }

    /// Parses move text against the legal moves of this position.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let text = text.trim();
        let squares = squares_of(text)?;
        let (from, to) = (squares[0], *squares.last().unwrap());
        let legal = legal_moves(self);
        let routes: Vec<CaptureRoute> = if legal.first().is_some_and(Move::is_capture) {
            capture_routes(self)
        } else {
            Vec::new()
        };

        let mut matches: Vec<Move> = routes
            .iter()
            .filter(|r| r.mv.from == from && r.landings == squares[1..])
            .map(|r| r.mv)
            .collect();
        if matches.is_empty() && squares.len() == 2 {
            matches = legal
                .iter()
                .filter(|m| m.from == from && m.to == to)
                .copied()
                .collect();
        }
        matches.dedup();
        let mut distinct: Vec<Move> = Vec::new();
        for m in matches {
            if !distinct.contains(&m) {
                distinct.push(m);
            }
        }
        match distinct.len() {
            1 => Ok(distinct[0]),
            0 => Err(MoveError::Illegal(self.explain_illegal(text, from, &legal))),
            _ => Err(MoveError::Ambiguous {
                text: text.to_string(),
                candidates: distinct.iter().map(|m| self.move_text(m)).collect(),
            }),
        }
    }

    fn explain_illegal(&self, text: &str, from: Square, legal: &[Move]) -> String {
        let us = self.side_to_move();
        let shown = shorten(text);
        if legal.is_empty() {
            return format!(
                "illegal move {shown}: {} has no legal move (the game is over)",
                us.name()
            );
        }
        let list = |moves: &mut dyn Iterator<Item = &Move>| -> String {
            let mut names: Vec<String> = moves.map(|m| self.move_text(m)).collect();
            if names.len() > 12 {
                let more = names.len() - 12;
                names.truncate(12);
                names.push(format!("and {more} more"));
            }
            names.join(" ")
        };
        match self.piece_at(from) {
            None => format!("illegal move {shown}: no piece on {from}"),
            Some(p) if p.color != us => format!(
                "illegal move {shown}: the piece on {from} is {}, and {} is to move",
                p.color.name(),
                us.name()
            ),
            _ if legal[0].is_capture() => {
                let n = legal[0].capture_count();
                format!(
                    "illegal move {shown}: capture is compulsory and the most pieces ({n}) must be taken; legal: {}",
                    list(&mut legal.iter())
                )
            }
            _ => {
                let from_here: Vec<&Move> = legal.iter().filter(|m| m.from == from).collect();
                if from_here.is_empty() {
                    format!("illegal move {shown}: the piece on {from} has no legal move")
                } else {
                    format!(
                        "illegal move {shown}: legal moves from {from}: {}",
                        list(&mut from_here.into_iter())
                    )
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Rules;
    use crate::Position;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, Rules::default()).unwrap()
    }

    #[test]
    fn quiet_move_forms() {
        let start = Position::startpos(Rules::default());
        let a = start.parse_move("d3-d4").unwrap();
        assert_eq!(start.parse_move("d3d4").unwrap(), a);
        assert_eq!(start.parse_move(" D3-D4 ").unwrap(), a);
        assert_eq!(start.move_text(&a), "d3-d4");
        assert_eq!(
            start.move_text(&start.parse_move("a3-b4").unwrap()),
            "a3-b4"
        );
    }

    #[test]
    fn capture_forms_and_routes() {
        // White man d4 jumps d5 to d6, then e6 to f6 (sideways); nothing else captures.
        let p = pos("W:Wd4:Bd5,e6,a7");
        let mv = p.parse_move("d4xd6xf6").unwrap();
        assert_eq!(mv.capture_count(), 2);
        assert_eq!(p.parse_move("d4:d6:f6").unwrap(), mv);
        assert_eq!(p.parse_move("d4xf6").unwrap(), mv);
        assert_eq!(p.parse_move("d4-f6").unwrap(), mv);
        assert_eq!(p.move_text(&mv), "d4xd6xf6");
    }

    #[test]
    fn errors_say_why() {
        let start = Position::startpos(Rules::default());
        let e = start.parse_move("d3-d5").unwrap_err().to_string();
        assert!(e.contains("legal moves from d3"), "{e}");
        let e = start.parse_move("d4-d5").unwrap_err().to_string();
        assert!(e.contains("no piece on d4"), "{e}");
        let e = start.parse_move("d6-d5").unwrap_err().to_string();
        assert!(e.contains("is black"), "{e}");
        let e = start.parse_move("d3").unwrap_err().to_string();
        assert!(e.contains("malformed"), "{e}");
        let e = start.parse_move("d3-").unwrap_err().to_string();
        assert!(e.contains("separator"), "{e}");
        let e = start.parse_move("d3?d4").unwrap_err().to_string();
        assert!(e.contains("malformed"), "{e}");
        let e = pos("W:Wd4,a2:Bd5,a7")
            .parse_move("a2-a3")
            .unwrap_err()
            .to_string();
        assert!(e.contains("compulsory") && e.contains("d4xd6"), "{e}");
        for junk in ["", "x", "€€", "d3-d4-", "zz-zz", "d3xx"] {
            assert!(start.parse_move(junk).is_err(), "{junk:?}");
        }
    }

    #[test]
    fn every_route_parses_and_shared_endpoints_are_ambiguous() {
        // Random king-heavy positions: every route of every legal capture must
        // parse back to its move, and whenever two distinct legal moves share
        // their first and last square the short form must be refused with both
        // listed. Positions come from a fixed seed, so the test is reproducible.
        let mut rng = crate::rng::Rng::new(7);
        let mut ambiguous_seen = 0;
        for _ in 0..4000 {
            let p = crate::testutil::random_position(&mut rng, Rules::default());
            let legal = crate::movegen::legal_moves(&p);
            for r in crate::movegen::capture_routes(&p) {
                let text = super::route_text(r.mv.from, &r.landings);
                assert_eq!(p.parse_move(&text), Ok(r.mv), "{} {text}", p.fen());
            }
            for m in &legal {
                let text = p.move_text(m);
                assert_eq!(p.parse_move(&text), Ok(*m), "{} {text}", p.fen());
                let short = format!("{}x{}", m.from, m.to);
                let twins: Vec<_> = legal
                    .iter()
                    .filter(|o| o.from == m.from && o.to == m.to)
                    .collect();
                if twins.len() > 1 {
                    ambiguous_seen += 1;
                    match p.parse_move(&short) {
                        Err(super::MoveError::Ambiguous { candidates, .. }) => {
                            assert_eq!(candidates.len(), twins.len());
                        }
                        other => panic!("{} {short}: {other:?}", p.fen()),
                    }
                }
            }
        }
        assert!(ambiguous_seen > 0, "no ambiguous short form was exercised");
    }
}
