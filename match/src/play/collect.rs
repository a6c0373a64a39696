//! The main thread's side of a running match: each finished game counted,
//! written to the PDN and the results file and reported on the progress
//! line; the stop on an SPRT decision, Ctrl-C or SIGTERM; the tables at
//! the end.

use crate::config::Config;
use crate::output::report::generic_reason;
use crate::schedule::shard::ScheduleId;
use crate::schedule::{pairings, Job, PairKey};
use crate::stats::elo::fmt_elo;
use crate::stats::sprt::SprtDecision;
use crate::stats::tally::{GameEntry, Summary};
use crate::Console;
use std::collections::HashMap;
use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};
use tama_engine::notation::pdn::{GameRecord, Outcome};
use tama_engine::Color;
use tama_os::signal;

/// What the workers send back.
pub(super) enum Done {
    Game(Box<Job>, Box<GameRecord>),
    Aborted,
}

/// The main thread's side of a running match: the counts so far.
pub(super) struct Results {
    pub(super) config_quiet: bool,
    pub(super) results_path: Option<std::path::PathBuf>,
    pub(super) names: Vec<String>,
    pub(super) summary: Summary,
    pub(super) pdn_file: Option<File>,
    /// Pair results waiting for their partner game: the points of the
    /// pairing's first engine in the game that finished first.
    pub(super) half_pairs: HashMap<PairKey, u32>,
    pub(super) done: usize,
    /// Of `done`, the games counted from the results file (`-resume`).
    pub(super) resumed: usize,
    pub(super) total: usize,
    pub(super) started: Instant,
    /// Why the match stops before its last game (Ctrl-C, SPRT decision).
    pub(super) stop_reason: Option<String>,
}

impl Results {
    pub(super) fn new(
        config: &Config,
        total: usize,
        pdn_file: Option<File>,
        id: ScheduleId,
    ) -> Results {
        let names: Vec<String> = config
            .engines
            .iter()
            .map(|e| e.command.name.clone())
            .collect();
        let mut summary = Summary {
            event: config.event.clone(),
            rules: config.rules.to_string(),
            engines: names.clone(),
            sprt: config.sprt,
            paired: config.repeat,
            schedule: Some(id),
            shard: config.shard,
            ..Summary::default()
        };
        // Every pairing gets its table entry, in schedule order, before any
        // game finishes (the first one is the head-to-head line).
        for (a, b) in pairings(names.len(), config.tournament) {
            summary.pair_mut(&names[a], &names[b]);
        }
        Results {
            config_quiet: config.quiet,
            results_path: config.results.clone(),
            names,
            summary,
            pdn_file,
            half_pairs: HashMap::new(),
            done: 0,
            resumed: 0,
            total,
            started: Instant::now(),
            stop_reason: None,
        }
    }

    /// Counts games as they finish until every worker has ended, writing
    /// the results file after each; watches for Ctrl-C, SIGTERM and the
    /// SPRT decision, which abort the games in progress.
    pub(super) fn collect(
        &mut self,
        rx: &Receiver<Done>,
        abort: &AtomicBool,
        console: &mut Console,
    ) {
        loop {
            self.notice_signal(abort, console);
            let (job, record) = match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(Done::Game(j, r)) => (j, r),
                Ok(Done::Aborted) | Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            // A game that ends after the signal may have ended by it (a job
            // system signals the engines too): not counted, like the games
            // aborted; `-resume` plays it again.
            if self.notice_signal(abort, console) {
                continue;
            }
            self.write_pdn(&record, console);
            self.count(&job, entry(&job, &record, &self.names));
            self.save_progress(console);
            if !self.config_quiet {
                errln!(console, "{}", self.progress_line(&job, &record));
            }
            if self.sprt_decided(console) {
                abort.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Whether Ctrl-C or SIGTERM has arrived; the first time, stops the
    /// games in progress.
    fn notice_signal(&mut self, abort: &AtomicBool, console: &mut Console) -> bool {
        if !signal::interrupted() {
            return false;
        }
        if !self.summary.interrupted {
            self.stop_reason = Some("interrupted".into());
            self.summary.interrupted = true;
            abort.store(true, Ordering::Relaxed);
            signal::restore_default();
            errln!(
                console,
                "interrupted ({}): stopping the games in progress; writing the results",
                signal::received().unwrap_or("signal")
            );
        }
        true
    }

    /// Writes the results file of the games so far, marked interrupted
    /// (which it is, should the runner die now), so that no game is lost
    /// on a crash, a SIGKILL or a lost machine.
    fn save_progress(&self, console: &mut Console) {
        let Some(path) = &self.results_path else {
            return;
        };
        let mut file = self.summary.to_results();
        file.interrupted = true;
        if let Err(e) = file.write(path) {
            errln!(console, "warning: {e}");
        }
    }

    /// Appends the game to the PDN file at once, so that nothing is lost
    /// on a crash or Ctrl-C.
    fn write_pdn(&mut self, record: &GameRecord, console: &mut Console) {
        if let Some(f) = self.pdn_file.as_mut() {
            let ok = f
                .write_all(record.to_pdn().as_bytes())
                .and_then(|_| f.flush());
            if let Err(e) = ok {
                errln!(console, "warning: cannot write the PDN file: {e}");
            }
        }
    }

    /// Adds a finished game to the pair's counts, its opening pair (when
    /// both games are in), the termination counts and the list of games.
    pub(super) fn count(&mut self, job: &Job, game: GameEntry) {
        self.done += 1;
        let (w, b) = (&self.names[job.white], &self.names[job.black]);
        let (pair, flipped) = self.summary.pair_mut(w, b);
        let wp = Outcome::parse(&game.result)
            .expect("a result the runner wrote, or checked when resuming")
            .points(Color::White);
        let pts = if flipped { 2 - wp } else { wp };
        match pts {
            2 => pair.wdl.wins += 1,
            1 => pair.wdl.draws += 1,
            _ => pair.wdl.losses += 1,
        }
        if let Some(key) = job.pair {
            // Points of the pairing's first engine in this game.
            let first_pts = if job.white == key.first { wp } else { 2 - wp };
            if let Some(other) = self.half_pairs.remove(&key) {
                // The stored pair is (first, second) of the pairing unless
                // its table entry was made the other way round.
                if pair.first == self.names[key.first] {
                    pair.penta.add_pair(other, first_pts);
                } else {
                    pair.penta.add_pair(2 - other, 2 - first_pts);
                }
            } else {
                self.half_pairs.insert(key, first_pts);
            }
        }
        *self
            .summary
            .terminations
            .entry(generic_reason(&game.termination))
            .or_default() += 1;
        self.summary.games.push(game);
    }

    /// The stderr line after each game: the game, then the head-to-head
    /// counts of the first pairing, the SPRT state and the time left.
    fn progress_line(&self, job: &Job, record: &GameRecord) -> String {
        let (w, b) = (&self.names[job.white], &self.names[job.black]);
        let (done, total) = (self.done, self.total);
        let elapsed = self.started.elapsed().as_secs_f64();
        let eta = elapsed / (done - self.resumed) as f64 * (total - done) as f64;
        let head = &self.summary.pairs[0];
        let hw = head.wdl;
        // The error bar of the samples the SPRT reads: pairs with -repeat.
        let elo = if self.summary.paired && head.penta.pairs() > 0 {
            format!("Elo {} (pairs)", fmt_elo(head.penta.elo()))
        } else {
            format!("Elo {}", fmt_elo(hw.elo()))
        };
        let sprt = match (self.summary.sprt, self.summary.sprt_state()) {
            (Some(s), Some(st)) => format!(
                " LLR {:.2} [{:.2}, {:.2}] {}",
                st.llr,
                s.lower_bound(),
                s.upper_bound(),
                st.model.name()
            ),
            _ => String::new(),
        };
        format!(
            "[{done}/{total}] round {} {w} vs {b}: {} ({}) | {} vs {}: +{} ={} -{} [{:.3}] {elo}{sprt} | ETA {}",
            record.round,
            record.outcome.pdn(),
            record.termination,
            head.first,
            head.second,
            hw.wins,
            hw.draws,
            hw.losses,
            hw.score().unwrap_or(0.0),
            fmt_duration(eta)
        )
    }

    /// Whether the SPRT has just reached a decision (the match then stops).
    pub(super) fn sprt_decided(&mut self, console: &mut Console) -> bool {
        let Some(st) = self.summary.sprt_state() else {
            return false;
        };
        let (llr, d) = (st.llr, st.decision);
        if d == SprtDecision::Continue || self.stop_reason.is_some() {
            return false;
        }
        let what = if d == SprtDecision::H1 { "H1" } else { "H0" };
        self.stop_reason = Some(format!("SPRT: {what} accepted (LLR {llr:.3})"));
        if !self.config_quiet {
            errln!(
                console,
                "SPRT decided: {what} accepted (LLR {llr:.3}); stopping"
            );
        }
        true
    }

    /// Prints the tables, writes the results file; the exit status.
    pub(super) fn finish(&self, console: &mut Console) -> i32 {
        outln!(console, "{}", self.summary.table());
        if let Some(path) = &self.results_path {
            if let Err(e) = self.summary.write_results(path) {
                errln!(console, "error: {e}");
                return 1;
            }
        }
        if self.summary.interrupted {
            signal::exit_status()
        } else {
            0
        }
    }
}

/// A finished game as the results file lists it.
pub(super) fn entry(job: &Job, record: &GameRecord, names: &[String]) -> GameEntry {
    GameEntry {
        round: record.round.clone(),
        white: names[job.white].clone(),
        black: names[job.black].clone(),
        result: record.outcome.pdn().to_string(),
        termination: record.termination.clone(),
        plies: record.moves.len() as u64,
    }
}

/// "12m05s"-style duration for the progress line.
pub fn fmt_duration(secs: f64) -> String {
    if !secs.is_finite() || secs < 0.0 {
        return "?".into();
    }
    let s = secs.round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    } else if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}
