//! What Tama asks of the operating system, in one place that the match
//! runner, data generation and the board can all use without depending on
//! one another:
//!
//! - `signal`: Ctrl-C and SIGTERM noted, for a long run to stop cleanly;
//! - `process`: a child process with its input and output piped, read line
//!   by line with deadlines, ended for sure (its process group too).

pub mod process;
pub mod signal;
