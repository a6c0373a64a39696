//! The options as users meet them agree with each other and with their
//! documentation: the `option` lines of `uci`, the `param` lines of `hub`,
//! the `Option` lines of `d`, and the table of docs/protocol.md
//! ("## Options"), row by row and in order. (The lab's two options are
//! checked with the lab: lab/tests/protocol.rs.)

use std::io::Write;
use std::sync::{Arc, Mutex};
use tama_engine::search::Tuning;
use tama_protocol::options::UCI_EMPTY;

/// What the engine prints, kept for the test to read.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The engine's answer to `input` (one session, to the end of input).
fn session(input: &str) -> Vec<String> {
    let out = Captured::default();
    tama_protocol::run(
        std::io::Cursor::new(input.to_string()),
        Box::new(out.clone()),
        None,
        Tuning::default(),
    );
    let bytes = out.0.lock().unwrap().clone();
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// One row of the documented table.
#[derive(Debug)]
struct Row {
    uci: String,
    hub: Option<String>,
    uci_type: String,
    hub_type: String,
    default: String,
    range: String,
}

fn unquote(cell: &str) -> String {
    cell.trim().trim_matches('`').to_string()
}

/// The rows of the first table after the line `heading` in docs/protocol.md.
fn documented(heading: &str) -> Vec<Row> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/protocol.md");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let section = text
        .split(&format!("\n{heading}\n"))
        .nth(1)
        .unwrap_or_else(|| panic!("docs/protocol.md has no {heading:?}"));
    section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2) // the head and its rule
        .map(|line| {
            let cells: Vec<&str> = line.split('|').collect();
            let types: Vec<String> = cells[3].split('/').map(unquote).collect();
            Row {
                uci: unquote(cells[1]),
                hub: Some(unquote(cells[2])).filter(|h| h != "—"),
                uci_type: types[0].clone(),
                hub_type: types.last().unwrap().clone(),
                default: unquote(cells[4]),
                range: unquote(cells[5]),
            }
        })
        .collect()
}

/// `1 .. 64` -> (1, 64).
fn bounds(range: &str) -> (String, String) {
    let (min, max) = range
        .split_once("..")
        .expect("a spin's range is MIN .. MAX");
    (min.trim().to_string(), max.trim().to_string())
}

fn values(range: &str) -> Vec<String> {
    range.split(',').map(unquote).collect()
}

/// The `option` line `uci` should print for `row`.
fn uci_line(row: &Row) -> String {
    let head = format!("option name {} type {}", row.uci, row.uci_type);
    match row.uci_type.as_str() {
        "spin" => {
            let (min, max) = bounds(&row.range);
            format!("{head} default {} min {min} max {max}", row.default)
        }
        "combo" => {
            let vars: Vec<String> = values(&row.range)
                .iter()
                .map(|v| format!("var {v}"))
                .collect();
            format!("{head} default {} {}", row.default, vars.join(" "))
        }
        "string" if row.default == "empty" => format!("{head} default {UCI_EMPTY}"),
        "button" => head,
        _ => format!("{head} default {}", row.default),
    }
}

/// The `param` line `hub` should print for `row` (`None`: no Hub name).
fn hub_line(row: &Row) -> Option<String> {
    let hub = row.hub.as_ref()?;
    let value = match row.default.as_str() {
        "empty" => "\"\"".to_string(),
        v => v.to_string(),
    };
    let kind = match row.hub_type.as_str() {
        "int" => {
            let (min, max) = bounds(&row.range);
            format!("type=int min={min} max={max}")
        }
        "enum" => format!("type=enum values=\"{}\"", values(&row.range).join(" ")),
        t => format!("type={t}"),
    };
    Some(format!("param name={hub} value={value} {kind}"))
}

/// The `Option` line `d` should print for `row` (`None`: a button).
fn d_line(row: &Row) -> Option<String> {
    let value = match row.default.as_str() {
        "empty" => "",
        v => v,
    };
    (row.uci_type != "button").then(|| format!("Option {}: {value}", row.uci))
}

/// The lines of `output` that start with `prefix` are `wanted`, in order.
fn assert_lines(output: &[String], prefix: &str, wanted: Vec<String>, what: &str) {
    let shown: Vec<&String> = output.iter().filter(|l| l.starts_with(prefix)).collect();
    assert_eq!(
        shown,
        wanted.iter().collect::<Vec<_>>(),
        "{what} against the docs"
    );
}

#[test]
fn uci_hub_d_and_the_docs_list_the_same_options() {
    let rows = documented("## Options");
    assert!(rows.len() >= 10, "{rows:#?}");
    let uci = session("uci\nd\n");
    assert_lines(&uci, "option ", rows.iter().map(uci_line).collect(), "uci");
    assert_lines(
        &uci,
        "Option ",
        rows.iter().filter_map(d_line).collect(),
        "d",
    );
    let hub = session("hub\n");
    assert_lines(
        &hub,
        "param ",
        rows.iter().filter_map(hub_line).collect(),
        "hub",
    );
}
