//! Search speed: a fixed-depth search from fixed positions with a fresh
//! table (one thread), so each sample does the same work.
//!
//! `cargo bench -p tama-benches --bench search`

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tama_engine::search::{SearchControl, SearchLimits, Searcher};
use tama_engine::{Game, Position, Rules};

fn fixed_depth(c: &mut Criterion) {
    let mut g = c.benchmark_group("search-fixed-depth");
    g.sample_size(10);
    let cases = [
        (
            "armenian-start-d10",
            Position::startpos(Rules::ARMENIAN),
            10,
        ),
        ("turkish-start-d10", Position::startpos(Rules::TURKISH), 10),
        (
            "armenian-kings-d10",
            Position::from_fen(
                "W:Wa3,b4,c3,e3,f4,g3,Kd1:Ba6,b6,c6,e6,g5,h6,Ke8",
                Rules::ARMENIAN,
            )
            .expect("valid FEN"),
            10,
        ),
    ];
    for (name, pos, depth) in cases {
        let game = Game::new(pos);
        g.bench_function(name, |b| {
            b.iter(|| {
                let mut s = Searcher::new(16);
                let limits = SearchLimits {
                    depth: Some(depth),
                    ..SearchLimits::default()
                };
                black_box(
                    s.search(&game, &limits, &SearchControl::new(), &mut |_| {})
                        .nodes,
                )
            })
        });
    }
    g.finish();
}

criterion_group!(benches, fixed_depth);
criterion_main!(benches);
