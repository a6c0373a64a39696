//! What each `tama` command does once its flags are read (`cli`), one
//! module per command. Each returns a one-line error for bad input (a FEN
//! that does not parse), which `main` prints with status 2.
//!
//! - `protocol`: `tama`, `tama uci`, `tama hub`: the engine on stdin/stdout;
//! - `perft`, `bench`, `search`: the move generator's count, the search's
//!   signature, one search;
//! - `egtb` (and `egtb_games`, its commands that read played games): the
//!   endgame databases;
//! - `datagen`, `train`: the training pipeline (`tama_train`);
//! - `match`: `tama match` (`tama_match`);
//! - `gui`: the board in the browser;
//! - `analyse`: games reviewed, written back as annotated PDN
//!   (`tama_engine::review`).

use anyhow::Result;
pub mod analyse;
pub mod bench;
pub mod datagen;
pub mod egtb;
pub mod egtb_games;
pub mod gui;
pub mod r#match;
pub mod perft;
pub mod protocol;
pub mod search;
pub mod train;

use std::io::{IsTerminal, Write};
use tama_engine::{Position, Rules};

/// The start position, or the given FEN under these rules.
fn position(fen: Option<&str>, rules: Rules) -> Result<Position> {
    match fen {
        Some(f) => Ok(Position::from_fen(f, rules)?),
        None => Ok(Position::startpos(rules)),
    }
}

/// A progress line on stderr: rewritten in place on a terminal, one line
/// each otherwise (a log file).
fn progress_line(line: &str) {
    let mut err = std::io::stderr().lock();
    let _ = if err.is_terminal() {
        write!(err, "\r{line}\x1b[K")
    } else {
        writeln!(err, "{line}")
    };
    let _ = err.flush();
}
