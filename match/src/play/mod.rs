//! Playing a match: the worker threads and the main loop (`run`), one
//! refereed game (`game`), the clocks (`clock`), ending games early
//! (`adjudication`), and going on from a results file (`resume`).

pub mod adjudication;
pub mod clock;
mod collect;
pub mod game;
mod prepare;
pub(crate) mod resume;
pub(crate) mod run;
