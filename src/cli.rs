//! Sub-commands given on the command line (`tama perft ...`).

use std::io::Write;
use std::time::Instant;
use tama_engine::perft::{divide, perft, perft_routes};
use tama_engine::search::Tuning;
use tama_engine::{Position, Rules};
use tama_protocol::session::Dialect;

const USAGE_PERFT: &str = "usage: tama perft [--variant armenian|turkish] [--capture-removal immediate|deferred] [--mid-capture-promotion false|true] [--fen FEN] [--divide] [--routes] DEPTH";

const HELP: &str = "\
Tama: an engine for Armenian (and Turkish) draughts.

usage:
  tama                 read protocol commands on stdin: the first line chooses
                       the dialect (`uci`, the default, or `hub`); see docs/protocol.md
  tama uci | tama hub  the same, in that dialect from the start
  tama [uci|hub] --set NAME=VALUE ...
                       the same with a selective-search switch changed (for
                       measured matches between settings; see docs/testing.md)
  tama perft [--variant armenian|turkish] [--capture-removal immediate|deferred]
             [--mid-capture-promotion false|true] [--fen FEN] [--divide] [--routes] DEPTH
  tama bench [--threads N] [DEPTH]
                       the search's signature: fixed positions at a fixed depth
  tama search [rule flags] [--fen FEN] [--depth D | --movetime MS | --nodes N]
              [--threads N] [--multipv N] [--hash MB] [--baseline] [--set NAME=VALUE]
                       one search from the command line, for measurements
  tama match -engine cmd=... -engine cmd=... [flags]
                       engine-vs-engine matches and tournaments; `tama match --help`
  tama --help          this text
  tama --version       the version";

pub fn run(args: &[String]) -> i32 {
    match args.first().map(String::as_str) {
        Some("match") => tama::tournament::main(&args[1..]),
        None => tama_protocol::run_stdio(None, Tuning::default()),
        Some(first @ ("uci" | "hub" | "--set")) => {
            let (dialect, rest) = match first {
                "uci" => (Some(Dialect::Uci), &args[1..]),
                "hub" => (Some(Dialect::Hub), &args[1..]),
                _ => (None, args),
            };
            match tuning_flags(rest) {
                Ok(tuning) => tama_protocol::run_stdio(dialect, tuning),
                Err(e) => {
                    eprintln!("error: {e}\n\n{HELP}");
                    2
                }
            }
        }
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
        Some("bench") => match bench_command(&args[1..]) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("error: {e}");
                2
            }
        },
        Some("search") => match search_command(&args[1..]) {
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

const USAGE_BENCH: &str = "usage: tama bench [--threads N] [--set NAME=VALUE] [DEPTH]";
const USAGE_SEARCH: &str = "usage: tama search [--variant armenian|turkish] [--capture-removal immediate|deferred] [--mid-capture-promotion false|true] [--fen FEN] [--depth D] [--movetime MS] [--nodes N] [--threads N] [--multipv N] [--hash MB] [--baseline] [--set NAME=VALUE]";

/// `--set NAME=VALUE` pairs (nothing else) for the protocol loop.
fn tuning_flags(args: &[String]) -> Result<Tuning, String> {
    let mut tuning = Tuning::default();
    let mut i = 0;
    while i < args.len() {
        if args[i] != "--set" {
            return Err(format!("unexpected argument {:?}", args[i]));
        }
        apply_set(&mut tuning, args.get(i + 1))?;
        i += 2;
    }
    Ok(tuning)
}

/// The value of one `--set NAME=VALUE` flag.
fn apply_set(tuning: &mut Tuning, value: Option<&String>) -> Result<(), String> {
    let v = value.ok_or("--set needs NAME=VALUE")?;
    let (name, val) = v.split_once('=').ok_or("--set needs NAME=VALUE")?;
    tuning.set(name, val)
}

fn number<T: std::str::FromStr>(flag: &str, value: Option<&String>) -> Result<T, String> {
    let v = value.ok_or_else(|| format!("{flag} needs a value"))?;
    v.parse()
        .map_err(|_| format!("{flag} must be a whole number, got {v:?}"))
}

/// `tama bench [DEPTH]`: the search's signature. One line per position,
/// then exactly `<nodes> nodes <nps> nps` as the last line.
fn bench_command(args: &[String]) -> Result<(), String> {
    let mut depth = tama_engine::search::bench::DEFAULT_DEPTH;
    let mut threads = 1;
    let mut tuning = Tuning::default();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--set" => {
                apply_set(&mut tuning, args.get(i + 1))?;
                i += 1;
            }
            "--threads" => {
                threads = number::<usize>("--threads", args.get(i + 1))?.max(1);
                i += 1;
            }
            a if a.starts_with('-') => return Err(format!("unknown option {a:?}; {USAGE_BENCH}")),
            a => {
                depth = a
                    .parse()
                    .ok()
                    .filter(|d| (1..=64).contains(d))
                    .ok_or_else(|| format!("DEPTH must be 1..64, got {a:?}; {USAGE_BENCH}"))?
            }
        }
        i += 1;
    }
    let report = tama_engine::search::bench::run_with(depth, threads, &tuning);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in &report.lines {
        let _ = writeln!(out, "{line}");
    }
    eprintln!(
        "info depth {depth} threads {threads} time {} ms busiest-thread nodes {}",
        report.time.as_millis(),
        report.critical_nodes
    );
    let _ = writeln!(out, "{} nodes {} nps", report.nodes, report.nps);
    Ok(())
}

/// `tama search ...`: one search from the command line, printing the
/// progress lines and the best move (for measurements and debugging).
fn search_command(args: &[String]) -> Result<(), String> {
    use std::time::Duration;
    use tama_engine::search::{SearchControl, SearchLimits, Searcher};
    let mut rules = Rules::default();
    let mut fen = None;
    let mut limits = SearchLimits::default();
    let mut threads = 1;
    let mut multipv = 1;
    let mut hash = Searcher::DEFAULT_HASH_MB;
    let mut baseline = false;
    let mut tuning = Tuning::default();
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        if parse_rule_flag(&mut rules, arg, args.get(i + 1))? {
            i += 2;
            continue;
        }
        let value = args.get(i + 1);
        match arg {
            "--fen" => fen = Some(value.ok_or("--fen needs a value")?.clone()),
            "--depth" => limits.depth = Some(number(arg, value)?),
            "--movetime" => limits.movetime = Some(Duration::from_millis(number(arg, value)?)),
            "--nodes" => limits.nodes = Some(number(arg, value)?),
            "--threads" => threads = number(arg, value)?,
            "--multipv" => multipv = number(arg, value)?,
            "--hash" => hash = number(arg, value)?,
            "--set" => apply_set(&mut tuning, value)?,
            "--baseline" => {
                baseline = true;
                i += 1;
                continue;
            }
            _ => return Err(format!("unknown argument {arg:?}; {USAGE_SEARCH}")),
        }
        i += 2;
    }
    if limits.depth.is_none() && limits.movetime.is_none() && limits.nodes.is_none() {
        limits.movetime = Some(Duration::from_millis(1000));
    }
    let pos = match &fen {
        Some(f) => Position::from_fen(f, rules).map_err(|e| e.to_string())?,
        None => Position::startpos(rules),
    };
    let mut searcher = Searcher::new(hash);
    *searcher.tuning_mut() = tuning;
    let o = searcher.options_mut();
    o.threads = threads.max(1);
    o.multipv = multipv.max(1);
    o.baseline = baseline;
    o.move_overhead = Duration::ZERO;
    let game = tama_engine::Game::new(pos);
    let out = searcher.search(&game, &limits, &SearchControl::new(), &mut |info| {
        let pv: Vec<String> = {
            let mut p = pos;
            info.pv
                .iter()
                .map(|m| {
                    let t = p.move_text(m);
                    p = p.play(m);
                    t
                })
                .collect()
        };
        println!(
            "info depth {} seldepth {} multipv {} score {:?} {:?} nodes {} nps {} hashfull {} time {} pv {}",
            info.depth,
            info.seldepth,
            info.multipv,
            info.score,
            info.bound,
            info.nodes,
            info.nps,
            info.hashfull,
            info.time.as_millis(),
            pv.join(" ")
        );
    });
    println!(
        "bestmove {} ponder {} score {:?} depth {} nodes {}",
        out.best_move.map_or("(none)".into(), |m| pos.move_text(&m)),
        out.ponder_move
            .zip(out.best_move)
            .map_or("(none)".into(), |(pm, m)| pos.play(&m).move_text(&pm)),
        out.score,
        out.depth,
        out.nodes
    );
    Ok(())
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
