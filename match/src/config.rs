//! What a match is: the engines and their limits, the schedule's settings,
//! the rules, adjudication, statistics and output files. Built from the
//! command line by `args`; read by everything else.

use crate::client::EngineCommand;
use crate::play::adjudication::Adjudication;
use crate::play::clock::TimeControl;
use crate::stats::sprt::Sprt;
use std::path::PathBuf;
use std::time::Duration;
use tama_engine::Rules;
use tama_shard::Shard;

#[derive(Clone, Debug, Default)]
pub struct EngineSpec {
    pub command: EngineCommand,
    pub tc: TimeControl,
    /// Per-engine time margin (overrides `-timemargin`).
    pub timemargin: Option<Duration>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Tournament {
    #[default]
    RoundRobin,
    Gauntlet,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Order {
    #[default]
    Sequential,
    Random,
}

impl std::fmt::Display for Tournament {
    /// As `-tournament` takes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Tournament::RoundRobin => "round-robin",
            Tournament::Gauntlet => "gauntlet",
        })
    }
}

impl std::fmt::Display for Order {
    /// As `-openings order=` takes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Order::Sequential => "sequential",
            Order::Random => "random",
        })
    }
}

#[derive(Clone, Debug, Default)]
pub struct OpeningsSpec {
    /// None: the built-in suite.
    pub file: Option<PathBuf>,
    /// `-openings generate`: the suite's candidates, made afresh (to make a
    /// new suite; see `openings`).
    pub generate: bool,
    pub format: String,
    pub order: Order,
    /// 1-based index of the first opening used.
    pub start: usize,
}

#[derive(Clone, Debug)]
pub struct Config {
    pub engines: Vec<EngineSpec>,
    pub tournament: Tournament,
    pub rounds: u32,
    pub games: u32,
    pub repeat: bool,
    pub concurrency: usize,
    pub openings: OpeningsSpec,
    pub seed: u64,
    pub rules: Rules,
    pub adjudication: Adjudication,
    pub timemargin: Duration,
    pub hang_timeout: Duration,
    pub sprt: Option<Sprt>,
    pub event: String,
    pub pdnout: Option<PathBuf>,
    pub results: Option<PathBuf>,
    /// `-resume`: count the games the results file holds, play the rest.
    pub resume: bool,
    /// `-shard K/N`: play only that part of the schedule.
    pub shard: Option<Shard>,
    pub quiet: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            engines: Vec::new(),
            tournament: Tournament::RoundRobin,
            rounds: 1,
            games: 1,
            repeat: false,
            concurrency: 1,
            openings: OpeningsSpec {
                file: None,
                generate: false,
                format: "fen".into(),
                order: Order::Sequential,
                start: 1,
            },
            seed: 0,
            rules: Rules::default(),
            adjudication: Adjudication::default(),
            timemargin: Duration::from_millis(100),
            hang_timeout: Duration::from_secs(60),
            sprt: None,
            event: "Tama match".into(),
            pdnout: None,
            results: None,
            resume: false,
            shard: None,
            quiet: false,
        }
    }
}
