//! Table files written whole or not at all, for the build and the
//! compression alike.

use super::probe::{io_error, EgtbError};
use std::io::Write;
use std::path::Path;

/// Writes to `NAME.tmp` and renames: an interrupted build never leaves a
/// file with a table's name that is not whole.
pub(crate) fn write_atomically(
    path: &Path,
    header: &[u8],
    payload: &[u8],
) -> Result<(), EgtbError> {
    let tmp = path.with_extension("egtb.tmp");
    let mut f = std::fs::File::create(&tmp).map_err(io_error(&tmp))?;
    f.write_all(header).map_err(io_error(&tmp))?;
    f.write_all(payload).map_err(io_error(&tmp))?;
    f.sync_all().map_err(io_error(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io_error(path))
}
