//! The values of `EvalFile` (and of `tama datagen --eval-file`, `tama
//! train --init`): the default sets, a set built in by name, or a weights
//! file read and decoded.

use std::fmt;
use tama_engine::eval::{self, VariantWeights};

/// The `EvalFile` value that means the default weights (both variants).
pub const BUILTIN_EVAL: &str = "<builtin>";
/// An `EvalFile` value `builtin:NAME` selects a set built into the binary
/// by name (`tama_engine::eval::NAMED`) instead of a file.
pub const BUILTIN_PREFIX: &str = "builtin:";
/// The one variant's weights an `EvalFile` value other than `BUILTIN_EVAL`
/// names: `BUILTIN_PREFIX` + a built-in set's name, or a weights file.
/// Shared by the option and by `tama datagen --eval-file`, so that both
/// accept the same values with the same errors.
pub fn read_weights(value: &str) -> Result<VariantWeights, WeightsError> {
    match value.strip_prefix(BUILTIN_PREFIX) {
        Some(name) => eval::named(name).map_err(WeightsError::Unknown),
        None => std::fs::read(value)
            .map_err(WeightsError::Unreadable)
            .and_then(|bytes| eval::file::decode(&bytes).map_err(WeightsError::Invalid)),
    }
}

/// Why an `EvalFile` value names no weights.
#[derive(Debug)]
pub enum WeightsError {
    /// `BUILTIN_PREFIX` and a name that is not built in.
    Unknown(eval::UnknownWeights),
    /// The file cannot be read.
    Unreadable(std::io::Error),
    /// The file is not a valid weights file.
    Invalid(eval::file::WeightsFileError),
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::Unknown(e) => write!(f, "{e}"),
            WeightsError::Unreadable(e) => write!(f, "cannot read it: {e}"),
            WeightsError::Invalid(e) => write!(f, "{e}"),
        }
    }
}

// The messages include their cause, so none is chained as a source.
impl std::error::Error for WeightsError {}
