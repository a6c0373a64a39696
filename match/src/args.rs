//! The command line of `tama match`, in the style of cutechess-cli and
//! fastchess: single-dash flags (`-rounds 10`; `--rounds` is accepted too),
//! some followed by a group of `key=value` settings (`-engine cmd=a name=b`).
//!
//! The grammar is the table `FLAGS`: each flag's names, how many arguments
//! it takes, its help text and the function that applies it. The engine
//! settings of `-engine` and `-each` are the table `ENGINE_KEYS`.
//! `tama match --help` prints both tables.

use super::adjudication::{DrawAdjudication, ResignAdjudication};
use super::config::{Config, EngineSpec, Order, Tournament};
use super::sprt::Sprt;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;
use tama_shard::Shard;

/// What the command line asks for.
#[derive(Debug)]
pub enum Command {
    Run(Box<Config>),
    Merge {
        files: Vec<PathBuf>,
        results: Option<PathBuf>,
        sprt: Option<Sprt>,
    },
    /// `--dump-openings`: print the openings (in playing order) as an
    /// openings file (`start FEN | moves`) and exit.
    DumpOpenings(Box<Config>),
    /// `-help`: the usage text on stdout.
    Help,
}

/// How many arguments follow a flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arity {
    /// None (`-quiet`).
    Switch,
    /// Exactly one (`-rounds 10`). It may begin with `-` only when it is a
    /// number, so that `-rounds -3` is refused as a bad count rather than
    /// read as a flag.
    One,
    /// Every argument up to the next flag (`-engine cmd=a name=b`).
    Group,
}

/// One flag of the table.
struct Flag {
    /// Names without the dash; the first is the one the help shows.
    names: &'static [&'static str],
    arity: Arity,
    /// What follows the flag, for the help.
    args: &'static str,
    help: &'static str,
    /// Applies the flag (as typed, for messages) and its arguments.
    apply: fn(&mut Parsed, &str, &[String]) -> Result<(), String>,
}

/// One engine setting of `-engine` / `-each`.
struct EngineKey {
    key: &'static str,
    /// What follows `key=`, for the help.
    value: &'static str,
    help: &'static str,
    /// Applies the setting (the key as given, for `option.NAME`).
    apply: fn(&mut EngineSpec, &str, &str) -> Result<(), String>,
}

/// The command line as read so far.
#[derive(Default)]
struct Parsed {
    config: Config,
    /// Each `-engine`'s settings, in order.
    engines: Vec<Vec<(String, String)>>,
    /// `-each`'s settings (an engine's own come after, and win).
    each: Vec<(String, String)>,
    games_given: bool,
    merge: Option<Vec<PathBuf>>,
    dump: bool,
    help: bool,
}

const FLAGS: &[Flag] = &[
    Flag {
        names: &["engine"],
        arity: Arity::Group,
        args: "KEY=VALUE...",
        help: "an engine (two or more), with the settings below",
        apply: |p, _, v| {
            p.engines.push(settings(v));
            Ok(())
        },
    },
    Flag {
        names: &["each"],
        arity: Arity::Group,
        args: "KEY=VALUE...",
        help: "settings for every engine (an engine's own win)",
        apply: |p, _, v| {
            p.each.extend(settings(v));
            Ok(())
        },
    },
    Flag {
        names: &["tournament"],
        arity: Arity::One,
        args: "round-robin|gauntlet",
        help: "with more than two engines: everyone against everyone (default), \
               or the first engine against each other one",
        apply: |p, _, v| {
            p.config.tournament = match v[0].as_str() {
                "round-robin" | "roundrobin" => Tournament::RoundRobin,
                "gauntlet" => Tournament::Gauntlet,
                other => return Err(format!("-tournament: unknown kind {other:?}")),
            };
            Ok(())
        },
    },
    Flag {
        names: &["rounds"],
        arity: Arity::One,
        args: "N",
        help: "rounds (default 1)",
        apply: |p, f, v| put(&mut p.config.rounds, num(f, &v[0])),
    },
    Flag {
        names: &["games"],
        arity: Arity::One,
        args: "N",
        help: "games per pairing per round (default 1, or 2 with -repeat)",
        apply: |p, f, v| {
            p.config.games = num(f, &v[0])?;
            p.games_given = true;
            Ok(())
        },
    },
    Flag {
        names: &["repeat"],
        arity: Arity::Group,
        args: "",
        help: "games in pairs on the same opening with colours reversed",
        apply: repeat,
    },
    Flag {
        names: &["concurrency"],
        arity: Arity::One,
        args: "N",
        help: "games played at once, 1 to 256 (default 1)",
        apply: |p, f, v| put(&mut p.config.concurrency, num(f, &v[0])),
    },
    Flag {
        names: &["openings"],
        arity: Arity::Group,
        args: "builtin|file=PATH [KEY=VALUE...]",
        help: "where games start: builtin (the default: the balanced suite of \
               data/openings/) or file=PATH, with format=fen|pdn, \
               order=sequential|random, start=N (the first opening, from 1); \
               generate: the suite's candidates, made afresh",
        apply: openings,
    },
    Flag {
        names: &["seed", "srand"],
        arity: Arity::One,
        args: "N",
        help: "seed of order=random (default 0)",
        apply: |p, f, v| put(&mut p.config.seed, num(f, &v[0])),
    },
    Flag {
        names: &["event"],
        arity: Arity::One,
        args: "NAME",
        help: "the PDN Event tag and the tables' title",
        apply: |p, _, v| {
            p.config.event = v[0].clone();
            Ok(())
        },
    },
    Flag {
        names: &["variant"],
        arity: Arity::One,
        args: "armenian|turkish",
        help: "the rules of every game (default armenian)",
        apply: |p, _, v| put(&mut p.config.rules.variant, v[0].parse()),
    },
    Flag {
        names: &["capture-removal", "captureremoval"],
        arity: Arity::One,
        args: "immediate|deferred",
        help: "when captured pieces leave the board",
        apply: |p, _, v| put(&mut p.config.rules.capture_removal, v[0].parse()),
    },
    Flag {
        names: &["mid-capture-promotion", "midcapturepromotion"],
        arity: Arity::One,
        args: "false|true",
        help: "whether a man crowned during a capture goes on as a king",
        apply: |p, _, v| {
            put(
                &mut p.config.rules.mid_capture_promotion,
                tama_engine::rules::parse_bool(&v[0]),
            )
        },
    },
    Flag {
        names: &["draw"],
        arity: Arity::Group,
        args: "movenumber=N movecount=N score=CP",
        help: "after move N, a draw when both scores stayed within CP of 0 \
               for movecount moves each (defaults 0, 10, 10)",
        apply: draw,
    },
    Flag {
        names: &["resign"],
        arity: Arity::Group,
        args: "movecount=N score=CP",
        help: "a loss when both scores were at least CP against one side \
               for movecount moves each (defaults 5, 600)",
        apply: resign,
    },
    Flag {
        names: &["noprogress"],
        arity: Arity::One,
        args: "N",
        help: "a draw after N moves of each side without capture or man move",
        apply: |p, f, v| {
            put(
                &mut p.config.adjudication.noprogress,
                num(f, &v[0]).map(Some),
            )
        },
    },
    Flag {
        names: &["maxmoves"],
        arity: Arity::One,
        args: "N",
        help: "a draw when the game reaches N moves of each side",
        apply: |p, f, v| put(&mut p.config.adjudication.maxmoves, num(f, &v[0]).map(Some)),
    },
    Flag {
        names: &["timemargin"],
        arity: Arity::One,
        args: "MS",
        help: "how late a move may come before it loses on time (default 100)",
        apply: |p, f, v| put(&mut p.config.timemargin, millis(f, &v[0])),
    },
    Flag {
        names: &["hangtimeout"],
        arity: Arity::One,
        args: "SECS",
        help: "with no clock, when an engine is sent stop (default 60)",
        apply: hang_timeout,
    },
    Flag {
        names: &["sprt"],
        arity: Arity::Group,
        args: "elo0=E0 elo1=E1 alpha=A beta=B | E0 E1 A B",
        help: "stop when the SPRT decides (two engines; defaults 0, 5, 0.05, 0.05)",
        apply: |p, _, v| put(&mut p.config.sprt, sprt(v).map(Some)),
    },
    Flag {
        names: &["pdnout", "pgnout"],
        arity: Arity::One,
        args: "FILE",
        help: "append every finished game to FILE as PDN",
        apply: |p, _, v| {
            p.config.pdnout = Some(PathBuf::from(&v[0]));
            Ok(())
        },
    },
    Flag {
        names: &["results"],
        arity: Arity::One,
        args: "FILE.json",
        help: "write the results as JSON after every game (for scripts, --merge, -resume)",
        apply: |p, _, v| {
            p.config.results = Some(PathBuf::from(&v[0]));
            Ok(())
        },
    },
    Flag {
        names: &["resume"],
        arity: Arity::Switch,
        args: "",
        help: "go on with the match of the -results file: count its games, play \
               only the others (none yet: the match starts)",
        apply: |p, _, _| {
            p.config.resume = true;
            Ok(())
        },
    },
    Flag {
        names: &["shard"],
        arity: Arity::One,
        args: "K/N",
        help: "play only the K-th of N disjoint parts of the match (pairs kept \
               together, game numbers unchanged); --merge adds the N results files",
        apply: |p, _, v| {
            put(
                &mut p.config.shard,
                Shard::parse(&v[0])
                    .map(Some)
                    .map_err(|e| format!("-shard: {e}")),
            )
        },
    },
    Flag {
        names: &["quiet"],
        arity: Arity::Switch,
        args: "",
        help: "no progress lines on stderr",
        apply: |p, _, _| {
            p.config.quiet = true;
            Ok(())
        },
    },
    Flag {
        names: &["merge"],
        arity: Arity::Group,
        args: "A.json B.json...",
        help: "add results files into one table (no games are played)",
        apply: |p, _, v| {
            p.merge
                .get_or_insert_with(Vec::new)
                .extend(v.iter().map(PathBuf::from));
            Ok(())
        },
    },
    Flag {
        names: &["dump-openings"],
        arity: Arity::Switch,
        args: "",
        help: "print the openings in playing order as an openings file",
        apply: |p, _, _| {
            p.dump = true;
            Ok(())
        },
    },
    Flag {
        names: &["help", "h"],
        arity: Arity::Switch,
        args: "",
        help: "this text",
        apply: |p, _, _| {
            p.help = true;
            Ok(())
        },
    },
];

const ENGINE_KEYS: &[EngineKey] = &[
    EngineKey {
        key: "cmd",
        value: "PATH",
        help: "the program to run (required)",
        apply: |s, _, v| {
            s.command.cmd = v.to_string();
            Ok(())
        },
    },
    EngineKey {
        key: "name",
        value: "NAME",
        help: "its name in the tables and the PDN (default: the command)",
        apply: |s, _, v| {
            s.command.name = v.to_string();
            Ok(())
        },
    },
    EngineKey {
        key: "arg",
        value: "ARG",
        help: "one command-line argument for it (repeatable)",
        apply: |s, _, v| {
            s.command.args.push(v.to_string());
            Ok(())
        },
    },
    EngineKey {
        key: "dir",
        value: "DIR",
        help: "its working directory",
        apply: |s, _, v| {
            s.command.dir = Some(PathBuf::from(v));
            Ok(())
        },
    },
    EngineKey {
        key: "proto",
        value: "uci|hub",
        help: "its protocol (default uci)",
        apply: |s, _, v| put(&mut s.command.proto, v.parse()),
    },
    EngineKey {
        key: "option.NAME",
        value: "VALUE",
        help: "an engine option (UCI setoption, Hub set-param)",
        apply: engine_option,
    },
    EngineKey {
        key: "tc",
        value: "[MOVES/]SECS[+INC]",
        help: "a clock: 10+0.1, 40/60+0.6, 1:30+1, inf",
        apply: |s, _, v| s.tc.set_tc(v),
    },
    EngineKey {
        key: "st",
        value: "SECS",
        help: "a fixed time per move",
        apply: |s, _, v| s.tc.set_st(v),
    },
    EngineKey {
        key: "depth",
        value: "N",
        help: "a fixed search depth, 1 to 1000",
        apply: |s, _, v| put(&mut s.tc.depth, limit("depth", v, 1000).map(Some)),
    },
    EngineKey {
        key: "nodes",
        value: "N",
        help: "a fixed number of nodes per move, 1 to 10^15",
        apply: |s, _, v| {
            put(
                &mut s.tc.nodes,
                limit("nodes", v, 1_000_000_000_000_000).map(Some),
            )
        },
    },
    EngineKey {
        key: "timemargin",
        value: "MS",
        help: "its own -timemargin",
        apply: |s, _, v| put(&mut s.timemargin, millis("timemargin", v).map(Some)),
    },
];

/// Parses the arguments after `tama match`.
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut p = Parsed::default();
    let mut i = 0;
    while i < args.len() {
        let raw = args[i].as_str();
        let flag = find_flag(raw)?;
        i += 1;
        let n = arity_count(flag.arity, &args[i..]);
        if flag.arity == Arity::One && n == 0 {
            return Err(format!("{raw} needs a value"));
        }
        (flag.apply)(&mut p, raw, &args[i..i + n])?;
        i += n;
        if p.help {
            return Ok(Command::Help);
        }
    }
    p.finish()
}

/// The flag an argument names; `--flag` is accepted for `-flag`.
fn find_flag(raw: &str) -> Result<&'static Flag, String> {
    let Some(name) = raw.strip_prefix('-') else {
        return Err(format!(
            "unexpected argument {raw:?} (`tama match --help` lists the flags)"
        ));
    };
    let name = name.strip_prefix('-').unwrap_or(name);
    FLAGS
        .iter()
        .find(|f| f.names.contains(&name))
        .ok_or_else(|| format!("unknown option {raw:?} (`tama match --help` lists the flags)"))
}

/// How many of `rest` belong to a flag of this arity.
fn arity_count(arity: Arity, rest: &[String]) -> usize {
    match arity {
        Arity::Switch => 0,
        Arity::One => match rest.first() {
            Some(v) if !v.starts_with('-') || v.parse::<f64>().is_ok() => 1,
            _ => 0,
        },
        Arity::Group => rest.iter().take_while(|a| !a.starts_with('-')).count(),
    }
}

/// `key=value` settings; a bare word is a key with an empty value.
fn settings(args: &[String]) -> Vec<(String, String)> {
    args.iter()
        .map(|a| match a.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => (a.to_string(), String::new()),
        })
        .collect()
}

/// Stores a value read from the command line, or passes its error on (as
/// the text this parser's errors are).
fn put<T, E: std::fmt::Display>(slot: &mut T, value: Result<T, E>) -> Result<(), String> {
    *slot = value.map_err(|e| e.to_string())?;
    Ok(())
}

fn num<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{flag}: expected a number, got {v:?}"))
}

/// A search limit: a whole number from 1 to `max` (an engine refuses
/// `go depth 0`, and the game would be lost to a "hang" much later).
fn limit<T>(key: &str, v: &str, max: T) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + From<u8> + std::fmt::Display,
{
    match v.parse::<T>() {
        Ok(n) if n >= T::from(1) && n <= max => Ok(n),
        _ => Err(format!(
            "{key}: expected a whole number from 1 to {max}, got {v:?}"
        )),
    }
}

fn millis(flag: &str, v: &str) -> Result<Duration, String> {
    let ms: f64 = num(flag, v)?;
    if !ms.is_finite() || !(0.0..=1e9).contains(&ms) {
        return Err(format!("{flag}: out of range: {v}"));
    }
    Ok(Duration::from_secs_f64(ms / 1000.0))
}

/// `-repeat`, also as cutechess's `-repeat 2`.
fn repeat(p: &mut Parsed, flag: &str, v: &[String]) -> Result<(), String> {
    match v {
        [] => {}
        [n] if n.parse::<u32>().is_ok() => {}
        _ => {
            return Err(format!(
                "unexpected argument {:?} after {flag}",
                v[v.len() - 1]
            ))
        }
    }
    p.config.repeat = true;
    Ok(())
}

fn openings(p: &mut Parsed, _: &str, v: &[String]) -> Result<(), String> {
    let o = &mut p.config.openings;
    for (k, v) in settings(v) {
        match k.as_str() {
            "builtin" => {
                o.file = None;
                o.generate = false;
            }
            "generate" => {
                o.file = None;
                o.generate = true;
            }
            "file" => o.file = Some(PathBuf::from(v)),
            "format" => o.format = v.to_ascii_lowercase(),
            "order" => {
                o.order = match v.as_str() {
                    "sequential" => Order::Sequential,
                    "random" => Order::Random,
                    _ => return Err(format!("-openings: unknown order {v:?}")),
                }
            }
            "start" => o.start = num("-openings start", &v)?,
            // cutechess settings that mean nothing here.
            "policy" | "plies" => {}
            _ => return Err(format!("-openings: unknown setting {k:?}")),
        }
    }
    Ok(())
}

fn draw(p: &mut Parsed, _: &str, v: &[String]) -> Result<(), String> {
    let mut d = DrawAdjudication {
        movenumber: 0,
        movecount: 10,
        score: 10,
    };
    for (k, v) in settings(v) {
        match k.as_str() {
            "movenumber" => d.movenumber = num("-draw movenumber", &v)?,
            "movecount" => d.movecount = num("-draw movecount", &v)?,
            "score" => d.score = num("-draw score", &v)?,
            _ => return Err(format!("-draw: unknown setting {k:?}")),
        }
    }
    p.config.adjudication.draw = Some(d);
    Ok(())
}

fn resign(p: &mut Parsed, _: &str, v: &[String]) -> Result<(), String> {
    let mut r = ResignAdjudication {
        movecount: 5,
        score: 600,
    };
    for (k, v) in settings(v) {
        match k.as_str() {
            "movecount" => r.movecount = num("-resign movecount", &v)?,
            "score" => r.score = num("-resign score", &v)?,
            // Both engines must always agree here.
            "twosided" => {}
            _ => return Err(format!("-resign: unknown setting {k:?}")),
        }
    }
    if r.movecount == 0 {
        return Err("-resign: movecount must be at least 1".into());
    }
    p.config.adjudication.resign = Some(r);
    Ok(())
}

fn hang_timeout(p: &mut Parsed, flag: &str, v: &[String]) -> Result<(), String> {
    let s: f64 = num(flag, &v[0])?;
    if !(s.is_finite() && s > 0.0 && s < 1e7) {
        return Err(format!("{flag}: out of range"));
    }
    p.config.hang_timeout = Duration::from_secs_f64(s);
    Ok(())
}

/// `-sprt elo0=0 elo1=10 alpha=0.05 beta=0.05`, or four bare numbers.
fn sprt(v: &[String]) -> Result<Sprt, String> {
    let kv = settings(v);
    let mut s = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    if !kv.is_empty() && kv.iter().all(|(_, v)| v.is_empty()) {
        let x: Vec<f64> = kv
            .iter()
            .map(|(k, _)| num("-sprt", k))
            .collect::<Result<_, _>>()?;
        let [elo0, elo1, alpha, beta] = x[..] else {
            return Err("-sprt: give elo0 elo1 alpha beta".into());
        };
        s = Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        };
    } else {
        for (k, v) in &kv {
            let x: f64 = num(&format!("-sprt {k}"), v)?;
            match k.as_str() {
                "elo0" => s.elo0 = x,
                "elo1" => s.elo1 = x,
                "alpha" => s.alpha = x,
                "beta" => s.beta = x,
                _ => return Err(format!("-sprt: unknown setting {k:?}")),
            }
        }
    }
    s.validate()?;
    Ok(s)
}

/// `option.NAME=VALUE`: the last value given for a name wins, whatever its
/// case (engines compare option names without case).
fn engine_option(spec: &mut EngineSpec, key: &str, value: &str) -> Result<(), String> {
    let name = key.strip_prefix("option.").unwrap_or("");
    if name.is_empty() {
        return Err("option.NAME=VALUE needs a name".into());
    }
    let options = &mut spec.command.options;
    options.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
    options.push((name.to_string(), value.to_string()));
    Ok(())
}

/// Applies one `key=value` of `-engine` / `-each`.
fn engine_key(spec: &mut EngineSpec, key: &str, value: &str) -> Result<(), String> {
    let lookup = if key.starts_with("option.") {
        "option.NAME"
    } else {
        key
    };
    let k = ENGINE_KEYS
        .iter()
        .find(|k| k.key == lookup)
        .ok_or_else(|| format!("unknown engine setting {key:?}"))?;
    (k.apply)(spec, key, value)
}

impl Parsed {
    /// The command, once every flag is read: checks what single flags
    /// cannot check alone.
    fn finish(mut self) -> Result<Command, String> {
        if let Some(files) = self.merge {
            if files.is_empty() {
                return Err("--merge needs at least one results file".into());
            }
            return Ok(Command::Merge {
                files,
                results: self.config.results,
                sprt: self.config.sprt,
            });
        }
        if self.dump {
            return Ok(Command::DumpOpenings(Box::new(self.config)));
        }
        if self.config.repeat && !self.games_given {
            self.config.games = 2;
        }
        self.config.engines = engine_specs(&self.engines, &self.each)?;
        check(&self.config)?;
        Ok(Command::Run(Box::new(self.config)))
    }
}

/// Each `-engine`'s settings after `-each`'s, with names made unique (names
/// tell engines apart in the tables).
fn engine_specs(
    engines: &[Vec<(String, String)>],
    each: &[(String, String)],
) -> Result<Vec<EngineSpec>, String> {
    let mut specs: Vec<EngineSpec> = Vec::new();
    for (n, kv) in engines.iter().enumerate() {
        let mut spec = EngineSpec::default();
        for (k, v) in each.iter().chain(kv.iter()) {
            engine_key(&mut spec, k, v).map_err(|e| format!("engine {}: {e}", n + 1))?;
        }
        if spec.command.cmd.is_empty() {
            return Err(format!("engine {}: cmd=PATH is required", n + 1));
        }
        if spec.command.name.is_empty() {
            spec.command.name = spec.command.cmd.clone();
        }
        if specs.iter().any(|e| e.command.name == spec.command.name) {
            spec.command.name = format!("{}-{}", spec.command.name, n + 1);
        }
        specs.push(spec);
    }
    Ok(specs)
}

/// The checks of a match configuration as a whole.
fn check(c: &Config) -> Result<(), String> {
    if c.engines.len() < 2 {
        return Err("at least two -engine are needed (`tama match --help`)".into());
    }
    if c.rounds == 0 || c.games == 0 {
        return Err("-rounds and -games must be at least 1".into());
    }
    if c.concurrency == 0 || c.concurrency > 256 {
        return Err("-concurrency must be between 1 and 256".into());
    }
    if c.openings.start == 0 {
        return Err("-openings start= counts from 1".into());
    }
    if c.sprt.is_some() && c.engines.len() != 2 {
        return Err("-sprt needs exactly two engines".into());
    }
    if c.resume && c.results.is_none() {
        return Err("-resume needs -results FILE.json, the file to go on from".into());
    }
    if c.sprt.is_some() && c.shard.is_some() {
        return Err(
            "-sprt with -shard: a shard must not stop on its part alone; give -sprt to --merge"
                .into(),
        );
    }
    for e in &c.engines {
        if !e.tc.is_limited() {
            return Err(format!(
                "engine {:?} has no limit: give tc=, st=, depth= or nodes= (or -each tc=...)",
                e.command.name
            ));
        }
    }
    Ok(())
}

/// `tama match --help`: the usage, then the tables of flags and of engine
/// settings.
pub fn help() -> String {
    let mut s = String::from(
        "usage: tama match -engine KEY=VALUE... -engine KEY=VALUE... [FLAG...]\n       \
         tama match --merge A.json B.json... [-results OUT.json] [-sprt ...]\n       \
         tama match --dump-openings [-variant ...] [-openings ...] [-seed N]\n\n\
         Flags (one dash or two; docs/match.md has the details):\n",
    );
    for f in FLAGS {
        let mut text = f.help.to_string();
        if f.names.len() > 1 {
            let aliases: Vec<String> = f.names[1..].iter().map(|n| format!("-{n}")).collect();
            text += &format!(" (also {})", aliases.join(", "));
        }
        help_row(&mut s, &format!("-{} {}", f.names[0], f.args), &text);
    }
    s.push_str(
        "\nEngine settings (after -engine, or -each for every engine); every engine\n\
         needs a limit (tc, st, depth or nodes):\n",
    );
    for k in ENGINE_KEYS {
        help_row(&mut s, &format!("{}={}", k.key, k.value), k.help);
    }
    s
}

/// One row of the help: the flag and its arguments, then the text wrapped
/// in a column (starting on the next line when the flag is too wide).
fn help_row(s: &mut String, left: &str, text: &str) {
    const COLUMN: usize = 36;
    const LINE: usize = 80;
    let left = left.trim_end();
    let mut line = format!("  {left}");
    if line.len() >= COLUMN {
        let _ = writeln!(s, "{line}");
        line.clear();
    }
    line = format!("{line:<COLUMN$}");
    for word in text.split(' ') {
        if line.len() > COLUMN && line.len() + 1 + word.len() > LINE {
            let _ = writeln!(s, "{line}");
            line = format!("{:<COLUMN$}", "");
        }
        if line.len() > COLUMN {
            line.push(' ');
        }
        line.push_str(word);
    }
    let _ = writeln!(s, "{line}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::Proto;

    fn argv(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn full_command_line() {
        let cmd = parse(&argv(
            "-engine cmd=./a name=A option.Hash=32 -engine cmd=./b proto=hub depth=3 \
             -each tc=40/60+0.6 option.Threads=1 -rounds 200 -repeat -concurrency 2 \
             -openings file=o.pdn format=pdn order=random -seed 7 -pdnout g.pdn \
             -sprt elo0=0 elo1=10 alpha=0.05 beta=0.1 --variant turkish \
             -capture-removal deferred -mid-capture-promotion true -draw movenumber=30 \
             movecount=8 score=5 -resign movecount=4 score=700 -noprogress 25 -maxmoves 200 \
             -timemargin 50 -results r.json",
        ))
        .unwrap();
        let Command::Run(c) = cmd else {
            panic!("not a run")
        };
        assert_eq!(c.engines.len(), 2);
        let a = &c.engines[0];
        assert_eq!(a.command.name, "A");
        assert_eq!(
            a.command.options,
            vec![
                ("Threads".to_string(), "1".to_string()),
                ("Hash".to_string(), "32".to_string())
            ]
        );
        assert_eq!(a.tc.moves, Some(40));
        let b = &c.engines[1];
        assert_eq!(b.command.name, "./b");
        assert_eq!(b.command.proto, Proto::Hub);
        assert_eq!(b.tc.depth, Some(3));
        assert_eq!((c.rounds, c.games, c.repeat), (200, 2, true));
        assert_eq!(c.concurrency, 2);
        assert_eq!(c.openings.order, Order::Random);
        assert_eq!(c.openings.format, "pdn");
        assert_eq!(c.seed, 7);
        assert_eq!(c.rules.variant, tama_engine::Variant::Turkish);
        assert!(c.rules.mid_capture_promotion);
        assert_eq!(c.sprt.unwrap().beta, 0.1);
        assert_eq!(c.adjudication.noprogress, Some(25));
        assert_eq!(c.adjudication.maxmoves, Some(200));
        assert_eq!(c.adjudication.draw.unwrap().movenumber, 30);
        assert_eq!(c.adjudication.resign.unwrap().score, 700);
        assert_eq!(c.timemargin, Duration::from_millis(50));
    }

    #[test]
    fn sprt_positional_and_merge() {
        let Command::Run(c) = parse(&argv(
            "-engine cmd=a -engine cmd=a -each st=0.1 -sprt 0 5 0.05 0.05",
        ))
        .unwrap() else {
            panic!()
        };
        assert_eq!(c.sprt.unwrap().elo1, 5.0);
        // Same names are made unique.
        assert_eq!(c.engines[1].command.name, "a-2");
        match parse(&argv("--merge a.json b.json -results c.json")).unwrap() {
            Command::Merge { files, results, .. } => {
                assert_eq!(files.len(), 2);
                assert_eq!(results.unwrap(), PathBuf::from("c.json"));
            }
            _ => panic!("not a merge"),
        }
    }

    #[test]
    fn errors() {
        for bad in [
            "",
            "-engine cmd=a st=1",
            "-engine cmd=a -engine cmd=b",
            "-engine cmd=a st=1 -engine name=b st=1",
            "-engine cmd=a st=1 -engine cmd=b st=1 -rounds x",
            "-engine cmd=a st=1 -engine cmd=b st=1 -bogus",
            "-engine cmd=a st=1 -engine cmd=b st=1 -sprt elo0=10 elo1=0",
            "-engine cmd=a st=1 -engine cmd=b st=1 -engine cmd=c st=1 -sprt 0 5 .05 .05",
            "-engine cmd=a st=1 foo=bar -engine cmd=b st=1",
            "-engine cmd=a tc=x -engine cmd=b st=1",
            "-engine cmd=a st=1 -engine cmd=b st=1 -variant chess",
            "-engine cmd=a st=1 -engine cmd=b st=1 -concurrency 0",
            "-engine cmd=a depth=0 -engine cmd=b st=1",
            "-engine cmd=a st=1 -engine cmd=b st=1 -each depth=0",
            "-engine cmd=a nodes=0 -engine cmd=b st=1",
            "-engine cmd=a depth=-2 -engine cmd=b st=1",
            "-engine cmd=a depth=1001 -engine cmd=b st=1",
            "-engine cmd=a nodes=1e30 -engine cmd=b st=1",
            "-engine cmd=a st=1 -engine cmd=b st=1 -shard 3/2",
            "-engine cmd=a st=1 -engine cmd=b st=1 -shard 1/2 -sprt",
        ] {
            assert!(parse(&argv(bad)).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn repeat_takes_an_optional_count() {
        let base = "-engine cmd=a st=1 -engine cmd=b st=1 -repeat";
        for ok in ["", " 2", " -rounds 3", " 2 -rounds 3"] {
            let Command::Run(c) = parse(&argv(&format!("{base}{ok}"))).unwrap() else {
                panic!("{ok:?}")
            };
            assert!(c.repeat && c.games == 2, "{ok:?}");
        }
        for bad in [" x", " 2 3"] {
            assert!(parse(&argv(&format!("{base}{bad}"))).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn flags_have_one_meaning_and_the_help_shows_each_within_80_columns() {
        let mut names: Vec<&str> = FLAGS.iter().flat_map(|f| f.names.iter().copied()).collect();
        let all = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all, "a flag name is in the table twice");
        let text = help();
        for f in FLAGS {
            for n in f.names {
                assert!(
                    text.contains(&format!("-{n}")),
                    "-{n} missing from the help"
                );
            }
            assert!(!f.help.is_empty(), "-{}", f.names[0]);
        }
        for k in ENGINE_KEYS {
            assert!(text.contains(&format!("  {}=", k.key)), "{}", k.key);
        }
        for line in text.lines() {
            assert!(line.len() <= 80, "{line:?}");
        }
        assert!(text.starts_with("usage: tama match"));
    }
}
