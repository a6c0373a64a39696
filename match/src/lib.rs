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
//!   (`results`);
//! - `error`: a command line the runner refuses (`UsageError`), a match
//!   that cannot start (`SetupError`).
//!
//! Ctrl-C and SIGTERM, and the engines' processes, are `tama_os`'s.

/// A line to the console's `out` / `err` that cannot fail: what cannot be
/// written (`tama match ... | head`) is dropped, so a closed stream never
/// stops a match.
macro_rules! outln {
    ($console:expr, $($t:tt)*) => {{
        let _ = writeln!($console.out, $($t)*);
    }};
}
macro_rules! errln {
    ($console:expr, $($t:tt)*) => {{
        let _ = writeln!($console.err, $($t)*);
    }};
}

pub mod cli;
pub mod client;
pub mod config;
pub mod error;
pub mod output;
pub mod play;
pub mod schedule;
pub mod stats;

use cli::args::{self, Command};
use schedule::load_openings;
use std::io::Write;

/// Where the runner writes: the tables (and `--dump-openings`' list) on
/// `out`; the header, progress lines, warnings and errors on `err`. The
/// binary gives it stdout and stderr; the crate itself prints nothing.
pub struct Console<'a> {
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
}

/// Carries out `tama match ARGS...` (a match, a merge of results files,
/// the help or the openings list), writing to `console`; returns the exit
/// status for the binary to exit with.
pub fn run_command_line(args: &[String], console: &mut Console) -> i32 {
    match args::parse(args) {
        Err(e) => {
            errln!(console, "error: {e}");
            2
        }
        Ok(Command::Run(c)) => play::run::run(*c, console),
        Ok(Command::Merge {
            files,
            results,
            sprt,
        }) => output::results::merge_command(&files, results.as_deref(), sprt, console),
        Ok(Command::Help) => {
            outln!(console, "{}", cli::help::help());
            0
        }
        Ok(Command::DumpOpenings(c)) => match load_openings(&c.openings, c.rules, c.seed) {
            Ok(list) => {
                for o in list {
                    match (o.moves.is_empty(), o.score) {
                        (true, None) => outln!(console, "{}", o.start.fen()),
                        (false, None) => outln!(console, "{} | {}", o.start.fen(), o.moves),
                        (_, Some(s)) => {
                            outln!(
                                console,
                                "{} | {} | {} {}",
                                o.start.fen(),
                                o.moves,
                                s.cp,
                                s.depth
                            )
                        }
                    }
                }
                0
            }
            Err(e) => {
                errln!(console, "error: {e}");
                2
            }
        },
    }
}
