//! The lab's switches of the node search, off by default
//! (`Tuning::lab`): ProbCut (step 5b), the extensions (step 7) and the
//! reverse futility shot guard (step 5). `node.rs` calls them in lab
//! builds only.

use crate::movegen;
use crate::moves::MoveList;
use crate::position::Position;
use crate::search::score::is_mate;
use crate::search::worker::Worker;

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
        let extension =
            (wanted && (pv_node || !t.extend_pv_only) && (self.extended[ply] as i32) < cap) as i32;
        self.extended[ply + 1] = self.extended[ply] + extension as u8;
        extension
    }

    /// Step 5, with `rfp_shot_guard`: no reverse futility while the side
    /// to move has a sacrifice that forces the reply (a shot may be on).
    #[inline(always)]
    pub(in crate::search) fn shot_guard(&self, pos: &Position) -> bool {
        self.sh.tuning.lab.rfp_shot_guard && has_forcing_sacrifice(pos)
    }
}
