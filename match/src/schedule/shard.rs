//! Sharded matches: `-shard K/N` plays the K-th of N disjoint parts of the
//! full schedule, so that job systems (Slurm arrays, GNU parallel over ssh,
//! CI matrices) can play one match on many machines; `--merge` adds the
//! shards' results files back into the figures of the whole match.
//!
//! The schedule is built in full on every machine (same seed, openings,
//! colours and game numbers) and cut into units: an opening pair with
//! `-repeat` (its two games are scored together, so they stay together),
//! else a game. Unit i goes to shard (i mod N) + 1, so every shard gets a
//! similar mix of rounds, openings and colours. A shard is a pure function
//! of the command line: an interrupted shard is rerun alone.
//!
//! Each results file carries the identity of its schedule (`ScheduleId`):
//! shards merge only with shards of the same schedule.
//!
//! The identity is a JSON object of plain values and texts. Its `format`
//! says how the texts are written; a merge compares identities of one
//! format only. Format 2, the one written now:
//!
//! - `rules`: `variant V capture-removal C mid-capture-promotion B`;
//! - `engines`, one text each: `NAME proto=uci|hub args=[A ...]
//!   options=[NAME=VALUE ...] limits=L timemargin=Nms`, where a list item
//!   is written in double quotes (`\"` and `\\` inside) when it is empty
//!   or holds a space, a quote, a backslash or a bracket, and `L` is the
//!   time control as `-each` takes it (`40/60+0.5`, `st=1`, `depth=8`,
//!   `nodes=N`, space-separated; `-` for none);
//! - `openings`: `N openings (builtin|file NAME, order sequential|random,
//!   start K), fingerprint H`: `NAME` the file name without its directory,
//!   `H` 16 hex digits of FNV-1a over `START_FEN|MOVES\n` per opening, in
//!   playing order;
//! - `tournament`: `round-robin` or `gauntlet`;
//! - `adjudication`: `noprogress=N draw=movenumber=N,movecount=N,score=CP
//!   resign=movecount=N,score=CP maxmoves=N hangtimeout=Nms`, `off` for a
//!   rule not in use.
//!
//! Format 1 (0.2.0, files without `format`) wrote the same fields with Rust's
//! debug text (`proto=Uci`, `RoundRobin`, `Adjudication { ... }`); such
//! files are still read, and merge with each other.

use crate::config::Config;
use crate::schedule::Job;
use serde::{Deserialize, Serialize};
use tama_engine::openings::Opening;
use tama_shard::Shard;

/// The jobs of `shard`, in schedule order, with their game numbers
/// unchanged.
pub fn select(shard: Shard, jobs: Vec<Job>) -> Vec<Job> {
    let mut unit = 0u64;
    let mut out = Vec::new();
    for (i, job) in jobs.iter().enumerate() {
        // A new unit starts with every game that is not the second game
        // of the pair of the game before.
        if i > 0 && (job.pair.is_none() || job.pair != jobs[i - 1].pair) {
            unit += 1;
        }
        if shard.owns(unit) {
            out.push(job.clone());
        }
    }
    out
}

/// What makes two results files parts of one match: everything that
/// decides which games are played and how they are judged. The engines'
/// program paths are left out (they differ between machines): the same
/// name must mean the same program.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ScheduleId {
    /// How the texts below are written (see the module comment); absent in
    /// the files of 0.2.0, which are format 1.
    #[serde(default = "ScheduleId::format_of_0_2_0")]
    pub format: u32,
    pub seed: u64,
    pub rules: String,
    /// Each engine: its name, arguments, options and limits.
    pub engines: Vec<String>,
    /// How many openings, where from, and a fingerprint of the list in
    /// playing order.
    pub openings: String,
    pub tournament: String,
    pub rounds: u32,
    pub games: u32,
    pub repeat: bool,
    pub adjudication: String,
    /// Games in the full schedule.
    pub games_total: u64,
    /// Into how many shards it is cut (1: not sharded).
    pub shards: u32,
}

impl ScheduleId {
    /// The format this build writes.
    pub const FORMAT: u32 = 2;

    fn format_of_0_2_0() -> u32 {
        1
    }

    /// The identity of the schedule of `c` over `openings` (in playing
    /// order), `games_total` games in all.
    pub fn of(c: &Config, openings: &[Opening], games_total: usize) -> ScheduleId {
        let engines = c
            .engines
            .iter()
            .map(|e| {
                let options: Vec<String> = e
                    .command
                    .options
                    .iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect();
                format!(
                    "{} proto={} args={} options={} limits={} timemargin={}",
                    e.command.name,
                    e.command.proto,
                    list(&e.command.args),
                    list(&options),
                    e.tc.describe(),
                    millis(e.timemargin.unwrap_or(c.timemargin))
                )
            })
            .collect();
        let mut text = String::new();
        for o in openings {
            text.push_str(&o.start.fen());
            text.push('|');
            text.push_str(&o.moves);
            text.push('\n');
        }
        let source = match &c.openings.file {
            None => "builtin".to_string(),
            Some(p) => format!("file {}", file_name(p)),
        };
        ScheduleId {
            format: Self::FORMAT,
            seed: c.seed,
            rules: c.rules.to_string(),
            engines,
            openings: format!(
                "{} openings ({source}, order {}, start {}), fingerprint {:016x}",
                openings.len(),
                c.openings.order,
                c.openings.start,
                fnv1a(text.as_bytes())
            ),
            tournament: c.tournament.to_string(),
            rounds: c.rounds,
            games: c.games,
            repeat: c.repeat,
            adjudication: format!("{} hangtimeout={}", c.adjudication, millis(c.hang_timeout)),
            games_total: games_total as u64,
            shards: c.shard.map_or(1, |s| s.count),
        }
    }

    /// The first difference from `other`, named for the user, or None.
    pub fn difference(&self, other: &ScheduleId) -> Option<String> {
        if self.format != other.format {
            return Some(format!(
                "they were written by different versions of tama (schedule format {} and {}): \
                 play every shard with the same version",
                self.format, other.format
            ));
        }
        let fields: [(&str, String, String); 11] = [
            ("seed", self.seed.to_string(), other.seed.to_string()),
            ("rules", self.rules.clone(), other.rules.clone()),
            ("engines", self.engines.join("; "), other.engines.join("; ")),
            ("openings", self.openings.clone(), other.openings.clone()),
            (
                "tournament",
                self.tournament.clone(),
                other.tournament.clone(),
            ),
            ("rounds", self.rounds.to_string(), other.rounds.to_string()),
            ("games", self.games.to_string(), other.games.to_string()),
            ("repeat", self.repeat.to_string(), other.repeat.to_string()),
            (
                "adjudication",
                self.adjudication.clone(),
                other.adjudication.clone(),
            ),
            (
                "games in the schedule",
                self.games_total.to_string(),
                other.games_total.to_string(),
            ),
            (
                "number of shards",
                self.shards.to_string(),
                other.shards.to_string(),
            ),
        ];
        fields
            .into_iter()
            .find(|(_, a, b)| a != b)
            .map(|(what, a, b)| format!("their {what} differ ({a:?} and {b:?})"))
    }
}

/// What the shards among the files of a merge cover.
#[derive(Debug, Default, PartialEq)]
pub struct Covered {
    /// The schedule the shards share (None: no file is a shard).
    pub schedule: Option<ScheduleId>,
    /// Shards of that schedule that no file holds.
    pub missing: Vec<u32>,
}

/// Why files do not merge as the shards of one match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// A whole match given with a shard.
    WholeWithShard { whole: String, shard: String },
    /// A shard's file without its schedule identity.
    NoSchedule(String),
    /// Two shards of different matches, and what differs.
    OtherMatch {
        first: String,
        other: String,
        difference: String,
    },
    /// The same shard in two files.
    Twice {
        shard: Shard,
        before: String,
        again: String,
    },
}

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MergeError::WholeWithShard { whole, shard } => write!(
                f,
                "{whole} is a whole match and {shard} a shard: a shard merges only with the other shards of its match"
            ),
            MergeError::NoSchedule(name) => write!(f, "{name}: a shard without its schedule"),
            MergeError::OtherMatch {
                first,
                other,
                difference,
            } => write!(f, "{first} and {other} are not shards of one match: {difference}"),
            MergeError::Twice {
                shard,
                before,
                again,
            } => write!(f, "shard {shard} is given twice ({before} and {again})"),
        }
    }
}

impl std::error::Error for MergeError {}

/// Checks the files of a merge (name, schedule, shard): shards merge only
/// with shards of the same schedule, each once, and not with whole
/// matches; whole matches (no shard) merge as before.
pub fn check_merge(
    files: &[(String, Option<ScheduleId>, Option<Shard>)],
) -> Result<Covered, MergeError> {
    let shards: Vec<_> = files.iter().filter(|f| f.2.is_some()).collect();
    let Some(first) = shards.first() else {
        return Ok(Covered::default());
    };
    if let Some(whole) = files.iter().find(|f| f.2.is_none()) {
        return Err(MergeError::WholeWithShard {
            whole: whole.0.clone(),
            shard: first.0.clone(),
        });
    }
    let id = first
        .1
        .clone()
        .ok_or_else(|| MergeError::NoSchedule(first.0.clone()))?;
    let mut seen: Vec<(u32, &str)> = Vec::new();
    for (name, schedule, shard) in shards.iter().map(|f| (&f.0, &f.1, f.2)) {
        let other = schedule
            .as_ref()
            .ok_or_else(|| MergeError::NoSchedule(name.clone()))?;
        if let Some(d) = id.difference(other) {
            return Err(MergeError::OtherMatch {
                first: first.0.clone(),
                other: name.clone(),
                difference: d,
            });
        }
        let k = shard.map_or(0, |s| s.index);
        if let Some((_, before)) = seen.iter().find(|(i, _)| *i == k) {
            return Err(MergeError::Twice {
                shard: Shard {
                    index: k,
                    count: id.shards,
                },
                before: before.to_string(),
                again: name.clone(),
            });
        }
        seen.push((k, name.as_str()));
    }
    let missing = (1..=id.shards)
        .filter(|k| !seen.iter().any(|(i, _)| i == k))
        .collect();
    Ok(Covered {
        schedule: Some(id),
        missing,
    })
}

/// `[A B ...]`, each item quoted when it would not read back as one item
/// (see the module comment).
fn list(items: &[String]) -> String {
    let quoted: Vec<String> = items
        .iter()
        .map(|item| {
            let plain = !item.is_empty()
                && !item
                    .chars()
                    .any(|c| c.is_whitespace() || matches!(c, '"' | '\\' | '[' | ']'));
            if plain {
                item.clone()
            } else {
                format!("\"{}\"", item.replace('\\', "\\\\").replace('"', "\\\""))
            }
        })
        .collect();
    format!("[{}]", quoted.join(" "))
}

/// A duration as whole milliseconds: `1500ms`.
fn millis(d: std::time::Duration) -> String {
    format!("{}ms", d.as_millis())
}

/// The file name alone: the same openings file may sit in different
/// directories on different machines.
fn file_name(p: &std::path::Path) -> String {
    p.file_name()
        .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
}

/// FNV-1a, 64 bits: a fingerprint of the openings list (not a security
/// hash; it tells lists apart, nothing more).
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::EngineSpec;
    use crate::schedule::schedule;

    fn two_engines(rounds: u32, repeat: bool) -> Config {
        let mut c = Config {
            rounds,
            games: if repeat { 2 } else { 1 },
            repeat,
            ..Config::default()
        };
        for n in ["A", "B"] {
            let mut e = EngineSpec::default();
            e.command.name = n.into();
            c.engines.push(e);
        }
        c
    }

    #[test]
    fn shards_cut_the_schedule_into_disjoint_parts_keeping_pairs() {
        for repeat in [true, false] {
            let c = two_engines(7, repeat);
            let all = schedule(&c, 5);
            let key = |j: &Job| (j.round, j.game_in_round);
            let mut seen: Vec<(u32, u32)> = Vec::new();
            for k in 1..=3 {
                let part = select(Shard { index: k, count: 3 }, all.clone());
                assert!(!part.is_empty());
                // Every game keeps its number, colours and opening.
                for j in &part {
                    let same = all.iter().find(|a| key(a) == key(j)).unwrap();
                    assert_eq!(
                        (same.white, same.black, same.opening),
                        (j.white, j.black, j.opening)
                    );
                }
                if repeat {
                    // Both games of each pair, one after the other.
                    assert_eq!(part.len() % 2, 0);
                    for two in part.chunks(2) {
                        assert_eq!(two[0].pair, two[1].pair);
                        assert!(two[0].pair.is_some());
                    }
                }
                seen.extend(part.iter().map(key));
            }
            // Disjoint, and together the whole schedule.
            let mut expect: Vec<(u32, u32)> = all.iter().map(key).collect();
            seen.sort();
            expect.sort();
            assert_eq!(seen, expect, "repeat {repeat}");
        }
        // With -repeat, 7 rounds = 7 pairs: shard 1/3 has pairs 0, 3, 6.
        let part = select(
            Shard { index: 1, count: 3 },
            schedule(&two_engines(7, true), 5),
        );
        let rounds: Vec<u32> = part.iter().map(|j| j.round).collect();
        assert_eq!(rounds, [1, 1, 4, 4, 7, 7]);
    }

    #[test]
    fn the_schedule_identity_is_written_as_documented() {
        use crate::client::Proto;
        use crate::config::{Order, Tournament};
        use crate::play::adjudication::DrawAdjudication;
        use std::time::Duration;
        let mut c = two_engines(2, true);
        let a = &mut c.engines[0];
        a.command.args = ["--x", "a b", "", "q\"\\", "[y]"]
            .map(String::from)
            .to_vec();
        a.command.options = vec![("Hash".into(), "8".into())];
        a.tc.depth = Some(8);
        let b = &mut c.engines[1];
        b.command.proto = Proto::Hub;
        b.timemargin = Some(Duration::from_millis(250));
        c.tournament = Tournament::Gauntlet;
        c.openings.order = Order::Random;
        c.adjudication.draw = Some(DrawAdjudication {
            movenumber: 20,
            movecount: 4,
            score: 5,
        });
        c.adjudication.maxmoves = Some(60);
        let openings = tama_engine::openings::builtin(c.rules).unwrap();
        let id = ScheduleId::of(&c, &openings[..2], 4);
        assert_eq!(id.format, 2);
        assert_eq!(
            id.engines,
            [
                r#"A proto=uci args=[--x "a b" "" "q\"\\" "[y]"] options=[Hash=8] limits=depth=8 timemargin=100ms"#,
                "B proto=hub args=[] options=[] limits=- timemargin=250ms",
            ]
        );
        let fingerprint = id
            .openings
            .strip_prefix("2 openings (builtin, order random, start 1), fingerprint ")
            .unwrap();
        assert!(fingerprint.len() == 16 && u64::from_str_radix(fingerprint, 16).is_ok());
        assert_eq!(id.tournament, "gauntlet");
        assert_eq!(
            id.adjudication,
            "noprogress=off draw=movenumber=20,movecount=4,score=5 resign=off maxmoves=60 \
             hangtimeout=60000ms"
        );
        assert_eq!(
            id.rules,
            "variant armenian capture-removal immediate mid-capture-promotion false"
        );
        // Written and read back unchanged.
        let text = serde_json::to_string(&id).unwrap();
        assert_eq!(serde_json::from_str::<ScheduleId>(&text).unwrap(), id);
    }

    #[test]
    fn shard_flags_and_differences() {
        let a = ScheduleId {
            seed: 1,
            shards: 4,
            ..ScheduleId::default()
        };
        assert_eq!(a.difference(&a.clone()), None);
        let b = ScheduleId {
            seed: 2,
            ..a.clone()
        };
        assert!(a.difference(&b).unwrap().contains("seed"));
        let c = ScheduleId {
            openings: "x".into(),
            ..a.clone()
        };
        assert!(a.difference(&c).unwrap().contains("openings"));
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
