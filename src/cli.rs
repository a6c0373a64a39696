//! Sub-commands given on the command line (`tama perft ...`).

use std::io::Write;
use std::time::Instant;
use tama_engine::perft::{divide, perft, perft_routes};
use tama_engine::{Position, Rules};
use tama_protocol::session::Dialect;

const USAGE_PERFT: &str = "usage: tama perft [--variant armenian|turkish] [--capture-removal immediate|deferred] [--mid-capture-promotion false|true] [--fen FEN] [--divide] [--routes] DEPTH";

const HELP: &str = "\
Tama: an engine for Armenian (and Turkish) draughts.

usage:
  tama                 read protocol commands on stdin: the first line chooses
                       the dialect (`uci`, the default, or `hub`); see docs/protocol.md
  tama uci | tama hub  the same, in that dialect from the start
  tama perft [--variant armenian|turkish] [--capture-removal immediate|deferred]
             [--mid-capture-promotion false|true] [--fen FEN] [--divide] [--routes] DEPTH
  tama match -engine cmd=... -engine cmd=... [flags]
                       engine-vs-engine matches and tournaments; `tama match --help`
  tama --help          this text
  tama --version       the version";

pub fn run(args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("match") => tama_protocol::tournament::main(&args[1..]),
        None => tama_protocol::run_stdio(None),
        Some("uci") if args.len() == 1 => tama_protocol::run_stdio(Some(Dialect::Uci)),
        Some("hub") if args.len() == 1 => tama_protocol::run_stdio(Some(Dialect::Hub)),
        Some("--help" | "-h" | "help") => {
            println!("{HELP}");
            0
        }
        Some("--version" | "-V") => {
            println!("tama {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Some("perft") => match perft_command(&args[1..]) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("error: {e}");
                2
            }
        },
        Some(other) => {
            eprintln!("error: unknown command {other:?}\n\n{HELP}");
            2
        }
    }
}

struct PerftArgs {
    rules: Rules,
    fen: Option<String>,
    divide: bool,
    routes: bool,
    depth: u32,
}

/// Splits the rule flags off an argument list; what remains is returned.
pub fn parse_rule_flag(
    rules: &mut Rules,
    flag: &str,
    value: Option<&String>,
) -> Result<bool, String> {
    let need = || value.ok_or_else(|| format!("{flag} needs a value"));
    match flag {
        "--variant" => rules.variant = need()?.parse()?,
        "--capture-removal" => rules.capture_removal = need()?.parse()?,
        "--mid-capture-promotion" => {
            rules.mid_capture_promotion = tama_engine::rules::parse_bool(need()?)
                .map_err(|e| format!("--mid-capture-promotion: {e}"))?
        }
        _ => return Ok(false),
    }
    Ok(true)
}

fn parse_perft_args(args: &[String]) -> Result<PerftArgs, String> {
    let mut out = PerftArgs {
        rules: Rules::default(),
        fen: None,
        divide: false,
        routes: false,
        depth: 0,
    };
    let mut depth = None;
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        if parse_rule_flag(&mut out.rules, arg, args.get(i + 1))? {
            i += 2;
            continue;
        }
        match arg {
            "--fen" => {
                out.fen = Some(args.get(i + 1).ok_or("--fen needs a value")?.clone());
                i += 1;
            }
            "--divide" => out.divide = true,
            "--routes" => out.routes = true,
            _ if arg.starts_with('-') => {
                return Err(format!("unknown option {arg:?}; {USAGE_PERFT}"))
            }
            _ => {
                if depth.is_some() {
                    return Err(format!("unexpected argument {arg:?}; {USAGE_PERFT}"));
                }
                let d: u32 = arg
                    .parse()
                    .map_err(|_| format!("DEPTH must be a whole number, got {arg:?}"))?;
                if d > 64 {
                    return Err(format!("DEPTH {d} is too deep (at most 64)"));
                }
                depth = Some(d);
            }
        }
        i += 1;
    }
    out.depth = depth.ok_or_else(|| format!("missing DEPTH; {USAGE_PERFT}"))?;
    Ok(out)
}

fn perft_command(args: &[String]) -> Result<(), String> {
    let a = parse_perft_args(args)?;
    let pos = match &a.fen {
        Some(fen) => Position::from_fen(fen, a.rules).map_err(|e| e.to_string())?,
        None => Position::startpos(a.rules),
    };
    let started = Instant::now();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let total = if a.divide {
        let mut total = 0;
        for (mv, n) in divide(&pos, a.depth, a.routes) {
            let _ = writeln!(out, "{}: {n}", pos.move_text(&mv));
            total += n;
        }
        total
    } else if a.routes {
        perft_routes(&pos, a.depth)
    } else {
        perft(&pos, a.depth)
    };
    let elapsed = started.elapsed();
    let _ = writeln!(out, "Nodes searched: {total}");
    eprintln!(
        "info time {} ms, {:.1} Mnodes/s",
        elapsed.as_millis(),
        total as f64 / elapsed.as_secs_f64().max(1e-9) / 1e6
    );
    Ok(())
}
