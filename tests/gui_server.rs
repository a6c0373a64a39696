//! `tama gui`'s server over plain HTTP: the page and its files are served,
//! the relay carries a real engine session (`uci`, `isready`, `go`), a
//! request from another origin or host is refused with 403 and starts
//! nothing, and only loopback is listened on.

mod gui_support;

use gui_support::{get, request, Session};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use tama::gui;

struct Running {
    addr: SocketAddr,
    relay: Arc<gui::Relay>,
}

fn start() -> Running {
    let server = gui::Server::bind(0, PathBuf::from(env!("CARGO_BIN_EXE_tama"))).expect("bind");
    let addr = server.addr();
    let relay = server.relay();
    std::thread::spawn(move || server.serve());
    Running { addr, relay }
}

#[test]
fn the_page_and_its_files_are_served_from_the_binary() {
    let s = start();
    let page = get(s.addr, "/", &[]);
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("Content-Type"),
        Some("text/html; charset=utf-8")
    );
    assert!(
        page.text().contains("<title>Tama</title>"),
        "{}",
        page.text()
    );
    // No network: the page names only its own files.
    assert!(!page.text().contains("http://") && !page.text().contains("https://"));
    let csp = page.header("Content-Security-Policy").expect("a CSP");
    assert!(csp.contains("default-src 'self'"), "{csp}");
    assert_eq!(page.header("X-Frame-Options"), Some("DENY"));

    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/gui/assets/");
    for (path, file, ty) in [
        ("/style.css", "style.css", "text/css"),
        ("/app.js", "app.js", "text/javascript"),
        ("/board.js", "board.js", "text/javascript"),
        ("/engine.js", "engine.js", "text/javascript"),
        ("/favicon.svg", "favicon.svg", "image/svg+xml"),
        ("/index.html", "index.html", "text/html"),
    ] {
        let r = get(s.addr, path, &[]);
        assert_eq!(r.status, 200, "{path}");
        assert!(r.header("Content-Type").unwrap().starts_with(ty), "{path}");
        assert_eq!(
            r.body,
            std::fs::read(format!("{dir}{file}")).unwrap(),
            "{path}"
        );
    }
    // Every script the page loads is served.
    for asset in ["/app.js", "/board.js", "/engine.js"] {
        let js = get(s.addr, asset, &[]).text();
        for import in js.lines().filter(|l| l.starts_with("import ")) {
            let file = import.split('"').nth(1).expect("import path");
            let r = get(s.addr, file.trim_start_matches('.'), &[]);
            assert_eq!(r.status, 200, "{asset} imports {file}");
        }
    }
    assert_eq!(get(s.addr, "/nothing-here", &[]).status, 404);
    assert_eq!(get(s.addr, "/../Cargo.toml", &[]).status, 404);
    assert_eq!(request(s.addr, "DELETE", "/", &[], b"").status, 405);
    assert_eq!(s.relay.sessions_started(), 0);
}

#[test]
fn the_relay_carries_a_real_engine_session() {
    let s = start();
    let mut session = Session::open(s.addr);
    assert_eq!(session.send("uci"), 204);
    let hello = session.until(|l| l == "uciok");
    assert!(hello[0].starts_with("id name Tama "), "{hello:?}");
    assert!(hello
        .iter()
        .any(|l| l.starts_with("option name Variant type combo")));
    assert_eq!(session.send("isready"), 204);
    assert_eq!(session.until(|l| l == "readyok"), ["readyok"]);
    // Several lines in one post, in order.
    assert_eq!(
        session.send("position startpos moves d3-d4 e6-e5\ngo depth 3"),
        204
    );
    let search = session.until(|l| l.starts_with("bestmove "));
    assert!(
        search.iter().any(|l| l.starts_with("info depth 3 ")),
        "{search:?}"
    );
    // The engine's own errors come back as its lines.
    assert_eq!(session.send("position startpos moves d3-d5"), 204);
    let err = session.until(|l| l.starts_with("info string error"));
    assert!(err[0].contains("d3-d5"), "{err:?}");
    assert_eq!(s.relay.sessions_started(), 1);
    assert_eq!(s.relay.sessions_open(), 1);

    // A second page gets its own engine.
    let mut other = Session::open(s.addr);
    assert_ne!(other.token, session.token);
    assert_eq!(other.send("isready"), 204);
    assert_eq!(other.until(|l| l == "readyok"), ["readyok"]);
    assert_eq!(s.relay.sessions_open(), 2);

    // `quit` ends the engine: the stream says so and closes; the session is gone.
    assert_eq!(session.send("quit"), 204);
    assert_eq!(session.line(), None);
    assert!(session.ended, "an end event");
    assert_eq!(session.send("isready"), 404);
    // A page that goes away ends its engine.
    drop(other);
    // A hang guard, not a speed claim: only an engine left running for good
    // outlives it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while s.relay.sessions_open() > 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the engine outlived its page"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn another_origin_or_host_is_refused_and_starts_nothing() {
    let s = start();
    let own = format!("http://{}", s.addr);
    let port = s.addr.port();
    let localhost = format!("localhost:{port}");
    let localhost_origin = format!("http://localhost:{port}");
    let other_port = format!("http://127.0.0.1:{}", port.wrapping_add(1));
    // The page's own origin, under either name, is served.
    assert_eq!(get(s.addr, "/", &[("Origin", &own)]).status, 200);
    assert_eq!(
        get(
            s.addr,
            "/",
            &[("Host", &localhost), ("Origin", &localhost_origin)]
        )
        .status,
        200
    );
    for origin in [
        "http://evil.example",
        "null",
        other_port.as_str(),
        "https://127.0.0.1",
    ] {
        for (method, path) in [
            ("GET", "/"),
            ("GET", "/app.js"),
            ("GET", "/engine/events"),
            ("POST", "/engine/send?session=0"),
            ("POST", "/pdn/read"),
        ] {
            let r = request(s.addr, method, path, &[("Origin", origin)], b"uci\n");
            assert_eq!(r.status, 403, "{method} {path} from {origin}");
            assert!(r.text().contains("refused"), "{}", r.text());
        }
    }
    // DNS rebinding: another name for 127.0.0.1 is not this server.
    let r = get(s.addr, "/engine/events", &[("Host", "evil.example")]);
    assert_eq!(r.status, 403);
    // A real session cannot be driven from another origin either.
    let mut session = Session::open(s.addr);
    assert_eq!(
        session.send_with("go depth 5", &[("Origin", "http://evil.example")]),
        403
    );
    assert_eq!(session.send("isready"), 204);
    let lines = session.until(|l| l == "readyok");
    assert_eq!(lines, ["readyok"], "the refused `go` reached the engine");
    assert_eq!(s.relay.sessions_started(), 1, "only the page's own session");
}

#[test]
fn pdn_is_read_and_written_over_http() {
    let s = start();
    let pdn = b"[White \"A\"]\n[Variant \"turkish\"]\n\n1. d3-d4 d6-d5 2. d4xd6xd8 *\n";
    let r = request(s.addr, "POST", "/pdn/read", &[], pdn);
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.header("Content-Type"), Some("application/json"));
    let game: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(
        game["moves"],
        serde_json::json!(["d3-d4", "d6-d5", "d4xd6xd8"])
    );
    assert_eq!(game["rules"]["Variant"], "turkish");
    assert_eq!(game["white"], "A");

    let w = request(
        s.addr,
        "POST",
        "/pdn/write",
        &[],
        game.to_string().as_bytes(),
    );
    assert_eq!(w.status, 200, "{}", w.text());
    assert!(
        w.text().contains("1. d3-d4 d6-d5 2. d4xd6xd8 *"),
        "{}",
        w.text()
    );

    let bad = request(s.addr, "POST", "/pdn/read", &[], b"1. d3-d6 *");
    assert_eq!(bad.status, 422);
    assert!(bad.text().contains("d3-d6"), "{}", bad.text());
    assert_eq!(request(s.addr, "GET", "/pdn/read", &[], b"").status, 404);
}

/// The page takes the rule options' names from the server, which takes
/// them from the engine: the names are the engine's UCI option names (the
/// ones `uci` lists), each with the board's label, and the keys of a read
/// game's rules are the same names.
#[test]
fn the_rule_options_are_the_engines_names() {
    let s = start();
    let r = get(s.addr, "/rules", &[]);
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.header("Content-Type"), Some("application/json"));
    let rules: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
    let names: Vec<&str> = rules
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    let engine: Vec<&str> = tama_engine::Rules::default()
        .options()
        .iter()
        .map(|(o, _)| o.uci)
        .collect();
    assert_eq!(names, engine);
    assert!(rules
        .as_array()
        .unwrap()
        .iter()
        .all(|o| !o["label"].as_str().unwrap().is_empty()));
    let pdn = b"[Variant \"turkish\"]\n\n1. d3-d4 *\n";
    let game: serde_json::Value =
        serde_json::from_slice(&request(s.addr, "POST", "/pdn/read", &[], pdn).body).unwrap();
    let mut keys: Vec<&str> = game["rules"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut sorted = engine.clone();
    keys.sort_unstable();
    sorted.sort_unstable();
    assert_eq!(keys, sorted);
}

#[test]
fn bad_requests_get_clear_errors() {
    let s = start();
    let r = request(s.addr, "POST", "/engine/send?session=feed", &[], b"uci\n");
    assert_eq!(r.status, 404);
    assert!(r.text().contains("no such engine session"), "{}", r.text());
    let r = request(s.addr, "POST", "/engine/send", &[], b"uci\n");
    assert_eq!(r.status, 400);
    let big = vec![b'x'; 5 * 1024 * 1024];
    let r = request(s.addr, "POST", "/engine/send?session=feed", &[], &big);
    assert_eq!(r.status, 413);
    let r = get(s.addr, "/", &[("Host", "")]);
    assert_eq!(r.status, 403);
    // Not HTTP at all.
    use std::io::{Read, Write};
    let mut raw = std::net::TcpStream::connect(s.addr).unwrap();
    raw.write_all(b"\x16\x03\x01 hello\r\n\r\n").unwrap();
    let mut answer = String::new();
    raw.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 400 "), "{answer}");
}

/// The listening socket is bound to 127.0.0.1 and nothing else (read from
/// the kernel's socket table), so no other machine can reach the engine.
#[cfg(target_os = "linux")]
#[test]
fn only_loopback_is_listened_on() {
    let s = start();
    let port = format!("{:04X}", s.addr.port());
    let mut listening = Vec::new();
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let Ok(text) = std::fs::read_to_string(table) else {
            continue;
        };
        for line in text.lines().skip(1) {
            let f: Vec<&str> = line.split_whitespace().collect();
            // local_address is "ADDR:PORT" in hex; state 0A is LISTEN.
            let (local, state) = (f[1], f[3]);
            if state == "0A" && local.ends_with(&format!(":{port}")) {
                listening.push(format!("{table} {local}"));
            }
        }
    }
    assert_eq!(
        listening,
        [format!("/proc/net/tcp 0100007F:{port}")],
        "listening sockets on the port"
    );
    assert!(s.addr.ip().is_loopback());
}

/// A `tama gui` process, ended when the test ends (also on failure).
struct GuiProcess(std::process::Child);

impl Drop for GuiProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `tama gui --no-open --port 0` from the command line: it prints the
/// address, and the page and a real engine session are served there.
#[test]
fn the_gui_subcommand_serves_the_board_at_the_address_it_prints() {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let child = Command::new(env!("CARGO_BIN_EXE_tama"))
        .args(["gui", "--no-open", "--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start tama gui");
    let mut gui = GuiProcess(child);
    let mut first = String::new();
    std::io::BufReader::new(gui.0.stdout.take().unwrap())
        .read_line(&mut first)
        .expect("the address line");
    let url = first
        .strip_prefix("Tama's board: http://")
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {first:?}"));
    let addr: SocketAddr = url.parse().expect("an address");
    assert!(addr.ip().is_loopback() && addr.port() != 0, "{addr}");
    let page = get(addr, "/", &[]);
    assert_eq!(page.status, 200);
    assert!(page.text().contains("<title>"), "{}", page.text());
    let mut session = Session::open(addr);
    assert_eq!(session.send("uci\nlegalmoves\n"), 204);
    let lines = session.until(|l| l.starts_with("legalmoves "));
    assert!(lines.contains(&"legalmove d3-d4".to_string()), "{lines:?}");
    assert!(lines
        .last()
        .unwrap()
        .starts_with("legalmoves 22 state ongoing fen W:"));
}

/// A port already in use, or a bad one, is refused with one line on stderr
/// and status 2, and nothing is served.
#[test]
fn a_taken_or_bad_port_is_one_error_line() {
    use std::process::{Command, Stdio};
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    for (args, expected) in [
        (
            vec!["gui", "--no-open", "--port", port.as_str()],
            format!("error: port {port} on 127.0.0.1 is taken by another program; choose another with --port N (0: any free port)"),
        ),
        (
            vec!["gui", "--no-open", "--port", "70000"],
            "error: invalid value '70000' for '--port <N>'".to_string(),
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tama"))
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .expect("run tama gui");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        assert!(err.starts_with(&expected), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing served");
    }
}

/// The board's Review over HTTP: a game with a planted blunder (d4-d5 walks
/// into the shot d6xd4xd2, two men for nothing) is reviewed in the
/// background and marked `??`; what the review cannot take is refused with
/// the reason before anything starts; the tables' probe answers the exact
/// result, or why it cannot.
#[test]
fn a_game_is_reviewed_over_http_and_bad_requests_are_refused() {
    let s = start();
    let rules = serde_json::json!({"Variant": "armenian", "CaptureRemoval": "immediate", "MidCapturePromotion": "false"});
    let game = serde_json::json!({
        "rules": rules, "fen": "W:Wh2,d3,d4:Ba7,b7,d6", "moves": ["d4-d5", "d6xd4xd2"],
        "white": "W", "black": "B", "result": "*", "movetime": 200, "egtb": "",
    });
    let r = request(
        s.addr,
        "POST",
        "/review/start",
        &[],
        game.to_string().as_bytes(),
    );
    assert_eq!(r.status, 200, "{}", r.text());
    let id = serde_json::from_slice::<serde_json::Value>(&r.body).unwrap()["id"].clone();
    let status = loop {
        let r = get(s.addr, &format!("/review/status?id={id}"), &[]);
        assert_eq!(r.status, 200, "{}", r.text());
        let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        if v["finished"] == true {
            break v;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    let review = &status["review"];
    assert_eq!(review["moves"][0]["nag"], "??", "{status}");
    let refutation = review["moves"][0]["refutation"].as_str().unwrap();
    assert!(refutation.starts_with("1... d6xd4xd2"), "{status}");
    assert_eq!(review["summary"][0]["blunders"], 1, "{status}");
    assert!(
        review["pdn"].as_str().unwrap().contains("1. d4-d5?? {"),
        "{status}"
    );
    // A finished review is forgotten once reported.
    assert_eq!(
        get(s.addr, &format!("/review/status?id={id}"), &[]).status,
        404
    );

    let refused = |body: serde_json::Value, why: &str| {
        let r = request(
            s.addr,
            "POST",
            "/review/start",
            &[],
            body.to_string().as_bytes(),
        );
        assert_eq!(r.status, 422, "{body}: {}", r.text());
        assert!(r.text().contains(why), "{body}: {}", r.text());
    };
    let mut bad = game.clone();
    bad["moves"] = serde_json::json!(["d4-d6"]);
    refused(bad, "ply 1: d4-d6");
    let mut bad = game.clone();
    bad["movetime"] = serde_json::json!(5);
    refused(bad, "movetime 5 is not 100 to 10000 ms");
    let mut bad = game.clone();
    bad["egtb"] = serde_json::json!("/nonexistent/tables");
    refused(bad, "no such directory \"/nonexistent/tables\"");
    let mut bad = game.clone();
    bad["moves"] = serde_json::json!([]);
    refused(bad, "no moves to review");
    assert_eq!(
        request(s.addr, "POST", "/review/stop?id=999", &[], b"").status,
        404
    );

    let probe =
        serde_json::json!({"rules": rules, "fen": "W:WKh8:BKa1", "egtb": "/nonexistent/tables"});
    let r = request(
        s.addr,
        "POST",
        "/tables/probe",
        &[],
        probe.to_string().as_bytes(),
    );
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("no such directory"), "{}", r.text());
    let r = get(s.addr, "/config", &[]);
    assert_eq!(r.text(), "{\"egtb\":\"\"}");
}
