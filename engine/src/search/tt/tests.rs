//! The table's tests: what it stores and finds, replacement, clearing,
//! and the index while a large new table grows ready.

use super::*;
use crate::search::score::MATE;

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

#[test]
fn store_and_probe() {
    let tt = TranspositionTable::new(1);
    let mv = Move::quiet(sq("d3"), sq("d4"), false);
    assert!(tt.probe(12345, 0).is_none());
    tt.store(12345, 0, Some(&mv), -37, 7, Bound::Lower);
    let hit = tt.probe(12345, 0).unwrap();
    assert_eq!(hit.score, -37);
    assert_eq!(hit.depth, 7);
    assert_eq!(hit.bound, Bound::Lower);
    assert!(hit.mv.matches(&mv));
    assert!(!hit.mv.matches(&Move::quiet(sq("d3"), sq("e4"), false)));
    // Another key in the same bucket is a miss.
    assert!(tt.probe(12346, 0).is_none());
}

#[test]
fn capture_moves_are_told_apart() {
    let a = Move {
        captures: Bitboard::from_square(sq("d5")),
        ..Move::quiet(sq("d4"), sq("d6"), false)
    };
    let b = Move {
        captures: Bitboard::from_square(sq("d5")) | Bitboard::from_square(sq("e6")),
        ..a
    };
    let p = PackedMove::pack(&a);
    assert!(p.matches(&a));
    assert!(!p.matches(&b));
    assert_eq!(p.from_square(), sq("d4"));
    assert_eq!(p.to_square(), sq("d6"));
}

#[test]
fn mate_scores_are_relative_to_the_node() {
    let tt = TranspositionTable::new(1);
    // Found at ply 3: a win 5 plies from the root = 2 plies from the node.
    let win = MATE - 5;
    tt.store(99, 3, None, win, 4, Bound::Exact);
    // Reached again at ply 7 (a transposition): still 2 plies from there.
    assert_eq!(tt.probe(99, 7).unwrap().score, MATE - 9);
    assert_eq!(tt.probe(99, 3).unwrap().score, win);
    let loss = -MATE + 6;
    tt.store(98, 2, None, loss, 4, Bound::Exact);
    assert_eq!(tt.probe(98, 0).unwrap().score, -MATE + 4);
    // Ordinary scores are left alone.
    tt.store(97, 10, None, 250, 1, Bound::Upper);
    assert_eq!(tt.probe(97, 0).unwrap().score, 250);
}

#[test]
fn replacement_prefers_deep_and_recent() {
    let tt = TranspositionTable::new(1);
    let n = tt.buckets.len() as u128;
    // Keys landing in bucket 0: key * n < 2^64.
    let step = (u64::MAX as u128 / n / 16) as u64;
    let keys: Vec<u64> = (1..=7).map(|i| i * step).collect();
    for &k in &keys {
        assert_eq!(((k as u128 * n) >> 64), 0);
    }
    // Fill the bucket with depths 9, 2, 7, 5.
    for (k, d) in keys[..4].iter().zip([9, 2, 7, 5]) {
        tt.store(*k, 0, None, 0, d, Bound::Exact);
    }
    // A fifth position evicts the shallowest (depth 2).
    tt.store(keys[4], 0, None, 0, 1, Bound::Exact);
    assert!(tt.probe(keys[1], 0).is_none());
    for k in [keys[0], keys[2], keys[3], keys[4]] {
        assert!(tt.probe(k, 0).is_some());
    }
    // After a few searches, entries age: four plies of depth per search.
    for _ in 0..3 {
        tt.new_search();
    }
    // Values now: 9-12, 7-12, 5-12, 1-12: the old shallow one goes.
    tt.store(keys[5], 0, None, 0, 1, Bound::Exact);
    assert!(tt.probe(keys[4], 0).is_none());
    // Next, a new shallow entry (value 1) outlives the old depth-5 one
    // (value -7), while the old deepest one still survives.
    tt.store(keys[6], 0, None, 0, 1, Bound::Exact);
    assert!(tt.probe(keys[3], 0).is_none());
    for k in [keys[0], keys[2], keys[5], keys[6]] {
        assert!(tt.probe(k, 0).is_some());
    }
}

#[test]
fn same_position_keeps_its_move_and_deeper_result() {
    let tt = TranspositionTable::new(1);
    let mv = Move::quiet(sq("a3"), sq("a4"), false);
    tt.store(5, 0, Some(&mv), 10, 8, Bound::Lower);
    // A shallow bound of the same search does not overwrite a deep one.
    tt.store(5, 0, None, 20, 2, Bound::Upper);
    assert_eq!(tt.probe(5, 0).unwrap().depth, 8);
    // A result without a move keeps the stored move.
    tt.store(5, 0, None, 30, 9, Bound::Upper);
    let hit = tt.probe(5, 0).unwrap();
    assert_eq!(hit.depth, 9);
    assert!(hit.mv.matches(&mv));
}

#[test]
fn hashfull_counts_this_search() {
    let mut tt = TranspositionTable::new(1);
    assert_eq!(tt.hashfull(), 0);
    for k in 1..200_000u64 {
        tt.store(
            k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            0,
            None,
            0,
            1,
            Bound::Exact,
        );
    }
    let full = tt.hashfull();
    assert!(full > 500, "{full}");
    tt.new_search();
    assert_eq!(tt.hashfull(), 0);
    tt.clear();
    assert!(tt.probe(0x9E37_79B9_7F4A_7C15, 0).is_none());
}

/// The stores and probes of a little game of replacement, and what
/// each probe found.
fn replay(tt: &TranspositionTable, seed: u64) -> Vec<Option<(i32, i32)>> {
    let mut rng = crate::rng::Rng::new(seed);
    let n = tt.buckets.len() as u64;
    // Few buckets' worth of keys, so entries compete for places.
    let keys: Vec<u64> = (0..64)
        .map(|_| rng.below(8) * (u64::MAX / n) + rng.below(1 << 20))
        .collect();
    let mut seen = Vec::new();
    for i in 0..2000 {
        let k = keys[rng.below(keys.len() as u64) as usize];
        if rng.below(2) == 0 {
            tt.store(k, 0, None, i, rng.below(20) as i32, Bound::Exact);
        } else {
            seen.push(tt.probe(k, 0).map(|h| (h.score, h.depth)));
        }
        if i % 500 == 0 {
            tt.new_search();
        }
    }
    seen
}

/// A cleared table behaves exactly as a new one: entries of earlier
/// epochs are never found and count as empty places, also when the
/// epochs run out and the memory is cleared for real.
#[test]
fn a_cleared_table_is_a_new_table() {
    let mut used = TranspositionTable::new(1);
    for round in 0..3 {
        let fresh = TranspositionTable::new(1);
        let expected = replay(&fresh, round);
        used.clear();
        assert_eq!(replay(&used, round), expected, "round {round}");
        assert_eq!(used.hashfull(), fresh.hashfull());
    }
    // Back to the epoch of the last round, through a clearing for real.
    for _ in 0..(1 << EPOCH_BITS) - 1 {
        used.clear();
    }
    assert_eq!(used.hashfull(), 0);
    let fresh = TranspositionTable::new(1);
    assert_eq!(replay(&used, 9), replay(&fresh, 9));
}

/// Keys that differ only in the epoch bits never share a bucket, so the
/// check word's low bits tell every key of a bucket apart.
#[test]
fn keys_differing_in_the_epoch_bits_only_are_in_other_buckets() {
    let tt = TranspositionTable::new(1);
    let mut rng = crate::rng::Rng::new(3);
    for _ in 0..1000 {
        let k = rng.next_u64();
        let other = k ^ (rng.below((1 << EPOCH_BITS) - 1) + 1) << KEY_BITS;
        assert!(!std::ptr::eq(tt.bucket(k), tt.bucket(other)));
        tt.store(k, 0, None, 1, 1, Bound::Exact);
        assert!(tt.probe(other, 0).is_none());
    }
}

/// What a search stores while a large new table is being touched is
/// found at once, and once the table is whole, what it stored in its
/// own buckets still is: the index does not move as the table grows
/// ready, and no bucket beyond those ready is written.
#[test]
fn entries_stored_while_the_table_grows_ready_are_found_once_it_is_whole() {
    let tt = TranspositionTable::new(64);
    let n = tt.buckets.len();
    let ready = n / 4;
    assert!(ready > memory::STAND_INS);
    tt.buckets.set_ready(ready);
    let mut rng = crate::rng::Rng::new(11);
    let keys: Vec<u64> = (0..20_000).map(|_| rng.next_u64()).collect();
    for (i, &k) in keys.iter().enumerate() {
        tt.store(k, 0, None, i as i32, 3, Bound::Exact);
    }
    assert!(keys.iter().all(|&k| tt.probe(k, 0).is_some()));
    for (i, b) in tt.buckets.iter().enumerate() {
        let used = b.words.iter().any(|w| w.load(Ordering::Relaxed) != 0);
        assert!(
            i < ready || !used,
            "bucket {i} of {n} written before it was ready"
        );
    }
    let own = |k: u64| ((k as u128 * n as u128) >> 64) as usize;
    let (kept, stood_in): (Vec<u64>, Vec<u64>) = keys.iter().partition(|&&k| own(k) < ready);
    // About the quarter whose own buckets are ready.
    assert!((4000..6000).contains(&kept.len()), "{}", kept.len());
    tt.buckets.set_ready(n);
    for &k in &kept {
        assert!(
            tt.probe(k, 0).is_some(),
            "{k:#x} lost when the table became whole"
        );
    }
    assert!(stood_in.iter().all(|&k| tt.probe(k, 0).is_none()));
}

#[test]
fn size_in_megabytes() {
    assert_eq!(TranspositionTable::new(1).size_mb(), 1);
    assert_eq!(TranspositionTable::new(16).size_mb(), 16);
    assert_eq!(TranspositionTable::new(0).size_mb(), 1);
    assert_eq!(
        TranspositionTable::new(16).capacity(),
        16 * 1024 * 1024 / 16
    );
}
