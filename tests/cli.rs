//! The real `tama` binary: `tama perft` output and errors on bad input.
//! (`tama-lab tactics`, the shot suite's score as a regression guard for
//! the search, is tested with the lab: lab/tests/tactics.rs.)

mod cli_support;

#[cfg(unix)]
use cli_support::tama_os;
use cli_support::{stderr, stdout, tama};
use std::process::Output;
use tama_engine::{Position, Rules};

/// The total from the last line, `Nodes searched: N`.
fn nodes(o: &Output) -> u64 {
    let out = stdout(o);
    let last = out.lines().last().expect("some output");
    last.strip_prefix("Nodes searched: ")
        .unwrap_or_else(|| panic!("last line {last:?}"))
        .parse()
        .unwrap()
}

#[test]
fn perft_prints_the_node_count_last() {
    let o = tama(&["perft", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "Nodes searched: 12174\n");
    assert_eq!(nodes(&tama(&["perft", "--variant", "turkish", "5"])), 85090);
}

#[test]
fn perft_rule_flags() {
    // kish's published figure counts routes; the distinct count is lower.
    let routes = tama(&["perft", "--variant", "turkish", "--routes", "7"]);
    assert!(routes.status.success());
    assert_eq!(nodes(&routes), 10_782_382);
    assert_eq!(
        nodes(&tama(&["perft", "--variant", "turkish", "7"])),
        10_782_308
    );
    // The options reach the generator: with the vacuum-cleaner position a
    // king takes four pieces (immediate) or three (deferred), in three ways.
    let fen = "W:WKa5:Bc4,c5,e7,d8";
    for removal in ["immediate", "deferred"] {
        let o = tama(&[
            "perft",
            "--fen",
            fen,
            "--capture-removal",
            removal,
            "--divide",
            "1",
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let first = out.lines().next().unwrap();
        let jumps = first.split(':').next().unwrap().matches('x').count();
        assert_eq!(jumps, if removal == "immediate" { 4 } else { 3 }, "{out}");
        assert_eq!(nodes(&o), 3);
    }
    // Mid-capture promotion: d6xd8 only, or d6xd8xh8 as a new king.
    let fen = "W:Wd6:Bd7,g8";
    let off = tama(&[
        "perft",
        "--fen",
        fen,
        "--mid-capture-promotion",
        "false",
        "--divide",
        "1",
    ]);
    assert_eq!(stdout(&off), "d6xd8: 1\nNodes searched: 1\n");
    let on = tama(&[
        "perft",
        "--fen",
        fen,
        "--mid-capture-promotion",
        "true",
        "--divide",
        "1",
    ]);
    assert_eq!(stdout(&on), "d6xd8xh8: 1\nNodes searched: 1\n");
}

/// `--divide`: one `<move>: <count>` line per root move, then the total.
#[test]
fn divide_lines_are_moves_with_counts() {
    let o = tama(&["perft", "--divide", "3"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 22 + 1);
    assert_eq!(*lines.last().unwrap(), "Nodes searched: 12174");
    let start = Position::startpos(Rules::default());
    let mut sum = 0;
    let mut seen = Vec::new();
    for l in &lines[..22] {
        let (mv, n) = l.split_once(": ").unwrap_or_else(|| panic!("{l:?}"));
        // Quiet move text `d3-d4`, and a legal move of the start position.
        assert_eq!(mv.len(), 5, "{mv}");
        assert_eq!(&mv[2..3], "-");
        let m = start.parse_move(mv).unwrap();
        assert!(!seen.contains(&m), "{mv} twice");
        seen.push(m);
        sum += n.parse::<u64>().unwrap();
    }
    assert_eq!(sum, 12174);
}

/// With `--routes`, `--divide` multiplies each move by its routes: the king
/// on a1 has two moves (to a7, to a8), each reached by two routes.
#[test]
fn divide_with_routes() {
    let fen = "W:WKa1:Ba3,a6,h8";
    let o = tama(&["perft", "--fen", fen, "--divide", "1"]);
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 3, "{out}");
    assert!(out.lines().take(2).all(|l| l.ends_with(": 1")), "{out}");
    assert_eq!(nodes(&o), 2);
    let o = tama(&["perft", "--fen", fen, "--divide", "--routes", "1"]);
    let out = stdout(&o);
    assert!(out.lines().take(2).all(|l| l.ends_with(": 2")), "{out}");
    assert_eq!(nodes(&o), 4);
}

#[test]
fn bad_arguments_give_one_line_and_status_2() {
    let cases: &[&[&str]] = &[
        &["perft"],
        &["perft", "x"],
        &["perft", "-1"],
        &["perft", "3", "4"],
        &["perft", "99999999999"],
        &["perft", "--bogus", "1"],
        &["perft", "--variant", "chess", "3"],
        &["perft", "--variant"],
        &["perft", "--capture-removal", "later", "3"],
        &["perft", "--mid-capture-promotion", "maybe", "3"],
        &["perft", "--fen"],
        &["perft", "--fen", "", "1"],
        &["perft", "--fen", "X:Wa2:Bh7", "1"],
        &["perft", "--fen", "W:Wz9:Bh7", "1"],
        &["perft", "--fen", "W:Wa2,a2:Bh7", "1"],
        &["perft", "--fen", "W:Wa8:Bh7", "1"],
        &["perft", "--fen", "W:Wa2:Ba1", "1"],
        &["perft", "--fen", "W:Wa2:Ba2", "1"],
        &[
            "perft",
            "--fen",
            "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3,a4:Bh7",
            "1",
        ],
        &["perft", "--fen", "W:Wa2:Bh7:Wb2", "1"],
        &["perft", "--fen", "W;Wa2", "1"],
        &["perft", "--fen", "W:Wé2:Bh7", "1"],
    ];
    for args in cases {
        let o = tama(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?} printed {:?}", stdout(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
        assert!(err.trim().len() > 10, "{args:?}: {err:?}");
    }
}

/// perft(0) = 1 by definition (the root is the one leaf), with or without
/// `--divide`: no root move is listed then, but the total is still 1.
#[test]
fn perft_depth_0_is_one_with_or_without_divide() {
    for args in [
        &["perft", "0"][..],
        &["perft", "--divide", "0"],
        &["perft", "--divide", "--routes", "0"],
        &["perft", "--routes", "0"],
    ] {
        let o = tama(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "Nodes searched: 1\n", "{args:?}");
    }
}

/// An argument that is not valid UTF-8 is bad input like any other: one
/// line on stderr and status 2 (it used to panic with status 101).
#[cfg(unix)]
#[test]
fn non_utf8_arguments_give_one_line_and_status_2() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let bad = OsStr::from_bytes(b"\xff");
    let cases: [Vec<&OsStr>; 4] = [
        vec![bad],
        vec![
            OsStr::new("perft"),
            OsStr::new("--fen"),
            OsStr::new("W:Wa2:Ba7"),
            bad,
        ],
        vec![
            OsStr::new("perft"),
            OsStr::new("--fen"),
            bad,
            OsStr::new("1"),
        ],
        vec![OsStr::new("uci"), OsStr::new("--set"), bad],
    ];
    for args in cases {
        let o = tama_os(&args);
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}: {:?}", o.stdout);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err:?}");
        assert!(err.starts_with("error: "), "{args:?}: {err:?}");
        assert!(!err.contains("panicked"), "{args:?}: {err:?}");
    }
}

/// The final line of `tama search`: `bestmove M ponder P score S depth D nodes N`.
fn search_summary(o: &Output) -> (String, String, u32, u64) {
    let out = stdout(o);
    let last = out.lines().last().expect("some output").to_string();
    let field = |name: &str| {
        last.split(&format!(" {name} "))
            .nth(1)
            .and_then(|t| t.split(' ').next())
            .unwrap_or_else(|| panic!("no {name} in {last:?}"))
            .to_string()
    };
    let best = last
        .strip_prefix("bestmove ")
        .and_then(|t| t.split(' ').next())
        .unwrap_or_else(|| panic!("last line {last:?}"))
        .to_string();
    (
        best,
        field("score"),
        field("depth").parse().unwrap(),
        field("nodes").parse().unwrap(),
    )
}

/// `tama search` finds the shot the engine's search tests reason out by
/// hand (`search::tests::shot_sacrifice_forces_a_majority_capture`): c4-c5
/// gives one man and takes four back. It reports every iteration, keeps its
/// depth and node limits, and refuses bad input with status 2.
#[test]
fn search_command_finds_the_shot_and_keeps_its_limits() {
    let fen = "W:Wc2,c3,c4,h2:Ba7,b5,c6,d5,e6,f7";
    let o = tama(&["search", "--fen", fen, "--depth", "6"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let depths: Vec<u32> = out
        .lines()
        .filter_map(|l| l.strip_prefix("info depth "))
        .map(|t| t.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(depths.first(), Some(&1), "{out}");
    assert_eq!(depths.last(), Some(&6), "{out}");
    assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{out}");
    let (best, score, depth, _) = search_summary(&o);
    assert_eq!(best, "c4-c5", "{out}");
    assert_eq!(depth, 6, "{out}");
    // `Some(Cp(v))` with v > 200 (four men for one), or a won mate.
    let cp = score
        .strip_prefix("Some(Cp(")
        .and_then(|t| t.strip_suffix("))"))
        .map(|v| v.parse::<i32>().unwrap());
    match cp {
        Some(v) => assert!(v > 200, "{out}"),
        None => assert!(
            score.starts_with("Some(Mate(") && !score.contains('-'),
            "{out}"
        ),
    }
    // A node limit is kept exactly (one thread), and stops well short of
    // the depth a plain search of this size would reach.
    let o = tama(&["search", "--nodes", "3000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (_, _, depth, nodes) = search_summary(&o);
    assert!(nodes <= 3000 && nodes > 1000, "{}", stdout(&o));
    assert!((1..12).contains(&depth), "{}", stdout(&o));
    for bad in [
        &["search", "--fen", "W:Wz9:Bh7"][..],
        &["search", "--depth", "x"],
        &["search", "--variant", "chess"],
    ] {
        let o = tama(bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert_eq!(stderr(&o).lines().count(), 1, "{bad:?}: {}", stderr(&o));
    }
}
