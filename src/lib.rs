//! The `tama` package's library: the board server behind `tama gui`, and
//! the training pipeline behind `tama datagen` and `tama train`.
//!
//! It is a library target (and not a module of the binary) so that the
//! end-to-end tests can drive the board server and read back what the
//! commands write with the same code.

pub mod evaltrain;
pub mod gui;
