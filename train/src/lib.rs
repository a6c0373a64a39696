//! Tama's data generation and training: the pipeline that learns the
//! evaluation from Tama's own games (`tama datagen`, `tama train`;
//! docs/evaluation.md), and the harvest of the shot suite. None of it is
//! needed to play: the engine reads the weights files and the shot suite
//! this crate makes.
//!
//! - `record`: the training-data file format, as bytes;
//! - `selfplay`: one self-play game, with the positions worth learning from;
//! - `trainer`: the loss, the gradient and the fit;
//! - `datagen`: self-play games appended to a data file, on threads;
//! - `shard`: a run cut into shards, and the shards merged back;
//! - `dataset`: data files as training and validation samples (the split,
//!   the removal of repeated positions);
//! - `train`: a weights file fitted to data files;
//! - `harvest` (the `lab` feature): shots found in self-play games by the
//!   sparring search (the suite `tama tactics` scores; `examples/shots.rs`
//!   runs it).

pub mod datagen;
pub mod dataset;
#[cfg(feature = "lab")]
pub mod harvest;
pub mod record;
pub mod selfplay;
pub mod shard;
pub mod train;
pub mod trainer;

#[cfg(test)]
mod tests;
