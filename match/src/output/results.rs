//! The results file (`-results FILE.json`, format `tama-match-results-1`)
//! and `tama match --merge`, which adds results files into one table.
//!
//! The file is read and written with serde. Counts are what a merge adds;
//! the derived figures (score, Elo, LOS, the SPRT state) are written for
//! scripts and recomputed from the counts after a merge. A figure that is not
//! finite (an Elo at a score of 0 or 1) is written as null. Files written by
//! release 0.1.0 are read as they are (tests/fixtures/results-0.1.0.json).

use crate::schedule::shard::{check_merge, MergeError, ScheduleId};
use crate::stats::sprt::{Sprt, SprtDecision};
use crate::stats::tally::{GameEntry, PairResult, Summary};
use crate::Console;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tama_shard::Shard;

/// The `format` field of every results file.
pub const FORMAT: &str = "tama-match-results-1";

/// A results file. Every field may be missing when read (as in files
/// written by hand or by scripts), except the counts of a pair.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ResultsFile {
    pub format: String,
    pub event: String,
    pub rules: String,
    pub interrupted: bool,
    pub engines: Vec<String>,
    pub games_played: u64,
    pub pairs: Vec<PairEntry>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sprt: Option<SprtEntry>,
    /// Termination reason counts.
    pub terminations: BTreeMap<String, u64>,
    pub games: Vec<GameEntry>,
    /// The full schedule (absent in files of release 0.1.0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedule: Option<ScheduleId>,
    /// `-shard K/N`: which part of the schedule this file holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// A merge of shards that lacks some: which.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub shards_missing: Vec<u32>,
}

/// One pairing's results, from `first`'s point of view.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct PairEntry {
    pub first: String,
    pub second: String,
    #[serde(default)]
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    #[serde(default)]
    pub score: Option<f64>,
    #[serde(default)]
    pub elo: Option<f64>,
    #[serde(default)]
    pub elo_error95: Option<f64>,
    #[serde(default)]
    pub los: Option<f64>,
    #[serde(default)]
    pub draw_ratio: Option<f64>,
    /// [LL, LD, DD+WL, WD, WW] over the opening pairs.
    #[serde(default)]
    pub pentanomial: [u64; 5],
    #[serde(default)]
    pub penta_elo: Option<f64>,
    #[serde(default)]
    pub penta_elo_error95: Option<f64>,
}

/// The SPRT's settings and, when written, its state.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SprtEntry {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    #[serde(default)]
    pub llr: Option<f64>,
    #[serde(default)]
    pub lower: Option<f64>,
    #[serde(default)]
    pub upper: Option<f64>,
    /// `H1`, `H0` or `none`.
    #[serde(default)]
    pub decision: String,
    /// The model of `llr` and of the decision: `pentanomial` (games in
    /// opening pairs) or `trinomial` (absent in files of release 0.1.0).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub model: String,
    /// The trinomial LLR of the same games, for comparison.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub llr_trinomial: Option<f64>,
}

/// JSON has no infinities: a figure that is not finite is left out (null).
fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

impl PairEntry {
    fn of(p: &PairResult) -> PairEntry {
        let w = &p.wdl;
        let (elo, err) = w.elo().unwrap_or((f64::NAN, f64::NAN));
        let (pelo, perr) = p.penta.elo().unwrap_or((f64::NAN, f64::NAN));
        PairEntry {
            first: p.first.clone(),
            second: p.second.clone(),
            games: w.games(),
            wins: w.wins,
            draws: w.draws,
            losses: w.losses,
            score: w.score().and_then(finite),
            elo: finite(elo),
            elo_error95: finite(err),
            los: w.los().and_then(finite),
            draw_ratio: w.draw_ratio().and_then(finite),
            pentanomial: p.penta.0,
            penta_elo: finite(pelo),
            penta_elo_error95: finite(perr),
        }
    }
}

impl Summary {
    /// The results file of this summary.
    pub fn to_results(&self) -> ResultsFile {
        let sprt = match (self.sprt, self.sprt_state()) {
            (Some(sp), Some(st)) => Some(SprtEntry {
                elo0: sp.elo0,
                elo1: sp.elo1,
                alpha: sp.alpha,
                beta: sp.beta,
                llr: finite(st.llr),
                lower: finite(sp.lower_bound()),
                upper: finite(sp.upper_bound()),
                decision: match st.decision {
                    SprtDecision::H1 => "H1",
                    SprtDecision::H0 => "H0",
                    SprtDecision::Continue => "none",
                }
                .into(),
                model: st.model.name().into(),
                llr_trinomial: finite(st.llr_trinomial),
            }),
            _ => None,
        };
        ResultsFile {
            format: FORMAT.into(),
            event: self.event.clone(),
            rules: self.rules.clone(),
            interrupted: self.interrupted,
            engines: self.engines.clone(),
            games_played: self.games_played(),
            pairs: self.pairs.iter().map(PairEntry::of).collect(),
            sprt,
            terminations: self.terminations.clone(),
            games: self.games.clone(),
            schedule: self.schedule.clone(),
            shard: self.shard,
            shards_missing: self.shards_missing.clone(),
        }
    }

    /// Writes the results file.
    pub fn write_results(&self, path: &Path) -> Result<(), ResultsError> {
        self.to_results().write(path)
    }

    /// Adds a results file to this summary: its pairs by engine names (in
    /// either order), its termination counts and games. The rules must be
    /// those of the files added before.
    pub fn merge(&mut self, file: &ResultsFile) -> Result<(), ResultsError> {
        if file.format != FORMAT {
            return Err(ResultsError::NotResults);
        }
        if self.event.is_empty() {
            self.event = file.event.clone();
            self.rules = file.rules.clone();
        } else if file.rules != self.rules {
            return Err(ResultsError::DifferentRules(
                self.rules.clone(),
                file.rules.clone(),
            ));
        }
        for n in &file.engines {
            if !self.engines.contains(n) {
                self.engines.push(n.clone());
            }
        }
        for p in &file.pairs {
            let wdl = crate::stats::elo::Wdl {
                wins: p.wins,
                draws: p.draws,
                losses: p.losses,
            };
            let penta = crate::stats::pentanomial::Penta(p.pentanomial);
            let (entry, flipped) = self.pair_mut(&p.first, &p.second);
            if flipped {
                entry.wdl.add(&wdl.flipped());
                entry.penta.add(&penta.flipped());
            } else {
                entry.wdl.add(&wdl);
                entry.penta.add(&penta);
            }
        }
        for (why, n) in &file.terminations {
            *self.terminations.entry(why.clone()).or_default() += n;
        }
        if self.sprt.is_none() {
            self.sprt = file.sprt.as_ref().map(|s| Sprt {
                elo0: s.elo0,
                elo1: s.elo1,
                alpha: s.alpha,
                beta: s.beta,
            });
        }
        self.games.extend(file.games.iter().cloned());
        self.interrupted |= file.interrupted;
        self.paired |= file.schedule.as_ref().is_some_and(|id| id.repeat);
        Ok(())
    }
}

impl ResultsFile {
    /// Writes the file, atomically (see `write_atomically`).
    pub fn write(&self, path: &Path) -> Result<(), ResultsError> {
        let fail = |e: std::io::Error| ResultsError::Write(path.to_path_buf(), e);
        let mut text = serde_json::to_string_pretty(self).map_err(|e| fail(e.into()))?;
        text.push('\n');
        write_atomically(path, text.as_bytes()).map_err(fail)
    }
}

/// Writes `bytes` to `path` so that whoever reads `path`, whenever the
/// writer is killed, finds the old file or the new one, never a part: the
/// bytes go to `PATH.tmp` first, to the disk, then the file is renamed over
/// `path`.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut aside = path.as_os_str().to_owned();
    aside.push(".tmp");
    let aside = PathBuf::from(aside);
    let mut f = std::fs::File::create(&aside)?;
    f.write_all(bytes)?;
    f.sync_all()?;
    drop(f);
    std::fs::rename(&aside, path)
}

/// Reads a results file.
pub fn read_results(path: &Path) -> Result<ResultsFile, ResultsError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| ResultsError::Read(path.to_path_buf(), e))?;
    serde_json::from_str(&text).map_err(|e| ResultsError::Parse(path.to_path_buf(), e))
}

/// Why results files could not be read, written or merged.
#[derive(Debug)]
pub enum ResultsError {
    Read(PathBuf, std::io::Error),
    /// Not the JSON of a results file.
    Parse(PathBuf, serde_json::Error),
    Write(PathBuf, std::io::Error),
    /// JSON, but not of a tama match results file (no `format`).
    NotResults,
    /// Files of different rules (their texts, as the files give them).
    DifferentRules(String, String),
    /// Shards that do not make up one match.
    Merge(MergeError),
    /// What went wrong with one file of a merge.
    In(PathBuf, Box<ResultsError>),
}

impl std::fmt::Display for ResultsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResultsError::Read(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            ResultsError::Parse(path, e) => write!(f, "{}: {e}", path.display()),
            ResultsError::Write(path, e) => write!(f, "cannot write {}: {e}", path.display()),
            ResultsError::NotResults => write!(f, "not a tama match results file"),
            ResultsError::DifferentRules(a, b) => {
                write!(
                    f,
                    "results were played under different rules ({a:?} and {b:?})"
                )
            }
            ResultsError::Merge(e) => write!(f, "{e}"),
            ResultsError::In(path, e) => write!(f, "{}: {e}", path.display()),
        }
    }
}

impl std::error::Error for ResultsError {}

/// `tama match --merge`: adds results files into one table (and one results
/// file); `sprt` (from the command line) replaces the files' own settings.
pub fn merge_command(
    files: &[PathBuf],
    results: Option<&Path>,
    sprt: Option<Sprt>,
    console: &mut Console,
) -> i32 {
    match merge_files(files, sprt) {
        Ok(summary) => {
            if !summary.shards_missing.is_empty() {
                errln!(
                console,
                    "warning: shards {:?} are missing: these are not the figures of the whole match",
                    summary.shards_missing
                );
            }
            outln!(console, "{}", summary.table());
            if let Some(path) = results {
                if let Err(e) = summary.write_results(path) {
                    errln!(console, "error: {e}");
                    return 1;
                }
            }
            0
        }
        Err(e) => {
            errln!(console, "error: {e}");
            2
        }
    }
}

/// Reads and adds results files; shards must be shards of one match
/// (`shard::check_merge`), and their games are put back in schedule order.
pub fn merge_files(files: &[PathBuf], sprt: Option<Sprt>) -> Result<Summary, ResultsError> {
    let read: Vec<ResultsFile> = files
        .iter()
        .map(|f| read_results(f))
        .collect::<Result<_, _>>()?;
    let ids: Vec<(String, Option<ScheduleId>, Option<Shard>)> = files
        .iter()
        .zip(&read)
        .map(|(f, r)| (f.display().to_string(), r.schedule.clone(), r.shard))
        .collect();
    let covered = check_merge(&ids).map_err(ResultsError::Merge)?;
    let mut summary = Summary {
        sprt,
        ..Summary::default()
    };
    for (f, file) in files.iter().zip(&read) {
        summary
            .merge(file)
            .map_err(|e| ResultsError::In(f.clone(), Box::new(e)))?;
    }
    if covered.schedule.is_some() {
        summary.games.sort_by_key(|g| game_number(&g.round));
        summary.schedule = covered.schedule;
        summary.shards_missing = covered.missing;
    }
    Ok(summary)
}

/// `round.game` as numbers, for the schedule order of merged games.
fn game_number(round: &str) -> (u64, u64) {
    let (r, g) = round.split_once('.').unwrap_or((round, "0"));
    (r.parse().unwrap_or(0), g.parse().unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::elo::Wdl;
    use crate::stats::pentanomial::Penta;

    /// Written by `tama match` of release 0.1.0 (two copies of 0.1.0 at
    /// depths 1 and 3, three rounds with -repeat, -sprt); see
    /// docs/testing.md.
    const RELEASE_0_1_0: &str = include_str!("../../../tests/fixtures/results-0.1.0.json");

    /// The two shards of one match, written by `tama match` of release
    /// 0.2.0 (schedule identity of format 1): `tama match -engine
    /// cmd=tama-0.2.0 name=old-A option.Hash=8 -engine cmd=tama-0.2.0
    /// name=old-B option.Hash=8 -each depth=2 -rounds 3 -repeat -maxmoves 60
    /// -draw movenumber=20 movecount=4 score=5 -event "release 0.2.0
    /// fixture" -shard K/2 -results results-0.2.0-shardK.json`.
    fn release_0_2_0_shards() -> Vec<PathBuf> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures");
        (1..=2)
            .map(|k| dir.join(format!("results-0.2.0-shard{k}.json")))
            .collect()
    }

    fn round_trip(s: &Summary) -> ResultsFile {
        let text = serde_json::to_string_pretty(&s.to_results()).unwrap();
        serde_json::from_str(&text).unwrap()
    }

    #[test]
    fn merge_adds_counts_in_either_order() {
        let mut a = Summary {
            event: "e".into(),
            rules: "r".into(),
            engines: vec!["A".into(), "B".into()],
            ..Summary::default()
        };
        {
            let (p, _) = a.pair_mut("A", "B");
            p.wdl = Wdl {
                wins: 5,
                draws: 3,
                losses: 2,
            };
            p.penta = Penta([0, 1, 2, 1, 1]);
        }
        a.terminations.insert("x".into(), 10);
        let mut b = Summary {
            event: "e".into(),
            rules: "r".into(),
            engines: vec!["B".into(), "A".into()],
            ..Summary::default()
        };
        {
            let (p, _) = b.pair_mut("B", "A");
            p.wdl = Wdl {
                wins: 1,
                draws: 0,
                losses: 4,
            };
            p.penta = Penta([0, 0, 1, 1, 0]);
        }
        let mut m = Summary::default();
        m.merge(&round_trip(&a)).unwrap();
        m.merge(&round_trip(&b)).unwrap();
        assert_eq!(m.pairs.len(), 1);
        assert_eq!(
            m.pairs[0].wdl,
            Wdl {
                wins: 9,
                draws: 3,
                losses: 3
            }
        );
        assert_eq!(m.pairs[0].penta, Penta([0, 2, 3, 1, 1]));
        assert_eq!(m.terminations["x"], 10);
        assert!(m.table().contains("W 9 D 3 L 3"));
        // Different rules are refused, and so is a file of another format.
        let mut c = Summary {
            rules: "other".into(),
            ..b.clone()
        };
        c.event = "e".into();
        assert!(m.merge(&round_trip(&c)).is_err());
        assert!(m.merge(&ResultsFile::default()).is_err());
    }

    #[test]
    fn files_of_release_0_1_0_are_read() {
        let file: ResultsFile = serde_json::from_str(RELEASE_0_1_0).unwrap();
        let mut m = Summary::default();
        m.merge(&file).unwrap();
        assert_eq!(m.event, "release 0.1.0 fixture");
        assert_eq!(m.engines, ["old-A", "old-B"]);
        // By hand from the fixture: B won all six games, three pairs LL.
        assert_eq!(
            m.pairs[0].wdl,
            Wdl {
                wins: 0,
                draws: 0,
                losses: 6
            }
        );
        assert_eq!(m.pairs[0].penta, Penta([3, 0, 0, 0, 0]));
        assert_eq!(m.games.len(), 6);
        assert_eq!(m.games[0].plies, file.games[0].plies);
        assert_eq!(m.terminations.values().sum::<u64>(), 6);
        let sprt = m.sprt.unwrap();
        assert_eq!((sprt.elo0, sprt.elo1), (0.0, 10.0));
        // The Elo of a 0% score is not finite: null in the file, and again
        // when written back.
        assert_eq!(file.pairs[0].elo, None);
        let again = m.to_results();
        assert_eq!(again.pairs[0].elo, None);
        assert_eq!(again.games_played, 6);
    }

    #[test]
    fn shards_of_release_0_2_0_are_read_and_merged() {
        let files = release_0_2_0_shards();
        let m = merge_files(&files, None).unwrap();
        // As 0.2.0's own --merge of the two files has it.
        assert_eq!(m.event, "release 0.2.0 fixture");
        assert_eq!(
            m.pairs[0].wdl,
            Wdl {
                wins: 1,
                draws: 4,
                losses: 1
            }
        );
        assert_eq!(m.pairs[0].penta, Penta([0, 0, 3, 0, 0]));
        assert!(m.shards_missing.is_empty());
        let rounds: Vec<&str> = m.games.iter().map(|g| g.round.as_str()).collect();
        assert_eq!(rounds, ["1.1", "1.2", "2.1", "2.2", "3.1", "3.2"]);
        let id = m.schedule.clone().unwrap();
        assert_eq!((id.format, id.games_total, id.shards), (1, 6, 2));
        assert!(id.adjudication.starts_with("Adjudication {"), "{id:?}");
        // Written back, the merge keeps the identity as it was read.
        assert_eq!(round_trip(&m).schedule, Some(id));
        // A shard written now (format 2) is not merged with them: the texts
        // of one schedule differ between the formats.
        let old = read_results(&files[0]).unwrap();
        let mut now = read_results(&files[1]).unwrap();
        now.schedule.as_mut().unwrap().format = ScheduleId::FORMAT;
        let e = check_merge(&[
            ("old".into(), old.schedule, old.shard),
            ("now".into(), now.schedule, now.shard),
        ])
        .unwrap_err();
        assert!(e.to_string().contains("different versions of tama"), "{e}");
    }

    #[test]
    fn bad_files_are_errors_not_panics() {
        for bad in [
            "",
            "{",
            "[1]",
            "{\"pairs\": [{\"first\": \"A\", \"second\": \"B\"}]}",
            "{\"pairs\": [{\"first\": \"A\", \"second\": \"B\", \"wins\": -1, \"draws\": 0, \"losses\": 0}]}",
            "{\"pairs\": [{\"first\": \"A\", \"second\": \"B\", \"wins\": 1, \"draws\": 0, \"losses\": 0, \"pentanomial\": [1, 2]}]}",
            "{\"games\": [{\"round\": \"1.1\"}]}",
        ] {
            assert!(
                serde_json::from_str::<ResultsFile>(bad).is_err(),
                "{bad:?}"
            );
        }
        let deep = "[".repeat(1000);
        assert!(serde_json::from_str::<ResultsFile>(&deep).is_err());
        // Well-formed but not a results file: refused by the merge.
        let other: ResultsFile = serde_json::from_str("{\"x\": 1}").unwrap();
        assert!(Summary::default().merge(&other).is_err());
    }
}
