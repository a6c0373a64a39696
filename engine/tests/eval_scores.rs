//! The hand-set weights (`builtin:armenian-hand`, `builtin:turkish-hand`,
//! the default until 0.2.0) score as release 0.1.0 and main at f4dfa76 did:
//! tests/eval/main_scores.txt holds 500 random positions a variant and the
//! `eval` total main's binary printed for each (made once with
//! `tools/eval_scores.py`, whose doc comment has the command). They are the
//! reference the learned sets were measured against; they must not drift,
//! or those matches no longer say anything about them. Since then the
//! endgame values the weights cannot express (`eval::endgame`: one piece
//! a side is a draw, a lone piece's ceiling) apply to every set, so the
//! recorded scores are checked with those rules applied on top.

use tama_engine::eval::{endgame, evaluate_with_mobility, named, Weights};
use tama_engine::{Color, Position, Rules, Variant};

const MAIN_SCORES: &str = include_str!("eval/main_scores.txt");

#[test]
fn hand_set_evaluation_scores_as_main_did() {
    let mut hand = Weights::DEFAULT;
    hand.replace(named("armenian-hand").unwrap());
    hand.replace(named("turkish-hand").unwrap());
    let mut checked = [0; 2];
    for line in MAIN_SCORES.lines() {
        let mut fields = line.split(' ');
        let (Some(variant), Some(fen), Some(score), None) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            panic!("malformed line {line:?}");
        };
        let variant: Variant = variant.parse().unwrap();
        let rules = match variant {
            Variant::Armenian => Rules::ARMENIAN,
            Variant::Turkish => Rules::TURKISH,
        };
        let pos = Position::from_fen(fen, rules).unwrap();
        let recorded: i32 = score.parse().unwrap();
        let expected = if endgame::known_draw(&pos) {
            0
        } else {
            let white = match pos.side_to_move() {
                Color::White => recorded,
                Color::Black => -recorded,
            };
            let white = endgame::lone_piece_scaled(&pos, white);
            match pos.side_to_move() {
                Color::White => white,
                Color::Black => -white,
            }
        };
        assert_eq!(
            evaluate_with_mobility(&pos, &hand).0,
            expected,
            "{variant} {fen}"
        );
        checked[variant as usize] += 1;
    }
    assert_eq!(checked, [500, 500]);
}
