//! The `tama` package's library: the match runner behind `tama match` and
//! the board server behind `tama gui`.
//!
//! It lives here, beside the binary that runs it, rather than in the
//! protocol crate: the runner is a client of the protocol (through
//! `tama_protocol::client`), not part of it. It is a library target (and not
//! a module of the binary) so that the end-to-end tests can read back what
//! the runner writes (PDN, results files) with the runner's own readers.

pub mod gui;
pub mod tournament;
