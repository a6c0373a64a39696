//! The lab's hooks into the search: what measurements need and players do
//! not, compiled only with the engine's `lab` cargo feature, which the
//! lab crate (`lab/`, `tama-lab`) turns on and the product never does.
//! The search reaches the lab only through this module: every hook below
//! exists in both builds, and in the product it is empty (a constant, or a
//! type of no size) so that the calls compile away. `SearchOptions::lab`,
//! `Tuning::lab` and `SearchOutcome::stats` are such types.
//!
//! - `baseline.rs`: plain fixed-depth alpha-beta on material (`Baseline`),
//!   the floor the whole search is measured against;
//! - `style.rs`: which search plays (`Style`); the sparring opponent, a
//!   search of another design, lives in the lab crate and is installed
//!   here (`install_sparring`);
//! - `switches.rs`: the node search's switches that are off by default
//!   (`Tuning::lab`), and every switch set by name (`Tuning::set`);
//! - `stats.rs`: counters of the node search (re-searches, cut-offs, the
//!   nodes of exempt sacrifices), for measurements.

#[cfg(feature = "lab")]
mod baseline;
#[cfg(feature = "lab")]
mod hooks;
#[cfg(not(feature = "lab"))]
#[path = "product.rs"]
mod hooks;
#[cfg(feature = "lab")]
mod stats;
#[cfg(feature = "lab")]
mod style;
#[cfg(feature = "lab")]
mod switches;

#[cfg(feature = "lab")]
pub use {
    style::{install_sparring, OtherSearch, Style, UnknownStyle},
    switches::TuningError,
};

pub(super) use hooks::{summed, Counts, SharedLab, WorkerLab};
pub use hooks::{LabOptions, LabSwitches, SearchStats};

/// Counts into the node search's lab counters (`stats.rs`): `count!(w,
/// field += n)` adds `n` to `w`'s counter `field` in the lab build and is
/// nothing in the product.
macro_rules! count {
    ($w:expr, $field:ident += $n:expr) => {
        #[cfg(feature = "lab")]
        {
            $w.lab.stats.$field += $n;
        }
    };
}
pub(super) use count;
