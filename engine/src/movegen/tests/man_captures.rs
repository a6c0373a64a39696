//! Captures by men: the directions, the jump, the continuation, and the
//! majority rule.

use super::{moves, pos, routes, strs, ARMENIAN};
use crate::movegen::has_capture;

/// A man captures forward and sideways by jumping an orthogonally adjacent
/// enemy onto the empty square right behind it. Three single captures here,
/// and since capturing is compulsory, no quiet move at all:
/// ```text
/// 6  . . . . . . . .
/// 5  . . . b . . . .      d4xd6 over d5
/// 4  . . b w b . . .      d4xb4 over c4, d4xf4 over e4
/// 3  . . . . . . . .
/// ```
#[test]
fn man_captures_forward_and_sideways() {
    assert_eq!(
        moves("W:Wd4,h2:Bc4,d5,e4", ARMENIAN),
        strs(&["d4xb4[c4]", "d4xd6[d5]", "d4xf4[e4]"])
    );
}

/// Never backward: the black man behind d4 cannot be taken by a man (d2 is
/// free), so White has only quiet moves. A white king on the same square
/// would take it.
/// ```text
/// 4  . . . w . . . .
/// 3  . . . b . . . .
/// 2  . . . . . . . .
/// ```
#[test]
fn man_never_captures_backward() {
    let fen = "W:Wd4:Bd3";
    assert!(!has_capture(&pos(fen, ARMENIAN)));
    assert!(moves(fen, ARMENIAN).iter().all(|m| m.contains('-')));
    assert_eq!(
        moves("W:WKd4:Bd3", ARMENIAN),
        strs(&["d4xd1[d3]", "d4xd2[d3]"])
    );
}

/// Black's forward is down the board, for captures too: the black man on d5
/// takes d4 (landing d3) or e5 (landing f5), but not d6 above it (that is
/// backwards for Black, although d7 is free).
/// ```text
/// 7  . . . . . . . .
/// 6  . . . w . . . .
/// 5  . . . b w . . .
/// 4  . . . w . . . .
/// 3  . . . . . . . .
/// ```
#[test]
fn black_man_captures_down_the_board_and_sideways() {
    assert_eq!(
        moves("B:Wd6,e5,d4:Bd5", ARMENIAN),
        strs(&["d5xd3[d4]", "d5xf5[e5]"])
    );
}

/// Captures are orthogonal only: a diagonal neighbour with an empty square
/// behind it is not capturable, by a man or by a king.
#[test]
fn no_diagonal_capture() {
    assert!(!has_capture(&pos("W:Wd4:Be5", ARMENIAN)));
    assert!(!has_capture(&pos("W:WKd4:Be5", ARMENIAN)));
}

/// The jump needs the square right behind the victim empty; a man cannot
/// jump two pieces in a row, nor its own piece.
#[test]
fn man_capture_needs_the_square_behind_empty() {
    assert!(!has_capture(&pos("W:Wd4:Bd5,d6", ARMENIAN)));
    assert!(!has_capture(&pos("W:Wd4,d5:Bh8", ARMENIAN)));
    assert!(!has_capture(&pos("W:Wd7:Bd8,a2", ARMENIAN)));
}

/// The capturing piece must go on jumping while it can: d2 takes d3, lands
/// on d4, and must take d5 too. Stopping on d4 is not a legal move.
/// ```text
/// 6  . . . . . . . .
/// 5  . . . b . . . .
/// 4  . . . . . . . .
/// 3  . . . b . . . .
/// 2  . . . w . . . .
/// ```
#[test]
fn capture_must_continue() {
    assert_eq!(moves("W:Wd2:Bd3,d5", ARMENIAN), strs(&["d2xd6[d3,d5]"]));
    assert_eq!(routes("W:Wd2:Bd3,d5", ARMENIAN), strs(&["d2xd4xd6"]));
}

/// A man's capture turns between forward and sideways as the pieces lie:
/// a2 x a4 (a3), then east x c4 (b4), then north x c6 (c5).
#[test]
fn man_capture_turns_corners() {
    assert_eq!(routes("W:Wa2:Ba3,b4,c5", ARMENIAN), strs(&["a2xa4xc4xc6"]));
}

/// Majority capture across pieces: the man on a2 could take one piece, the
/// man on d2 two. Only the two-piece capture is legal.
/// ```text
/// 5  . . . b . . . .
/// 4  . . . . . . . .
/// 3  b . . b . . . .
/// 2  w . . w . . . .
/// ```
#[test]
fn majority_capture_beats_a_shorter_sequence() {
    assert_eq!(
        moves("W:Wa2,d2:Ba3,d3,d5", ARMENIAN),
        strs(&["d2xd6[d3,d5]"])
    );
}

/// Majority counts pieces, not their kind: taking two men beats taking one
/// king. The man on e2 can take the king on e3 (1); the man on a2 takes a3
/// and a5 (2).
#[test]
fn majority_counts_pieces_not_kings() {
    assert_eq!(
        moves("W:Wa2,e2:Ba3,a5,Ke3", ARMENIAN),
        strs(&["a2xa6[a3,a5]"])
    );
}

/// Equal maxima: free choice. Both men can take one piece.
#[test]
fn equal_captures_are_free_choice() {
    assert_eq!(
        moves("W:Wa2,d2:Ba3,d3", ARMENIAN),
        strs(&["a2xa4[a3]", "d2xd4[d3]"])
    );
}
