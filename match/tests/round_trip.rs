//! The client and the engine speak one grammar: every line the match
//! runner's client writes is read by the engine side's parser as the
//! command the client meant, and every line the engine writes in a whole
//! conversation (handshake, options, searches, errors) is read by the
//! client as what the engine meant. Both dialects, with the engine run in
//! this process (`tama_protocol::run`).

use std::collections::VecDeque;
use std::io::{BufReader, Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tama_engine::rng::Rng;
use tama_engine::search::Tuning;
use tama_engine::{movegen, Color, Move, Position, Rules};
use tama_match::client::{hub, uci, EngineScore, Fault, GoLimits};
use tama_protocol::session::Dialect;

/// A random game of up to `plies` plies from the start (captures and
/// promotions included as they come).
fn random_game(rng: &mut Rng, rules: Rules, plies: u64) -> (Position, Vec<Move>) {
    let start = Position::startpos(rules);
    let mut pos = start;
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = movegen::legal_moves(&pos);
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len() as u64) as usize];
        moves.push(m);
        pos = pos.play(&m);
    }
    (start, moves)
}

fn replay(start: &Position, moves: &[Move]) -> Position {
    moves.iter().fold(*start, |p, m| p.play(m))
}

fn limits_samples() -> Vec<GoLimits> {
    let ms = Duration::from_millis;
    vec![
        GoLimits::default(),
        GoLimits {
            time: Some([ms(61_234), ms(999)]),
            increment: [ms(500), ms(0)],
            moves_to_go: Some(17),
            ..GoLimits::default()
        },
        GoLimits {
            time: Some([ms(1), ms(0)]),
            ..GoLimits::default()
        },
        GoLimits {
            movetime: Some(ms(2_500)),
            ..GoLimits::default()
        },
        GoLimits {
            depth: Some(7),
            nodes: Some(123_456_789),
            ..GoLimits::default()
        },
    ]
}

#[test]
fn uci_lines_the_client_writes_are_read_by_the_engine() {
    use tama_protocol::uci::{build_game, parse, Command, GoArgs, Start};
    for fixed in ["uci", "isready", "ucinewgame", "stop", "quit"] {
        assert!(
            matches!(parse(fixed), Ok(c) if c != Command::Empty),
            "{fixed}"
        );
    }
    for (name, value) in [
        ("Hash", "64"),
        ("Move Overhead", "30"),
        ("EvalFile", "/path with spaces/w.tew"),
        ("Variant", "turkish"),
    ] {
        assert_eq!(
            parse(&uci::setoption_line(name, value)),
            Ok(Command::SetOption {
                name: name.into(),
                value: Some(value.into())
            })
        );
    }
    let mut rng = Rng::new(26);
    for rules in Rules::all() {
        for n in 0..40 {
            let (start, moves) = random_game(&mut rng, rules, n * 3);
            let line = uci::position_line(&start, &moves);
            let Ok(Command::Position { start: s, moves: m }) = parse(&line) else {
                panic!("{line}")
            };
            assert_eq!(s, Start::Fen(start.fen()), "{line}");
            let game = build_game(rules, &s, &m).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(*game.position(), replay(&start, &moves), "{line}");
        }
    }
    for limits in limits_samples() {
        let line = uci::go_line(&limits);
        let Ok(Command::Go(go)) = parse(&line) else {
            panic!("{line}")
        };
        let ms = |d: Duration| Some(d.as_millis() as i64);
        let timed = limits.time.is_some();
        let expect = GoArgs {
            wtime: limits.time.and_then(|t| ms(t[0])),
            btime: limits.time.and_then(|t| ms(t[1])),
            winc: if timed { ms(limits.increment[0]) } else { None },
            binc: if timed { ms(limits.increment[1]) } else { None },
            movestogo: limits.moves_to_go,
            depth: limits.depth,
            nodes: limits.nodes,
            movetime: limits.movetime.and_then(ms),
            infinite: line == "go infinite",
            ..GoArgs::default()
        };
        assert_eq!(go, expect, "{line}");
    }
}

#[test]
fn hub_lines_the_client_writes_are_read_by_the_engine() {
    use tama_protocol::hub::{build_game, parse, Command, GoMode, Level};
    for fixed in ["hub", "init", "new-game", "stop", "quit"] {
        assert!(
            matches!(parse(fixed), Ok(c) if c != Command::Empty),
            "{fixed}"
        );
    }
    assert_eq!(parse(hub::GO), Ok(Command::Go(GoMode::Think)));
    for (name, value) in [
        ("hash", "64"),
        ("variant", "turkish"),
        ("eval-file", "/path with spaces/w.tew"),
        ("odd name", "a=b"),
        ("empty", ""),
    ] {
        assert_eq!(
            parse(&hub::set_param_line(name, value)),
            Ok(Command::SetParam {
                name: name.into(),
                value: Some(value.into())
            }),
            "{name} {value}"
        );
    }
    // The Hub grammar (Scan's) has no escape for a quote inside a quoted
    // value: the client drops it rather than send a line the engine would
    // split differently.
    assert_eq!(
        parse(&hub::set_param_line("eval-file", "w \"x\".tew")),
        Ok(Command::SetParam {
            name: "eval-file".into(),
            value: Some("w x.tew".into())
        })
    );
    let mut rng = Rng::new(26);
    for rules in Rules::all() {
        for n in 0..40 {
            let (start, moves) = random_game(&mut rng, rules, n * 3);
            let line = hub::pos_line(&start, &moves);
            let Ok(Command::Pos { pos, moves: m }) = parse(&line) else {
                panic!("{line}")
            };
            let game =
                build_game(rules, pos.as_deref(), &m).unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(*game.position(), replay(&start, &moves), "{line}");
        }
    }
    for limits in limits_samples() {
        for side in [Color::White, Color::Black] {
            let Some(line) = hub::level_line(&limits, side) else {
                assert!(limits.time.is_none() && limits.movetime.is_none());
                assert!(limits.depth.is_none() && limits.nodes.is_none());
                continue;
            };
            let Ok(Command::Level(level)) = parse(&line) else {
                panic!("{line}")
            };
            // Seconds as the client writes them: to the millisecond.
            let secs = |d: Duration| (d.as_millis() as f64) / 1000.0;
            let inc = limits.increment[side as usize];
            let expect = Level {
                depth: limits.depth,
                nodes: limits.nodes,
                move_time: limits.movetime.map(secs),
                moves: limits.moves_to_go,
                // Hub engines add the increment to the time they are sent.
                time: limits
                    .time
                    .map(|t| secs(t[side as usize].saturating_sub(inc))),
                inc: limits.time.filter(|_| !inc.is_zero()).map(|_| secs(inc)),
                infinite: false,
            };
            assert_eq!(level, expect, "{line}");
        }
    }
}

/// What the engine has written so far, shared with its input script.
#[derive(Clone, Default)]
struct Output(Arc<Mutex<Vec<u8>>>);

impl Output {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// One step of the client's side of a conversation.
enum Step {
    Send(String),
    /// Wait until the engine has written `n` lines that start with this.
    Await(&'static str, usize),
}

/// The client's lines, each given only when the engine has answered what
/// the script waits for (so that searches finish before the input ends).
struct Script {
    steps: VecDeque<Step>,
    output: Output,
    pending: Vec<u8>,
}

impl Read for Script {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.pending.is_empty() {
            match self.steps.pop_front() {
                None => return Ok(0),
                Some(Step::Send(line)) => self.pending = format!("{line}\n").into_bytes(),
                Some(Step::Await(prefix, n)) => {
                    // A hang guard, not a speed claim: only an engine that
                    // never answers takes a minute.
                    let deadline = Instant::now() + Duration::from_secs(60);
                    let seen =
                        |o: &Output| o.text().lines().filter(|l| l.starts_with(prefix)).count();
                    while seen(&self.output) < n {
                        assert!(
                            Instant::now() < deadline,
                            "no {prefix} from the engine:\n{}",
                            self.output.text()
                        );
                        std::thread::sleep(Duration::from_millis(2));
                    }
                }
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// Runs the engine on `steps` in `dialect`; returns every line it wrote.
fn converse(dialect: Dialect, steps: Vec<Step>) -> Vec<String> {
    let output = Output::default();
    let script = Script {
        steps: steps.into(),
        output: output.clone(),
        pending: Vec::new(),
    };
    tama_protocol::run(
        BufReader::new(script),
        Box::new(output.clone()),
        Some(dialect),
        Tuning::default(),
    );
    output.text().lines().map(String::from).collect()
}

/// The positions searched in the conversations: the start, and a game in
/// the middle.
fn searched(rules: Rules) -> Vec<(Position, Vec<Move>)> {
    let mut rng = Rng::new(7);
    vec![
        (Position::startpos(rules), Vec::new()),
        random_game(&mut rng, rules, 24),
    ]
}

const DEPTH: GoLimits = GoLimits {
    time: None,
    increment: [Duration::ZERO; 2],
    moves_to_go: None,
    movetime: None,
    depth: Some(5),
    nodes: None,
};

/// A search the engine refuses: an error line, not a move.
const REFUSED: GoLimits = GoLimits {
    depth: Some(0),
    ..DEPTH
};

/// How the client reads one dialect (`client::uci` or `client::hub`).
struct Reader {
    announced: fn(&str) -> Option<String>,
    /// How an option announcement starts.
    announcement: &'static str,
    /// The rule options the client sets when the engine announces them.
    rule_options: [&'static str; 3],
    /// The lines that end the two steps of the handshake.
    handshake: [&'static str; 2],
    error: fn(&str) -> Option<String>,
    answer: fn(&str) -> Option<String>,
    /// Whether an engine line carries a score.
    has_score: fn(&str) -> bool,
    score: fn(&str) -> Option<EngineScore>,
    play: fn(&Position, &str) -> Result<Move, Fault>,
}

/// Checks that the client reads every line of a conversation with the
/// `games` searched and then one refused search: the options announced
/// (the rule options among them), every score, each answer as a legal
/// move, the one error.
fn read_back(lines: &[String], games: &[(Position, Vec<Move>)], r: &Reader) {
    let announced: Vec<String> = lines.iter().filter_map(|l| (r.announced)(l)).collect();
    for rule in r.rule_options {
        assert!(announced.iter().any(|a| a == rule), "{rule}: {announced:?}");
    }
    let options = lines
        .iter()
        .filter(|l| l.starts_with(r.announcement))
        .count();
    assert_eq!(announced.len(), options, "{lines:#?}");
    let mut answers = Vec::new();
    let mut scores = 0;
    let mut errors = Vec::new();
    for l in lines {
        if let Some(e) = (r.error)(l) {
            errors.push(e);
        } else if let Some(m) = (r.answer)(l) {
            answers.push(m);
        } else if (r.has_score)(l) {
            assert!((r.score)(l).is_some(), "a score the client misses: {l}");
            scores += 1;
        }
    }
    assert_eq!(answers.len(), games.len(), "{lines:#?}");
    for ((start, moves), text) in games.iter().zip(&answers) {
        let pos = replay(start, moves);
        let m = (r.play)(&pos, text).unwrap_or_else(|f| panic!("{text}: {f:?}"));
        assert!(movegen::legal_moves(&pos).contains(&m));
    }
    assert!(scores >= games.len(), "{lines:#?}");
    assert_eq!(errors.len(), 1, "{lines:#?}");
    assert!(errors[0].contains("depth"), "{errors:?}");
    for l in r.handshake {
        assert!(lines.iter().any(|x| x.trim() == l), "{l}");
    }
}

#[test]
fn every_uci_line_the_engine_writes_is_read_by_the_client() {
    let rules = Rules::TURKISH;
    let mut steps = vec![
        Step::Send("uci".into()),
        Step::Await("uciok", 1),
        Step::Send(uci::setoption_line("Variant", "turkish")),
        Step::Send("isready".into()),
        Step::Await("readyok", 1),
        Step::Send("ucinewgame".into()),
    ];
    let games = searched(rules);
    for (i, (start, moves)) in games.iter().enumerate() {
        steps.push(Step::Send(uci::position_line(start, moves)));
        steps.push(Step::Send(uci::go_line(&DEPTH)));
        steps.push(Step::Await("bestmove", i + 1));
    }
    steps.push(Step::Send(uci::go_line(&REFUSED)));
    steps.push(Step::Send("isready".into()));
    steps.push(Step::Await("readyok", 2));
    steps.push(Step::Send("quit".into()));
    let lines = converse(Dialect::Uci, steps);

    read_back(
        &lines,
        &games,
        &Reader {
            announced: uci::option_name,
            announcement: "option ",
            rule_options: ["Variant", "CaptureRemoval", "MidCapturePromotion"],
            handshake: ["uciok", "readyok"],
            error: uci::parse_error,
            answer: uci::parse_bestmove,
            has_score: |l| {
                l.split_whitespace().any(|w| w == "score") && !l.starts_with("info string")
            },
            score: uci::parse_score,
            play: uci::parse_move,
        },
    );
}

#[test]
fn every_hub_line_the_engine_writes_is_read_by_the_client() {
    let rules = Rules::TURKISH;
    let mut steps = vec![
        Step::Send("hub".into()),
        Step::Await("wait", 1),
        Step::Send(hub::set_param_line("variant", "turkish")),
        Step::Send("init".into()),
        Step::Await("ready", 1),
        Step::Send("new-game".into()),
    ];
    let games = searched(rules);
    for (i, (start, moves)) in games.iter().enumerate() {
        steps.push(Step::Send(hub::pos_line(start, moves)));
        let side = replay(start, moves).side_to_move();
        steps.push(Step::Send(hub::level_line(&DEPTH, side).unwrap()));
        steps.push(Step::Send(hub::GO.into()));
        steps.push(Step::Await("done", i + 1));
    }
    steps.push(Step::Send(hub::level_line(&REFUSED, Color::White).unwrap()));
    steps.push(Step::Await("error", 1));
    steps.push(Step::Send("quit".into()));
    let lines = converse(Dialect::Hub, steps);

    for l in &lines {
        assert!(!hub::args(l).is_empty(), "not a Hub line: {l}");
    }
    read_back(
        &lines,
        &games,
        &Reader {
            announced: hub::param_name,
            announcement: "param ",
            rule_options: ["variant", "capture-removal", "mid-capture-promotion"],
            handshake: ["wait", "ready"],
            error: hub::parse_error,
            answer: hub::parse_bestmove,
            has_score: |l| hub::args(l).iter().any(|(k, _)| k == "score"),
            score: hub::parse_score,
            play: hub::parse_move,
        },
    );
}
