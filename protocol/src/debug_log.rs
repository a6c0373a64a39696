//! The protocol log (the `Debug Log File` option): every line received and
//! sent, with the time and the direction, appended to a file, so that what
//! passed between a GUI and the engine can be read afterwards.
//!
//! A line of the log is `<time> <dir> <text>`: the time in UTC with
//! milliseconds (`2026-12-06T10:07:49.123Z`), `>>` for a line the engine
//! received, `<<` for a line it sent, `--` for what the log itself says
//! (that it was opened, by which process).

use std::fmt::Write as _;
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::time::{SystemTime, UNIX_EPOCH};

/// Which way a logged line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Received,
    Sent,
    /// The log's own remark.
    Note,
}

impl Direction {
    fn mark(self) -> &'static str {
        match self {
            Direction::Received => ">>",
            Direction::Sent => "<<",
            Direction::Note => "--",
        }
    }
}

/// An open protocol log.
pub struct DebugLog {
    sink: Box<dyn Write + Send>,
    path: String,
    /// The lines being written, kept between writes so that logging a
    /// search's output allocates nothing once it has grown.
    buf: String,
}

/// What `buf` may keep between writes (a 16 MiB input line is not kept).
const KEPT_BUFFER: usize = 64 << 10;

impl DebugLog {
    /// Opens `path` for appending (created if missing) and writes the
    /// opening line; a file that cannot be opened or written is an error.
    pub fn open(path: &str) -> io::Result<DebugLog> {
        let file = OpenOptions::new().append(true).create(true).open(path)?;
        let mut log = DebugLog::to(Box::new(file), path);
        log.write(
            Direction::Note,
            &format!(
                "log opened by Tama {} (process {})",
                env!("CARGO_PKG_VERSION"),
                std::process::id()
            ),
        )?;
        Ok(log)
    }

    /// A log written to `sink`, named `path` in messages.
    pub(crate) fn to(sink: Box<dyn Write + Send>, path: &str) -> DebugLog {
        DebugLog {
            sink,
            path: path.to_string(),
            buf: String::new(),
        }
    }

    /// The file's name, as the option gave it.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Logs `text` (several lines when it holds `\n`, each logged as a line
    /// of its own) with one time, in one write, flushed: the file has every
    /// line up to the last one written should the engine die.
    pub fn write(&mut self, dir: Direction, text: &str) -> io::Result<()> {
        self.buf.clear();
        let now = SystemTime::now();
        for line in text.split('\n') {
            push_time(&mut self.buf, now);
            self.buf.push(' ');
            self.buf.push_str(dir.mark());
            self.buf.push(' ');
            self.buf.push_str(line);
            self.buf.push('\n');
        }
        let written = self
            .sink
            .write_all(self.buf.as_bytes())
            .and_then(|()| self.sink.flush());
        if self.buf.capacity() > KEPT_BUFFER {
            self.buf = String::new();
        }
        written
    }
}

/// Appends `t` as UTC with milliseconds: `2026-12-06T10:07:49.123Z`.
fn push_time(buf: &mut String, t: SystemTime) {
    let since = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (y, m, d) = civil_date(secs / 86_400);
    let s = secs % 86_400;
    let _ = write!(
        buf,
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        s / 3600,
        s / 60 % 60,
        s % 60,
        since.subsec_millis()
    );
}

/// The date `days` days after 1970-01-01 (Howard Hinnant's algorithm).
fn civil_date(days: u64) -> (i64, u32, u32) {
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_sink::SharedSink;
    use std::time::Duration;

    fn time_text(secs: u64, ms: u64) -> String {
        let mut s = String::new();
        push_time(
            &mut s,
            UNIX_EPOCH + Duration::from_secs(secs) + Duration::from_millis(ms),
        );
        s
    }

    #[test]
    fn times_are_utc_with_milliseconds() {
        assert_eq!(time_text(0, 0), "1970-01-01T00:00:00.000Z");
        // A leap day, the day after, the end of a leap year.
        assert_eq!(time_text(951_782_400, 7), "2000-02-29T00:00:00.007Z");
        assert_eq!(time_text(951_868_799, 999), "2000-02-29T23:59:59.999Z");
        assert_eq!(time_text(951_868_800, 0), "2000-03-01T00:00:00.000Z");
        assert_eq!(time_text(1_483_228_799, 0), "2016-12-31T23:59:59.000Z");
        assert_eq!(time_text(1_700_000_000, 123), "2023-11-14T22:13:20.123Z");
    }

    #[test]
    fn every_line_of_a_text_is_marked() {
        let sink = SharedSink::default();
        let mut log = DebugLog::to(Box::new(sink.clone()), "x");
        log.write(Direction::Received, "uci").unwrap();
        log.write(Direction::Sent, "id name Tama\nuciok").unwrap();
        let text = sink.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        for (line, want) in lines.iter().zip([">> uci", "<< id name Tama", "<< uciok"]) {
            // `YYYY-MM-DDTHH:MM:SS.mmmZ `, 25 characters, then the rest.
            assert_eq!(&line[25..], want, "{text}");
            assert_eq!(&line[23..25], "Z ", "{text}");
        }
    }
}
