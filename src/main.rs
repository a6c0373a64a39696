//! The `tama` binary: the command line (`cli`) and one module per command
//! (`commands`).

mod cli;
mod commands;

use cli::{Cli, Command};
use commands as run;
use tama_protocol::session::Dialect;

fn main() {
    let status = match cli::parse(std::env::args_os()) {
        Ok(cli) => dispatch(cli),
        Err(status) => status,
    };
    std::process::exit(status);
}

/// Runs the command; returns the exit status (2 with a one-line error for
/// bad input).
fn dispatch(cli: Cli) -> i32 {
    let done = match cli.command {
        None => Ok(run::protocol::run(None)),
        Some(Command::Uci) => Ok(run::protocol::run(Some(Dialect::Uci))),
        Some(Command::Hub) => Ok(run::protocol::run(Some(Dialect::Hub))),
        Some(Command::Match(a)) => Ok(run::r#match::run(&a.args)),
        Some(Command::Perft(a)) => run::perft::run(&a).map(|()| 0),
        Some(Command::Bench(a)) => run::bench::run(&a).map(|()| 0),
        Some(Command::Search(a)) => run::search::run(&a).map(|()| 0),
        Some(Command::Datagen(a)) => run::datagen::run(&a),
        Some(Command::Train(a)) => run::train::run(&a).map(|()| 0),
        Some(Command::Gui(a)) => run::gui::run(&a).map(|()| 0),
        Some(Command::Analyse(a)) => run::analyse::run(&a),
        Some(Command::Egtb(c)) => run::egtb::run(&c).map(|()| 0),
    };
    done.unwrap_or_else(|e| {
        eprintln!("error: {e:#}");
        2
    })
}
