//! `tama match`: engine-vs-engine matches (`tama_match`, docs/match.md).
//! Its arguments reach it untouched (see `cli`).

/// Runs the match runner on stdout and stderr; returns its exit status.
pub fn run(args: &[String]) -> i32 {
    let (mut out, mut err) = (std::io::stdout(), std::io::stderr());
    let mut console = tama_match::Console {
        out: &mut out,
        err: &mut err,
    };
    tama_match::run_command_line(args, &mut console)
}
