//! Whole-database checks: built tables agree with the move generator, move
//! by move, and with a forward search that knows nothing of the tables.

use super::*;
use crate::movegen;
use crate::position::Position;
use crate::rng::Rng;
use crate::rules::Rules;
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
        compress: None,
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
#[ignore = "builds tables for tens of seconds; .ci/run runs it with --ignored"]
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

/// One 4-piece table, KKvKK, which needs only the kings-only tables of 2
/// and 3 pieces: the smallest with positions that are their own mirror
/// image (the 1/2/4 counting in `propagate`) and drawn positions with a
/// capture due that a quiet move backwards reaches from a loss (once
/// wrongly made wins: the DRAW state has the PENDING bit set).
///
/// Built twice, keeping distances (4 bytes an entry while building, level
/// by level) and not (1 byte, in any order): the same results.
#[test]
#[ignore = "builds tables for tens of seconds; .ci/run runs it with --ignored"]
fn kings_two_against_two_is_consistent() {
    let rules = Rules::ARMENIAN;
    let kkvkk = Signature::parse("KKvKK").unwrap();
    let mut built = Vec::new();
    for distance_pieces in [4, 3] {
        let dir = TempDir::new(&format!("kkvkk-{distance_pieces}"));
        let mut tb = build_quietly(dir.path(), rules, 3, 3);
        let opts = BuildOptions {
            rules,
            max_pieces: 4,
            distance_pieces,
            threads: 2,
            compress: None,
        };
        super::build::build_pair(dir.path(), &opts, &[kkvkk], &mut tb, &mut |_| {}).unwrap();
        // 64 * 63 / 2 * 62 * 61 / 2 positions.
        assert_eq!(check_consistency(&tb, kkvkk), 2016 * 1891);
        built.push((dir, tb));
    }
    let index = TableIndex::new(kkvkk);
    for i in (0..index.len()).filter(|&i| index.positions_of(i) > 0) {
        let pos = index.placement(i).to_position(rules);
        let (with, without) = (built[0].1.probe(&pos), built[1].1.probe(&pos));
        assert_eq!(with.map(|v| v.wdl), without.map(|v| v.wdl), "{}", pos.fen());
    }
}

/// Every 4-piece table, for one rule set (minutes): builds them, or checks
/// the ones in `TAMA_EGTB_DIR` (say, from `tama egtb build --pieces 4`):
/// `TAMA_EGTB_RULES=turkish,deferred,false cargo test --release -p
/// tama-engine --lib egtb::tests::four_piece -- --ignored`.
#[test]
#[ignore]
fn four_piece_tables_are_consistent() {
    let rules = rules_from_env();
    let dir = TempDir::new("consistency-4");
    let tb = match std::env::var("TAMA_EGTB_DIR") {
        Ok(existing) => Tablebase::open(Path::new(&existing), rules).unwrap(),
        Err(_) => build_quietly(dir.path(), rules, 4, 4),
    };
    assert!(
        tb.complete_pieces() >= 4,
        "the 4-piece tables are not all there"
    );
    let mut checked = 0;
    for sig in Signature::build_order(4)
        .into_iter()
        .filter(|s| s.pieces() == 4)
    {
        checked += check_consistency(&tb, sig);
    }
    // Every 4-piece position (the product formula of index.rs's test, summed).
    assert_eq!(checked, 82_938_632);
}

pub(crate) fn rules_from_env() -> Rules {
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

/// Looks a FEN up and compares with the expected `win N` / `draw` / `loss N`.
fn expect(tb: &Tablebase, fen: &str, expected: &str) {
    let pos = Position::from_fen(fen, tb.rules()).unwrap();
    let v = tb
        .probe(&pos)
        .unwrap_or_else(|| panic!("{fen}: not in the tables"));
    assert_eq!(v.to_string(), expected, "{fen} ({})", tb.rules());
}

/// One position per 2- and 3-piece class (side to move first), reasoned
/// by hand, in both variants. In each the first move is a capture, which
/// is compulsory and orthogonal in both variants, so the variants agree.
#[test]
fn hand_reasoned_positions_of_every_small_class() {
    for rules in [Rules::ARMENIAN, Rules::TURKISH] {
        let dir = TempDir::new(&format!("hand-{}", rules.index()));
        let tb = build_quietly(dir.path(), rules, 3, 3);
        // KvK: d4 sees d5, d6 empty and the king on d7 with d8 free behind
        // it: White must take it, and Black is left with nothing.
        expect(&tb, "W:WKd4:BKd7", "win 1");
        // KvK without a capture: a lone king is taken only on the other
        // king's rank or file with a free square behind it, and a king can
        // always step off both lines (along its own rank or file); so
        // neither side can force anything.
        expect(&tb, "W:WKa1:BKh8", "draw");
        expect(&tb, "B:WKc2:BKf7", "draw");
        // KvM, MvK, MvM: one jump takes the only enemy piece.
        expect(&tb, "W:WKd4:Bd6", "win 1");
        expect(&tb, "W:Wd4:BKd5", "win 1");
        expect(&tb, "W:Wd4:Bd5", "win 1");
        // The same from Black's side (the tables are side-to-move relative):
        // the black man on d5 jumps the white one on d4 downwards to d3.
        expect(&tb, "B:Wd4:Bd5", "win 1");
        // KKvK, KKvM, KMvK, KMvM: the king on d4 (or a1) takes the lone piece.
        expect(&tb, "W:WKa1,Kb1:BKa3", "win 1");
        expect(&tb, "W:WKd4,Kh1:Bd6", "win 1");
        expect(&tb, "W:WKd4,a2:BKd6", "win 1");
        expect(&tb, "W:WKd4,a2:Bd6", "win 1");
        // MMvK, MMvM: the man on d4 jumps d5 to d6 (c4 has nothing to take).
        expect(&tb, "W:Wc4,d4:BKd5", "win 1");
        expect(&tb, "W:Wc4,d4:Bd5", "win 1");
        // KvKK, KvKM, KvMM: the king on a1 jumps a3 (or a4), lands on the
        // one free square before the second piece, and must jump that too
        // (the majority rule): both pieces in one move.
        expect(&tb, "W:WKa1:BKa3,Ka5", "win 1");
        expect(&tb, "W:WKa1:BKa4,a6", "win 1");
        expect(&tb, "W:WKa1:Ba3,a5", "win 1");
        // MvKM, MvMM: the man jumps d5 to d6, then d7 to d8.
        expect(&tb, "W:Wd4:BKd5,d7", "win 1");
        expect(&tb, "W:Wd4:Bd5,d7", "win 1");
        // MvKK: the man's only move is d5xd7 (compulsory); it cannot go on
        // over d8 (nothing behind it), and the king on d8 then takes it
        // along the d-file: White has nothing left. A loss in 2.
        expect(&tb, "W:Wd5:BKd6,Kd8", "loss 2");
    }
}

/// Mid-capture promotion changes 3-piece results (docs/rules.md's second
/// diagram, with a king on g8): the man on d6 must take d7 and reaches d8.
/// `false`: it stops there a man (no piece next to it on rank 8), is
/// crowned, and the king on g8 takes it along the rank (f8, e8 free, c8
/// behind): a loss in 2. `true`: crowned on d8 it flies on over g8 to h8
/// and takes both: a win in 1.
#[test]
fn mid_capture_promotion_changes_a_three_piece_result() {
    for variant in [
        crate::rules::Variant::Armenian,
        crate::rules::Variant::Turkish,
    ] {
        for (promotion, expected) in [(false, "loss 2"), (true, "win 1")] {
            let rules = Rules {
                variant,
                mid_capture_promotion: promotion,
                ..Rules::default()
            };
            let dir = TempDir::new(&format!("promotion-{}", rules.index()));
            let tb = build_quietly(dir.path(), rules, 3, 3);
            expect(&tb, "W:Wd6:Bd7,Kg8", expected);
        }
    }
}

/// Capture removal cannot change a table of up to 4 pieces: it matters
/// only when a king's later jump crosses the square of a piece it took
/// earlier. A king's second jump goes straight on or turns 90 degrees from
/// its landing square beyond the first victim, so it never crosses the
/// first victim's square; the third runs parallel to the first on another
/// line. Only a fourth victim (5 pieces, as in docs/rules.md's diagram)
/// can be reached across a taken piece. Men are never affected. Checked
/// here for every entry up to 3 pieces, in both variants.
#[test]
fn capture_removal_cannot_change_small_tables() {
    for variant in [
        crate::rules::Variant::Armenian,
        crate::rules::Variant::Turkish,
    ] {
        let removal = |capture_removal| Rules {
            variant,
            capture_removal,
            mid_capture_promotion: false,
        };
        let immediate = removal(crate::rules::CaptureRemoval::Immediate);
        let deferred = removal(crate::rules::CaptureRemoval::Deferred);
        let dir_i = TempDir::new(&format!("removal-{}", immediate.index()));
        let dir_d = TempDir::new(&format!("removal-{}", deferred.index()));
        let tb_i = build_quietly(dir_i.path(), immediate, 3, 3);
        let tb_d = build_quietly(dir_d.path(), deferred, 3, 3);
        for sig in Signature::build_order(3) {
            let index = TableIndex::new(sig);
            for i in 0..index.len() {
                let p = index.placement(i);
                assert_eq!(
                    tb_i.probe(&p.to_position(immediate)),
                    tb_d.probe(&p.to_position(deferred)),
                    "{}",
                    p.to_position(immediate).fen()
                );
            }
        }
    }
}

/// A damaged table in a database directory stops it from opening, with the
/// file and the reason named; a rerun of the build refuses it too.
#[test]
fn a_damaged_table_is_refused() {
    let rules = Rules::ARMENIAN;
    let dir = TempDir::new("damaged");
    build_quietly(dir.path(), rules, 2, 2);
    let path = dir
        .path()
        .join(file_name(rules, Signature::parse("KvK").unwrap()));
    let good = std::fs::read(&path).unwrap();
    let refused = |needle: &str| {
        let err = Tablebase::open(dir.path(), rules)
            .err()
            .expect("refused")
            .to_string();
        assert!(err.contains(needle) && err.contains("KvK.egtb"), "{err}");
        let opts = BuildOptions {
            rules,
            max_pieces: 2,
            distance_pieces: 2,
            threads: 1,
            compress: None,
        };
        let err = build(dir.path(), &opts, &mut |_| {})
            .err()
            .expect("refused")
            .to_string();
        assert!(err.contains(needle), "{err}");
    };
    let mut flipped = good.clone();
    flipped[200] ^= 1;
    std::fs::write(&path, &flipped).unwrap();
    refused("bad checksum");
    std::fs::write(&path, &good[..good.len() - 10]).unwrap();
    refused("truncated");
    // A Turkish table under an Armenian name.
    let other = TempDir::new("damaged-other");
    build_quietly(other.path(), Rules::TURKISH, 2, 2);
    let turkish = other
        .path()
        .join(file_name(Rules::TURKISH, Signature::parse("KvK").unwrap()));
    std::fs::copy(turkish, &path).unwrap();
    refused("other rules");
    std::fs::write(&path, &good).unwrap();
    assert!(Tablebase::open(dir.path(), rules).is_ok());
}

/// A table without distances takes its results from exits that have none
/// either: a crowning leads into a table of the same size, built before it
/// and holding only win/draw/loss. White's man on a7 can only crown (b7
/// holds a king that c7 shields from capture; a8 is free, and in Armenian
/// b8 too, diagonally forward), and two kings against the new one win with
/// Black to move: White's position is a loss, whether the tables keep
/// distances or not. (Counting a won exit as "distance 0" once made it a
/// loss in 1 ply, which is read as a win.)
#[test]
fn a_crowning_into_a_lost_position_is_a_loss_without_distances() {
    for rules in [Rules::ARMENIAN, Rules::TURKISH] {
        let crowning = "W:Wa7:BKb7,Kc7";
        let pos = Position::from_fen(crowning, rules).unwrap();
        let after: Vec<Position> = movegen::legal_moves(&pos)
            .iter()
            .map(|m| pos.play(m))
            .collect();
        let crowned = |p: &Position| p.fen() == "B:WKa8:BKb7,Kc7" || p.fen() == "B:WKb8:BKb7,Kc7";
        assert!(after.iter().all(crowned), "{crowning}: only crownings");
        assert_eq!(after.len(), if rules == Rules::ARMENIAN { 2 } else { 1 });
        let with = TempDir::new(&format!("crown-dtm-{}", rules.index()));
        let tb = build_quietly(with.path(), rules, 3, 3);
        let slowest = after
            .iter()
            .map(|p| {
                let v = tb.probe(p).unwrap();
                assert_eq!(v.wdl, Wdl::Win, "{} ({rules}): {v}", p.fen());
                v.plies.unwrap()
            })
            .max()
            .unwrap();
        expect(&tb, crowning, &format!("loss {}", slowest + 1));
        let without = TempDir::new(&format!("crown-wdl-{}", rules.index()));
        let tb = build_quietly(without.path(), rules, 3, 2);
        for p in &after {
            expect(&tb, &p.fen(), "win -");
        }
        expect(&tb, crowning, "loss -");
    }
}

/// Every 3-piece result is the same whether the 3-piece tables keep
/// distances or not (the tables without them take their exits, crownings,
/// from tables without them too).
#[test]
fn results_do_not_depend_on_keeping_distances() {
    for rules in [Rules::ARMENIAN, Rules::TURKISH] {
        let with = TempDir::new(&format!("wdl-same-dtm-{}", rules.index()));
        let without = TempDir::new(&format!("wdl-same-wdl-{}", rules.index()));
        let tb_with = build_quietly(with.path(), rules, 3, 3);
        let tb_without = build_quietly(without.path(), rules, 3, 2);
        let mut differ = Vec::new();
        for sig in Signature::build_order(3) {
            let index = TableIndex::new(sig);
            for i in (0..index.len()).filter(|&i| index.positions_of(i) > 0) {
                let pos = index.placement(i).to_position(rules);
                let a = tb_with.probe(&pos).unwrap();
                let b = tb_without.probe(&pos).unwrap();
                if a.wdl != b.wdl {
                    differ.push(format!("{} {a} {b}", pos.fen()));
                }
            }
        }
        assert!(
            differ.is_empty(),
            "{rules}: {} differ: {:?}",
            differ.len(),
            &differ[..differ.len().min(5)]
        );
    }
}
