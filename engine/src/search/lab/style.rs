//! Which search plays (`Style`), and the hook through which the lab
//! crate (`tama-lab`) installs the sparring opponent: the search of
//! another design lives there, on the engine's public surface.

use crate::game::Game;
use crate::moves::Move;
use crate::search::tt::TranspositionTable;
use crate::search::{SearchControl, SearchInfo, SearchLimits, SearchOptions, SearchOutcome};
use std::sync::OnceLock;

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

/// A search in place of Tama's own: the table, the game, its root moves
/// (restricted as `searchmoves` and the databases restrict them), the
/// limits (depth 1 when the move is forced), the options, the signals and
/// the reports, as `Searcher::search` has them.
pub type OtherSearch = fn(
    &TranspositionTable,
    &Game,
    &[Move],
    &SearchLimits,
    &SearchOptions,
    &SearchControl,
    &mut dyn FnMut(&SearchInfo),
) -> SearchOutcome;

static SPARRING: OnceLock<OtherSearch> = OnceLock::new();

/// Makes `search` the one `Style::Sparring` plays. The first call wins:
/// the lab installs the same function once per process, before any search.
pub fn install_sparring(search: OtherSearch) {
    let _ = SPARRING.get_or_init(|| search);
}

/// The sparring search installed, if any.
pub(super) fn sparring() -> Option<OtherSearch> {
    SPARRING.get().copied()
}
