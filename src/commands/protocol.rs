//! `tama`, `tama uci`, `tama hub`: the engine, speaking its protocol on
//! stdin and stdout (`tama_protocol`); without a sub-command the first line
//! chooses the dialect.

use super::Message;
use crate::cli::{tuning, Setting};
use anyhow::Result;
use tama_protocol::session::Dialect;

/// Runs the protocol loop until `quit` or the end of input.
pub fn run(dialect: Option<Dialect>, set: &[Setting]) -> Result<i32> {
    Ok(tama_protocol::run_stdio(dialect, tuning(set).message()?))
}
