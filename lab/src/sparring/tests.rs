//! Tests of the sparring search.

use super::*;
use std::time::Duration;
use tama_engine::rules::Rules;

fn sparring(fen: &str, rules: Rules, depth: u32) -> (SearchOutcome, Vec<SearchInfo>) {
    let pos = Position::from_fen(fen, rules).unwrap();
    let game = Game::new(pos);
    let tt = TranspositionTable::new(4);
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let mut infos = Vec::new();
    let out = search(
        &tt,
        &game,
        &movegen::legal_moves(&pos),
        &limits,
        &SearchOptions::default(),
        &SearchControl::new(),
        &mut |i| infos.push(i.clone()),
    );
    (out, infos)
}

fn text(fen: &str, rules: Rules, mv: Move) -> String {
    Position::from_fen(fen, rules).unwrap().move_text(&mv)
}

#[test]
fn evaluation_is_material_and_advancement() {
    // White: men d2 (1 rank from White's back rank), e7 (6 ranks);
    // Black: king a8 and man h7 (1 rank from Black's back rank).
    // Armenian: 2 men + 7 ranks * 3 = 221 against 300 + 100 + 3 = 403,
    // from White's view -182; Turkish, Black to move: 250 + 103 - 221.
    let pos = Position::from_fen("W:Wd2,e7:BKa8,h7", Rules::ARMENIAN).unwrap();
    assert_eq!(evaluate(&pos), 221 - 403);
    let pos = Position::from_fen("B:Wd2,e7:BKa8,h7", Rules::TURKISH).unwrap();
    assert_eq!(evaluate(&pos), 353 - 221);
}

#[test]
fn the_sacrifice_is_seen_through_the_captures_after_it() {
    // The sacrifice of the main search's tests (engine/src/search/tests.rs,
    // shot_sacrifice_forces_a_majority_capture): c4-c5 offers a man,
    // c6xc4 is Black's only move (a compulsory capture), and White's c3
    // then takes four: from two men down (4 against 6) to one up (c2,
    // h2, g7 against a7, b5). Depth 1 already sees it: after c4-c5
    // Black must capture (searched at the horizon), and so must White.
    let fen = "W:Wc2,c3,c4,h2:Ba7,b5,c6,d5,e6,f7";
    let (out, infos) = sparring(fen, Rules::ARMENIAN, 2);
    assert_eq!(text(fen, Rules::ARMENIAN, out.best_move.unwrap()), "c4-c5");
    assert!(
        matches!(out.score, Some(Score::Cp(v)) if v >= 100),
        "{:?}",
        out.score
    );
    assert_eq!(infos.len(), 2);
    assert_eq!(infos[0].pv[0], out.best_move.unwrap());
}

#[test]
fn the_issue_example_is_found_at_depth_three() {
    // A Turkish shot (White to move): g3-g4 forces a5xa3xc3xc1, then
    // g4xg6xg8 and a chain of sacrifices. The main search of release
    // 0.1.0 found it only at depth 13.
    let fen = "W:Wa2,c2,d2,f2,g2,h2,b3,e3,f3,g3,a4,b4,c4,d4,e4,h4:\
               Ba5,e5,g5,a6,b6,c6,d6,e6,f6,h6,a7,b7,d7,e7,g7,h7";
    let (_, infos) = sparring(fen, Rules::TURKISH, 5);
    let first = infos
        .iter()
        .find(|i| text(fen, Rules::TURKISH, i.pv[0]) == "g3-g4")
        .expect("g3-g4 found");
    assert!(first.depth <= 3, "found at depth {}", first.depth);
}

#[test]
fn node_limit_and_stop_are_obeyed() {
    let pos = Position::startpos(Rules::ARMENIAN);
    let game = Game::new(pos);
    let legal = movegen::legal_moves(&pos);
    let tt = TranspositionTable::new(1);
    let limits = SearchLimits {
        nodes: Some(3000),
        ..SearchLimits::default()
    };
    let o = SearchOptions::default();
    let c = SearchControl::new();
    let out = search(&tt, &game, &legal, &limits, &o, &c, &mut |_| {});
    assert!(out.nodes <= 3000, "{}", out.nodes);
    assert!(legal.contains(&out.best_move.unwrap()));
    // An infinite search answers once stopped (from another thread).
    let limits = SearchLimits {
        infinite: true,
        ..SearchLimits::default()
    };
    let c = std::sync::Arc::new(SearchControl::new());
    let stopper = {
        let c = c.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            c.stop();
        })
    };
    let out = search(&tt, &game, &legal, &limits, &o, &c, &mut |_| {});
    stopper.join().unwrap();
    assert!(legal.contains(&out.best_move.unwrap()));
    assert!(out.depth >= 1);
}

#[test]
fn a_win_within_the_depth_ends_the_search() {
    // White king a1, Black's only piece a man on a5: the king must
    // capture it (landing on a6, a7 or a8) and Black, with nothing
    // left, has no move: a win on the first ply, proven at depth 1
    // (every line was searched), so a depth limit of 40 is not used.
    let fen = "W:WKa1:Ba5";
    let (out, infos) = sparring(fen, Rules::ARMENIAN, 40);
    assert_eq!(out.score, Some(Score::Mate(1)));
    assert_eq!(infos.len(), 1);
    assert_eq!(out.depth, 1);
}
