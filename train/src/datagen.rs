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
//!
//! A shard of a run (`shard`) plays the run's games of its part, each the
//! game `g` the whole run plays, in order of `g`; its file is resumed the
//! same way.

use crate::error::DataError;
use crate::record::ShardTag;
use crate::record::{self, DataHeader, GameRecord};
use crate::selfplay::SelfPlay;
use crate::shard;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};
use tama_engine::egtb::Tablebase;
use tama_engine::eval::{VariantWeights, Weights};
use tama_engine::openings;
use tama_engine::rng::Rng;
use tama_engine::search::{SearchControl, SearchLimits, Searcher};
use tama_engine::{movegen, Game, Rules};
use tama_shard::Shard;

#[derive(Clone, Debug)]
pub struct Settings {
    pub out: PathBuf,
    pub rules: Rules,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub random_plies: u8,
    pub seed: u64,
    /// Games of the run: the file holds them all when the run ends (a
    /// shard's file, its part of them). `u64::MAX`: until stopped.
    pub games: u64,
    /// Play only this part of the run's games.
    pub shard: Option<Shard>,
    pub threads: usize,
    pub hash_mb: usize,
    /// The set the games are played with, in place of its variant's
    /// default (`None`: the built-in default). The file's header does not
    /// record it: a resumed file trusts the caller to give the same one.
    pub weights: Option<VariantWeights>,
    /// The endgame databases that end a game once it enters them, with
    /// their value (`SelfPlay::tables`). Not in the header either.
    pub egtb: Option<PathBuf>,
}

impl Settings {
    pub const DEFAULT_NODES: u64 = 5000;
    pub const DEFAULT_RANDOM_PLIES: u8 = 4;

    /// The file's header; `weights` is the set the games are played with.
    fn header(&self, weights: &VariantWeights) -> DataHeader {
        DataHeader {
            rules: self.rules,
            seed: self.seed,
            nodes: self.nodes,
            depth: self.depth,
            random_plies: self.random_plies,
            shard: self.shard.map(|shard| ShardTag {
                shard,
                games: self.games,
                hash_mb: self.hash_mb as u32,
                weights: shard::weights_fingerprint(weights),
            }),
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
/// positions. A new (or empty) file gets the header. A shard's file may be
/// resumed for a run of another length (its first games are the same) as
/// long as it holds no more than its part of the new run: its header then
/// takes the new number of games.
fn open(settings: &Settings, header: &DataHeader) -> Result<(File, u64, u64, u64), DataError> {
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
    let header = *header;
    if bytes.is_empty() {
        file.write_all(&header.encode())
            .map_err(|e| format!("cannot write {name}: {e}"))?;
        return Ok((file, 0, 0, 0));
    }
    let found = DataHeader::decode(&bytes).map_err(|e| format!("{name}: {e}"))?;
    let run_length_changed = match (found.shard, header.shard) {
        (Some(a), Some(b)) => {
            let same_but_games = DataHeader {
                shard: Some(ShardTag {
                    games: b.games,
                    ..a
                }),
                ..found
            };
            same_but_games == header && a.games != b.games
        }
        _ => false,
    };
    if found != header && !run_length_changed {
        return Err(format!(
            "{name} holds games made with {found}, not {header}: give the same settings to add to it, or another file"
        ).into());
    }
    let header_bytes = header.encoded_len();
    let body = &bytes[header_bytes..];
    let scan = record::scan(body, header.rules).map_err(|e| format!("{name}: {e}"))?;
    if let Some(t) = header.shard {
        let share = t.shard.units_of(t.games);
        if scan.games.len() as u64 > share {
            return Err(format!(
                "{name} holds {} games, more than the {share} of shard {} of a {}-game run",
                scan.games.len(),
                t.shard,
                t.games
            )
            .into());
        }
    }
    if run_length_changed {
        file.seek(SeekFrom::Start(0))
            .and_then(|_| file.write_all(&header.encode()))
            .map_err(|e| format!("cannot write {name}: {e}"))?;
    }
    let dropped = (body.len() - scan.whole_bytes) as u64;
    let end = (header_bytes + scan.whole_bytes) as u64;
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
    tables: Option<&Arc<Tablebase>>,
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
    SelfPlay {
        tables: tables.cloned(),
        ..SelfPlay::new(limits)
    }
    .play(searcher, game, plies, control)
}

/// Runs datagen until the file holds `settings.games` games or
/// `interrupted` says so (Ctrl-C: the caller installs the handler).
/// `progress` gets a line now and then (games, positions, positions/s).
pub fn run(
    settings: &Settings,
    interrupted: &(dyn Fn() -> bool + Sync),
    progress: &mut dyn FnMut(&str),
) -> Result<Summary, DataError> {
    if settings.nodes.is_none() && settings.depth.is_none() {
        return Err("give a search budget: --nodes N or --depth D".into());
    }
    if settings.shard.is_some() && settings.games == u64::MAX {
        return Err("--shard needs --games: a shard is a part of the games of a run".into());
    }
    let mut weights = Weights::DEFAULT;
    if let Some(set) = &settings.weights {
        if set.variant != settings.rules.variant {
            return Err(format!(
                "the weights are {} weights, the games {}",
                set.variant, settings.rules.variant
            )
            .into());
        }
        weights.replace(set.clone());
    }
    // Opened before the file, so a bad directory changes nothing.
    let tables = match &settings.egtb {
        Some(dir) => Some(Arc::new(crate::tables::open(dir, settings.rules)?)),
        None => None,
    };
    let header = settings.header(weights.get(settings.rules.variant));
    let (mut file, had_games, had_positions, dropped_bytes) = open(settings, &header)?;
    // The file's games are the shard's: its `j`-th is the run's game
    // `shard.unit(j)`.
    let shard = settings.shard.unwrap_or(Shard::WHOLE);
    let share = shard.units_of(settings.games);
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
            let (tx, next, control, openings, share, tables) =
                (tx.clone(), &next, &control, &openings, share, &tables);
            let weights = weights.clone();
            s.spawn(move || {
                let mut searcher = Searcher::new(settings.hash_mb);
                searcher.set_weights(weights);
                loop {
                    let j = next.fetch_add(1, Ordering::SeqCst);
                    if j >= share || control.is_stopped() {
                        break;
                    }
                    let g = shard.unit(j);
                    let game = play_game(
                        settings,
                        tables.as_ref(),
                        openings,
                        &mut searcher,
                        control,
                        g,
                    );
                    if tx.send((j, game)).is_err() {
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
        return Err(e.into());
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
