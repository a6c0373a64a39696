//! Endgame values the weights cannot express: material balances whose
//! result the endgame databases show is fixed, whatever the placement.
//!
//! One piece against one is a draw unless the side to move captures at
//! once (every two-piece table of both variants: no position lost, and
//! the longest win one ply). Capture is orthogonal only, so a lone piece
//! attacked along its rank or file steps off that line (a man forward or
//! sideways, a king anywhere) and is never caught; a king cannot stop a
//! lone man from crowning, and neither of two kings can force the other.
//! The weights score a king against a man as a win of two men or more,
//! which made the search trade into that draw from won positions and
//! refuse it, from drawn ones, for a line that loses.
//!
//! The search reaches a position with a capture to make through its
//! captures (quiescence never evaluates one), so the rule only answers
//! for positions where the side to move has nothing to take.
//!
//! More generally, a side left with a single piece never wins but by a
//! capture at once: in every table up to 4 pieces of both variants where
//! the lone piece is to move (KvKK, KvMM, KvKMM, KvMMM, ...) the longest
//! win is one ply, and where the other side is to move it loses nothing
//! (MMvK, MMMvK, KMvK, ...: no loss). To win, the lone piece would have
//! to take every enemy piece, and the pieces it threatens step off its
//! lines as a lone piece does. The weights, which count a king as
//! two and a half men, rate a king ahead of two or three men that in
//! truth draw or win; so a lone piece's score has a ceiling below 0,
//! lower for each enemy piece beyond the first, above which it keeps only
//! a share of what the weights give it.

use crate::position::Position;
use crate::rules::Color;

/// Whether `pos` is a draw on material alone: one piece a side.
#[inline(always)]
pub fn known_draw(pos: &Position) -> bool {
    pos.occupied().count() == 2 && pos.pieces(Color::White).count() == 1
}

/// The share (1/`LONE_SHARE`) a side with a single piece keeps of what
/// the weights give it above its ceiling (`lone_piece_scaled`): not
/// nothing, so that the search still tells a lone king's better squares
/// from its worse ones.
pub const LONE_SHARE: i32 = 8;

/// What each enemy piece beyond the first lowers a lone piece's ceiling,
/// centi-men: to draw it must take all but one of them, and the tables
/// show its chances fall with each (Armenian, the lone king to move:
/// KvMM draws 87% of positions, KvMMM 50%, KvMMMM 27%), while every
/// capture brings it nearer the drawn one against one.
pub const LONE_PER_PIECE: i32 = 50;

/// The most pieces on the board for which the lone-piece rule applies:
/// what the tables cover.
pub const LONE_MAX_PIECES: u32 = 5;

/// White's score `white` (centi-men) as a side with a single piece can
/// hope for, with at most `LONE_MAX_PIECES` on the board. Its ceiling is
/// `LONE_PER_PIECE` below 0 for each enemy piece beyond the first; of
/// what the weights give it above that it keeps 1/`LONE_SHARE` (rounded
/// down from its side, so colour-symmetric). A score already below the
/// ceiling is the weights': they know then that the lone piece is lost,
/// and a search through a big capture is left as it was.
#[inline(always)]
pub fn lone_piece_scaled(pos: &Position, white: i32) -> i32 {
    if !lone_piece_rule_applies(pos) {
        return white;
    }
    let (w, b) = (
        pos.pieces(Color::White).count() as i32,
        pos.pieces(Color::Black).count() as i32,
    );
    let capped = |lone: i32, others: i32| {
        let ceiling = -LONE_PER_PIECE * (others - 1);
        if lone > ceiling {
            ceiling + (lone - ceiling) / LONE_SHARE
        } else {
            lone
        }
    };
    // The rule applies: one side has the single piece, the other more.
    if w == 1 {
        capped(white, b)
    } else {
        -capped(-white, w)
    }
}

/// Whether `lone_piece_scaled` may change the score of `pos`: at most
/// `LONE_MAX_PIECES` on the board, one side with a single piece and the
/// other with more.
#[inline(always)]
pub fn lone_piece_rule_applies(pos: &Position) -> bool {
    let pieces = pos.occupied().count();
    let w = pos.pieces(Color::White).count();
    pieces <= LONE_MAX_PIECES && pieces > 2 && (w == 1 || w == pieces - 1)
}

/// Whether the score of `pos` is not the weights' alone (a known draw,
/// or the lone-piece rule): such positions teach the weights nothing, and
/// the trainer leaves them out.
#[inline(always)]
pub fn overrides_the_weights(pos: &Position) -> bool {
    known_draw(pos) || lone_piece_rule_applies(pos)
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
    fn a_lone_piece_keeps_little_above_its_ceiling() {
        // 5  . b . . . b . .     A white king against three black men on
        // 1  K . . . . . . .     b5, f5, h5 (Black moves down): the king
        //                        takes one man at a time at most, the
        // others crown. Its ceiling is two men beyond the first below 0;
        // of the weights' +80 above it, it keeps an eighth. A score below
        // the ceiling stays.
        let ceiling = -2 * LONE_PER_PIECE;
        let cut = ceiling + (80 - ceiling) / LONE_SHARE;
        let p = pos("W:WKa1:Bb5,f5,h5", Rules::ARMENIAN);
        assert_eq!(lone_piece_scaled(&p, 80), cut);
        assert_eq!(lone_piece_scaled(&p, ceiling - 1), ceiling - 1);
        let p = pos("B:WKa1:Bb5,f5,h5", Rules::ARMENIAN);
        assert_eq!(lone_piece_scaled(&p, 80), cut);
        // With two pieces a side the score is the weights'.
        let p = pos("W:WKa1,c3:Bb5,f5", Rules::ARMENIAN);
        assert_eq!(lone_piece_scaled(&p, 80), 80);
        // The colours swapped: the same for Black.
        let p = pos("B:Wb4,f4,h4:BKa8", Rules::TURKISH);
        assert_eq!(lone_piece_scaled(&p, -80), -cut);
        assert_eq!(lone_piece_scaled(&p, 1 - ceiling), 1 - ceiling);
        // Beyond the tables' pieces the weights decide alone.
        let p = pos("W:WKa1:Bb5,c5,d5,f5,h5", Rules::ARMENIAN);
        assert_eq!(lone_piece_scaled(&p, 80), 80);
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
