//! Every number the search is tuned by, in one place: `Tuning` (the
//! switches and margins of the selective search), the late move reduction
//! table made from it, and the fixed constants of the aspiration windows,
//! the reductions and the history. The defaults are what users get; the
//! match results behind them are in docs/results.md.
//!
//! The lab build (`--features lab`, `lab/switches.rs`) adds the switches
//! that are off by default, so that they cost the product nothing, and
//! sets any field by name (`tama-lab uci --set NAME=VALUE`), so that every
//! idea can be measured in matches, on against off.

/// Aspiration windows from this iteration depth on.
pub(super) const ASPIRATION_MIN_DEPTH: i32 = 5;
/// The first aspiration window's half-width (centi-men); each failure
/// widens it by half.
pub(super) const ASPIRATION_DELTA: i32 = 30;
/// Past this half-width the window is opened fully.
pub(super) const ASPIRATION_MAX_DELTA: i32 = 600;
/// Late move reductions from this depth on.
pub(super) const LMR_MIN_DEPTH: i32 = 3;
/// Late move pruning: at depth d, quiet moves from number `LMP_BASE + d * d`
/// (0-based) on are pruned.
pub(super) const LMP_BASE: i32 = 3;
/// The largest history bonus of one cutoff (the bonus is depth squared).
pub(super) const HISTORY_BONUS_MAX: i32 = 1200;

/// Switches and margins of the selective search (see the module comment).
#[derive(Clone, Debug, PartialEq)]
pub struct Tuning {
    /// A quiet move that leaves the opponent a capture to make (a
    /// sacrifice) is neither reduced nor pruned by move count: 0 off, 1
    /// every such move, 2 only when that capture is the one legal reply, 3
    /// only when it is the one legal reply and the exchange can pay
    /// (`shot.rs`: the capture back takes at least as much, or crowns, or a
    /// second forcing sacrifice follows that does, the pair weighed as
    /// one). 3 is the default: it solves the suite's shots as 2 does (296
    /// of 307 at 100k nodes against 297) on a tree per depth 4.6 times
    /// smaller in Armenian and 3.6 in Turkish, and gained at 2+0.02 in both
    /// variants (docs/results.md).
    pub sacrifice_exempt: i32,
    /// With `sacrifice_exempt=3`: every forcing sacrifice of a side that
    /// has a king may be a shot (a king's captures back are too varied to
    /// read off the board).
    pub shot_kings: bool,
    /// With `sacrifice_exempt=3`: from this depth on, a forcing sacrifice
    /// whose exchange does not pay passes when a second forcing sacrifice
    /// that pays follows it (0: never).
    pub shot_chain_depth: i32,
    /// Reverse futility up to this depth (0: off).
    pub rfp_depth: i32,
    /// Reverse futility margin per ply of depth, in centi-men.
    pub rfp_margin: i32,
    /// Late move pruning up to this depth (0: off).
    pub lmp_depth: i32,
    /// Internal iterative reduction: a node without a table move at this
    /// depth or more is searched one ply shallower (0: off).
    pub iir_depth: i32,
    /// Late move reductions from this move number on (0-based).
    pub lmr_min_move: usize,
    /// Late move reduction: 0.5 + ln(depth) ln(move) / (this / 100).
    /// 120 (200 before): with the sacrifices exempt, deeper reductions of
    /// the other quiet moves cost no shots and buy depth at the clock
    /// (docs/results.md).
    pub lmr_divisor: u32,
    /// The lab's switches that are off by default (`lab::LabSwitches`;
    /// empty outside the lab build).
    pub lab: super::lab::LabSwitches,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            sacrifice_exempt: 3,
            shot_kings: true,
            shot_chain_depth: 3,
            rfp_depth: 3,
            rfp_margin: 70,
            lmp_depth: 4,
            iir_depth: 4,
            lmr_min_move: 2,
            lmr_divisor: 120,
            lab: super::lab::LabSwitches::default(),
        }
    }
}

/// Late move reductions by depth and move number: 0.5 + ln(depth) ln(move)
/// / (divisor / 100), rounded down (`Tuning::lmr_divisor`).
pub(super) struct LmrTable([[u8; 64]; 64]);

impl LmrTable {
    pub fn new(divisor: u32) -> LmrTable {
        let mut lmr = [[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = 0.5 + (d as f64).ln() * (m as f64).ln() * 100.0 / divisor.max(1) as f64;
                *r = v.max(0.0) as u8;
            }
        }
        LmrTable(lmr)
    }

    #[inline(always)]
    pub fn get(&self, depth: i32, move_number: usize) -> i32 {
        self.0[depth.min(63) as usize][move_number.min(63)] as i32
    }
}
