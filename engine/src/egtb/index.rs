//! A perfect index per signature: the positions of one signature numbered
//! `0..len` without gaps, and back.
//!
//! Two symmetries shrink the tables:
//! - colour: every table is seen from the side to move, turned so that it
//!   moves up the board (`Placement`); Black to move is White to move on the
//!   board turned over, with the colours swapped. A table `KMvK` serves both.
//! - mirror (files a <-> h): the rules are the same seen in a mirror. The
//!   first non-empty piece class ("lead": our men, their men, our kings,
//!   their kings, in that order) is numbered only in the orientation whose
//!   combination rank is the smaller; a position whose lead set is the
//!   larger one is looked up mirrored. When the lead set is its own mirror
//!   image, the position and its mirror image have two numbers: the smaller
//!   one stands for both, the other is left unused (few are: a lone piece
//!   is never symmetric, and two men are in 24 of 1128 placements).
//!
//! Men stand only on ranks 2-7 (a man is never on its own first rank, where
//! it never was, nor on its last, where it would be a king). Each class is
//! numbered by the combinatorial number system over the squares its domain
//! has left free after the classes before it: our men among the 48 man
//! squares, their men among the other 48 - a, kings among what is left.

use super::signature::{Signature, MAX_PIECES};
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::rules::{Color, Rules};
use std::sync::OnceLock;

/// Ranks 2-7: where a man of either colour can stand.
pub const MAN_SQUARES: Bitboard = Bitboard(0x00FF_FFFF_FFFF_FF00);

/// The ranks reversed: a1 <-> a8.
#[inline(always)]
fn flip_ranks(b: Bitboard) -> Bitboard {
    Bitboard(b.0.swap_bytes())
}

/// The files reversed: a1 <-> h1.
#[inline(always)]
fn mirror_files(b: Bitboard) -> Bitboard {
    Bitboard(b.0.reverse_bits().swap_bytes())
}

/// A position from the side to move's point of view: "us" moves up the
/// board (as White does). Whether "us" is to move depends on where the
/// placement comes from; a table entry always has "us" to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Placement {
    /// The pieces of the side the placement is seen from.
    pub us: Bitboard,
    /// The other side's pieces.
    pub them: Bitboard,
    /// The kings of both sides.
    pub kings: Bitboard,
}

impl Placement {
    /// The position seen from its side to move.
    pub fn of(pos: &Position) -> Placement {
        let p = Placement {
            us: pos.pieces(Color::White),
            them: pos.pieces(Color::Black),
            kings: pos.all_kings(),
        };
        match pos.side_to_move() {
            Color::White => p,
            Color::Black => p.flipped(),
        }
    }

    /// The position with "us" as White, to move.
    pub fn to_position(&self, rules: Rules) -> Position {
        Position::from_parts(self.us, self.them, self.kings, Color::White, rules)
    }

    /// The board turned over and the colours swapped: the same position
    /// from the other side's point of view.
    #[inline]
    pub fn flipped(&self) -> Placement {
        Placement {
            us: flip_ranks(self.them),
            them: flip_ranks(self.us),
            kings: flip_ranks(self.kings),
        }
    }

    /// The mirror image (files a <-> h), which has the same value.
    #[inline]
    pub fn mirrored(&self) -> Placement {
        Placement {
            us: mirror_files(self.us),
            them: mirror_files(self.them),
            kings: mirror_files(self.kings),
        }
    }

    /// Our men, their men, our kings, their kings: the index's class order.
    #[inline]
    pub fn classes(&self) -> [Bitboard; 4] {
        [
            self.us & !self.kings,
            self.them & !self.kings,
            self.us & self.kings,
            self.them & self.kings,
        ]
    }

    /// The material on the board.
    pub fn signature(&self) -> Signature {
        let [um, tm, uk, tk] = self.classes().map(|c| c.count() as u8);
        Signature::new(um, uk, tm, tk)
    }

    /// Whether every man stands where men can (the index has no number for
    /// a man on its own first rank, which no game reaches).
    pub fn men_on_man_squares(&self) -> bool {
        ((self.us | self.them) & !self.kings & !MAN_SQUARES).is_empty()
    }
}

const fn binomials() -> [[u64; 8]; 65] {
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
static BINOM: [[u64; 8]; 65] = binomials();

#[inline(always)]
fn binom(n: u32, k: u32) -> u64 {
    BINOM[n as usize][k as usize]
}

/// The combination rank of a set of positions (bit i = position i in its domain).
#[inline]
fn comb_rank(set: u64) -> u64 {
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
fn comb_unrank_by_search(mut r: u64, k: u32, n: u32) -> u64 {
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
fn comb_unrank(r: u64, k: u32) -> u64 {
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
const EMPTY_SETS: OnceLock<Vec<u64>> = OnceLock::new();

/// Each set bit of `set` (a subset of `domain`) replaced by its rank among
/// the bits of `domain`: squares to positions in the domain (`rank_in`
/// does it on the way; the tests check `expand` against it).
#[cfg(test)]
fn compress(set: u64, domain: u64) -> u64 {
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
fn rank_in(set: u64, domain: u64) -> u64 {
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
fn expand(positions: u64, domain: u64) -> u64 {
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
fn select(mask: u64, j: u32) -> u32 {
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

const fn select_in_byte() -> [[u8; 8]; 256] {
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
static SELECT_IN_BYTE: [[u8; 8]; 256] = select_in_byte();

/// The lead class's sets of one size in a full domain, numbered in the
/// canonical orientation only.
struct CanonTable {
    /// Canonical number by combination rank; `NOT_CANONICAL` for a set
    /// whose mirror image has the smaller rank.
    number_of: Vec<u32>,
    /// Combination rank by canonical number.
    rank_of: Vec<u32>,
    /// Whether the set with this canonical number is its own mirror image.
    symmetric: Vec<bool>,
}

const NOT_CANONICAL: u32 = u32::MAX;

impl CanonTable {
    /// Domains are the 48 man squares or all 64; both are their own mirror
    /// image, and positions in them mirror by `^ 7` (a domain starts on a
    /// rank boundary).
    fn new(domain_size: u32, k: u32) -> CanonTable {
        let total = binom(domain_size, k);
        let mut number_of = Vec::with_capacity(total as usize);
        let mut rank_of = Vec::new();
        let mut symmetric = Vec::new();
        for r in 0..total {
            let set = comb_unrank_by_search(r, k, domain_size);
            let mut mirror = 0u64;
            let mut rest = set;
            while rest != 0 {
                mirror |= 1 << (rest.trailing_zeros() ^ 7);
                rest &= rest - 1;
            }
            let m = comb_rank(mirror);
            if r <= m {
                number_of.push(rank_of.len() as u32);
                rank_of.push(r as u32);
                symmetric.push(r == m);
            } else {
                number_of.push(NOT_CANONICAL);
            }
        }
        CanonTable {
            number_of,
            rank_of,
            symmetric,
        }
    }

    /// The shared table for `k` pieces of a men (48) or kings (64) domain.
    fn get(domain_size: u32, k: u32) -> &'static CanonTable {
        // One lazily built table per (domain, size); sizes reach MAX_PIECES - 1.
        // Constants only as array initialisers (repeating a non-Copy value).
        #[allow(clippy::declare_interior_mutable_const)]
        const EMPTY: OnceLock<CanonTable> = OnceLock::new();
        #[allow(clippy::declare_interior_mutable_const)]
        const ROW: [OnceLock<CanonTable>; MAX_PIECES as usize] = [EMPTY; MAX_PIECES as usize];
        static TABLES: [[OnceLock<CanonTable>; MAX_PIECES as usize]; 2] = [ROW; 2];
        let d = usize::from(domain_size == 64);
        TABLES[d][k as usize].get_or_init(|| CanonTable::new(domain_size, k))
    }
}

/// Division by a number fixed per table, by multiplication (Lemire, Kaser
/// and Kurz, "Faster remainder by direct computation", 2019): exact for
/// 32-bit dividends, and decoding an entry divides four times.
#[derive(Clone, Copy)]
struct Divisor {
    d: u64,
    /// ceil(2^64 / d); unused for d = 1.
    m: u64,
}

impl Divisor {
    fn new(d: u64) -> Divisor {
        assert!(d >= 1 && d <= u64::from(u32::MAX));
        let m = if d == 1 { 0 } else { u64::MAX / d + 1 };
        Divisor { d, m }
    }

    /// (n / d, n % d) for n < 2^32.
    #[inline(always)]
    fn div_rem(self, n: u64) -> (u64, u64) {
        debug_assert!(n <= u64::from(u32::MAX));
        if self.d == 1 {
            return (n, 0);
        }
        let q = ((u128::from(self.m) * u128::from(n)) >> 64) as u64;
        (q, n - q * self.d)
    }
}

/// The numbering of one signature's positions.
pub struct TableIndex {
    signature: Signature,
    counts: [u32; 4],
    lead: usize,
    canon: &'static CanonTable,
    /// How many values each class's number takes (the lead's: canonical sets).
    radix: [u64; 4],
    divisors: [Divisor; 4],
    len: u64,
}

/// Class domains before the classes placed ahead take their squares.
const DOMAINS: [Bitboard; 4] = [MAN_SQUARES, MAN_SQUARES, Bitboard::FULL, Bitboard::FULL];

impl TableIndex {
    /// The numbering of `signature` (panics for one with no table: more
    /// than `MAX_PIECES` pieces, or a side without pieces).
    pub fn new(signature: Signature) -> TableIndex {
        let s = signature;
        assert!(
            s.pieces() <= MAX_PIECES && s.us_men + s.us_kings > 0 && s.them_men + s.them_kings > 0,
            "no table for {s}"
        );
        let counts = [s.us_men, s.them_men, s.us_kings, s.them_kings].map(u32::from);
        let lead = counts.iter().position(|&c| c > 0).unwrap_or(0);
        let mut radix = [1u64; 4];
        let mut men_left = MAN_SQUARES.count();
        let mut all_left = 64;
        for class in 0..4 {
            let k = counts[class];
            if class < 2 {
                radix[class] = binom(men_left, k);
                men_left -= k;
                all_left -= k;
            } else {
                radix[class] = binom(all_left, k);
                all_left -= k;
            }
        }
        let canon = CanonTable::get(DOMAINS[lead].count(), counts[lead]);
        radix[lead] = canon.rank_of.len() as u64;
        let len = radix.iter().product();
        // Numbers fit 32 bits up to 6 pieces (the largest 6-piece table has
        // about 3.8e9 entries); `Divisor` relies on it.
        assert!(
            len <= u64::from(u32::MAX),
            "{s}: {len} entries do not fit 32 bits"
        );
        TableIndex {
            signature,
            counts,
            lead,
            canon,
            radix,
            divisors: radix.map(Divisor::new),
            len,
        }
    }

    /// The signature numbered.
    pub fn signature(&self) -> Signature {
        self.signature
    }

    /// Number of entries.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Never true for a signature with a table (clippy wants it beside `len`).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The lead class's set as positions in its (full) domain.
    #[inline]
    fn lead_positions(&self, p: &Placement) -> u64 {
        // The lead's domain is whole and contiguous (ranks 2-7, or the board).
        p.classes()[self.lead].0 >> DOMAINS[self.lead].0.trailing_zeros()
    }

    /// The entry of a placement of this signature (men on man squares):
    /// one entry for a position and its mirror image.
    #[inline]
    pub fn index(&self, p: &Placement) -> u64 {
        debug_assert_eq!(p.signature(), self.signature);
        debug_assert!(p.men_on_man_squares());
        match self.number(p) {
            // The lead set's mirror image is the canonical one.
            None => {
                self.number(&p.mirrored())
                    .expect("the mirror image of a non-canonical set is canonical")
                    .0
            }
            Some((i, false)) => i,
            // A symmetric lead set: the smaller number of the two stands for both.
            Some((i, true)) => {
                let (j, _) = self.number(&p.mirrored()).expect("symmetric lead set");
                i.min(j)
            }
        }
    }

    /// The number of `p` as it stands, if its lead set is in canonical
    /// orientation, and whether that set is its own mirror image.
    #[inline]
    fn number(&self, p: &Placement) -> Option<(u64, bool)> {
        let lead_rank = comb_rank(self.lead_positions(p));
        let number = self.canon.number_of[lead_rank as usize];
        if number == NOT_CANONICAL {
            return None;
        }
        let classes = p.classes();
        let mut taken = 0u64;
        let mut index = 0u64;
        for class in 0..4 {
            let set = classes[class].0;
            let rank = if class == self.lead {
                u64::from(number)
            } else {
                rank_in(set, DOMAINS[class].0 & !taken)
            };
            index = index * self.radix[class] + rank;
            taken |= set;
        }
        Some((index, self.canon.symmetric[number as usize]))
    }

    /// The representative placement of an entry ("us" to move).
    pub fn placement(&self, index: u64) -> Placement {
        debug_assert!(index < self.len);
        let mut ranks = [0u64; 4];
        let mut rest = index;
        for class in (0..4).rev() {
            let (q, r) = self.divisors[class].div_rem(rest);
            ranks[class] = r;
            rest = q;
        }
        let mut sets = [0u64; 4];
        let mut taken = 0u64;
        for class in 0..4 {
            let domain = DOMAINS[class].0 & !taken;
            let rank = if class == self.lead {
                u64::from(self.canon.rank_of[ranks[class] as usize])
            } else {
                ranks[class]
            };
            let positions = comb_unrank(rank, self.counts[class]);
            sets[class] = expand(positions, domain);
            taken |= sets[class];
        }
        Placement {
            us: Bitboard(sets[0] | sets[2]),
            them: Bitboard(sets[1] | sets[3]),
            kings: Bitboard(sets[2] | sets[3]),
        }
    }

    /// How many positions entry `index` stands for: 2 (a position and
    /// its mirror image), 1 (a position that is its own mirror image), or 0
    /// for a number left unused (a symmetric lead set with the rest in the
    /// orientation whose mirror image has the smaller number).
    pub fn positions_of(&self, index: u64) -> u32 {
        let after_lead: u64 = self.radix[self.lead + 1..].iter().product();
        if !self.canon.symmetric[(index / after_lead) as usize] {
            return 2;
        }
        let p = self.placement(index);
        let mirrored = p.mirrored();
        if mirrored == p {
            1
        } else if self.index(&mirrored) < index {
            0
        } else {
            2
        }
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

    #[test]
    fn placement_symmetries() {
        let mut rng = Rng::new(3);
        for _ in 0..200 {
            let pos = crate::testutil::random_position(&mut rng, Rules::default());
            let p = Placement::of(&pos);
            assert_eq!(p.flipped().flipped(), p);
            assert_eq!(p.mirrored().mirrored(), p);
            assert_eq!(p.signature().flipped(), p.flipped().signature());
        }
        // h2 mirrors to a2; d2 turned over is d7.
        let sq = |s: &str| Bitboard::from_square(crate::Square::parse(s).unwrap());
        assert_eq!(mirror_files(sq("h2")), sq("a2"));
        assert_eq!(flip_ranks(sq("d2")), sq("d7"));
    }

    /// Every used entry decodes to a placement of its signature that
    /// encodes back to it, and so does its mirror image; the positions the
    /// entries stand for add up to the number of placements counted by hand.
    #[test]
    fn every_entry_round_trips_and_the_entries_count_every_position() {
        for sig in Signature::build_order(3) {
            let index = TableIndex::new(sig);
            let mut positions = 0u64;
            let mut unused = 0u64;
            for i in 0..index.len() {
                let p = index.placement(i);
                assert_eq!(p.signature(), sig);
                assert!(p.men_on_man_squares());
                let n = index.positions_of(i);
                if n == 0 {
                    unused += 1;
                    assert!(index.index(&p) < i);
                    continue;
                }
                assert_eq!(index.index(&p), i, "{sig} entry {i}");
                assert_eq!(index.index(&p.mirrored()), i, "{sig} entry {i} mirrored");
                assert_eq!(n == 1, p.mirrored() == p);
                positions += u64::from(n);
            }
            // Few numbers go unused: only symmetric lead sets leave any
            // (two men: 24 of the 564 canonical pairs, half their entries).
            assert!(unused * 20 < index.len(), "{sig}: {unused} unused");
            // Our men among 48 squares, their men among the rest, then kings.
            let [um, tm, uk, tk] =
                [sig.us_men, sig.them_men, sig.us_kings, sig.them_kings].map(u32::from);
            let all = binom(48, um)
                * binom(48 - um, tm)
                * binom(64 - um - tm, uk)
                * binom(64 - um - tm - uk, tk);
            assert_eq!(positions, all, "{sig}");
            assert!(
                index.len() * 2 >= all && index.len() < all,
                "{sig} folds about half"
            );
        }
    }
}
