//! Tama's lab: what measurements need and players do not, kept out of the
//! product (`tama`). The engine's `lab` feature opens the hooks of its
//! search (`tama_engine::search::lab`: the baseline, the switches that are
//! off by default, the node search's counters); this crate turns it on and
//! adds:
//!
//! - `sparring`: the sparring opponent, a full-width search of another
//!   design (`Style=sparring`), also the oracle the shot suite is
//!   harvested with; `install` makes it the one the engine plays;
//! - `shots`: the shot suite (`data/shots.txt`) and its scorer;
//! - `tactics`: `tama-lab tactics`, the suite's score per budget;
//! - `harvest`: the shots found in self-play games by the oracle;
//! - `errors`: `tama-lab errors`, the moves that change the endgame
//!   databases' value, per budget.
//!
//! The binary, `tama-lab`, is the engine over its protocol with all of
//! that on (`tama-lab uci --set NAME=VALUE`, `setoption name Style value
//! sparring`), plus `bench`, `search`, `tactics` and `errors` with the switches.

pub mod errors;
pub mod harvest;
pub mod shots;
pub mod sparring;
pub mod tactics;

/// Makes the sparring search of this crate the one `Style=sparring`
/// plays (once per process, before any search that may use it).
pub fn install() {
    tama_engine::search::lab::install_sparring(sparring::search);
}
