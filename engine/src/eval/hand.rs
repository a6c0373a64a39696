//! The hand-made terms: what a draughts player counts, as features whose
//! weights are fitted (Texel tuning) or set by hand.
//!
//! Each term is a feature of one colour, in 1/32 units (`ONE`), so that a
//! fractional feature such as "advancement scaled by how empty the board is"
//! stays an exact integer; the evaluation is the weights times the White
//! features minus the weights times the Black features. The trainer reads
//! the same features, so the search and the trainer cannot disagree.
//!
//! The terms, each computed for both colours:
//! - material: men and kings. Kings fly like chess queens (Armenian) or rooks
//!   (Turkish), so a king is worth about three men.
//! - advancement: men on relative ranks 2 to 6, each rank its own weight,
//!   worth more the emptier the board (twice as much on an empty board).
//! - runaway: a man that nobody can stop from crowning: the opponent has no
//!   king, and no enemy piece stands in the cone ahead of the man (every
//!   square it could reach in time to block or capture it). Only the fastest
//!   one counts (one new king settles most games): a bonus, less a weight per
//!   step it still needs.
//! - guard: men still on the first two ranks keep the enemy men from
//!   crowning; it only counts while the opponent has men.
//! - mobility: the number of non-capturing moves, men and kings apart.
//! - tempo: the side to move.
//! - trade-down: the side ahead in material gains from exchanges, so its
//!   lead in men and its lead in kings are worth more the fewer pieces
//!   remain (two terms, so that a king's share is a weight of its own).
//!
//! `rows` adds the weighted terms up into whole centi-men per row of the
//! `eval` breakdown and colour, the arithmetic of the hand-set evaluation
//! since release 0.1.0; with the hand-set weights the features reproduce it
//! exactly (the bench signature and engine/tests/eval_scores.rs hold it).

use crate::bitboard::Bitboard;
use crate::movegen::{king_step_count, man_step_count};
use crate::position::Position;
use crate::rules::{Color, Variant};

/// One unit of a feature: features are in 1/32 units.
pub const ONE: i32 = 32;

/// The number of hand terms.
pub const TERMS: usize = 15;

/// Term names, the order of `HandWeights` and of the features; also the
/// names the weights file and the trainer print.
pub const NAMES: [&str; TERMS] = [
    "man",
    "king",
    "advancement.2",
    "advancement.3",
    "advancement.4",
    "advancement.5",
    "advancement.6",
    "runaway",
    "runaway_step",
    "guard",
    "man_mobility",
    "king_mobility",
    "tempo",
    "trade_down",
    "trade_down_king",
];

/// The index in `NAMES` (and in `HandWeights`) of the term called `name`.
pub fn term_index(name: &str) -> Option<usize> {
    NAMES.iter().position(|&n| n == name)
}

/// Which row of the `eval` breakdown each term is shown in.
pub const GROUP: [usize; TERMS] = [0, 0, 1, 1, 1, 1, 1, 2, 2, 3, 4, 4, 5, 6, 6];
/// The number of rows.
pub const GROUPS: usize = 7;
/// The names of those rows.
pub const GROUP_NAMES: [&str; GROUPS] = [
    "material",
    "advancement",
    "runaway",
    "guard",
    "mobility",
    "tempo",
    "trade-down",
];

const MAN: usize = 0;
const KING: usize = 1;
const ADVANCEMENT: usize = 2;
const RUNAWAY: usize = 7;
const RUNAWAY_STEP: usize = 8;
const GUARD: usize = 9;
const MAN_MOBILITY: usize = 10;
const KING_MOBILITY: usize = 11;
const TEMPO: usize = 12;
const TRADE_DOWN: usize = 13;
const TRADE_DOWN_KING: usize = 14;

/// Weights of the hand terms per feature unit, in 1/`ONE` centi-men (a man
/// = 100 * `ONE`): fitted weights keep their fractions.
pub type HandWeights = [i32; TERMS];

/// The hand-set weights of release 0.1.0 (only the king differs by variant).
pub const fn hand_set(variant: Variant) -> HandWeights {
    let king = match variant {
        Variant::Armenian => 300,
        Variant::Turkish => 260,
    };
    // advancement 3 7 12 20 32 on relative ranks 2..6, runaway 160 less 15
    // a step, guard 4, mobility 2 (men) and 1 (kings), tempo 8; trade-down:
    // the lead in centi-men times 8/1024 per piece gone below 32, so a man's
    // lead on an empty board is worth a quarter of a man more, a king's a
    // quarter of a king.
    let cm = [
        100,
        king,
        3,
        7,
        12,
        20,
        32,
        160,
        15,
        4,
        2,
        1,
        8,
        25,
        king / 4,
    ];
    let mut w = [0; TERMS];
    let mut i = 0;
    while i < TERMS {
        w[i] = cm[i] * ONE;
        i += 1;
    }
    w
}

/// The features of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// Per colour (index `Color as usize`), in `ONE` units.
    pub of: [[i32; TERMS]; 2],
    /// Non-capturing moves of the side to move (0 with no capture = lost).
    pub side_to_move_moves: u32,
    /// Pieces on the board (what the pattern phase follows).
    pub pieces: u32,
    /// A draw on material alone, whatever the weights (`endgame`).
    pub known_draw: bool,
}

impl Features {
    /// White's features less Black's.
    #[inline(always)]
    pub fn difference(&self) -> [i32; TERMS] {
        let mut d = [0; TERMS];
        for (i, x) in d.iter_mut().enumerate() {
            *x = self.of[0][i] - self.of[1][i];
        }
        d
    }
}

/// Relative-rank masks: `REL_RANK[color][r]`.
const REL_RANK: [[u64; 8]; 2] = {
    let mut m = [[0u64; 8]; 2];
    let mut r = 0;
    while r < 8 {
        m[0][r] = 0xffu64 << (8 * r);
        m[1][r] = 0xffu64 << (8 * (7 - r));
        r += 1;
    }
    m
};

/// `CONE[color][sq]`: the squares from which an enemy piece might still
/// stop a man of `color` on `sq` from crowning: every square ahead within
/// one file more than its distance in ranks, and the two beside it.
static CONE: [[u64; 64]; 2] = {
    let mut c = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let f = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        let mut t = 0;
        while t < 64 {
            let tf = (t % 8) as i32;
            let tr = (t / 8) as i32;
            let df = if tf > f { tf - f } else { f - tf };
            if t != sq {
                if tr >= r && df <= tr - r + 1 {
                    c[0][sq] |= 1u64 << t;
                }
                if tr <= r && df <= r - tr + 1 {
                    c[1][sq] |= 1u64 << t;
                }
            }
            t += 1;
        }
        sq += 1;
    }
    c
};

/// The hand features of `pos`.
#[inline(always)]
pub fn features(pos: &Position) -> Features {
    let variant = pos.rules().variant;
    let occupied = pos.occupied();
    let empty = !occupied;
    let pieces = occupied.count();
    let emptiness = 64 - pieces as i32;
    let mut of = [[0i32; TERMS]; 2];
    let mut moves = [0u32; 2];
    for color in [Color::White, Color::Black] {
        let c = color as usize;
        let them = color.opponent();
        let men = pos.men(color);
        let kings = pos.kings(color);
        let f = &mut of[c];
        f[MAN] = men.count() as i32 * ONE;
        f[KING] = kings.count() as i32 * ONE;

        // Advancement, by relative rank: `ONE` on a full board, twice that
        // on an empty one.
        for r in 2..7 {
            f[ADVANCEMENT + r - 2] = (men.0 & REL_RANK[c][r]).count_ones() as i32 * emptiness;
        }

        // Runaway men (only against an opponent without kings). Men on the
        // first three ranks are never runaways in practice.
        if pos.kings(them).is_empty() {
            let enemy = pos.pieces(them).0;
            let far_half = !(REL_RANK[c][0] | REL_RANK[c][1] | REL_RANK[c][2]);
            let mut fewest_steps = None::<i32>;
            for sq in men & Bitboard(far_half) {
                if CONE[c][sq.index()] & enemy == 0 {
                    let rel = match color {
                        Color::White => sq.rank() as i32,
                        Color::Black => 7 - sq.rank() as i32,
                    };
                    let steps = 7 - rel;
                    fewest_steps = Some(fewest_steps.map_or(steps, |s| s.min(steps)));
                }
            }
            if let Some(steps) = fewest_steps {
                f[RUNAWAY] = ONE;
                f[RUNAWAY_STEP] = -steps * ONE;
            }
        }

        if pos.men(them).any() {
            let back = REL_RANK[c][0] | REL_RANK[c][1];
            f[GUARD] = (men.0 & back).count_ones() as i32 * ONE;
        }

        let man_moves = man_step_count(men, empty, color, variant);
        let king_moves: u32 = kings
            .into_iter()
            .map(|k| king_step_count(k, occupied, variant))
            .sum();
        moves[c] = man_moves + king_moves;
        f[MAN_MOBILITY] = man_moves as i32 * ONE;
        f[KING_MOBILITY] = king_moves as i32 * ONE;
    }
    let us = pos.side_to_move() as usize;
    of[us][TEMPO] = ONE;

    // The lead in men and in kings, worth more the fewer pieces remain:
    // `ONE` per man (king) of lead on an empty board, 1/32 of that per piece
    // gone below 32. Both go to the leader's column (a king counted as three
    // men to tell who leads), as a lead from its side; its row is rounded
    // towards zero, so White's view is the same whichever column it is in.
    let men_lead = pos.men(Color::White).count() as i32 - pos.men(Color::Black).count() as i32;
    let kings_lead =
        pos.kings(Color::White).count() as i32 - pos.kings(Color::Black).count() as i32;
    let scale = (32 - pieces as i32).max(0);
    let (leader, sign) = if men_lead + 3 * kings_lead > 0 {
        (0, 1)
    } else {
        (1, -1)
    };
    of[leader][TRADE_DOWN] = sign * men_lead * scale;
    of[leader][TRADE_DOWN_KING] = sign * kings_lead * scale;

    let known_draw = super::endgame::known_draw(pos);
    Features {
        of,
        side_to_move_moves: moves[us],
        pieces,
        known_draw,
    }
}

/// `weights` times `features`, in 1/(`ONE` * `ONE`) centi-men.
#[inline(always)]
pub fn dot(weights: &HandWeights, features: &[i32; TERMS]) -> i64 {
    weights
        .iter()
        .zip(features)
        .map(|(&w, &f)| w as i64 * f as i64)
        .sum()
}

/// The weighted terms of each colour (index `Color as usize`) summed per
/// row (`GROUP_NAMES`) and rounded towards zero to whole centi-men: what the
/// `eval` command shows, and for the `hand` model the evaluation itself.
#[inline(always)]
pub fn rows(weights: &HandWeights, features: &Features) -> [[i32; 2]; GROUPS] {
    let mut sums = [[0i64; 2]; GROUPS];
    for (c, of) in features.of.iter().enumerate() {
        for (i, (&w, &f)) in weights.iter().zip(of).enumerate() {
            sums[GROUP[i]][c] += w as i64 * f as i64;
        }
    }
    let unit = ONE as i64 * ONE as i64;
    sums.map(|row| row.map(|x| (x / unit) as i32))
}
