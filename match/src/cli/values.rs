//! Values read from the command line: numbers, search limits, times and
//! the SPRT's settings, with the messages that name the flag.

use crate::error::UsageError;
use crate::stats::sprt::Sprt;
use std::time::Duration;

/// Stores a value read from the command line, or passes its error on (as
/// the text this parser's errors are).
pub(super) fn put<T, E: std::fmt::Display>(
    slot: &mut T,
    value: Result<T, E>,
) -> Result<(), UsageError> {
    *slot = value.map_err(|e| e.to_string())?;
    Ok(())
}

pub(super) fn num<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, UsageError> {
    v.parse()
        .map_err(|_| format!("{flag}: expected a number, got {v:?}").into())
}

/// A search limit: a whole number from 1 to `max` (an engine refuses
/// `go depth 0`, and the game would be lost to a "hang" much later).
pub(super) fn limit<T>(key: &str, v: &str, max: T) -> Result<T, UsageError>
where
    T: std::str::FromStr + PartialOrd + From<u8> + std::fmt::Display,
{
    match v.parse::<T>() {
        Ok(n) if n >= T::from(1) && n <= max => Ok(n),
        _ => Err(format!("{key}: expected a whole number from 1 to {max}, got {v:?}").into()),
    }
}

pub(super) fn millis(flag: &str, v: &str) -> Result<Duration, UsageError> {
    let ms: f64 = num(flag, v)?;
    if !ms.is_finite() || !(0.0..=1e9).contains(&ms) {
        return Err(format!("{flag}: out of range: {v}").into());
    }
    Ok(Duration::from_secs_f64(ms / 1000.0))
}

/// `-sprt elo0=0 elo1=10 alpha=0.05 beta=0.05`, or four bare numbers.
pub(super) fn sprt(v: &[String]) -> Result<Sprt, UsageError> {
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
                _ => return Err(format!("-sprt: unknown setting {k:?}").into()),
            }
        }
    }
    s.validate()?;
    Ok(s)
}

/// `key=value` settings; a bare word is a key with an empty value.
pub(super) fn settings(args: &[String]) -> Vec<(String, String)> {
    args.iter()
        .map(|a| match a.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => (a.to_string(), String::new()),
        })
        .collect()
}
