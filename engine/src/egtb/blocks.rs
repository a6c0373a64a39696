//! Compressed tables (format version 2), as read: the payload of a plain table cut
//! into blocks of a fixed number of bytes, each compressed on its own with
//! zstd, behind an index of the blocks' offsets, so that a probe
//! decompresses one block and nothing else.
//!
//! ```text
//! payload offset  size
//!  0               4  block bytes B: plain payload bytes a block holds
//!                     (the last block holds the rest)
//!  4               1  compression (1: zstd)
//!  5               3  zero
//!  8               8  blocks n = ceil(plain payload bytes / B)
//! 16       8 (n + 1)  offset of each block's compressed bytes from the
//!                     start of the data, then the data's length
//! 24 + 8n             data: the compressed blocks, one after the other
//! ```
//!
//! The plain payload is that of format 1 (`file.rs`), so a block decodes
//! with the file's own encoding; B is a multiple of an entry's bytes, so no
//! entry straddles two blocks. The header's checksum covers the payload as
//! stored; a table is opened only once its checksum and block index are
//! checked, and a block that still fails to decompress makes its probe
//! find nothing rather than a wrong value.
//!
//! Each thread keeps the last blocks it decompressed (`Cache`): the search
//! probes the same few blocks again and again (docs/endgames.md gives the
//! figures).

use super::file::{Encoding, FileError, Header};
use super::value::Value;
use std::cell::RefCell;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// The one compression method: zstd.
pub(crate) const METHOD_ZSTD: u8 = 1;
/// Bytes of the payload before the block offsets.
pub(crate) const PREAMBLE: usize = 16;
/// No block larger than this is read, whatever a file says: a probe's
/// buffer stays small.
pub(crate) const MAX_BLOCK_BYTES: u32 = 1 << 20;

/// Plain payload bytes that hold one entry whole.
pub(crate) fn entry_unit(encoding: Encoding) -> u32 {
    match encoding {
        Encoding::Wdl2 | Encoding::Dtm8 => 1,
        Encoding::Dtm16 => 2,
    }
}

/// Entries a block of `block_bytes` plain bytes holds.
fn entries_per_block(encoding: Encoding, block_bytes: u64) -> u64 {
    match encoding {
        Encoding::Wdl2 => block_bytes * 4,
        Encoding::Dtm8 => block_bytes,
        Encoding::Dtm16 => block_bytes / 2,
    }
}

/// The block index of a compressed payload, checked against the payload.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Blocks {
    encoding: Encoding,
    block_bytes: u64,
    plain_len: u64,
    /// Where the data starts in the payload.
    data: usize,
    /// This table's number among all opened in the process, for the cache.
    serial: u64,
}

static NEXT_SERIAL: AtomicU64 = AtomicU64::new(0);

impl Blocks {
    /// Reads and checks the block index of `header`'s payload: every
    /// offset in order and inside the data, as many blocks as the plain
    /// payload needs.
    pub(crate) fn parse(header: &Header, payload: &[u8]) -> Result<Blocks, FileError> {
        let corrupt = FileError::Corrupt;
        if payload.len() < PREAMBLE {
            return Err(corrupt("compressed payload shorter than its preamble"));
        }
        let u64_at = |o: usize| u64::from_le_bytes(payload[o..o + 8].try_into().expect("8 bytes"));
        let block_bytes = u32::from_le_bytes(payload[0..4].try_into().expect("4 bytes"));
        if payload[4] != METHOD_ZSTD {
            return Err(corrupt("unknown compression method"));
        }
        if block_bytes == 0
            || block_bytes > MAX_BLOCK_BYTES
            || block_bytes % entry_unit(header.encoding) != 0
        {
            return Err(corrupt("block size"));
        }
        let plain_len = header.encoding.payload_len(header.entries);
        let count = u64_at(8);
        if count != plain_len.div_ceil(u64::from(block_bytes)) {
            return Err(corrupt("block count"));
        }
        let data = count
            .checked_add(1)
            .and_then(|n| n.checked_mul(8))
            .and_then(|n| n.checked_add(PREAMBLE as u64))
            .filter(|&d| d <= payload.len() as u64)
            .ok_or(corrupt("block index longer than the payload"))? as usize;
        let mut previous = 0;
        for i in 0..=count as usize {
            let offset = u64_at(PREAMBLE + 8 * i);
            if (i == 0 && offset != 0) || offset < previous {
                return Err(corrupt("block offsets out of order"));
            }
            previous = offset;
        }
        if previous != (payload.len() - data) as u64 {
            return Err(corrupt("block offsets do not end with the data"));
        }
        Ok(Blocks {
            encoding: header.encoding,
            block_bytes: u64::from(block_bytes),
            plain_len,
            data,
            serial: NEXT_SERIAL.fetch_add(1, Ordering::Relaxed),
        })
    }

    /// Block `b`'s compressed bytes.
    fn compressed<'a>(&self, payload: &'a [u8], b: u64) -> &'a [u8] {
        let at = |i: u64| {
            let o = PREAMBLE + 8 * i as usize;
            u64::from_le_bytes(payload[o..o + 8].try_into().expect("8 bytes")) as usize
        };
        &payload[self.data + at(b)..self.data + at(b + 1)]
    }

    /// Plain bytes of block `b` (the last one may be short).
    fn plain_bytes(&self, b: u64) -> usize {
        (self.plain_len - b * self.block_bytes).min(self.block_bytes) as usize
    }

    /// Entry `i`'s value, decompressing its block unless this thread
    /// holds it already; `None` if the block does not decompress whole.
    #[inline]
    pub(crate) fn value(&self, payload: &[u8], i: u64) -> Option<Value> {
        let per_block = entries_per_block(self.encoding, self.block_bytes);
        let (b, within) = (i / per_block, i % per_block);
        CACHE.with(|held| {
            let mut held = held.borrow_mut();
            let block = held.0.as_mut()?.block(self, payload, b)?;
            Some(self.encoding.value(block, within))
        })
    }
}

/// Blocks decompressed for probes by every thread of the process (not
/// counting the converter's own checks): what the caches failed to hold.
static DECOMPRESSED: AtomicU64 = AtomicU64::new(0);

/// Blocks of compressed tables decompressed so far for probes, by every
/// thread of the process; a probe served by a thread's cache adds nothing
/// (`tama egtb bench` reports it, the cache's tests count on it).
pub fn blocks_decompressed() -> u64 {
    DECOMPRESSED.load(Ordering::Relaxed)
}

pub(crate) fn decompress(
    dctx: &mut zstd::bulk::Decompressor<'static>,
    src: &[u8],
    len: usize,
    out: &mut Vec<u8>,
) -> bool {
    out.clear();
    out.resize(len, 0);
    matches!(dctx.decompress_to_buffer(src, out.as_mut_slice()), Ok(n) if n == len)
}

/// Blocks a thread keeps decompressed, direct-mapped by table and block
/// (up to 4 MB a thread with 4096-byte blocks, each slot allocated when
/// first used). A 5-piece Armenian search to depth 24 on the 4-piece
/// tables took 100-126 ms plain, and compressed 400-500 ms with 1 slot,
/// about 400 with 16, 130-270 with 256, 131-140 with 1024
/// (docs/endgames.md).
const CACHE_SLOTS: usize = 1024;

/// A thread's decompressor and its last decompressed blocks.
struct Cache {
    dctx: Option<zstd::bulk::Decompressor<'static>>,
    /// (table serial, block) of each slot's bytes; `u64::MAX` serial: empty.
    keys: [(u64, u64); CACHE_SLOTS],
    slots: Vec<Vec<u8>>,
}

/// The caches of threads that have ended, for the next threads to take
/// up: the search starts its threads afresh for every search, and a cold
/// cache cost each short search several milliseconds (docs/endgames.md).
/// Keys stay valid, every opened table having its own serial.
static POOL: Mutex<Vec<Cache>> = Mutex::new(Vec::new());
/// Caches kept in the pool at most (4 MB each when full).
const POOL_LIMIT: usize = 64;

/// A thread's cache, handed back to the pool when the thread ends.
struct Held(Option<Cache>);

impl Drop for Held {
    fn drop(&mut self) {
        if let (Some(cache), Ok(mut pool)) = (self.0.take(), POOL.lock()) {
            if pool.len() < POOL_LIMIT {
                pool.push(cache);
            }
        }
    }
}

thread_local! {
    static CACHE: RefCell<Held> = RefCell::new(Held(Some(
        POOL.lock().ok().and_then(|mut pool| pool.pop()).unwrap_or_else(|| Cache {
            dctx: None,
            keys: [(u64::MAX, 0); CACHE_SLOTS],
            slots: vec![Vec::new(); CACHE_SLOTS],
        }),
    )));
}

impl Cache {
    fn block(&mut self, blocks: &Blocks, payload: &[u8], b: u64) -> Option<&[u8]> {
        let key = (blocks.serial, b);
        let slot = (blocks.serial.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b) as usize % CACHE_SLOTS;
        if self.keys[slot] != key {
            self.keys[slot] = (u64::MAX, 0);
            let src = blocks.compressed(payload, b);
            let len = blocks.plain_bytes(b);
            if self.dctx.is_none() {
                self.dctx = zstd::bulk::Decompressor::new().ok();
            }
            let dctx = self.dctx.as_mut()?;
            DECOMPRESSED.fetch_add(1, Ordering::Relaxed);
            if !decompress(dctx, src, len, &mut self.slots[slot]) {
                return None;
            }
            self.keys[slot] = key;
        }
        Some(&self.slots[slot])
    }
}

/// Why a table could not be compressed (`EgtbError::Compression` names the
/// file): blocks this format cannot hold, or that do not come back whole.
#[derive(Debug)]
pub enum CompressError {
    /// The block size is not a whole number of entries, or out of range.
    BlockBytes {
        /// The size asked for.
        block_bytes: u32,
        /// The bytes of one group of entries, which a block must be a
        /// multiple of.
        unit: u32,
    },
    /// zstd refused to make a context or compress a block.
    Zstd(std::io::Error),
    /// A compressed block read back is not the plain block.
    RoundTrip,
    /// A compressing thread panicked.
    ThreadPanicked,
    /// The written file's header does not describe the plain table's
    /// entries.
    HeaderDiffers,
}

impl fmt::Display for CompressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompressError::BlockBytes { block_bytes, unit } => write!(
                f,
                "block bytes {block_bytes}: must be a multiple of {unit} from {unit} to {MAX_BLOCK_BYTES}"
            ),
            CompressError::Zstd(e) => write!(f, "zstd: {e}"),
            CompressError::RoundTrip => f.write_str("a block does not decompress to itself"),
            CompressError::ThreadPanicked => f.write_str("a compressing thread panicked"),
            CompressError::HeaderDiffers => {
                f.write_str("the written table's header differs from the plain one")
            }
        }
    }
}

impl std::error::Error for CompressError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CompressError::Zstd(e) => Some(e),
            _ => None,
        }
    }
}
