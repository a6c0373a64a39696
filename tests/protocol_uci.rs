//! The UCI dialect, end to end: the release binary, one conversation per
//! documented command and error case (docs/protocol.md).

mod protocol_support;

use protocol_support::{
    assert_logged, bestmove, deepest, errors, got, last_depth_and_nodes, now_ms, read_debug_log,
    scratch_dir, sent, uci, Engine,
};
use std::time::Duration;
use tama_engine::search::skill::{FULL_STRENGTH_ELO, LEVELS, LEVEL_ELO, MAX_ELO, MIN_ELO};
use tama_engine::{Position, Rules};

/// The `Fen:` line of `d`.
fn fen(e: &mut Engine) -> String {
    e.send("d");
    let lines = e.until("Game state:");
    lines
        .iter()
        .find_map(|l| l.strip_prefix("Fen: "))
        .expect("d prints the FEN")
        .to_string()
}

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
fn go_first_is_uci_too() {
    let mut e = Engine::start();
    e.send("go depth 2");
    let lines = e.until("bestmove");
    let start = Position::startpos(Rules::default());
    assert!(start.parse_move(bestmove(lines.last().unwrap())).is_ok());
    e.send("isready");
    e.until("readyok");
}

#[test]
fn position_and_display() {
    let mut e = uci();
    e.send("position startpos moves d3-d4 d6-d5");
    e.send("d");
    let lines = e.until("Game state:");
    let text = lines.join("\n");
    assert!(text.contains(" 4 | . . . w . . . . |"), "{text}");
    assert!(text.contains(" 5 | . . . b . . . . |"), "{text}");
    assert!(text.contains("Side to move: white"), "{text}");
    assert!(
        text.contains("Rules: Variant armenian CaptureRemoval immediate MidCapturePromotion false"),
        "{text}"
    );
    assert!(text.contains("Legal moves ("), "{text}");
    assert!(text.contains("Game state: ongoing"), "{text}");
    let expected = {
        let mut g = tama_engine::Game::new(Position::startpos(Rules::default()));
        g.play_text("d3-d4").unwrap();
        g.play_text("d6-d5").unwrap();
        g.position().fen()
    };
    assert!(text.contains(&format!("Fen: {expected}")), "{text}");

    e.send("position fen W:Wd4,a2:Bd5,h7 moves d4xd6 h7-h6");
    assert_eq!(fen(&mut e), "W:Wa2,d6:Bh6");
}

#[test]
fn rejected_position_keeps_the_previous_one() {
    let mut e = uci();
    e.send("position startpos moves d3-d4");
    let before = fen(&mut e);
    for bad in [
        "position startpos moves d3-d4 d4-d5",    // White moves twice
        "position startpos moves d3-d4 zz",       // malformed move
        "position fen W:Wz9:Bh7",                 // unknown square
        "position fen W:Wa2,a2:Bh7",              // square used twice
        "position fen W:Wa8:Bh7",                 // man on its far rank
        "position fen",                           // no FEN
        "position",                               // nothing at all
        "position startpos d3-d4",                // `moves` missing
        "position fen W:WKd4:Bc5,e5 moves d4-c6", // not legal there
    ] {
        e.send(bad);
        let out = e.sync();
        assert_eq!(errors(&out).len(), 1, "{bad}: {out:?}");
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert_eq!(fen(&mut e), before, "{bad} changed the position");
    }
    e.send("position startpos moves d3-d4 d4-d5");
    let out = e.sync();
    assert!(out[0].contains("move 2"), "{out:?}");
}

#[test]
fn ambiguous_and_illegal_moves_say_why() {
    let mut e = uci();
    // A king on d4 can take c4 and e4... the short form d4xd4 is nonsense;
    // ask for an illegal quiet move and for a non-compulsory move.
    e.send("position fen W:Wd4,a2:Bd5,a7 moves a2-a3");
    let out = e.sync();
    assert!(out[0].contains("compulsory"), "{out:?}");
    e.send("position startpos moves d3-d5");
    let out = e.sync();
    assert!(out[0].contains("legal moves from d3"), "{out:?}");

    // An ambiguous short capture. White king a1, black men a2, d5, d7, f2:
    //
    //  7  . . . b . . . .     The king takes a2 and may land on a5 or a7,
    //  5  . . . b . . . .     then turns east to take d5 (landing f5) or
    //  2  b . . . . b . .     d7 (landing f7), then south to take f2 and
    //  1  W . . . . . . .     land on f1: two moves of three pieces each,
    //     a b c d e f g h     both a1 to f1, so "a1xf1" names neither.
    let amb_fen = "W:WKa1:Ba2,d5,d7,f2";
    let short = "a1xf1";
    e.send(&format!("position fen {amb_fen}"));
    let before = fen(&mut e);
    e.send(&format!("position fen {amb_fen} moves {short}"));
    let out = e.sync();
    assert_eq!(errors(&out).len(), 1, "{out:?}");
    assert!(out[0].contains("ambiguous"), "{out:?}");
    assert!(
        out[0].contains("a1xa5xf5xf1") && out[0].contains("a1xa7xf7xf1"),
        "{out:?}"
    );
    assert_eq!(fen(&mut e), before);
}

#[test]
fn go_depth_reports_and_answers_once() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert!(!infos.is_empty(), "{lines:?}");
    for i in &infos {
        for field in [
            " seldepth ",
            " multipv ",
            " score ",
            " nodes ",
            " nps ",
            " hashfull ",
            " tbhits ",
            " time ",
            " pv ",
        ] {
            assert!(i.contains(field), "{i} lacks {field}");
        }
        assert!(i.contains("score cp ") || i.contains("score mate "), "{i}");
    }
    let start = Position::startpos(Rules::default());
    assert!(start.parse_move(bestmove(lines.last().unwrap())).is_ok());
    assert!(e.sync().is_empty(), "a second bestmove?");
}

/// Each limit is kept: the depth asked is reached and not passed, the node
/// limit is not exceeded (it is exact on one thread), and the time limits
/// end the search by themselves: a limit ignored would search until `stop`,
/// and `until` gives up after `protocol_support::TIMEOUT` (a hang guard,
/// not a speed claim; the budgets are `search::limits::tests`').
#[test]
fn go_with_limits() {
    let mut e = uci();
    for go in [
        "go movetime 50",
        "go wtime 500 btime 500 winc 10 binc 10",
        "go wtime 2000 btime 2000 movestogo 5",
        "go btime 100 wtime -20",
        "go nodes 2000",
        "go depth 5",
    ] {
        e.send("position startpos");
        e.send(go);
        let lines = e.until("bestmove");
        assert!(errors(&lines).is_empty(), "{go}: {lines:?}");
        let (depth, nodes) = last_depth_and_nodes(&lines);
        if go == "go nodes 2000" {
            // The last line before bestmove has the search's totals: all
            // the nodes, also those of the unfinished iteration.
            assert_eq!(nodes, 2000, "{go}: {lines:?}");
            assert!(
                lines[lines.len() - 2].starts_with("info depth"),
                "{lines:?}"
            );
        }
        if go == "go depth 5" {
            assert_eq!(depth, 5, "{go}: {lines:?}");
        }
    }
    e.send("position startpos");
    e.send("go depth 3 searchmoves a3-a4");
    let lines = e.until("bestmove");
    assert_eq!(bestmove(lines.last().unwrap()), "a3-a4");
    assert_eq!(last_depth_and_nodes(&lines).0, 3, "{lines:?}");
    e.send("go searchmoves a3-a5");
    let out = e.sync();
    assert_eq!(errors(&out).len(), 1, "{out:?}");
}

/// `searchmoves` with one move is a question about that move: it is
/// searched to the depth asked and its score reported, not answered at
/// once; a position with one legal move still gets one `info` line.
#[test]
fn searchmoves_with_one_move_reports_its_score() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go depth 4 searchmoves h3-h4");
    let lines = e.until("bestmove");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .collect();
    assert_eq!(infos.len(), 4, "{lines:?}");
    assert!(
        infos
            .iter()
            .all(|l| l.contains(" score ") && l.contains(" pv h3-h4")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap().split(' ').nth(1), Some("h3-h4"));
    // One legal move (the forced capture d4xd6) on a minute's move time:
    // answered after one iteration, with a score.
    e.send("position fen W:Wd4:Bd5,a7");
    e.send("go movetime 60000");
    let lines = e.until("bestmove");
    assert_eq!(bestmove(lines.last().unwrap()), "d4xd6");
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .collect();
    assert_eq!(infos.len(), 1, "{lines:?}");
    assert!(
        infos[0].starts_with("info depth 1 ") && infos[0].contains(" score "),
        "{lines:?}"
    );
}

/// Absurd times mean "search until stop": nothing may answer before it.
#[test]
fn absurd_times_are_searched_until_stop() {
    let mut e = uci();
    let big = i64::MAX;
    for go in [
        format!("go wtime {big} btime {big} winc {big} binc {big} movestogo 1"),
        format!("go movetime {big}"),
    ] {
        e.send(&go);
        std::thread::sleep(Duration::from_millis(300));
        let before = e.sync();
        assert!(
            before.iter().all(|l| l.starts_with("info depth")),
            "{go}: answered before stop: {before:?}"
        );
        e.send("stop");
        let lines = e.until("bestmove");
        assert!(errors(&lines).is_empty(), "{lines:?}");
    }
}

#[test]
fn infinite_search_answers_isready_and_stops() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(50));
    let out = e.sync();
    assert!(
        out.iter().all(|l| l.starts_with("info")),
        "no bestmove before stop: {out:?}"
    );
    e.send("stop");
    let lines = e.until("bestmove");
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("bestmove")).count(),
        1
    );
    assert!(e.sync().is_empty());
}

/// A ponder search answers only after `ponderhit`, and then goes on
/// searching on its own clock (here 100 ms less the 30 ms overhead, counted
/// from the hit): the `bestmove` comes at least 50 ms after the hit (a lower
/// bound, which no slow machine can break), and still by itself (`until`
/// gives up after `protocol_support::TIMEOUT`: a hang guard).
#[test]
fn ponder_waits_for_ponderhit() {
    let mut e = uci();
    e.send("setoption name Ponder value true");
    e.send("position startpos moves d3-d4");
    e.send("go ponder movetime 100");
    std::thread::sleep(Duration::from_millis(300));
    let out = e.sync();
    assert!(
        !out.iter().any(|l| l.starts_with("bestmove")),
        "bestmove while pondering: {out:?}"
    );
    let hit = std::time::Instant::now();
    e.send("ponderhit");
    let lines = e.until("bestmove");
    let after = e.last_at.duration_since(hit);
    assert!(
        after >= Duration::from_millis(50),
        "answered {after:?} after the hit"
    );
    assert!(errors(&lines).is_empty(), "{lines:?}");
    // go ponder ended by stop.
    e.send("go ponder");
    e.send("stop");
    e.until("bestmove");
    assert!(e.sync().is_empty());
}

#[test]
fn go_twice_is_refused_and_one_bestmove_comes() {
    let mut e = uci();
    e.send("go infinite");
    e.send("go depth 1");
    let out = e.sync();
    let errs = errors(&out);
    assert_eq!(errs.len(), 1, "{out:?}");
    assert!(errs[0].contains("already running"), "{out:?}");
    e.send("stop");
    e.until("bestmove");
    e.expect_silence(Duration::from_millis(300));
    // After the answer a new go is accepted at once.
    e.send("go depth 1");
    e.until("bestmove");
}

#[test]
fn stop_and_ponderhit_without_search_are_silent() {
    let mut e = uci();
    e.send("stop");
    e.send("ponderhit");
    e.send("stop");
    assert!(e.sync().is_empty());
}

#[test]
fn game_over_answers_none_at_once() {
    let mut e = uci();
    // White has no piece left: Black has won.
    e.send("position fen W:W:Bh7");
    e.send("go infinite");
    let lines = e.until("bestmove");
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    assert!(lines[0].starts_with("info string game over"), "{lines:?}");
    e.send("d");
    let lines = e.until("Game state:");
    assert!(
        lines.last().unwrap().contains("lost for white"),
        "{lines:?}"
    );
    // Threefold repetition: two kings shuffling.
    e.send("position fen W:WKa1:BKh8 moves a1-a2 h8-h7 a2-a1 h7-h8 a1-a2 h8-h7 a2-a1 h7-h8");
    e.send("d");
    let lines = e.until("Game state:");
    assert!(lines.last().unwrap().contains("threefold"), "{lines:?}");
    e.send("go depth 3");
    assert_eq!(e.until("bestmove").last().unwrap(), "bestmove (none)");
}

/// The score of the last `info depth` line before `bestmove`, and the move.
fn score_and_move(lines: &[String]) -> (String, String) {
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    let mut t = info.split_whitespace();
    t.find(|&w| w == "score").expect("a score");
    let score = format!("{} {}", t.next().unwrap(), t.next().unwrap());
    (score, bestmove(lines.last().unwrap()).to_string())
}

#[test]
fn contempt_prices_a_repetition_except_in_analysis() {
    // White's lone king against two kings is lost on material; after the
    // shuffle, a1-a2 repeats a position of the game: a draw, which White
    // takes, scored -Contempt for White (the engine's side), +Contempt
    // when the option is negative, 0 with UCI_AnalyseMode on.
    let mut e = uci();
    let position = "position fen W:WKa1:BKh8,Kg8 moves a1-a2 h8-h7 a2-a1 h7-h8";
    for (setting, score) in [
        ("setoption name Contempt value 40", "cp -40"),
        ("setoption name Contempt value -40", "cp 40"),
        ("setoption name UCI_AnalyseMode value true", "cp 0"),
        ("setoption name UCI_AnalyseMode value false", "cp 40"),
        ("setoption name Contempt value 0", "cp 0"),
    ] {
        e.send(setting);
        // Stored draws were priced by the previous setting.
        e.send("setoption name Clear Hash");
        e.send(position);
        assert!(e.sync().is_empty(), "{setting}");
        e.send("go depth 6");
        let lines = e.until("bestmove");
        let got = score_and_move(&lines);
        assert_eq!(got, (score.to_string(), "a1-a2".to_string()), "{setting}");
    }
    // Out of range: refused with the range, the value kept.
    e.send("setoption name Contempt value 40");
    e.send("setoption name Contempt value 9999");
    let out = e.sync();
    assert_eq!(errors(&out).len(), 1, "{out:?}");
    assert!(
        out[0].contains("Contempt") && out[0].contains("-500 to 500"),
        "{out:?}"
    );
    e.send("setoption name Clear Hash");
    e.send(position);
    e.send("go depth 6");
    let lines = e.until("bestmove");
    assert_eq!(score_and_move(&lines).0, "cp -40");
}

#[test]
fn go_mate_stops_on_its_own_with_the_win() {
    // Either white man takes Black's last piece (d4xd6 up, c5xe5 sideways):
    // a win in one move, so `go mate 1` must answer without `stop`.
    // `go mate 0` asks for nothing.
    let mut e = uci();
    e.send("position fen W:Wd4,c5:Bd5");
    e.send("go mate 1");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
    let best = bestmove(lines.last().unwrap());
    assert!(best == "d4xd6" || best == "c5xe5", "{lines:?}");
    e.send("go mate 0");
    assert_eq!(errors(&e.sync()).len(), 1);
}

#[test]
fn mate_scores_are_reported_as_mate() {
    let mut e = uci();
    // White's only move takes Black's last piece: a win in one move.
    e.send("position fen W:Wd4:Bd5");
    e.send("go infinite");
    let first = e.until("info depth");
    assert!(first.last().unwrap().contains("score mate 1"), "{first:?}");
    e.send("stop");
    let lines = e.until("bestmove");
    assert_eq!(bestmove(lines.last().unwrap()), "d4xd6");
}

#[test]
fn perft_divides() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.until("Nodes searched:");
    let total: u64 = lines.last().unwrap()["Nodes searched: ".len()..]
        .parse()
        .unwrap();
    let sum: u64 = lines[..lines.len() - 1]
        .iter()
        .map(|l| l.rsplit(": ").next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, total);
    let start = Position::startpos(Rules::default());
    assert_eq!(total, tama_engine::perft::perft(&start, 3));
    assert_eq!(
        lines.len() - 1,
        tama_engine::movegen::legal_moves(&start).len()
    );
    e.send("go perft x");
    assert_eq!(errors(&e.sync()).len(), 1);
}

#[test]
fn eval_and_bench() {
    let mut e = uci();
    e.send("position startpos");
    e.send("eval");
    let lines = e.until("total");
    assert!(lines.iter().any(|l| l.starts_with("material")), "{lines:?}");
    e.send("bench 1");
    let lines = e.read_until("the nodes/nps line", |l| {
        l.ends_with(" nps") && l.split(' ').count() == 4
    });
    let parts: Vec<&str> = lines.last().unwrap().split(' ').collect();
    assert!(
        parts[0].parse::<u64>().is_ok() && parts[1] == "nodes",
        "{lines:?}"
    );
    assert!(
        parts[2].parse::<u64>().is_ok() && parts[3] == "nps",
        "{lines:?}"
    );
}

/// `bench DEPTH`'s node count per position: `(variant, nodes)`.
fn bench_nodes(e: &mut Engine, depth: u32) -> Vec<(String, u64)> {
    e.send(&format!("bench {depth}"));
    let lines = e.read_until("the nodes/nps line", |l| {
        l.ends_with(" nps") && l.split(' ').count() == 4
    });
    lines
        .iter()
        .filter(|l| l.starts_with("position "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(w[3], "nodes", "{l}");
            (w[2].to_string(), w[4].parse().unwrap())
        })
        .collect()
}

#[test]
fn bench_searches_with_the_eval_file_weights() {
    // An Armenian set replaces the Armenian weights only, so between the
    // hand and the learned Armenian sets the Armenian positions' trees
    // change (the evaluations score them otherwise) and the Turkish
    // positions' trees stay node for node.
    let mut e = uci();
    e.send("setoption name EvalFile value builtin:armenian-hand");
    e.sync();
    let hand = bench_nodes(&mut e, 4);
    e.send("setoption name EvalFile value builtin:armenian-learned");
    e.sync();
    let learned = bench_nodes(&mut e, 4);
    assert_eq!(hand.len(), learned.len());
    let mut changed = 0;
    for ((variant, h), (v, l)) in hand.iter().zip(&learned) {
        assert_eq!(variant, v);
        match variant.as_str() {
            "turkish" => assert_eq!(h, l, "a Turkish tree changed"),
            _ => changed += usize::from(h != l),
        }
    }
    assert!(changed >= 5, "{hand:?}\n{learned:?}");
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

#[test]
fn rule_change_keeps_a_game_that_stays_legal() {
    let mut e = uci();
    e.send("position startpos moves d3-d4 d6-d5");
    let before = fen(&mut e);
    e.send("setoption name Variant value turkish");
    assert!(e.sync().is_empty());
    assert_eq!(fen(&mut e), before);
    // A diagonal step is not Turkish: the game restarts from the start.
    e.send("setoption name Variant value armenian");
    e.send("position startpos moves c3-d4");
    e.send("setoption name Variant value turkish");
    let out = e.sync();
    assert!(out[0].contains("reset"), "{out:?}");
    assert_eq!(fen(&mut e), Position::startpos(Rules::TURKISH).fen());
}

#[test]
fn ucinewgame_debug_register() {
    let mut e = uci();
    e.send("position startpos moves d3-d4");
    e.send("ucinewgame");
    e.send("debug on");
    e.send("debug off");
    e.send("register later");
    assert!(e.sync().is_empty());
    assert_eq!(fen(&mut e), Position::startpos(Rules::default()).fen());
}

#[test]
fn unknown_and_malformed_commands() {
    let mut e = uci();
    for bad in [
        "hello",
        "go fast",
        "go depth",
        "go depth -1",
        "isready now",
        "bench 0",
        "debug maybe",
        "hub",
    ] {
        e.send(bad);
        let out = e.sync();
        assert_eq!(errors(&out).len(), 1, "{bad}: {out:?}");
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
    }
}

#[test]
fn blank_lines_spaces_crlf_and_bad_bytes() {
    let mut e = Engine::start();
    e.send_raw(b"\n\r\n   \n\t\nuci\r\n");
    e.until("uciok");
    e.send_raw(b"  position   startpos  moves   d3-d4 \r\n");
    e.send_raw(b"\xff\xfe\x00garbage\n");
    let out = e.sync();
    assert_eq!(errors(&out).len(), 1, "{out:?}");
    let f = fen(&mut e);
    assert!(f.starts_with("B:"), "{f}");
    e.send_raw(b"go depth 1\r\n");
    e.until("bestmove");
}

#[test]
fn megabyte_lines() {
    let mut e = uci();
    // A megabyte of one move repeated: rejected at the second move.
    let mut line = String::from("position startpos moves");
    while line.len() < 1 << 20 {
        line.push_str(" d3-d4");
    }
    e.send(&line);
    let out = e.sync();
    assert_eq!(errors(&out).len(), 1);
    assert!(out[0].len() < 1000, "error messages stay short");
    // A megabyte of legal king moves is accepted.
    let mut line = String::from("position fen W:WKa1:BKh8 moves");
    while line.len() < 1 << 20 {
        line.push_str(" a1-a2 h8-h7 a2-a1 h7-h8");
    }
    e.send(&line);
    assert!(e.sync().is_empty());
    // A megabyte of junk.
    let junk = "x".repeat(1 << 20);
    e.send(&junk);
    assert_eq!(errors(&e.sync()).len(), 1);
}

#[test]
fn end_of_input_during_search_prints_the_bestmove_and_exits_0() {
    let mut e = uci();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(30));
    let (status, rest) = e.close();
    assert!(status.success());
    assert_eq!(
        rest.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{rest:?}"
    );
}

#[test]
fn quit_during_search_exits_0() {
    let mut e = uci();
    e.send("go infinite");
    e.send("quit");
    let (status, rest) = e.close();
    assert!(status.success());
    assert_eq!(rest.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
}

#[test]
fn command_line_help_and_version() {
    let exe = env!("CARGO_BIN_EXE_tama");
    let out = std::process::Command::new(exe)
        .arg("--help")
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("usage") && text.contains("perft"), "{text}");
    let out = std::process::Command::new(exe)
        .arg("--version")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("tama "));
    let out = std::process::Command::new(exe)
        .arg("--frobnicate")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = std::process::Command::new(exe)
        .args(["perft", "2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Nodes searched: "));
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

/// A search that fails (here broken on purpose: the product's protocol
/// loop in the test fixture `tama-fake-engine inject`) is never papered over: an error line, a count
/// in `d`; without strict mode the first legal move is played, in strict
/// mode (`TAMA_STRICT=1`, what every other test runs with) the process
/// ends with status 3 and no `bestmove`.
#[test]
fn failing_search_is_reported_counted_and_fatal_when_strict() {
    for (fault, says) in [
        (
            "panic",
            "info string error: the search failed (injected fault",
        ),
        (
            "illegal",
            "info string error: the search answered an illegal move",
        ),
    ] {
        let mut e = Engine::start_injected(fault, &["uci"], &[("TAMA_STRICT", "0")]);
        e.send("position startpos");
        e.send("go depth 2");
        let lines = e.until("bestmove");
        let err = lines
            .iter()
            .find(|l| l.starts_with("info string error: "))
            .unwrap_or_else(|| panic!("{fault}: no error line: {lines:?}"));
        assert!(err.starts_with(says), "{fault}: {err}");
        assert!(
            err.ends_with("; playing the first legal move, a3-a4"),
            "{fault}: {err}"
        );
        assert_eq!(lines.last().unwrap(), "bestmove a3-a4", "{fault}");
        e.send("go depth 1");
        e.until("bestmove");
        e.send("d");
        let d = e.until("Game state:");
        assert!(
            d.iter().any(|l| l.starts_with("Search faults: 2 ")),
            "{fault}: {d:?}"
        );

        let mut e = Engine::start_injected(fault, &["uci"], &[]);
        e.send("go depth 2");
        let mut lines = Vec::new();
        while let Some(l) = e.recv_timeout(protocol_support::TIMEOUT) {
            lines.push(l);
        }
        assert!(
            lines.iter().all(|l| !l.starts_with("bestmove")),
            "{fault}: {lines:?}"
        );
        let err = lines
            .last()
            .unwrap_or_else(|| panic!("{fault}: nothing printed"));
        assert!(err.starts_with(says), "{fault}: {err}");
        assert!(
            err.ends_with("strict mode (TAMA_STRICT): exiting with status 3"),
            "{err}"
        );
        // It ends by itself, its input still open.
        let deadline = std::time::Instant::now() + protocol_support::TIMEOUT;
        while e.is_running() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert!(!e.is_running(), "{fault}: still running after the error");
        let (status, _) = e.close();
        assert_eq!(status.code(), Some(3), "{fault}");
    }
    // `tama` itself has no fault switch: the variable the test builds once
    // read breaks nothing in the binary that ships, and the count stays 0.
    let mut e = Engine::start_env(&["uci"], &[("TAMA_INJECT_FAULT", "panic")]);
    e.send("go depth 2");
    let lines = e.until("bestmove");
    assert_eq!(errors(&lines), Vec::<&String>::new());
    e.send("d");
    let d = e.until("Game state:");
    assert!(
        d.iter().any(|l| l.starts_with("Search faults: 0 ")),
        "{d:?}"
    );
}

/// The `total` line of `eval`.
fn eval_total(e: &mut Engine) -> String {
    e.send("eval");
    e.until("total (white's view)").pop().unwrap()
}

/// The score of the last `info` line of a depth-3 search of the start.
fn search_score(e: &mut Engine) -> String {
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    let info = lines.iter().rev().find(|l| l.contains(" score ")).unwrap();
    info.split(" score ")
        .nth(1)
        .unwrap()
        .split(" nodes")
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn eval_file_selects_a_built_in_set_by_name() {
    // builtin:armenian-learned (engine/data/weights/) and
    // builtin:armenian-hand (the hand-set weights of 0.1.0) are in the
    // binary: each replaces the Armenian set (the learned one shows its
    // pattern row, the hand one none; the scores differ) and leaves the
    // Turkish one as it was. An unknown name is refused, naming the
    // built-in sets, and changes nothing; <builtin> goes back to the
    // default, which is one of the two.
    let mut e = uci();
    e.send("setoption name Variant value turkish");
    let turkish = eval_total(&mut e);
    e.send("setoption name Variant value armenian");
    e.send("position fen W:Wa3,c4,d2,Kf5:Bb6,e6,g7,h5");
    let default = eval_total(&mut e);
    let mut totals = Vec::new();
    for (name, model, pattern_row) in [("learned", "patterns", true), ("hand", "hand", false)] {
        e.send(&format!(
            "setoption name EvalFile value builtin:armenian-{name}"
        ));
        assert_eq!(
            e.sync(),
            [format!(
                "info string EvalFile: armenian {model} weights loaded from builtin:armenian-{name}"
            )]
        );
        e.send("eval");
        let rows = e.until("total (white's view)");
        let shown = rows.iter().any(|l| l.starts_with("patterns "));
        assert_eq!(shown, pattern_row, "{rows:?}");
        totals.push(rows.last().unwrap().clone());
    }
    assert_ne!(totals[0], totals[1]);
    assert!(totals.contains(&default), "{default} {totals:?}");
    e.send("setoption name EvalFile value builtin:no-such-set");
    let out = e.sync();
    assert_eq!(errors(&out).len(), 1, "{out:?}");
    assert!(
        out[0].contains("armenian-learned")
            && out[0].contains("turkish-hand")
            && out[0].contains("the weights in use are kept"),
        "{out:?}"
    );
    assert_eq!(eval_total(&mut e), totals[1]);
    e.send("setoption name Variant value turkish");
    e.send("position startpos");
    assert_eq!(eval_total(&mut e), turkish);
    e.send("setoption name EvalFile value <builtin>");
    e.send("setoption name Variant value armenian");
    e.send("position fen W:Wa3,c4,d2,Kf5:Bb6,e6,g7,h5");
    assert_eq!(eval_total(&mut e), default);
}

#[test]
fn eval_file_loads_a_set_and_a_bad_file_changes_nothing() {
    use tama_engine::eval::{file, VariantWeights};
    use tama_engine::Variant;
    let dir = std::env::temp_dir().join(format!("tama-uci-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The built-in set with a tempo term of 50 centi-men: the start
    // position (balanced but for the side to move) scores 50.
    let mut set = VariantWeights::hand_set(Variant::Armenian);
    let tempo = tama_engine::eval::hand::term_index("tempo").unwrap();
    set.hand[tempo] = 50 * tama_engine::eval::hand::ONE;
    let good = dir.join("tempo50.tew");
    std::fs::write(&good, file::encode(&set)).unwrap();
    let bytes = file::encode(&set);
    let damaged = dir.join("damaged.tew");
    std::fs::write(&damaged, &bytes[..bytes.len() - 1]).unwrap();

    let mut e = uci();
    let builtin = eval_total(&mut e);
    let builtin_score = search_score(&mut e);
    assert!(!builtin.ends_with("side to move 50"), "{builtin}");
    e.send(&format!("setoption name EvalFile value {}", good.display()));
    let out = e.sync();
    assert!(
        out == [format!(
            "info string EvalFile: armenian hand weights loaded from {}",
            good.display()
        )],
        "{out:?}"
    );
    let loaded = eval_total(&mut e);
    // The search uses it too (three plies on, the tempo of the side to
    // move counts against the root side: 50 instead of the built-in 8).
    e.send("ucinewgame");
    assert_ne!(
        search_score(&mut e),
        builtin_score,
        "the search ignored EvalFile"
    );
    assert!(loaded.ends_with("side to move 50"), "{loaded}");
    for bad in [
        damaged.display().to_string(),
        dir.join("missing.tew").display().to_string(),
        "Cargo.toml".to_string(),
    ] {
        e.send(&format!("setoption name EvalFile value {bad}"));
        let out = e.sync();
        assert_eq!(errors(&out).len(), 1, "{bad}: {out:?}");
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert_eq!(eval_total(&mut e), loaded, "{bad} changed the weights");
    }
    e.send("setoption name EvalFile value <builtin>");
    assert!(e.sync().is_empty());
    assert_eq!(eval_total(&mut e), builtin);
    e.send("ucinewgame");
    assert_eq!(search_score(&mut e), builtin_score);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn debug_log_file_records_a_session_in_order_and_a_second_one_appends() {
    let dir = scratch_dir("tama-uci", "log");
    let path = dir.join("engine.log");
    let set = format!("setoption name Debug Log File value {}", path.display());

    let from = now_ms();
    let mut e = Engine::start();
    e.send(&set);
    e.send("uci");
    let intro = e.until("uciok");
    assert!(
        intro.contains(&"option name Debug Log File type string default <empty>".to_string()),
        "{intro:?}"
    );
    e.send("isready");
    e.until("readyok");
    e.send("position startpos moves d3-d4");
    e.send("go depth 3");
    let search = e.until("bestmove");
    let (_, status) = e.quit();
    assert!(status.success());
    let to = now_ms();

    let mut expected = vec![got("uci")];
    expected.extend(sent(&intro));
    expected.extend([
        got("isready"),
        ("<<", "readyok".to_string()),
        got("position startpos moves d3-d4"),
        got("go depth 3"),
    ]);
    expected.extend(sent(&search));
    expected.push(got("quit"));
    assert!(search.len() >= 4, "{search:?}");
    let first = read_debug_log(&path);
    assert_logged(&first, &expected, from, to);

    // A second engine appends to the file.
    let mut e = Engine::start();
    e.send(&set);
    e.send("isready");
    e.until("readyok");
    let (_, status) = e.quit();
    assert!(status.success());
    let both = read_debug_log(&path);
    assert_eq!(
        both[..first.len()],
        first[..],
        "the first session's lines changed"
    );
    assert_logged(
        &both[first.len()..],
        &[got("isready"), ("<<", "readyok".to_string()), got("quit")],
        from,
        now_ms(),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn debug_log_file_moves_to_another_file_and_an_empty_value_closes_it() {
    let dir = scratch_dir("tama-uci", "log-switch");
    let (a, b) = (dir.join("a.log"), dir.join("b.log"));
    let from = now_ms();
    let mut e = uci();
    let to_a = format!("setoption name Debug Log File value {}", a.display());
    let to_b = format!("setoption name Debug Log File value {}", b.display());
    e.send(&to_a);
    assert!(e.sync().is_empty());
    e.send(&to_b);
    assert!(e.sync().is_empty());
    for off in [
        "setoption name Debug Log File value",
        "setoption name Debug Log File value <empty>",
        "setoption name debug-log-file",
    ] {
        e.send(off);
        assert!(e.sync().is_empty(), "{off}");
        e.send("d");
        let text = e.until("Game state:");
        assert!(
            text.contains(&"Option Debug Log File: ".to_string()),
            "{off}: {text:?}"
        );
        e.send(&to_b);
        assert!(e.sync().is_empty());
    }
    e.send("setoption name Debug Log File value <empty>");
    e.send("d");
    e.until("Game state:");
    let to = now_ms();
    assert_logged(
        &read_debug_log(&a),
        &[got("isready"), ("<<", "readyok".to_string()), got(&to_b)],
        from,
        to,
    );
    // b.log: opened four times, each time logging up to the line that
    // closed it.
    let log = read_debug_log(&b);
    let starts: Vec<usize> = (0..log.len()).filter(|&i| log[i].dir == "--").collect();
    assert_eq!(starts.len(), 4, "{log:#?}");
    let closing = [
        "setoption name Debug Log File value",
        "setoption name Debug Log File value <empty>",
        "setoption name debug-log-file",
        "setoption name Debug Log File value <empty>",
    ];
    for (k, off) in closing.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(log.len());
        let want = [got("isready"), ("<<", "readyok".to_string()), got(off)];
        assert_logged(&log[starts[k]..end], &want, from, to);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unopenable_debug_log_file_is_an_error_and_the_engine_goes_on() {
    let dir = scratch_dir("tama-uci", "log-bad");
    let file = dir.join("plain-file");
    std::fs::write(&file, "not a directory").unwrap();
    let mut bad = vec![
        dir.join("missing").join("x.log"), // no such directory
        dir.clone(),                       // a directory
        file.join("x.log"),                // under a file
    ];
    if cfg!(target_os = "linux") {
        bad.push("/dev/full".into()); // opens, but nothing can be written
    }
    let mut e = uci();
    for path in &bad {
        e.send(&format!(
            "setoption name Debug Log File value {}",
            path.display()
        ));
        let out = e.sync();
        let want = format!(
            "info string error: Debug Log File {}: cannot append to it: ",
            path.display()
        );
        assert!(
            out.len() == 1 && out[0].starts_with(&want) && out[0].ends_with("; logging is off"),
            "{}: {out:?}",
            path.display()
        );
    }
    e.send("d");
    let text = e.until("Game state:");
    assert!(
        text.contains(&"Option Debug Log File: ".to_string()),
        "{text:?}"
    );
    e.send("go depth 3");
    e.until("bestmove");

    // With a log open, a bad file keeps it.
    let good = dir.join("good.log");
    e.send(&format!(
        "setoption name Debug Log File value {}",
        good.display()
    ));
    assert!(e.sync().is_empty());
    e.send(&format!(
        "setoption name Debug Log File value {}",
        bad[0].display()
    ));
    let out = e.sync();
    assert!(
        out.len() == 1 && out[0].ends_with(&format!("; still logging to {}", good.display())),
        "{out:?}"
    );
    e.send("go depth 2");
    let search = e.until("bestmove");
    let (_, status) = e.quit();
    assert!(status.success());
    let log = read_debug_log(&good);
    let texts: Vec<&str> = log.iter().map(|l| l.text.as_str()).collect();
    assert!(texts.contains(&out[0].as_str()), "{texts:#?}");
    assert!(
        texts.contains(&search.last().unwrap().as_str()),
        "{texts:#?}"
    );
    assert!(!bad[0].exists() && !bad[2].exists());
    let _ = std::fs::remove_dir_all(&dir);
}
