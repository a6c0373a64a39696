//! Whole-database checks: built tables agree with the move generator, move
//! by move, and with a forward search that knows nothing of the tables.

use super::*;
use crate::movegen;
use crate::position::Position;
use crate::rules::Rules;
use crate::testutil::Rng;
use std::path::{Path, PathBuf};

/// A fresh directory under the system's temporary one, removed on drop.
pub(crate) struct TempDir(PathBuf);

impl TempDir {
    pub(crate) fn new(tag: &str) -> TempDir {
        let path = std::env::temp_dir().join(format!("tama-egtb-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("temporary directory");
        TempDir(path)
    }

    pub(crate) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub(crate) fn build_quietly(
    dir: &Path,
    rules: Rules,
    pieces: u32,
    distance_pieces: u32,
) -> Tablebase {
    let opts = BuildOptions {
        rules,
        max_pieces: pieces,
        distance_pieces,
        threads: 2,
    };
    build(dir, &opts, &mut |_| {}).expect("build")
}

/// The consistency check, for every entry of `signature`: a win in
/// d has a move to a loss in d-1 and none to a quicker loss; a loss in d has
/// every move going to a win, the slowest in d-1 (no move: a loss in 0); a
/// draw has no move to a loss and some move to a draw. Values of tables
/// without distances are checked by their results alone. Returns the
/// number of positions checked (an entry stands for one or two).
pub(crate) fn check_consistency(tb: &Tablebase, signature: Signature) -> u64 {
    let index = TableIndex::new(signature);
    let rules = tb.rules();
    let mut checked = 0;
    for i in 0..index.len() {
        let positions = index.positions_of(i);
        if positions == 0 {
            continue;
        }
        let placement = index.placement(i);
        let pos = placement.to_position(rules);
        let v = tb.probe(&pos).expect("own table");
        let mirrored = tb
            .probe(&placement.mirrored().to_position(rules))
            .expect("own table");
        assert_eq!(v, mirrored, "{} and its mirror image", pos.fen());
        let moves = movegen::legal_moves(&pos);
        let children: Vec<Value> = moves
            .iter()
            .map(|m| {
                tb.probe(&pos.play(m))
                    .unwrap_or_else(|| panic!("no table for a successor of {}", pos.fen()))
            })
            .collect();
        let lost = |c: &&Value| c.wdl == Wdl::Loss;
        let context = || format!("{} ({rules}): {v}, successors {children:?}", pos.fen());
        match v.wdl {
            Wdl::Win => {
                assert!(children.iter().any(|c| c.wdl == Wdl::Loss), "{}", context());
                if let Some(d) = v.plies {
                    let quickest = children.iter().filter(lost).map(|c| c.plies.unwrap()).min();
                    assert_eq!(quickest, Some(d - 1), "{}", context());
                }
            }
            Wdl::Loss => {
                assert!(children.iter().all(|c| c.wdl == Wdl::Win), "{}", context());
                if let Some(d) = v.plies {
                    let slowest = children
                        .iter()
                        .map(|c| c.plies.unwrap() + 1)
                        .max()
                        .unwrap_or(0);
                    assert_eq!(d, slowest, "{}", context());
                }
            }
            Wdl::Draw => {
                assert!(
                    !children.iter().any(|c| c.wdl == Wdl::Loss),
                    "{}",
                    context()
                );
                assert!(children.iter().any(|c| c.wdl == Wdl::Draw), "{}", context());
            }
        }
        checked += u64::from(positions);
    }
    checked
}

#[test]
fn two_and_three_piece_tables_are_consistent_under_every_rule_set() {
    for rules in Rules::all() {
        let dir = TempDir::new(&format!("consistency-{}", rules.index()));
        let tb = build_quietly(dir.path(), rules, 3, 3);
        let mut checked = 0;
        for sig in Signature::build_order(3) {
            checked += check_consistency(&tb, sig);
        }
        // Every position: 12,336 of 2 pieces (e.g. KvK: 64 * 63 = 4032)
        // and 1,335,840 of 3 (the product formula in index.rs's test).
        assert_eq!(checked, 12_336 + 1_335_840);
        assert_eq!(tb.complete_pieces(), 3);
    }
}

/// The 4-piece tables, for one rule set (minutes):
/// `TAMA_EGTB_RULES=turkish,deferred,false cargo test --release -p tama-engine
/// --lib egtb::tests::four_piece -- --ignored`.
#[test]
#[ignore]
fn four_piece_tables_are_consistent() {
    let rules = rules_from_env();
    let dir = TempDir::new("consistency-4");
    let tb = build_quietly(dir.path(), rules, 4, 4);
    for sig in Signature::build_order(4) {
        check_consistency(&tb, sig);
    }
}

fn rules_from_env() -> Rules {
    let Ok(text) = std::env::var("TAMA_EGTB_RULES") else {
        return Rules::default();
    };
    let parts: Vec<&str> = text.split(',').collect();
    assert_eq!(parts.len(), 3, "TAMA_EGTB_RULES=variant,removal,promotion");
    Rules {
        variant: parts[0].parse().unwrap(),
        capture_removal: parts[1].parse().unwrap(),
        mid_capture_promotion: crate::rules::parse_bool(parts[2]).unwrap(),
    }
}

/// The result within `depth` plies by plain forward search (no tables):
/// `Some(d)` when the side to move wins (d odd) or loses (d even) in
/// exactly d plies with best play, d <= depth; `None` when that takes more.
fn forward_solve(pos: &Position, depth: u32) -> Option<u32> {
    (0..=depth).find(|&d| {
        if d % 2 == 1 {
            wins_within(pos, d)
        } else {
            loses_within(pos, d)
        }
    })
}

fn wins_within(pos: &Position, plies: u32) -> bool {
    plies >= 1
        && movegen::legal_moves(pos)
            .iter()
            .any(|m| loses_within(&pos.play(m), plies - 1))
}

fn loses_within(pos: &Position, plies: u32) -> bool {
    let moves = movegen::legal_moves(pos);
    moves.is_empty() || (plies >= 1 && moves.iter().all(|m| wins_within(&pos.play(m), plies - 1)))
}

/// Random positions of up to 3 pieces: every distance up to 5 plies that
/// the tables give is what a forward search finds, and where the tables
/// say "further or drawn", the forward search proves nothing within 5.
#[test]
fn tables_agree_with_a_forward_search() {
    const DEPTH: u32 = 5;
    for rules in [Rules::ARMENIAN, Rules::TURKISH] {
        let dir = TempDir::new(&format!("forward-{}", rules.index()));
        let tb = build_quietly(dir.path(), rules, 3, 3);
        let mut rng = Rng::new(5);
        let sigs = Signature::build_order(3);
        let mut decided = 0;
        for _ in 0..400 {
            let sig = sigs[rng.below(sigs.len() as u64) as usize];
            let index = TableIndex::new(sig);
            let i = rng.below(index.len());
            if index.positions_of(i) == 0 {
                continue;
            }
            let pos = index.placement(i).to_position(rules);
            let v = tb.probe(&pos).unwrap();
            let expected = v.plies.filter(|&d| d <= DEPTH);
            assert_eq!(
                forward_solve(&pos, DEPTH),
                expected,
                "{} ({rules}): {v}",
                pos.fen()
            );
            decided += usize::from(expected.is_some());
        }
        assert!(decided > 30, "too few short results to compare: {decided}");
    }
}
