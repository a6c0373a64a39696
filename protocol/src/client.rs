//! The client side of the protocol: starting an engine process and talking to
//! it in the UCI or the Hub dialect. Used by the match runner.
//!
//! Nothing an engine writes can make the client panic or wait forever: every
//! line is read by a separate thread (lines are capped in length, bytes that
//! are not UTF-8 are replaced), every wait has a deadline, and every failure
//! is a `Fault` that says what went wrong and whose fault it was.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use tama_engine::notation::{hub, shorten};
use tama_engine::{Color, Move, MoveError, Position, Rules};

/// Longest line kept from an engine; the rest of a longer line is dropped.
const MAX_LINE: usize = 64 * 1024;

/// The dialect an engine speaks.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Proto {
    #[default]
    Uci,
    Hub,
}

impl std::str::FromStr for Proto {
    type Err = String;
    fn from_str(s: &str) -> Result<Proto, String> {
        match s.to_ascii_lowercase().as_str() {
            "uci" => Ok(Proto::Uci),
            "hub" => Ok(Proto::Hub),
            _ => Err(format!("unknown protocol {s:?} (expected uci or hub)")),
        }
    }
}

/// How to start an engine and what to tell it before the first game.
#[derive(Clone, Debug, Default)]
pub struct EngineCommand {
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub proto: Proto,
    /// `option.X=Y` from the command line, sent in this order.
    pub options: Vec<(String, String)>,
}

impl EngineCommand {
    /// Whether the user sets option `name` (any case) on the command line.
    fn sets(&self, name: &str) -> bool {
        self.options
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case(name))
    }
}

/// Why an engine lost its game without losing it on the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The process could not be started, or did not finish the handshake.
    StartFailure(String),
    /// The process exited (or closed its output).
    Crash(String),
    /// No answer at all, even after `stop`.
    Hang(String),
    /// An answer that is not a move.
    Garbage(String),
    /// A well-formed move that is not legal (or ambiguous).
    Illegal(String),
    /// The engine reported an error instead of searching (UCI
    /// `info string error: ...`, Hub `error`), e.g. a `go` it refuses.
    Refused(String),
}

impl Fault {
    /// Short reason for a PDN `Termination` tag.
    pub fn reason(&self) -> String {
        match self {
            Fault::StartFailure(m) => format!("engine failed to start: {m}"),
            Fault::Crash(m) => format!("engine crashed: {m}"),
            Fault::Hang(m) => format!("engine hangs: {m}"),
            Fault::Garbage(m) => format!("garbage output: {m}"),
            // The rules core's messages already say "illegal move ...".
            Fault::Illegal(m)
                if m.starts_with("illegal move") || m.starts_with("ambiguous move") =>
            {
                m.clone()
            }
            Fault::Illegal(m) => format!("illegal move: {m}"),
            Fault::Refused(m) => format!("engine error: {m}"),
        }
    }
}

/// A score as the engine reported it, from the side to move's view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EngineScore {
    Cp(i32),
    /// Moves to a forced win (negative: to a forced loss).
    Mate(i32),
}

impl EngineScore {
    /// In centi-men, mates as +-(100000 - distance).
    pub fn as_cp(self) -> i32 {
        match self {
            EngineScore::Cp(c) => c,
            EngineScore::Mate(n) if n > 0 => 100_000 - n,
            EngineScore::Mate(n) => -100_000 - n,
        }
    }
}

/// What an engine may spend on one move; the runner fills it from the clocks.
#[derive(Clone, Debug, Default)]
pub struct GoLimits {
    /// Remaining time of White and Black.
    pub time: Option<[Duration; 2]>,
    pub increment: [Duration; 2],
    pub moves_to_go: Option<u32>,
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

/// An engine's answer to `go`.
#[derive(Clone, Debug)]
pub struct Reply {
    pub mv: Move,
    /// The move as the engine wrote it.
    pub text: String,
    /// From sending `go` to reading the move.
    pub elapsed: Duration,
    /// The last score the engine reported during this search.
    pub score: Option<EngineScore>,
    /// The move only came after `stop` was sent at the deadline.
    pub after_stop: bool,
}

/// Lines from the engine, or the end of its output.
enum Incoming {
    Line(String),
}

/// Timeouts of the conversation (not of the game clock).
#[derive(Clone, Copy, Debug)]
pub struct Timeouts {
    /// For the handshake (`uciok`, `readyok`, `wait`, `ready`).
    pub handshake: Duration,
    /// After `stop`, how long the move may still take before the engine
    /// counts as hanging.
    pub stop_grace: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts {
            handshake: Duration::from_secs(10),
            stop_grace: Duration::from_secs(1),
        }
    }
}

pub struct Engine {
    name: String,
    proto: Proto,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Incoming>,
    timeouts: Timeouts,
    /// UCI options the engine announced (lower case).
    announced: Vec<String>,
}

/// Reads `reader` line by line into `tx` until end of file. Lines longer than
/// `MAX_LINE` are cut; invalid UTF-8 is replaced.
fn pump(reader: impl Read, tx: mpsc::Sender<Incoming>) {
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
            if tx.send(Incoming::Line(text)).is_err() {
                break;
            }
        }
    }
    if !line.is_empty() {
        let _ = tx.send(Incoming::Line(String::from_utf8_lossy(&line).to_string()));
    }
}

/// What waiting for a line gave.
enum Wait {
    Line(String),
    Timeout,
    Closed,
    Aborted,
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
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
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
        let mut child = cmd
            .spawn()
            .map_err(|e| Fault::StartFailure(format!("cannot run {:?}: {e}", command.cmd)))?;
        let stdin = child.stdin.take();
        let Some(stdout) = child.stdout.take() else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Fault::StartFailure("no stdout".into()));
        };
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || pump(stdout, tx));
        let mut engine = Engine {
            name: command.name.clone(),
            proto: command.proto,
            child,
            stdin,
            rx,
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
                engine.kill();
                Err(f)
            }
        }
    }

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
            Proto::Uci => self.handshake_uci(command, rules, abort),
            Proto::Hub => self.handshake_hub(command, rules, abort),
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

    /// `uci` ... `uciok` (noting the options announced), the rule options
    /// the engine knows, the user's options, then `isready`.
    fn handshake_uci(
        &mut self,
        command: &EngineCommand,
        rules: Rules,
        abort: &AtomicBool,
    ) -> Result<(), Fault> {
        self.send("uci")?;
        self.await_line("uciok", abort, |e, l| {
            let mut t = l.split_whitespace();
            if t.next() == Some("option") && t.next() == Some("name") {
                let name: Vec<&str> = t.take_while(|w| *w != "type").collect();
                e.announced.push(name.join(" ").to_ascii_lowercase());
            }
        })?;
        let rule_options = [
            ("Variant", rules.variant.to_string()),
            ("CaptureRemoval", rules.capture_removal.to_string()),
            (
                "MidCapturePromotion",
                rules.mid_capture_promotion.to_string(),
            ),
        ];
        for (name, value) in rule_options {
            if !command.sets(name) && self.announced.contains(&name.to_ascii_lowercase()) {
                self.send(&format!("setoption name {name} value {value}"))?;
            }
        }
        for (name, value) in &command.options {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        self.sync(abort)
    }

    /// `hub` ... `wait` (noting the parameters announced), the variant and
    /// the rule parameters the engine knows, the user's, then `init` ...
    /// `ready`.
    fn handshake_hub(
        &mut self,
        command: &EngineCommand,
        rules: Rules,
        abort: &AtomicBool,
    ) -> Result<(), Fault> {
        self.send("hub")?;
        self.await_line("wait", abort, |e, l| {
            let args = hub_args(l);
            if args.first().map(|a| a.0.as_str()) == Some("param") {
                if let Some((_, n)) = args.iter().find(|(k, _)| k == "name") {
                    e.announced.push(n.to_ascii_lowercase());
                }
            }
        })?;
        // The variant always (as pydraughts does); the two rule options
        // when the engine announces them (Tama's Hub names).
        let rule_params = [
            ("variant", rules.variant.to_string(), true),
            ("capture-removal", rules.capture_removal.to_string(), false),
            (
                "mid-capture-promotion",
                rules.mid_capture_promotion.to_string(),
                false,
            ),
        ];
        for (name, value, always) in rule_params {
            let announced = self.announced.iter().any(|a| a == name);
            if !command.sets(name) && (always || announced) {
                self.send(&format!("set-param name={name} value={value}"))?;
            }
        }
        for (name, value) in &command.options {
            self.send(&format!(
                "set-param name={} value={}",
                hub::quote_value(name),
                hub::quote_value(value)
            ))?;
        }
        self.send("init")?;
        self.await_line("ready", abort, |_, _| {})
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
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(Fault::Crash("input closed".into()));
        };
        let ok = stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush());
        match ok {
            Ok(()) => Ok(()),
            Err(e) => Err(Fault::Crash(format!(
                "cannot write to it ({e}){}",
                self.exit_note()
            ))),
        }
    }

    fn exit_note(&mut self) -> String {
        // Give a process that closed its output a moment to exit.
        for _ in 0..20 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return format!(", {status}");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        String::new()
    }

    fn wait_line(&mut self, deadline: Instant, abort: &AtomicBool) -> Wait {
        loop {
            if abort.load(Ordering::Relaxed) {
                return Wait::Aborted;
            }
            let now = Instant::now();
            if now >= deadline {
                return Wait::Timeout;
            }
            let slice = (deadline - now).min(Duration::from_millis(50));
            match self.rx.recv_timeout(slice) {
                Ok(Incoming::Line(l)) => return Wait::Line(l),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Wait::Closed,
            }
        }
    }

    fn wait_fault(&mut self, w: Wait, expected: &str) -> Fault {
        match w {
            Wait::Closed => Fault::Crash(format!(
                "output closed while waiting for {expected}{}",
                self.exit_note()
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
        while let Ok(Incoming::Line(_)) = self.rx.try_recv() {}
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
                let mut line = format!("position fen {}", start.fen());
                if !moves.is_empty() {
                    line.push_str(" moves");
                    let mut p = *start;
                    for m in moves {
                        line.push(' ');
                        line.push_str(&p.move_text(m));
                        p = p.play(m);
                    }
                }
                self.send(&line)?;
                self.send(&uci_go(limits))
            }
            Proto::Hub => {
                let mut line = format!("pos pos={}", hub::encode_position(start));
                if !moves.is_empty() {
                    let texts: Vec<String> = moves.iter().map(hub::move_text).collect();
                    line.push_str(&format!(" moves=\"{}\"", texts.join(" ")));
                }
                self.send(&line)?;
                if let Some(level) = hub_level(limits, side) {
                    self.send(&level)?;
                }
                self.send("go think")
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
                        self.exit_note()
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
            Proto::Uci => pos.parse_move(text).map_err(move_fault),
            Proto::Hub => hub_parse_move(pos, text),
        }
    }

    /// Says goodbye, then makes sure the process is gone.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }

    fn kill(&mut self) {
        self.stdin = None;
        // The engine leads its own process group: end the whole group, so
        // that an engine started through a wrapper script goes too.
        #[cfg(unix)]
        if let Ok(pid) = i32::try_from(self.child.id()) {
            extern "C" {
                fn kill(pid: i32, sig: i32) -> i32;
            }
            const SIGKILL: i32 = 9;
            if pid > 0 {
                // SAFETY: plain system call on the group this client created.
                unsafe {
                    kill(-pid, SIGKILL);
                }
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

/// The score of an `info` line, if it has one.
pub fn parse_score(proto: Proto, line: &str) -> Option<EngineScore> {
    match proto {
        Proto::Uci => {
            let t: Vec<&str> = line.split_whitespace().collect();
            // (`info string ...` is free text, never a score.)
            if t.first() != Some(&"info") || t.get(1) == Some(&"string") {
                return None;
            }
            let i = t.iter().position(|w| *w == "score")?;
            let v: i32 = t.get(i + 2)?.parse().ok()?;
            match *t.get(i + 1)? {
                "cp" => Some(EngineScore::Cp(v)),
                "mate" => Some(EngineScore::Mate(v)),
                _ => None,
            }
        }
        Proto::Hub => {
            let args = hub_args(line);
            if args.first().map(|a| a.0.as_str()) != Some("info") {
                return None;
            }
            let (_, v) = args.iter().find(|(k, _)| k == "score")?;
            let men: f64 = v.parse().ok()?;
            if !men.is_finite() {
                return None;
            }
            let cp = (men * 100.0).round().clamp(-1e6, 1e6) as i32;
            // Scan's convention: a win in n plies is 10000 - n centi-men.
            Some(if cp > 9000 {
                EngineScore::Mate((10_000 - cp + 1) / 2)
            } else if cp < -9000 {
                EngineScore::Mate(-((10_000 + cp + 1) / 2))
            } else {
                EngineScore::Cp(cp)
            })
        }
    }
}

/// The message of an error line (UCI `info string error: MSG`, Hub
/// `error [message=MSG]`), or None if the line is not one.
pub fn parse_error(proto: Proto, line: &str) -> Option<String> {
    match proto {
        Proto::Uci => line
            .trim_start()
            .strip_prefix("info string error:")
            .map(|m| m.trim().to_string()),
        Proto::Hub => {
            let args = hub_args(line);
            if args.first().map(|a| a.0.as_str()) != Some("error") {
                return None;
            }
            let msg = args.iter().find(|(k, _)| k == "message");
            Some(msg.map_or_else(|| "error".to_string(), |(_, v)| v.clone()))
        }
    }
}

/// The move text of a final answer line, or None if the line is not one.
/// An answer line without a move gives an empty text.
pub fn parse_bestmove(proto: Proto, line: &str) -> Option<String> {
    let mut t = line.split_whitespace();
    match (proto, t.next()) {
        (Proto::Uci, Some("bestmove")) => Some(t.next().unwrap_or("").to_string()),
        (Proto::Hub, Some("done")) => Some(match hub::tokenize(line) {
            Ok(l) => l
                .args
                .into_iter()
                .find(|(k, _)| k == "move")
                .and_then(|(_, v)| v)
                .unwrap_or_default(),
            // Not a Hub line: the whole answer is the garbage to report.
            Err(_) => line.trim().to_string(),
        }),
        _ => None,
    }
}

fn ms(d: Duration) -> u128 {
    d.as_millis()
}

/// The UCI `go` line for these limits.
pub fn uci_go(limits: &GoLimits) -> String {
    let mut s = String::from("go");
    if let Some(t) = limits.time {
        s.push_str(&format!(
            " wtime {} btime {} winc {} binc {}",
            ms(t[0]),
            ms(t[1]),
            ms(limits.increment[0]),
            ms(limits.increment[1])
        ));
        if let Some(n) = limits.moves_to_go {
            s.push_str(&format!(" movestogo {n}"));
        }
    }
    if let Some(mt) = limits.movetime {
        s.push_str(&format!(" movetime {}", ms(mt)));
    }
    if let Some(d) = limits.depth {
        s.push_str(&format!(" depth {d}"));
    }
    if let Some(n) = limits.nodes {
        s.push_str(&format!(" nodes {n}"));
    }
    if s == "go" {
        s.push_str(" infinite");
    }
    s
}

fn secs(d: Duration) -> String {
    let v = d.as_secs_f64();
    let s = format!("{v:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() {
        "0".into()
    } else {
        s.to_string()
    }
}

/// The Hub `level` line for these limits (`None`: nothing to say).
/// Like pydraughts, the time sent is the remaining time minus the increment
/// (Hub engines add the increment first).
pub fn hub_level(limits: &GoLimits, side: Color) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(t) = limits.time {
        let inc = limits.increment[side as usize];
        if let Some(n) = limits.moves_to_go {
            parts.push(format!("moves={n}"));
        }
        parts.push(format!(
            "time={}",
            secs(t[side as usize].saturating_sub(inc))
        ));
        if !inc.is_zero() {
            parts.push(format!("inc={}", secs(inc)));
        }
    }
    if let Some(mt) = limits.movetime {
        parts.push(format!("move-time={}", secs(mt)));
    }
    if let Some(d) = limits.depth {
        parts.push(format!("depth={d}"));
    }
    if let Some(n) = limits.nodes {
        parts.push(format!("nodes={n}"));
    }
    if parts.is_empty() {
        None
    } else {
        Some(format!("level {}", parts.join(" ")))
    }
}

/// A Hub line as (name, value) pairs: the command itself first with an
/// empty value, then each argument (a bare flag with an empty value). A
/// line that is not Hub (see `notation::hub::tokenize`) gives no pairs.
pub fn hub_args(line: &str) -> Vec<(String, String)> {
    let Ok(l) = hub::tokenize(line) else {
        return Vec::new();
    };
    std::iter::once((l.command, String::new()))
        .chain(l.args.into_iter().map(|(k, v)| (k, v.unwrap_or_default())))
        .collect()
}

/// Reads an engine's move: the rules decide, and a refusal becomes the
/// engine's fault (text that is no move: garbage; a move that is not
/// legal here, or not only one: illegal).
fn move_fault(e: MoveError) -> Fault {
    match e {
        MoveError::Malformed(m) => Fault::Garbage(m),
        other => Fault::Illegal(other.to_string()),
    }
}

/// Reads Hub move text against the legal moves of `pos`.
pub fn hub_parse_move(pos: &Position, text: &str) -> Result<Move, Fault> {
    hub::parse_move(pos, text).map_err(move_fault)
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
    fn engine_moves_are_read_as_faults() {
        // Black's only move in this pydraughts position: 60x12x20x36x52
        // (d8 takes d7, d5, d3); the captured squares may come in any order.
        let pos = Position::from_fen("B:WKa1,d3,d5,c6,d7,h2:Bd8,a7,Kh8", Rules::TURKISH).unwrap();
        let mv = hub_parse_move(&pos, "60x12x52x36x20").unwrap();
        assert_eq!(pos.move_text(&mv), "d8xd6xd4xd2");
        let quiet = Position::startpos(Rules::TURKISH);
        assert_eq!(
            quiet.move_text(&hub_parse_move(&quiet, "19-27").unwrap()),
            "c3-c4"
        );
        // Well-formed but not legal: the engine played an illegal move;
        // not a move at all: garbage.
        assert!(matches!(
            hub_parse_move(&quiet, "19-35"),
            Err(Fault::Illegal(_))
        ));
        assert!(matches!(
            hub_parse_move(&quiet, "a3-a4"),
            Err(Fault::Garbage(_))
        ));
        assert!(matches!(
            hub_parse_move(&quiet, "99-1"),
            Err(Fault::Garbage(_))
        ));
        let e = hub_parse_move(&quiet, "19-35").unwrap_err().reason();
        assert!(e.starts_with("illegal move \"19-35\""), "{e}");
    }

    #[test]
    fn hub_args_split_quotes() {
        let a = hub_args("info depth=3 score=-0.25 pv=\"19-27 41-33\" flag");
        assert_eq!(a[0], ("info".into(), "".into()));
        assert_eq!(a[2], ("score".into(), "-0.25".into()));
        assert_eq!(a[3], ("pv".into(), "19-27 41-33".into()));
        assert_eq!(a[4], ("flag".into(), "".into()));
        // A line that is not Hub (unbalanced quotes, stray '=') has no
        // arguments to read.
        assert!(hub_args("done move=\"19-27").is_empty());
        assert!(hub_args("= = =\"").is_empty());
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
            hub_parse_move(&start, &broken),
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
            uci_go(&limits),
            "go wtime 1500 btime 900 winc 100 binc 100 movestogo 12"
        );
        assert_eq!(
            hub_level(&limits, Color::Black).unwrap(),
            "level moves=12 time=0.8 inc=0.1"
        );
        let d = GoLimits {
            depth: Some(4),
            ..GoLimits::default()
        };
        assert_eq!(uci_go(&d), "go depth 4");
        assert_eq!(hub_level(&d, Color::White).unwrap(), "level depth=4");
    }
}
