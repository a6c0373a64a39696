//! Hub notation: Scan's Hub protocol (version 2) on the 8x8 board, the way
//! pydraughts' `HubEngine` speaks it for its `turkish` variant. Both the
//! engine side (`tama hub`) and the client side (the match runner) read and
//! write it through this module.
//!
//! - Squares are numbered a1 = 1, b1 = 2, ..., h1 = 8, a2 = 9, ..., h8 = 64.
//! - A quiet move is `from-to`; a capture `fromxto` followed by `x<square>`
//!   for every captured piece, in ascending order (`20x50x28x44x51`).
//! - A position is the side to move (`W`/`B`) and 64 characters for the
//!   squares a8..h8, a7..h7, ..., a1..h1 (read like text, White at the
//!   bottom): `w`/`b` men, `W`/`B` kings, `e` empty.
//! - A line is `command name=value name=value ...`; a value is a run of
//!   characters other than blanks, `=` and `"`, or a `"..."` string (no
//!   escapes). An argument may also be a bare flag (`go think`, `pos start`).

use super::{quote_short, FenError, MoveError};
use crate::bitboard::Bitboard;
use crate::movegen::legal_moves;
use crate::moves::Move;
use crate::position::{Piece, Position};
use crate::rules::{Color, Rules};
use crate::square::Square;
use std::fmt;

/// The Hub number (1..=64) of a square: a1 = 1, h8 = 64.
pub fn square_number(sq: Square) -> usize {
    sq.index() + 1
}

/// A move in Hub notation: `19-27`, or `20x50x28x44x51` (from, to, then
/// the captured squares ascending). The move holds everything it needs.
pub fn move_text(mv: &Move) -> String {
    let (from, to) = (square_number(mv.from), square_number(mv.to));
    if !mv.is_capture() {
        return format!("{from}-{to}");
    }
    let mut s = format!("{from}x{to}");
    // A bitboard iterates from a1 up: the captured squares come ascending.
    for sq in mv.captures {
        s.push_str(&format!("x{}", square_number(sq)));
    }
    s
}

/// Longest move text accepted: from, to and at most 32 captured pieces.
const MAX_MOVE_SQUARES: usize = 34;

/// Reads a Hub move against the legal moves of `pos`: from, to and the set
/// of captured squares (in any order) must match exactly one legal move.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let bad = |why: &str| {
        Err(MoveError::Malformed(format!(
            "bad move {}: {why} (expected e.g. 19-27 or 20x50x28x44x51)",
            quote_short(text)
        )))
    };
    let sep = if text.contains('-') { '-' } else { 'x' };
    let mut squares = Vec::new();
    for part in text.split(sep) {
        let number = (1..=2)
            .contains(&part.len())
            .then(|| part.parse::<u8>().ok())
            .flatten();
        match number.and_then(|n| n.checked_sub(1)).and_then(Square::new) {
            Some(sq) => squares.push(sq),
            None => return bad("squares are numbers 1 to 64"),
        }
        if squares.len() > MAX_MOVE_SQUARES {
            return bad("too many squares");
        }
    }
    if squares.len() < 2 {
        return bad("a move names at least two squares");
    }
    let (from, to) = (squares[0], squares[1]);
    let mut captures = Bitboard::EMPTY;
    for &sq in &squares[2..] {
        if captures.contains(sq) {
            return bad("a captured square is named twice");
        }
        captures = captures.with(sq);
    }
    let legal = legal_moves(pos);
    let matches: Vec<Move> = legal
        .iter()
        .filter(|m| m.from == from && m.to == to && m.captures == captures)
        .copied()
        .collect();
    match matches.as_slice() {
        [m] => Ok(*m),
        [] if legal.is_empty() => Err(MoveError::Illegal(format!(
            "illegal move {}: the side to move has no legal move",
            quote_short(text)
        ))),
        [] => {
            let names: Vec<String> = legal.iter().take(16).map(move_text).collect();
            Err(MoveError::Illegal(format!(
                "illegal move {}; legal moves: {}",
                quote_short(text),
                names.join(" ")
            )))
        }
        // Same squares and captures, crowned or not (a man that passed the
        // far rank during its capture on one route only).
        _ => Err(MoveError::Ambiguous {
            text: text.to_string(),
            candidates: matches.iter().map(|m| pos.move_text(m)).collect(),
        }),
    }
}

/// The square of the `k`-th square character (0-based) of a Hub position:
/// a8 first, h1 last.
fn square_of_char(k: usize) -> Square {
    Square::from_coords((k % 8) as u8, 7 - (k / 8) as u8).expect("k < 64")
}

/// Writes a position the Hub way: side to move, then a8..h8, ..., a1..h1.
pub fn encode_position(pos: &Position) -> String {
    let mut s = String::with_capacity(65);
    s.push(match pos.side_to_move() {
        Color::White => 'W',
        Color::Black => 'B',
    });
    for k in 0..64 {
        s.push(pos.piece_at(square_of_char(k)).map_or('e', Piece::letter));
    }
    s
}

/// Why a Hub position was refused (`decode_position`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HubPositionError {
    /// Not 65 bytes.
    Length {
        /// The text, shortened and quoted (`quote_short`).
        shown: String,
        /// Its length in characters.
        chars: usize,
    },
    /// The first character is not the side to move.
    Side(char),
    /// A square's character is not a piece or empty.
    Square {
        /// The square's place in the text, from 1 (a8 = 1, h1 = 64).
        number: usize,
        /// The square.
        square: Square,
        /// What is there.
        found: char,
    },
    /// The pieces are not a position the rules allow (as a FEN's are checked).
    Pieces(FenError),
}

impl fmt::Display for HubPositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HubPositionError::Length { shown, chars } => write!(
                f,
                "bad position {shown}: expected W or B and 64 squares (w b W B e), got {chars} characters"
            ),
            HubPositionError::Side(c) => write!(
                f,
                "bad position: the first character must be W or B, got {c:?}"
            ),
            HubPositionError::Square {
                number,
                square,
                found,
            } => write!(
                f,
                "bad position: square {number} ({square}) is {found:?}; use w b W B e"
            ),
            HubPositionError::Pieces(e) => write!(f, "bad position: {e}"),
        }
    }
}

impl std::error::Error for HubPositionError {}

/// Reads a Hub position (the inverse of `encode_position`; `E` and `.` are
/// also read as empty). The pieces are checked as a FEN's are.
pub fn decode_position(text: &str, rules: Rules) -> Result<Position, HubPositionError> {
    let bytes = text.as_bytes();
    if bytes.len() != 65 {
        return Err(HubPositionError::Length {
            shown: quote_short(text),
            chars: text.chars().count(),
        });
    }
    let side = match bytes[0] {
        b'W' | b'w' => 'W',
        b'B' | b'b' => 'B',
        c => return Err(HubPositionError::Side(c as char)),
    };
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for (k, &c) in bytes[1..].iter().enumerate() {
        let sq = square_of_char(k);
        match c {
            b'e' | b'E' | b'.' => {}
            b'w' => white.push(sq.to_string()),
            b'W' => white.push(format!("K{sq}")),
            b'b' => black.push(sq.to_string()),
            b'B' => black.push(format!("K{sq}")),
            _ => {
                return Err(HubPositionError::Square {
                    number: k + 1,
                    square: sq,
                    found: c as char,
                })
            }
        }
    }
    let fen = format!("{side}:W{}:B{}", white.join(","), black.join(","));
    Position::from_fen(&fen, rules).map_err(HubPositionError::Pieces)
}

/// One tokenized Hub line: the command and its `name[=value]` arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The first word (empty for a blank line).
    pub command: String,
    /// The arguments in order; `None` for a bare flag.
    pub args: Vec<(String, Option<String>)>,
}

fn is_name_char(c: char) -> bool {
    !c.is_whitespace() && c != '=' && c != '"'
}

type Chars<'a> = std::iter::Peekable<std::str::CharIndices<'a>>;

/// A run of name characters (possibly empty).
fn name(chars: &mut Chars) -> String {
    let mut s = String::new();
    while let Some(&(_, c)) = chars.peek() {
        if !is_name_char(c) {
            break;
        }
        s.push(c);
        chars.next();
    }
    s
}

fn skip_blanks(chars: &mut Chars) {
    while chars.peek().is_some_and(|&(_, c)| c.is_whitespace()) {
        chars.next();
    }
}

/// Why a line is not Hub (`tokenize`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HubLineError {
    /// The line starts with this character, not a command name.
    NoCommand(char),
    /// An argument starts with this character, not a name.
    NoArgumentName(char),
    /// This character follows an argument without a blank between.
    NoBlank(char),
    /// The quoted value of this argument has no closing `"`.
    Unterminated(String),
    /// `name=` with nothing after it.
    NoValue(String),
}

impl fmt::Display for HubLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HubLineError::NoCommand(c) => {
                write!(f, "a line starts with a command name, not {c:?}")
            }
            HubLineError::NoArgumentName(c) => {
                write!(f, "expected an argument name, found {c:?}")
            }
            HubLineError::NoBlank(c) => write!(f, "expected a blank before {c:?}"),
            HubLineError::Unterminated(key) => {
                write!(f, "unterminated quoted value of {key}")
            }
            HubLineError::NoValue(key) => {
                write!(f, "{key}= needs a value (quote an empty one: \"\")")
            }
        }
    }
}

impl std::error::Error for HubLineError {}

/// The value after `key=`: a name run or a `"..."` string.
fn value(chars: &mut Chars, key: &str) -> Result<String, HubLineError> {
    if chars.peek().is_some_and(|&(_, c)| c == '"') {
        chars.next();
        let mut v = String::new();
        loop {
            match chars.next() {
                Some((_, '"')) => return Ok(v),
                Some((_, c)) => v.push(c),
                None => return Err(HubLineError::Unterminated(key.to_string())),
            }
        }
    }
    let v = name(chars);
    if v.is_empty() {
        return Err(HubLineError::NoValue(key.to_string()));
    }
    Ok(v)
}

/// Splits a line the way Scan's hub scanner does; says what is wrong with
/// a line that is not Hub.
pub fn tokenize(text: &str) -> Result<Line, HubLineError> {
    let mut chars = text.char_indices().peekable();
    skip_blanks(&mut chars);
    let command = name(&mut chars);
    if command.is_empty() {
        return match chars.peek() {
            None => Ok(Line {
                command,
                args: Vec::new(),
            }),
            Some(&(_, c)) => Err(HubLineError::NoCommand(c)),
        };
    }
    let mut args = Vec::new();
    loop {
        skip_blanks(&mut chars);
        let Some(&(_, c)) = chars.peek() else { break };
        let key = name(&mut chars);
        if key.is_empty() {
            return Err(HubLineError::NoArgumentName(c));
        }
        if chars.peek().is_some_and(|&(_, c)| c == '=') {
            chars.next();
            let v = value(&mut chars, &key)?;
            args.push((key, Some(v)));
        } else {
            args.push((key, None));
        }
        // Two arguments must be separated by blanks.
        if let Some(&(_, c)) = chars.peek() {
            if !c.is_whitespace() {
                return Err(HubLineError::NoBlank(c));
            }
        }
    }
    Ok(Line { command, args })
}

/// A value as an argument can carry it: bare when it is a plain run of name
/// characters, otherwise in quotes (a `"` inside cannot be carried and is
/// dropped).
pub fn quote_value(v: &str) -> String {
    if !v.is_empty() && v.chars().all(is_name_char) {
        v.to_string()
    } else {
        format!("\"{}\"", v.replace('"', ""))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "Weeeeeeeebbbbbbbbbbbbbbbbeeeeeeeeeeeeeeeewwwwwwwwwwwwwwwweeeeeeee";

    #[test]
    fn tokenizer_follows_scan() {
        let l = tokenize("pos pos=Wee moves=\"22-30 41-33\"  start").unwrap();
        assert_eq!(l.command, "pos");
        assert_eq!(
            l.args,
            vec![
                ("pos".into(), Some("Wee".into())),
                ("moves".into(), Some("22-30 41-33".into())),
                ("start".into(), None)
            ]
        );
        assert_eq!(
            tokenize("pos moves=\"22-30"),
            Err(HubLineError::Unterminated("moves".into()))
        );
        assert_eq!(
            tokenize("pos moves=").unwrap_err().to_string(),
            "moves= needs a value (quote an empty one: \"\")"
        );
        assert_eq!(tokenize("pos a=\"x\"b"), Err(HubLineError::NoBlank('b')));
        assert_eq!(tokenize("=x"), Err(HubLineError::NoCommand('=')));
        assert_eq!(
            tokenize("go =x").unwrap_err().to_string(),
            "expected an argument name, found '='"
        );
        assert_eq!(tokenize("   ").unwrap().command, "");
        // What quote_value writes reads back.
        for v in ["armenian", "two words", "", "a=b", "say \"hi\""] {
            let line = format!("set-param name=x value={}", quote_value(v));
            let t = tokenize(&line).unwrap();
            assert_eq!(t.args[1].1.as_deref(), Some(v.replace('"', "").as_str()));
        }
    }

    #[test]
    fn start_position_round_trips() {
        // pydraughts' Turkish start position string.
        let p = decode_position(START, Rules::TURKISH).unwrap();
        assert_eq!(p, Position::startpos(Rules::TURKISH));
        assert_eq!(encode_position(&p), START);
    }

    #[test]
    fn pydraughts_examples() {
        // `B:WKa1,d3,d5,c6,d7,h2:Bd8,a7,Kh8` (a pydraughts custom start):
        // Black's only move is d8 x d7, d5, d3 -> d2 = `60x12x20x36x52`.
        let text = "BeeebeeeBbeeweeeeeeweeeeeeeeweeeeeeeeeeeeeeeweeeeeeeeeeewWeeeeeee";
        let p = decode_position(text, Rules::TURKISH).unwrap();
        let fen = "B:WKa1,d3,d5,d7,c6,h2:Bd8,Kh8,a7";
        assert_eq!(p, Position::from_fen(fen, Rules::TURKISH).unwrap());
        assert_eq!(encode_position(&p), text);
        let m = parse_move(&p, "60x12x20x36x52").unwrap();
        assert_eq!(move_text(&m), "60x12x20x36x52");
        assert_eq!(p.move_text(&m), "d8xd6xd4xd2");
        assert_eq!(parse_move(&p, "60x12x52x36x20").unwrap(), m);
        let quiet = Position::startpos(Rules::TURKISH);
        let mv = parse_move(&quiet, "19-27").unwrap();
        assert_eq!(quiet.move_text(&mv), "c3-c4");
        assert_eq!(move_text(&mv), "19-27");
    }

    #[test]
    fn refusals_say_why() {
        let p = decode_position(
            "BeeebeeeBbeeweeeeeeweeeeeeeeweeeeeeeeeeeeeeeweeeeeeeeeeewWeeeeeee",
            Rules::TURKISH,
        )
        .unwrap();
        let malformed = |t: &str| matches!(parse_move(&p, t), Err(MoveError::Malformed(_)));
        let illegal = |t: &str| matches!(parse_move(&p, t), Err(MoveError::Illegal(_)));
        // Not all the captured pieces; a square twice; not numbers.
        assert!(illegal("60x12"));
        assert!(illegal("60x12x20x36"));
        assert!(malformed("60x12x20x36x36"));
        assert!(malformed("60x12x20x36x52x52"));
        for junk in ["", "a3-a4", "99-1", "0-5", "19-", "19", "1x2x3x", "019-027"] {
            assert!(malformed(junk), "{junk:?}");
        }
        let start = Position::startpos(Rules::TURKISH);
        let e = parse_move(&start, "19-35").unwrap_err().to_string();
        assert!(e.contains("illegal move \"19-35\"; legal moves: "), "{e}");
        assert_eq!(
            decode_position("Wxx", Rules::TURKISH)
                .unwrap_err()
                .to_string(),
            "bad position \"Wxx\": expected W or B and 64 squares (w b W B e), got 3 characters"
        );
        assert_eq!(
            decode_position(&START.replacen('W', "X", 1), Rules::TURKISH),
            Err(HubPositionError::Side('X'))
        );
        let bad_char = START.replace("ww", "wq");
        let e = decode_position(&bad_char, Rules::TURKISH).unwrap_err();
        assert!(
            matches!(e, HubPositionError::Square { found: 'q', .. }),
            "{e}"
        );
        assert!(e.to_string().ends_with("is 'q'; use w b W B e"), "{e}");
        // A white man on a8, its own far rank (it would be a king).
        let far_rank_man = format!("Ww{}", "e".repeat(63));
        let e = decode_position(&far_rank_man, Rules::TURKISH).unwrap_err();
        assert!(matches!(e, HubPositionError::Pieces(_)), "{e}");
        assert!(e.to_string().contains("far rank"), "{e}");
    }
}
