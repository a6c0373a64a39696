//! The engine relay: every page connection gets its own engine process
//! (`tama uci`), and the server only carries protocol lines between them.
//! Engine -> page: a server-sent-events stream (`GET /engine/events`), one
//! `data:` line per protocol line. Page -> engine: `POST /engine/send` with
//! the session's token and the lines as the body. The relay reads nothing
//! into the lines: the page is a protocol client like any other GUI. The
//! engine processes are `tama_os::process`'s, as the match runner's are.

use super::http::{self, Request};
use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;
use tama_os::process::Process;

/// Engine processes at once: a few tabs are normal, a hundred is a runaway.
pub const MAX_SESSIONS: usize = 8;
/// A comment line this often lets a closed page be noticed even when the
/// engine is silent.
const KEEP_ALIVE: Duration = Duration::from_secs(10);
/// After its input is closed, an engine has this long to quit on its own.
const QUIT_GRACE: Duration = Duration::from_secs(3);

/// The running sessions, by token.
pub struct Relay {
    engine: PathBuf,
    sessions: Mutex<HashMap<String, Arc<Mutex<Option<ChildStdin>>>>>,
    started: AtomicU64,
}

impl Relay {
    pub fn new(engine: PathBuf) -> Relay {
        Relay {
            engine,
            sessions: Mutex::new(HashMap::new()),
            started: AtomicU64::new(0),
        }
    }

    /// Engine processes started so far (for the tests: a refused request
    /// must not have started one).
    pub fn sessions_started(&self) -> u64 {
        self.started.load(Ordering::SeqCst)
    }

    /// Engine sessions running now.
    pub fn sessions_open(&self) -> usize {
        self.sessions().len()
    }

    fn sessions(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Mutex<Option<ChildStdin>>>>> {
        // A panic elsewhere cannot leave the map half-written: every
        // operation on it is a single insert or remove.
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `GET /engine/events`: starts an engine and streams its output until
    /// the engine exits or the page goes away.
    pub fn events(&self, mut stream: TcpStream) {
        if self.sessions().len() >= MAX_SESSIONS {
            http::respond_error(
                &mut stream,
                503,
                &format!("already {MAX_SESSIONS} engine sessions; close a tab"),
            );
            return;
        }
        let mut command = Command::new(&self.engine);
        command.arg("uci").stderr(Stdio::inherit());
        let mut process = match Process::spawn(command) {
            Ok(p) => p,
            Err(e) => {
                let msg = format!("cannot start the engine {}: {e}", self.engine.display());
                eprintln!("tama gui: {msg}");
                http::respond_error(&mut stream, 503, &msg);
                return;
            }
        };
        self.started.fetch_add(1, Ordering::SeqCst);
        let stdin = Arc::new(Mutex::new(process.take_input()));
        let token = new_token();
        self.sessions().insert(token.clone(), Arc::clone(&stdin));

        // The page sends nothing on this connection after its request, so a
        // read that returns means the page has gone: close the engine's input
        // (= quit).
        if let Ok(mut watch) = stream.try_clone() {
            let stdin = Arc::clone(&stdin);
            thread::spawn(move || {
                let mut byte = [0u8; 64];
                while let Ok(n) = watch.read(&mut byte) {
                    if n == 0 {
                        break;
                    }
                }
                close_input(&stdin);
            });
        }

        let streamed = http::start_event_stream(&mut stream).is_ok()
            && write_event(&mut stream, Some("session"), &[token.as_str()]).is_ok()
            && self.pump(&mut stream, process.lines());
        // Gone before the page hears of it: a line sent after `end` is
        // answered "no such session", never lost in silence.
        self.sessions().remove(&token);
        close_input(&stdin);
        if streamed {
            let _ = write_event(&mut stream, Some("end"), &["the engine has exited"]);
        }
        if !process.finish(QUIT_GRACE) {
            eprintln!("tama gui: the engine did not quit; killed it");
        }
        let _ = stream.shutdown(std::net::Shutdown::Both);
    }

    /// Engine lines to the page until the engine exits (true) or the page is
    /// gone (false). Lines that arrive together go out as one event.
    fn pump(&self, stream: &mut TcpStream, rx: &Receiver<String>) -> bool {
        loop {
            let first = match rx.recv_timeout(KEEP_ALIVE) {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => {
                    if stream.write_all(b": keep-alive\n\n").is_err() {
                        return false;
                    }
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => return true,
            };
            let mut batch = vec![first];
            let mut ended = false;
            loop {
                match rx.try_recv() {
                    Ok(l) => batch.push(l),
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Disconnected) => {
                        ended = true;
                        break;
                    }
                }
            }
            let lines: Vec<&str> = batch.iter().map(String::as_str).collect();
            if write_event(stream, None, &lines).is_err() {
                return false;
            }
            if ended {
                return true;
            }
        }
    }

    /// `POST /engine/send?session=TOKEN`: the body's lines to that engine.
    pub fn send(&self, req: &Request, stream: &mut TcpStream) {
        let Some(token) = req.query_value("session") else {
            return http::respond_error(stream, 400, "missing session=TOKEN");
        };
        let Some(stdin) = self.sessions().get(token).cloned() else {
            return http::respond_error(stream, 404, "no such engine session (it has ended)");
        };
        let Ok(text) = std::str::from_utf8(&req.body) else {
            return http::respond_error(stream, 400, "the lines are not UTF-8");
        };
        let mut payload = String::with_capacity(text.len() + 1);
        for line in text.lines() {
            payload.push_str(line);
            payload.push('\n');
        }
        let mut guard = stdin.lock().unwrap_or_else(|e| e.into_inner());
        let written = match guard.as_mut() {
            Some(input) => input
                .write_all(payload.as_bytes())
                .and_then(|_| input.flush())
                .is_ok(),
            None => false,
        };
        drop(guard);
        if written {
            http::respond(stream, 204, "text/plain", b"");
        } else {
            http::respond_error(stream, 410, "the engine has exited");
        }
    }
}

fn close_input(stdin: &Mutex<Option<ChildStdin>>) {
    stdin.lock().unwrap_or_else(|e| e.into_inner()).take();
}

/// One event; each line becomes a `data:` line (an event's lines are joined
/// with `\n` by the browser).
fn write_event(stream: &mut TcpStream, name: Option<&str>, lines: &[&str]) -> std::io::Result<()> {
    let mut text = String::new();
    if let Some(name) = name {
        text.push_str("event: ");
        text.push_str(name);
        text.push('\n');
    }
    for line in lines {
        text.push_str("data: ");
        // A lone \r would end an SSE line early.
        text.push_str(&line.replace('\r', ""));
        text.push('\n');
    }
    text.push('\n');
    stream.write_all(text.as_bytes())?;
    stream.flush()
}

/// A session token: 128 bits from the standard library's randomly keyed
/// hasher. Tokens keep the page's sessions apart; the Origin guard, not the
/// token, is what keeps other sites out.
fn new_token() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut halves = [0u64; 2];
    for (i, h) in halves.iter_mut().enumerate() {
        let mut hasher = RandomState::new().build_hasher();
        hasher.write_u64(n);
        hasher.write_usize(i);
        hasher.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        *h = hasher.finish();
    }
    format!("{:016x}{:016x}", halves[0], halves[1])
}
