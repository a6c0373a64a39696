//! Random positions from a set of tables, each table drawn in proportion
//! to its entries: what the probe benchmark and the error rate against the
//! tables measure on.

use super::{Signature, TableIndex};
use crate::rng::Rng;
use crate::{Position, Rules};

/// Draws positions uniformly over the entries of its signatures' tables.
pub struct PositionSampler {
    indexes: Vec<TableIndex>,
    entries: u64,
}

impl PositionSampler {
    /// A sampler over the tables of `signatures` (panics, as
    /// `TableIndex::new` does, for a signature with no table).
    pub fn new(signatures: impl IntoIterator<Item = Signature>) -> PositionSampler {
        let indexes: Vec<TableIndex> = signatures.into_iter().map(TableIndex::new).collect();
        let entries = indexes.iter().map(TableIndex::len).sum();
        PositionSampler { indexes, entries }
    }

    /// Entries of all the tables together.
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// The position of one entry drawn uniformly (the side to move is "us"
    /// of its table), or `None` for an entry number that stands for no
    /// position (the unused half of a symmetric lead set): a caller that
    /// wants a position simply draws again, which keeps the draw uniform
    /// over positions as the tables number them.
    pub fn draw(&self, rng: &mut Rng, rules: Rules) -> Option<Position> {
        if self.entries == 0 {
            return None;
        }
        let mut e = rng.below(self.entries);
        for index in &self.indexes {
            if e < index.len() {
                return (index.positions_of(e) > 0).then(|| index.placement(e).to_position(rules));
            }
            e -= index.len();
        }
        unreachable!("an entry below the total is in some table")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egtb::Placement;

    /// KvK has far fewer entries than KKvK (two kings against three), so a
    /// sampler over both draws KvK in the share of its entries (within five
    /// standard deviations of a binomial draw), and every position drawn
    /// has the pieces of one of the two.
    #[test]
    fn draws_each_table_in_proportion_to_its_entries() {
        let kvk = Signature::new(0, 1, 0, 1);
        let kkvk = Signature::new(0, 2, 0, 1);
        let sampler = PositionSampler::new([kvk, kkvk]);
        let small = TableIndex::new(kvk).len();
        assert_eq!(sampler.entries(), small + TableIndex::new(kkvk).len());
        let mut rng = Rng::new(3);
        let (mut drawn, mut from_small, mut none) = (0u32, 0u32, 0u32);
        while drawn < 20_000 {
            let Some(pos) = sampler.draw(&mut rng, Rules::default()) else {
                none += 1;
                continue;
            };
            drawn += 1;
            let s = Placement::of(&pos).signature();
            assert!(s == kvk || s == kkvk, "drew {s}");
            from_small += u32::from(s == kvk);
        }
        let expected = 20_000.0 * small as f64 / sampler.entries() as f64;
        let sd = (expected * (1.0 - expected / 20_000.0)).sqrt();
        assert!(
            (f64::from(from_small) - expected).abs() < 5.0 * sd,
            "KvK drawn {from_small} times, expected {expected:.0} +/- {sd:.0}"
        );
        // Symmetric lead sets leave some numbers unused; they are rare.
        assert!(none < drawn / 10, "{none} unused numbers in {drawn}");
    }

    #[test]
    fn no_tables_draw_nothing() {
        let sampler = PositionSampler::new([]);
        assert!(sampler.draw(&mut Rng::new(1), Rules::default()).is_none());
    }
}
