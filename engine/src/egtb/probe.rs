//! `Tablebase`: the tables of one rule set, opened from a directory and
//! probed from any thread.

use super::blocks::{Blocks, CompressError};
use super::file::{file_prefix, FileError, Header, Layout, FILE_SUFFIX, HEADER_LEN};
use super::index::TableIndex;
use super::placement::Placement;
use super::signature::{Signature, SignatureError, MAX_PIECES};
use super::value::Value;
use crate::position::Position;
use crate::rules::Rules;
use memmap2::Mmap;
use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};

/// Why a database could not be opened or built.
#[derive(Debug)]
pub enum EgtbError {
    /// A file or directory could not be read or written.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A table file was refused.
    File {
        /// The file.
        path: PathBuf,
        /// Why it was refused.
        error: FileError,
    },
    /// A directory without a single table for the rules asked for.
    NoTables {
        /// The directory.
        dir: PathBuf,
        /// The rules asked for.
        rules: Rules,
    },
    /// A job's input table is not there (its job has not run yet).
    MissingInput {
        /// The file that is missing.
        path: PathBuf,
        /// The job that builds it.
        job: String,
        /// That job's level.
        level: u32,
    },
    /// A table could not be compressed.
    Compression {
        /// The table's file.
        path: PathBuf,
        /// Why.
        reason: CompressError,
    },
    /// A file named for these rules whose signature part does not parse.
    BadName {
        /// The file.
        path: PathBuf,
        /// Why the name does not parse.
        reason: SignatureError,
    },
}

impl fmt::Display for EgtbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EgtbError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            EgtbError::File { path, error } => {
                write!(f, "{}: refused: {error}", path.display())
            }
            EgtbError::BadName { path, reason } => write!(f, "{}: {reason}", path.display()),
            EgtbError::Compression { path, reason } => {
                write!(f, "{}: not compressed: {reason}", path.display())
            }
            EgtbError::MissingInput { path, job, level } => write!(
                f,
                "{}: missing: an input of this job, built by job {job} (level {level})",
                path.display()
            ),
            EgtbError::NoTables { dir, rules } => write!(
                f,
                "{}: no tables for {rules} (build them with `tama egtb build`)",
                dir.display()
            ),
        }
    }
}

impl std::error::Error for EgtbError {}

pub(crate) fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> EgtbError + '_ {
    move |error| EgtbError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// One opened table file.
pub struct Table {
    /// The file's header, checked on open.
    pub header: Header,
    index: TableIndex,
    /// The block index of a compressed payload.
    blocks: Option<Blocks>,
    /// The whole file; the payload starts at `HEADER_LEN`.
    map: Mmap,
}

impl Table {
    /// Maps a file and checks all of it (header, size, checksum, and the
    /// block index of a compressed one) before use. Either format opens.
    pub fn open(path: &Path, rules: Rules, signature: Signature) -> Result<Table, EgtbError> {
        let file = File::open(path).map_err(io_error(path))?;
        // SAFETY: the map is read-only; a table file is written once (to a
        // temporary name, then renamed) and never changed in place, so the
        // bytes under the map do not change while it is in use.
        let map = unsafe { Mmap::map(&file) }.map_err(io_error(path))?;
        let header = Header::decode(&map, rules, signature).map_err(|error| EgtbError::File {
            path: path.to_path_buf(),
            error,
        })?;
        let index = TableIndex::new(signature);
        if header.entries != index.len() {
            return Err(EgtbError::File {
                path: path.to_path_buf(),
                error: FileError::Corrupt("entry count differs from the index"),
            });
        }
        let blocks = match header.layout {
            Layout::Plain => None,
            Layout::Blocks => {
                Some(Blocks::parse(&header, &map[HEADER_LEN..]).map_err(|error| {
                    EgtbError::File {
                        path: path.to_path_buf(),
                        error,
                    }
                })?)
            }
        };
        Ok(Table {
            header,
            index,
            blocks,
            map,
        })
    }

    /// The value of entry `i` (below `header.entries`); `None` only for a
    /// compressed block that does not decompress whole.
    #[inline]
    pub fn value_at(&self, i: u64) -> Option<Value> {
        let payload = &self.map[HEADER_LEN..];
        match &self.blocks {
            None => Some(self.header.encoding.value(payload, i)),
            Some(blocks) => blocks.value(payload, i),
        }
    }

    #[inline]
    fn value(&self, p: &Placement) -> Option<Value> {
        self.value_at(self.index.index(p))
    }
}

/// The tables of one rule set. Lookups are read-only: share it freely.
pub struct Tablebase {
    rules: Rules,
    dir: Option<PathBuf>,
    tables: Vec<Option<Table>>,
}

impl Tablebase {
    /// No tables yet (the builder fills one in as it goes).
    pub fn empty(rules: Rules) -> Tablebase {
        Tablebase {
            rules,
            dir: None,
            tables: (0..Signature::ID_LIMIT).map(|_| None).collect(),
        }
    }

    /// Every table of `rules` in `dir`, each checked whole. Files of other
    /// rule sets (other names) are left alone; a file named for these rules
    /// that is damaged or holds something else is an error, and so is a
    /// missing directory or one without a table for these rules (a probe
    /// could only fail).
    pub fn open(dir: &Path, rules: Rules) -> Result<Tablebase, EgtbError> {
        let mut tb = Tablebase::empty(rules);
        tb.dir = Some(dir.to_path_buf());
        for (signature, path) in table_files(dir, rules)? {
            tb.insert(Table::open(&path, rules, signature)?);
        }
        if tb.tables.iter().all(Option::is_none) {
            return Err(EgtbError::NoTables {
                dir: dir.to_path_buf(),
                rules,
            });
        }
        Ok(tb)
    }

    pub(crate) fn insert(&mut self, table: Table) {
        let id = table.header.signature.id();
        self.tables[id] = Some(table);
    }

    /// The rule set of every table here.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The directory the tables came from (none for an empty set).
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The table of `signature`, if it is here.
    pub fn table(&self, signature: Signature) -> Option<&Table> {
        // Beyond MAX_PIECES, ids would alias smaller signatures.
        if signature.pieces() > MAX_PIECES {
            return None;
        }
        self.tables.get(signature.id())?.as_ref()
    }

    /// The headers of every table, in build order.
    pub fn headers(&self) -> Vec<Header> {
        Signature::build_order(MAX_PIECES)
            .into_iter()
            .filter_map(|s| self.table(s).map(|t| t.header))
            .collect()
    }

    /// The largest N such that every signature of N or fewer pieces is here
    /// (0 when not even the 2-piece tables are).
    pub fn complete_pieces(&self) -> u32 {
        (2..=MAX_PIECES)
            .take_while(|&n| {
                Signature::build_order(n)
                    .iter()
                    .all(|&s| s.pieces() < n || self.table(s).is_some())
            })
            .last()
            .unwrap_or(0)
    }

    /// The value of `pos` for its side to move, if the database holds it:
    /// `None` for other rules, too many pieces, a missing table, or a man on
    /// its own first rank (no game reaches that, and no table numbers it).
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        if pos.rules() != self.rules || pos.occupied().count() > MAX_PIECES {
            return None;
        }
        self.probe_placement(&Placement::of(pos))
    }

    /// As `probe`, for a placement whose "us" is to move.
    pub fn probe_placement(&self, p: &Placement) -> Option<Value> {
        if p.us.is_empty() {
            // No piece, no move: the game is over and lost.
            return Some(Value::decided(0));
        }
        if p.them.is_empty() || !p.men_on_man_squares() {
            return None;
        }
        let signature = p.signature();
        if signature.pieces() > MAX_PIECES {
            return None;
        }
        self.table(signature)?.value(p)
    }
}

/// The table files of `rules` in `dir` with their signatures, in no
/// particular order; a file named for these rules whose signature does not
/// parse is an error.
pub(crate) fn table_files(
    dir: &Path,
    rules: Rules,
) -> Result<Vec<(Signature, PathBuf)>, EgtbError> {
    let prefix = file_prefix(rules);
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io_error(dir))? {
        let path = entry.map_err(io_error(dir))?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(sig_name) = name
            .strip_prefix(prefix.as_str())
            .and_then(|rest| rest.strip_suffix(FILE_SUFFIX))
        else {
            continue;
        };
        let signature = Signature::parse(sig_name).map_err(|reason| EgtbError::BadName {
            path: path.clone(),
            reason,
        })?;
        files.push((signature, path));
    }
    Ok(files)
}
