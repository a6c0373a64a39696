//! The training pipeline's errors, each a one-line message for the binary
//! to print.

/// What stops data generation, a merge of shards or training: a file that
/// cannot be read or written, data that does not fit the run, settings
/// that leave nothing to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError(String);

/// A `--split` value that names no way of splitting the data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSplit(String);

tama_engine::message_error!(DataError);
tama_engine::message_error!(UnknownSplit);
