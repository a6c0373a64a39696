//! Harvests the shot suite from self-play (docs/testing.md; `tama-lab tactics`
//! scores it):
//!
//! cargo run --release --manifest-path lab/Cargo.toml --example harvest -- harvest VARIANT GAMES SEED \
//!     [GAME_NODES OPENING_PLIES PROBE_DEPTH ORACLE_DEPTH PER_GAME SHALLOW_DEPTH [hand]]
//!
//! (`hand`: the games are played with the hand-set weights, not the default)

use tama_engine::Rules;
use tama_lab::harvest;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, default: u64| -> u64 {
        args.get(i)
            .map_or(default, |s| s.parse().expect("a whole number"))
    };
    match args.first().map(String::as_str) {
        Some("harvest") => {
            let rules = match args.get(1).map(String::as_str) {
                Some("turkish") => Rules::TURKISH,
                _ => Rules::ARMENIAN,
            };
            let d = harvest::Config::suite(rules, num(2, 10) as usize, num(3, 1));
            let mut config = harvest::Config {
                game_nodes: num(4, d.game_nodes),
                opening_plies: num(5, d.opening_plies as u64) as usize,
                probe_depth: num(6, d.probe_depth as u64) as u32,
                oracle_depth: num(7, d.oracle_depth as u64) as u32,
                per_game: num(8, d.per_game as u64) as usize,
                shallow_depth: num(9, d.shallow_depth as u64) as u32,
                ..d
            };
            if args.get(10).map(String::as_str) == Some("hand") {
                let hand = tama_engine::eval::VariantWeights::hand_set(rules.variant);
                config.weights.replace(hand);
            }
            eprintln!("{config:?}");
            let started = std::time::Instant::now();
            let (shots, stats) = harvest::harvest(&config, &mut |s| println!("{}", s.line()));
            eprintln!(
                "{} shots in {:.1} s; {stats:?}",
                shots.len(),
                started.elapsed().as_secs_f64()
            );
        }
        _ => {
            eprintln!("usage: harvest harvest VARIANT GAMES SEED [...] (scoring: tama-lab tactics)")
        }
    }
}
