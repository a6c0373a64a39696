//! The schedule: which engines meet, in which colours, on which opening.
//!
//! For each round, each pairing (two engines: head-to-head;
//! `-tournament gauntlet`: the first engine against each other one; else
//! round robin) plays `-games` games. With `-repeat` the games go in pairs on
//! the same opening with colours reversed; without it colours alternate and
//! every game takes the next opening. Openings are used in order (from
//! `start=`), and wrap around; `order=random` shuffles the list beforehand
//! (see `load_openings`), not the schedule.

pub mod shard;

use crate::config::{Config, OpeningsSpec, Order, Tournament};
use crate::error::SetupError;
use tama_engine::openings::{builtin, generate, load, Opening};
use tama_engine::rng::Rng;
use tama_engine::Rules;

/// Loads the openings `spec` asks for, under `rules`, in playing order
/// (`order=random` shuffles them with `seed`).
pub fn load_openings(
    spec: &OpeningsSpec,
    rules: Rules,
    seed: u64,
) -> Result<Vec<Opening>, SetupError> {
    let mut list = match &spec.file {
        None if spec.generate => generate(rules),
        None => builtin(rules).map_err(|e| e.to_string())?,
        Some(path) => {
            let text = std::fs::read(path)
                .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
            let text = String::from_utf8_lossy(&text);
            load(&text, &spec.format, rules).map_err(|e| e.to_string())?
        }
    };
    if list.is_empty() {
        return Err("no openings to play".into());
    }
    if spec.order == Order::Random {
        Rng::new(seed).shuffle(&mut list);
    }
    Ok(list)
}

/// The two games of an opening pair share this key: the pairing's engines
/// (in the order of the pairing), the round (0-based) and the pair's slot in
/// the round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PairKey {
    pub first: usize,
    pub second: usize,
    pub round: u32,
    pub slot: u32,
}

/// One game to play.
#[derive(Clone, Debug)]
pub struct Job {
    /// 1-based.
    pub round: u32,
    /// Game number within its round (1-based).
    pub game_in_round: u32,
    /// Engine indices.
    pub white: usize,
    pub black: usize,
    /// Index into the openings list.
    pub opening: usize,
    /// With `-repeat`: the opening pair the game belongs to.
    pub pair: Option<PairKey>,
}

impl Job {
    /// `round.game`, as in the PDN Round tag and the results file.
    pub fn round_tag(&self) -> String {
        format!("{}.{}", self.round, self.game_in_round)
    }
}

/// The pairings of `n` engines, each as (first, second).
pub fn pairings(n: usize, kind: Tournament) -> Vec<(usize, usize)> {
    match kind {
        Tournament::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        Tournament::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
    }
}

/// Every game of the match, in playing order, given the number of openings.
pub fn schedule(c: &Config, openings: usize) -> Vec<Job> {
    let mut jobs = Vec::new();
    let pairs = pairings(c.engines.len(), c.tournament);
    let per_encounter = if c.repeat {
        c.games.div_ceil(2)
    } else {
        c.games
    } as usize;
    for round in 0..c.rounds {
        let mut game_in_round = 0;
        for &(a, b) in &pairs {
            for g in 0..c.games {
                game_in_round += 1;
                let slot = if c.repeat { g / 2 } else { g } as usize;
                let opening = (c.openings.start - 1 + round as usize * per_encounter + slot)
                    % openings.max(1);
                let swap = if c.repeat {
                    g % 2 == 1
                } else {
                    (round * c.games + g) % 2 == 1
                };
                let (white, black) = if swap { (b, a) } else { (a, b) };
                jobs.push(Job {
                    round: round + 1,
                    game_in_round,
                    white,
                    black,
                    opening,
                    pair: c.repeat.then_some(PairKey {
                        first: a,
                        second: b,
                        round,
                        slot: g / 2,
                    }),
                });
            }
        }
    }
    jobs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::EngineSpec;

    fn config(engines: usize, kind: Tournament, rounds: u32, games: u32, repeat: bool) -> Config {
        let mut c = Config {
            tournament: kind,
            rounds,
            games,
            repeat,
            ..Config::default()
        };
        for n in 0..engines {
            let mut e = EngineSpec::default();
            e.command.name = format!("E{n}");
            c.engines.push(e);
        }
        c
    }

    #[test]
    fn schedules() {
        // Head to head with -repeat: pairs share an opening, colours swap.
        let jobs = schedule(&config(2, Tournament::RoundRobin, 3, 2, true), 10);
        assert_eq!(jobs.len(), 6);
        let seen: Vec<(usize, usize, usize)> =
            jobs.iter().map(|j| (j.white, j.black, j.opening)).collect();
        assert_eq!(
            seen,
            vec![
                (0, 1, 0),
                (1, 0, 0),
                (0, 1, 1),
                (1, 0, 1),
                (0, 1, 2),
                (1, 0, 2)
            ]
        );
        assert_eq!(jobs[0].pair, jobs[1].pair);
        assert_ne!(jobs[1].pair, jobs[2].pair);
        // Without repeat: colours alternate, openings advance, wrap around.
        let jobs = schedule(&config(2, Tournament::RoundRobin, 3, 1, false), 2);
        let seen: Vec<(usize, usize)> = jobs.iter().map(|j| (j.white, j.opening)).collect();
        assert_eq!(seen, vec![(0, 0), (1, 1), (0, 0)]);
        // Round robin of 4: 6 pairings; gauntlet of 4: 3.
        assert_eq!(
            schedule(&config(4, Tournament::RoundRobin, 1, 2, true), 5).len(),
            12
        );
        let g = schedule(&config(4, Tournament::Gauntlet, 2, 2, true), 5);
        assert_eq!(g.len(), 12);
        assert!(g.iter().all(|j| j.white == 0 || j.black == 0));
    }
}
