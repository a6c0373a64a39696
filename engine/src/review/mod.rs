//! A game reviewed: every position of the game searched once, each move
//! judged by what it gave away (`judge`), the endgame databases' verdict
//! where they hold the position, and the game written back as annotated PDN
//! (`notation::pdn::annotated_movetext`).
//!
//! One searcher does the whole review, its transposition table kept from
//! one position to the next, so that the only time spent is the searches'
//! own: the review of a game of N plies costs N + 1 searches. The caller
//! (`tama analyse`, the board's Review) owns the searcher, its threads,
//! table and databases, and reports the progress.

pub mod judge;

use crate::egtb::Tablebase;
use crate::egtb::Value;
use crate::movegen;
use crate::notation::pdn::{
    annotated_movetext, game_type, numbered_line, write_tag, Annotation, Nag,
};
use crate::search::{SearchControl, SearchInfo, SearchLimits, Searcher};
use crate::{Color, Game, Move, Position, Variant};
use judge::{Eval, Summary};

/// What the search and the databases say about one position of the game,
/// from its side to move's view.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionEval {
    /// The best score.
    pub eval: Eval,
    /// The depth it was found at (0: no search: the game is over, or the
    /// databases chose).
    pub depth: u32,
    /// The best line (empty when the game is over).
    pub line: Vec<Move>,
    /// The second best move's score (absent with a single legal move).
    pub second: Option<Eval>,
    /// The databases' value, when they hold the position.
    pub tables: Option<Value>,
}

/// One move of the game judged.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// Who played it.
    pub mover: Color,
    /// The move played.
    pub played: Move,
    /// The position after it, from White's view.
    pub white_eval: Eval,
    /// The depth of that evaluation.
    pub depth: u32,
    /// The expected score (of 1) the move gave away.
    pub loss: f64,
    /// Its mark.
    pub nag: Option<Nag>,
    /// The better line from the position before (empty when the move was
    /// the best or is not marked as a loss).
    pub better: Vec<Move>,
    /// The position before, from White's view: what the better line keeps.
    pub better_eval: Eval,
    /// The opponent's best answer and the line after it: what punishes the
    /// move (empty when not marked as a loss).
    pub refutation: Vec<Move>,
    /// The databases' verdict before and after the move, from the mover's
    /// view, when they hold the position.
    pub tables: Option<(Value, Value)>,
}

/// A game reviewed.
#[derive(Clone, Debug)]
pub struct GameReview {
    /// The position the game starts from.
    pub start: Position,
    /// Every move, judged.
    pub moves: Vec<MoveReview>,
    /// Each side's marks: White's, then Black's.
    pub summary: [Summary; 2],
}

/// How far a review has got: positions searched of how many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Positions searched so far.
    pub done: usize,
    /// Positions to search in all.
    pub total: usize,
}

/// A position's search time when the caller gives no limit.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

/// The searcher a review needs, with `threads` threads and a table of
/// `hash_mb`: two best lines (the second tells an only move), no time kept
/// back for a GUI (there is none between the searches).
pub fn searcher(hash_mb: usize, threads: usize) -> Searcher {
    let mut searcher = Searcher::new(hash_mb);
    let o = searcher.options_mut();
    o.threads = threads.clamp(1, Searcher::MAX_THREADS);
    o.multipv = 2;
    o.move_overhead = std::time::Duration::ZERO;
    searcher
}

/// A position's budget: the limit given, or `DEFAULT_MOVETIME_MS`.
pub fn limits(movetime_ms: Option<u64>, nodes: Option<u64>, depth: Option<u32>) -> SearchLimits {
    let movetime = match (movetime_ms, nodes, depth) {
        (None, None, None) => Some(DEFAULT_MOVETIME_MS),
        (ms, _, _) => ms,
    };
    SearchLimits {
        movetime: movetime.map(std::time::Duration::from_millis),
        nodes,
        depth,
        analysis: true,
        ..SearchLimits::default()
    }
}

/// Reviews the game of `moves` from `start` (each legal, as the PDN
/// reader and the board give them) with `searcher` within `limits` a
/// position. `progress` is told after every search. `None` when `control`
/// was stopped (the review cancelled).
pub fn review_game(
    searcher: &mut Searcher,
    start: &Position,
    moves: &[Move],
    limits: &SearchLimits,
    control: &SearchControl,
    progress: &mut dyn FnMut(Progress),
) -> Option<GameReview> {
    let total = moves.len() + 1;
    let mut game = Game::new(*start);
    let mut evals = Vec::with_capacity(total);
    for i in 0..total {
        evals.push(evaluate(searcher, &game, limits, control));
        if control.is_stopped() {
            return None;
        }
        progress(Progress { done: i + 1, total });
        if let Some(m) = moves.get(i) {
            game.play(*m);
        }
    }
    let variant = start.rules().variant;
    let tables = searcher.tablebase().cloned();
    let mut pos = *start;
    let mut summary = [Summary::default(); 2];
    let mut reviews = Vec::with_capacity(moves.len());
    for (i, played) in moves.iter().enumerate() {
        let r = judge_move(
            &pos,
            played,
            [&evals[i], &evals[i + 1]],
            variant,
            tables.as_deref(),
        );
        summary[r.mover as usize].add(r.nag, r.loss);
        reviews.push(r);
        pos = pos.play(played);
    }
    Some(GameReview {
        start: *start,
        moves: reviews,
        summary,
    })
}

/// Forced moves followed at most this far before a search.
const MAX_FORCED: usize = 32;

/// The search's (and the databases') view of the game's current position.
/// A position with one legal move is the position after it: the search
/// would answer a forced move after one iteration, a score too shallow to
/// judge the move that led there by.
fn evaluate(
    searcher: &mut Searcher,
    game: &Game,
    limits: &SearchLimits,
    control: &SearchControl,
) -> PositionEval {
    let tables = searcher.tablebase().and_then(|t| t.probe(game.position()));
    let mut game = game.clone();
    let mut forced = Vec::new();
    while forced.len() < MAX_FORCED {
        let moves = movegen::legal_moves(game.position());
        if moves.len() != 1 {
            break;
        }
        forced.push(moves[0]);
        game.play(moves[0]);
    }
    let mut eval = search(searcher, &game, limits, control);
    if forced.len() % 2 == 1 {
        eval.eval = eval.eval.flip();
    }
    if !forced.is_empty() {
        forced.append(&mut eval.line);
        eval.line = forced;
        eval.second = None;
    }
    eval.tables = tables;
    eval
}

/// One search of the game's current position (none when it has no move).
fn search(
    searcher: &mut Searcher,
    game: &Game,
    limits: &SearchLimits,
    control: &SearchControl,
) -> PositionEval {
    if movegen::count(game.position()) == 0 {
        return PositionEval {
            eval: Eval::Loss(0),
            depth: 0,
            line: Vec::new(),
            second: None,
            tables: None,
        };
    }
    // The last report of each of the two best lines.
    let mut lines: [Option<SearchInfo>; 2] = [None, None];
    let out = searcher.search(game, limits, control, &mut |info| {
        if let Some(slot) = lines.get_mut((info.multipv as usize).wrapping_sub(1)) {
            *slot = Some(info.clone());
        }
    });
    let [first, second] = lines;
    let best = out.best_move;
    let line = match &first {
        Some(info) if info.pv.first() == best.as_ref() => info.pv.clone(),
        _ => best.into_iter().collect(),
    };
    let eval = out
        .score
        .or(first.as_ref().map(|i| i.score))
        .map_or(Eval::Cp(0), Eval::of_score);
    let second = second
        .filter(|s| first.as_ref().is_some_and(|f| f.depth == s.depth))
        .map(|s| Eval::of_score(s.score));
    PositionEval {
        eval,
        depth: out.depth,
        line,
        second,
        tables: None,
    }
}

/// Move `played` from `pos`, the positions before and after evaluated.
fn judge_move(
    pos: &Position,
    played: &Move,
    [before, after]: [&PositionEval; 2],
    variant: Variant,
    databases: Option<&Tablebase>,
) -> MoveReview {
    let mover = pos.side_to_move();
    let was_best = before.line.first() == Some(played);
    let kept = after.eval.flip();
    let tables = before
        .tables
        .zip(after.tables)
        .map(|(b, a)| (b, judge::flip(a)));
    let (loss, nag) = match tables {
        // The databases are exact: only a change of result is a loss.
        Some((b, a)) => {
            let loss = (judge::points(b) - judge::points(a)).max(0.0);
            let only =
                loss == 0.0 && databases.is_some_and(|t| only_move_in_tables(t, pos, played, b));
            (
                loss,
                if only {
                    Some(Nag::Only)
                } else {
                    judge::mark(loss)
                },
            )
        }
        None => {
            let loss = if was_best {
                0.0
            } else {
                (before.eval.expected(variant) - kept.expected(variant)).max(0.0)
            };
            let only = was_best
                && kept.expected(variant) >= judge::ONLY_MOVE_FLOOR
                && before.second.is_some_and(|s| {
                    kept.expected(variant) - s.expected(variant) >= judge::ONLY_MOVE_GAP
                });
            (
                loss,
                if only {
                    Some(Nag::Only)
                } else {
                    judge::mark(loss)
                },
            )
        }
    };
    let marked_loss = nag.is_some_and(|n| n != Nag::Only);
    MoveReview {
        mover,
        played: *played,
        white_eval: after.eval.for_white(mover.opponent()),
        depth: after.depth,
        loss,
        nag,
        better: if marked_loss && !was_best {
            before.line.clone()
        } else {
            Vec::new()
        },
        better_eval: before.eval.for_white(mover),
        refutation: if marked_loss {
            after.line.clone()
        } else {
            Vec::new()
        },
        tables,
    }
}

/// Whether `played` keeps the databases' value `value` of `pos` and every
/// other legal move gives it away.
fn only_move_in_tables(tables: &Tablebase, pos: &Position, played: &Move, value: Value) -> bool {
    let moves = movegen::legal_moves(pos);
    moves.len() > 1
        && moves.iter().filter(|m| *m != played).all(|m| {
            tables
                .probe(&pos.play(m))
                .is_some_and(|v| judge::points(judge::flip(v)) < judge::points(value))
        })
}

impl GameReview {
    /// The annotations of the game's moves: for every move the score after
    /// it from White's view and its depth (`+0.35/14`); for a marked move
    /// its mark, why, the better line as a variation, and what refutes it;
    /// the databases' verdict where they hold the position.
    pub fn annotations(&self) -> Vec<Annotation> {
        let mut pos = self.start;
        let mut ply = 0;
        self.moves
            .iter()
            .map(|r| {
                let mut comment = if r.depth > 0 {
                    format!("{}/{}", r.white_eval, r.depth)
                } else {
                    r.white_eval.to_string()
                };
                match r.tables {
                    Some((b, a)) if b.wdl != a.wdl => {
                        comment +=
                            &format!(" tables: {} -> {}", judge::verdict(b), judge::verdict(a))
                    }
                    Some((_, a)) => comment += &format!(" tables: {}", judge::verdict(a)),
                    None => {}
                }
                if let Some(nag) = r.nag {
                    comment += &format!(" {} {}", nag.symbol(), nag.name());
                    if nag != Nag::Only {
                        comment += &format!(" (loses {:.0}%)", 100.0 * r.loss);
                    }
                }
                if let Some(first) = r.better.first() {
                    comment += &format!("; better {} ({})", pos.move_text(first), r.better_eval);
                }
                let after = pos.play(&r.played);
                if !r.refutation.is_empty() {
                    comment += &format!(
                        "; refuted by {}",
                        numbered_line(&self.start, &after, ply + 1, &r.refutation)
                    );
                }
                ply += 1;
                pos = after;
                Annotation {
                    nag: r.nag,
                    comment,
                    variation: r.better.clone(),
                }
            })
            .collect()
    }

    /// Each side's summary in words: `White (NAME): 30 moves, ...`, the
    /// names from the tags.
    pub fn summary_lines(&self, tags: &[(String, String)]) -> [String; 2] {
        let name = |tag: &str| {
            tags.iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(tag))
                .map_or("?", |(_, v)| v.as_str())
        };
        [
            format!("White ({}): {}", name("White"), self.summary[0]),
            format!("Black ({}): {}", name("Black"), self.summary[1]),
        ]
    }

    /// The game as annotated PDN: its `tags` (with the rule tags added
    /// when they named no rules, and an Annotator tag), the moves with their
    /// annotations, each side's summary as the last comment, then `result`.
    pub fn to_pdn(&self, tags: &[(String, String)], annotator: &str, result: &str) -> String {
        let mut s = String::new();
        for (k, v) in tags
            .iter()
            .filter(|(k, _)| !k.eq_ignore_ascii_case("Annotator"))
        {
            write_tag(&mut s, k, v);
        }
        let rules = self.start.rules();
        let has = |tag: &str| tags.iter().any(|(k, _)| k.eq_ignore_ascii_case(tag));
        if ![
            "GameType",
            "Variant",
            "CaptureRemoval",
            "MidCapturePromotion",
        ]
        .iter()
        .any(|t| has(t))
        {
            write_tag(&mut s, "GameType", game_type(rules));
            write_tag(&mut s, "Variant", &rules.variant.to_string());
            write_tag(&mut s, "CaptureRemoval", &rules.capture_removal.to_string());
            write_tag(
                &mut s,
                "MidCapturePromotion",
                &rules.mid_capture_promotion.to_string(),
            );
        }
        write_tag(&mut s, "Annotator", annotator);
        s.push('\n');
        let moves: Vec<Move> = self.moves.iter().map(|r| r.played).collect();
        // The summary is the last comment, before the result.
        let end = format!("{{{}}} {result}", self.summary_lines(tags).join("; "));
        s.push_str(&annotated_movetext(
            &self.start,
            &moves,
            &self.annotations(),
            &end,
        ));
        s.push_str("\n\n");
        s
    }
}
