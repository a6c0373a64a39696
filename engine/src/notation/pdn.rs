//! PDN output of finished games, and a PDN reader that replays every move
//! through the rules core (used for opening files and by the tests).
//!
//! Tags written: Event, Site, Date, Round, White, Black, Result (`2-0`, `1-1`,
//! `0-2`), GameType, Variant, CaptureRemoval, MidCapturePromotion, SetUp and
//! FEN (the opening position the game started from), Opening (the moves that
//! led there from the opening's own start, if any), TimeControl (White's /
//! Black's when they differ), Termination, PlyCount.
//!
//! GameType: PDN's registry numbers Turkish draughts 30, so Turkish games
//! carry `GameType "30"`. The registry has no number for Armenian draughts, and
//! reusing 30 would make Turkish-only readers replay Armenian games under the
//! wrong rules; Armenian games carry `GameType "Armenian"`, so a reader that
//! expects a number rejects the game instead of misreading it. The Variant tag
//! (`armenian` / `turkish`) says the same for this reader, which accepts both.

use crate::{Color, FenError, Move, MoveError, Position, RuleValueError, Rules, Variant};
use std::fmt;
use std::fmt::Write as _;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl Outcome {
    /// The PDN result token: `2-0`, `0-2` or `1-1`.
    pub fn pdn(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "2-0",
            Outcome::BlackWins => "0-2",
            Outcome::Draw => "1-1",
        }
    }

    /// The win of colour `c`.
    pub fn win_for(c: Color) -> Outcome {
        match c {
            Color::White => Outcome::WhiteWins,
            Color::Black => Outcome::BlackWins,
        }
    }

    /// Points (0, 1, 2) of one colour.
    pub fn points(self, c: Color) -> u32 {
        match (self, c) {
            (Outcome::Draw, _) => 1,
            (Outcome::WhiteWins, Color::White) | (Outcome::BlackWins, Color::Black) => 2,
            _ => 0,
        }
    }

    /// Reads a result token (also the chess forms `1-0`, `0-1`, `1/2-1/2`).
    pub fn parse(text: &str) -> Option<Outcome> {
        match text {
            "2-0" | "1-0" => Some(Outcome::WhiteWins),
            "0-2" | "0-1" => Some(Outcome::BlackWins),
            "1-1" | "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }
}

/// A finished game as the runner records it.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The Event tag.
    pub event: String,
    /// The Date tag, `YYYY.MM.DD` (see `today`).
    pub date: String,
    /// The Round tag (`3.2`: round 3, its second game).
    pub round: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The result.
    pub outcome: Outcome,
    /// The Termination tag: how the game ended, in words.
    pub termination: String,
    /// The position the game started from (after the opening moves).
    pub start: Position,
    /// The opening moves, as text, that led to `start`.
    pub opening: String,
    /// The game's moves from `start`.
    pub moves: Vec<Move>,
    /// The TimeControl tag.
    pub time_control: String,
}

fn quote(v: &str) -> String {
    v.replace(['"', '\n', '\r'], "'")
}

/// One tag line, its value made safe to quote.
pub fn write_tag(s: &mut String, name: &str, value: &str) {
    let _ = writeln!(s, "[{name} \"{}\"]", quote(value));
}

/// The tags that let a reader replay the game without guessing: the rules
/// (GameType alone does not name the rule options) and the start position.
pub fn write_start_tags(s: &mut String, start: &Position) {
    let rules = start.rules();
    write_tag(s, "GameType", game_type(rules));
    write_tag(s, "Variant", &rules.variant.to_string());
    write_tag(s, "CaptureRemoval", &rules.capture_removal.to_string());
    write_tag(
        s,
        "MidCapturePromotion",
        &rules.mid_capture_promotion.to_string(),
    );
    write_tag(s, "SetUp", "1");
    write_tag(s, "FEN", &start.fen());
}

/// The GameType tag of a rule set (see the module comment).
pub fn game_type(rules: Rules) -> &'static str {
    match rules.variant {
        Variant::Turkish => "30",
        Variant::Armenian => "Armenian",
    }
}

/// The moves as PDN movetext, numbered, wrapped at about 80 columns.
pub fn movetext(start: &Position, moves: &[Move], result: &str) -> String {
    let mut tokens = Vec::new();
    let mut pos = *start;
    let mut number = 1;
    for (i, m) in moves.iter().enumerate() {
        match pos.side_to_move() {
            Color::White => tokens.push(format!("{number}.")),
            Color::Black if i == 0 => tokens.push(format!("{number}...")),
            Color::Black => {}
        }
        tokens.push(pos.move_text(m));
        if pos.side_to_move() == Color::Black {
            number += 1;
        }
        pos = pos.play(m);
    }
    tokens.push(result.to_string());
    let mut out = String::new();
    let mut col = 0;
    for t in tokens {
        if col > 0 && col + 1 + t.len() > 80 {
            out.push('\n');
            col = 0;
        } else if col > 0 {
            out.push(' ');
            col += 1;
        }
        out.push_str(&t);
        col += t.len();
    }
    out
}

impl GameRecord {
    /// The game as PDN: tags, a blank line, the movetext, a blank line.
    pub fn to_pdn(&self) -> String {
        let mut s = String::new();
        for (k, v) in [
            ("Event", self.event.as_str()),
            ("Site", "?"),
            ("Date", &self.date),
            ("Round", &self.round),
            ("White", &self.white),
            ("Black", &self.black),
            ("Result", self.outcome.pdn()),
        ] {
            write_tag(&mut s, k, v);
        }
        write_start_tags(&mut s, &self.start);
        let mut tag = |k: &str, v: &str| write_tag(&mut s, k, v);
        if !self.opening.is_empty() {
            tag("Opening", &self.opening);
        }
        tag("TimeControl", &self.time_control);
        tag("Termination", &self.termination);
        tag("PlyCount", &self.moves.len().to_string());
        s.push('\n');
        s.push_str(&movetext(&self.start, &self.moves, self.outcome.pdn()));
        s.push_str("\n\n");
        s
    }
}

/// Today's date for the PDN Date tag, `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    // Civil date from the Unix clock (Howard Hinnant's algorithm).
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// A game read back from PDN, replayed legally.
#[derive(Clone, Debug)]
pub struct PdnGame {
    /// The tags, name and value, in file order.
    pub tags: Vec<(String, String)>,
    /// The start position (the FEN tag, or the rules' start position).
    pub start: Position,
    /// The moves, each legal where it was played.
    pub moves: Vec<Move>,
    /// The result token at the end of the movetext (`2-0`, `1-1`, `0-2`, `*`).
    pub result: Option<String>,
}

impl PdnGame {
    /// The value of tag `name` (case-insensitive), if the game has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The position after all moves.
    pub fn end(&self) -> Position {
        let mut p = self.start;
        for m in &self.moves {
            p = p.play(m);
        }
        p
    }
}

/// Why a PDN text was refused (`read_pdn`): the first fault, with the game
/// (from 1) and for a move the ply (from 1) it is in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PdnError {
    /// A `[` with no `]` after it.
    UnclosedTag {
        /// The byte of the `[`.
        byte: usize,
    },
    /// A tag that is not `[Name "Value"]`.
    MalformedTag(String),
    /// A GameType tag naming a game other than Turkish or Armenian draughts.
    GameType {
        /// The game.
        game: usize,
        /// The tag's value.
        value: String,
    },
    /// A Variant, CaptureRemoval or MidCapturePromotion tag's value.
    Rules {
        /// The game.
        game: usize,
        /// Why the value was refused.
        error: RuleValueError,
    },
    /// The FEN tag.
    Fen {
        /// The game.
        game: usize,
        /// Why the FEN was refused.
        error: FenError,
    },
    /// A move that is not legal (or not a move) where it was played.
    Move {
        /// The game.
        game: usize,
        /// The ply.
        ply: usize,
        /// The move as written.
        text: String,
        /// Why it was refused.
        error: MoveError,
    },
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdnError::UnclosedTag { byte } => write!(f, "unclosed tag at byte {byte}"),
            PdnError::MalformedTag(inner) => write!(f, "malformed tag {inner:?}"),
            PdnError::GameType { game, value } => {
                write!(
                    f,
                    "game {game}: GameType {value:?} is not a game Tama plays"
                )
            }
            PdnError::Rules { game, error } => write!(f, "game {game}: {error}"),
            PdnError::Fen { game, error } => write!(f, "game {game}: {error}"),
            PdnError::Move {
                game,
                ply,
                text,
                error,
            } => write!(f, "game {game}, ply {ply}: {text}: {error}"),
        }
    }
}

impl std::error::Error for PdnError {}

/// The rules the tags of game `game` name, starting from `default`.
fn rules_from_tags(
    tags: &[(String, String)],
    default: Rules,
    game: usize,
) -> Result<Rules, PdnError> {
    let rule = |error| PdnError::Rules { game, error };
    let mut rules = default;
    for (k, v) in tags {
        match k.to_ascii_lowercase().as_str() {
            "gametype" => {
                let first = v.split(',').next().unwrap_or("").trim();
                match first.to_ascii_lowercase().as_str() {
                    "30" | "turkish" => rules.variant = Variant::Turkish,
                    "armenian" => rules.variant = Variant::Armenian,
                    _ => {
                        return Err(PdnError::GameType {
                            game,
                            value: v.clone(),
                        })
                    }
                }
            }
            "variant" => rules.variant = v.parse().map_err(rule)?,
            "captureremoval" => rules.capture_removal = v.parse().map_err(rule)?,
            "midcapturepromotion" => {
                rules.mid_capture_promotion = crate::rules::parse_bool(v).map_err(rule)?
            }
            _ => {}
        }
    }
    Ok(rules)
}

fn is_result(t: &str) -> bool {
    t == "*" || Outcome::parse(t).is_some()
}

/// The game being read: its tags and movetext tokens so far.
#[derive(Default)]
struct Pending {
    tags: Vec<(String, String)>,
    tokens: Vec<String>,
    /// Movetext has begun: a tag now starts the next game.
    in_moves: bool,
}

/// Reads every game of a PDN text. `default` gives the rules when the tags
/// do not. Every move must be legal; an error names the game and the move.
pub fn read_pdn(text: &str, default: Rules) -> Result<Vec<PdnGame>, PdnError> {
    let mut games = Vec::new();
    let mut pending = Pending::default();
    let mut chars = text.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        match c {
            '[' => {
                if pending.in_moves {
                    finish(&mut pending, default, &mut games)?;
                }
                let (tag, end) = read_tag(text, i)?;
                pending.tags.push(tag);
                while chars.peek().is_some_and(|&(j, _)| j <= end) {
                    chars.next();
                }
            }
            '{' => {
                // Comments are skipped.
                for (_, c) in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                }
            }
            c if c.is_whitespace() => {
                chars.next();
            }
            _ => {
                let mut tok = String::new();
                while let Some(&(_, c)) = chars.peek() {
                    if c.is_whitespace() || c == '{' || c == '[' {
                        break;
                    }
                    tok.push(c);
                    chars.next();
                }
                pending.in_moves = true;
                let body = without_move_number(&tok);
                if !body.is_empty() {
                    pending.tokens.push(body.to_string());
                    if is_result(body) {
                        finish(&mut pending, default, &mut games)?;
                    }
                }
            }
        }
    }
    finish(&mut pending, default, &mut games)?;
    Ok(games)
}

/// The tag `[Name "Value"]` that starts at byte `i`, and the byte of its `]`.
fn read_tag(text: &str, i: usize) -> Result<((String, String), usize), PdnError> {
    let end = text[i..]
        .find(']')
        .map(|e| i + e)
        .ok_or(PdnError::UnclosedTag { byte: i })?;
    let inner = text[i + 1..end].trim();
    let (name, value) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| PdnError::MalformedTag(inner.to_string()))?;
    let value = value.trim().trim_matches('"').to_string();
    Ok(((name.to_string(), value), end))
}

/// A movetext token without its move number ("12." / "12..." / glued
/// "12.d3-d4"); empty for a bare number.
fn without_move_number(tok: &str) -> &str {
    let digits = tok.chars().take_while(char::is_ascii_digit).count();
    let rest = &tok[digits..];
    if digits > 0 && rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else {
        tok
    }
}

/// Replays the pending game (if anything of it was read) into `games`,
/// and starts the next one.
fn finish(pending: &mut Pending, default: Rules, games: &mut Vec<PdnGame>) -> Result<(), PdnError> {
    let Pending { tags, tokens, .. } = std::mem::take(pending);
    if tags.is_empty() && tokens.is_empty() {
        return Ok(());
    }
    let n = games.len() + 1;
    let rules = rules_from_tags(&tags, default, n)?;
    let start = match tags.iter().find(|(k, _)| k.eq_ignore_ascii_case("FEN")) {
        Some((_, fen)) => {
            Position::from_fen(fen, rules).map_err(|error| PdnError::Fen { game: n, error })?
        }
        None => Position::startpos(rules),
    };
    let mut pos = start;
    let mut moves = Vec::new();
    let mut result = None;
    for t in &tokens {
        if is_result(t) {
            result = Some(t.clone());
            continue;
        }
        let mv = pos.parse_move(t).map_err(|error| PdnError::Move {
            game: n,
            ply: moves.len() + 1,
            text: t.clone(),
            error,
        })?;
        pos = pos.play(&mv);
        moves.push(mv);
    }
    games.push(PdnGame {
        tags,
        start,
        moves,
        result,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_and_read_back() {
        let rules = Rules::default();
        let start = Position::startpos(rules);
        let mut pos = start;
        let mut moves = Vec::new();
        // A few plies of a game, taking the first legal move each time.
        for _ in 0..30 {
            let list = crate::movegen::legal_moves(&pos);
            let Some(m) = list.last().copied() else { break };
            moves.push(m);
            pos = pos.play(&m);
        }
        let rec = GameRecord {
            event: "test \"quoted\"".into(),
            date: "2026.01.02".into(),
            round: "1.1".into(),
            white: "A".into(),
            black: "B".into(),
            outcome: Outcome::Draw,
            termination: "adjudication: max game length".into(),
            start,
            opening: String::new(),
            moves: moves.clone(),
            time_control: "10+0.1".into(),
        };
        let text = rec.to_pdn() + &rec.to_pdn();
        assert!(text.contains("[GameType \"Armenian\"]"));
        assert!(text.contains("[Result \"1-1\"]"));
        let games = read_pdn(&text, Rules::TURKISH).unwrap();
        assert_eq!(games.len(), 2);
        for g in &games {
            assert_eq!(g.moves, moves);
            assert_eq!(g.result.as_deref(), Some("1-1"));
            assert_eq!(g.start.rules(), rules);
            assert_eq!(g.tag("termination"), Some("adjudication: max game length"));
            assert_eq!(g.end(), pos);
        }
    }

    #[test]
    fn reads_black_to_move_turkish_and_comments() {
        let text = "[GameType \"30\"]\n[FEN \"B:Wd3:Bd5,e6\"]\n\n1... d5-d4 {a comment} 2. d3xd5 e6-e5 *\n";
        let games = read_pdn(text, Rules::default()).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].start.rules().variant, Variant::Turkish);
        assert_eq!(games[0].moves.len(), 3);
        assert_eq!(games[0].result.as_deref(), Some("*"));
        let again = movetext(&games[0].start, &games[0].moves, "*");
        assert_eq!(again, "1... d5-d4 2. d3xd5 e6-e5 *");
    }

    #[test]
    fn illegal_moves_and_bad_tags_are_errors() {
        let e = read_pdn("[Event \"x\"]\n1. d3-d4 *\n\n1. d3-d6 *", Rules::default()).unwrap_err();
        assert!(
            matches!(e, PdnError::Move { game: 2, ply: 1, ref text, .. } if text == "d3-d6"),
            "{e:?}"
        );
        assert!(e.to_string().starts_with("game 2, ply 1: d3-d6: "), "{e}");
        assert_eq!(
            read_pdn("[GameType \"20\"]\n1. d3-d4 *", Rules::default())
                .unwrap_err()
                .to_string(),
            "game 1: GameType \"20\" is not a game Tama plays"
        );
        assert_eq!(
            read_pdn("[Variant \"russian\"]\n*", Rules::default())
                .unwrap_err()
                .to_string(),
            "game 1: unknown variant \"russian\" (expected armenian or turkish)"
        );
        assert!(matches!(
            read_pdn("[FEN \"W:Wz9\"]\n*", Rules::default()),
            Err(PdnError::Fen { game: 1, .. })
        ));
        assert!(matches!(
            read_pdn("[Event \"x\"\n", Rules::default()),
            Err(PdnError::UnclosedTag { byte: 0 })
        ));
        assert_eq!(
            read_pdn("[Event]\n", Rules::default())
                .unwrap_err()
                .to_string(),
            "malformed tag \"Event\""
        );
        assert_eq!(read_pdn("", Rules::default()).unwrap().len(), 0);
    }

    #[test]
    fn date_format() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert_eq!(&d[4..5], ".");
        assert!(d.starts_with("20"));
    }

    #[test]
    fn outcome_points() {
        assert_eq!(Outcome::WhiteWins.points(Color::White), 2);
        assert_eq!(Outcome::WhiteWins.points(Color::Black), 0);
        assert_eq!(Outcome::Draw.points(Color::Black), 1);
    }
}
