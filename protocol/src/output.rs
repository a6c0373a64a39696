//! Where a session's output goes: the output channel every thread prints
//! through (and the protocol log beside it), and the `Reporter` each
//! dialect writes its lines with.

use crate::debug_log::{DebugLog, Direction};
use std::io::Write;
use std::sync::{Arc, Mutex, MutexGuard};
use tama_engine::movegen::legal_moves;
use tama_engine::search::{SearchInfo, SearchOutcome};
use tama_engine::{Move, Position};

struct OutInner {
    writer: Box<dyn Write + Send>,
    searching: bool,
    /// The protocol log (`Debug Log File`), with the dialect that says so
    /// when writing to it fails. Under the same lock as `writer`, so the
    /// log has the lines in the order they were printed.
    log: Option<(DebugLog, Arc<dyn Reporter>)>,
}

impl OutInner {
    fn print(&mut self, text: &str) {
        let _ = writeln!(self.writer, "{text}");
        let _ = self.writer.flush();
        self.log(Direction::Sent, text);
    }

    /// Logs `text`. A log that cannot be written (a full disk) is closed,
    /// and the engine says so once and goes on without it.
    fn log(&mut self, dir: Direction, text: &str) {
        let Some((log, _)) = &mut self.log else {
            return;
        };
        if let Err(e) = log.write(dir, text) {
            let (log, reporter) = self.log.take().expect("checked above");
            let line = reporter.error(&format!(
                "Debug Log File {}: cannot write to it: {e}; logging is off",
                log.path()
            ));
            let _ = writeln!(self.writer, "{line}");
            let _ = self.writer.flush();
        }
    }
}

/// The output channel: whole lines, flushed at once, from any thread.
#[derive(Clone)]
pub struct Out(Arc<Mutex<OutInner>>);

impl Out {
    pub fn new(writer: Box<dyn Write + Send>) -> Out {
        Out(Arc::new(Mutex::new(OutInner {
            writer,
            searching: false,
            log: None,
        })))
    }

    fn lock(&self) -> MutexGuard<'_, OutInner> {
        // A panic while printing must not silence the engine for good.
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Prints one line (or several, separated by `\n`) and flushes. Write
    /// errors (a closed pipe) are ignored: the engine ends at end of input.
    pub fn line(&self, text: &str) {
        self.lock().print(text);
    }

    /// Logs a line the engine received (when a protocol log is open).
    pub fn received(&self, text: &str) {
        self.lock().log(Direction::Received, text);
    }

    /// Logs to `log` from now on (`None`: no more), closing the log
    /// before; `reporter` says so should writing to it fail.
    pub(crate) fn set_log(&self, log: Option<DebugLog>, reporter: &Arc<dyn Reporter>) {
        self.lock().log = log.map(|l| (l, Arc::clone(reporter)));
    }

    /// The file of the open protocol log, if one is.
    pub(crate) fn log_path(&self) -> Option<String> {
        self.lock().log.as_ref().map(|(l, _)| l.path().to_string())
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
        o.print(text);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;
    use crate::test_sink::SharedSink;
    use crate::uci::UciReporter;
    use std::io;

    /// A disk that fills up after `room` bytes.
    struct Filling {
        written: SharedSink,
        room: usize,
    }

    impl Write for Filling {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            if b.len() > self.room {
                return Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"));
            }
            self.room -= b.len();
            self.written.write(b)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_log_that_cannot_be_written_is_reported_once_and_closed() {
        let stdout = SharedSink::default();
        let out = Out::new(Box::new(stdout.clone()));
        let logged = SharedSink::default();
        let disk = Filling {
            written: logged.clone(),
            room: 100,
        };
        let reporter: Arc<dyn Reporter> = Arc::new(UciReporter);
        let mut session = Session::new(Arc::clone(&reporter), out.clone());
        // The option set as a GUI sets it, then its file swapped for the
        // disk that fills up.
        let file = std::env::temp_dir().join(format!("tama-full-log-{}", std::process::id()));
        let path = file.to_str().expect("a UTF-8 temporary path");
        session
            .set_option("Debug Log File", Some(path))
            .expect("a log in the temporary directory");
        let _ = std::fs::remove_file(&file);
        out.set_log(Some(DebugLog::to(Box::new(disk), "full.log")), &reporter);
        assert_eq!(session.settings().debug_log_file, path);
        session.received("isready");
        out.line("readyok");
        assert_eq!(out.log_path().as_deref(), Some("full.log"));
        out.line("info depth 1 seldepth 1 multipv 1 score cp 6 nodes 32");
        assert_eq!(out.log_path(), None);
        session.received("go depth 2");
        // The option shows the log is off.
        assert_eq!(session.settings().debug_log_file, "");
        out.finish("bestmove d3-d4");
        assert_eq!(
            stdout.text(),
            "readyok\n\
             info depth 1 seldepth 1 multipv 1 score cp 6 nodes 32\n\
             info string error: Debug Log File full.log: cannot write to it: disk full; logging is off\n\
             bestmove d3-d4\n"
        );
        let log = logged.text();
        let lines: Vec<&str> = log.lines().map(|l| &l[25..]).collect();
        assert_eq!(lines, [">> isready", "<< readyok"], "{log}");
    }
}
