//! The weights file: one variant's evaluation weights, as bytes (the
//! caller reads and writes files). The format is in docs/evaluation.md; the
//! decoder is strict (exact length, known model, matching checksum), so a
//! damaged or foreign file is refused instead of half-loaded.

use super::hand::{HandWeights, TERMS};
use super::kings::{self, KingTable};
use super::pattern::{Layout, PatternParams, PatternTable};
use super::{Model, VariantWeights};
use crate::rules::Variant;
use std::fmt;

/// The first bytes of a weights file.
pub const MAGIC: &[u8; 8] = b"TAMAEVAL";
/// The format version this build writes and reads.
pub const FORMAT_VERSION: u16 = 2;
const HEADER_BYTES: usize = 20;
const CHECKSUM_BYTES: usize = 4;

/// FNV-1a, 32 bits: enough to tell a damaged file.
pub fn checksum(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ b as u32).wrapping_mul(0x0100_0193)
    })
}

fn variant_byte(v: Variant) -> u8 {
    match v {
        Variant::Armenian => 0,
        Variant::Turkish => 1,
    }
}

fn model_byte(m: Model) -> u8 {
    match m {
        Model::Hand => 0,
        Model::Patterns => 1,
        Model::Kings => 2,
    }
}

/// The bytes of a weights file holding `w`.
pub fn encode(w: &VariantWeights) -> Vec<u8> {
    let params = w.patterns.as_ref().map(|p| p.params());
    let n = params.map_or(0, |p| p.opening.len());
    let description = w.description.as_bytes();
    let description = &description[..description.len().min(u16::MAX as usize)];
    let mut out = Vec::with_capacity(
        HEADER_BYTES + description.len() + 4 * TERMS + 4 * n + 2 * kings::PARAMS + 4,
    );
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.push(variant_byte(w.variant));
    out.push(model_byte(w.model()));
    out.extend_from_slice(&(TERMS as u16).to_le_bytes());
    out.extend_from_slice(&(description.len() as u16).to_le_bytes());
    out.extend_from_slice(&(n as u32).to_le_bytes());
    out.extend_from_slice(description);
    for x in w.hand {
        out.extend_from_slice(&x.to_le_bytes());
    }
    if let Some(p) = params {
        for x in p.opening.iter().chain(&p.endgame) {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    if let (Model::Kings, Some(k)) = (w.model(), &w.kings) {
        for x in k.params() {
            out.extend_from_slice(&x.to_le_bytes());
        }
    }
    let sum = checksum(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Why a weights file is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WeightsFileError {
    /// No `TAMAEVAL` header (or too short to hold one).
    NotWeights,
    /// A format version this build does not read.
    Version(u16),
    /// An unknown variant number.
    Variant(u8),
    /// An unknown model number.
    Model(u8),
    /// Another number of hand terms than this build's.
    Terms(usize),
    /// Another number of pattern weights than the model has.
    Patterns {
        /// The pattern weights in the file.
        found: usize,
        /// The model the file names.
        model: Model,
        /// The pattern weights of that model.
        expected: usize,
    },
    /// Another length than the header gives (truncated or damaged).
    Length {
        /// The file's length in bytes.
        found: usize,
        /// The length its header gives.
        expected: usize,
    },
    /// The checksum does not match (damaged).
    Checksum,
    /// The description is not UTF-8.
    Description,
    /// A pattern weight of -32768 (which no writer makes).
    PatternMin,
}

impl fmt::Display for WeightsFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsFileError::NotWeights => {
                f.write_str("not a Tama weights file (no TAMAEVAL header)")
            }
            WeightsFileError::Version(v) => write!(
                f,
                "weights file format version {v}, this build reads {FORMAT_VERSION}"
            ),
            WeightsFileError::Variant(v) => {
                write!(f, "weights file names an unknown variant ({v})")
            }
            WeightsFileError::Model(m) => write!(f, "weights file names an unknown model ({m})"),
            WeightsFileError::Terms(t) => {
                write!(f, "weights file has {t} hand terms, this build has {TERMS}")
            }
            WeightsFileError::Patterns {
                found,
                model,
                expected,
            } => write!(
                f,
                "weights file has {found} pattern weights, model {} has {expected}",
                model.name()
            ),
            WeightsFileError::Length { found, expected } => write!(
                f,
                "weights file is {found} bytes, its header says {expected} (truncated or damaged)"
            ),
            WeightsFileError::Checksum => {
                f.write_str("weights file checksum does not match (damaged file)")
            }
            WeightsFileError::Description => f.write_str("weights file description is not UTF-8"),
            WeightsFileError::PatternMin => {
                f.write_str("weights file holds a pattern weight of -32768")
            }
        }
    }
}

impl std::error::Error for WeightsFileError {}

/// Reads `bytes` front to back; every read is bounds-checked by the caller's
/// length check first.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0u8; N];
        a.copy_from_slice(&self.bytes[self.at..self.at + N]);
        self.at += N;
        a
    }
}

/// The weights in `bytes`, or why the file is refused.
pub fn decode(bytes: &[u8]) -> Result<VariantWeights, WeightsFileError> {
    if bytes.len() < HEADER_BYTES + CHECKSUM_BYTES || &bytes[..8] != MAGIC {
        return Err(WeightsFileError::NotWeights);
    }
    let mut r = Reader { bytes, at: 8 };
    let version = u16::from_le_bytes(r.take());
    if version != FORMAT_VERSION {
        return Err(WeightsFileError::Version(version));
    }
    let variant = match r.take::<1>()[0] {
        0 => Variant::Armenian,
        1 => Variant::Turkish,
        v => return Err(WeightsFileError::Variant(v)),
    };
    let model = match r.take::<1>()[0] {
        0 => Model::Hand,
        1 => Model::Patterns,
        2 => Model::Kings,
        m => return Err(WeightsFileError::Model(m)),
    };
    let terms = u16::from_le_bytes(r.take()) as usize;
    if terms != TERMS {
        return Err(WeightsFileError::Terms(terms));
    }
    let description_len = u16::from_le_bytes(r.take()) as usize;
    let n = u32::from_le_bytes(r.take()) as usize;
    let expected_n = match model {
        Model::Hand => 0,
        Model::Patterns | Model::Kings => Layout::get().params(),
    };
    if n != expected_n {
        return Err(WeightsFileError::Patterns {
            found: n,
            model,
            expected: expected_n,
        });
    }
    // The kings model's weights follow the patterns', a fixed number.
    let king_params = if model == Model::Kings {
        kings::PARAMS
    } else {
        0
    };
    let expected_len =
        HEADER_BYTES + description_len + 4 * TERMS + 4 * n + 2 * king_params + CHECKSUM_BYTES;
    if bytes.len() != expected_len {
        return Err(WeightsFileError::Length {
            found: bytes.len(),
            expected: expected_len,
        });
    }
    let body = &bytes[..expected_len - CHECKSUM_BYTES];
    let stored = u32::from_le_bytes(bytes[body.len()..].try_into().expect("4 bytes"));
    if checksum(body) != stored {
        return Err(WeightsFileError::Checksum);
    }
    let description = std::str::from_utf8(&bytes[r.at..r.at + description_len])
        .map_err(|_| WeightsFileError::Description)?
        .to_string();
    r.at += description_len;
    let mut hand: HandWeights = [0; TERMS];
    for x in hand.iter_mut() {
        *x = i32::from_le_bytes(r.take());
    }
    let read = |r: &mut Reader, n: usize| -> Result<Vec<i16>, WeightsFileError> {
        (0..n)
            .map(|_| match i16::from_le_bytes(r.take()) {
                i16::MIN => Err(WeightsFileError::PatternMin),
                x => Ok(x),
            })
            .collect()
    };
    let patterns = match model {
        Model::Hand => None,
        Model::Patterns | Model::Kings => {
            let opening = read(&mut r, n)?;
            let endgame = read(&mut r, n)?;
            Some(PatternTable::new(PatternParams { opening, endgame }))
        }
    };
    let kings = match model {
        Model::Kings => {
            let material = read(&mut r, kings::MATERIAL)?;
            let squares = read(&mut r, 2 * kings::SQUARES)?;
            let (opening, endgame) = squares.split_at(kings::SQUARES);
            let array =
                |x: &[i16]| -> [i16; kings::SQUARES] { x.try_into().expect("SQUARES weights") };
            Some(KingTable::new(material, array(opening), array(endgame)))
        }
        _ => None,
    };
    Ok(VariantWeights {
        variant,
        hand,
        patterns,
        kings,
        description,
    })
}
