//! Running the real `tama` binary once with arguments, for the tests of its
//! sub-commands (the protocol tests talk to a live process instead:
//! `protocol_support`).

#![allow(dead_code)] // each test binary uses a different part of this module

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::{Command, Output};

/// `tama ARGS...`, run to the end.
pub fn tama(args: &[&str]) -> Output {
    tama_os(args.iter().map(OsStr::new))
}

/// `tama ARGS...` with arguments that need not be UTF-8 (the tests of bad
/// command lines give it bytes no text can hold).
pub fn tama_os<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(args: I) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tama"))
        .args(args)
        .output()
        .expect("the tama binary runs")
}

/// A stream of the process as text (the binary writes UTF-8 only).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The process's standard output as text.
pub fn stdout(o: &Output) -> String {
    text(&o.stdout)
}

/// The process's standard error as text.
pub fn stderr(o: &Output) -> String {
    text(&o.stderr)
}

/// A fresh directory (not created: the commands under test make it),
/// removed at the end of the test.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("tama-egtb-cli-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }

    pub fn arg(&self) -> &str {
        self.0.to_str().unwrap()
    }

    pub fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
