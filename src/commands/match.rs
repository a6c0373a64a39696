//! `tama match`: engine-vs-engine matches (`tama_match`, docs/match.md).
//! Its arguments reach it untouched (see `cli`).

/// Runs the match runner; returns its exit status.
pub fn run(args: &[String]) -> i32 {
    tama_match::main(args)
}
