//! Results: per-pair counts, the SPRT state and the final tables (the
//! results file written from them is `results`).

use super::elo::{fmt_elo, Wdl};
use super::pentanomial::Penta;
use super::results::GameEntry;
use super::shard::{ScheduleId, Shard};
use super::sprt::{Sprt, SprtDecision, SprtModel, SprtState};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Results between two engines, from `first`'s point of view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PairResult {
    pub first: String,
    pub second: String,
    pub wdl: Wdl,
    pub penta: Penta,
}

/// Everything the tables and the JSON file are made from.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub event: String,
    pub rules: String,
    pub engines: Vec<String>,
    pub pairs: Vec<PairResult>,
    pub sprt: Option<Sprt>,
    /// Whether games are played in opening pairs (`-repeat`): the SPRT
    /// then uses the pentanomial model.
    pub paired: bool,
    /// Termination reason counts.
    pub terminations: BTreeMap<String, u64>,
    /// One line per game: round, white, black, result, termination, plies.
    pub games: Vec<GameEntry>,
    pub interrupted: bool,
    /// The full schedule these games are part of (written by the runner;
    /// read back by `--merge`).
    pub schedule: Option<ScheduleId>,
    /// `-shard K/N`: the part played (None: the whole schedule, or a merge).
    pub shard: Option<Shard>,
    /// After a merge of shards: the shards no file held.
    pub shards_missing: Vec<u32>,
}

impl Summary {
    /// The pair entry for (a, b), created if missing; the bool says whether
    /// the entry is stored as (b, a).
    pub fn pair_mut(&mut self, a: &str, b: &str) -> (&mut PairResult, bool) {
        if let Some(i) = self
            .pairs
            .iter()
            .position(|p| (p.first == a && p.second == b) || (p.first == b && p.second == a))
        {
            let flipped = self.pairs[i].first != a;
            return (&mut self.pairs[i], flipped);
        }
        self.pairs.push(PairResult {
            first: a.to_string(),
            second: b.to_string(),
            ..PairResult::default()
        });
        (self.pairs.last_mut().expect("just pushed"), false)
    }

    /// An engine's results against everyone.
    pub fn total(&self, name: &str) -> Wdl {
        let mut w = Wdl::default();
        for p in &self.pairs {
            if p.first == name {
                w.add(&p.wdl);
            } else if p.second == name {
                w.add(&p.wdl.flipped());
            }
        }
        w
    }

    pub fn games_played(&self) -> u64 {
        self.pairs.iter().map(|p| p.wdl.games()).sum()
    }

    /// The SPRT of the first pairing (pentanomial when games are paired,
    /// else trinomial).
    pub fn sprt_state(&self) -> Option<SprtState> {
        let s = self.sprt?;
        let p = self.pairs.first()?;
        Some(s.state(&p.wdl, &p.penta, self.paired || p.penta.pairs() > 0))
    }

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
