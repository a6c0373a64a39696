//! The `DebugLogFile` option: the session written to a file, in order.

use crate::protocol_support::{
    assert_logged, got, now_ms, read_debug_log, scratch_dir, sent, uci, Engine,
};

#[test]
fn debug_log_file_records_a_session_in_order_and_a_second_one_appends() {
    let dir = scratch_dir("tama-uci", "log");
    let path = dir.join("engine.log");
    let set = format!("setoption name Debug Log File value {}", path.display());

    let from = now_ms();
    let mut e = Engine::start();
    e.send(&set);
    e.send("uci");
    let intro = e.until("uciok");
    assert!(
        intro.contains(&"option name Debug Log File type string default <empty>".to_string()),
        "{intro:?}"
    );
    e.send("isready");
    e.until("readyok");
    e.send("position startpos moves d3-d4");
    e.send("go depth 3");
    let search = e.until("bestmove");
    let (_, status) = e.quit();
    assert!(status.success());
    let to = now_ms();

    let mut expected = vec![got("uci")];
    expected.extend(sent(&intro));
    expected.extend([
        got("isready"),
        ("<<", "readyok".to_string()),
        got("position startpos moves d3-d4"),
        got("go depth 3"),
    ]);
    expected.extend(sent(&search));
    expected.push(got("quit"));
    assert!(search.len() >= 4, "{search:?}");
    let first = read_debug_log(&path);
    assert_logged(&first, &expected, from, to);

    // A second engine appends to the file.
    let mut e = Engine::start();
    e.send(&set);
    e.send("isready");
    e.until("readyok");
    let (_, status) = e.quit();
    assert!(status.success());
    let both = read_debug_log(&path);
    assert_eq!(
        both[..first.len()],
        first[..],
        "the first session's lines changed"
    );
    assert_logged(
        &both[first.len()..],
        &[got("isready"), ("<<", "readyok".to_string()), got("quit")],
        from,
        now_ms(),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn debug_log_file_moves_to_another_file_and_an_empty_value_closes_it() {
    let dir = scratch_dir("tama-uci", "log-switch");
    let (a, b) = (dir.join("a.log"), dir.join("b.log"));
    let from = now_ms();
    let mut e = uci();
    let to_a = format!("setoption name Debug Log File value {}", a.display());
    let to_b = format!("setoption name Debug Log File value {}", b.display());
    e.send(&to_a);
    assert!(e.sync().is_empty());
    e.send(&to_b);
    assert!(e.sync().is_empty());
    for off in [
        "setoption name Debug Log File value",
        "setoption name Debug Log File value <empty>",
        "setoption name debug-log-file",
    ] {
        e.send(off);
        assert!(e.sync().is_empty(), "{off}");
        e.send("d");
        let text = e.until("Game state:");
        assert!(
            text.contains(&"Option Debug Log File: ".to_string()),
            "{off}: {text:?}"
        );
        e.send(&to_b);
        assert!(e.sync().is_empty());
    }
    e.send("setoption name Debug Log File value <empty>");
    e.send("d");
    e.until("Game state:");
    let to = now_ms();
    assert_logged(
        &read_debug_log(&a),
        &[got("isready"), ("<<", "readyok".to_string()), got(&to_b)],
        from,
        to,
    );
    // b.log: opened four times, each time logging up to the line that
    // closed it.
    let log = read_debug_log(&b);
    let starts: Vec<usize> = (0..log.len()).filter(|&i| log[i].dir == "--").collect();
    assert_eq!(starts.len(), 4, "{log:#?}");
    let closing = [
        "setoption name Debug Log File value",
        "setoption name Debug Log File value <empty>",
        "setoption name debug-log-file",
        "setoption name Debug Log File value <empty>",
    ];
    for (k, off) in closing.iter().enumerate() {
        let end = starts.get(k + 1).copied().unwrap_or(log.len());
        let want = [got("isready"), ("<<", "readyok".to_string()), got(off)];
        assert_logged(&log[starts[k]..end], &want, from, to);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unopenable_debug_log_file_is_an_error_and_the_engine_goes_on() {
    let dir = scratch_dir("tama-uci", "log-bad");
    let file = dir.join("plain-file");
    std::fs::write(&file, "not a directory").unwrap();
    let mut bad = vec![
        dir.join("missing").join("x.log"), // no such directory
        dir.clone(),                       // a directory
        file.join("x.log"),                // under a file
    ];
    if cfg!(target_os = "linux") {
        bad.push("/dev/full".into()); // opens, but nothing can be written
    }
    let mut e = uci();
    for path in &bad {
        e.send(&format!(
            "setoption name Debug Log File value {}",
            path.display()
        ));
        let out = e.sync();
        let want = format!(
            "info string error: Debug Log File {}: cannot append to it: ",
            path.display()
        );
        assert!(
            out.len() == 1 && out[0].starts_with(&want) && out[0].ends_with("; logging is off"),
            "{}: {out:?}",
            path.display()
        );
    }
    e.send("d");
    let text = e.until("Game state:");
    assert!(
        text.contains(&"Option Debug Log File: ".to_string()),
        "{text:?}"
    );
    e.send("go depth 3");
    e.until("bestmove");

    // With a log open, a bad file keeps it.
    let good = dir.join("good.log");
    e.send(&format!(
        "setoption name Debug Log File value {}",
        good.display()
    ));
    assert!(e.sync().is_empty());
    e.send(&format!(
        "setoption name Debug Log File value {}",
        bad[0].display()
    ));
    let out = e.sync();
    assert!(
        out.len() == 1 && out[0].ends_with(&format!("; still logging to {}", good.display())),
        "{out:?}"
    );
    e.send("go depth 2");
    let search = e.until("bestmove");
    let (_, status) = e.quit();
    assert!(status.success());
    let log = read_debug_log(&good);
    let texts: Vec<&str> = log.iter().map(|l| l.text.as_str()).collect();
    assert!(texts.contains(&out[0].as_str()), "{texts:#?}");
    assert!(
        texts.contains(&search.last().unwrap().as_str()),
        "{texts:#?}"
    );
    assert!(!bad[0].exists() && !bad[2].exists());
    let _ = std::fs::remove_dir_all(&dir);
}
