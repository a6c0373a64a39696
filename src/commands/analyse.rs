//! `tama analyse GAMES.pdn`: every game of the file reviewed
//! (`tama_engine::review`) and written back as annotated PDN; a progress
//! line on stderr, each side's summary after each game. A game that cannot
//! be read (an illegal move, an unknown rule tag) is reported and skipped:
//! the others are still reviewed, and the status is then 1.

use super::progress_line;
use crate::cli::AnalyseArgs;
use anyhow::{anyhow, bail, Context, Result};
use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tama_engine::egtb::Tablebase;
use tama_engine::notation::pdn::{read_pdn_each, PdnError, PdnGame};
use tama_engine::review::{self, Progress};
use tama_engine::search::SearchControl;
use tama_engine::Rules;

/// Reviews the games; the exit status (0, or 1 when a game was skipped).
pub fn run(a: &AnalyseArgs) -> Result<i32> {
    let bytes =
        std::fs::read(&a.games).with_context(|| format!("cannot read {}", a.games.display()))?;
    let text =
        String::from_utf8(bytes).map_err(|_| anyhow!("{} is not UTF-8 text", a.games.display()))?;
    if let Some(dir) = &a.egtb {
        if !dir.is_dir() {
            bail!("--egtb {}: no such directory", dir.display());
        }
    }
    let mut games: Vec<(usize, _)> = read_pdn_each(&text, Rules::default())
        .into_iter()
        .enumerate()
        .collect();
    if games.is_empty() {
        bail!("no game in {}", a.games.display());
    }
    if let Some(k) = a.game {
        let n = games.len();
        games.retain(|(i, _)| *i as u64 + 1 == k);
        if games.is_empty() {
            bail!("--game {k}: {} holds {n} games", a.games.display());
        }
    }
    let mut out: Box<dyn Write> = match &a.out {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot write {}", path.display()))?,
        )),
        None => Box::new(std::io::stdout().lock()),
    };
    let limits = review::limits(a.movetime, a.nodes, a.depth);
    let budget = match (limits.movetime, a.nodes, a.depth) {
        (Some(t), _, _) => format!("{} ms a position", t.as_millis()),
        (_, Some(n), _) => format!("{n} nodes a position"),
        (_, _, d) => format!("depth {} a position", d.unwrap_or(0)),
    };
    let annotator = format!("Tama {} ({budget})", env!("CARGO_PKG_VERSION"));
    let mut searcher = review::searcher(a.hash, a.threads as usize);
    let mut tables = TablesByRules::new(a.egtb.clone());
    let total: usize = games
        .iter()
        .map(|(_, g)| g.as_ref().map_or(0, |g| g.moves.len() + 1))
        .sum();
    let count = games.len();
    let started = Instant::now();
    let mut searched = 0;
    let mut skipped = 0;
    for (k, (i, game)) in games.into_iter().enumerate() {
        let game = match game {
            Ok(g) => g,
            Err(e) => {
                // Every refusal but a tag's own names its game.
                match e {
                    PdnError::UnclosedTag { .. } | PdnError::MalformedTag(_) => {
                        eprintln!("game {}: {e}; not reviewed", i + 1)
                    }
                    _ => eprintln!("{e}; not reviewed"),
                }
                skipped += 1;
                continue;
            }
        };
        let number = game_number(&game, i);
        if !game.names_rules() {
            eprintln!(
                "game {number}: the tags name no rules; reviewed as {}",
                game.start.rules()
            );
        }
        searcher.set_tablebase(tables.get(game.start.rules(), &number));
        let control = SearchControl::new();
        let mut shown = Instant::now();
        let reviewed = review::review_game(
            &mut searcher,
            &game.start,
            &game.moves,
            &limits,
            &control,
            &mut |p: Progress| {
                // A line a second at most (a log file is not flooded).
                if p.done < p.total && shown.elapsed() < Duration::from_secs(1) {
                    return;
                }
                shown = Instant::now();
                let done = searched + p.done;
                let left = started.elapsed().as_secs_f64() / done as f64 * (total - done) as f64;
                progress_line(&format!(
                    "game {}/{count} {} ply {}/{} {} left",
                    k + 1,
                    bar(done, total),
                    p.done.saturating_sub(1),
                    p.total - 1,
                    clock(left)
                ));
            },
        )
        .context("the review stopped")?;
        searched += game.moves.len() + 1;
        let result = game.result.as_deref().unwrap_or("*");
        out.write_all(reviewed.to_pdn(&game.tags, &annotator, result).as_bytes())?;
        out.flush()?;
        eprintln!();
        for line in reviewed.summary_lines(&game.tags) {
            eprintln!("game {number}: {line}");
        }
    }
    Ok(i32::from(skipped > 0))
}

/// How the messages name a game: its number in the file (from 1, whatever
/// `--game` chose), and its round when it has one.
fn game_number(game: &PdnGame, index: usize) -> String {
    game.tag("Round")
        .filter(|r| !r.is_empty() && *r != "-" && *r != "?")
        .map_or_else(
            || (index + 1).to_string(),
            |r| format!("{} (round {r})", index + 1),
        )
}

/// `[#####.....]`: `done` of `total`.
fn bar(done: usize, total: usize) -> String {
    const WIDTH: usize = 20;
    let full = (done * WIDTH)
        .checked_div(total)
        .unwrap_or(WIDTH)
        .min(WIDTH);
    format!("[{}{}]", "#".repeat(full), ".".repeat(WIDTH - full))
}

/// Seconds as `m:ss`.
fn clock(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    format!("{}:{:02}", s / 60, s % 60)
}

/// The databases of `--egtb`, opened once per rule set; a rule set without
/// tables there is said once and reviewed without them.
struct TablesByRules {
    dir: Option<std::path::PathBuf>,
    opened: HashMap<Rules, Option<Arc<Tablebase>>>,
}

impl TablesByRules {
    fn new(dir: Option<std::path::PathBuf>) -> TablesByRules {
        TablesByRules {
            dir,
            opened: HashMap::new(),
        }
    }

    fn get(&mut self, rules: Rules, game: &str) -> Option<Arc<Tablebase>> {
        let dir = self.dir.as_ref()?;
        self.opened
            .entry(rules)
            .or_insert_with(|| match Tablebase::open(dir, rules) {
                Ok(t) => Some(Arc::new(t)),
                Err(e) => {
                    eprintln!("game {game}: {e}; reviewed without the tables");
                    None
                }
            })
            .clone()
    }
}
