//! `tama bench`: the search's signature (a node count over fixed positions).

use crate::cli::BenchArgs;
use anyhow::Result;
use std::io::Write;

/// `tama bench`: the search's signature. One line per position, then
/// exactly `<nodes> nodes <nps> nps` as the last line.
pub fn run(a: &BenchArgs) -> Result<()> {
    let threads = a.threads.max(1);
    let report = tama_engine::search::bench::run_with(
        a.depth,
        threads,
        &tama_engine::search::Tuning::default(),
        &tama_engine::eval::Weights::DEFAULT,
    );
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in &report.lines {
        let _ = writeln!(out, "{line}");
    }
    eprintln!(
        "info depth {} threads {threads} time {} ms busiest-thread nodes {}",
        a.depth,
        report.time.as_millis(),
        report.critical_nodes
    );
    let _ = writeln!(out, "{} nodes {} nps", report.nodes, report.nps);
    Ok(())
}
