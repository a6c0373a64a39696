//! The board's page in headless Chromium, as the browser tests drive it:
//! a server on a free port, the page opened, its state read through
//! `window.tama.state()`, clicks, screenshots.

use super::webdriver::Browser;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::Arc;
use tama::gui;

pub struct Page {
    pub url: String,
    pub relay: Arc<gui::Relay>,
    pub browser: Browser,
}

pub fn open(width: u32, height: u32) -> Page {
    open_with_tables(width, height, None)
}

/// The page of a server started as `tama gui --egtb DIR`.
pub fn open_with_tables(width: u32, height: u32, egtb: Option<PathBuf>) -> Page {
    let server = gui::Server::bind(0, PathBuf::from(env!("CARGO_BIN_EXE_tama")))
        .expect("bind")
        .with_egtb(egtb);
    let url = server.url();
    let relay = server.relay();
    std::thread::spawn(move || server.serve());
    let browser = Browser::start(width, height);
    browser.goto(&url);
    let page = Page {
        url,
        relay,
        browser,
    };
    page.wait("the page to be ready", |s| s["ready"] == true);
    page
}

impl Page {
    pub fn state(&self) -> Value {
        self.browser.script(
            "return window.tama ? window.tama.state() : {ready: false};",
            json!([]),
        )
    }

    /// Waits until `ok` holds for the page's state (60 s at most).
    pub fn wait(&self, what: &str, ok: impl Fn(&Value) -> bool) -> Value {
        self.wait_secs(60, what, ok)
    }

    /// Waits until `ok` holds for the page's state (`secs` at most).
    pub fn wait_secs(&self, secs: u64, what: &str, ok: impl Fn(&Value) -> bool) -> Value {
        self.browser.wait_for(
            secs,
            what,
            |b| {
                let s = b.script(
                    "return window.tama ? window.tama.state() : {ready: false};",
                    json!([]),
                );
                ok(&s).then_some(s)
            },
            |_| self.summary(),
        )
    }

    /// The page's state for a failure message: everything but the legal
    /// moves, and only the last 30 lines of the protocol log (the whole
    /// state is too long for a CI log to keep).
    pub fn summary(&self) -> String {
        let mut s = self.state();
        let log = strings(&s["log"]);
        let tail = log[log.len().saturating_sub(30)..].join("\n");
        if let Some(o) = s.as_object_mut() {
            o.remove("legal");
            o.remove("log");
        }
        format!("{s}\nlast lines of the protocol log:\n{tail}")
    }

    /// The page has had no script error and its engine session is alive.
    pub fn healthy(&self) {
        let s = self.state();
        assert_eq!(s["errors"], json!([]), "script errors: {s}");
        assert_eq!(s["closed"], false, "the engine session ended: {s}");
    }

    pub fn click_square(&self, sq: &str) {
        self.browser.click(&format!("#board [data-square='{sq}']"));
    }

    pub fn message(&self) -> String {
        self.state()["message"].as_str().unwrap_or("").to_string()
    }

    pub fn moves(&self) -> Vec<String> {
        strings(&self.state()["moves"])
    }

    /// The page's protocol log (its last 400 lines).
    pub fn log(&self) -> String {
        strings(&self.state()["log"]).join("\n")
    }

    pub fn shot(&self, name: &str) {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/gui-screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        let png = self.browser.screenshot();
        assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
        std::fs::write(dir.join(name), png).unwrap();
    }

    /// A screenshot for the documentation: docs/NAME, so that docs/gui.md
    /// shows what the page draws today.
    pub fn doc_shot(&self, name: &str) {
        let png = self.browser.screenshot();
        assert!(png.starts_with(b"\x89PNG"), "a PNG screenshot");
        std::fs::write(
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("docs")
                .join(name),
            png,
        )
        .unwrap();
    }

    /// Pastes a FEN into the page and sets it; waits for the new game. The
    /// FEN is given as the engine writes it (squares in a1, b1, ..., h8 order).
    pub fn set_fen(&self, fen: &str) {
        self.browser.clear_and_type("#fen", fen);
        self.browser.click("#fen-load");
        self.wait("the FEN to be set", |s| {
            s["fen"] == fen && s["moves"].as_array().is_some_and(|m| m.is_empty())
        });
    }
}

pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().map(|x| x.as_str().unwrap().to_string()).collect())
        .unwrap_or_default()
}
