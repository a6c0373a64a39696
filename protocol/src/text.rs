//! Small text helpers: reading raw input lines, and making messages safe
//! to print (quoting input in messages is `tama_engine::notation::quote_short`).

use std::io::{self, BufRead};

/// Lines longer than this are refused (the rest of the line is skipped).
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// One input line.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The line, decoded lossily (invalid UTF-8 becomes U+FFFD), without its
    /// line end (`\n` or `\r\n`).
    Text(String),
    /// The line was longer than `MAX_LINE_BYTES`; it was skipped.
    TooLong(usize),
}

/// Reads one line of raw bytes. `Ok(None)` at the end of input.
pub fn read_line<R: BufRead>(input: &mut R, max: usize) -> io::Result<Option<Line>> {
    let mut buf: Vec<u8> = Vec::new();
    let mut total = 0usize;
    let mut saw_any = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if !saw_any {
                return Ok(None);
            }
            break;
        }
        saw_any = true;
        let (part, found) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        total += part.len();
        if total <= max {
            buf.extend_from_slice(part);
        }
        let used = found.unwrap_or(chunk.len());
        input.consume(used);
        if found.is_some() {
            break;
        }
    }
    if total > max {
        return Ok(Some(Line::TooLong(total)));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(Line::Text(String::from_utf8_lossy(&buf).into_owned())))
}

/// Makes a message one printable line (control characters become spaces).
pub fn one_line(msg: &str) -> String {
    msg.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8], max: usize) -> Vec<Line> {
        let mut r = io::BufReader::with_capacity(7, bytes);
        let mut out = Vec::new();
        while let Some(l) = read_line(&mut r, max).unwrap() {
            out.push(l);
        }
        out
    }

    #[test]
    fn line_ends_and_bad_bytes() {
        let got = lines(b"uci\r\n\nisready\n\xff\xfego\nlast", 100);
        assert_eq!(
            got,
            vec![
                Line::Text("uci".into()),
                Line::Text("".into()),
                Line::Text("isready".into()),
                Line::Text("\u{fffd}\u{fffd}go".into()),
                Line::Text("last".into()),
            ]
        );
    }

    #[test]
    fn long_lines_are_skipped_whole() {
        let mut input = vec![b'a'; 50];
        input.extend_from_slice(b"\nok\n");
        assert_eq!(
            lines(&input, 20),
            vec![Line::TooLong(50), Line::Text("ok".into())]
        );
    }
}
