//! `tama match --help`, made from the tables of flags and engine settings.

use super::flags::{ENGINE_KEYS, FLAGS};
use std::fmt::Write as _;

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
pub(super) fn help_row(s: &mut String, left: &str, text: &str) {
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
