//! `tama train`: fits one variant's evaluation weights to data files made by
//! `tama datagen`, and writes a weights file (`tama_engine::eval::file`).
//!
//! The split into training and validation sets and the removal of repeated
//! positions are `dataset`'s; the exact values of the endgame databases
//! (`--egtb`) are `tables`'.

use crate::dataset::{Dataset, Samples, Split};
use crate::error::DataError;
use crate::record::{self, DataHeader, SHARD_HEADER_BYTES};
use crate::tables::{self, Relabelled};
use crate::trainer::{self, EpochReport};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Instant;
use tama_engine::egtb::Tablebase;
use tama_engine::eval::{file, hand, VariantWeights};
use tama_engine::Variant;

#[derive(Clone, Debug)]
pub struct Settings {
    pub data: Vec<PathBuf>,
    pub out: PathBuf,
    /// Start from these weights instead of the hand-set ones: the value
    /// given (a weights file or `builtin:NAME`, as the `EvalFile` option
    /// takes them) and the weights it names, read by the caller before
    /// the data (which may take minutes), so that a bad value fails fast.
    pub init: Option<(String, VariantWeights)>,
    pub valid_percent: u32,
    pub split: Split,
    /// The endgame databases whose positions take their exact value as
    /// the target (`tables`).
    pub egtb: Option<PathBuf>,
    /// Positions drawn from those tables and added with their exact value
    /// (`tables::draw`); 0 draws none.
    pub egtb_positions: usize,
    pub fit: trainer::Settings,
    /// The command line, kept in the weights file.
    pub command: String,
}

#[derive(Clone, Debug)]
pub struct Summary {
    pub variant: Variant,
    /// Positions in the games read, every occurrence counted.
    pub positions_read: u64,
    pub train_positions: usize,
    pub valid_positions: usize,
    pub k: f64,
    pub valid_loss_before: f64,
    pub valid_loss_after: f64,
    pub best_epoch: usize,
    pub seconds: f64,
    /// The samples the databases relabelled (with `--egtb`).
    pub relabelled: Option<Relabelled>,
    /// The positions drawn from the databases (`--egtb-positions`).
    pub drawn: Option<Relabelled>,
}

fn read(path: &PathBuf) -> Result<Vec<u8>, DataError> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()).into())
}

/// The header of the data file at `path`, read alone.
fn header_of(path: &Path) -> Result<DataHeader, DataError> {
    let mut head = Vec::with_capacity(SHARD_HEADER_BYTES);
    std::fs::File::open(path)
        .and_then(|f| f.take(SHARD_HEADER_BYTES as u64).read_to_end(&mut head))
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    DataHeader::decode(&head).map_err(|e| format!("{}: {e}", path.display()).into())
}

/// The training and validation samples of every data file, and their variant
/// (that of the `init` weights when there are some). With `tables`, every
/// file must be of their rules.
pub fn load(
    settings: &Settings,
    init: Option<&VariantWeights>,
    tables: Option<&Tablebase>,
) -> Result<(Variant, Samples), DataError> {
    let mut variant = init.map(|w| w.variant);
    let mut dataset = Dataset::new(settings.split, settings.valid_percent);
    for path in &settings.data {
        let bytes = read(path)?;
        let name = path.display();
        let header = DataHeader::decode(&bytes).map_err(|e| format!("{name}: {e}"))?;
        let v = header.rules.variant;
        let expected = *variant.get_or_insert(v);
        if expected != v {
            let before = match &settings.init {
                Some((value, _)) => format!("--init {value} holds {expected} weights"),
                None => "the files before it another variant".to_string(),
            };
            return Err(format!("{name} holds {v} games, {before}").into());
        }
        if let Some(tb) = tables.filter(|tb| tb.rules() != header.rules) {
            return Err(format!(
                "{name} holds games under the rules {}, the --egtb tables are for {}",
                header.rules,
                tb.rules()
            )
            .into());
        }
        let scan = record::scan(&bytes[header.encoded_len()..], header.rules)
            .map_err(|e| format!("{name}: {e}"))?;
        dataset.add_file(&scan.games);
    }
    let variant = variant.ok_or("give at least one data file")?;
    let samples = dataset.finish();
    if samples.train.is_empty() || samples.valid.is_empty() {
        return Err(format!(
            "too little data: {} training and {} validation positions",
            samples.train.len(),
            samples.valid.len()
        )
        .into());
    }
    Ok((variant, samples))
}

pub fn run(settings: &Settings, progress: &mut dyn FnMut(&str)) -> Result<Summary, DataError> {
    let started = Instant::now();
    let init = settings.init.as_ref().map(|(_, w)| w);
    // The tables are opened before the data is read (which may take
    // minutes), for the rules of the first file's header.
    let tables = match (&settings.egtb, settings.data.first()) {
        (Some(dir), Some(first)) => Some(tables::open(dir, header_of(first)?.rules)?),
        _ => None,
    };
    let (variant, samples) = load(settings, init, tables.as_ref())?;
    let Samples {
        mut train,
        mut valid,
        positions: positions_read,
    } = samples;
    progress(&format!(
        "{variant}: {positions_read} positions read, {} training positions, {} validation positions",
        train.len(),
        valid.len()
    ));
    let relabelled = tables.as_ref().map(|tb| {
        let mut counts = tables::relabel(tb, &mut train);
        counts.add(tables::relabel(tb, &mut valid));
        progress(&counts.to_string());
        counts
    });
    let drawn = match (&tables, settings.egtb_positions) {
        (Some(tb), n) if n > 0 => {
            let d = tables::draw(tb, n, settings.valid_percent, settings.fit.seed)?;
            progress(&format!(
                "{} positions drawn from the endgame databases, {} training and {} validation ({})",
                d.counts.total(),
                d.train.len(),
                d.valid.len(),
                d.counts.wdl()
            ));
            train.extend(d.train);
            valid.extend(d.valid);
            Some(d.counts)
        }
        _ => None,
    };
    let start = init
        .cloned()
        .unwrap_or_else(|| VariantWeights::hand_set(variant));
    let epochs = settings.fit.epochs;
    let fit = trainer::train(
        &train,
        &valid,
        &start,
        &settings.fit,
        &mut |r: &EpochReport| {
            progress(&format!(
                "epoch {}/{epochs} train loss {:.6} validation loss {:.6} ({:.1} s)",
                r.epoch, r.train_loss, r.valid_loss, r.seconds
            ))
        },
    );
    let seconds = started.elapsed().as_secs_f64();
    let mut weights = fit.weights;
    weights.description = format!(
        "{} | model {} | {} training + {} validation positions | K {:.1} | validation loss {:.6} -> {:.6} (epoch {})",
        settings.command,
        settings.fit.model.name(),
        train.len(),
        valid.len(),
        fit.k,
        fit.valid_loss_before,
        fit.valid_loss_after,
        fit.best_epoch
    );
    let bytes = file::encode(&weights);
    // Written aside and renamed, so a reader never sees half a file.
    let partial = settings.out.with_extension("partial");
    std::fs::write(&partial, &bytes)
        .and_then(|()| std::fs::rename(&partial, &settings.out))
        .map_err(|e| format!("cannot write {}: {e}", settings.out.display()))?;
    Ok(Summary {
        variant,
        positions_read,
        train_positions: train.len(),
        valid_positions: valid.len(),
        k: fit.k,
        valid_loss_before: fit.valid_loss_before,
        valid_loss_after: fit.valid_loss_after,
        best_epoch: fit.best_epoch,
        seconds,
        relabelled,
        drawn,
    })
}

/// A weights file as text: its variant, model and description (the
/// command and figures of the training that made it), the hand weights in
/// centi-men, how many pattern weights are not negligible, and the king
/// terms (the material balances that have a weight, the king squares).
pub fn show(path: &PathBuf) -> Result<String, DataError> {
    let w = file::decode(&read(path)?).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut text = format!("{} {}: {}\n", w.variant, w.model().name(), w.description);
    for (name, x) in hand::NAMES.iter().zip(w.hand) {
        text += &format!("{name:>16} {:9.2}\n", x as f64 / hand::ONE as f64);
    }
    let big = |v: &[i16]| {
        v.iter()
            .filter(|x| x.unsigned_abs() >= hand::ONE as u16)
            .count()
    };
    if let Some(p) = &w.patterns {
        let p = p.params();
        text += &format!(
            "patterns: {} weights a phase, at least 1 centi-man: {} opening, {} endgame\n",
            p.opening.len(),
            big(&p.opening),
            big(&p.endgame)
        );
    }
    if let Some(k) = &w.kings {
        text += &format!(
            "kings: {} material balances at least 1 centi-man\n",
            big(k.material())
        );
        let (opening, endgame) = k.squares();
        for (phase, weights) in [("opening", opening), ("endgame", endgame)] {
            text += &format!("king squares, {phase} (rank 1 first, files a-d):\n");
            for rank in weights.chunks(4) {
                let cm: Vec<String> = rank
                    .iter()
                    .map(|&x| format!("{:7.2}", x as f64 / hand::ONE as f64))
                    .collect();
                text += &format!("{}\n", cm.join(" "));
            }
        }
    }
    Ok(text)
}
