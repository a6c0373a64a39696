//! Captures by flying kings: from afar, never turning back, duplicate routes
//! as one move, the starting square crossed and landed on.

use super::{moves, pos, routes, strs, ARMENIAN};
use crate::movegen::{generate_with_routes, has_capture, legal_moves};
use crate::perft::{perft, perft_routes};
use crate::rules::Rules;

/// A flying king looks along a file across empty squares; the first piece
/// it meets is an enemy with empty squares behind it: it jumps it and may
/// land on any of them. Four moves here.
/// ```text
/// 8  * . . . . . . .
/// 7  * . . . . . . .
/// 6  * . . . . . . .
/// 5  * . . . . . . .
/// 4  b . . . . . . .
/// 3  . . . . . . . .
/// 2  . . . . . . . .
/// 1  W . . . . . . B
/// ```
#[test]
fn flying_king_captures_from_afar_and_chooses_its_landing_square() {
    assert_eq!(
        moves("W:WKa1:Ba4,Kh1", ARMENIAN),
        strs(&["a1xa5[a4]", "a1xa6[a4]", "a1xa7[a4]", "a1xa8[a4]"])
    );
}

/// A king never jumps two pieces in a row, nor its own piece: nothing to
/// take on the a-file (a4, a5 black side by side) nor past the own man on
/// c1 (black king e1 behind it).
#[test]
fn king_cannot_jump_two_pieces_or_its_own() {
    let fen = "W:WKa1,c1:Ba4,a5,Ke1";
    assert!(!has_capture(&pos(fen, ARMENIAN)));
}

/// A king capture taking more beats a man capture taking less. The man on
/// a6 could take a7 and be crowned (1 piece); the king on h1 takes h3 and
/// h6 (2 pieces) and must be chosen. Its two routes through h4 and h5 lead
/// to the same two moves (ending on h7 or h8).
/// ```text
/// 8  . . . . . . . .
/// 7  b . . . . . . .
/// 6  w . . . . . . b
/// 5  . . . . . . . .
/// 4  . . . . . . . .
/// 3  . . . . . . . b
/// 2  . . . . . . . .
/// 1  . . . . . . . W
/// ```
#[test]
fn king_capture_beats_man_capture_when_it_takes_more() {
    let fen = "W:Wa6,Kh1:Ba7,h3,h6";
    assert_eq!(
        moves(fen, ARMENIAN),
        strs(&["h1xh7[h3,h6]", "h1xh8[h3,h6]"])
    );
    assert_eq!(
        routes(fen, ARMENIAN),
        strs(&["h1xh4xh7", "h1xh4xh8", "h1xh5xh7", "h1xh5xh8"])
    );
    // Without the king the man's single capture is the move.
    assert_eq!(moves("W:Wa6:Ba7,h3,h6", ARMENIAN), strs(&["a6xa8[a7]=K"]));
}

/// No 180-degree turn between two jumps. The king on d5 takes d7 and lands
/// on d8; with d7 gone it would see d3 straight down the file, but turning
/// back is forbidden. So there are three single captures and no double.
/// ```text
/// 8  . . . . . . . .
/// 7  . . . b . . . .
/// 6  . . . . . . . .
/// 5  . . . W . . . .
/// 4  . . . . . . . .
/// 3  . . . b . . . .
/// 2  . . . . . . . .
/// 1  . . . . . . . .
/// ```
#[test]
fn king_never_turns_180_degrees() {
    for r in Rules::all() {
        assert_eq!(
            moves("W:WKd5:Bd7,d3", r),
            strs(&["d5xd1[d3]", "d5xd2[d3]", "d5xd8[d7]"]),
            "{r}"
        );
    }
}

/// Going straight on after a jump is no turn at all: a king may take a
/// second piece further along the same line.
#[test]
fn king_may_capture_again_straight_ahead() {
    assert_eq!(
        moves("W:WKa1:Ba3,a6", ARMENIAN),
        strs(&["a1xa7[a3,a6]", "a1xa8[a3,a6]"])
    );
}

/// Duplicate routes are one move. The king on a1 takes a3, lands on a4 or
/// a5, and from either takes a6 and lands on a7 or a8: four routes, two
/// moves. `perft` counts the moves, `perft_routes` (kish's way) the routes.
/// ```text
/// 8  . . . . . . . b
/// 7  . . . . . . . .
/// 6  b . . . . . . .
/// 5  . . . . . . . .
/// 4  . . . . . . . .
/// 3  b . . . . . . .
/// 2  . . . . . . . .
/// 1  W . . . . . . .
/// ```
#[test]
fn duplicate_routes_are_one_move() {
    let fen = "W:WKa1:Ba3,a6,h8";
    let p = pos(fen, ARMENIAN);
    assert_eq!(
        moves(fen, ARMENIAN),
        strs(&["a1xa7[a3,a6]", "a1xa8[a3,a6]"])
    );
    assert_eq!(
        routes(fen, ARMENIAN),
        strs(&["a1xa4xa7", "a1xa4xa8", "a1xa5xa7", "a1xa5xa8"])
    );
    let with_routes = generate_with_routes(&p);
    assert_eq!(with_routes.len(), 2);
    assert!(with_routes.iter().all(|&(_, n)| n == 2));
    assert_eq!(perft(&p, 1), 2);
    assert_eq!(perft_routes(&p, 1), 4);
    // One ply deeper: each of the two moves leaves Black (king h8 alone
    // against the white king) with the same replies, counted per route.
    let replies_a7 = perft(&p.play(&legal_moves(&p)[0]), 1);
    let replies_a8 = perft(&p.play(&legal_moves(&p)[1]), 1);
    assert_eq!(perft(&p, 2), replies_a7 + replies_a8);
    assert_eq!(perft_routes(&p, 2), 2 * (replies_a7 + replies_a8));
}

/// The starting square is empty once the piece has left it: a king may
/// cross it. d4 takes d6 (lands d7), b7 (lands a7), a5 (lands a4, a3, a2 or
/// a1) and from a4, along rank 4, passes over its own empty start square d4
/// to take f4 and land on g4 or h4: four pieces, only possible by crossing.
/// ```text
/// 8  . . . . . . . .
/// 7  . b . . . . . .
/// 6  . . . b . . . .
/// 5  b . . . . . . .
/// 4  . . . W . b . .
/// 3  . . . . . . . .
/// ```
/// (The other order, f4 first, goes east then cannot come back west: the
/// 180-degree ban; it finds nothing of equal length.)
#[test]
fn king_may_cross_its_starting_square() {
    for r in Rules::all() {
        assert_eq!(
            moves("W:WKd4:Bd6,b7,a5,f4", r),
            strs(&["d4xg4[a5,b7,d6,f4]", "d4xh4[a5,b7,d6,f4]"]),
            "{r}"
        );
    }
}

/// ... and may even finish its capture there. Around the rectangle a3, c5,
/// e3, c1 both ways, ending back on a1 (or on b1 / a2 before it): the
/// clockwise and counter-clockwise routes that end on a1 are one move, with
/// from = to = a1.
/// ```text
/// 5  . . b . . . . .
/// 4  . . . . . . . .
/// 3  b . . . b . . .
/// 2  . . . . . . . .
/// 1  W . B . . . . .
/// ```
#[test]
fn king_may_finish_on_its_starting_square() {
    let fen = "W:WKa1:Ba3,c5,e3,Kc1";
    for r in Rules::all() {
        assert_eq!(
            moves(fen, r),
            strs(&[
                "a1xa1[a3,c1,c5,e3]",
                "a1xa2[a3,c1,c5,e3]",
                "a1xb1[a3,c1,c5,e3]"
            ]),
            "{r}"
        );
    }
    // Four routes, two of them the same move (a1 back to a1).
    assert_eq!(
        routes(fen, ARMENIAN),
        strs(&[
            "a1xa5xe5xe1xa1",
            "a1xa5xe5xe1xb1",
            "a1xe1xe5xa5xa1",
            "a1xe1xe5xa5xa2"
        ])
    );
    let p = pos(fen, ARMENIAN);
    let home = legal_moves(&p)
        .into_iter()
        .find(|m| m.from == m.to)
        .unwrap();
    let after = p.play(&home);
    assert_eq!(after.fen(), "B:WKa1:B");
}
