//! A PDN file read under one rule set: what the tables' audit of played
//! games and the lab's positions from games both read.

use super::{read_pdn, PdnError, PdnGame};
use crate::Rules;
use std::fmt;
use std::path::{Path, PathBuf};

/// Why a PDN file was refused (`read_pdn_file`): each names the file.
#[derive(Debug)]
pub enum PdnFileError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// Its text is not PDN of legal games.
    Pdn {
        /// The file.
        path: PathBuf,
        /// The first fault of the text (boxed: it is large, and rare).
        error: Box<PdnError>,
    },
    /// It holds no game.
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// A game's tags name other rules than those asked for.
    OtherRules {
        /// The file.
        path: PathBuf,
        /// The game (from 1).
        game: usize,
        /// The rules it is played under.
        played: Rules,
        /// The rules asked for.
        wanted: Rules,
    },
}

impl fmt::Display for PdnFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdnFileError::Read { path, error } => {
                write!(f, "cannot read {}: {error}", path.display())
            }
            PdnFileError::Pdn { path, error } => write!(f, "{}: {error}", path.display()),
            PdnFileError::Empty { path } => write!(f, "{}: no games", path.display()),
            PdnFileError::OtherRules {
                path,
                game,
                played,
                wanted,
            } => write!(
                f,
                "{}: game {game} is played under {played}, not {wanted}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for PdnFileError {}

/// Every game of the PDN file at `path`, each played under `rules` (tags
/// that name other rules are refused, as are a file with no game and any
/// illegal move): what reads played games against one rule set's tables.
pub fn read_pdn_file(path: &Path, rules: Rules) -> Result<Vec<PdnGame>, PdnFileError> {
    let path_buf = || path.to_path_buf();
    let text = std::fs::read_to_string(path).map_err(|error| PdnFileError::Read {
        path: path_buf(),
        error,
    })?;
    let games = read_pdn(&text, rules).map_err(|error| PdnFileError::Pdn {
        path: path_buf(),
        error: Box::new(error),
    })?;
    if games.is_empty() {
        return Err(PdnFileError::Empty { path: path_buf() });
    }
    if let Some((i, g)) = games
        .iter()
        .enumerate()
        .find(|(_, g)| g.start.rules() != rules)
    {
        return Err(PdnFileError::OtherRules {
            path: path_buf(),
            game: i + 1,
            played: g.start.rules(),
            wanted: rules,
        });
    }
    Ok(games)
}
