//! The match runner behind `tama match`: engine-vs-engine matches and
//! tournaments, refereed with the rules core (docs/match.md has every flag),
//! and the client that drives the engines.
//!
//! - `client`: engine processes and the UCI and Hub dialects, client side;
//! - `args`: the command line; `config`: what it describes;
//! - `schedule`: pairings, rounds, colours and openings of every game (the
//!   opening suites and PDN are the engine's: `tama_engine::openings`,
//!   `tama_engine::notation::pdn`);
//! - `run`: the worker threads and the counting of finished games;
//! - `game`: one game (engine processes, referee); `clock`: time controls
//!   and clocks; `adjudication`: ending games early;
//! - `shard`: `-shard K/N` and what a merge of shards checks;
//! - `elo`: Elo, error bar, LOS; `pentanomial`: paired-game counts;
//!   `sprt`: the sequential probability ratio test;
//! - `tally`: the counts of a match; `report`: its tables; `results`: its
//!   results file and `--merge`;
//! - `resume`: `-resume`, going on from the results file.
//!
//! Ctrl-C and SIGTERM, and the engines' processes, are `tama_os`'s.

/// `println!` / `eprintln!` that do not panic when the stream is closed
/// (`tama match ... | head`): what cannot be written is dropped.
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}
macro_rules! errln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

pub mod adjudication;
pub mod args;
pub mod client;
pub mod clock;
pub mod config;
pub mod elo;
pub mod game;
pub mod pentanomial;
pub mod report;
pub mod results;
mod resume;
mod run;
pub mod schedule;
pub mod shard;
pub mod sprt;
pub mod tally;

use args::Command;
use schedule::load_openings;

/// Entry point of `tama match ARGS...`; returns the exit status.
pub fn main(args: &[String]) -> i32 {
    match args::parse(args) {
        Err(e) => {
            errln!("error: {e}");
            2
        }
        Ok(Command::Run(c)) => run::run(*c),
        Ok(Command::Merge {
            files,
            results,
            sprt,
        }) => results::merge_command(&files, results.as_deref(), sprt),
        Ok(Command::Help) => {
            outln!("{}", args::help());
            0
        }
        Ok(Command::DumpOpenings(c)) => match load_openings(&c.openings, c.rules, c.seed) {
            Ok(list) => {
                for o in list {
                    match (o.moves.is_empty(), o.score) {
                        (true, None) => outln!("{}", o.start.fen()),
                        (false, None) => outln!("{} | {}", o.start.fen(), o.moves),
                        (_, Some(s)) => {
                            outln!("{} | {} | {} {}", o.start.fen(), o.moves, s.cp, s.depth)
                        }
                    }
                }
                0
            }
            Err(e) => {
                errln!("error: {e}");
                2
            }
        },
    }
}
