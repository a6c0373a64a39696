//! `tama analyse`: a planted blunder is marked `??` with the shot that
//! refutes it, a win thrown away in a 4-piece ending is marked by the
//! endgame databases' verdict, each side's summary counts the marks written,
//! and bad input is reported game by game while the other games are
//! reviewed. One thread at a fixed depth: the searches are deterministic.

mod cli_support;

use cli_support::{stderr, stdout, tama, TempDir};

/// White to move: men d3, d4 and h2 against men d6, a7, b7. d4-d5 walks
/// into a shot: Black must take, d6xd4 (over d5), and goes on over d3 to
/// d2 (d6xd4xd2): two men gone and a black man a step from crowning. Any
/// quiet move instead (h2-h3, a man to the side) keeps the material even.
const PLANTED_BLUNDER: &str = "[Event \"planted blunder\"]\n[White \"W\"]\n[Black \"B\"]\n\
    [FEN \"W:Wh2,d3,d4:Ba7,b7,d6\"]\n\n1. d4-d5 d6xd4xd2 2. h2-h3 d2-d1 *\n";

/// White's two kings against two: Kc6 must take Kc4 along the c-file and
/// may stop on c3, c2 or c1. On c3 it stands on the third rank with Black's
/// Ka3, which takes it (a3xd3): a king each, a draw. On c2 or c1 it is out
/// of reach: two kings against one, a win (in 5 moves, the tables say).
const THROWN_WIN: &str =
    "[Event \"thrown win\"]\n[FEN \"W:WKh8,Kc6:BKc4,Ka3\"]\n\n1. c6xc3 a3xd3 *\n";

fn analyse(pdn: &str, tag: &str, extra: &[&str]) -> std::process::Output {
    let dir = TempDir::new(tag);
    std::fs::create_dir_all(dir.path()).unwrap();
    let file = dir.path().join("games.pdn");
    std::fs::write(&file, pdn).unwrap();
    let mut args = vec![
        "analyse",
        file.to_str().unwrap(),
        "--depth",
        "8",
        "--threads",
        "1",
    ];
    args.extend_from_slice(extra);
    tama(&args)
}

/// The PDN's text with its line ends made spaces (comments wrap).
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn a_planted_blunder_is_marked_with_the_shot_that_refutes_it() {
    let o = analyse(PLANTED_BLUNDER, "blunder", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let pdn = one_line(&stdout(&o));
    assert!(pdn.contains("1. d4-d5?? {"), "{pdn}");
    assert!(pdn.contains("?? blunder"), "{pdn}");
    // The shot is what refutes it, and the better line is another move.
    assert!(pdn.contains("refuted by 1... d6xd4xd2"), "{pdn}");
    let variation = pdn.split("} (1. ").nth(1).expect("a variation for move 1");
    assert!(!variation.starts_with("d4-d5"), "{pdn}");
    // Black's forced capture is not marked, and Black's score after it is
    // far ahead: two men.
    assert!(pdn.contains("1... d6xd4xd2 {-"), "{pdn}");
    assert!(
        pdn.contains("White (W): 2 moves, inaccuracies 0, mistakes 0, blunders 1"),
        "{pdn}"
    );
    // The file named no rules: the review says which it assumed, and writes them.
    assert!(
        stderr(&o).contains("the tags name no rules; reviewed as variant armenian"),
        "{}",
        stderr(&o)
    );
    assert!(pdn.contains("[Variant \"armenian\"]"), "{pdn}");
    // The annotated game reads back as the game.
    let dir = TempDir::new("blunder-again");
    std::fs::create_dir_all(dir.path()).unwrap();
    let again = dir.path().join("annotated.pdn");
    std::fs::write(&again, stdout(&o)).unwrap();
    let back = tama(&["analyse", again.to_str().unwrap(), "--depth", "2"]);
    assert!(back.status.success(), "{}", stderr(&back));
}

#[test]
fn a_win_thrown_to_a_draw_is_marked_by_the_tables() {
    let tables = TempDir::new("review-tables");
    for args in [
        vec![
            "egtb",
            "build",
            "--pieces",
            "3",
            "--threads",
            "1",
            "--dir",
            tables.arg(),
        ],
        vec![
            "egtb",
            "build",
            "--pieces",
            "4",
            "--job",
            "KKvKK",
            "--threads",
            "1",
            "--dir",
            tables.arg(),
        ],
    ] {
        let o = tama(&args);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = analyse(THROWN_WIN, "thrown", &["--egtb", tables.arg()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let pdn = one_line(&stdout(&o));
    assert!(pdn.contains("1. c6xc3?? {"), "{pdn}");
    assert!(pdn.contains("tables: win in 5 -> draw"), "{pdn}");
    assert!(pdn.contains("better c6xc"), "{pdn}");
    // Black's capture keeps the draw: no mark.
    assert!(pdn.contains("1... a3xd3 {"), "{pdn}");
    assert!(pdn.contains("tables: draw"), "{pdn}");
}

/// The marks written after the moves of one side, counted from the
/// movetext: (`!`, `?!`, `?`, `??`).
fn marks(pdn: &str, white: bool) -> [usize; 4] {
    let body = pdn.split("\n\n").nth(1).unwrap();
    let mut counts = [0; 4];
    let mut depth = 0;
    let mut next_white = false;
    for word in one_line(body).split(' ') {
        let start_depth = depth;
        depth += word.matches(['{', '(']).count();
        depth -= word.matches(['}', ')']).count();
        if start_depth > 0 || word.starts_with(['{', '(']) {
            continue;
        }
        if let Some(n) = word.strip_suffix("...") {
            next_white = n.parse::<u32>().is_err();
            continue;
        }
        if let Some(n) = word.strip_suffix('.') {
            next_white = n.parse::<u32>().is_ok();
            continue;
        }
        let mover_white = next_white;
        next_white = false;
        if mover_white != white {
            continue;
        }
        let k = if word.ends_with("??") {
            3
        } else if word.ends_with("?!") {
            1
        } else if word.ends_with('?') {
            2
        } else if word.ends_with('!') {
            0
        } else {
            continue;
        };
        counts[k] += 1;
    }
    counts
}

#[test]
fn each_sides_summary_counts_the_marks_written() {
    let game = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/review-game.pdn"
    ))
    .unwrap();
    let o = analyse(&game, "summary", &["--depth", "6"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let pdn = stdout(&o);
    let text = one_line(&pdn);
    let mut total = 0;
    for (side, white, name) in [("White", true, "B"), ("Black", false, "A")] {
        let [only, inaccuracies, mistakes, blunders] = marks(&pdn, white);
        total += only + inaccuracies + mistakes + blunders;
        let summary = format!(
            "{side} ({name}): 60 moves, inaccuracies {inaccuracies}, mistakes {mistakes}, blunders {blunders}, only moves {only},"
        );
        assert!(text.contains(&summary), "{summary}\n{text}");
        assert!(stderr(&o).contains(&summary), "{}", stderr(&o));
    }
    assert!(total > 0, "a game at depth 5 has marks: {text}");
}

#[test]
fn bad_games_are_reported_by_game_and_move_and_the_others_reviewed() {
    let pdn = "[Event \"one\"]\n1. d3-d4 d6-d5 2. a3-a5 *\n\n\
               [Event \"two\"]\n[Variant \"russian\"]\n1. d3-d4 *\n\n\
               [Event \"three\"]\n1. d3-d4 d6-d5 *\n\n\
               [Event \"four\"\n1. d3-d4 *\n";
    let o = analyse(pdn, "bad", &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("game 1, move 2. (ply 3): a3-a5: illegal move a3-a5: capture is compulsory"),
        "{err}"
    );
    assert!(err.contains("game 2: unknown variant \"russian\""), "{err}");
    assert!(err.contains("game 4: unclosed tag at byte"), "{err}");
    let out = stdout(&o);
    assert!(
        out.contains("[Event \"three\"]") && out.contains("1. d3-d4 {"),
        "{out}"
    );
    assert!(
        !out.contains("[Event \"one\"]") && !out.contains("[Event \"two\"]"),
        "{out}"
    );

    for (args, message) in [
        (
            vec!["analyse", "/nonexistent/games.pdn"],
            "cannot read /nonexistent/games.pdn",
        ),
        (
            vec![
                "analyse",
                "tests/fixtures/review-game.pdn",
                "--egtb",
                "/nonexistent/tables",
            ],
            "--egtb /nonexistent/tables: no such directory",
        ),
        (
            vec!["analyse", "tests/fixtures/review-game.pdn", "--game", "2"],
            "--game 2: tests/fixtures/review-game.pdn holds 1 games",
        ),
        (
            vec![
                "analyse",
                "tests/fixtures/review-game.pdn",
                "--depth",
                "3",
                "--nodes",
                "5",
            ],
            "cannot be used with",
        ),
    ] {
        let o = tama(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
}
