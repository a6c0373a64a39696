//! The real `tama egtb` commands: build, probe, stats, and their one-line
//! errors (missing directory, damaged file, too many pieces).

mod cli_support;

use cli_support::{tama, text, TempDir};
use std::path::{Path, PathBuf};
use std::process::Output;

fn build(dir: &TempDir, pieces: &str) -> Output {
    let o = tama(&[
        "egtb",
        "build",
        "--pieces",
        pieces,
        "--threads",
        "1",
        "--dir",
        dir.arg(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    o
}

/// The last line of a successful probe.
fn probe(dir: &TempDir, fen: &str) -> String {
    let o = tama(&["egtb", "probe", "--dir", dir.arg(), "--fen", fen]);
    assert!(o.status.success(), "{fen}: {}", text(&o.stderr));
    text(&o.stdout).lines().last().unwrap().to_string()
}

/// A failing command: status 2 and one line on stderr, which is returned.
fn error(args: &[&str]) -> String {
    let o = tama(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stdout));
    let err = text(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    err
}

/// The error of a probe that must fail.
fn probe_error(dir: &str, fen: &str) -> String {
    error(&["egtb", "probe", "--dir", dir, "--fen", fen])
}

fn kvk_file(dir: &Path) -> PathBuf {
    dir.join("armenian-immediate-false-KvK.egtb")
}

#[test]
fn build_probe_and_stats() {
    let dir = TempDir::new("basic");
    let o = build(&dir, "3");
    let out = text(&o.stdout);
    assert!(out.starts_with("built 16 tables"), "{out}");
    // Progress names each pair on stderr.
    assert!(text(&o.stderr).contains("KvKK+KKvK: done in"));
    // KKvK: the king on c3 cannot take h8 at once; two kings against one
    // win (docs/endgames.md), and in an odd number of plies.
    let v = probe(&dir, "W:WKa1,Kc3:BKh8");
    let n: u32 = v.strip_prefix("win ").unwrap().parse().unwrap();
    assert!(n % 2 == 1 && n > 1, "{v}");
    // The same material with the lone king to move and nothing to take.
    let v = probe(&dir, "B:WKa1,Kc3:BKh8");
    assert!(v.starts_with("loss "), "{v}");
    // Two kings far apart: neither can force anything.
    assert_eq!(probe(&dir, "W:WKa1:BKh8"), "draw");
    // Black's man on d5 jumps the white one on d4: Black wins at once.
    assert_eq!(probe(&dir, "B:Wd4:Bd5"), "win 1");
    let stats = text(&tama(&["egtb", "stats", "--dir", dir.arg()]).stdout);
    let rows: Vec<&str> = stats
        .lines()
        .filter(|l| l.starts_with("| K") || l.starts_with("| M"))
        .collect();
    assert_eq!(rows.len(), 16, "{stats}");
    assert!(
        stats.contains("| KvK | 4032 | 672 (16.7%) | 3360 (83.3%) | 0 | 1 |"),
        "{stats}"
    );
    assert!(stats
        .lines()
        .last()
        .unwrap()
        .starts_with("16 tables, 1348176 positions"));
}

#[test]
fn an_interrupted_build_resumes_by_signature() {
    let dir = TempDir::new("resume");
    build(&dir, "2");
    std::fs::remove_file(kvk_file(dir.path())).unwrap();
    let out = text(&build(&dir, "2").stdout);
    // KvK again; KvM+MvK and MvM kept.
    assert!(
        out.starts_with("built 1 tables") && out.contains("kept 3"),
        "{out}"
    );
}

#[test]
fn bad_input_is_one_line_with_status_2() {
    let dir = TempDir::new("errors");
    let missing = dir.path().join("nowhere");
    let err = probe_error(missing.to_str().unwrap(), "W:WKa1:BKh8");
    assert!(err.contains("nowhere: No such file or directory"), "{err}");
    let err = error(&["egtb", "stats", "--dir", missing.to_str().unwrap()]);
    assert!(err.contains("nowhere: No such file or directory"), "{err}");
    let err = error(&["egtb", "build", "--pieces", "7", "--dir", dir.arg()]);
    assert!(err.contains("7 pieces: the tables hold 2 to 6"), "{err}");

    build(&dir, "2");
    // A 3-piece position with only the 2-piece tables built.
    let err = probe_error(dir.arg(), "W:WKa1,Kc3:BKh8");
    assert!(err.contains("no table for KKvK (3 pieces)"), "{err}");
    let err = probe_error(dir.arg(), "W:Wa3,b3,c3,d3:Ba6,b6,c6");
    assert!(err.contains("too many pieces: 7"), "{err}");
    // Another variant's tables are not there.
    let err = error(&["egtb", "stats", "--variant", "turkish", "--dir", dir.arg()]);
    assert!(err.contains("no tables for variant turkish"), "{err}");

    // One flipped bit in a payload: every command refuses the directory.
    let path = kvk_file(dir.path());
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[500] ^= 4;
    std::fs::write(&path, &bytes).unwrap();
    for args in [
        vec!["egtb", "probe", "--dir", dir.arg(), "--fen", "W:WKa1:BKh8"],
        vec!["egtb", "stats", "--dir", dir.arg()],
        vec!["egtb", "build", "--pieces", "2", "--dir", dir.arg()],
    ] {
        let err = error(&args);
        assert!(
            err.contains("KvK.egtb: refused: bad checksum"),
            "{args:?}: {err}"
        );
    }
}

/// The columns of `egtb stats` but the bytes, which compression changes.
fn stats_without_bytes(dir: &str) -> Vec<String> {
    let o = tama(&["egtb", "stats", "--dir", dir]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    text(&o.stdout)
        .lines()
        .filter(|l| l.starts_with("| "))
        .map(|l| l.rsplitn(3, '|').nth(2).unwrap().to_string())
        .collect()
}

#[test]
fn compressed_tables_probe_and_report_as_the_plain_ones() {
    let dir = TempDir::new("zplain");
    build(&dir, "3");
    let out = TempDir::new("zpacked");
    let args = ["egtb", "compress", "--dir", dir.arg(), "--out", out.arg()];
    let o = tama(&[&args[..], &["--level", "3", "--threads", "1"]].concat());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let summary = text(&o.stdout);
    assert!(summary.starts_with("compressed 16 tables"), "{summary}");
    assert!(
        text(&o.stderr).contains("KvKK.egtb: "),
        "{}",
        text(&o.stderr)
    );
    for fen in [
        "W:WKa1,Kc3:BKh8",
        "W:Wc3:BKh8",
        "B:Wc3,e5:Ba7",
        "W:WKd4:BKe4",
    ] {
        assert_eq!(probe(&dir, fen), probe(&out, fen), "{fen}");
    }
    assert_eq!(
        stats_without_bytes(dir.arg()),
        stats_without_bytes(out.arg())
    );
    let o = tama(&["egtb", "bench", "--dir", out.arg(), "--probes", "1000"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let report = text(&o.stdout);
    assert!(report.contains("bytes per entry"), "{report}");
    assert!(report.contains("pass 3: 1000 probes in"), "{report}");
    // In place, compressed already: left as it is.
    let o = tama(&["egtb", "compress", "--dir", out.arg(), "--threads", "1"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stderr).matches("(compressed already)").count(), 16);
    let e = error(&[
        "egtb",
        "compress",
        "--dir",
        dir.arg(),
        "--out",
        out.arg(),
        "--block-bytes",
        "0",
    ]);
    assert!(e.contains("not compressed: block bytes 0"), "{e}");
    let e = error(&["egtb", "compress", "--dir", "/nonexistent-tama-dir"]);
    assert!(e.contains("/nonexistent-tama-dir"), "{e}");
}

/// Every file of `a` and of `b`, by name, byte for byte (the same names
/// on both sides).
fn assert_same_files(a: &TempDir, b: &TempDir) {
    let files = |d: &TempDir| {
        let mut names: Vec<_> = std::fs::read_dir(d.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        names
    };
    let names = files(a);
    assert_eq!(names, files(b));
    assert_eq!(names.len(), 16);
    for n in names {
        let (x, y) = (a.path().join(&n), b.path().join(&n));
        assert!(
            std::fs::read(&x).unwrap() == std::fs::read(&y).unwrap(),
            "{n:?} differs"
        );
    }
}

/// `build --compress` writes what `build` then `compress` write, byte for
/// byte, with the default blocks and level and with others; `--level`
/// without `--compress` is refused.
#[test]
fn a_compressed_build_writes_the_files_build_then_compress_writes() {
    let plain = TempDir::new("zbuild-plain");
    build(&plain, "3");
    let compress = ["egtb", "compress", "--dir", plain.arg(), "--threads", "2"];
    let o = tama(&compress);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let packed = TempDir::new("zbuild-packed");
    let args = ["egtb", "build", "--pieces", "3", "--threads", "2"];
    let o = tama(&[&args[..], &["--compress", "--dir", packed.arg()]].concat());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).starts_with("built 16 tables"));
    assert_same_files(&plain, &packed);

    let small = ["--block-bytes", "64", "--level", "3"];
    let plain = TempDir::new("zbuild-plain64");
    build(&plain, "3");
    let o = tama(&[&compress[..2], &["--dir", plain.arg()], &small[..]].concat());
    assert!(o.status.success(), "{}", text(&o.stderr));
    let packed = TempDir::new("zbuild-packed64");
    let o = tama(
        &[
            &args[..],
            &["--compress", "--dir", packed.arg()],
            &small[..],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_same_files(&plain, &packed);

    let o = tama(&[&args[..], &["--dir", packed.arg(), "--level", "3"]].concat());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("--compress"),
        "{}",
        text(&o.stderr)
    );
}
