//! Harvesting shots: self-play games of Tama's search at a small node
//! budget from random openings, every quiet position of which the sparring
//! search (the oracle) examines.
//!
//! A position is kept when:
//! - the position is not decided already (static value within
//!   `MAX_STATIC`), and no capture is due;
//! - the oracle's best move at `oracle_depth` is a quiet move after which
//!   the opponent must capture (a sacrifice), and it wins at least a man
//!   over the position's static value (or wins the game);
//! - every move within `WINNING_SLACK` of it is a winning move too (at most
//!   `MAX_WINNING` of them), and the best of the rest is at least
//!   `MIN_MARGIN` worse (the answer is clear);
//! - the oracle chose a winning move from some iteration on, at least one
//!   iteration before its last (the find is stable, not a horizon effect);
//! - a shallow plain search (the baseline: fixed `shallow_depth`, material,
//!   captures resolved) does not choose a winning move (it is a combination).
//!
//! A cheaper oracle search at `probe_depth` screens the positions first.

use crate::shots::Shot;
use crate::sparring;
use tama_engine::eval::Weights;
use tama_engine::game::{Game, GameStatus};
use tama_engine::movegen;
use tama_engine::moves::Move;
use tama_engine::position::Position;
use tama_engine::rng::Rng;
use tama_engine::rules::Rules;
use tama_engine::search::tt::TranspositionTable;
use tama_engine::search::{
    SearchControl, SearchInfo, SearchLimits, SearchOptions, SearchOutcome, Searcher, MATE, MAX_PLY,
};

/// Moves scoring within this of the best are winning moves too.
pub const WINNING_SLACK: i32 = 50;
/// The best other move must be at least this much worse than the shot.
pub const MIN_MARGIN: i32 = 150;
/// A shot wins at least this much over the position's static value.
pub const MIN_GAIN: i32 = 100;
/// A position already this far ahead or behind (static value) is decided:
/// a win there is no combination.
pub const MAX_STATIC: i32 = 250;
/// At most this many winning moves (more: any move wins, nothing to find).
pub const MAX_WINNING: usize = 2;
const MAX_GAME_PLIES: usize = 200;

/// Why a position is not a shot: the first condition it fails.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reject {
    /// A capture is due, or there is a single move.
    NoChoice,
    /// One side is far ahead already.
    Decided,
    /// The screening search found no winning sacrifice.
    Probe,
    /// The full oracle search found none.
    Oracle,
    /// Too many moves win, or the best other move is not clearly worse.
    Unclear,
    /// The oracle chose a winning move only at its last iteration.
    Unstable,
    /// The shallow plain search finds it too.
    Shallow,
}

/// How many positions a harvest examined, and where each was rejected
/// (`Reject as usize`).
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Self-play games played.
    pub games: usize,
    /// Positions screened.
    pub positions: usize,
    /// Positions rejected, by reason.
    pub rejected: [usize; 7],
}

/// What a harvest plays and how strictly it screens.
#[derive(Clone, Debug)]
pub struct Config {
    /// The variant of the games.
    pub rules: Rules,
    /// Self-play games to play.
    pub games: usize,
    /// Seed of the random openings.
    pub seed: u64,
    /// Nodes per move of the self-play games.
    pub game_nodes: u64,
    /// Random plies that open each game.
    pub opening_plies: usize,
    /// The oracle's depth for the quick screen of every position.
    pub probe_depth: u32,
    /// The oracle's depth for the verdict on a candidate.
    pub oracle_depth: u32,
    /// The depth of the plain search that must miss the shot.
    pub shallow_depth: u32,
    /// At most this many shots from one game (the first ones found, at
    /// least four plies apart).
    pub per_game: usize,
    /// The evaluation the self-play games are played with (the oracle and
    /// the shallow search count material of their own).
    pub weights: Weights,
}

impl Config {
    /// The settings the built-in suite was harvested with (`games` and
    /// `seed` as given).
    pub fn suite(rules: Rules, games: usize, seed: u64) -> Config {
        Config {
            rules,
            games,
            seed,
            game_nodes: 1000,
            opening_plies: 6,
            probe_depth: 3,
            oracle_depth: 6,
            shallow_depth: 3,
            per_game: 2,
            weights: Weights::DEFAULT,
        }
    }
}

/// The oracle: the sparring search on its own table.
pub struct Oracle {
    tt: TranspositionTable,
    shallow: Searcher,
}

impl Default for Oracle {
    fn default() -> Oracle {
        Oracle::new()
    }
}

impl Oracle {
    /// An oracle with its own 16 MB table.
    pub fn new() -> Oracle {
        let mut shallow = Searcher::new(1);
        shallow.options_mut().lab.baseline = true;
        Oracle {
            tt: TranspositionTable::new(16),
            shallow,
        }
    }

    /// The sparring search of `game`'s position to `depth` over `moves`,
    /// from a cleared table; every iteration's report.
    pub fn search(
        &mut self,
        game: &Game,
        moves: &[Move],
        depth: u32,
    ) -> (SearchOutcome, Vec<SearchInfo>) {
        self.tt.clear();
        let limits = SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        };
        let mut infos = Vec::new();
        let out = sparring::search(
            &self.tt,
            game,
            moves,
            &limits,
            &SearchOptions::default(),
            &SearchControl::new(),
            &mut |i| infos.push(i.clone()),
        );
        (out, infos)
    }

    /// The shot in the game's current position, or the first condition
    /// (see the module's comment) that it fails.
    pub fn examine(&mut self, game: &Game, config: &Config) -> Result<Shot, Reject> {
        let (probe_depth, oracle_depth) = (config.probe_depth, config.oracle_depth);
        let pos = *game.position();
        let legal = movegen::legal_moves(&pos);
        if legal.len() < 2 || legal[0].is_capture() {
            return Err(Reject::NoChoice);
        }
        if sparring::evaluate(&pos).abs() > MAX_STATIC {
            return Err(Reject::Decided);
        }
        let (probe, _) = self.search(game, &legal, probe_depth);
        if !is_winning_sacrifice(&pos, &probe) {
            return Err(Reject::Probe);
        }
        let (out, infos) = self.search(game, &legal, oracle_depth);
        if !is_winning_sacrifice(&pos, &out) {
            return Err(Reject::Oracle);
        }
        let (best, score) = (out.best_move.expect("a move"), score_of(&out));
        let mut winning = vec![best];
        let margin = loop {
            let rest: Vec<Move> = legal
                .iter()
                .filter(|m| !winning.contains(m))
                .copied()
                .collect();
            if rest.is_empty() {
                return Err(Reject::Unclear); // every move wins
            }
            let (other, _) = self.search(game, &rest, oracle_depth);
            let v = score_of(&other);
            if v >= score - WINNING_SLACK {
                if winning.len() == MAX_WINNING {
                    return Err(Reject::Unclear);
                }
                winning.push(other.best_move.expect("a move"));
            } else if v > score - MIN_MARGIN {
                return Err(Reject::Unclear);
            } else {
                break score - v;
            }
        };
        let found = infos
            .iter()
            .rposition(|i| !winning.contains(&i.pv[0]))
            .map_or(infos[0].depth, |k| {
                infos.get(k + 1).map_or(u32::MAX, |i| i.depth)
            });
        if found >= oracle_depth {
            return Err(Reject::Unstable);
        }
        let limits = SearchLimits {
            depth: Some(config.shallow_depth),
            ..SearchLimits::default()
        };
        self.shallow.clear();
        let shallow = self
            .shallow
            .search(game, &limits, &SearchControl::new(), &mut |_| {});
        if shallow.best_move.is_some_and(|m| winning.contains(&m)) {
            return Err(Reject::Shallow);
        }
        Ok(Shot {
            position: pos,
            winning,
            depth: found,
            score,
            margin,
        })
    }
}

/// The outcome's score in internal units (a win or loss as `MATE - plies`).
fn score_of(out: &SearchOutcome) -> i32 {
    use tama_engine::search::Score;
    match out.score {
        Some(Score::Cp(v)) => v,
        Some(Score::Mate(n)) if n > 0 => MATE - 2 * n + 1,
        Some(Score::Mate(n)) => -MATE - 2 * n,
        None => -MATE,
    }
}

/// Whether the search chose a quiet move after which the opponent must
/// capture, scored at least `MIN_GAIN` above the position's static value
/// (or a win).
fn is_winning_sacrifice(pos: &Position, out: &SearchOutcome) -> bool {
    let score = score_of(out);
    out.best_move.is_some_and(|mv| {
        !mv.is_capture()
            && movegen::has_capture(&pos.play(&mv))
            && (score >= MATE - MAX_PLY as i32 || score >= sparring::evaluate(pos) + MIN_GAIN)
    })
}

/// Plays `config.games` self-play games and examines their positions,
/// calling `found` with each shot as it is found (for progress output).
pub fn harvest(config: &Config, found: &mut dyn FnMut(&Shot)) -> (Vec<Shot>, Stats) {
    let mut stats = Stats::default();
    let mut rng = Rng::new(config.seed);
    let mut oracle = Oracle::new();
    let mut player = Searcher::new(16);
    player.set_weights(config.weights.clone());
    let mut shots: Vec<Shot> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for _ in 0..config.games {
        let Some(mut game) = random_opening(&mut rng, config) else {
            continue;
        };
        player.clear();
        stats.games += 1;
        let mut taken = 0;
        let mut last_taken = None;
        for ply in 0..MAX_GAME_PLIES {
            if game.status() != GameStatus::Ongoing {
                break;
            }
            let spaced = last_taken.is_none_or(|p: usize| ply >= p + 4);
            if taken < config.per_game && spaced && seen.insert(game.position().key()) {
                stats.positions += 1;
                match oracle.examine(&game, config) {
                    Ok(shot) => {
                        found(&shot);
                        shots.push(shot);
                        taken += 1;
                        last_taken = Some(ply);
                    }
                    Err(why) => stats.rejected[why as usize] += 1,
                }
            }
            let limits = SearchLimits {
                nodes: Some(config.game_nodes),
                ..SearchLimits::default()
            };
            let out = player.search(&game, &limits, &SearchControl::new(), &mut |_| {});
            game.play(out.best_move.expect("an ongoing game has a move"));
        }
    }
    (shots, stats)
}

/// A game after `config.opening_plies` random moves (`None` if it ended).
fn random_opening(rng: &mut Rng, config: &Config) -> Option<Game> {
    let mut game = Game::new(Position::startpos(config.rules));
    for _ in 0..config.opening_plies {
        let moves = movegen::legal_moves(game.position());
        if moves.is_empty() {
            return None;
        }
        game.play(moves[rng.below(moves.len() as u64) as usize]);
    }
    Some(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tama_engine::eval::VariantWeights;
    use tama_engine::rules::Variant;

    /// Cheaper than the suite's settings: a shallower oracle.
    fn config(rules: Rules) -> Config {
        Config {
            oracle_depth: 5,
            shallow_depth: 2,
            ..Config::suite(rules, 1, 1)
        }
    }

    #[test]
    fn the_issue_example_is_a_shot() {
        // A shot release 0.1.0 sees only at depth 13 (Turkish, White to
        // move): g3-g4 forces a5xa3xc3xc1, then g4xg6xg8, and a chain of
        // sacrifices follows.
        let fen = "W:Wa2,c2,d2,f2,g2,h2,b3,e3,f3,g3,a4,b4,c4,d4,e4,h4:\
                   Ba5,e5,g5,a6,b6,c6,d6,e6,f6,h6,a7,b7,d7,e7,g7,h7";
        let pos = Position::from_fen(fen, Rules::TURKISH).unwrap();
        let shot = Oracle::new()
            .examine(&Game::new(pos), &config(Rules::TURKISH))
            .expect("a shot");
        let moves: Vec<String> = shot.winning.iter().map(|m| pos.move_text(m)).collect();
        assert_eq!(moves, ["g3-g4", "h4-g4"]);
        assert!(shot.depth <= 3, "{}", shot.line());
        assert!(shot.margin >= MIN_MARGIN, "{}", shot.line());
    }

    #[test]
    fn a_quiet_opening_has_no_shot() {
        let pos = Position::startpos(Rules::ARMENIAN);
        let why = Oracle::new()
            .examine(&Game::new(pos), &config(Rules::ARMENIAN))
            .unwrap_err();
        assert_eq!(why, Reject::Probe);
    }

    #[test]
    fn harvested_shots_are_winning_sacrifices_missed_by_the_shallow_search() {
        // Two Turkish games from seed 2 hold two shots (a seed where the
        // harvest finds something, so that the checks below run). The games
        // are played with the hand-set weights, so that a new default set
        // does not move the seed; a change of the search still can (with
        // `sacrifice_exempt=3`, of seeds 2, 4, 6, 13, 14 and 15 only 2, 14
        // and 15 find some; `cargo run --release --manifest-path
        // lab/Cargo.toml --example harvest -- harvest turkish 2 SEED 1000 6
        // 3 5 2 2 hand` lists what a seed gives).
        let mut cfg = config(Rules::TURKISH);
        cfg.games = 2;
        cfg.seed = 2;
        cfg.weights
            .replace(VariantWeights::hand_set(Variant::Turkish));
        let mut reported = 0;
        let (shots, stats) = harvest(&cfg, &mut |_| reported += 1);
        assert_eq!(reported, shots.len());
        assert!(!shots.is_empty());
        assert_eq!(stats.games, 2);
        assert_eq!(
            stats.positions,
            shots.len() + stats.rejected.iter().sum::<usize>()
        );
        for shot in &shots {
            let pos = shot.position;
            assert!(shot.depth < cfg.oracle_depth);
            assert!(shot.margin >= MIN_MARGIN);
            for mv in &shot.winning {
                assert!(!mv.is_capture() && movegen::has_capture(&pos.play(mv)));
            }
            assert_eq!(Shot::parse(&shot.line()).as_ref(), Ok(shot));
            let mut plain = Searcher::new(1);
            plain.options_mut().lab.baseline = true;
            let limits = SearchLimits {
                depth: Some(cfg.shallow_depth),
                ..SearchLimits::default()
            };
            let out = plain.search(&Game::new(pos), &limits, &SearchControl::new(), &mut |_| {});
            assert!(!shot.winning.contains(&out.best_move.unwrap()));
        }
    }
}
