//! The lab binary over the protocol: the lab's options (`Style`,
//! `Baseline`) listed and played, the search switches from the command
//! line, the counters after a search in `debug on`.

// The product's protocol test support, which starts this package's binary.
#[path = "../../tests/protocol_support/mod.rs"]
mod support;

use std::time::Duration;
use support::{bestmove, errors, last_depth_and_nodes, uci, Engine};
use tama_engine::search::lab::Style;
use tama_protocol::options::{Effect, Settings};

#[test]
fn the_lab_build_offers_the_sparring_opponent_and_the_baseline() {
    let mut s = Settings::default();
    assert_eq!(s.set("style", Some("Sparring")), Ok(Effect::None));
    assert_eq!(s.style, Style::Sparring);
    assert_eq!(s.set("baseline", Some("on")), Ok(Effect::None));
    assert!(s.baseline);
}

#[test]
fn the_lab_options_are_offered_in_both_dialects() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    for opt in [
        "option name Baseline type check default false",
        "option name Style type combo default normal var normal var sparring",
        // The product prices a Turkish draw at 10 by default; the lab
        // keeps 0 in both variants, so that the sparring opponent and the
        // switches stay what they were measured as.
        "option name Contempt type spin default 0 min -500 max 500",
    ] {
        assert!(
            lines.iter().any(|l| l == opt),
            "missing {opt:?} in {lines:#?}"
        );
    }
    e.send("setoption name Baseline value true");
    e.send("setoption name Baseline value false");
    assert!(e.sync().is_empty());
    // Turkish too: the sparring opponent's draws stay at 0 in both variants.
    e.send("setoption name Variant value turkish");
    e.send("d");
    let shown = e.until("Game state:");
    assert!(
        shown.iter().any(|l| l == "Option Contempt: 0"),
        "{shown:#?}"
    );
    let mut e = Engine::start();
    e.send("hub");
    let lines = e.until("wait");
    for p in [
        "param name=baseline value=false type=bool",
        "param name=style value=normal type=enum values=\"normal sparring\"",
        "param name=contempt value=0 type=int min=-500 max=500",
    ] {
        assert!(lines.iter().any(|l| l == p), "missing {p:?} in {lines:#?}");
    }
}

#[test]
fn the_sparring_style_plays_through_the_protocol() {
    // A Turkish shot: the sparring search, which spends no depth on forced
    // replies, finds g3-g4 (a sacrifice that forces a5xa3xc3xc1 and
    // g4xg6xg8 after it) at depth 2 already, where the main search needs
    // many plies (depth 13 at release 0.1.0).
    let fen = "W:Wa2,c2,d2,f2,g2,h2,b3,e3,f3,g3,a4,b4,c4,d4,e4,h4:\
               Ba5,e5,g5,a6,b6,c6,d6,e6,f6,h6,a7,b7,d7,e7,g7,h7";
    let mut e = uci();
    e.send("setoption name Variant value turkish");
    e.send("setoption name Style value sparring");
    e.send(&format!("position fen {fen}"));
    e.send("go depth 3");
    let lines = e.until("bestmove");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(infos.len(), 3, "one report per iteration: {lines:?}");
    assert!(
        infos[1].starts_with("info depth 2 ") && infos[1].contains(" pv g3-g4 "),
        "{lines:?}"
    );
    assert_eq!(bestmove(lines.last().unwrap()), "g3-g4");
    // The other limits, and stop, hold for it too.
    for go in ["go nodes 2000", "go movetime 50", "go wtime 300 btime 300"] {
        e.send(go);
        let lines = e.until("bestmove");
        assert!(errors(&lines).is_empty(), "{go}: {lines:?}");
    }
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    assert!(e.sync().iter().all(|l| l.starts_with("info")));
    e.send("stop");
    e.until("bestmove");
    e.send("setoption name Style value wild");
    assert_eq!(errors(&e.sync()).len(), 1);
}

/// `tama-lab [uci|hub] --set NAME=VALUE` starts the loop with a search switch
/// changed (what measured matches between settings use): the same fixed
/// depth search then visits a different number of nodes (LMR off searches
/// more; reverse futility off, a different number); a bad switch is refused at start with
/// status 2 instead of being ignored.
#[test]
fn search_switches_from_the_command_line() {
    let nodes_at_depth_6 = |args: &[&str]| {
        let mut e = Engine::start_with(args);
        e.send("uci");
        e.until("uciok");
        e.send("go depth 6");
        let lines = e.until("bestmove ");
        let (depth, nodes) = last_depth_and_nodes(&lines);
        assert_eq!(depth, 6, "{args:?}: {lines:?}");
        nodes
    };
    let default = nodes_at_depth_6(&["uci"]);
    assert_eq!(
        nodes_at_depth_6(&["uci"]),
        default,
        "the search is deterministic"
    );
    let no_lmr = nodes_at_depth_6(&["uci", "--set", "lmr_min_move=1000"]);
    assert!(
        no_lmr > default,
        "LMR off: {no_lmr} nodes, default {default}"
    );
    // Reverse futility off changes the tree, but not always upwards: the
    // start position to depth 6 takes 12,015 nodes with both off and
    // 13,872 with LMR off alone (the tree's shape moves the table's cuts).
    // What counts here is that the second switch is seen.
    let both = nodes_at_depth_6(&["uci", "--set", "lmr_min_move=1000", "--set", "rfp_depth=0"]);
    assert_ne!(both, no_lmr, "LMR and RFP off: {both}, LMR off {no_lmr}");
    let hub_no_lmr = {
        let mut e = Engine::start_with(&["hub", "--set", "lmr_min_move=1000"]);
        e.send("hub");
        e.until("wait");
        e.send("level depth=6");
        e.send("go think");
        let lines = e.until("done");
        let (depth, nodes) = last_depth_and_nodes(&lines);
        assert_eq!(depth, 6, "{lines:?}");
        nodes
    };
    assert_eq!(hub_no_lmr, no_lmr, "tama-lab hub --set is the same switch");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tama-lab"))
        .args(["uci", "--set", "no_such_switch=1"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown tuning parameter"), "{err}");
}

/// The lab build prints the search's counters after
/// a search when `debug on` is set, and only then; their node count is
/// the search's.
#[test]
fn debug_on_prints_the_search_counters() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    assert!(
        !lines.iter().any(|l| l.starts_with("info string stats")),
        "{lines:?}"
    );
    e.send("debug on");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    let (_, nodes) = last_depth_and_nodes(&lines);
    let stats = lines
        .iter()
        .find(|l| l.starts_with("info string stats "))
        .unwrap_or_else(|| panic!("no counters: {lines:?}"));
    assert!(
        stats.starts_with(&format!("info string stats nodes {nodes} lmr_researches ")),
        "{stats}"
    );
}
