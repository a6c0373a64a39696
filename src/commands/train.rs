//! `tama train`: a weights file fitted to data files (`tama_train::train`).

use crate::cli::TrainArgs;
use anyhow::{Context, Result};
use tama_train::train;

/// `tama train`: fits the weights and writes them (or, with `--show`,
/// prints a weights file).
pub fn run(a: &TrainArgs) -> Result<()> {
    if let Some(path) = &a.show {
        print!("{}", train::show(path)?);
        return Ok(());
    }
    let out = a
        .out
        .clone()
        .context("give the weights file to write: --out FILE")?;
    let settings = train::Settings {
        data: a.data.clone(),
        out,
        // Read first: a bad --init is refused before the data is read.
        init: match &a.init {
            Some(value) => Some((
                value.clone(),
                tama_protocol::options::read_weights(value)
                    .with_context(|| format!("--init {value}"))?,
            )),
            None => None,
        },
        valid_percent: a.valid_percent,
        split: a.split,
        egtb: a.egtb.clone(),
        egtb_positions: a.egtb_positions as usize,
        fit: tama_train::trainer::Settings {
            model: a.model,
            epochs: a.epochs as usize,
            lambda: a.lambda,
            learning_rate: a.lr,
            batch: a.batch as usize,
            l2: a.l2,
            threads: a.threads as usize,
            seed: a.seed,
            freeze_hand: a.freeze_hand,
            freeze_patterns: a.freeze_patterns,
            fixed: a.fix.iter().map(|f| (f.term, f.centi_men)).collect(),
        },
        command: std::env::args().collect::<Vec<_>>().join(" "),
    };
    let r = train::run(&settings, &mut |l| eprintln!("{l}"))?;
    println!(
        "{}: {} positions read, {} training + {} validation positions, K {:.1}, validation loss {:.6} -> {:.6} (epoch {}), {:.1} s",
        r.variant,
        r.positions_read,
        r.train_positions,
        r.valid_positions,
        r.k,
        r.valid_loss_before,
        r.valid_loss_after,
        r.best_epoch,
        r.seconds
    );
    if let Some(counts) = r.relabelled {
        println!("{counts}");
    }
    if let Some(d) = r.drawn {
        println!(
            "{} positions drawn from the endgame databases ({})",
            d.total(),
            d.wdl()
        );
    }
    Ok(())
}
