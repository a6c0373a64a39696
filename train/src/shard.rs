//! Sharded data generation: `tama datagen --shard K/N` plays the K-th of N
//! disjoint parts of a run's games, so that job systems (Slurm arrays, GNU
//! parallel) can play one run on many machines; `tama datagen --merge`
//! puts the shards' files back together into the file the whole run
//! writes, byte for byte.
//!
//! Game `g` of a run depends on the run's settings and `g` alone
//! (`datagen`), so the run is cut by game number: game `g` goes to shard
//! `g % N + 1`, and the shard writes its games in order of `g`. The merge
//! takes game `g` from shard `g % N + 1`, in order of `g`: the order the
//! whole run writes them in. Every shard's file names its shard and the
//! run it belongs to (`record::ShardTag`), and the merge refuses files
//! that are not together exactly the shards of one finished run.

use crate::error::DataError;
use crate::record::{self, DataHeader, GAME_HEADER_BYTES, POSITION_BYTES};
use std::ffi::OsString;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use tama_engine::eval::{file, VariantWeights};

/// What identifies a set of weights in a shard's tag: FNV-1a (64-bit) of
/// its weights file less the description, so that the same numbers give
/// the same fingerprint whether they come from a file or are built in.
pub fn weights_fingerprint(w: &VariantWeights) -> u64 {
    let bare = VariantWeights {
        description: String::new(),
        ..w.clone()
    };
    file::encode(&bare)
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| {
            (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
        })
}

/// What a merge wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The whole run's header, as written.
    pub header: DataHeader,
    pub shards: u32,
    pub games: u64,
    pub positions: u64,
    pub bytes: u64,
}

/// One input of a merge: its name, header and the reader at its first game.
struct Input {
    name: String,
    header: DataHeader,
    reader: BufReader<File>,
}

fn open(path: &Path) -> Result<Input, DataError> {
    let name = path.display().to_string();
    let f = File::open(path).map_err(|e| format!("cannot read {name}: {e}"))?;
    let mut reader = BufReader::new(f);
    let mut head = Vec::new();
    (&mut reader)
        .take(record::SHARD_HEADER_BYTES as u64)
        .read_to_end(&mut head)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    let header = DataHeader::decode(&head).map_err(|e| format!("{name}: {e}"))?;
    if header.shard.is_none() {
        return Err(format!(
            "{name} is the file of a whole run, not a shard: there is nothing to merge it with"
        )
        .into());
    }
    Ok(Input {
        name,
        header,
        reader,
    })
}

/// Reads one game's bytes into `block`: `Ok(false)` at the end of the
/// file, an error for a partial or damaged game.
fn next_game(input: &mut Input, block: &mut Vec<u8>) -> Result<bool, DataError> {
    let name = &input.name;
    let read_error = |e: std::io::Error| format!("cannot read {name}: {e}");
    block.clear();
    (&mut input.reader)
        .take(GAME_HEADER_BYTES as u64)
        .read_to_end(block)
        .map_err(read_error)?;
    if block.is_empty() {
        return Ok(false);
    }
    if block.len() == GAME_HEADER_BYTES {
        let n = u16::from_le_bytes([block[0], block[1]]) as u64;
        (&mut input.reader)
            .take(n * POSITION_BYTES as u64)
            .read_to_end(block)
            .map_err(read_error)?;
        let scan = record::scan(block, input.header.rules).map_err(|e| format!("{name}: {e}"))?;
        if scan.games.len() == 1 && scan.whole_bytes == block.len() {
            return Ok(true);
        }
    }
    Err(format!(
        "{name} ends in a partial game: run its shard again with the same command to finish it"
    )
    .into())
}

/// Merges the shards' files `inputs` into `out`, a new file: the file the
/// whole run writes. Refused, with nothing written, unless the inputs are
/// every shard of one run, each once and each finished.
pub fn merge(out: &Path, inputs: &[PathBuf]) -> Result<Merged, DataError> {
    let out_name = out.display();
    if out.exists() {
        return Err(format!(
            "{out_name} exists: the merge writes a new file (remove it, or name another)"
        )
        .into());
    }
    let mut inputs = inputs
        .iter()
        .map(|p| open(p))
        .collect::<Result<Vec<_>, _>>()?;
    let Some(first) = inputs.first() else {
        return Err("give the shards' files to merge".into());
    };
    let (whole, tag) = (first.header.whole(), first.header.shard.expect("a shard"));
    for input in &inputs[1..] {
        let t = input.header.shard.expect("a shard");
        let difference = if input.header.whole() != whole {
            Some(format!(
                "games made with {} and {}",
                whole,
                input.header.whole()
            ))
        } else if t.shard.count != tag.shard.count {
            Some(format!(
                "cut into {} and {} shards",
                tag.shard.count, t.shard.count
            ))
        } else if t.games != tag.games {
            Some(format!("runs of {} and {} games", tag.games, t.games))
        } else if t.hash_mb != tag.hash_mb {
            Some(format!(
                "hash tables of {} MB and {} MB",
                tag.hash_mb, t.hash_mb
            ))
        } else if t.weights != tag.weights {
            Some(format!(
                "weights {:016x} and {:016x}",
                tag.weights, t.weights
            ))
        } else {
            None
        };
        if let Some(d) = difference {
            return Err(format!(
                "{} and {} are not shards of one run: {d}",
                first.name, input.name
            )
            .into());
        }
    }
    let count = tag.shard.count;
    // inputs[k] becomes shard k + 1.
    let mut by_index: Vec<Option<Input>> = (0..count).map(|_| None).collect();
    for input in inputs.drain(..) {
        let k = input.header.shard.expect("a shard").shard.index;
        if let Some(before) = &by_index[(k - 1) as usize] {
            return Err(format!(
                "shard {k}/{count} is given twice ({} and {})",
                before.name, input.name
            )
            .into());
        }
        by_index[(k - 1) as usize] = Some(input);
    }
    let missing: Vec<String> = (1..=count)
        .filter(|k| by_index[(k - 1) as usize].is_none())
        .map(|k| format!("{k}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "shard{} {} of the run {} missing",
            if missing.len() > 1 { "s" } else { "" },
            missing.join(", "),
            if missing.len() > 1 { "are" } else { "is" }
        )
        .into());
    }
    let mut shards: Vec<Input> = by_index.into_iter().flatten().collect();

    // Written aside and renamed, so that a refused or failed merge leaves
    // no file that looks like a whole run.
    let mut partial = OsString::from(out.as_os_str());
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    let result = copy_games(&mut shards, &whole, tag.games, &partial);
    let merged = match result {
        Ok(merged) => merged,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    std::fs::rename(&partial, out).map_err(|e| {
        let _ = std::fs::remove_file(&partial);
        format!("cannot write {out_name}: {e}")
    })?;
    Ok(merged)
}

/// Writes `whole` and then game `g` of shard `g % N + 1`, for every game
/// of the run, to `path`.
fn copy_games(
    shards: &mut [Input],
    whole: &DataHeader,
    games: u64,
    path: &Path,
) -> Result<Merged, DataError> {
    let name = path.display();
    let write_error = |e: std::io::Error| format!("cannot write {name}: {e}");
    let mut out = BufWriter::new(File::create(path).map_err(write_error)?);
    let header = whole.encode();
    out.write_all(&header).map_err(write_error)?;
    let count = shards.len() as u64;
    let mut merged = Merged {
        header: *whole,
        shards: count as u32,
        games: 0,
        positions: 0,
        bytes: header.len() as u64,
    };
    let mut block = Vec::new();
    for g in 0..games {
        let input = &mut shards[(g % count) as usize];
        if !next_game(input, &mut block)? {
            let shard = input.header.shard.expect("a shard").shard;
            return Err(format!(
                "{} holds {} of the {} games of shard {shard} of a {games}-game run: run it again with the same command to finish it",
                input.name,
                g / count,
                shard.units_of(games)
            ).into());
        }
        out.write_all(&block).map_err(write_error)?;
        merged.games += 1;
        merged.positions += ((block.len() - GAME_HEADER_BYTES) / POSITION_BYTES) as u64;
        merged.bytes += block.len() as u64;
    }
    for input in shards.iter_mut() {
        if next_game(input, &mut block)? {
            let shard = input.header.shard.expect("a shard").shard;
            return Err(format!(
                "{} holds more than the {} games of shard {shard} of a {games}-game run",
                input.name,
                shard.units_of(games)
            )
            .into());
        }
    }
    let file = out.into_inner().map_err(|e| write_error(e.into_error()))?;
    file.sync_all().map_err(write_error)?;
    Ok(merged)
}
