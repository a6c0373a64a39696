//! Before the first game of a match: the openings loaded, the output files
//! and every engine checked (so that a typo fails at once, not in game 40),
//! the games a results file already holds (`-resume`), and the header and
//! time estimate printed.

use super::collect::fmt_duration;
use crate::client::{Engine, Timeouts};
use crate::config::{Config, EngineSpec};
use crate::error::SetupError;
use crate::play::resume;
use crate::schedule::shard::ScheduleId;
use crate::schedule::{load_openings, Job};
use crate::stats::tally::GameEntry;
use crate::Console;
use std::fs::File;
use std::sync::atomic::AtomicBool;
use tama_engine::openings::Opening;

/// What is about to be played, printed before the first game: the match,
/// the shard, the time it should take, the SPRT settings and model.
pub(super) fn header(config: &Config, games: usize, openings: usize) -> String {
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
pub(super) fn estimate(config: &Config, games: usize) -> String {
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
pub(super) const ESTIMATE_MOVES: u32 = 60;

/// Everything that can be checked before the first game: the engines'
/// programs exist and start with their options, the openings load, the
/// results file can be written.
pub(super) fn prepare(config: &Config) -> Result<Vec<Opening>, SetupError> {
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
pub(super) fn resumed(
    config: &Config,
    id: &ScheduleId,
    jobs: &[Job],
    console: &mut Console,
) -> Result<Vec<(Job, GameEntry)>, SetupError> {
    if !config.resume {
        return Ok(Vec::new());
    }
    let played = resume::played(config, id, jobs)?;
    if let Some(pdn) = &config.pdnout {
        let dropped = resume::trim_pdn(pdn, &played)?;
        if dropped > 0 && !config.quiet {
            errln!(
                console,
                "resuming: {dropped} games of {} not in the results file were dropped (they are played again)",
                pdn.display()
            );
        }
    }
    Ok(played)
}

/// The PDN file, opened for appending.
pub(super) fn open_pdn(config: &Config) -> Result<Option<File>, SetupError> {
    let Some(p) = &config.pdnout else {
        return Ok(None);
    };
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(p)
        .map(Some)
        .map_err(|e| format!("cannot write {}: {e}", p.display()).into())
}

/// Whether `path` can be written, without changing it: an existing file is
/// opened for appending, a new one is created and removed again (so that a
/// typing error in the path stops the match before its first game).
pub(super) fn check_writable(path: &std::path::Path) -> Result<(), SetupError> {
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
pub(super) fn check_start(config: &Config, spec: &EngineSpec) -> Result<(), SetupError> {
    let abort = AtomicBool::new(false);
    match Engine::start(&spec.command, config.rules, Timeouts::default(), &abort) {
        Ok(engine) => {
            engine.quit();
            Ok(())
        }
        Err(f) => Err(format!("engine {:?} cannot play: {}", spec.command.name, f.reason()).into()),
    }
}

/// Whether an engine's program can be found (a typing error in `cmd=`
/// should stop the match at once, with the clearest message), where the
/// system will look when it starts it.
pub(super) fn check_command(spec: &EngineSpec) -> Result<(), SetupError> {
    let cmd = std::path::Path::new(&spec.command.cmd);
    // A directory part (on Windows either separator, or a drive) makes it a
    // path, relative to dir= when given.
    let is_path = cmd.components().count() > 1 || cmd.has_root();
    let found = if is_path {
        match (&spec.command.dir, cmd.is_relative()) {
            (Some(dir), true) => dir.join(cmd).is_file(),
            _ => cmd.is_file(),
        }
    } else {
        program_dirs().any(|d| executable_in(&d, cmd))
    };
    if found {
        Ok(())
    } else {
        Err(format!(
            "engine {:?}: cannot find the program {:?}",
            spec.command.name, spec.command.cmd
        )
        .into())
    }
}

/// Where a bare program name is looked for: along PATH, and on Windows
/// first in the runner's own directory, as the system starts programs
/// there (so `cmd=tama.exe` finds the engine unpacked beside the runner).
fn program_dirs() -> impl Iterator<Item = std::path::PathBuf> {
    let own = cfg!(windows)
        .then(|| {
            std::env::current_exe()
                .ok()?
                .parent()
                .map(|d| d.to_path_buf())
        })
        .flatten();
    let path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    own.into_iter().chain(path)
}

/// Whether `dir` holds the program `name` (on Windows also `name.exe`,
/// which the system tries for a name without an extension).
fn executable_in(dir: &std::path::Path, name: &std::path::Path) -> bool {
    dir.join(name).is_file()
        || (cfg!(windows)
            && name.extension().is_none()
            && dir.join(name).with_extension("exe").is_file())
}
