//! The search's use of the endgame databases (`crate::egtb`): a probe in
//! the node search, and the choice of root moves in a database position.
//!
//! A probe needs no quiet position: the tables hold positions with a
//! capture due too, each decided in the build's first look with the
//! engine's own move generator (compulsory maximum capture, capture
//! removal, mid-capture promotion), so a table's value is exact for the
//! side to move whether or not a capture is due. Repetition is the one
//! thing a table does not see; the node search has ruled it out before it
//! probes.

use super::score::{tb_loss_in, tb_win_in};
use crate::egtb::{Tablebase, Value, Wdl};
use crate::moves::Move;
use crate::position::Position;

/// The tables a search may probe, and up to how many pieces.
#[derive(Clone, Copy)]
pub(super) struct Probing<'a> {
    pub tables: &'a Tablebase,
    pub pieces: u32,
}

impl Probing<'_> {
    /// The tables' value of `pos` if it has few enough pieces.
    #[inline]
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        if pos.occupied().count() > self.pieces {
            return None;
        }
        self.tables.probe(pos)
    }
}

/// The score of a database value at `ply`, a draw scored `draw`.
#[inline]
pub(super) fn score_of(value: Value, ply: usize, draw: i32) -> i32 {
    match value.wdl {
        Wdl::Win => tb_win_in(ply, value.plies),
        Wdl::Draw => draw,
        Wdl::Loss => tb_loss_in(ply, value.plies),
    }
}

/// What the databases say at the root.
pub(super) struct RootProbe {
    /// The moves worth searching (see `root_moves`), best first.
    pub moves: Vec<Move>,
    /// The root's score by the tables.
    pub score: i32,
    /// Probes made.
    pub probes: u64,
}

/// The root moves worth searching in a database position; `None` when the
/// root is not in the tables (search every move).
///
/// Only moves that keep the root's value are kept: in a won position the
/// moves to a lost one for the opponent, the quickest of them when the
/// tables keep distances (the distance to the end then shrinks with every
/// move of ours: the win makes progress and can never repeat); in a lost
/// one the slowest losses; in a drawn one the moves that keep the draw.
/// Where the tables keep no distance (win/draw/loss only), a winning move
/// into a table that does is best; failing that, the winning moves that
/// cannot be undone (men stepping forward, crownings) are kept if there
/// are any, since only those bring the game down to such tables, and
/// there are finitely many; failing that, every winning move, and the
/// search chooses (without a distance nothing proves that it progresses:
/// docs/endgames.md).
pub(super) fn root_moves(probing: Probing, root: &Position, moves: &[Move]) -> Option<RootProbe> {
    let value = probing.probe(root)?;
    let mut probes = 1;
    // Each move with its rank: higher is better for us.
    let mut ranked: Vec<(Move, i64)> = Vec::with_capacity(moves.len());
    for mv in moves {
        let child = root.play(mv);
        probes += 1;
        // The child is always in the tables when the root is: it has no
        // more pieces, and a capture or crowning leads to a table built
        // before the root's. A missing one would be a damaged database.
        let reply = probing
            .probe(&child)
            .unwrap_or_else(|| panic!("the database holds {root:?} but not its child {child:?}"));
        let ours = -i64::from(score_of(reply, 0, 0));
        let progress = value.wdl == Wdl::Win && reply.plies.is_none() && !root.is_reversible(mv);
        ranked.push((*mv, ours * 2 + i64::from(progress)));
    }
    let best = ranked.iter().map(|&(_, r)| r).max()?;
    let moves = ranked
        .into_iter()
        .filter(|&(_, r)| r == best)
        .map(|(m, _)| m)
        .collect();
    Some(RootProbe {
        moves,
        score: score_of(value, 0, 0),
        probes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egtb::tests::{build_quietly, TempDir};
    use crate::egtb::{Signature, TableIndex};
    use crate::game::{Game, GameStatus};
    use crate::rules::Rules;
    use crate::search::{Score, SearchControl, SearchLimits, SearchOutcome, Searcher};
    use std::sync::Arc;

    /// The 3-piece Armenian tables, built once per test binary run.
    fn tables() -> Arc<Tablebase> {
        static TABLES: std::sync::OnceLock<Arc<Tablebase>> = std::sync::OnceLock::new();
        TABLES
            .get_or_init(|| {
                let dir = TempDir::new("search");
                // The files may go: the opened tables keep their maps.
                Arc::new(build_quietly(dir.path(), Rules::ARMENIAN, 3, 3))
            })
            .clone()
    }

    /// A position of `signature` whose win is the longest the table has
    /// (White to move), and that length in plies.
    fn longest_win(tb: &Tablebase, signature: &str) -> (Position, u32) {
        let signature = Signature::parse(signature).unwrap();
        let longest = tb
            .table(signature)
            .unwrap()
            .header
            .stats
            .longest_win
            .unwrap();
        let index = TableIndex::new(signature);
        let entry = (0..index.len())
            .map(|i| index.placement(i))
            .find(|p| tb.probe_placement(p).and_then(|v| v.plies) == Some(longest))
            .unwrap();
        (entry.to_position(Rules::ARMENIAN), longest)
    }

    fn search(pos: &Position, tables: Option<Arc<Tablebase>>, nodes: u64) -> SearchOutcome {
        search_game(&Game::new(*pos), tables, nodes)
    }

    /// A search of the game's position, which sees the game's repetitions.
    fn search_game(game: &Game, tables: Option<Arc<Tablebase>>, nodes: u64) -> SearchOutcome {
        let mut s = Searcher::new(16);
        s.set_tablebase(tables);
        let limits = SearchLimits {
            nodes: Some(nodes),
            ..SearchLimits::default()
        };
        s.search(game, &limits, &SearchControl::new(), &mut |_| {})
    }

    /// The longest 3-piece win (two men against one, 39 plies: 20 moves of
    /// the winner) is beyond what 3000 nodes of search can see, so without
    /// the tables the search reports no win; with them it reports the win
    /// in exactly the table's number of moves.
    #[test]
    fn the_tables_solve_a_win_a_small_search_cannot() {
        let tb = tables();
        let (pos, plies) = longest_win(&tb, "MMvM");
        assert_eq!(plies, 39);
        let with = search(&pos, Some(tb), 3000);
        assert_eq!(with.score, Some(Score::Mate(20)), "{pos:?}");
        let without = search(&pos, None, 3000);
        assert!(
            matches!(without.score, Some(Score::Cp(_))),
            "{pos:?}: {:?}",
            without.score
        );
    }

    /// Both sides searching with the tables play a won position out in
    /// exactly its distance: the winner takes the quickest win every move
    /// (never shuffling: the distance shrinks), the loser the slowest loss.
    #[test]
    fn a_won_position_is_won_in_its_distance() {
        let tb = tables();
        for signature in ["KKvK", "KMvK", "MMvM"] {
            let (start, plies) = longest_win(&tb, signature);
            let mut game = Game::new(start);
            let mut played = 0;
            while game.status() == GameStatus::Ongoing && played < 2 * plies {
                let out = search(game.position(), Some(Arc::clone(&tb)), 500);
                game.play(out.best_move.unwrap());
                played += 1;
            }
            let winner = start.side_to_move();
            assert_eq!(
                game.status(),
                GameStatus::Won(winner),
                "{signature} {start:?}"
            );
            assert_eq!(played, plies, "{signature} {start:?}");
        }
    }

    /// The 3-piece Armenian tables without distances (the 2-piece ones
    /// keep theirs), built once per test binary run.
    fn tables_without_distances() -> Arc<Tablebase> {
        static TABLES: std::sync::OnceLock<Arc<Tablebase>> = std::sync::OnceLock::new();
        TABLES
            .get_or_init(|| {
                let dir = TempDir::new("search-wdl");
                Arc::new(build_quietly(dir.path(), Rules::ARMENIAN, 3, 2))
            })
            .clone()
    }

    /// With tables that say only who wins, both sides searching with them
    /// still play the longest wins out to the win. Two kings against one
    /// have only king moves, all reversible: were the tables' word taken
    /// one ply below the root, every winning move would score alike and
    /// the first of the move order would be played, and the two kings go
    /// back and forth until the position repeats a third time (a draw).
    /// Searching on after reversible moves, the search takes the lone king
    /// (or shuts it in) as it would without tables.
    #[test]
    fn a_won_position_without_distances_is_won() {
        let with_distances = tables();
        let tb = tables_without_distances();
        for signature in ["KKvK", "KMvK", "MMvM"] {
            let (start, plies) = longest_win(&with_distances, signature);
            assert!(tb.probe(&start).unwrap().plies.is_none());
            let mut game = Game::new(start);
            let mut played = 0;
            while game.status() == GameStatus::Ongoing && played < 200 {
                let out = search_game(&game, Some(Arc::clone(&tb)), 2000);
                game.play(out.best_move.unwrap());
                played += 1;
            }
            let winner = start.side_to_move();
            assert_eq!(
                game.status(),
                GameStatus::Won(winner),
                "{signature} {start:?}, {played} plies (the quickest win: {plies})"
            );
        }
    }

    /// A search from a root the tables do not hold (four pieces) counts
    /// its probes below the root, where a capture leaves three.
    #[test]
    fn probes_below_the_root_are_counted() {
        let tb = tables();
        let pos = Position::from_fen("W:WKa1,Kh7:BKc3,Kf5", Rules::ARMENIAN).unwrap();
        let mut s = Searcher::new(16);
        s.set_tablebase(Some(tb));
        let limits = SearchLimits {
            depth: Some(4),
            ..SearchLimits::default()
        };
        let mut tbhits = 0;
        s.search(&Game::new(pos), &limits, &SearchControl::new(), &mut |i| {
            tbhits = i.tbhits
        });
        assert!(tbhits > 0);
    }
}
