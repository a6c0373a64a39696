//! Unit-test helpers: random positions for the tests that sweep many
//! (the integration tests have their own, built on the naive board), and
//! what the search's tests share with the lab's (lab/tests/search.rs).

use crate::bitboard::Bitboard;
use crate::game::Game;
use crate::position::Position;
use crate::rng::Rng;
use crate::rules::{Color, Rules};
use crate::search::{Score, SearchControl, SearchLimits, Searcher};
use crate::square::Square;

/// A random position with up to 16 pieces a side, many kings, no man on its
/// own far rank; the side to move is random.
pub fn random_position(rng: &mut Rng, rules: Rules) -> Position {
    let mut pieces = [Bitboard::EMPTY; 2];
    let mut kings = Bitboard::EMPTY;
    let king_share = rng.below(4); // 0: no kings .. 3: mostly kings
    for color in [Color::White, Color::Black] {
        let n = 1 + rng.below(12);
        for _ in 0..n {
            let sq = Square::new(rng.below(64) as u8).unwrap();
            if (pieces[0] | pieces[1]).contains(sq) {
                continue;
            }
            let king = rng.below(4) < king_share || color.promotion_rank().contains(sq);
            pieces[color as usize] = pieces[color as usize].with(sq);
            if king {
                kings = kings.with(sq);
            }
        }
    }
    let side = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    Position::from_parts(pieces[0], pieces[1], kings, side, rules)
}

/// The bench's depth in the signature test, and its node count there: the
/// product's and the lab's with default switches alike.
pub const BENCH_TEST_DEPTH: u32 = 8;
/// The node count of `bench::run(BENCH_TEST_DEPTH)`.
pub const BENCH_TEST_NODES: u64 = 326_603;

/// The repetition of the search test
/// `contempt_prices_the_repetition_for_the_root_side_and_not_in_analysis`
/// priced by the searcher `make` gives (the lab's sparring search is held
/// to it as well).
pub fn assert_contempt_prices_the_repetition(make: &dyn Fn() -> Searcher, what: &str) {
    let mut g = Game::new(Position::from_fen("W:WKa1:BKh8,Kg8", Rules::ARMENIAN).unwrap());
    for m in ["a1-a2", "h8-h7", "a2-a1", "h7-h8"] {
        g.play_text(m).unwrap();
    }
    for (contempt, analysis, expect) in [
        (40, false, -40),
        (-40, false, 40),
        (40, true, 0),
        (0, false, 0),
    ] {
        let mut s = make();
        s.options_mut().contempt = contempt;
        let limits = SearchLimits {
            depth: Some(6),
            analysis,
            ..SearchLimits::default()
        };
        let out = s.search(&g, &limits, &SearchControl::new(), &mut |_| {});
        let what = format!("{what}, contempt {contempt}, analysis {analysis}");
        assert_eq!(out.score, Some(Score::Cp(expect)), "{what}");
        assert_eq!(
            g.position().move_text(&out.best_move.expect("a move")),
            "a1-a2",
            "{what}"
        );
    }
}
