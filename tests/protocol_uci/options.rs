//! The handshake's options and `setoption`: each option set, the strength
//! caps, and what the machine cannot give (memory, CPUs).

use crate::protocol_support::{bestmove, deepest, errors, uci, Engine};
use tama_engine::search::skill::{FULL_STRENGTH_ELO, LEVELS, LEVEL_ELO, MAX_ELO, MIN_ELO};
use tama_engine::{Position, Rules};

#[test]
fn handshake_lists_every_option() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines[0].starts_with("id name Tama "), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for opt in [
        "option name Hash type spin default 64 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 256",
        "option name MultiPV type spin default 1 min 1 max 64",
        "option name Ponder type check default false",
        "option name Move Overhead type spin default 30 min 0 max 5000",
        "option name Clear Hash type button",
        "option name Variant type combo default armenian var armenian var turkish",
        "option name CaptureRemoval type combo default immediate var immediate var deferred",
        "option name MidCapturePromotion type check default false",
        "option name EvalFile type string default <builtin>",
        "option name Contempt type spin default 0 min -500 max 500",
        "option name UCI_AnalyseMode type check default false",
        "option name Skill Level type spin default 9 min 0 max 9",
        "option name UCI_LimitStrength type check default false",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(opt)),
            "missing {opt:?} in {lines:#?}"
        );
    }
    let elo =
        format!("option name UCI_Elo type spin default {MIN_ELO} min {MIN_ELO} max {MAX_ELO}");
    assert!(lines.contains(&elo), "missing {elo:?} in {lines:#?}");
    assert_eq!(e.sync(), Vec::<String>::new());
    let (status, rest) = e.close();
    assert!(status.success());
    assert!(rest.is_empty(), "{rest:?}");
}

#[test]
fn skill_level_and_limit_strength_cap_the_search() {
    let mut e = uci();
    let start = Position::startpos(Rules::ARMENIAN);
    // `go depth 8`, searched as deep as the level allows.
    let depth_of = |e: &mut Engine, setting: &str| {
        e.send(setting);
        assert!(e.sync().is_empty(), "{setting}");
        e.send("position startpos");
        e.send("go depth 8");
        let lines = e.until("bestmove");
        assert!(errors(&lines).is_empty(), "{setting}: {lines:?}");
        let answer = bestmove(lines.last().unwrap());
        let legal = tama_engine::movegen::legal_moves(&start);
        assert!(
            legal.iter().any(|m| start.move_text(m) == answer),
            "{answer}"
        );
        deepest(&lines)
    };
    assert_eq!(
        depth_of(&mut e, "setoption name Skill Level value 0"),
        LEVELS[0].depth
    );
    assert_eq!(
        depth_of(&mut e, "setoption name Skill Level value 4"),
        LEVELS[4].depth
    );
    assert_eq!(depth_of(&mut e, "setoption name Skill Level value 9"), 8);
    // UCI_Elo rules while UCI_LimitStrength is on, whatever Skill Level says.
    let weakest = format!("setoption name UCI_Elo value {MIN_ELO}");
    assert_eq!(depth_of(&mut e, &weakest), 8);
    assert_eq!(
        depth_of(&mut e, "setoption name UCI_LimitStrength value true"),
        LEVELS[0].depth
    );
    let elo = format!("setoption name UCI_Elo value {MAX_ELO}");
    assert_eq!(depth_of(&mut e, &elo), 8);
    let fourth = FULL_STRENGTH_ELO + LEVEL_ELO[4];
    let elo = format!("setoption name UCI_Elo value {fourth}");
    assert_eq!(depth_of(&mut e, &elo), LEVELS[4].depth);
    assert_eq!(
        depth_of(&mut e, "setoption name UCI_LimitStrength value false"),
        8
    );
    for bad in [
        "setoption name Skill Level value 10".to_string(),
        "setoption name Skill Level value -1".to_string(),
        format!("setoption name UCI_Elo value {}", MIN_ELO - 1),
        format!("setoption name UCI_Elo value {}", MAX_ELO + 1),
        "setoption name UCI_LimitStrength value maybe".to_string(),
    ] {
        e.send(&bad);
        assert_eq!(errors(&e.sync()).len(), 1, "{bad}");
    }
    assert_eq!(depth_of(&mut e, "setoption name Skill Level value 9"), 8);
}

#[test]
fn setoption_every_option() {
    let mut e = uci();
    for ok in [
        "setoption name Hash value 16",
        "setoption name hash value 32",
        "setoption name Threads value 1",
        "setoption name MultiPV value 2",
        "setoption name Ponder value true",
        "setoption name Move Overhead value 0",
        "setoption name move overhead value 50",
        "setoption name Clear Hash",
        "setoption name CaptureRemoval value deferred",
        "setoption name MidCapturePromotion value true",
        "setoption name CaptureRemoval value immediate",
        "setoption name MidCapturePromotion value false",
        "setoption name Contempt value 500",
        "setoption name Contempt value -500",
        "setoption name contempt value 0",
        "setoption name UCI_AnalyseMode value true",
        "setoption name UCI_AnalyseMode value false",
        "setoption name VARIANT value Turkish",
    ] {
        e.send(ok);
        assert!(e.sync().is_empty(), "{ok}");
    }
    e.send("d");
    let text = e.until("Game state:").join("\n");
    assert!(text.contains("Variant turkish"), "{text}");
    // Turkish: no diagonal steps.
    e.send("position startpos moves c3-d4");
    assert_eq!(errors(&e.sync()).len(), 1);
    e.send("go depth 2");
    e.until("bestmove");
    for bad in [
        "setoption name Hash value 0",
        "setoption name Hash value 70000",
        "setoption name Hash value big",
        "setoption name Threads value 0",
        "setoption name MultiPV value 0",
        "setoption name Variant value russian",
        "setoption name CaptureRemoval value sometimes",
        "setoption name MidCapturePromotion value perhaps",
        "setoption name Clear Hash value now",
        "setoption name Aggressiveness value 10",
        "setoption name Contempt value 501",
        "setoption name Contempt value -501",
        "setoption name Contempt value 0.5",
        "setoption name UCI_AnalyseMode value sometimes",
        "setoption name Hash",
        "setoption Hash value 3",
    ] {
        e.send(bad);
        let out = e.sync();
        assert_eq!(errors(&out).len(), 1, "{bad}: {out:?}");
    }
    e.send("d");
    let text = e.until("Game state:").join("\n");
    assert!(text.contains("Variant turkish"), "{text}");
}

/// A GUI may ask for more table than the machine can spare. With the
/// address space capped at about 4 GB, `Hash 65536` is capped to half of
/// it before any allocation: the engine says so, uses that, and plays.
#[cfg(unix)]
#[test]
fn hash_larger_than_memory_is_capped_and_said() {
    let text = under_ulimit(b"uci\nsetoption name Hash value 65536\nisready\ngo depth 2\n");
    let note = text
        .lines()
        .find(|l| l.starts_with("info string Hash: 65536 MB asked for, "))
        .unwrap_or_else(|| panic!("no Hash notice: {text}"));
    // 4000000 kB of address space: at most half, 1953 MB (less when the
    // machine or its cgroup is smaller still).
    let used: usize = note
        .split(", ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{note}"));
    assert!((1..=1953).contains(&used), "{note}");
    assert!(!text.contains("the system gave only"), "{text}");
    assert!(text.contains("readyok"), "{text}");
    assert_eq!(
        text.lines().filter(|l| l.starts_with("bestmove ")).count(),
        1,
        "{text}"
    );
    // The same in Hub: an `info message=...` line, then the game goes on.
    let text = under_ulimit(b"hub\nset-param name=hash value=65536\ninit\ngo think\nstop\n");
    assert!(
        text.lines()
            .any(|l| l.starts_with("info message=\"Hash: 65536 MB asked for, ")),
        "{text}"
    );
    assert!(text.lines().any(|l| l.starts_with("done move=")), "{text}");
}

/// Runs `tama` with the address space capped at about 4 GB on `input`;
/// returns what it printed (it must exit 0 at end of input).
#[cfg(unix)]
fn under_ulimit(input: &[u8]) -> String {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 4000000 && exec '{}'",
            env!("CARGO_BIN_EXE_tama")
        ))
        .env("TAMA_STRICT", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start tama under sh");
    child.stdin.take().unwrap().write_all(input).unwrap();
    // stdin is closed here: end of input finishes the search and exits.
    let out = child.wait_with_output().expect("tama ends at end of input");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{text}");
    text
}

/// A GUI's saved `Threads` may exceed this machine's CPUs: accepted (up to
/// 256, as other UCI engines allow) with a notice, and the search runs.
#[test]
fn threads_beyond_the_cpus_are_accepted_with_a_notice() {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut e = uci();
    e.send("setoption name Threads value 256");
    let out = e.sync();
    assert!(errors(&out).is_empty(), "{out:?}");
    assert_eq!(
        out,
        vec![format!(
            "info string Threads: 256 search threads on {cpus} CPUs; they share the CPUs, so expect no gain beyond {cpus}"
        )]
    );
    e.send("setoption name Threads value 257");
    assert_eq!(errors(&e.sync()).len(), 1);
    // Within the CPUs: no notice.
    e.send("setoption name Threads value 1");
    assert!(e.sync().is_empty());
    e.send(&format!("setoption name Threads value {}", cpus + 1));
    assert_eq!(e.sync().len(), 1);
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert!(errors(&lines).is_empty(), "{lines:?}");
    let start = Position::startpos(Rules::default());
    assert!(start.parse_move(bestmove(lines.last().unwrap())).is_ok());
}
