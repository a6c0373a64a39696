//! The end of the game: no legal move loses.

use super::pos;
use crate::movegen::legal_moves;
use crate::perft::{perft, perft_routes};
use crate::rules::Rules;
use crate::{Game, GameStatus};

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
