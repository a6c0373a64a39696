//! The final tables of a match, as text, made from its tally (`tally`;
//! the results file made from the same tally is `results`).

use crate::stats::elo::{fmt_elo, Wdl};
use crate::stats::sprt::{SprtDecision, SprtModel};
use crate::stats::tally::Summary;
use std::fmt::Write as _;

impl Summary {
    /// The final table as text.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{} ({})", self.event, self.rules);
        if self.interrupted {
            let _ = writeln!(s, "interrupted: results of the finished games only");
        }
        if let Some(k) = self.shard {
            let _ = writeln!(
                s,
                "shard {k}: one part of the match (--merge adds the parts)"
            );
        }
        if !self.shards_missing.is_empty() {
            let n = self.schedule.as_ref().map_or(0, |id| id.shards);
            let _ = writeln!(
                s,
                "INCOMPLETE: shards {:?} of {n} are missing from this merge",
                self.shards_missing
            );
        }
        for p in &self.pairs {
            let w = &p.wdl;
            let _ = writeln!(
                s,
                "{} vs {}: {} games, W {} D {} L {} (from {}'s side), points {}-{}",
                p.first,
                p.second,
                w.games(),
                w.wins,
                w.draws,
                w.losses,
                p.first,
                w.points(),
                w.flipped().points()
            );
            if w.games() == 0 {
                continue;
            }
            let _ = writeln!(
                s,
                "  score {:.1}%  Elo {}  LOS {}  draw ratio {:.1}%",
                w.score().unwrap_or(0.0) * 100.0,
                fmt_elo(w.elo()),
                w.los().map_or("-".into(), |l| format!("{:.1}%", l * 100.0)),
                w.draw_ratio().unwrap_or(0.0) * 100.0
            );
            if p.penta.pairs() > 0 {
                let c = p.penta.0;
                let _ = writeln!(
                    s,
                    "  pentanomial [LL, LD, DD+WL, WD, WW] = [{}, {}, {}, {}, {}] over {} pairs, Elo {}",
                    c[0],
                    c[1],
                    c[2],
                    c[3],
                    c[4],
                    p.penta.pairs(),
                    fmt_elo(p.penta.elo())
                );
            }
        }
        if self.engines.len() > 2 {
            s.push_str(&self.standings());
        }
        if let (Some(sp), Some(st)) = (self.sprt, self.sprt_state()) {
            let _ = writeln!(
                s,
                "SPRT {} ({} model): LLR {:.3} [{:.3}, {:.3}] {}",
                sp.describe(),
                st.model.name(),
                st.llr,
                sp.lower_bound(),
                sp.upper_bound(),
                match st.decision {
                    SprtDecision::H1 => "H1 accepted",
                    SprtDecision::H0 => "H0 accepted",
                    SprtDecision::Continue => "no decision",
                }
            );
            if st.model != SprtModel::Trinomial {
                let _ = writeln!(
                    s,
                    "  (trinomial model on the same games: LLR {:.3}; the pairs decide)",
                    st.llr_trinomial
                );
            }
        }
        if !self.terminations.is_empty() {
            let _ = writeln!(s, "terminations:");
            for (why, n) in &self.terminations {
                let _ = writeln!(s, "  {n:>6}  {why}");
            }
        }
        s
    }

    fn standings(&self) -> String {
        let mut s = String::new();
        let mut rows: Vec<(String, Wdl)> = self
            .engines
            .iter()
            .map(|n| (n.clone(), self.total(n)))
            .collect();
        rows.sort_by(|a, b| {
            b.1.score()
                .unwrap_or(0.0)
                .total_cmp(&a.1.score().unwrap_or(0.0))
        });
        let width = self
            .engines
            .iter()
            .map(|n| n.len())
            .max()
            .unwrap_or(4)
            .max(6);
        let _ = writeln!(
            s,
            "{:<3} {:<width$} {:>6} {:>6} {:>5} {:>5} {:>5} {:>7}  Elo (vs field)",
            "#", "engine", "points", "games", "W", "D", "L", "score"
        );
        for (i, (name, w)) in rows.iter().enumerate() {
            let _ = writeln!(
                s,
                "{:<3} {:<width$} {:>6} {:>6} {:>5} {:>5} {:>5} {:>6.1}%  {}",
                i + 1,
                name,
                w.points(),
                w.games(),
                w.wins,
                w.draws,
                w.losses,
                w.score().unwrap_or(0.0) * 100.0,
                fmt_elo(w.elo())
            );
        }
        // Cross-table: points of the row engine against the column engine.
        let label = width + 4;
        let _ = write!(s, "cross-table (points of row vs column)\n{:<label$}", "");
        for (j, _) in rows.iter().enumerate() {
            let _ = write!(s, " {:>7}", j + 1);
        }
        s.push('\n');
        for (i, (a, _)) in rows.iter().enumerate() {
            let _ = write!(s, "{:<label$}", format!("{} {a}", i + 1));
            for (b, _) in &rows {
                let cell = if a == b {
                    "-".to_string()
                } else {
                    match self.pairs.iter().find(|p| {
                        (p.first == *a && p.second == *b) || (p.first == *b && p.second == *a)
                    }) {
                        Some(p) if p.first == *a => {
                            format!("{}/{}", p.wdl.points(), 2 * p.wdl.games())
                        }
                        Some(p) => format!("{}/{}", p.wdl.flipped().points(), 2 * p.wdl.games()),
                        None => ".".into(),
                    }
                };
                let _ = write!(s, " {cell:>7}");
            }
            s.push('\n');
        }
        s
    }
}

/// The termination reason without game-specific numbers, for the counts.
/// (a fault or a time loss keeps its category: "white engine crashed").
pub fn generic_reason(t: &str) -> String {
    const CATEGORIES: [&str; 8] = [
        "engine failed to start",
        "engine crashed",
        "engine hangs",
        "engine error",
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
