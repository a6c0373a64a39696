//! `tama bench [depth]` from the outside: one line per position, and the
//! last line exactly `<nodes> nodes <nps> nps`, with the same node count
//! as the library's bench (the search's signature).

use std::process::Command;

#[test]
fn bench_command_prints_the_signature_last() {
    let out = Command::new(env!("CARGO_BIN_EXE_tama"))
        .args(["bench", "5"])
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
    assert_eq!(nodes, tama_engine::search::bench::run(5).nodes);
}

#[test]
fn bench_command_rejects_bad_depth() {
    let out = Command::new(env!("CARGO_BIN_EXE_tama"))
        .args(["bench", "zero"])
        .output()
        .expect("tama runs");
    assert_eq!(out.status.code(), Some(2));
}
