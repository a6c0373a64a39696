//! Just enough HTTP/1.1 for a page on loopback: one request per connection
//! (every answer says `Connection: close`), heads parsed by `httparse`,
//! bodies by `Content-Length` only, and the Origin/Host guard that keeps other
//! web pages in the person's browser away from the engine.

use anyhow::anyhow;
use std::io::{self, Read, Write};
use std::net::TcpStream;

/// A request head is small: the page sends a handful of short headers.
const MAX_HEAD: usize = 16 * 1024;
const MAX_HEADERS: usize = 64;
/// The page never posts more than a PDN file or a `position` line.
pub const MAX_BODY: usize = 4 * 1024 * 1024;

#[derive(Debug)]
pub struct Request {
    pub method: String,
    /// The path without the query.
    pub path: String,
    pub query: String,
    headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    /// The first header of that name (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// A `name=value` pair of the query (values are used as sent: the page
    /// only puts hex tokens there).
    pub fn query_value(&self, name: &str) -> Option<&str> {
        self.query
            .split('&')
            .filter_map(|kv| kv.split_once('='))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v)
    }
}

/// Why a request could not be read: answered with this status, or (for
/// `Closed`) not at all.
#[derive(Debug)]
pub enum ReadError {
    Closed,
    Bad(u16, String),
    /// 413: the body is still coming and must be drained, or the answer is
    /// lost to a connection reset.
    TooLarge(String),
}

/// Reads one request (head and body) from the connection.
pub fn read_request(stream: &mut TcpStream) -> Result<Request, ReadError> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 2048];
    let head_len = loop {
        let n = match stream.read(&mut chunk) {
            Ok(0) => return Err(ReadError::Closed),
            Ok(n) => n,
            Err(_) => return Err(ReadError::Closed),
        };
        buf.extend_from_slice(&chunk[..n]);
        if let Some(end) = find_head_end(&buf) {
            break end;
        }
        if buf.len() > MAX_HEAD {
            return Err(ReadError::Bad(431, "request head too large".into()));
        }
    };
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut headers);
    match req.parse(&buf[..head_len]) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => {
            return Err(ReadError::Bad(400, "incomplete request head".into()))
        }
        Err(e) => return Err(ReadError::Bad(400, format!("malformed request: {e}"))),
    }
    let target = req.path.unwrap_or("/");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut out = Request {
        method: req.method.unwrap_or("").to_string(),
        path: path.to_string(),
        query: query.to_string(),
        headers: req
            .headers
            .iter()
            .map(|h| {
                (
                    h.name.to_string(),
                    String::from_utf8_lossy(h.value).trim().to_string(),
                )
            })
            .collect(),
        body: Vec::new(),
    };
    if out.header("Transfer-Encoding").is_some() {
        return Err(ReadError::Bad(
            411,
            "chunked bodies are not accepted; send Content-Length".into(),
        ));
    }
    let length = match out.header("Content-Length") {
        None => 0,
        Some(v) => v
            .parse::<usize>()
            .map_err(|_| ReadError::Bad(400, format!("bad Content-Length {v:?}")))?,
    };
    if length > MAX_BODY {
        return Err(ReadError::TooLarge(format!(
            "body of {length} bytes is over the limit of {MAX_BODY}"
        )));
    }
    let mut body = buf.split_off(head_len);
    if body.len() < length {
        let have = body.len();
        body.resize(length, 0);
        stream
            .read_exact(&mut body[have..])
            .map_err(|_| ReadError::Bad(400, "body shorter than Content-Length".into()))?;
    }
    body.truncate(length);
    out.body = body;
    Ok(out)
}

fn find_head_end(buf: &[u8]) -> Option<usize> {
    buf.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4)
}

/// Headers sent with every answer: nothing is cached (the binary is the
/// page), and no other site may frame the page or sniff types.
const COMMON_HEADERS: &str = "Connection: close\r\n\
Cache-Control: no-store\r\n\
X-Content-Type-Options: nosniff\r\n\
X-Frame-Options: DENY\r\n\
Referrer-Policy: no-referrer\r\n";

/// The page's Content-Security-Policy: its own scripts, styles and
/// connections only.
const CSP: &str = "Content-Security-Policy: default-src 'self'; script-src 'self'; \
style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'\r\n";

pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        204 => "No Content",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        410 => "Gone",
        411 => "Length Required",
        413 => "Payload Too Large",
        422 => "Unprocessable Entity",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

/// Writes a complete answer. A write error means the page went away; there
/// is nobody left to tell.
pub fn respond(stream: &mut TcpStream, status: u16, content_type: &str, body: &[u8]) {
    let head = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n{COMMON_HEADERS}{CSP}\r\n",
        reason(status),
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
    let _ = stream.flush();
}

/// A plain-text error answer (the page shows the text).
pub fn respond_error(stream: &mut TcpStream, status: u16, message: &str) {
    respond(
        stream,
        status,
        "text/plain; charset=utf-8",
        format!("{message}\n").as_bytes(),
    );
}

/// Answers 413 and then reads away what the client is still sending (up to
/// a limit), so that closing does not reset the connection before the client
/// has read the answer.
pub fn refuse_too_large(stream: &mut TcpStream, message: &str) {
    respond_error(stream, 413, message);
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(std::time::Duration::from_secs(2)));
    let mut sink = [0u8; 16 * 1024];
    let mut left = 4 * MAX_BODY;
    while left > 0 {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => left = left.saturating_sub(n),
        }
    }
}

/// Starts a server-sent-events stream: the head, then events follow.
pub fn start_event_stream(stream: &mut TcpStream) -> io::Result<()> {
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n{COMMON_HEADERS}\r\n"
    );
    stream.write_all(head.as_bytes())?;
    stream.flush()
}

/// The origins the page itself has: the address printed, and the same port
/// under the name `localhost`.
fn own_origins(port: u16) -> [String; 2] {
    [
        format!("http://127.0.0.1:{port}"),
        format!("http://localhost:{port}"),
    ]
}

/// The guard in front of every route. A browser names the page that makes a
/// request in `Origin` (always for POST and for cross-site requests), so a
/// present Origin that is not the page's own is another site trying to drive
/// the engine: refused. `Host` must name the loopback address this server
/// listens on, which defeats DNS rebinding (another site's name pointed at
/// 127.0.0.1 reaches us with its own name in `Host`).
pub fn check_origin(req: &Request, port: u16) -> anyhow::Result<()> {
    let own = own_origins(port);
    if let Some(origin) = req.header("Origin") {
        if !own.iter().any(|o| o == origin) {
            return Err(anyhow!(
                "origin {origin:?} is not this page ({}); refused",
                own[0]
            ));
        }
    }
    match req.header("Host") {
        None => Err(anyhow!("no Host header; refused")),
        Some(host) => {
            if own.iter().any(|o| o.strip_prefix("http://") == Some(host)) {
                Ok(())
            } else {
                Err(anyhow!(
                    "host {host:?} is not this server (127.0.0.1:{port}); refused"
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(headers: &[(&str, &str)]) -> Request {
        Request {
            method: "GET".into(),
            path: "/".into(),
            query: String::new(),
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            body: Vec::new(),
        }
    }

    #[test]
    fn the_guard_admits_the_page_and_nothing_else() {
        let host = ("Host", "127.0.0.1:8123");
        assert!(check_origin(&request(&[host]), 8123).is_ok());
        assert!(check_origin(&request(&[host, ("Origin", "http://127.0.0.1:8123")]), 8123).is_ok());
        assert!(check_origin(
            &request(&[
                ("Host", "localhost:8123"),
                ("origin", "http://localhost:8123")
            ]),
            8123
        )
        .is_ok());
        for bad in [
            "http://127.0.0.1:8124",
            "http://evil.example",
            "null",
            "https://127.0.0.1:8123",
            "http://127.0.0.1:8123.evil.example",
        ] {
            assert!(
                check_origin(&request(&[host, ("Origin", bad)]), 8123).is_err(),
                "{bad}"
            );
        }
        assert!(check_origin(&request(&[]), 8123).is_err());
        assert!(check_origin(&request(&[("Host", "evil.example:8123")]), 8123).is_err());
        assert!(check_origin(&request(&[("Host", "127.0.0.1:8124")]), 8123).is_err());
    }
}
