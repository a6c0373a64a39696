//! The games of data files as training and validation samples.
//!
//! The split is by game, not by position: the positions of one game are
//! too alike to test each other. A game goes to the validation set when a
//! hash of its first kept position falls in the `valid_percent` share, so
//! the split depends on the games alone, not on the files they come in or
//! their order there: a run merged from shards, the shards themselves, the
//! same files in another order all split alike. Games from one start
//! (the same opening and random plies: the same game, when the settings
//! are the same) fall on the same side.
//!
//! A position is a sample once. Games repeat positions (openings,
//! transpositions, whole games when two game numbers draw the same start),
//! and a position counted many times weighs that much more in the fit and,
//! worse, can be both trained on and validated on. So every position
//! becomes one sample, its score and result the means over its
//! occurrences; a position that occurs in a validation game is a
//! validation sample only, its occurrences in training games dropped. The
//! samples come out sorted by a hash of the position: no order of the
//! input survives, so the fit too is the same whatever the order.
//!
//! This is done when the data is read for training, not when files are
//! merged: a data file is the record of the games as they were played (a
//! merged file is byte for byte the whole run's), and the repeats that
//! matter most are between files (two runs, two generations), which only
//! the training sees together.
//!
//! `Split::FileOrder` is the split of 0.2.0, kept to train the shipped
//! sets again: by file and game number, every occurrence a sample.

use crate::error::UnknownSplit;
use crate::record::{position_key, GameRecord, PositionKey};
use crate::trainer::Sample;
use tama_engine::rng::Rng;

/// How games are assigned to the validation set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// By a hash of the game's first kept position; positions deduplicated.
    Position,
    /// By file and game number, as 0.2.0; every occurrence a sample.
    FileOrder,
}

impl std::str::FromStr for Split {
    type Err = UnknownSplit;
    fn from_str(s: &str) -> Result<Split, UnknownSplit> {
        match s {
            "position" => Ok(Split::Position),
            "file-order" => Ok(Split::FileOrder),
            _ => Err(format!("expected position or file-order, got {s:?}").into()),
        }
    }
}

/// A fixed mix of 64 bits (the finaliser of SplitMix64): the hashes below
/// must not change with the engine's random generator, or old data would
/// split anew.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The hash of a position, from its bytes in the data file.
pub fn position_hash(key: &PositionKey) -> u64 {
    let (occupied, black, kings, side) = *key;
    let pieces = black as u64 | (kings as u64) << 32;
    mix(mix(mix(occupied) ^ pieces) ^ side as u64)
}

/// Whether a game whose first kept position has key `first` is a
/// validation game.
pub fn is_validation(first: &PositionKey, valid_percent: u32) -> bool {
    position_hash(first) % 100 < valid_percent as u64
}

/// One occurrence of a position, before the repeats are merged.
struct Occurrence {
    hash: u64,
    key: PositionKey,
    valid: bool,
    sample: Sample,
}

/// Training and validation samples, built one file at a time.
pub struct Dataset {
    split: Split,
    valid_percent: u32,
    files: u64,
    occurrences: Vec<Occurrence>,
    // `Split::FileOrder` fills these directly.
    train: Vec<Sample>,
    valid: Vec<Sample>,
}

/// The samples of a `Dataset`.
pub struct Samples {
    pub train: Vec<Sample>,
    pub valid: Vec<Sample>,
    /// Positions in the games read (every occurrence).
    pub positions: u64,
}

impl Dataset {
    pub fn new(split: Split, valid_percent: u32) -> Dataset {
        Dataset {
            split,
            valid_percent,
            files: 0,
            occurrences: Vec::new(),
            train: Vec::new(),
            valid: Vec::new(),
        }
    }

    /// Adds the games of the next file.
    pub fn add_file(&mut self, games: &[GameRecord]) {
        let f = self.files;
        self.files += 1;
        for (g, game) in games.iter().enumerate() {
            let samples = Sample::of_games(std::slice::from_ref(game));
            match self.split {
                Split::FileOrder => {
                    let h = Rng::new((f << 40) ^ g as u64).next_u64();
                    let set = if h % 100 < self.valid_percent as u64 {
                        &mut self.valid
                    } else {
                        &mut self.train
                    };
                    set.extend(samples);
                }
                Split::Position => {
                    let Some(first) = game.positions.first() else {
                        continue;
                    };
                    let valid = is_validation(&position_key(&first.position), self.valid_percent);
                    for sample in samples {
                        let key = position_key(&sample.position);
                        self.occurrences.push(Occurrence {
                            hash: position_hash(&key),
                            key,
                            valid,
                            sample,
                        });
                    }
                }
            }
        }
    }

    /// The samples of every file added.
    pub fn finish(self) -> Samples {
        let Dataset {
            mut occurrences,
            mut train,
            mut valid,
            ..
        } = self;
        let mut positions = (train.len() + valid.len()) as u64;
        occurrences.sort_unstable_by_key(|o| (o.hash, o.key, !o.valid));
        positions += occurrences.len() as u64;
        // Sorted so, the occurrences of a position are together, its
        // validation ones first.
        for same in occurrences.chunk_by(|a, b| a.key == b.key) {
            let valid_here = same[0].valid;
            let kept = same.iter().take_while(|o| o.valid == valid_here);
            let (mut n, mut score, mut points) = (0i64, 0i64, 0.0f64);
            for o in kept {
                n += 1;
                score += o.sample.score as i64;
                points += o.sample.result as f64;
            }
            // Results are 0, 1/2 or 1 and scores integers: these sums are
            // exact, so the means do not depend on the order either.
            let sample = Sample {
                position: same[0].sample.position,
                score: (score as f64 / n as f64).round() as i16,
                result: (points / n as f64) as f32,
                exact: None,
            };
            if valid_here {
                valid.push(sample);
            } else {
                train.push(sample);
            }
        }
        Samples {
            train,
            valid,
            positions,
        }
    }
}
