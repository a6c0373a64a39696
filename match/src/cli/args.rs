//! The command line of `tama match`, in the style of cutechess-cli and
//! fastchess: single-dash flags (`-rounds 10`; `--rounds` is accepted too),
//! some followed by a group of `key=value` settings (`-engine cmd=a name=b`).
//!
//! The grammar is the table `FLAGS` (`flags`), the engine settings of
//! `-engine` and `-each` the table `ENGINE_KEYS`; here the arguments are
//! read against them, and the match they describe is checked as a whole.

use super::flags::{engine_key, Arity, Flag, Parsed, FLAGS};
use crate::config::{Config, EngineSpec};
use crate::error::UsageError;
use crate::stats::sprt::Sprt;
use std::path::PathBuf;

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

/// Parses the arguments after `tama match`.
pub fn parse(args: &[String]) -> Result<Command, UsageError> {
    let mut p = Parsed::default();
    let mut i = 0;
    while i < args.len() {
        let raw = args[i].as_str();
        let flag = find_flag(raw)?;
        i += 1;
        let n = arity_count(flag.arity, &args[i..]);
        if flag.arity == Arity::One && n == 0 {
            return Err(format!("{raw} needs a value").into());
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
fn find_flag(raw: &str) -> Result<&'static Flag, UsageError> {
    let Some(name) = raw.strip_prefix('-') else {
        return Err(
            format!("unexpected argument {raw:?} (`tama match --help` lists the flags)").into(),
        );
    };
    let name = name.strip_prefix('-').unwrap_or(name);
    FLAGS
        .iter()
        .find(|f| f.names.contains(&name))
        .ok_or_else(|| {
            UsageError::from(format!(
                "unknown option {raw:?} (`tama match --help` lists the flags)"
            ))
        })
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

impl Parsed {
    /// The command, once every flag is read: checks what single flags
    /// cannot check alone.
    fn finish(mut self) -> Result<Command, UsageError> {
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
) -> Result<Vec<EngineSpec>, UsageError> {
    let mut specs: Vec<EngineSpec> = Vec::new();
    for (n, kv) in engines.iter().enumerate() {
        let mut spec = EngineSpec::default();
        for (k, v) in each.iter().chain(kv.iter()) {
            engine_key(&mut spec, k, v).map_err(|e| format!("engine {}: {e}", n + 1))?;
        }
        if spec.command.cmd.is_empty() {
            return Err(format!("engine {}: cmd=PATH is required", n + 1).into());
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
fn check(c: &Config) -> Result<(), UsageError> {
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
            )
            .into());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::Proto;
    use crate::config::Order;
    use std::time::Duration;

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

    /// The message of the error that parsing `args` gives.
    fn error(args: &str) -> String {
        match parse(&argv(args)) {
            Ok(c) => panic!("{args:?} parsed: {c:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn errors_name_what_was_wrong() {
        for (bad, message) in [
            ("", "at least two -engine are needed (`tama match --help`)"),
            (
                "-engine cmd=a st=1",
                "at least two -engine are needed (`tama match --help`)",
            ),
            (
                "-engine cmd=a -engine cmd=b",
                "engine \"a\" has no limit: give tc=, st=, depth= or nodes= (or -each tc=...)",
            ),
            (
                "-engine cmd=a st=1 -engine name=b st=1",
                "engine 2: cmd=PATH is required",
            ),
            (
                "-engine cmd=a st=1 -engine cmd=b st=1 -rounds x",
                "-rounds: expected a number, got \"x\"",
            ),
            (
                "-engine cmd=a st=1 -engine cmd=b st=1 -bogus",
                "unknown option \"-bogus\" (`tama match --help` lists the flags)",
            ),
            (
                "-engine cmd=a st=1 -engine cmd=b st=1 -sprt elo0=10 elo1=0",
                "-sprt: elo0 must be below elo1",
            ),
            (
                "-engine cmd=a st=1 -engine cmd=b st=1 -engine cmd=c st=1 -sprt 0 5 .05 .05",
                "-sprt needs exactly two engines",
            ),
            (
                "-engine cmd=a st=1 foo=bar -engine cmd=b st=1",
                "engine 1: unknown engine setting \"foo\"",
            ),
            (
                "-engine cmd=a tc=x -engine cmd=b st=1",
                "engine 1: tc: expected seconds, got \"x\"",
            ),
            (
                "-engine cmd=a st=1 -engine cmd=b st=1 -variant chess",
                "unknown variant \"chess\" (expected armenian or turkish)",
            ),
            (
                "-engine cmd=a st=1 -engine cmd=b st=1 -concurrency 0",
                "-concurrency must be between 1 and 256",
            ),
            (
                "-engine cmd=a depth=0 -engine cmd=b st=1",
                "engine 1: depth: expected a whole number from 1 to 1000, got \"0\"",
            ),
            (
                "-engine cmd=a st=1 -engine cmd=b st=1 -each depth=0",
                "engine 1: depth: expected a whole number from 1 to 1000, got \"0\"",
            ),
            (
                "-engine cmd=a nodes=0 -engine cmd=b st=1",
                "engine 1: nodes: expected a whole number from 1 to 1000000000000000, got \"0\"",
            ),
            (
                "-engine cmd=a depth=-2 -engine cmd=b st=1",
                "engine 1: depth: expected a whole number from 1 to 1000, got \"-2\"",
            ),
            (
                "-engine cmd=a depth=1001 -engine cmd=b st=1",
                "engine 1: depth: expected a whole number from 1 to 1000, got \"1001\"",
            ),
            (
                "-engine cmd=a nodes=1e30 -engine cmd=b st=1",
                "engine 1: nodes: expected a whole number from 1 to 1000000000000000, got \"1e30\"",
            ),
            (
                "-engine cmd=a st=1 -engine cmd=b st=1 -shard 3/2",
                "-shard: expected K/N with 1 <= K <= N, got \"3/2\"",
            ),
            (
                "-engine cmd=a st=1 -engine cmd=b st=1 -shard 1/2 -sprt",
                "-sprt with -shard: a shard must not stop on its part alone; give -sprt to --merge",
            ),
        ] {
            assert_eq!(error(bad), message, "{bad:?}");
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
        for (bad, arg) in [(" x", "x"), (" 2 3", "3")] {
            assert_eq!(
                error(&format!("{base}{bad}")),
                format!("unexpected argument {arg:?} after -repeat")
            );
        }
    }
}
