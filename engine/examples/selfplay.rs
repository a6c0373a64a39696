//! A quick self-play match between two search settings, at a fixed number
//! of nodes per move (deterministic, so it measures the search, not the
//! machine's load). For development only; the real match runner lives in
//! the protocol crate.
//!
//! cargo run --release -p tama-engine --example selfplay -- \
//!     GAMES NODES "A-settings" "B-settings"
//! Settings: space-separated `name=value` tuning pairs, `w.name=value`
//! evaluation weights, or `baseline`.

use tama_engine::search::{SearchControl, SearchLimits, Searcher};
use tama_engine::testutil::Rng;
use tama_engine::{movegen, Game, GameStatus, Position, Rules};

fn searcher(settings: &str) -> Searcher {
    let mut s = Searcher::new(16);
    for item in settings.split_whitespace() {
        if item == "baseline" {
            s.options_mut().baseline = true;
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

/// 1.0 when `a` (playing `a_color` 0 = White) wins, 0.5 draw, 0 loss.
fn play(opening: &Game, a: &mut Searcher, b: &mut Searcher, a_white: bool, nodes: u64) -> f64 {
    let mut game = opening.clone();
    a.clear();
    b.clear();
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
        let limits = SearchLimits {
            nodes: Some(nodes),
            ..SearchLimits::default()
        };
        let out = s.search(&game, &limits, &SearchControl::new(), &mut |_| {});
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
    let nodes: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20_000);
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
            let r = play(&opening, &mut a, &mut b, a_white, nodes);
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
    println!("A scored {score}/{played} (+{w} ={d} -{l}), {elo:+.0} Elo");
}
