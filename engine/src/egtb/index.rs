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

use super::combin::*;
use super::placement::{Placement, MAN_SQUARES};
use super::signature::{Signature, MAX_PIECES};
use crate::bitboard::Bitboard;
use std::sync::OnceLock;

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
