//! Results: per-pair counts, the final tables, SPRT state, the JSON results
//! file, and merging several results files.

use super::elo::{fmt_elo, Wdl};
use super::json::Json;
use super::pentanomial::Penta;
use super::sprt::{Sprt, SprtDecision};
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
    /// Termination reason counts.
    pub terminations: BTreeMap<String, u64>,
    /// One line per game: round, white, black, result, termination, plies.
    pub games: Vec<Json>,
    pub interrupted: bool,
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

    /// LLR (pentanomial when there are pairs, else trinomial), bounds and
    /// decision for the first pair.
    pub fn sprt_state(&self) -> Option<(f64, SprtDecision)> {
        let s = self.sprt?;
        let p = self.pairs.first()?;
        let llr = if p.penta.pairs() > 0 {
            s.llr_penta(&p.penta)
        } else {
            s.llr_wdl(&p.wdl)
        };
        Some((llr, s.decide(llr)))
    }

    /// The final table as text.
    pub fn table(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{} ({})", self.event, self.rules);
        if self.interrupted {
            let _ = writeln!(s, "interrupted: results of the finished games only");
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
        if let (Some(sp), Some((llr, d))) = (self.sprt, self.sprt_state()) {
            let _ = writeln!(
                s,
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.3} [{:.3}, {:.3}] {}",
                sp.elo0,
                sp.elo1,
                sp.alpha,
                sp.beta,
                llr,
                sp.lower_bound(),
                sp.upper_bound(),
                match d {
                    SprtDecision::H1 => "H1 accepted",
                    SprtDecision::H0 => "H0 accepted",
                    SprtDecision::Continue => "no decision",
                }
            );
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

    pub fn to_json(&self) -> Json {
        let pair = |p: &PairResult| {
            let w = &p.wdl;
            let (elo, err) = w.elo().unwrap_or((f64::NAN, f64::NAN));
            let (pelo, perr) = p.penta.elo().unwrap_or((f64::NAN, f64::NAN));
            Json::obj(vec![
                ("first", Json::str(&p.first)),
                ("second", Json::str(&p.second)),
                ("games", Json::Num(w.games() as f64)),
                ("wins", Json::Num(w.wins as f64)),
                ("draws", Json::Num(w.draws as f64)),
                ("losses", Json::Num(w.losses as f64)),
                ("score", Json::num(w.score().unwrap_or(f64::NAN))),
                ("elo", Json::num(elo)),
                ("elo_error95", Json::num(err)),
                ("los", Json::num(w.los().unwrap_or(f64::NAN))),
                ("draw_ratio", Json::num(w.draw_ratio().unwrap_or(f64::NAN))),
                (
                    "pentanomial",
                    Json::Arr(p.penta.0.iter().map(|&c| Json::Num(c as f64)).collect()),
                ),
                ("penta_elo", Json::num(pelo)),
                ("penta_elo_error95", Json::num(perr)),
            ])
        };
        let mut kv = vec![
            ("format", Json::str("tama-match-results-1")),
            ("event", Json::str(&self.event)),
            ("rules", Json::str(&self.rules)),
            ("interrupted", Json::Bool(self.interrupted)),
            (
                "engines",
                Json::Arr(self.engines.iter().map(Json::str).collect()),
            ),
            ("games_played", Json::Num(self.games_played() as f64)),
            ("pairs", Json::Arr(self.pairs.iter().map(pair).collect())),
        ];
        if let (Some(sp), Some((llr, d))) = (self.sprt, self.sprt_state()) {
            kv.push((
                "sprt",
                Json::obj(vec![
                    ("elo0", Json::num(sp.elo0)),
                    ("elo1", Json::num(sp.elo1)),
                    ("alpha", Json::num(sp.alpha)),
                    ("beta", Json::num(sp.beta)),
                    ("llr", Json::num(llr)),
                    ("lower", Json::num(sp.lower_bound())),
                    ("upper", Json::num(sp.upper_bound())),
                    (
                        "decision",
                        Json::str(match d {
                            SprtDecision::H1 => "H1",
                            SprtDecision::H0 => "H0",
                            SprtDecision::Continue => "none",
                        }),
                    ),
                ]),
            ));
        }
        kv.push((
            "terminations",
            Json::Obj(
                self.terminations
                    .iter()
                    .map(|(k, v)| (k.clone(), Json::Num(*v as f64)))
                    .collect(),
            ),
        ));
        kv.push(("games", Json::Arr(self.games.clone())));
        Json::obj(kv)
    }

    /// Adds a results file (as written by `to_json`) to this summary.
    pub fn merge_json(&mut self, j: &Json) -> Result<(), String> {
        if j.get("format").and_then(Json::as_str) != Some("tama-match-results-1") {
            return Err("not a tama match results file".into());
        }
        if self.event.is_empty() {
            self.event = j.get("event").and_then(Json::as_str).unwrap_or("").into();
            self.rules = j.get("rules").and_then(Json::as_str).unwrap_or("").into();
        } else if j.get("rules").and_then(Json::as_str) != Some(self.rules.as_str()) {
            return Err(format!(
                "results were played under different rules ({:?} and {:?})",
                self.rules,
                j.get("rules").and_then(Json::as_str).unwrap_or("?")
            ));
        }
        for e in j.get("engines").and_then(Json::as_array).unwrap_or(&[]) {
            if let Some(n) = e.as_str() {
                if !self.engines.iter().any(|x| x == n) {
                    self.engines.push(n.to_string());
                }
            }
        }
        for p in j.get("pairs").and_then(Json::as_array).unwrap_or(&[]) {
            let field = |k: &str| {
                p.get(k)
                    .and_then(Json::as_u64)
                    .ok_or_else(|| format!("pair without a count {k:?}"))
            };
            let first = p
                .get("first")
                .and_then(Json::as_str)
                .ok_or("pair without names")?;
            let second = p
                .get("second")
                .and_then(Json::as_str)
                .ok_or("pair without names")?;
            let wdl = Wdl {
                wins: field("wins")?,
                draws: field("draws")?,
                losses: field("losses")?,
            };
            let mut penta = Penta::default();
            if let Some(a) = p.get("pentanomial").and_then(Json::as_array) {
                if a.len() != 5 {
                    return Err("pentanomial needs 5 counts".into());
                }
                for (k, v) in a.iter().enumerate() {
                    penta.0[k] = v.as_u64().ok_or("bad pentanomial count")?;
                }
            }
            let (entry, flipped) = self.pair_mut(first, second);
            if flipped {
                entry.wdl.add(&wdl.flipped());
                entry.penta.add(&penta.flipped());
            } else {
                entry.wdl.add(&wdl);
                entry.penta.add(&penta);
            }
        }
        if let Some(Json::Obj(kv)) = j.get("terminations") {
            for (k, v) in kv {
                *self.terminations.entry(k.clone()).or_default() += v.as_u64().unwrap_or(0);
            }
        }
        if self.sprt.is_none() {
            if let Some(s) = j.get("sprt") {
                let g = |k: &str| s.get(k).and_then(Json::as_f64);
                if let (Some(elo0), Some(elo1), Some(alpha), Some(beta)) =
                    (g("elo0"), g("elo1"), g("alpha"), g("beta"))
                {
                    self.sprt = Some(Sprt {
                        elo0,
                        elo1,
                        alpha,
                        beta,
                    });
                }
            }
        }
        if let Some(games) = j.get("games").and_then(Json::as_array) {
            self.games.extend(games.iter().cloned());
        }
        self.interrupted |= j.get("interrupted") == Some(&Json::Bool(true));
        Ok(())
    }
}

/// The termination reason without game-specific numbers, for the counts.
/// (a fault or a time loss keeps its category: "white engine crashed").
pub fn generic_reason(t: &str) -> String {
    const CATEGORIES: [&str; 7] = [
        "engine failed to start",
        "engine crashed",
        "engine hangs",
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
    fn merge_adds_counts_in_either_order() {
        let mut a = Summary {
            event: "e".into(),
            rules: "r".into(),
            engines: vec!["A".into(), "B".into()],
            ..Summary::default()
        };
        {
            let (p, _) = a.pair_mut("A", "B");
            p.wdl = Wdl {
                wins: 5,
                draws: 3,
                losses: 2,
            };
            p.penta = Penta([0, 1, 2, 1, 1]);
        }
        a.terminations.insert("x".into(), 10);
        let mut b = Summary {
            event: "e".into(),
            rules: "r".into(),
            engines: vec!["B".into(), "A".into()],
            ..Summary::default()
        };
        {
            let (p, _) = b.pair_mut("B", "A");
            p.wdl = Wdl {
                wins: 1,
                draws: 0,
                losses: 4,
            };
            p.penta = Penta([0, 0, 1, 1, 0]);
        }
        let ja = Json::parse(&a.to_json().pretty()).unwrap();
        let jb = Json::parse(&b.to_json().pretty()).unwrap();
        let mut m = Summary::default();
        m.merge_json(&ja).unwrap();
        m.merge_json(&jb).unwrap();
        assert_eq!(m.pairs.len(), 1);
        assert_eq!(
            m.pairs[0].wdl,
            Wdl {
                wins: 9,
                draws: 3,
                losses: 3
            }
        );
        assert_eq!(m.pairs[0].penta, Penta([0, 2, 3, 1, 1]));
        assert_eq!(m.terminations["x"], 10);
        assert!(m.table().contains("W 9 D 3 L 3"));
        // Different rules are refused.
        let mut c = Summary {
            rules: "other".into(),
            ..b.clone()
        };
        c.event = "e".into();
        let jc = Json::parse(&c.to_json().pretty()).unwrap();
        assert!(m.merge_json(&jc).is_err());
        assert!(m.merge_json(&Json::Null).is_err());
    }

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
