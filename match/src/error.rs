//! The runner's errors, each a one-line message for the binary to print:
//! a command line it refuses (`UsageError`), a match that cannot start
//! (`SetupError`).

use std::fmt;

/// A flag, a value or a match as a whole that the command line cannot
/// describe; the message names the flag or setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsageError(String);

/// What stops a match before its first game: an engine that cannot be
/// found or started, openings that do not load, a file that cannot be
/// read or written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(String);

macro_rules! message_error {
    ($t:ident) => {
        impl From<String> for $t {
            fn from(message: String) -> $t {
                $t(message)
            }
        }

        impl From<&str> for $t {
            fn from(message: &str) -> $t {
                $t(message.to_string())
            }
        }

        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl std::error::Error for $t {}
    };
}

message_error!(UsageError);
message_error!(SetupError);
