//! `position`, the moves it plays and what `d` and `perft` show of them.

use crate::fen;
use crate::protocol_support::{errors, uci};
use tama_engine::{Position, Rules};

#[test]
fn position_and_display() {
    let mut e = uci();
    e.send("position startpos moves d3-d4 d6-d5");
    e.send("d");
    let lines = e.until("Game state:");
    let text = lines.join("\n");
    assert!(text.contains(" 4 | . . . w . . . . |"), "{text}");
    assert!(text.contains(" 5 | . . . b . . . . |"), "{text}");
    assert!(text.contains("Side to move: white"), "{text}");
    assert!(
        text.contains("Rules: Variant armenian CaptureRemoval immediate MidCapturePromotion false"),
        "{text}"
    );
    assert!(text.contains("Legal moves ("), "{text}");
    assert!(text.contains("Game state: ongoing"), "{text}");
    let expected = {
        let mut g = tama_engine::Game::new(Position::startpos(Rules::default()));
        g.play_text("d3-d4").unwrap();
        g.play_text("d6-d5").unwrap();
        g.position().fen()
    };
    assert!(text.contains(&format!("Fen: {expected}")), "{text}");

    e.send("position fen W:Wd4,a2:Bd5,h7 moves d4xd6 h7-h6");
    assert_eq!(fen(&mut e), "W:Wa2,d6:Bh6");
}

#[test]
fn rejected_position_keeps_the_previous_one() {
    let mut e = uci();
    e.send("position startpos moves d3-d4");
    let before = fen(&mut e);
    for bad in [
        "position startpos moves d3-d4 d4-d5",    // White moves twice
        "position startpos moves d3-d4 zz",       // malformed move
        "position fen W:Wz9:Bh7",                 // unknown square
        "position fen W:Wa2,a2:Bh7",              // square used twice
        "position fen W:Wa8:Bh7",                 // man on its far rank
        "position fen",                           // no FEN
        "position",                               // nothing at all
        "position startpos d3-d4",                // `moves` missing
        "position fen W:WKd4:Bc5,e5 moves d4-c6", // not legal there
    ] {
        e.send(bad);
        let out = e.sync();
        assert_eq!(errors(&out).len(), 1, "{bad}: {out:?}");
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert_eq!(fen(&mut e), before, "{bad} changed the position");
    }
    e.send("position startpos moves d3-d4 d4-d5");
    let out = e.sync();
    assert!(out[0].contains("move 2"), "{out:?}");
}

#[test]
fn ambiguous_and_illegal_moves_say_why() {
    let mut e = uci();
    // A king on d4 can take c4 and e4... the short form d4xd4 is nonsense;
    // ask for an illegal quiet move and for a non-compulsory move.
    e.send("position fen W:Wd4,a2:Bd5,a7 moves a2-a3");
    let out = e.sync();
    assert!(out[0].contains("compulsory"), "{out:?}");
    e.send("position startpos moves d3-d5");
    let out = e.sync();
    assert!(out[0].contains("legal moves from d3"), "{out:?}");

    // An ambiguous short capture. White king a1, black men a2, d5, d7, f2:
    //
    //  7  . . . b . . . .     The king takes a2 and may land on a5 or a7,
    //  5  . . . b . . . .     then turns east to take d5 (landing f5) or
    //  2  b . . . . b . .     d7 (landing f7), then south to take f2 and
    //  1  W . . . . . . .     land on f1: two moves of three pieces each,
    //     a b c d e f g h     both a1 to f1, so "a1xf1" names neither.
    let amb_fen = "W:WKa1:Ba2,d5,d7,f2";
    let short = "a1xf1";
    e.send(&format!("position fen {amb_fen}"));
    let before = fen(&mut e);
    e.send(&format!("position fen {amb_fen} moves {short}"));
    let out = e.sync();
    assert_eq!(errors(&out).len(), 1, "{out:?}");
    assert!(out[0].contains("ambiguous"), "{out:?}");
    assert!(
        out[0].contains("a1xa5xf5xf1") && out[0].contains("a1xa7xf7xf1"),
        "{out:?}"
    );
    assert_eq!(fen(&mut e), before);
}

#[test]
fn perft_divides() {
    let mut e = uci();
    e.send("position startpos");
    e.send("go perft 3");
    let lines = e.until("Nodes searched:");
    let total: u64 = lines.last().unwrap()["Nodes searched: ".len()..]
        .parse()
        .unwrap();
    let sum: u64 = lines[..lines.len() - 1]
        .iter()
        .map(|l| l.rsplit(": ").next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, total);
    let start = Position::startpos(Rules::default());
    assert_eq!(total, tama_engine::perft::perft(&start, 3));
    assert_eq!(
        lines.len() - 1,
        tama_engine::movegen::legal_moves(&start).len()
    );
    e.send("go perft x");
    assert_eq!(errors(&e.sync()).len(), 1);
}

#[test]
fn rule_change_keeps_a_game_that_stays_legal() {
    let mut e = uci();
    e.send("position startpos moves d3-d4 d6-d5");
    let before = fen(&mut e);
    e.send("setoption name Variant value turkish");
    assert!(e.sync().is_empty());
    assert_eq!(fen(&mut e), before);
    // A diagonal step is not Turkish: the game restarts from the start.
    e.send("setoption name Variant value armenian");
    e.send("position startpos moves c3-d4");
    e.send("setoption name Variant value turkish");
    let out = e.sync();
    assert!(out[0].contains("reset"), "{out:?}");
    assert_eq!(fen(&mut e), Position::startpos(Rules::TURKISH).fen());
}
