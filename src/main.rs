//! The `tama` binary: command-line dispatch only.

mod cli;
mod commands;
mod egtb;
mod egtb_games;
mod tactics;

use cli::{tuning, Cli, Command};
use tama_protocol::session::Dialect;

fn main() {
    let status = match cli::parse(std::env::args_os()) {
        Ok(cli) => run(cli),
        Err(status) => status,
    };
    std::process::exit(status);
}

/// Runs the command; returns the exit status (2 with a one-line error for
/// bad input).
fn run(cli: Cli) -> i32 {
    let done = match cli.command {
        None => tuning(&cli.set).map(|t| tama_protocol::run_stdio(None, t)),
        Some(Command::Uci(a)) => {
            tuning(&a.set).map(|t| tama_protocol::run_stdio(Some(Dialect::Uci), t))
        }
        Some(Command::Hub(a)) => {
            tuning(&a.set).map(|t| tama_protocol::run_stdio(Some(Dialect::Hub), t))
        }
        Some(Command::Match(a)) => Ok(tama_match::main(&a.args)),
        Some(Command::Perft(a)) => commands::perft_command(&a).map(|()| 0),
        Some(Command::Bench(a)) => commands::bench_command(&a).map(|()| 0),
        Some(Command::Search(a)) => commands::search_command(&a).map(|()| 0),
        Some(Command::Datagen(a)) => commands::datagen_command(&a),
        Some(Command::Train(a)) => commands::train_command(&a).map(|()| 0),
        Some(Command::Gui(a)) => commands::gui_command(&a).map(|()| 0),
        Some(Command::Egtb(c)) => egtb::run(&c).map(|()| 0),
        Some(Command::Tactics(a)) => commands::tactics_command(&a).map(|()| 0),
    };
    done.unwrap_or_else(|e| {
        eprintln!("error: {e}");
        2
    })
}
