//! A quick self-play match between two search settings, at a fixed number
//! of nodes per move (deterministic, so it measures the search, not the
//! machine's load). For development only; the real match runner is the
//! tama-match crate (`tama match`).
//!
//! cargo run --release --manifest-path lab/Cargo.toml --example selfplay -- \
//!     GAMES NODES "A-settings" "B-settings"
//! NODES may instead be a clock, `tBASE+INC` in milliseconds (e.g.
//! `t5000+50`): then each side plays on its own clock, and a side whose
//! clock runs out loses (reported as a time loss).
//! Settings: space-separated `name=value` tuning pairs, `w.name=value`
//! evaluation weights, or `baseline`.

use tama_engine::rng::Rng;
use tama_engine::search::{SearchControl, SearchLimits, Searcher};
use tama_engine::{movegen, Game, GameStatus, Position, Rules};

fn searcher(settings: &str) -> Searcher {
    let mut s = Searcher::new(16);
    for item in settings.split_whitespace() {
        if item == "baseline" {
            s.options_mut().lab.baseline = true;
        } else if let Some((k, v)) = item.split_once('=') {
            if let Some(w) = k.strip_prefix("w.") {
                let mut weights = s.weights().clone();
                weights
                    .set(w, v.parse().expect("a number"))
                    .expect("weight");
                s.set_weights(weights);
            } else {
                s.tuning_mut().set(k, v).expect("tuning");
            }
        }
    }
    s
}

#[derive(Clone, Copy)]
enum Budget {
    Nodes(u64),
    Clock(u64, u64),
}

static TIME_LOSSES: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

/// 1.0 when `a` (playing `a_color` 0 = White) wins, 0.5 draw, 0 loss.
fn play(opening: &Game, a: &mut Searcher, b: &mut Searcher, a_white: bool, budget: Budget) -> f64 {
    use std::time::{Duration, Instant};
    let mut game = opening.clone();
    a.clear();
    b.clear();
    let mut clock = match budget {
        Budget::Clock(base, _) => [base as i64; 2],
        Budget::Nodes(_) => [0; 2],
    };
    for _ in 0..300 {
        match game.status() {
            GameStatus::Won(c) => {
                let white_won = c == tama_engine::Color::White;
                return if white_won == a_white { 1.0 } else { 0.0 };
            }
            GameStatus::DrawByRepetition => return 0.5,
            GameStatus::Ongoing => {}
        }
        let white_to_move = game.position().side_to_move() == tama_engine::Color::White;
        let s = if white_to_move == a_white {
            &mut *a
        } else {
            &mut *b
        };
        let side = game.position().side_to_move() as usize;
        let limits = match budget {
            Budget::Nodes(n) => SearchLimits {
                nodes: Some(n),
                ..SearchLimits::default()
            },
            Budget::Clock(_, inc) => {
                let mut l = SearchLimits::default();
                for (c, left) in clock.iter().enumerate() {
                    l.clock.time[c] = Some(Duration::from_millis((*left).max(0) as u64));
                    l.clock.increment[c] = Duration::from_millis(inc);
                }
                l
            }
        };
        let started = Instant::now();
        let out = s.search(&game, &limits, &SearchControl::new(), &mut |_| {});
        if let Budget::Clock(_, inc) = budget {
            clock[side] -= started.elapsed().as_millis() as i64;
            if clock[side] < 0 {
                TIME_LOSSES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let white_lost = side == 0;
                return if white_lost == a_white { 0.0 } else { 1.0 };
            }
            clock[side] += inc as i64;
        }
        game.play(out.best_move.expect("a legal move"));
    }
    // Adjudicate by material after 300 plies.
    let p = game.position();
    let m = |c| p.men(c).count() as i32 + 3 * p.kings(c).count() as i32;
    let d = m(tama_engine::Color::White) - m(tama_engine::Color::Black);
    let white_score = if d > 2 {
        1.0
    } else if d < -2 {
        0.0
    } else {
        0.5
    };
    if a_white {
        white_score
    } else {
        1.0 - white_score
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(20);
    let budget = match args.get(1) {
        Some(t) if t.starts_with('t') => {
            let (base, inc) = t[1..].split_once('+').unwrap_or((&t[1..], "0"));
            Budget::Clock(base.parse().expect("base ms"), inc.parse().expect("inc ms"))
        }
        Some(n) => Budget::Nodes(n.parse().expect("nodes")),
        None => Budget::Nodes(20_000),
    };
    let a_set = args.get(2).cloned().unwrap_or_default();
    let b_set = args.get(3).cloned().unwrap_or_default();
    let variant = args.get(4).cloned().unwrap_or("armenian".into());
    let rules = if variant == "turkish" {
        Rules::TURKISH
    } else {
        Rules::ARMENIAN
    };
    let mut a = searcher(&a_set);
    let mut b = searcher(&b_set);
    let seed: u64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(2026);
    let mut rng = Rng::new(seed);
    let (mut score, mut played) = (0.0, 0);
    let (mut w, mut d, mut l) = (0, 0, 0);
    for pair in 0..games.div_ceil(2) {
        // A random 6-ply opening, played once with each colour.
        let mut opening = Game::new(Position::startpos(rules));
        for _ in 0..6 {
            let moves = movegen::legal_moves(opening.position());
            if moves.is_empty() {
                break;
            }
            opening.play(moves[rng.below(moves.len() as u64) as usize]);
        }
        for a_white in [true, false] {
            let r = play(&opening, &mut a, &mut b, a_white, budget);
            score += r;
            played += 1;
            match r {
                x if x > 0.75 => w += 1,
                x if x < 0.25 => l += 1,
                _ => d += 1,
            }
        }
        eprintln!("pair {pair}: {score}/{played}  (+{w} ={d} -{l})");
    }
    let p = (score / played as f64).clamp(0.001, 0.999);
    let elo = -400.0 * (1.0 / p - 1.0).log10();
    println!(
        "A scored {score}/{played} (+{w} ={d} -{l}), {elo:+.0} Elo, time losses {}",
        TIME_LOSSES.load(std::sync::atomic::Ordering::Relaxed)
    );
}
