//! Tama's data generation and training: the pipeline that learns the
//! evaluation from Tama's own games (`tama datagen`, `tama train`;
//! docs/evaluation.md). None of it is needed to play: the engine reads the
//! weights files this crate makes. (The shot suite's harvest is the lab's:
//! lab/src/harvest.rs.)
//!
//! - `record`: the training-data file format, as bytes;
//! - `selfplay`: one self-play game, with the positions worth learning from;
//! - `trainer`: the loss, the gradient and the fit;
//! - `datagen`: self-play games appended to a data file, on threads;
//! - `shard`: a run cut into shards, and the shards merged back;
//! - `dataset`: data files as training and validation samples (the split,
//!   the removal of repeated positions);
//! - `tables`: targets from the endgame databases' exact values;
//! - `train`: a weights file fitted to data files;
//! - `error`: what stops a run (`DataError`), a `--split` it does not know
//!   (`UnknownSplit`).

pub mod datagen;
pub mod dataset;
pub mod error;
pub mod record;
pub mod selfplay;
pub mod shard;
pub mod tables;
pub mod train;
pub mod trainer;

#[cfg(test)]
mod kings_tests;
#[cfg(test)]
mod tests;
