//! docs/rules.md §2 (moves without capture), §3 (captures) and §4 (the
//! options): the engine's bitboard generator against the naive one
//! (tests/common/naive.rs, written from those sections alone) for every
//! combination of the rule options: thousands of random positions
//! (many kings, both sides to move), positions from random games, and perft
//! from the start position.
//!
//! What is compared in each position: the set of distinct moves (from, to,
//! captured set, promotes), the number of jump routes behind each, every
//! route's landing squares, the bulk count, whether a capture is compulsory,
//! and the position after each move (and its incremental hash).

mod common;

use common::naive::{self, Board, NaiveMove};
use common::{all_rules, move_name, naive_move, naive_rules, random_board, to_naive, to_position};
use std::collections::BTreeMap;
use tama_engine::movegen::{self, capture_routes, generate_with_routes, legal_moves};
use tama_engine::perft::{perft, perft_routes};
use tama_engine::rng::Rng;
use tama_engine::{Position, Rules};

fn describe(map: &BTreeMap<NaiveMove, u64>) -> String {
    map.iter()
        .map(|(m, n)| format!("{} ({n} routes)", move_name(m)))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Compares everything the two generators say about one position.
fn compare(board: &Board, rules: Rules) {
    let pos = to_position(board, rules);
    let nr = naive_rules(rules);
    let ctx = || format!("{} under {rules}", pos.fen());
    assert_eq!(to_naive(&pos), *board, "FEN round trip, {}", ctx());
    let expected = naive::legal_moves(board, nr);
    compare_moves(&pos, &expected, &ctx);
    compare_routes(&pos, board, rules, &ctx);
    check_text(&pos, &ctx);
    compare_children(&pos, board, &ctx);
}

/// The distinct moves (each once), their number and their route counts.
fn compare_moves(pos: &Position, expected: &BTreeMap<NaiveMove, u64>, ctx: &dyn Fn() -> String) {
    let mut fast_set: BTreeMap<NaiveMove, u64> = BTreeMap::new();
    for m in &legal_moves(pos) {
        *fast_set.entry(naive_move(m)).or_insert(0) += 1;
    }
    assert!(
        fast_set.values().all(|&n| n == 1),
        "a move generated twice: {}\n{}",
        describe(&fast_set),
        ctx()
    );
    let expected_keys: Vec<&NaiveMove> = expected.keys().collect();
    let fast_keys: Vec<&NaiveMove> = fast_set.keys().collect();
    assert_eq!(
        fast_keys,
        expected_keys,
        "distinct moves differ\nfast:  {}\nnaive: {}\n{}",
        describe(&fast_set),
        describe(expected),
        ctx()
    );
    assert_eq!(movegen::count(pos), expected.len(), "count, {}", ctx());
    let with_routes: BTreeMap<NaiveMove, u64> = generate_with_routes(pos)
        .iter()
        .map(|(m, n)| (naive_move(m), *n as u64))
        .collect();
    assert_eq!(
        with_routes,
        *expected,
        "route counts differ\nfast:  {}\nnaive: {}\n{}",
        describe(&with_routes),
        describe(expected),
        ctx()
    );
}

/// Every capture route with its landing squares; whether a capture is due.
fn compare_routes(pos: &Position, board: &Board, rules: Rules, ctx: &dyn Fn() -> String) {
    let mut fast_routes: Vec<(NaiveMove, Vec<u8>)> = capture_routes(pos)
        .iter()
        .map(|r| {
            let l = r.landings.iter().map(|s| s.index() as u8).collect();
            (naive_move(&r.mv), l)
        })
        .collect();
    let mut naive_routes: Vec<(NaiveMove, Vec<u8>)> =
        naive::legal_routes(board, naive_rules(rules))
            .into_iter()
            .map(|r| (r.mv, r.landings))
            .collect();
    fast_routes.sort();
    naive_routes.sort();
    assert_eq!(fast_routes, naive_routes, "capture routes, {}", ctx());
    assert_eq!(
        movegen::has_capture(pos),
        !naive_routes.is_empty(),
        "compulsory capture, {}",
        ctx()
    );
}

/// Text: every route's landing squares parse back to its move, and so does
/// the text the engine prints for each move. (Positions with hundreds of
/// routes are skipped: slow, no news.)
fn check_text(pos: &Position, ctx: &dyn Fn() -> String) {
    let all_routes = capture_routes(pos);
    let check_captures = all_routes.len() <= 40;
    for r in all_routes.into_iter().filter(|_| check_captures) {
        let mut text = r.mv.from.to_string();
        for l in &r.landings {
            text.push('x');
            text.push_str(&l.to_string());
        }
        assert_eq!(pos.parse_move(&text), Ok(r.mv), "route {text}, {}", ctx());
    }
    // (All captures; quiet moves are simple, a few of them suffice.)
    let fast = legal_moves(pos);
    let captures = fast.iter().filter(|m| m.is_capture() && check_captures);
    for m in captures.chain(fast.iter().take(5)) {
        let text = pos.move_text(m);
        assert_eq!(pos.parse_move(&text), Ok(*m), "text {text}, {}", ctx());
    }
}

/// The position after each move, and its incremental hash.
fn compare_children(pos: &Position, board: &Board, ctx: &dyn Fn() -> String) {
    for m in &legal_moves(pos) {
        let next = pos.play(m);
        assert_eq!(
            next.key(),
            next.compute_key(),
            "hash after {m:?}, {}",
            ctx()
        );
        let want = naive::play(board, &naive_move(m));
        assert_eq!(
            to_naive(&next),
            want,
            "position after {}, {}",
            move_name(&naive_move(m)),
            ctx()
        );
    }
}

#[test]
fn random_positions_agree_for_every_rule_set() {
    let mut rng = Rng::new(0x7a3a_2026);
    let mut positions = 0;
    let mut with_capture = 0;
    let mut multi_route = 0;
    for _ in 0..2500 {
        let per_side = [2, 4, 6, 9, 12, 16][rng.below(6) as usize];
        let king_percent = [0, 15, 40, 70, 100][rng.below(5) as usize];
        let board = random_board(&mut rng, per_side, king_percent);
        for rules in all_rules() {
            compare(&board, rules);
            positions += 1;
            let routes = naive::legal_routes(&board, naive_rules(rules));
            if !routes.is_empty() {
                with_capture += 1;
                if routes.len() > naive::legal_moves(&board, naive_rules(rules)).len() {
                    multi_route += 1;
                }
            }
        }
    }
    // The sample must exercise captures and duplicate routes, not only quiet moves.
    assert_eq!(positions, 20_000);
    assert!(
        with_capture > 5_000,
        "only {with_capture} positions with a capture"
    );
    assert!(
        multi_route > 100,
        "only {multi_route} positions with duplicate routes"
    );
}

/// Dense positions full of kings: long king captures, where the options
/// (removal, crowning) and the 180-degree ban matter most.
#[test]
fn king_heavy_dense_positions_agree_for_every_rule_set() {
    let mut rng = Rng::new(0xdead_beef);
    let mut removal_matters = 0;
    for _ in 0..3000 {
        let king_percent = 60 + rng.below(41);
        let board = random_board(&mut rng, 16, king_percent);
        for rules in all_rules() {
            compare(&board, rules);
        }
        // Rules::all() order: index 0 immediate, index 2 deferred (Armenian, no crowning).
        let rules: Vec<Rules> = all_rules();
        let immediate = naive::legal_moves(&board, naive_rules(rules[0]));
        let deferred = naive::legal_moves(&board, naive_rules(rules[2]));
        if immediate != deferred {
            removal_matters += 1;
        }
    }
    assert!(
        removal_matters > 50,
        "removal option mattered only {removal_matters} times"
    );
}

/// Men next to their far rank with enemies around: mid-capture promotion.
#[test]
fn crowning_positions_agree_for_every_rule_set() {
    let mut rng = Rng::new(42);
    let mut differ = 0;
    for _ in 0..2000 {
        let mut board = random_board(&mut rng, 10, 10);
        // Put a few men of the side to move two ranks short of crowning.
        let white = board.white_to_move;
        for _ in 0..3 {
            let file = rng.below(8) as usize;
            let rank = if white { 5 } else { 2 };
            board.cells[rank * 8 + file] = Some(naive::Piece { white, king: false });
        }
        let count_pieces = |w: bool| {
            board
                .cells
                .iter()
                .flatten()
                .filter(|p| p.white == w)
                .count()
        };
        if count_pieces(true) > 16 || count_pieces(false) > 16 {
            continue;
        }
        let mut per_rules = Vec::new();
        for rules in all_rules() {
            compare(&board, rules);
            per_rules.push(naive::legal_moves(&board, naive_rules(rules)));
        }
        // Rules::all() order: mid-capture promotion false, true, alternately.
        if per_rules[0] != per_rules[1] {
            differ += 1;
        }
    }
    assert!(
        differ > 20,
        "mid-capture promotion made a difference only {differ} times"
    );
}

/// Positions reached in random games from the start, under each rule set.
#[test]
fn random_games_agree_for_every_rule_set() {
    let mut rng = Rng::new(7);
    for rules in all_rules() {
        for _ in 0..60 {
            let mut pos = Position::startpos(rules);
            for _ in 0..200 {
                let board = to_naive(&pos);
                compare(&board, rules);
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len() as u64) as usize];
                pos = pos.play(&m);
            }
        }
    }
}

/// Perft from the start position, distinct and by route, for every rule set.
#[test]
fn start_perft_agrees_for_every_rule_set() {
    for rules in all_rules() {
        let start = Position::startpos(rules);
        let board = naive::Board::start();
        assert_eq!(to_naive(&start), board);
        for depth in 1..=4 {
            let nr = naive_rules(rules);
            assert_eq!(
                perft(&start, depth),
                naive::perft(&board, nr, depth),
                "perft {depth} under {rules}"
            );
            assert_eq!(
                perft_routes(&start, depth),
                naive::perft_routes(&board, nr, depth),
                "perft --routes {depth} under {rules}"
            );
        }
    }
}

/// Perft to depth 3 from random king-heavy positions, every rule set.
#[test]
fn king_position_perft_agrees_for_every_rule_set() {
    let mut rng = Rng::new(99);
    for _ in 0..40 {
        let board = random_board(&mut rng, 7, 50);
        for rules in all_rules() {
            let pos = to_position(&board, rules);
            let nr = naive_rules(rules);
            assert_eq!(
                perft(&pos, 3),
                naive::perft(&board, nr, 3),
                "{} under {rules}",
                pos.fen()
            );
            assert_eq!(
                perft_routes(&pos, 3),
                naive::perft_routes(&board, nr, 3),
                "routes {} under {rules}",
                pos.fen()
            );
        }
    }
}

/// The deep cross-check behind tests/perft/startpos.txt: depths 1..=6 take
/// about a minute, `TAMA_NAIVE_DEPTH=7` about twenty:
/// `cargo test --release -p tama-engine --test rules_moves_and_captures_naive -- --ignored --nocapture`
#[test]
#[ignore]
fn start_perft_agrees_deep() {
    let depth: u32 = std::env::var("TAMA_NAIVE_DEPTH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    // TAMA_NAIVE_ONLY=armenian,deferred,false checks one rule set.
    let only = std::env::var("TAMA_NAIVE_ONLY").unwrap_or_default();
    for rules in all_rules() {
        let name = format!(
            "{},{},{}",
            rules.variant, rules.capture_removal, rules.mid_capture_promotion
        );
        if !only.is_empty() && only != name {
            continue;
        }
        let start = Position::startpos(rules);
        for d in 1..=depth {
            let n = naive::perft(&naive::Board::start(), naive_rules(rules), d);
            println!("{rules} depth {d}: {n}");
            assert_eq!(perft(&start, d), n, "perft {d} under {rules}");
        }
    }
}
