//! `Game`: a position with its history, so that the end of the game (no
//! legal move, threefold repetition) can be told.

use crate::movegen;
use crate::moves::Move;
use crate::notation::MoveError;
use crate::position::Position;
use crate::rules::Color;

/// Whether the game goes on, and how it ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameStatus {
    /// The side to move has a legal move, and the current position has not
    /// occurred three times.
    Ongoing,
    /// The side to move has no legal move: the other side has won.
    Won(Color),
    /// The current position (same side to move) has occurred three times.
    DrawByRepetition,
}

/// A game: where it started, the moves since and the positions that may still
/// repeat.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    current: Position,
    moves: Vec<Move>,
    /// Keys of every position since the last irreversible move (see
    /// `Position::is_reversible`), the current one last: only these can
    /// repeat.
    reversible_keys: Vec<u64>,
}

impl Game {
    /// A game from `start`, no move played.
    pub fn new(start: Position) -> Game {
        Game {
            start,
            current: start,
            moves: Vec::new(),
            reversible_keys: vec![start.key()],
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.current
    }

    /// The moves played since the start, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Keys since the last irreversible move, the current position last.
    pub fn reversible_keys(&self) -> &[u64] {
        &self.reversible_keys
    }

    /// Plays a move that must be legal in the current position.
    pub fn play(&mut self, mv: Move) {
        let irreversible = !self.current.is_reversible(&mv);
        self.current.make_move(&mv);
        self.moves.push(mv);
        if irreversible {
            self.reversible_keys.clear();
        }
        self.reversible_keys.push(self.current.key());
    }

    /// Parses `text` against the current position and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        let mv = self.current.parse_move(text)?;
        self.play(mv);
        Ok(mv)
    }

    /// How many times the current position has occurred (1 = first time).
    pub fn repetitions(&self) -> usize {
        let key = self.current.key();
        self.reversible_keys.iter().filter(|&&k| k == key).count()
    }

    /// Won (no legal move for the side to move), drawn by threefold repetition,
    /// or going on.
    pub fn status(&self) -> GameStatus {
        if movegen::count(&self.current) == 0 {
            GameStatus::Won(self.current.side_to_move().opponent())
        } else if self.repetitions() >= 3 {
            GameStatus::DrawByRepetition
        } else {
            GameStatus::Ongoing
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn threefold_repetition_with_kings() {
        // Two kings shuffle back and forth: the start position recurs after
        // every four plies, so it has occurred three times after eight.
        let start = Position::from_fen("W:WKa1:BKh8", Rules::default()).unwrap();
        let mut game = Game::new(start);
        for round in 0..2 {
            for m in ["a1-a2", "h8-h7", "a2-a1", "h7-h8"] {
                assert_eq!(game.status(), GameStatus::Ongoing, "round {round} {m}");
                game.play_text(m).unwrap();
            }
        }
        assert_eq!(game.repetitions(), 3);
        assert_eq!(game.status(), GameStatus::DrawByRepetition);
    }

    #[test]
    fn man_move_resets_repetition_history() {
        let start = Position::from_fen("W:WKa1,c2:BKh8,f7", Rules::default()).unwrap();
        let mut game = Game::new(start);
        game.play_text("c2-c3").unwrap();
        assert_eq!(game.reversible_keys().len(), 1);
        game.play_text("h8-h7").unwrap();
        assert_eq!(game.reversible_keys().len(), 2);
    }

    #[test]
    fn sideways_man_moves_can_repeat_the_position() {
        // A man's sideways step is reversible: shuffling d4-e4-d4 against a
        // king going h8-h7-h8 repeats the start position.
        let start = Position::from_fen("W:Wd4:BKh8", Rules::default()).unwrap();
        let mut game = Game::new(start);
        for m in [
            "d4-e4", "h8-h7", "e4-d4", "h7-h8", "d4-e4", "h8-h7", "e4-d4",
        ] {
            assert_eq!(game.status(), GameStatus::Ongoing, "{m}");
            game.play_text(m).unwrap();
        }
        assert_eq!(game.repetitions(), 2);
        game.play_text("h7-h8").unwrap();
        assert_eq!(game.repetitions(), 3);
        assert_eq!(game.status(), GameStatus::DrawByRepetition);
        // A step forward can never be taken back: the history restarts.
        game.play_text("d4-d5").unwrap();
        assert_eq!(game.reversible_keys().len(), 1);
    }

    #[test]
    fn same_placement_with_the_other_side_to_move_is_not_a_repetition() {
        // Kings a1 and h8 come back with Black to move: a different position.
        let start = Position::from_fen("W:WKa1:BKh8", Rules::default()).unwrap();
        let mut game = Game::new(start);
        for m in ["a1-a2", "h8-h7", "a2-a3", "h7-h8", "a3-a1"] {
            game.play_text(m).unwrap();
        }
        // Same pieces as the start, but Black to move.
        assert_eq!(game.position().fen(), "B:WKa1:BKh8");
        assert_eq!(game.repetitions(), 1);
    }

    #[test]
    fn no_legal_move_loses() {
        // Black's only man on a2... is White's turn: white has no pieces at all.
        let pos = Position::from_fen("W:W:Ba7", Rules::default()).unwrap();
        assert_eq!(Game::new(pos).status(), GameStatus::Won(Color::Black));
        // White man a7 blocked: a8 is black king, b8 black, b7 black with c7
        // black behind (no capture east), so no step and no jump.
        let pos = Position::from_fen("W:Wa7:BKa8,Kb8,b7,c7", Rules::default()).unwrap();
        assert_eq!(Game::new(pos).status(), GameStatus::Won(Color::Black));
    }
}
