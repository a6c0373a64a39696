//! The match runner's arithmetic, done after every game of a long match:
//! the SPRT's log-likelihood ratios (trinomial and pentanomial) and the
//! Elo estimates of the counts, and a finished game written as PDN.
//!
//! `cargo bench -p tama-benches --bench runner`

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tama_engine::movegen::legal_moves;
use tama_engine::notation::pdn::{movetext, Outcome};
use tama_engine::rng::Rng;
use tama_engine::{Position, Rules};
use tama_match::stats::elo::Wdl;
use tama_match::stats::pentanomial::Penta;
use tama_match::stats::sprt::Sprt;

fn statistics(c: &mut Criterion) {
    let sprt = Sprt {
        elo0: 0.0,
        elo1: 10.0,
        alpha: 0.05,
        beta: 0.05,
    };
    let wdl = Wdl {
        wins: 3120,
        draws: 5270,
        losses: 2910,
    };
    let penta = Penta([310, 1240, 2430, 1330, 340]);
    let mut g = c.benchmark_group("runner-stats");
    g.bench_function("sprt-state", |b| {
        b.iter(|| black_box(sprt.state(black_box(&wdl), black_box(&penta), true)))
    });
    g.bench_function("elo-wdl-and-penta", |b| {
        b.iter(|| black_box((black_box(&wdl).elo(), black_box(&penta).elo())))
    });
    g.finish();
}

fn pdn(c: &mut Criterion) {
    // A random game of up to 200 plies, the same on every run.
    let start = Position::startpos(Rules::ARMENIAN);
    let mut rng = Rng::new(7);
    let (mut pos, mut moves) = (start, Vec::new());
    for _ in 0..200 {
        let list = legal_moves(&pos);
        let Some(&m) = list.get(rng.below(list.len().max(1) as u64) as usize) else {
            break;
        };
        pos = pos.play(&m);
        moves.push(m);
    }
    let mut g = c.benchmark_group("runner-pdn");
    g.bench_function("movetext-random-game", |b| {
        b.iter(|| {
            black_box(movetext(
                black_box(&start),
                black_box(&moves),
                Outcome::Draw.pdn(),
            ))
        })
    });
    g.finish();
}

criterion_group!(benches, statistics, pdn);
criterion_main!(benches);
