//! `tama datagen`: self-play games for training the evaluation, appended to
//! a data file (format: `record`, docs/evaluation.md).
//!
//! Game `g` of a file starts from a built-in opening and a few random plies
//! drawn from the seed and `g` alone, and each game runs on a fresh search
//! (its table cleared), so game `g` is the same whatever the number of
//! threads and whether the run was interrupted; games are written in order
//! of `g`. A file is therefore resumable: the run counts the whole games
//! already there, drops a partial game at the end (a run killed while
//! writing), and goes on from the next game. Ctrl-C stops the games in
//! progress; every game finished before them is written (exit status 130).

use crate::record::{self, DataHeader, GameRecord};
use crate::selfplay::SelfPlay;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};
use tama_engine::eval::{VariantWeights, Weights};
use tama_engine::openings;
use tama_engine::rng::Rng;
use tama_engine::search::{SearchControl, SearchLimits, Searcher};
use tama_engine::{movegen, Game, Rules};

#[derive(Clone, Debug)]
pub struct Settings {
    pub out: PathBuf,
    pub rules: Rules,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub random_plies: u8,
    pub seed: u64,
    /// Games the file should hold when the run ends.
    pub games: u64,
    pub threads: usize,
    pub hash_mb: usize,
    /// The set the games are played with, in place of its variant's
    /// default (`None`: the built-in default). The file's header does not
    /// record it: a resumed file trusts the caller to give the same one.
    pub weights: Option<VariantWeights>,
}

impl Settings {
    pub const DEFAULT_NODES: u64 = 5000;
    pub const DEFAULT_RANDOM_PLIES: u8 = 4;

    fn header(&self) -> DataHeader {
        DataHeader {
            rules: self.rules,
            seed: self.seed,
            nodes: self.nodes,
            depth: self.depth,
            random_plies: self.random_plies,
        }
    }
}

/// What a run did.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Whole games and positions in the file at the end.
    pub games: u64,
    pub positions: u64,
    /// Written by this run.
    pub new_games: u64,
    pub new_positions: u64,
    pub seconds: f64,
    /// Bytes of a partial game dropped from the end of the file.
    pub dropped_bytes: u64,
    pub interrupted: bool,
}

/// Opens `out` for appending: checks the header of an existing file against
/// `header`, drops a partial game at its end, and counts its games and
/// positions. A new (or empty) file gets the header.
fn open(settings: &Settings) -> Result<(File, u64, u64, u64), String> {
    let path = &settings.out;
    let name = path.display();
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| format!("cannot open {name}: {e}"))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    let header = settings.header();
    if bytes.is_empty() {
        file.write_all(&header.encode())
            .map_err(|e| format!("cannot write {name}: {e}"))?;
        return Ok((file, 0, 0, 0));
    }
    let found = DataHeader::decode(&bytes).map_err(|e| format!("{name}: {e}"))?;
    if found != header {
        return Err(format!(
            "{name} holds games made with {found}, not {header}: give the same settings to add to it, or another file"
        ));
    }
    let body = &bytes[record::HEADER_BYTES..];
    let scan = record::scan(body, header.rules).map_err(|e| format!("{name}: {e}"))?;
    let dropped = (body.len() - scan.whole_bytes) as u64;
    let end = (record::HEADER_BYTES + scan.whole_bytes) as u64;
    if dropped > 0 {
        file.set_len(end)
            .map_err(|e| format!("cannot cut the partial game off {name}: {e}"))?;
    }
    file.seek(SeekFrom::Start(end))
        .map_err(|e| format!("cannot seek in {name}: {e}"))?;
    let positions = scan.games.iter().map(|g| g.positions.len() as u64).sum();
    Ok((file, scan.games.len() as u64, positions, dropped))
}

/// Plays game `g` of the file.
fn play_game(
    settings: &Settings,
    openings: &[openings::Opening],
    searcher: &mut Searcher,
    control: &SearchControl,
    g: u64,
) -> Option<GameRecord> {
    let mut rng =
        Rng::new(Rng::new(settings.seed ^ g.wrapping_mul(0xA24B_AED4_963E_E407)).next_u64());
    let opening = &openings[rng.below(openings.len() as u64) as usize];
    let mut game = Game::new(opening.position);
    let mut plies = opening.moves.split_whitespace().count();
    for _ in 0..settings.random_plies {
        let moves = movegen::legal_moves(game.position());
        if moves.is_empty() {
            break;
        }
        game.play(moves[rng.below(moves.len() as u64) as usize]);
        plies += 1;
    }
    let limits = SearchLimits {
        nodes: settings.nodes,
        depth: settings.depth,
        ..SearchLimits::default()
    };
    SelfPlay::new(limits).play(searcher, game, plies, control)
}

/// Runs datagen until the file holds `settings.games` games or
/// `interrupted` says so (Ctrl-C: the caller installs the handler).
/// `progress` gets a line now and then (games, positions, positions/s).
pub fn run(
    settings: &Settings,
    interrupted: &(dyn Fn() -> bool + Sync),
    progress: &mut dyn FnMut(&str),
) -> Result<Summary, String> {
    if settings.nodes.is_none() && settings.depth.is_none() {
        return Err("give a search budget: --nodes N or --depth D".into());
    }
    let mut weights = Weights::DEFAULT;
    if let Some(set) = &settings.weights {
        if set.variant != settings.rules.variant {
            return Err(format!(
                "the weights are {} weights, the games {}",
                set.variant, settings.rules.variant
            ));
        }
        weights.replace(set.clone());
    }
    let (mut file, had_games, had_positions, dropped_bytes) = open(settings)?;
    let started = Instant::now();
    let openings = openings::builtin(settings.rules).map_err(|e| e.to_string())?;
    let next = AtomicU64::new(had_games);
    let control = Arc::new(SearchControl::new());
    let (tx, rx) = mpsc::channel::<(u64, Option<GameRecord>)>();
    let mut summary = Summary {
        games: had_games,
        positions: had_positions,
        new_games: 0,
        new_positions: 0,
        seconds: 0.0,
        dropped_bytes,
        interrupted: false,
    };
    let mut write_error = None;
    std::thread::scope(|s| {
        for _ in 0..settings.threads.max(1) {
            let (tx, next, control, openings) = (tx.clone(), &next, &control, &openings);
            let weights = weights.clone();
            s.spawn(move || {
                let mut searcher = Searcher::new(settings.hash_mb);
                searcher.set_weights(weights);
                loop {
                    let g = next.fetch_add(1, Ordering::SeqCst);
                    if g >= settings.games || control.is_stopped() {
                        break;
                    }
                    let game = play_game(settings, openings, &mut searcher, control, g);
                    if tx.send((g, game)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Finished games wait here until every game before them is written.
        let mut pending: BTreeMap<u64, Option<GameRecord>> = BTreeMap::new();
        let mut last_line = Instant::now();
        let mut bytes = Vec::new();
        loop {
            if interrupted() && !control.is_stopped() {
                summary.interrupted = true;
                control.stop();
            }
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok((g, game)) => {
                    pending.insert(g, game);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            while let Some(entry) = pending.first_entry() {
                if *entry.key() != summary.games || write_error.is_some() {
                    break;
                }
                // A game stopped by Ctrl-C ends the file: nothing after it.
                let Some(game) = entry.remove() else {
                    control.stop();
                    break;
                };
                bytes.clear();
                game.encode(&mut bytes);
                if let Err(e) = file.write_all(&bytes) {
                    write_error = Some(format!("cannot write {}: {e}", settings.out.display()));
                    control.stop();
                    break;
                }
                summary.games += 1;
                summary.new_games += 1;
                summary.positions += game.positions.len() as u64;
                summary.new_positions += game.positions.len() as u64;
            }
            if last_line.elapsed() >= Duration::from_secs(1) {
                last_line = Instant::now();
                progress(&progress_line(&summary, started.elapsed()));
            }
        }
    });
    if let Some(e) = write_error {
        return Err(e);
    }
    file.sync_all()
        .map_err(|e| format!("cannot write {}: {e}", settings.out.display()))?;
    summary.seconds = started.elapsed().as_secs_f64();
    progress(&progress_line(&summary, started.elapsed()));
    Ok(summary)
}

fn progress_line(s: &Summary, elapsed: Duration) -> String {
    let rate = s.new_positions as f64 / elapsed.as_secs_f64().max(1e-3);
    format!(
        "games {} positions {} positions/s {rate:.0}",
        s.games, s.positions
    )
}
