//! The fit of the king terms (`Model::Kings`): on positions whose outcome
//! depends on the kings alone, their weights move the way the outcomes say.

use crate::trainer::{self, Sample, Settings};
use tama_engine::eval::kings::{self, KingTable};
use tama_engine::eval::{Model, VariantWeights};
use tama_engine::position::Position;
use tama_engine::rng::Rng;
use tama_engine::rules::{Color, Rules, Variant};

/// `a1` ... `h8` of square `s` (a1 = 0).
fn name(s: u64) -> String {
    format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1)
}

/// A square not in `taken` drawn from `from`, then taken.
fn draw(rng: &mut Rng, from: &[u64], taken: &mut Vec<u64>) -> u64 {
    loop {
        let s = from[rng.below(from.len() as u64) as usize];
        if !taken.contains(&s) {
            taken.push(s);
            return s;
        }
    }
}

/// Squares a man may stand on: not on the first or last rank.
fn man_squares() -> Vec<u64> {
    (8..56).collect()
}

/// A position of White's `white` and Black's `black` pieces (`K` before a
/// king's square), `side` to move, and the exact value for the side to move
/// if `white_wins`: the game and the search said nothing (a draw, 0).
fn sample(white: &[String], black: &[String], side: Color, white_wins: bool) -> Sample {
    let to_move = if side == Color::White { "W" } else { "B" };
    let fen = format!("{to_move}:W{}:B{}", white.join(","), black.join(","));
    let position = Position::from_fen(&fen, Rules::ARMENIAN).unwrap();
    Sample {
        position,
        score: 0,
        result: 0.5,
        exact: Some(if white_wins == (side == Color::White) {
            1.0
        } else {
            0.0
        }),
    }
}

/// Every sample also with the colours swapped, so that the hand terms and
/// the patterns, the same for both, cannot stand in for the king terms.
fn both_colours(rng: &mut Rng, n: usize, make: impl Fn(&mut Rng, bool) -> Sample) -> Vec<Sample> {
    (0..n).map(|i| make(rng, i % 2 == 0)).collect()
}

/// Two kings and a man against two kings, won by the side with the man
/// (as the tables say of most KKM v KK positions), whoever is to move.
fn kkm_v_kk(rng: &mut Rng, white_has_man: bool) -> Sample {
    let mut taken = Vec::new();
    let all: Vec<u64> = (0..64).collect();
    let mut kings = || format!("K{}", name(draw(rng, &all, &mut taken)));
    let (mut w, mut b) = (vec![kings(), kings()], vec![kings(), kings()]);
    let man = name(draw(rng, &man_squares(), &mut taken));
    let side = if rng.below(2) == 0 {
        Color::White
    } else {
        Color::Black
    };
    if white_has_man {
        w.push(man);
    } else {
        b.push(man);
    }
    sample(&w, &b, side, white_has_man)
}

fn fit(train: &[Sample], valid: &[Sample]) -> KingTable {
    let settings = Settings {
        model: Model::Kings,
        epochs: 8,
        learning_rate: 1.0,
        batch: 64,
        freeze_hand: true,
        ..Settings::default()
    };
    let start = VariantWeights::hand_set(Variant::Armenian);
    let fit = trainer::train(train, valid, &start, &settings, &mut |_| {});
    assert!(fit.best_epoch > 0, "the fit improved on the start");
    fit.weights.kings.expect("the kings model has king terms")
}

#[test]
fn a_won_material_balance_gets_a_weight() {
    // Two kings and a man against two kings is won (as the tables say of
    // most KKM v KK positions): here every one is, whoever has the extra
    // man and whoever is to move. The hand terms are held, so only the king
    // terms can learn it: the weight of KKM v KK must rise and that of
    // KK v KKM (the same balance from the other side) fall.
    let mut rng = Rng::new(3);
    let train = both_colours(&mut rng, 2000, kkm_v_kk);
    let valid = both_colours(&mut rng, 400, kkm_v_kk);
    let k = fit(&train, &valid);
    let won = k.material()[kings::material_index(2, 1, 2, 0)];
    let lost = k.material()[kings::material_index(2, 0, 2, 1)];
    assert!(won > 0 && lost < 0, "KKM v KK {won}, KK v KKM {lost}");
}

#[test]
fn a_central_king_learns_a_better_square_than_a_cornered_one() {
    // King and man a side, where the side whose king stands in the centre
    // (d4, e4, d5, e5 from its own side) wins and the one whose king is in
    // a corner loses: the centre's square weight must rise above the
    // corner's. Each colour is as often in the centre, so the material and
    // the hand terms say nothing.
    let mut rng = Rng::new(5);
    let centre = [27, 28, 35, 36];
    let corners = [0, 7, 56, 63];
    let make = |rng: &mut Rng, white_central: bool| {
        let mut taken = Vec::new();
        let (w_from, b_from) = if white_central {
            (&centre, &corners)
        } else {
            (&corners, &centre)
        };
        let wk = format!("K{}", name(draw(rng, w_from, &mut taken)));
        let bk = format!("K{}", name(draw(rng, b_from, &mut taken)));
        let wm = name(draw(rng, &man_squares(), &mut taken));
        let bm = name(draw(rng, &man_squares(), &mut taken));
        let side = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        sample(&[wk, wm], &[bk, bm], side, white_central)
    };
    let train = both_colours(&mut rng, 2000, make);
    let valid = both_colours(&mut rng, 400, make);
    let k = fit(&train, &valid);
    // From a king's own side, d4 and e4 are index 15, d5 and e5 19; a1
    // and h1 are 0, a8 and h8 28: Black's d5 is White's d4.
    let (d4, a1) = (kings::square_index(27, true), kings::square_index(0, true));
    assert_eq!((d4, a1), (15, 0));
    assert_eq!(kings::square_index(35, false), d4);
    let (_, endgame) = k.squares();
    assert!(
        endgame[d4] > 0 && endgame[a1] < 0,
        "centre {}, corner {}",
        endgame[d4],
        endgame[a1]
    );
}

#[test]
fn frozen_patterns_and_hand_terms_leave_the_king_terms_alone_to_learn() {
    // Started from a learned set, the KKM v KK samples' men stand in
    // regions whose pattern weights the fit would move; with the patterns
    // and the hand terms frozen, they end exactly as they started, and the
    // balance is learned by the king terms.
    let mut rng = Rng::new(4);
    let train = both_colours(&mut rng, 1000, kkm_v_kk);
    let valid = both_colours(&mut rng, 200, kkm_v_kk);
    let start = tama_engine::eval::named("armenian-learned").expect("built in");
    let settings = Settings {
        model: Model::Kings,
        epochs: 4,
        batch: 64,
        freeze_hand: true,
        freeze_patterns: true,
        ..Settings::default()
    };
    let fit = trainer::train(&train, &valid, &start, &settings, &mut |_| {});
    assert!(fit.best_epoch > 0, "the fit improved on the start");
    let patterns = |w: &VariantWeights| {
        let p = w.patterns.as_ref().expect("a patterns set").params();
        (p.opening.clone(), p.endgame.clone())
    };
    assert!(
        patterns(&fit.weights) == patterns(&start),
        "the patterns moved"
    );
    assert_eq!(fit.weights.hand, start.hand);
    let k = fit.weights.kings.expect("the kings model has king terms");
    assert!(k.material()[kings::material_index(2, 1, 2, 0)] > 0);
}
