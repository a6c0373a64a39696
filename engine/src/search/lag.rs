//! How much later than our own clock says the GUI's clock says we answer.
//!
//! Our clock runs from when `go` was read to when the search ends; the
//! GUI's from when it sent `go` to when it read the move. The difference
//! is the pipe, the scheduler and, on a busy machine, whole time slices in
//! which the engine did not run at all. The GUI tells us what it charged:
//! its next `go` in the same game gives the time left, which is the time
//! left before, plus the increment, less what it charged. The move
//! overhead then grows by the largest lag seen lately, so that a machine
//! that answers late is planned for instead of lost on.

use super::limits::SearchLimits;
use crate::game::Game;
use crate::rules::Color;
use std::time::Duration;

/// The learned lag never takes more than this: a GUI whose clock reports
/// are inconsistent (a clock set by hand between moves) must not leave the
/// engine playing instantly for the rest of the game.
pub const MAX_LAG: Duration = Duration::from_millis(1000);

/// One clock search, as the next one checks it against the GUI's report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ClockMove {
    side: Color,
    /// Plies of the game before the move (`Game::moves().len()`).
    plies: usize,
    /// Time left on our clock when the search was asked for.
    left: Duration,
    /// What the search took by our own clock.
    spent: Duration,
}

/// The answer lag learned from the GUI's clock reports.
#[derive(Clone, Debug, Default)]
pub struct AnswerLag {
    last: Option<ClockMove>,
    estimate: Duration,
}

impl AnswerLag {
    /// The lag to plan for now (added to the move overhead).
    pub fn estimate(&self) -> Duration {
        self.estimate
    }

    /// Forgets the last move (a new game): the estimate, a property of
    /// the machine, stays.
    pub fn new_game(&mut self) {
        self.last = None;
    }

    /// Before a search of `game` within `limits`: if the previous search was
    /// our move two plies ago in the same game on a clock, what the GUI
    /// charged for it beyond what we measured. A larger lag is taken at
    /// once; a smaller one lets the estimate decay by an eighth, so that
    /// one slow moment is planned for over the next twenty moves or so.
    pub fn observe(&mut self, game: &Game, limits: &SearchLimits) {
        let Some(last) = self.last.take() else {
            return;
        };
        let Some((side, left)) = clock_of(game, limits) else {
            return;
        };
        if side != last.side || game.moves().len() != last.plies + 2 {
            return;
        }
        let inc = limits.clock.increment[side as usize];
        // A new time period (`movestogo`) adds time: then the report says
        // nothing about the last move, and the subtraction fails.
        let Some(charged) = (last.left + inc).checked_sub(left) else {
            return;
        };
        let lag = charged.saturating_sub(last.spent).min(MAX_LAG);
        self.estimate = lag.max(self.estimate - self.estimate / 8);
    }

    /// After a search of `game` within `limits` that took `spent` by our
    /// clock: remembered if it was a clock search on our own time (not a
    /// ponder search, whose clock the GUI starts at the ponder hit).
    pub fn record(&mut self, game: &Game, limits: &SearchLimits, spent: Duration) {
        self.last = match clock_of(game, limits) {
            Some((side, left)) if !limits.ponder => Some(ClockMove {
                side,
                plies: game.moves().len(),
                left,
                spent,
            }),
            _ => None,
        };
    }
}

/// The side to move and its time left, when the search plays on a clock.
fn clock_of(game: &Game, limits: &SearchLimits) -> Option<(Color, Duration)> {
    if limits.infinite || limits.movetime.is_some() {
        return None;
    }
    let side = game.position().side_to_move();
    limits.clock.time[side as usize].map(|left| (side, left))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::legal_moves;
    use crate::position::Position;
    use crate::rules::Rules;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// The start position with `plies` moves played (the first legal move
    /// each time).
    fn game_after(plies: usize) -> Game {
        let mut game = Game::new(Position::startpos(Rules::default()));
        for _ in 0..plies {
            let mv = legal_moves(game.position())[0];
            game.play(mv);
        }
        game
    }

    fn clock(white_left: u64, inc: u64) -> SearchLimits {
        let mut l = SearchLimits::default();
        l.clock.time = [Some(ms(white_left)), Some(ms(white_left))];
        l.clock.increment = [ms(inc), ms(inc)];
        l
    }

    #[test]
    fn the_gui_charging_more_than_we_spent_is_learned() {
        let mut lag = AnswerLag::default();
        // White had 2000 ms, spent 100 ms by our clock; with the 20 ms
        // increment an honest GUI reports 1920 ms. It reports 1770: it
        // charged 250 ms, 150 more than we measured.
        lag.record(&game_after(0), &clock(2000, 20), ms(100));
        lag.observe(&game_after(2), &clock(1770, 20));
        assert_eq!(lag.estimate(), ms(150));
        // An honest report next: the estimate decays by an eighth.
        lag.record(&game_after(2), &clock(1770, 20), ms(100));
        lag.observe(&game_after(4), &clock(1690, 20));
        assert_eq!(lag.estimate(), ms(150) - ms(150) / 8);
    }

    #[test]
    fn reports_that_say_nothing_about_the_last_move_are_ignored() {
        // Another game (not two plies on), the other side, a new time
        // period (more time than before), a ponder search, a move time.
        let cases: [(Game, SearchLimits); 3] = [
            (game_after(3), clock(1000, 0)),
            (game_after(0), clock(1000, 0)),
            (game_after(1), clock(1000, 0)),
        ];
        for (game, limits) in cases {
            let mut lag = AnswerLag::default();
            lag.record(&game_after(0), &clock(2000, 0), ms(100));
            lag.observe(&game, &limits);
            assert_eq!(lag.estimate(), ms(0), "{:?}", game.moves().len());
        }
        let mut lag = AnswerLag::default();
        lag.record(&game_after(0), &clock(2000, 0), ms(100));
        lag.observe(&game_after(2), &clock(5000, 0));
        assert_eq!(lag.estimate(), ms(0), "a new period");
        let mut ponder = clock(2000, 0);
        ponder.ponder = true;
        lag.record(&game_after(0), &ponder, ms(100));
        lag.observe(&game_after(2), &clock(1000, 0));
        assert_eq!(lag.estimate(), ms(0), "a ponder search");
        let mut movetime = clock(2000, 0);
        movetime.movetime = Some(ms(100));
        lag.record(&game_after(0), &movetime, ms(100));
        lag.observe(&game_after(2), &clock(1000, 0));
        assert_eq!(lag.estimate(), ms(0), "a move time");
        lag.record(&game_after(0), &clock(2000, 0), ms(100));
        lag.new_game();
        lag.observe(&game_after(2), &clock(1000, 0));
        assert_eq!(lag.estimate(), ms(0), "a new game");
    }

    #[test]
    fn the_lag_is_capped() {
        let mut lag = AnswerLag::default();
        lag.record(&game_after(0), &clock(60_000, 0), ms(100));
        lag.observe(&game_after(2), &clock(10_000, 0));
        assert_eq!(lag.estimate(), MAX_LAG);
    }
}
