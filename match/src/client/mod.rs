//! The client side of the protocol: starting an engine process and talking
//! to it in the UCI or the Hub dialect, for the match runner.
//!
//! - `tama_os::process`: the child process, its output lines and its end;
//! - `uci`, `hub`: what the client writes and reads in each dialect;
//! - `command`: what to start, in which dialect, with which timeouts;
//! - `go`: one search asked and what comes back; `fault`: what went wrong;
//! - here: the conversation (handshake, new game, one move).
//!
//! Nothing an engine writes can make the client panic or wait forever (see
//! `process`), and every failure is a `Fault` that says what went wrong and
//! whose fault it was.

mod command;
mod fault;
mod go;
pub mod hub;
pub mod uci;

pub use command::{EngineCommand, Proto, Timeouts};
pub use fault::Fault;
pub use go::{EngineScore, GoLimits, Reply};
use std::io::ErrorKind;
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tama_engine::notation::shorten;
use tama_engine::{Color, Move, Position, Rules};
use tama_os::process::{Process, Wait};

/// A running engine, spoken to in its dialect.
pub struct Engine {
    name: String,
    proto: Proto,
    process: Process,
    timeouts: Timeouts,
    /// UCI options the engine announced (lower case).
    announced: Vec<String>,
}

impl Engine {
    /// Starts the process and completes the handshake; sends the rule options
    /// (when the engine announces them) and the user's options.
    pub fn start(
        command: &EngineCommand,
        rules: Rules,
        timeouts: Timeouts,
        abort: &AtomicBool,
    ) -> Result<Engine, Fault> {
        let mut cmd = Command::new(&command.cmd);
        cmd.args(&command.args)
            .stderr(Stdio::null())
            // The referee wants a failing search to be a failure: tama then
            // exits (a crash, scored as such) instead of playing the first
            // legal move. Other engines ignore the variable.
            .env("TAMA_STRICT", "1");
        if let Some(dir) = &command.dir {
            cmd.current_dir(dir);
        }
        // Its own process group: a Ctrl-C typed at the terminal reaches the
        // runner (which then ends the match cleanly), not every engine.
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let process = Process::spawn(cmd)
            .map_err(|e| Fault::StartFailure(format!("cannot run {:?}: {e}", command.cmd)))?;
        let mut engine = Engine {
            name: command.name.clone(),
            proto: command.proto,
            process,
            timeouts,
            announced: Vec::new(),
        };
        let started = engine.handshake(command, rules, abort);
        match started {
            Ok(()) => Ok(engine),
            Err(f) => {
                let f = match f {
                    Fault::StartFailure(_) => f,
                    other => Fault::StartFailure(other.reason()),
                };
                engine.process.kill();
                Err(f)
            }
        }
    }

    /// The name the match gives the engine.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn handshake(
        &mut self,
        command: &EngineCommand,
        rules: Rules,
        abort: &AtomicBool,
    ) -> Result<(), Fault> {
        match self.proto {
            Proto::Uci => uci::handshake(self, command, rules, abort),
            Proto::Hub => hub::handshake(self, command, rules, abort),
        }
    }

    /// Waits for the line `expected` within the handshake timeout, giving
    /// every other line to `other`.
    fn await_line(
        &mut self,
        expected: &str,
        abort: &AtomicBool,
        mut other: impl FnMut(&mut Self, &str),
    ) -> Result<(), Fault> {
        let deadline = Instant::now() + self.timeouts.handshake;
        loop {
            match self.wait_line(deadline, abort) {
                Wait::Line(l) if l.trim() == expected => return Ok(()),
                Wait::Line(l) => other(self, &l),
                w => return Err(self.wait_fault(w, expected)),
            }
        }
    }

    /// Like `await_line`, but an error the engine reports on the way (UCI
    /// `info string error: ...`, Hub `error`) is a start failure: it is
    /// the engine's answer to an option it was given.
    fn await_line_checked(&mut self, expected: &str, abort: &AtomicBool) -> Result<(), Fault> {
        let mut errors = Vec::new();
        let proto = self.proto;
        self.await_line(expected, abort, |_, l| {
            if let Some(e) = parse_error(proto, l) {
                errors.push(e);
            }
        })?;
        if errors.is_empty() {
            Ok(())
        } else {
            Err(Fault::StartFailure(format!(
                "it reported: {}",
                errors.join("; ")
            )))
        }
    }

    /// Every option the user sets must be one the engine announced (any
    /// case, as both dialects compare names).
    fn check_announced(&self, command: &EngineCommand) -> Result<(), Fault> {
        let unknown: Vec<&str> = command
            .options
            .iter()
            .map(|(n, _)| n.as_str())
            .filter(|n| !self.announced.contains(&n.to_ascii_lowercase()))
            .collect();
        if unknown.is_empty() {
            return Ok(());
        }
        Err(Fault::StartFailure(format!(
            "it has no option {} (it announces: {})",
            unknown.join(", "),
            if self.announced.is_empty() {
                "none".to_string()
            } else {
                self.announced.join(", ")
            }
        )))
    }

    /// UCI `isready` / `readyok`.
    fn sync(&mut self, abort: &AtomicBool) -> Result<(), Fault> {
        self.send("isready")?;
        self.await_line("readyok", abort, |_, _| {})
    }

    /// Tells the engine a new game starts.
    pub fn new_game(&mut self, abort: &AtomicBool) -> Result<(), Fault> {
        match self.proto {
            Proto::Uci => {
                self.send("ucinewgame")?;
                self.sync(abort)
            }
            Proto::Hub => self.send("new-game"),
        }
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        match self.process.send(line) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == ErrorKind::NotConnected => {
                Err(Fault::Crash("input closed".into()))
            }
            Err(e) => Err(Fault::Crash(format!(
                "cannot write to it ({e}){}",
                self.process.exit_note()
            ))),
        }
    }

    fn wait_line(&mut self, deadline: Instant, abort: &AtomicBool) -> Wait {
        self.process.wait_line(deadline, abort)
    }

    fn wait_fault(&mut self, w: Wait, expected: &str) -> Fault {
        match w {
            Wait::Closed => Fault::Crash(format!(
                "output closed while waiting for {expected}{}",
                self.process.exit_note()
            )),
            Wait::Timeout => Fault::Hang(format!("no {expected}")),
            Wait::Aborted => Fault::Hang("aborted".into()),
            Wait::Line(l) => Fault::Garbage(shorten(&l)),
        }
    }

    /// Asks for a move in the position reached from `start` by `moves`.
    /// `deadline` is how long the engine has (its remaining time plus the
    /// margin); after it `stop` is sent, and an answer that does not come
    /// within the stop grace makes the engine a hanging one. The move is
    /// checked against the rules: a move that is not legal is a fault.
    pub fn go(
        &mut self,
        start: &Position,
        moves: &[Move],
        limits: &GoLimits,
        deadline: Duration,
        abort: &AtomicBool,
    ) -> Result<Reply, Fault> {
        // Forget anything left over from the previous search.
        self.process.discard_pending();
        let mut current = *start;
        for m in moves {
            current = current.play(m);
        }
        self.send_go(start, moves, current.side_to_move(), limits)?;
        self.await_move(&current, deadline, abort)
    }

    /// The position (the start and the moves since) and the search limits,
    /// in the engine's dialect.
    fn send_go(
        &mut self,
        start: &Position,
        moves: &[Move],
        side: Color,
        limits: &GoLimits,
    ) -> Result<(), Fault> {
        match self.proto {
            Proto::Uci => {
                self.send(&uci::position_line(start, moves))?;
                self.send(&uci::go_line(limits))
            }
            Proto::Hub => {
                self.send(&hub::pos_line(start, moves))?;
                if let Some(level) = hub::level_line(limits, side) {
                    self.send(&level)?;
                }
                self.send(hub::GO)
            }
        }
    }

    /// Reads the search's output until its move (legal in `current`),
    /// noting the last score; sends `stop` at `deadline`, and gives up
    /// after the stop grace.
    fn await_move(
        &mut self,
        current: &Position,
        deadline: Duration,
        abort: &AtomicBool,
    ) -> Result<Reply, Fault> {
        let sent = Instant::now();
        let mut score = None;
        let mut stop_deadline = sent + deadline;
        let mut after_stop = false;
        loop {
            match self.wait_line(stop_deadline, abort) {
                Wait::Line(l) => {
                    // An engine that reports an error will not move: no
                    // point waiting for the hang timeout.
                    if let Some(e) = parse_error(self.proto, &l) {
                        return Err(Fault::Refused(shorten(&e)));
                    }
                    if let Some(s) = parse_score(self.proto, &l) {
                        score = Some(s);
                    }
                    if let Some(text) = parse_bestmove(self.proto, &l) {
                        let elapsed = sent.elapsed();
                        let mv = self.decode_move(current, &text)?;
                        return Ok(Reply {
                            mv,
                            text,
                            elapsed,
                            score,
                            after_stop,
                        });
                    }
                }
                Wait::Timeout if !after_stop => {
                    after_stop = true;
                    self.send("stop")?;
                    stop_deadline = Instant::now() + self.timeouts.stop_grace;
                }
                Wait::Timeout => {
                    return Err(Fault::Hang(format!(
                        "no move after {:.1} s, even after stop",
                        sent.elapsed().as_secs_f64()
                    )))
                }
                Wait::Closed => {
                    return Err(Fault::Crash(format!(
                        "exited during its search{}",
                        self.process.exit_note()
                    )))
                }
                Wait::Aborted => return Err(Fault::Hang("aborted".into())),
            }
        }
    }

    fn decode_move(&self, pos: &Position, text: &str) -> Result<Move, Fault> {
        if text.is_empty() || text == "(none)" || text == "0000" {
            return Err(Fault::Illegal(format!(
                "claims no move ({:?}) where legal moves exist",
                shorten(text)
            )));
        }
        match self.proto {
            Proto::Uci => uci::parse_move(pos, text),
            Proto::Hub => hub::parse_move(pos, text),
        }
    }

    /// Says goodbye, then makes sure the process is gone.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        self.process.finish(Duration::from_millis(500));
    }
}

/// The score of an `info` line, if it has one.
pub fn parse_score(proto: Proto, line: &str) -> Option<EngineScore> {
    match proto {
        Proto::Uci => uci::parse_score(line),
        Proto::Hub => hub::parse_score(line),
    }
}

/// The message of an error line (UCI `info string error: MSG`, Hub
/// `error [message=MSG]`), or None if the line is not one.
pub fn parse_error(proto: Proto, line: &str) -> Option<String> {
    match proto {
        Proto::Uci => uci::parse_error(line),
        Proto::Hub => hub::parse_error(line),
    }
}

/// The move text of a final answer line, or None if the line is not one.
/// An answer line without a move gives an empty text.
pub fn parse_bestmove(proto: Proto, line: &str) -> Option<String> {
    match proto {
        Proto::Uci => uci::parse_bestmove(line),
        Proto::Hub => hub::parse_bestmove(line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_lines_are_read_in_both_dialects() {
        assert_eq!(
            parse_error(Proto::Uci, "info string error: depth must be at least 1").as_deref(),
            Some("depth must be at least 1")
        );
        assert_eq!(parse_error(Proto::Uci, "info string errors are fine"), None);
        assert_eq!(parse_error(Proto::Uci, "info depth 3 score cp 0"), None);
        assert_eq!(
            parse_error(Proto::Hub, "error message=\"bad level\"").as_deref(),
            Some("bad level")
        );
        assert_eq!(parse_error(Proto::Hub, "error").as_deref(), Some("error"));
        assert_eq!(parse_error(Proto::Hub, "info depth=3 score=0.1"), None);
    }

    #[test]
    fn score_and_answer_lines() {
        use EngineScore::*;
        assert_eq!(
            parse_score(Proto::Uci, "info depth 5 score cp -31 nodes 9 pv d3-d4"),
            Some(Cp(-31))
        );
        assert_eq!(
            parse_score(Proto::Uci, "info score mate 3 lowerbound"),
            Some(Mate(3))
        );
        assert_eq!(parse_score(Proto::Uci, "info string score cp 5"), None);
        assert_eq!(parse_score(Proto::Uci, "info score cp"), None);
        assert_eq!(parse_score(Proto::Uci, "info score cp 1e99"), None);
        assert_eq!(
            parse_score(Proto::Hub, "info depth=3 score=0.29"),
            Some(Cp(29))
        );
        // Scan: a win in 3 plies is 99.97 men; a loss in 2 plies -99.98.
        assert_eq!(parse_score(Proto::Hub, "info score=99.97"), Some(Mate(2)));
        assert_eq!(parse_score(Proto::Hub, "info score=-99.98"), Some(Mate(-1)));
        assert_eq!(parse_score(Proto::Hub, "info score=nan"), None);
        assert_eq!(
            parse_bestmove(Proto::Uci, "bestmove d3-d4 ponder e6-e5").as_deref(),
            Some("d3-d4")
        );
        assert_eq!(parse_bestmove(Proto::Uci, "bestmove").as_deref(), Some(""));
        assert_eq!(parse_bestmove(Proto::Uci, "bestmoved3-d4"), None);
        assert_eq!(
            parse_bestmove(Proto::Hub, "done move=19-27 ponder=41-33").as_deref(),
            Some("19-27")
        );
        assert_eq!(parse_bestmove(Proto::Hub, "done").as_deref(), Some(""));
        let broken = parse_bestmove(Proto::Hub, "done move=\"19-27").unwrap();
        let start = Position::startpos(Rules::TURKISH);
        assert!(matches!(
            hub::parse_move(&start, &broken),
            Err(Fault::Garbage(_))
        ));
        assert_eq!(parse_bestmove(Proto::Hub, "info depth=1"), None);
    }

    #[test]
    fn go_lines() {
        let limits = GoLimits {
            time: Some([Duration::from_millis(1500), Duration::from_millis(900)]),
            increment: [Duration::from_millis(100); 2],
            moves_to_go: Some(12),
            ..GoLimits::default()
        };
        assert_eq!(
            uci::go_line(&limits),
            "go wtime 1500 btime 900 winc 100 binc 100 movestogo 12"
        );
        assert_eq!(
            hub::level_line(&limits, Color::Black).unwrap(),
            "level moves=12 time=0.8 inc=0.1"
        );
        let d = GoLimits {
            depth: Some(4),
            ..GoLimits::default()
        };
        assert_eq!(uci::go_line(&d), "go depth 4");
        assert_eq!(hub::level_line(&d, Color::White).unwrap(), "level depth=4");
    }
}
