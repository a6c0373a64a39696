//! `tama bench [depth]` from the outside: one line per position, and the
//! last line exactly `<nodes> nodes <nps> nps`, with the published node
//! count (the search's signature).

use std::process::Command;

/// The published signature: `tama bench` (depth 15) must print exactly the
/// node count docs/results.md gives, a figure written down when the search
/// last changed on purpose, not one computed by the library under test.
const SIGNATURE: u64 = 9_742_582;

#[test]
fn bench_command_prints_the_signature_last() {
    let out = Command::new(env!("CARGO_BIN_EXE_tama"))
        .arg("bench")
        .output()
        .expect("tama runs");
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    let positions = tama_engine::search::bench::positions().len();
    assert_eq!(lines.len(), positions + 1, "{stdout}");
    let last: Vec<&str> = lines[positions].split(' ').collect();
    assert_eq!(last.len(), 4, "{stdout}");
    assert_eq!((last[1], last[3]), ("nodes", "nps"));
    let nodes: u64 = last[0].parse().unwrap();
    let _nps: u64 = last[2].parse().unwrap();
    assert_eq!(nodes, SIGNATURE, "the search changed: {stdout}");
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/results.md"))
        .expect("docs/results.md");
    assert!(
        docs.contains(&format!("`{SIGNATURE}`")),
        "docs/results.md does not give the signature {SIGNATURE}"
    );
}

#[test]
fn bench_command_rejects_bad_depth() {
    let out = Command::new(env!("CARGO_BIN_EXE_tama"))
        .args(["bench", "zero"])
        .output()
        .expect("tama runs");
    assert_eq!(out.status.code(), Some(2));
}
