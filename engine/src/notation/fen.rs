//! FEN in the PDN style with algebraic squares: `W:Wa2,b2,Kd4:Ba7,Kh8`.
//!
//! Side to move, then each side's pieces (K marks a king). Either list may be
//! empty. Parsing never panics; every rejection says what was wrong.

use super::shorten;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::rules::{Color, Rules};
use crate::square::Square;
use std::fmt;

/// The number of pieces a side starts with; no legal game can have more.
pub const MAX_PIECES_PER_SIDE: u32 = 16;

/// Why a FEN was refused (one line; shown after "bad FEN: ").
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FenError(pub String);

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad FEN: {}", self.0)
    }
}

impl std::error::Error for FenError {}

fn err<T>(msg: impl Into<String>) -> Result<T, FenError> {
    Err(FenError(msg.into()))
}

fn parse_color(text: &str) -> Option<Color> {
    match text {
        "W" | "w" => Some(Color::White),
        "B" | "b" => Some(Color::Black),
        _ => None,
    }
}

/// Reads a FEN (see the module comment) into a position under `rules`.
pub fn parse(text: &str, rules: Rules) -> Result<Position, FenError> {
    let text = text.trim();
    let text = text.strip_suffix('.').unwrap_or(text);
    if text.is_empty() {
        return err("empty FEN");
    }
    let mut fields = text.split(':');
    let side_field = fields.next().unwrap_or("").trim();
    let Some(side) = parse_color(side_field) else {
        return err(format!(
            "side to move must be W or B, found {:?}",
            shorten(side_field)
        ));
    };

    let mut pieces = [Bitboard::EMPTY; 2];
    let mut kings = Bitboard::EMPTY;
    let mut seen_list = [false; 2];
    for field in fields {
        let field = field.trim();
        let mut chars = field.chars();
        let Some(color) = chars.next().and_then(|c| parse_color(&c.to_string())) else {
            return err(format!(
                "each piece list must start with W or B, found {:?}",
                shorten(field)
            ));
        };
        if std::mem::replace(&mut seen_list[color as usize], true) {
            return err(format!("the {} piece list appears twice", color.name()));
        }
        let list = chars.as_str().trim();
        if list.is_empty() {
            continue;
        }
        for item in list.split(',') {
            let item = item.trim();
            let (king, name) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest),
                None => (false, item),
            };
            if name.is_empty() {
                return err(format!("empty entry in the {} piece list", color.name()));
            }
            let Some(sq) = Square::parse(name) else {
                return err(format!(
                    "unknown square {:?} in the {} piece list (squares are a1..h8)",
                    shorten(name),
                    color.name()
                ));
            };
            if (pieces[0] | pieces[1]).contains(sq) {
                return err(format!("square {sq} is used twice"));
            }
            if !king && color.promotion_rank().contains(sq) {
                return err(format!(
                    "a {} man on {sq} stands on its own far rank (it would be a king)",
                    color.name()
                ));
            }
            pieces[color as usize] = pieces[color as usize].with(sq);
            if king {
                kings = kings.with(sq);
            }
        }
    }
    for color in [Color::White, Color::Black] {
        let n = pieces[color as usize].count();
        if n > MAX_PIECES_PER_SIDE {
            return err(format!(
                "{} has {n} pieces; a side has at most {MAX_PIECES_PER_SIDE}",
                color.name()
            ));
        }
    }
    Ok(Position::from_parts(
        pieces[0], pieces[1], kings, side, rules,
    ))
}

/// Writes `pos` as a FEN: side, White's pieces, Black's, each ascending.
pub fn to_fen(pos: &Position) -> String {
    let mut out = String::with_capacity(100);
    out.push(match pos.side_to_move() {
        Color::White => 'W',
        Color::Black => 'B',
    });
    for (color, tag) in [(Color::White, ":W"), (Color::Black, ":B")] {
        out.push_str(tag);
        for (i, sq) in pos.pieces(color).iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            if pos.all_kings().contains(sq) {
                out.push('K');
            }
            out.push_str(&sq.to_string());
        }
    }
    out
}

impl Position {
    /// The position a FEN describes (`fen::parse`).
    pub fn from_fen(text: &str, rules: Rules) -> Result<Position, FenError> {
        parse(text, rules)
    }

    /// The position as a FEN (`fen::to_fen`).
    pub fn fen(&self) -> String {
        to_fen(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rejects(fen: &str, needle: &str) {
        match parse(fen, Rules::default()) {
            Ok(p) => panic!("{fen:?} was accepted as {}", p.fen()),
            Err(e) => assert!(
                e.to_string().contains(needle),
                "{fen:?}: error {e} does not mention {needle:?}"
            ),
        }
    }

    #[test]
    fn start_position_round_trips() {
        let start = Position::startpos(Rules::default());
        let fen = start.fen();
        assert_eq!(
            fen,
            "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"
        );
        assert_eq!(parse(&fen, Rules::default()).unwrap(), start);
    }

    #[test]
    fn example_from_the_issue() {
        let pos = parse("W:Wa2,b2,Kd4:Ba7,Kh8", Rules::default()).unwrap();
        assert_eq!(pos.fen(), "W:Wa2,b2,Kd4:Ba7,Kh8");
        assert_eq!(pos.kings(Color::White).count(), 1);
        assert_eq!(pos.kings(Color::Black).count(), 1);
        assert_eq!(pos.side_to_move(), Color::White);
    }

    #[test]
    fn empty_lists_and_order() {
        let pos = parse("B:W:Bd5", Rules::default()).unwrap();
        assert_eq!(pos.fen(), "B:W:Bd5");
        assert_eq!(pos.side_to_move(), Color::Black);
        // Lists in either order, spaces and a closing full stop tolerated; output is canonical.
        let pos = parse(" W:Bh7,a7 : Wb2,a2. ", Rules::default()).unwrap();
        assert_eq!(pos.fen(), "W:Wa2,b2:Ba7,h7");
        assert_eq!(parse("W", Rules::default()).unwrap().fen(), "W:W:B");
    }

    #[test]
    fn precise_rejections() {
        rejects("", "empty");
        rejects("X:Wa2:Ba7", "side to move");
        rejects("W:Wa2:Ba9", "unknown square \"a9\"");
        rejects("W:Wa2:Bi7", "unknown square");
        rejects("W:Wa2,a2:Ba7", "a2 is used twice");
        rejects("W:Wa2:Ba2", "a2 is used twice");
        rejects("W:Wa8:Ba7", "own far rank");
        rejects("W:Wa2:Bh1", "own far rank");
        rejects("W:Wa2:Ba7:Bb7", "appears twice");
        rejects("W:Wa2,,b2:Ba7", "empty entry");
        rejects("W:Qa2:Ba7", "must start with W or B");
        rejects("W:WK:Ba7", "empty entry");
        let many: Vec<String> = Square::all().take(17).map(|s| format!("K{s}")).collect();
        rejects(&format!("W:W{}:B", many.join(",")), "at most 16");
    }

    #[test]
    fn kings_may_stand_anywhere() {
        let pos = parse("W:WKa8,Ka1:BKh1,Kh8", Rules::default()).unwrap();
        assert_eq!(pos.fen(), "W:WKa1,Ka8:BKh1,Kh8");
    }

    #[test]
    fn never_panics_on_garbage() {
        for fen in [
            "::::", "W:", ":", "W:W,:B,", "W:Wé1", "W:W\u{0}", "B:B:W:W", "W:WKK",
        ] {
            let _ = parse(fen, Rules::default());
        }
    }
}
