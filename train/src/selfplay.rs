//! One self-play game for training data: Tama against itself at a fixed
//! node or depth budget, every searched position kept with the search's
//! score, unless a capture is due there (the score is then about the
//! capture, not the position) or the score is a mate (no evaluation should
//! chase it).
//!
//! The game ends as the rules say (no legal move, threefold repetition),
//! or is adjudicated: a win when two searches in a row (one each side) see
//! the same forced win; a draw after `no_progress_plies` plies without a
//! capture or a man moving forward, or at `max_plies`; with `tables`, by
//! the endgame databases' value of the first position they hold (kept,
//! with its search score, as any other: `tama train --egtb` then fits it
//! to that value), the moves from there to the end not played.

use crate::record::{Ending, GameRecord, GameResult, Record};
use std::sync::Arc;
use tama_engine::egtb::{Tablebase, Wdl};
use tama_engine::game::{Game, GameStatus};
use tama_engine::movegen;
use tama_engine::search::{Score, SearchControl, SearchLimits, Searcher};
use tama_engine::Color;

/// The self-play game loop of `tama datagen`: the settings of every game.
#[derive(Clone)]
pub struct SelfPlay {
    /// The search budget of every move (nodes or depth).
    pub limits: SearchLimits,
    /// A draw after this many plies without a capture or a man moving up.
    pub no_progress_plies: usize,
    /// A draw at this many plies.
    pub max_plies: usize,
    /// The endgame databases that adjudicate a game once it enters them.
    pub tables: Option<Arc<Tablebase>>,
}

impl SelfPlay {
    /// The default `no_progress_plies`.
    pub const NO_PROGRESS_PLIES: usize = 80;
    /// The default `max_plies`.
    pub const MAX_PLIES: usize = 400;

    /// Games at this search budget, with the default draw rules.
    pub fn new(limits: SearchLimits) -> SelfPlay {
        SelfPlay {
            limits,
            no_progress_plies: Self::NO_PROGRESS_PLIES,
            max_plies: Self::MAX_PLIES,
            tables: None,
        }
    }

    /// Plays `game` to its end. `first_ply`: how many plies into the game
    /// its current position stands (the opening's moves). `None` when
    /// `control` was stopped: the game is unfinished and worth nothing.
    pub fn play(
        &self,
        searcher: &mut Searcher,
        mut game: Game,
        first_ply: usize,
        control: &SearchControl,
    ) -> Option<GameRecord> {
        searcher.clear();
        let mut positions = Vec::new();
        // The winner the previous search saw a forced win for.
        let mut previous_mate: Option<Color> = None;
        let end = |result, ending, positions| {
            Some(GameRecord {
                result,
                ending,
                positions,
            })
        };
        let mut ply = first_ply;
        loop {
            match game.status() {
                GameStatus::Won(c) => {
                    return end(GameResult::win_for(c), Ending::NoMove, positions)
                }
                GameStatus::DrawByRepetition => {
                    return end(GameResult::Draw, Ending::Repetition, positions)
                }
                GameStatus::Ongoing => {}
            }
            if game.reversible_keys().len() > self.no_progress_plies {
                return end(GameResult::Draw, Ending::NoProgress, positions);
            }
            if ply >= self.max_plies {
                return end(GameResult::Draw, Ending::MaxLength, positions);
            }
            let pos = *game.position();
            let exact = self.tables.as_ref().and_then(|tb| tb.probe(&pos));
            let outcome = searcher.search(&game, &self.limits, control, &mut |_| {});
            if control.is_stopped() {
                return None;
            }
            let us = pos.side_to_move();
            match outcome.score {
                Some(Score::Mate(n)) => {
                    let winner = if n > 0 { us } else { us.opponent() };
                    if previous_mate == Some(winner) {
                        return end(GameResult::win_for(winner), Ending::Mate, positions);
                    }
                    previous_mate = Some(winner);
                }
                Some(Score::Cp(cp)) => {
                    previous_mate = None;
                    if !movegen::has_capture(&pos) {
                        positions.push(Record {
                            position: pos,
                            score: cp.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16,
                            ply: ply.min(u8::MAX as usize) as u8,
                        });
                    }
                }
                None => previous_mate = None,
            }
            if let Some(value) = exact {
                let result = match value.wdl {
                    Wdl::Win => GameResult::win_for(us),
                    Wdl::Loss => GameResult::win_for(us.opponent()),
                    Wdl::Draw => GameResult::Draw,
                };
                return end(result, Ending::Tables, positions);
            }
            let mv = outcome
                .best_move
                .expect("an ongoing game has a legal move, so the search returns one");
            game.play(mv);
            ply += 1;
        }
    }
}
