//! The decompressed-block caches of compressed tables (`egtb/blocks.rs`):
//! each thread keeps its own, a thread that ends hands its cache to the
//! next thread through a pool, and the pool keeps at most 64 caches.
//!
//! The process-wide count of decompressed blocks tells a probe served by
//! a cache (no decompression) from one that was not (one). It counts in
//! every thread, so this file holds a single test: its own process, no
//! other test probing beside it.

use std::path::PathBuf;
use std::sync::{Arc, Barrier};
use tama_engine::egtb::{
    blocks_decompressed, build, compress_dir, BuildOptions, CompressOptions, Signature, TableIndex,
    Tablebase,
};
use tama_engine::Rules;

/// The pool's limit in `blocks.rs`.
const POOL_LIMIT: usize = 64;

/// Runs `threads` threads at once, each probing entry `entry` of KvK and
/// staying alive until all have probed (so none takes a cache another
/// has handed back in the meantime); returns the blocks decompressed.
fn probe_at_once(tb: &Arc<Tablebase>, entry: u64, threads: usize) -> u64 {
    let before = blocks_decompressed();
    let barrier = Arc::new(Barrier::new(threads));
    let handles: Vec<_> = (0..threads)
        .map(|_| {
            let (tb, barrier) = (Arc::clone(tb), Arc::clone(&barrier));
            std::thread::spawn(move || {
                let kvk = tb.table(Signature::new(0, 1, 0, 1)).expect("KvK");
                let value = kvk.value_at(entry);
                barrier.wait();
                value
            })
        })
        .collect();
    for h in handles {
        // `join` returns once the thread has ended, its thread-locals (and
        // so the cache's hand-back) included.
        assert!(h.join().expect("probing thread").is_some());
    }
    blocks_decompressed() - before
}

#[test]
fn a_thread_that_ends_hands_its_cache_to_the_next_up_to_the_pools_limit() {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("tama-block-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let rules = Rules::ARMENIAN;
    let opts = BuildOptions {
        rules,
        max_pieces: 2,
        distance_pieces: 4,
        threads: 1,
        compress: None,
    };
    build(&dir, &opts, &mut |_| {}).expect("2-piece tables");
    // Blocks of 16 entries (`dtm8`: a byte each), so KvK has many.
    let packing = CompressOptions {
        block_bytes: 16,
        ..CompressOptions::default()
    };
    compress_dir(&dir, &dir, rules, &packing, &mut |_| {}).expect("compress");
    let tb = Arc::new(Tablebase::open(&dir, rules).expect("compressed tables"));
    let index = TableIndex::new(Signature::new(0, 1, 0, 1));
    // An entry that stands for a position, and one in another block.
    let e = (0..index.len())
        .find(|&i| index.positions_of(i) > 0)
        .expect("a used entry");
    let f = (e / 16 + 1) * 16;
    assert!(f < index.len() && f / 16 != e / 16);

    // Nothing decompressed yet: this thread (the test's) has probed
    // nothing, and no thread has ended with a cache.
    assert_eq!(blocks_decompressed(), 0);
    // A thread probing e twice decompresses its block once.
    let first = std::thread::spawn({
        let tb = Arc::clone(&tb);
        move || {
            let kvk = tb.table(Signature::new(0, 1, 0, 1)).unwrap();
            let a = kvk.value_at(e);
            let once = blocks_decompressed();
            let b = kvk.value_at(e);
            (a, b, once, blocks_decompressed())
        }
    })
    .join()
    .unwrap();
    assert!(first.0.is_some() && first.0 == first.1);
    assert_eq!((first.2, first.3), (1, 1));
    // It has ended: the next thread takes its cache and finds e's block
    // there; another block it decompresses.
    assert_eq!(probe_at_once(&tb, e, 1), 0);
    assert_eq!(probe_at_once(&tb, f, 1), 1);
    // The pool holds that one cache. Two threads alive at once: one takes
    // it (e's block there), the other starts empty (one decompression);
    // so a cache is never shared between live threads.
    assert_eq!(probe_at_once(&tb, e, 2), 1);
    // Both caches now hold e's block and are pooled. POOL_LIMIT + 2
    // threads at once: 2 take them, POOL_LIMIT decompress; at their end
    // POOL_LIMIT caches are kept (each holding e) and 2 dropped.
    assert_eq!(probe_at_once(&tb, e, POOL_LIMIT + 2), POOL_LIMIT as u64);
    // So POOL_LIMIT + 2 threads again: POOL_LIMIT find e's block, 2
    // start empty.
    assert_eq!(probe_at_once(&tb, e, POOL_LIMIT + 2), 2);
    let _ = std::fs::remove_dir_all(&dir);
}
