//! The rule set as a value: one process can hold games under different rules.

use crate::bitboard::{Bitboard, Direction};
use std::fmt;
use std::str::FromStr;

/// A side. White starts and moves up the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Starts on ranks 2-3, moves first.
    White = 0,
    /// Starts on ranks 6-7.
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline(always)]
    pub const fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The direction this colour's men move and capture forwards.
    #[inline(always)]
    pub const fn forward(self) -> Direction {
        match self {
            Color::White => Direction::North,
            Color::Black => Direction::South,
        }
    }

    /// The rank where this colour's men are crowned.
    #[inline(always)]
    pub const fn promotion_rank(self) -> Bitboard {
        match self {
            Color::White => Bitboard::RANK_8,
            Color::Black => Bitboard::RANK_1,
        }
    }

    /// `white` or `black`, for messages.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

/// Armenian (Tama) or its parent, Turkish draughts (Dama).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Variant {
    /// Men also step diagonally forward; kings also slide diagonally.
    #[default]
    Armenian,
    /// Men step only forward and sideways; kings slide only orthogonally.
    Turkish,
}

/// When captured pieces leave the board (the seed texts disagree, see docs/rules.md).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum CaptureRemoval {
    /// Text 000: each piece leaves the board as it is jumped.
    #[default]
    Immediate,
    /// Text 002: captured pieces stay (blocking, not jumpable twice) until the move ends.
    Deferred,
}

/// The rule set of a game: the variant and the two options the seed texts
/// disagree on (docs/rules.md §4).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Rules {
    /// Armenian or Turkish.
    pub variant: Variant,
    /// When captured pieces leave the board.
    pub capture_removal: CaptureRemoval,
    /// Text 002 (`true`): a man reaching the far rank mid-capture goes on as a king.
    /// Text 000 (`false`, default): it goes on as a man and is crowned at the end.
    pub mid_capture_promotion: bool,
}

/// How a rule option is named in the protocol's two dialects. The engine
/// owns the rules, so the protocol's options and the match client's
/// commands take the names from here (`Rules::OPTIONS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionName {
    /// The UCI option's name (`setoption name Variant ...`).
    pub uci: &'static str,
    /// The Hub parameter's name (`set-param name=variant ...`).
    pub hub: &'static str,
}

impl Rules {
    /// The option that chooses `variant`.
    pub const VARIANT_OPTION: OptionName = OptionName {
        uci: "Variant",
        hub: "variant",
    };
    /// The option that chooses `capture_removal`.
    pub const CAPTURE_REMOVAL_OPTION: OptionName = OptionName {
        uci: "CaptureRemoval",
        hub: "capture-removal",
    };
    /// The option that chooses `mid_capture_promotion`.
    pub const MID_CAPTURE_PROMOTION_OPTION: OptionName = OptionName {
        uci: "MidCapturePromotion",
        hub: "mid-capture-promotion",
    };

    /// The three rule options with these rules' values as the options
    /// take them, in the order the engine lists them.
    pub fn options(&self) -> [(OptionName, String); 3] {
        [
            (Rules::VARIANT_OPTION, self.variant.to_string()),
            (
                Rules::CAPTURE_REMOVAL_OPTION,
                self.capture_removal.to_string(),
            ),
            (
                Rules::MID_CAPTURE_PROMOTION_OPTION,
                self.mid_capture_promotion.to_string(),
            ),
        ]
    }

    /// Armenian with the default options (text 000).
    pub const ARMENIAN: Rules = Rules {
        variant: Variant::Armenian,
        capture_removal: CaptureRemoval::Immediate,
        mid_capture_promotion: false,
    };
    /// Turkish with the default options (as kish and pydraughts play it).
    pub const TURKISH: Rules = Rules {
        variant: Variant::Turkish,
        capture_removal: CaptureRemoval::Immediate,
        mid_capture_promotion: false,
    };

    /// All eight combinations of the three options, for exhaustive tests.
    pub fn all() -> impl Iterator<Item = Rules> {
        [Variant::Armenian, Variant::Turkish]
            .into_iter()
            .flat_map(|variant| {
                [CaptureRemoval::Immediate, CaptureRemoval::Deferred]
                    .into_iter()
                    .flat_map(move |capture_removal| {
                        [false, true]
                            .into_iter()
                            .map(move |mid_capture_promotion| Rules {
                                variant,
                                capture_removal,
                                mid_capture_promotion,
                            })
                    })
            })
    }

    /// Distinct small number per rule set (mixed into the Zobrist key so that
    /// one table never confuses positions played under different rules).
    pub const fn index(self) -> usize {
        (self.variant as usize) * 4
            + (self.capture_removal as usize) * 2
            + self.mid_capture_promotion as usize
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "variant {} capture-removal {} mid-capture-promotion {}",
            self.variant, self.capture_removal, self.mid_capture_promotion
        )
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Variant::Armenian => "armenian",
            Variant::Turkish => "turkish",
        })
    }
}

impl fmt::Display for CaptureRemoval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CaptureRemoval::Immediate => "immediate",
            CaptureRemoval::Deferred => "deferred",
        })
    }
}

/// Why the text of a rule option was refused: the value of a `Variant`,
/// `CaptureRemoval` or boolean option (`MidCapturePromotion`), as the
/// protocol, the command line and PDN tags give it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleValueError {
    /// Not `armenian` or `turkish` (nor their other names).
    Variant(String),
    /// Not `immediate` or `deferred`.
    CaptureRemoval(String),
    /// Not a true or false of any spelling `parse_bool` reads.
    Bool(String),
}

impl fmt::Display for RuleValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleValueError::Variant(s) => {
                write!(f, "unknown variant {s:?} (expected armenian or turkish)")
            }
            RuleValueError::CaptureRemoval(s) => write!(
                f,
                "unknown capture removal {s:?} (expected immediate or deferred)"
            ),
            RuleValueError::Bool(s) => write!(f, "expected true or false, got {s:?}"),
        }
    }
}

impl std::error::Error for RuleValueError {}

impl FromStr for Variant {
    type Err = RuleValueError;
    fn from_str(s: &str) -> Result<Variant, RuleValueError> {
        match s.to_ascii_lowercase().as_str() {
            "armenian" | "tama" => Ok(Variant::Armenian),
            "turkish" | "dama" => Ok(Variant::Turkish),
            _ => Err(RuleValueError::Variant(s.to_string())),
        }
    }
}

impl FromStr for CaptureRemoval {
    type Err = RuleValueError;
    fn from_str(s: &str) -> Result<CaptureRemoval, RuleValueError> {
        match s.to_ascii_lowercase().as_str() {
            "immediate" => Ok(CaptureRemoval::Immediate),
            "deferred" => Ok(CaptureRemoval::Deferred),
            _ => Err(RuleValueError::CaptureRemoval(s.to_string())),
        }
    }
}

/// Parses an option value of the boolean kind (`true`/`false`, also `on`/`off`, `1`/`0`).
pub fn parse_bool(s: &str) -> Result<bool, RuleValueError> {
    match s.to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Ok(true),
        "false" | "off" | "no" | "0" => Ok(false),
        _ => Err(RuleValueError::Bool(s.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_values_read_in_any_case_and_refusals_quote_the_text() {
        assert_eq!("Dama".parse(), Ok(Variant::Turkish));
        assert_eq!("DEFERRED".parse(), Ok(CaptureRemoval::Deferred));
        assert_eq!(parse_bool("Off"), Ok(false));
        let e = "russian".parse::<Variant>().unwrap_err();
        assert_eq!(e, RuleValueError::Variant("russian".into()));
        assert_eq!(
            e.to_string(),
            "unknown variant \"russian\" (expected armenian or turkish)"
        );
        assert_eq!(
            "later".parse::<CaptureRemoval>().unwrap_err().to_string(),
            "unknown capture removal \"later\" (expected immediate or deferred)"
        );
        assert_eq!(
            parse_bool("maybe").unwrap_err().to_string(),
            "expected true or false, got \"maybe\""
        );
    }
}
