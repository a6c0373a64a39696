//! The command line of `tama match`, in the style of cutechess-cli and
//! fastchess: `-flag value...` and `key=value` groups.

use super::adjudication::{DrawAdjudication, ResignAdjudication};
use super::config::{Config, EngineSpec, Order, Tournament};
use super::sprt::Sprt;
use std::path::PathBuf;
use std::time::Duration;
#[cfg(test)]
use tama_protocol::client::Proto;

pub const USAGE: &str = "\
usage: tama match -engine cmd=PATH [name=NAME] [arg=ARG]... [dir=DIR] [proto=uci|hub]
                  [option.NAME=VALUE]... [tc=[MOVES/]SECS[+INC]] [st=SECS] [depth=N]
                  [nodes=N] [timemargin=MS]
                  -engine ... [-engine ...] [-each KEY=VALUE...]
                  [-tournament round-robin|gauntlet] [-rounds N] [-games N] [-repeat]
                  [-concurrency N] [-openings builtin|file=PATH [format=fen|pdn]
                  [order=sequential|random] [start=N]] [-seed N]
                  [-variant armenian|turkish] [-capture-removal immediate|deferred]
                  [-mid-capture-promotion false|true]
                  [-draw movenumber=N movecount=N score=CP] [-resign movecount=N score=CP]
                  [-noprogress N] [-maxmoves N] [-timemargin MS] [-hangtimeout SECS]
                  [-sprt elo0=E0 elo1=E1 alpha=A beta=B] [-event NAME]
                  [-pdnout FILE] [-results FILE.json] [-quiet]
       tama match --merge A.json B.json... [-results OUT.json] [-sprt ...]
       tama match --dump-openings [-variant ...] [-openings ...] [-seed N]";

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

fn num<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{flag}: expected a number, got {v:?}"))
}

fn millis(flag: &str, v: &str) -> Result<Duration, String> {
    let ms: f64 = num(flag, v)?;
    if !ms.is_finite() || !(0.0..=1e9).contains(&ms) {
        return Err(format!("{flag}: out of range: {v}"));
    }
    Ok(Duration::from_secs_f64(ms / 1000.0))
}

/// Applies one `key=value` of `-engine` / `-each`.
fn engine_key(spec: &mut EngineSpec, key: &str, value: &str) -> Result<(), String> {
    if let Some(name) = key.strip_prefix("option.") {
        if name.is_empty() {
            return Err("option.NAME=VALUE needs a name".into());
        }
        spec.command
            .options
            .retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        spec.command
            .options
            .push((name.to_string(), value.to_string()));
        return Ok(());
    }
    match key {
        "cmd" => spec.command.cmd = value.to_string(),
        "name" => spec.command.name = value.to_string(),
        "arg" => spec.command.args.push(value.to_string()),
        "dir" => spec.command.dir = Some(PathBuf::from(value)),
        "proto" => spec.command.proto = value.parse()?,
        "tc" => spec.tc.set_tc(value)?,
        "st" => spec.tc.set_st(value)?,
        "depth" => spec.tc.depth = Some(num("depth", value)?),
        "nodes" => spec.tc.nodes = Some(num("nodes", value)?),
        "timemargin" => spec.timemargin = Some(millis("timemargin", value)?),
        _ => return Err(format!("unknown engine setting {key:?}")),
    }
    Ok(())
}

/// `key=value` pairs following a flag, up to the next flag.
fn pairs(args: &[String], i: &mut usize) -> Vec<(String, String)> {
    let mut out = Vec::new();
    while *i < args.len() && !args[*i].starts_with('-') {
        let a = &args[*i];
        match a.split_once('=') {
            Some((k, v)) => out.push((k.to_string(), v.to_string())),
            None => out.push((a.to_string(), String::new())),
        }
        *i += 1;
    }
    out
}

fn parse_sprt(args: &[String], i: &mut usize) -> Result<Sprt, String> {
    let kv = pairs(args, i);
    let mut s = Sprt {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.05,
    };
    // Either `elo0=0 elo1=10 alpha=0.05 beta=0.05` or four bare numbers.
    if kv.iter().all(|(_, v)| v.is_empty()) && !kv.is_empty() {
        let v: Vec<f64> = kv
            .iter()
            .map(|(k, _)| num("-sprt", k))
            .collect::<Result<_, _>>()?;
        if v.len() != 4 {
            return Err("-sprt: give elo0 elo1 alpha beta".into());
        }
        s = Sprt {
            elo0: v[0],
            elo1: v[1],
            alpha: v[2],
            beta: v[3],
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

/// Parses the arguments after `tama match`.
pub fn parse(args: &[String]) -> Result<Command, String> {
    let mut c = Config::default();
    let mut engines: Vec<Vec<(String, String)>> = Vec::new();
    let mut each: Vec<(String, String)> = Vec::new();
    let mut games_given = false;
    let mut merge: Option<Vec<PathBuf>> = None;
    let mut dump = false;
    let mut i = 0;
    let value = |args: &[String], i: &mut usize, flag: &str| -> Result<String, String> {
        let v = args
            .get(*i)
            .filter(|v| !v.starts_with('-') || v.parse::<f64>().is_ok())
            .ok_or_else(|| format!("{flag} needs a value"))?
            .clone();
        *i += 1;
        Ok(v)
    };
    while i < args.len() {
        let raw = args[i].as_str();
        // `--flag` is accepted for `-flag`.
        let flag = raw.strip_prefix('-').unwrap_or(raw);
        let flag = flag.strip_prefix('-').unwrap_or(flag);
        if !raw.starts_with('-') {
            return Err(format!("unexpected argument {raw:?}\n{USAGE}"));
        }
        i += 1;
        match flag {
            "engine" => engines.push(pairs(args, &mut i)),
            "each" => each.extend(pairs(args, &mut i)),
            "tournament" => {
                c.tournament = match value(args, &mut i, raw)?.as_str() {
                    "round-robin" | "roundrobin" => Tournament::RoundRobin,
                    "gauntlet" => Tournament::Gauntlet,
                    other => return Err(format!("-tournament: unknown kind {other:?}")),
                }
            }
            "rounds" => c.rounds = num(raw, &value(args, &mut i, raw)?)?,
            "games" => {
                c.games = num(raw, &value(args, &mut i, raw)?)?;
                games_given = true;
            }
            "repeat" => {
                c.repeat = true;
                // cutechess allows `-repeat 2`.
                if args.get(i).is_some_and(|a| a.parse::<u32>().is_ok()) {
                    i += 1;
                }
            }
            "concurrency" => c.concurrency = num(raw, &value(args, &mut i, raw)?)?,
            "openings" => {
                for (k, v) in pairs(args, &mut i) {
                    match k.as_str() {
                        "builtin" => c.openings.file = None,
                        "file" => c.openings.file = Some(PathBuf::from(v)),
                        "format" => c.openings.format = v.to_ascii_lowercase(),
                        "order" => {
                            c.openings.order = match v.as_str() {
                                "sequential" => Order::Sequential,
                                "random" => Order::Random,
                                _ => return Err(format!("-openings: unknown order {v:?}")),
                            }
                        }
                        "start" => c.openings.start = num("-openings start", &v)?,
                        "policy" | "plies" => {}
                        _ => return Err(format!("-openings: unknown setting {k:?}")),
                    }
                }
            }
            "seed" | "srand" => c.seed = num(raw, &value(args, &mut i, raw)?)?,
            "variant" => c.rules.variant = value(args, &mut i, raw)?.parse()?,
            "capture-removal" | "captureremoval" => {
                c.rules.capture_removal = value(args, &mut i, raw)?.parse()?
            }
            "mid-capture-promotion" | "midcapturepromotion" => {
                c.rules.mid_capture_promotion =
                    tama_engine::rules::parse_bool(&value(args, &mut i, raw)?)?
            }
            "draw" => {
                let mut d = DrawAdjudication {
                    movenumber: 0,
                    movecount: 10,
                    score: 10,
                };
                for (k, v) in pairs(args, &mut i) {
                    match k.as_str() {
                        "movenumber" => d.movenumber = num("-draw movenumber", &v)?,
                        "movecount" => d.movecount = num("-draw movecount", &v)?,
                        "score" => d.score = num("-draw score", &v)?,
                        _ => return Err(format!("-draw: unknown setting {k:?}")),
                    }
                }
                c.adjudication.draw = Some(d);
            }
            "resign" => {
                let mut r = ResignAdjudication {
                    movecount: 5,
                    score: 600,
                };
                for (k, v) in pairs(args, &mut i) {
                    match k.as_str() {
                        "movecount" => r.movecount = num("-resign movecount", &v)?,
                        "score" => r.score = num("-resign score", &v)?,
                        "twosided" => {}
                        _ => return Err(format!("-resign: unknown setting {k:?}")),
                    }
                }
                if r.movecount == 0 {
                    return Err("-resign: movecount must be at least 1".into());
                }
                c.adjudication.resign = Some(r);
            }
            "noprogress" => c.adjudication.noprogress = Some(num(raw, &value(args, &mut i, raw)?)?),
            "maxmoves" => c.adjudication.maxmoves = Some(num(raw, &value(args, &mut i, raw)?)?),
            "timemargin" => c.timemargin = millis(raw, &value(args, &mut i, raw)?)?,
            "hangtimeout" => {
                let s: f64 = num(raw, &value(args, &mut i, raw)?)?;
                if !(s.is_finite() && s > 0.0 && s < 1e7) {
                    return Err(format!("{raw}: out of range"));
                }
                c.hang_timeout = Duration::from_secs_f64(s);
            }
            "sprt" => c.sprt = Some(parse_sprt(args, &mut i)?),
            "event" => c.event = value(args, &mut i, raw)?,
            "pdnout" | "pgnout" => c.pdnout = Some(PathBuf::from(value(args, &mut i, raw)?)),
            "results" => c.results = Some(PathBuf::from(value(args, &mut i, raw)?)),
            "quiet" => c.quiet = true,
            "merge" => {
                let files: Vec<PathBuf> = pairs(args, &mut i)
                    .into_iter()
                    .map(|(k, v)| PathBuf::from(if v.is_empty() { k } else { format!("{k}={v}") }))
                    .collect();
                merge.get_or_insert_with(Vec::new).extend(files);
            }
            "dump-openings" => dump = true,
            "help" | "h" => return Ok(Command::Help),
            _ => return Err(format!("unknown option {raw:?}\n{USAGE}")),
        }
    }
    if let Some(files) = merge {
        if files.is_empty() {
            return Err("--merge needs at least one results file".into());
        }
        return Ok(Command::Merge {
            files,
            results: c.results,
            sprt: c.sprt,
        });
    }
    if dump {
        return Ok(Command::DumpOpenings(Box::new(c)));
    }
    if c.repeat && !games_given {
        c.games = 2;
    }
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
        c.engines.push(spec);
    }
    // Names tell engines apart in the tables: make them unique.
    for n in 1..c.engines.len() {
        let name = c.engines[n].command.name.clone();
        if c.engines[..n].iter().any(|e| e.command.name == name) {
            c.engines[n].command.name = format!("{name}-{}", n + 1);
        }
    }
    if c.engines.len() < 2 {
        return Err(format!("at least two -engine are needed\n{USAGE}"));
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
    for e in &c.engines {
        if !e.tc.is_limited() {
            return Err(format!(
                "engine {:?} has no limit: give tc=, st=, depth= or nodes= (or -each tc=...)",
                e.command.name
            ));
        }
    }
    Ok(Command::Run(Box::new(c)))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        ] {
            assert!(parse(&argv(bad)).is_err(), "{bad:?}");
        }
    }
}
