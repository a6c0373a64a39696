//! What the Hub dialect prints: search output (`HubReporter`, scores in
//! men) and the `param` lines of `hub`.

use crate::options::{Kind, OptionDef};
use crate::session::{checked_line, Reporter};
use crate::text::one_line;
use tama_engine::notation::hub::move_text;
use tama_engine::search::{Score, SearchInfo, SearchOutcome};
use tama_engine::Position;

/// A search score in Hub units: men (centi-men / 100); a win in `n` plies
/// is `(10000 - n) / 100`, as Scan and pydraughts read it.
pub fn score_text(score: Score) -> String {
    let v = match score {
        Score::Cp(cp) => cp as f64 / 100.0,
        Score::Mate(n) if n > 0 => (10000 - (2 * n - 1)) as f64 / 100.0,
        Score::Mate(n) => -(10000 + 2 * n) as f64 / 100.0,
    };
    format!("{v:.2}")
}

/// Formats search output the Hub way.
pub struct HubReporter;

impl Reporter for HubReporter {
    fn info(&self, root: &Position, i: &SearchInfo) -> Option<String> {
        if i.multipv > 1 {
            return None;
        }
        let pv: Vec<String> = checked_line(root, &i.pv)
            .iter()
            .map(|(_, m)| move_text(m))
            .collect();
        Some(format!(
            "info depth={} score={} nodes={} time={:.3} nps={:.2} tbhits={} pv=\"{}\"",
            i.depth,
            score_text(i.score),
            i.nodes,
            i.time.as_secs_f64(),
            i.nps as f64 / 1e6,
            i.tbhits,
            pv.join(" ")
        ))
    }

    fn error(&self, msg: &str) -> String {
        format!("error message=\"{}\"", one_line(msg).replace('"', "'"))
    }

    /// An `info` line with a `message` argument: the Hub grammar has no
    /// free text line, and GUIs ignore arguments they do not know.
    fn note(&self, msg: &str) -> String {
        let msg = one_line(msg).replace('"', "'").replace('=', ":");
        format!("info message=\"{msg}\"")
    }

    /// None: Hub GUIs show no free text, and the `info message` of a
    /// remark would only be noise to them.
    fn remark(&self, _msg: &str) -> Option<String> {
        None
    }

    fn best(&self, _root: &Position, o: &SearchOutcome) -> String {
        match o.best_move {
            None => "done".to_string(),
            Some(m) => {
                let mut s = format!("done move={}", move_text(&m));
                if let Some(p) = o.ponder_move {
                    s.push_str(&format!(" ponder={}", move_text(&p)));
                }
                s
            }
        }
    }
}

/// The `param` line `hub` prints for an option (none for a button, which
/// has no value to show).
pub(crate) fn param_line(d: &OptionDef, hub: &str, value: String) -> Option<String> {
    let kind = match &d.kind {
        Kind::Spin { min, max } => format!("type=int min={min} max={max}"),
        Kind::Check => "type=bool".to_string(),
        Kind::Combo { values } => format!("type=enum values=\"{}\"", values.join(" ")),
        Kind::Button => return None,
        Kind::Text => "type=string".to_string(),
    };
    // A path may be empty or hold spaces: quoted, it stays one value.
    let value = if value.is_empty() || value.contains(char::is_whitespace) {
        format!("\"{value}\"")
    } else {
        value
    };
    Some(format!("param name={hub} value={value} {kind}"))
}
