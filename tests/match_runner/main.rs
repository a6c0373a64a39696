//! End-to-end tests of `tama match`, with the fake engines of
//! `tests/fixtures/fake_engine.rs` (a correct random mover and one engine per
//! fault). Every game written to the PDN is read back and replayed through
//! the rules core, and must end as recorded. One module per concern, all in
//! one test binary; the helpers they share are here.

mod games;
mod results;
mod shards;

use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use tama_engine::notation::pdn::{read_pdn, PdnGame};
use tama_engine::{Game, GameStatus, Rules};

const TAMA: &str = env!("CARGO_BIN_EXE_tama");
const FAKE: &str = env!("CARGO_BIN_EXE_tama-fake-engine");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tama-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `tama match ARGS`, killing it (and failing) after two minutes.
fn run_match(args: &[String]) -> Output {
    let mut child = Command::new(TAMA)
        .arg("match")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("tama match did not finish: {args:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs a match that must succeed (its stderr is the failure message).
fn run_match_ok(args: &[String]) -> Output {
    let out = run_match(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

/// `-engine` arguments for a fake engine.
fn fake(name: &str, mode: &str, fault_at: u32, seed: u32) -> String {
    format!("-engine cmd={FAKE} name={name} arg={mode} arg={fault_at} arg={seed}")
}

/// Reads the PDN and checks that every game replays legally and ends as
/// recorded: a win on the board is a position without legal moves for the
/// loser, a repetition draw is a threefold repetition, and any other
/// termination (adjudication, fault) leaves a game that is not over.
fn check_pdn(path: &Path, rules: Rules) -> Vec<PdnGame> {
    let text = std::fs::read_to_string(path).unwrap();
    let games = read_pdn(&text, rules).unwrap();
    for (i, g) in games.iter().enumerate() {
        let result = g.tag("Result").unwrap();
        assert_eq!(g.result.as_deref(), Some(result), "game {i}");
        assert_eq!(g.start.rules(), rules, "game {i}");
        let mut game = Game::new(g.start);
        for m in &g.moves {
            game.play(*m);
        }
        let why = g.tag("Termination").unwrap();
        let status = game.status();
        if why.ends_with("has no legal move") {
            let expect = if result == "2-0" {
                tama_engine::Color::White
            } else {
                tama_engine::Color::Black
            };
            assert_eq!(status, GameStatus::Won(expect), "game {i}: {why}");
        } else if why == "threefold repetition" {
            assert_eq!(status, GameStatus::DrawByRepetition, "game {i}");
            assert_eq!(result, "1-1");
        } else {
            assert_eq!(status, GameStatus::Ongoing, "game {i}: {why}");
        }
        assert_eq!(
            g.tag("PlyCount").unwrap(),
            g.moves.len().to_string(),
            "game {i}"
        );
        assert!(g.tag("FEN").is_some() && g.tag("TimeControl").is_some());
    }
    games
}

fn json(path: &Path) -> Json {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}
