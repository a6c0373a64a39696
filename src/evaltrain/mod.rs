//! `tama datagen` and `tama train`: the pipeline that learns the evaluation
//! (docs/evaluation.md). The engine crate holds the game loop, the data
//! format and the fitting (`tama_engine::training`); this side holds the
//! files, the threads, the progress lines and Ctrl-C.
//!
//! - `datagen`: self-play games appended to a data file;
//! - `train`: a weights file fitted to data files.

pub mod datagen;
pub mod train;
