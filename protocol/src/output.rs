//! Where a session's output goes: the output channel every thread prints
//! through, and the `Reporter` each dialect writes its lines with.

use std::io::Write;
use std::sync::{Arc, Mutex, MutexGuard};
use tama_engine::movegen::legal_moves;
use tama_engine::search::{SearchInfo, SearchOutcome};
use tama_engine::{Move, Position};

struct OutInner {
    writer: Box<dyn Write + Send>,
    searching: bool,
}

/// The output channel: whole lines, flushed at once, from any thread.
#[derive(Clone)]
pub struct Out(Arc<Mutex<OutInner>>);

impl Out {
    pub fn new(writer: Box<dyn Write + Send>) -> Out {
        Out(Arc::new(Mutex::new(OutInner {
            writer,
            searching: false,
        })))
    }

    fn lock(&self) -> MutexGuard<'_, OutInner> {
        // A panic while printing must not silence the engine for good.
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Prints one line (or several, separated by `\n`) and flushes. Write
    /// errors (a closed pipe) are ignored: the engine ends at end of input.
    pub fn line(&self, text: &str) {
        let mut o = self.lock();
        let _ = writeln!(o.writer, "{text}");
        let _ = o.writer.flush();
    }

    pub(crate) fn is_searching(&self) -> bool {
        self.lock().searching
    }

    pub(crate) fn set_searching(&self, on: bool) {
        self.lock().searching = on;
    }

    /// Prints the final answer of a search and marks the engine idle, atomically.
    pub(crate) fn finish(&self, text: &str) {
        let mut o = self.lock();
        let _ = writeln!(o.writer, "{text}");
        let _ = o.writer.flush();
        o.searching = false;
    }
}

/// Everything a session prints that differs between the dialects: search
/// output, errors and notices. The session itself never asks which dialect
/// it speaks.
pub trait Reporter: Send + Sync + 'static {
    /// An `info` line of a running search (`None`: the dialect shows none).
    fn info(&self, root: &Position, info: &SearchInfo) -> Option<String>;
    /// The final answer of a search.
    fn best(&self, root: &Position, outcome: &SearchOutcome) -> String;
    /// An error, on one line.
    fn error(&self, msg: &str) -> String;
    /// A notice every dialect shows (the table was capped, more threads
    /// than CPUs).
    fn note(&self, msg: &str) -> String;
    /// A remark for a dialect that has free text (what was loaded, why the
    /// game was reset); `None` where it would be noise.
    fn remark(&self, msg: &str) -> Option<String>;
}

/// The moves of `pv` that are legal one after the other from `root`, each
/// with the position it is played in.
pub fn checked_line(root: &Position, pv: &[Move]) -> Vec<(Position, Move)> {
    let mut pos = *root;
    let mut out = Vec::new();
    for m in pv {
        if !legal_moves(&pos).contains(m) {
            break;
        }
        out.push((pos, *m));
        pos = pos.play(m);
    }
    out
}
