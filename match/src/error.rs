//! The runner's errors, each a one-line message for the binary to print:
//! a command line it refuses (`UsageError`), a match that cannot start
//! (`SetupError`).

/// A flag, a value or a match as a whole that the command line cannot
/// describe; the message names the flag or setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsageError(String);

/// What stops a match before its first game: an engine that cannot be
/// found or started, openings that do not load, a file that cannot be
/// read or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(String);

tama_engine::message_error!(UsageError);
tama_engine::message_error!(SetupError);
