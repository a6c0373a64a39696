//! `Tuning`: the switches and margins of the selective search, each
//! settable by name (`tama uci --set NAME=VALUE`) so that every idea can be
//! measured in matches, on against off. The defaults are what users get;
//! the match results behind them are in docs/testing.md ("Search switches").

/// Switches and margins of the selective search (see the module comment).
#[derive(Clone, Debug, PartialEq)]
pub struct Tuning {
    /// Quiescence looks one ply of quiet moves when the opponent threatens
    /// a capture (Scan's idea).
    pub threat_probe: bool,
    /// A forced reply (single legal move) on the principal variation costs
    /// no depth.
    pub forced_extension: bool,
    /// Reverse futility up to this depth (0: off).
    pub rfp_depth: i32,
    /// Reverse futility margin per ply of depth, in centi-men.
    pub rfp_margin: i32,
    /// Late move pruning up to this depth (0: off).
    pub lmp_depth: i32,
    /// Internal iterative reduction: a node without a table move at this
    /// depth or more is searched one ply shallower (0: off).
    pub iir_depth: i32,
    /// From this depth on, quiet moves that allow a capture are ordered
    /// after the safe ones (large: off).
    pub safety_order_depth: i32,
    /// Late move reductions from this move number on (0-based).
    pub lmr_min_move: usize,
    /// Late move reduction: 0.5 + ln(depth) ln(move) / (this / 100).
    pub lmr_divisor: u32,
}

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            threat_probe: false,
            forced_extension: false,
            rfp_depth: 3,
            rfp_margin: 70,
            lmp_depth: 4,
            iir_depth: 4,
            safety_order_depth: 100,
            lmr_min_move: 2,
            lmr_divisor: 200,
        }
    }
}

impl Tuning {
    /// Sets one field by name (`threat_probe`, `rfp_depth`, ...) from text.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let int = || {
            value
                .parse::<i32>()
                .map_err(|_| format!("{name}: expected a number, got {value:?}"))
        };
        let flag = || crate::rules::parse_bool(value).map_err(|e| format!("{name}: {e}"));
        match name {
            "threat_probe" => self.threat_probe = flag()?,
            "forced_extension" => self.forced_extension = flag()?,
            "rfp_depth" => self.rfp_depth = int()?,
            "rfp_margin" => self.rfp_margin = int()?,
            "lmp_depth" => self.lmp_depth = int()?,
            "iir_depth" => self.iir_depth = int()?,
            "safety_order_depth" => self.safety_order_depth = int()?,
            "lmr_min_move" => self.lmr_min_move = int()?.max(1) as usize,
            "lmr_divisor" => self.lmr_divisor = int()?.max(1) as u32,
            _ => return Err(format!("unknown tuning parameter {name:?}")),
        }
        Ok(())
    }
}
