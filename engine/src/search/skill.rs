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
//! `UCI_Elo` asks for a strength between two measured levels: a `Skill`
//! between them, which plays each move at one of the two, the upper with
//! the probability of how far the Elo lies toward it (as chess engines
//! blend their fractional skill). A measured level's Elo plays that level
//! on every move, exactly as measured.
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

/// A strength to play: a level, or a point between two neighbouring
/// levels (`UCI_Elo`), in hundredths of a level from 0 (the weakest) to
/// `MAX_SKILL_LEVEL` hundred (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Skill {
    hundredths: u32,
}

impl Skill {
    /// Full strength.
    pub const FULL: Skill = Skill::level(MAX_SKILL_LEVEL);

    /// Level `level` (full strength above `MAX_SKILL_LEVEL`).
    pub const fn level(level: u32) -> Skill {
        let level = if level < MAX_SKILL_LEVEL {
            level
        } else {
            MAX_SKILL_LEVEL
        };
        Skill {
            hundredths: level * 100,
        }
    }

    /// Whether this is full strength (no limit, no choice).
    pub fn is_full(self) -> bool {
        self == Skill::FULL
    }

    /// The level one move is played at: the level below this skill, or
    /// the one above with the probability of the fraction between them,
    /// drawn from `rng` (nothing is drawn for a whole level).
    pub fn level_for_move(self, rng: &mut Rng) -> u32 {
        let (below, fraction) = (self.hundredths / 100, self.hundredths % 100);
        if fraction > 0 && rng.below(100) < u64::from(fraction) {
            below + 1
        } else {
            below
        }
    }
}

/// The skill a `UCI_Elo` asks for: the Elo placed on the measured table by
/// linear interpolation between the two levels around it (a measured
/// level's Elo is that level). Out of range it is the weakest or full
/// strength.
pub fn skill_for_elo(elo: i32) -> Skill {
    let rel = elo - FULL_STRENGTH_ELO;
    if rel <= LEVEL_ELO[0] {
        return Skill::level(0);
    }
    for l in 0..MAX_SKILL_LEVEL as usize {
        let (lo, hi) = (LEVEL_ELO[l], LEVEL_ELO[l + 1]);
        if rel <= hi {
            // The fraction of the way from level l to l + 1, in hundredths
            // (rounded down, so that only a measured Elo reaches a level).
            let fraction = (100 * (rel - lo) / (hi - lo)) as u32;
            return Skill {
                hundredths: l as u32 * 100 + fraction,
            };
        }
    }
    Skill::FULL
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

    /// The search at `skill` below full strength: the level of this move
    /// (`Skill::level_for_move`), and at a limited level the full-strength
    /// search with the level's caps (`Level::limits`), one thread and the
    /// level's number of root lines, then the move drawn among the good
    /// lines of the last completed iteration. The caller's `info` sees the
    /// lines it asked for (its MultiPV) and the played line at the end.
    pub(super) fn search_at_skill(
        &mut self,
        skill: Skill,
        game: &Game,
        limits: &SearchLimits,
        started: Instant,
        control: &SearchControl,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchOutcome {
        let level = skill.level_for_move(&mut self.skill_rng);
        let Some(&lv) = LEVELS.get(level as usize) else {
            return self.search_full(game, limits, started, control, info);
        };
        let limited = lv.limits(limits);
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

impl Level {
    /// The caller's limits with the level's depth and nodes as further
    /// caps; the clock and move time stay the caller's, so the level's
    /// time budget is full strength's.
    pub fn limits(&self, limits: &SearchLimits) -> SearchLimits {
        SearchLimits {
            depth: Some(limits.depth.map_or(self.depth, |d| d.min(self.depth))),
            nodes: Some(limits.nodes.map_or(self.nodes, |n| n.min(self.nodes))),
            ..limits.clone()
        }
    }
}

/// Draws a line among those within `margin` of the best (`weights`).
fn choose(lines: &[Line], margin: i32, rng: &mut Rng) -> usize {
    draw(&weights(lines.iter().map(|l| l.score), margin), rng)
}

/// Each line's weight in the draw, from its score: `margin + 1` less its
/// distance to the best (the best weighs most), none beyond the margin.
fn weights(scores: impl Iterator<Item = i32> + Clone, margin: i32) -> Vec<u64> {
    let best = scores.clone().max().expect("a line");
    scores
        .map(|s| (margin + 1 - (best - s)).max(0) as u64)
        .collect()
}

/// An index drawn with the probability of its weight (some weight is not
/// zero: the best line's).
fn draw(weights: &[u64], rng: &mut Rng) -> usize {
    let mut at = rng.below(weights.iter().sum());
    for (i, &w) in weights.iter().enumerate() {
        if at < w {
            return i;
        }
        at -= w;
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
    use crate::position::Position;
    use crate::rules::{Color, Rules};
    use crate::search::{Clock, SearchControl, SearchOptions};
    use std::time::Duration;

    #[test]
    fn elo_maps_to_a_skill_between_the_two_measured_levels() {
        assert_eq!(skill_for_elo(MIN_ELO - 500), Skill::level(0));
        assert_eq!(skill_for_elo(MIN_ELO), Skill::level(0));
        assert_eq!(skill_for_elo(MAX_ELO), Skill::FULL);
        assert_eq!(skill_for_elo(MAX_ELO + 500), Skill::FULL);
        for (l, elo) in LEVEL_ELO.iter().enumerate() {
            assert_eq!(
                skill_for_elo(FULL_STRENGTH_ELO + elo),
                Skill::level(l as u32)
            );
        }
        for (l, w) in LEVEL_ELO.windows(2).enumerate() {
            let at = |fraction: i32| FULL_STRENGTH_ELO + w[0] + (w[1] - w[0]) * fraction / 100;
            for fraction in [1, 25, 50, 99] {
                let hundredths = skill_for_elo(at(fraction)).hundredths;
                assert!(
                    (l as u32 * 100 + fraction as u32).abs_diff(hundredths) <= 1,
                    "{fraction}% of the way from level {l}: {hundredths}"
                );
            }
        }
        // One Elo more is never weaker, from the weakest to full strength.
        let skills: Vec<Skill> = (MIN_ELO..=MAX_ELO).map(skill_for_elo).collect();
        assert!(skills.windows(2).all(|w| w[0] <= w[1]));
    }

    /// A skill between two levels plays the upper one with the probability
    /// of its fraction (counted over a fixed seed's draws) and no other; a
    /// whole level plays itself and draws nothing.
    #[test]
    fn a_skill_between_levels_plays_the_upper_one_with_its_fraction() {
        let skill = Skill { hundredths: 325 };
        let mut rng = Rng::new(7);
        let mut count = [0u32; MAX_SKILL_LEVEL as usize + 1];
        for _ in 0..10_000 {
            count[skill.level_for_move(&mut rng) as usize] += 1;
        }
        assert_eq!(count[3] + count[4], 10_000, "{count:?}");
        assert!((2_300..2_700).contains(&count[4]), "{count:?}");
        let mut rng = Rng::new(7);
        for l in 0..=MAX_SKILL_LEVEL {
            assert_eq!(Skill::level(l).level_for_move(&mut rng), l);
        }
        assert_eq!(rng.next_u64(), Rng::new(7).next_u64());
        assert_eq!(Skill::level(MAX_SKILL_LEVEL + 3), Skill::FULL);
        assert!(Skill::FULL.is_full() && !Skill::level(MAX_SKILL_LEVEL - 1).is_full());
    }

    /// Each level's budget: its depth and nodes unless the caller's are
    /// stricter, and the caller's clock, so the time budget is full
    /// strength's, within the clock however short.
    #[test]
    fn a_level_caps_depth_and_nodes_and_keeps_the_time_budget() {
        let overhead = SearchOptions::default().move_overhead;
        let left = Duration::from_millis(40);
        let mut clock = Clock::default();
        clock.time[Color::Black as usize] = Some(left);
        let on_clock = SearchLimits {
            clock,
            ..SearchLimits::default()
        };
        let strict = SearchLimits {
            depth: Some(1),
            nodes: Some(100),
            ..SearchLimits::default()
        };
        for lv in LEVELS {
            let capped = lv.limits(&on_clock);
            assert_eq!(
                (capped.depth, capped.nodes),
                (Some(lv.depth), Some(lv.nodes))
            );
            let budget = capped.time_budget(Color::Black, overhead);
            assert_eq!(budget, on_clock.time_budget(Color::Black, overhead));
            assert!(budget.hard.is_some_and(|h| h < left), "{budget:?}");
            let capped = lv.limits(&strict);
            assert_eq!((capped.depth, capped.nodes), (Some(1), Some(100)));
        }
    }

    /// The draw on made-up root lines: each within the margin weighs its
    /// margin + 1 less its distance to the best, and is drawn that often
    /// (a fixed seed's draws counted); beyond the margin never.
    #[test]
    fn lines_are_drawn_by_their_distance_to_the_best() {
        let scores = [80, 120, 100, -500, 75, 119];
        let w = weights(scores.iter().copied(), 45);
        assert_eq!(w, [6, 46, 26, 0, 1, 45]);
        let mut rng = Rng::new(3);
        let mut count = [0u64; 6];
        let total: u64 = w.iter().sum();
        let draws = 1000 * total;
        for _ in 0..draws {
            count[draw(&w, &mut rng)] += 1;
        }
        for (i, (&c, &w)) in count.iter().zip(&w).enumerate() {
            let expected = 1000 * w;
            assert!(
                c.abs_diff(expected) <= expected / 10 + 30,
                "line {i}: drawn {c} times of {draws}, weight {w} of {total}"
            );
        }
        assert_eq!(count[3], 0);
    }

    /// At every level a line a man (100) below the best cannot be drawn,
    /// and a line at the level's margin can.
    #[test]
    fn no_level_can_draw_a_line_a_man_below_the_best() {
        for (l, lv) in LEVELS.iter().enumerate() {
            let w = weights([0, -100, -lv.margin, -lv.margin - 1].into_iter(), lv.margin);
            assert_eq!(w, [lv.margin as u64 + 1, 0, 1, 0], "level {l}");
        }
    }

    fn at_skill(skill: Skill, seed: u64) -> Searcher {
        let mut s = Searcher::new(1);
        *s.options_mut() = SearchOptions {
            skill_level: skill,
            ..SearchOptions::default()
        };
        s.set_skill_seed(seed);
        s
    }

    fn played(s: &mut Searcher, g: &Game, limits: &SearchLimits) -> String {
        let out = s.search(g, limits, &SearchControl::new(), &mut |_| {});
        g.position().move_text(&out.best_move.unwrap())
    }

    #[test]
    fn the_same_seed_plays_the_same_moves() {
        let g = Game::new(Position::startpos(Rules::TURKISH));
        let moves = |seed| {
            let mut s = at_skill(Skill { hundredths: 250 }, seed);
            (0..8)
                .map(|_| played(&mut s, &g, &SearchLimits::default()))
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(5), moves(5));
    }

    /// The search keeps to the caps a level computes: never deeper, never
    /// more nodes, whatever the position.
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
            let mut s = at_skill(Skill::level(level), level.into());
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
