//! `tama gui`: the board in the browser (`tama::gui`).

use crate::cli::GuiArgs;
use anyhow::Result;

/// `tama gui`: the board server, until the process is ended (docs/gui.md).
pub fn run(a: &GuiArgs) -> Result<()> {
    tama::gui::run(a.port, !a.no_open, a.egtb.clone())
}
