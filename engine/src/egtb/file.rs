//! The file of one table: a fixed header, then the values.
//!
//! ```text
//! offset size
//!  0      8  magic "TAMAEGTB"
//!  8      2  format version (little-endian, like every number here):
//!            1 the values as they are, 2 compressed in blocks
//!            (`compress.rs`)
//! 10      2  index version: how entries are numbered (`index.rs`)
//! 12      1  variant (0 armenian, 1 turkish)
//! 13      1  capture removal (0 immediate, 1 deferred)
//! 14      1  mid-capture promotion (0 false, 1 true)
//! 15      1  value encoding (1 wdl2, 2 dtm8, 3 dtm16)
//! 16      4  signature: our men, our kings, their men, their kings
//! 20      4  zero
//! 24      8  entries
//! 32      8  positions won   \
//! 40      8  positions drawn  | each mirror pair counted twice, as
//! 48      8  positions lost  /  positions of the game
//! 56      4  longest win in plies (0xffffffff: not kept)
//! 60      4  zero
//! 64      8  payload bytes (as stored: compressed, for version 2)
//! 72      8  checksum of bytes 0..72 and the payload
//! 80         payload
//! ```
//!
//! Payloads: `wdl2` packs four entries a byte, low bits first (0 loss,
//! 1 draw, 2 win); `dtm8`/`dtm16` hold one distance per entry in plies
//! (even: loss, odd: win) with the all-ones value for a draw.

use super::signature::Signature;
use super::value::{Value, Wdl};
use crate::rules::{CaptureRemoval, Rules, Variant};
use std::fmt;

pub const MAGIC: &[u8; 8] = b"TAMAEGTB";
/// The format version of a file whose payload holds the values as they are.
pub const FORMAT_VERSION: u16 = 1;
/// The format version of a file whose payload is compressed in blocks.
pub const BLOCKS_FORMAT_VERSION: u16 = 2;
/// Bumped whenever `index.rs` numbers entries differently.
pub const INDEX_VERSION: u16 = 1;
/// Bytes of the header at the start of every file.
pub const HEADER_LEN: usize = 80;
const NO_DISTANCE: u32 = u32::MAX;

/// How the payload encodes values.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Encoding {
    /// Win/draw/loss, 2 bits an entry.
    Wdl2,
    /// Distance in plies, one byte an entry (255: draw).
    Dtm8,
    /// Distance in plies, two bytes an entry (65535: draw).
    Dtm16,
}

impl Encoding {
    fn code(self) -> u8 {
        match self {
            Encoding::Wdl2 => 1,
            Encoding::Dtm8 => 2,
            Encoding::Dtm16 => 3,
        }
    }

    fn from_code(code: u8) -> Option<Encoding> {
        match code {
            1 => Some(Encoding::Wdl2),
            2 => Some(Encoding::Dtm8),
            3 => Some(Encoding::Dtm16),
            _ => None,
        }
    }

    /// Bytes of payload for a table of `entries` entries.
    pub fn payload_len(self, entries: u64) -> u64 {
        match self {
            Encoding::Wdl2 => entries.div_ceil(4),
            Encoding::Dtm8 => entries,
            Encoding::Dtm16 => entries * 2,
        }
    }

    /// Whether the payload holds distances (or only win/draw/loss).
    pub fn keeps_distance(self) -> bool {
        self != Encoding::Wdl2
    }

    /// The value of entry `i` in `payload`.
    #[inline]
    pub fn value(self, payload: &[u8], i: u64) -> Value {
        let i = i as usize;
        match self {
            Encoding::Wdl2 => match (payload[i / 4] >> (2 * (i % 4))) & 3 {
                0 => Value::without_distance(Wdl::Loss),
                2 => Value::without_distance(Wdl::Win),
                // 3 is never written; the checksum keeps it out.
                _ => Value::DRAW,
            },
            Encoding::Dtm8 => match payload[i] {
                u8::MAX => Value::DRAW,
                d => Value::decided(u32::from(d)),
            },
            Encoding::Dtm16 => match u16::from_le_bytes([payload[2 * i], payload[2 * i + 1]]) {
                u16::MAX => Value::DRAW,
                d => Value::decided(u32::from(d)),
            },
        }
    }

    /// Writes entry `i`'s value; `payload` starts zeroed for `Wdl2`.
    pub fn store(self, payload: &mut [u8], i: u64, value: Value) {
        let i = i as usize;
        match self {
            Encoding::Wdl2 => {
                let code = match value.wdl {
                    Wdl::Loss => 0,
                    Wdl::Draw => 1,
                    Wdl::Win => 2,
                };
                payload[i / 4] |= code << (2 * (i % 4));
            }
            Encoding::Dtm8 => {
                payload[i] = match value.plies {
                    None => u8::MAX,
                    Some(d) => u8::try_from(d)
                        .ok()
                        .filter(|&d| d < u8::MAX)
                        .expect("distance fits dtm8"),
                }
            }
            Encoding::Dtm16 => {
                let d = match value.plies {
                    None => u16::MAX,
                    Some(d) => u16::try_from(d)
                        .ok()
                        .filter(|&d| d < u16::MAX)
                        .expect("distance fits dtm16"),
                };
                payload[2 * i..2 * i + 2].copy_from_slice(&d.to_le_bytes());
            }
        }
    }
}

/// Counts over a table's positions (mirror pairs count as two).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct TableStats {
    /// Positions won by the side to move.
    pub wins: u64,
    /// Positions drawn.
    pub draws: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// Plies of the longest win, when the table keeps distances.
    pub longest_win: Option<u32>,
}

/// How the payload is stored.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Layout {
    /// The encoded values as they are (format version 1): a probe reads
    /// its entry in place.
    Plain,
    /// Blocks of the encoded values, each compressed on its own, behind an
    /// index of their offsets (format version 2, `compress.rs`): a probe
    /// decompresses one block.
    Blocks,
}

impl Layout {
    fn version(self) -> u16 {
        match self {
            Layout::Plain => FORMAT_VERSION,
            Layout::Blocks => BLOCKS_FORMAT_VERSION,
        }
    }
}

/// What a table file says about itself (its first `HEADER_LEN` bytes).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Header {
    /// The rule set the table was built for.
    pub rules: Rules,
    /// The material it holds.
    pub signature: Signature,
    /// How the payload encodes values (inside its blocks, when compressed).
    pub encoding: Encoding,
    /// Whether the payload is compressed.
    pub layout: Layout,
    /// Number of entries (the index's length).
    pub entries: u64,
    /// Counts of wins, draws and losses.
    pub stats: TableStats,
    /// Bytes after the header (as stored).
    pub payload_len: u64,
}

/// Why a file was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FileError {
    /// Shorter or longer than its header says.
    Truncated {
        /// Bytes in the file.
        len: u64,
        /// Bytes the header (or the header's size) calls for.
        expected: u64,
    },
    /// No `TAMAEGTB` magic.
    NotATable,
    /// A format or index version this build does not read.
    Version {
        /// The file's format version.
        format: u16,
        /// The file's index version.
        index: u16,
    },
    /// Built for another rule set.
    OtherRules {
        /// The rules the header names.
        file: String,
        /// The rules asked for.
        wanted: Rules,
    },
    /// Holds another signature than its name says.
    OtherSignature {
        /// The signature in the header.
        file: Signature,
        /// The signature of the file name.
        wanted: Signature,
    },
    /// A header field out of range.
    Corrupt(&'static str),
    /// The checksum does not match the bytes.
    Checksum {
        /// The checksum in the header.
        stored: u64,
        /// The checksum of the bytes read.
        computed: u64,
    },
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::Truncated { len, expected } => {
                write!(f, "truncated: {len} bytes, expected {expected}")
            }
            FileError::NotATable => write!(f, "not a Tama endgame table (bad magic)"),
            FileError::Version { format, index } => write!(
                f,
                "format version {format}, index version {index}; this build reads {FORMAT_VERSION} or {BLOCKS_FORMAT_VERSION} and {INDEX_VERSION}"
            ),
            FileError::OtherRules { file, wanted } => {
                write!(f, "built for other rules ({file}), wanted {wanted}")
            }
            FileError::OtherSignature { file, wanted } => {
                write!(f, "holds signature {file}, its name says {wanted}")
            }
            FileError::Corrupt(what) => write!(f, "corrupt header: {what}"),
            FileError::Checksum { stored, computed } => write!(
                f,
                "bad checksum (stored {stored:016x}, computed {computed:016x})"
            ),
        }
    }
}

/// A 64-bit checksum over whole little-endian words (the tail zero-padded):
/// each word is mixed in with a multiply and a rotation, fast enough to
/// verify every file when a database is opened.
pub fn checksum(parts: &[&[u8]]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h: u64 = 0x5441_4D41_4547_5442; // "TAMAEGTB"
    let mut total = 0u64;
    for part in parts {
        let mut chunks = part.chunks_exact(8);
        for c in &mut chunks {
            let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
            h = (h ^ w).wrapping_mul(K).rotate_left(29);
        }
        let tail = chunks.remainder();
        if !tail.is_empty() {
            let mut w = [0u8; 8];
            w[..tail.len()].copy_from_slice(tail);
            h = (h ^ u64::from_le_bytes(w)).wrapping_mul(K).rotate_left(29);
        }
        total += part.len() as u64;
    }
    (h ^ total).wrapping_mul(K) ^ (h >> 32)
}

fn rules_code(rules: Rules) -> [u8; 3] {
    [
        match rules.variant {
            Variant::Armenian => 0,
            Variant::Turkish => 1,
        },
        match rules.capture_removal {
            CaptureRemoval::Immediate => 0,
            CaptureRemoval::Deferred => 1,
        },
        u8::from(rules.mid_capture_promotion),
    ]
}

fn rules_from_code(code: &[u8]) -> Option<Rules> {
    Some(Rules {
        variant: match code[0] {
            0 => Variant::Armenian,
            1 => Variant::Turkish,
            _ => return None,
        },
        capture_removal: match code[1] {
            0 => CaptureRemoval::Immediate,
            1 => CaptureRemoval::Deferred,
            _ => return None,
        },
        mid_capture_promotion: match code[2] {
            0 => false,
            1 => true,
            _ => return None,
        },
    })
}

impl Header {
    /// The header bytes, checksum included.
    pub fn encode(&self, payload: &[u8]) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(MAGIC);
        h[8..10].copy_from_slice(&self.layout.version().to_le_bytes());
        h[10..12].copy_from_slice(&INDEX_VERSION.to_le_bytes());
        h[12..15].copy_from_slice(&rules_code(self.rules));
        h[15] = self.encoding.code();
        let s = self.signature;
        h[16..20].copy_from_slice(&[s.us_men, s.us_kings, s.them_men, s.them_kings]);
        h[24..32].copy_from_slice(&self.entries.to_le_bytes());
        h[32..40].copy_from_slice(&self.stats.wins.to_le_bytes());
        h[40..48].copy_from_slice(&self.stats.draws.to_le_bytes());
        h[48..56].copy_from_slice(&self.stats.losses.to_le_bytes());
        let longest = self.stats.longest_win.unwrap_or(NO_DISTANCE);
        h[56..60].copy_from_slice(&longest.to_le_bytes());
        h[64..72].copy_from_slice(&self.payload_len.to_le_bytes());
        let sum = checksum(&[&h[..72], payload]);
        h[72..80].copy_from_slice(&sum.to_le_bytes());
        h
    }

    /// Reads and checks a whole file's bytes for the given rules and
    /// signature; on success the payload is `bytes[HEADER_LEN..]`.
    pub fn decode(bytes: &[u8], rules: Rules, signature: Signature) -> Result<Header, FileError> {
        let len = bytes.len() as u64;
        if bytes.len() < HEADER_LEN {
            return Err(FileError::Truncated {
                len,
                expected: HEADER_LEN as u64,
            });
        }
        if &bytes[0..8] != MAGIC {
            return Err(FileError::NotATable);
        }
        let u16_at = |o: usize| u16::from_le_bytes([bytes[o], bytes[o + 1]]);
        let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().expect("4 bytes"));
        let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().expect("8 bytes"));
        let (format, index) = (u16_at(8), u16_at(10));
        let layout = match format {
            FORMAT_VERSION => Layout::Plain,
            BLOCKS_FORMAT_VERSION => Layout::Blocks,
            _ => return Err(FileError::Version { format, index }),
        };
        if index != INDEX_VERSION {
            return Err(FileError::Version { format, index });
        }
        let file_rules = rules_from_code(&bytes[12..15]).ok_or(FileError::Corrupt("rules"))?;
        if file_rules != rules {
            return Err(FileError::OtherRules {
                file: file_rules.to_string(),
                wanted: rules,
            });
        }
        let encoding = Encoding::from_code(bytes[15]).ok_or(FileError::Corrupt("encoding"))?;
        let file_sig = Signature::new(bytes[16], bytes[17], bytes[18], bytes[19]);
        if file_sig != signature {
            return Err(FileError::OtherSignature {
                file: file_sig,
                wanted: signature,
            });
        }
        let entries = u64_at(24);
        let payload_len = u64_at(64);
        // A compressed payload's own layout is checked when it is opened
        // (`compress::Blocks::parse`), after the checksum.
        if layout == Layout::Plain && payload_len != encoding.payload_len(entries) {
            return Err(FileError::Corrupt("payload length"));
        }
        let expected = HEADER_LEN as u64 + payload_len;
        if len != expected {
            return Err(FileError::Truncated { len, expected });
        }
        let stored = u64_at(72);
        let computed = checksum(&[&bytes[..72], &bytes[HEADER_LEN..]]);
        if stored != computed {
            return Err(FileError::Checksum { stored, computed });
        }
        let longest = u32_at(56);
        Ok(Header {
            rules,
            signature,
            encoding,
            layout,
            entries,
            stats: TableStats {
                wins: u64_at(32),
                draws: u64_at(40),
                losses: u64_at(48),
                longest_win: (longest != NO_DISTANCE).then_some(longest),
            },
            payload_len,
        })
    }
}

/// The file name of a table: rules and signature, so that tables of
/// several rule sets can share a directory.
pub fn file_name(rules: Rules, signature: Signature) -> String {
    format!("{}{signature}{FILE_SUFFIX}", file_prefix(rules))
}

/// What every file name of a rule set starts with, e.g. `armenian-immediate-false-`.
pub fn file_prefix(rules: Rules) -> String {
    format!(
        "{}-{}-{}-",
        rules.variant, rules.capture_removal, rules.mid_capture_promotion
    )
}

pub const FILE_SUFFIX: &str = ".egtb";

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (Header, Vec<u8>) {
        let mut payload = vec![0u8; 3];
        let enc = Encoding::Wdl2;
        for (i, wdl) in [
            Wdl::Win,
            Wdl::Draw,
            Wdl::Loss,
            Wdl::Win,
            Wdl::Draw,
            Wdl::Loss,
            Wdl::Win,
            Wdl::Win,
            Wdl::Draw,
        ]
        .into_iter()
        .enumerate()
        {
            enc.store(&mut payload, i as u64, Value::without_distance(wdl));
        }
        let header = Header {
            rules: Rules::TURKISH,
            signature: Signature::new(1, 0, 0, 1),
            encoding: enc,
            layout: Layout::Plain,
            entries: 9,
            stats: TableStats {
                wins: 4,
                draws: 3,
                losses: 2,
                longest_win: None,
            },
            payload_len: 3,
        };
        (header, payload)
    }

    fn file(header: &Header, payload: &[u8]) -> Vec<u8> {
        let mut bytes = header.encode(payload).to_vec();
        bytes.extend_from_slice(payload);
        bytes
    }

    #[test]
    fn a_written_header_reads_back() {
        let (header, payload) = sample();
        let bytes = file(&header, &payload);
        let read = Header::decode(&bytes, header.rules, header.signature).unwrap();
        assert_eq!(read, header);
        let values: Vec<Wdl> = (0..9)
            .map(|i| read.encoding.value(&payload, i).wdl)
            .collect();
        assert_eq!(values[..4], [Wdl::Win, Wdl::Draw, Wdl::Loss, Wdl::Win]);
        assert_eq!(values[8], Wdl::Draw);
    }

    #[test]
    fn distances_round_trip_in_both_widths() {
        for enc in [Encoding::Dtm8, Encoding::Dtm16] {
            let mut payload = vec![0u8; enc.payload_len(3) as usize];
            for (i, v) in [Value::decided(0), Value::DRAW, Value::decided(253)]
                .iter()
                .enumerate()
            {
                enc.store(&mut payload, i as u64, *v);
                assert_eq!(enc.value(&payload, i as u64), *v);
            }
        }
    }

    /// Every kind of damage is refused, each with its own message.
    #[test]
    fn damaged_files_are_refused() {
        let (header, payload) = sample();
        let good = file(&header, &payload);
        let refuse = |bytes: &[u8], rules: Rules, sig: Signature, needle: &str| {
            let err = Header::decode(bytes, rules, sig).unwrap_err().to_string();
            assert!(err.contains(needle), "{err:?} lacks {needle:?}");
        };
        let (r, s) = (header.rules, header.signature);
        refuse(&good[..good.len() - 1], r, s, "truncated");
        refuse(&good[..40], r, s, "truncated");
        let mut longer = good.clone();
        longer.push(0);
        refuse(&longer, r, s, "truncated: 84 bytes, expected 83");
        refuse(&good, Rules::ARMENIAN, s, "other rules (variant turkish");
        refuse(&good, r, Signature::new(0, 1, 1, 0), "holds signature MvK");
        let mut flipped = good.clone();
        *flipped.last_mut().unwrap() ^= 0x10;
        refuse(&flipped, r, s, "bad checksum");
        let mut stats = good.clone();
        stats[33] ^= 1;
        refuse(&stats, r, s, "bad checksum");
        let mut magic = good.clone();
        magic[0] = b'X';
        refuse(&magic, r, s, "magic");
        let mut version = good;
        version[10] = 9;
        refuse(&version, r, s, "index version 9");
    }
}
