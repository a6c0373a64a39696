//! The UCI extension `legalmoves` (docs/protocol.md), end to end through the
//! release binary: every route of every legal move with its captured squares
//! in the order they are jumped, promotion, the game state and the FEN.

mod protocol_support;

use protocol_support::{uci, Engine};

/// The `legalmove` lines (sorted) and the summary line for a position.
fn legal(e: &mut Engine, position: &str) -> (Vec<String>, String) {
    e.send(position);
    e.send("legalmoves");
    let mut lines = e.until("legalmoves ");
    let summary = lines.pop().unwrap();
    // A running search may print its info lines in between.
    lines.retain(|l| l.starts_with("legalmove "));
    lines.sort();
    (lines, summary)
}

#[test]
fn the_start_position_lists_its_22_steps() {
    let mut e = uci();
    let (lines, summary) = legal(&mut e, "position startpos");
    // Armenian men step forward, diagonally forward and sideways; from the
    // start only the third rank can move: 8 forward, 7 + 7 diagonal, none
    // sideways (the rank is full).
    assert_eq!(lines.len(), 22, "{lines:?}");
    assert!(lines.contains(&"legalmove d3-d4".to_string()));
    assert!(lines.contains(&"legalmove a3-b4".to_string()));
    assert!(lines.iter().all(|l| !l.contains("captures")));
    assert_eq!(
        summary,
        "legalmoves 22 state ongoing fen W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"
    );
    // Turkish men do not step diagonally: 8 moves.
    e.send("setoption name Variant value turkish");
    let (lines, summary) = legal(&mut e, "position startpos");
    assert_eq!(lines.len(), 8, "{lines:?}");
    assert!(
        summary.starts_with("legalmoves 8 state ongoing fen W:"),
        "{summary}"
    );
}

#[test]
fn a_capture_lists_its_landings_and_its_victims_in_order() {
    let mut e = uci();
    // d4 takes d5 (landing d6), then e6 sideways (landing f6); a7 is out of
    // reach. Capture is compulsory: nothing else is legal.
    let (lines, summary) = legal(&mut e, "position fen W:Wd4:Bd5,e6,a7");
    assert_eq!(lines, ["legalmove d4xd6xf6 captures d5 e6"]);
    assert_eq!(summary, "legalmoves 1 state ongoing fen W:Wd4:Bd5,e6,a7");
}

#[test]
fn every_route_of_a_king_capture_is_listed() {
    let mut e = uci();
    // The king on h5 takes g5 flying west and may land on f5, e5, d5, c5 or
    // b5 (a5 stops it). From c5 it goes on south over c3 to c2 or c1, and
    // from c2 east over g2 to h2 (from c1 nothing more can be taken); from
    // f5 south over f3 to f2 and east over g2 to h2. The other landings
    // lead to no further capture. Three pieces is the most: two moves
    // (different pieces taken), one route each.
    let (lines, summary) = legal(&mut e, "position fen W:WKh5:Bg2,c3,f3,a5,g5,a6");
    assert_eq!(
        lines,
        [
            "legalmove h5xc5xc2xh2 captures g5 c3 g2",
            "legalmove h5xf5xf2xh2 captures g5 f3 g2",
        ]
    );
    assert!(
        summary.starts_with("legalmoves 2 state ongoing"),
        "{summary}"
    );

    // Routes of one move are all listed: from a1 the king takes a3 landing
    // on a4 or a5, then a6 landing on a7 or a8. a7 and a8 are two moves,
    // each reached by two routes.
    let (lines, summary) = legal(&mut e, "position fen W:WKa1,h2:Ba3,a6,c6,f6");
    assert_eq!(
        lines,
        [
            "legalmove a1xa4xa7 captures a3 a6",
            "legalmove a1xa4xa8 captures a3 a6",
            "legalmove a1xa5xa7 captures a3 a6",
            "legalmove a1xa5xa8 captures a3 a6",
        ]
    );
    assert!(
        summary.starts_with("legalmoves 2 state ongoing"),
        "{summary}"
    );
}

#[test]
fn a_piece_jumped_earlier_is_not_named_again() {
    let mut e = uci();
    // Captured pieces leave at once (the default), so the king may cross a
    // square it has emptied: e6 takes b6 (landing a6), a5 (landing a2),
    // b2 (landing g2), g4 (landing g5), d5 (landing b5), then flies south
    // from b5 over b4 and b3 (taken) and b2 (already gone) to b1. The
    // victim of the last jump is b3, not b2 again.
    let (lines, _) = legal(&mut e, "position fen W:WKe6:Bb2,b3,g4,a5,d5,b6");
    assert!(
        lines.contains(&"legalmove e6xa6xa2xg2xg5xb5xb1 captures b6 a5 b2 g4 d5 b3".to_string()),
        "{lines:?}"
    );
    for l in &lines {
        let victims: Vec<&str> = l.split(" captures ").nth(1).unwrap().split(' ').collect();
        let mut unique = victims.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), 6, "six different pieces: {l}");
    }
}

#[test]
fn promotion_is_marked() {
    let mut e = uci();
    // The man on c7 reaches the far rank forward (c8) or diagonally forward
    // (b8, d8) and is crowned; sideways (b7, d7) it is not.
    let (lines, _) = legal(&mut e, "position fen W:Wc7:Bh5");
    assert_eq!(
        lines,
        [
            "legalmove c7-b7",
            "legalmove c7-b8 promotes",
            "legalmove c7-c8 promotes",
            "legalmove c7-d7",
            "legalmove c7-d8 promotes",
        ]
    );
}

#[test]
fn the_game_state_is_given() {
    let mut e = uci();
    // The man on a6 is walled in: a7 and b6 are black with a8 and c6
    // occupied behind them (no capture), b7 blocks the diagonal step.
    let (lines, summary) = legal(&mut e, "position fen W:Wa6:Bb6,c6,a7,b7,Ka8");
    assert!(lines.is_empty(), "{lines:?}");
    assert_eq!(
        summary,
        "legalmoves 0 state won-by-black fen W:Wa6:Bb6,c6,a7,b7,Ka8"
    );
    // Two kings shuffle back: the start position stands for the third time.
    let (lines, summary) = legal(
        &mut e,
        "position fen W:WKa1:BKh8 moves a1-a2 h8-h7 a2-a1 h7-h8 a1-a2 h8-h7 a2-a1 h7-h8",
    );
    assert_eq!(lines.len(), 20, "the moves are still listed");
    assert_eq!(
        summary,
        "legalmoves 20 state drawn-by-repetition fen W:WKa1:BKh8"
    );
}

#[test]
fn it_answers_during_a_search_and_refuses_arguments() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go infinite");
    let (lines, summary) = legal(&mut e, "isready");
    assert_eq!(lines.len(), 22);
    assert!(summary.starts_with("legalmoves 22 "), "{summary}");
    e.send("stop");
    e.until("bestmove ");
    e.send("legalmoves now");
    let err = e.until("info string error");
    assert_eq!(
        err.last().unwrap(),
        "info string error: legalmoves takes no arguments, got \"now\""
    );
}
