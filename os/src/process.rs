//! A child process (an engine): started with its input and output piped,
//! its output read line by line on a thread of its own, ended for sure. The
//! match runner's engines and the board's engine sessions both run through
//! it.
//!
//! Nothing the process writes can make the reader panic or wait forever:
//! lines are capped in length (`MAX_LINE`), bytes that are not UTF-8 are
//! replaced, and every wait has a deadline.

use std::io::{self, BufRead, BufReader, ErrorKind, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Longest line kept from a process; the rest of a longer line is dropped.
pub const MAX_LINE: usize = 64 * 1024;

/// What waiting for a line gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wait {
    /// A line (without its end of line).
    Line(String),
    /// None before the deadline.
    Timeout,
    /// The process closed its output (it has exited, as a rule).
    Closed,
    /// The abort flag was raised.
    Aborted,
}

/// A running child process with piped input and output.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Process {
    /// Starts `command` with its input and output piped; the caller chooses
    /// the rest (arguments, directory, environment, stderr, process group).
    pub fn spawn(mut command: Command) -> io::Result<Process> {
        command.stdin(Stdio::piped()).stdout(Stdio::piped());
        let mut child = command.spawn()?;
        let stdin = child.stdin.take();
        let Some(stdout) = child.stdout.take() else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other("no stdout"));
        };
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || pump(stdout, tx));
        Ok(Process {
            child,
            stdin,
            lines,
        })
    }

    /// Writes `line` and an end of line, and flushes. An input already
    /// closed is an error of kind `NotConnected`.
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(io::Error::new(ErrorKind::NotConnected, "input closed"));
        };
        stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush())
    }

    /// The process's input, taken out (for a writer on another thread); the
    /// process no longer writes to it itself.
    pub fn take_input(&mut self) -> Option<ChildStdin> {
        self.stdin.take()
    }

    /// Closes the process's input (its end of input: a protocol engine
    /// quits).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// The output lines as they come; disconnected once the process has
    /// closed its output and every line was received.
    pub fn lines(&self) -> &Receiver<String> {
        &self.lines
    }

    /// Drops every output line received and not read yet.
    pub fn discard_pending(&self) {
        while self.lines.try_recv().is_ok() {}
    }

    /// The next output line, waiting until `deadline` at the most and
    /// looking at `abort` every 50 ms.
    pub fn wait_line(&self, deadline: Instant, abort: &AtomicBool) -> Wait {
        loop {
            if abort.load(Ordering::Relaxed) {
                return Wait::Aborted;
            }
            let now = Instant::now();
            if now >= deadline {
                return Wait::Timeout;
            }
            let slice = (deadline - now).min(Duration::from_millis(50));
            match self.lines.recv_timeout(slice) {
                Ok(l) => return Wait::Line(l),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Wait::Closed,
            }
        }
    }

    /// `, exit status: N` when the process has exited (given a moment to
    /// do so), else empty: for messages about a process that stopped
    /// talking.
    pub fn exit_note(&mut self) -> String {
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return format!(", {status}");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        String::new()
    }

    /// Closes the input and waits up to `grace` for the process to exit;
    /// kills it when it does not. True when it exited on its own.
    pub fn finish(&mut self, grace: Duration) -> bool {
        self.close_input();
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
        false
    }

    /// Ends the process now, and its process group when it leads one (so
    /// that an engine started through a wrapper script goes too; on
    /// Windows, the process alone).
    pub fn kill(&mut self) {
        self.stdin = None;
        #[cfg(unix)]
        if let Ok(pid) = libc::pid_t::try_from(self.child.id()) {
            if pid > 0 {
                // SAFETY: a plain system call on the group this child leads
                // (when it leads none, no group has its id and the call
                // does nothing).
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                }
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

/// Reads `reader` line by line into `tx` until end of file. Lines longer than
/// `MAX_LINE` are cut; invalid UTF-8 is replaced.
fn pump(reader: impl Read, tx: mpsc::Sender<String>) {
    let mut reader = BufReader::new(reader);
    let mut line: Vec<u8> = Vec::new();
    let mut overflow = false;
    loop {
        let (consumed, done) = match reader.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    if !overflow {
                        let room = MAX_LINE.saturating_sub(line.len());
                        line.extend_from_slice(&buf[..i.min(room)]);
                    }
                    (i + 1, true)
                }
                None => {
                    let room = MAX_LINE.saturating_sub(line.len());
                    if buf.len() > room {
                        overflow = true;
                    }
                    if !overflow {
                        line.extend_from_slice(buf);
                    }
                    (buf.len(), false)
                }
            },
        };
        reader.consume(consumed);
        if done {
            let text = String::from_utf8_lossy(&line)
                .trim_end_matches('\r')
                .to_string();
            line.clear();
            overflow = false;
            if tx.send(text).is_err() {
                break;
            }
        }
    }
    if !line.is_empty() {
        let _ = tx.send(String::from_utf8_lossy(&line).to_string());
    }
}
