//! What `tama egtb build|probe|stats` do once their flags are read (`cli`).
//! The databases themselves are the engine's (`tama_engine::egtb`); this
//! module only opens them, reports on them, and words the errors.

use crate::cli::{
    EgtbBenchArgs, EgtbBuildArgs, EgtbCommand, EgtbCompressArgs, EgtbJobsArgs, EgtbPlace,
    EgtbProbeArgs, EgtbStatsArgs,
};
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::time::Instant;
use tama_engine::egtb::{
    blocks_decompressed, build, build_job, compress_dir, find_job, jobs, BuildOptions,
    CompressOptions, Placement, PositionSampler, Progress, Signature, Tablebase, HEADER_LEN,
};
use tama_engine::rng::Rng;
use tama_engine::Position;

/// Runs one `tama egtb` command; an error is one line for the caller to print.
pub fn run(command: &EgtbCommand) -> Result<()> {
    match command {
        EgtbCommand::Build(a) if a.plan => plan_command(a),
        EgtbCommand::Build(a) => build_command(a),
        EgtbCommand::Jobs(a) => jobs_command(a),
        EgtbCommand::Probe(a) => probe_command(a),
        EgtbCommand::Stats(a) => stats_command(a),
        EgtbCommand::Compress(a) => compress_command(a),
        EgtbCommand::Bench(a) => bench_command(a),
        EgtbCommand::Audit(a) => super::egtb_games::audit_command(a),
        EgtbCommand::Starts(a) => super::egtb_games::starts_command(a),
    }
}

/// The tables of the wanted rules in the wanted directory, every file
/// checked.
fn open(place: &EgtbPlace) -> Result<Tablebase> {
    Ok(Tablebase::open(&place.dir, place.rules.rules())?)
}

fn names(signatures: &[Signature]) -> String {
    signatures
        .iter()
        .map(Signature::to_string)
        .collect::<Vec<_>>()
        .join("+")
}

/// `tama egtb build`: progress per signature pair on stderr, a summary last.
fn build_command(a: &EgtbBuildArgs) -> Result<()> {
    let threads = a.threads.unwrap_or_else(tama_os::machine::cpu_count);
    let opts = BuildOptions {
        rules: a.place.rules.rules(),
        max_pieces: a.pieces,
        distance_pieces: BuildOptions::DEFAULT_DISTANCE_PIECES,
        threads,
        compress: a.compress.then_some(CompressOptions {
            block_bytes: a.block_bytes,
            level: a.level,
            threads,
        }),
    };
    let started = Instant::now();
    let (mut built, mut kept, mut entries, mut bytes) = (0, 0, 0, 0);
    let mut report = |p: Progress| {
        let t = started.elapsed().as_secs_f64();
        match p {
            Progress::Kept { signatures } => {
                kept += signatures.len();
                eprintln!("{:>8.1} s  {}: kept (already built)", t, names(&signatures));
            }
            Progress::Started {
                signatures,
                entries,
            } => eprintln!("{t:>8.1} s  {}: {entries} entries", names(&signatures)),
            Progress::Finished {
                signatures,
                entries: e,
                bytes: b,
                elapsed,
            } => {
                built += signatures.len();
                entries += e;
                bytes += b;
                eprintln!(
                    "{t:>8.1} s  {}: done in {:.1} s, {b} bytes",
                    names(&signatures),
                    elapsed.as_secs_f64()
                );
            }
        }
    };
    let pieces = match &a.job {
        Some(name) => {
            let job = find_job(name)?;
            build_job(&a.place.dir, &opts, &job, &mut report)?;
            job.signatures[0].pieces()
        }
        None => {
            build(&a.place.dir, &opts, &mut report)?;
            a.pieces
        }
    };
    println!(
        "built {built} tables ({entries} entries, {bytes} bytes), kept {kept}, up to {} pieces in {} ({}), {:.1} s",
        pieces,
        a.place.dir.display(),
        opts.rules,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `tama egtb build --plan`: per piece count, what the build would write
/// and the working memory of its largest job (the figures behind the size
/// and time estimates in docs/endgames.md).
fn plan_command(a: &EgtbBuildArgs) -> Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(
        out,
        "pieces signatures entries file-bytes largest-pair-entries build-memory-bytes"
    );
    let all = jobs(a.pieces);
    let distance_pieces = BuildOptions::DEFAULT_DISTANCE_PIECES;
    for n in 2..=a.pieces {
        let these: Vec<_> = all
            .iter()
            .filter(|j| j.signatures[0].pieces() == n)
            .collect();
        let signatures: usize = these.iter().map(|j| j.signatures.len()).sum();
        let entries: u64 = these.iter().map(|j| j.entries()).sum();
        let bytes: u64 = these.iter().map(|j| j.file_bytes(distance_pieces)).sum();
        let pair = these.iter().map(|j| j.entries()).max().unwrap_or(0);
        let memory = these
            .iter()
            .map(|j| j.build_memory(distance_pieces))
            .max()
            .unwrap_or(0);
        let _ = writeln!(out, "{n} {signatures} {entries} {bytes} {pair} {memory}");
    }
    Ok(())
}

/// `tama egtb jobs`: a line per job in build order (`level job entries
/// build-memory-bytes needs`, needs `-` or the jobs' names joined by `,`),
/// or with `--level` the names of that level's jobs alone.
fn jobs_command(a: &EgtbJobsArgs) -> Result<()> {
    let all = jobs(a.pieces);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if let Some(level) = a.level {
        let top = all.iter().map(|j| j.level).max().unwrap_or(0);
        if level > top {
            bail!(
                "level {level}: the jobs of up to {} pieces have levels 0 to {top}",
                a.pieces
            );
        }
        for j in all.iter().filter(|j| j.level == level) {
            let _ = writeln!(out, "{}", j.name());
        }
        return Ok(());
    }
    let _ = writeln!(out, "level job entries build-memory-bytes needs");
    for j in &all {
        let needs: Vec<String> = j.needs.iter().map(|&n| all[n].name()).collect();
        let needs = if needs.is_empty() {
            "-".to_string()
        } else {
            needs.join(",")
        };
        let _ = writeln!(
            out,
            "{} {} {} {} {needs}",
            j.level,
            j.name(),
            j.entries(),
            j.build_memory(BuildOptions::DEFAULT_DISTANCE_PIECES)
        );
    }
    Ok(())
}

/// `tama egtb probe`: the value for the side to move, last line `win N`,
/// `draw` or `loss N` (N `-` where the table keeps no distance).
fn probe_command(a: &EgtbProbeArgs) -> Result<()> {
    let rules = a.place.rules.rules();
    let pos = Position::from_fen(&a.fen, rules)?;
    let tb = open(&a.place)?;
    let placement = Placement::of(&pos);
    if !placement.them.is_empty() && !placement.us.is_empty() {
        let signature = placement.signature();
        if signature.pieces() > tama_engine::egtb::MAX_PIECES {
            bail!(
                "too many pieces: {} on the board, the tables hold at most {}",
                signature.pieces(),
                tama_engine::egtb::MAX_PIECES
            );
        }
        if !placement.men_on_man_squares() {
            bail!("a man stands on its own first rank: no table holds that");
        }
        if tb.table(signature).is_none() {
            bail!(
                "no table for {signature} ({} pieces) in {}",
                signature.pieces(),
                a.place.dir.display()
            );
        }
    }
    let value = tb
        .probe(&pos)
        .context("the side not to move has no pieces: the game is already over")?;
    println!("{value}");
    Ok(())
}

/// `tama egtb stats`: one Markdown table row per signature, in build order
/// (the tables in docs/endgames.md come from here).
fn stats_command(a: &EgtbStatsArgs) -> Result<()> {
    let tb = open(&a.place)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let _ = writeln!(
        out,
        "| signature | positions | wins | draws | losses | longest win | bytes |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|");
    let (mut positions, mut bytes) = (0, 0);
    for h in tb.headers() {
        let s = h.stats;
        let total = s.wins + s.draws + s.losses;
        let share = |x: u64| match x {
            0 => "0".to_string(),
            _ => format!("{x} ({:.1}%)", 100.0 * x as f64 / total as f64),
        };
        let longest = s.longest_win.map_or("-".to_string(), |d| d.to_string());
        let size = HEADER_LEN as u64 + h.payload_len;
        let _ = writeln!(
            out,
            "| {} | {total} | {} | {} | {} | {longest} | {size} |",
            h.signature,
            share(s.wins),
            share(s.draws),
            share(s.losses)
        );
        positions += total;
        bytes += size;
    }
    let _ = writeln!(
        out,
        "{} tables, {positions} positions, {bytes} bytes ({})",
        tb.headers().len(),
        tb.rules()
    );
    Ok(())
}

/// `tama egtb compress`: a line per table on stderr as it is done, a
/// summary last.
fn compress_command(a: &EgtbCompressArgs) -> Result<()> {
    let rules = a.place.rules.rules();
    let out = a.out.as_deref().unwrap_or(&a.place.dir);
    let opts = CompressOptions {
        block_bytes: a.block_bytes,
        level: a.level,
        threads: a.threads.unwrap_or_else(tama_os::machine::cpu_count),
    };
    let started = Instant::now();
    let done = compress_dir(&a.place.dir, out, rules, &opts, &mut |c| {
        let what = if c.already {
            "compressed already"
        } else {
            "compressed"
        };
        eprintln!(
            "{:>8.1} s  {}: {} -> {} bytes ({what})",
            started.elapsed().as_secs_f64(),
            c.name,
            c.bytes_in,
            c.bytes_out
        );
    })?;
    let entries: u64 = done.iter().map(|c| c.entries).sum();
    let (bytes_in, bytes_out): (u64, u64) = done
        .iter()
        .fold((0, 0), |(i, o), c| (i + c.bytes_in, o + c.bytes_out));
    println!(
        "compressed {} tables ({entries} entries) into {}: {bytes_in} -> {bytes_out} bytes ({:.4} -> {:.4} bytes per entry), {:.1} s",
        done.len(),
        out.display(),
        bytes_in as f64 / entries.max(1) as f64,
        bytes_out as f64 / entries.max(1) as f64,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `tama egtb bench`: the tables' bytes per entry, then random positions of
/// them (each table drawn in proportion to its entries) probed on one
/// thread, the positions made before the clock starts.
fn bench_command(a: &EgtbBenchArgs) -> Result<()> {
    let tb = open(&a.place)?;
    let rules = tb.rules();
    let headers: Vec<_> = tb
        .headers()
        .into_iter()
        .filter(|h| a.pieces.is_none_or(|n| h.signature.pieces() == n))
        .collect();
    if headers.is_empty() {
        bail!(
            "no table of {} pieces in {}",
            a.pieces.unwrap_or(0),
            a.place.dir.display()
        );
    }
    let entries: u64 = headers.iter().map(|h| h.entries).sum();
    let bytes: u64 = headers
        .iter()
        .map(|h| HEADER_LEN as u64 + h.payload_len)
        .sum();
    println!(
        "{} tables, {entries} entries, {bytes} bytes: {:.4} bytes per entry",
        headers.len(),
        bytes as f64 / entries as f64
    );
    let sampler = PositionSampler::new(headers.iter().map(|h| h.signature));
    let mut rng = Rng::new(a.seed);
    let mut positions = Vec::with_capacity(a.probes as usize);
    while (positions.len() as u64) < a.probes {
        positions.extend(sampler.draw(&mut rng, rules));
    }
    // Three passes: the first also pays for reading the files into memory.
    for pass in 1..=3 {
        let decompressed = blocks_decompressed();
        let started = Instant::now();
        let mut found = 0u64;
        for pos in &positions {
            found += u64::from(std::hint::black_box(tb.probe(pos)).is_some());
        }
        let secs = started.elapsed().as_secs_f64();
        let decompressed = blocks_decompressed() - decompressed;
        if found != positions.len() as u64 {
            bail!(
                "{} of {} probes found nothing",
                positions.len() as u64 - found,
                positions.len()
            );
        }
        println!(
            "pass {pass}: {} probes in {secs:.3} s: {:.0} probes per second, {decompressed} blocks decompressed",
            positions.len(),
            positions.len() as f64 / secs
        );
    }
    Ok(())
}
