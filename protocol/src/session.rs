//! What both dialects share: the game, the rules and options, the tables,
//! and starting, stopping and joining the search thread (`search_job`).
//!
//! The search is blocking, so it runs on a worker thread while the main
//! thread goes on reading input (`isready`, `ping`, `stop`, `ponderhit` are
//! answered during a search). The worker prints the final answer
//! (`bestmove` / `done`) itself, exactly once per started search, and clears
//! the "searching" flag under the same lock, so a new `go` sent after the
//! answer always finds the engine idle.

use crate::debug_log::DebugLog;
use crate::memory::{hash_cap_mb, MemoryLimits};
use crate::options::{read_weights, Effect, OptionError, Settings, WeightsError, BUILTIN_EVAL};
use crate::search_job::{FatalFault, SearchJob};
use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;
use tama_engine::egtb::{EgtbError, Tablebase};
use tama_engine::eval::Weights;
use tama_engine::movegen::legal_moves;
use tama_engine::search::{SearchControl, SearchLimits, SearchOutcome, Searcher, Tuning};
use tama_engine::{Game, GameStatus, Position, Rules};

pub use crate::output::{checked_line, Out, Reporter};
pub use crate::search_job::{FaultPolicy, InjectedFault, STRICT_FAULT_STATUS};

/// Which protocol the session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Uci,
    Hub,
}

/// The databases `settings` name (none for an empty path), every file
/// checked.
fn open_tables(settings: &Settings) -> Result<Option<Arc<Tablebase>>, EgtbError> {
    if settings.egtb_path.is_empty() {
        return Ok(None);
    }
    Tablebase::open(Path::new(&settings.egtb_path), settings.rules()).map(|tb| Some(Arc::new(tb)))
}

/// Why `set_option` refused a value; the option keeps the one it had.
#[derive(Debug)]
pub enum SetOptionError {
    /// Not an option, or not a value it takes.
    Option(OptionError),
    /// `EvalFile` names no weights.
    EvalFile { value: String, error: WeightsError },
    /// `EGTBPath` names no usable databases.
    Tables(EgtbError),
    /// `Debug Log File` names a file that cannot be opened for appending;
    /// `kept`: the log still written, if one is.
    LogFile {
        path: String,
        error: std::io::Error,
        kept: Option<String>,
    },
}

impl fmt::Display for SetOptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetOptionError::Option(e) => write!(f, "{e}"),
            SetOptionError::EvalFile { value, error } => {
                write!(f, "EvalFile {value}: {error}; the weights in use are kept")
            }
            SetOptionError::Tables(e) => write!(f, "EGTBPath: {e}"),
            SetOptionError::LogFile { path, error, kept } => {
                write!(f, "Debug Log File {path}: cannot append to it: {error}; ")?;
                match kept {
                    Some(old) => write!(f, "still logging to {old}"),
                    None => f.write_str("logging is off"),
                }
            }
        }
    }
}

// The messages include their cause, so none is chained as a source.
impl std::error::Error for SetOptionError {}

impl From<OptionError> for SetOptionError {
    fn from(e: OptionError) -> SetOptionError {
        SetOptionError::Option(e)
    }
}

/// One protocol session. Its fields are private so that they stay in step:
/// the settings change only through `set_option` (which also loads the
/// weights, opens the tables and replays the game under new rules), the
/// game only through `set_game` (built under the settings' rules), and
/// everything is printed through the one `Out` the search thread shares.
pub struct Session {
    /// Everything printed that differs between the dialects.
    reporter: Arc<dyn Reporter>,
    settings: Settings,
    game: Game,
    out: Out,
    /// UCI `debug on`: more `info string` lines.
    debug: bool,
    control: Arc<SearchControl>,
    searcher: Option<Searcher>,
    searcher_hash_mb: usize,
    pending_clear: bool,
    worker: Option<JoinHandle<Searcher>>,
    /// Selective-search switches every searcher of this protocol session gets.
    tuning: Tuning,
    /// The evaluation weights (the `EvalFile` option).
    weights: Weights,
    /// What the table may take (read once, at the start).
    memory: MemoryLimits,
    /// Searches that failed (panicked or answered an illegal move) in this
    /// session: `d` shows it.
    faults: Arc<AtomicU64>,
    policy: FaultPolicy,
    /// Raised when a search failed in strict mode: the session is over.
    fatal: FatalFault,
    /// The endgame databases of `EGTBPath` under the current rules.
    tablebase: Option<Arc<Tablebase>>,
    /// When the line being handled was read: a search it starts runs its
    /// clock from then (`SearchLimits::received`).
    line_read_at: Option<Instant>,
}

impl Session {
    /// A session printing through `reporter` (its dialect's) to `out`.
    pub fn new(reporter: Arc<dyn Reporter>, out: Out) -> Session {
        let settings = Settings::default();
        Session {
            reporter,
            game: Game::new(Position::startpos(settings.rules())),
            searcher_hash_mb: settings.hash_mb,
            settings,
            out,
            debug: false,
            control: Arc::new(SearchControl::new()),
            line_read_at: None,
            searcher: None,
            pending_clear: false,
            worker: None,
            tuning: Tuning::default(),
            weights: Weights::DEFAULT,
            memory: MemoryLimits::of_this_process(),
            faults: Arc::new(AtomicU64::new(0)),
            policy: FaultPolicy::default(),
            fatal: FatalFault::new(),
            tablebase: None,
        }
    }

    pub fn with_tuning(mut self, tuning: Tuning) -> Session {
        self.tuning = tuning;
        self
    }

    pub fn with_fault_policy(mut self, policy: FaultPolicy) -> Session {
        self.policy = policy;
        self
    }

    /// Calls `wake` when a search fails in strict mode, from whichever
    /// thread saw it fail, so that a loop waiting for input can end the
    /// session (`fatal_fault`).
    pub fn with_fatal_wake(mut self, wake: impl Fn() + Send + Sync + 'static) -> Session {
        self.fatal.set_wake(wake);
        self
    }

    /// A search failed in strict mode: the session must end, with
    /// `STRICT_FAULT_STATUS`, answering nothing more.
    pub fn fatal_fault(&self) -> bool {
        self.fatal.is_raised()
    }

    /// How many searches of this protocol session failed (and were answered with
    /// the first legal move).
    pub fn search_faults(&self) -> u64 {
        self.faults.load(Ordering::Relaxed)
    }

    /// The options as set.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The game the next search starts from.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Replaces the game with the one `build` makes under the rules the
    /// options set, so that the game never plays other rules than the
    /// session's; when `build` refuses, the game is kept.
    pub fn set_game<E>(&mut self, build: impl FnOnce(Rules) -> Result<Game, E>) -> Result<(), E> {
        self.game = build(self.settings.rules())?;
        Ok(())
    }

    /// UCI `debug`: whether the extra `info string` lines are printed.
    pub fn debug(&self) -> bool {
        self.debug
    }

    pub fn set_debug(&mut self, on: bool) {
        self.debug = on;
    }

    /// Prints one line as it is (through the output the search thread
    /// shares, so lines never interleave).
    pub fn line(&self, text: &str) {
        self.out.line(text);
    }

    /// Prints one error line.
    pub fn error(&self, msg: &str) {
        self.out.line(&self.reporter.error(msg));
    }

    /// Prints a notice that is not an error.
    pub fn note(&self, msg: &str) {
        self.out.line(&self.reporter.note(msg));
    }

    /// Prints a remark, in a dialect that has free text.
    fn remark(&self, msg: &str) {
        if let Some(line) = self.reporter.remark(msg) {
            self.out.line(&line);
        }
    }

    pub fn is_searching(&self) -> bool {
        self.out.is_searching()
    }

    /// Sets an option; rule changes carry the current game over when they can.
    /// A directory of endgame databases that cannot be opened (missing,
    /// damaged, no table for these rules) is refused with the reason.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), SetOptionError> {
        let mut next = self.settings.clone();
        let effect = next.set(name, value)?;
        if effect == Effect::EvalFileChanged {
            self.weights = self.load_eval_file(&next.eval_file)?;
        }
        if effect == Effect::TablesChanged {
            self.tablebase = open_tables(&next).map_err(SetOptionError::Tables)?;
            self.report_tables();
        }
        if effect == Effect::LogFileChanged {
            self.open_log(&next.debug_log_file)?;
        }
        self.settings = next;
        match effect {
            Effect::None
            | Effect::EvalFileChanged
            | Effect::TablesChanged
            | Effect::LogFileChanged => {}
            Effect::ThreadsChanged => {
                let cpus = tama_os::machine::cpu_count();
                if self.settings.threads > cpus {
                    self.note(&format!(
                        "Threads: {} search threads on {cpus} CPUs; they share the CPUs, so expect no gain beyond {cpus}",
                        self.settings.threads
                    ));
                }
            }
            Effect::ClearHash => self.pending_clear = true,
            Effect::RulesChanged => {
                self.apply_rules();
                self.reopen_tables();
            }
        }
        Ok(())
    }

    /// Logs to `path` from now on (empty: no more), closing the log in use;
    /// when `path` cannot be opened the log in use (if any) is kept.
    fn open_log(&self, path: &str) -> Result<(), SetOptionError> {
        let log = match path {
            "" => None,
            path => Some(
                DebugLog::open(path).map_err(|error| SetOptionError::LogFile {
                    path: path.to_string(),
                    error,
                    kept: self.out.log_path(),
                })?,
            ),
        };
        self.out.set_log(log, &self.reporter);
        Ok(())
    }

    /// Logs a line received, when the protocol log is on. Called before
    /// the line is handled; a log closed since by a write failure shows as
    /// off (`Debug Log File` empty) from here on.
    pub fn received(&mut self, line: &str) {
        self.out.received(line);
        if !self.settings.debug_log_file.is_empty() && self.out.log_path().is_none() {
            self.settings.debug_log_file.clear();
        }
    }

    /// The evaluation weights searches use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The weights with the set `value` names in place of its variant's: a
    /// weights file, a set built in by name (`BUILTIN_PREFIX` + name), or
    /// `BUILTIN_EVAL` (the default sets, both variants). A file that cannot
    /// be read, is not a valid weights file or a name that is not built in
    /// is an error, and the caller keeps the weights it has.
    fn load_eval_file(&self, value: &str) -> Result<Weights, SetOptionError> {
        if value == BUILTIN_EVAL {
            return Ok(Weights::DEFAULT);
        }
        let set = read_weights(value).map_err(|error| SetOptionError::EvalFile {
            value: value.to_string(),
            error,
        })?;
        self.remark(&format!(
            "EvalFile: {} {} weights loaded from {value}",
            set.variant,
            set.model().name()
        ));
        let mut weights = self.weights.clone();
        weights.replace(set);
        Ok(weights)
    }

    /// The databases again after a rule change: those of the new rules,
    /// or none, loudly, when the directory has none (or a damaged one).
    fn reopen_tables(&mut self) {
        match open_tables(&self.settings) {
            Ok(tables) => {
                self.tablebase = tables;
                self.report_tables();
            }
            Err(e) => {
                self.tablebase = None;
                self.error(&format!(
                    "{}; searching without endgame databases",
                    SetOptionError::Tables(e)
                ));
            }
        }
    }

    /// Says which databases are in use.
    fn report_tables(&self) {
        if let Some(tb) = &self.tablebase {
            self.remark(&format!(
                "EGTB: {} tables, complete up to {} pieces ({})",
                tb.headers().len(),
                tb.complete_pieces(),
                tb.rules()
            ));
        }
    }

    /// Re-plays the current game under the (new) rules; if one of its moves
    /// is not legal under them, the game restarts from the start position.
    fn apply_rules(&mut self) {
        let rules = self.settings.rules();
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
                self.remark(&format!(
                    "the moves of the current game are not legal under {rules}; position reset to the start position"
                ));
                break;
            }
        }
        self.game = game;
    }

    /// Clears the table (before the next search) and starts a new game.
    pub fn new_game(&mut self) {
        self.pending_clear = true;
        self.game = Game::new(Position::startpos(self.settings.rules()));
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
                self.searcher_hash_mb = self.table_mb();
                self.pending_clear = false;
                let mut searcher = Searcher::new(self.searcher_hash_mb);
                *searcher.tuning_mut() = self.tuning.clone();
                self.report_short_table(&searcher);
                searcher
            }
        }
    }

    /// Resizes the table if the `Hash` option changed since it was made
    /// (a resize clears it, so a pending clear is done too).
    fn apply_hash_size(&mut self, searcher: &mut Searcher) {
        if self.searcher_hash_mb != self.table_mb() {
            self.searcher_hash_mb = self.table_mb();
            searcher.set_hash_mb(self.searcher_hash_mb);
            self.pending_clear = false;
            self.report_short_table(searcher);
        }
    }

    /// The table size to make: `Hash`, capped to what the machine can
    /// spare (`memory`).
    fn table_mb(&self) -> usize {
        match hash_cap_mb(&self.memory) {
            Some(cap) => self.settings.hash_mb.min(cap),
            None => self.settings.hash_mb,
        }
    }

    /// Says so, in both dialects, when the table is smaller than `Hash`
    /// asked: capped to what the machine can spare, or refused by the
    /// allocator.
    fn report_short_table(&self, searcher: &Searcher) {
        let (asked, capped, got) = (self.settings.hash_mb, self.table_mb(), searcher.hash_mb());
        if capped < asked {
            self.note(&format!(
                "Hash: {asked} MB asked for, {capped} MB used: the table takes at most half of {}",
                self.memory
                    .tightest()
                    .map_or("no known limit", |(_, name)| name)
            ));
        }
        if got < capped {
            self.note(&format!(
                "Hash: the system gave only {got} MB of the {capped} MB asked for"
            ));
        }
    }

    /// Gets the search ready while idle (allocates, resizes or clears the
    /// table, as `Hash`, `ucinewgame` or `Clear Hash` asked, then
    /// `Searcher::prepare`: the evaluation's tables and a small table's
    /// pages), so that the next `go` does not pay for it on its clock.
    /// `isready` and Hub `init` call this; during a search it does nothing.
    pub fn prepare(&mut self) {
        if self.is_searching() {
            return;
        }
        let mut searcher = self.take_searcher();
        self.apply_hash_size(&mut searcher);
        if self.pending_clear {
            searcher.clear();
            self.pending_clear = false;
        }
        searcher.prepare();
        self.searcher = Some(searcher);
    }

    /// Notes when the line about to be handled was read.
    pub fn line_read_at(&mut self, at: Instant) {
        self.line_read_at = Some(at);
    }

    /// Starts a search of the current position on the worker thread. The
    /// caller has checked that no search is running. When the game is over
    /// the answer (`Reporter::best` with no move) is printed at once.
    pub fn start_search(&mut self, mut limits: SearchLimits) {
        limits.received = limits.received.or(self.line_read_at);
        let root = *self.game.position();
        let status = self.game.status();
        if status != GameStatus::Ongoing {
            self.answer_game_over(status, &root);
            return;
        }
        let reporter = Arc::clone(&self.reporter);
        let searcher = self.ready_searcher();
        let job = SearchJob {
            root,
            game: self.game.clone(),
            limits,
            control: Arc::clone(&self.control),
            out: self.out.clone(),
            reporter: Arc::clone(&reporter),
            hash_mb: self.searcher_hash_mb,
            faults: Arc::clone(&self.faults),
            policy: self.policy.clone(),
            fatal: self.fatal.clone(),
            debug: self.debug,
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
                self.faults.fetch_add(1, Ordering::Relaxed);
                self.error(&format!(
                    "cannot start the search thread: {e}; playing the first legal move"
                ));
                if self.policy.strict {
                    self.fatal.raise();
                    return;
                }
                let outcome = SearchOutcome {
                    best_move: legal_moves(&root).first().copied(),
                    ..SearchOutcome::default()
                };
                self.out.finish(&reporter.best(&root, &outcome));
            }
        }
    }

    /// The answer to `go` when the game is over: no move, after a remark
    /// on why.
    fn answer_game_over(&self, status: GameStatus, root: &Position) {
        let why = match status {
            GameStatus::Won(c) => format!(
                "{} to move has no legal move: {} has won",
                c.opponent().name(),
                c.name()
            ),
            _ => "draw by threefold repetition".to_string(),
        };
        self.remark(&format!("game over: {why}"));
        self.out
            .line(&self.reporter.best(root, &SearchOutcome::default()));
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
        self.settings.apply(searcher.options_mut());
        searcher.set_weights(self.weights.clone());
        searcher.set_tablebase(self.tablebase.clone());
        searcher
    }

    /// Asks a running search to stop (nothing happens when idle).
    pub fn stop(&self) {
        self.control.stop();
    }

    /// The expected move was played: the search's clock starts from when
    /// this line was read, as the GUI's did when it sent it.
    pub fn ponder_hit(&self) {
        self.control
            .ponder_hit(self.line_read_at.unwrap_or_else(Instant::now));
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

#[cfg(test)]
mod tests;
