//! Counters of the node search, for measuring what the selective search
//! does (how often a reduced or null-window search had to be repeated,
//! how often the first move already cut off, how many nodes go to the
//! sacrifices exempt from reductions and pruning). Lab build only: the
//! counting sits in the move loop, and the product must not pay for it.
//! UCI prints them after a search when `debug on` is set
//! (`info string stats ...`; `tools/depth_nodes.py` sums them).

use std::fmt;

/// What one search counted, all threads summed (`SearchOutcome::stats`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Nodes searched (the `nodes` of the search).
    pub nodes: u64,
    /// Reduced null-window searches that beat alpha and were searched
    /// again at full depth.
    pub lmr_researches: u64,
    /// Null-window searches on the principal variation that landed inside
    /// the window and were searched again with it.
    pub pvs_researches: u64,
    /// Cut-offs in the move loop (a move scored at least beta).
    pub fail_highs: u64,
    /// Of those, cut-offs by the first move searched.
    pub first_move_fail_highs: u64,
    /// Sacrifices searched in full that would otherwise have been reduced
    /// or pruned (`Tuning::sacrifice_exempt`).
    pub exempt_moves: u64,
    /// Nodes below those moves (a subtree inside another's counted once).
    pub exempt_nodes: u64,
    /// Open exempt subtrees on the current line (not a result).
    open: u32,
}

impl SearchStats {
    /// Another thread's counts added to these.
    pub fn add(&mut self, other: &SearchStats) {
        self.nodes += other.nodes;
        self.lmr_researches += other.lmr_researches;
        self.pvs_researches += other.pvs_researches;
        self.fail_highs += other.fail_highs;
        self.first_move_fail_highs += other.first_move_fail_highs;
        self.exempt_moves += other.exempt_moves;
        self.exempt_nodes += other.exempt_nodes;
    }

    /// These counts of a search of `nodes` nodes.
    pub(in crate::search) fn with_nodes(self, nodes: u64) -> SearchStats {
        SearchStats { nodes, ..self }
    }

    /// An exempt sacrifice is about to be searched, with `nodes` counted
    /// so far; returns them for `leave_exempt`.
    #[inline(always)]
    pub fn enter_exempt(&mut self, nodes: u64) -> u64 {
        self.exempt_moves += 1;
        self.open += 1;
        nodes
    }

    /// The exempt sacrifice entered at `start` nodes is searched, `nodes`
    /// counted now. Only the outermost one of a line adds its subtree, so
    /// that nested ones are not counted twice.
    #[inline(always)]
    pub fn leave_exempt(&mut self, start: u64, nodes: u64) {
        self.open -= 1;
        if self.open == 0 {
            self.exempt_nodes += nodes - start;
        }
    }

    /// `part` of `whole` in percent (0 when there is no whole).
    fn percent(part: u64, whole: u64) -> f64 {
        if whole == 0 {
            0.0
        } else {
            100.0 * part as f64 / whole as f64
        }
    }
}

impl fmt::Display for SearchStats {
    /// One line of `name value` pairs, the counts first, then the shares
    /// they make (first-move cut-offs of all cut-offs, exempt nodes of all
    /// nodes), so that a script can sum the counts over searches.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "nodes {} lmr_researches {} pvs_researches {} fail_highs {} first_move_fail_highs {} \
             exempt_moves {} exempt_nodes {} first_move_cut_pct {:.1} exempt_node_pct {:.1}",
            self.nodes,
            self.lmr_researches,
            self.pvs_researches,
            self.fail_highs,
            self.first_move_fail_highs,
            self.exempt_moves,
            self.exempt_nodes,
            Self::percent(self.first_move_fail_highs, self.fail_highs),
            Self::percent(self.exempt_nodes, self.nodes),
        )
    }
}
