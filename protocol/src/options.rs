//! The engine options, shared by both dialects: one table, one setter.
//!
//! UCI shows them as `option name <Name> type ...`, Hub as `param name=<name>
//! ...`. Names match case-insensitively, and spaces, `-` and `_` are
//! ignored, so `Move Overhead`, `move-overhead` and `MOVE_OVERHEAD` are one
//! option.

mod weights;

pub use weights::{read_weights, WeightsError, BUILTIN_EVAL, BUILTIN_PREFIX};

use std::fmt;
use std::time::Duration;
use tama_engine::rules::parse_bool;
#[cfg(feature = "lab")]
use tama_engine::search::lab::Style;
use tama_engine::search::skill::{self, MAX_SKILL_LEVEL};
use tama_engine::search::{SearchOptions, Searcher};
use tama_engine::{CaptureRemoval, Rules, Variant};

/// What kind of value an option takes (UCI's option types). The default
/// is not here: it is the engine's own (`Settings::default`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Spin {
        min: i64,
        max: i64,
    },
    Check,
    Combo {
        values: &'static [&'static str],
    },
    Button,
    /// Free text (a path); UCI's `string`.
    Text,
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
    /// The search threads changed: the session says so when there are more
    /// than CPUs.
    ThreadsChanged,
    /// The protocol log's file changed: close the old one, open the new
    /// one (and keep the old value if it cannot).
    LogFileChanged,
}

/// One option: its UCI name, its Hub name (`None`: not offered in Hub),
/// its kind and what setting it asks of the session.
#[derive(Clone, Debug)]
pub struct OptionDef {
    pub opt: Opt,
    pub uci: &'static str,
    pub hub: Option<&'static str>,
    pub kind: Kind,
    pub effect: Effect,
}

/// The option table: one row an option, from which everything else is
/// made: the variant of `Opt`, its definition (`Opt::def`), its field of
/// `Settings` with the default, how `Settings::set` reads a value into it
/// and how `Settings::value_text` shows it. A row is
///
/// `Opt = UCI name, Hub name (None: not in Hub), kind (the range), effect,
/// field: type = default, reader;`
///
/// where the reader is the `Given` method that reads the kind. The options
/// that shape a search are handed to the searcher by `Settings::apply`.
macro_rules! options {
    ($($(#[cfg($cfg:meta)])? $opt:ident = $uci:expr, $hub:expr, $kind:expr, $effect:ident,
        $field:ident: $ty:ty = $default:expr, $read:ident;)*) => {
        /// Every engine option (`Opt::ALL`: in the order shown).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Opt {
            $($(#[cfg($cfg)])? $opt,)*
        }

        impl Opt {
            /// All options, in the order `uci` and `hub` show them.
            pub const ALL: &'static [Opt] = &[$($(#[cfg($cfg)])? Opt::$opt,)*];

            /// The option's definition.
            pub fn def(self) -> OptionDef {
                match self {
                    $($(#[cfg($cfg)])? Opt::$opt => OptionDef {
                        opt: self,
                        uci: $uci,
                        hub: $hub,
                        kind: $kind,
                        effect: Effect::$effect,
                    },)*
                }
            }
        }

        /// Current values of every option.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Settings {
            $($(#[cfg($cfg)])? #[doc = concat!("`", stringify!($opt), "`")] pub $field: $ty,)*
        }

        impl Default for Settings {
            /// The engine's own defaults: those of a new `Searcher` and of
            /// the default rules and weights, but for `Contempt`
            /// (`default_contempt`: a Turkish game played over the protocol
            /// prices a draw, a search made by the library does not).
            fn default() -> Settings {
                Settings {
                    $($(#[cfg($cfg)])? $field: $default,)*
                }
            }
        }

        impl Settings {
            /// The current value of an option as text (what `param value=`
            /// and `d` show, and what `uci` gives as the default of a new
            /// engine).
            pub fn value_text(&self, opt: Opt) -> String {
                match opt {
                    $($(#[cfg($cfg)])? Opt::$opt => self.$field.to_string(),)*
                }
            }

            /// Reads `v` into the option's field.
            fn store(&mut self, v: &Given) -> Result<(), OptionError> {
                match v.def.opt {
                    $($(#[cfg($cfg)])? Opt::$opt => self.$field = v.$read()?,)*
                }
                Ok(())
            }
        }
    };
}

options! {
    Hash = "Hash", Some("hash"),
        Kind::Spin { min: 1, max: Searcher::MAX_HASH_MB as i64 }, None,
        hash_mb: usize = Searcher::DEFAULT_HASH_MB, spin;
    Threads = "Threads", Some("threads"),
        Kind::Spin { min: 1, max: Searcher::MAX_THREADS as i64 }, ThreadsChanged,
        threads: usize = SearchOptions::default().threads, spin;
    MultiPv = "MultiPV", None, Kind::Spin { min: 1, max: MAX_MULTIPV }, None,
        multipv: usize = SearchOptions::default().multipv, spin;
    Ponder = "Ponder", Some("ponder"), Kind::Check, None,
        ponder: bool = false, check;
    MoveOverhead = "Move Overhead", Some("move-overhead"),
        Kind::Spin { min: 0, max: MAX_MOVE_OVERHEAD_MS }, None,
        move_overhead_ms: u64 = SearchOptions::default().move_overhead.as_millis() as u64, spin;
    ClearHash = "Clear Hash", None, Kind::Button, ClearHash,
        clear_hash: Button = Button, button;
    Variant = Rules::VARIANT_OPTION.uci, Some(Rules::VARIANT_OPTION.hub),
        Kind::Combo { values: &["armenian", "turkish"] }, RulesChanged,
        variant: Variant = Rules::default().variant, combo;
    CaptureRemoval = Rules::CAPTURE_REMOVAL_OPTION.uci, Some(Rules::CAPTURE_REMOVAL_OPTION.hub),
        Kind::Combo { values: &["immediate", "deferred"] }, RulesChanged,
        capture_removal: CaptureRemoval = Rules::default().capture_removal, combo;
    MidCapturePromotion = Rules::MID_CAPTURE_PROMOTION_OPTION.uci,
        Some(Rules::MID_CAPTURE_PROMOTION_OPTION.hub), Kind::Check, RulesChanged,
        mid_capture_promotion: bool = Rules::default().mid_capture_promotion, check;
    EvalFile = "EvalFile", Some("evalfile"), Kind::Text, EvalFileChanged,
        eval_file: String = BUILTIN_EVAL.to_string(), required_text;
    Contempt = "Contempt", Some("contempt"),
        Kind::Spin { min: -MAX_CONTEMPT, max: MAX_CONTEMPT }, None,
        contempt: i32 = default_contempt(Rules::default().variant), spin;
    UciAnalyseMode = "UCI_AnalyseMode", None, Kind::Check, None,
        analyse_mode: bool = false, check;
    EgtbPath = "EGTBPath", Some("egtbpath"), Kind::Text, TablesChanged,
        egtb_path: String = String::new(), optional_text;
    EgtbPieces = "EGTBPieces", Some("egtbpieces"),
        Kind::Spin { min: 0, max: tama_engine::egtb::MAX_PIECES as i64 }, None,
        egtb_pieces: u32 = SearchOptions::default().egtb_pieces, spin;
    DebugLogFile = "Debug Log File", Some("debug-log-file"), Kind::Text, LogFileChanged,
        debug_log_file: String = String::new(), optional_text;
    SkillLevel = "Skill Level", Some("skill-level"),
        Kind::Spin { min: 0, max: MAX_SKILL_LEVEL as i64 }, None,
        skill_level: u32 = MAX_SKILL_LEVEL, spin;
    LimitStrength = "UCI_LimitStrength", Some("limit-strength"), Kind::Check, None,
        limit_strength: bool = false, check;
    Elo = "UCI_Elo", Some("elo"),
        Kind::Spin { min: skill::MIN_ELO as i64, max: skill::MAX_ELO as i64 }, None,
        elo: i32 = skill::MIN_ELO, spin;
    #[cfg(feature = "lab")]
    Baseline = "Baseline", Some("baseline"), Kind::Check, None,
        baseline: bool = false, check;
    #[cfg(feature = "lab")]
    Style = "Style", Some("style"),
        Kind::Combo { values: &["normal", "sparring"] }, None,
        style: Style = Style::Normal, combo;
}

/// The value of a button (`Clear Hash`): nothing; shown as nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Button;

impl std::fmt::Display for Button {
    fn fmt(&self, _: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Ok(())
    }
}

pub const MAX_MULTIPV: i64 = 64;
/// How UCI spells the empty string (a `string` option's empty value).
pub const UCI_EMPTY: &str = "<empty>";

/// Why an option was refused; nothing was changed. `Display` gives the
/// message both dialects print.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name, in either dialect's spelling.
    Unknown(String),
    /// The option needs a value and none was given.
    NeedsValue(&'static str),
    /// A spin given something that is not a whole number.
    NotANumber {
        option: &'static str,
        min: i64,
        max: i64,
        got: String,
    },
    /// A spin given a number out of its range.
    OutOfRange {
        option: &'static str,
        min: i64,
        max: i64,
        got: i64,
    },
    /// A check or combo given a value it does not take (the reason).
    BadValue {
        option: &'static str,
        reason: String,
    },
    /// A button given a value.
    ButtonTakesNoValue(&'static str),
    /// An error in the table itself (an option read as another kind than
    /// it is declared): the tests set every option, so none ships.
    WrongKind {
        option: &'static str,
        kind: &'static str,
    },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => {
                let names: Vec<&str> = definitions().iter().map(|d| d.uci).collect();
                write!(
                    f,
                    "unknown option {}; the options are: {}",
                    tama_engine::notation::quote_short(name),
                    names.join(", ")
                )
            }
            OptionError::NeedsValue(option) => write!(f, "option {option} needs a value"),
            OptionError::NotANumber {
                option,
                min,
                max,
                got,
            } => write!(
                f,
                "option {option} needs a whole number from {min} to {max}, got {}",
                tama_engine::notation::quote_short(got)
            ),
            OptionError::OutOfRange {
                option,
                min,
                max,
                got,
            } => write!(f, "option {option} must be from {min} to {max}, got {got}"),
            OptionError::BadValue { option, reason } => write!(f, "option {option}: {reason}"),
            OptionError::ButtonTakesNoValue(option) => {
                write!(f, "option {option} is a button and takes no value")
            }
            OptionError::WrongKind { option, kind } => {
                write!(f, "option {option} is not a {kind} option")
            }
        }
    }
}

impl std::error::Error for OptionError {}

pub const MAX_MOVE_OVERHEAD_MS: i64 = 5000;

/// The contempt a game is played with unless set (centi-men): a tenth of
/// a man in Turkish, none in Armenian. Between engines of one family most
/// Turkish games ended in an early threefold repetition that either side
/// could have left at the cost of a few centi-men; priced at 10 the draw
/// is left when a move within a tenth of a man of it exists, and the
/// stronger side gets to play the game out. Armenian games are decided
/// more often, and the price measured no gain there (docs/results.md, "A
/// draw priced at a tenth of a man"). The default follows `Variant` until
/// `Contempt` is set to another value. The engine's own default stays 0:
/// data generation, the lab's measurements and analyses score a draw as a
/// draw; so does the lab build in both variants, whose sparring opponent
/// and switches were measured with draws at 0 and must stay the fixtures
/// they were (its searches are given `Contempt` like any option).
pub const fn default_contempt(variant: Variant) -> i32 {
    if cfg!(feature = "lab") {
        return 0;
    }
    match variant {
        Variant::Armenian => 0,
        Variant::Turkish => 10,
    }
}

/// The largest contempt, either way (centi-men): five men. Beyond it a draw
/// would rank with a lost ending.
pub const MAX_CONTEMPT: i64 = 500;

/// All options, in the order they are shown.
pub fn definitions() -> Vec<OptionDef> {
    Opt::ALL.iter().map(|o| o.def()).collect()
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
    definitions()
        .into_iter()
        .find(|d| normalize(d.uci) == key || d.hub.is_some_and(|h| normalize(h) == key))
}

/// The value given to one option, read as its kind asks.
struct Given<'a> {
    def: &'a OptionDef,
    value: Option<&'a str>,
}

impl Given<'_> {
    fn need(&self) -> Result<&str, OptionError> {
        self.value.ok_or(OptionError::NeedsValue(self.def.uci))
    }

    /// A spin's value as the field's type (the range fits it).
    fn spin<T: TryFrom<i64>>(&self) -> Result<T, OptionError> {
        let n = self.spin_value()?;
        T::try_from(n).map_err(|_| self.not_a("spin"))
    }

    fn spin_value(&self) -> Result<i64, OptionError> {
        let (option, Kind::Spin { min, max }) = (self.def.uci, &self.def.kind) else {
            return Err(self.not_a("spin"));
        };
        let (min, max) = (*min, *max);
        let text = self.need()?;
        let n: i64 = text.parse().map_err(|_| OptionError::NotANumber {
            option,
            min,
            max,
            got: text.to_string(),
        })?;
        if !(min..=max).contains(&n) {
            return Err(OptionError::OutOfRange {
                option,
                min,
                max,
                got: n,
            });
        }
        Ok(n)
    }

    fn check(&self) -> Result<bool, OptionError> {
        if self.def.kind != Kind::Check {
            return Err(self.not_a("check"));
        }
        parse_bool(self.need()?).map_err(|e| self.bad_value(e))
    }

    fn combo<T>(&self) -> Result<T, OptionError>
    where
        T: std::str::FromStr,
        T::Err: std::fmt::Display,
    {
        if !matches!(self.def.kind, Kind::Combo { .. }) {
            return Err(self.not_a("combo"));
        }
        self.need()?.parse::<T>().map_err(|e| self.bad_value(e))
    }

    fn button(&self) -> Result<Button, OptionError> {
        if self.def.kind != Kind::Button {
            return Err(self.not_a("button"));
        }
        match self.value {
            Some(_) => Err(OptionError::ButtonTakesNoValue(self.def.uci)),
            None => Ok(Button),
        }
    }

    /// Text, `None` when empty (UCI spells that `UCI_EMPTY`).
    fn text(&self) -> Result<Option<&str>, OptionError> {
        if self.def.kind != Kind::Text {
            return Err(self.not_a("string"));
        }
        Ok(self.value.filter(|v| *v != UCI_EMPTY))
    }

    /// Text that must be given (a file).
    fn required_text(&self) -> Result<String, OptionError> {
        match self.text()? {
            Some(text) => Ok(text.to_string()),
            None => Err(OptionError::NeedsValue(self.def.uci)),
        }
    }

    /// Text that may be empty (a directory: none).
    fn optional_text(&self) -> Result<String, OptionError> {
        Ok(self.text()?.unwrap_or("").to_string())
    }

    fn not_a(&self, kind: &'static str) -> OptionError {
        OptionError::WrongKind {
            option: self.def.uci,
            kind,
        }
    }

    fn bad_value(&self, reason: impl fmt::Display) -> OptionError {
        OptionError::BadValue {
            option: self.def.uci,
            reason: reason.to_string(),
        }
    }
}

impl Settings {
    /// The rules the three rule options make.
    pub fn rules(&self) -> Rules {
        Rules {
            variant: self.variant,
            capture_removal: self.capture_removal,
            mid_capture_promotion: self.mid_capture_promotion,
        }
    }

    /// The strength the search plays: `UCI_Elo`'s when `UCI_LimitStrength`
    /// is on, else `Skill Level`.
    pub fn skill_level(&self) -> skill::Skill {
        if self.limit_strength {
            skill::skill_for_elo(self.elo)
        } else {
            skill::Skill::level(self.skill_level)
        }
    }

    /// Hands the options that shape a search to the searcher's options
    /// (the session before each search; `tama-lab tactics`). Every field is
    /// named, so a new search option must be given its value here.
    pub fn apply(&self, o: &mut SearchOptions) {
        *o = SearchOptions {
            threads: self.threads,
            multipv: self.multipv,
            move_overhead: Duration::from_millis(self.move_overhead_ms),
            #[cfg(feature = "lab")]
            lab: tama_engine::search::lab::LabOptions {
                baseline: self.baseline,
                style: self.style,
            },
            #[cfg(not(feature = "lab"))]
            lab: tama_engine::search::lab::LabOptions {},
            egtb_pieces: self.egtb_pieces,
            contempt: self.contempt,
            skill_level: self.skill_level(),
        };
    }

    /// Sets an option by name. On error nothing changes and the message says why.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, OptionError> {
        let def = find(name).ok_or_else(|| OptionError::Unknown(name.to_string()))?;
        let value = value.map(str::trim).filter(|v| !v.is_empty());
        let v = Given { def: &def, value };
        let variant = self.variant;
        self.store(&v)?;
        // A contempt left at the old variant's default takes the new one's.
        if self.variant != variant && self.contempt == default_contempt(variant) {
            self.contempt = default_contempt(self.variant);
        }
        Ok(def.effect)
    }
}

#[cfg(test)]
mod tests;
