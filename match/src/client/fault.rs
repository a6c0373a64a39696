//! What can go wrong with an engine, and whose fault it was (`Fault`).

use tama_engine::MoveError;

/// Why an engine lost its game without losing it on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process could not be started, or did not finish the handshake.
    StartFailure(String),
    /// The process exited (or closed its output).
    Crash(String),
    /// No answer at all, even after `stop`.
    Hang(String),
    /// An answer that is not a move.
    Garbage(String),
    /// A well-formed move that is not legal (or ambiguous).
    Illegal(String),
    /// The engine reported an error instead of searching (UCI
    /// `info string error: ...`, Hub `error`), e.g. a `go` it refuses.
    Refused(String),
}

impl Fault {
    /// Short reason for a PDN `Termination` tag.
    pub fn reason(&self) -> String {
        match self {
            Fault::StartFailure(m) => format!("engine failed to start: {m}"),
            Fault::Crash(m) => format!("engine crashed: {m}"),
            Fault::Hang(m) => format!("engine hangs: {m}"),
            Fault::Garbage(m) => format!("garbage output: {m}"),
            // The rules core's messages already say "illegal move ...".
            Fault::Illegal(m)
                if m.starts_with("illegal move") || m.starts_with("ambiguous move") =>
            {
                m.clone()
            }
            Fault::Illegal(m) => format!("illegal move: {m}"),
            Fault::Refused(m) => format!("engine error: {m}"),
        }
    }
}

/// Reads an engine's move: the rules decide, and a refusal becomes the
/// engine's fault (text that is no move: garbage; a move that is not
/// legal here, or not only one: illegal).
pub(super) fn move_fault(e: MoveError) -> Fault {
    match e {
        MoveError::Malformed(m) => Fault::Garbage(m),
        other => Fault::Illegal(other.to_string()),
    }
}
