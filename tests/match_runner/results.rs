//! The results files and the command line: files merged into one table,
//! bad command lines and unwritable files refused before the first game,
//! Ctrl-C writing what the match has.

use crate::{args, check_pdn, fake, json, run_match, run_match_ok, scratch, FAKE, TAMA};
use serde_json::Value as Json;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tama_engine::Rules;

#[test]
fn results_files_merge_into_one_table() {
    let dir = scratch("merge");
    let mut files = Vec::new();
    for (k, seed) in [(1, 11), (2, 12)] {
        let res = dir.join(format!("r{k}.json"));
        let out = run_match(&args(&format!(
            "{} {} -each depth=1 -rounds 2 -repeat -maxmoves 60 -results {}",
            fake("A", "random", 1, seed),
            fake("B", "random", 1, seed + 100),
            res.display()
        )));
        assert!(out.status.success());
        files.push(res);
    }
    let merged = dir.join("all.json");
    let out = run_match_ok(&args(&format!(
        "--merge {} {} -results {}",
        files[0].display(),
        files[1].display(),
        merged.display()
    )));
    let count = |j: &Json, k: &str| {
        j.get("pairs").unwrap().as_array().unwrap()[0]
            .get(k)
            .and_then(Json::as_u64)
            .unwrap()
    };
    let (a, b, m) = (json(&files[0]), json(&files[1]), json(&merged));
    for k in ["wins", "draws", "losses", "games"] {
        assert_eq!(count(&m, k), count(&a, k) + count(&b, k), "{k}");
    }
    assert_eq!(m.get("games").unwrap().as_array().unwrap().len(), 8);
    assert!(String::from_utf8_lossy(&out.stdout).contains("A vs B: 8 games"));
    // A results file written by release 0.1.0 merges with today's.
    let old = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/results-0.1.0.json");
    let with_old = dir.join("with-old.json");
    let out = run_match_ok(&args(&format!(
        "--merge {} {} -results {}",
        old.display(),
        merged.display(),
        with_old.display()
    )));
    let (o, w) = (json(&old), json(&with_old));
    assert_eq!(
        w.get("engines").unwrap().as_array().unwrap().len(),
        4,
        "old-A, old-B, A, B"
    );
    let pair = |j: &Json, first: &str| {
        j.get("pairs")
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p.get("first").and_then(Json::as_str) == Some(first))
            .unwrap()
            .clone()
    };
    for k in ["wins", "draws", "losses", "games"] {
        let get = |p: Json| p.get(k).and_then(Json::as_u64).unwrap();
        assert_eq!(get(pair(&w, "old-A")), get(pair(&o, "old-A")), "{k}");
        assert_eq!(get(pair(&w, "A")), get(pair(&m, "A")), "{k}");
    }
    assert_eq!(w.get("games").unwrap().as_array().unwrap().len(), 6 + 8);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("old-A vs old-B: 6 games"), "{stdout}");
    // A file that is not a results file is refused.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"x\": 1}").unwrap();
    let out = run_match(&args(&format!("--merge {}", bad.display())));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn bad_command_lines_are_refused_with_status_2() {
    let missing_openings = format!(
        "-engine cmd={FAKE} st=1 -engine cmd={FAKE} st=1 -openings file=/nonexistent/o.fen"
    );
    let out = run_match(&args(&missing_openings));
    assert_eq!(out.status.code(), Some(2));
    for bad in [
        "",
        "-engine cmd=x st=1",
        "-engine cmd=x -engine cmd=y",
        "-engine cmd=x st=1 -engine cmd=y st=1 -rounds -3",
        "-engine cmd=/nonexistent/engine st=1 -engine cmd=/nonexistent/engine st=1",
    ] {
        let out = run_match(&args(bad));
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(!out.stderr.is_empty());
    }
    // Limits an engine refuses (`go depth 0`) or that make no sense: one
    // line, status 2, before any game.
    for limit in [
        "depth=0",
        "nodes=0",
        "depth=-1",
        "depth=5000",
        "nodes=1e30",
        "nodes=x",
    ] {
        let out = run_match(&args(&format!(
            "-engine cmd={FAKE} -engine cmd={FAKE} -each {limit}"
        )));
        assert_eq!(out.status.code(), Some(2), "{limit}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{limit}: {err}");
        assert!(err.starts_with("error: engine 1:"), "{limit}: {err}");
    }
    let help = run_match(&args("--help"));
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("usage: tama match"));
}

#[cfg(unix)]
#[test]
fn ctrl_c_writes_what_it_has_and_exits() {
    let dir = scratch("sigint");
    let pdn = dir.join("games.pdn");
    let res = dir.join("r.json");
    let mut child = Command::new(TAMA)
        .arg("match")
        .args(args(&format!(
            "{} {} -each st=0.05 -rounds 500 -repeat -pdnout {} -results {}",
            fake("A", "random", 1, 1),
            fake("B", "random", 1, 2),
            pdn.display(),
            res.display()
        )))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the first finished game, then interrupt.
    let deadline = Instant::now() + Duration::from_secs(60);
    while std::fs::read_to_string(&pdn).map_or(true, |t| !t.contains("[Result")) {
        assert!(Instant::now() < deadline, "no game finished");
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    // A hang guard, not a speed claim: only a runner that ignored SIGINT
    // would play on for a minute.
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("tama match still running a minute after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let games = check_pdn(&pdn, Rules::default());
    assert!(!games.is_empty() && games.len() < 1000);
    let j = json(&res);
    assert_eq!(j.get("interrupted"), Some(&Json::Bool(true)));
    assert_eq!(
        j.get("games_played").and_then(Json::as_u64),
        Some(games.len() as u64)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("interrupted"));
}

/// A results file that cannot be written is an error
/// before the first game (it used to be noticed after the last one).
#[test]
fn an_unwritable_results_file_stops_the_match_before_it_starts() {
    let dir = scratch("results-dir");
    let pdn = dir.join("games.pdn");
    let out = run_match(&args(&format!(
        "{} {} -each depth=1 -rounds 1 -repeat -pdnout {} -results {}",
        fake("A", "random", 1, 1),
        fake("B", "random", 1, 2),
        pdn.display(),
        dir.join("no/such/dir/r.json").display()
    )));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot write") && err.contains("r.json"),
        "{err}"
    );
    assert!(!err.contains("[1/"), "a game was played: {err}");
    assert!(std::fs::read_to_string(&pdn).unwrap_or_default().is_empty());
    // An existing results file is left as it is by the check.
    let res = dir.join("r.json");
    std::fs::write(&res, "keep").unwrap();
    run_match_ok(&args(&format!(
        "{} {} -each depth=1 -rounds 1 -repeat -maxmoves 5 -results {}",
        fake("A", "random", 1, 1),
        fake("B", "random", 1, 2),
        res.display()
    )));
    assert!(json(&res).get("games_played").is_some());
}
