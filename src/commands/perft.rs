//! `tama perft`: counts the leaf nodes of the move tree (the rules' check).

use super::position;
use crate::cli::PerftArgs;
use anyhow::Result;
use std::io::Write;
use std::time::Instant;
use tama_engine::perft::{divide, perft, perft_routes};

/// `tama perft`: the node count last (`Nodes searched: N`), the speed on
/// stderr.
pub fn run(a: &PerftArgs) -> Result<()> {
    let pos = position(a.fen.as_deref(), a.rules.rules())?;
    let started = Instant::now();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let total = if a.divide {
        let split = divide(&pos, a.depth, a.routes);
        for (mv, n) in &split.moves {
            let _ = writeln!(out, "{}: {n}", pos.move_text(mv));
        }
        split.total
    } else if a.routes {
        perft_routes(&pos, a.depth)
    } else {
        perft(&pos, a.depth)
    };
    let elapsed = started.elapsed();
    let _ = writeln!(out, "Nodes searched: {total}");
    eprintln!(
        "info time {} ms, {:.1} Mnodes/s",
        elapsed.as_millis(),
        total as f64 / elapsed.as_secs_f64().max(1e-9) / 1e6
    );
    Ok(())
}
