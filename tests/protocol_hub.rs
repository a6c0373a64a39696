//! The Hub dialect, end to end: the release binary, one conversation per
//! documented command and error case (docs/protocol.md).

mod protocol_support;

use protocol_support::{
    assert_logged, deepest, errors, got, last_depth_and_nodes, now_ms, read_debug_log, scratch_dir,
    sent, Engine,
};
use std::time::Duration;
use tama_engine::search::skill::{FULL_STRENGTH_ELO, LEVELS, LEVEL_ELO, MAX_ELO, MIN_ELO};
use tama_engine::{notation, Game, Position, Rules};
use tama_protocol::hub;

const START: &str = "Weeeeeeeebbbbbbbbbbbbbbbbeeeeeeeeeeeeeeeewwwwwwwwwwwwwwwweeeeeeee";

fn hub_engine(variant: &str) -> Engine {
    let mut e = Engine::start();
    e.send("hub");
    e.until("wait");
    e.send(&format!("set-param name=variant value={variant}"));
    e.send("init");
    let lines = e.until("ready");
    assert_eq!(lines, vec!["ready"], "set-param prints nothing");
    e
}

/// `ping` -> `pong`, returning what came before.
fn sync(e: &mut Engine) -> Vec<String> {
    e.send("ping");
    let mut got = e.read_until("pong", |l| l == "pong");
    got.pop();
    got
}

fn done_move(line: &str) -> &str {
    line.split_whitespace()
        .find_map(|t| t.strip_prefix("move="))
        .expect("done move=")
}

#[test]
fn handshake() {
    let mut e = Engine::start();
    e.send("hub");
    let lines = e.until("wait");
    assert!(lines[0].starts_with("id name=Tama version="), "{lines:?}");
    for p in [
        "param name=variant value=armenian type=enum values=\"armenian turkish\"",
        "param name=capture-removal value=immediate type=enum values=\"immediate deferred\"",
        "param name=mid-capture-promotion value=false type=bool",
        "param name=hash value=64 type=int min=1 max=65536",
        "param name=threads value=1 type=int min=1 max=256",
        "param name=ponder value=false type=bool",
        "param name=move-overhead value=30 type=int min=0 max=5000",
        "param name=evalfile value=<builtin> type=string",
        "param name=contempt value=0 type=int min=-500 max=500",
        "param name=debug-log-file value=\"\" type=string",
        "param name=skill-level value=9 type=int min=0 max=9",
        "param name=limit-strength value=false type=bool",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(p)),
            "missing {p:?} in {lines:#?}"
        );
    }
    let elo = format!("param name=elo value={MIN_ELO} type=int min={MIN_ELO} max={MAX_ELO}");
    assert!(lines.contains(&elo), "missing {elo:?} in {lines:#?}");
    // Every token of id/param is name=value (pydraughts splits on '=').
    for l in &lines[..lines.len() - 1] {
        let t = notation::hub::tokenize(l).unwrap();
        assert!(t.args.iter().all(|(_, v)| v.is_some()), "{l}");
    }
    e.send("init");
    e.until("ready");
    let (status, _) = e.close();
    assert!(status.success());
}

#[test]
fn contempt_prices_a_repetition_except_in_go_analyze() {
    // White's lone king against two kings (lost on material); after the
    // shuffle a1-a2 repeats a position of the game: a draw, which White
    // takes, scored -contempt for the engine's side when it thinks, 0 when
    // it analyses.
    let start = Position::from_fen("W:WKa1:BKh8,Kg8", Rules::ARMENIAN).unwrap();
    let mut p = start;
    let mut moves = Vec::new();
    for m in ["a1-a2", "h8-h7", "a2-a1", "h7-h8"] {
        let mv = p.parse_move(m).unwrap();
        moves.push(notation::hub::move_text(&mv));
        p = p.play(&mv);
    }
    let pos = format!(
        "pos pos={} moves=\"{}\"",
        notation::hub::encode_position(&start),
        moves.join(" ")
    );
    let score_of = |info: &str| {
        let t = notation::hub::tokenize(info).unwrap();
        let s = t.args.iter().find(|(k, _)| k == "score").unwrap();
        s.1.clone().unwrap()
    };
    let mut e = hub_engine("armenian");
    e.send("set-param name=contempt value=40");
    e.send(&pos);
    e.send("level depth=6");
    e.send("go think");
    let lines = e.until("done");
    let last = lines.iter().rev().find(|l| l.starts_with("info")).unwrap();
    assert_eq!(score_of(last), "-0.40", "{lines:?}");
    assert_eq!(done_move(lines.last().unwrap()), moves[0]);
    e.send("new-game"); // a fresh table: stored draws carry the contempt
    e.send(&pos);
    e.send("go analyze");
    let lines = e.read_until("info depth=6", |l| l.starts_with("info depth=6 "));
    assert_eq!(score_of(lines.last().unwrap()), "0.00", "{lines:?}");
    e.send("stop");
    e.until("done");
    for bad in [
        "set-param name=contempt value=501",
        "set-param name=contempt value=x",
    ] {
        e.send(bad);
        let out = sync(&mut e);
        assert_eq!(errors(&out).len(), 1, "{bad}: {out:?}");
    }
}

#[test]
fn think_from_a_pydraughts_position() {
    let mut e = hub_engine("turkish");
    let moves = "22-30 41-33 20-28";
    e.send(&format!("pos pos={START} moves=\"{moves}\""));
    e.send("level move-time=0.05");
    e.send("go think");
    let lines = e.until("done");
    for i in lines.iter().filter(|l| l.starts_with("info")) {
        let t = notation::hub::tokenize(i).unwrap();
        assert!(t.args.iter().all(|(_, v)| v.is_some()), "{i}");
        let depth = t.args.iter().find(|(k, _)| k == "depth").unwrap();
        assert!(depth.1.as_ref().unwrap().parse::<u32>().is_ok(), "{i}");
    }
    let mv: Vec<String> = moves.split(' ').map(String::from).collect();
    let game = hub::build_game(Rules::TURKISH, Some(START), &mv).unwrap();
    let best = done_move(lines.last().unwrap());
    assert!(
        notation::hub::parse_move(game.position(), best).is_ok(),
        "{best}"
    );
    assert!(sync(&mut e).is_empty());
}

/// Every `level` is kept: the depth is reached and not passed, the node
/// limit not exceeded (exact on one thread), and the timed levels end the
/// search by themselves: an ignored limit would search until `stop`, and
/// `until` gives up after `protocol_support::TIMEOUT` (a hang guard, not a
/// speed claim).
#[test]
fn every_level() {
    let mut e = hub_engine("turkish");
    for level in [
        "level move-time=0.05",
        "level depth=4",
        "level nodes=1000",
        "level time=1 inc=0.1",
        "level moves=40 time=2 inc=0.5",
        "level moves=40 time=2",
        "level time=59.977855353999985",
        "level time=-0.5 inc=1",
        "level time=1e-05",
    ] {
        e.send(&format!("pos pos={START}"));
        e.send(level);
        e.send("go think");
        let lines = e.until("done");
        assert!(errors(&lines).is_empty(), "{level}: {lines:?}");
        let start = tama_engine::Position::startpos(Rules::TURKISH);
        assert!(notation::hub::parse_move(&start, done_move(lines.last().unwrap())).is_ok());
        let (depth, nodes) = last_depth_and_nodes(&lines);
        match level {
            "level depth=4" => assert_eq!(depth, 4, "{lines:?}"),
            // The last info has the search's totals (see protocol_uci/search.rs).
            "level nodes=1000" => assert_eq!(nodes, 1000, "{lines:?}"),
            _ => {}
        }
    }
}

#[test]
fn skill_level_and_limit_strength_cap_the_search() {
    let mut e = hub_engine("turkish");
    let start = Position::startpos(Rules::TURKISH);
    // `level depth=8`, searched as deep as the skill allows.
    let depth_of = |e: &mut Engine, setting: &str| {
        e.send(setting);
        assert!(sync(e).is_empty(), "{setting}");
        e.send(&format!("pos pos={START}"));
        e.send("level depth=8");
        e.send("go think");
        let lines = e.until("done");
        assert!(errors(&lines).is_empty(), "{setting}: {lines:?}");
        assert!(notation::hub::parse_move(&start, done_move(lines.last().unwrap())).is_ok());
        deepest(&lines)
    };
    assert_eq!(
        depth_of(&mut e, "set-param name=skill-level value=0"),
        LEVELS[0].depth
    );
    assert_eq!(
        depth_of(&mut e, "set-param name=skill-level value=5"),
        LEVELS[5].depth
    );
    assert_eq!(depth_of(&mut e, "set-param name=skill-level value=9"), 8);
    let fifth = FULL_STRENGTH_ELO + LEVEL_ELO[5];
    assert_eq!(
        depth_of(&mut e, &format!("set-param name=elo value={fifth}")),
        8
    );
    assert_eq!(
        depth_of(&mut e, "set-param name=limit-strength value=true"),
        LEVELS[5].depth
    );
    let weakest = format!("set-param name=elo value={MIN_ELO}");
    assert_eq!(depth_of(&mut e, &weakest), LEVELS[0].depth);
    assert_eq!(
        depth_of(&mut e, "set-param name=limit-strength value=false"),
        8
    );
    for bad in [
        "set-param name=skill-level value=10".to_string(),
        format!("set-param name=elo value={}", MAX_ELO + 1),
        "set-param name=limit-strength value=perhaps".to_string(),
    ] {
        e.send(&bad);
        assert_eq!(errors(&sync(&mut e)).len(), 1, "{bad}");
    }
}

/// Absurd levels mean "search until stop": nothing may answer before it.
#[test]
fn absurd_levels_search_until_stop() {
    let mut e = hub_engine("turkish");
    for level in [
        "level time=1e300 inc=1e300 moves=1",
        "level move-time=1e308",
        "level infinite",
    ] {
        e.send("pos start");
        e.send(level);
        e.send("go think");
        std::thread::sleep(Duration::from_millis(300));
        let before = sync(&mut e);
        assert!(
            before.iter().all(|l| l.starts_with("info depth=")),
            "{level}: answered before stop: {before:?}"
        );
        e.send("stop");
        let lines = e.until("done");
        assert!(errors(&lines).is_empty(), "{level}: {lines:?}");
    }
}

#[test]
fn analyze_and_ping_during_search() {
    let mut e = hub_engine("turkish");
    e.send("pos start");
    e.send("go analyze");
    std::thread::sleep(Duration::from_millis(30));
    let out = sync(&mut e);
    assert!(out.iter().all(|l| l.starts_with("info")), "{out:?}");
    e.send("go think");
    let out = sync(&mut e);
    assert_eq!(errors(&out).len(), 1, "second go: {out:?}");
    e.send("stop");
    e.until("done move=");
    e.expect_silence(Duration::from_millis(200));
}

/// `go ponder` answers only after `ponder-hit`, and then searches on for
/// its `move-time` (0.1 s less the 30 ms overhead, from the hit): `done`
/// comes at least 50 ms after the hit (a lower bound no slow machine can
/// break), by itself (`until`'s hang guard).
#[test]
fn ponder_then_ponder_hit_or_stop() {
    let mut e = hub_engine("turkish");
    e.send("pos start");
    e.send("level move-time=0.1");
    e.send("go ponder");
    std::thread::sleep(Duration::from_millis(200));
    let out = sync(&mut e);
    assert!(!out.iter().any(|l| l.starts_with("done")), "{out:?}");
    let hit = std::time::Instant::now();
    e.send("ponder-hit");
    e.until("done");
    let after = e.last_at.duration_since(hit);
    assert!(
        after >= Duration::from_millis(50),
        "done {after:?} after the hit"
    );
    e.send("pos start");
    e.send("go ponder");
    e.send("stop");
    e.until("done");
    // Idle: stop and ponder-hit print nothing.
    e.send("stop");
    e.send("ponder-hit");
    assert!(sync(&mut e).is_empty());
}

#[test]
fn bad_input_changes_nothing() {
    let mut e = hub_engine("turkish");
    // A known position: after 22-30 only Black moves; `go` must answer for it.
    e.send(&format!("pos pos={START} moves=\"22-30\""));
    for bad in [
        "pos pos=Wxyz",                                    // too short
        &format!("pos pos=X{}", &START[1..]),              // bad side
        &format!("pos pos=W{}", "q".repeat(64)),           // bad squares
        &format!("pos pos={START} moves=\"22-30 22-30\""), // illegal second move
        &format!("pos pos={START} moves=\"22-99\""),       // no such square
        "pos moves=\"22-30",                               // unterminated quote
        "pos start pos=x",                                 // both
        "level depth=x",
        "level depth=0",
        "level speed=3",
        "go sideways",
        "set-param name=frobnicate value=1",
        "set-param name=hash value=0",
        "set-param name=variant value=russian",
        "set-param name=evalfile value=/nonexistent/weights.tew",
        "fly",
        "=",
    ] {
        e.send(bad);
        let out = sync(&mut e);
        assert_eq!(errors(&out).len(), 1, "{bad}: {out:?}");
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
    }
    e.send("level depth=1");
    e.send("go think");
    let lines = e.until("done");
    let game = hub::build_game(Rules::TURKISH, Some(START), &["22-30".to_string()]).unwrap();
    assert!(notation::hub::parse_move(game.position(), done_move(lines.last().unwrap())).is_ok());
}

#[test]
fn captures_in_any_order_and_promotion() {
    let mut e = hub_engine("turkish");
    // From pydraughts: d3 x d4, d6, c7 (sideways), captures in any order.
    let pos = "Webeeeeebeebeeeeeeeebeeeeeeeeeeeeeeebeeeeeeeweeeeeeeeeeeeweeeeeee";
    e.send(&format!("pos pos={pos} moves=\"20x50x51x28x44\""));
    assert!(sync(&mut e).is_empty());
    e.send(&format!("pos pos={pos} moves=\"20x50\""));
    assert_eq!(errors(&sync(&mut e)).len(), 1);
    // The only legal move is the capture; Tama answers it in canonical form.
    e.send(&format!("pos pos={pos}"));
    e.send("level depth=2");
    e.send("go think");
    assert_eq!(done_move(e.until("done").last().unwrap()), "20x50x28x44x51");
}

#[test]
fn game_over_is_a_bare_done() {
    let mut e = hub_engine("turkish");
    // White to move with no pieces.
    let pos = format!("W{}b{}", "e".repeat(10), "e".repeat(53));
    e.send(&format!("pos pos={pos}"));
    e.send("go think");
    assert_eq!(e.until("done").last().unwrap(), "done");
}

#[test]
fn armenian_uses_the_same_encoding() {
    let mut e = hub_engine("armenian");
    // c3-d4 (19-28) is a diagonal step: legal in Armenian only.
    e.send(&format!("pos pos={START} moves=\"19-28\""));
    assert!(sync(&mut e).is_empty());
    e.send("level depth=2");
    e.send("go think");
    let lines = e.until("done");
    let mut game = Game::new(tama_engine::Position::startpos(Rules::ARMENIAN));
    game.play(notation::hub::parse_move(game.position(), "19-28").unwrap());
    assert!(notation::hub::parse_move(game.position(), done_move(lines.last().unwrap())).is_ok());
    e.send("set-param name=variant value=turkish");
    e.send(&format!("pos pos={START} moves=\"19-28\""));
    assert_eq!(errors(&sync(&mut e)).len(), 1);
}

#[test]
fn new_game_quit_and_end_of_input() {
    let mut e = hub_engine("turkish");
    e.send("new-game");
    assert!(sync(&mut e).is_empty());
    e.send("pos start");
    e.send("go analyze");
    e.send("quit");
    let (status, rest) = e.close();
    assert!(status.success());
    assert_eq!(rest.iter().filter(|l| l.starts_with("done")).count(), 1);

    let mut e = hub_engine("turkish");
    e.send("pos start");
    e.send("go analyze");
    let (status, rest) = e.close();
    assert!(status.success());
    assert_eq!(rest.iter().filter(|l| l.starts_with("done")).count(), 1);
}

#[test]
fn hub_subcommand_starts_in_hub() {
    let mut e = Engine::start_with(&["hub"]);
    e.send("ping");
    e.until("pong");
}

/// A failing search in Hub is reported the Hub way (`error message=...`,
/// not the UCI form), answered with the first legal move; in strict mode
/// the process ends with status 3 and no `done`.
#[test]
fn failing_search_is_reported_the_hub_way() {
    for strict in ["0", "1"] {
        let mut e = Engine::start_injected("panic", &["hub"], &[("TAMA_STRICT", strict)]);
        e.send("hub");
        e.until("wait");
        e.send("init");
        e.until("ready");
        e.send("level depth=2");
        e.send("go think");
        if strict == "0" {
            let lines = e.until("done");
            let errs = errors(&lines);
            assert_eq!(errs.len(), 1, "{lines:?}");
            assert!(
                errs[0].starts_with(
                    "error message=\"the search failed (injected fault (tama-fake-engine)"
                ),
                "{lines:?}"
            );
            assert!(
                !lines.iter().any(|l| l.starts_with("info string")),
                "{lines:?}"
            );
            // The first legal move of the start position, a3-a4 = 17-25.
            assert_eq!(lines.last().unwrap(), "done move=17-25");
        } else {
            let mut lines = Vec::new();
            while let Some(l) = e.recv_timeout(protocol_support::TIMEOUT) {
                lines.push(l);
            }
            assert!(lines.iter().all(|l| !l.starts_with("done")), "{lines:?}");
            assert_eq!(errors(&lines).len(), 1, "{lines:?}");
            let (status, _) = e.close();
            assert_eq!(status.code(), Some(3));
        }
    }
}

#[test]
fn debug_log_file_records_a_session_in_order_and_a_second_one_appends() {
    let dir = scratch_dir("tama hub", "log");
    let path = dir.join("engine log.txt");
    let set = format!("set-param name=debug-log-file value=\"{}\"", path.display());
    let pos = format!("pos pos={START} moves=\"22-30 41-33\"");

    let from = now_ms();
    let mut e = Engine::start();
    e.send("hub");
    e.until("wait");
    e.send(&set);
    e.send("set-param name=variant value=turkish");
    e.send("init");
    e.until("ready");
    e.send(&pos);
    e.send("level depth=3");
    e.send("go think");
    let search = e.until("done");
    e.send("hub");
    let intro = e.until("wait");
    assert!(
        intro.contains(&format!(
            "param name=debug-log-file value=\"{}\" type=string",
            path.display()
        )),
        "{intro:?}"
    );
    let (_, status) = e.quit();
    assert!(status.success());
    let to = now_ms();

    let mut expected = vec![
        got("set-param name=variant value=turkish"),
        got("init"),
        ("<<", "ready".to_string()),
        got(&pos),
        got("level depth=3"),
        got("go think"),
    ];
    expected.extend(sent(&search));
    expected.push(got("hub"));
    expected.extend(sent(&intro));
    expected.push(got("quit"));
    assert!(search.len() >= 4, "{search:?}");
    let first = read_debug_log(&path);
    assert_logged(&first, &expected, from, to);

    // A second engine appends to the file.
    let mut e = Engine::start();
    e.send("hub");
    e.until("wait");
    e.send(&set);
    e.send("ping");
    e.until("pong");
    e.send("set-param name=debug-log-file value=\"\"");
    e.send("ping");
    e.until("pong");
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
        &[
            got("ping"),
            ("<<", "pong".to_string()),
            got("set-param name=debug-log-file value=\"\""),
        ],
        from,
        now_ms(),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unopenable_debug_log_file_is_an_error_and_the_engine_goes_on() {
    let dir = scratch_dir("tama hub", "log-bad");
    let mut e = hub_engine("turkish");
    for path in [dir.join("missing").join("x.log"), dir.clone()] {
        e.send(&format!(
            "set-param name=debug-log-file value=\"{}\"",
            path.display()
        ));
        let out = sync(&mut e);
        let want = format!(
            "error message=\"Debug Log File {}: cannot append to it: ",
            path.display()
        );
        assert!(
            out.len() == 1 && out[0].starts_with(&want) && out[0].ends_with("; logging is off\""),
            "{}: {out:?}",
            path.display()
        );
    }
    e.send("hub");
    let intro = e.until("wait");
    assert!(
        intro.contains(&"param name=debug-log-file value=\"\" type=string".to_string()),
        "{intro:?}"
    );
    e.send("pos start");
    e.send("level depth=3");
    e.send("go think");
    e.until("done");
    let (_, status) = e.quit();
    assert!(status.success());
    assert!(!dir.join("missing").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
