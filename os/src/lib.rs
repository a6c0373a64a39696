//! What Tama asks of the operating system, in one place that the protocol,
//! the match runner, data generation and the board can all use without
//! depending on one another:
//!
//! - `machine`: the memory limits the system sets this process, and its
//!   CPUs;
//! - `signal`: Ctrl-C and SIGTERM noted, for a long run to stop cleanly;
//! - `process`: a child process with its input and output piped, read line
//!   by line with deadlines, ended for sure (its process group too).

pub mod machine;
pub mod process;
pub mod signal;
