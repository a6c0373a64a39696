//! `tama-lab errors --games`: the error rate beyond the tables. The
//! positions come from played games (K to L pieces, more than the tables
//! hold), and each move the search makes with the tables off is judged by
//! a search that probes them, at a larger budget.
//!
//! That judge knows a value only where its search proves one: a line into
//! the tables, or to the end of the game. So "win" and "loss" below are
//! proven, and "draw" means proven neither way. A move is an error when the
//! judge proves less after it than after its own move: a proven win thrown,
//! or a move into a proven loss where the judge's own move was not one.
//! Where the judge contradicts itself (its value of the position is not
//! its value of the position after its own move) the position is left out.

use super::{
    error_file, error_line, flipped, measured_search, play, search_at, ErrorsArgs, Judged,
    PieceRange, Played, Tally,
};
use anyhow::{bail, Result};
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use tama_engine::egtb::{Tablebase, Wdl};
use tama_engine::eval::Weights;
use tama_engine::movegen::legal_moves;
use tama_engine::notation::pdn::{read_pdn_file, PdnGame};
use tama_engine::rng::Rng;
use tama_engine::search::score::TB_BOUND;
use tama_engine::search::{Score, SearchOutcome, Searcher};
use tama_engine::{Move, Position};

/// What a score proves for the side to move: a win or a loss only for a
/// database result or a forced end of the game, else `Draw` (nothing).
pub fn proven(score: Option<Score>) -> Wdl {
    match score {
        Some(Score::Mate(n)) if n > 0 => Wdl::Win,
        Some(Score::Mate(_)) => Wdl::Loss,
        Some(Score::Cp(v)) if v >= TB_BOUND => Wdl::Win,
        Some(Score::Cp(v)) if v <= -TB_BOUND => Wdl::Loss,
        _ => Wdl::Draw,
    }
}

/// How many single moves in a row the judge plays out before it calls a
/// position unproven: far more than any forced sequence of these games
/// (each forced move here is a capture or the one move of a blocked side).
const FORCED_PLIES: u32 = 64;

/// A search that probes the tables, at a fixed budget, from a cleared
/// table each time (so that a value depends on its position alone).
pub struct Judge {
    searcher: Searcher,
    tables: Arc<Tablebase>,
    nodes: u64,
}

impl Judge {
    pub fn new(tables: Tablebase, nodes: u64) -> Judge {
        let tables = Arc::new(tables);
        let mut searcher = measured_search();
        searcher.set_tablebase(Some(Arc::clone(&tables)));
        Judge {
            searcher,
            tables,
            nodes,
        }
    }

    fn search(&mut self, pos: &Position) -> SearchOutcome {
        search_at(&mut self.searcher, pos, self.nodes)
    }

    /// What the judge proves of `pos` for its side to move: a position the
    /// tables hold is read from them, one with no move is lost, one with a
    /// single move is worth what that move leaves (the search plays a
    /// single move at once, without a score), any other is searched.
    pub fn value(&mut self, pos: &Position) -> Wdl {
        self.value_within(pos, FORCED_PLIES)
    }

    fn value_within(&mut self, pos: &Position, forced: u32) -> Wdl {
        if pos.occupied().count() <= self.tables.complete_pieces() {
            if let Some(v) = self.tables.probe(pos) {
                return v.wdl;
            }
        }
        let moves = legal_moves(pos);
        match moves.len() {
            0 => Wdl::Loss,
            1 if forced > 0 => flipped(self.value_within(&pos.play(&moves[0]), forced - 1)),
            1 => Wdl::Draw,
            _ => proven(self.search(pos).score),
        }
    }

    /// `pos`, which has two legal moves or more, judged: its value by the
    /// judge's search, with the judge's move and the value after it (for
    /// the side that plays it). `None` when the two values differ: the
    /// judge contradicts itself there.
    pub fn judge(&mut self, pos: &Position) -> Option<Judged> {
        let out = self.search(pos);
        let best = out.best_move?;
        let root = proven(out.score);
        let after = flipped(self.value(&pos.play(&best)));
        (after == root).then(|| Judged {
            position: *pos,
            root,
            moves: vec![(best, root)],
        })
    }

    /// The value `mv` leaves the side that plays it, judged once per move.
    fn value_of(&mut self, judged: &mut Judged, mv: Move) -> Wdl {
        if let Some(w) = judged.value_of(&mv) {
            return w;
        }
        let w = flipped(self.value(&judged.position.play(&mv)));
        judged.moves.push((mv, w));
        w
    }
}

/// The distinct positions of `games` with a piece count in `pieces` and a
/// choice to make (two legal moves or more), in the order played.
pub fn positions_of(games: &[PdnGame], pieces: PieceRange) -> Vec<Position> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for g in games {
        for pos in g.positions() {
            if pieces.holds(pos.occupied().count())
                && legal_moves(&pos).len() > 1
                && seen.insert(pos)
            {
                out.push(pos);
            }
        }
    }
    out
}

/// `tama-lab errors --games PDN`: the report a line at a time.
pub(super) fn run(
    a: &ErrorsArgs,
    path: &Path,
    tables: Tablebase,
    weights: Weights,
    line: &mut dyn FnMut(&str),
) -> Result<()> {
    if a.pieces.lo <= tables.complete_pieces() {
        bail!(
            "--pieces {} with --games: positions the tables hold ({} pieces or fewer) are measured without --games",
            a.pieces,
            tables.complete_pieces()
        );
    }
    let games = read_pdn_file(path, tables.rules())?;
    let mut found = positions_of(&games, a.pieces);
    if found.is_empty() {
        bail!(
            "{}: no position of {} pieces with a choice of moves in {} games",
            path.display(),
            a.pieces,
            games.len()
        );
    }
    let found_count = found.len();
    Rng::new(a.seed).shuffle(&mut found);
    let held = tables.complete_pieces();
    let mut judge = Judge::new(tables, a.judge_nodes);
    let (mut cases, mut lost, mut unsettled, mut tried) = (Vec::new(), 0u64, 0u64, 0u64);
    for pos in &found {
        if cases.len() == a.positions {
            break;
        }
        tried += 1;
        match judge.judge(pos) {
            None => unsettled += 1,
            Some(j) if j.root == Wdl::Loss => lost += 1,
            Some(j) => cases.push(j),
        }
    }
    let proven_wins = cases.iter().filter(|j| j.root == Wdl::Win).count();
    line(&format!(
        "{} {} pieces from {} games of {}, seed {}: {} positions with a choice of moves, {} judged, \
         {} kept ({} proven wins); skipped {} proven lost, {} where the judge contradicts itself; \
         judge: a search of {} nodes with the tables of up to {} pieces",
        a.variant,
        a.pieces,
        games.len(),
        path.display(),
        a.seed,
        found_count,
        tried,
        cases.len(),
        proven_wins,
        lost,
        unsettled,
        a.judge_nodes,
        held
    ));
    let mut file = error_file(a)?;
    // The search measured plays without the tables.
    let mut searcher = measured_search();
    searcher.set_weights(weights);
    let counts = (a.pieces.lo..=a.pieces.hi).count();
    for &nodes in &a.nodes {
        let (mut all, mut win, mut draw) = (Tally::default(), Tally::default(), Tally::default());
        let mut by_pieces = vec![Tally::default(); counts];
        for case in cases.iter_mut() {
            let played = play(&mut searcher, &case.position, nodes);
            let error = match played {
                None => true,
                Some(mv) => judge.value_of(case, mv) < case.root,
            };
            let k = case.position.occupied().count() - a.pieces.lo;
            let by_root = match case.root {
                Wdl::Win => &mut win,
                _ => &mut draw,
            };
            // Which moves could err is not known beyond the tables.
            for t in [&mut all, by_root, &mut by_pieces[k as usize]] {
                t.add(error, None);
            }
            if let (Some(f), true) = (file.as_mut(), error) {
                let p = Played {
                    judged: case,
                    played,
                };
                writeln!(f, "{}", error_line(nodes, &p))?;
            }
        }
        line(&format!("{nodes} nodes: {}", all.line()));
        line(&format!("  win:  {}", win.line()));
        line(&format!("  draw: {}", draw.line()));
        if counts > 1 {
            for (i, c) in by_pieces.iter().enumerate() {
                line(&format!(
                    "  {} pieces: {}",
                    a.pieces.lo + i as u32,
                    c.line()
                ));
            }
        }
    }
    if let Some(mut f) = file {
        f.flush()?;
    }
    Ok(())
}
