#!/usr/bin/env python3
"""Runs the shell commands of README.md and docs/*.md as written, once each,
and says which ran to the end (docs/testing.md, "The documentation's
commands").

    tools/doc_commands.py [--tama PATH] [--tama-lab PATH] [--bin NAME=PATH]...
                          [--timeout S] [--cargo-timeout S] [--file README.md]... [--list]
                          [--keep]

The commands are the lines of ```sh, ```bash and ```console blocks (in a
console block only the `$ ` lines) and of 4-space indented blocks that
start with a command word (COMMAND_WORDS), with their continuations (a
trailing backslash, an open quote, loop or pipe); the other lines of a
block are output or comments. The protocol lines that follow `tama uci` in
a block are its standard input.

Each file's commands run in order in one scratch directory, under bash,
with `tama` on PATH (a copy of --tama), target/release/tama and
lab/target/release/tama-lab linking to the binaries, and the repository's
data/, engine/, tools/, tests/ and lab/data/ linked in, so that paths written from a
checkout work; cargo commands run in the repository itself. Placeholders
the docs use (D for a tables directory, FEN, V, ...) are filled from
PLACEHOLDERS, and every substitution is printed beside the command.

Each command ends as one of:
  ok        exit status 0
  started   still running at the timeout and killed: its arguments were
            accepted, it was not run to the end (not a pass)
  failed    non-zero exit status (the command, file:line, stderr), or
            killed at the timeout with an error on its stderr (a match
            whose engine cannot start plays on, forfeit after forfeit)
  checked   a usage synopsis (`[--flag]`, `a|b`): not run; every flag it
            names was found in the command's --help
  skipped   not run, with the reason (a program or binary that is not
            there, a placeholder with no sensible value, an input that an
            earlier command did not finish making)
The exit status is 1 if any command failed.

What counts as a command is in tools/doc_commands_read.py (COMMAND_WORDS),
how each is run in tools/doc_commands_run.py (PLACEHOLDERS, NEEDS, INPUTS).
"""
import argparse
import glob
import os
import shutil
import sys

from doc_commands_read import REPO, extract, one_line
from doc_commands_run import Runner, run_file


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tama", default=os.path.join(REPO, "target", "release", "tama"))
    ap.add_argument("--tama-lab", help="the lab binary (lab/target/release/tama-lab)")
    ap.add_argument("--bin", action="append", default=[], metavar="NAME=PATH",
                    help="another binary the docs name: tama-0.1.0 ($O), tama-0.2.0 ($R)")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds a command may run")
    ap.add_argument("--cargo-timeout", type=float,
                    help="seconds a cargo command may run (default: --timeout)")
    ap.add_argument("--file", action="append", help="README.md or docs/x.md (repeatable)")
    ap.add_argument("--list", action="store_true", help="print the commands, run nothing")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directories")
    args = ap.parse_args()
    args.cargo_timeout = args.cargo_timeout or args.timeout

    files = args.file or ["README.md"] + sorted(
        os.path.relpath(p, REPO) for p in glob.glob(os.path.join(REPO, "docs", "*.md")))
    per_file = [(f, extract(os.path.join(REPO, f))) for f in files]
    if args.list:
        for f, commands in per_file:
            for c in commands:
                print(f"{c.where()}: {one_line(c.text)}")
                if c.stdin:
                    print(f"    stdin: {' / '.join(c.stdin)}")
        return
    if not os.path.exists(args.tama):
        sys.exit(f"no binary at {args.tama} (cargo build --release, or --tama PATH)")
    runner = Runner(args)
    counts = {k: 0 for k in ("ok", "started", "failed", "checked", "skipped")}
    report = []
    for f, commands in per_file:
        run_file(runner, commands, counts, report)
    for status in ("failed", "started", "skipped"):
        for st, cmd, detail in report:
            if st == status:
                why = detail.split("\n")[0] if status == "skipped" else ""
                print(f"{status}: {cmd.where()} {one_line(cmd.text)[:70]}"
                      + (f" -- {why}" if why else ""))
    if not args.keep:
        shutil.rmtree(runner.root)
    print(" ".join(f"{k} {v}" for k, v in counts.items()) + f" (of {len(report)}; "
          f"timeout {args.timeout:g} s, cargo {args.cargo_timeout:g} s"
          + (f"; scratch {runner.root})" if args.keep else ")"))
    sys.exit(1 if counts["failed"] else 0)


if __name__ == "__main__":
    main()
