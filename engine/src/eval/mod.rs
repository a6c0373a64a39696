//! Static evaluation in centi-men (a man = 100), from the side to move's view.
//!
//! Contract: `evaluate_with_mobility` for the search, `breakdown_with` for
//! the `eval` command, `Weights` for what the search holds.
//!
//! The evaluation is linear in its weights, so that they can be fitted to
//! games (`tama_train`): the hand terms (`hand`: material,
//! advancement, runaway men, ...), in the `patterns` model Scan-style
//! board patterns (`pattern`), and in the `kings` model the patterns and
//! learned king terms (`kings`: material balances of few pieces, king
//! squares). Each variant has its own set
//! (`VariantWeights`). The default (`builtin`) is one of the sets built in
//! by name (`named`): the hand-set weights of release 0.1.0, or a learned
//! set from the files in `engine/data/weights/` (which `file` reads); `Weights`
//! may replace either variant's set with another built-in one or one
//! loaded at run time (the `EvalFile` option).
//!
//! Arithmetic: hand features are in 1/32 units, hand weights and pattern
//! weights in 1/32 centi-men, and the pattern phase blend is in 1/32. The
//! `hand` model adds whole centi-men row by row (`hand::rows`), so the
//! default evaluation scores exactly as release 0.1.0 did. The `patterns`
//! model sums exactly in 1/1024 centi-men and rounds once: its thousands of
//! weights are fractions of a centi-man, which row rounding would lose (the
//! `kings` model adds its king terms to the same sum).
//! Every rounding is towards zero, so that a position and its
//! colour-flipped image score the same. A material balance the endgame
//! databases show drawn (`endgame`: one piece a side) scores 0 whatever
//! the weights, and a side left with a single piece keeps only a share of
//! its lead (it never wins but by a capture at once).

pub mod accumulator;
pub mod endgame;
pub mod file;
pub mod hand;
pub mod kings;
pub mod pattern;

use crate::position::Position;
use crate::rules::{Color, Variant};
use hand::{HandWeights, ONE};
use kings::KingTable;
use pattern::PatternTable;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// 1/`SCALE` centi-men: the unit scores are summed in.
pub const SCALE: i64 = ONE as i64 * pattern::PHASES;

/// What an evaluation is made of.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Model {
    /// The hand terms only.
    Hand,
    /// The hand terms and the board patterns.
    Patterns,
    /// The hand terms, the board patterns and the king terms (`kings`).
    Kings,
}

impl Model {
    /// The name `tama train --model` takes.
    pub fn name(self) -> &'static str {
        match self {
            Model::Hand => "hand",
            Model::Patterns => "patterns",
            Model::Kings => "kings",
        }
    }
}

/// The text is not the name of a model (`hand` or `patterns`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownModel(pub String);

impl std::fmt::Display for UnknownModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "unknown model {:?} (expected hand, patterns or kings)",
            self.0
        )
    }
}

impl std::error::Error for UnknownModel {}

impl std::str::FromStr for Model {
    type Err = UnknownModel;
    fn from_str(s: &str) -> Result<Model, UnknownModel> {
        match s {
            "hand" => Ok(Model::Hand),
            "patterns" => Ok(Model::Patterns),
            "kings" => Ok(Model::Kings),
            _ => Err(UnknownModel(s.to_string())),
        }
    }
}

/// One variant's weights.
#[derive(Clone, Debug)]
pub struct VariantWeights {
    /// The variant the set is for.
    pub variant: Variant,
    /// The hand terms' weights, 1/32 centi-men, in the order of `hand::NAMES`.
    pub hand: HandWeights,
    /// `None` for the `hand` model.
    pub patterns: Option<PatternTable>,
    /// The king terms: `Some` for the `kings` model only (which has
    /// patterns too); `None` scores as every king weight zero.
    pub kings: Option<KingTable>,
    /// How the weights were made (the training command), kept in the file.
    pub description: String,
}

impl VariantWeights {
    /// The hand-set evaluation of release 0.1.0.
    pub fn hand_set(variant: Variant) -> VariantWeights {
        VariantWeights {
            variant,
            hand: hand::hand_set(variant),
            patterns: None,
            kings: None,
            description: "hand-set weights of release 0.1.0".into(),
        }
    }

    /// What the set is made of.
    pub fn model(&self) -> Model {
        match (&self.patterns, &self.kings) {
            (None, _) => Model::Hand,
            (Some(_), None) => Model::Patterns,
            (Some(_), Some(_)) => Model::Kings,
        }
    }

    /// The score of `pos` (whose variant must be this set's), White's view,
    /// in centi-men, with the hand features already computed.
    #[inline(always)]
    pub fn score_white(&self, pos: &Position, f: &hand::Features) -> i32 {
        self.score_white_with(pos, f, PatternTable::sums)
    }

    /// `score_white` with the pattern sums of the men (White's, Black's)
    /// from `sums`, which must give what `PatternTable::sums` gives: the
    /// search keeps them incrementally (`search::eval_stack`). Asked for
    /// only with the `patterns` model.
    #[inline(always)]
    pub fn score_white_with(
        &self,
        pos: &Position,
        f: &hand::Features,
        sums: impl FnOnce(&PatternTable, u64, u64) -> pattern::Sums,
    ) -> i32 {
        match &self.patterns {
            None => hand::rows(&self.hand, f).iter().map(|r| r[0] - r[1]).sum(),
            Some(p) => {
                // One dot product of the difference: the same sum, exactly
                // (i64), at half the multiplications.
                let hand = hand::dot(&self.hand, &f.difference());
                let men = (pos.men(Color::White).0, pos.men(Color::Black).0);
                let patterns = sums(p, men.0, men.1).blend(f.pieces);
                let kings = self.kings.as_ref().map_or(0, |k| king_score(k, pos, f));
                ((hand + patterns + kings) / SCALE) as i32
            }
        }
    }
}

/// The king terms of `pos`, White's view, in 1/`SCALE` centi-men; none
/// where the lone-piece rule applies. The trainer leaves those positions
/// out, so nothing was learned there, and what the king squares learned
/// elsewhere misleads: they prize the corners, where no capture reaches a
/// king, and two kings against one that sit in them never take it.
#[inline(always)]
fn king_score(k: &KingTable, pos: &Position, f: &hand::Features) -> i64 {
    if endgame::lone_piece_rule_applies(pos) {
        return 0;
    }
    let men = [pos.men(Color::White).0, pos.men(Color::Black).0];
    let kings = [pos.kings(Color::White).0, pos.kings(Color::Black).0];
    k.score(men, kings, f.pieces)
}

/// The built-in set each variant uses by default (`named`), Armenian then
/// Turkish: the learned sets since 0.2.0, each of which won an SPRT at the
/// clock against the hand-set weights of 0.1.0, and whose later
/// generations each won one against the one before (CHANGELOG.md).
pub const DEFAULT_SETS: [&str; 2] = ["armenian-learned", "turkish-learned"];

/// The default weights of `variant` (`DEFAULT_SETS`).
pub fn builtin(variant: Variant) -> &'static VariantWeights {
    static BUILTIN: OnceLock<[VariantWeights; 2]> = OnceLock::new();
    let sets = BUILTIN.get_or_init(|| {
        [Variant::Armenian, Variant::Turkish].map(|v| {
            // The files are part of the binary and a test decodes them, so
            // a failure here is a build that was never tested.
            named(DEFAULT_SETS[v as usize]).expect("the built-in weights decode")
        })
    });
    &sets[variant as usize]
}

/// The weights files built into the binary, by name: made by `tama train`
/// (docs/evaluation.md says how), selected with `EvalFile=builtin:NAME`.
pub static NAMED: [(&str, &[u8]); 2] = [
    (
        "armenian-learned",
        include_bytes!("../../data/weights/armenian-learned.tew"),
    ),
    (
        "turkish-learned",
        include_bytes!("../../data/weights/turkish-learned.tew"),
    ),
];

/// The names of the hand-set weights of release 0.1.0, per variant
/// (`builtin:NAME`; they are code, not files).
pub const HAND_NAMES: [(&str, Variant); 2] = [
    ("armenian-hand", Variant::Armenian),
    ("turkish-hand", Variant::Turkish),
];

/// No built-in set has the name asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownWeights(pub String);

impl std::fmt::Display for UnknownWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = NAMED
            .iter()
            .map(|(n, _)| *n)
            .chain(HAND_NAMES.iter().map(|(n, _)| *n))
            .collect();
        write!(
            f,
            "no built-in weights called {:?} (built in: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownWeights {}

/// The built-in set called `name` (`NAMED` or `HAND_NAMES`), or the error
/// that there is none. (The built-in files decode: the tests check each.)
pub fn named(name: &str) -> Result<VariantWeights, UnknownWeights> {
    if let Some(&(_, v)) = HAND_NAMES.iter().find(|(n, _)| *n == name) {
        return Ok(VariantWeights::hand_set(v));
    }
    let (_, bytes) = NAMED
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| UnknownWeights(name.to_string()))?;
    Ok(file::decode(bytes).unwrap_or_else(|e| panic!("built-in weights {name}: {e}")))
}

/// No hand term has the name given to `Weights::set` (`hand::NAMES` lists
/// them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTerm(pub String);

impl std::fmt::Display for UnknownTerm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown weight {:?}", self.0)
    }
}

impl std::error::Error for UnknownTerm {}

/// The weights the search uses: per variant the default set, or another
/// (a named built-in one, or one loaded at run time). Cheap to clone (the
/// sets are shared).
#[derive(Clone, Debug, Default)]
pub struct Weights {
    loaded: [Option<Arc<VariantWeights>>; 2],
}

impl Weights {
    /// The default sets (`builtin`).
    pub const DEFAULT: Weights = Weights {
        loaded: [None, None],
    };

    /// The set the search uses for `variant`.
    #[inline(always)]
    pub fn get(&self, variant: Variant) -> &VariantWeights {
        match &self.loaded[variant as usize] {
            Some(set) => set,
            None => builtin(variant),
        }
    }

    /// Uses `set` for its variant (the other variant is kept).
    pub fn replace(&mut self, set: VariantWeights) {
        let v = set.variant as usize;
        self.loaded[v] = Some(Arc::new(set));
    }

    /// Sets one hand weight by name (`hand::NAMES`: `man`, `advancement.4`,
    /// ...), in centi-men, in both variants' sets.
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), UnknownTerm> {
        let term = hand::term_index(name).ok_or_else(|| UnknownTerm(name.to_string()))?;
        for v in [Variant::Armenian, Variant::Turkish] {
            let mut set = self.get(v).clone();
            set.hand[term] = value * ONE;
            self.replace(set);
        }
        Ok(())
    }

    /// Goes back to the default set for `variant`.
    pub fn reset(&mut self, variant: Variant) {
        self.loaded[variant as usize] = None;
    }
}

/// The evaluation and the side to move's number of non-capturing moves
/// (for the search: no capture and no move means the side to move lost).
#[inline]
pub fn evaluate_with_mobility(pos: &Position, w: &Weights) -> (i32, u32) {
    evaluate_with_pattern_sums(pos, w, PatternTable::sums)
}

/// `evaluate_with_mobility` with the pattern sums from `sums` (as
/// `VariantWeights::score_white_with`): not asked for a known draw.
#[inline(always)]
pub fn evaluate_with_pattern_sums(
    pos: &Position,
    w: &Weights,
    sums: impl FnOnce(&PatternTable, u64, u64) -> pattern::Sums,
) -> (i32, u32) {
    let f = hand::features(pos);
    if f.known_draw {
        return (0, f.side_to_move_moves);
    }
    let white = w.get(pos.rules().variant).score_white_with(pos, &f, sums);
    let white = endgame::lone_piece_scaled(pos, white);
    let v = match pos.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    };
    (v, f.side_to_move_moves)
}

/// Material only (men and kings), the side to move's view: the baseline
/// search's evaluation.
#[inline]
pub fn material(pos: &Position, w: &Weights) -> i32 {
    let h = &w.get(pos.rules().variant).hand;
    let m = |c: Color| pos.men(c).count() as i32 * h[0] + pos.kings(c).count() as i32 * h[1];
    let us = pos.side_to_move();
    (m(us) - m(us.opponent())) / ONE
}

/// The evaluation with the default weights.
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with_mobility(pos, &Weights::DEFAULT).0
}

/// One row of the `eval` breakdown.
#[derive(Clone, Debug)]
pub struct EvalTerm {
    /// The term (a group of hand terms, or `patterns`).
    pub name: &'static str,
    /// White's part, whole centi-men (rounded towards zero: with the
    /// `patterns` model the rows may not add up to the total exactly).
    pub white: i32,
    /// Black's part, centi-men.
    pub black: i32,
}

/// The evaluation term by term (the `eval` command).
#[derive(Clone, Debug)]
pub struct EvalBreakdown {
    /// The rows.
    pub terms: Vec<EvalTerm>,
    /// White's view (positive: White is better).
    pub total_white: i32,
    /// What `evaluate` returns: the side to move's view.
    pub side_to_move: i32,
}

/// The breakdown with the default weights.
pub fn breakdown(pos: &Position) -> EvalBreakdown {
    breakdown_with(pos, &Weights::DEFAULT)
}

/// The breakdown with these weights.
pub fn breakdown_with(pos: &Position, w: &Weights) -> EvalBreakdown {
    let set = w.get(pos.rules().variant);
    let f = hand::features(pos);
    let mut terms: Vec<EvalTerm> = hand::GROUP_NAMES
        .iter()
        .zip(hand::rows(&set.hand, &f))
        .map(|(name, [white, black])| EvalTerm { name, white, black })
        .collect();
    if let Some(p) = &set.patterns {
        let s = p.score(pos.men(Color::White).0, pos.men(Color::Black).0, f.pieces) / SCALE;
        terms.push(EvalTerm {
            name: "patterns",
            white: s.max(0) as i32,
            black: (-s).max(0) as i32,
        });
    }
    if let Some(k) = &set.kings {
        let s = king_score(k, pos, &f) / SCALE;
        terms.push(EvalTerm {
            name: "kings",
            white: s.max(0) as i32,
            black: (-s).max(0) as i32,
        });
    }
    let (side_to_move, _) = evaluate_with_mobility(pos, w);
    let total_white = match pos.side_to_move() {
        Color::White => side_to_move,
        Color::Black => -side_to_move,
    };
    if f.known_draw {
        let white: i32 = terms.iter().map(|t| t.white).sum();
        let black: i32 = terms.iter().map(|t| t.black).sum();
        terms.push(EvalTerm {
            name: "known-draw",
            white: -white,
            black: -black,
        });
    } else {
        let weights = set.score_white(pos, &f);
        if weights != total_white {
            // A lone piece's lead, cut (`endgame::lone_piece_scaled`).
            terms.push(EvalTerm {
                name: "lone-piece",
                white: (total_white - weights).max(0),
                black: (weights - total_white).max(0),
            });
        }
    }
    EvalBreakdown {
        terms,
        total_white,
        side_to_move,
    }
}

impl fmt::Display for EvalBreakdown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<16} {:>7} {:>7} {:>7}",
            "term", "white", "black", "total"
        )?;
        for t in &self.terms {
            writeln!(
                f,
                "{:<16} {:>7} {:>7} {:>7}",
                t.name,
                t.white,
                t.black,
                t.white - t.black
            )?;
        }
        write!(
            f,
            "total (white's view) {}, side to move {}",
            self.total_white, self.side_to_move
        )
    }
}

#[cfg(test)]
mod tests;
