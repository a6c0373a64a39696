//! What the client starts: the program with its arguments, directory and
//! options (`EngineCommand`), the dialect it speaks (`Proto`), and how
//! long it may take to answer (`Timeouts`).

use crate::error::UsageError;
use std::path::PathBuf;
use std::time::Duration;

/// The dialect an engine speaks.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Proto {
    #[default]
    Uci,
    Hub,
}

impl std::str::FromStr for Proto {
    type Err = UsageError;
    fn from_str(s: &str) -> Result<Proto, UsageError> {
        match s.to_ascii_lowercase().as_str() {
            "uci" => Ok(Proto::Uci),
            "hub" => Ok(Proto::Hub),
            _ => Err(format!("unknown protocol {s:?} (expected uci or hub)").into()),
        }
    }
}

impl std::fmt::Display for Proto {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Proto::Uci => "uci",
            Proto::Hub => "hub",
        })
    }
}

/// How to start an engine and what to tell it before the first game.
#[derive(Clone, Debug, Default)]
pub struct EngineCommand {
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub proto: Proto,
    /// `option.X=Y` from the command line, sent in this order.
    pub options: Vec<(String, String)>,
}

impl EngineCommand {
    /// Whether the user sets option `name` (any case) on the command line.
    pub(super) fn sets(&self, name: &str) -> bool {
        self.options
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
    }
}

/// Timeouts of the conversation (not of the game clock).
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// For the handshake (`uciok`, `readyok`, `wait`, `ready`).
    pub handshake: Duration,
    /// After `stop`, how long the move may still take before the engine
    /// counts as hanging.
    pub stop_grace: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            handshake: Duration::from_secs(10),
            stop_grace: Duration::from_secs(1),
        }
    }
}
