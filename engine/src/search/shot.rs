//! Whether a forcing sacrifice can be a shot, read off the board without a
//! search (`sacrifice_exempt=3`).
//!
//! A shot gives a piece so that the forced capture opens a bigger capture
//! back, a crowning, or a second forcing sacrifice that does. Exempting
//! every forcing sacrifice from the reductions (`sacrifice_exempt=2`) sees
//! them all, but most forcing sacrifices in Armenian are plain losses of a
//! man, and searching each in full made the tree per depth 7.4 times
//! larger than without the exemption. The test below keeps the sacrifices
//! whose first exchange pays, or might pay when a second sacrifice follows;
//! the others are reduced and pruned like any quiet move.

use crate::bitboard::Bitboard;
use crate::movegen::{self, CaptureOutline, CapturesDue};
use crate::moves::MoveList;
use crate::position::Position;

/// What a king counts for when captures are weighed against each other: a
/// king in these games is worth about three men (the hand-written
/// evaluation's ratio).
const KING_WEIGHT: u32 = 3;

/// How the static shot test is set (`Tuning`).
#[derive(Clone, Copy, Debug)]
pub(super) struct ShotTest {
    /// A sacrificing side with a king always may have a shot: a king's
    /// captures back reach the whole board and are too varied to read.
    pub kings: bool,
    /// From this depth on, a sacrifice whose exchange does not pay passes
    /// when it is followed by a second forcing sacrifice that does (0: never).
    pub chain_depth: i32,
}

/// The weight of the pieces in `captured`, of which `kings` are kings.
#[inline(always)]
fn weight(captured: Bitboard, kings: Bitboard) -> u32 {
    captured.count() + (KING_WEIGHT - 1) * (captured & kings).count()
}

/// `child` follows a quiet move of the side that is now not to move.
/// Whether that move is a forcing sacrifice (the side to move has exactly
/// one legal move, a capture) that may be a shot at `depth`.
#[inline(always)]
pub(super) fn may_be_shot(child: &Position, depth: i32, test: ShotTest) -> bool {
    let chain = test.chain_depth > 0 && depth >= test.chain_depth;
    exchange_pays(child, test.kings, chain, 0)
}

/// The exchange after the sacrifice that led to `child`: the forced capture,
/// then the sacrificer's best answer. False when the capture is not forced.
/// Pays when the sacrificer has a king and `kings` is set, when the answer
/// takes back at least what was given (and `owed`, given by an earlier
/// sacrifice of the same combination), or when the sacrificer can crown;
/// with `chain`, also when the sacrificer has no capture but a second
/// forcing sacrifice whose capture back pays for both. Weighing the pair
/// as one combination, not each sacrifice alone, is what keeps the chain
/// cheap: most second sacrifices win back their own man only.
///
/// It runs for every late quiet move, and for every quiet move of a
/// chain, so it reads what it can off the whole board
/// (`movegen::captures_due`, `forced_capture`, `capture_outline`,
/// `quiet_promotion`) and lists moves only where the route search or the
/// chain needs them; the positions it makes are never looked up in the
/// table, so they go unhashed.
#[inline(always)]
fn exchange_pays(child: &Position, kings: bool, chain: bool, owed: u32) -> bool {
    // Most of the positions it is asked about have no capture: that is
    // read inline, and the same reading goes on to the forced capture.
    match movegen::captures_due(child) {
        None => false,
        Some(due) => forced_exchange_pays(child, due, kings, chain, owed),
    }
}

/// `exchange_pays` of `child`, whose side to move must capture (`due`).
fn forced_exchange_pays(
    child: &Position,
    due: CapturesDue,
    kings: bool,
    chain: bool,
    owed: u32,
) -> bool {
    let mut list = MoveList::new();
    let Some(reply) = movegen::forced_capture(child, due, &mut list) else {
        return false;
    };
    let sacrificer = child.side_to_move().opponent();
    if kings && child.kings(sacrificer).any() {
        return true;
    }
    let given = owed + weight(reply.captures, child.kings(sacrificer));
    let after = child.play_unhashed(&reply);
    let their_kings = after.kings(sacrificer.opponent());
    match movegen::capture_outline(&after) {
        // Single jumps take one piece each: a king's worth when one takes
        // a king.
        CaptureOutline::SingleJumps { victims, promotes } => {
            let best = match (victims & their_kings).any() {
                true => KING_WEIGHT,
                false => 1,
            };
            promotes || best >= given
        }
        CaptureOutline::None => {
            if movegen::quiet_promotion(&after) {
                return true;
            }
            if !chain {
                return false;
            }
            movegen::generate(&after, &mut list);
            second_sacrifice_pays(&after, &list, given)
        }
        // Captures the route search must list (the sacrificer's quiet
        // moves are `None`, kings or not).
        CaptureOutline::Routes => {
            movegen::generate(&after, &mut list);
            list.iter()
                .any(|m| m.promotes || weight(m.captures, their_kings) >= given)
        }
    }
}

/// Whether one of `quiets`, the quiet moves of the side to move in
/// `after`, is a forcing sacrifice whose exchange pays back `given` as
/// well as its own.
fn second_sacrifice_pays(after: &Position, quiets: &MoveList, given: u32) -> bool {
    // Most quiet moves leave the opponent nothing to capture, which
    // `exchange_pays` reads inline before anything else.
    quiets
        .iter()
        .any(|m| exchange_pays(&after.play_unhashed(m), false, false, given))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    const NO_KINGS: ShotTest = ShotTest {
        kings: false,
        chain_depth: 0,
    };
    const CHAIN_FROM_3: ShotTest = ShotTest {
        kings: true,
        chain_depth: 3,
    };

    /// The position after `mv` in `fen`, checked to be a forcing sacrifice
    /// (the opponent's one legal move is a capture), as `may_be_shot` wants.
    fn after(fen: &str, mv: &str) -> Position {
        let pos = Position::from_fen(fen, Rules::ARMENIAN).unwrap();
        let child = pos.play(&pos.parse_move(mv).unwrap());
        assert!(movegen::has_capture(&child) && movegen::count(&child) == 1);
        child
    }

    #[test]
    fn a_sacrifice_that_opens_a_bigger_capture_may_be_a_shot() {
        // The shot of search::tests: c4-c5 must be taken by c6xc4 (b5 and
        // d5 block each other), and then c3 takes four men. One for four.
        let child = after("W:Wc2,c3,c4,h2:Ba7,b5,c6,d5,e6,f7", "c4-c5");
        assert!(may_be_shot(&child, 1, NO_KINGS));
    }

    #[test]
    fn a_man_given_for_nothing_is_no_shot() {
        // d4-d5 must be taken by d6xd5 (landing on d4), and White then has
        // no capture (h2 is far) and no man near crowning: a man lost.
        let child = after("W:Wd4,h2:Bd6,h7", "d4-d5");
        assert!(!may_be_shot(&child, 1, NO_KINGS));
        assert!(!may_be_shot(&child, 9, CHAIN_FROM_3));
    }

    #[test]
    fn a_capture_back_that_crowns_pays_for_more_than_it_takes() {
        // Kf4-f7 gives the king: g7xf7 lands on e7 and stops (e5 blocks
        // the jump over e6). e6xe7 takes one man for the king, but lands
        // on e8 and crowns.
        let child = after("W:WKf4,e6,e5:Bg7,a6", "f4-f7");
        assert!(may_be_shot(&child, 1, NO_KINGS));
        // One rank lower the same capture back lands on e7: one man for a
        // king, no crown. Still a possible shot for a side with a king
        // when the kings rule is on.
        let lower = after("W:WKf3,e5,e4:Bg6,a7", "f3-f6");
        assert!(!may_be_shot(&lower, 1, NO_KINGS));
        assert!(may_be_shot(&lower, 1, CHAIN_FROM_3));
    }

    #[test]
    fn a_second_forcing_sacrifice_counts_from_the_chain_depth() {
        // h4-h5 gives a man for nothing (h6xh5 lands on h4, White has no
        // capture), but the position it leaves holds the four-man shot
        // c4-c5 (h4 changes nothing there): from depth 3 the pair passes.
        let child = after("W:Wc2,c3,c4,h2,h4:Ba7,b5,c6,d5,e6,f7,h6", "h4-h5");
        assert!(!may_be_shot(&child, 9, NO_KINGS));
        assert!(!may_be_shot(&child, 2, CHAIN_FROM_3));
        assert!(may_be_shot(&child, 3, CHAIN_FROM_3));
    }

    #[test]
    fn a_chain_must_pay_for_both_sacrifices() {
        // h4-h5 gives a man for nothing (h6xh5 lands on h4). Then g3-g4
        // is a second forcing sacrifice: h4xg4 lands on f4 and stops (f2
        // blocks the jump over f3), and f3xf4 takes one back. That pays
        // for the second man, not for both; no other quiet move of White
        // makes Black capture and win back anything.
        let child = after("W:Wh4,g3,f3,f2,a2:Bh6,a7", "h4-h5");
        assert!(!may_be_shot(&child, 9, CHAIN_FROM_3));
        // The second sacrifice alone is an even exchange, which passes.
        let second = after("W:Wg3,f3,f2,a2:Bh4,a7", "g3-g4");
        assert!(may_be_shot(&second, 1, NO_KINGS));
    }
}
