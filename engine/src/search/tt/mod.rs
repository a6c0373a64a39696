//! The transposition table: what earlier searches learned about positions,
//! shared lock-free between the search threads.
//!
//! Layout: buckets of four 16-byte entries (one cache line). An entry is two
//! `AtomicU64`s: the packed data and a check word, `key ^ data` with the
//! table's epoch in its top bits. A reader accepts an entry only when the
//! two words agree with the key it looks for, so a torn write by another
//! thread (one word new, one old) reads as a miss, never as a wrong hit (the
//! classic "lockless hashing" of Hyatt and Mann). Moves read back are only
//! hints: the search matches them against the legal moves.
//!
//! Clearing the table starts a new epoch instead of writing every entry
//! (gigabytes, seconds): an entry of another epoch is empty. The epoch takes
//! the top `EPOCH_BITS` bits of the check word, which lose nothing: two keys
//! of one bucket differ by less than 2^64 / buckets (the bucket is the key
//! scaled to the bucket count), so with at least 2^EPOCH_BITS buckets they
//! cannot differ in the top bits alone, and the low bits still tell every
//! key of a bucket apart. Once the epochs run out, the memory is cleared
//! for real (`memory`).
//!
//! A key's bucket is the same for the table's whole life (`bucket`), so
//! what a search stores while a large new table is being touched
//! (`memory`) is found again once it is whole. Meanwhile a key whose bucket
//! is not yet touched is kept in a stand-in among the first buckets, the
//! part touched before the search began, so that the first search still
//! has a table of that size for those keys; those entries are not found
//! once their own buckets are ready. (A stand-in bucket also holds keys of
//! its own, whose top bits may differ from those it stands in for: only the
//! low bits tell those apart, so a wrong hit has odds of 2^-52 per entry
//! compared, while such entries last.)
//!
//! Win/loss scores are stored relative to the node (distance from the node,
//! not from the root) and corrected by ply on the way in and out.

use super::score::{score_from_tt, score_to_tt, Bound};
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::square::Square;
use memory::Buckets;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

mod memory;

/// The bound kept in two bits of an entry; 0 marks an empty entry.
#[inline]
fn bound_from_bits(b: u64) -> Option<Bound> {
    match b & 3 {
        1 => Some(Bound::Upper),
        2 => Some(Bound::Lower),
        3 => Some(Bound::Exact),
        _ => None,
    }
}

/// A compact move as the table keeps it: from, to, promotion and a 16-bit
/// fingerprint of the captured set. Enough to pick the move out of the legal
/// list (`matches`), and the list is what the search then plays.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PackedMove(u32);

impl PackedMove {
    const NONE: PackedMove = PackedMove(0);

    /// The packed form of `mv`.
    pub fn pack(mv: &Move) -> PackedMove {
        let fp = capture_fingerprint(mv.captures) as u32;
        PackedMove(
            mv.from.index() as u32
                | (mv.to.index() as u32) << 6
                | (mv.promotes as u32) << 12
                | 1 << 13
                | fp << 14,
        )
    }

    /// Whether no move is stored.
    pub fn is_none(self) -> bool {
        self.0 & (1 << 13) == 0
    }

    /// Whether `mv` is the move this was packed from (up to a 1 in 65536
    /// fingerprint clash between two captures with the same from and to).
    #[inline]
    pub fn matches(self, mv: &Move) -> bool {
        !self.is_none() && PackedMove::pack(mv) == self
    }

    /// The stored move's start square.
    pub fn from_square(self) -> Square {
        Square::new((self.0 & 63) as u8).expect("6 bits")
    }

    /// The stored move's end square.
    pub fn to_square(self) -> Square {
        Square::new((self.0 >> 6 & 63) as u8).expect("6 bits")
    }
}

#[inline]
fn capture_fingerprint(c: Bitboard) -> u16 {
    if c.is_empty() {
        0
    } else {
        (c.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 48) as u16 | 1
    }
}

/// One probe result, score already corrected to the probing ply.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    /// The best (or refuting) move found, if any.
    pub mv: PackedMove,
    /// The stored score (mate scores relative to the probing ply).
    pub score: i32,
    /// The depth it was searched to.
    pub depth: i32,
    /// What the score says about the true value.
    pub bound: Bound,
}

// Data word layout (bits): 0-15 score (i16), 16-23 depth + DEPTH_OFFSET,
// 24-25 bound (0 = empty), 26-31 generation, 32-61 packed move.
const DEPTH_OFFSET: i32 = 16;
const GEN_MASK: u8 = 63;

#[inline]
fn pack(mv: PackedMove, score: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    (score as i16 as u16 as u64)
        | ((depth + DEPTH_OFFSET).clamp(0, 255) as u64) << 16
        | (bound as u64) << 24
        | ((generation & GEN_MASK) as u64) << 26
        | (mv.0 as u64) << 32
}

#[inline]
fn unpack_depth(data: u64) -> i32 {
    (data >> 16 & 255) as i32 - DEPTH_OFFSET
}

#[inline]
fn unpack_generation(data: u64) -> u8 {
    (data >> 26) as u8 & GEN_MASK
}

/// All-zero bytes are a valid, empty bucket (`memory` relies on it): no
/// epoch is zero.
#[repr(align(64))]
struct Bucket {
    /// Per entry: [key ^ data, data].
    words: [AtomicU64; 8],
}

const ENTRIES: usize = 4;

/// The check word's top bits, for the epoch (see the module comment).
const EPOCH_BITS: u32 = 12;
const KEY_BITS: u32 = 64 - EPOCH_BITS;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
/// The first epoch, already in place in the check word.
const FIRST_EPOCH: u64 = 1 << KEY_BITS;

/// The check word of an entry holding `data` for `key` in `epoch` (in place).
#[inline]
fn check_word(key: u64, data: u64, epoch: u64) -> u64 {
    (key ^ data) & KEY_MASK | epoch
}

/// Whether an entry with check word `check` belongs to `epoch`.
#[inline]
fn of_epoch(check: u64, epoch: u64) -> bool {
    check & !KEY_MASK == epoch
}

/// The table (see the module comment): buckets of four entries, the
/// generation of the current search, and the epoch (which clearing moves
/// on; in place in the check word).
pub struct TranspositionTable {
    buckets: Buckets,
    generation: AtomicU8,
    epoch: u64,
}

impl TranspositionTable {
    /// Smallest size in megabytes.
    pub const MIN_MB: usize = 1;
    /// Largest size in megabytes.
    pub const MAX_MB: usize = 65536;
    /// Size when the user asks for none.
    pub const DEFAULT_MB: usize = 64;

    /// A cleared table of `mb` megabytes (clamped to 1 ..= 65536). When the
    /// system cannot give that much, the size is halved until it can:
    /// `size_mb()` tells what was obtained.
    pub fn new(mb: usize) -> TranspositionTable {
        let mut mb = mb.clamp(Self::MIN_MB, Self::MAX_MB);
        loop {
            let n = mb * 1024 * 1024 / std::mem::size_of::<Bucket>();
            // What makes the epoch bits free (see the module comment).
            assert!(n >= 1 << EPOCH_BITS);
            if let Some(buckets) = Buckets::try_new(n) {
                return TranspositionTable {
                    buckets,
                    generation: AtomicU8::new(0),
                    epoch: FIRST_EPOCH,
                };
            }
            if mb == Self::MIN_MB {
                // Not even one megabyte: nothing sensible is left to do.
                panic!("the system refuses even {mb} MB for the transposition table");
            }
            mb /= 2;
        }
    }

    /// The size actually obtained, in megabytes.
    pub fn size_mb(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Number of entries.
    pub fn capacity(&self) -> usize {
        self.buckets.len() * ENTRIES
    }

    /// Forgets every entry: a new epoch, so quick whatever the size (once
    /// in 4095 times the memory itself is cleared, which is quick too).
    pub fn clear(&mut self) {
        self.epoch = self.epoch.wrapping_add(FIRST_EPOCH);
        if self.epoch == 0 {
            self.buckets.clear();
            self.epoch = FIRST_EPOCH;
        }
        *self.generation.get_mut() = 0;
    }

    /// Gets the table's memory ready while the engine is idle: a table
    /// small enough to be touched whole is touched now, not on the first
    /// search's clock (see `memory`).
    pub fn prepare(&self) {
        self.buckets.touch_if_small();
    }

    /// Starts a new search: entries from earlier searches age, and the
    /// first search touches the table's memory (see `memory`).
    pub fn new_search(&self) {
        self.buckets.touch_for_search();
        let g = self.generation.load(Ordering::Relaxed);
        self.generation
            .store(g.wrapping_add(1) & GEN_MASK, Ordering::Relaxed);
    }

    /// The bucket of `key`: its own, the key scaled to the bucket count,
    /// the same for the table's whole life; while that one is not yet
    /// touched (a large new table, see `memory`), its stand-in, the key
    /// scaled to the buckets touched before the search began, for the
    /// search not to fault pages in on its clock.
    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        let scaled = |n: usize| ((key as u128 * n as u128) >> 64) as usize;
        let (own, ready) = (scaled(self.buckets.len()), self.buckets.ready());
        if own < ready {
            &self.buckets[own]
        } else {
            &self.buckets[scaled(ready.min(memory::STAND_INS))]
        }
    }

    /// Hints the CPU to fetch the bucket of `key` (before making the move).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        unsafe {
            // SAFETY: prefetching is a hint and never faults; the pointer is
            // to a live bucket of this table.
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch(self.bucket(key) as *const Bucket as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// What is stored for `key`, scores corrected for `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtHit> {
        let b = self.bucket(key);
        for e in 0..ENTRIES {
            let data = b.words[2 * e + 1].load(Ordering::Relaxed);
            let check = b.words[2 * e].load(Ordering::Relaxed);
            if check != check_word(key, data, self.epoch) {
                continue;
            }
            let bound = bound_from_bits(data >> 24)?;
            return Some(TtHit {
                mv: PackedMove((data >> 32) as u32),
                score: score_from_tt(data as u16 as i16 as i32, ply),
                depth: unpack_depth(data),
                bound,
            });
        }
        None
    }

    /// Stores a result. Replacement: the entry of the same position if there
    /// is one (unless it holds a deeper result of this search), otherwise the
    /// least valuable of the bucket: empty first, then the shallowest, with
    /// four plies of depth discounted per search of age.
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Option<&Move>,
        score: i32,
        depth: i32,
        bound: Bound,
    ) {
        let generation = self.generation.load(Ordering::Relaxed);
        let b = self.bucket(key);
        let mut victim = 0;
        let mut victim_value = i32::MAX;
        let mut packed = mv.map_or(PackedMove::NONE, PackedMove::pack);
        for e in 0..ENTRIES {
            let data = b.words[2 * e + 1].load(Ordering::Relaxed);
            let check = b.words[2 * e].load(Ordering::Relaxed);
            if bound_from_bits(data >> 24).is_none() || !of_epoch(check, self.epoch) {
                if victim_value > i32::MIN {
                    victim = e;
                    victim_value = i32::MIN;
                }
                continue;
            }
            if check == check_word(key, data, self.epoch) {
                let old_depth = unpack_depth(data);
                let same_search = unpack_generation(data) == generation;
                if same_search && bound != Bound::Exact && old_depth > depth + 2 {
                    return;
                }
                if packed.is_none() {
                    packed = PackedMove((data >> 32) as u32);
                }
                victim = e;
                break;
            }
            let age = (generation.wrapping_sub(unpack_generation(data)) & GEN_MASK) as i32;
            let value = unpack_depth(data) - 4 * age;
            if value < victim_value {
                victim = e;
                victim_value = value;
            }
        }
        let data = pack(packed, score_to_tt(score, ply), depth, bound, generation);
        b.words[2 * victim + 1].store(data, Ordering::Relaxed);
        b.words[2 * victim].store(check_word(key, data, self.epoch), Ordering::Relaxed);
    }

    /// Per mille of entries written by the current search (sampled).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for e in 0..ENTRIES {
                let data = b.words[2 * e + 1].load(Ordering::Relaxed);
                let check = b.words[2 * e].load(Ordering::Relaxed);
                if bound_from_bits(data >> 24).is_some()
                    && of_epoch(check, self.epoch)
                    && unpack_generation(data) == generation
                {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES).max(1)) as u32
    }
}

#[cfg(test)]
mod tests;
