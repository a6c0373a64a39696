//! Learning the evaluation from Tama's own games: the pure half of
//! `tama datagen` and `tama train` (the commands do the files, threads and
//! progress lines).
//!
//! - `record`: the training-data file format, as bytes;
//! - `selfplay`: one self-play game, with the positions worth learning from;
//! - `trainer`: the loss, the gradient and the fit.
//!
//! docs/evaluation.md tells the whole pipeline.

pub mod record;
pub mod selfplay;
pub mod trainer;

#[cfg(test)]
mod tests;
