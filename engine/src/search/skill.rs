//! Levels a person can beat (`Skill Level`, `UCI_LimitStrength` with
//! `UCI_Elo`).
//!
//! A limited level errs the way a person does, not by random blunders:
//! - it looks less far: each level caps the depth (and the nodes), so it
//!   misses deep shots before shallow ones;
//! - it chooses among the good moves: the root moves are searched as
//!   MultiPV lines, and the move played is drawn among those scoring within
//!   a margin of the best, each weighted by how close it comes to the best.
//!   The margin grows as the level drops, and stays below a man at the
//!   lowest level, so no level ever gives a man away for nothing.
//!
//! The clock is the full-strength search's: a level only adds caps, so it
//! never thinks longer than full strength would, and answers on any clock.
//! The full-strength search does not pass through here at all.
//!
//! The choice is drawn from the searcher's generator (`crate::rng`), seeded
//! from the time at start unless `Searcher::set_skill_seed` fixes it.

use super::score::{Score, MATE};
use super::{SearchControl, SearchInfo, SearchLimits, SearchOutcome, Searcher};
use crate::game::Game;
use crate::moves::Move;
use crate::rng::Rng;
use std::time::Instant;

/// The strongest level: full strength, no limit and no choice.
pub const MAX_SKILL_LEVEL: u32 = 9;

/// What a limited level may do (`LEVELS[level]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Deepest iteration.
    pub depth: u32,
    /// Most nodes per move (the depth usually ends the search first; this
    /// bounds the positions whose trees explode).
    pub nodes: u64,
    /// Root lines searched to choose among.
    pub lines: usize,
    /// How far below the best line (centi-men) a move may score and still
    /// be played.
    pub margin: i32,
}

/// The limited levels, 0 (the weakest) to `MAX_SKILL_LEVEL - 1`. Every
/// margin is below a man (100): a move that loses one for nothing is never
/// a candidate.
pub const LEVELS: [Level; MAX_SKILL_LEVEL as usize] = [
    lv(1, 4_000, 16, 55),
    lv(2, 8_000, 16, 45),
    lv(3, 16_000, 16, 36),
    lv(4, 32_000, 12, 28),
    lv(5, 64_000, 12, 21),
    lv(6, 128_000, 8, 15),
    lv(7, 256_000, 8, 10),
    lv(8, 1_000_000, 4, 6),
    lv(10, 4_000_000, 4, 3),
];

const fn lv(depth: u32, nodes: u64, lines: usize, margin: i32) -> Level {
    Level {
        depth,
        nodes,
        lines,
        margin,
    }
}

/// The Elo `UCI_Elo` gives full strength: an anchor chosen for the scale,
/// not measured against people. Every level's rating is this plus its
/// Elo relative to full strength (`LEVEL_ELO`).
pub const FULL_STRENGTH_ELO: i32 = 3000;

/// Each level's Elo relative to full strength, measured by the ladder of
/// matches between neighbouring levels (docs/results.md, "Levels"); the
/// last is full strength.
pub const LEVEL_ELO: [i32; MAX_SKILL_LEVEL as usize + 1] =
    [-2416, -1905, -1557, -1247, -918, -710, -513, -371, -203, 0];

/// The lowest `UCI_Elo`: the weakest level's.
pub const MIN_ELO: i32 = FULL_STRENGTH_ELO + LEVEL_ELO[0];
/// The highest `UCI_Elo`: full strength's.
pub const MAX_ELO: i32 = FULL_STRENGTH_ELO;

/// The level a `UCI_Elo` asks for: the Elo placed on the calibrated table
/// by linear interpolation between the two levels around it, rounded to
/// the nearer level. Out of range it is the weakest or full strength.
pub fn level_for_elo(elo: i32) -> u32 {
    let rel = elo - FULL_STRENGTH_ELO;
    if rel <= LEVEL_ELO[0] {
        return 0;
    }
    for l in 0..MAX_SKILL_LEVEL as usize {
        let (lo, hi) = (LEVEL_ELO[l], LEVEL_ELO[l + 1]);
        if rel <= hi {
            // The fraction of the way from level l to l + 1, rounded.
            let nearer_hi = 2 * (rel - lo) >= hi - lo;
            return l as u32 + nearer_hi as u32;
        }
    }
    MAX_SKILL_LEVEL
}

/// A line of the last completed iteration: its move, its score (internal
/// scale) and its report.
struct Line {
    mv: Move,
    score: i32,
    info: SearchInfo,
}

/// A reported score back on the internal scale (centi-men; wins and losses
/// beyond every evaluation, a quicker win higher), for comparing lines.
fn internal(score: Score) -> i32 {
    match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => MATE - (2 * n - 1),
        Score::Mate(n) => -MATE + 2 * -n,
    }
}

impl Searcher {
    /// Fixes the generator that limited levels choose their moves with,
    /// so that a game at a level can be replayed.
    pub fn set_skill_seed(&mut self, seed: u64) {
        self.skill_rng = Rng::new(seed);
    }

    /// The search at limited level `level`: the full-strength search with
    /// the level's depth and nodes as further limits, one thread and the
    /// level's number of root lines, then the move drawn among the good
    /// lines of the last completed iteration. The caller's `info` sees the
    /// lines it asked for (its MultiPV) and the played line at the end.
    pub(super) fn search_at_level(
        &mut self,
        level: u32,
        game: &Game,
        limits: &SearchLimits,
        started: Instant,
        control: &SearchControl,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        let lv = LEVELS[level as usize];
        let mut limited = limits.clone();
        limited.depth = Some(limits.depth.map_or(lv.depth, |d| d.min(lv.depth)));
        limited.nodes = Some(limits.nodes.map_or(lv.nodes, |n| n.min(lv.nodes)));
        let saved = self.options.clone();
        let shown = saved.multipv.max(1) as u32;
        self.options.threads = 1;
        self.options.multipv = lv.lines.max(saved.multipv);
        let mut lines: Vec<Line> = Vec::new();
        let mut report = |i: &SearchInfo| {
            if i.bound == super::Bound::Exact && !i.pv.is_empty() {
                if i.multipv == 1 {
                    lines.clear();
                }
                lines.push(Line {
                    mv: i.pv[0],
                    score: internal(i.score),
                    info: i.clone(),
                });
            }
            if i.multipv <= shown {
                info(i);
            }
        };
        let mut outcome = self.search_full(game, &limited, started, control, &mut report);
        self.options = saved;
        // Only completed iterations report their lines (all of them, best
        // first); none completed: the search's own answer.
        if lines.is_empty() {
            return outcome;
        }
        let pick = choose(&lines, lv.margin, &mut self.skill_rng);
        let chosen = &lines[pick];
        if outcome.best_move != Some(chosen.mv) {
            let mut last = chosen.info.clone();
            last.multipv = 1;
            if let Some(totals) = &outcome.last {
                (last.nodes, last.nps, last.time) = (totals.nodes, totals.nps, totals.time);
                (last.hashfull, last.tbhits) = (totals.hashfull, totals.tbhits);
            }
            outcome.best_move = Some(chosen.mv);
            outcome.ponder_move = chosen.info.pv.get(1).copied();
            outcome.score = Some(chosen.info.score);
            outcome.last = Some(last);
        }
        outcome
    }
}

/// Draws a line among those within `margin` of the best, each weighted by
/// `margin + 1` less its distance to the best (the best weighs most).
fn choose(lines: &[Line], margin: i32, rng: &mut Rng) -> usize {
    let best = lines.iter().map(|l| l.score).max().expect("a line");
    let weight = |l: &Line| (margin + 1 - (best - l.score)).max(0) as u64;
    let total: u64 = lines.iter().map(weight).sum();
    let mut draw = rng.below(total);
    for (i, l) in lines.iter().enumerate() {
        let w = weight(l);
        if draw < w {
            return i;
        }
        draw -= w;
    }
    unreachable!("the draw is below the total weight")
}

/// A seed that differs from one engine start to the next.
pub(super) fn seed_from_time() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (u64::from(std::process::id()) << 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_maps_to_the_nearer_calibrated_level() {
        assert_eq!(level_for_elo(MIN_ELO - 500), 0);
        assert_eq!(level_for_elo(MIN_ELO), 0);
        assert_eq!(level_for_elo(MAX_ELO), MAX_SKILL_LEVEL);
        assert_eq!(level_for_elo(MAX_ELO + 500), MAX_SKILL_LEVEL);
        for (l, elo) in LEVEL_ELO.iter().enumerate() {
            assert_eq!(level_for_elo(FULL_STRENGTH_ELO + elo), l as u32);
        }
        for (l, w) in LEVEL_ELO.windows(2).enumerate() {
            let (lo, hi) = (w[0], w[1]);
            let quarter = FULL_STRENGTH_ELO + lo + (hi - lo) / 4;
            let three_quarters = FULL_STRENGTH_ELO + lo + 3 * (hi - lo) / 4;
            assert_eq!(level_for_elo(quarter), l as u32);
            assert_eq!(level_for_elo(three_quarters), l as u32 + 1);
        }
    }

    use crate::position::Position;
    use crate::rules::Rules;
    use crate::search::{Clock, SearchControl, SearchOptions};
    use std::collections::BTreeSet;
    use std::time::{Duration, Instant};

    fn at_level(level: u32, seed: u64) -> Searcher {
        let mut s = Searcher::new(1);
        *s.options_mut() = SearchOptions {
            skill_level: level,
            ..SearchOptions::default()
        };
        s.set_skill_seed(seed);
        s
    }

    fn played(s: &mut Searcher, g: &Game, limits: &SearchLimits) -> (String, SearchOutcome) {
        let out = s.search(g, limits, &SearchControl::new(), &mut |_| {});
        (g.position().move_text(&out.best_move.unwrap()), out)
    }

    #[test]
    fn the_weakest_level_never_gives_a_man_away() {
        // Turkish rules (men step and capture forward and sideways only).
        // White: d4, h2. Black: d6, a7. White to move: d4-d5, d4-c4, d4-e4,
        // h2-h3, h2-g2. After d4-d5 Black must capture d6xd4 (d4 has just
        // been vacated), and no white man can take back: h2 is far away.
        // Every other move leaves all men out of each other's reach, so
        // d4-d5 is a man for nothing, and only d4-d5.
        let g = Game::new(Position::from_fen("W:Wd4,h2:Bd6,a7", Rules::TURKISH).unwrap());
        let mut full = Searcher::new(1);
        full.options_mut().multipv = 5;
        let mut lines = Vec::new();
        let limits = SearchLimits {
            depth: Some(LEVELS[0].depth),
            ..SearchLimits::default()
        };
        full.search(&g, &limits, &SearchControl::new(), &mut |i| {
            lines.push((g.position().move_text(&i.pv[0]), internal(i.score)))
        });
        let best = lines.iter().map(|l| l.1).max().unwrap();
        let drop = lines.iter().find(|l| l.0 == "d4-d5").unwrap().1;
        assert!(best - drop > LEVELS[0].margin, "{lines:?}");
        let mut seen = BTreeSet::new();
        for seed in 0..100 {
            let (mv, _) = played(&mut at_level(0, seed), &g, &SearchLimits::default());
            assert_ne!(mv, "d4-d5", "seed {seed}");
            seen.insert(mv);
        }
        // The level does choose: not always the same move.
        assert!(seen.len() >= 2, "{seen:?}");
    }

    /// Distinct moves chosen at `level` over `seeds` seeds, from a quiet
    /// position of the opening (Armenian, 12 men each, Black to move, 29
    /// moves, no capture in sight).
    fn spread(level: u32, seeds: u64) -> usize {
        let g = Game::new(
            Position::from_fen(
                "B:Wa2,a3,b3,c2,c3,d3,e2,f2,f3,g3,h2,h4:Ba6,a7,b6,c6,c7,d6,e7,f6,f7,g6,h6,h7",
                Rules::ARMENIAN,
            )
            .unwrap(),
        );
        let mut s = at_level(level, 0);
        let mut seen = BTreeSet::new();
        for seed in 0..seeds {
            s.set_skill_seed(seed);
            seen.insert(played(&mut s, &g, &SearchLimits::default()).0);
        }
        seen.len()
    }

    #[test]
    fn the_spread_grows_as_the_level_drops() {
        let counts: Vec<usize> = [0, 3, 6, 8].iter().map(|&l| spread(l, 40)).collect();
        assert!(counts.windows(2).all(|w| w[0] >= w[1]), "{counts:?}");
        assert!(counts[0] >= 2 * counts[3], "{counts:?}");
    }

    #[test]
    fn the_same_seed_plays_the_same_moves() {
        let g = Game::new(Position::startpos(Rules::TURKISH));
        let moves = |seed| {
            let mut s = at_level(2, seed);
            (0..8)
                .map(|_| played(&mut s, &g, &SearchLimits::default()).0)
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(5), moves(5));
    }

    #[test]
    fn a_level_never_exceeds_its_limits() {
        let positions = [
            Position::startpos(Rules::ARMENIAN),
            Position::startpos(Rules::TURKISH),
            Position::from_fen(
                "W:Wa3,b4,c3,e3,f4,g3,Kd1:Ba6,b6,c6,e6,g5,h6,Ke8",
                Rules::ARMENIAN,
            )
            .unwrap(),
        ];
        for level in 0..MAX_SKILL_LEVEL {
            let lv = LEVELS[level as usize];
            let mut s = at_level(level, level.into());
            for pos in &positions {
                let g = Game::new(*pos);
                let mut deepest = 0;
                let out = s.search(
                    &g,
                    &SearchLimits::default(),
                    &SearchControl::new(),
                    &mut |i| deepest = deepest.max(i.depth),
                );
                assert!(
                    out.depth <= lv.depth && deepest <= lv.depth,
                    "level {level}"
                );
                assert!(out.nodes <= lv.nodes, "level {level}: {} nodes", out.nodes);
                // A stricter limit of the caller's still holds.
                let limits = SearchLimits {
                    depth: Some(1),
                    nodes: Some(100),
                    ..SearchLimits::default()
                };
                let out = s.search(&g, &limits, &SearchControl::new(), &mut |_| {});
                assert!(out.depth <= 1 && out.nodes <= 100, "level {level}");
                // A tiny clock: an answer within the time left.
                let left = Duration::from_millis(40);
                let mut clock = Clock::default();
                clock.time[pos.side_to_move() as usize] = Some(left);
                let limits = SearchLimits {
                    clock,
                    ..SearchLimits::default()
                };
                let t = Instant::now();
                let (_, out) = played(&mut s, &g, &limits);
                assert!(t.elapsed() < left, "level {level}: {:?}", t.elapsed());
                assert!(out.best_move.is_some());
            }
        }
    }

    #[test]
    fn the_table_weakens_monotonically_and_never_gives_a_man() {
        for w in LEVELS.windows(2) {
            assert!(w[0].depth <= w[1].depth && w[0].nodes <= w[1].nodes);
            assert!(w[0].margin >= w[1].margin);
        }
        assert!(LEVELS.iter().all(|l| l.margin < 100 && l.lines >= 2));
        assert!(LEVEL_ELO.windows(2).all(|w| w[0] < w[1]));
    }
}
