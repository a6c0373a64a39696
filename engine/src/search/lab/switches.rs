//! The lab's switches of the node search, off by default
//! (`Tuning::lab`): ProbCut (step 5b), the extensions (step 7), the
//! reverse futility shot guard (step 5) and the ordering by safety; and
//! every switch set by name (`Tuning::set`). `node.rs` reaches them
//! through the hooks of `lab/mod.rs`.

use crate::movegen;
use crate::moves::MoveList;
use crate::position::Position;
use crate::search::score::is_mate;
use crate::search::worker::Worker;
use crate::search::Tuning;

/// The switches of the lab build, off by default: none has gained in a
/// match, none has a losing result of its own (docs/results.md). They sit
/// in the hot path, so the product build leaves them out.
#[derive(Clone, Debug, PartialEq)]
pub struct LabSwitches {
    /// A forced reply (single legal move) costs no depth.
    pub forced_extension: bool,
    /// Capture nodes (every move a capture) cost no depth either.
    pub capture_extension: bool,
    /// Extensions only on the principal variation.
    pub extend_pv_only: bool,
    /// At most this many extended plies on one line, in percent of the
    /// iteration's depth (keeps the tree finite).
    pub extension_cap: i32,
    /// No reverse futility while the side to move has a sacrifice that
    /// forces the reply (a shot may be on).
    pub rfp_shot_guard: bool,
    /// ProbCut: off the principal variation, from `probcut_depth` on, a
    /// node whose search `probcut_reduction` plies shallower beats `beta +
    /// probcut_margin` is cut (the deep search would very likely beat
    /// `beta` too). All moves take part: captures are compulsory, so there
    /// is no set of "good captures" to try as chess engines do.
    pub probcut: bool,
    /// ProbCut from this depth on.
    pub probcut_depth: i32,
    /// ProbCut's shallow search is this many plies shallower.
    pub probcut_reduction: i32,
    /// ProbCut's raised beta, in centi-men above `beta`.
    pub probcut_margin: i32,
    /// From this depth on, quiet moves that allow a capture are ordered
    /// after the safe ones (large: off).
    pub safety_order_depth: i32,
}

impl Default for LabSwitches {
    fn default() -> LabSwitches {
        LabSwitches {
            forced_extension: false,
            capture_extension: false,
            extend_pv_only: false,
            extension_cap: 100,
            rfp_shot_guard: false,
            probcut: false,
            probcut_depth: 5,
            probcut_reduction: 4,
            probcut_margin: 100,
            safety_order_depth: 100,
        }
    }
}

/// Why a search switch was not set by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TuningError {
    /// The search has no switch of this name.
    Unknown(String),
    /// The switch takes a whole number.
    NotANumber {
        /// The switch.
        name: String,
        /// What was given.
        value: String,
    },
    /// The switch takes at least `min`.
    TooSmall {
        /// The switch.
        name: String,
        /// Its least value.
        min: i32,
        /// What was given.
        got: i32,
    },
    /// The switch takes true or false.
    NotAFlag {
        /// The switch.
        name: String,
        /// What was given.
        value: String,
    },
}

impl std::fmt::Display for TuningError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TuningError::Unknown(name) => write!(f, "unknown tuning parameter {name:?}"),
            TuningError::NotANumber { name, value } => {
                write!(f, "{name}: expected a number, got {value:?}")
            }
            TuningError::TooSmall { name, min, got } => {
                write!(f, "{name}: must be at least {min}, got {got}")
            }
            TuningError::NotAFlag { name, value } => {
                write!(f, "{name}: expected true or false, got {value:?}")
            }
        }
    }
}

impl std::error::Error for TuningError {}

impl Tuning {
    /// The settings that see shots (forced replies free on every line,
    /// every sacrifice neither reduced nor pruned, no reverse futility
    /// while a forcing sacrifice is on): they solve the shot suite, but
    /// lost at 2+0.02 against both opponents (CHANGELOG.md, 0.2.0), so
    /// a cheaper test of the sacrifices (`sacrifice_exempt=3`) is the default.
    pub fn tactical() -> Tuning {
        let mut t = Tuning {
            sacrifice_exempt: 1,
            ..Tuning::default()
        };
        t.lab.forced_extension = true;
        t.lab.rfp_shot_guard = true;
        t
    }

    /// Sets one field by name (`rfp_depth`, `probcut`, ...) from text.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), TuningError> {
        match self.try_set(name, value)? {
            true => Ok(()),
            false => Err(TuningError::Unknown(name.to_string())),
        }
    }

    /// `set`, but `Ok(false)` when `name` is no switch of the search (the
    /// caller may know it as something else, e.g. an engine option).
    pub fn try_set(&mut self, name: &str, value: &str) -> Result<bool, TuningError> {
        let int = || {
            value.parse::<i32>().map_err(|_| TuningError::NotANumber {
                name: name.to_string(),
                value: value.to_string(),
            })
        };
        let at_least = |min: i32| match int()? {
            v if v >= min => Ok(v),
            got => Err(TuningError::TooSmall {
                name: name.to_string(),
                min,
                got,
            }),
        };
        let flag = || {
            crate::rules::parse_bool(value).map_err(|_| TuningError::NotAFlag {
                name: name.to_string(),
                value: value.to_string(),
            })
        };
        let lab = &mut self.lab;
        match name {
            "forced_extension" => lab.forced_extension = flag()?,
            "capture_extension" => lab.capture_extension = flag()?,
            "extend_pv_only" => lab.extend_pv_only = flag()?,
            "extension_cap" => lab.extension_cap = int()?.max(0),
            "sacrifice_exempt" => self.sacrifice_exempt = int()?.clamp(0, 3),
            "shot_kings" => self.shot_kings = flag()?,
            "shot_chain_depth" => self.shot_chain_depth = int()?.max(0),
            "rfp_shot_guard" => lab.rfp_shot_guard = flag()?,
            "rfp_depth" => self.rfp_depth = int()?,
            "rfp_margin" => self.rfp_margin = int()?,
            "lmp_depth" => self.lmp_depth = int()?,
            "probcut" => lab.probcut = flag()?,
            "probcut_depth" => lab.probcut_depth = int()?,
            // 0 would search the same node at the same depth forever.
            "probcut_reduction" => lab.probcut_reduction = at_least(1)?,
            "probcut_margin" => lab.probcut_margin = at_least(0)?,
            "iir_depth" => self.iir_depth = int()?,
            "safety_order_depth" => lab.safety_order_depth = int()?,
            "lmr_min_move" => self.lmr_min_move = int()?.max(1) as usize,
            "lmr_divisor" => self.lmr_divisor = int()?.max(1) as u32,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// Whether the side to move has a quiet move after which the opponent's
/// only legal move is a capture: the first step of a shot.
fn has_forcing_sacrifice(pos: &Position) -> bool {
    let mut list = MoveList::new();
    movegen::generate(pos, &mut list);
    list.iter().any(|mv| {
        let child = pos.play(mv);
        !mv.is_capture() && movegen::has_capture(&child) && movegen::count(&child) == 1
    })
}

impl Worker<'_> {
    /// Step 5b: off the principal variation, a node whose search
    /// `probcut_reduction` plies shallower, with the null window raised to
    /// `beta + probcut_margin`, still fails high is cut: the full-depth
    /// search would almost surely beat `beta`. The shallow search is the
    /// node itself searched again (every move: captures are compulsory,
    /// so there are no "good captures" to pick out); its result goes to
    /// the table at its own depth. Not near a mate (the margin would be
    /// meaningless) and never in a full-width search.
    #[inline(always)]
    pub(in crate::search) fn probcut(
        &mut self,
        pos: &Position,
        depth: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        let t = &self.sh.tuning.lab;
        let shallow = depth - t.probcut_reduction;
        let raised = beta + t.probcut_margin;
        if !t.probcut
            || depth < t.probcut_depth
            || shallow < 1
            || self.full_width
            || is_mate(beta)
            || is_mate(raised)
        {
            return None;
        }
        // Quiescence first, as Stockfish does with its captures: the
        // shallow search of every move costs more than it saves when it
        // is tried at nodes that are not above the raised beta already.
        if self.qsearch(pos, raised - 1, raised, ply) < raised || self.stopped {
            return None;
        }
        let v = self.search(pos, raised - 1, raised, shallow, ply, false);
        (v >= raised && !self.stopped).then_some(v)
    }

    /// Step 7: a forced reply (a single legal move, usually a capture) and,
    /// with `capture_extension`, any capture costs no depth, so a shot (a
    /// sacrifice, the forced capture, the capture back) costs one ply
    /// however long it runs. At most `extension_cap` percent of the
    /// iteration's depth is added on one line (`extended` counts them).
    #[inline(always)]
    pub(in crate::search) fn extension(
        &mut self,
        pv_node: bool,
        moves: usize,
        capture: bool,
        ply: usize,
    ) -> i32 {
        let t = &self.sh.tuning.lab;
        let wanted = (t.forced_extension && moves == 1) || (t.capture_extension && capture);
        let cap = self.root_depth * t.extension_cap / 100;
        let extension = (wanted
            && (pv_node || !t.extend_pv_only)
            && (self.lab.extended[ply] as i32) < cap) as i32;
        self.lab.extended[ply + 1] = self.lab.extended[ply] + extension as u8;
        extension
    }

    /// Step 5, with `rfp_shot_guard`: no reverse futility while the side
    /// to move has a sacrifice that forces the reply (a shot may be on).
    #[inline(always)]
    pub(in crate::search) fn shot_guard(&self, pos: &Position) -> bool {
        self.sh.tuning.lab.rfp_shot_guard && has_forcing_sacrifice(pos)
    }
}
