//! `tama match`: engine-vs-engine matches and tournaments, refereed with the
//! rules core.
//!
//! - `args`: the command line; `clock`: time controls and clocks;
//! - `openings`: opening files and the built-in balanced set;
//! - `game`: one game (processes, referee, adjudication);
//! - `pdn`: PDN writer and reader; `stats`: Elo, LOS, pentanomial, SPRT;
//! - `report`: tables, JSON results and merging; `json`: a small JSON value.
//!
//! Scheduling: for each round, each pairing (two engines: head-to-head;
//! `-tournament gauntlet`: the first engine against each other one; else
//! round robin) plays `-games` games. With `-repeat` the games go in pairs on
//! the same opening with colours reversed; without it colours alternate and
//! every game takes the next opening. Openings are used in order (from
//! `start=`), or shuffled with `-seed` (`order=random`), and wrap around.
//! `-concurrency N` worker threads each play one game at a time.

/// `println!` / `eprintln!` that do not panic when the stream is closed
/// (`tama match ... | head`): what cannot be written is dropped.
macro_rules! outln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}
macro_rules! errln {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($t)*);
    }};
}

pub mod args;
pub mod clock;
pub mod game;
pub mod json;
pub mod openings;
pub mod pdn;
pub mod report;
pub mod signal;
pub mod stats;

use args::{Command, Config, Order, Tournament};
use openings::Opening;
use pdn::GameRecord;
use report::Summary;
use stats::{fmt_duration, fmt_elo, SprtDecision};
use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};
use tama_engine::Color;

/// One game to play.
#[derive(Clone, Debug)]
struct Job {
    round: u32,
    /// Game number within its round (1-based).
    game_in_round: u32,
    white: usize,
    black: usize,
    opening: usize,
    /// Games on the same opening with colours reversed share a pair key.
    pair: Option<(usize, usize, u32, u32)>,
}

/// A tiny deterministic generator (SplitMix64) for `order=random`.
pub struct SplitMix(pub u64);

impl SplitMix {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = (self.next_u64() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}

fn pairings(n: usize, kind: Tournament) -> Vec<(usize, usize)> {
    match kind {
        Tournament::Gauntlet => (1..n).map(|j| (0, j)).collect(),
        Tournament::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
    }
}

fn schedule(c: &Config, openings: usize) -> Vec<Job> {
    let mut jobs = Vec::new();
    let pairs = pairings(c.engines.len(), c.tournament);
    let per_encounter = if c.repeat {
        c.games.div_ceil(2)
    } else {
        c.games
    } as usize;
    for round in 0..c.rounds {
        let mut game_in_round = 0;
        for &(a, b) in &pairs {
            for g in 0..c.games {
                game_in_round += 1;
                let slot = if c.repeat { g / 2 } else { g } as usize;
                let opening = (c.openings.start - 1 + round as usize * per_encounter + slot)
                    % openings.max(1);
                let swap = if c.repeat {
                    g % 2 == 1
                } else {
                    (round * c.games + g) % 2 == 1
                };
                let (white, black) = if swap { (b, a) } else { (a, b) };
                jobs.push(Job {
                    round: round + 1,
                    game_in_round,
                    white,
                    black,
                    opening,
                    pair: c.repeat.then_some((a, b, round, g / 2)),
                });
            }
        }
    }
    jobs
}

fn today() -> String {
    // Civil date from the Unix clock (Howard Hinnant's algorithm).
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Loads the openings the configuration asks for, in playing order.
pub fn load_openings(c: &Config) -> Result<Vec<Opening>, String> {
    let mut list = match &c.openings.file {
        None => openings::builtin(c.rules),
        Some(path) => {
            let text = std::fs::read(path)
                .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
            let text = String::from_utf8_lossy(&text);
            openings::load(&text, &c.openings.format, c.rules)?
        }
    };
    if list.is_empty() {
        return Err("no openings to play".into());
    }
    if c.openings.order == Order::Random {
        SplitMix(c.seed).shuffle(&mut list);
    }
    Ok(list)
}

/// Whether an engine's program can be found (a typing error in `cmd=`
/// should stop the match at once, not cost every game). Starting it is
/// left to the games: a program that fails to start loses its games.
fn check_command(spec: &args::EngineSpec) -> Result<(), String> {
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

/// What the workers send back.
enum Done {
    Game(Box<Job>, Box<GameRecord>),
    Aborted,
}

/// Runs a configured match; returns the process exit status.
pub fn run(config: Config) -> i32 {
    signal::install();
    for e in &config.engines {
        if let Err(msg) = check_command(e) {
            errln!("error: {msg}");
            return 2;
        }
    }
    let openings = match load_openings(&config) {
        Ok(o) => Arc::new(o),
        Err(e) => {
            errln!("error: {e}");
            return 2;
        }
    };
    let mut pdn_file = match &config.pdnout {
        None => None,
        Some(p) => match std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(p)
        {
            Ok(f) => Some(f),
            Err(e) => {
                errln!("error: cannot write {}: {e}", p.display());
                return 2;
            }
        },
    };
    let jobs = schedule(&config, openings.len());
    let total = jobs.len();
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
        ..Summary::default()
    };
    for (a, b) in pairings(names.len(), config.tournament) {
        summary.pair_mut(&names[a], &names[b]);
    }
    if !config.quiet {
        errln!(
            "{}: {} engines, {} games, {} openings, {}",
            config.event,
            names.len(),
            total,
            openings.len(),
            config.rules
        );
    }
    let config = Arc::new(config);
    let queue = Arc::new(Mutex::new(jobs.into_iter().collect::<VecDeque<Job>>()));
    let abort = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Done>();
    let date = today();
    let mut workers = Vec::new();
    for _ in 0..config.concurrency.min(total.max(1)) {
        let (config, queue, abort, openings, tx, date) = (
            Arc::clone(&config),
            Arc::clone(&queue),
            Arc::clone(&abort),
            Arc::clone(&openings),
            tx.clone(),
            date.clone(),
        );
        workers.push(std::thread::spawn(move || loop {
            if abort.load(Ordering::Relaxed) {
                break;
            }
            let job = match queue.lock() {
                Ok(mut q) => q.pop_front(),
                Err(_) => None,
            };
            let Some(job) = job else { break };
            let opening = &openings[job.opening];
            let specs = [&config.engines[job.white], &config.engines[job.black]];
            let msg = match game::play(&config, specs, opening, &abort) {
                None => Done::Aborted,
                Some(played) => {
                    let tcs = (specs[0].tc.describe(), specs[1].tc.describe());
                    let record = GameRecord {
                        event: config.event.clone(),
                        date: date.clone(),
                        round: format!("{}.{}", job.round, job.game_in_round),
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
                    };
                    Done::Game(Box::new(job), Box::new(record))
                }
            };
            if tx.send(msg).is_err() {
                break;
            }
        }));
    }
    drop(tx);

    let started = Instant::now();
    let mut done = 0usize;
    // Pair results waiting for their partner game: key -> points of the
    // pair's first engine.
    let mut half_pairs: HashMap<(usize, usize, u32, u32), u32> = HashMap::new();
    let mut stop_reason: Option<String> = None;
    loop {
        if signal::interrupted() && stop_reason.is_none() {
            stop_reason = Some("interrupted".into());
            summary.interrupted = true;
            abort.store(true, Ordering::Relaxed);
            signal::restore_default();
            errln!("interrupted: stopping the games in progress; writing the results");
        }
        let msg = match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(m) => m,
            Err(mpsc::RecvTimeoutError::Timeout) => continue,
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        let (job, record) = match msg {
            Done::Aborted => continue,
            Done::Game(j, r) => (j, r),
        };
        done += 1;
        if let Some(f) = pdn_file.as_mut() {
            let ok = f
                .write_all(record.to_pdn().as_bytes())
                .and_then(|_| f.flush());
            if let Err(e) = ok {
                errln!("warning: cannot write the PDN file: {e}");
            }
        }
        let (w, b) = (&names[job.white], &names[job.black]);
        {
            let (pair, flipped) = summary.pair_mut(w, b);
            let wp = record.outcome.points(Color::White);
            let mut add = |pts: u32| match pts {
                2 => pair.wdl.wins += 1,
                1 => pair.wdl.draws += 1,
                _ => pair.wdl.losses += 1,
            };
            add(if flipped { 2 - wp } else { wp });
            if let Some(key) = job.pair {
                // Points of the pairing's first engine (key.0) in this game.
                let first_pts = if job.white == key.0 { wp } else { 2 - wp };
                if let Some(other) = half_pairs.remove(&key) {
                    let (a_pts, b_pts) = (other, first_pts);
                    // Stored pair is (first, second) = (names[key.0], names[key.1])
                    // unless flipped.
                    let stored_first_is_key0 = pair.first == names[key.0];
                    if stored_first_is_key0 {
                        pair.penta.add_pair(a_pts, b_pts);
                    } else {
                        pair.penta.add_pair(2 - a_pts, 2 - b_pts);
                    }
                } else {
                    half_pairs.insert(key, first_pts);
                }
            }
        }
        *summary
            .terminations
            .entry(generic_reason(&record.termination))
            .or_default() += 1;
        summary.games.push(json::Json::obj(vec![
            ("round", json::Json::str(&record.round)),
            ("white", json::Json::str(w)),
            ("black", json::Json::str(b)),
            ("result", json::Json::str(record.outcome.pdn())),
            ("termination", json::Json::str(&record.termination)),
            ("plies", json::Json::Num(record.moves.len() as f64)),
        ]));
        if !config.quiet {
            let elapsed = started.elapsed().as_secs_f64();
            let eta = elapsed / done as f64 * (total - done) as f64;
            let head = &summary.pairs[0];
            let hw = head.wdl;
            let sprt = match (summary.sprt, summary.sprt_state()) {
                (Some(s), Some((llr, _))) => format!(
                    " | LLR {llr:.2} [{:.2}, {:.2}]",
                    s.lower_bound(),
                    s.upper_bound()
                ),
                _ => String::new(),
            };
            errln!(
                "[{done}/{total}] round {} {w} vs {b}: {} ({}) | {} vs {}: +{} ={} -{} [{:.3}] Elo {}{sprt} | ETA {}",
                record.round,
                record.outcome.pdn(),
                record.termination,
                head.first,
                head.second,
                hw.wins,
                hw.draws,
                hw.losses,
                hw.score().unwrap_or(0.0),
                fmt_elo(hw.elo()),
                fmt_duration(eta)
            );
        }
        if let Some((llr, d)) = summary.sprt_state() {
            if d != SprtDecision::Continue && stop_reason.is_none() {
                let what = if d == SprtDecision::H1 { "H1" } else { "H0" };
                stop_reason = Some(format!("SPRT: {what} accepted (LLR {llr:.3})"));
                if !config.quiet {
                    errln!("SPRT decided: {what} accepted (LLR {llr:.3}); stopping");
                }
                abort.store(true, Ordering::Relaxed);
            }
        }
    }
    for w in workers {
        let _ = w.join();
    }
    let table = summary.table();
    outln!("{table}");
    if let Some(path) = &config.results {
        if let Err(e) = std::fs::write(path, summary.to_json().pretty()) {
            errln!("error: cannot write {}: {e}", path.display());
            return 1;
        }
    }
    if summary.interrupted {
        130
    } else {
        0
    }
}

/// The termination reason without game-specific numbers, for the counts.
/// (a fault or a time loss keeps its category: "white engine crashed").
fn generic_reason(t: &str) -> String {
    const CATEGORIES: [&str; 7] = [
        "engine failed to start",
        "engine crashed",
        "engine hangs",
        "garbage output",
        "illegal move",
        "ambiguous move",
        "loses on time",
    ];
    for side in ["white ", "black "] {
        if let Some(rest) = t.strip_prefix(side) {
            if let Some(c) = CATEGORIES.iter().find(|c| rest.starts_with(*c)) {
                return format!("{side}{c}");
            }
        }
    }
    t.to_string()
}

/// `tama match --merge`: adds results files into one table.
fn merge(
    files: &[std::path::PathBuf],
    results: Option<&std::path::Path>,
    sprt: Option<stats::Sprt>,
) -> i32 {
    let mut summary = Summary {
        sprt,
        ..Summary::default()
    };
    for f in files {
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                errln!("error: cannot read {}: {e}", f.display());
                return 2;
            }
        };
        if let Err(e) = json::Json::parse(&text).and_then(|j| summary.merge_json(&j)) {
            errln!("error: {}: {e}", f.display());
            return 2;
        }
    }
    outln!("{}", summary.table());
    if let Some(path) = results {
        if let Err(e) = std::fs::write(path, summary.to_json().pretty()) {
            errln!("error: cannot write {}: {e}", path.display());
            return 1;
        }
    }
    0
}

/// Entry point of `tama match ARGS...`; returns the exit status.
pub fn main(args: &[String]) -> i32 {
    match args::parse(args) {
        Err(e) => {
            errln!("error: {e}");
            2
        }
        Ok(Command::Run(c)) => run(*c),
        Ok(Command::Merge {
            files,
            results,
            sprt,
        }) => merge(&files, results.as_deref(), sprt),
        Ok(Command::Help) => {
            outln!("{}", args::USAGE);
            0
        }
        Ok(Command::DumpOpenings(c)) => match load_openings(&c) {
            Ok(list) => {
                for o in list {
                    if o.moves.is_empty() {
                        outln!("{}", o.start.fen());
                    } else {
                        outln!("{} | {}", o.start.fen(), o.moves);
                    }
                }
                0
            }
            Err(e) => {
                errln!("error: {e}");
                2
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pdn::Outcome;

    fn config(engines: usize, kind: Tournament, rounds: u32, games: u32, repeat: bool) -> Config {
        let mut c = Config {
            tournament: kind,
            rounds,
            games,
            repeat,
            ..Config::default()
        };
        for n in 0..engines {
            let mut e = args::EngineSpec::default();
            e.command.name = format!("E{n}");
            c.engines.push(e);
        }
        c
    }

    #[test]
    fn schedules() {
        // Head to head with -repeat: pairs share an opening, colours swap.
        let jobs = schedule(&config(2, Tournament::RoundRobin, 3, 2, true), 10);
        assert_eq!(jobs.len(), 6);
        let seen: Vec<(usize, usize, usize)> =
            jobs.iter().map(|j| (j.white, j.black, j.opening)).collect();
        assert_eq!(
            seen,
            vec![
                (0, 1, 0),
                (1, 0, 0),
                (0, 1, 1),
                (1, 0, 1),
                (0, 1, 2),
                (1, 0, 2)
            ]
        );
        assert_eq!(jobs[0].pair, jobs[1].pair);
        assert_ne!(jobs[1].pair, jobs[2].pair);
        // Without repeat: colours alternate, openings advance, wrap around.
        let jobs = schedule(&config(2, Tournament::RoundRobin, 3, 1, false), 2);
        let seen: Vec<(usize, usize)> = jobs.iter().map(|j| (j.white, j.opening)).collect();
        assert_eq!(seen, vec![(0, 0), (1, 1), (0, 0)]);
        // Round robin of 4: 6 pairings; gauntlet of 4: 3.
        assert_eq!(
            schedule(&config(4, Tournament::RoundRobin, 1, 2, true), 5).len(),
            12
        );
        let g = schedule(&config(4, Tournament::Gauntlet, 2, 2, true), 5);
        assert_eq!(g.len(), 12);
        assert!(g.iter().all(|j| j.white == 0 || j.black == 0));
    }

    #[test]
    fn shuffle_is_reproducible() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        SplitMix(7).shuffle(&mut a);
        SplitMix(7).shuffle(&mut b);
        assert_eq!(a, b);
        let mut c: Vec<u32> = (0..50).collect();
        SplitMix(8).shuffle(&mut c);
        assert_ne!(a, c);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
    }

    #[test]
    fn date_format() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert_eq!(&d[4..5], ".");
        assert!(d.starts_with("20"));
    }

    #[test]
    fn generic_reasons() {
        assert_eq!(
            generic_reason("white loses on time: the move took 1.2 s with 0.1 s left"),
            "white loses on time"
        );
        assert_eq!(
            generic_reason("black engine hangs: no move after 3.0 s, even after stop"),
            "black engine hangs"
        );
        assert_eq!(
            generic_reason("white illegal move a1-h8: no piece on a1"),
            "white illegal move"
        );
        assert_eq!(
            generic_reason("adjudication: draw (both scores agree)"),
            "adjudication: draw (both scores agree)"
        );
    }

    #[test]
    fn outcome_points() {
        assert_eq!(Outcome::WhiteWins.points(Color::White), 2);
        assert_eq!(Outcome::WhiteWins.points(Color::Black), 0);
        assert_eq!(Outcome::Draw.points(Color::Black), 1);
    }
}
