//! Tama's line protocol, engine side: the UCI and Hub dialects. (The client
//! side, which starts and talks to engine processes, is the match runner's:
//! `tama_match::client`.)
//!
//! `run` is the engine's main loop: the first non-blank input line chooses
//! the dialect (`hub` for Hub, anything else UCI), then every line is
//! handled by that dialect until `quit` or the end of input. At the end of
//! input a running search is stopped and its answer printed before `run`
//! returns. `run` returns the exit status; the library never ends the
//! process itself.

mod debug_log;
pub mod hub;
pub mod memory;
pub mod options;
mod output;
mod search_job;
pub mod session;
#[cfg(test)]
mod test_sink;
pub mod text;
pub mod uci;

use session::{Dialect, FaultPolicy, Out, Reporter, Session, STRICT_FAULT_STATUS};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::Arc;
use std::time::Instant;
use tama_engine::notation;
use tama_engine::search::Tuning;
use text::{read_line, Line, MAX_LINE_BYTES};

/// What the loop does after a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

static QUIET_PANICS: AtomicBool = AtomicBool::new(false);

/// What a session of `dialect` prints through.
fn reporter(dialect: Dialect) -> Arc<dyn Reporter> {
    match dialect {
        Dialect::Uci => Arc::new(uci::UciReporter),
        Dialect::Hub => Arc::new(hub::HubReporter),
    }
}

/// What the main loop waits for: the next input line, the end of input,
/// or a strict session's failed search (`Session::fatal_fault`).
enum Event {
    /// A line, and when it was read (a search's clock starts then).
    Line(Line, Instant),
    End,
    Fatal,
}

/// How many lines the reader may read ahead of the loop.
const READ_AHEAD: usize = 64;

/// Reads `input` line by line into `events` until its end (or until the
/// loop has gone).
fn feed<R: BufRead>(mut input: R, events: &SyncSender<Event>) {
    loop {
        let event = match read_line(&mut input, MAX_LINE_BYTES) {
            Ok(Some(line)) => Event::Line(line, Instant::now()),
            Ok(None) | Err(_) => Event::End,
        };
        let end = matches!(event, Event::End);
        if events.send(event).is_err() || end {
            return;
        }
    }
}

/// Runs the protocol loop on `input` until `quit` or end of input.
/// `dialect`: `None` lets the first line choose. Returns the exit status:
/// 0, or `STRICT_FAULT_STATUS` when a search failed in strict mode (then at
/// once, while input may still be open). `tuning` overrides the search's
/// selective-search switches (for measured matches between settings; the
/// defaults are what users get).
pub fn run<R: BufRead + Send + 'static>(
    input: R,
    output: Box<dyn Write + Send>,
    dialect: Option<Dialect>,
    tuning: Tuning,
) -> i32 {
    run_on_reader(
        move || input,
        output,
        dialect,
        tuning,
        FaultPolicy::from_env(),
    )
}

/// `run` on the input `open` gives, read on a thread of its own so that
/// the loop can also wait for a failed search (at `quit` that thread may be
/// left blocked on input).
fn run_on_reader<R: BufRead>(
    open: impl FnOnce() -> R + Send + 'static,
    mut output: Box<dyn Write + Send>,
    dialect: Option<Dialect>,
    tuning: Tuning,
    policy: FaultPolicy,
) -> i32 {
    let (events, received) = sync_channel(READ_AHEAD);
    let lines = events.clone();
    let reader = std::thread::Builder::new()
        .name("input".into())
        .spawn(move || feed(open(), &lines));
    if let Err(e) = reader {
        let _ = writeln!(output, "error: cannot start the input thread: {e}");
        return 1;
    }
    run_events(&received, &events, output, dialect, tuning, policy)
}

/// The loop of `run`, on the events of its input.
fn run_events(
    received: &Receiver<Event>,
    events: &SyncSender<Event>,
    output: Box<dyn Write + Send>,
    dialect: Option<Dialect>,
    tuning: Tuning,
    policy: FaultPolicy,
) -> i32 {
    let out = Out::new(output);
    let new_session = |d| {
        let wake = events.clone();
        let s = Session::new(reporter(d), out.clone())
            .with_tuning(tuning.clone())
            .with_fault_policy(policy.clone())
            // A full queue already wakes the loop.
            .with_fatal_wake(move || {
                let _ = wake.try_send(Event::Fatal);
            });
        (d, s)
    };
    let mut session: Option<(Dialect, Session)> = dialect.map(new_session);
    let mut hub_state = hub::HubState::default();
    loop {
        let event = received.recv().unwrap_or(Event::End);
        if session.as_ref().is_some_and(|(_, s)| s.fatal_fault()) {
            return STRICT_FAULT_STATUS;
        }
        let (line, read_at) = match event {
            Event::Line(Line::Text(t), at) => (t, at),
            Event::Line(Line::TooLong(n), _) => {
                let (_, s) = session.get_or_insert_with(|| new_session(Dialect::Uci));
                s.error(&format!(
                    "line of {n} bytes is too long (at most {MAX_LINE_BYTES}); ignored"
                ));
                continue;
            }
            Event::Fatal => continue,
            Event::End => break,
        };
        if session.is_none() {
            if line.trim().is_empty() {
                continue;
            }
            let d = if line.trim() == "hub" {
                Dialect::Hub
            } else {
                Dialect::Uci
            };
            session = Some(new_session(d));
        }
        let (dialect, s) = session.as_mut().expect("chosen above");
        s.line_read_at(read_at);
        s.received(&line);
        if *dialect == Dialect::Hub {
            QUIET_PANICS.store(true, Ordering::Relaxed);
        }
        let flow = match dialect {
            Dialect::Uci => uci::handle(s, &line),
            Dialect::Hub => hub::handle(s, &mut hub_state, &line),
        };
        if flow == Flow::Quit {
            break;
        }
    }
    match session.as_mut() {
        Some((_, s)) => {
            s.finish();
            if s.fatal_fault() {
                STRICT_FAULT_STATUS
            } else {
                0
            }
        }
        None => 0,
    }
}

/// The `tama` program with no arguments: the protocol on stdin/stdout.
/// Returns the exit status for the program to end with (`run`).
pub fn run_stdio(dialect: Option<Dialect>, tuning: Tuning) -> i32 {
    run_stdio_with(dialect, tuning, FaultPolicy::from_env())
}

/// `run_stdio` with the fault policy given rather than read from the
/// environment: how the test fixture `tama-fake-engine` breaks the
/// product's own protocol loop on purpose (`FaultPolicy::inject`), which
/// no program that ships can ask for.
pub fn run_stdio_with(dialect: Option<Dialect>, tuning: Tuning, policy: FaultPolicy) -> i32 {
    // Hub GUIs (pydraughts) read stderr as protocol output: keep panics
    // quiet there. The search thread's panics are caught and answered anyway.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !QUIET_PANICS.load(Ordering::Relaxed) {
            default_hook(info);
        }
    }));
    run_on_reader(
        || std::io::stdin().lock(),
        Box::new(std::io::stdout()),
        dialect,
        tuning,
        policy,
    )
}

/// Runs every parser on one input line, for the fuzz target and the
/// randomized test: none may panic, whatever the input.
pub fn exercise_parsers(line: &str) {
    let _ = uci::parse(line);
    if let Ok(hub::Command::Pos { pos, moves }) = hub::parse(line) {
        for rules in [tama_engine::Rules::TURKISH, tama_engine::Rules::ARMENIAN] {
            let _ = hub::build_game(rules, pos.as_deref(), &moves);
        }
    }
    if let Ok(uci::Command::Position { start, moves }) = uci::parse(line) {
        let _ = uci::build_game(tama_engine::Rules::ARMENIAN, &start, &moves);
    }
    let start = tama_engine::Position::startpos(tama_engine::Rules::TURKISH);
    for word in line.split_whitespace().take(8) {
        let _ = notation::hub::parse_move(&start, word);
        let _ = start.parse_move(word);
        let _ = notation::hub::decode_position(word, tama_engine::Rules::ARMENIAN);
    }
    let mut settings = options::Settings::default();
    if let Some((name, value)) = line.split_once(' ') {
        let _ = settings.set(name, Some(value));
    }
}

#[cfg(test)]
mod randomized_tests;
