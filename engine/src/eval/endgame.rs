//! Endgame values the weights cannot express: material balances whose
//! result the endgame databases show is fixed, whatever the placement.
//!
//! One piece against one is a draw unless the side to move captures at
//! once (every two-piece table of both variants: no position lost, and
//! the longest win one ply). Capture is orthogonal only, so a lone piece
//! attacked along its rank or file steps off that line (a man forward or
//! sideways, a king anywhere) and is never caught; a king cannot stop a
//! lone man from crowning, and two kings make the same dance forever.
//! The weights score a king against a man as a win of two men or more,
//! which made the search trade into that draw from won positions and
//! refuse it, from drawn ones, for a line that loses.
//!
//! The search reaches a position with a capture to make through its
//! captures (quiescence never evaluates one), so the rule only answers
//! for positions where the side to move has nothing to take.

use crate::position::Position;
use crate::rules::Color;

/// Whether `pos` is a draw on material alone: one piece a side.
#[inline(always)]
pub fn known_draw(pos: &Position) -> bool {
    pos.occupied().count() == 2 && pos.pieces(Color::White).count() == 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn pos(fen: &str, rules: Rules) -> Position {
        Position::from_fen(fen, rules).unwrap()
    }

    #[test]
    fn one_piece_a_side_is_a_draw() {
        // 8  . . . . . . . .     A black king on a1 against a white man on
        // 5  . . . . w . . .     e5, Black to move: the king attacks along
        // 1  B . . . . . . .     a rank or file, the man steps off it and
        //                        crowns on e8; king against king, a draw.
        for rules in [Rules::ARMENIAN, Rules::TURKISH] {
            assert!(known_draw(&pos("B:We5:BKa1", rules)));
            assert!(known_draw(&pos("W:WKa1:BKh8", rules)));
            assert!(known_draw(&pos("W:Wc3:Bf6", rules)));
        }
    }

    #[test]
    fn more_than_one_piece_on_a_side_is_not_known() {
        // Two kings take a lone king (docs/endgame-figures.md: KKvK wins
        // from every position but a capture at once), and a king and a
        // man win against a lone man.
        for rules in [Rules::ARMENIAN, Rules::TURKISH] {
            assert!(!known_draw(&pos("W:WKa1,Kb1:BKh8", rules)));
            assert!(!known_draw(&pos("B:WKa1:BKh8,d4", rules)));
        }
    }
}
