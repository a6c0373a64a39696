//! `-resume`: going on with a match (or a shard) that was stopped: killed,
//! cancelled by a job system, its machine lost. The runner writes the
//! results file after every game; the games it holds are counted as they
//! are and only the other games of the schedule are played, so the match
//! ends with exactly the counts and the games of a run never stopped.
//!
//! The PDN file is brought in line with the results file first: it keeps
//! each game of the results file once, and loses a game written after the
//! last results file (the runner was killed between the two writes),
//! which is played again.

use crate::config::Config;
use crate::error::SetupError;
use crate::output::results::{read_results, write_atomically, FORMAT};
use crate::schedule::shard::ScheduleId;
use crate::schedule::Job;
use crate::stats::tally::GameEntry;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use tama_engine::notation::pdn::Outcome;
use tama_shard::Shard;

/// The games the results file of `config` (`-results`) holds, each with
/// its job of `jobs` (the schedule, or the shard's part of it): none when
/// there is no file yet. The file must be of this match: the same schedule
/// (`id`) and shard, every game in it once, between the scheduled engines.
pub fn played(
    config: &Config,
    id: &ScheduleId,
    jobs: &[Job],
) -> Result<Vec<(Job, GameEntry)>, SetupError> {
    let path = config
        .results
        .as_deref()
        .ok_or("-resume needs -results FILE.json")?;
    if !path.exists() {
        return Ok(Vec::new());
    }
    let file = read_results(path).map_err(|e| e.to_string())?;
    let fail =
        |why: String| SetupError::from(format!("cannot resume from {}: {why}", path.display()));
    if file.format != FORMAT {
        return Err(fail("not a tama match results file".into()));
    }
    let Some(theirs) = &file.schedule else {
        return Err(fail(
            "it names no schedule (a merge, or release 0.1.0)".into(),
        ));
    };
    if let Some(d) = id.difference(theirs) {
        return Err(fail(format!("it is another match: {d}")));
    }
    if file.shard != config.shard {
        return Err(fail(format!(
            "it holds {}, this is {}",
            part(file.shard),
            part(config.shard)
        )));
    }
    let names: Vec<&str> = config
        .engines
        .iter()
        .map(|e| e.command.name.as_str())
        .collect();
    let by_round: HashMap<String, &Job> = jobs.iter().map(|j| (j.round_tag(), j)).collect();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for g in &file.games {
        let job = by_round
            .get(&g.round)
            .ok_or_else(|| fail(format!("its game {} is not one of this match", g.round)))?;
        let (white, black) = (names[job.white], names[job.black]);
        if (g.white.as_str(), g.black.as_str()) != (white, black) {
            return Err(fail(format!(
                "its game {} is {} against {}, the schedule has {white} against {black}",
                g.round, g.white, g.black
            )));
        }
        if Outcome::parse(&g.result).is_none() {
            return Err(fail(format!("its game {} has no result", g.round)));
        }
        if !seen.insert(g.round.as_str()) {
            return Err(fail(format!("its game {} is there twice", g.round)));
        }
        out.push(((*job).clone(), g.clone()));
    }
    Ok(out)
}

/// "shard K/N" or "the whole match".
fn part(shard: Option<Shard>) -> String {
    shard.map_or("the whole match".into(), |k| format!("shard {k}"))
}

/// Keeps in the PDN file at `path` the games of `played` only, each once
/// (the first), in file order; rewritten atomically. Returns how many
/// games were dropped. No file: nothing to do.
pub fn trim_pdn(path: &Path, played: &[(Job, GameEntry)]) -> Result<usize, SetupError> {
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display()).into()),
    };
    let mut wanted: HashSet<&str> = played.iter().map(|(_, g)| g.round.as_str()).collect();
    let games = split_games(&text);
    let mut kept = String::new();
    for g in &games {
        if round_of(g).is_some_and(|r| wanted.remove(r)) {
            kept.push_str(g);
        }
    }
    let dropped = games.len() - (played.len() - wanted.len());
    if dropped > 0 || kept.len() != text.len() {
        write_atomically(path, kept.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(dropped)
}

/// The games of a PDN text as the runner writes them: each from its
/// `[Event` line to the next (anything before the first is dropped too).
fn split_games(text: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("[Event ") {
            starts.push(at);
        }
        at += line.len();
    }
    starts.push(text.len());
    starts.windows(2).map(|w| &text[w[0]..w[1]]).collect()
}

/// The Round tag of a game's text; `None` for a game cut short before
/// its movetext ended (the runner was killed while writing it).
fn round_of(game: &str) -> Option<&str> {
    if !game.ends_with("\n\n") {
        return None;
    }
    game.lines()
        .find_map(|l| l.strip_prefix("[Round \""))
        .and_then(|r| r.strip_suffix("\"]"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(round: &str) -> String {
        format!("[Event \"e\"]\n[Round \"{round}\"]\n[Result \"1-1\"]\n\n1. a3-b4 1-1\n\n")
    }

    fn entry(round: &str) -> (Job, GameEntry) {
        let job = Job {
            round: 1,
            game_in_round: 1,
            white: 0,
            black: 1,
            opening: 0,
            pair: None,
        };
        let g = GameEntry {
            round: round.into(),
            white: "A".into(),
            black: "B".into(),
            result: "1-1".into(),
            termination: "x".into(),
            plies: 1,
        };
        (job, g)
    }

    /// Games the results file lacks, a second copy of a game and a game cut
    /// short go; the others stay, in their order.
    #[test]
    fn the_pdn_keeps_the_games_of_the_results_file_once() {
        let dir = std::env::temp_dir().join(format!("tama-resume-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("g.pdn");
        let cut = game("1.4");
        let text = [
            game("1.2"),
            game("1.1"),
            game("1.3"),
            game("1.2"),
            cut[..cut.len() - 6].to_string(),
        ]
        .concat();
        std::fs::write(&path, &text).unwrap();
        let played = [entry("1.1"), entry("1.2"), entry("1.4")];
        assert_eq!(trim_pdn(&path, &played).unwrap(), 3);
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            [game("1.2"), game("1.1")].concat()
        );
        // Already in line: left as it is.
        assert_eq!(trim_pdn(&path, &played[..2]).unwrap(), 0);
        assert!(!dir.join("g.pdn.tmp").exists());
        assert_eq!(trim_pdn(&dir.join("none.pdn"), &played).unwrap(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
