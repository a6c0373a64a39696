//! The build as a cluster runs it: `tama egtb jobs` lists the pairs by
//! dependency level, and each job is a separate `tama egtb build --job`
//! process, the jobs of a level all at once, the levels in turn. The files
//! must be byte for byte those of the one-process build.

mod cli_support;

use cli_support::{tama, text, TempDir};
use std::collections::BTreeMap;
use std::process::{Command, Stdio};

const PIECES: &str = "4";

/// The job names of each level, from `tama egtb jobs --level L`.
fn levels() -> Vec<Vec<String>> {
    let o = tama(&["egtb", "jobs", "--pieces", PIECES]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let table = text(&o.stdout);
    let top: u32 = table
        .lines()
        .skip(1)
        .map(|l| l.split(' ').next().unwrap().parse::<u32>().unwrap())
        .max()
        .unwrap();
    (0..=top)
        .map(|level| {
            let o = tama(&[
                "egtb",
                "jobs",
                "--pieces",
                PIECES,
                "--level",
                &level.to_string(),
            ]);
            assert!(o.status.success(), "{}", text(&o.stderr));
            let names: Vec<String> = text(&o.stdout).lines().map(str::to_string).collect();
            assert!(!names.is_empty(), "level {level} has no job");
            names
        })
        .collect()
}

fn job_args<'a>(dir: &'a TempDir, job: &'a str) -> [&'a str; 8] {
    [
        "egtb",
        "build",
        "--job",
        job,
        "--threads",
        "1",
        "--dir",
        dir.arg(),
    ]
}

/// Every file of a directory, by name.
fn files(dir: &TempDir) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            (name, std::fs::read(&path).unwrap())
        })
        .collect()
}

#[test]
#[ignore = "builds tables for tens of seconds; .ci/run runs it with --ignored"]
fn jobs_level_by_level_build_the_same_files_as_one_process() {
    let jobs = TempDir::new("jobs-levels");
    let levels = levels();
    // A job whose inputs are not built yet says which job builds them.
    let early = levels[1][0].clone();
    let o = tama(&job_args(&jobs, &levels.last().unwrap()[0]));
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("missing") && err.contains("level"), "{err}");
    for (level, names) in levels.iter().enumerate() {
        let running: Vec<_> = names
            .iter()
            .map(|job| {
                let child = Command::new(env!("CARGO_BIN_EXE_tama"))
                    .args(job_args(&jobs, job))
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap();
                (job, child)
            })
            .collect();
        for (job, child) in running {
            let o = child.wait_with_output().unwrap();
            assert!(
                o.status.success(),
                "level {level}, {job}: {}",
                text(&o.stderr)
            );
        }
    }
    // A job run again keeps its files (after checking them).
    let o = tama(&job_args(&jobs, &early));
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("kept"), "{}", text(&o.stderr));

    let one = TempDir::new("jobs-one-process");
    let o = tama(&[
        "egtb",
        "build",
        "--pieces",
        PIECES,
        "--threads",
        "2",
        "--dir",
        one.arg(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let (by_jobs, by_one) = (files(&jobs), files(&one));
    // 4 + 12 + 25 signatures of 2, 3 and 4 pieces.
    assert_eq!(by_one.len(), 41);
    assert_eq!(
        by_jobs.keys().collect::<Vec<_>>(),
        by_one.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &by_one {
        assert!(by_jobs[name] == *bytes, "{name} differs");
    }
}
