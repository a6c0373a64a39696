//! docs/rules.md §5, decision 9 (FEN) and the move text of the notation:
//! reading never panics, whatever the input; what parses prints back.

mod common;

use common::{random_board, to_position};
use tama_engine::rng::Rng;
use tama_engine::{Position, Rules};

/// A random position, up to 12 pieces a side, kings in any share.
fn random_position(rng: &mut Rng, rules: Rules) -> Position {
    let king_percent = 25 * rng.below(4);
    to_position(&random_board(rng, 12, king_percent), rules)
}

const ALPHABET: &[u8] = b"WBKwbk:,.- xX0123456789abcdefghijz\t\n";

fn random_text(rng: &mut Rng, max_len: u64) -> String {
    let n = rng.below(max_len + 1);
    (0..n)
        .map(|_| {
            if rng.below(50) == 0 {
                // now and then something outside ASCII
                ['é', 'Ж', '\u{0}', '🂡'][rng.below(4) as usize]
            } else {
                ALPHABET[rng.below(ALPHABET.len() as u64) as usize] as char
            }
        })
        .collect()
}

/// A valid FEN with a few characters changed, dropped or doubled.
fn mutated_fen(rng: &mut Rng) -> String {
    let pos = random_position(rng, Rules::default());
    let mut chars: Vec<char> = pos.fen().chars().collect();
    for _ in 0..1 + rng.below(3) {
        if chars.is_empty() {
            break;
        }
        let i = rng.below(chars.len() as u64) as usize;
        match rng.below(3) {
            0 => chars[i] = ALPHABET[rng.below(ALPHABET.len() as u64) as usize] as char,
            1 => {
                chars.remove(i);
            }
            _ => {
                let c = chars[i];
                chars.insert(i, c);
            }
        }
    }
    chars.into_iter().collect()
}

#[test]
fn fen_parsing_never_panics_and_round_trips() {
    let mut rng = Rng::new(5);
    let mut accepted = 0;
    let mut rejected = 0;
    for i in 0..60_000 {
        let text = if i % 2 == 0 {
            random_text(&mut rng, 40)
        } else {
            mutated_fen(&mut rng)
        };
        match Position::from_fen(&text, Rules::default()) {
            Ok(pos) => {
                accepted += 1;
                let again = Position::from_fen(&pos.fen(), Rules::default()).unwrap();
                assert_eq!(again, pos, "{text:?}");
                assert_eq!(again.fen(), pos.fen());
            }
            Err(e) => {
                rejected += 1;
                let msg = e.to_string();
                assert!(!msg.contains('\n'), "{text:?}: {msg:?}");
                assert!(msg.len() < 200, "{text:?}: {msg:?}");
            }
        }
    }
    assert!(accepted > 500 && rejected > 1000, "{accepted} {rejected}");
}

#[test]
fn move_parsing_never_panics() {
    let mut rng = Rng::new(6);
    for _ in 0..3000 {
        let pos = random_position(&mut rng, Rules::default());
        for _ in 0..10 {
            let text = random_text(&mut rng, 14);
            if let Ok(m) = pos.parse_move(&text) {
                // Whatever parses is a legal move of this position.
                assert!(tama_engine::movegen::legal_moves(&pos).contains(&m));
            }
        }
    }
}
