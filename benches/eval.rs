//! Evaluation speed: the static evaluation of a fixed set of positions
//! with the hand-set weights of 0.1.0 and with the learned sets, so that
//! the patterns' cost is measured on the same positions (a search's tree
//! depends on its evaluation; this does not).
//!
//! `cargo bench -p tama-benches --bench eval`

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use tama_engine::eval::{evaluate_with_mobility, named, Weights};
use tama_engine::movegen::legal_moves;
use tama_engine::rng::Rng;
use tama_engine::search::bench;
use tama_engine::{Position, Variant};

/// 4096 positions of `variant`: random games from the bench positions, a
/// position per ply, the same ones on every run.
fn positions(variant: Variant) -> Vec<Position> {
    let starts: Vec<Position> = bench::positions()
        .into_iter()
        .filter(|(rules, _)| rules.variant == variant)
        .map(|(rules, fen)| Position::from_fen(&fen, rules).expect("bench FEN is valid"))
        .collect();
    let mut rng = Rng::new(1);
    let mut out = Vec::new();
    while out.len() < 4096 {
        let mut p = starts[rng.below(starts.len() as u64) as usize];
        for _ in 0..60 {
            let moves = legal_moves(&p);
            if moves.is_empty() || out.len() == 4096 {
                break;
            }
            p = p.play(&moves[rng.below(moves.len() as u64) as usize]);
            out.push(p);
        }
    }
    out
}

fn evaluation(c: &mut Criterion) {
    let mut g = c.benchmark_group("eval-4096-positions");
    for variant in [Variant::Armenian, Variant::Turkish] {
        let ps = positions(variant);
        let set = |name: &str| {
            let mut w = Weights::DEFAULT;
            w.replace(named(&format!("{variant}-{name}")).expect("built-in set"));
            w
        };
        for name in ["hand", "learned"] {
            let w = set(name);
            g.bench_function(format!("{variant}-{name}"), |b| {
                b.iter(|| {
                    ps.iter()
                        .map(|p| evaluate_with_mobility(black_box(p), &w).0 as i64)
                        .sum::<i64>()
                })
            });
        }
    }
    g.finish();
}

criterion_group!(benches, evaluation);
criterion_main!(benches);
