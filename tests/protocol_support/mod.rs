//! A `tama` process to talk to in protocol tests (`tama-lab` in the lab's,
//! lab/tests/protocol.rs, which includes this file): lines in, lines out, and
//! every read with a timeout, so a broken engine fails a test instead of
//! hanging it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub const TIMEOUT: Duration = Duration::from_secs(30);

/// The engine under test: the binary of the package whose tests include
/// this file.
const ENGINE: &str = match (
    option_env!("CARGO_BIN_EXE_tama"),
    option_env!("CARGO_BIN_EXE_tama-lab"),
) {
    (Some(path), _) | (None, Some(path)) => path,
    (None, None) => panic!("no engine binary among this package's"),
};

/// The test fixture that runs the protocol loop with a broken search
/// (`start_injected`); the lab's tests have none.
const FAKE_ENGINE: Option<&str> = option_env!("CARGO_BIN_EXE_tama-fake-engine");

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
        let mut cmd = Command::new(ENGINE);
        cmd.args(args)
            .env("TAMA_STRICT", "1")
            .envs(env.iter().copied());
        Engine::spawn(cmd)
    }

    /// Starts the product's protocol loop with every search broken by
    /// `fault` (`panic` or `illegal`), in the test fixture
    /// `tama-fake-engine inject FAULT ARGS` (`tama` itself has no such
    /// switch), strict as `start_env` is, with `env` on top.
    pub fn start_injected(fault: &str, args: &[&str], env: &[(&str, &str)]) -> Engine {
        let Some(fixture) = FAKE_ENGINE else {
            panic!("tama-fake-engine: only the tama package's tests build it");
        };
        let mut cmd = Command::new(fixture);
        cmd.arg("inject")
            .arg(fault)
            .args(args)
            .env("TAMA_STRICT", "1")
            .envs(env.iter().copied());
        Engine::spawn(cmd)
    }

    /// Starts `tama` in strict mode with its address space capped to `kb`
    /// kilobytes (`ulimit -v`, through `sh`).
    #[cfg(unix)]
    pub fn start_under_ulimit(kb: u64) -> Engine {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(format!("ulimit -v {kb} && exec '{}'", ENGINE))
            .env("TAMA_STRICT", "1");
        Engine::spawn(cmd)
    }

    /// Spawns `cmd`, a command that runs `tama` (a wrapper that sets its
    /// limits first, say), its standard input and output piped to the test.
    pub fn spawn_command(cmd: Command) -> Engine {
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

    /// The process's resident memory in kilobytes (`VmRSS` of
    /// /proc/PID/status).
    #[cfg(target_os = "linux")]
    pub fn resident_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("read /proc/PID/status");
        let line = status
            .lines()
            .find(|l| l.starts_with("VmRSS:"))
            .expect("a VmRSS line");
        line["VmRSS:".len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .expect("VmRSS in kB")
    }

    /// Sends `quit` and waits for the exit: how long it took.
    pub fn quit(mut self) -> (Duration, ExitStatus) {
        let t = Instant::now();
        self.send("quit");
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return (t.elapsed(), status);
            }
            if t.elapsed() > TIMEOUT {
                panic!(
                    "tama did not exit after quit; transcript:\n{}",
                    self.transcript_tail()
                );
            }
            std::thread::sleep(Duration::from_millis(2));
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
/// Starts `tama` and completes the UCI handshake (`uci` ... `uciok`).
pub fn uci() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e
}

/// The error lines among `lines`, of either dialect (UCI `info string
/// error: ...`, Hub `error message="..."`).
pub fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error: ") || l.starts_with("error message=\""))
        .collect()
}

/// A fresh directory for one test's files: `prefix-name-PID` under the
/// system's temporary directory.
pub fn scratch_dir(prefix: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("{prefix}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `lines` as the protocol log shows lines the engine sent (`<<`).
pub fn sent(lines: &[String]) -> Vec<(&'static str, String)> {
    lines.iter().map(|l| ("<<", l.clone())).collect()
}

/// `line` as the protocol log shows a line the engine received (`>>`).
pub fn got(line: &str) -> (&'static str, String) {
    (">>", line.to_string())
}

/// The deepest `info depth` (UCI) or `info depth=` (Hub) of a search's
/// lines.
pub fn deepest(lines: &[String]) -> u32 {
    lines
        .iter()
        .filter_map(|l| {
            l.strip_prefix("info depth ")
                .or_else(|| l.strip_prefix("info depth="))
        })
        .filter_map(|l| l.split(' ').next()?.parse().ok())
        .max()
        .expect("an info line")
}

pub fn bestmove(line: &str) -> &str {
    line.split_whitespace().nth(1).expect("bestmove has a move")
}

/// Random choices for the tests, by index: the engine's one generator
/// (`tama_engine::rng`), seeded for reproducible runs.
pub struct Rng(tama_engine::rng::Rng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(tama_engine::rng::Rng::new(seed))
    }
    /// An index below `n` (0 when `n` is 0: the callers index non-empty
    /// lists or pick a count).
    pub fn below(&mut self, n: usize) -> usize {
        self.0.below(n.max(1) as u64) as usize
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.0.below(100) < percent
    }
}

/// One line of a protocol log (`Debug Log File`, docs/protocol.md).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    /// The time, in milliseconds since 1970-01-01 UTC.
    pub ms: u64,
    /// `>>` received, `<<` sent, `--` the log's own.
    pub dir: String,
    pub text: String,
}

/// The lines of the protocol log at `path`; each must be
/// `YYYY-MM-DDTHH:MM:SS.mmmZ <dir> <text>`.
pub fn read_debug_log(path: &std::path::Path) -> Vec<LogLine> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read the log {}: {e}", path.display()));
    text.lines()
        .map(|l| {
            let bad = || panic!("not a log line: {l:?}");
            if l.len() < 27
                || &l.as_bytes()[23..25] != b"Z "
                || l.as_bytes().get(27).is_some_and(|b| *b != b' ')
            {
                bad();
            }
            let num = |from: usize, to: usize, max: u64| -> u64 {
                let digits = &l.as_bytes()[from..to];
                if !digits.iter().all(u8::is_ascii_digit) {
                    bad();
                }
                let n = digits.iter().fold(0, |n, d| n * 10 + u64::from(d - b'0'));
                if n > max {
                    bad();
                }
                n
            };
            for (at, sep) in [
                (4, b'-'),
                (7, b'-'),
                (10, b'T'),
                (13, b':'),
                (16, b':'),
                (19, b'.'),
            ] {
                if l.as_bytes()[at] != sep {
                    bad();
                }
            }
            let (y, mo, d) = (num(0, 4, 9999), num(5, 7, 12), num(8, 10, 31));
            let (h, mi, s, ms) = (
                num(11, 13, 23),
                num(14, 16, 59),
                num(17, 19, 59),
                num(20, 23, 999),
            );
            if mo == 0 || d == 0 {
                bad();
            }
            let days = days_from_civil(y as i64, mo as i64, d as i64) as u64;
            LogLine {
                ms: ((days * 24 + h) * 60 + mi) * 60_000 + s * 1000 + ms,
                dir: l.get(25..27).unwrap_or_else(bad).to_string(),
                text: l.get(28..).unwrap_or("").to_string(),
            }
        })
        .collect()
}

/// Days since 1970-01-01 of a date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * ((m + 9) % 12) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The wall clock, in milliseconds since 1970-01-01 UTC.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("a clock after 1970")
        .as_millis() as u64
}

/// Checks a session's part of a protocol log: the opening line, then
/// exactly `expected` (direction and text), the times in order and
/// between `from` and `to` (the wall clock around the session, with a
/// second's slack for the clocks' rounding).
pub fn assert_logged(log: &[LogLine], expected: &[(&str, String)], from: u64, to: u64) {
    let shown = || {
        log.iter()
            .map(|l| format!("{} {} {}", l.ms, l.dir, l.text))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(
        log[0].dir == "--" && log[0].text.starts_with("log opened by Tama "),
        "no opening line:\n{}",
        shown()
    );
    let got: Vec<(&str, &str)> = log[1..]
        .iter()
        .map(|l| (l.dir.as_str(), l.text.as_str()))
        .collect();
    let want: Vec<(&str, &str)> = expected.iter().map(|(d, t)| (*d, t.as_str())).collect();
    assert_eq!(got, want, "the log:\n{}", shown());
    for pair in log.windows(2) {
        assert!(pair[0].ms <= pair[1].ms, "times out of order:\n{}", shown());
    }
    assert!(
        log[0].ms + 1000 >= from && log[log.len() - 1].ms <= to + 1000,
        "times outside {from}..{to}:\n{}",
        shown()
    );
}
