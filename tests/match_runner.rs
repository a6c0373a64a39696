//! End-to-end tests of `tama match`, with the fake engines of
//! `tests/fixtures/fake_engine.rs` (a correct random mover and one engine per
//! fault). Every game written to the PDN is read back and replayed through
//! the rules core, and must end as recorded.

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

#[test]
fn random_movers_finish_a_match_and_every_game_replays() {
    let dir = scratch("random");
    let pdn = dir.join("games.pdn");
    let res = dir.join("r.json");
    let out = run_match_ok(&args(&format!(
        "{} {} -each tc=10+0.1 -rounds 6 -repeat -concurrency 2 -maxmoves 150 \
         -openings order=random -seed 3 -pdnout {} -results {}",
        fake("A", "random", 1, 1),
        fake("B", "random", 1, 2),
        pdn.display(),
        res.display()
    )));
    let games = check_pdn(&pdn, Rules::default());
    assert_eq!(games.len(), 12);
    // Paired games: same opening, colours reversed.
    for r in 1..=6 {
        let pair: Vec<&PdnGame> = games
            .iter()
            .filter(|g| g.tag("Round").unwrap().starts_with(&format!("{r}.")))
            .collect();
        assert_eq!(pair.len(), 2);
        assert_eq!(pair[0].start, pair[1].start);
        assert_eq!(pair[0].tag("White"), pair[1].tag("Black"));
        assert_eq!(pair[0].tag("GameType"), Some("Armenian"));
    }
    let j = json(&res);
    assert_eq!(j.get("games_played").and_then(Json::as_u64), Some(12));
    let p = &j.get("pairs").unwrap().as_array().unwrap()[0];
    let penta: u64 = p
        .get("pentanomial")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Json::as_u64)
        .sum();
    assert_eq!(penta, 6);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("A vs B: 12 games"), "{stdout}");
    assert!(stdout.contains("pentanomial"), "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("[12/12]") && stderr.contains("ETA"),
        "{stderr}"
    );
}

#[test]
fn every_fault_costs_its_game_with_the_right_reason() {
    let dir = scratch("faults");
    let pdn = dir.join("games.pdn");
    let res = dir.join("r.json");
    // A gauntlet: the correct random mover against one engine per fault;
    // each fault strikes at the faulty engine's 3rd search (or at once).
    let faults = [
        ("illegal", 3, "illegal move"),
        ("crash", 3, "engine crashed"),
        ("hang", 3, "engine hangs"),
        ("garbage", 3, "garbage output"),
        ("slow", 3, "loses on time"),
        ("nobestmove", 3, "engine hangs"),
        ("error", 3, "engine error: cannot search this"),
    ];
    // The correct engine gets a roomy clock of its own (so a loaded machine
    // cannot make it lose on time); the faulty ones share a short one.
    let mut cmd = fake("Good", "random", 1, 7) + " tc=20+0.1";
    for (mode, at, _) in faults {
        cmd.push(' ');
        cmd.push_str(&fake(mode, mode, at, 5));
    }
    let out = run_match_ok(&args(&format!(
        "{cmd} -each tc=1+0.05 -tournament gauntlet -rounds 1 -repeat -concurrency 2 \
         -timemargin 100 -pdnout {} -results {}",
        pdn.display(),
        res.display()
    )));
    let games = check_pdn(&pdn, Rules::default());
    assert_eq!(games.len(), 2 * faults.len());
    for (mode, _, reason) in faults {
        let theirs: Vec<&PdnGame> = games
            .iter()
            .filter(|g| g.tag("White") == Some(mode) || g.tag("Black") == Some(mode))
            .collect();
        // Both games (as White and as Black): the engine was restarted.
        assert_eq!(theirs.len(), 2, "{mode}");
        for g in theirs {
            let white = g.tag("White") == Some(mode);
            let result = g.tag("Result").unwrap();
            assert_eq!(result, if white { "0-2" } else { "2-0" }, "{mode}");
            let why = g.tag("Termination").unwrap();
            assert!(why.contains(reason), "{mode}: {why}");
            let side = if white { "white" } else { "black" };
            assert!(why.starts_with(side), "{mode}: {why}");
        }
    }
    let j = json(&res);
    let good = &j.get("pairs").unwrap().as_array().unwrap()[0];
    assert_eq!(good.get("first").and_then(Json::as_str), Some("Good"));
    assert_eq!(good.get("wins").and_then(Json::as_u64), Some(2));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("cross-table"), "{stdout}");
}

#[test]
fn an_engine_that_cannot_play_stops_the_match_before_its_first_game() {
    let dir = scratch("cannot-play");
    let pdn = dir.join("games.pdn");
    // Each case would otherwise lose every game by forfeit (or, for an
    // option, play the whole match without the setting asked for): the
    // runner starts every engine once first and stops with exit code 2.
    let cases = [
        // Exits at once: no handshake.
        (fake("X", "nostart", 1, 5), "engine failed to start"),
        // Tama announces no such option (UCI, then Hub).
        (
            format!("-engine cmd={TAMA} name=X option.NoSuch=1"),
            "it has no option NoSuch (it announces: hash, threads",
        ),
        (
            format!("-engine cmd={TAMA} name=X proto=hub option.frobnicate=1"),
            "it has no option frobnicate",
        ),
        // An option Tama has, with a value it refuses (its error line).
        (
            format!("-engine cmd={TAMA} name=X option.Hash=0"),
            "it reported: ",
        ),
        (
            format!("-engine cmd={TAMA} name=X proto=hub option.hash=0"),
            "it reported: ",
        ),
    ];
    for (engine, reason) in cases {
        let _ = std::fs::remove_file(&pdn);
        let out = run_match(&args(&format!(
            "{} {engine} -each depth=1 -rounds 2 -pdnout {}",
            fake("Good", "random", 1, 7),
            pdn.display()
        )));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{engine}: {stderr}");
        assert!(
            stderr.contains("engine \"X\" cannot play: ") && stderr.contains(reason),
            "{engine}: {stderr}"
        );
        assert!(
            !stderr.contains("[1/2]"),
            "{engine}: a game was played: {stderr}"
        );
        let games = std::fs::read_to_string(&pdn).unwrap_or_default();
        assert!(!games.contains("[Result"), "{engine}: {games}");
    }
}

#[test]
fn hub_engines_play_against_uci_engines() {
    let dir = scratch("hub");
    let pdn = dir.join("games.pdn");
    for variant in ["armenian", "turkish"] {
        let _ = std::fs::remove_file(&pdn);
        run_match_ok(&args(&format!(
            "{} proto=hub {} -each depth=1 -rounds 2 -repeat -variant {variant} \
             -maxmoves 120 -pdnout {}",
            fake("H", "random", 1, 4),
            fake("U", "random", 1, 6),
            pdn.display()
        )));
        let rules = if variant == "turkish" {
            Rules::TURKISH
        } else {
            Rules::ARMENIAN
        };
        let games = check_pdn(&pdn, rules);
        assert_eq!(games.len(), 4);
        for g in &games {
            let why = g.tag("Termination").unwrap();
            assert!(!why.contains("engine") && !why.contains("illegal"), "{why}");
            assert!(g.moves.len() > 4);
        }
        if variant == "turkish" {
            assert_eq!(games[0].tag("GameType"), Some("30"));
        }
    }
}

#[test]
fn sprt_stops_as_soon_as_it_decides() {
    let dir = scratch("sprt");
    let res = dir.join("r.json");
    // The illegal-move engine loses every game: all pairs won, H1 after 19
    // pairs (see the SPRT unit tests), long before the 400 games planned.
    let out = run_match_ok(&args(&format!(
        "{} {} -each st=1 -rounds 200 -repeat -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 \
         -results {}",
        fake("Good", "random", 1, 1),
        fake("Bad", "illegal", 1, 1),
        res.display()
    )));
    let j = json(&res);
    let sprt = j.get("sprt").unwrap();
    assert_eq!(sprt.get("decision").and_then(Json::as_str), Some("H1"));
    let llr = sprt.get("llr").and_then(Json::as_f64).unwrap();
    assert!(llr >= sprt.get("upper").and_then(Json::as_f64).unwrap());
    let played = j.get("games_played").and_then(Json::as_u64).unwrap();
    assert!((30..=60).contains(&played), "{played} games");
    assert!(String::from_utf8_lossy(&out.stdout).contains("H1 accepted"));
}

#[test]
fn adjudication_by_agreed_scores_and_by_length() {
    let dir = scratch("adjudicate");
    let pdn = dir.join("games.pdn");
    // Far apart men: no capture is possible in the first few moves.
    let openings = dir.join("o.fen");
    std::fs::write(&openings, "W:Wa2,b2,c2:Bf7,g7,h7\n").unwrap();
    // Both engines say White is 1000 down: Black wins by resignation
    // after 3 moves of each side.
    run_match_ok(&args(&format!(
        "{} {} -each depth=1 -rounds 1 -repeat -resign movecount=3 score=500 \
         -openings file={} -pdnout {}",
        fake("X", "whitelost", 1, 1),
        fake("Y", "whitelost", 1, 2),
        openings.display(),
        pdn.display()
    )));
    let games = check_pdn(&pdn, Rules::default());
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g.tag("Result"), Some("0-2"));
        assert!(g.tag("Termination").unwrap().contains("white resigns"));
        assert_eq!(g.moves.len(), 6);
    }
    // Random movers report the material balance (0 here): a draw by
    // agreed scores after 2 moves each; a length limit of 1 move comes first.
    for (flags, reason, plies) in [
        (
            "-draw movenumber=0 movecount=2 score=0",
            "draw (both scores agree)",
            4,
        ),
        ("-maxmoves 1", "maximum game length", 2),
    ] {
        let _ = std::fs::remove_file(&pdn);
        run_match_ok(&args(&format!(
            "{} {} -each depth=1 -rounds 1 -repeat {flags} -openings file={} -pdnout {}",
            fake("X", "random", 1, 1),
            fake("Y", "random", 1, 2),
            openings.display(),
            pdn.display()
        )));
        let games = check_pdn(&pdn, Rules::default());
        assert_eq!(games.len(), 2);
        for g in &games {
            assert_eq!(g.tag("Result"), Some("1-1"));
            assert!(g.tag("Termination").unwrap().contains(reason), "{flags}");
            assert_eq!(g.moves.len(), plies, "{flags}");
        }
    }
}

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

/// Tama against itself at a fixed depth (no clock: a loaded machine must
/// not lose games on time): the match completes and every game replays
/// legally through the rules core. The runner starts tama in strict mode
/// (TAMA_STRICT), so a failing search would end a game as a fault.
#[test]
fn tama_against_itself_finishes_a_small_match() {
    let dir = scratch("self");
    let pdn = dir.join("games.pdn");
    run_match_ok(&args(&format!(
        "-engine cmd={TAMA} name=T1 -engine cmd={TAMA} name=T2 option.Hash=8 \
         -each depth=3 -rounds 3 -repeat -maxmoves 150 -pdnout {}",
        pdn.display()
    )));
    let games = check_pdn(&pdn, Rules::default());
    assert_eq!(games.len(), 6);
    for g in &games {
        let why = g.tag("Termination").unwrap();
        assert!(
            !why.contains("engine") && !why.contains("illegal") && !why.contains("time"),
            "{why}"
        );
    }
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

/// A Hub engine's `error` line costs it the game at once (not after
/// -hangtimeout, which would give "engine hangs"); a bare -sprt prints its
/// defaults and model at the start, with the time estimate.
#[test]
fn the_start_shows_sprt_defaults_and_time_and_errors_end_games() {
    let out = run_match_ok(&args(&format!(
        "{} {} -each tc=10+0.1 -rounds 2 -repeat -concurrency 2 -sprt",
        fake("A", "random", 1, 1),
        fake("B", "random", 1, 2),
    )));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("SPRT elo0=0 elo1=5 alpha=0.05 beta=0.05")
            && err.contains("pentanomial model"),
        "{err}"
    );
    // 4 games of 2 x (10 s + 60 x 0.1 s) = 32 s, two at a time: 64 s.
    assert!(
        err.contains("time estimate: about 1m04s (4 games of at most 32s each"),
        "{err}"
    );
    // The progress line: the pairs' Elo error bar beside the LLR.
    let last = err.lines().rfind(|l| l.starts_with("[4/4]")).unwrap();
    assert!(
        last.contains("(pairs) LLR") && last.contains("pentanomial"),
        "{last}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("(pentanomial model)"));
    let dir = scratch("hub-error");
    let pdn = dir.join("games.pdn");
    run_match_ok(&args(&format!(
        "{} proto=hub {} -each depth=1 -hangtimeout 5 -rounds 1 -repeat -pdnout {}",
        fake("H", "error", 2, 1),
        fake("U", "random", 1, 2),
        pdn.display()
    )));
    for g in check_pdn(&pdn, Rules::default()) {
        let why = g.tag("Termination").unwrap();
        assert!(why.contains("engine error: cannot search this"), "{why}");
    }
}

/// The engines of the shard tests: Tama itself at fixed depths (a fixed
/// depth single-threaded search is deterministic, so a game depends only
/// on its opening and colours).
fn tama_pair() -> String {
    format!(
        "-engine cmd={TAMA} name=D2 depth=2 -engine cmd={TAMA} name=D1 depth=1 \
         -each option.Hash=4 -rounds 6 -repeat -maxmoves 40 -openings order=random -seed 9"
    )
}

/// The games of a PDN file by their Round tag, without the Date tag (the
/// only one that may differ between two runs).
fn games_by_round(path: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut games: Vec<(String, String)> = text
        .split("[Event ")
        .filter(|g| !g.trim().is_empty())
        .map(|g| {
            let round = g
                .split("[Round \"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            let body: Vec<&str> = g.lines().filter(|l| !l.starts_with("[Date ")).collect();
            (round.to_string(), body.join("\n"))
        })
        .collect();
    games.sort_by_key(|(r, _)| {
        let (a, b) = r.split_once('.').unwrap();
        (a.parse::<u32>().unwrap(), b.parse::<u32>().unwrap())
    });
    games
}

/// A results file without what depends on how it was cut: the shard, the
/// schedule (whose shard count differs; a merge of whole matches has none)
/// and the order the games finished in.
fn figures(mut j: Json) -> Json {
    let o = j.as_object_mut().unwrap();
    o.remove("shard");
    o.remove("schedule");
    let games = o.get_mut("games").unwrap().as_array_mut().unwrap();
    games.sort_by_key(|g| {
        let r = g.get("round").and_then(Json::as_str).unwrap().to_string();
        let (a, b) = r.split_once('.').unwrap();
        (a.parse::<u32>().unwrap(), b.parse::<u32>().unwrap())
    });
    j
}

/// Three shards played one after the other, merged, give exactly
/// the figures and the games of the whole match played at once; a shard
/// rerun alone plays the same games; shards of another schedule, a shard
/// given twice, or a shard with a whole match are refused; a missing shard
/// is announced.
#[test]
fn shards_merge_into_exactly_the_whole_match() {
    let dir = scratch("shards");
    let whole = dir.join("whole.json");
    let whole_pdn = dir.join("whole.pdn");
    run_match_ok(&args(&format!(
        "{} -concurrency 2 -results {} -pdnout {}",
        tama_pair(),
        whole.display(),
        whole_pdn.display()
    )));
    let mut parts = Vec::new();
    let merged_pdn = dir.join("shards.pdn");
    for k in 1..=3 {
        let (res, pdn) = (
            dir.join(format!("s{k}.json")),
            dir.join(format!("s{k}.pdn")),
        );
        let out = run_match_ok(&args(&format!(
            "{} -shard {k}/3 -results {} -pdnout {}",
            tama_pair(),
            res.display(),
            pdn.display()
        )));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("2 engines, 4 games") && err.contains(&format!("(shard {k}/3")),
            "{err}"
        );
        let text = std::fs::read_to_string(&pdn).unwrap();
        let mut all = std::fs::read_to_string(&merged_pdn).unwrap_or_default();
        all.push_str(&text);
        std::fs::write(&merged_pdn, all).unwrap();
        parts.push(res);
    }
    let list = |files: &[&PathBuf]| {
        files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let merged = dir.join("merged.json");
    let sprt = "-sprt elo0=0 elo1=200 alpha=0.1 beta=0.1";
    let out = run_match_ok(&args(&format!(
        "--merge {} -results {} {sprt}",
        list(&[&parts[2], &parts[0], &parts[1]]),
        merged.display()
    )));
    let whole_sprt = dir.join("whole-sprt.json");
    let whole_out = run_match_ok(&args(&format!(
        "--merge {} -results {} {sprt}",
        whole.display(),
        whole_sprt.display()
    )));
    // The same figures (counts, Elo, pentanomial, SPRT, terminations) and
    // games; the tables alike but for the shard count.
    assert_eq!(figures(json(&merged)), figures(json(&whole_sprt)));
    assert_eq!(
        json(&merged).get("games_played").and_then(Json::as_u64),
        Some(12)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&whole_out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("pentanomial model"));
    assert_eq!(games_by_round(&merged_pdn), games_by_round(&whole_pdn));
    assert_eq!(games_by_round(&merged_pdn).len(), 12);
    // Shard 2 rerun alone: the same games.
    let again = dir.join("s2-again.json");
    run_match_ok(&args(&format!(
        "{} -shard 2/3 -results {}",
        tama_pair(),
        again.display()
    )));
    assert_eq!(figures(json(&again)), figures(json(&parts[1])));
    // Refusals, each with the reason.
    let other = dir.join("other-seed.json");
    run_match_ok(&args(&format!(
        "{} -seed 10 -shard 2/3 -maxmoves 2 -results {}",
        tama_pair().replace("-seed 9", ""),
        other.display()
    )));
    for (files, reason) in [
        (list(&[&parts[0], &other, &parts[2]]), "their seed differ"),
        (
            list(&[&parts[0], &parts[1], &again]),
            "shard 2/3 is given twice",
        ),
        (list(&[&parts[0], &whole]), "is a whole match"),
    ] {
        let out = run_match(&args(&format!("--merge {files}")));
        assert_eq!(out.status.code(), Some(2), "{files}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(reason), "{err}");
    }
    let out = run_match_ok(&args(&format!("--merge {}", list(&[&parts[0], &parts[2]]))));
    assert!(String::from_utf8_lossy(&out.stderr).contains("shards [2] are missing"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("INCOMPLETE"));
}

/// The runner killed at random moments, with SIGKILL (nothing of it runs
/// on) or SIGTERM (it stops its games, writes what it has, exits with 143),
/// each time resumed with `-resume`: every results file left is whole JSON,
/// and the match ends with exactly the counts and the PDN games of the same
/// match never stopped.
#[cfg(unix)]
#[test]
fn a_killed_match_resumes_to_exactly_the_whole_match() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;
    let dir = scratch("resume");
    let setup = format!(
        "{} {} -each depth=1 -rounds 30 -repeat -concurrency 2 -maxmoves 60",
        fake("A", "random", 1, 1),
        fake("B", "random", 1, 2)
    );
    let (whole, whole_pdn) = (dir.join("whole.json"), dir.join("whole.pdn"));
    run_match_ok(&args(&format!(
        "{setup} -results {} -pdnout {}",
        whole.display(),
        whole_pdn.display()
    )));
    let (res, pdn) = (dir.join("r.json"), dir.join("r.pdn"));
    let resume = args(&format!(
        "{setup} -results {} -pdnout {} -resume",
        res.display(),
        pdn.display()
    ));
    let mut rng = tama_engine::rng::Rng::new(29);
    let mut kills = 0;
    for i in 0..8 {
        let mut child = Command::new(TAMA)
            .arg("match")
            .args(&resume)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The header line: the signal handlers are in place. A resumed run
        // may first say which games of the PDN it dropped.
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        loop {
            line.clear();
            err.read_line(&mut line).unwrap();
            if !line.starts_with("resuming: ") {
                break;
            }
        }
        assert!(line.contains("2 engines, 60 games"), "{line}");
        let drain = std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
        // Killed once the PDN holds a growing number of games (so each run
        // plays some whatever the machine's speed), a random few
        // milliseconds after: between games, mid-game or mid-write.
        let target = 6 * (i + 1) + rng.below(4) as usize;
        while child.try_wait().unwrap().is_none()
            && std::fs::read_to_string(&pdn).map_or(0, |t| t.matches("[Event ").count()) < target
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        std::thread::sleep(Duration::from_millis(rng.below(8)));
        let term = i % 2 == 1;
        let signal = if term { "-TERM" } else { "-KILL" };
        Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        let status = child.wait().unwrap();
        drain.join().unwrap().unwrap();
        if status.success() {
            break; // the match ended before the signal
        }
        kills += 1;
        if term {
            assert_eq!(status.code(), Some(143), "{status:?}");
        } else {
            assert_eq!(status.signal(), Some(9), "{status:?}");
        }
        if !res.exists() {
            assert!(!term, "SIGTERM left no results file");
            continue;
        }
        let j = json(&res);
        assert_eq!(j["format"], "tama-match-results-1");
        assert_eq!(j["interrupted"], true);
        let played = j["games_played"].as_u64().unwrap() as usize;
        assert_eq!(j["games"].as_array().unwrap().len(), played);
        let in_pdn = games_by_round(&pdn).len();
        if term {
            assert_eq!(in_pdn, played);
        } else {
            assert!(in_pdn >= played, "{in_pdn} < {played}");
        }
    }
    assert!(kills >= 4, "the match ended after {kills} kills");
    // A SIGKILL while the PDN was being written leaves a game cut short
    // (or one the results file does not have yet): dropped, played again.
    let mut cut = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&pdn)
        .unwrap();
    std::io::Write::write_all(&mut cut, b"[Event \"cut short\"]\n[Round \"").unwrap();
    drop(cut);
    let out = run_match_ok(&resume);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("resuming: "), "{err}");
    assert!(
        err.contains("not in the results file were dropped"),
        "{err}"
    );
    assert_eq!(json(&res)["interrupted"], false);
    assert_eq!(figures(json(&res)), figures(json(&whole)));
    assert_eq!(games_by_round(&pdn), games_by_round(&whole_pdn));
    assert_eq!(check_pdn(&pdn, Rules::default()).len(), 60);
    // Resumed once more: nothing left to play, the same file.
    run_match_ok(&resume);
    assert_eq!(figures(json(&res)), figures(json(&whole)));
    // A results file of another match is refused, with what differs.
    let other = run_match(&args(&format!(
        "{} -seed 4 -results {} -resume",
        setup,
        res.display()
    )));
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("their seed differ"));
}
