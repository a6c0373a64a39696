//! `tama gui` in a real browser: Debian's chromium, headless, driven through
//! chromedriver by a small WebDriver client (tests/gui_support/webdriver.rs).
//! Every move here is made by clicking (or dragging) squares on the page;
//! the page talks to a real engine over the protocol.
//!
//! Not in the plain `cargo test` run (a fresh machine has no browser):
//! `.ci/run` installs chromium and chromium-driver and runs
//!     cargo test --release --test gui_browser -- --ignored --test-threads=1
//! and a browser that cannot be started fails these tests, never skips them.
//! Screenshots go to target/gui-screenshots/.

mod gui_support;

use gui_support::page::{open, strings};
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::TcpListener;

#[test]
#[ignore = "needs chromium and chromedriver; run by .ci/run"]
fn a_complete_game_against_tama_through_the_page() {
    let page = open(1280, 900);
    page.shot("gui-start.png");
    page.browser.select("#level", "depth 1");
    page.wait("a new game", |s| s["moves"].as_array().unwrap().is_empty());

    // The first move by dragging the piece, every later one by clicks.
    page.browser
        .drag("#board [data-square='d3']", "#board [data-square='d4']");
    page.wait("the dragged move and Tama's answer", |s| {
        s["moves"].as_array().unwrap().len() == 2
    });
    assert_eq!(page.moves()[0], "d3-d4");

    let mut midgame_shot = false;
    for _ in 0..200 {
        let s = page.wait("the person's turn or the end", |s| {
            s["thinking"] == false
                && (s["over"] != Value::Null || s["fen"].as_str().unwrap().starts_with('W'))
        });
        if s["over"] != Value::Null {
            break;
        }
        // The person (White) plays the first legal route, landing by landing.
        let route = &s["legal"][0];
        let before = s["moves"].as_array().unwrap().len();
        page.click_square(route["from"].as_str().unwrap());
        for sq in route["landings"].as_array().unwrap() {
            page.click_square(sq.as_str().unwrap());
        }
        let s = page.wait("the move to be played", |s| {
            s["moves"].as_array().unwrap().len() > before
        });
        assert_eq!(s["moves"][before], route["text"], "{s}");
        let last_was_capture = !route["captures"].as_array().unwrap().is_empty();
        if !midgame_shot && before >= 6 && last_was_capture {
            // Marks: the capture path, the taken pieces, Tama's reply marked
            // after it arrives; a piece selected with its destinations.
            let s = page.wait("Tama's reply", |s| {
                s["thinking"] == false
                    && (s["over"] != Value::Null || s["fen"].as_str().unwrap().starts_with('W'))
            });
            if s["over"] == Value::Null {
                if let Some(from) = s["legal"][0]["from"].as_str() {
                    page.click_square(from);
                }
            }
            page.shot("gui-midgame.png");
            page.browser.script(
                "document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'}));",
                json!([]),
            );
            midgame_shot = true;
        }
    }
    let s = page.state();
    let over = &s["over"];
    assert!(over.is_object(), "the game ended within 400 plies: {s}");
    let result = over["result"].as_str().unwrap();
    assert!(["2-0", "0-2", "1-1"].contains(&result), "{s}");
    let result_text = page.browser.script(
        "return document.getElementById('result').textContent;",
        json!([]),
    );
    assert!(
        result_text.as_str().unwrap().starts_with(result),
        "{result_text}"
    );
    eprintln!(
        "game over after {} plies: {} ({})",
        s["moves"].as_array().unwrap().len(),
        result,
        over["reason"]
    );
    page.shot("gui-game-over.png");
    assert!(midgame_shot || s["moves"].as_array().unwrap().len() < 12);

    // Take back returns to the person's turn before the last move.
    let n = s["moves"].as_array().unwrap().len();
    page.browser.click("#takeback");
    let s = page.wait("the take-back", |s| {
        s["moves"].as_array().unwrap().len() < n
    });
    assert!(s["over"].is_null(), "{s}");
    assert!(s["fen"].as_str().unwrap().starts_with('W'), "{s}");

    // Playing Black on a clock: Tama (White) moves first, the clocks run.
    page.browser.select("#level", "clock 60000 1000");
    page.browser.select("#human", "black");
    let s = page.wait("Tama's first move as White", |s| {
        s["moves"].as_array().unwrap().len() == 1 && s["thinking"] == false
    });
    assert!(s["fen"].as_str().unwrap().starts_with('B'), "{s}");
    let clock = page.browser.script(
        "return document.getElementById('clock-bottom').textContent;",
        json!([]),
    );
    assert!(
        clock.as_str().unwrap().starts_with("Black 0:")
            || clock.as_str().unwrap().starts_with("Black 1:"),
        "{clock}"
    );
    // One engine for the page, all along.
    assert_eq!(page.relay.sessions_started(), 1);
    page.healthy();
}

#[test]
#[ignore = "needs chromium and chromedriver; run by .ci/run"]
fn the_board_plays_by_level_chosen_by_name() {
    let page = open(1280, 900);
    for (name, level) in [("Beginner", 0), ("Master", 8), ("Full strength", 9)] {
        // The level is found by the name the person reads.
        let value = page.browser.script(
            "return [...document.querySelectorAll('#level option')]\
               .find((o) => o.textContent === arguments[0]).value;",
            json!([name]),
        );
        let value = value.as_str().expect("a level of that name").to_string();
        page.browser.select("#level", &value);
        page.wait("a new game", |s| s["moves"].as_array().unwrap().is_empty());
        page.click_square("d3");
        page.click_square("d4");
        let s = page.wait("Tama's answer", |s| {
            s["moves"].as_array().unwrap().len() == 2 && s["thinking"] == false
        });
        assert_eq!(s["moves"][0], "d3-d4", "{s}");
        let log = page.log();
        // The last level sent before the last search is this one.
        let sent: Vec<&str> = log.lines().collect();
        let skill = format!("> setoption name Skill Level value {level}");
        let at = sent
            .iter()
            .rposition(|l| l.starts_with("> setoption name Skill Level"));
        assert!(
            at.is_some_and(|i| sent[i] == skill),
            "{name}: {skill}\n{log}"
        );
        let go = sent.iter().rposition(|l| *l == "> go movetime 1000");
        assert!(at.is_some() && go > at, "{name}: {skill} then go:\n{log}");
        // Playing, a draw carries the engine's contempt: analysis mode off.
        let mode = sent
            .iter()
            .rposition(|l| l.starts_with("> setoption name UCI_AnalyseMode"));
        assert!(
            mode.is_some_and(|i| sent[i] == "> setoption name UCI_AnalyseMode value false")
                && go > mode,
            "{name}: analysis mode off before the move:\n{log}"
        );
        page.healthy();
    }
}

#[test]
#[ignore = "needs chromium and chromedriver; run by .ci/run"]
fn captures_are_entered_by_their_landing_squares() {
    let page = open(1280, 900);
    page.browser.click("#mode-analyse");
    page.wait("analysis mode", |s| s["mode"] == "analyse");

    // A man's double capture: d4 takes d5 landing on d6, then e6 landing on
    // f6 (men capture forward and sideways, one square beyond); a7 is too
    // far to matter. The only legal move is d4xd6xf6.
    page.set_fen("W:Wd4:Bd5,e6,a7");
    page.click_square("d4");
    page.click_square("d6");
    // Half-way: nothing has been played or sent; the page asks for more.
    assert!(page.moves().is_empty());
    assert!(page.message().contains("f6"), "{}", page.message());
    page.click_square("f6");
    let s = page.wait("the capture", |s| s["moves"].as_array().unwrap().len() == 1);
    assert_eq!(page.moves(), ["d4xd6xf6"]);
    assert_eq!(s["fen"], "B:Wf6:Ba7");

    // A flying king with two different triple captures from h5 to h2:
    // west over g5 to c5, south over c3 to c2, east over g2 to h2; or west
    // over g5 to f5, south over f3 to f2, east over g2 to h2. Entering the
    // landing squares picks one...
    let fen = "W:WKh5:Bg2,c3,f3,a5,g5,a6";
    page.set_fen(fen);
    for sq in ["h5", "c5", "c2", "h2"] {
        page.click_square(sq);
    }
    let s = page.wait("the king's capture", |s| {
        s["moves"].as_array().unwrap().len() == 1
    });
    assert_eq!(page.moves(), ["h5xc5xc2xh2"]);
    assert_eq!(s["fen"], "B:WKh2:Bf3,a5,a6");
    page.shot("gui-capture.png");

    // ... while only the start and the end square is ambiguous: the page
    // asks which, showing both, and plays the one chosen.
    page.set_fen(fen);
    page.click_square("h5");
    page.click_square("h2");
    let choices = page.browser.script(
        "return [...document.querySelectorAll('#choice:not([hidden]) .choice')].map(b => b.dataset.route);",
        json!([]),
    );
    let mut choices = strings(&choices);
    choices.sort();
    assert_eq!(choices, ["h5xc5xc2xh2", "h5xf5xf2xh2"]);
    assert!(page.moves().is_empty(), "nothing played before the choice");
    page.shot("gui-ambiguous.png");
    page.browser
        .click("#choice .choice[data-route='h5xf5xf2xh2']");
    let s = page.wait("the chosen capture", |s| {
        s["moves"].as_array().unwrap().len() == 1
    });
    assert_eq!(page.moves(), ["h5xf5xf2xh2"]);
    assert_eq!(s["fen"], "B:WKh2:Bc3,a5,a6");
    page.healthy();
}

#[test]
#[ignore = "needs chromium and chromedriver; run by .ci/run"]
fn illegal_clicks_are_refused_with_the_reason_and_never_sent() {
    // The person plays White: Tama waits for the first move.
    let page = open(1280, 900);
    let sent_before = page.state()["sent"].as_u64().unwrap();

    page.click_square("e5");
    assert_eq!(page.message(), "No piece on e5. White to move.");
    page.click_square("d6");
    assert_eq!(
        page.message(),
        "The piece on d6 is black, and white is to move."
    );
    page.click_square("d2");
    assert_eq!(page.message(), "The piece on d2 has no legal move.");
    page.click_square("d3");
    page.click_square("d5");
    let m = page.message();
    assert!(
        m.starts_with("d3 cannot go on to d5. Legal: d3-d4, d3-e4, d3-c4"),
        "{m}"
    );
    assert!(page.moves().is_empty());
    assert_eq!(page.state()["sent"], sent_before, "{}", page.log());

    // Capture is compulsory: a man that cannot take may not move.
    page.set_fen("W:Wh2,d4:Bd5,a7");
    let sent_before = page.state()["sent"].as_u64().unwrap();
    page.click_square("h2");
    let m = page.message();
    assert!(m.starts_with("Capture is compulsory"), "{m}");
    assert!(m.contains("d4"), "{m}");
    page.shot("gui-refused.png");
    // None of it reached the engine.
    let log = page.log();
    let sent_after = page.state()["sent"].as_u64().unwrap();
    assert_eq!(sent_after, sent_before, "{log}");
    assert!(!log.contains("d3-d5") && !log.contains("h2-h3"), "{log}");
    assert!(page.moves().is_empty());
    page.healthy();
}

#[test]
#[ignore = "needs chromium and chromedriver; run by .ci/run"]
fn a_position_set_up_gets_analysis_lines() {
    let page = open(1280, 900);
    page.browser.click("#mode-analyse");
    page.wait("analysis mode", |s| s["mode"] == "analyse");
    page.browser.select("#multipv", "3");

    // A bad FEN is refused with the engine's reason; the game stays.
    page.browser.clear_and_type("#fen", "W:Wa8:Bb2");
    page.browser.click("#fen-load");
    page.browser.wait_for(
        30,
        "the refusal",
        |_| page.message().starts_with("FEN refused: ").then_some(()),
        |_| page.message(),
    );
    assert!(page.state()["fen"]
        .as_str()
        .unwrap()
        .starts_with("W:Wa2,b2,c2"));

    // Set up on the board: empty it, place pieces from the palette.
    page.browser.click("#mode-setup");
    page.wait("set-up mode", |s| s["mode"] == "setup");
    page.browser.click("#setup-clear");
    page.browser.click("#palette [data-piece='white-king']");
    page.click_square("d1");
    page.browser.click("#palette [data-piece='white-man']");
    for sq in ["a2", "b3", "f4"] {
        page.click_square(sq);
    }
    page.browser.click("#palette [data-piece='black-man']");
    for sq in ["c6", "e6", "g7", "h7"] {
        page.click_square(sq);
    }
    page.click_square("g7"); // a second click takes it off again
    page.shot("gui-setup.png");
    // From here on, every frame in analysis mode records where "Set this
    // FEN" is, from the empty analysis view on: lines arrive many times a
    // second, and a control that moved under the pointer made a click miss
    // it (a CI failure under load).
    page.browser.script(
        "window.fenLoadTops = new Set(); \
         const f = () => { \
           if (document.body.dataset.mode === 'analyse') \
             window.fenLoadTops.add(document.getElementById('fen-load').getBoundingClientRect().top + window.scrollY); \
           if (!window.fenLoadTopsDone) requestAnimationFrame(f); \
         }; f(); return null;",
        json!([]),
    );
    page.browser.click("#setup-done");
    let fen = "W:WKd1,a2,b3,f4:Bc6,e6,h7";
    let s = page.wait("the set-up position", |s| {
        s["fen"] == fen && s["mode"] == "analyse"
    });
    assert!(s["moves"].as_array().unwrap().is_empty());
    // Analysis: three lines, deepening, with scores and PVs.
    let s = page.wait("three analysis lines at depth 8 or more", |s| {
        let lines = s["lines"].as_array().unwrap();
        lines.len() == 3 && lines.iter().all(|l| l["depth"].as_u64().unwrap() >= 8)
    });
    let tops = page.browser.script(
        "window.fenLoadTopsDone = true; return [...window.fenLoadTops];",
        json!([]),
    );
    assert_eq!(
        tops.as_array().map(Vec::len),
        Some(1),
        "the controls below the analysis moved while it ran: {tops}"
    );
    // Analysing, a draw is 0 (no contempt): analysis mode on before the
    // search.
    let log = page.log();
    let sent: Vec<&str> = log.lines().collect();
    let mode = sent
        .iter()
        .rposition(|l| l.starts_with("> setoption name UCI_AnalyseMode"));
    let go = sent.iter().rposition(|l| *l == "> go infinite");
    assert!(
        mode.is_some_and(|i| sent[i] == "> setoption name UCI_AnalyseMode value true") && go > mode,
        "analysis mode on before go infinite:\n{log}"
    );
    for (k, line) in s["lines"].as_array().unwrap().iter().enumerate() {
        assert_eq!(line["multipv"], k as u64 + 1);
        assert!(!line["pv"].as_array().unwrap().is_empty());
    }
    let bar = page.browser.script(
        "return document.getElementById('evalbar-text').textContent;",
        json!([]),
    );
    assert!(
        !bar.as_str().unwrap().is_empty(),
        "the evaluation bar shows a score"
    );
    let shown = page.browser.script(
        "return document.querySelectorAll('#lines .line').length;",
        json!([]),
    );
    assert_eq!(shown, 3);
    page.doc_shot("gui-analysis.png");

    // Stepping: play the best line's first move by clicking the line, step
    // back, flip the board.
    page.browser.click("#lines .line");
    page.wait("the move from the line", |s| {
        s["moves"].as_array().unwrap().len() == 1
    });
    page.browser.click("#prev");
    let s = page.wait("one step back", |s| s["ply"] == 0);
    assert_eq!(s["fen"], fen);
    page.browser.click("#flip");
    let first = page.browser.script(
        "return document.querySelector('#board .sq').dataset.square;",
        json!([]),
    );
    assert_eq!(first, "h1", "flipped: h1 in the top left corner");

    // Phone width: the same page, stacked.
    page.browser.set_size(390, 844);
    std::thread::sleep(std::time::Duration::from_millis(300));
    let board_width = page.browser.script(
        "return document.getElementById('board').getBoundingClientRect().width;",
        json!([]),
    );
    assert!(board_width.as_f64().unwrap() <= 390.0, "{board_width}");
    page.browser.click("#flip");
    page.shot("gui-phone.png");
    page.healthy();
}

#[test]
#[ignore = "needs chromium and chromedriver; run by .ci/run"]
fn games_are_saved_and_loaded_as_pdn() {
    let page = open(1280, 900);
    page.browser.click("#mode-analyse");
    page.wait("analysis mode", |s| s["mode"] == "analyse");
    // Both sides by hand in analysis mode, the four presses in one go, as
    // a quick hand makes them: Black's move is entered before the engine
    // has confirmed White's, and must wait for it rather than be refused
    // ("the piece on e6 is black, and white is to move").
    page.browser.script(
        "for (const sq of arguments[0]) \
           document.querySelector(`#board [data-square='${sq}']`) \
             .dispatchEvent(new PointerEvent('pointerdown', { bubbles: true, button: 0 }));",
        json!([["d3", "d4", "e6", "e5"]]),
    );
    page.wait("two moves", |s| s["moves"].as_array().unwrap().len() == 2);
    page.browser.click("#pdn-save");
    let pdn = page.browser.wait_for(
        30,
        "the saved PDN",
        |b| {
            let v = b.script("return document.getElementById('pdn').value;", json!([]));
            let t = v.as_str().unwrap().to_string();
            (!t.is_empty()).then_some(t)
        },
        |_| page.message(),
    );
    assert!(pdn.contains("[Variant \"armenian\"]"), "{pdn}");
    assert!(pdn.contains("\n1. d3-d4 e6-e5 *"), "{pdn}");
    let file = page.browser.downloads().join("tama-game.pdn");
    let saved = page.browser.wait_for(
        30,
        "the downloaded file",
        |_| std::fs::read_to_string(&file).ok(),
        |_| format!("{} missing", file.display()),
    );
    assert_eq!(saved, pdn);

    // A Turkish game loads with its rules: d4 takes d5 and d7 and is
    // crowned on d8 (Turkish men capture forward and sideways).
    let turkish = "[White \"A\"]\n[Black \"B\"]\n[Variant \"turkish\"]\n\n1. d3-d4 d6-d5 2. d4xd6xd8 c7-d7 *\n";
    page.browser.clear_and_type("#pdn", turkish);
    page.browser.click("#pdn-load");
    let s = page.wait("the loaded game", |s| {
        s["moves"].as_array().unwrap().len() == 4
    });
    assert_eq!(page.moves(), ["d3-d4", "d6-d5", "d4xd6xd8", "c7-d7"]);
    assert_eq!(
        s["fen"],
        "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,e3,f3,g3,h3,Kd8:Ba6,b6,c6,e6,f6,g6,h6,a7,b7,d7,e7,f7,g7,h7"
    );
    let variant = page.browser.script(
        "return document.getElementById('rule-Variant').value;",
        json!([]),
    );
    assert_eq!(variant, "turkish");
    // Step to the capture: its path and taken pieces are marked.
    page.browser.click("#movelist [data-ply='3']");
    page.wait("ply 3", |s| s["ply"] == 3);
    let taken = page.browser.script(
        "return [...document.querySelectorAll('#board .sq.taken')].map(e => e.dataset.square).sort();",
        json!([]),
    );
    assert_eq!(taken, json!(["d5", "d7"]));

    // Quick stepping: every step stops the running search and starts the
    // next one; the engine is never left waiting or doubly searching.
    for _ in 0..4 {
        for button in ["#first", "#last", "#prev", "#next", "#prev"] {
            page.browser.click(button);
        }
    }
    page.wait("analysis of ply 3 after quick stepping", |s| {
        s["ply"] == 3 && s["lines"].as_array().is_some_and(|l| !l.is_empty())
    });
    page.healthy();

    // A PDN with an illegal move is refused with the reason; the game stays.
    page.browser
        .clear_and_type("#pdn", "[Variant \"armenian\"]\n1. d3-d6 *");
    page.browser.click("#pdn-load");
    page.browser.wait_for(
        30,
        "the refusal",
        |_| page.message().starts_with("PDN refused: ").then_some(()),
        |_| page.message(),
    );
    assert!(page.message().contains("d3-d6"), "{}", page.message());
    assert_eq!(page.moves().len(), 4);
    page.healthy();
}

/// Another site open in the same browser tries to reach the engine: its
/// requests carry its own Origin and are refused; no engine is started.
#[test]
#[ignore = "needs chromium and chromedriver; run by .ci/run"]
fn another_origin_cannot_reach_the_engine() {
    let page = open(1280, 900);
    let started = page.relay.sessions_started();
    // The other site: any page on another port.
    let other = TcpListener::bind("127.0.0.1:0").unwrap();
    let other_url = format!("http://{}/", other.local_addr().unwrap());
    std::thread::spawn(move || {
        for s in other.incoming() {
            let Ok(mut s) = s else { continue };
            let mut buf = [0u8; 4096];
            let _ = s.read(&mut buf);
            let body = "<!doctype html><title>elsewhere</title><p>another site</p>";
            let _ = write!(
                s,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    page.browser.goto(&other_url);
    let target = page.url.trim_end_matches('/').to_string();
    let outcome = page.browser.script_async(
        r#"
        const [target, done] = arguments;
        const results = {};
        const attempt = async (name, f) => {
          try { const r = await f(); results[name] = "status " + r.status; }
          catch (e) { results[name] = "refused: " + e.name; }
        };
        (async () => {
          await attempt("post", () => fetch(target + "/engine/send?session=x", {method: "POST", body: "go infinite\n"}));
          await attempt("post-no-cors", () => fetch(target + "/engine/send?session=x", {method: "POST", mode: "no-cors", body: "go\n"}));
          await attempt("get", () => fetch(target + "/"));
          results.events = await new Promise((resolve) => {
            const es = new EventSource(target + "/engine/events");
            es.onopen = () => { es.close(); resolve("opened"); };
            es.onerror = () => { es.close(); resolve("refused"); };
          });
          done(results);
        })();
        "#,
        json!([target]),
    );
    assert_eq!(outcome["post"], "refused: TypeError", "{outcome}");
    assert_eq!(outcome["get"], "refused: TypeError", "{outcome}");
    assert_eq!(outcome["events"], "refused", "{outcome}");
    // An opaque no-cors POST cannot be read by the other site; the server
    // still refused it and started nothing.
    assert_eq!(page.relay.sessions_started(), started, "{outcome}");
    // The page itself, in the same browser, still works.
    page.browser.goto(&page.url);
    page.wait("the page to be ready again", |s| s["ready"] == true);
    page.healthy();
}

#[path = "gui_browser/review.rs"]
mod review;
