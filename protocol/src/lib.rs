//! Tama's line protocol: the UCI and Hub dialects (engine side) and the
//! client that starts and talks to engine processes (the match runner).

pub mod client;
pub mod tournament;
