//! Openings: a file of FEN lines or PDN games, or the built-in balanced set.
//!
//! The built-in set is generated, deterministically, whenever it is needed
//! (it takes a fraction of a second), so it always follows the rules core:
//! 1. every line of play from the start position is followed ply by ply; a
//!    level's positions are kept (each distinct position once, reached by
//!    the alphabetically first line) for the levels 2, 3 and 4 plies deep,
//!    stopping after the first level with more than `LEVEL_CAP` positions
//!    (Armenian: plies 2-3; Turkish, with fewer moves: plies 2-4);
//! 2. each position gets a fixed shallow search (`SEARCH_DEPTH` plies of
//!    alpha-beta, then captures resolved) with a material + mobility
//!    evaluation defined here, independent of the engine's evaluation so the
//!    set does not change when the engine does.
//!    Positions whose side to move has a capture are dropped first (the
//!    capture would be forced), and only an even sample of `SAMPLE` of the
//!    rest (sorted by the opening's move text) is searched;
//! 3. only positions rated within `BALANCE_CP` centi-men of equal are kept;
//! 4. of these, at most `SET_SIZE` are taken at even steps through the list
//!    (still sorted by move text), so the first moves stay spread out;
//! 5. the set is put in a fixed pseudo-random order (SplitMix64 seeded with
//!    `SET_SHUFFLE_SEED`), so that a short match in sequential order does not
//!    play only lines that begin with the same move.
//!
//! `tama match --dump-openings [-variant turkish]` prints the set as an
//! openings file (`start FEN | moves`).
//!
//! `tama match -openings builtin` uses it (also the default); `order=random`
//! shuffles it with `-seed`.

use super::config::{Config, Order};
use super::pdn::read_pdn;
use tama_engine::{movegen, Color, Move, Position, Rules};

pub const LEVEL_CAP: usize = 4000;
pub const SEARCH_DEPTH: u32 = 2;
pub const BALANCE_CP: i32 = 25;
pub const SET_SIZE: usize = 300;
pub const SAMPLE: usize = 1200;
pub const SET_SHUFFLE_SEED: u64 = 0x7A3A;

/// Where a game starts: a position, and the moves (text) that led to it
/// from the opening's own start (empty for a bare FEN).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The opening's own start (the start position for the built-in set).
    pub start: Position,
    pub position: Position,
    pub moves: String,
}

fn piece_count(pos: &Position, color: Color) -> (i32, i32) {
    let mut men = 0;
    let mut kings = 0;
    for sq in tama_engine::Square::all() {
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

/// The built-in balanced set for these rules.
pub fn builtin(rules: Rules) -> Vec<Opening> {
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
            }
        })
        .collect();
    // A fixed shuffle, so that the first games of a match (order=sequential)
    // do not all begin with the same first move.
    SplitMix(SET_SHUFFLE_SEED).shuffle(&mut set);
    set
}

/// Reads an opening file: one FEN per line (`format=fen`; blank lines and
/// lines starting with `#` or `;` are skipped; a line may also be
/// `FEN | moves...`), or PDN games (`format=pdn`: the FEN tag or the start
/// position, then the game's moves).
pub fn load(text: &str, format: &str, rules: Rules) -> Result<Vec<Opening>, String> {
    match format {
        "pdn" => {
            let games = read_pdn(text, rules)?;
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
                let (fen, moves) = match line.split_once('|') {
                    Some((f, m)) => (f.trim(), m.trim()),
                    None => (line, ""),
                };
                let start = Position::from_fen(fen, rules)
                    .map_err(|e| format!("openings line {}: {e}", i + 1))?;
                let mut pos = start;
                for t in moves.split_whitespace() {
                    let m = pos
                        .parse_move(t)
                        .map_err(|e| format!("openings line {}: {t}: {e}", i + 1))?;
                    pos = pos.play(&m);
                }
                out.push(Opening {
                    start,
                    position: pos,
                    moves: moves.to_string(),
                });
            }
            Ok(out)
        }
        other => Err(format!(
            "unknown openings format {other:?} (expected fen or pdn)"
        )),
    }
}

/// Loads the openings the configuration asks for, in playing order.
pub fn load_openings(c: &Config) -> Result<Vec<Opening>, String> {
    let mut list = match &c.openings.file {
        None => builtin(c.rules),
        Some(path) => {
            let text = std::fs::read(path)
                .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
            let text = String::from_utf8_lossy(&text);
            load(&text, &c.openings.format, c.rules)?
        }
    };
    if list.is_empty() {
        return Err("no openings to play".into());
    }
    if c.openings.order == Order::Random {
        SplitMix(c.seed).shuffle(&mut list);
    }
    Ok(list)
}

/// A tiny deterministic generator (SplitMix64) for the shuffles of the
/// built-in set and of `order=random`.
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = (self.next_u64() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_sets_are_balanced_distinct_and_reproducible() {
        for rules in [Rules::ARMENIAN, Rules::TURKISH] {
            let set = builtin(rules);
            assert!(
                set.len() >= 100 && set.len() <= SET_SIZE,
                "{} openings for {rules}",
                set.len()
            );
            let mut fens: Vec<String> = set.iter().map(|o| o.position.fen()).collect();
            fens.sort();
            fens.dedup();
            assert_eq!(fens.len(), set.len(), "duplicates in the set");
            for o in &set {
                // Each line replays from the start and lands on the position.
                let mut p = Position::startpos(rules);
                let n = o.moves.split_whitespace().count();
                assert!((2..=4).contains(&n), "{}", o.moves);
                for t in o.moves.split_whitespace() {
                    p = p.play(&p.parse_move(t).unwrap());
                }
                assert_eq!(p, o.position);
                assert!(rate(&p).abs() <= BALANCE_CP);
            }
            assert_eq!(builtin(rules), set, "not reproducible");
        }
    }

    #[test]
    fn pdn_file_gives_the_position_after_its_moves() {
        let text = "[Event \"o\"]\n1. d3-d4 d6-d5 *\n\n[FEN \"B:Wa3:Bh6\"]\n1... h6-h5 *\n";
        let o = load(text, "pdn", Rules::default()).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].moves, "d3-d4 d6-d5");
        assert_eq!(o[1].position.fen(), "W:Wa3:Bh5");
        assert!(load("1. d3-d7 *", "pdn", Rules::default()).is_err());
    }

    #[test]
    fn fen_file_with_moves_and_comments() {
        let text = "# comment\n\nW:Wa2,b2:Bh7\nW:Wa3:Bh6 | a3-a4 h6-h5\n";
        let o = load(text, "fen", Rules::default()).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[1].position.fen(), "W:Wa4:Bh5");
        assert!(load("W:Wz9:B", "fen", Rules::default()).is_err());
        assert!(load("", "xml", Rules::default()).is_err());
    }

    #[test]
    fn shuffle_is_reproducible() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        SplitMix(7).shuffle(&mut a);
        SplitMix(7).shuffle(&mut b);
        assert_eq!(a, b);
        let mut c: Vec<u32> = (0..50).collect();
        SplitMix(8).shuffle(&mut c);
        assert_ne!(a, c);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
    }
}
