//! Plain-HTTP clients for the `tama gui` tests: one request per connection,
//! as the server answers, and a reader for its server-sent-events stream.
#![allow(dead_code)] // each test binary uses a different part of this module

pub mod page;
pub mod webdriver;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Splits a response head into status and headers.
pub fn parse_head(head: &[u8]) -> (u16, Vec<(String, String)>) {
    let mut headers = [httparse::EMPTY_HEADER; 64];
    let mut resp = httparse::Response::new(&mut headers);
    match resp.parse(head) {
        Ok(httparse::Status::Complete(_)) => {}
        other => panic!(
            "bad response head {other:?}: {:?}",
            String::from_utf8_lossy(head)
        ),
    }
    let status = resp.code.expect("status code");
    let headers = resp
        .headers
        .iter()
        .map(|h| {
            (
                h.name.to_string(),
                String::from_utf8_lossy(h.value).into_owned(),
            )
        })
        .collect();
    (status, headers)
}

/// Sends one request with the given extra header lines (`Host` is added
/// unless given) and reads the whole answer (the server closes after it).
pub fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Response {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut head = format!("{method} {path} HTTP/1.1\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        head.push_str(&format!("Host: {addr}\r\n"));
    }
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if !body.is_empty() || method == "POST" {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).unwrap();
    // The server may answer (413) before it has read the whole body.
    let _ = s.write_all(body);
    let mut all = Vec::new();
    s.read_to_end(&mut all).expect("read the answer");
    let end = all
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 4)
        .unwrap_or_else(|| panic!("no head in {:?}", String::from_utf8_lossy(&all)));
    let (status, headers) = parse_head(&all[..end]);
    let body = all[end..].to_vec();
    let resp = Response {
        status,
        headers,
        body,
    };
    if let Some(len) = resp.header("Content-Length") {
        assert_eq!(
            len.parse::<usize>().unwrap(),
            resp.body.len(),
            "Content-Length"
        );
    }
    resp
}

pub fn get(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> Response {
    request(addr, "GET", path, headers, b"")
}

/// One server-sent event.
#[derive(Debug, Default, Clone)]
pub struct Event {
    pub name: String,
    pub data: Vec<String>,
}

/// A `GET /engine/events` stream and its session.
pub struct Session {
    addr: SocketAddr,
    reader: BufReader<TcpStream>,
    pub token: String,
    /// Engine lines received so far.
    pub transcript: Vec<String>,
    pending: std::collections::VecDeque<String>,
    pub ended: bool,
}

impl Session {
    /// Opens the stream; panics unless the server starts a session.
    pub fn open(addr: SocketAddr) -> Session {
        let mut s = TcpStream::connect(addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        write!(
            s,
            "GET /engine/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        )
        .unwrap();
        let mut reader = BufReader::new(s);
        let mut head = Vec::new();
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).expect("read the head");
            assert!(!line.is_empty(), "the server closed the stream");
            head.extend_from_slice(line.as_bytes());
            if line == "\r\n" {
                break;
            }
        }
        let (status, headers) = parse_head(&head);
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&head));
        let ct = headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("content-type"))
            .map(|(_, v)| v.clone());
        assert!(ct.unwrap().starts_with("text/event-stream"));
        let mut session = Session {
            addr,
            reader,
            token: String::new(),
            transcript: Vec::new(),
            pending: Default::default(),
            ended: false,
        };
        let first = session.event().expect("a session event");
        assert_eq!(first.name, "session", "{first:?}");
        session.token = first.data[0].clone();
        assert_eq!(session.token.len(), 32, "token {:?}", session.token);
        session
    }

    /// The next event; None at the end of the stream.
    pub fn event(&mut self) -> Option<Event> {
        let mut ev = Event::default();
        loop {
            let mut line = String::new();
            match self.reader.read_line(&mut line) {
                Ok(0) => return None,
                Ok(_) => {}
                Err(e) => panic!("reading events: {e}"),
            }
            let line = line.trim_end_matches('\n');
            if line.is_empty() {
                if ev.name.is_empty() && ev.data.is_empty() {
                    continue;
                }
                return Some(ev);
            }
            if line.starts_with(':') {
                continue;
            }
            if let Some(v) = line.strip_prefix("event: ") {
                ev.name = v.to_string();
            } else if let Some(v) = line.strip_prefix("data: ") {
                ev.data.push(v.to_string());
            } else {
                panic!("not an event line: {line:?}");
            }
        }
    }

    /// The next engine line.
    pub fn line(&mut self) -> Option<String> {
        while self.pending.is_empty() {
            let ev = self.event()?;
            if ev.name == "end" {
                self.ended = true;
                return None;
            }
            assert_eq!(ev.name, "", "unexpected event {ev:?}");
            self.pending.extend(ev.data);
        }
        let l = self.pending.pop_front()?;
        self.transcript.push(l.clone());
        Some(l)
    }

    /// Engine lines up to and including the first that `done` accepts.
    pub fn until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut out = Vec::new();
        while Instant::now() < deadline {
            let l = self
                .line()
                .unwrap_or_else(|| panic!("stream ended; got {out:?}"));
            let stop = done(&l);
            out.push(l);
            if stop {
                return out;
            }
        }
        panic!("timed out; got {out:?}");
    }

    /// Posts lines to the engine; returns the status.
    pub fn send(&self, lines: &str) -> u16 {
        self.send_with(lines, &[])
    }

    pub fn send_with(&self, lines: &str, headers: &[(&str, &str)]) -> u16 {
        let path = format!("/engine/send?session={}", self.token);
        let r = request(self.addr, "POST", &path, headers, lines.as_bytes());
        r.status
    }
}
