//! Deterministic randomized tests of the parsers (what the cargo-fuzz target
//! in `fuzz/` does without end, done here for a fixed number of inputs so CI
//! runs it): no input may panic, and what Tama prints must parse back.

use crate::exercise_parsers;
use tama_engine::movegen::legal_moves;
use tama_engine::notation::hub;
use tama_engine::rng::Rng;
use tama_engine::{Game, Position, Rules};

/// A random index into a list of `len` items.
fn pick(rng: &mut Rng, len: usize) -> usize {
    rng.below(len as u64) as usize
}

const FRAGMENTS: &[&str] = &[
    "uci",
    "isready",
    "go",
    "depth",
    "3",
    "-1",
    "perft",
    "searchmoves",
    "position",
    "startpos",
    "fen",
    "moves",
    "W:Wa2,Kd4:Ba7,Kh8",
    "B:W:B",
    "d3-d4",
    "d4xd6xf6",
    "a1a2",
    "setoption",
    "name",
    "value",
    "Hash",
    "Move",
    "Overhead",
    "Variant",
    "turkish",
    "true",
    "hub",
    "pos",
    "pos=",
    "moves=\"",
    "\"",
    "=",
    "level",
    "time=1.5",
    "inc=-2",
    "move-time=1e308",
    "nan",
    "set-param",
    "name=variant",
    "value=armenian",
    "22-30",
    "20x50x28x44x51",
    "64x1",
    "0-65",
    "Weeeeeeeebbbbbbbbbbbbbbbbeeeeeeeeeeeeeeeewwwwwwwwwwwwwwwweeeeeeee",
    "ping",
    "x",
    "-",
    ":",
    "\u{fffd}",
    "\t",
    "\r",
    "€",
    "K",
    "wtime",
    "99999999999999999999999",
    "bench",
    "0",
];

fn random_line(rng: &mut Rng) -> String {
    let mut s = String::new();
    for _ in 0..rng.below(12) {
        if rng.below(4) == 0 {
            // Random characters, including multi-byte ones.
            for _ in 0..rng.below(6) {
                let c = char::from_u32(rng.below(0x800) as u32).unwrap_or('?');
                s.push(c);
            }
        } else {
            s.push_str(FRAGMENTS[pick(rng, FRAGMENTS.len())]);
        }
        if rng.below(3) != 0 {
            s.push(' ');
        }
    }
    s
}

#[test]
fn parsers_survive_random_lines() {
    let mut rng = Rng::new(0x5eed_1234_abcd_ef01);
    for _ in 0..20_000 {
        exercise_parsers(&random_line(&mut rng));
    }
}

/// Random games under every rule set: the Hub position string and every
/// legal move's Hub text must read back to the same position and move.
#[test]
fn hub_notation_round_trips_on_random_games() {
    let mut rng = Rng::new(42);
    let mut moves_checked = 0;
    for rules in Rules::all() {
        for _ in 0..30 {
            let mut game = Game::new(Position::startpos(rules));
            for _ in 0..120 {
                let pos = *game.position();
                let text = hub::encode_position(&pos);
                assert_eq!(hub::decode_position(&text, rules), Ok(pos), "{text}");
                let legal = legal_moves(&pos);
                if legal.is_empty() {
                    break;
                }
                for m in &legal {
                    let t = hub::move_text(m);
                    let twins = legal.iter().filter(|o| hub::move_text(o) == t).count();
                    if twins == 1 {
                        assert_eq!(hub::parse_move(&pos, &t), Ok(*m), "{} {t}", pos.fen());
                        moves_checked += 1;
                    } else {
                        assert!(hub::parse_move(&pos, &t).is_err());
                    }
                }
                game.play(legal[pick(&mut rng, legal.len())]);
            }
        }
    }
    assert!(moves_checked > 10_000, "{moves_checked}");
}

/// Tokenizing what Tama itself prints in Hub gives `name=value` pairs only.
#[test]
fn hub_tokenizer_reads_our_own_lines() {
    for line in [
        "id name=Tama version=0.1.0 author=\"The Tama developers\"",
        "param name=variant value=armenian type=enum values=\"armenian turkish\"",
        "info depth=3 score=-0.25 nodes=100 time=0.010 nps=0.01 pv=\"22-30 41-33\"",
        "done move=20x50x28x44x51 ponder=58x42x50",
    ] {
        let t = hub::tokenize(line).unwrap();
        assert!(t.args.iter().all(|(_, v)| v.is_some()), "{line}");
    }
}
