//! A lean W3C WebDriver client (JSON over HTTP) for Debian's chromedriver
//! driving headless Chromium: only the commands the board tests use.
//! Failing to start the browser is an error, never a skip.

use super::parse_head;
use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Browser {
    driver: Child,
    port: u16,
    session: String,
    profile: PathBuf,
}

fn find(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in names {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// One HTTP exchange with chromedriver; the JSON answer's `value`.
fn call(port: u16, method: &str, path: &str, body: Option<&Value>) -> Result<Value, String> {
    let mut s =
        TcpStream::connect(("127.0.0.1", port)).map_err(|e| format!("chromedriver: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\
         Content-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes())
        .and_then(|_| s.write_all(body.as_bytes()))
        .map_err(|e| format!("chromedriver: {e}"))?;
    // chromedriver says `Connection: close` but keeps the socket open: read
    // the head, then exactly Content-Length bytes.
    let mut all = Vec::new();
    let mut chunk = [0u8; 8192];
    let end = loop {
        if let Some(i) = all.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        let n = s
            .read(&mut chunk)
            .map_err(|e| format!("chromedriver: {e}"))?;
        if n == 0 {
            return Err("chromedriver: closed before the response head".into());
        }
        all.extend_from_slice(&chunk[..n]);
    };
    let (status, headers) = parse_head(&all[..end]);
    let length: usize = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.trim().parse().ok())
        .ok_or("chromedriver: no Content-Length in its answer")?;
    while all.len() < end + length {
        let n = s
            .read(&mut chunk)
            .map_err(|e| format!("chromedriver: {e}"))?;
        if n == 0 {
            return Err("chromedriver: answer shorter than its Content-Length".into());
        }
        all.extend_from_slice(&chunk[..n]);
    }
    let v: Value = serde_json::from_slice(&all[end..end + length]).map_err(|e| {
        format!(
            "chromedriver: bad JSON ({e}): {:?}",
            String::from_utf8_lossy(&all[end..])
        )
    })?;
    let value = v.get("value").cloned().unwrap_or(Value::Null);
    if status != 200 {
        return Err(format!(
            "{method} {path}: {status} {}: {}",
            value["error"].as_str().unwrap_or("?"),
            value["message"].as_str().unwrap_or("")
        ));
    }
    Ok(value)
}

impl Browser {
    /// Starts chromedriver and a headless Chromium with the flags this
    /// closed network needs (no background networking, no component
    /// updates, a fresh profile). Panics with the reason when it cannot.
    pub fn start(width: u32, height: u32) -> Browser {
        let driver_path = find(&["chromedriver"]).expect(
            "chromedriver not found: install Debian's chromium and chromium-driver (apt-get install -y chromium chromium-driver); .ci/run does",
        );
        let chromium = find(&["chromium", "chromium-browser", "google-chrome"])
            .expect("chromium not found: apt-get install -y chromium chromium-driver");
        let port = free_port();
        let driver = Command::new(&driver_path)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", driver_path.display()));
        let profile =
            std::env::temp_dir().join(format!("tama-gui-chromium-{}-{port}", std::process::id()));
        // Owned from here on: a panic below still ends chromedriver (Drop).
        let mut browser = Browser {
            driver,
            port,
            session: String::new(),
            profile: profile.clone(),
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Ok(v) = call(port, "GET", "/status", None) {
                if v["ready"].as_bool() == Some(true) {
                    break;
                }
            }
            assert!(
                Instant::now() < deadline,
                "chromedriver did not come up on port {port}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = std::fs::remove_dir_all(&profile);
        let args = [
            "--headless=new".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-dev-shm-usage".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--no-default-browser-check".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-extensions".into(),
            "--hide-scrollbars".into(),
            format!("--window-size={width},{height}"),
            format!("--user-data-dir={}", profile.display()),
        ];
        let caps = json!({
            "capabilities": { "alwaysMatch": {
                "browserName": "chrome",
                "goog:chromeOptions": {
                    "binary": chromium.to_string_lossy(),
                    "args": args,
                    // A page's downloads stay in the scratch profile.
                    "prefs": {
                        "download.default_directory": profile.join("downloads").to_string_lossy(),
                        "download.prompt_for_download": false
                    }
                }
            }}
        });
        let v = call(port, "POST", "/session", Some(&caps))
            .unwrap_or_else(|e| panic!("cannot start headless Chromium: {e}"));
        browser.session = v["sessionId"].as_str().expect("a session id").to_string();
        browser
    }

    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let full = format!("/session/{}{path}", self.session);
        call(self.port, method, &full, body.as_ref()).unwrap_or_else(|e| panic!("{e}"))
    }

    pub fn goto(&self, url: &str) {
        self.cmd("POST", "/url", Some(json!({ "url": url })));
    }

    pub fn set_size(&self, width: u32, height: u32) {
        self.cmd(
            "POST",
            "/window/rect",
            Some(json!({ "width": width, "height": height })),
        );
    }

    /// Runs a script in the page (its `return` value comes back).
    pub fn script(&self, body: &str, args: Value) -> Value {
        self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({ "script": body, "args": args })),
        )
    }

    /// Runs an async script: it calls `arguments[arguments.length - 1]`
    /// with its result.
    pub fn script_async(&self, body: &str, args: Value) -> Value {
        self.cmd(
            "POST",
            "/execute/async",
            Some(json!({ "script": body, "args": args })),
        )
    }

    pub fn element(&self, css: &str) -> String {
        let v = self.cmd(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        );
        v.as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}"))
            .to_string()
    }

    /// A real click (pointer events at the element's centre). The page
    /// rebuilds some elements when an engine answer arrives (the move list
    /// on every change of position), so the element found may be replaced
    /// before the click reaches it: WebDriver then answers `stale element
    /// reference`, and the click is made on the element found again (a
    /// few times at most; any other error, or staleness that persists,
    /// fails the test).
    pub fn click(&self, css: &str) {
        let mut last = String::new();
        for _ in 0..5 {
            let id = self.element(css);
            let path = format!("/session/{}/element/{id}/click", self.session);
            match call(self.port, "POST", &path, Some(&json!({}))) {
                Ok(_) => return,
                Err(e) if e.contains("stale element reference") => last = e,
                Err(e) => panic!("{e}"),
            }
        }
        panic!("clicking {css}: the element kept being replaced: {last}");
    }

    /// Drag with the pointer from one element to another (Actions API).
    pub fn drag(&self, from_css: &str, to_css: &str) {
        let from = self.element(from_css);
        let to = self.element(to_css);
        let origin = |id: &str| json!({ "element-6066-11e4-a52e-4f735466cecf": id });
        let actions = json!({ "actions": [{
            "type": "pointer", "id": "mouse", "parameters": { "pointerType": "mouse" },
            "actions": [
                { "type": "pointerMove", "origin": origin(&from), "x": 0, "y": 0 },
                { "type": "pointerDown", "button": 0 },
                { "type": "pointerMove", "origin": origin(&from), "x": 15, "y": 0, "duration": 50 },
                { "type": "pointerMove", "origin": origin(&to), "x": 0, "y": 0, "duration": 100 },
                { "type": "pointerUp", "button": 0 }
            ]
        }]});
        self.cmd("POST", "/actions", Some(actions));
        self.cmd("DELETE", "/actions", None);
    }

    pub fn clear_and_type(&self, css: &str, text: &str) {
        let id = self.element(css);
        self.cmd("POST", &format!("/element/{id}/clear"), Some(json!({})));
        self.cmd(
            "POST",
            &format!("/element/{id}/value"),
            Some(json!({ "text": text })),
        );
    }

    /// Chooses the option with this value in a <select>.
    pub fn select(&self, css: &str, value: &str) {
        self.click(&format!("{css} option[value=\"{value}\"]"));
    }

    /// A PNG of the viewport.
    pub fn screenshot(&self) -> Vec<u8> {
        let v = self.cmd("GET", "/screenshot", None);
        base64_decode(v.as_str().expect("base64 PNG"))
    }

    /// Polls `probe` until it returns Some, or panics after `secs` seconds
    /// with `what` and the last value seen by `describe`.
    pub fn wait_for<T>(
        &self,
        secs: u64,
        what: &str,
        mut probe: impl FnMut(&Browser) -> Option<T>,
        describe: impl Fn(&Browser) -> String,
    ) -> T {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            if let Some(v) = probe(self) {
                return v;
            }
            if Instant::now() > deadline {
                panic!("timed out waiting for {what}; now: {}", describe(self));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Browser {
    /// Where the page's downloads land.
    pub fn downloads(&self) -> PathBuf {
        self.profile.join("downloads")
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = call(
                self.port,
                "DELETE",
                &format!("/session/{}", self.session),
                None,
            );
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Standard base64 (WebDriver screenshots).
pub fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a') as u32 + 26,
            b'0'..=b'9' => (c - b'0') as u32 + 52,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("not base64: {c}"),
        }
    };
    let bytes: Vec<u8> = text.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    for chunk in bytes.chunks(4) {
        let data: Vec<u8> = chunk.iter().copied().filter(|&c| c != b'=').collect();
        let mut n = 0u32;
        for (i, &c) in data.iter().enumerate() {
            n |= value(c) << (18 - 6 * i);
        }
        for i in 0..data.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

#[test]
fn base64_decodes_the_standard_alphabet() {
    assert_eq!(base64_decode("TWFu"), b"Man");
    assert_eq!(base64_decode("TWE="), b"Ma");
    assert_eq!(base64_decode("TQ=="), b"M");
    assert_eq!(base64_decode("iVBORw0KGgo="), b"\x89PNG\r\n\x1a\n");
}
