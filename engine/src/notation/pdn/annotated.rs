//! Movetext with annotations: after any move a move-strength mark (`?!`,
//! `?`, `??`, `!`), a comment and a variation, as a game review writes them.
//! The reader (`read.rs`) skips all three, so an annotated game reads back
//! as the game.

use super::move_number;
use crate::{Color, Move, Position};

/// A move's strength mark, written after the move (`d3-d4??`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Nag {
    /// `!`: the only move that holds.
    Only,
    /// `?!`: an inaccuracy.
    Inaccuracy,
    /// `?`: a mistake.
    Mistake,
    /// `??`: a blunder.
    Blunder,
}

impl Nag {
    /// The mark as written after a move.
    pub fn symbol(self) -> &'static str {
        match self {
            Nag::Only => "!",
            Nag::Inaccuracy => "?!",
            Nag::Mistake => "?",
            Nag::Blunder => "??",
        }
    }

    /// The mark in words.
    pub fn name(self) -> &'static str {
        match self {
            Nag::Only => "only move",
            Nag::Inaccuracy => "inaccuracy",
            Nag::Mistake => "mistake",
            Nag::Blunder => "blunder",
        }
    }
}

/// What is written after one move of the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotation {
    /// The move's mark.
    pub nag: Option<Nag>,
    /// A comment (written in `{}`; braces inside are replaced).
    pub comment: String,
    /// Another line from the position before the move, in place of it
    /// (written in `()`; empty: none).
    pub variation: Vec<Move>,
}

/// The moves of a game from `start` as PDN movetext, `notes[i]` written
/// after move `i` (fewer notes than moves: the rest have none), then
/// `result`; wrapped at about 80 columns.
pub fn annotated_movetext(
    start: &Position,
    moves: &[Move],
    notes: &[Annotation],
    result: &str,
) -> String {
    let mut words = Vec::new();
    line_words(start, start, 0, moves, notes, &mut words);
    words.push(result.to_string());
    wrap(&words.join(" "))
}

/// `moves` played from `pos`, ply `first_ply` of the game from `start`,
/// as numbered movetext (`12... e6-e5 13. d4xf6`).
pub fn numbered_line(start: &Position, pos: &Position, first_ply: usize, moves: &[Move]) -> String {
    let mut words = Vec::new();
    line_words(start, pos, first_ply, moves, &[], &mut words);
    words.join(" ")
}

/// The words of `moves` played from `pos`, ply `first_ply` of the game
/// from `start`, with their notes.
fn line_words(
    start: &Position,
    pos: &Position,
    first_ply: usize,
    moves: &[Move],
    notes: &[Annotation],
    words: &mut Vec<String>,
) {
    let mut pos = *pos;
    // A Black move is numbered at the start of a line and after a comment
    // or a variation.
    let mut numbered = false;
    for (i, m) in moves.iter().enumerate() {
        if pos.side_to_move() == Color::White || !numbered {
            words.push(move_number(start, first_ply + i));
        }
        numbered = true;
        let note = notes.get(i);
        let mark = note.and_then(|n| n.nag).map_or("", Nag::symbol);
        words.push(format!("{}{mark}", pos.move_text(m)));
        if let Some(note) = note {
            if !note.comment.is_empty() {
                words.push(format!("{{{}}}", note.comment.replace(['{', '}'], "'")));
                numbered = false;
            }
            if !note.variation.is_empty() {
                let line = numbered_line(start, &pos, first_ply + i, &note.variation);
                words.push(format!("({line})"));
                numbered = false;
            }
        }
        pos = pos.play(m);
    }
}

/// `text` with its spaces turned into line ends where a line would pass
/// 80 columns.
fn wrap(text: &str) -> String {
    let mut out = String::new();
    let mut col = 0;
    for word in text.split_whitespace() {
        if col > 0 && col + 1 + word.len() > 80 {
            out.push('\n');
            col = 0;
        } else if col > 0 {
            out.push(' ');
            col += 1;
        }
        out.push_str(word);
        col += word.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::pdn::read_pdn;
    use crate::Rules;

    #[test]
    fn marks_comments_and_variations_are_written_and_read_back_as_the_game() {
        let start = Position::startpos(Rules::default());
        let game: Vec<Move> = ["d3-d4", "d6-d5", "d4xd6xd8"]
            .iter()
            .scan(start, |p, t| {
                let m = p.parse_move(t).unwrap();
                *p = p.play(&m);
                Some(m)
            })
            .collect();
        let after_one = start.play(&game[0]);
        let alternative = ["c6-c5", "d4-d5"]
            .iter()
            .scan(after_one, |p, t| {
                let m = p.parse_move(t).unwrap();
                *p = p.play(&m);
                Some(m)
            })
            .collect();
        let notes = vec![
            Annotation {
                comment: "+0.10/9".into(),
                ..Annotation::default()
            },
            Annotation {
                nag: Some(Nag::Blunder),
                comment: "a {brace}".into(),
                variation: alternative,
            },
        ];
        let text = annotated_movetext(&start, &game, &notes, "*");
        assert_eq!(
            text,
            "1. d3-d4 {+0.10/9} 1... d6-d5?? {a 'brace'} (1... c6-c5 2. d4-d5) 2. d4xd6xd8 *"
        );
        let back = read_pdn(&text, Rules::default()).unwrap();
        assert_eq!(back[0].moves, game);
    }
}
