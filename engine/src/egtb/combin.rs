//! The arithmetic of the index: sets of squares numbered by the
//! combinatorial number system (rank and unrank), squares of a domain
//! packed and unpacked (`rank_in`, `expand`, `select`), and exact division
//! by a number fixed per table, by multiplication (`Divisor`).

use super::signature::MAX_PIECES;
use std::sync::OnceLock;

pub(super) const fn binomials() -> [[u64; 8]; 65] {
    let mut t = [[0u64; 8]; 65];
    let mut n = 0;
    while n <= 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 8 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
}

/// `BINOM[n][k]` = n choose k, for k < 8.
pub(super) static BINOM: [[u64; 8]; 65] = binomials();

#[inline(always)]
pub(super) fn binom(n: u32, k: u32) -> u64 {
    BINOM[n as usize][k as usize]
}

/// The combination rank of a set of positions (bit i = position i in its domain).
#[inline]
pub(super) fn comb_rank(set: u64) -> u64 {
    let mut r = 0;
    let mut rest = set;
    let mut i = 1;
    while rest != 0 {
        r += binom(rest.trailing_zeros(), i);
        rest &= rest - 1;
        i += 1;
    }
    r
}

/// The set of `k` positions with combination rank `r` (inverse of
/// `comb_rank`), found by bisection; `comb_unrank` looks it up instead.
#[inline]
pub(super) fn comb_unrank_by_search(mut r: u64, k: u32, n: u32) -> u64 {
    let mut set = 0u64;
    // The largest position is the largest p < hi with C(p, i) <= r,
    // found by bisection (C(p, i) grows with p).
    let mut hi = n;
    for i in (1..=k).rev() {
        let mut lo = i - 1; // C(i - 1, i) = 0 <= r
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if binom(mid, i) <= r {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        r -= binom(lo, i);
        set |= 1 << lo;
        hi = lo;
    }
    set
}

/// The set of `k` positions with combination rank `r`. The combinatorial
/// number system does not depend on the domain's size, so one table per
/// `k`, over the 64-square domain, serves every class (up to 5 MB for k = 4).
#[inline]
pub(super) fn comb_unrank(r: u64, k: u32) -> u64 {
    match k {
        0 => 0,
        1 => 1 << r,
        _ => {
            static TABLES: [OnceLock<Vec<u64>>; MAX_PIECES as usize] =
                [EMPTY_SETS; MAX_PIECES as usize];
            let table = TABLES[k as usize].get_or_init(|| {
                (0..binom(64, k))
                    .map(|r| comb_unrank_by_search(r, k, 64))
                    .collect()
            });
            table[r as usize]
        }
    }
}

#[allow(clippy::declare_interior_mutable_const)] // an array initialiser only
pub(super) const EMPTY_SETS: OnceLock<Vec<u64>> = OnceLock::new();

/// Each set bit of `set` (a subset of `domain`) replaced by its rank among
/// the bits of `domain`: squares to positions in the domain (`rank_in`
/// does it on the way; the tests check `expand` against it).
#[cfg(test)]
pub(super) fn compress(set: u64, domain: u64) -> u64 {
    let mut out = 0u64;
    let mut rest = set;
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        out |= 1 << (domain & (low - 1)).count_ones();
        rest ^= low;
    }
    out
}

/// `comb_rank(compress(set, domain))` in one pass: what numbering a
/// position does for every class but the lead.
#[inline]
pub(super) fn rank_in(set: u64, domain: u64) -> u64 {
    let mut r = 0;
    let mut rest = set;
    let mut i = 1;
    while rest != 0 {
        let low = rest & rest.wrapping_neg();
        r += binom((domain & (low - 1)).count_ones(), i);
        rest ^= low;
        i += 1;
    }
    r
}

/// The inverse of `compress`: positions in `domain` back to squares.
#[inline]
pub(super) fn expand(positions: u64, domain: u64) -> u64 {
    let mut out = 0u64;
    let mut rest = positions;
    while rest != 0 {
        out |= 1 << select(domain, rest.trailing_zeros());
        rest &= rest - 1;
    }
    out
}

/// The square of the `j`-th set bit of `mask` (counting from 0), by
/// broadword arithmetic (Vigna, "Broadword implementation of rank/select
/// queries", 2008): no loop, no branch to mispredict.
#[inline]
pub(super) fn select(mask: u64, j: u32) -> u32 {
    const L8: u64 = 0x0101_0101_0101_0101;
    const H8: u64 = 0x8080_8080_8080_8080;
    debug_assert!(j < mask.count_ones());
    // Bits per byte, then running sums: byte i holds the count in bytes 0..=i.
    let mut s = mask - ((mask >> 1) & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + ((s >> 2) & 0x3333_3333_3333_3333);
    s = ((s + (s >> 4)) & 0x0F0F_0F0F_0F0F_0F0F).wrapping_mul(L8);
    // The number of bytes whose running sum is <= j is the byte holding it.
    let k = u64::from(j) * L8;
    let le = ((k | H8) - (s & !H8)) ^ k ^ s;
    let byte = ((le & H8) >> 7).wrapping_mul(L8) >> 56;
    let shift = byte * 8;
    let before = ((s << 8) >> shift) & 0xFF;
    let rest = u64::from(j) - before;
    let in_byte = SELECT_IN_BYTE[((mask >> shift) & 0xFF) as usize][rest as usize];
    shift as u32 + u32::from(in_byte)
}

pub(super) const fn select_in_byte() -> [[u8; 8]; 256] {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut j = 0;
        let mut bit = 0;
        while bit < 8 {
            if b & (1 << bit) != 0 {
                t[b][j] = bit as u8;
                j += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
}

/// `SELECT_IN_BYTE[b][j]`: the bit of the `j`-th set bit of byte `b`.
pub(super) static SELECT_IN_BYTE: [[u8; 8]; 256] = select_in_byte();

/// Division by a number fixed per table, by multiplication (Lemire, Kaser
/// and Kurz, "Faster remainder by direct computation", 2019): exact for
/// 32-bit dividends, and decoding an entry divides four times.
#[derive(Clone, Copy)]
pub(super) struct Divisor {
    d: u64,
    /// ceil(2^64 / d); unused for d = 1.
    m: u64,
}

impl Divisor {
    pub(super) fn new(d: u64) -> Divisor {
        assert!(d >= 1 && d <= u64::from(u32::MAX));
        let m = if d == 1 { 0 } else { u64::MAX / d + 1 };
        Divisor { d, m }
    }

    /// (n / d, n % d) for n < 2^32.
    #[inline(always)]
    pub(super) fn div_rem(self, n: u64) -> (u64, u64) {
        debug_assert!(n <= u64::from(u32::MAX));
        if self.d == 1 {
            return (n, 0);
        }
        let q = ((u128::from(self.m) * u128::from(n)) >> 64) as u64;
        (q, n - q * self.d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn combination_ranks_round_trip() {
        for (n, k) in [(48, 1), (48, 3), (64, 2), (20, 4)] {
            for r in 0..binom(n, k) {
                let set = comb_unrank_by_search(r, k, n);
                assert_eq!(comb_unrank(r, k), set);
                assert_eq!(set.count_ones(), k);
                assert!(set < (1u64 << n) || n == 64);
                assert_eq!(comb_rank(set), r);
            }
        }
    }

    #[test]
    fn division_by_multiplication_is_exact() {
        let mut rng = Rng::new(9);
        for d in [
            1,
            2,
            3,
            7,
            48,
            1081,
            41664,
            635_376,
            3_000_000_019,
            u64::from(u32::MAX),
        ] {
            let div = Divisor::new(d);
            for n in [0, 1, d - 1, d, d + 1, u64::from(u32::MAX)]
                .into_iter()
                .chain((0..1000).map(|_| rng.next_u64() >> 32))
                .filter(|&n| n <= u64::from(u32::MAX))
            {
                assert_eq!(div.div_rem(n), (n / d, n % d), "{n} / {d}");
            }
        }
    }

    #[test]
    fn select_and_compress_invert_each_other() {
        let mut rng = Rng::new(7);
        for _ in 0..1000 {
            let domain = rng.next_u64();
            // Ranks exist for sets of up to 7 (the binomial table's width).
            let mut set = domain & rng.next_u64() & rng.next_u64();
            while set.count_ones() > 7 {
                set &= set - 1;
            }
            assert_eq!(expand(compress(set, domain), domain), set);
            assert_eq!(rank_in(set, domain), comb_rank(compress(set, domain)));
        }
        assert_eq!(select(0b1011_0000_0000, 2), 11);
        for _ in 0..1000 {
            let mask = rng.next_u64() & rng.next_u64();
            let squares: Vec<u32> = (0..64).filter(|&b| mask & (1 << b) != 0).collect();
            for (j, &sq) in squares.iter().enumerate() {
                assert_eq!(select(mask, j as u32), sq, "{mask:x} {j}");
            }
        }
    }
}
