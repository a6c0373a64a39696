//! The rule options: when captured pieces leave the board, and mid-capture
//! promotion.

use super::{moves, pos, routes, rules, strs, ARMENIAN};
use crate::movegen::{capture_routes, legal_moves};
use crate::rules::{CaptureRemoval, Rules, Variant};

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
