//! The build as a graph of jobs for a cluster's job system: one job builds
//! one pair (a signature and its flipped twin), and needs the tables its
//! captures and crownings lead to. A job's level is one more than the
//! highest level it needs (0: it needs nothing), so the jobs of a level can
//! all run at once, on any machines sharing the table directory, once the
//! levels below are done.

use super::build::{build_bytes_per_entry, build_pair};
use super::file::{file_name, Encoding, HEADER_LEN};
use super::probe::{EgtbError, Table, Tablebase};
use super::signature::{Signature, SignatureError, MAX_PIECES};
use super::{BuildOptions, Progress, TableIndex};
use std::path::Path;

/// One pair of tables to build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The signature and its flipped twin (one when it is its own), in
    /// build order.
    pub signatures: Vec<Signature>,
    /// 0 for a job that needs no table, else one more than the highest
    /// level of the jobs it needs.
    pub level: u32,
    /// The tables its exits lead to (the job reads them, and nothing else).
    pub inputs: Vec<Signature>,
    /// The jobs that build `inputs`, by position in the list of all jobs.
    pub needs: Vec<usize>,
}

impl Job {
    /// `KvKK+KKvK`: the pair, as `tama egtb build --job` takes it.
    pub fn name(&self) -> String {
        self.signatures
            .iter()
            .map(Signature::to_string)
            .collect::<Vec<_>>()
            .join("+")
    }

    /// Entries of the pair together.
    pub fn entries(&self) -> u64 {
        self.signatures
            .iter()
            .map(|&s| TableIndex::new(s).len())
            .sum()
    }

    /// Bytes of the pair's files, tables of up to `distance_pieces` pieces
    /// keeping distances.
    pub fn file_bytes(&self, distance_pieces: u32) -> u64 {
        self.signatures
            .iter()
            .map(|&s| file_bytes(s, distance_pieces))
            .sum()
    }

    /// Memory the job's build holds at most: a cell per entry, the payload
    /// of the larger table as it is written, and the input files, mapped
    /// and read at random (so resident in the end).
    pub fn build_memory(&self, distance_pieces: u32) -> u64 {
        let distances = self.signatures[0].pieces() <= distance_pieces;
        let payload = self
            .signatures
            .iter()
            .map(|&s| file_bytes(s, distance_pieces) - HEADER_LEN as u64)
            .max()
            .unwrap_or(0);
        let inputs: u64 = self
            .inputs
            .iter()
            .map(|&s| file_bytes(s, distance_pieces))
            .sum();
        self.entries() * build_bytes_per_entry(distances) + payload + inputs
    }
}

/// Bytes of the file of `signature`: distances take a byte an entry (two
/// if one reaches 255, which none of up to 4 pieces does), win/draw/loss
/// 2 bits.
pub fn file_bytes(signature: Signature, distance_pieces: u32) -> u64 {
    let encoding = if signature.pieces() <= distance_pieces {
        Encoding::Dtm8
    } else {
        Encoding::Wdl2
    };
    HEADER_LEN as u64 + encoding.payload_len(TableIndex::new(signature).len())
}

/// Every job of up to `max_pieces` pieces, in build order (so every job
/// comes after those it needs), with its level.
pub fn jobs(max_pieces: u32) -> Vec<Job> {
    let order = Signature::build_order(max_pieces);
    let mut jobs: Vec<Job> = Vec::new();
    let mut job_of = vec![usize::MAX; Signature::ID_LIMIT];
    let mut i = 0;
    while i < order.len() {
        let first = order[i];
        let signatures = if first.flipped() == first {
            vec![first]
        } else {
            vec![first, first.flipped()]
        };
        i += signatures.len();
        let mut inputs: Vec<Signature> = signatures.iter().flat_map(|&s| exits(s)).collect();
        inputs.sort();
        inputs.dedup();
        let mut needs: Vec<usize> = inputs.iter().map(|s| job_of[s.id()]).collect();
        needs.sort_unstable();
        needs.dedup();
        assert!(
            needs.iter().all(|&n| n < jobs.len()),
            "build order puts every input first"
        );
        let level = needs.iter().map(|&n| jobs[n].level + 1).max().unwrap_or(0);
        for s in &signatures {
            job_of[s.id()] = jobs.len();
        }
        jobs.push(Job {
            signatures,
            level,
            inputs,
            needs,
        });
    }
    jobs
}

/// The job that builds `name`: a pair as `jobs` names it (`KvKK+KKvK`), or
/// either of its signatures.
pub fn find_job(name: &str) -> Result<Job, JobError> {
    let first = name.split('+').next().unwrap_or(name);
    let signature = Signature::parse(first).map_err(JobError::Signature)?;
    let job = jobs(signature.pieces())
        .into_iter()
        .find(|j| j.signatures.contains(&signature))
        .ok_or(JobError::NoJob(signature))?;
    if name.contains('+') && name != job.name() {
        return Err(JobError::NotAPair {
            name: name.to_string(),
            pair: job.name(),
        });
    }
    Ok(job)
}

/// Why `find_job` found no job of the name given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobError {
    /// The (first) signature does not parse.
    Signature(SignatureError),
    /// No job builds this signature (one side without pieces).
    NoJob(Signature),
    /// A pair that is not a job's: the signature's job pairs it otherwise.
    NotAPair {
        /// The name given.
        name: String,
        /// The name of the job that builds its first signature.
        pair: String,
    },
}

impl std::fmt::Display for JobError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            JobError::Signature(e) => write!(f, "{e}"),
            JobError::NoJob(signature) => write!(f, "no job builds {signature}"),
            JobError::NotAPair { name, pair } => {
                write!(f, "no job {name:?} (the pair is {pair})")
            }
        }
    }
}

impl std::error::Error for JobError {}

/// The signatures (with the other side to move) that a capture or a
/// crowning from `s` can lead to: some of their pieces taken, and our mover
/// perhaps crowned. A few may be unreachable; none reachable is missing,
/// and a position left without pieces for the side to move needs no table.
fn exits(s: Signature) -> Vec<Signature> {
    let mut out = Vec::new();
    let crownings = if s.us_men > 0 { 1 } else { 0 };
    for crowned in 0..=crownings {
        let (men, kings) = (s.us_men - crowned, s.us_kings + crowned);
        for them_men in 0..=s.them_men {
            for them_kings in 0..=s.them_kings {
                let taken = s.them_men - them_men + s.them_kings - them_kings;
                if (taken == 0 && crowned == 0) || them_men + them_kings == 0 {
                    continue;
                }
                out.push(Signature::new(them_men, them_kings, men, kings));
            }
        }
    }
    debug_assert!(out.iter().all(|e| e.pieces() <= MAX_PIECES));
    out
}

/// Builds every missing table of `opts.max_pieces` or fewer pieces into
/// `dir` and returns them all, opened. Tables already there (from an
/// interrupted run) are checked and kept; a damaged one is an error.
pub fn build(
    dir: &Path,
    opts: &BuildOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<Tablebase, EgtbError> {
    assert!(
        (2..=MAX_PIECES).contains(&opts.max_pieces),
        "pieces must be 2..={MAX_PIECES}"
    );
    std::fs::create_dir_all(dir).map_err(super::probe::io_error(dir))?;
    let mut known = Tablebase::empty(opts.rules);
    for job in jobs(opts.max_pieces) {
        build_pair(dir, opts, &job.signatures, &mut known, progress)?;
    }
    Ok(known)
}

/// Runs one job: opens its inputs from `dir` (each file checked whole,
/// checksum included; a missing one is an error naming the job that builds
/// it) and builds its pair there, or keeps it when its files are already
/// there and sound (a job run twice does its work once).
pub fn build_job(
    dir: &Path,
    opts: &BuildOptions,
    job: &Job,
    progress: &mut dyn FnMut(Progress),
) -> Result<(), EgtbError> {
    let all = jobs(job.signatures[0].pieces());
    let mut known = Tablebase::empty(opts.rules);
    for &s in &job.inputs {
        let path = dir.join(file_name(opts.rules, s));
        if !path.exists() {
            let builder = all
                .iter()
                .find(|j| j.signatures.contains(&s))
                .expect("every input has a job");
            return Err(EgtbError::MissingInput {
                path,
                job: builder.name(),
                level: builder.level,
            });
        }
        known.insert(Table::open(&path, opts.rules, s)?);
    }
    std::fs::create_dir_all(dir).map_err(super::probe::io_error(dir))?;
    build_pair(dir, opts, &job.signatures, &mut known, progress)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egtb::Placement;
    use crate::movegen;
    use crate::rules::Rules;

    /// Every capture and crowning of every 2- and 3-piece position, in
    /// both variants and with mid-capture promotion, leads to a table that
    /// `exits` lists (a missing one would stop a job's build midway).
    #[test]
    fn exits_hold_every_table_a_move_leaves_for() {
        let rules = [
            Rules::ARMENIAN,
            Rules::TURKISH,
            Rules {
                mid_capture_promotion: true,
                ..Rules::default()
            },
        ];
        for rules in rules {
            for s in Signature::build_order(3) {
                let exits = exits(s);
                let index = TableIndex::new(s);
                for i in (0..index.len()).filter(|&i| index.positions_of(i) > 0) {
                    let pos = index.placement(i).to_position(rules);
                    for mv in movegen::legal_moves(&pos).iter() {
                        let child = Placement::of(&pos.play(mv));
                        if child.us.is_empty() || (!mv.is_capture() && !mv.promotes) {
                            continue;
                        }
                        assert!(
                            exits.contains(&child.signature()),
                            "{} ({rules}) -> {}",
                            pos.fen(),
                            child.signature()
                        );
                    }
                }
            }
        }
    }

    /// Hand-counted levels: KvK needs nothing (a capture ends the game);
    /// MvK crowns into KvK; KKvK captures into KvK; MMvK needs KMvK, which
    /// needs KKvK and KvK... so levels follow the longest such chain.
    #[test]
    fn levels_follow_the_longest_chain_of_inputs() {
        let all = jobs(3);
        let level = |name: &str| {
            let s = Signature::parse(name).unwrap();
            all.iter()
                .find(|j| j.signatures.contains(&s))
                .unwrap()
                .level
        };
        assert_eq!(level("KvK"), 0);
        assert_eq!(level("KvM"), 1); // crowns (and captures) into KvK
        assert_eq!(level("MvM"), 2); // crowns into MvK / KvM
        assert_eq!(level("KKvK"), 1);
        assert_eq!(level("KMvK"), 2); // crowns into KKvK
        assert_eq!(level("MMvK"), 3); // crowns into KMvK
        assert_eq!(find_job("KKvK").unwrap().name(), "KvKK+KKvK");
        assert_eq!(find_job("KvKK+KKvK").unwrap().level, 1);
        let e = find_job("KKvK+KvKK").unwrap_err();
        assert_eq!(
            e.to_string(),
            "no job \"KKvK+KvKK\" (the pair is KvKK+KKvK)"
        );
        assert!(find_job("KKvKK+KvK").is_err());
        assert!(matches!(
            find_job("KKxK"),
            Err(JobError::Signature(SignatureError::NoSides(_)))
        ));
        for j in &all {
            for &n in &j.needs {
                assert!(
                    all[n].level < j.level,
                    "{} needs {}",
                    j.name(),
                    all[n].name()
                );
            }
        }
    }
}
