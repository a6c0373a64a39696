//! How much later than our own clock says the GUI's clock says we answer.
//!
//! Our clock runs from when `go` (or `ponderhit`) was read to when the
//! search ends; the GUI's from when it sent the line to when it read the
//! move. The difference is the pipe, the scheduler and, on a busy machine,
//! whole time slices in which the engine did not run at all. The GUI tells
//! us what it charged: its next `go` in the same game gives the time left,
//! which is the time left before, plus the increment, less what it
//! charged. A lag is planned for once it recurs: the estimate is the
//! second largest reading of the last `WINDOW` searches, so that one stall
//! (a page fault storm, a GUI busy saving a game) costs nothing, while a
//! machine or a GUI that is late move after move is planned for from its
//! second late move on. Every search, whatever its report, ages the window,
//! so a lag no longer seen is forgotten within `WINDOW` searches, pondering
//! or not, and never outlives a short stretch of `movetime` or analysis
//! searches either.

use super::limits::SearchLimits;
use crate::game::Game;
use crate::rules::Color;
use std::collections::VecDeque;
use std::time::Duration;

/// How many searches a reading is remembered for.
pub const WINDOW: usize = 8;

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
    /// One entry per search, the newest last: the lag the report it
    /// started with showed, `None` when that report said nothing.
    recent: VecDeque<Option<Duration>>,
}

impl AnswerLag {
    /// The lag to plan for now on a clock: the second largest reading of
    /// the window (none for fewer than two readings).
    pub fn estimate(&self) -> Duration {
        let mut readings: Vec<Duration> = self.recent.iter().flatten().copied().collect();
        readings.sort_unstable_by(|a, b| b.cmp(a));
        readings.get(1).copied().unwrap_or_default()
    }

    /// Forgets the last move (a new game): the readings, which belong to
    /// the machine and the GUI rather than to the game, stay until they
    /// age out of the window.
    pub fn new_game(&mut self) {
        self.last = None;
    }

    /// Before each search, of `game` within `limits`: one step of the
    /// window, with what the GUI charged for our previous move beyond what
    /// we measured, when the report is about it (our move two plies ago in
    /// the same game, on a clock).
    pub fn observe(&mut self, game: &Game, limits: &SearchLimits) {
        let reading = self.reading(game, limits);
        if self.recent.len() == WINDOW {
            self.recent.pop_front();
        }
        self.recent.push_back(reading);
    }

    fn reading(&mut self, game: &Game, limits: &SearchLimits) -> Option<Duration> {
        let last = self.last.take()?;
        let (side, left) = clock_of(game, limits)?;
        if side != last.side || game.moves().len() != last.plies + 2 {
            return None;
        }
        let inc = limits.clock.increment[side as usize];
        // A new time period (`movestogo`) adds time: then the report says
        // nothing about the last move, and the subtraction fails.
        let charged = (last.left + inc).checked_sub(left)?;
        Some(charged.saturating_sub(last.spent))
    }

    /// After a search of `game` within `limits` that took `spent` on our
    /// own clock (`None`: it never ran on it, a ponder search stopped
    /// before its hit): remembered if it was a clock search.
    pub fn record(&mut self, game: &Game, limits: &SearchLimits, spent: Option<Duration>) {
        self.last = match (clock_of(game, limits), spent) {
            (Some((side, left)), Some(spent)) => Some(ClockMove {
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
    let side = game.position().side_to_move();
    limits
        .on_clock(side)
        .then(|| limits.clock.time[side as usize])
        .flatten()
        .map(|left| (side, left))
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

    /// White's moves of one game: before each, the GUI's report after the
    /// previous one charged its 100 ms by our clock plus `late[i]`.
    fn play(lag: &mut AnswerLag, late: &[u64]) -> Vec<Duration> {
        let mut left = 60_000;
        let mut planned = Vec::new();
        for (i, extra) in late.iter().enumerate() {
            let (game, limits) = (game_after(2 * i), clock(left, 20));
            lag.observe(&game, &limits);
            planned.push(lag.estimate());
            lag.record(&game, &limits, Some(ms(100)));
            left = left + 20 - 100 - extra;
        }
        planned
    }

    #[test]
    fn one_late_move_is_not_planned_for_and_a_second_is() {
        let mut lag = AnswerLag::default();
        let planned = play(&mut lag, &[0, 800, 0, 0, 0, 150, 0, 0]);
        // The reading of move i comes with the report before move i + 1.
        assert_eq!(&planned[..6], &[ms(0); 6]);
        assert_eq!(&planned[6..], &[ms(150), ms(150)]);
    }

    #[test]
    fn a_gui_late_on_every_move_is_planned_for_from_its_second_late_move() {
        let mut lag = AnswerLag::default();
        let planned = play(&mut lag, &[40; 6]);
        assert_eq!(&planned[..2], &[ms(0), ms(0)]);
        assert_eq!(&planned[2..], &[ms(40); 4]);
    }

    #[test]
    fn every_search_ages_the_window_whatever_its_report() {
        let mut lag = AnswerLag::default();
        play(&mut lag, &[300, 300, 0]);
        assert_eq!(lag.estimate(), ms(300));
        // Searches with nothing to read (a move time, say) age the
        // window: the first 300 ms reading, of the second of the three
        // searches so far, leaves it at the seventh search after them.
        let mut movetime = clock(60_000, 0);
        movetime.movetime = Some(ms(100));
        let mut planned = Vec::new();
        for i in 0..WINDOW {
            lag.observe(&game_after(6 + 2 * i), &movetime);
            lag.record(&game_after(6 + 2 * i), &movetime, Some(ms(100)));
            planned.push(lag.estimate());
        }
        assert_eq!(&planned[..6], &[ms(300); 6], "{planned:?}");
        assert_eq!(&planned[6..], &[ms(0); WINDOW - 6], "{planned:?}");
    }

    #[test]
    fn reports_that_say_nothing_about_the_last_move_are_not_read() {
        // Another game (not two plies on), the other side, a new time
        // period (more time than before), a ponder search stopped before
        // its hit, a move time, a new game.
        let cases: [(Game, SearchLimits); 3] = [
            (game_after(3), clock(1000, 0)),
            (game_after(0), clock(1000, 0)),
            (game_after(1), clock(1000, 0)),
        ];
        for (game, limits) in cases {
            let mut lag = AnswerLag::default();
            lag.record(&game_after(0), &clock(2000, 0), Some(ms(100)));
            lag.observe(&game, &limits);
            assert_eq!(lag.recent, [None], "{:?}", game.moves().len());
        }
        let mut lag = AnswerLag::default();
        lag.record(&game_after(0), &clock(2000, 0), Some(ms(100)));
        lag.observe(&game_after(2), &clock(5000, 0));
        lag.record(&game_after(0), &clock(2000, 0), None);
        lag.observe(&game_after(2), &clock(1000, 0));
        let mut movetime = clock(2000, 0);
        movetime.movetime = Some(ms(100));
        lag.record(&game_after(0), &movetime, Some(ms(100)));
        lag.observe(&game_after(2), &clock(1000, 0));
        lag.record(&game_after(0), &clock(2000, 0), Some(ms(100)));
        lag.new_game();
        lag.observe(&game_after(2), &clock(1000, 0));
        assert_eq!(lag.recent, [None; 4]);
        // The same report after a recorded move is read.
        lag.record(&game_after(0), &clock(2000, 0), Some(ms(100)));
        lag.observe(&game_after(2), &clock(1000, 0));
        assert_eq!(lag.recent.back(), Some(&Some(ms(900))));
    }
}
