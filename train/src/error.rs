//! The training pipeline's errors, each a one-line message for the binary
//! to print.

use std::fmt;

/// What stops data generation, a merge of shards or training: a file that
/// cannot be read or written, data that does not fit the run, settings
/// that leave nothing to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError(String);

/// A `--split` value that names no way of splitting the data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSplit(String);

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

message_error!(DataError);
message_error!(UnknownSplit);
