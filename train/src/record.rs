//! The training-data file, as bytes (the caller does the file I/O).
//!
//! A 32-byte header (magic `TAMADATA`, version, the rules and the settings
//! that made the data), then games one after the other, each a 4-byte
//! block header (number of positions, result, how the game ended) followed
//! by its positions, 20 bytes each. A shard of a run (`tama datagen
//! --shard K/N`) is version 2: 32 more header bytes say which shard of
//! which run it is, so that `tama datagen --merge` merges only the shards
//! of one run. The layout is in docs/evaluation.md.
//!
//! A game is appended whole, so a file cut short (Ctrl-C, a full disk) ends
//! in at most one partial game: `scan` finds where the whole games end, and
//! the writer cuts the tail there before it appends more.

use tama_engine::bitboard::Bitboard;
use tama_engine::position::Position;
use tama_engine::rules::{Color, Rules};
use tama_shard::Shard;

/// Why bytes are not a training-data file this build reads, or where a
/// file is damaged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// No `TAMADATA` header.
    NotData,
    /// A format version this build does not read.
    Version(u16),
    /// Rules by an index this build does not know.
    UnknownRules(u8),
    /// A shard's header shorter than a shard header is.
    ShardHeaderShort,
    /// A shard's header with an impossible shard or non-zero padding.
    ShardHeaderMalformed { index: u32, count: u32 },
    /// A game that is not whole-and-valid, at this byte of the file.
    DamagedGame(usize, Damage),
}

/// What is wrong with a damaged game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Damage {
    /// A result byte that is none of the three results.
    Result(u8),
    /// An ending byte that names no ending.
    Ending(u8),
    /// A position record that cannot be a position.
    Position,
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordError::NotData => {
                write!(f, "not a Tama training-data file (no TAMADATA header)")
            }
            RecordError::Version(v) => write!(
                f,
                "training-data format version {v}, this build reads {FORMAT_VERSION} and {SHARD_FORMAT_VERSION}"
            ),
            RecordError::UnknownRules(r) => {
                write!(f, "training-data header names unknown rules ({r})")
            }
            RecordError::ShardHeaderShort => write!(f, "a shard's header cut short"),
            RecordError::ShardHeaderMalformed { index, count } => {
                write!(f, "a shard's header is malformed (shard {index}/{count})")
            }
            RecordError::DamagedGame(offset, damage) => {
                write!(f, "damaged game at byte {offset}: ")?;
                match damage {
                    Damage::Result(b) => write!(f, "result {b}"),
                    Damage::Ending(b) => write!(f, "ending {b}"),
                    Damage::Position => write!(f, "a position record is malformed"),
                }
            }
        }
    }
}

impl std::error::Error for RecordError {}

/// The first bytes of a training-data file.
pub const MAGIC: &[u8; 8] = b"TAMADATA";
/// The format version of a whole run's file.
pub const FORMAT_VERSION: u16 = 1;
/// The format version of a shard's file: a whole run's header and the
/// shard's tag, then the same games.
pub const SHARD_FORMAT_VERSION: u16 = 2;
/// Bytes of the header of a whole run's file.
pub const HEADER_BYTES: usize = 32;
/// Bytes of the header of a shard's file.
pub const SHARD_HEADER_BYTES: usize = 64;
/// Bytes of a game's header (positions, result, ending).
pub const GAME_HEADER_BYTES: usize = 4;
/// Bytes of one position.
pub const POSITION_BYTES: usize = 20;

/// How the data was made: the file's header. A file is only ever extended
/// with games made the same way.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DataHeader {
    /// The rules the games were played under.
    pub rules: Rules,
    /// Fixes the openings and random plies of every game.
    pub seed: u64,
    /// Search budget per move.
    pub nodes: Option<u64>,
    /// Search depth per move.
    pub depth: Option<u32>,
    /// Random moves played after the opening.
    pub random_plies: u8,
    /// `Some` in the file of one shard of a run.
    pub shard: Option<ShardTag>,
}

/// Which part of which run a shard's file holds. The rest of the header
/// does not say everything that decides the games: the hash size and the
/// weights do too, and shards are played apart, so their tags carry them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ShardTag {
    /// The shard: it plays the games `g` of the run with
    /// `g % count == index - 1`.
    pub shard: Shard,
    /// Games of the whole run.
    pub games: u64,
    /// Transposition table of every search, MB.
    pub hash_mb: u32,
    /// `weights_fingerprint` of the set the games are played with.
    pub weights: u64,
}

impl DataHeader {
    /// Bytes of this header in a file.
    pub fn encoded_len(&self) -> usize {
        match self.shard {
            None => HEADER_BYTES,
            Some(_) => SHARD_HEADER_BYTES,
        }
    }

    /// The header of the whole run this shard's header belongs to (the
    /// header itself when it is not a shard's).
    pub fn whole(&self) -> DataHeader {
        DataHeader {
            shard: None,
            ..*self
        }
    }

    /// The header's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let mut h = vec![0u8; self.encoded_len()];
        h[..8].copy_from_slice(MAGIC);
        let version = match self.shard {
            None => FORMAT_VERSION,
            Some(_) => SHARD_FORMAT_VERSION,
        };
        h[8..10].copy_from_slice(&version.to_le_bytes());
        h[10] = self.rules.index() as u8;
        h[11] = self.random_plies;
        h[12..16].copy_from_slice(&self.depth.unwrap_or(0).to_le_bytes());
        h[16..24].copy_from_slice(&self.nodes.unwrap_or(0).to_le_bytes());
        h[24..32].copy_from_slice(&self.seed.to_le_bytes());
        if let Some(t) = self.shard {
            h[32..36].copy_from_slice(&t.shard.index.to_le_bytes());
            h[36..40].copy_from_slice(&t.shard.count.to_le_bytes());
            h[40..48].copy_from_slice(&t.games.to_le_bytes());
            h[48..52].copy_from_slice(&t.hash_mb.to_le_bytes());
            // 52..56 stay zero.
            h[56..64].copy_from_slice(&t.weights.to_le_bytes());
        }
        h
    }

    /// Reads the header at the start of `bytes`; why not when it is not one
    /// this build reads.
    pub fn decode(bytes: &[u8]) -> Result<DataHeader, RecordError> {
        if bytes.len() < HEADER_BYTES || &bytes[..8] != MAGIC {
            return Err(RecordError::NotData);
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != FORMAT_VERSION && version != SHARD_FORMAT_VERSION {
            return Err(RecordError::Version(version));
        }
        let rules = Rules::all()
            .find(|r| r.index() == bytes[10] as usize)
            .ok_or(RecordError::UnknownRules(bytes[10]))?;
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        let depth = u32_at(12);
        let nodes = u64_at(16);
        let shard = if version == SHARD_FORMAT_VERSION {
            if bytes.len() < SHARD_HEADER_BYTES {
                return Err(RecordError::ShardHeaderShort);
            }
            let (index, count) = (u32_at(32), u32_at(36));
            if index == 0 || index > count || u32_at(52) != 0 {
                return Err(RecordError::ShardHeaderMalformed { index, count });
            }
            Some(ShardTag {
                shard: Shard { index, count },
                games: u64_at(40),
                hash_mb: u32_at(48),
                weights: u64_at(56),
            })
        } else {
            None
        };
        Ok(DataHeader {
            rules,
            random_plies: bytes[11],
            depth: (depth != 0).then_some(depth),
            nodes: (nodes != 0).then_some(nodes),
            seed: u64_at(24),
            shard,
        })
    }
}

impl std::fmt::Display for DataHeader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = &self.rules;
        write!(
            f,
            "{} (capture removal {}, mid-capture promotion {})",
            r.variant, r.capture_removal, r.mid_capture_promotion
        )?;
        if let Some(n) = self.nodes {
            write!(f, ", nodes {n}")?;
        }
        if let Some(d) = self.depth {
            write!(f, ", depth {d}")?;
        }
        write!(
            f,
            ", random plies {}, seed {}",
            self.random_plies, self.seed
        )?;
        if let Some(t) = self.shard {
            write!(
                f,
                ", shard {} of {} games, hash {} MB, weights {:016x}",
                t.shard, t.games, t.hash_mb, t.weights
            )?;
        }
        Ok(())
    }
}

/// A game's result, White's view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameResult {
    /// Black won.
    BlackWins = 0,
    /// A draw.
    Draw = 1,
    /// White won.
    WhiteWins = 2,
}

impl GameResult {
    /// A win for `c`.
    pub fn win_for(c: Color) -> GameResult {
        match c {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// 1 for a win of `side`, 1/2 for a draw, 0 for a loss.
    pub fn points_for(self, side: Color) -> f64 {
        let white = self as u8 as f64 / 2.0;
        match side {
            Color::White => white,
            Color::Black => 1.0 - white,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ending {
    /// The side to move had no legal move.
    NoMove = 0,
    /// Threefold repetition.
    Repetition = 1,
    /// Both sides' searches saw the same forced win.
    Mate = 2,
    /// Too long without a capture or a man moving forward: a draw.
    NoProgress = 3,
    /// The length cap: a draw.
    MaxLength = 4,
    /// The endgame databases' value where the game entered them
    /// (`tama datagen --egtb`).
    Tables = 5,
}

const ENDINGS: [Ending; 6] = [
    Ending::NoMove,
    Ending::Repetition,
    Ending::Mate,
    Ending::NoProgress,
    Ending::MaxLength,
    Ending::Tables,
];

/// One position of a game: the position, the search's score for the side
/// to move (centi-men) and how many plies into the game it stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Record {
    /// The position.
    pub position: Position,
    /// The search's score, side to move's view, centi-men.
    pub score: i16,
    /// Plies since the start position, at most 255.
    pub ply: u8,
}

/// A position as the file writes it: the occupied squares, which of them
/// (in order from a1) hold black pieces and kings, and the side to move.
/// Two positions are the same position exactly when their keys are equal.
pub type PositionKey = (u64, u32, u32, u8);

/// The key of `p` (its bytes in a position record).
pub fn position_key(p: &Position) -> PositionKey {
    let occupied = p.occupied();
    let (mut black, mut kings) = (0u32, 0u32);
    for (i, sq) in occupied.into_iter().enumerate() {
        black |= (p.pieces(Color::Black).contains(sq) as u32) << i;
        kings |= (p.all_kings().contains(sq) as u32) << i;
    }
    (occupied.0, black, kings, p.side_to_move() as u8)
}

/// One game: its result, how it ended and its scored positions.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameRecord {
    /// The result, White's view.
    pub result: GameResult,
    /// How the game ended.
    pub ending: Ending,
    /// The positions kept, in game order.
    pub positions: Vec<Record>,
}

impl GameRecord {
    /// The bytes of this game, appended to `out`.
    pub fn encode(&self, out: &mut Vec<u8>) {
        let n = self.positions.len().min(u16::MAX as usize);
        out.extend_from_slice(&(n as u16).to_le_bytes());
        out.push(self.result as u8);
        out.push(self.ending as u8);
        for r in &self.positions[..n] {
            let (occupied, black, kings, side) = position_key(&r.position);
            out.extend_from_slice(&occupied.to_le_bytes());
            out.extend_from_slice(&black.to_le_bytes());
            out.extend_from_slice(&kings.to_le_bytes());
            out.extend_from_slice(&r.score.to_le_bytes());
            out.push(side);
            out.push(r.ply);
        }
    }

    /// The bytes `encode` writes.
    pub fn encoded_len(&self) -> usize {
        GAME_HEADER_BYTES + POSITION_BYTES * self.positions.len()
    }
}

/// The games in `body` (a file less its header), in order, and the number
/// of bytes they fill: a partial game at the end is left out.
pub struct Scan {
    /// The whole games, in file order.
    pub games: Vec<GameRecord>,
    /// Bytes of `body` they fill (a partial game after them is left out).
    pub whole_bytes: usize,
}

/// A position record; `None` when it is malformed.
fn decode_position(b: &[u8], rules: Rules) -> Option<Record> {
    let occupied = u64::from_le_bytes(b[0..8].try_into().expect("8 bytes"));
    let black = u32::from_le_bytes(b[8..12].try_into().expect("4 bytes"));
    let kings = u32::from_le_bytes(b[12..16].try_into().expect("4 bytes"));
    let n = occupied.count_ones();
    let unused = if n >= 32 { 0 } else { !0u32 << n };
    if n > 32 || (black | kings) & unused != 0 || b[18] > 1 {
        return None;
    }
    let mut pieces = [Bitboard::EMPTY; 2];
    let mut king_squares = Bitboard::EMPTY;
    for (i, sq) in Bitboard(occupied).into_iter().enumerate() {
        let c = (black >> i) & 1;
        pieces[c as usize] = pieces[c as usize].with(sq);
        if (kings >> i) & 1 == 1 {
            king_squares = king_squares.with(sq);
        }
    }
    let side = if b[18] == 0 {
        Color::White
    } else {
        Color::Black
    };
    Some(Record {
        position: Position::from_parts(pieces[0], pieces[1], king_squares, side, rules),
        score: i16::from_le_bytes([b[16], b[17]]),
        ply: b[19],
    })
}

/// Reads the games of `body` (everything after the header). A malformed
/// game is an error (the file is damaged, not cut short).
pub fn scan(body: &[u8], rules: Rules) -> Result<Scan, RecordError> {
    let mut games = Vec::new();
    let mut at = 0;
    while body.len() - at >= GAME_HEADER_BYTES {
        let h = &body[at..at + GAME_HEADER_BYTES];
        let n = u16::from_le_bytes([h[0], h[1]]) as usize;
        let end = at + GAME_HEADER_BYTES + n * POSITION_BYTES;
        if end > body.len() {
            break;
        }
        let offset = HEADER_BYTES + at;
        let result = match h[2] {
            0 => GameResult::BlackWins,
            1 => GameResult::Draw,
            2 => GameResult::WhiteWins,
            _ => return Err(RecordError::DamagedGame(offset, Damage::Result(h[2]))),
        };
        let ending = *ENDINGS
            .get(h[3] as usize)
            .ok_or(RecordError::DamagedGame(offset, Damage::Ending(h[3])))?;
        let positions = body[at + GAME_HEADER_BYTES..end]
            .chunks_exact(POSITION_BYTES)
            .map(|b| decode_position(b, rules))
            .collect::<Option<Vec<_>>>()
            .ok_or(RecordError::DamagedGame(offset, Damage::Position))?;
        games.push(GameRecord {
            result,
            ending,
            positions,
        });
        at = end;
    }
    Ok(Scan {
        games,
        whole_bytes: at,
    })
}
