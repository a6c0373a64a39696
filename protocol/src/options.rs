//! The engine options, shared by both dialects: one table, one setter.
//!
//! UCI shows them as `option name <Name> type ...`, Hub as `param name=<name>
//! ...`. Names match case-insensitively, and spaces, `-` and `_` are
//! ignored, so `Move Overhead`, `move-overhead` and `MOVE_OVERHEAD` are one
//! option.

use std::time::Duration;
use tama_engine::eval::{self, VariantWeights};
use tama_engine::rules::parse_bool;
use tama_engine::search::{SearchOptions, Searcher, Style};
use tama_engine::{CaptureRemoval, Rules, Variant};

/// What kind of value an option takes (UCI's option types).
#[derive(Clone, Debug)]
pub enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Combo {
        default: &'static str,
        values: &'static [&'static str],
    },
    Button,
    /// Free text (a path); UCI's `string`.
    Text {
        default: &'static str,
    },
}

/// One option: its UCI name, its Hub name (`None`: not offered in Hub), its kind.
#[derive(Clone, Debug)]
pub struct OptionDef {
    pub uci: &'static str,
    pub hub: Option<&'static str>,
    pub kind: Kind,
}

pub const MAX_MULTIPV: i64 = 64;
/// The `EvalFile` value that means the default weights (both variants).
pub const BUILTIN_EVAL: &str = "<builtin>";
/// An `EvalFile` value `builtin:NAME` selects a set built into the binary
/// by name (`tama_engine::eval::NAMED`) instead of a file.
pub const BUILTIN_PREFIX: &str = "builtin:";

/// The one variant's weights an `EvalFile` value other than `BUILTIN_EVAL`
/// names: `BUILTIN_PREFIX` + a built-in set's name, or a weights file.
/// Shared by the option and by `tama datagen --eval-file`, so that both
/// accept the same values with the same errors.
pub fn read_weights(value: &str) -> Result<VariantWeights, String> {
    match value.strip_prefix(BUILTIN_PREFIX) {
        Some(name) => eval::named(name),
        None => std::fs::read(value)
            .map_err(|e| format!("cannot read it: {e}"))
            .and_then(|bytes| eval::file::decode(&bytes)),
    }
}

pub const MAX_MOVE_OVERHEAD_MS: i64 = 5000;

/// The largest contempt, either way (centi-men): five men. Beyond it a draw
/// would rank with a lost ending.
pub const MAX_CONTEMPT: i64 = 500;

/// The most search threads allowed. More than the CPUs is accepted (a
/// GUI's saved setting may come from a bigger machine; other UCI engines
/// allow as many), with a notice that they share the CPUs.
pub const MAX_THREADS: i64 = 256;

/// The CPUs this process may run on.
pub fn cpu_count() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// All options, in the order they are shown.
pub fn definitions() -> Vec<OptionDef> {
    vec![
        OptionDef {
            uci: "Hash",
            hub: Some("hash"),
            kind: Kind::Spin {
                default: Searcher::DEFAULT_HASH_MB as i64,
                min: 1,
                max: Searcher::MAX_HASH_MB as i64,
            },
        },
        OptionDef {
            uci: "Threads",
            hub: Some("threads"),
            kind: Kind::Spin {
                default: 1,
                min: 1,
                max: MAX_THREADS,
            },
        },
        OptionDef {
            uci: "MultiPV",
            hub: None,
            kind: Kind::Spin {
                default: 1,
                min: 1,
                max: MAX_MULTIPV,
            },
        },
        OptionDef {
            uci: "Ponder",
            hub: Some("ponder"),
            kind: Kind::Check { default: false },
        },
        OptionDef {
            uci: "Move Overhead",
            hub: Some("move-overhead"),
            kind: Kind::Spin {
                default: 30,
                min: 0,
                max: MAX_MOVE_OVERHEAD_MS,
            },
        },
        OptionDef {
            uci: "Clear Hash",
            hub: None,
            kind: Kind::Button,
        },
        OptionDef {
            uci: "Variant",
            hub: Some("variant"),
            kind: Kind::Combo {
                default: "armenian",
                values: &["armenian", "turkish"],
            },
        },
        OptionDef {
            uci: "CaptureRemoval",
            hub: Some("capture-removal"),
            kind: Kind::Combo {
                default: "immediate",
                values: &["immediate", "deferred"],
            },
        },
        OptionDef {
            uci: "MidCapturePromotion",
            hub: Some("mid-capture-promotion"),
            kind: Kind::Check { default: false },
        },
        OptionDef {
            uci: "Baseline",
            hub: Some("baseline"),
            kind: Kind::Check { default: false },
        },
        OptionDef {
            uci: "EvalFile",
            hub: Some("evalfile"),
            kind: Kind::Text {
                default: BUILTIN_EVAL,
            },
        },
        OptionDef {
            uci: "Style",
            hub: Some("style"),
            kind: Kind::Combo {
                default: "normal",
                values: &["normal", "sparring"],
            },
        },
        OptionDef {
            uci: "Contempt",
            hub: Some("contempt"),
            kind: Kind::Spin {
                default: 0,
                min: -MAX_CONTEMPT,
                max: MAX_CONTEMPT,
            },
        },
        OptionDef {
            uci: "UCI_AnalyseMode",
            hub: None,
            kind: Kind::Check { default: false },
        },
        OptionDef {
            uci: "EGTBPath",
            hub: Some("egtbpath"),
            kind: Kind::Text { default: "" },
        },
        OptionDef {
            uci: "EGTBPieces",
            hub: Some("egtbpieces"),
            kind: Kind::Spin {
                default: tama_engine::egtb::MAX_PIECES as i64,
                min: 0,
                max: tama_engine::egtb::MAX_PIECES as i64,
            },
        },
    ]
}

/// `Move Overhead` -> `moveoverhead`.
pub fn normalize(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace() && *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The definition a (user-written) name refers to, in either dialect's spelling.
pub fn find(name: &str) -> Option<OptionDef> {
    let key = normalize(name);
    definitions().into_iter().find(|d| normalize(d.uci) == key)
}

/// Current values of every option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub ponder: bool,
    pub move_overhead_ms: u64,
    pub rules: Rules,
    pub baseline: bool,
    /// The weights file last loaded (its set replaces its variant's), or
    /// `BUILTIN_EVAL`.
    pub eval_file: String,
    pub style: Style,
    /// The endgame databases' directory ("": none).
    pub egtb_path: String,
    /// Probe positions of up to this many pieces.
    pub egtb_pieces: u32,
    /// What a draw costs the engine's side, centi-men.
    pub contempt: i32,
    /// The GUI analyses (UCI_AnalyseMode): contempt is off.
    pub analyse_mode: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            hash_mb: Searcher::DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            ponder: false,
            move_overhead_ms: 30,
            rules: Rules::default(),
            baseline: false,
            eval_file: BUILTIN_EVAL.to_string(),
            style: Style::Normal,
            egtb_path: String::new(),
            egtb_pieces: tama_engine::egtb::MAX_PIECES,
            contempt: 0,
            analyse_mode: false,
        }
    }
}

/// What a successful `set` asks the session to do besides storing the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    None,
    ClearHash,
    RulesChanged,
    /// The session loads `eval_file` (and keeps the old value if it cannot).
    EvalFileChanged,
    /// The endgame databases' directory changed: open it.
    TablesChanged,
}

impl Settings {
    /// The current value of an option as text (what `param value=` shows).
    pub fn value_text(&self, def: &OptionDef) -> String {
        match normalize(def.uci).as_str() {
            "hash" => self.hash_mb.to_string(),
            "threads" => self.threads.to_string(),
            "multipv" => self.multipv.to_string(),
            "ponder" => self.ponder.to_string(),
            "moveoverhead" => self.move_overhead_ms.to_string(),
            "variant" => self.rules.variant.to_string(),
            "captureremoval" => self.rules.capture_removal.to_string(),
            "midcapturepromotion" => self.rules.mid_capture_promotion.to_string(),
            "baseline" => self.baseline.to_string(),
            "evalfile" => self.eval_file.clone(),
            "style" => self.style.to_string(),
            "egtbpath" => self.egtb_path.clone(),
            "egtbpieces" => self.egtb_pieces.to_string(),
            "contempt" => self.contempt.to_string(),
            "ucianalysemode" => self.analyse_mode.to_string(),
            _ => String::new(),
        }
    }

    /// Hands the options that shape a search to the searcher's options
    /// (the session before each search; `tama tactics`).
    pub fn apply(&self, o: &mut SearchOptions) {
        o.threads = self.threads;
        o.multipv = self.multipv;
        o.move_overhead = Duration::from_millis(self.move_overhead_ms);
        o.baseline = self.baseline;
        o.style = self.style;
        o.egtb_pieces = self.egtb_pieces;
        o.contempt = if self.analyse_mode { 0 } else { self.contempt };
    }

    /// Sets an option by name. On error nothing changes and the message says why.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, String> {
        let def = find(name).ok_or_else(|| {
            let names: Vec<&str> = definitions().iter().map(|d| d.uci).collect();
            format!(
                "unknown option {}; the options are: {}",
                tama_engine::notation::quote_short(name),
                names.join(", ")
            )
        })?;
        let value = value.map(str::trim).filter(|v| !v.is_empty());
        let need = || value.ok_or_else(|| format!("option {} needs a value", def.uci));
        match def.kind {
            Kind::Button => {
                if value.is_some() {
                    return Err(format!("option {} is a button and takes no value", def.uci));
                }
                Ok(Effect::ClearHash)
            }
            Kind::Spin { min, max, .. } => {
                let text = need()?;
                let n: i64 = text.parse().map_err(|_| {
                    format!(
                        "option {} needs a whole number from {min} to {max}, got {}",
                        def.uci,
                        tama_engine::notation::quote_short(text)
                    )
                })?;
                if !(min..=max).contains(&n) {
                    return Err(format!(
                        "option {} must be from {min} to {max}, got {n}",
                        def.uci
                    ));
                }
                match normalize(def.uci).as_str() {
                    "hash" => self.hash_mb = n as usize,
                    "threads" => self.threads = n as usize,
                    "multipv" => self.multipv = n as usize,
                    "egtbpieces" => self.egtb_pieces = n as u32,
                    "contempt" => self.contempt = n as i32,
                    _ => self.move_overhead_ms = n as u64,
                }
                Ok(Effect::None)
            }
            Kind::Check { .. } => {
                let text = need()?;
                let b = parse_bool(text).map_err(|e| format!("option {}: {e}", def.uci))?;
                match normalize(def.uci).as_str() {
                    "ponder" => self.ponder = b,
                    "baseline" => self.baseline = b,
                    "ucianalysemode" => self.analyse_mode = b,
                    _ => {
                        self.rules.mid_capture_promotion = b;
                        return Ok(Effect::RulesChanged);
                    }
                }
                Ok(Effect::None)
            }
            Kind::Text { .. } if normalize(def.uci) == "evalfile" => {
                self.eval_file = need()?.to_string();
                Ok(Effect::EvalFileChanged)
            }
            Kind::Text { .. } => {
                // UCI spells the empty string `<empty>`.
                self.egtb_path = value.filter(|v| *v != "<empty>").unwrap_or("").to_string();
                Ok(Effect::TablesChanged)
            }
            Kind::Combo { .. } => {
                let text = need()?;
                if normalize(def.uci) == "style" {
                    self.style = text
                        .parse::<Style>()
                        .map_err(|e| format!("option {}: {e}", def.uci))?;
                    return Ok(Effect::None);
                }
                if normalize(def.uci) == "variant" {
                    self.rules.variant = text
                        .parse::<Variant>()
                        .map_err(|e| format!("option {}: {e}", def.uci))?;
                } else {
                    self.rules.capture_removal = text
                        .parse::<CaptureRemoval>()
                        .map_err(|e| format!("option {}: {e}", def.uci))?;
                }
                Ok(Effect::RulesChanged)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_in_any_spelling() {
        let mut s = Settings::default();
        assert_eq!(s.set("move overhead", Some("100")), Ok(Effect::None));
        assert_eq!(s.move_overhead_ms, 100);
        assert_eq!(s.set("MOVE-OVERHEAD", Some("7")), Ok(Effect::None));
        assert_eq!(s.move_overhead_ms, 7);
        assert_eq!(s.set("variant", Some("Turkish")), Ok(Effect::RulesChanged));
        assert_eq!(s.rules.variant, Variant::Turkish);
        assert_eq!(s.set("Clear Hash", None), Ok(Effect::ClearHash));
        assert_eq!(s.set("style", Some("Sparring")), Ok(Effect::None));
        assert_eq!(s.style, Style::Sparring);
        assert_eq!(s.set("Threads", Some("256")), Ok(Effect::None));
        assert_eq!(s.threads, 256);
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut s = Settings::default();
        let before = s.clone();
        for (name, value) in [
            ("Hash", Some("0")),
            ("Hash", Some("65537")),
            ("Hash", Some("lots")),
            ("Hash", None),
            ("Threads", Some("257")),
            ("Threads", Some("0")),
            ("Variant", Some("russian")),
            ("CaptureRemoval", Some("later")),
            ("MidCapturePromotion", Some("maybe")),
            ("Clear Hash", Some("now")),
            ("Style", Some("wild")),
            ("Nonsense", Some("1")),
        ] {
            assert!(s.set(name, value).is_err(), "{name} {value:?}");
            assert_eq!(s, before);
        }
    }
}
