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

/// The strongest level: full strength, no limit and no choice.
pub const MAX_SKILL_LEVEL: u32 = 10;

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
    lv(1, 2_000, 16, 90),
    lv(1, 4_000, 16, 75),
    lv(2, 8_000, 16, 65),
    lv(2, 16_000, 16, 55),
    lv(3, 32_000, 12, 45),
    lv(4, 64_000, 12, 35),
    lv(5, 128_000, 8, 25),
    lv(6, 256_000, 8, 18),
    lv(8, 1_000_000, 4, 12),
    lv(10, 4_000_000, 4, 6),
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
pub const FULL_STRENGTH_ELO: i32 = 2400;

/// Each level's Elo relative to full strength, measured by the ladder of
/// matches between neighbouring levels (docs/results.md, "Levels"); the
/// last is full strength.
pub const LEVEL_ELO: [i32; MAX_SKILL_LEVEL as usize + 1] = [
    -1500, -1350, -1200, -1050, -900, -750, -600, -450, -300, -150, 0,
];

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
        let mut outcome = self.search_full(game, &limited, control, &mut report);
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
        for l in 0..=MAX_SKILL_LEVEL as usize {
            assert_eq!(level_for_elo(FULL_STRENGTH_ELO + LEVEL_ELO[l]), l as u32);
        }
        for l in 0..MAX_SKILL_LEVEL as usize {
            let (lo, hi) = (LEVEL_ELO[l], LEVEL_ELO[l + 1]);
            let quarter = FULL_STRENGTH_ELO + lo + (hi - lo) / 4;
            let three_quarters = FULL_STRENGTH_ELO + lo + 3 * (hi - lo) / 4;
            assert_eq!(level_for_elo(quarter), l as u32);
            assert_eq!(level_for_elo(three_quarters), l as u32 + 1);
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
