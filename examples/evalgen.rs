//! TEMPORARY harness for `src/datagen.rs` and `src/train.rs` until they join
//! the `tama` command line (after the issue 8 restructuring lands).
//!
//! cargo run --release --example evalgen -- datagen --out F --variant V --nodes N --games G [--depth D] [--random-plies R] [--seed S] [--threads T] [--hash MB]
//! cargo run --release --example evalgen -- train --data F [--data F2] --out W [--model hand|patterns] [--init W0] [--epochs E] [--lambda L] [--lr X] [--batch B] [--l2 X] [--threads T] [--valid-percent P] [--seed S]

#[path = "../src/datagen.rs"]
mod datagen;
#[path = "../src/train.rs"]
mod train;

use std::io::Write;
use std::path::PathBuf;

fn value<T: std::str::FromStr>(args: &[String], i: usize) -> T {
    args.get(i + 1)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{} needs a valid value", args[i]))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut line = |l: &str| {
        eprint!("\r{l}");
        let _ = std::io::stderr().flush();
    };
    match args.first().map(String::as_str) {
        Some("datagen") => {
            let mut s = datagen::Settings {
                out: PathBuf::new(),
                rules: tama_engine::Rules::default(),
                nodes: None,
                depth: None,
                random_plies: datagen::Settings::DEFAULT_RANDOM_PLIES,
                seed: 1,
                games: u64::MAX,
                threads: 1,
                hash_mb: 16,
            };
            let mut i = 1;
            while i < args.len() {
                match args[i].as_str() {
                    "--out" => s.out = value(&args, i),
                    "--variant" => s.rules.variant = value(&args, i),
                    "--nodes" => s.nodes = Some(value(&args, i)),
                    "--depth" => s.depth = Some(value(&args, i)),
                    "--random-plies" => s.random_plies = value(&args, i),
                    "--seed" => s.seed = value(&args, i),
                    "--games" => s.games = value(&args, i),
                    "--threads" => s.threads = value(&args, i),
                    "--hash" => s.hash_mb = value(&args, i),
                    a => panic!("unknown argument {a}"),
                }
                i += 2;
            }
            if s.nodes.is_none() && s.depth.is_none() {
                s.nodes = Some(datagen::Settings::DEFAULT_NODES);
            }
            let summary = datagen::run(&s, &mut line).unwrap_or_else(|e| panic!("{e}"));
            eprintln!();
            println!("{summary:?}");
        }
        Some("train") => {
            let mut s = train::Settings {
                data: Vec::new(),
                out: PathBuf::new(),
                init: None,
                valid_percent: 10,
                fit: tama_engine::training::trainer::Settings::default(),
                command: format!("tama {}", args.join(" ")),
            };
            let mut i = 1;
            while i < args.len() {
                match args[i].as_str() {
                    "--data" => s.data.push(value(&args, i)),
                    "--out" => s.out = value(&args, i),
                    "--init" => s.init = Some(value(&args, i)),
                    "--model" => s.fit.model = value(&args, i),
                    "--epochs" => s.fit.epochs = value(&args, i),
                    "--lambda" => s.fit.lambda = value(&args, i),
                    "--lr" => s.fit.learning_rate = value(&args, i),
                    "--batch" => s.fit.batch = value(&args, i),
                    "--l2" => s.fit.l2 = value(&args, i),
                    "--threads" => s.fit.threads = value(&args, i),
                    "--seed" => s.fit.seed = value(&args, i),
                    "--valid-percent" => s.valid_percent = value(&args, i),
                    "--freeze-hand" => s.fit.freeze_hand = value(&args, i),
                    a => panic!("unknown argument {a}"),
                }
                i += 2;
            }
            let mut line = |l: &str| eprintln!("{l}");
            let r = train::run(&s, &mut line).unwrap_or_else(|e| panic!("{e}"));
            println!(
                "{}: {} + {} positions, K {:.1}, validation loss {:.6} -> {:.6} (epoch {}), {:.1} s",
                r.variant,
                r.train_positions,
                r.valid_positions,
                r.k,
                r.valid_loss_before,
                r.valid_loss_after,
                r.best_epoch,
                r.seconds
            );
        }
        Some("show") => {
            let w = tama_engine::eval::file::decode(&std::fs::read(&args[1]).unwrap()).unwrap();
            println!("{} {} | {}", w.variant, w.model().name(), w.description);
            for (name, x) in tama_engine::eval::hand::NAMES.iter().zip(w.hand) {
                println!("{name:>14} {:8.2}", x as f64 / 32.0);
            }
            if let Some(p) = &w.patterns {
                let p = p.params();
                let big = |v: &[i16]| v.iter().filter(|x| x.abs() >= 32).count();
                println!(
                    "patterns: {} params, |w| >= 1 cm: {} opening, {} endgame",
                    p.opening.len(),
                    big(&p.opening),
                    big(&p.endgame)
                );
            }
        }
        Some("scale") => {
            // scale IN OUT: every weight times 100 / man.
            let mut w = tama_engine::eval::file::decode(&std::fs::read(&args[1]).unwrap()).unwrap();
            let c = 3200.0 / w.hand[0] as f64;
            w.hand = w.hand.map(|x| (x as f64 * c).round() as i32);
            if let Some(p) = &w.patterns {
                let mut q = p.params().clone();
                for x in q.opening.iter_mut().chain(q.endgame.iter_mut()) {
                    *x = (*x as f64 * c).round().clamp(-32767.0, 32767.0) as i16;
                }
                w.patterns = Some(tama_engine::eval::pattern::PatternTable::new(q));
            }
            std::fs::write(&args[2], tama_engine::eval::file::encode(&w)).unwrap();
        }
        Some("compare") => {
            // compare DATA W: eval differences against the hand-set weights.
            use tama_engine::eval::{evaluate_with_mobility, Weights};
            let bytes = std::fs::read(&args[1]).unwrap();
            let h = tama_engine::training::record::DataHeader::decode(&bytes).unwrap();
            let scan = tama_engine::training::record::scan(&bytes[32..], h.rules).unwrap();
            let mut w = Weights::DEFAULT;
            w.replace(tama_engine::eval::file::decode(&std::fs::read(&args[2]).unwrap()).unwrap());
            let hand = Weights::hand_set();
            let (mut n, mut diff, mut e_hand, mut e_new) = (0f64, 0f64, 0f64, 0f64);
            let quiet_only = args.get(3).is_some();
            for g in scan.games.iter().step_by(10) {
                for r in &g.positions {
                    let other = r
                        .position
                        .with_side_to_move(r.position.side_to_move().opponent());
                    if quiet_only && tama_engine::movegen::has_capture(&other) {
                        continue;
                    }
                    let a = evaluate_with_mobility(&r.position, &hand).0 as f64;
                    let b = evaluate_with_mobility(&r.position, &w).0 as f64;
                    let s = r.score as f64;
                    n += 1.0;
                    diff += (a - b).abs();
                    e_hand += (a - s).abs();
                    e_new += (b - s).abs();
                }
            }
            println!("{n} positions: mean |new - hand| {:.1}, mean |hand - score| {:.1}, mean |new - score| {:.1}", diff / n, e_hand / n, e_new / n);
        }
        _ => panic!("evalgen datagen|train|show ..."),
    }
}
