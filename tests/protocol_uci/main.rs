//! The UCI dialect, end to end: the release binary, one conversation per
//! documented command and error case (docs/protocol.md). One module per
//! concern, all in one test binary.

#[path = "../protocol_support/mod.rs"]
mod protocol_support;

mod debug_log;
mod input;
mod options;
mod positions;
mod search;
mod weights;

use protocol_support::Engine;

/// The `Fen:` line of `d`.
fn fen(e: &mut Engine) -> String {
    e.send("d");
    let lines = e.until("Game state:");
    lines
        .iter()
        .find_map(|l| l.strip_prefix("Fen: "))
        .expect("d prints the FEN")
        .to_string()
}
