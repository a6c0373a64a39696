//! Running a match: checks before the first game, the worker threads that
//! play the games (`-concurrency N`, each playing one game at a time), and
//! the main thread that counts each finished game, writes it to the PDN and
//! the results file, prints the progress line, stops on an SPRT decision,
//! Ctrl-C or SIGTERM, and prints the tables at the end. With `-resume` the
//! games of the results file are counted first and not played again.

use super::client::{Engine, Timeouts};
use super::config::{Config, EngineSpec};
use super::elo::fmt_elo;
use super::game;
use super::report::generic_reason;
use super::resume;
use super::schedule::{load_openings, pairings, schedule, Job, PairKey};
use super::shard::{self, ScheduleId};
use super::sprt::SprtDecision;
use super::tally::{GameEntry, Summary};
use std::collections::{HashMap, VecDeque};
use std::fs::File;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tama_engine::notation::pdn::{today, GameRecord, Outcome};
use tama_engine::openings::Opening;
use tama_engine::Color;
use tama_os::signal;

/// What the workers send back.
enum Done {
    Game(Box<Job>, Box<GameRecord>),
    Aborted,
}

/// Runs a configured match; returns the process exit status.
pub fn run(config: Config) -> i32 {
    signal::install();
    let openings = match prepare(&config) {
        Ok(p) => p,
        Err(e) => {
            errln!("error: {e}");
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
            "error: shard {} has no games (the schedule has {} games)",
            config.shard.map_or(String::new(), |k| k.to_string()),
            id.games_total
        );
        return 2;
    }
    let played = match resumed(&config, &id, &jobs) {
        Ok(p) => p,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    let pdn_file = match open_pdn(&config) {
        Ok(f) => f,
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    let total = jobs.len();
    let mut results = Results::new(&config, total, pdn_file, id);
    if !config.quiet {
        errln!("{}", header(&config, total, openings.len()));
    }
    for (job, game) in &played {
        results.count(job, game.clone());
    }
    results.resumed = played.len();
    let done: std::collections::HashSet<String> =
        played.iter().map(|(_, g)| g.round.clone()).collect();
    let jobs: Vec<Job> = if results.sprt_decided() {
        Vec::new()
    } else {
        jobs.into_iter()
            .filter(|j| !done.contains(&j.round_tag()))
            .collect()
    };
    if config.resume && !config.quiet {
        errln!(
            "resuming: {} of the {total} games are in the results file; {} to play",
            played.len(),
            jobs.len()
        );
    }
    if jobs.is_empty() {
        return results.finish();
    }
    let config = Arc::new(config);
    let abort = Arc::new(AtomicBool::new(false));
    let (rx, workers) = start_workers(&config, Arc::new(openings), jobs, &abort);
    results.collect(&rx, &abort);
    for w in workers {
        let _ = w.join();
    }
    results.finish()
}

/// What is about to be played, printed before the first game: the match,
/// the shard, the time it should take, the SPRT settings and model.
fn header(config: &Config, games: usize, openings: usize) -> String {
    let mut s = format!(
        "{}: {} engines, {} games, {} openings, {}",
        config.event,
        config.engines.len(),
        games,
        openings,
        config.rules
    );
    if let Some(k) = config.shard {
        s += &format!(" (shard {k} of the match)");
    }
    s += &format!("\n{}", estimate(config, games));
    if let Some(sp) = config.sprt {
        let model = if config.repeat {
            "pentanomial model: the opening pairs are the samples"
        } else {
            "trinomial model: games are not paired (-repeat pairs them)"
        };
        s += &format!(
            "\nSPRT {} (bounds {:.3}, {:.3}), {model}",
            sp.describe(),
            sp.lower_bound(),
            sp.upper_bound()
        );
    }
    s
}

/// The expected duration: each game as long as both clocks allow over
/// `ESTIMATE_MOVES` moves of each side (engines use most of their time),
/// `concurrency` games at once. Fixed depth or nodes has no time to go by.
fn estimate(config: &Config, games: usize) -> String {
    let moves = config
        .adjudication
        .maxmoves
        .map_or(ESTIMATE_MOVES, |m| m.min(ESTIMATE_MOVES));
    let per_side: Option<Vec<f64>> = config
        .engines
        .iter()
        .map(|e| e.tc.time_for_moves(moves))
        .collect();
    let Some(per_side) = per_side else {
        return format!(
            "time estimate: none (an engine has no clock, only depth or nodes); {games} games"
        );
    };
    // A game is played by two of the engines: the mean pair of them.
    let mean = per_side.iter().sum::<f64>() / per_side.len() as f64;
    let game = 2.0 * mean;
    let waves = games.div_ceil(config.concurrency.min(games).max(1));
    format!(
        "time estimate: about {} ({games} games of at most {} each, assuming {moves} moves \
         per side, {} at once)",
        fmt_duration(game * waves as f64),
        fmt_duration(game),
        config.concurrency
    )
}

/// Moves of each side a game is assumed to last, for the time estimate.
const ESTIMATE_MOVES: u32 = 60;

/// Everything that can be checked before the first game: the engines'
/// programs exist and start with their options, the openings load, the
/// results file can be written.
fn prepare(config: &Config) -> Result<Vec<Opening>, String> {
    for e in &config.engines {
        check_command(e)?;
    }
    for e in &config.engines {
        check_start(config, e)?;
    }
    let openings = load_openings(&config.openings, config.rules, config.seed)?;
    if let Some(p) = &config.results {
        check_writable(p)?;
    }
    Ok(openings)
}

/// With `-resume`: the games already played (see `resume`), the PDN file
/// trimmed to them. Without: none.
fn resumed(
    config: &Config,
    id: &ScheduleId,
    jobs: &[Job],
) -> Result<Vec<(Job, GameEntry)>, String> {
    if !config.resume {
        return Ok(Vec::new());
    }
    let played = resume::played(config, id, jobs)?;
    if let Some(pdn) = &config.pdnout {
        let dropped = resume::trim_pdn(pdn, &played)?;
        if dropped > 0 && !config.quiet {
            errln!(
                "resuming: {dropped} games of {} not in the results file were dropped (they are played again)",
                pdn.display()
            );
        }
    }
    Ok(played)
}

/// The PDN file, opened for appending.
fn open_pdn(config: &Config) -> Result<Option<File>, String> {
    let Some(p) = &config.pdnout else {
        return Ok(None);
    };
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(p)
        .map(Some)
        .map_err(|e| format!("cannot write {}: {e}", p.display()))
}

/// Whether `path` can be written, without changing it: an existing file is
/// opened for appending, a new one is created and removed again (so that a
/// typing error in the path stops the match before its first game).
fn check_writable(path: &std::path::Path) -> Result<(), String> {
    let fail = |e: std::io::Error| format!("cannot write {}: {e}", path.display());
    if path.exists() {
        std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(fail)?;
    } else {
        File::create(path).map_err(fail)?;
        std::fs::remove_file(path).map_err(fail)?;
    }
    Ok(())
}

/// Starts the engine once and lets it go: an engine that cannot start, or
/// refuses its options (a misspelt `option.NAME`, a bad value), would
/// otherwise lose every game of the match by forfeit. An engine that
/// starts here and fails to start for a later game loses that game.
fn check_start(config: &Config, spec: &EngineSpec) -> Result<(), String> {
    let abort = AtomicBool::new(false);
    match Engine::start(&spec.command, config.rules, Timeouts::default(), &abort) {
        Ok(engine) => {
            engine.quit();
            Ok(())
        }
        Err(f) => Err(format!(
            "engine {:?} cannot play: {}",
            spec.command.name,
            f.reason()
        )),
    }
}

/// Whether an engine's program can be found (a typing error in `cmd=`
/// should stop the match at once, with the clearest message).
fn check_command(spec: &EngineSpec) -> Result<(), String> {
    let cmd = std::path::Path::new(&spec.command.cmd);
    let found = if spec.command.cmd.contains('/') {
        match (&spec.command.dir, cmd.is_relative()) {
            (Some(dir), true) => dir.join(cmd).is_file(),
            _ => cmd.is_file(),
        }
    } else {
        std::env::var_os("PATH")
            .map(|paths| std::env::split_paths(&paths).any(|p| p.join(cmd).is_file()))
            .unwrap_or(false)
    };
    if found {
        Ok(())
    } else {
        Err(format!(
            "engine {:?}: cannot find the program {:?}",
            spec.command.name, spec.command.cmd
        ))
    }
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

/// The main thread's side of a running match: the counts so far.
struct Results {
    config_quiet: bool,
    results_path: Option<std::path::PathBuf>,
    names: Vec<String>,
    summary: Summary,
    pdn_file: Option<File>,
    /// Pair results waiting for their partner game: the points of the
    /// pairing's first engine in the game that finished first.
    half_pairs: HashMap<PairKey, u32>,
    done: usize,
    /// Of `done`, the games counted from the results file (`-resume`).
    resumed: usize,
    total: usize,
    started: Instant,
    /// Why the match stops before its last game (Ctrl-C, SPRT decision).
    stop_reason: Option<String>,
}

impl Results {
    fn new(config: &Config, total: usize, pdn_file: Option<File>, id: ScheduleId) -> Results {
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
    fn collect(&mut self, rx: &Receiver<Done>, abort: &AtomicBool) {
        loop {
            self.notice_signal(abort);
            let (job, record) = match rx.recv_timeout(Duration::from_millis(100)) {
                Ok(Done::Game(j, r)) => (j, r),
                Ok(Done::Aborted) | Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            // A game that ends after the signal may have ended by it (a job
            // system signals the engines too): not counted, like the games
            // aborted; `-resume` plays it again.
            if self.notice_signal(abort) {
                continue;
            }
            self.write_pdn(&record);
            self.count(&job, entry(&job, &record, &self.names));
            self.save_progress();
            if !self.config_quiet {
                errln!("{}", self.progress_line(&job, &record));
            }
            if self.sprt_decided() {
                abort.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Whether Ctrl-C or SIGTERM has arrived; the first time, stops the
    /// games in progress.
    fn notice_signal(&mut self, abort: &AtomicBool) -> bool {
        if !signal::interrupted() {
            return false;
        }
        if !self.summary.interrupted {
            self.stop_reason = Some("interrupted".into());
            self.summary.interrupted = true;
            abort.store(true, Ordering::Relaxed);
            signal::restore_default();
            errln!(
                "interrupted ({}): stopping the games in progress; writing the results",
                signal::received().unwrap_or("signal")
            );
        }
        true
    }

    /// Writes the results file of the games so far, marked interrupted
    /// (which it is, should the runner die now), so that no game is lost
    /// on a crash, a SIGKILL or a lost machine.
    fn save_progress(&self) {
        let Some(path) = &self.results_path else {
            return;
        };
        let mut file = self.summary.to_results();
        file.interrupted = true;
        if let Err(e) = file.write(path) {
            errln!("warning: {e}");
        }
    }

    /// Appends the game to the PDN file at once, so that nothing is lost
    /// on a crash or Ctrl-C.
    fn write_pdn(&mut self, record: &GameRecord) {
        if let Some(f) = self.pdn_file.as_mut() {
            let ok = f
                .write_all(record.to_pdn().as_bytes())
                .and_then(|_| f.flush());
            if let Err(e) = ok {
                errln!("warning: cannot write the PDN file: {e}");
            }
        }
    }

    /// Adds a finished game to the pair's counts, its opening pair (when
    /// both games are in), the termination counts and the list of games.
    fn count(&mut self, job: &Job, game: GameEntry) {
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
    fn sprt_decided(&mut self) -> bool {
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
            errln!("SPRT decided: {what} accepted (LLR {llr:.3}); stopping");
        }
        true
    }

    /// Prints the tables, writes the results file; the exit status.
    fn finish(&self) -> i32 {
        outln!("{}", self.summary.table());
        if let Some(path) = &self.results_path {
            if let Err(e) = self.summary.write_results(path) {
                errln!("error: {e}");
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
fn entry(job: &Job, record: &GameRecord, names: &[String]) -> GameEntry {
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
