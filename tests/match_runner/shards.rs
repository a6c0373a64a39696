//! A match cut into shards, or killed and resumed, ends as exactly the
//! whole match played at once.

use crate::{args, check_pdn, fake, json, run_match, run_match_ok, scratch, TAMA};
use serde_json::Value as Json;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;
use tama_engine::Rules;

/// The engines of the shard tests: Tama itself at fixed depths (a fixed
/// depth single-threaded search is deterministic, so a game depends only
/// on its opening and colours).
fn tama_pair() -> String {
    format!(
        "-engine cmd={TAMA} name=D2 depth=2 -engine cmd={TAMA} name=D1 depth=1 \
         -each option.Hash=4 -rounds 6 -repeat -maxmoves 40 -openings order=random -seed 9"
    )
}

/// The games of a PDN file by their Round tag, without the Date tag (the
/// only one that may differ between two runs).
fn games_by_round(path: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut games: Vec<(String, String)> = text
        .split("[Event ")
        .filter(|g| !g.trim().is_empty())
        .map(|g| {
            let round = g
                .split("[Round \"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            let body: Vec<&str> = g.lines().filter(|l| !l.starts_with("[Date ")).collect();
            (round.to_string(), body.join("\n"))
        })
        .collect();
    games.sort_by_key(|(r, _)| {
        let (a, b) = r.split_once('.').unwrap();
        (a.parse::<u32>().unwrap(), b.parse::<u32>().unwrap())
    });
    games
}

/// A results file without what depends on how it was cut: the shard, the
/// schedule (whose shard count differs; a merge of whole matches has none)
/// and the order the games finished in.
fn figures(mut j: Json) -> Json {
    let o = j.as_object_mut().unwrap();
    o.remove("shard");
    o.remove("schedule");
    let games = o.get_mut("games").unwrap().as_array_mut().unwrap();
    games.sort_by_key(|g| {
        let r = g.get("round").and_then(Json::as_str).unwrap().to_string();
        let (a, b) = r.split_once('.').unwrap();
        (a.parse::<u32>().unwrap(), b.parse::<u32>().unwrap())
    });
    j
}

/// Three shards played one after the other, merged, give exactly
/// the figures and the games of the whole match played at once; a shard
/// rerun alone plays the same games; shards of another schedule, a shard
/// given twice, or a shard with a whole match are refused; a missing shard
/// is announced.
#[test]
fn shards_merge_into_exactly_the_whole_match() {
    let dir = scratch("shards");
    let whole = dir.join("whole.json");
    let whole_pdn = dir.join("whole.pdn");
    run_match_ok(&args(&format!(
        "{} -concurrency 2 -results {} -pdnout {}",
        tama_pair(),
        whole.display(),
        whole_pdn.display()
    )));
    let mut parts = Vec::new();
    let merged_pdn = dir.join("shards.pdn");
    for k in 1..=3 {
        let (res, pdn) = (
            dir.join(format!("s{k}.json")),
            dir.join(format!("s{k}.pdn")),
        );
        let out = run_match_ok(&args(&format!(
            "{} -shard {k}/3 -results {} -pdnout {}",
            tama_pair(),
            res.display(),
            pdn.display()
        )));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("2 engines, 4 games") && err.contains(&format!("(shard {k}/3")),
            "{err}"
        );
        let text = std::fs::read_to_string(&pdn).unwrap();
        let mut all = std::fs::read_to_string(&merged_pdn).unwrap_or_default();
        all.push_str(&text);
        std::fs::write(&merged_pdn, all).unwrap();
        parts.push(res);
    }
    let list = |files: &[&PathBuf]| {
        files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let merged = dir.join("merged.json");
    let sprt = "-sprt elo0=0 elo1=200 alpha=0.1 beta=0.1";
    let out = run_match_ok(&args(&format!(
        "--merge {} -results {} {sprt}",
        list(&[&parts[2], &parts[0], &parts[1]]),
        merged.display()
    )));
    let whole_sprt = dir.join("whole-sprt.json");
    let whole_out = run_match_ok(&args(&format!(
        "--merge {} -results {} {sprt}",
        whole.display(),
        whole_sprt.display()
    )));
    // The same figures (counts, Elo, pentanomial, SPRT, terminations) and
    // games; the tables alike but for the shard count.
    assert_eq!(figures(json(&merged)), figures(json(&whole_sprt)));
    assert_eq!(
        json(&merged).get("games_played").and_then(Json::as_u64),
        Some(12)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&whole_out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("pentanomial model"));
    assert_eq!(games_by_round(&merged_pdn), games_by_round(&whole_pdn));
    assert_eq!(games_by_round(&merged_pdn).len(), 12);
    // Shard 2 rerun alone: the same games.
    let again = dir.join("s2-again.json");
    run_match_ok(&args(&format!(
        "{} -shard 2/3 -results {}",
        tama_pair(),
        again.display()
    )));
    assert_eq!(figures(json(&again)), figures(json(&parts[1])));
    // Refusals, each with the reason.
    let other = dir.join("other-seed.json");
    run_match_ok(&args(&format!(
        "{} -seed 10 -shard 2/3 -maxmoves 2 -results {}",
        tama_pair().replace("-seed 9", ""),
        other.display()
    )));
    for (files, reason) in [
        (list(&[&parts[0], &other, &parts[2]]), "their seed differ"),
        (
            list(&[&parts[0], &parts[1], &again]),
            "shard 2/3 is given twice",
        ),
        (list(&[&parts[0], &whole]), "is a whole match"),
    ] {
        let out = run_match(&args(&format!("--merge {files}")));
        assert_eq!(out.status.code(), Some(2), "{files}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(reason), "{err}");
    }
    let out = run_match_ok(&args(&format!("--merge {}", list(&[&parts[0], &parts[2]]))));
    assert!(String::from_utf8_lossy(&out.stderr).contains("shards [2] are missing"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("INCOMPLETE"));
}

/// The runner killed at random moments, with SIGKILL (nothing of it runs
/// on) or SIGTERM (it stops its games, writes what it has, exits with 143),
/// each time resumed with `-resume`: every results file left is whole JSON,
/// and the match ends with exactly the counts and the PDN games of the same
/// match never stopped.
#[cfg(unix)]
#[test]
fn a_killed_match_resumes_to_exactly_the_whole_match() {
    use std::io::{BufRead, BufReader};
    use std::os::unix::process::ExitStatusExt;
    let dir = scratch("resume");
    let setup = format!(
        "{} {} -each depth=1 -rounds 30 -repeat -concurrency 2 -maxmoves 60",
        fake("A", "random", 1, 1),
        fake("B", "random", 1, 2)
    );
    let (whole, whole_pdn) = (dir.join("whole.json"), dir.join("whole.pdn"));
    run_match_ok(&args(&format!(
        "{setup} -results {} -pdnout {}",
        whole.display(),
        whole_pdn.display()
    )));
    let (res, pdn) = (dir.join("r.json"), dir.join("r.pdn"));
    let resume = args(&format!(
        "{setup} -results {} -pdnout {} -resume",
        res.display(),
        pdn.display()
    ));
    let mut rng = tama_engine::rng::Rng::new(29);
    let mut kills = 0;
    for i in 0..8 {
        let mut child = Command::new(TAMA)
            .arg("match")
            .args(&resume)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The header line: the signal handlers are in place. A resumed run
        // may first say which games of the PDN it dropped.
        let mut err = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        loop {
            line.clear();
            err.read_line(&mut line).unwrap();
            if !line.starts_with("resuming: ") {
                break;
            }
        }
        assert!(line.contains("2 engines, 60 games"), "{line}");
        let drain = std::thread::spawn(move || std::io::copy(&mut err, &mut std::io::sink()));
        // Killed once the PDN holds a growing number of games (so each run
        // plays some whatever the machine's speed), a random few
        // milliseconds after: between games, mid-game or mid-write.
        let target = 6 * (i + 1) + rng.below(4) as usize;
        while child.try_wait().unwrap().is_none()
            && std::fs::read_to_string(&pdn).map_or(0, |t| t.matches("[Event ").count()) < target
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        std::thread::sleep(Duration::from_millis(rng.below(8)));
        let term = i % 2 == 1;
        let signal = if term { "-TERM" } else { "-KILL" };
        Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        let status = child.wait().unwrap();
        drain.join().unwrap().unwrap();
        if status.success() {
            break; // the match ended before the signal
        }
        kills += 1;
        if term {
            assert_eq!(status.code(), Some(143), "{status:?}");
        } else {
            assert_eq!(status.signal(), Some(9), "{status:?}");
        }
        if !res.exists() {
            assert!(!term, "SIGTERM left no results file");
            continue;
        }
        let j = json(&res);
        assert_eq!(j["format"], "tama-match-results-1");
        assert_eq!(j["interrupted"], true);
        let played = j["games_played"].as_u64().unwrap() as usize;
        assert_eq!(j["games"].as_array().unwrap().len(), played);
        let in_pdn = games_by_round(&pdn).len();
        if term {
            assert_eq!(in_pdn, played);
        } else {
            assert!(in_pdn >= played, "{in_pdn} < {played}");
        }
    }
    assert!(kills >= 4, "the match ended after {kills} kills");
    // A SIGKILL while the PDN was being written leaves a game cut short
    // (or one the results file does not have yet): dropped, played again.
    let mut cut = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&pdn)
        .unwrap();
    std::io::Write::write_all(&mut cut, b"[Event \"cut short\"]\n[Round \"").unwrap();
    drop(cut);
    let out = run_match_ok(&resume);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("resuming: "), "{err}");
    assert!(
        err.contains("not in the results file were dropped"),
        "{err}"
    );
    assert_eq!(json(&res)["interrupted"], false);
    assert_eq!(figures(json(&res)), figures(json(&whole)));
    assert_eq!(games_by_round(&pdn), games_by_round(&whole_pdn));
    assert_eq!(check_pdn(&pdn, Rules::default()).len(), 60);
    // Resumed once more: nothing left to play, the same file.
    run_match_ok(&resume);
    assert_eq!(figures(json(&res)), figures(json(&whole)));
    // A results file of another match is refused, with what differs.
    let other = run_match(&args(&format!(
        "{} -seed 4 -results {} -resume",
        setup,
        res.display()
    )));
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("their seed differ"));
}
