//! A `tama-lab` process to talk to in the lab's protocol tests (as
//! tests/protocol_support/mod.rs is for `tama`): lines in, lines out, and
//! every read with a timeout, so a broken engine fails a test instead of
//! hanging it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub const TIMEOUT: Duration = Duration::from_secs(30);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    /// When the reader thread received the last line returned.
    pub last_at: Instant,
    /// Everything sent (`> `) and received (`< `), for failure messages.
    pub transcript: Vec<String>,
}

impl Engine {
    pub fn start() -> Engine {
        Engine::start_with(&[])
    }

    pub fn start_with(args: &[&str]) -> Engine {
        Engine::start_env(args, &[])
    }

    /// Starts `tama ARGS` in strict mode (`TAMA_STRICT=1`: a failing
    /// search ends the process instead of being answered with the first
    /// legal move, so no test can pass on a broken search), with `env` on
    /// top (which may turn strict mode off again).
    pub fn start_env(args: &[&str], env: &[(&str, &str)]) -> Engine {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_tama-lab"));
        cmd.args(args)
            .env("TAMA_STRICT", "1")
            .envs(env.iter().copied());
        Engine::spawn(cmd)
    }

    /// Spawns `cmd` (which runs `tama`), its standard input and output
    /// piped to the test.
    fn spawn(mut cmd: Command) -> Engine {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start tama");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let s = String::from_utf8_lossy(&buf)
                            .trim_end_matches(['\n', '\r'])
                            .to_string();
                        if tx.send((Instant::now(), s)).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            last_at: Instant::now(),
            transcript: Vec::new(),
        }
    }

    pub fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.send_raw(&bytes);
    }

    /// Sends bytes as they are (the caller adds line ends).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to tama");
        stdin.flush().expect("flush to tama");
    }

    /// The next line, or `None` after `timeout`.
    pub fn recv_timeout(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok((at, l)) => {
                self.last_at = at;
                self.transcript.push(format!("< {l}"));
                Some(l)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Lines up to and including the first one for which `done` holds.
    pub fn read_until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + TIMEOUT;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.recv_timeout(left) {
                Some(l) => {
                    let stop = done(&l);
                    got.push(l);
                    if stop {
                        return got;
                    }
                }
                None => panic!(
                    "timed out waiting for {what}; transcript:\n{}",
                    self.transcript_tail()
                ),
            }
        }
    }

    /// Lines up to and including the first that starts with `prefix`.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        let p = prefix.to_string();
        self.read_until(prefix, move |l| l.starts_with(&p))
    }

    /// Sends `isready` and returns what came before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut got = self.read_until("readyok", |l| l == "readyok");
        got.pop();
        got
    }

    /// Asserts that nothing arrives within `wait`.
    pub fn expect_silence(&mut self, wait: Duration) {
        if let Some(l) = self.recv_timeout(wait) {
            panic!(
                "unexpected output {l:?}; transcript:\n{}",
                self.transcript_tail()
            );
        }
    }

    pub fn transcript_tail(&self) -> String {
        let n = self.transcript.len();
        self.transcript[n.saturating_sub(60)..].join("\n")
    }

    /// Closes stdin (end of input) and waits for the exit; returns the exit
    /// status and the lines printed after the close.
    pub fn close(mut self) -> (ExitStatus, Vec<String>) {
        drop(self.stdin.take());
        let deadline = Instant::now() + TIMEOUT;
        let mut rest = Vec::new();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                while let Some(l) = self.recv_timeout(Duration::from_millis(200)) {
                    rest.push(l);
                }
                return (status, rest);
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!(
                    "tama did not exit at end of input; transcript:\n{}",
                    self.transcript_tail()
                );
            }
            while let Some(l) = self.recv_timeout(Duration::from_millis(5)) {
                rest.push(l);
            }
        }
    }

    pub fn is_running(&mut self) -> bool {
        self.child.try_wait().expect("wait").is_none()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if self.is_running() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The `depth` and `nodes` of the last `info` line with a depth, in either
/// dialect (UCI `info depth 5 ... nodes 123 ...`, Hub `info depth=5 ...
/// nodes=123 ...`): what the last completed iteration reported.
pub fn last_depth_and_nodes(lines: &[String]) -> (u32, u64) {
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap_or_else(|| panic!("no info line: {lines:?}"));
    let words: Vec<&str> = info.split([' ', '=']).collect();
    let field = |name: &str| -> u64 {
        words
            .iter()
            .position(|w| *w == name)
            .and_then(|i| words.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {name} in {info}"))
    };
    (field("depth") as u32, field("nodes"))
}

/// The move of a `bestmove <m> [ponder <p>]` line.
pub fn bestmove(line: &str) -> &str {
    line.split_whitespace().nth(1).expect("bestmove has a move")
}
