//! Running the real `tama` binary once with arguments, for the tests of its
//! sub-commands (the protocol tests talk to a live process instead:
//! `protocol_support`).

use std::process::{Command, Output};

/// `tama ARGS...`, run to the end.
pub fn tama(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tama"))
        .args(args)
        .output()
        .expect("the tama binary runs")
}

/// A stream of the process as text (the binary writes UTF-8 only).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}
