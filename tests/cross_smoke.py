#!/usr/bin/env python3
"""Smoke test of a cross-built tama against the native Linux build.

    python3 tests/cross_smoke.py --native target/release/tama \
        --exe target/x86_64-pc-windows-gnu/release/tama.exe --wine
    python3 tests/cross_smoke.py --native target/release/tama \
        --exe target/x86_64-unknown-linux-musl/release/tama --static

The binary under test runs from a scratch directory of its own, as a user
would run an unpacked archive: perft counts, a UCI and a Hub exchange with
CRLF line ends, a two-game match between two copies of it, a 3-piece table
built and probed, and `tama gui` serving its page. Every figure is compared
with what the native build prints for the same input: searches at a fixed
depth with one thread are deterministic, so the node counts, the principal
variation, the match's games and the table files must be identical.

--wine runs a Windows exe under wine with a stand-in bcryptprimitives.dll
built from tests/fixtures/wine/ (wine 8 lacks the ProcessPrng that Rust's
standard library imports; the DLL is a test fixture, never shipped).
--static also checks that the binary has no program interpreter (no
dynamic loader: it runs on any Linux distribution).

The last line is `N passed, N failed`; the exit status is 1 when any check
failed.
"""

import argparse
import os
import queue
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 120


class Engine:
    """A running engine: lines in (with the chosen line end), lines out."""

    def __init__(self, cmd, cwd, env, crlf):
        self.p = subprocess.Popen(
            cmd, cwd=cwd, env=env, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.crlf = crlf
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.p.stdout:
            self.lines.put(raw.decode(errors="replace").rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line):
        end = "\r\n" if self.crlf else "\n"
        self.p.stdin.write((line + end).encode())
        self.p.stdin.flush()

    def until(self, pred, timeout=TIMEOUT):
        got = []
        deadline = time.time() + timeout
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.time()))
            except queue.Empty:
                raise AssertionError(f"timed out; last lines: {self.seen[-8:]}")
            if line is None:
                raise AssertionError(f"the engine exited; last lines: {self.seen[-8:]}")
            self.seen.append(line)
            got.append(line)
            if pred(line):
                return got

    def quit(self):
        self.send("quit")
        try:
            return self.p.wait(timeout=30)
        finally:
            if self.p.poll() is None:
                self.p.kill()


class Runner:
    """How to run one build: the command prefix, its directory, its env."""

    def __init__(self, exe, workdir, wine):
        self.dir = Path(workdir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.name = Path(exe).name
        shutil.copy2(exe, self.dir / self.name)
        self.env = dict(os.environ)
        self.prefix = []
        if wine:
            loader = shutil.which("wine64") or "/usr/lib/wine/wine64"
            if not Path(loader).exists():
                loader = shutil.which("wine") or "wine"
            self.prefix = [loader]
            self.env["WINEPREFIX"] = str(self.dir / ".wine")
            self.env["WINEDEBUG"] = "-all"
            build_stand_in_dll(self.dir)

    def cmd(self, *args):
        return self.prefix + [str(self.dir / self.name)] + list(args)

    def run(self, *args, timeout=TIMEOUT):
        r = subprocess.run(self.cmd(*args), cwd=self.dir, env=self.env,
                           capture_output=True, timeout=timeout)
        out = r.stdout.decode(errors="replace").replace("\r\n", "\n")
        if r.returncode != 0:
            err = r.stderr.decode(errors="replace")[-800:]
            raise AssertionError(f"{args} exited {r.returncode}: {err}")
        return out

    def engine(self, crlf, *args):
        return Engine(self.cmd(*args), self.dir, self.env, crlf)


def build_stand_in_dll(where):
    fixture = ROOT / "tests" / "fixtures" / "wine"
    subprocess.run(
        ["x86_64-w64-mingw32-gcc", "-shared", "-O2", "-o",
         str(where / "bcryptprimitives.dll"),
         str(fixture / "bcryptprimitives.c"),
         str(fixture / "bcryptprimitives.def"), "-ladvapi32"],
        check=True)


def has_interpreter(path):
    """Whether an ELF file names a program interpreter (PT_INTERP)."""
    data = Path(path).read_bytes()
    assert data[:4] == b"\x7fELF" and data[4] == 2, "not a 64-bit ELF file"
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    for i in range(phnum):
        p_type, = struct.unpack_from("<I", data, phoff + i * phentsize)
        if p_type == 3:
            return True
    return False


def last_line(text):
    return text.strip().splitlines()[-1]


def search_figures(lines):
    """The last `info depth` line without its clock-dependent fields, and
    the answer."""
    infos = [l for l in lines if l.startswith("info depth")]
    assert infos, f"no info line in {lines}"
    keep = re.sub(r" (nps|time|hashfull) \S+", "", infos[-1])
    return keep, lines[-1]


def check_perft(test, native):
    for variant, depth in (("armenian", 6), ("turkish", 6)):
        a = last_line(test.run("perft", "--variant", variant, str(depth)))
        b = last_line(native.run("perft", "--variant", variant, str(depth)))
        assert a == b, f"{variant} perft {depth}: {a!r}, native {b!r}"
    return f"perft 6 both variants: {b}"


def uci_exchange(runner, crlf):
    e = runner.engine(crlf)
    e.send("uci")
    e.until(lambda l: l == "uciok")
    e.send("setoption name Threads value 1")
    e.send("isready")
    e.until(lambda l: l == "readyok")
    e.send("position startpos moves d3-d4")
    e.send("go depth 9")
    lines = e.until(lambda l: l.startswith("bestmove"))
    status = e.quit()
    assert status == 0, f"exit status {status}"
    return search_figures(lines)


def hash_cap_notes(runner, crlf):
    """What the engine says before `readyok` when asked for the largest
    table: the cap of half the machine's memory, which each system reports
    its own way (/proc on Linux, GlobalMemoryStatusEx on Windows)."""
    e = runner.engine(crlf)
    e.send("uci")
    e.until(lambda l: l == "uciok")
    e.send("setoption name Hash value 65536")
    e.send("isready")
    notes = e.until(lambda l: l == "readyok")[:-1]
    e.quit()
    return notes


def check_uci(test, native):
    a, b = uci_exchange(test, True), uci_exchange(native, False)
    assert a == b, f"UCI: {a}, native {b}"
    notes, native_notes = hash_cap_notes(test, True), hash_cap_notes(native, False)
    assert notes == native_notes, f"Hash 65536: {notes}, native {native_notes}"
    return f"UCI with CRLF, depth 9: {a[1]}; Hash 65536: {notes[0] if notes else 'no cap'}"


def hub_exchange(runner, crlf):
    e = runner.engine(crlf)
    e.send("hub")
    e.until(lambda l: l == "wait")
    e.send("set-param name=variant value=turkish")
    e.send("init")
    e.until(lambda l: l == "ready")
    e.send("ping")
    e.until(lambda l: l == "pong")
    e.send("level depth=9")
    e.send("go think")
    lines = e.until(lambda l: l.startswith("done"))
    status = e.quit()
    assert status == 0, f"exit status {status}"
    infos = [re.sub(r" (nps|time)=\S+", "", l) for l in lines if l.startswith("info")]
    return infos[-1], lines[-1]


def check_hub(test, native):
    a, b = hub_exchange(test, True), hub_exchange(native, False)
    assert a == b, f"Hub: {a}, native {b}"
    return f"Hub with CRLF, Turkish depth 9: {a[1]}"


def play_match(runner):
    # As a user names an engine beside the runner: a Windows program is
    # found in the runner's own directory, a Linux one by its path.
    exe = runner.name if runner.prefix else f"./{runner.name}"
    for f in ("games.pdn", "results.json"):
        (runner.dir / f).unlink(missing_ok=True)
    out = runner.run("match", "-engine", f"cmd={exe}", "name=one",
                     "-engine", f"cmd={exe}", "name=two",
                     "-each", "depth=4", "-rounds", "1", "-repeat",
                     "-pdnout", "games.pdn", "-results", "results.json",
                     timeout=300)
    pdn = (runner.dir / "games.pdn").read_text().replace("\r\n", "\n")
    moves = [l for l in pdn.splitlines() if l and not l.startswith("[")]
    score = [l for l in out.splitlines() if "one" in l and "two" in l]
    return moves, score


def check_match(test, native):
    # The native match runs the native engine under the same names, from
    # its own directory.
    a, b = play_match(test), play_match(native)
    assert a[0] == b[0], f"the games differ:\n{a[0]}\nnative:\n{b[0]}"
    assert a[0], "no game was written"
    return f"two games at depth 4, {len(a[0])} lines of moves as native"


PROBE_FEN = "W:WKd4:Ba7,Kh8"


def tables(runner):
    d = runner.dir / "tables"
    shutil.rmtree(d, ignore_errors=True)
    runner.run("egtb", "build", "--pieces", "3", "--dir", "tables", "--threads", "1",
               timeout=300)
    files = {p.name: p.read_bytes() for p in sorted(d.iterdir()) if p.is_file()}
    probe = last_line(runner.run("egtb", "probe", "--dir", "tables", "--fen", PROBE_FEN))
    e = runner.engine(False)
    e.send("uci")
    e.until(lambda l: l == "uciok")
    e.send("setoption name EGTBPath value tables")
    e.send("isready")
    e.until(lambda l: l == "readyok")
    e.send(f"position fen {PROBE_FEN}")
    e.send("go depth 6")
    lines = e.until(lambda l: l.startswith("bestmove"))
    e.quit()
    hits = [int(m) for l in lines for m in re.findall(r" tbhits (\d+)", l)]
    return files, probe, max(hits or [0]), search_figures(lines)


def check_tables(test, native):
    a, b = tables(test), tables(native)
    assert a[0], "no table file was written"
    assert a[0].keys() == b[0].keys(), f"files {sorted(a[0])}, native {sorted(b[0])}"
    differ = [n for n in a[0] if a[0][n] != b[0][n]]
    assert not differ, f"files differ from the native build's: {differ}"
    assert a[1] == b[1], f"probe {a[1]!r}, native {b[1]!r}"
    assert a[2] > 0, "the search made no database probe"
    assert a[3] == b[3], f"search with tables {a[3]}, native {b[3]}"
    return f"{len(a[0])} files byte-identical, probe `{a[1]}`, search tbhits {a[2]}"


def check_gui(test, _native):
    p = subprocess.Popen(test.cmd("gui", "--port", "0", "--no-open"), cwd=test.dir,
                         env=test.env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        url = None
        deadline = time.time() + TIMEOUT
        while url is None and time.time() < deadline:
            line = p.stdout.readline().decode(errors="replace")
            if not line:
                break
            m = re.search(r"http://127\.0\.0\.1:\d+/?", line)
            url = m.group(0) if m else None
        assert url, "tama gui printed no address"
        with urllib.request.urlopen(url, timeout=30) as r:
            body = r.read().decode(errors="replace")
            assert r.status == 200, f"status {r.status}"
        assert "<html" in body.lower() or "<!doctype" in body.lower(), body[:200]
        return f"page served at {url} ({len(body)} bytes)"
    finally:
        p.kill()
        p.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--native", required=True, help="the native Linux build")
    ap.add_argument("--exe", required=True, help="the cross-built binary under test")
    ap.add_argument("--wine", action="store_true", help="run it under wine")
    ap.add_argument("--static", action="store_true",
                    help="also check that it is statically linked")
    ap.add_argument("--expect-version", metavar="V",
                    help="also check that `--version` names version V")
    args = ap.parse_args()
    for name, path in (("--native", args.native), ("--exe", args.exe)):
        if not os.path.isfile(path):
            ap.error(f"{name} {path}: no such file (build it first)")

    scratch = Path(tempfile.mkdtemp(prefix="tama-cross-"))
    test = Runner(args.exe, scratch / "test", args.wine)
    native = Runner(args.native, scratch / "native", False)
    checks = [check_perft, check_uci, check_hub, check_match, check_tables, check_gui]
    passed = failed = 0
    if args.static:
        if has_interpreter(args.exe):
            print(f"FAIL static: {args.exe} names a program interpreter")
            failed += 1
        else:
            print("ok   static: no program interpreter")
            passed += 1
    if args.expect_version:
        said = test.run("--version").strip()
        if args.expect_version in said.split():
            print(f"ok   version: {said}")
            passed += 1
        else:
            print(f"FAIL version: {said!r} does not name {args.expect_version}")
            failed += 1
    for check in checks:
        t = time.time()
        try:
            what = check(test, native)
            print(f"ok   {check.__name__[6:]}: {what} ({time.time() - t:.1f} s)", flush=True)
            passed += 1
        except Exception as err:  # every failure is reported, none hidden
            print(f"FAIL {check.__name__[6:]}: {err}", flush=True)
            failed += 1
    if args.wine:
        server = shutil.which("wineserver") or "/usr/lib/wine/wineserver64"
        subprocess.run([server, "-k"], env=test.env, check=False)
    shutil.rmtree(scratch, ignore_errors=True)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
