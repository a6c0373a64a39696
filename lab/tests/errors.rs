//! `tama-lab errors`: the judgement of a move by the endgame databases, the
//! Wilson interval, and the command on 3-piece tables built here.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use tama_engine::egtb::{build, BuildOptions, Tablebase, Wdl};
use tama_engine::{Position, Rules};
use tama_lab::errors::{judge, wilson, Material};

/// Every Armenian table of up to 3 pieces, built once per run of these
/// tests (a directory left by an earlier run is checked and kept).
fn tables() -> &'static (PathBuf, Tablebase) {
    static TABLES: OnceLock<(PathBuf, Tablebase)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("errors-armenian-3");
        let opts = BuildOptions {
            rules: Rules::ARMENIAN,
            max_pieces: 3,
            distance_pieces: 3,
            threads: 1,
            compress: None,
        };
        let tb = build(&dir, &opts, &mut |_| {}).expect("the 3-piece tables build");
        (dir, tb)
    })
}

fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tama-lab"))
        .args(args.iter().map(OsStr::new))
        .output()
        .expect("the tama-lab binary runs")
}

#[test]
fn the_wilson_interval_has_its_textbook_values() {
    let close = |(lo, hi): (f64, f64), (a, b): (f64, f64)| {
        assert!(
            (lo - a).abs() < 5e-5 && (hi - b).abs() < 5e-5,
            "({lo:.5}, {hi:.5}) is not ({a}, {b})"
        );
    };
    // 0 of n: the upper end is z^2 / (n + z^2), 3.8415 / 13.8415 for n = 10.
    close(wilson(0, 10), (0.0, 0.27753));
    close(wilson(5, 10), (0.23659, 0.76341));
    close(wilson(1, 100), (0.00177, 0.05449));
    close(wilson(10, 10), (0.72247, 1.0));
    assert_eq!(wilson(0, 0), (0.0, 1.0));
}

/// White kings f6 and e3, a black man on d5 (Armenian, White to move; no
/// capture yet, since captures are orthogonal and neither king shares a
/// rank or file with the man).
///
/// e3-e5 wins: the man must take the king beside it, d5xe5 landing on f5
/// (nothing more to take from there), and the king on f6 takes it, f6xf4:
/// Black has no piece left.
///
/// f6-d4 (along the diagonal through e5) loses: the man must take d5xd4
/// landing on d3, where the king on e3 stands beside it with f3 empty, so
/// the capture goes on, d3xe3 to f3: White has no piece left.
#[test]
fn a_move_that_throws_the_win_is_an_error_and_the_winning_one_is_not() {
    let (_, tb) = tables();
    let pos = Position::from_fen("W:WKf6,Ke3:Bd5", Rules::ARMENIAN).unwrap();
    let j = judge(tb, &pos).unwrap();
    assert_eq!(j.root, Wdl::Win);
    let wins = pos.parse_move("e3-e5").unwrap();
    let throws = pos.parse_move("f6-d4").unwrap();
    assert_eq!(j.value_of(&wins), Some(Wdl::Win));
    assert_eq!(j.value_of(&throws), Some(Wdl::Loss));
    assert!(!j.is_error(&wins));
    assert!(j.is_error(&throws));
    assert!(j.can_err());
    assert_eq!(j.value_of(&j.a_correct_move().unwrap()), Some(Wdl::Win));
    // Black to move in the position after f6-d4 wins at once; for White,
    // who played it, that is the loss.
    let after = pos.play(&throws);
    assert_eq!(tb.probe(&after).unwrap().wdl, Wdl::Win);
}

#[test]
fn material_is_kings_only_men_and_kings_or_men_only() {
    let m = |fen: &str| Material::of(&Position::from_fen(fen, Rules::ARMENIAN).unwrap());
    assert_eq!(m("W:WKf6,Ke3:BKd5"), Material::KingsOnly);
    assert_eq!(m("W:WKf6,e3:Bd5"), Material::MenAndKings);
    assert_eq!(m("W:Wf6,e3:Bd5"), Material::MenOnly);
}

/// `(positions, errors)` from the line `<nodes> nodes: P positions ...,
/// E errors, ...` (from the tables, `P positions (C can err), E errors`;
/// beyond them, `P positions, E errors`).
fn counts(out: &str, nodes: u64) -> (u64, u64) {
    let head = format!("{nodes} nodes: ");
    let rest = out
        .lines()
        .find_map(|l| l.strip_prefix(&head))
        .unwrap_or_else(|| panic!("no line {head:?} in\n{out}"));
    let words: Vec<&str> = rest.split_whitespace().collect();
    let errors = words
        .iter()
        .position(|w| *w == "errors,")
        .unwrap_or_else(|| panic!("no error count in {rest:?}"));
    (
        words[0].parse().unwrap(),
        words[errors - 1].parse().unwrap(),
    )
}

/// One node plays the first move it generates, a fair share of which
/// throw the value; 100k nodes see to the end of nearly every 3-piece
/// position. The same seed gives the same report, and every error is
/// written down with what was played and a move that keeps the value.
#[test]
fn one_node_errs_more_than_many_and_the_report_is_reproducible() {
    let (dir, _) = tables();
    let dir = dir.to_str().unwrap();
    let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join("errors-3.txt");
    let args = [
        "errors",
        "--pieces",
        "3",
        "--positions",
        "200",
        "--nodes",
        "1,100000",
        "--dir",
        dir,
        "--seed",
        "7",
        "--write",
        file.to_str().unwrap(),
    ];
    let o = lab(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    let (n1, e1) = counts(&out, 1);
    let (n2, e2) = counts(&out, 100_000);
    assert_eq!((n1, n2), (200, 200), "{out}");
    assert!(e1 >= 10 && e2 < e1 / 4, "1 node: {e1}, 100k: {e2}\n{out}");
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(written.lines().count() as u64, e1 + e2, "{written}");
    let rules = Rules::ARMENIAN;
    let (_, tb) = tables();
    for l in written.lines() {
        // `<nodes> <fen> played <move> <value> root <value> correct <move>`
        let w: Vec<&str> = l.split_whitespace().collect();
        let pos = Position::from_fen(w[1], rules).unwrap();
        let j = judge(tb, &pos).unwrap();
        assert!(j.is_error(&pos.parse_move(w[3]).unwrap()), "{l}");
        assert!(!j.is_error(&pos.parse_move(w[8]).unwrap()), "{l}");
        assert_eq!(w[6], if j.root == Wdl::Win { "win" } else { "draw" });
    }
    let again = lab(&args);
    assert_eq!(String::from_utf8(again.stdout).unwrap(), out);
}

#[test]
fn tables_short_of_the_pieces_asked_for_are_refused() {
    let (dir, _) = tables();
    let o = lab(&[
        "errors",
        "--pieces",
        "4",
        "--nodes",
        "100",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("up to 3 pieces only, not 4"), "{err}");
}

/// White kings f6, e3 and h1, a black man on d5: the position of the test
/// above with a third white king, beyond the 3-piece tables (no capture
/// yet: no king shares a rank or file with the man).
///
/// e3-e5 still wins: d5xe5 is forced (landing on f5), and White, to move
/// with kings f6 and h1 against the man on f5, is in the 3-piece table
/// (f6xf4 takes the last black piece). f6-d4 now throws the win to a
/// draw: d5xd4 to d3 goes on over e3 to f3 (the one capture, and a man
/// never jumps backwards), leaving the king on h1 against the man on f3,
/// one piece a side, which the tables call a draw.
const BEYOND: &str = "W:WKf6,Ke3,Kh1:Bd5";

#[test]
fn the_judge_proves_values_through_the_tables_beyond_them() {
    use tama_lab::errors::games::Judge;
    let (dir, _) = tables();
    let tb = Tablebase::open(dir, Rules::ARMENIAN).unwrap();
    let mut judge = Judge::new(tb, 100_000);
    let pos = Position::from_fen(BEYOND, Rules::ARMENIAN).unwrap();
    let j = judge
        .judge(&pos)
        .expect("the judge agrees with itself here");
    assert_eq!(j.root, Wdl::Win);
    let wins = pos.play(&pos.parse_move("e3-e5").unwrap());
    let throws = pos.play(&pos.parse_move("f6-d4").unwrap());
    // Values for the side to move, Black, after each move: both positions
    // hold 4 pieces, and Black's one move, the capture, is played out.
    assert_eq!(judge.value(&wins), Wdl::Loss);
    assert_eq!(judge.value(&throws), Wdl::Draw);
    // Nothing is proven in a level position far from the tables.
    let start = Position::startpos(Rules::ARMENIAN);
    assert_eq!(judge.value(&start), Wdl::Draw);
}

/// Positions of 4 pieces from a PDN file, judged through the 3-piece
/// tables: the winning position above is kept, as a proven win, and 100k
/// nodes without the tables find a winning move there; the same seed
/// gives the same report.
#[test]
fn positions_beyond_the_tables_come_from_games_and_are_judged() {
    let (dir, _) = tables();
    let pdn = Path::new(env!("CARGO_TARGET_TMPDIR")).join("errors-games.pdn");
    // The position itself (no move played), and a game from it: after
    // e3-e5 Black has one move, the capture, which leaves 3 pieces; so
    // the start is the one position of 4 pieces with a choice of moves,
    // counted once though both games hold it.
    let game = |moves: &str| format!("[SetUp \"1\"]\n[FEN \"{BEYOND}\"]\n{moves} *\n\n");
    std::fs::write(&pdn, game("") + &game("1. e3-e5 d5xf5")).unwrap();
    let args = [
        "errors",
        "--games",
        pdn.to_str().unwrap(),
        "--pieces",
        "4",
        "--nodes",
        "100000",
        "--judge-nodes",
        "100000",
        "--dir",
        dir.to_str().unwrap(),
    ];
    let o = lab(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.contains("1 positions with a choice of moves, 1 judged, 1 kept (1 proven wins)"),
        "{out}"
    );
    assert_eq!(counts(&out, 100_000), (1, 0), "{out}");
    assert_eq!(String::from_utf8(lab(&args).stdout).unwrap(), out);
}

#[test]
fn positions_beyond_the_tables_must_be_beyond_them() {
    let (dir, _) = tables();
    let pdn = Path::new(env!("CARGO_TARGET_TMPDIR")).join("errors-games-3.pdn");
    std::fs::write(&pdn, format!("[SetUp \"1\"]\n[FEN \"{BEYOND}\"]\n*\n\n")).unwrap();
    let run = |pieces: &str| {
        let o = lab(&[
            "errors",
            "--games",
            pdn.to_str().unwrap(),
            "--pieces",
            pieces,
            "--nodes",
            "100",
            "--dir",
            dir.to_str().unwrap(),
        ]);
        assert!(!o.status.success());
        String::from_utf8(o.stderr).unwrap()
    };
    assert!(run("3-4").contains("are measured without --games"));
    assert!(run("5-4").contains("from the smaller count to the larger"));
    assert!(run("6").contains("no position of 6 pieces"));
}

/// `--eval-file` gives the measured search the named set, and a set of
/// the other variant or a file that cannot be read is refused before
/// anything is searched, naming what was wrong.
#[test]
fn the_measured_search_plays_with_the_set_asked_for() {
    use clap::Parser;
    use tama_engine::eval::named;
    use tama_engine::Variant;
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        errors: tama_lab::errors::ErrorsArgs,
    }
    let args = |extra: &[&str]| {
        let mut a = vec!["errors", "--pieces", "3", "--nodes", "100", "--dir", "d"];
        a.extend_from_slice(extra);
        Cli::parse_from(a).errors
    };
    let hand = named("armenian-hand").unwrap();
    let w = tama_lab::errors::measured_weights(&args(&["--eval-file", "builtin:armenian-hand"]))
        .unwrap();
    assert_eq!(w.get(Variant::Armenian).hand, hand.hand);
    let default = tama_lab::errors::measured_weights(&args(&[])).unwrap();
    assert_ne!(default.get(Variant::Armenian).hand, hand.hand);
    let (dir, _) = tables();
    for (value, says) in [
        (
            "builtin:turkish-learned",
            "a turkish set, the positions are armenian",
        ),
        ("/no/such/file.tew", "--eval-file /no/such/file.tew"),
    ] {
        let o = lab(&[
            "errors",
            "--pieces",
            "3",
            "--nodes",
            "100",
            "--dir",
            dir.to_str().unwrap(),
            "--eval-file",
            value,
        ]);
        assert!(!o.status.success(), "{value}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.contains(says), "{err}");
        assert!(o.stdout.is_empty(), "searched before refusing {value}");
    }
}
