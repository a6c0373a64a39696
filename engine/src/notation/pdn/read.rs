//! The PDN reader: every game of a text, each move replayed through the
//! rules core, each game read on its own so that one refused game does not
//! hide the others.

use super::Outcome;
use crate::Move;
use crate::{Color, FenError, MoveError, Position, RuleValueError, Rules, Variant};
use std::fmt;

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

    /// Whether the tags name the rules (GameType, Variant or a rule
    /// option), rather than leaving them to the reader's default.
    pub fn names_rules(&self) -> bool {
        const RULE_TAGS: [&str; 4] = [
            "GameType",
            "Variant",
            "CaptureRemoval",
            "MidCapturePromotion",
        ];
        RULE_TAGS.iter().any(|t| self.tag(t).is_some())
    }

    /// Every position of the game in the order played: the start, then
    /// the position after each move.
    pub fn positions(&self) -> impl Iterator<Item = Position> + '_ {
        std::iter::once(self.start).chain(self.moves.iter().scan(self.start, |p, m| {
            *p = p.play(m);
            Some(*p)
        }))
    }

    /// The position after all moves.
    pub fn end(&self) -> Position {
        self.positions().last().unwrap_or(self.start)
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
        /// The move number as PDN writes it (`3.`, `3...`).
        number: String,
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
                number,
                text,
                error,
            } => write!(f, "game {game}, move {number} (ply {ply}): {text}: {error}"),
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
    /// The first fault in its tags: the game is refused, the next one read.
    error: Option<PdnError>,
    /// Movetext has begun: a tag now starts the next game.
    in_moves: bool,
}

/// Reads every game of a PDN text. `default` gives the rules when the tags
/// do not. Every move must be legal; the first game refused is the error,
/// naming the game and the move.
pub fn read_pdn(text: &str, default: Rules) -> Result<Vec<PdnGame>, PdnError> {
    read_pdn_each(text, default).into_iter().collect()
}

/// Reads every game of a PDN text, each on its own: a game refused (a bad
/// tag, an illegal move) is an error in its place and the next game is read
/// all the same. Only an unclosed tag ends the reading, the rest of the text
/// being the tag's. Comments (`{...}`, `;` to the end of the line),
/// variations (`(...)`, nested), NAGs (`$2`) and move suffixes (`!`, `?`)
/// are skipped: what Tama writes in an annotated game reads back.
pub fn read_pdn_each(text: &str, default: Rules) -> Vec<Result<PdnGame, PdnError>> {
    let mut games = Vec::new();
    let mut pending = Pending::default();
    let mut chars = text.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        match c {
            '[' => {
                if pending.in_moves {
                    finish(&mut pending, default, &mut games);
                }
                match read_tag(text, i) {
                    Ok((tag, end)) => {
                        pending.tags.push(tag);
                        while chars.peek().is_some_and(|&(j, _)| j <= end) {
                            chars.next();
                        }
                    }
                    Err(e @ PdnError::UnclosedTag { .. }) => {
                        games.push(Err(e));
                        return games;
                    }
                    Err(e) => {
                        pending.error.get_or_insert(e);
                        while chars.next_if(|&(_, c)| c != ']').is_some() {}
                        chars.next();
                    }
                }
            }
            '{' => skip_until(&mut chars, '}'),
            ';' => skip_until(&mut chars, '\n'),
            '(' => {
                chars.next();
                let mut depth = 1;
                while depth > 0 {
                    match chars.next() {
                        Some((_, '(')) => depth += 1,
                        Some((_, ')')) => depth -= 1,
                        Some((_, '{')) => skip_until(&mut chars, '}'),
                        Some(_) => {}
                        None => break,
                    }
                }
            }
            c if c.is_whitespace() => {
                chars.next();
            }
            _ => {
                let mut tok = String::new();
                while let Some(&(_, c)) = chars.peek() {
                    if c.is_whitespace() || matches!(c, '{' | '[' | '(' | ';') {
                        break;
                    }
                    tok.push(c);
                    chars.next();
                }
                pending.in_moves = true;
                let body = without_move_number(&tok).trim_end_matches(['!', '?']);
                if !body.is_empty() && !body.starts_with('$') {
                    pending.tokens.push(body.to_string());
                    if is_result(body) {
                        finish(&mut pending, default, &mut games);
                    }
                }
            }
        }
    }
    finish(&mut pending, default, &mut games);
    games
}

/// Consumes characters up to and including `end` (or the end of the text).
fn skip_until(chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>, end: char) {
    for (_, c) in chars.by_ref() {
        if c == end {
            break;
        }
    }
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

/// The move number of ply `ply` (from 0) of a game from `start`, as PDN
/// writes it: `3.` for White's move, `3...` for Black's.
pub fn move_number(start: &Position, ply: usize) -> String {
    let first_black = usize::from(start.side_to_move() == Color::Black);
    let n = (ply + first_black) / 2 + 1;
    if (ply + first_black) % 2 == 0 {
        format!("{n}.")
    } else {
        format!("{n}...")
    }
}

/// Replays the pending game (if anything of it was read) into `games`,
/// and starts the next one.
fn finish(pending: &mut Pending, default: Rules, games: &mut Vec<Result<PdnGame, PdnError>>) {
    let Pending {
        tags,
        tokens,
        error,
        ..
    } = std::mem::take(pending);
    if tags.is_empty() && tokens.is_empty() && error.is_none() {
        return;
    }
    let n = games.len() + 1;
    games.push(match error {
        Some(e) => Err(e),
        None => replay(tags, &tokens, default, n),
    });
}

/// Game `n` from its tags and movetext tokens, every move replayed.
fn replay(
    tags: Vec<(String, String)>,
    tokens: &[String],
    default: Rules,
    n: usize,
) -> Result<PdnGame, PdnError> {
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
    for t in tokens {
        if is_result(t) {
            result = Some(t.clone());
            continue;
        }
        let mv = pos.parse_move(t).map_err(|error| PdnError::Move {
            game: n,
            ply: moves.len() + 1,
            number: move_number(&start, moves.len()),
            text: t.clone(),
            error,
        })?;
        pos = pos.play(&mv);
        moves.push(mv);
    }
    Ok(PdnGame {
        tags,
        start,
        moves,
        result,
    })
}
