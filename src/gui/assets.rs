//! The page's files, built into the binary: `tama gui` needs no network and
//! no files beside it.

pub struct Asset {
    pub path: &'static str,
    pub content_type: &'static str,
    pub body: &'static [u8],
}

macro_rules! asset {
    ($path:literal, $file:literal, $type:literal) => {
        Asset {
            path: $path,
            content_type: $type,
            body: include_bytes!(concat!("assets/", $file)),
        }
    };
}

pub const ASSETS: &[Asset] = &[
    asset!("/", "index.html", "text/html; charset=utf-8"),
    asset!("/style.css", "style.css", "text/css; charset=utf-8"),
    asset!("/app.js", "app.js", "text/javascript; charset=utf-8"),
    asset!("/state.js", "state.js", "text/javascript; charset=utf-8"),
    asset!("/game.js", "game.js", "text/javascript; charset=utf-8"),
    asset!("/clock.js", "clock.js", "text/javascript; charset=utf-8"),
    asset!(
        "/analysis.js",
        "analysis.js",
        "text/javascript; charset=utf-8"
    ),
    asset!("/input.js", "input.js", "text/javascript; charset=utf-8"),
    asset!("/render.js", "render.js", "text/javascript; charset=utf-8"),
    asset!("/pdn.js", "pdn.js", "text/javascript; charset=utf-8"),
    asset!("/review.js", "review.js", "text/javascript; charset=utf-8"),
    asset!("/graph.js", "graph.js", "text/javascript; charset=utf-8"),
    asset!("/tables.js", "tables.js", "text/javascript; charset=utf-8"),
    asset!("/board.js", "board.js", "text/javascript; charset=utf-8"),
    asset!("/engine.js", "engine.js", "text/javascript; charset=utf-8"),
    asset!("/favicon.svg", "favicon.svg", "image/svg+xml"),
];

pub fn find(path: &str) -> Option<&'static Asset> {
    let path = if path == "/index.html" { "/" } else { path };
    ASSETS.iter().find(|a| a.path == path)
}
