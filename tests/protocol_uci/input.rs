//! Input as it comes: commands before `uci`, unknown and malformed ones, odd
//! bytes and huge lines, the end of input and `quit` during a search, and
//! the command line.

use crate::fen;
use crate::protocol_support::{bestmove, errors, uci, Engine};
use std::time::Duration;
use tama_engine::{Position, Rules};

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
