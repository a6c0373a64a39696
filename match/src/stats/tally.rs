//! The tally of a match: per-pair counts (games and opening pairs), the
//! termination reasons and the games, as the runner counts them and as a
//! merge adds results files into them. The text tables (`report`) and the
//! results file (`results`) are both made from it.

use crate::schedule::shard::ScheduleId;
use crate::stats::elo::Wdl;
use crate::stats::pentanomial::Penta;
use crate::stats::sprt::{Sprt, SprtState};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use tama_shard::Shard;

/// Results between two engines, from `first`'s point of view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairResult {
    pub first: String,
    pub second: String,
    pub wdl: Wdl,
    pub penta: Penta,
}

/// Everything the tables and the JSON file are made from.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub event: String,
    pub rules: String,
    pub engines: Vec<String>,
    pub pairs: Vec<PairResult>,
    pub sprt: Option<Sprt>,
    /// Whether games are played in opening pairs (`-repeat`): the SPRT
    /// then uses the pentanomial model.
    pub paired: bool,
    /// Termination reason counts.
    pub terminations: BTreeMap<String, u64>,
    /// One line per game: round, white, black, result, termination, plies.
    pub games: Vec<GameEntry>,
    pub interrupted: bool,
    /// The full schedule these games are part of (written by the runner;
    /// read back by `--merge`).
    pub schedule: Option<ScheduleId>,
    /// `-shard K/N`: the part played (None: the whole schedule, or a merge).
    pub shard: Option<Shard>,
    /// After a merge of shards: the shards no file held.
    pub shards_missing: Vec<u32>,
}

impl Summary {
    /// The pair entry for (a, b), created if missing; the bool says whether
    /// the entry is stored as (b, a).
    pub fn pair_mut(&mut self, a: &str, b: &str) -> (&mut PairResult, bool) {
        if let Some(i) = self
            .pairs
            .iter()
            .position(|p| (p.first == a && p.second == b) || (p.first == b && p.second == a))
        {
            let flipped = self.pairs[i].first != a;
            return (&mut self.pairs[i], flipped);
        }
        self.pairs.push(PairResult {
            first: a.to_string(),
            second: b.to_string(),
            ..PairResult::default()
        });
        (self.pairs.last_mut().expect("just pushed"), false)
    }

    /// An engine's results against everyone.
    pub fn total(&self, name: &str) -> Wdl {
        let mut w = Wdl::default();
        for p in &self.pairs {
            if p.first == name {
                w.add(&p.wdl);
            } else if p.second == name {
                w.add(&p.wdl.flipped());
            }
        }
        w
    }

    pub fn games_played(&self) -> u64 {
        self.pairs.iter().map(|p| p.wdl.games()).sum()
    }

    /// The SPRT of the first pairing (pentanomial when games are paired,
    /// else trinomial).
    pub fn sprt_state(&self) -> Option<SprtState> {
        let s = self.sprt?;
        let p = self.pairs.first()?;
        Some(s.state(&p.wdl, &p.penta, self.paired || p.penta.pairs() > 0))
    }
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameEntry {
    /// `round.game` as in the PDN Round tag.
    pub round: String,
    pub white: String,
    pub black: String,
    /// `2-0`, `1-1` or `0-2`.
    pub result: String,
    pub termination: String,
    pub plies: u64,
}
