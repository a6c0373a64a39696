//! PDN read back: every game of a text (or a file) with every move
//! replayed through the rules core, under the rules its tags name.

use super::Outcome;
use crate::{FenError, Move, MoveError, Position, RuleValueError, Rules, Variant};
use std::fmt;
use std::path::{Path, PathBuf};

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

/// Why a PDN file was refused (`read_pdn_file`): each names the file.
#[derive(Debug)]
pub enum PdnFileError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// Its text is not PDN of legal games.
    Pdn {
        /// The file.
        path: PathBuf,
        /// The first fault of the text.
        error: PdnError,
    },
    /// It holds no game.
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// A game's tags name other rules than those asked for.
    OtherRules {
        /// The file.
        path: PathBuf,
        /// The game (from 1).
        game: usize,
        /// The rules it is played under.
        played: Rules,
        /// The rules asked for.
        wanted: Rules,
    },
}

impl fmt::Display for PdnFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdnFileError::Read { path, error } => {
                write!(f, "cannot read {}: {error}", path.display())
            }
            PdnFileError::Pdn { path, error } => write!(f, "{}: {error}", path.display()),
            PdnFileError::Empty { path } => write!(f, "{}: no games", path.display()),
            PdnFileError::OtherRules {
                path,
                game,
                played,
                wanted,
            } => write!(
                f,
                "{}: game {game} is played under {played}, not {wanted}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for PdnFileError {}

/// Every game of the PDN file at `path`, each played under `rules` (tags
/// that name other rules are refused, as are a file with no game and any
/// illegal move): what reads played games against one rule set's tables.
pub fn read_pdn_file(path: &Path, rules: Rules) -> Result<Vec<PdnGame>, PdnFileError> {
    let path_buf = || path.to_path_buf();
    let text = std::fs::read_to_string(path).map_err(|error| PdnFileError::Read {
        path: path_buf(),
        error,
    })?;
    let games = read_pdn(&text, rules).map_err(|error| PdnFileError::Pdn {
        path: path_buf(),
        error,
    })?;
    if games.is_empty() {
        return Err(PdnFileError::Empty { path: path_buf() });
    }
    if let Some((i, g)) = games
        .iter()
        .enumerate()
        .find(|(_, g)| g.start.rules() != rules)
    {
        return Err(PdnFileError::OtherRules {
            path: path_buf(),
            game: i + 1,
            played: g.start.rules(),
            wanted: rules,
        });
    }
    Ok(games)
}
