//! PDN output of finished games (here) and of reviewed ones (`annotated`:
//! comments, marks, variations), and a PDN reader that replays every move
//! through the rules core (`read`: opening files, game reviews, the tests;
//! `file`: a file of games under one rule set, for the tables' audit of
//! played games and the lab's positions from games).
//!
//! Tags written: Event, Site, Date, Round, White, Black, Result (`2-0`, `1-1`,
//! `0-2`), GameType, Variant, CaptureRemoval, MidCapturePromotion, SetUp and
//! FEN (the opening position the game started from), Opening (the moves that
//! led there from the opening's own start, if any), TimeControl (White's /
//! Black's when they differ), Termination, PlyCount.
//!
//! GameType: PDN's registry numbers Turkish draughts 30, so Turkish games
//! carry `GameType "30"`. The registry has no number for Armenian draughts, and
//! reusing 30 would make Turkish-only readers replay Armenian games under the
//! wrong rules; Armenian games carry `GameType "Armenian"`, so a reader that
//! expects a number rejects the game instead of misreading it. The Variant tag
//! (`armenian` / `turkish`) says the same for this reader, which accepts both.

mod annotated;
mod file;
mod read;

pub use annotated::{annotated_movetext, numbered_line, Annotation, Nag};
pub use file::{read_pdn_file, PdnFileError};
pub use read::{move_number, read_pdn, read_pdn_each, PdnError, PdnGame};

use crate::{Color, Move, Position, Rules, Variant};
use std::fmt::Write as _;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl Outcome {
    /// The PDN result token: `2-0`, `0-2` or `1-1`.
    pub fn pdn(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "2-0",
            Outcome::BlackWins => "0-2",
            Outcome::Draw => "1-1",
        }
    }

    /// The win of colour `c`.
    pub fn win_for(c: Color) -> Outcome {
        match c {
            Color::White => Outcome::WhiteWins,
            Color::Black => Outcome::BlackWins,
        }
    }

    /// Points (0, 1, 2) of one colour.
    pub fn points(self, c: Color) -> u32 {
        match (self, c) {
            (Outcome::Draw, _) => 1,
            (Outcome::WhiteWins, Color::White) | (Outcome::BlackWins, Color::Black) => 2,
            _ => 0,
        }
    }

    /// Reads a result token (also the chess forms `1-0`, `0-1`, `1/2-1/2`).
    pub fn parse(text: &str) -> Option<Outcome> {
        match text {
            "2-0" | "1-0" => Some(Outcome::WhiteWins),
            "0-2" | "0-1" => Some(Outcome::BlackWins),
            "1-1" | "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }
}

/// A finished game as the runner records it.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The Event tag.
    pub event: String,
    /// The Date tag, `YYYY.MM.DD` (see `today`).
    pub date: String,
    /// The Round tag (`3.2`: round 3, its second game).
    pub round: String,
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The result.
    pub outcome: Outcome,
    /// The Termination tag: how the game ended, in words.
    pub termination: String,
    /// The position the game started from (after the opening moves).
    pub start: Position,
    /// The opening moves, as text, that led to `start`.
    pub opening: String,
    /// The game's moves from `start`.
    pub moves: Vec<Move>,
    /// The TimeControl tag.
    pub time_control: String,
}

fn quote(v: &str) -> String {
    v.replace(['"', '\n', '\r'], "'")
}

/// One tag line, its value made safe to quote.
pub fn write_tag(s: &mut String, name: &str, value: &str) {
    let _ = writeln!(s, "[{name} \"{}\"]", quote(value));
}

/// The tags that let a reader replay the game without guessing: the rules
/// (GameType alone does not name the rule options) and the start position.
pub fn write_start_tags(s: &mut String, start: &Position) {
    let rules = start.rules();
    write_tag(s, "GameType", game_type(rules));
    write_tag(s, "Variant", &rules.variant.to_string());
    write_tag(s, "CaptureRemoval", &rules.capture_removal.to_string());
    write_tag(
        s,
        "MidCapturePromotion",
        &rules.mid_capture_promotion.to_string(),
    );
    write_tag(s, "SetUp", "1");
    write_tag(s, "FEN", &start.fen());
}

/// The GameType tag of a rule set (see the module comment).
pub fn game_type(rules: Rules) -> &'static str {
    match rules.variant {
        Variant::Turkish => "30",
        Variant::Armenian => "Armenian",
    }
}

/// The moves as PDN movetext, numbered, wrapped at about 80 columns.
pub fn movetext(start: &Position, moves: &[Move], result: &str) -> String {
    annotated_movetext(start, moves, &[], result)
}

impl GameRecord {
    /// The game as PDN: tags, a blank line, the movetext, a blank line.
    pub fn to_pdn(&self) -> String {
        let mut s = String::new();
        for (k, v) in [
            ("Event", self.event.as_str()),
            ("Site", "?"),
            ("Date", &self.date),
            ("Round", &self.round),
            ("White", &self.white),
            ("Black", &self.black),
            ("Result", self.outcome.pdn()),
        ] {
            write_tag(&mut s, k, v);
        }
        write_start_tags(&mut s, &self.start);
        let mut tag = |k: &str, v: &str| write_tag(&mut s, k, v);
        if !self.opening.is_empty() {
            tag("Opening", &self.opening);
        }
        tag("TimeControl", &self.time_control);
        tag("Termination", &self.termination);
        tag("PlyCount", &self.moves.len().to_string());
        s.push('\n');
        s.push_str(&movetext(&self.start, &self.moves, self.outcome.pdn()));
        s.push_str("\n\n");
        s
    }
}

/// Today's date for the PDN Date tag, `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    // Civil date from the Unix clock (Howard Hinnant's algorithm).
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

#[cfg(test)]
mod tests;
