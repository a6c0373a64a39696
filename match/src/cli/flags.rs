//! The flags of `tama match` as a table, in the style of cutechess-cli and
//! fastchess: each flag's names, how many arguments it takes, its help text
//! and the function that applies it (`FLAGS`); the engine settings of
//! `-engine` and `-each` (`ENGINE_KEYS`); and what applying them fills
//! (`Parsed`).

use super::values::{limit, millis, num, put, settings, sprt};
use crate::config::{Config, EngineSpec, Order, Tournament};
use crate::error::UsageError;
use crate::play::adjudication::{DrawAdjudication, ResignAdjudication};
use std::path::PathBuf;
use std::time::Duration;
use tama_shard::Shard;

/// How many arguments follow a flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Arity {
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
pub(super) struct Flag {
    /// Names without the dash; the first is the one the help shows.
    pub(super) names: &'static [&'static str],
    pub(super) arity: Arity,
    /// What follows the flag, for the help.
    pub(super) args: &'static str,
    pub(super) help: &'static str,
    /// Applies the flag (as typed, for messages) and its arguments.
    pub(super) apply: fn(&mut Parsed, &str, &[String]) -> Result<(), UsageError>,
}

/// One engine setting of `-engine` / `-each`.
pub(super) struct EngineKey {
    pub(super) key: &'static str,
    /// What follows `key=`, for the help.
    pub(super) value: &'static str,
    pub(super) help: &'static str,
    /// Applies the setting (the key as given, for `option.NAME`).
    pub(super) apply: fn(&mut EngineSpec, &str, &str) -> Result<(), UsageError>,
}

/// The command line as read so far.
#[derive(Default)]
pub(super) struct Parsed {
    pub(super) config: Config,
    /// Each `-engine`'s settings, in order.
    pub(super) engines: Vec<Vec<(String, String)>>,
    /// `-each`'s settings (an engine's own come after, and win).
    pub(super) each: Vec<(String, String)>,
    pub(super) games_given: bool,
    pub(super) merge: Option<Vec<PathBuf>>,
    pub(super) dump: bool,
    pub(super) help: bool,
}

pub(super) const FLAGS: &[Flag] = &[
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
                other => return Err(format!("-tournament: unknown kind {other:?}").into()),
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

pub(super) const ENGINE_KEYS: &[EngineKey] = &[
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

/// `-repeat`, also as cutechess's `-repeat 2`.
pub(super) fn repeat(p: &mut Parsed, flag: &str, v: &[String]) -> Result<(), UsageError> {
    match v {
        [] => {}
        [n] if n.parse::<u32>().is_ok() => {}
        _ => return Err(format!("unexpected argument {:?} after {flag}", v[v.len() - 1]).into()),
    }
    p.config.repeat = true;
    Ok(())
}

pub(super) fn openings(p: &mut Parsed, _: &str, v: &[String]) -> Result<(), UsageError> {
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
                    _ => return Err(format!("-openings: unknown order {v:?}").into()),
                }
            }
            "start" => o.start = num("-openings start", &v)?,
            // cutechess settings that mean nothing here.
            "policy" | "plies" => {}
            _ => return Err(format!("-openings: unknown setting {k:?}").into()),
        }
    }
    Ok(())
}

pub(super) fn draw(p: &mut Parsed, _: &str, v: &[String]) -> Result<(), UsageError> {
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
            _ => return Err(format!("-draw: unknown setting {k:?}").into()),
        }
    }
    p.config.adjudication.draw = Some(d);
    Ok(())
}

pub(super) fn resign(p: &mut Parsed, _: &str, v: &[String]) -> Result<(), UsageError> {
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
            _ => return Err(format!("-resign: unknown setting {k:?}").into()),
        }
    }
    if r.movecount == 0 {
        return Err("-resign: movecount must be at least 1".into());
    }
    p.config.adjudication.resign = Some(r);
    Ok(())
}

pub(super) fn hang_timeout(p: &mut Parsed, flag: &str, v: &[String]) -> Result<(), UsageError> {
    let s: f64 = num(flag, &v[0])?;
    if !(s.is_finite() && s > 0.0 && s < 1e7) {
        return Err(format!("{flag}: out of range").into());
    }
    p.config.hang_timeout = Duration::from_secs_f64(s);
    Ok(())
}

/// `option.NAME=VALUE`: the last value given for a name wins, whatever its
/// case (engines compare option names without case).
pub(super) fn engine_option(
    spec: &mut EngineSpec,
    key: &str,
    value: &str,
) -> Result<(), UsageError> {
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
pub(super) fn engine_key(spec: &mut EngineSpec, key: &str, value: &str) -> Result<(), UsageError> {
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
