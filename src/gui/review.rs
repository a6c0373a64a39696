//! The board's Review: a game from the page reviewed in the background on
//! a thread of the server (`tama_engine::review`, as `tama analyse` does),
//! one searcher for the whole game. `POST /review/start` answers an id;
//! `GET /review/status?id=` the progress, then the review as JSON (each
//! move's score, mark, better line; each side's summary; the annotated
//! PDN); `POST /review/stop?id=` cancels it.

use super::http::{self, Request};
use super::tables::Tables;
use anyhow::{anyhow, Context};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::TcpStream;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tama_engine::notation::pdn::{game_type, numbered_line};
use tama_engine::review::{self, judge, GameReview, Progress};
use tama_engine::search::{SearchControl, Searcher};
use tama_engine::{Color, Position};

/// Reviews running at once (each takes threads and a table).
const MAX_RUNNING: usize = 2;
/// The most search threads a review takes.
const MAX_THREADS: usize = 2;
/// A position's time is 100 ms to 10 s.
const MOVETIME_MS: std::ops::RangeInclusive<u64> = 100..=10_000;

/// One review: its stop signal and how far it has got.
struct Job {
    control: SearchControl,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    progress: Option<Progress>,
    /// The review as JSON once finished, or why it failed.
    outcome: Option<Result<Value, String>>,
}

/// The reviews by id.
#[derive(Default)]
pub struct Reviews {
    jobs: Mutex<HashMap<u64, Arc<Job>>>,
    next: AtomicU64,
}

impl Reviews {
    fn jobs(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Job>>> {
        self.jobs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `POST /review/start` with the game (`rules`, `fen`, `moves`, the
    /// names and `result`), `movetime` (ms a position) and `egtb` (a
    /// directory or empty): checks it all, starts the review, answers
    /// `{"id": N}`.
    pub fn start(&self, body: &[u8], tables: &Tables) -> anyhow::Result<String> {
        let v: Value = serde_json::from_slice(body).map_err(|e| anyhow!("bad JSON: {e}"))?;
        let (start, moves) = super::pdn::game_from_json(&v)?;
        if moves.is_empty() {
            return Err(anyhow!("no moves to review"));
        }
        let movetime = v
            .get("movetime")
            .and_then(Value::as_u64)
            .context("movetime is missing")?;
        if !MOVETIME_MS.contains(&movetime) {
            return Err(anyhow!("movetime {movetime} is not 100 to 10000 ms"));
        }
        let tablebase = tables.named(&v, start.rules())?;
        let mut jobs = self.jobs();
        let running = jobs.values().filter(|j| j.lock().outcome.is_none()).count();
        if running >= MAX_RUNNING {
            return Err(anyhow!("already {MAX_RUNNING} reviews running; cancel one"));
        }
        let id = self.next.fetch_add(1, Ordering::SeqCst);
        let job = Arc::new(Job {
            control: SearchControl::new(),
            state: Mutex::default(),
        });
        jobs.insert(id, Arc::clone(&job));
        drop(jobs);
        let tags = tags(&v, &start);
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS));
        std::thread::spawn(move || {
            let mut searcher = review::searcher(Searcher::DEFAULT_HASH_MB, threads);
            searcher.set_tablebase(tablebase);
            let limits = review::limits(Some(movetime), None, None);
            let reviewed = review::review_game(
                &mut searcher,
                &start,
                &moves,
                &limits,
                &job.control,
                &mut |p| job.lock().progress = Some(p),
            );
            let result = tags
                .iter()
                .find(|(k, _)| k == "Result")
                .map_or("*", |(_, v)| v.as_str());
            job.lock().outcome = Some(match reviewed {
                Some(r) => Ok(to_json(&r, &tags, result, movetime)),
                None => Err("the review was cancelled".to_string()),
            });
        });
        Ok(json!({ "id": id }).to_string())
    }

    /// `GET /review/status?id=N`.
    pub fn status(&self, req: &Request, stream: &mut TcpStream) {
        let Some(job) = self.find(req) else {
            return http::respond_error(stream, 404, "no such review");
        };
        let state = job.lock();
        let (done, total) = state.progress.map_or((0, 0), |p| (p.done, p.total));
        let body = match &state.outcome {
            None => json!({ "done": done, "total": total, "finished": false }),
            Some(Ok(review)) => {
                json!({ "done": done, "total": total, "finished": true, "review": review })
            }
            Some(Err(e)) => json!({ "done": done, "total": total, "finished": true, "error": e }),
        };
        let finished = state.outcome.is_some();
        drop(state);
        if finished {
            self.forget(req);
        }
        http::respond(stream, 200, "application/json", body.to_string().as_bytes());
    }

    /// `POST /review/stop?id=N`: the review ends within milliseconds.
    pub fn stop(&self, req: &Request, stream: &mut TcpStream) {
        match self.find(req) {
            Some(job) => {
                job.control.stop();
                http::respond(stream, 200, "application/json", b"{}");
            }
            None => http::respond_error(stream, 404, "no such review"),
        }
    }

    fn find(&self, req: &Request) -> Option<Arc<Job>> {
        let id: u64 = req.query_value("id")?.parse().ok()?;
        self.jobs().get(&id).cloned()
    }

    fn forget(&self, req: &Request) {
        if let Some(id) = req.query_value("id").and_then(|i| i.parse::<u64>().ok()) {
            self.jobs().remove(&id);
        }
    }
}

impl Job {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The annotated game's tags, from the page's names and result.
fn tags(v: &Value, start: &Position) -> Vec<(String, String)> {
    let text = |name: &str| {
        v.get(name)
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string()
    };
    let rules = start.rules();
    [
        ("Event", text("event")),
        ("White", text("white")),
        ("Black", text("black")),
        (
            "Result",
            v.get("result")
                .and_then(Value::as_str)
                .unwrap_or("*")
                .to_string(),
        ),
        ("GameType", game_type(rules).to_string()),
        ("Variant", rules.variant.to_string()),
        ("CaptureRemoval", rules.capture_removal.to_string()),
        (
            "MidCapturePromotion",
            rules.mid_capture_promotion.to_string(),
        ),
        ("SetUp", "1".to_string()),
        ("FEN", start.fen()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// A review as the page draws it: each move's score (White's expected
/// score for the graph, and as text), mark and lines; each side's summary;
/// the annotated PDN.
fn to_json(r: &GameReview, tags: &[(String, String)], result: &str, movetime: u64) -> Value {
    let variant = r.start.rules().variant;
    let mut pos = r.start;
    let mut moves = Vec::new();
    for (ply, m) in r.moves.iter().enumerate() {
        let after = pos.play(&m.played);
        let tables = m.tables.map(|(b, a)| {
            if b.wdl == a.wdl {
                judge::verdict(a)
            } else {
                format!("{} -> {}", judge::verdict(b), judge::verdict(a))
            }
        });
        moves.push(json!({
            "ply": ply + 1,
            "mover": if m.mover == Color::White { "white" } else { "black" },
            "move": pos.move_text(&m.played),
            "expected": m.white_eval.expected(variant),
            "score": m.white_eval.to_string(),
            "depth": m.depth,
            "nag": m.nag.map(|n| n.symbol()),
            "mark": m.nag.map(|n| n.name()),
            "loss": m.loss,
            "better": numbered_line(&r.start, &pos, ply, &m.better),
            "refutation": numbered_line(&r.start, &after, ply + 1, &m.refutation),
            "tables": tables,
        }));
        pos = after;
    }
    let summary: Vec<Value> = r
        .summary
        .iter()
        .zip(["White", "Black"])
        .map(|(s, side)| {
            json!({
                "side": side, "moves": s.moves, "only": s.only_moves, "inaccuracies": s.inaccuracies,
                "mistakes": s.mistakes, "blunders": s.blunders, "average": s.average_loss_percent(),
            })
        })
        .collect();
    let first = r.moves.first().map(|m| m.better_eval);
    let annotator = format!(
        "Tama {} ({movetime} ms a position)",
        env!("CARGO_PKG_VERSION")
    );
    json!({
        "start": first.map(|e| json!({ "expected": e.expected(variant), "score": e.to_string() })),
        "moves": moves,
        "summary": summary,
        "pdn": r.to_pdn(tags, &annotator, result),
    })
}
