//! One part of a run cut for a job system (Slurm arrays, GNU parallel, CI
//! matrices): `K/N` is the K-th of N disjoint parts. Matches (`tama match
//! -shard`) and data generation (`tama datagen --shard`) cut their runs
//! the same way: the run's units (games, or game pairs) are numbered from
//! 0 and unit `u` goes to part `u % N + 1`, so that every part gets a
//! similar mix.
//!
//! A crate of its own because both the match runner and the training crate
//! take it from the command line, and neither depends on the other.

use std::fmt;

/// `K/N`: part `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

/// A text that is not `K/N` with 1 <= K <= N.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseShardError {
    /// The text as given.
    pub text: String,
}

impl fmt::Display for ParseShardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected K/N with 1 <= K <= N, got {:?}", self.text)
    }
}

impl std::error::Error for ParseShardError {}

impl Shard {
    /// The whole run, as one part of one.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Reads `K/N` (1 <= K <= N).
    pub fn parse(text: &str) -> Result<Shard, ParseShardError> {
        let bad = || ParseShardError {
            text: text.to_string(),
        };
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count): (u32, u32) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether unit `unit` (from 0) of the run is this part's.
    pub fn owns(&self, unit: u64) -> bool {
        unit % self.count as u64 == (self.index - 1) as u64
    }

    /// How many of the units `0..units` of the run are this part's.
    pub fn units_of(&self, units: u64) -> u64 {
        let first = (self.index - 1) as u64;
        if units > first {
            (units - 1 - first) / self.count as u64 + 1
        } else {
            0
        }
    }

    /// The run's number of this part's `j`-th unit (from 0).
    pub fn unit(&self, j: u64) -> u64 {
        j * self.count as u64 + (self.index - 1) as u64
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shard(index: u32, count: u32) -> Shard {
        Shard { index, count }
    }

    #[test]
    fn parse_reads_k_of_n_and_refuses_the_rest() {
        assert_eq!(Shard::parse("2/3"), Ok(shard(2, 3)));
        assert_eq!(Shard::parse(" 1 / 1 "), Ok(Shard::WHOLE));
        for bad in ["", "0/3", "4/3", "1", "a/b", "1/0", "-1/3"] {
            let e = Shard::parse(bad).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("expected K/N with 1 <= K <= N, got {bad:?}")
            );
        }
        assert_eq!(shard(2, 3).to_string(), "2/3");
    }

    /// Part K/N takes the units u with u % N == K - 1, its j-th being
    /// u = j * N + K - 1. By hand, 6 units in 3 parts: part 1 takes units
    /// 0 and 3, part 2 units 1 and 4, part 3 units 2 and 5; of 5 units,
    /// part 3 takes only unit 2; of 2 units, part 3 none.
    #[test]
    fn the_parts_share_out_every_unit_once() {
        assert_eq!([1, 2, 3].map(|k| shard(k, 3).units_of(6)), [2, 2, 2]);
        assert_eq!([1, 2, 3].map(|k| shard(k, 3).units_of(5)), [2, 2, 1]);
        assert_eq!([1, 2, 3].map(|k| shard(k, 3).units_of(2)), [1, 1, 0]);
        assert_eq!([0, 1].map(|j| shard(2, 3).unit(j)), [1, 4]);
        for count in 1..=5u32 {
            for units in 0..=20u64 {
                let mut taken = vec![0; units as usize];
                for index in 1..=count {
                    let s = shard(index, count);
                    for j in 0..s.units_of(units) {
                        let u = s.unit(j);
                        assert!(s.owns(u), "{s} does not own its unit {u}");
                        taken[u as usize] += 1;
                    }
                    assert!(s.unit(s.units_of(units)) >= units, "{s} of {units}");
                    let owned = (0..units).filter(|&u| s.owns(u)).count() as u64;
                    assert_eq!(s.units_of(units), owned, "{s} of {units}");
                }
                assert!(taken.iter().all(|&t| t == 1), "{count} parts of {units}");
            }
        }
        // A run until stopped, not cut.
        assert_eq!(Shard::WHOLE.units_of(u64::MAX), u64::MAX);
    }
}
