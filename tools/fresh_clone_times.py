#!/usr/bin/env python3
"""The README's two commands timed as a new user meets them: from `git clone`
to an engine answering `go` (`cargo run --release`, then `uci`, `isready`,
`go depth 8`), and on to the README's test command passing, with an empty
cargo cache (CARGO_HOME a new directory, so every crate is fetched and built).

    python3 tools/fresh_clone_times.py [REPO]     # REPO: a path or URL, default this checkout

Run it on an otherwise idle machine; it prints both times from the clone and
where the test log is.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).resolve().parent.parent)
    cargo = shutil.which("cargo")
    if not cargo:
        sys.exit("cargo not found: install a Rust toolchain (rustup, stable)")
    scratch = Path(tempfile.mkdtemp(prefix="tama-fresh-"))
    env = dict(os.environ, CARGO_HOME=str(scratch / "cargo"))
    env.pop("CARGO_TARGET_DIR", None)
    work = scratch / "tama"
    t0 = time.monotonic()
    subprocess.run(["git", "clone", "-q", repo, str(work)], check=True)
    engine = subprocess.Popen([cargo, "run", "--release"], cwd=work, env=env, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
    engine.stdin.write("uci\nisready\ngo depth 8\n")
    engine.stdin.flush()
    answer = None
    for line in engine.stdout:
        if line.startswith("bestmove"):
            answer = line.strip()
            break
    engine.stdin.write("quit\n")
    engine.stdin.flush()
    engine.wait()
    if answer is None:
        sys.exit(f"the engine never answered go (exit {engine.returncode})")
    print(f"engine answering go after {time.monotonic() - t0:.1f} s ({answer})", flush=True)
    log = scratch / "test.log"
    with open(log, "w") as out:
        tests = subprocess.run([cargo, "test", "--release", "--workspace"], cwd=work, env=env,
                               stdout=out, stderr=subprocess.STDOUT)
    print(f"test command exit {tests.returncode} after {time.monotonic() - t0:.1f} s ({log})")
    sys.exit(tests.returncode)


if __name__ == "__main__":
    main()
