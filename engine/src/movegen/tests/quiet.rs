//! Moves without a capture: a man's steps and a king's slides, and the
//! crowning on a quiet move.

use super::{moves_from, pos, strs, ARMENIAN, TURKISH};
use crate::movegen::has_capture;
use crate::square::Square;

/// Armenian: a man steps one square straight forward, diagonally forward
/// (left or right) or sideways (left or right): five squares.
/// ```text
/// 8  b . . . . . . .
/// 7  . . . . . . . .
/// 6  . . . . . . . .
/// 5  . . * * * . . .      * = where the white man on d4 may step
/// 4  . . * w * . . .
/// 3  . . . . . . . .      never backwards: not c3, d3, e3
/// 2  . . . . . . . .
/// 1  . . . . . . . .
///    a b c d e f g h
/// ```
#[test]
fn armenian_white_man_steps_forward_diagonally_forward_and_sideways() {
    assert_eq!(
        moves_from("W:Wd4:Ba8", ARMENIAN, "d4"),
        strs(&["d4-c4", "d4-c5", "d4-d5", "d4-e4", "d4-e5"])
    );
}

/// Black's forward is down the board: a black man on e5 steps to d4, e4,
/// f4 (forward), d5 or f5 (sideways), never up.
#[test]
fn armenian_black_man_steps_down_the_board() {
    assert_eq!(
        moves_from("B:Wa1:Be5", ARMENIAN, "e5"),
        strs(&["e5-d4", "e5-d5", "e5-e4", "e5-f4", "e5-f5"])
    );
}

/// The board edge: a man on the a-file has no square to its left, so only
/// a5 (forward), b5 (diagonal) and b4 (sideways) remain.
#[test]
fn man_steps_stop_at_the_board_edge() {
    assert_eq!(
        moves_from("W:Wa4:Bh8", ARMENIAN, "a4"),
        strs(&["a4-a5", "a4-b4", "a4-b5"])
    );
}

/// Every step needs an empty target square; neither colour can be stepped
/// onto. Of the five squares of the man on d4 only c4 is free:
/// ```text
/// 6  . . . . b b . .
/// 5  . . w w b b . .      c5, d5 own men; e5 black (diagonal: never taken)
/// 4  . . . w b b . .      e4 black, but f4 behind it is occupied: no jump
/// 3  . . . . . . . .
///    a b c d e f g h
/// ```
/// d5 cannot jump e5 either (f5 occupied) and has nothing in front of it.
/// No capture anywhere, so quiet moves are legal.
#[test]
fn man_steps_blocked_by_any_piece() {
    let fen = "W:Wc5,d5,d4:Be6,f6,e5,f5,e4,f4";
    assert!(!has_capture(&pos(fen, ARMENIAN)));
    assert_eq!(moves_from(fen, ARMENIAN, "d4"), strs(&["d4-c4"]));
}

/// Turkish men have no diagonal step: forward and sideways only.
#[test]
fn turkish_man_has_no_diagonal_step() {
    assert_eq!(
        moves_from("W:Wd4:Ba8", TURKISH, "d4"),
        strs(&["d4-c4", "d4-d5", "d4-e4"])
    );
    assert_eq!(
        moves_from("B:Wa1:Be5", TURKISH, "e5"),
        strs(&["e5-d5", "e5-e4", "e5-f5"])
    );
}

/// A man that steps onto its far rank is crowned, whichever step it took.
/// ```text
/// 8  . . * * * . . .      c8, d8 (diagonal), e8: all crowned
/// 7  . . * w * . . .      c7, e7 sideways: still a man
/// ```
#[test]
fn promotion_on_a_quiet_move() {
    let fen = "W:Wd7:Bh2";
    assert_eq!(
        moves_from(fen, ARMENIAN, "d7"),
        strs(&["d7-c7", "d7-c8=K", "d7-d8=K", "d7-e7", "d7-e8=K"])
    );
    assert_eq!(
        moves_from(fen, TURKISH, "d7"),
        strs(&["d7-c7", "d7-d8=K", "d7-e7"])
    );
    // Black is crowned on rank 1.
    assert_eq!(
        moves_from("B:Wh7:Bb2", ARMENIAN, "b2"),
        strs(&["b2-a1=K", "b2-a2", "b2-b1=K", "b2-c1=K", "b2-c2"])
    );
    // After the move the piece on d8 is a king.
    let p = pos(fen, ARMENIAN);
    let m = p.parse_move("d7-d8").unwrap();
    let after = p.play(&m);
    let piece = after.piece_at(Square::parse("d8").unwrap()).unwrap();
    assert!(piece.king);
}

/// An Armenian king slides any distance over empty squares in all 8
/// directions and stops before any piece (a black man on h8 closes the
/// long diagonal; it is not orthogonal to d4, so it cannot be taken).
/// ```text
/// 8  . . . * . . . b
/// 7  * . . * . . * .
/// 6  . * . * . * . .
/// 5  . . * * * . . .
/// 4  * * * W * * * *      d4: 4 up + 3 down + 3 left + 4 right
/// 3  . . * * * . . .          + 3 + 3 + 3 (diagonals) + 3 (g7, not h8) = 26
/// 2  . * . * . * . .
/// 1  * . . * . . * .
///    a b c d e f g h
/// ```
#[test]
fn armenian_king_slides_in_all_eight_directions() {
    let m = moves_from("W:WKd4:Bh8", ARMENIAN, "d4");
    assert_eq!(m.len(), 26);
    for s in [
        "d4-d8", "d4-d1", "d4-a4", "d4-h4", "d4-a7", "d4-a1", "d4-g1", "d4-g7",
    ] {
        assert!(m.contains(&s.to_string()), "{s} missing");
    }
    assert!(!m.contains(&"d4-h8".to_string()));
}

/// A Turkish king slides only along ranks and files: 4 + 3 + 3 + 4 = 14.
#[test]
fn turkish_king_slides_only_orthogonally() {
    let m = moves_from("W:WKd4:Bh8", TURKISH, "d4");
    assert_eq!(m.len(), 14);
    assert!(m.iter().all(|s| {
        let to = Square::parse(&s[3..5]).unwrap();
        to.file() == 3 || to.rank() == 3
    }));
}

/// A king never passes or lands on a piece: an own man on d6 leaves it only
/// d5 upwards, an own man on f6 only e5 up the diagonal.
#[test]
fn king_slide_stops_before_a_piece() {
    let m = moves_from("W:WKd4,d6,f6:Ba8", ARMENIAN, "d4");
    assert!(m.contains(&"d4-d5".to_string()));
    assert!(m.contains(&"d4-e5".to_string()));
    for s in ["d4-d6", "d4-d7", "d4-f6", "d4-g7"] {
        assert!(!m.contains(&s.to_string()), "{s} listed");
    }
}
