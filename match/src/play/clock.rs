//! Time controls and the clocks the runner keeps.
//!
//! `tc=40/60+0.6`: 40 moves in 60 s, 0.6 s added after each move, the 60 s
//! added again after every 40 moves; `tc=10+0.1`, `tc=1:30+1` (minutes:seconds),
//! `tc=inf`. `st=0.5`: a fixed time per move. `depth=N`, `nodes=N`: search
//! limits (with or without a clock).

use crate::client::GoLimits;
use crate::error::UsageError;
use std::time::Duration;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeControl {
    /// Moves per period (None: the whole game).
    pub moves: Option<u32>,
    /// Time per period.
    pub base: Option<Duration>,
    pub increment: Duration,
    /// Fixed time per move.
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

fn parse_secs(text: &str, what: &str) -> Result<Duration, UsageError> {
    let bad = || UsageError::from(format!("{what}: expected seconds, got {text:?}"));
    let secs = if let Some((m, s)) = text.split_once(':') {
        let m: f64 = m.parse().map_err(|_| bad())?;
        let s: f64 = s.parse().map_err(|_| bad())?;
        m * 60.0 + s
    } else {
        text.parse::<f64>().map_err(|_| bad())?
    };
    if !secs.is_finite() || !(0.0..=1e7).contains(&secs) {
        return Err(bad());
    }
    Ok(Duration::from_secs_f64(secs))
}

impl TimeControl {
    /// Parses the value of `tc=`.
    pub fn set_tc(&mut self, text: &str) -> Result<(), UsageError> {
        if text.eq_ignore_ascii_case("inf") || text.eq_ignore_ascii_case("infinite") {
            self.base = None;
            self.moves = None;
            self.increment = Duration::ZERO;
            return Ok(());
        }
        let (rest, moves) = match text.split_once('/') {
            Some((m, r)) => {
                let m: u32 = m
                    .parse()
                    .ok()
                    .filter(|&m| m > 0)
                    .ok_or_else(|| format!("tc: bad number of moves in {text:?}"))?;
                (r, Some(m))
            }
            None => (text, None),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        self.moves = moves;
        self.base = Some(parse_secs(base, "tc")?);
        self.increment = match inc {
            Some(i) => parse_secs(i, "tc increment")?,
            None => Duration::ZERO,
        };
        if self.base == Some(Duration::ZERO) && self.increment.is_zero() {
            return Err(format!("tc: {text:?} gives no time at all").into());
        }
        Ok(())
    }

    pub fn set_st(&mut self, text: &str) -> Result<(), UsageError> {
        let t = parse_secs(text, "st")?;
        if t.is_zero() {
            return Err("st: must be above zero".into());
        }
        self.movetime = Some(t);
        Ok(())
    }

    pub fn is_limited(&self) -> bool {
        self.base.is_some()
            || self.movetime.is_some()
            || self.depth.is_some()
            || self.nodes.is_some()
    }

    /// The most time, in seconds, this control gives one side for `moves`
    /// moves; None when it does not limit time (fixed depth or nodes).
    pub fn time_for_moves(&self, moves: u32) -> Option<f64> {
        if let Some(t) = self.movetime {
            return Some(t.as_secs_f64() * f64::from(moves));
        }
        let base = self.base?.as_secs_f64();
        let periods = self.moves.map_or(1, |m| moves.div_ceil(m).max(1));
        Some(base * f64::from(periods) + self.increment.as_secs_f64() * f64::from(moves))
    }

    /// For the PDN `TimeControl` tag and the tables.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(base) = self.base {
            let mut s = String::new();
            if let Some(m) = self.moves {
                s.push_str(&format!("{m}/"));
            }
            s.push_str(&fmt_secs(base));
            if !self.increment.is_zero() {
                s.push_str(&format!("+{}", fmt_secs(self.increment)));
            }
            parts.push(s);
        }
        if let Some(t) = self.movetime {
            parts.push(format!("st={}", fmt_secs(t)));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if parts.is_empty() {
            "-".into()
        } else {
            parts.join(" ")
        }
    }
}

fn fmt_secs(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// One player's clock during a game.
#[derive(Clone, Debug)]
pub struct Clock {
    pub tc: TimeControl,
    pub left: Option<Duration>,
    /// Moves this player has made.
    pub moves_made: u32,
}

/// What happened to the clock with one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spent {
    InTime,
    /// The move took longer than the time left plus the margin.
    Forfeit,
}

impl Clock {
    pub fn new(tc: &TimeControl) -> Clock {
        Clock {
            tc: tc.clone(),
            left: tc.base,
            moves_made: 0,
        }
    }

    pub fn moves_to_go(&self) -> Option<u32> {
        self.tc.moves.map(|m| m - self.moves_made % m)
    }

    /// How long the runner waits for this player's move before it sends
    /// `stop` (a hang timeout when nothing limits the time).
    pub fn allowance(&self, margin: Duration, hang_timeout: Duration) -> Duration {
        let mut t: Option<Duration> = None;
        if let Some(left) = self.left {
            t = Some(left + margin);
        }
        if let Some(mt) = self.tc.movetime {
            let m = mt + margin;
            t = Some(t.map_or(m, |x| x.min(m)));
        }
        t.unwrap_or(hang_timeout)
    }

    /// Charges a move that took `elapsed`.
    pub fn spend(&mut self, elapsed: Duration, margin: Duration) -> Spent {
        self.moves_made += 1;
        let mut verdict = Spent::InTime;
        if let Some(mt) = self.tc.movetime {
            if elapsed > mt + margin {
                verdict = Spent::Forfeit;
            }
        }
        if let Some(left) = self.left {
            if elapsed > left + margin {
                verdict = Spent::Forfeit;
                self.left = Some(Duration::ZERO);
            } else {
                let mut l = left.saturating_sub(elapsed) + self.tc.increment;
                if let (Some(m), Some(base)) = (self.tc.moves, self.tc.base) {
                    if self.moves_made.checked_rem(m) == Some(0) {
                        l += base;
                    }
                }
                self.left = Some(l);
            }
        }
        verdict
    }
}

/// The `go` limits for the side to move, given both clocks (White first).
pub fn go_limits(clocks: &[Clock; 2], mover: usize) -> GoLimits {
    let c = &clocks[mover];
    let time = match (clocks[0].left, clocks[1].left) {
        (Some(w), Some(b)) => Some([w, b]),
        // Only the mover has a clock: show the other with the same time.
        (Some(w), None) => Some([w, w]),
        (None, Some(b)) => Some([b, b]),
        (None, None) => None,
    };
    let time = if c.left.is_some() { time } else { None };
    GoLimits {
        time,
        increment: [clocks[0].tc.increment, clocks[1].tc.increment],
        moves_to_go: c.moves_to_go().filter(|_| c.left.is_some()),
        movetime: c.tc.movetime,
        depth: c.tc.depth,
        nodes: c.tc.nodes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_time_controls() {
        let mut tc = TimeControl::default();
        tc.set_tc("40/60+0.6").unwrap();
        assert_eq!(tc.moves, Some(40));
        assert_eq!(tc.base, Some(Duration::from_secs(60)));
        assert_eq!(tc.increment, Duration::from_millis(600));
        assert_eq!(tc.describe(), "40/60+0.6");
        tc.set_tc("1:30+1").unwrap();
        assert_eq!(tc.base, Some(Duration::from_secs(90)));
        assert_eq!(tc.moves, None);
        tc.set_tc("10").unwrap();
        assert_eq!(tc.increment, Duration::ZERO);
        for bad in ["", "x", "0/10", "10+y", "-5", "0", "nan", "1e99"] {
            assert!(TimeControl::default().set_tc(bad).is_err(), "{bad}");
        }
        let mut st = TimeControl::default();
        st.set_st("0.25").unwrap();
        assert_eq!(st.movetime, Some(Duration::from_millis(250)));
        assert_eq!(st.describe(), "st=0.25");
        assert!(st.set_st("0").is_err());
    }

    #[test]
    fn clock_increments_periods_and_forfeits() {
        let mut tc = TimeControl::default();
        tc.set_tc("2/10+1").unwrap();
        let margin = Duration::from_millis(50);
        let mut c = Clock::new(&tc);
        assert_eq!(c.moves_to_go(), Some(2));
        assert_eq!(c.spend(Duration::from_secs(3), margin), Spent::InTime);
        assert_eq!(c.left, Some(Duration::from_secs(8)));
        assert_eq!(c.moves_to_go(), Some(1));
        // Second move ends the period: the base time comes back.
        assert_eq!(c.spend(Duration::from_secs(4), margin), Spent::InTime);
        assert_eq!(c.left, Some(Duration::from_secs(15)));
        // Within the margin is still in time; beyond it is a forfeit.
        assert_eq!(
            c.spend(Duration::from_millis(15_040), margin),
            Spent::InTime
        );
        let mut c2 = c.clone();
        let left = c2.left.unwrap();
        assert_eq!(c2.spend(left + margin * 2, margin), Spent::Forfeit);
        let mut st = TimeControl::default();
        st.set_st("1").unwrap();
        let mut c = Clock::new(&st);
        assert_eq!(
            c.allowance(margin, Duration::from_secs(60)),
            Duration::from_millis(1050)
        );
        assert_eq!(c.spend(Duration::from_millis(1100), margin), Spent::Forfeit);
    }
}
