//! What both dialects share: the game, the rules and options, the output
//! channel and the search thread.
//!
//! The search is blocking, so it runs on a worker thread while the main
//! thread goes on reading input (`isready`, `ping`, `stop`, `ponderhit` are
//! answered during a search). The worker prints the final answer
//! (`bestmove` / `done`) itself, exactly once per started search, and clears
//! the "searching" flag under the same lock, so a new `go` sent after the
//! answer always finds the engine idle.

use crate::options::{Effect, Settings};
use crate::text::one_line;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;
use tama_engine::movegen::legal_moves;
use tama_engine::search::{
    SearchControl, SearchInfo, SearchLimits, SearchOutcome, Searcher, Tuning,
};
use tama_engine::{Game, GameStatus, Move, Position};

/// Which protocol the session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Hub,
}

struct OutInner {
    writer: Box<dyn Write + Send>,
    searching: bool,
}

/// The output channel: whole lines, flushed at once, from any thread.
#[derive(Clone)]
pub struct Out(Arc<Mutex<OutInner>>);

impl Out {
    pub fn new(writer: Box<dyn Write + Send>) -> Out {
        Out(Arc::new(Mutex::new(OutInner {
            writer,
            searching: false,
        })))
    }

    fn lock(&self) -> MutexGuard<'_, OutInner> {
        // A panic while printing must not silence the engine for good.
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Prints one line (or several, separated by `\n`) and flushes. Write
    /// errors (a closed pipe) are ignored: the engine ends at end of input.
    pub fn line(&self, text: &str) {
        let mut o = self.lock();
        let _ = writeln!(o.writer, "{text}");
        let _ = o.writer.flush();
    }

    fn is_searching(&self) -> bool {
        self.lock().searching
    }

    fn set_searching(&self, on: bool) {
        self.lock().searching = on;
    }

    /// Prints the final answer of a search and marks the engine idle, atomically.
    fn finish(&self, text: &str) {
        let mut o = self.lock();
        let _ = writeln!(o.writer, "{text}");
        let _ = o.writer.flush();
        o.searching = false;
    }
}

/// Formats search output for one dialect (`info` lines and the final answer).
pub trait Reporter: Send + Sync + 'static {
    fn info(&self, root: &Position, info: &SearchInfo) -> Option<String>;
    fn best(&self, root: &Position, outcome: &SearchOutcome) -> String;
}

/// The moves of `pv` that are legal one after the other from `root`, each
/// with the position it is played in.
pub fn checked_line(root: &Position, pv: &[Move]) -> Vec<(Position, Move)> {
    let mut pos = *root;
    let mut out = Vec::new();
    for m in pv {
        if !legal_moves(&pos).contains(m) {
            break;
        }
        out.push((pos, *m));
        pos = pos.play(m);
    }
    out
}

pub struct Session {
    pub dialect: Dialect,
    pub settings: Settings,
    pub game: Game,
    pub out: Out,
    pub debug: bool,
    control: Arc<SearchControl>,
    searcher: Option<Searcher>,
    searcher_hash_mb: usize,
    pending_clear: bool,
    worker: Option<JoinHandle<Searcher>>,
    /// Selective-search switches every searcher of this session gets.
    tuning: Tuning,
}

impl Session {
    pub fn new(dialect: Dialect, out: Out) -> Session {
        let settings = Settings::default();
        Session {
            dialect,
            game: Game::new(Position::startpos(settings.rules)),
            searcher_hash_mb: settings.hash_mb,
            settings,
            out,
            debug: false,
            control: Arc::new(SearchControl::new()),
            searcher: None,
            pending_clear: false,
            worker: None,
            tuning: Tuning::default(),
        }
    }

    pub fn with_tuning(mut self, tuning: Tuning) -> Session {
        self.tuning = tuning;
        self
    }

    /// Prints one error line in the session's dialect.
    pub fn error(&self, msg: &str) {
        let msg = one_line(msg);
        match self.dialect {
            Dialect::Uci => self.out.line(&format!("info string error: {msg}")),
            Dialect::Hub => self
                .out
                .line(&format!("error message=\"{}\"", msg.replace('"', "'"))),
        }
    }

    pub fn is_searching(&self) -> bool {
        self.out.is_searching()
    }

    /// Sets an option; rule changes carry the current game over when they can.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let mut next = self.settings.clone();
        let effect = next.set(name, value)?;
        self.settings = next;
        match effect {
            Effect::None => {}
            Effect::ClearHash => self.pending_clear = true,
            Effect::RulesChanged => self.apply_rules(),
        }
        Ok(())
    }

    /// Re-plays the current game under the (new) rules; if one of its moves
    /// is not legal under them, the game restarts from the start position.
    fn apply_rules(&mut self) {
        let rules = self.settings.rules;
        if self.game.position().rules() == rules {
            return;
        }
        let mut game = Game::new(self.game.start().with_rules(rules));
        let old = self.game.clone();
        let mut replay = *old.start();
        for m in old.moves() {
            let text = replay.move_text(m);
            replay = replay.play(m);
            if game.play_text(&text).is_err() {
                game = Game::new(Position::startpos(rules));
                if self.dialect == Dialect::Uci {
                    self.out.line(&format!(
                        "info string the moves of the current game are not legal under {rules}; position reset to the start position"
                    ));
                }
                break;
            }
        }
        self.game = game;
    }

    /// Clears the table (before the next search) and starts a new game.
    pub fn new_game(&mut self) {
        self.pending_clear = true;
        self.game = Game::new(Position::startpos(self.settings.rules));
    }

    /// Takes the searcher back from a finished worker (or makes one).
    fn take_searcher(&mut self) -> Searcher {
        if let Some(h) = self.worker.take() {
            match h.join() {
                Ok(s) => self.searcher = Some(s),
                Err(_) => self.searcher = None,
            }
        }
        match self.searcher.take() {
            Some(s) => s,
            None => {
                self.searcher_hash_mb = self.settings.hash_mb;
                self.pending_clear = false;
                let mut searcher = Searcher::new(self.settings.hash_mb);
                *searcher.tuning_mut() = self.tuning.clone();
                self.report_short_table(&searcher);
                searcher
            }
        }
    }

    /// Resizes the table if the `Hash` option changed since it was made
    /// (a resize clears it, so a pending clear is done too).
    fn apply_hash_size(&mut self, searcher: &mut Searcher) {
        if self.searcher_hash_mb != self.settings.hash_mb {
            searcher.set_hash_mb(self.settings.hash_mb);
            self.searcher_hash_mb = self.settings.hash_mb;
            self.pending_clear = false;
            self.report_short_table(searcher);
        }
    }

    /// Says so when the system gave the table less memory than `Hash` asked.
    fn report_short_table(&self, searcher: &Searcher) {
        let got = searcher.hash_mb();
        if got < self.settings.hash_mb && self.dialect == Dialect::Uci {
            self.out.line(&format!(
                "info string Hash: the system gave only {got} MB of the {} MB asked for",
                self.settings.hash_mb
            ));
        }
    }

    /// Gets the search ready while idle (allocates or resizes the table), so
    /// that the next `go` does not pay for it. `isready` and Hub `init` call
    /// this; during a search it does nothing.
    pub fn prepare(&mut self) {
        if self.is_searching() {
            return;
        }
        let mut searcher = self.take_searcher();
        self.apply_hash_size(&mut searcher);
        self.searcher = Some(searcher);
    }

    /// Starts a search of the current position on the worker thread. The
    /// caller has checked that no search is running. When the game is over
    /// the answer (`reporter.best` with no move) is printed at once.
    pub fn start_search(&mut self, limits: SearchLimits, reporter: Arc<dyn Reporter>) {
        let root = *self.game.position();
        let status = self.game.status();
        if status != GameStatus::Ongoing {
            self.answer_game_over(status, &root, reporter.as_ref());
            return;
        }
        let searcher = self.ready_searcher();
        let job = SearchJob {
            root,
            game: self.game.clone(),
            limits,
            control: Arc::clone(&self.control),
            out: self.out.clone(),
            reporter: Arc::clone(&reporter),
            hash_mb: self.settings.hash_mb,
        };
        job.control.reset(job.limits.ponder);
        self.out.set_searching(true);
        let spawned = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || job.run(searcher));
        match spawned {
            Ok(h) => self.worker = Some(h),
            Err(e) => {
                // No thread: answer at once with the first legal move.
                self.error(&format!("cannot start the search thread: {e}"));
                let outcome = SearchOutcome {
                    best_move: legal_moves(&root).first().copied(),
                    ..SearchOutcome::default()
                };
                self.out.finish(&reporter.best(&root, &outcome));
            }
        }
    }

    /// The answer to `go` when the game is over: no move (and, in UCI,
    /// why).
    fn answer_game_over(&self, status: GameStatus, root: &Position, reporter: &dyn Reporter) {
        if self.dialect == Dialect::Uci {
            let why = match status {
                GameStatus::Won(c) => format!(
                    "{} to move has no legal move: {} has won",
                    c.opponent().name(),
                    c.name()
                ),
                _ => "draw by threefold repetition".to_string(),
            };
            self.out.line(&format!("info string game over: {why}"));
        }
        self.out
            .line(&reporter.best(root, &SearchOutcome::default()));
    }

    /// The searcher, its table sized and cleared as the options ask, set up
    /// with the current search options.
    fn ready_searcher(&mut self) -> Searcher {
        let mut searcher = self.take_searcher();
        self.apply_hash_size(&mut searcher);
        if self.pending_clear {
            searcher.clear();
            self.pending_clear = false;
        }
        let o = searcher.options_mut();
        o.threads = self.settings.threads;
        o.multipv = self.settings.multipv;
        o.move_overhead = Duration::from_millis(self.settings.move_overhead_ms);
        o.baseline = self.settings.baseline;
        o.style = self.settings.style;
        searcher
    }

    /// Asks a running search to stop (nothing happens when idle).
    pub fn stop(&self) {
        self.control.stop();
        if let Some(h) = &self.worker {
            h.thread().unpark();
        }
    }

    pub fn ponder_hit(&self) {
        self.control.ponder_hit();
        if let Some(h) = &self.worker {
            h.thread().unpark();
        }
    }

    /// Stops any search and waits until its answer has been printed.
    pub fn finish(&mut self) {
        self.stop();
        if let Some(h) = self.worker.take() {
            if let Ok(s) = h.join() {
                self.searcher = Some(s);
            }
        }
    }
}

/// One search, as the worker thread runs it.
struct SearchJob {
    root: Position,
    game: Game,
    limits: SearchLimits,
    control: Arc<SearchControl>,
    out: Out,
    reporter: Arc<dyn Reporter>,
    /// For a fresh searcher, should the search panic.
    hash_mb: usize,
}

impl SearchJob {
    /// Searches, waits for `stop` or `ponderhit` when the search must not
    /// answer by itself, prints the answer (always exactly one) and hands
    /// the searcher back. A panicking search is answered with the first
    /// legal move and replaced by a fresh searcher of the same settings.
    fn run(self, mut searcher: Searcher) -> Searcher {
        let (root, out, reporter) = (self.root, &self.out, &self.reporter);
        let options = searcher.options().clone();
        let tuning = searcher.tuning().clone();
        let result = catch_unwind(AssertUnwindSafe(|| {
            let mut report = |info: &SearchInfo| {
                if let Some(line) = reporter.info(&root, info) {
                    out.line(&line);
                }
            };
            searcher.search(&self.game, &self.limits, &self.control, &mut report)
        }));
        let (outcome, searcher) = match result {
            Ok(outcome) => (outcome, searcher),
            Err(_) => {
                // Never lose the answer: fall back to the first legal move.
                out.line("info string error: the search failed; playing the first legal move");
                let mut fresh = Searcher::new(self.hash_mb);
                *fresh.options_mut() = options;
                *fresh.tuning_mut() = tuning;
                let outcome = SearchOutcome {
                    best_move: legal_moves(&root).first().copied(),
                    ..SearchOutcome::default()
                };
                (outcome, fresh)
            }
        };
        // An infinite or ponder search answers only when told to.
        let control = &self.control;
        while !control.is_stopped() && (self.limits.infinite || control.is_pondering()) {
            std::thread::park_timeout(Duration::from_millis(20));
        }
        let outcome = sanitize(&root, outcome);
        out.finish(&reporter.best(&root, &outcome));
        searcher
    }
}

/// Makes sure the reported moves are legal: an illegal best move is replaced
/// by the first legal one, an illegal ponder move dropped.
fn sanitize(root: &Position, mut outcome: SearchOutcome) -> SearchOutcome {
    let legal = legal_moves(root);
    match outcome.best_move {
        Some(m) if legal.contains(&m) => {
            if let Some(p) = outcome.ponder_move {
                if !legal_moves(&root.play(&m)).contains(&p) {
                    outcome.ponder_move = None;
                }
            }
        }
        _ => {
            outcome.best_move = legal.first().copied();
            outcome.ponder_move = None;
        }
    }
    outcome
}
