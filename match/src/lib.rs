//! The match runner behind `tama match`: engine-vs-engine matches and
//! tournaments, refereed with the rules core (docs/match.md has every flag),
//! and the client that drives the engines.
//!
//! The modules by job, as the flow of a match goes:
//!
//! - `cli`: the command line (`args`); `config`: what it describes;
//! - `schedule`: pairings, rounds, colours and openings of every game (the
//!   opening suites and PDN are the engine's: `tama_engine::openings`,
//!   `tama_engine::notation::pdn`), and `schedule::shard`: `-shard K/N` and
//!   what a merge of shards checks;
//! - `play`: the worker threads and the main loop (`run`), one game
//!   (`game`), clocks (`clock`), ending games early (`adjudication`),
//!   `-resume` (`resume`);
//! - `client`: engine conversations in the UCI and Hub dialects;
//! - `stats`: Elo, error bar, LOS (`elo`), paired-game counts
//!   (`pentanomial`), the SPRT (`sprt`), the counts of a match (`tally`);
//! - `output`: the tables (`report`) and the results file and `--merge`
//!   (`results`).
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

pub mod cli;
pub mod client;
pub mod config;
pub mod output;
pub mod play;
pub mod schedule;
pub mod stats;

use cli::args::{self, Command};
use schedule::load_openings;

/// Entry point of `tama match ARGS...`; returns the exit status.
pub fn main(args: &[String]) -> i32 {
    match args::parse(args) {
        Err(e) => {
            errln!("error: {e}");
            2
        }
        Ok(Command::Run(c)) => play::run::run(*c),
        Ok(Command::Merge {
            files,
            results,
            sprt,
        }) => output::results::merge_command(&files, results.as_deref(), sprt),
        Ok(Command::Help) => {
            outln!("{}", cli::help::help());
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
