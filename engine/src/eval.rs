//! Static evaluation in centi-men (a man = 100), from the side to move's view.
//!
//! Contract: `evaluate` for the search, `breakdown` for the `eval` command.
//! Every weight lives in `Weights`, so that they can be tuned from games.
//!
//! The terms, each computed for both colours:
//! - material: men and kings. Kings fly like chess queens (Armenian) or rooks
//!   (Turkish), so a king is worth about three men.
//! - advancement: men nearer the far rank are worth more, the more so the
//!   emptier the board (scaled by the number of pieces).
//! - runaway: a man that nobody can stop from crowning: the opponent has no
//!   king, and no enemy piece stands in the cone ahead of the man (every
//!   square it could reach in time to block or capture it).
//! - guard: men still on the first two ranks keep the enemy men from
//!   crowning; it only counts while the opponent has men.
//! - mobility: the number of non-capturing moves, men and kings apart.
//! - tempo: a small bonus for the side to move.
//! - trade-down: the side ahead in material gains from exchanges, so its
//!   lead is worth more the fewer pieces remain.
//! - known draw: a lone king against a lone king is a draw (score 0).

use crate::bitboard::open_ray;
use crate::position::Position;
use crate::rules::{Color, Variant};
use std::fmt;

/// All evaluation weights, in centi-men.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    pub man: i32,
    /// A king in Armenian draughts (flies in all eight directions).
    pub king: i32,
    /// A king in Turkish draughts (flies orthogonally only).
    pub king_turkish: i32,
    /// Per man, by relative rank (0 = own first rank .. 7 = far rank), at
    /// full board; grows to twice this on an empty board.
    pub advancement: [i32; 8],
    /// Runaway man: `runaway - runaway_step * steps still needed`.
    pub runaway: i32,
    pub runaway_step: i32,
    /// Per man on the own first two ranks while the opponent has men.
    pub guard: i32,
    /// Per non-capturing move of a man / of a king.
    pub man_mobility: i32,
    pub king_mobility: i32,
    /// For the side to move.
    pub tempo: i32,
    /// Material lead times (32 - pieces on the board) times this / 1024.
    pub trade_down: i32,
}

impl Weights {
    pub const DEFAULT: Weights = Weights {
        man: 100,
        king: 300,
        king_turkish: 260,
        advancement: [0, 0, 3, 7, 12, 20, 32, 0],
        runaway: 160,
        runaway_step: 15,
        guard: 4,
        man_mobility: 2,
        king_mobility: 1,
        tempo: 8,
        trade_down: 8,
    };

    /// Sets one weight by name (`man`, `king`, `advancement.4`, ...).
    pub fn set(&mut self, name: &str, value: i32) -> Result<(), String> {
        let slot = match name {
            "man" => &mut self.man,
            "king" => &mut self.king,
            "king_turkish" => &mut self.king_turkish,
            "runaway" => &mut self.runaway,
            "runaway_step" => &mut self.runaway_step,
            "guard" => &mut self.guard,
            "man_mobility" => &mut self.man_mobility,
            "king_mobility" => &mut self.king_mobility,
            "tempo" => &mut self.tempo,
            "trade_down" => &mut self.trade_down,
            _ => {
                let rank = name
                    .strip_prefix("advancement.")
                    .and_then(|r| r.parse::<usize>().ok())
                    .filter(|&r| r < 8)
                    .ok_or_else(|| format!("unknown weight {name:?}"))?;
                &mut self.advancement[rank]
            }
        };
        *slot = value;
        Ok(())
    }

    #[inline(always)]
    pub fn king_value(&self, variant: Variant) -> i32 {
        match variant {
            Variant::Armenian => self.king,
            Variant::Turkish => self.king_turkish,
        }
    }
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

#[derive(Clone, Debug)]
pub struct EvalTerm {
    pub name: &'static str,
    pub white: i32,
    pub black: i32,
}

#[derive(Clone, Debug)]
pub struct EvalBreakdown {
    pub terms: Vec<EvalTerm>,
    /// White's view (positive: White is better).
    pub total_white: i32,
    /// What `evaluate` returns: the side to move's view.
    pub side_to_move: i32,
}

const TERM_NAMES: [&str; 7] = [
    "material",
    "advancement",
    "runaway",
    "guard",
    "mobility",
    "tempo",
    "trade-down",
];

/// Every term for both colours (index `Color as usize`).
struct Terms {
    t: [[i32; 2]; 7],
    known_draw: bool,
    /// Non-capturing moves of the side to move (0 with no capture = lost).
    side_to_move_moves: u32,
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

use crate::movegen::{king_steps, man_steps};

#[inline(always)]
fn terms(pos: &Position, w: &Weights) -> Terms {
    let variant = pos.rules().variant;
    let king_value = w.king_value(variant);
    let occupied = pos.occupied();
    let empty = !occupied;
    let pieces_on_board = occupied.count() as i32;
    let mut t = [[0i32; 2]; 7];
    let mut moves = [0u32; 2];
    let mut material = [0i32; 2];
    for color in [Color::White, Color::Black] {
        let c = color as usize;
        let them = color.opponent();
        let men = pos.men(color);
        let kings = pos.kings(color);
        material[c] = men.count() as i32 * w.man + kings.count() as i32 * king_value;
        t[0][c] = material[c];

        // Advancement, by relative rank, doubled on an empty board.
        let mut adv = 0;
        for (mask, weight) in REL_RANK[c].iter().zip(w.advancement).skip(2) {
            adv += (men.0 & mask).count_ones() as i32 * weight;
        }
        t[1][c] = adv * (64 - pieces_on_board) / 32;

        // Runaway men (only against an opponent without kings).
        if pos.kings(them).is_empty() {
            let enemy = pos.pieces(them).0;
            let mut best = 0;
            // Men on the first three ranks are never runaways in practice.
            let far_half = !(REL_RANK[c][0] | REL_RANK[c][1] | REL_RANK[c][2]);
            for sq in men & crate::bitboard::Bitboard(far_half) {
                if CONE[c][sq.index()] & enemy == 0 {
                    let rel = if color == Color::White {
                        sq.rank() as i32
                    } else {
                        7 - sq.rank() as i32
                    };
                    let v = w.runaway - w.runaway_step * (7 - rel);
                    best = best.max(v);
                }
            }
            // Only the fastest one counts: one new king settles most games.
            t[2][c] = best;
        }

        // Guard of the first two ranks.
        if pos.men(them).any() {
            let back = REL_RANK[c][0] | REL_RANK[c][1];
            t[3][c] = (men.0 & back).count_ones() as i32 * w.guard;
        }

        // Mobility.
        let mut man_moves = 0;
        for &dir in man_steps(color, variant) {
            man_moves += (men.shift(dir) & empty).count();
        }
        let mut king_moves = 0;
        for k in kings {
            for &dir in king_steps(variant) {
                king_moves += open_ray(dir, k, occupied).count();
            }
        }
        moves[c] = man_moves + king_moves;
        t[4][c] = man_moves as i32 * w.man_mobility + king_moves as i32 * w.king_mobility;
    }
    let us = pos.side_to_move() as usize;
    t[5][us] = w.tempo;

    // Trade down when ahead.
    let lead = material[0] - material[1];
    let bonus = lead * (32 - pieces_on_board).max(0) * w.trade_down / 1024;
    if bonus > 0 {
        t[6][0] = bonus;
    } else {
        t[6][1] = -bonus;
    }

    let known_draw = pieces_on_board == 2
        && pos.pieces(Color::White).count() == 1
        && pos.all_kings().count() == 2;
    Terms {
        t,
        known_draw,
        side_to_move_moves: moves[us],
    }
}

/// The evaluation and the side to move's number of non-capturing moves
/// (for the search: no capture and no move means the side to move lost).
#[inline]
pub fn evaluate_with_mobility(pos: &Position, w: &Weights) -> (i32, u32) {
    let terms = terms(pos, w);
    if terms.known_draw {
        return (0, terms.side_to_move_moves);
    }
    let white: i32 = terms.t.iter().map(|x| x[0] - x[1]).sum();
    let v = match pos.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    };
    (v, terms.side_to_move_moves)
}

/// Material only (men and kings), the side to move's view: the baseline
/// search's evaluation.
#[inline]
pub fn material(pos: &Position, w: &Weights) -> i32 {
    let k = w.king_value(pos.rules().variant);
    let m = |c: Color| pos.men(c).count() as i32 * w.man + pos.kings(c).count() as i32 * k;
    let us = pos.side_to_move();
    m(us) - m(us.opponent())
}

pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with_mobility(pos, &Weights::DEFAULT).0
}

pub fn breakdown(pos: &Position) -> EvalBreakdown {
    breakdown_with(pos, &Weights::DEFAULT)
}

pub fn breakdown_with(pos: &Position, w: &Weights) -> EvalBreakdown {
    let t = terms(pos, w);
    let mut terms: Vec<EvalTerm> = TERM_NAMES
        .iter()
        .zip(t.t.iter())
        .map(|(name, v)| EvalTerm {
            name,
            white: v[0],
            black: v[1],
        })
        .collect();
    if t.known_draw {
        let white: i32 = terms.iter().map(|x| x.white).sum();
        let black: i32 = terms.iter().map(|x| x.black).sum();
        terms.push(EvalTerm {
            name: "known-draw",
            white: -white,
            black: -black,
        });
    }
    let total_white: i32 = terms.iter().map(|t| t.white - t.black).sum();
    let side_to_move = match pos.side_to_move() {
        Color::White => total_white,
        Color::Black => -total_white,
    };
    debug_assert_eq!(side_to_move, evaluate_with_mobility(pos, w).0);
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
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, Rules::ARMENIAN).unwrap()
    }

    #[test]
    fn start_position_is_balanced_but_for_tempo() {
        let p = Position::startpos(Rules::ARMENIAN);
        assert_eq!(evaluate(&p), Weights::DEFAULT.tempo);
        let p = Position::startpos(Rules::TURKISH);
        assert_eq!(evaluate(&p), Weights::DEFAULT.tempo);
    }

    #[test]
    fn colour_symmetry() {
        // The same position mirrored (ranks flipped, colours swapped, other
        // side to move) evaluates the same for the side to move.
        let a = pos("W:Wa3,c4,d2,Kf5:Bb6,e6,g7,h5");
        let b = pos("B:Wb3,e3,g2,h4:Ba6,c5,d7,Kf4");
        assert_eq!(evaluate(&a), evaluate(&b));
    }

    #[test]
    fn king_is_worth_about_three_men() {
        let w = Weights::DEFAULT;
        assert!((250..=350).contains(&w.king));
        // A king against three men in the middle of the board is about level.
        let p = pos("W:WKd4:Ba6,b6,c6");
        assert!(evaluate(&p).abs() < 150, "{}", evaluate(&p));
    }

    #[test]
    fn one_king_each_is_a_draw() {
        assert_eq!(evaluate(&pos("W:WKa1:BKh8")), 0);
        assert_eq!(evaluate(&pos("B:WKd4:BKe6")), 0);
        // A king against a man is not.
        assert!(evaluate(&pos("W:WKa1:Bh6")) > 100);
        let b = breakdown(&pos("W:WKa1:BKh8"));
        assert_eq!(b.total_white, 0);
        assert!(b.terms.iter().any(|t| t.name == "known-draw"));
    }

    #[test]
    fn runaway_man_is_seen() {
        // White man on d6 with only a black man on a6 far away (outside its
        // cone): it crowns in two moves and nobody can stop it.
        let b = breakdown(&pos("W:Wd6,a2:Ba6"));
        let runaway = b.terms.iter().find(|t| t.name == "runaway").unwrap();
        assert!(runaway.white > 100);
        // Black's a6 man has White's a2 ahead in its cone... a2 is on the
        // file ahead (a5..a1 side), so it is not a runaway.
        assert_eq!(runaway.black, 0);
        // Against a king no man is a runaway.
        let b = breakdown(&pos("W:Wd6:BKa8"));
        assert_eq!(
            b.terms.iter().find(|t| t.name == "runaway").unwrap().white,
            0
        );
    }

    #[test]
    fn weights_by_name() {
        let mut w = Weights::DEFAULT;
        w.set("king", 280).unwrap();
        w.set("advancement.5", 25).unwrap();
        assert_eq!((w.king, w.advancement[5]), (280, 25));
        assert!(w.set("queen", 900).is_err());
        assert!(w.set("advancement.8", 1).is_err());
    }

    #[test]
    fn breakdown_sums_to_evaluate() {
        for fen in [
            "W:Wa3,c4,d2,Kf5:Bb6,e6,g7,h5",
            "B:Wb3,e3,g2,h4:Ba6,c5,d7,Kf4",
            "W:WKa1,Kb1:BKh8",
        ] {
            let p = pos(fen);
            let b = breakdown(&p);
            assert_eq!(b.side_to_move, evaluate(&p), "{fen}");
            let shown = b.to_string();
            assert!(shown.contains("material") && shown.contains("mobility"));
        }
    }
}
