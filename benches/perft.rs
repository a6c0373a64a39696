//! Perft speed, Tama beside kish in one run:
//! Turkish start position at depth 8, our distinct-move perft against kish's
//! own (route) perft, and Armenian perft for the per-node comparison.
//!
//! `cargo bench -p tama-benches --bench perft`; the figures are medians of 10
//! samples.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tama_engine::perft::{perft, perft_routes};
use tama_engine::{Position, Rules};

const DEPTH: u32 = 8;

fn turkish(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft-turkish-start-d8");
    g.sample_size(10);
    let start = Position::startpos(Rules::TURKISH);
    g.bench_function("tama-distinct", |b| {
        b.iter(|| black_box(perft(black_box(&start), DEPTH)))
    });
    g.bench_function("tama-routes", |b| {
        b.iter(|| black_box(perft_routes(black_box(&start), DEPTH)))
    });
    let kish_start = kish::Board::new_default();
    g.bench_function("kish", |b| {
        b.iter(|| black_box(black_box(&kish_start).perft(DEPTH as u64)))
    });
    g.finish();
}

fn armenian(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft-armenian-start");
    g.sample_size(10);
    let start = Position::startpos(Rules::ARMENIAN);
    // Depth 7 of Armenian has a leaf count of the same order as Turkish depth 8.
    g.bench_function("tama-distinct-d7", |b| {
        b.iter(|| black_box(perft(black_box(&start), 7)))
    });
    g.finish();
}

criterion_group!(benches, turkish, armenian);
criterion_main!(benches);
