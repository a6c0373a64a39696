//! Running a match: the worker threads that play the games
//! (`-concurrency N`, each playing one game at a time) while the main
//! thread counts them (`collect`); the checks before the first game are
//! `prepare`'s. With `-resume` the games of the results file are counted
//! first and not played again.

use super::collect::{Done, Results};
use super::prepare::{header, open_pdn, prepare, resumed};
use crate::config::{Config, EngineSpec};
use crate::play::game;
use crate::schedule::shard::{self, ScheduleId};
use crate::schedule::{schedule, Job};
use crate::Console;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use tama_engine::notation::pdn::{today, GameRecord};
use tama_engine::openings::Opening;
use tama_os::signal;

/// Runs a configured match; returns the process exit status.
pub fn run(config: Config, console: &mut Console) -> i32 {
    signal::install();
    let openings = match prepare(&config) {
        Ok(p) => p,
        Err(e) => {
            errln!(console, "error: {e}");
            return 2;
        }
    };
    let all = schedule(&config, openings.len());
    let id = ScheduleId::of(&config, &openings, all.len());
    let jobs = match config.shard {
        None => all,
        Some(k) => shard::select(k, all),
    };
    if jobs.is_empty() {
        errln!(
            console,
            "error: shard {} has no games (the schedule has {} games)",
            config.shard.map_or(String::new(), |k| k.to_string()),
            id.games_total
        );
        return 2;
    }
    let played = match resumed(&config, &id, &jobs, console) {
        Ok(p) => p,
        Err(e) => {
            errln!(console, "error: {e}");
            return 2;
        }
    };
    let pdn_file = match open_pdn(&config) {
        Ok(f) => f,
        Err(e) => {
            errln!(console, "error: {e}");
            return 2;
        }
    };
    let total = jobs.len();
    let mut results = Results::new(&config, total, pdn_file, id);
    if !config.quiet {
        errln!(console, "{}", header(&config, total, openings.len()));
    }
    for (job, game) in &played {
        results.count(job, game.clone());
    }
    results.resumed = played.len();
    let done: std::collections::HashSet<String> =
        played.iter().map(|(_, g)| g.round.clone()).collect();
    let jobs: Vec<Job> = if results.sprt_decided(console) {
        Vec::new()
    } else {
        jobs.into_iter()
            .filter(|j| !done.contains(&j.round_tag()))
            .collect()
    };
    if config.resume && !config.quiet {
        errln!(
            console,
            "resuming: {} of the {total} games are in the results file; {} to play",
            played.len(),
            jobs.len()
        );
    }
    if jobs.is_empty() {
        return results.finish(console);
    }
    let config = Arc::new(config);
    let abort = Arc::new(AtomicBool::new(false));
    let (rx, workers) = start_workers(&config, Arc::new(openings), jobs, &abort);
    results.collect(&rx, &abort, console);
    for w in workers {
        let _ = w.join();
    }
    results.finish(console)
}

/// Starts the worker threads; each takes the next job from the queue until
/// the queue is empty or the match is aborted.
fn start_workers(
    config: &Arc<Config>,
    openings: Arc<Vec<Opening>>,
    jobs: Vec<Job>,
    abort: &Arc<AtomicBool>,
) -> (Receiver<Done>, Vec<JoinHandle<()>>) {
    let threads = config.concurrency.min(jobs.len().max(1));
    let queue = Arc::new(Mutex::new(jobs.into_iter().collect::<VecDeque<Job>>()));
    let (tx, rx) = mpsc::channel::<Done>();
    let date = today();
    let workers = (0..threads)
        .map(|_| {
            let (config, queue, abort, openings, tx, date) = (
                Arc::clone(config),
                Arc::clone(&queue),
                Arc::clone(abort),
                Arc::clone(&openings),
                tx.clone(),
                date.clone(),
            );
            std::thread::spawn(move || {
                work(&config, &queue, &abort, &openings, &tx, &date);
            })
        })
        .collect();
    (rx, workers)
}

/// One worker thread's loop.
fn work(
    config: &Config,
    queue: &Mutex<VecDeque<Job>>,
    abort: &AtomicBool,
    openings: &[Opening],
    tx: &Sender<Done>,
    date: &str,
) {
    while !abort.load(Ordering::Relaxed) {
        let job = match queue.lock() {
            Ok(mut q) => q.pop_front(),
            Err(_) => None,
        };
        let Some(job) = job else { break };
        let opening = &openings[job.opening];
        let specs = [&config.engines[job.white], &config.engines[job.black]];
        let msg = match game::play(config, specs, opening, abort) {
            None => Done::Aborted,
            Some(played) => {
                let record = game_record(config, &job, specs, opening, played, date);
                Done::Game(Box::new(job), Box::new(record))
            }
        };
        if tx.send(msg).is_err() {
            break;
        }
    }
}

/// A played game dressed for the PDN file.
fn game_record(
    config: &Config,
    job: &Job,
    specs: [&EngineSpec; 2],
    opening: &Opening,
    played: game::Played,
    date: &str,
) -> GameRecord {
    let tcs = (specs[0].tc.describe(), specs[1].tc.describe());
    GameRecord {
        event: config.event.clone(),
        date: date.to_string(),
        round: job.round_tag(),
        white: specs[0].command.name.clone(),
        black: specs[1].command.name.clone(),
        outcome: played.outcome,
        termination: played.termination,
        start: played.start,
        opening: opening.moves.clone(),
        moves: played.moves,
        time_control: if tcs.0 == tcs.1 {
            tcs.0
        } else {
            format!("{} / {}", tcs.0, tcs.1)
        },
    }
}
