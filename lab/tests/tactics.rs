//! `tama-lab tactics`: the shot suite's score per budget, as a regression
//! guard for the search (its floors), its options, and errors on bad input.

use std::ffi::OsStr;
use std::process::{Command, Output};
use tama_lab::shots;

/// `tama-lab ARGS...`, run to the end.
fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tama-lab"))
        .args(args.iter().map(OsStr::new))
        .output()
        .expect("the tama-lab binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// `(solved, total)` from the line `<what> <nodes> nodes: S/T`.
fn score(out: &str, what: &str, nodes: u64) -> (usize, usize) {
    let head = format!("{what} {nodes} nodes: ");
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix(&head))
        .unwrap_or_else(|| panic!("no line {head:?} in\n{out}"));
    let (s, t) = line.split_once('/').expect("S/T");
    (s.parse().unwrap(), t.parse().unwrap())
}

/// How many shots of the built-in suite are of `variant` (`all`: every one).
fn suite_size(variant: &str) -> usize {
    let suite = shots::suite();
    suite
        .iter()
        .filter(|s| variant == "all" || s.position.rules().variant.to_string() == variant)
        .count()
}

/// The default search's score on the built-in suite at 100k nodes a shot
/// (19a02fe, 307 shots): Armenian 138/146, Turkish 159/161, 297/307 in all
/// (release 0.1.0: 120, 150, 270; docs/results.md). The floors sit under it, so
/// that a change that loses shots fails here; a change that gains some
/// should raise them.
const FLOOR_100K: [(&str, usize); 3] = [("armenian", 134), ("turkish", 154), ("all", 290)];

#[test]
fn the_default_search_keeps_its_shot_suite_score_at_100k_nodes() {
    let o = lab(&["tactics", "--nodes", "100000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for (what, floor) in FLOOR_100K {
        let (solved, total) = score(&out, what, 100_000);
        assert!(
            solved >= floor,
            "{what}: {solved}/{total} shots solved at 100k nodes, the floor is {floor}\n{out}"
        );
    }
    for what in ["armenian", "turkish", "all"] {
        assert_eq!(score(&out, what, 100_000).1, suite_size(what), "{what}");
    }
}

#[test]
fn verbose_lists_each_miss_under_its_budget() {
    let o = lab(&[
        "tactics",
        "--variant",
        "turkish",
        "--nodes",
        "500,3000",
        "--verbose",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    // One variant: no `all` line, no Armenian line.
    assert!(!out.contains("all ") && !out.contains("armenian"), "{out}");
    let at_3000 = lines
        .iter()
        .position(|l| l.starts_with("turkish 3000 nodes: "))
        .expect("a line for 3000 nodes");
    for (budget, from, to) in [(500, 0, at_3000), (3000, at_3000, lines.len())] {
        let (solved, total) = score(&out, "turkish", budget);
        assert_eq!(total, suite_size("turkish"));
        let misses = &lines[from + 1..to];
        assert_eq!(misses.len(), total - solved, "{out}");
        for m in misses {
            // `  miss FEN played MOVE wins MOVES depth=N`, the FEN Turkish.
            let f: Vec<&str> = m.split_whitespace().collect();
            assert_eq!((f[0], f[2], f[4]), ("miss", "played", "wins"), "{m}");
            assert_eq!(f.len(), 7, "{m}");
            assert!(f[6].starts_with("depth="), "{m}");
            assert!(!f[5].split(',').any(|w| w == f[3]), "{m}: played a win");
        }
    }
    // A tenth of the budget solves fewer: the misses are real answers.
    assert!(score(&out, "turkish", 500).0 < score(&out, "turkish", 3000).0);
}

#[test]
fn options_reach_the_search() {
    // The sparring search (another design) and the main search do not miss
    // the same shots at a small budget; both lines count every Armenian shot.
    let run = |extra: &[&str]| {
        let mut args = vec!["tactics", "--variant", "armenian", "--nodes", "2000"];
        args.extend_from_slice(extra);
        let o = lab(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let normal = run(&["--verbose"]);
    let sparring = run(&["--verbose", "--option", "Style=sparring"]);
    let untactical = run(&["--verbose", "--option", "sacrifice_exempt=0"]);
    assert_ne!(normal, sparring);
    assert_ne!(normal, untactical);
    assert_eq!(score(&sparring, "armenian", 2000).1, suite_size("armenian"));
}

#[test]
fn a_bad_suite_file_gives_one_line_and_status_2() {
    // The first shot of the built-in suite is good; each file below spoils
    // the suite in one way, and the error must name the file.
    let dir = std::env::temp_dir().join(format!("tama-tactics-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = shots::suite()[0].line();
    let turkish_only = "turkish W:Wa2,c2,d2,f2,g2,h2,b3,e3,f3,g3,a4,b4,c4,d4,e4,h4:\
                        Ba5,e5,g5,a6,b6,c6,d6,e6,f6,h6,a7,b7,d7,e7,g7,h7 \
                        g3-g4,h4-g4 depth=2 score=247 margin=210";
    for (name, text, variant, says) in [
        (
            "illegal.txt",
            format!("{good}\nturkish W:Wa2:Bh7 a2-a5 depth=1 score=1 margin=1\n"),
            None,
            "illegal.txt: shot suite line 2: a2-a5",
        ),
        (
            "empty.txt",
            "# only a comment\n\n".to_string(),
            None,
            "empty.txt: no shot in the file",
        ),
        (
            "turkish.txt",
            format!("{turkish_only}\n"),
            Some("armenian"),
            "no shot of that variant",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let mut args = vec![
            "tactics",
            "--nodes",
            "1000",
            "--file",
            path.to_str().unwrap(),
        ];
        if let Some(v) = variant {
            args.extend(["--variant", v]);
        }
        let o = lab(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.contains(says), "{name}: {err}");
        assert!(stdout(&o).is_empty(), "{name}");
    }
    // The good line alone is a suite of one.
    let path = dir.join("one.txt");
    std::fs::write(&path, format!("{good}\n")).unwrap();
    let o = lab(&[
        "tactics",
        "--nodes",
        "1000",
        "--file",
        path.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let variant = shots::suite()[0].position.rules().variant.to_string();
    assert_eq!(score(&stdout(&o), &variant, 1000).1, 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_gives_one_line_and_status_2() {
    for (args, says) in [
        (&["tactics", "--nodes", "0"][..], "node budget"),
        (&["tactics", "--nodes", "1k"], "node budget"),
        (
            &["tactics", "--option", "bogus=1"],
            "neither an engine option",
        ),
        (&["tactics", "--option", "Style"], "NAME=VALUE"),
        (&["tactics", "--option", "Style=wild"], "unknown style"),
        (
            &["tactics", "--option", "sacrifice_exempt=x"],
            "expected a number",
        ),
        (&["tactics", "--option", "Variant=turkish"], "means nothing"),
        (&["tactics", "--variant", "russian"], "russian"),
        (
            &["tactics", "--file", "/nonexistent/shots.txt"],
            "shots.txt",
        ),
    ] {
        let o = lab(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
}
