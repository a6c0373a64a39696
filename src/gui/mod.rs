//! `tama gui`: a board in the browser. A small HTTP server on 127.0.0.1
//! serves the page (built into the binary) and relays the UCI dialect between
//! the page and one engine process per page (see docs/gui.md).

mod assets;
mod http;
mod pdn;
mod relay;
mod review;
mod tables;

use anyhow::anyhow;
use http::ReadError;
pub use relay::Relay;
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

/// Connections served at once (the page needs two or three; more is a
/// runaway, answered by closing the connection).
const MAX_CONNECTIONS: usize = 64;
/// A request head must arrive within this time.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// `tama gui [--port N] [--no-open] [--egtb DIR]`: serves the board until
/// the process is ended. An error (the port taken, no binary to run) is one line.
pub fn run(port: u16, open: bool, egtb: Option<PathBuf>) -> anyhow::Result<()> {
    let engine = std::env::current_exe()
        .map_err(|e| anyhow!("cannot find the tama binary to run as the engine: {e}"))?;
    let server = Server::bind(port, engine)?.with_egtb(egtb);
    let url = server.url();
    println!("Tama's board: {url}  (Ctrl-C to stop)");
    if open {
        if let Err(e) = open_browser(&url) {
            println!("Open it in your browser ({e}).");
        }
    }
    server.serve();
    Ok(())
}

/// Hands the address to the desktop's default browser.
fn open_browser(url: &str) -> anyhow::Result<()> {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        // Reaped in the background: the opener returns at once.
        .map(|mut child| {
            std::thread::spawn(move || child.wait());
        })
        .map_err(|e| anyhow!("{opener} could not be started: {e}"))
}

/// The server, bound and ready to serve.
pub struct Server {
    listener: TcpListener,
    port: u16,
    relay: Arc<Relay>,
    work: Arc<Work>,
}

/// What the server does itself, beside relaying: reviews and the tables.
#[derive(Default)]
struct Work {
    reviews: review::Reviews,
    tables: tables::Tables,
}

impl Server {
    /// Binds 127.0.0.1:`port` (0: any free port). Only loopback, ever: the
    /// engine is not offered to the network.
    pub fn bind(port: u16, engine: PathBuf) -> anyhow::Result<Server> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).map_err(|e| {
            if e.kind() == std::io::ErrorKind::AddrInUse {
                anyhow!("port {port} on 127.0.0.1 is taken by another program; choose another with --port N (0: any free port)")
            } else {
                anyhow!("cannot listen on 127.0.0.1:{port}: {e}")
            }
        })?;
        let port = listener
            .local_addr()
            .map_err(|e| anyhow!("cannot read the bound address: {e}"))?
            .port();
        Ok(Server {
            listener,
            port,
            relay: Arc::new(Relay::new(engine)),
            work: Arc::default(),
        })
    }

    /// The endgame databases' directory the page starts with (`--egtb`).
    pub fn with_egtb(self, dir: Option<PathBuf>) -> Server {
        Server {
            work: Arc::new(Work {
                reviews: review::Reviews::default(),
                tables: tables::Tables::new(dir),
            }),
            ..self
        }
    }

    pub fn addr(&self) -> SocketAddr {
        SocketAddr::from((Ipv4Addr::LOCALHOST, self.port))
    }

    /// The page's address.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    /// Engine processes started so far.
    pub fn sessions_started(&self) -> u64 {
        self.relay.sessions_started()
    }

    /// A handle on the relay's counters that outlives `serve`.
    pub fn relay(&self) -> Arc<Relay> {
        Arc::clone(&self.relay)
    }

    /// Serves until the process ends: one thread per connection.
    pub fn serve(self) {
        let open = Arc::new(AtomicUsize::new(0));
        for stream in self.listener.incoming() {
            let Ok(stream) = stream else { continue };
            if open.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
                drop(stream);
                continue;
            }
            open.fetch_add(1, Ordering::SeqCst);
            let relay = Arc::clone(&self.relay);
            let work = Arc::clone(&self.work);
            let open = Arc::clone(&open);
            let port = self.port;
            thread::spawn(move || {
                handle(stream, port, &relay, &work);
                open.fetch_sub(1, Ordering::SeqCst);
            });
        }
    }
}

/// A JSON answer, or the error that stopped it (422: the request was
/// understood and refused, its message for the page to show).
fn json_answer(stream: &mut TcpStream, answer: anyhow::Result<String>) {
    match answer {
        Ok(json) => http::respond(stream, 200, "application/json", json.as_bytes()),
        Err(e) => http::respond_error(stream, 422, &format!("{e:#}")),
    }
}

/// One connection: one request, then close.
fn handle(mut stream: TcpStream, port: u16, relay: &Relay, work: &Work) {
    let _ = stream.set_read_timeout(Some(REQUEST_TIMEOUT));
    let req = match http::read_request(&mut stream) {
        Ok(r) => r,
        Err(ReadError::Closed) => return,
        Err(ReadError::Bad(status, msg)) => return http::respond_error(&mut stream, status, &msg),
        Err(ReadError::TooLarge(msg)) => return http::refuse_too_large(&mut stream, &msg),
    };
    if let Err(why) = http::check_origin(&req, port) {
        eprintln!("tama gui: {} {}: {why}", req.method, req.path);
        return http::respond_error(&mut stream, 403, &why.to_string());
    }
    match (req.method.as_str(), req.path.as_str()) {
        ("GET", "/engine/events") => {
            // The stream lives as long as the engine: no read timeout.
            let _ = stream.set_read_timeout(None);
            relay.events(stream)
        }
        ("POST", "/engine/send") => relay.send(&req, &mut stream),
        ("GET", "/rules") => http::respond(
            &mut stream,
            200,
            "application/json",
            pdn::rule_options().as_bytes(),
        ),
        ("POST", "/pdn/read") => match pdn::read(&req.body) {
            Ok(json) => http::respond(&mut stream, 200, "application/json", json.as_bytes()),
            Err(e) => http::respond_error(&mut stream, 422, &e.to_string()),
        },
        ("POST", "/pdn/write") => match pdn::write(&req.body) {
            Ok(text) => http::respond(
                &mut stream,
                200,
                "text/plain; charset=utf-8",
                text.as_bytes(),
            ),
            Err(e) => http::respond_error(&mut stream, 422, &e.to_string()),
        },
        ("GET", "/config") => http::respond(
            &mut stream,
            200,
            "application/json",
            work.tables.config().as_bytes(),
        ),
        ("POST", "/tables/probe") => json_answer(&mut stream, work.tables.probe(&req.body)),
        ("POST", "/review/start") => {
            json_answer(&mut stream, work.reviews.start(&req.body, &work.tables))
        }
        ("GET", "/review/status") => work.reviews.status(&req, &mut stream),
        ("POST", "/review/stop") => work.reviews.stop(&req, &mut stream),
        ("GET", path) => match assets::find(path) {
            Some(asset) => http::respond(&mut stream, 200, asset.content_type, asset.body),
            None => http::respond_error(&mut stream, 404, &format!("no such page {path:?}")),
        },
        (method, path) => http::respond_error(
            &mut stream,
            405,
            &format!("{method} {path} is not served here"),
        ),
    }
}
