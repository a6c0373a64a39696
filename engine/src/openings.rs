//! Openings: a file of FEN lines or PDN games, or the built-in suite.
//!
//! The built-in suite is a committed file per variant,
//! `engine/data/openings/armenian.txt` and `engine/data/openings/turkish.txt`,
//! compiled in: each line is `start FEN | moves | score depth`, the score
//! (centi-men, White's view) that Tama's search gave the position at that
//! depth when the suite was made. The file, not the code, is the suite:
//! results stay comparable when this generator or the engine changes. The
//! file's header says how it was made and how balanced it is
//! (docs/match.md).
//!
//! The candidates were made by `generate` (`tama match --dump-openings
//! -openings generate`), deterministically:
//! 1. every line of play from the start position is followed ply by ply; a
//!    level's positions are kept (each distinct position once, reached by
//!    the alphabetically first line) for the levels 2, 3 and 4 plies deep,
//!    stopping after the first level with more than `LEVEL_CAP` positions
//!    (Armenian: plies 2-3; Turkish, with fewer moves: plies 2-4);
//! 2. each position gets a fixed shallow search (`SEARCH_DEPTH` plies of
//!    alpha-beta, then captures resolved) with a material + mobility
//!    evaluation defined here, independent of the engine's evaluation.
//!    Positions whose side to move has a capture are dropped first (the
//!    capture would be forced), and only an even sample of `SAMPLE` of the
//!    rest (sorted by the opening's move text) is searched;
//! 3. only positions rated within `BALANCE_CP` centi-men of equal are kept;
//! 4. of these, at most `SET_SIZE` are taken at even steps through the list
//!    (still sorted by move text), so the first moves stay spread out;
//! 5. the set is put in a fixed pseudo-random order (the engine's `Rng` seeded with
//!    `SET_SHUFFLE_SEED`), so that a short match in sequential order does not
//!    play only lines that begin with the same move.
//!
//! Then `tools/score_openings.py` searched each candidate with the engine
//! at depth 14, and the suite kept those within `SUITE_BALANCE_CP`.
//!
//! `tama match --dump-openings [-variant turkish]` prints the suite as an
//! openings file. `tama match -openings builtin` uses it (also the
//! default); `order=random` shuffles it with `-seed`.

use crate::notation::pdn::{read_pdn, PdnError};
use crate::rng::Rng;
use crate::{movegen, Color, FenError, Move, MoveError, Position, Rules, Variant};
use std::fmt;

/// `generate` stops after the first level with more positions than this.
pub const LEVEL_CAP: usize = 4000;
/// The plies of `generate`'s own shallow search.
pub const SEARCH_DEPTH: u32 = 2;
/// `generate` keeps candidates its search rates within this many centi-men.
pub const BALANCE_CP: i32 = 25;
/// The most candidates `generate` returns.
pub const SET_SIZE: usize = 300;
/// How many quiet positions `generate` rates (an even sample).
pub const SAMPLE: usize = 1200;
/// The seed of the fixed shuffle of the candidates.
pub const SET_SHUFFLE_SEED: u64 = 0x7A3A;
/// The suite keeps candidates the engine's depth-14 search rates within
/// this many centi-men of equal.
pub const SUITE_BALANCE_CP: i32 = 30;
/// The least depth of a suite score.
pub const SUITE_DEPTH: u32 = 14;

const ARMENIAN_SUITE: &str = include_str!("../data/openings/armenian.txt");
const TURKISH_SUITE: &str = include_str!("../data/openings/turkish.txt");

/// Where a game starts: a position, and the moves (text) that led to it
/// from the opening's own start (empty for a bare FEN).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The opening's own start (the start position for the built-in set).
    pub start: Position,
    /// Where the game starts: `start` after `moves`.
    pub position: Position,
    /// The opening's moves, as text separated by spaces.
    pub moves: String,
    /// The score a search gave the position when the suite was made (the
    /// third field of a suite line), if the file has one.
    pub score: Option<SuiteScore>,
}

/// A suite line's score: centi-men from White's side, and the depth of the
/// search that gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SuiteScore {
    /// Centi-men, White's view.
    pub cp: i32,
    /// The depth of the search.
    pub depth: u32,
}

fn piece_count(pos: &Position, color: Color) -> (i32, i32) {
    let mut men = 0;
    let mut kings = 0;
    for sq in crate::Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            if p.color == color {
                if p.king {
                    kings += 1;
                } else {
                    men += 1;
                }
            }
        }
    }
    (men, kings)
}

/// Material (man 100, king 250) plus 4 per legal move, side to move's view.
fn evaluate(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    let material = |c| {
        let (m, k) = piece_count(pos, c);
        m * 100 + k * 250
    };
    let mobility = |p: &Position| movegen::count(p) as i32;
    let theirs = pos.with_side_to_move(us.opponent());
    material(us) - material(us.opponent()) + 4 * (mobility(pos) - mobility(&theirs))
}

const WIN: i32 = 100_000;

fn search(pos: &Position, depth: u32, mut alpha: i32, beta: i32, qdepth: u32) -> i32 {
    let moves = movegen::legal_moves(pos);
    if moves.is_empty() {
        return -WIN;
    }
    let captures = moves.first().is_some_and(Move::is_capture);
    if depth == 0 && (!captures || qdepth == 0) {
        return evaluate(pos);
    }
    let (next_depth, next_q) = if depth == 0 {
        (0, qdepth - 1)
    } else {
        (depth - 1, qdepth)
    };
    for m in &moves {
        let v = -search(&pos.play(m), next_depth, -beta, -alpha, next_q);
        if v > alpha {
            alpha = v;
            if alpha >= beta {
                break;
            }
        }
    }
    alpha
}

/// The shallow search's verdict on a position, White's view.
pub fn rate(pos: &Position) -> i32 {
    let v = search(pos, SEARCH_DEPTH, -WIN - 1, WIN + 1, 8);
    match pos.side_to_move() {
        Color::White => v,
        Color::Black => -v,
    }
}

/// Why an openings text was refused (`load`, `builtin`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningsError {
    /// The format is not one `load` reads.
    Format(String),
    /// A PDN text (`format=pdn`) that does not read.
    Pdn(PdnError),
    /// A FEN line's position.
    Fen {
        /// The line, from 1.
        line: usize,
        /// Why its FEN was refused.
        error: FenError,
    },
    /// A FEN line's move that is not legal (or not a move) where it is played.
    Move {
        /// The line, from 1.
        line: usize,
        /// The move as written.
        text: String,
        /// Why it was refused.
        error: MoveError,
    },
    /// A FEN line's third field that is not `score depth`.
    Score {
        /// The line, from 1.
        line: usize,
        /// The field as written.
        field: String,
    },
    /// A FEN line of more than three `|`-separated fields.
    Fields {
        /// The line, from 1.
        line: usize,
    },
    /// The suite built into the binary does not read under these rules.
    BuiltIn(Box<OpeningsError>),
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningsError::Format(other) => {
                write!(f, "unknown openings format {other:?} (expected fen or pdn)")
            }
            OpeningsError::Pdn(e) => write!(f, "{e}"),
            OpeningsError::Fen { line, error } => write!(f, "openings line {line}: {error}"),
            OpeningsError::Move { line, text, error } => {
                write!(f, "openings line {line}: {text}: {error}")
            }
            OpeningsError::Score { line, field } => write!(
                f,
                "openings line {line}: expected `score depth`, got {field:?}"
            ),
            OpeningsError::Fields { line } => {
                write!(f, "openings line {line}: more than three fields")
            }
            OpeningsError::BuiltIn(e) => write!(f, "built-in openings: {e}"),
        }
    }
}

impl std::error::Error for OpeningsError {}

/// The built-in suite of the variant, replayed under these rules.
pub fn builtin(rules: Rules) -> Result<Vec<Opening>, OpeningsError> {
    let text = match rules.variant {
        Variant::Armenian => ARMENIAN_SUITE,
        Variant::Turkish => TURKISH_SUITE,
    };
    load(text, "fen", rules).map_err(|e| OpeningsError::BuiltIn(Box::new(e)))
}

/// The candidates of the suite, generated for these rules (see the module
/// comment).
pub fn generate(rules: Rules) -> Vec<Opening> {
    let start = Position::startpos(rules);
    // (moves text, position) per level, deduplicated by position.
    let mut level: Vec<(Vec<String>, Position)> = vec![(Vec::new(), start)];
    let mut candidates: Vec<(Vec<String>, Position)> = Vec::new();
    for ply in 1..=4 {
        let mut next: Vec<(Vec<String>, Position)> = Vec::new();
        for (line, pos) in &level {
            for m in movegen::legal_moves(pos) {
                let mut l = line.clone();
                l.push(pos.move_text(&m));
                next.push((l, pos.play(&m)));
            }
        }
        next.sort_by(|a, b| a.0.cmp(&b.0));
        let mut seen = std::collections::HashSet::new();
        next.retain(|(_, p)| seen.insert(p.fen()));
        level = next;
        if ply >= 2 {
            candidates.extend(level.iter().cloned());
        }
        if level.len() > LEVEL_CAP {
            break;
        }
    }
    let mut quiet: Vec<(String, Position)> = candidates
        .into_iter()
        .filter(|(_, p)| !movegen::has_capture(p) && movegen::count(p) > 0)
        .map(|(l, p)| (l.join(" "), p))
        .collect();
    quiet.sort_by(|a, b| a.0.cmp(&b.0));
    // Rate an even sample of at most SAMPLE positions (the search is the
    // expensive part), keep the balanced ones.
    let sample = quiet.len().min(SAMPLE);
    let kept: Vec<(String, Position)> = (0..sample)
        .map(|i| &quiet[i * quiet.len() / sample])
        .filter(|(_, p)| rate(p).abs() <= BALANCE_CP)
        .cloned()
        .collect();
    let take = kept.len().min(SET_SIZE);
    let mut set: Vec<Opening> = (0..take)
        .map(|i| {
            let (moves, position) = &kept[i * kept.len() / take];
            Opening {
                start,
                position: *position,
                moves: moves.clone(),
                score: None,
            }
        })
        .collect();
    // A fixed shuffle, so that the first games of a match (order=sequential)
    // do not all begin with the same first move.
    Rng::new(SET_SHUFFLE_SEED).shuffle(&mut set);
    set
}

/// Reads an opening file: one FEN per line (`format=fen`; blank lines and
/// lines starting with `#` or `;` are skipped; a line may also be
/// `FEN | moves...`, or `FEN | moves... | score depth` as in the suite
/// files), or PDN games (`format=pdn`: the FEN tag or the start
/// position, then the game's moves).
pub fn load(text: &str, format: &str, rules: Rules) -> Result<Vec<Opening>, OpeningsError> {
    match format {
        "pdn" => {
            let games = read_pdn(text, rules).map_err(OpeningsError::Pdn)?;
            Ok(games
                .iter()
                .map(|g| {
                    let mut pos = g.start;
                    let mut texts = Vec::new();
                    for m in &g.moves {
                        texts.push(pos.move_text(m));
                        pos = pos.play(m);
                    }
                    // The game's own rules tags would differ from the match's:
                    // the match rules win, the PDN only gives the moves.
                    Opening {
                        start: g.start.with_rules(rules),
                        position: pos.with_rules(rules),
                        moves: texts.join(" "),
                        score: None,
                    }
                })
                .collect())
        }
        "fen" | "epd" => {
            let mut out = Vec::new();
            for (i, line) in text.lines().enumerate() {
                let line = line.trim();
                if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
                    continue;
                }
                let mut fields = line.split('|').map(str::trim);
                let fen = fields.next().unwrap_or("");
                let moves = fields.next().unwrap_or("");
                let line = i + 1;
                let score = match fields.next() {
                    None => None,
                    Some(f) => Some(suite_score(f).ok_or_else(|| OpeningsError::Score {
                        line,
                        field: f.to_string(),
                    })?),
                };
                if fields.next().is_some() {
                    return Err(OpeningsError::Fields { line });
                }
                let start = Position::from_fen(fen, rules)
                    .map_err(|error| OpeningsError::Fen { line, error })?;
                let mut pos = start;
                for t in moves.split_whitespace() {
                    let m = pos.parse_move(t).map_err(|error| OpeningsError::Move {
                        line,
                        text: t.to_string(),
                        error,
                    })?;
                    pos = pos.play(&m);
                }
                out.push(Opening {
                    start,
                    position: pos,
                    moves: moves.to_string(),
                    score,
                });
            }
            Ok(out)
        }
        other => Err(OpeningsError::Format(other.to_string())),
    }
}

/// `score depth` of a suite line.
fn suite_score(field: &str) -> Option<SuiteScore> {
    let mut w = field.split_whitespace();
    let cp = w.next()?.parse().ok()?;
    let depth = w.next()?.parse().ok()?;
    w.next().is_none().then_some(SuiteScore { cp, depth })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The suite files keep their own claims: every line replays from the
    /// start (`load` replays it), the positions are distinct and quiet (no
    /// capture pending), and every stored score is of a search at least
    /// `SUITE_DEPTH` deep and within `SUITE_BALANCE_CP`.
    #[test]
    fn suite_files_are_whole_and_keep_their_claims() {
        for rules in [Rules::ARMENIAN, Rules::TURKISH] {
            let set = builtin(rules).unwrap();
            assert!(set.len() >= 200 && set.len() <= SET_SIZE, "{rules}");
            let mut fens: Vec<String> = set.iter().map(|o| o.position.fen()).collect();
            fens.sort();
            fens.dedup();
            assert_eq!(fens.len(), set.len(), "duplicates in the suite");
            for o in &set {
                assert_eq!(o.start, Position::startpos(rules));
                let n = o.moves.split_whitespace().count();
                assert!((2..=4).contains(&n), "{}", o.moves);
                assert!(!movegen::has_capture(&o.position), "{}", o.moves);
                let s = o.score.unwrap_or_else(|| panic!("{}: no score", o.moves));
                assert!(s.depth >= SUITE_DEPTH, "{}", o.moves);
                assert!(s.cp.abs() <= SUITE_BALANCE_CP, "{}: {}", o.moves, s.cp);
            }
        }
        // A line whose moves do not replay, or with a bad score field, is
        // an error, not a silent skip.
        for bad in [
            "c3-d4 d6-d4 | 1 14",
            "c3-d4 d6-e5 | 1",
            "c3-d4 | x 14",
            "c3-d4 | 1 14 | 2",
        ] {
            assert!(armenian_line(bad).is_err(), "{bad}");
        }
    }

    /// A suite line from the Armenian start: `moves [| score depth]`.
    fn armenian_line(rest: &str) -> Result<Vec<Opening>, OpeningsError> {
        let start = Position::startpos(Rules::ARMENIAN).fen();
        load(&format!("{start} | {rest}"), "fen", Rules::ARMENIAN)
    }

    /// Checks the suite's balance with a search that chose none of it: the
    /// engine-independent material + mobility search of this module, but
    /// `CHECK_DEPTH` plies deep (the candidates were rated at 2 plies, the
    /// suite kept by the engine's depth-14 scores). It fails when a line
    /// loses half a man or more by force within its horizon: a hand-edited
    /// line, a score attached to the wrong line, a filter that let a
    /// lopsided candidate through. The control: of the 8 Armenian
    /// candidates the depth-14 search rated beyond +-30 (-82 to -124; the
    /// suite dropped them), the 5 below score -60 to -112 here and must be
    /// flagged; two others (e3-d4 b6-c5 f2-e3, f3-e4 g6-f5 g3-g4) score -4
    /// and +4 here: they lose their man deeper than 4 plies, which only the
    /// deep search sees.
    #[test]
    fn suite_is_balanced_by_a_search_that_did_not_choose_it() {
        const CHECK_DEPTH: u32 = 4;
        const LIMIT: i32 = 50;
        let check = |p: &Position| {
            let v = search(p, CHECK_DEPTH, -WIN - 1, WIN + 1, 8);
            if p.side_to_move() == Color::White {
                v
            } else {
                -v
            }
        };
        for rules in [Rules::ARMENIAN, Rules::TURKISH] {
            for o in builtin(rules).unwrap() {
                let v = check(&o.position);
                assert!(v.abs() < LIMIT, "{rules}: {} scores {v}", o.moves);
            }
        }
        for dropped in [
            "a3-b4 c6-c5 c3-d4",
            "d3-e4 b6-b5 f3-g4",
            "a3-b4 g6-g5 e3-d4",
            "f3-e4 b6-b5 g3-g4",
            "c3-b4 g6-g5 e3-d4",
        ] {
            let o = &armenian_line(dropped).unwrap()[0];
            assert!(check(&o.position).abs() >= LIMIT, "{dropped}");
        }
    }

    /// The stored scores are what Tama's search gives: a fresh searcher
    /// (one thread, 64 MB, as tools/score_openings.py drives it) at the
    /// stored depth on every 25th opening must give the stored score
    /// exactly (White's view: this catches a side-to-move score stored
    /// unturned). Ignored (about a minute at depth 14); it also fails after
    /// any change of the search (the bench signature), where the suite is
    /// meant to stay as it is: run it after remaking the suite.
    /// `cargo test --release -p tama-engine --lib openings -- --ignored`
    #[test]
    #[ignore]
    fn stored_scores_are_the_engines_at_their_depth() {
        use crate::search::{SearchControl, SearchLimits, Searcher};
        use crate::Game;
        for rules in [Rules::ARMENIAN, Rules::TURKISH] {
            for o in builtin(rules).unwrap().iter().step_by(25) {
                let stored = o.score.unwrap();
                let mut game = Game::new(o.start);
                let mut pos = o.start;
                for t in o.moves.split_whitespace() {
                    let m = pos.parse_move(t).unwrap();
                    game.play(m);
                    pos = pos.play(&m);
                }
                let limits = SearchLimits {
                    depth: Some(stored.depth),
                    ..SearchLimits::default()
                };
                let out =
                    Searcher::new(64).search(&game, &limits, &SearchControl::new(), &mut |_| {});
                let Some(crate::search::Score::Cp(cp)) = out.score else {
                    panic!("{}: {:?}", o.moves, out.score)
                };
                let white = if pos.side_to_move() == Color::White {
                    cp
                } else {
                    -cp
                };
                assert_eq!(white, stored.cp, "{rules}: {}", o.moves);
            }
        }
    }

    #[test]
    fn pdn_file_gives_the_position_after_its_moves() {
        let text = "[Event \"o\"]\n1. d3-d4 d6-d5 *\n\n[FEN \"B:Wa3:Bh6\"]\n1... h6-h5 *\n";
        let o = load(text, "pdn", Rules::default()).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].moves, "d3-d4 d6-d5");
        assert_eq!(o[1].position.fen(), "W:Wa3:Bh5");
        assert!(matches!(
            load("1. d3-d7 *", "pdn", Rules::default()),
            Err(OpeningsError::Pdn(PdnError::Move {
                game: 1,
                ply: 1,
                ..
            }))
        ));
    }

    #[test]
    fn fen_file_with_moves_and_comments() {
        let text =
            "# comment\n\nW:Wa2,b2:Bh7\nW:Wa3:Bh6 | a3-a4 h6-h5\nW:Wa3:Bh6 | a3-a4 | -7 16\n";
        let o = load(text, "fen", Rules::default()).unwrap();
        assert_eq!(o.len(), 3);
        assert_eq!(o[1].position.fen(), "W:Wa4:Bh5");
        assert_eq!(o[1].score, None);
        assert_eq!(o[2].score, Some(SuiteScore { cp: -7, depth: 16 }));
        assert!(matches!(
            load("# c\nW:Wz9:B", "fen", Rules::default()),
            Err(OpeningsError::Fen { line: 2, .. })
        ));
        assert_eq!(
            load("", "xml", Rules::default()).unwrap_err().to_string(),
            "unknown openings format \"xml\" (expected fen or pdn)"
        );
        assert_eq!(
            load("W:Wa3:Bh6 | a3-a4 | 7", "fen", Rules::default())
                .unwrap_err()
                .to_string(),
            "openings line 1: expected `score depth`, got \"7\""
        );
    }
}
