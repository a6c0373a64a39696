//! The lab: what measurements need and players do not, built only with
//! the `lab` cargo feature (`cargo build --release --features lab
//! --target-dir target/lab`; docs/testing.md). Every strength claim is a
//! match against two opponents, the previous version and the sparring
//! opponent, which lives here:
//!
//! - `sparring.rs`: the sparring opponent, a full-width search of another
//!   design (`Style=sparring`), also the oracle the shot suite is
//!   harvested with;
//! - `baseline.rs`: plain fixed-depth alpha-beta on material (`Baseline`),
//!   the floor the whole search is measured against;
//! - `switches.rs`: the node search's switches that are off by default
//!   (`Tuning::lab`, set by name with `--set NAME=VALUE`);
//! - `stats.rs`: counters of the node search (re-searches, cut-offs, the
//!   nodes of exempt sacrifices), for measurements.

mod baseline;
pub mod sparring;
pub mod stats;
mod switches;
#[cfg(test)]
mod tests;

/// Which search plays: Tama's own, or the sparring opponent of another
/// design (`sparring.rs`) that changes are measured against as well.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Style {
    /// Tama's own search.
    #[default]
    Normal,
    /// The sparring search of `sparring.rs`.
    Sparring,
}

/// The text is not the name of a style (`normal` or `sparring`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownStyle(pub String);

impl std::fmt::Display for UnknownStyle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown style {:?} (expected normal or sparring)",
            self.0
        )
    }
}

impl std::error::Error for UnknownStyle {}

impl std::str::FromStr for Style {
    type Err = UnknownStyle;
    fn from_str(s: &str) -> Result<Style, UnknownStyle> {
        match s.to_ascii_lowercase().as_str() {
            "normal" => Ok(Style::Normal),
            "sparring" => Ok(Style::Sparring),
            _ => Err(UnknownStyle(s.to_string())),
        }
    }
}

impl std::fmt::Display for Style {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Style::Normal => "normal",
            Style::Sparring => "sparring",
        })
    }
}
