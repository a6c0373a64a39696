//! The evaluation and its weights: `eval`, `bench`, and `EvalFile` by name
//! or from a file.

use crate::protocol_support::{errors, uci, Engine};

#[test]
fn eval_and_bench() {
    let mut e = uci();
    e.send("position startpos");
    e.send("eval");
    let lines = e.until("total");
    assert!(lines.iter().any(|l| l.starts_with("material")), "{lines:?}");
    e.send("bench 1");
    let lines = e.read_until("the nodes/nps line", |l| {
        l.ends_with(" nps") && l.split(' ').count() == 4
    });
    let parts: Vec<&str> = lines.last().unwrap().split(' ').collect();
    assert!(
        parts[0].parse::<u64>().is_ok() && parts[1] == "nodes",
        "{lines:?}"
    );
    assert!(
        parts[2].parse::<u64>().is_ok() && parts[3] == "nps",
        "{lines:?}"
    );
}

/// `bench DEPTH`'s node count per position: `(variant, nodes)`.
fn bench_nodes(e: &mut Engine, depth: u32) -> Vec<(String, u64)> {
    e.send(&format!("bench {depth}"));
    let lines = e.read_until("the nodes/nps line", |l| {
        l.ends_with(" nps") && l.split(' ').count() == 4
    });
    lines
        .iter()
        .filter(|l| l.starts_with("position "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(w[3], "nodes", "{l}");
            (w[2].to_string(), w[4].parse().unwrap())
        })
        .collect()
}

#[test]
fn bench_searches_with_the_eval_file_weights() {
    // An Armenian set replaces the Armenian weights only, so between the
    // hand and the learned Armenian sets the Armenian positions' trees
    // change (the evaluations score them otherwise) and the Turkish
    // positions' trees stay node for node.
    let mut e = uci();
    e.send("setoption name EvalFile value builtin:armenian-hand");
    e.sync();
    let hand = bench_nodes(&mut e, 4);
    e.send("setoption name EvalFile value builtin:armenian-learned");
    e.sync();
    let learned = bench_nodes(&mut e, 4);
    assert_eq!(hand.len(), learned.len());
    let mut changed = 0;
    for ((variant, h), (v, l)) in hand.iter().zip(&learned) {
        assert_eq!(variant, v);
        match variant.as_str() {
            "turkish" => assert_eq!(h, l, "a Turkish tree changed"),
            _ => changed += usize::from(h != l),
        }
    }
    assert!(changed >= 5, "{hand:?}\n{learned:?}");
}

/// The `total` line of `eval`.
fn eval_total(e: &mut Engine) -> String {
    e.send("eval");
    e.until("total (white's view)").pop().unwrap()
}

/// The score of the last `info` line of a depth-3 search of the start.
fn search_score(e: &mut Engine) -> String {
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    let info = lines.iter().rev().find(|l| l.contains(" score ")).unwrap();
    info.split(" score ")
        .nth(1)
        .unwrap()
        .split(" nodes")
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn eval_file_selects_a_built_in_set_by_name() {
    // builtin:armenian-learned (engine/data/weights/) and
    // builtin:armenian-hand (the hand-set weights of 0.1.0) are in the
    // binary: each replaces the Armenian set (the learned one shows its
    // pattern row, the hand one none; the scores differ) and leaves the
    // Turkish one as it was. An unknown name is refused, naming the
    // built-in sets, and changes nothing; <builtin> goes back to the
    // default, which is one of the two.
    let mut e = uci();
    e.send("setoption name Variant value turkish");
    let turkish = eval_total(&mut e);
    e.send("setoption name Variant value armenian");
    e.send("position fen W:Wa3,c4,d2,Kf5:Bb6,e6,g7,h5");
    let default = eval_total(&mut e);
    let mut totals = Vec::new();
    for (name, model, pattern_row) in [("learned", "kings", true), ("hand", "hand", false)] {
        e.send(&format!(
            "setoption name EvalFile value builtin:armenian-{name}"
        ));
        assert_eq!(
            e.sync(),
            [format!(
                "info string EvalFile: armenian {model} weights loaded from builtin:armenian-{name}"
            )]
        );
        e.send("eval");
        let rows = e.until("total (white's view)");
        let shown = rows.iter().any(|l| l.starts_with("patterns "));
        assert_eq!(shown, pattern_row, "{rows:?}");
        totals.push(rows.last().unwrap().clone());
    }
    assert_ne!(totals[0], totals[1]);
    assert!(totals.contains(&default), "{default} {totals:?}");
    e.send("setoption name EvalFile value builtin:no-such-set");
    let out = e.sync();
    assert_eq!(errors(&out).len(), 1, "{out:?}");
    assert!(
        out[0].contains("armenian-learned")
            && out[0].contains("turkish-hand")
            && out[0].contains("the weights in use are kept"),
        "{out:?}"
    );
    assert_eq!(eval_total(&mut e), totals[1]);
    e.send("setoption name Variant value turkish");
    e.send("position startpos");
    assert_eq!(eval_total(&mut e), turkish);
    e.send("setoption name EvalFile value <builtin>");
    e.send("setoption name Variant value armenian");
    e.send("position fen W:Wa3,c4,d2,Kf5:Bb6,e6,g7,h5");
    assert_eq!(eval_total(&mut e), default);
}

#[test]
fn eval_file_loads_a_set_and_a_bad_file_changes_nothing() {
    use tama_engine::eval::{file, VariantWeights};
    use tama_engine::Variant;
    let dir = std::env::temp_dir().join(format!("tama-uci-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The built-in set with a tempo term of 50 centi-men: the start
    // position (balanced but for the side to move) scores 50.
    let mut set = VariantWeights::hand_set(Variant::Armenian);
    let tempo = tama_engine::eval::hand::term_index("tempo").unwrap();
    set.hand[tempo] = 50 * tama_engine::eval::hand::ONE;
    let good = dir.join("tempo50.tew");
    std::fs::write(&good, file::encode(&set)).unwrap();
    let bytes = file::encode(&set);
    let damaged = dir.join("damaged.tew");
    std::fs::write(&damaged, &bytes[..bytes.len() - 1]).unwrap();

    let mut e = uci();
    let builtin = eval_total(&mut e);
    let builtin_score = search_score(&mut e);
    assert!(!builtin.ends_with("side to move 50"), "{builtin}");
    e.send(&format!("setoption name EvalFile value {}", good.display()));
    let out = e.sync();
    assert!(
        out == [format!(
            "info string EvalFile: armenian hand weights loaded from {}",
            good.display()
        )],
        "{out:?}"
    );
    let loaded = eval_total(&mut e);
    // The search uses it too (three plies on, the tempo of the side to
    // move counts against the root side: 50 instead of the built-in 8).
    e.send("ucinewgame");
    assert_ne!(
        search_score(&mut e),
        builtin_score,
        "the search ignored EvalFile"
    );
    assert!(loaded.ends_with("side to move 50"), "{loaded}");
    for bad in [
        damaged.display().to_string(),
        dir.join("missing.tew").display().to_string(),
        "Cargo.toml".to_string(),
    ] {
        e.send(&format!("setoption name EvalFile value {bad}"));
        let out = e.sync();
        assert_eq!(errors(&out).len(), 1, "{bad}: {out:?}");
        assert_eq!(out.len(), 1, "{bad}: {out:?}");
        assert_eq!(eval_total(&mut e), loaded, "{bad} changed the weights");
    }
    e.send("setoption name EvalFile value <builtin>");
    assert!(e.sync().is_empty());
    assert_eq!(eval_total(&mut e), builtin);
    e.send("ucinewgame");
    assert_eq!(search_score(&mut e), builtin_score);
    let _ = std::fs::remove_dir_all(&dir);
}
