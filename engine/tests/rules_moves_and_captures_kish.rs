//! docs/rules.md §2 and §3 for Turkish draughts: Tama against the kish
//! crate (immediate removal, promotion at the end of the move: Tama's
//! `Rules::TURKISH`).
//!
//! kish lists one action per jump route and applies an action by XOR-ing a
//! delta into its bitboards; its square numbering is ours (a1 = bit 0, h8 =
//! bit 63, White moving up). In every position compared here:
//! - the set of positions our legal moves lead to equals the set of kish's
//!   resulting positions (deduplicated), and
//! - for each resulting position, our route count equals the number of kish
//!   actions that lead there.
//!
//! kish's debug assertions reject more than 16 pieces a side and men on their
//! own promotion rank, so the random positions respect both.

use std::collections::BTreeMap;
use tama_engine::movegen::{generate_with_routes, legal_moves};
use tama_engine::perft::{perft, perft_routes};
use tama_engine::rng::Rng;
use tama_engine::{Bitboard, Color, Position, Rules};

/// A position as plain bitboards, the common ground of both engines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Planes {
    white_to_move: bool,
    white: u64,
    black: u64,
    kings: u64,
}

fn planes(pos: &Position) -> Planes {
    Planes {
        white_to_move: pos.side_to_move() == Color::White,
        white: pos.pieces(Color::White).0,
        black: pos.pieces(Color::Black).0,
        kings: pos.all_kings().0,
    }
}

fn to_kish(pos: &Position) -> kish::Board {
    let p = planes(pos);
    let turn = if p.white_to_move {
        kish::Team::White
    } else {
        kish::Team::Black
    };
    kish::Board::new(turn, kish::State::new([p.white, p.black], p.kings))
}

fn kish_planes(b: &kish::Board) -> Planes {
    Planes {
        white_to_move: b.turn == kish::Team::White,
        white: b.state.pieces[0],
        black: b.state.pieces[1],
        kings: b.state.kings,
    }
}

/// kish's children (after the move, the other side to move), with the number
/// of actions (routes) that lead to each.
fn kish_children(pos: &Position) -> BTreeMap<Planes, u64> {
    let b = to_kish(pos);
    let mut out = BTreeMap::new();
    for a in b.actions() {
        let child = b.apply(&a).swap_turn();
        *out.entry(kish_planes(&child)).or_insert(0) += 1;
    }
    out
}

/// Ours, in the same form.
fn tama_children(pos: &Position) -> BTreeMap<Planes, u64> {
    let mut out = BTreeMap::new();
    for (m, n) in generate_with_routes(pos) {
        *out.entry(planes(&pos.play(&m))).or_insert(0) += n as u64;
    }
    // Distinct moves lead to distinct positions.
    assert_eq!(out.len(), legal_moves(pos).len(), "{}", pos.fen());
    out
}

fn compare(pos: &Position) {
    assert_eq!(to_kish(pos).state, {
        let p = planes(pos);
        kish::State::new([p.white, p.black], p.kings)
    });
    let ours = tama_children(pos);
    let theirs = kish_children(pos);
    if ours != theirs {
        let show = |m: &BTreeMap<Planes, u64>| {
            m.iter()
                .map(|(p, n)| {
                    let child = Position::from_parts(
                        Bitboard(p.white),
                        Bitboard(p.black),
                        Bitboard(p.kings),
                        if p.white_to_move {
                            Color::White
                        } else {
                            Color::Black
                        },
                        Rules::TURKISH,
                    );
                    format!("{} x{n}", child.fen())
                })
                .collect::<Vec<_>>()
                .join("\n  ")
        };
        panic!(
            "children differ in {}\nours:\n  {}\nkish:\n  {}",
            pos.fen(),
            show(&ours),
            show(&theirs)
        );
    }
}

#[test]
fn random_games_from_the_start() {
    let mut rng = Rng::new(2026);
    let mut compared = 0;
    for _ in 0..400 {
        let mut pos = Position::startpos(Rules::TURKISH);
        for _ in 0..300 {
            compare(&pos);
            compared += 1;
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    assert!(compared > 20_000, "{compared}");
}

/// Random placements, many with mostly kings, both sides to move.
#[test]
fn random_king_heavy_positions() {
    let mut rng = Rng::new(77);
    let mut with_capture = 0;
    let mut with_duplicates = 0;
    for i in 0..20_000u64 {
        let king_percent = [10, 40, 70, 100][(i % 4) as usize];
        let per_side = 1 + rng.below(16);
        let mut pieces = [0u64; 2];
        let mut kings = 0u64;
        let mut occupied = 0u64;
        for (c, side) in pieces.iter_mut().enumerate() {
            let n = 1 + rng.below(per_side);
            let mut placed = 0;
            while placed < n {
                let sq = rng.below(64);
                let bit = 1u64 << sq;
                if occupied & bit != 0 {
                    continue;
                }
                let own_far = (c == 0 && sq >= 56) || (c == 1 && sq < 8);
                if own_far || rng.below(100) < king_percent {
                    kings |= bit;
                }
                *side |= bit;
                occupied |= bit;
                placed += 1;
            }
        }
        let side = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        let pos = Position::from_parts(
            Bitboard(pieces[0]),
            Bitboard(pieces[1]),
            Bitboard(kings),
            side,
            Rules::TURKISH,
        );
        compare(&pos);
        let moves = generate_with_routes(&pos);
        if moves.first().is_some_and(|(m, _)| m.is_capture()) {
            with_capture += 1;
        }
        if moves.iter().any(|&(_, n)| n > 1) {
            with_duplicates += 1;
        }
    }
    assert!(with_capture > 5_000, "{with_capture}");
    assert!(with_duplicates > 200, "{with_duplicates}");
}

/// kish's moves deduplicated by resulting position, at every node.
fn kish_distinct_perft(b: &kish::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut children: Vec<kish::Board> =
        b.actions().iter().map(|a| b.apply(a).swap_turn()).collect();
    children.sort_unstable();
    children.dedup();
    if depth == 1 {
        return children.len() as u64;
    }
    children
        .iter()
        .map(|c| kish_distinct_perft(c, depth - 1))
        .sum()
}

/// kish's routes (one per action) with leaves at exactly `depth`.
fn kish_route_perft(b: &kish::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let actions = b.actions();
    if depth == 1 {
        return actions.len() as u64;
    }
    actions
        .iter()
        .map(|a| kish_route_perft(&b.apply(a).swap_turn(), depth - 1))
        .sum()
}

/// Our default perft counts distinct moves: it must equal kish's moves
/// deduplicated by resulting position. Depth 7 is the first depth where
/// routes and distinct moves differ (10782382 routes, 10782308 distinct).
#[test]
fn distinct_perft_equals_kish_deduplicated_by_position() {
    let start = Position::startpos(Rules::TURKISH);
    let kstart = kish::Board::new_default();
    assert_eq!(to_kish(&start), kstart);
    for depth in 1..=7 {
        assert_eq!(
            perft(&start, depth),
            kish_distinct_perft(&kstart, depth),
            "depth {depth}"
        );
    }
    assert_eq!(perft(&start, 7), 10_782_308);
}

/// `perft_routes` counts every jump route, as kish's own perft does (kish
/// counts a node without moves as 1 at any depth; no such node occurs in
/// these trees).
#[test]
fn route_perft_equals_kish_perft() {
    let start = Position::startpos(Rules::TURKISH);
    let kstart = kish::Board::new_default();
    for depth in 1..=7u32 {
        assert_eq!(
            perft_routes(&start, depth),
            kstart.perft(depth as u64),
            "depth {depth}"
        );
    }
}

/// The same from a few king positions (Turkish endgames), depth 4.
#[test]
fn perft_from_king_positions_equals_kish() {
    for fen in [
        "W:WKa1,d4,e3:BKh8,d6,c5,Kf5",
        "B:WKd1,Kh4,b3,c3,f2:BKa8,Ke6,d7,g6",
        "W:WKd4:Ba3,c5,e3,Kc1,h7",
        "W:WKa5,b4:Bc4,c5,e7,d8,Kh1",
    ] {
        let pos = Position::from_fen(fen, Rules::TURKISH).unwrap();
        let k = to_kish(&pos);
        for depth in 1..=4 {
            assert_eq!(
                perft(&pos, depth),
                kish_distinct_perft(&k, depth),
                "{fen} depth {depth}"
            );
            // kish's own `perft` counts a node without moves as 1 at any
            // depth (these endgames have such nodes), so count its routes
            // with leaves at exactly the depth.
            assert_eq!(
                perft_routes(&pos, depth),
                kish_route_perft(&k, depth),
                "{fen} routes depth {depth}"
            );
        }
    }
}

/// Depth 8: `cargo test --release -p tama-engine --test rules_moves_and_captures_kish -- --ignored`
/// (about 10 s): kish's published 123290300 routes and 123285642 distinct.
#[test]
#[ignore]
fn depth_8_against_kish() {
    let start = Position::startpos(Rules::TURKISH);
    let kstart = kish::Board::new_default();
    assert_eq!(perft_routes(&start, 8), 123_290_300);
    assert_eq!(kstart.perft(8), 123_290_300);
    assert_eq!(perft(&start, 8), kish_distinct_perft(&kstart, 8));
    assert_eq!(perft(&start, 8), 123_285_642);
}
