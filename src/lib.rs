//! The `tama` package's library: the board server behind `tama gui`.
//!
//! It is a library target (and not a module of the binary) so that the
//! end-to-end tests can drive the board server.

pub mod gui;
