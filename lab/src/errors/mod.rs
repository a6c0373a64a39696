//! `tama-lab errors`: how often the search, with the endgame databases
//! off, plays a move that changes the databases' value for the side to
//! move (a win thrown to a draw or a loss, a draw thrown to a loss), on
//! random positions the databases hold, per node budget; and, beyond the
//! tables (`games`), on positions of played games, judged by a search
//! that probes the tables.

pub mod games;

use crate::shots::HASH_MB;
use anyhow::{bail, Context, Result};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use tama_engine::egtb::{PositionSampler, Signature, Tablebase, Wdl, MAX_PIECES};
use tama_engine::eval::Weights;
use tama_engine::movegen::legal_moves;
use tama_engine::rng::Rng;
use tama_engine::search::{SearchControl, SearchLimits, SearchOutcome, Searcher};
use tama_engine::{Game, Move, Position, Rules, Variant};

#[derive(Args, Debug)]
#[command(args_override_self = true)]
pub struct ErrorsArgs {
    /// The game (the tables' rules are the variant's default ones)
    #[arg(long, value_name = "armenian|turkish", default_value_t = Rules::default().variant)]
    pub variant: Variant,
    /// Pieces on the board of every position drawn: K, or K-L with
    /// `--games`
    #[arg(long, value_name = "K|K-L", value_parser = piece_range)]
    pub pieces: PieceRange,
    /// Positions searched per budget
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub positions: usize,
    /// Node budgets per position, comma-separated
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = node_budget, required = true)]
    pub nodes: Vec<u64>,
    /// Directory of the table files (every table of up to K pieces)
    #[arg(long, value_name = "D")]
    pub dir: PathBuf,
    /// Seed of the draw: the same seed, the same positions and figures
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Write each erring position here: budget, FEN, move played, its
    /// value, a move that keeps the root's value
    #[arg(long, value_name = "FILE")]
    pub write: Option<PathBuf>,
    /// Draw the positions from the games of this PDN file instead of the
    /// tables, and judge each move by a search that probes the tables of
    /// `--dir` (`--judge-nodes`)
    #[arg(long, value_name = "PDN")]
    pub games: Option<PathBuf>,
    /// Nodes of each judging search (with `--games`)
    #[arg(long, value_name = "N", default_value_t = 1_000_000, value_parser = node_budget)]
    pub judge_nodes: u64,
    /// The weights the measured search plays with, as the EvalFile option
    /// takes them (a weights file or builtin:NAME; default: the variant's
    /// default set). The judging search keeps the default set, so two
    /// sets are judged alike
    #[arg(long, value_name = "FILE|builtin:NAME")]
    pub eval_file: Option<String>,
}

/// How many pieces the positions drawn have: `lo` to `hi`, both counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceRange {
    pub lo: u32,
    pub hi: u32,
}

impl PieceRange {
    pub fn holds(self, pieces: u32) -> bool {
        (self.lo..=self.hi).contains(&pieces)
    }
}

impl std::fmt::Display for PieceRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.lo == self.hi {
            true => write!(f, "{}", self.lo),
            false => write!(f, "{}-{}", self.lo, self.hi),
        }
    }
}

/// `K` or `K-L`, from 2 to 32 pieces.
fn piece_range(text: &str) -> Result<PieceRange, String> {
    let count = |t: &str| {
        t.trim()
            .parse::<u32>()
            .ok()
            .filter(|k| (2..=32).contains(k))
            .ok_or_else(|| format!("a piece count is a whole number from 2 to 32, got {t:?}"))
    };
    let (lo, hi) = match text.split_once('-') {
        Some((a, b)) => (count(a)?, count(b)?),
        None => (count(text)?, count(text)?),
    };
    if lo > hi {
        return Err(format!(
            "{text:?}: the range runs from the smaller count to the larger"
        ));
    }
    Ok(PieceRange { lo, hi })
}

/// A node budget: a whole number of at least 1.
fn node_budget(text: &str) -> Result<u64, String> {
    text.parse()
        .ok()
        .filter(|n| *n >= 1)
        .ok_or_else(|| format!("a node budget is a whole number from 1, got {text:?}"))
}

/// The 95% Wilson score interval of `errors` in `n` trials, as fractions
/// (`(0, 1)` for no trial). Unlike the normal approximation it neither
/// goes below 0 nor collapses to a point when no error is seen, which
/// matters at the rates measured here (a few in a hundred).
pub fn wilson(errors: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    const Z: f64 = 1.959_963_984_540_054;
    let (n, p) = (n as f64, errors as f64 / n as f64);
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// What the pieces are: the breakdown of the figures.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Material {
    KingsOnly,
    MenAndKings,
    MenOnly,
}

impl Material {
    pub const ALL: [Material; 3] = [
        Material::KingsOnly,
        Material::MenAndKings,
        Material::MenOnly,
    ];

    pub fn of(pos: &Position) -> Material {
        let kings = pos.all_kings();
        if kings == pos.occupied() {
            Material::KingsOnly
        } else if kings.is_empty() {
            Material::MenOnly
        } else {
            Material::MenAndKings
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Material::KingsOnly => "kings only",
            Material::MenAndKings => "men and kings",
            Material::MenOnly => "men only",
        }
    }
}

/// A position with the databases' value of it and of every move, all for
/// its side to move.
#[derive(Clone, Debug)]
pub struct Judged {
    pub position: Position,
    pub root: Wdl,
    /// Each legal move and the value of the position after it for the side
    /// that played it.
    pub moves: Vec<(Move, Wdl)>,
}

impl Judged {
    /// The value a move leaves the side that played it (`None`: not a
    /// legal move here).
    pub fn value_of(&self, mv: &Move) -> Option<Wdl> {
        self.moves.iter().find(|(m, _)| m == mv).map(|&(_, w)| w)
    }

    /// Whether playing `mv` changes the value: the one error a move can
    /// make, since no move can raise the value of a position played well.
    pub fn is_error(&self, mv: &Move) -> bool {
        self.value_of(mv).is_none_or(|w| w < self.root)
    }

    /// Whether some move here is an error (else no search can err).
    pub fn can_err(&self) -> bool {
        self.moves.iter().any(|&(_, w)| w < self.root)
    }

    /// A move that keeps the root's value.
    pub fn a_correct_move(&self) -> Option<Move> {
        self.moves
            .iter()
            .find(|&&(_, w)| w == self.root)
            .map(|&(m, _)| m)
    }
}

fn flipped(w: Wdl) -> Wdl {
    match w {
        Wdl::Win => Wdl::Loss,
        Wdl::Draw => Wdl::Draw,
        Wdl::Loss => Wdl::Win,
    }
}

/// `pos` judged by `tb`. After a move the other side is to move, so the
/// table's value there is flipped; a capture leaves fewer pieces, and
/// the probe then reads a smaller table (a side left with no piece has
/// lost). An error when a table is missing, or when the best move's value
/// is not the root's: the tables would contradict themselves.
pub fn judge(tb: &Tablebase, pos: &Position) -> Result<Judged> {
    let probe = |p: &Position| {
        tb.probe(p)
            .map(|v| v.wdl)
            .with_context(|| format!("no table holds {}", p.fen()))
    };
    let root = probe(pos)?;
    let moves = legal_moves(pos)
        .iter()
        .map(|m| Ok((*m, flipped(probe(&pos.play(m))?))))
        .collect::<Result<Vec<_>>>()?;
    let best = moves.iter().map(|&(_, w)| w).max().unwrap_or(Wdl::Loss);
    if best != root {
        bail!(
            "the tables contradict themselves at {}: {root:?}, the best move {best:?}",
            pos.fen()
        );
    }
    Ok(Judged {
        position: *pos,
        root,
        moves,
    })
}

/// Positions drawn and not searched, by reason.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// No legal move: the game is over.
    pub over: u64,
    /// One legal move: nothing to choose.
    pub single: u64,
    /// Lost for the side to move: every move keeps the loss.
    pub lost: u64,
}

/// `n` random positions of `pieces` pieces from `tb`, each table drawn in
/// proportion to its entries (as `tama egtb bench` draws them), judged;
/// the positions no move of which can err by choice are skipped and
/// counted.
pub fn draw(tb: &Tablebase, pieces: u32, n: usize, seed: u64) -> Result<(Vec<Judged>, Skipped)> {
    let rules = tb.rules();
    let signatures: Vec<Signature> = Signature::build_order(pieces)
        .into_iter()
        .filter(|s| s.pieces() == pieces)
        .map(|s| {
            tb.table(s)
                .map(|_| s)
                .with_context(|| format!("no table {s} in {}", dir_of(tb)))
        })
        .collect::<Result<_>>()?;
    let sampler = PositionSampler::new(signatures);
    let mut rng = Rng::new(seed);
    let (mut out, mut skipped) = (Vec::with_capacity(n), Skipped::default());
    let mut drawn = 0u64;
    while out.len() < n {
        drawn += 1;
        if drawn > 1000 * (n as u64 + 1) {
            bail!("the tables of {pieces} pieces hold too few positions with a choice to make");
        }
        let Some(pos) = sampler.draw(&mut rng, rules) else {
            continue;
        };
        let judged = judge(tb, &pos)?;
        match judged.moves.len() {
            0 => skipped.over += 1,
            1 => skipped.single += 1,
            _ if judged.root == Wdl::Loss => skipped.lost += 1,
            _ => out.push(judged),
        }
    }
    Ok((out, skipped))
}

fn dir_of(tb: &Tablebase) -> String {
    tb.dir()
        .map_or("(no directory)".into(), |d| d.display().to_string())
}

/// One position searched: its judgement and the move the search chose.
pub struct Played<'a> {
    pub judged: &'a Judged,
    pub played: Option<Move>,
}

impl Played<'_> {
    pub fn is_error(&self) -> bool {
        self.played.is_none_or(|m| self.judged.is_error(&m))
    }
}

/// `searcher`'s search of `pos` with `nodes` nodes, from a cleared table,
/// so that each position's result depends on it alone.
fn search_at(searcher: &mut Searcher, pos: &Position, nodes: u64) -> SearchOutcome {
    searcher.clear();
    let limits = SearchLimits {
        nodes: Some(nodes),
        ..SearchLimits::default()
    };
    searcher.search(
        &Game::new(*pos),
        &limits,
        &SearchControl::new(),
        &mut |_| {},
    )
}

/// The move `searcher` plays at `pos` with `nodes` nodes (`search_at`).
pub fn play(searcher: &mut Searcher, pos: &Position, nodes: u64) -> Option<Move> {
    search_at(searcher, pos, nodes).best_move
}

/// A count of errors among positions, with its interval, as one line:
/// the figures of positions from the tables and of positions from games.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Tally {
    pub positions: u64,
    pub errors: u64,
    /// Positions where some move errs, where that is known (positions the
    /// tables hold, every move judged; not those from games).
    pub can_err: Option<u64>,
}

impl Tally {
    /// One more position: whether the move played erred, and whether some
    /// move could (`None`: not known).
    pub fn add(&mut self, error: bool, can_err: Option<bool>) {
        self.positions += 1;
        self.errors += u64::from(error);
        if let Some(c) = can_err {
            *self.can_err.get_or_insert(0) += u64::from(c);
        }
    }

    /// `P positions (C can err), E errors, R% (LO-HI%)`, without the
    /// parenthesis where that is not known.
    pub fn line(&self) -> String {
        let can_err = self
            .can_err
            .map_or(String::new(), |c| format!(" ({c} can err)"));
        format!(
            "{} positions{can_err}, {}",
            self.positions,
            rate_text(self.errors, self.positions)
        )
    }
}

/// `E errors, R% (LO-HI%)`: the rate of `errors` in `positions` with its
/// 95% interval.
pub fn rate_text(errors: u64, positions: u64) -> String {
    let (lo, hi) = wilson(errors, positions);
    let rate = match positions {
        0 => 0.0,
        n => errors as f64 / n as f64,
    };
    format!(
        "{errors} errors, {:.2}% ({:.2}-{:.2}%)",
        100.0 * rate,
        100.0 * lo,
        100.0 * hi
    )
}

/// The figures of one budget: all, by the root's value, by material.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    pub all: Tally,
    pub win: Tally,
    pub draw: Tally,
    /// In `Material::ALL`'s order.
    pub material: [Tally; 3],
}

impl Figures {
    pub fn add(&mut self, p: &Played) {
        let m = Material::of(&p.judged.position);
        let i = Material::ALL.iter().position(|&x| x == m).expect("listed");
        let by_root = match p.judged.root {
            Wdl::Win => &mut self.win,
            _ => &mut self.draw,
        };
        for t in [by_root, &mut self.all, &mut self.material[i]] {
            t.add(p.is_error(), Some(p.judged.can_err()));
        }
    }
}

/// Runs the measurement and hands over the report a line at a time.
pub fn run(a: &ErrorsArgs, line: &mut dyn FnMut(&str)) -> Result<()> {
    let rules = Rules {
        variant: a.variant,
        ..Rules::default()
    };
    let tb = Tablebase::open(&a.dir, rules)?;
    // Read first: a bad --eval-file is refused before minutes of work.
    let weights = measured_weights(a)?;
    if let Some(games) = &a.games {
        return games::run(a, games, tb, weights, line);
    }
    let pieces = a.pieces.hi;
    if a.pieces.lo != pieces {
        bail!(
            "--pieces {}: positions from the tables have one piece count (a range goes with --games)",
            a.pieces
        );
    }
    if pieces > MAX_PIECES {
        bail!("the tables hold up to {MAX_PIECES} pieces, not {pieces} (more goes with --games)");
    }
    if tb.complete_pieces() < pieces {
        bail!(
            "{} holds every {} table of up to {} pieces only, not {}",
            a.dir.display(),
            a.variant,
            tb.complete_pieces(),
            pieces
        );
    }
    let (positions, skipped) = draw(&tb, pieces, a.positions, a.seed)?;
    let can_err = positions.iter().filter(|j| j.can_err()).count();
    line(&format!(
        "{} {} pieces, seed {}: {} positions drawn, {} kept ({} where some move errs); \
         skipped {} lost, {} with one legal move, {} with none",
        a.variant,
        a.pieces,
        a.seed,
        positions.len() as u64 + skipped.lost + skipped.single + skipped.over,
        positions.len(),
        can_err,
        skipped.lost,
        skipped.single,
        skipped.over
    ));
    let mut file = error_file(a)?;
    // The tables stay out of the search: it plays as it would without them.
    let mut searcher = measured_search();
    searcher.set_weights(weights);
    for &nodes in &a.nodes {
        let mut figures = Figures::default();
        for judged in &positions {
            let played = Played {
                judged,
                played: play(&mut searcher, &judged.position, nodes),
            };
            figures.add(&played);
            if let (Some(f), true) = (file.as_mut(), played.is_error()) {
                writeln!(f, "{}", error_line(nodes, &played))?;
            }
        }
        line(&format!("{nodes} nodes: {}", figures.all.line()));
        line(&format!("  win:  {}", figures.win.line()));
        line(&format!("  draw: {}", figures.draw.line()));
        for (m, t) in Material::ALL.iter().zip(&figures.material) {
            line(&format!("  {}: {}", m.name(), t.line()));
        }
    }
    if let Some(mut f) = file {
        f.flush()?;
    }
    Ok(())
}

/// The file `--write` names, created, if it names one.
fn error_file(a: &ErrorsArgs) -> Result<Option<std::io::BufWriter<std::fs::File>>> {
    a.write
        .as_ref()
        .map(|path| {
            std::fs::File::create(path)
                .map(std::io::BufWriter::new)
                .with_context(|| path.display().to_string())
        })
        .transpose()
}

/// The search measured: one thread, no tables.
fn measured_search() -> Searcher {
    let mut searcher = Searcher::new(HASH_MB);
    searcher.options_mut().threads = 1;
    searcher
}

/// The weights `--eval-file` names for the measured search: refused
/// before anything is searched when unreadable or of the other variant.
pub fn measured_weights(a: &ErrorsArgs) -> Result<Weights> {
    let mut weights = Weights::DEFAULT;
    if let Some(value) = &a.eval_file {
        let set = tama_protocol::options::read_weights(value)
            .with_context(|| format!("--eval-file {value}"))?;
        if set.variant != a.variant {
            bail!(
                "--eval-file {value}: a {} set, the positions are {}",
                set.variant,
                a.variant
            );
        }
        weights.replace(set);
    }
    Ok(weights)
}

/// `<nodes> <fen> played <move> <its value> root <value> correct <move>`.
pub fn error_line(nodes: u64, p: &Played) -> String {
    let pos = &p.judged.position;
    let text = |m: Option<Move>| m.map_or("(none)".into(), |m| pos.move_text(&m));
    let word = |w: Option<Wdl>| match w {
        Some(Wdl::Win) => "win",
        Some(Wdl::Draw) => "draw",
        Some(Wdl::Loss) => "loss",
        None => "-",
    };
    format!(
        "{nodes} {} played {} {} root {} correct {}",
        pos.fen(),
        text(p.played),
        word(p.played.and_then(|m| p.judged.value_of(&m))),
        word(Some(p.judged.root)),
        text(p.judged.a_correct_move())
    )
}

/// `tama-lab errors`: the report on stdout, a budget's lines as each is
/// done.
pub fn command(a: &ErrorsArgs) -> Result<()> {
    let stdout = std::io::stdout();
    run(a, &mut |line| {
        let _ = writeln!(stdout.lock(), "{line}");
    })
}
