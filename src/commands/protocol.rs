//! `tama`, `tama uci`, `tama hub`: the engine, speaking its protocol on
//! stdin and stdout (`tama_protocol`); without a sub-command the first line
//! chooses the dialect.

use tama_engine::search::Tuning;
use tama_protocol::session::Dialect;

/// Runs the protocol loop until `quit` or the end of input; returns the
/// exit status.
pub fn run(dialect: Option<Dialect>) -> i32 {
    tama_protocol::run_stdio(dialect, Tuning::default())
}
