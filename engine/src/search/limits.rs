//! What a search may spend: depth, nodes, time, or a clock.

use super::SearchOptions;
use crate::moves::Move;
use crate::rules::Color;
use std::time::{Duration, Instant};

/// Both players' clocks as a GUI reports them (`wtime btime winc binc movestogo`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left of White and Black (`None`: not given).
    pub time: [Option<Duration>; 2],
    /// Increment per move of White and Black.
    pub increment: [Duration; 2],
    /// Moves until the next time control (`None`: the rest of the game).
    pub moves_to_go: Option<u32>,
}

/// What may end a search: depth, nodes, a fixed time, the clock, or only
/// `stop`.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node limit (the main thread's count).
    pub nodes: Option<u64>,
    /// Think this long (less the move overhead), whatever the clock.
    pub movetime: Option<Duration>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Start as a ponder search (on the opponent's time) until `ponder_hit`.
    pub ponder: bool,
    /// The game clock, from which the search takes its share.
    pub clock: Clock,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Look for a win in at most this many moves (UCI `go mate N`): the
    /// search ends once one is proven shortest, or after iteration 2N+1
    /// (a win of 2N-1 plies is found by nominal depth 2N+1).
    pub mate: Option<u32>,
    /// An analysis rather than a move to play (UCI's `UCI_AnalyseMode`,
    /// Hub's `go analyze`): no contempt, a draw is 0.
    pub analysis: bool,
    /// When the command that asked for this search was read (`None`: when
    /// the search starts). The GUI's clock runs from when it sent the
    /// command, so ours runs from the earliest moment we know of: on a busy
    /// machine the hand-over from the input thread to the search thread can
    /// take milliseconds the GUI charges us for.
    pub received: Option<Instant>,
}

/// How long a search should think, measured from when its clock starts (the
/// start of the search, or the ponder hit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimeBudget {
    /// Where to stop starting new iterations (`None`: no time limit).
    pub soft: Option<Duration>,
    /// Never searched beyond, checked every few hundred microseconds.
    pub hard: Option<Duration>,
}

impl SearchLimits {
    /// Whether the search plays on the clock of `us` (not a move time, not
    /// infinite): the only searches the answer lag is learned from and
    /// planned for (`lag.rs`).
    pub fn on_clock(&self, us: Color) -> bool {
        !self.infinite && self.movetime.is_none() && self.clock.time[us as usize].is_some()
    }

    /// The contempt this search plays with: the option's, none in analysis.
    pub fn contempt(&self, options: &SearchOptions) -> i32 {
        if self.analysis {
            0
        } else {
            options.contempt
        }
    }
}

impl TimeBudget {
    /// After an iteration that ended `elapsed` into the search: whether to
    /// start another. A move time is used to the end; on a clock the next
    /// iteration takes a few times longer than this one, so none starts
    /// past half of the soft target, or past the whole target when the
    /// best move just changed.
    pub fn allows_next_iteration(&self, elapsed: Duration, best_changed: bool) -> bool {
        let Some(soft) = self.soft else {
            return true;
        };
        if self.hard == Some(soft) {
            return true;
        }
        elapsed < if best_changed { soft } else { soft / 2 }
    }
}

impl SearchLimits {
    /// The time budget for the side to move `us`, `overhead` kept back
    /// from the clock.
    ///
    /// - `movetime`: both soft and hard are the move time less the overhead.
    /// - clock: of the usable time (left less the overhead) aim at an even
    ///   share of the moves to go (25 when unknown) plus 3/4 of the
    ///   increment; never plan more than 80% of what is left, and cap the
    ///   hard limit at four times the target and at 90% of the usable time,
    ///   so the clock itself is never overrun.
    /// - infinite, or no time given: no limit.
    pub fn time_budget(&self, us: Color, overhead: Duration) -> TimeBudget {
        self.time_budget_with_lag(us, overhead, Duration::ZERO)
    }

    /// `time_budget` on top of which, on a clock only, `lag` is planned
    /// for: the answer lag learned from the GUI's reports (`lag.rs`). Every
    /// move still to play costs its thinking plus the lag, so the lag comes
    /// off each move's share, though never more than half of it (a lag the
    /// GUI really charges on every move is then paid for partly from the
    /// time left, which the next reports show); and it comes whole off
    /// the time this move may take at most, so that this move never
    /// overruns the clock. A move time is the GUI's own measure of the
    /// move and is never cut by a lag learned on a clock.
    pub fn time_budget_with_lag(&self, us: Color, overhead: Duration, lag: Duration) -> TimeBudget {
        let none = TimeBudget {
            soft: None,
            hard: None,
        };
        if self.infinite {
            return none;
        }
        let min = Duration::from_millis(1);
        if let Some(mt) = self.movetime {
            let t = mt.saturating_sub(overhead).max(min);
            return TimeBudget {
                soft: Some(t),
                hard: Some(t),
            };
        }
        let Some(left) = self.clock.time[us as usize] else {
            return none;
        };
        let inc = self.clock.increment[us as usize];
        let usable = left.saturating_sub(overhead).max(min);
        let mtg = self.clock.moves_to_go.unwrap_or(25).clamp(1, 50);
        let share = usable / mtg + inc * 3 / 4;
        let share = share - lag.min(share / 2);
        let this_move = usable.saturating_sub(lag).max(min);
        let soft = share.min(this_move * 4 / 5).max(min);
        let hard = (soft * 4).min(this_move * 9 / 10).max(soft).max(min);
        TimeBudget {
            soft: Some(soft),
            hard: Some(hard),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn movetime_less_overhead() {
        let o = SearchOptions::default();
        let l = SearchLimits {
            movetime: Some(ms(1000)),
            ..SearchLimits::default()
        };
        let b = l.time_budget(Color::White, o.move_overhead);
        assert_eq!(b.hard, Some(ms(1000) - o.move_overhead));
        assert_eq!(b.soft, b.hard);
    }

    #[test]
    fn clock_budget_stays_within_the_clock() {
        let o = SearchOptions::default();
        for left in [1u64, 10, 31, 50, 100, 1000, 60_000] {
            for inc in [0u64, 10, 1000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let l = SearchLimits {
                        clock: Clock {
                            time: [Some(ms(left)), Some(ms(5))],
                            increment: [ms(inc), ms(0)],
                            moves_to_go: mtg,
                        },
                        ..SearchLimits::default()
                    };
                    let b = l.time_budget(Color::White, o.move_overhead);
                    let (soft, hard) = (b.soft.unwrap(), b.hard.unwrap());
                    assert!(soft <= hard);
                    let usable = ms(left).saturating_sub(o.move_overhead).max(ms(1));
                    assert!(hard <= usable, "{left} {inc} {mtg:?}");
                }
            }
        }
    }

    /// 2+0.02 at the start (a share of 93 ms): a lag comes off each move's
    /// share up to half of it, and whole off the most this move may take;
    /// a move time is never cut by it.
    #[test]
    fn the_lag_comes_off_the_share_up_to_half_and_off_this_move_whole() {
        let overhead = ms(30);
        let clock = SearchLimits {
            clock: Clock {
                time: [Some(ms(2000)), Some(ms(2000))],
                increment: [ms(20), ms(20)],
                moves_to_go: None,
            },
            ..SearchLimits::default()
        };
        let plan = |lag| clock.time_budget_with_lag(Color::White, overhead, ms(lag));
        let none = plan(0);
        assert_eq!(none, clock.time_budget(Color::White, overhead));
        let share = ms(1970) / 25 + ms(15);
        assert_eq!(none.soft, Some(share));
        assert_eq!(plan(40).soft, Some(share - ms(40)));
        assert_eq!(plan(800).soft, Some(share - share / 2));
        assert_eq!(plan(1900).hard, Some((ms(1970) - ms(1900)) * 9 / 10));
        let movetime = SearchLimits {
            movetime: Some(ms(300)),
            ..clock.clone()
        };
        let b = movetime.time_budget_with_lag(Color::White, overhead, ms(800));
        assert_eq!(b.hard, Some(ms(270)));
    }

    #[test]
    fn infinite_and_plain_depth_have_no_time_limit() {
        let o = SearchOptions::default();
        let l = SearchLimits {
            infinite: true,
            movetime: Some(ms(5)),
            ..SearchLimits::default()
        };
        assert_eq!(l.time_budget(Color::White, o.move_overhead).hard, None);
        let l = SearchLimits {
            depth: Some(3),
            ..SearchLimits::default()
        };
        assert_eq!(l.time_budget(Color::Black, o.move_overhead).soft, None);
    }

    #[test]
    fn next_iteration_within_half_the_target_or_all_of_it_on_a_change() {
        let clock = TimeBudget {
            soft: Some(ms(100)),
            hard: Some(ms(400)),
        };
        assert!(clock.allows_next_iteration(ms(49), false));
        assert!(!clock.allows_next_iteration(ms(50), false));
        assert!(clock.allows_next_iteration(ms(99), true));
        assert!(!clock.allows_next_iteration(ms(100), true));
        let movetime = TimeBudget {
            soft: Some(ms(100)),
            hard: Some(ms(100)),
        };
        assert!(movetime.allows_next_iteration(ms(99), false));
        let none = TimeBudget {
            soft: None,
            hard: None,
        };
        assert!(none.allows_next_iteration(ms(1_000_000), false));
    }
}
