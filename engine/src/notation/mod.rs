//! Every text form of a position or a move, in one place (as shakmaty
//! keeps its FEN, SAN and UCI notations together), for both sides of the
//! protocol and for the match runner:
//!
//! - `algebraic`: moves as `d3-d4` and `d4xd6xf6` (the UCI dialect, PDN,
//!   messages), written and read by `Position::move_text` / `parse_move`;
//! - `fen`: positions as `W:Wa2,b2,Kd4:Ba7,Kh8`;
//! - `hub`: Scan's Hub protocol: numbered squares, moves `20x50x28`,
//!   65-character positions and `name=value` lines;
//! - `pdn`: games in Portable Draughts Notation, written and read back
//!   (every move replayed through the rules).
//!
//! Reading never panics, whatever the text; a refusal says what was wrong
//! in one line, quoting the input cut to a readable length (`shorten`).

pub mod algebraic;
pub mod fen;
pub mod hub;
pub mod pdn;

pub use algebraic::MoveError;
pub use fen::FenError;

/// How much of a rejected input an error message repeats.
const SHOWN_CHARS: usize = 40;

/// `text` cut to 40 characters (then `...`), for an error message that
/// repeats what it rejects: one readable line whatever the input.
pub fn shorten(text: &str) -> String {
    if text.chars().count() <= SHOWN_CHARS {
        text.to_string()
    } else {
        text.chars().take(SHOWN_CHARS).collect::<String>() + "..."
    }
}

/// `text` shortened and in double quotes: `"d3-d9"`.
pub fn quote_short(text: &str) -> String {
    format!("\"{}\"", shorten(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_short_text_kept() {
        assert_eq!(shorten("d3-d4"), "d3-d4");
        let exact = "x".repeat(40);
        assert_eq!(shorten(&exact), exact);
        let long = "é".repeat(41);
        assert_eq!(shorten(&long), "é".repeat(40) + "...");
        assert_eq!(quote_short("pos"), "\"pos\"");
    }
}
