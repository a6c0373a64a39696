//! docs/rules.md §6, perft from the start position: the figures in
//! tests/perft/ (start position for every rule set, and positions with
//! kings), checked against the engine, and the king positions also against
//! the naive generator (tests/common/naive.rs).
//!
//! Figures above `ALWAYS_LIMIT` leaves (`ROUTES_ALWAYS_LIMIT` for route
//! counts) take seconds or minutes each and are checked only by the ignored
//! tests: `cargo test --release -p tama-engine --test rules_perft -- --ignored` runs
//! them all (about a quarter of an hour on one core).

mod common;

use common::naive;
use common::{naive_rules, to_naive};
use tama_engine::perft::{perft, perft_routes};
use tama_engine::rules::parse_bool;
use tama_engine::{Position, Rules};

/// Lines with more leaves than this are left to the ignored tests (Armenian
/// depth 7 is 3 * 10^9 leaves, about 3-6 s each in release).
const ALWAYS_LIMIT: u64 = 150_000_000;
/// Route counting has no bulk count at the last ply (every route is
/// generated), so its always-run lines stop lower: Turkish depth 7 runs,
/// Armenian depth 6 (136 million, several seconds) does not.
const ROUTES_ALWAYS_LIMIT: u64 = 12_000_000;

const STARTPOS: &str = include_str!("perft/startpos.txt");
const STARTPOS_ROUTES: &str = include_str!("perft/startpos_routes.txt");
const POSITIONS: &str = include_str!("perft/positions.txt");

#[derive(Debug)]
struct Line {
    rules: Rules,
    depth: u32,
    nodes: u64,
}

/// `<variant> <capture-removal> <mid-capture-promotion> <depth> <nodes>`
fn parse_line(fields: &[&str]) -> Line {
    assert_eq!(fields.len(), 5, "bad perft line {fields:?}");
    Line {
        rules: Rules {
            variant: fields[0].parse().unwrap(),
            capture_removal: fields[1].parse().unwrap(),
            mid_capture_promotion: parse_bool(fields[2]).unwrap(),
        },
        depth: fields[3].parse().unwrap(),
        nodes: fields[4].parse().unwrap(),
    }
}

fn table(text: &str) -> Vec<Line> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| parse_line(&l.split_whitespace().collect::<Vec<_>>()))
        .collect()
}

/// (id, FEN, lines) from the `id` / `fen` / `perft ...` blocks.
fn positions() -> Vec<(String, String, Vec<Line>)> {
    let mut out: Vec<(String, String, Vec<Line>)> = Vec::new();
    for l in POSITIONS.lines().map(str::trim) {
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let (key, rest) = l.split_once(' ').unwrap();
        match key {
            "id" => out.push((rest.to_string(), String::new(), Vec::new())),
            "fen" => out.last_mut().unwrap().1 = rest.to_string(),
            "perft" => out
                .last_mut()
                .unwrap()
                .2
                .push(parse_line(&rest.split_whitespace().collect::<Vec<_>>())),
            _ => panic!("unknown key in positions.txt: {l}"),
        }
    }
    out
}

/// Both start tables cover depths 1..=7 of every rule set.
#[test]
fn tables_are_complete() {
    for text in [STARTPOS, STARTPOS_ROUTES] {
        let t = table(text);
        for rules in Rules::all() {
            for depth in 1..=7 {
                assert!(
                    t.iter().any(|l| l.rules == rules && l.depth == depth),
                    "missing {rules} depth {depth}"
                );
            }
        }
    }
    assert!(positions().len() >= 5);
}

/// Which lines a test checks, by their number of leaves.
#[derive(Clone, Copy, PartialEq)]
enum Size {
    /// Up to the always-run limit.
    Cheap,
    /// Above it, up to `HUGE` (seconds each).
    Deep,
    /// Above `HUGE` (Armenian depth 8: minutes each).
    Huge,
}

const HUGE: u64 = 10_000_000_000;

fn check_start(text: &str, routes: bool, size: Size) {
    let limit = if routes {
        ROUTES_ALWAYS_LIMIT
    } else {
        ALWAYS_LIMIT
    };
    let mut checked = 0;
    for l in table(text) {
        let this = if l.nodes <= limit {
            Size::Cheap
        } else if l.nodes <= HUGE {
            Size::Deep
        } else {
            Size::Huge
        };
        if this != size {
            continue;
        }
        let start = Position::startpos(l.rules);
        let got = if routes {
            perft_routes(&start, l.depth)
        } else {
            perft(&start, l.depth)
        };
        assert_eq!(
            got, l.nodes,
            "{} depth {} (routes: {routes})",
            l.rules, l.depth
        );
        checked += 1;
    }
    assert!(checked > 0);
}

#[test]
fn startpos_perft() {
    check_start(STARTPOS, false, Size::Cheap);
}

#[test]
fn startpos_route_perft() {
    check_start(STARTPOS_ROUTES, true, Size::Cheap);
}

/// Armenian depth 7, every rule set (about half a minute):
/// `cargo test --release -p tama-engine --test rules_perft -- --ignored startpos_perft_deep`
#[test]
#[ignore]
fn startpos_perft_deep() {
    check_start(STARTPOS, false, Size::Deep);
}

/// Armenian depth 8, every rule set (several minutes):
/// `cargo test --release -p tama-engine --test rules_perft -- --ignored startpos_perft_huge`
#[test]
#[ignore]
fn startpos_perft_huge() {
    check_start(STARTPOS, false, Size::Huge);
}

/// Route counts: Armenian depths 6-7, Turkish depth 8 (several minutes).
#[test]
#[ignore]
fn startpos_route_perft_deep() {
    check_start(STARTPOS_ROUTES, true, Size::Deep);
}

#[test]
fn positions_with_kings() {
    for (id, fen, lines) in positions() {
        assert!(!lines.is_empty(), "{id}");
        for l in lines {
            let pos = Position::from_fen(&fen, l.rules).unwrap();
            assert_eq!(
                perft(&pos, l.depth),
                l.nodes,
                "{id} {} depth {}",
                l.rules,
                l.depth
            );
        }
    }
}

/// The naive generator confirms the shallow lines of every position (the
/// deep ones: the ignored test below).
#[test]
fn positions_with_kings_agree_with_naive_generator() {
    naive_check(3);
}

/// `cargo test --release -p tama-engine --test rules_perft -- --ignored` (minutes).
#[test]
#[ignore]
fn positions_with_kings_agree_with_naive_generator_deep() {
    naive_check(u32::MAX);
}

fn naive_check(max_depth: u32) {
    for (id, fen, lines) in positions() {
        for l in lines.iter().filter(|l| l.depth <= max_depth) {
            let pos = Position::from_fen(&fen, l.rules).unwrap();
            let n = naive::perft(&to_naive(&pos), naive_rules(l.rules), l.depth);
            assert_eq!(n, l.nodes, "{id} {} depth {}", l.rules, l.depth);
        }
    }
}
