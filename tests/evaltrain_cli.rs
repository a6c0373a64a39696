//! The real `tama` binary: `tama datagen` and `tama train` on tiny runs
//! (a few games of a few hundred nodes a move), and their errors.

mod cli_support;

use cli_support::{tama, text};
use std::path::{Path, PathBuf};
use std::process::Output;

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tama-evaltrain-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn datagen(out: &Path, games: u32, threads: u32) -> Output {
    datagen_with(out, games, threads, &[])
}

/// `datagen`'s run with `extra` arguments after its own.
fn datagen_with(out: &Path, games: u32, threads: u32, extra: &[&str]) -> Output {
    let (games, threads) = (games.to_string(), threads.to_string());
    let mut args = vec![
        "datagen",
        "--out",
        out.to_str().unwrap(),
        "--games",
        &games,
        "--nodes",
        "200",
        "--threads",
        &threads,
        "--seed",
        "7",
    ];
    args.extend_from_slice(extra);
    tama(&args)
}

/// `tama train` on a tiny data file: small batches, half the games held out.
fn train(data: &Path, out: &Path, extra: &[&str]) -> Output {
    let (data, out) = (data.to_str().unwrap(), out.to_str().unwrap());
    let args = [
        "train",
        "--data",
        data,
        "--out",
        out,
        "--batch",
        "64",
        "--valid-percent",
        "50",
    ];
    tama(&[&args[..], extra].concat())
}

fn assert_refused(o: &Output, why: &str) {
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: ") && err.contains(why), "{err}");
}

#[test]
fn datagen_resumes_and_gives_the_same_file_whatever_the_threads() {
    let dir = scratch("resume");
    let (resumed, direct) = (dir.join("resumed.data"), dir.join("direct.data"));
    let first = datagen(&resumed, 3, 2);
    assert!(first.status.success(), "{}", text(&first.stderr));
    let o = datagen(&resumed, 5, 2);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.contains(": 5 games, ") && out.contains("(2 games, "),
        "{out}"
    );
    assert!(text(&o.stderr).contains("positions/s"), "no progress line");
    assert!(datagen(&direct, 5, 1).status.success());
    let (a, b) = (
        std::fs::read(&resumed).unwrap(),
        std::fs::read(&direct).unwrap(),
    );
    assert!(a.len() > 32 + 5 * 4, "no positions: {} bytes", a.len());
    assert!(a == b, "3 + 2 games on 2 threads differ from 5 games on 1");
    // Other settings may not extend the file.
    let o = tama(&[
        "datagen",
        "--out",
        resumed.to_str().unwrap(),
        "--games",
        "6",
        "--nodes",
        "300",
        "--seed",
        "7",
    ]);
    assert_refused(&o, "holds games made with");
    assert_eq!(std::fs::read(&resumed).unwrap(), a, "refused, yet changed");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Shard `k` of 3 of the run `datagen` plays, `games` games in the run.
fn datagen_shard(out: &Path, k: u32, games: u32, threads: u32) -> Output {
    datagen_with(out, games, threads, &["--shard", &format!("{k}/3")])
}

fn merge(out: &Path, shards: &[&Path]) -> Output {
    let mut args = vec!["datagen", "--out", out.to_str().unwrap(), "--merge"];
    args.extend(shards.iter().map(|p| p.to_str().unwrap()));
    tama(&args)
}

/// A run of 6 games played whole, and as 3 shards (one of them first
/// played for a 3-game run and then resumed for the 6, one on 2 threads)
/// merged in another order: the same file, byte for byte. Training reads
/// the same samples from the shards as from the merged file.
#[test]
fn datagen_shards_merge_into_the_file_of_the_whole_run() {
    let dir = scratch("shards");
    let whole = dir.join("whole.data");
    assert!(datagen(&whole, 6, 1).status.success());
    let s: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("s{k}.data"))).collect();
    let o = datagen_shard(&s[0], 1, 6, 1);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // Of 3 games, shard 2/3 plays game 1; of 6, games 1 and 4.
    let o = datagen_shard(&s[1], 2, 3, 1);
    assert!(
        text(&o.stdout).contains("(shard 2/3): 1 games, "),
        "{}",
        text(&o.stdout)
    );
    let o = datagen_shard(&s[1], 2, 6, 1);
    let out = text(&o.stdout);
    assert!(
        out.contains(": 2 games, ") && out.contains("(1 games, "),
        "{out}"
    );
    assert!(datagen_shard(&s[2], 3, 6, 2).status.success());
    let merged = dir.join("merged.data");
    let o = merge(&merged, &[&s[2], &s[0], &s[1]]);
    let out = text(&o.stdout);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        out.contains(": 6 games, ") && out.contains("from 3 shards"),
        "{out}"
    );
    let (a, b) = (
        std::fs::read(&whole).unwrap(),
        std::fs::read(&merged).unwrap(),
    );
    assert!(
        a.len() > 32 + 6 * 4 + 100 * 20,
        "few positions: {} bytes",
        a.len()
    );
    assert!(a == b, "the merged shards differ from the whole run");
    // The same samples, so the same fit: the same line but the time.
    let weights = dir.join("w.tew");
    let fit = |data: &[&PathBuf]| {
        let mut args = vec!["train", "--out", weights.to_str().unwrap()];
        for d in data {
            args.extend(["--data", d.to_str().unwrap()]);
        }
        args.extend([
            "--model",
            "hand",
            "--epochs",
            "1",
            "--batch",
            "64",
            "--valid-percent",
            "50",
        ]);
        let o = tama(&args);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let line = text(&o.stdout);
        line.rsplit_once(", ").unwrap().0.to_string()
    };
    assert_eq!(fit(&[&merged]), fit(&[&s[1], &s[2], &s[0]]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_shards_and_bad_merges_are_refused() {
    let dir = scratch("badshards");
    let out = dir.join("out.data");
    let o = out.to_str().unwrap();
    for spec in ["0/3", "4/3", "1/0", "two/3"] {
        let args = [
            "datagen", "--out", o, "--games", "6", "--nodes", "200", "--shard", spec,
        ];
        assert_refused(&tama(&args), "expected K/N with 1 <= K <= N");
    }
    assert_refused(&tama(&["datagen", "--out", o, "--shard", "1/3"]), "--games");
    // A run of 3 games in 3 shards: one game each.
    let s: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("s{k}.data"))).collect();
    for (k, path) in (1..).zip(&s) {
        assert!(datagen_shard(path, k, 3, 1).status.success());
    }
    let (other, whole) = (dir.join("other.data"), dir.join("whole.data"));
    assert!(datagen_shard(&other, 3, 4, 1).status.success());
    assert!(datagen(&whole, 3, 1).status.success());
    let cut = dir.join("cut.data");
    let bytes = std::fs::read(&s[2]).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() - 5]).unwrap();
    let [a, b, c] = [&s[0], &s[1], &s[2]].map(|p| p.as_path());
    for (shards, why) in [
        (vec![a, b], "shard 3/3 of the run is missing"),
        (vec![a, b, b, c], "shard 2/3 is given twice"),
        (
            vec![a, b, &other],
            "are not shards of one run: runs of 3 and 4 games",
        ),
        (
            vec![a, b, c, &whole],
            "whole.data is the file of a whole run, not a shard",
        ),
        (vec![a, b, &cut], "cut.data ends in a partial game"),
        (vec![a, b, c, &dir.join("none.data")], "cannot read"),
    ] {
        assert_refused(&merge(&out, &shards), why);
        assert!(!out.exists(), "{why}: a refused merge wrote");
    }
    assert_refused(
        &tama(&[
            "datagen",
            "--out",
            o,
            "--merge",
            a.to_str().unwrap(),
            "--seed",
            "2",
        ]),
        "cannot be used with",
    );
    // An existing file is not overwritten.
    assert_refused(&merge(&whole, &[a, b, c]), "whole.data exists");
    assert!(merge(&out, &[a, b, c]).status.success());
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&whole).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_plays_with_the_weights_eval_file_names() {
    let dir = scratch("evalfile");
    let run = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let path = out.to_str().unwrap();
        let args = [
            "datagen", "--out", path, "--games", "3", "--nodes", "200", "--seed", "7",
        ];
        (tama(&[&args[..], extra].concat()), out)
    };
    let (o, default) = run("default.data", &[]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    // The default set named explicitly plays the same games; the hand-set
    // weights of 0.1.0 play other ones (the option is not ignored).
    let (o, named) = run("named.data", &["--eval-file", "builtin:armenian-learned"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let (o, hand) = run("hand.data", &["--eval-file", "builtin:armenian-hand"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let read = |p: &PathBuf| std::fs::read(p).unwrap();
    assert!(
        read(&default) == read(&named),
        "the default set named differs"
    );
    assert!(read(&default) != read(&hand), "--eval-file changed nothing");
    // Refused before a file is made: another variant's set, a missing file,
    // a name that is not built in.
    for (name, value, why) in [
        ("t.data", "builtin:turkish-learned", "turkish weights"),
        ("m.data", "/nonexistent/w.tew", "cannot read"),
        ("u.data", "builtin:nothing", "armenian-learned"),
    ] {
        let (o, out) = run(name, &["--eval-file", value]);
        let err = text(&o.stderr);
        assert!(!o.status.success(), "{err}");
        assert!(err.contains(why), "{err}");
        assert!(!out.exists(), "{name} was made");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn train_writes_a_weights_file_that_show_and_evalfile_read() {
    let dir = scratch("train");
    let (data, weights) = (dir.join("a.data"), dir.join("w.tew"));
    assert!(datagen(&data, 8, 2).status.success());
    let o = train(&data, &weights, &["--model", "hand", "--epochs", "2"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.starts_with("armenian: ") && out.contains("validation loss"),
        "{out}"
    );
    let o = tama(&["train", "--show", weights.to_str().unwrap()]);
    let shown = text(&o.stdout);
    assert!(
        o.status.success() && shown.starts_with("armenian hand: "),
        "{shown}"
    );
    assert!(
        shown.contains("tama train --data"),
        "the command is not kept: {shown}"
    );
    assert!(
        shown.lines().any(|l| l.trim_start().starts_with("man ")),
        "{shown}"
    );
    // A data file is not a weights file.
    assert_refused(
        &tama(&["train", "--show", data.to_str().unwrap()]),
        "TAMAEVAL",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tama train --init` takes what `EvalFile` takes. The validation loss
/// before the first step is that of the starting weights, so it tells which
/// weights the fit started from.
#[test]
fn train_starts_from_the_weights_init_names() {
    let dir = scratch("init");
    let (data, out) = (dir.join("a.data"), dir.join("w.tew"));
    assert!(datagen(&data, 8, 2).status.success());
    let learned_file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("engine/data/weights/armenian-learned.tew")
        .to_str()
        .unwrap()
        .to_string();
    let train_from = |init: Option<&str>| {
        let init: Vec<&str> = init.iter().flat_map(|value| ["--init", value]).collect();
        train(&data, &out, &[&["--epochs", "1"][..], &init].concat())
    };
    // "... validation loss BEFORE -> AFTER (epoch N), ..."
    let loss_before = |o: &Output| -> String {
        let line = text(&o.stdout);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let (_, rest) = line.split_once("validation loss ").expect(&line);
        rest.split_whitespace().next().unwrap().to_string()
    };
    let hand = loss_before(&train_from(None));
    assert_eq!(
        loss_before(&train_from(Some("builtin:armenian-hand"))),
        hand,
        "the hand-set weights are the default start"
    );
    let learned = loss_before(&train_from(Some("builtin:armenian-learned")));
    assert_ne!(
        learned, hand,
        "--init builtin:armenian-learned changed nothing"
    );
    assert_eq!(
        loss_before(&train_from(Some(&learned_file))),
        learned,
        "the file and the built-in set are the same weights"
    );
    std::fs::remove_file(&out).unwrap();
    for (value, why) in [
        ("builtin:turkish-learned", "holds armenian games"),
        ("builtin:russian", "no built-in weights called"),
        ("missing.tew", "cannot read"),
    ] {
        let o = train_from(Some(value));
        assert_refused(&o, &format!("--init {value}"));
        assert_refused(&o, why);
        assert!(!out.exists(), "--init {value} wrote weights");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_give_one_line_and_status_2() {
    let dir = scratch("bad");
    let data = dir.join("a.data");
    let (d, w) = (data.to_str().unwrap(), dir.join("w.tew"));
    let w = w.to_str().unwrap();
    for (args, why) in [
        (vec!["datagen"], "--out"),
        (vec!["datagen", "--out", d, "--threads", "0"], "--threads"),
        (vec!["datagen", "--out", d, "--nodes", "0"], "--nodes"),
        (
            vec!["datagen", "--out", d, "--variant", "russian"],
            "russian",
        ),
        (vec!["train", "--data", d], "--out"),
        (vec!["train", "--out", w], "--data"),
        (
            vec!["train", "--data", d, "--out", w, "--lambda", "2"],
            "0 to 1",
        ),
        (
            vec!["train", "--data", d, "--out", w, "--model", "net"],
            "net",
        ),
        (
            vec!["train", "--data", d, "--out", w, "--fix", "tempi=4"],
            "not a hand term",
        ),
        (
            vec!["train", "--data", d, "--out", w, "--fix", "tempo"],
            "TERM=CM",
        ),
        (
            vec!["train", "--data", d, "--out", w, "--fix", "tempo=2000"],
            "at most 1000",
        ),
        (vec!["train", "--data", d, "--out", w], "cannot read"),
    ] {
        assert_refused(&tama(&args), why);
    }
    assert!(!data.exists() && !dir.join("w.tew").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--model kings` writes a kings set that `--show` prints with its king
/// terms; `--egtb` naming no tables is one line, before any fit or game.
#[test]
fn train_fits_the_kings_model_and_refuses_tables_that_are_not_there() {
    let dir = scratch("kings");
    let (data, weights) = (dir.join("a.data"), dir.join("w.tew"));
    assert!(datagen(&data, 6, 2).status.success());
    let o = train(&data, &weights, &["--model", "kings", "--epochs", "1"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = tama(&["train", "--show", weights.to_str().unwrap()]);
    let shown = text(&o.stdout);
    assert!(
        o.status.success() && shown.starts_with("armenian kings: "),
        "{shown}"
    );
    assert!(shown.contains("king squares, endgame"), "{shown}");
    let missing = dir.join("no-tables");
    let o = train(&data, &weights, &["--egtb", missing.to_str().unwrap()]);
    let err = text(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--egtb") && err.contains("no-tables"), "{err}");
    // So does datagen, before it writes a file.
    let other = dir.join("b.data");
    let o = datagen_with(&other, 1, 1, &["--egtb", missing.to_str().unwrap()]);
    let err = text(&o.stderr);
    assert!(!o.status.success() && err.contains("--egtb"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!other.exists(), "no file written");
    let _ = std::fs::remove_dir_all(&dir);
}
