//! Matches played to the end: every game replays, every fault and
//! adjudication costs its game for the right reason, the two dialects meet,
//! SPRT stops when it decides.

use crate::{args, check_pdn, fake, json, run_match, run_match_ok, scratch, TAMA};
use serde_json::Value as Json;
use tama_engine::notation::pdn::PdnGame;
use tama_engine::Rules;

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
