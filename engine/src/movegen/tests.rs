//! One test per rule, each on a small position reasoned by hand.
//!
//! Boards are drawn with rank 8 at the top: `w`/`b` are white/black men,
//! `W`/`B` white/black kings, `.` an empty square. A move is written by its
//! identity: `from-to` for a quiet move, `fromxto[captured squares]` for a
//! capture (whatever the route), `=K` when the man ends crowned.

use crate::movegen::{capture_routes, count, generate_with_routes, has_capture, legal_moves};
use crate::moves::Move;
use crate::perft::{perft, perft_routes};
use crate::position::Position;
use crate::rules::{CaptureRemoval, Rules, Variant};
use crate::square::Square;
use crate::{Game, GameStatus};

const ARMENIAN: Rules = Rules::ARMENIAN;
const TURKISH: Rules = Rules::TURKISH;

fn rules(variant: Variant, removal: CaptureRemoval, mid_capture_promotion: bool) -> Rules {
    Rules {
        variant,
        capture_removal: removal,
        mid_capture_promotion,
    }
}

fn pos(fen: &str, rules: Rules) -> Position {
    Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn id(m: &Move) -> String {
    let promo = if m.promotes { "=K" } else { "" };
    if m.is_capture() {
        let mut taken: Vec<String> = m.captures.iter().map(|s| s.to_string()).collect();
        taken.sort();
        format!("{}x{}[{}]{promo}", m.from, m.to, taken.join(","))
    } else {
        format!("{}-{}{promo}", m.from, m.to)
    }
}

/// The legal moves, sorted, each by its identity. Also checks that no move
/// comes twice and that the bulk count agrees.
fn moves(fen: &str, rules: Rules) -> Vec<String> {
    let p = pos(fen, rules);
    let list = legal_moves(&p);
    let mut v: Vec<String> = list.iter().map(id).collect();
    v.sort();
    let n = v.len();
    v.dedup();
    assert_eq!(v.len(), n, "a move listed twice in {fen}");
    assert_eq!(count(&p), n, "bulk count in {fen}");
    v
}

/// The legal moves of the piece on `from` only.
fn moves_from(fen: &str, rules: Rules, from: &str) -> Vec<String> {
    moves(fen, rules)
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect()
}

/// Every legal capture route as its landing squares, sorted.
fn routes(fen: &str, rules: Rules) -> Vec<String> {
    let mut v: Vec<String> = capture_routes(&pos(fen, rules))
        .iter()
        .map(|r| {
            let mut s = r.mv.from.to_string();
            for l in &r.landings {
                s.push('x');
                s.push_str(&l.to_string());
            }
            s
        })
        .collect();
    v.sort();
    v
}

fn strs(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

// ---------------------------------------------------------------------------
// Men, non-capturing
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Kings, non-capturing
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Captures by men
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Captures by kings
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// The options
// ---------------------------------------------------------------------------

/// Immediate removal (text 000, "like a vacuum cleaner") lets a king eat a
/// piece's cover first and come back for it. The king on a5 takes c5
/// (lands e5), e7 (lands e8), d8 (lands c8), then looks down the c-file:
/// c5 has already gone, so it sees c4 with c3 free and takes it: 4 pieces.
/// With deferred removal (text 002) the captured c5 still stands on the
/// board until the move ends and blocks the c-file: 3 pieces at most.
/// ```text
/// 8  . . . b . . . .
/// 7  . . . . b . . .
/// 6  . . . . . . . .
/// 5  W . b . . . . .
/// 4  . . b . . . . .
/// 3  . . . . . . . .
/// ```
#[test]
fn immediate_removal_opens_a_line_that_deferred_removal_keeps_closed() {
    let fen = "W:WKa5:Bc4,c5,e7,d8";
    for variant in [Variant::Armenian, Variant::Turkish] {
        for mid in [false, true] {
            let imm = rules(variant, CaptureRemoval::Immediate, mid);
            assert_eq!(
                moves(fen, imm),
                strs(&[
                    "a5xc1[c4,c5,d8,e7]",
                    "a5xc2[c4,c5,d8,e7]",
                    "a5xc3[c4,c5,d8,e7]"
                ]),
                "{imm}"
            );
            assert_eq!(
                routes(fen, imm),
                strs(&["a5xe5xe8xc8xc1", "a5xe5xe8xc8xc2", "a5xe5xe8xc8xc3"])
            );
            let def = rules(variant, CaptureRemoval::Deferred, mid);
            assert_eq!(
                moves(fen, def),
                strs(&["a5xa8[c5,d8,e7]", "a5xb8[c5,d8,e7]", "a5xc8[c5,d8,e7]"]),
                "{def}"
            );
        }
    }
}

/// With deferred removal a captured piece cannot be jumped a second time.
/// In the rectangle above, the clockwise route comes home to a1 over c1;
/// the captured a3 still stands (deferred) in front of it with a4..a8 free
/// behind. Jumping it again would make a fifth capture; it is not allowed,
/// and the dead piece blocks the file instead. (With immediate removal a3 is
/// simply gone.) Every legal move takes exactly the four pieces.
#[test]
fn a_captured_piece_is_never_jumped_twice() {
    for r in Rules::all() {
        let p = pos("W:WKa1:Ba3,c5,e3,Kc1", r);
        let list = legal_moves(&p);
        assert_eq!(list.len(), 3, "{r}");
        assert!(list.iter().all(|m| m.capture_count() == 4), "{r}");
        assert!(capture_routes(&p)
            .iter()
            .all(|route| route.landings.len() == 4));
    }
}

/// Mid-capture promotion false (text 000, default): a man that reaches the
/// far rank during a capture goes on capturing as a man (sideways along
/// that rank) and is crowned when the move ends there. Text 000: "A man may
/// reach the backrank in a capture next to an undefended opposing king. It
/// must then proceed to capture this king before it is crowned itself."
/// ```text
/// 8  . . . . B . . .      d6 x d8 (over d7), then as a man x f8 (over e8)
/// 7  . . . b . . . .
/// 6  . . . w . . . .
/// ```
/// With `true` (text 002) the man is a king on d8 and takes e8 flying: it
/// may land on f8, g8 or h8.
#[test]
fn mid_capture_promotion_next_to_a_king() {
    let fen = "W:Wd6:Bd7,Ke8";
    for variant in [Variant::Armenian, Variant::Turkish] {
        for removal in [CaptureRemoval::Immediate, CaptureRemoval::Deferred] {
            assert_eq!(
                moves(fen, rules(variant, removal, false)),
                strs(&["d6xf8[d7,e8]=K"])
            );
            assert_eq!(
                moves(fen, rules(variant, removal, true)),
                strs(&["d6xf8[d7,e8]=K", "d6xg8[d7,e8]=K", "d6xh8[d7,e8]=K"])
            );
        }
    }
}

/// The difference in length: the black man on g8 is two squares from d8.
/// A man on d8 cannot reach it (default: one piece, d6xd8, crowned at the
/// end); a king crowned on d8 flies along rank 8 and takes it (option true:
/// two pieces, ending on h8).
/// ```text
/// 8  . . . . . . b .
/// 7  . . . b . . . .
/// 6  . . . w . . . .
/// ```
#[test]
fn mid_capture_promotion_continues_as_a_flying_king() {
    let fen = "W:Wd6:Bd7,g8";
    assert_eq!(moves(fen, ARMENIAN), strs(&["d6xd8[d7]=K"]));
    let mid = rules(Variant::Armenian, CaptureRemoval::Immediate, true);
    assert_eq!(moves(fen, mid), strs(&["d6xh8[d7,g8]=K"]));
    assert_eq!(routes(fen, mid), strs(&["d6xd8xh8"]));
}

/// Tama's decision (docs/rules.md): the 180-degree ban holds across the
/// crowning. The man on d6 takes d7 and is crowned on d8 (option true); the
/// new king may not turn back down the d-file, although with d7 gone and d6
/// empty it would see the black man on d5 with d4 free. One piece only.
/// ```text
/// 8  . . . . . . . .
/// 7  . . . b . . . .
/// 6  . . . w . . . .
/// 5  . . . b . . . .
/// 4  . . . . . . . .
/// ```
#[test]
fn crowned_king_may_not_reverse_the_crowning_jump() {
    for r in Rules::all() {
        assert_eq!(moves("W:Wd6:Bd7,d5", r), strs(&["d6xd8[d7]=K"]), "{r}");
    }
}

/// A man can never reverse either: after jumping east it would need an
/// enemy on the square it just jumped (gone, or a captured piece that may
/// not be jumped twice). The man on d4 between c4 and e4 takes one or the
/// other, never both: after d4xf4 the square west of f4 (e4) holds no
/// piece it may take.
/// ```text
/// 4  . . b w b . . .
/// ```
#[test]
fn man_never_reverses() {
    for r in Rules::all() {
        assert_eq!(
            moves("W:Wd4:Bc4,e4", r),
            strs(&["d4xb4[c4]", "d4xf4[e4]"]),
            "{r}"
        );
    }
}

/// With `true`, a route that crosses the far rank ends crowned and one that
/// does not stays a man: the same from, to and captures cannot arise both
/// ways here, but both kinds of move exist side by side. White man b6 can
/// go b6xb8 (crowned, 1 piece) or b6xd6 (1 piece, still a man).
#[test]
fn crowned_and_uncrowned_captures_side_by_side() {
    let fen = "W:Wb6:Bb7,c6";
    for r in Rules::all() {
        assert_eq!(moves(fen, r), strs(&["b6xb8[b7]=K", "b6xd6[c6]"]), "{r}");
    }
}

// ---------------------------------------------------------------------------
// End of the game
// ---------------------------------------------------------------------------

/// No legal move = the side to move has lost: with no pieces at all, and
/// when every piece is blocked. Perft counts leaves at exactly the depth:
/// such a position adds nothing below it.
/// ```text
/// 8  B B . . . . . .
/// 7  w b b . . . . .      a7 cannot step (a8, b8 kings, b7 man), cannot
///                         jump b7 (c7 behind it) nor a8 (off the board)
/// ```
#[test]
fn no_legal_move_loses() {
    for r in Rules::all() {
        let blocked = pos("W:Wa7:BKa8,Kb8,b7,c7", r);
        assert_eq!(legal_moves(&blocked).len(), 0);
        assert_eq!(
            Game::new(blocked).status(),
            GameStatus::Won(crate::Color::Black)
        );
        assert_eq!(perft(&blocked, 1), 0);
        assert_eq!(perft(&blocked, 3), 0);

        let no_pieces = pos("B:Wd4:B", r);
        assert_eq!(
            Game::new(no_pieces).status(),
            GameStatus::Won(crate::Color::White)
        );

        // White's only move takes Black's last piece: one leaf at depth 1,
        // none at depth 2 (Black has lost, the tree stops).
        let last = pos("W:Wd6:Bd7", r);
        assert_eq!(perft(&last, 1), 1);
        assert_eq!(perft(&last, 2), 0);
        assert_eq!(perft_routes(&last, 2), 0);
    }
}
