"""How tools/doc_commands.py runs the docs' commands: the placeholders and the
stand-in inputs, the scratch directory of each file, and each command's
result."""

import fnmatch
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from doc_commands_read import REPO, check_synopsis, is_synopsis, one_line, words

# Placeholders and the values they are given: (pattern, replacement, why).
# {egtb} is a directory of 3-piece tables of both variants (made once per
# scratch directory by SETUP["egtb"]), {bin} the directory of the engine
# links, {tama} the binary under test, {repo} this checkout.
PLACEHOLDERS = [
    (r"/path/to/a/clone\b", "{repo}", "a clone to rebuild in a loop: this checkout"),
    (r"--dir D\b", "--dir {egtb}", "D: the 3-piece tables of both variants"),
    (r"--dir D4\b", "--dir {egtb}", "D4: the 3-piece tables of both variants"),
    (r"EGTBPath=D\b", "EGTBPath={egtb}", "D: the 3-piece tables"),
    (r"EGTBPath value D\b", "EGTBPath value {egtb}", "D: the 3-piece tables"),
    (r"TAMA_EGTB_DIR=D\b", "TAMA_EGTB_DIR={egtb}", "D: the 3-piece tables"),
    (r"/work/egtb/armenian\b", "{egtb}", "the 4-piece Armenian tables: the 3-piece ones"),
    (r"/work/egtb/turkish\b", "{egtb}", "the Turkish tables: the 3-piece ones"),
    (r"EGTB_ARMENIAN=D4A\b", "EGTB_ARMENIAN={egtb}", "D4A: the 3-piece tables"),
    (r"EGTB_TURKISH=D4T\b", "EGTB_TURKISH={egtb}", "D4T: the 3-piece tables"),
    (r"--out DZ\b", "--out egtbz", "DZ: a new directory"),
    (r"/shared/egtb\b", "shared-egtb", "/shared/egtb: a new directory"),
    (r"--variant V\b", "--variant armenian", "V: armenian"),
    (r"value V$", "value armenian", "V: armenian"),
    (r"(--fen|position fen) FEN\b", r"\1 W:Wd4:Bd5,a7", "FEN: a 3-piece position"),
    (r"go depth N$", "go depth 12", "N: 12"),
    (r"--pieces N\b", "--pieces 3", "N: 3"),
    (r"--file FILE\b", "--file lab/data/shots.txt", "FILE: the built-in suite"),
    (r"option\.EvalFile=(new|armenian-gen4)\.tew\b", "option.EvalFile=data/weights/armenian-gen2.tew",
     "new.tew, armenian-gen4.tew (a set under test): a weights file of the repository"),
    (r"cmd=NEW\b", "cmd=tama", "NEW: the binary under test"),
    (r"cmd=OLD\b", "cmd=tama", "OLD: the binary under test"),
    (r"cmd=\./a\b", "cmd=tama", "./a: the binary under test"),
    (r"cmd=\./b\b", "cmd=tama", "./b: the binary under test"),
    (r"cmd=\./old-tama\b", "cmd=tama", "./old-tama: the binary under test"),
    (r"\$HOME/bin/tama-(new|old)\b", "{bin}/tama", "tama-new, tama-old: the binary under test"),
    (r"cmd=bin/tama-(new|old)\b", "cmd={bin}/tama", "tama-new, tama-old: the binary under test"),
    (r"cmd=tama-(new|old)\b", "cmd=tama", "tama-new, tama-old: the binary under test"),
    (r'"\$1"', "0", "$1 (the level): 0"),
]

# Environment of every command: the docs' shell variables for the binaries
# (T, L; O and R when --bin gives them) and what a job system would set.
ENV = {"SLURM_ARRAY_TASK_ID": "1", "SLURM_CPUS_PER_TASK": "1"}

# The cross build, linked into each scratch directory's target/ when the
# repository has one (the docs name it from a checkout).
CROSS_TARGET = os.path.join("target", "x86_64-pc-windows-gnu")
WINDOWS_EXE = os.path.join(CROSS_TARGET, "release", "tama.exe")

# Commands that need something this machine may not have: (pattern, what
# it needs, the test). The lab binary and the releases are checked apart.
NEEDS = [
    # Run where they can be checked: tests/slurm_recipes.py, on a one-node cluster.
    (r"\bsbatch\b|tools/sprt-waves\.sh", "a Slurm cluster (tests/slurm_recipes.py runs these recipes on one)",
     lambda: False),
    (r"\bparallel\b.*(--sshlogin|-S 1/node)", "the machines named in --sshlogin/-S",
     lambda: False),
    (r"\bcargo \+nightly fuzz\b", "cargo-fuzz", lambda: shutil.which("cargo-fuzz")),
    (r"\bvalgrind\b", "valgrind", lambda: shutil.which("valgrind")),
    (r"\bparallel\b", "GNU parallel", lambda: shutil.which("parallel")),
    (r"--job (KvKKKK|KMvKKM)\b", "the 4-piece tables as its inputs in D (minutes to build)",
     lambda: False),
    (r"\.\./tama-0\.1\.0\b", "the worktree ../tama-0.1.0 (git worktree add, above)",
     lambda: os.path.isdir(os.path.join(REPO, "..", "tama-0.1.0"))),
    (r"--lib openings -- --ignored", "a remade opening suite (the stored scores are those of "
     "the search that scored the suite, docs/match.md; any later search gives others)",
     lambda: False),
    (r"tools/doc_commands\.py(?!.*--list)", "itself: this is the script", lambda: False),
    (r"\bgit worktree add\b", "permission to add a git worktree beside the repository "
     "(the script leaves the repository alone)", lambda: False),
    (r"\bcargo install\b", "permission to install into ~/.cargo/bin (the script leaves the "
     "machine alone)", lambda: False),
    (r"--wine\b", "wine", lambda: shutil.which("wine")),
    (r"x86_64-pc-windows-gnu/release/tama\.exe", "the Windows build in the repository's target/ "
     "(cargo build --release --target x86_64-pc-windows-gnu)",
     lambda: os.path.exists(os.path.join(REPO, WINDOWS_EXE))),
]

# Binaries the docs name that only --bin can provide: (pattern, --bin name).
RELEASES = [
    (r"\$O\b|\bO=", "tama-0.1.0"),
    (r"\$R\b|\btama-0\.2\.0\b", "tama-0.2.0"),
]

# Files a command writes, so that a later command reading one is skipped
# when the writer did not finish.
OUTPUT_FLAGS = ("--out", "-results", "-pdnout", "OUT=")

# Inputs remade small when the command that writes them ran past the
# timeout: (file pattern, command making it, why).
FALLBACK_INPUTS = [
    (r"[\w.-]+\.(bin|data)",
     "rm -f {name} && tama datagen --variant {variant} --nodes 200 --games 40 --threads 1 "
     "--out {name}", "training data: 40 games at 200 nodes"),
]

# Inputs a command reads that the docs make elsewhere (by hand, or by a
# run far longer than the timeout): (pattern of the command, commands
# making them small, what they stand for). Run before the command, in its
# scratch directory; every one is named in the report.
# Enough games that the hash split leaves validation games for `tama train`.
SHARD_GAMES = 64
SHARD = ("tama datagen --variant armenian --nodes 300 --games %d --threads 1 --seed 5 "
         "--shard {k}/8 --out s{k}.data" % SHARD_GAMES)
MATCH = ("tama match -engine cmd=tama name=a depth=1 -engine cmd=tama name=b depth=2 "
         "-openings builtin start={start} -rounds 2 -repeat -quiet -results {out}")
INPUTS = [
    (r"--merge s1\.data|--merge \$\(seq -f 's%g\.data'",
     ["rm -f armenian-s5.data s?.data"] + [SHARD.format(k=k) for k in range(1, 9)],
     "s1.data ... s8.data: the 8 shards of a run of %d games at 300 nodes" % SHARD_GAMES),
    (r"--merge a\.json b\.json",
     [MATCH.format(start=1, out="a.json"), MATCH.format(start=3, out="b.json")],
     "a.json, b.json: two matches of 4 games at depths 1 and 2"),
    (r"--merge out/shard-\*\.json",
     ["mkdir -p out", "rm -f out/shard-*"] + [MATCH.format(start=1, out="out/shard-%d.json" % k)
                         + " -shard %d/2" % k for k in (1, 2)],
     "out/shard-*.json: the 2 shards of a match of 4 games at depths 1 and 2"),
]

SETUP = {
    "egtb": ["tama egtb build --pieces 3 --dir {egtb}",
             "tama egtb build --variant turkish --pieces 3 --dir {egtb}"],
}

LINKED_FROM_REPO = ("data", "engine", "tools", "tests")


# A line that only sets a shell variable (its value may be a $(...)).
ASSIGNMENT = re.compile(r"""[A-Za-z_]\w*=(?:\$\((?:[^()]|\([^()]*\))*\)|"[^"]*"|'[^']*'|[^\s#])*"""
                        r"\s*(?:#.*)?")


class Runner:
    def __init__(self, args):
        self.args = args
        self.root = tempfile.mkdtemp(prefix="doc-commands-")
        # Copied before the first command: the docs' cargo commands may
        # rebuild them.
        given = dict(b.split("=", 1) for b in args.bin)
        given["tama"] = args.tama
        if args.tama_lab:
            given["tama-lab"] = args.tama_lab
        os.makedirs(os.path.join(self.root, "binaries"))
        for name, path in given.items():
            shutil.copy(path, os.path.join(self.root, "binaries", name))
        self.bins = {n: os.path.join(self.root, "binaries", n) for n in given
                     if n not in ("tama", "tama-lab")}
        self.tama = os.path.join(self.root, "binaries", "tama")
        self.lab = os.path.join(self.root, "binaries", "tama-lab") if args.tama_lab else None

    def scratch(self, name):
        d = os.path.join(self.root, re.sub(r"\W", "_", name))
        os.makedirs(os.path.join(d, "bin"))
        os.makedirs(os.path.join(d, "target", "release"))
        os.symlink(self.tama, os.path.join(d, "bin", "tama"))
        os.symlink(os.path.join(d, "bin", "tama"), os.path.join(d, "target", "release", "tama"))
        os.makedirs(os.path.join(d, "lab"))
        os.symlink(os.path.join(REPO, "lab", "data"), os.path.join(d, "lab", "data"))
        if self.lab:
            os.makedirs(os.path.join(d, "lab", "target", "release"))
            os.symlink(self.lab, os.path.join(d, "bin", "tama-lab"))
            os.symlink(os.path.join(d, "bin", "tama-lab"),
                       os.path.join(d, "lab", "target", "release", "tama-lab"))
        for name_, path in self.bins.items():
            os.symlink(path, os.path.join(d, "bin", name_))
        # `tama gui` opens the board with xdg-open; here it only says so.
        opener = os.path.join(d, "bin", "xdg-open")
        with open(opener, "w") as f:
            f.write('#!/bin/sh\necho "xdg-open $*"\n')
        os.chmod(opener, 0o755)
        for x in LINKED_FROM_REPO:
            os.symlink(os.path.join(REPO, x), os.path.join(d, x))
        if os.path.isdir(os.path.join(REPO, CROSS_TARGET)):
            os.symlink(os.path.join(REPO, CROSS_TARGET), os.path.join(d, CROSS_TARGET))
        return d

    def env(self, d):
        env = dict(os.environ)
        env.update(ENV)
        env["PATH"] = os.path.join(d, "bin") + os.pathsep + env["PATH"]
        env["T"] = os.path.join(d, "bin", "tama")
        if self.lab:
            env["L"] = os.path.join(d, "bin", "tama-lab")
        if "tama-0.1.0" in self.bins:
            env["O"] = os.path.join(d, "bin", "tama-0.1.0")
        if "tama-0.2.0" in self.bins:
            env["R"] = os.path.join(d, "bin", "tama-0.2.0")
        return env

    def run(self, text, cwd, env, stdin=None, timeout=None):
        """(status, exit code, seconds, stderr) of `text` under bash."""
        start = time.monotonic()
        p = subprocess.Popen(["bash", "-c", text], cwd=cwd, env=env, text=True,
                             stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             start_new_session=True)
        try:
            _, err = p.communicate(stdin, timeout=timeout or self.args.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            _, err = p.communicate()
            return "started", None, time.monotonic() - start, err
        status = "ok" if p.returncode == 0 else "failed"
        return status, p.returncode, time.monotonic() - start, err


# Lines on the stderr of a command killed at the timeout that say it was
# not working: a match whose engine does not start plays on, forfeit
# after forfeit.
BROKEN = re.compile(r"^error:|engine failed to start|engine crashed", re.M)


def substitute(text, values):
    notes = []
    for pattern, repl, why in PLACEHOLDERS:
        new = re.sub(pattern, repl.format(**values), text, flags=re.M)
        if new != text:
            notes.append(why)
            text = new
    return text, notes


def outputs(text):
    """The files `text` writes, as glob patterns (`{}` and variables: `*`):
    those of OUTPUT_FLAGS, a `>` redirection's, and the directory a table
    build fills."""
    w = words(text) or []
    out = []
    builds_tables = re.search(r"\begtb build\b", text) is not None
    for i, x in enumerate(w):
        if x in OUTPUT_FLAGS[:3] and i + 1 < len(w):
            out.append(w[i + 1])
        elif x.startswith("OUT="):
            out.append(x[4:] + "/")
        elif x in (">", ">>") and i + 1 < len(w):
            out.append(w[i + 1])
        elif re.fullmatch(r">>?[^>&].*", x):
            out.append(x.lstrip(">"))
        elif builds_tables and x == "--dir" and i + 1 < len(w):
            out.append(w[i + 1])
    out = [x.rstrip(";&|") for x in out]
    return [re.sub(r"\{\}|\$\{?\w+\}?", "*", x) for x in out
            if x and not x.startswith("/dev/") and not re.fullmatch(r"[A-Z][A-Z0-9]*", x)]


def run_file(runner, commands, counts, report):
    d = None
    assignments = []
    unfinished = {}  # a file an earlier command should have made -> where
    setup_done = set()
    standin_tables = None  # the 3-piece tables SETUP makes, once there is a scratch directory
    standins = set()  # files the script made in place of the docs' own
    for cmd in commands:
        def result(status, detail="", shown=None):
            counts[status] += 1
            report.append((status, cmd, detail))
            print(f"{status:8} {cmd.where()}: {one_line(shown or cmd.text)}")
            if detail:
                for line in detail.rstrip().split("\n"):
                    print(f"           {line}")
            sys.stdout.flush()

        def leaves_unfinished(files, why):
            # The stand-in tables stay whole whatever a build into them
            # left: the 3-piece ones SETUP made.
            for f in files:
                if f != standin_tables:
                    unfinished[f] = f"{cmd.where()} ({why})"

        text = cmd.text
        reason = None
        for pattern, what, present in NEEDS:
            if re.search(pattern, text) and not present():
                reason = f"needs {what}"
                break
        for pattern, name in RELEASES:
            if reason is None and re.search(pattern, text) and name not in runner.bins:
                reason = f"needs {name} (--bin {name}=PATH)"
        if reason is None and re.search(r"\$L\b|\bL=|tama-lab\b", text) and not runner.lab \
                and "cargo" not in text:
            reason = "needs the lab binary (--tama-lab PATH)"
        if reason:
            leaves_unfinished(outputs(text), "skipped")
            result("skipped", reason)
            continue
        if d is None:
            d = runner.scratch(cmd.path)
        env = runner.env(d)
        standin_tables = os.path.join(d, "egtb3")
        values = {"egtb": standin_tables, "bin": os.path.join(d, "bin"), "tama": env["T"],
                  "repo": REPO}
        text, notes = substitute(text, values)
        if is_synopsis(text):
            status, detail = check_synopsis(cmd, runner.tama, runner.lab)
            leaves_unfinished(outputs(text), "a synopsis, not run")
            result(status, detail)
            continue
        stdin = [substitute(x, values)[0] for x in cmd.stdin]
        if values["egtb"] in text + " ".join(stdin):
            if "egtb" not in setup_done:
                for s in SETUP["egtb"]:
                    status, code, _, err = runner.run(s.format(**values), d, env, timeout=600)
                    if status != "ok":
                        sys.exit(f"setup failed: {s}: {err}")
                setup_done.add("egtb")
        own = outputs(text)
        # What an earlier command left and this one writes (a stand-in, or
        # what a killed run left) would be added to or refused: removed.
        for pattern in own:
            for f in glob.glob(os.path.join(d, pattern)):
                rel = os.path.relpath(f, d)
                if os.path.isfile(f) and (rel in standins
                                          or any(fnmatch.fnmatch(rel, u) for u in unfinished)):
                    os.remove(f)
        given = False
        for pattern, makers, why in INPUTS:
            if re.search(pattern, text):
                for m in makers:
                    status, _, _, err = runner.run(m, d, env, timeout=600)
                    if status != "ok":
                        sys.exit(f"making the inputs of {cmd.where()} failed: {m}: {err}")
                standins.update(f for m in makers for f in outputs(m))
                notes.append(why)
                given = True
        waiting = [] if given else [
            f for f in unfinished
            if re.search(r"(^|[\s=/])" + re.escape(f), text)
            and not any(fnmatch.fnmatch(f, o) for o in own)]
        skip = None
        for f in waiting:
            made = False
            for pattern, maker, why in FALLBACK_INPUTS:
                if re.fullmatch(pattern, f):
                    variant = "turkish" if "turkish" in f else "armenian"
                    status, _, _, err = runner.run(maker.format(variant=variant, name=f), d, env,
                                                   timeout=600)
                    if status != "ok":
                        sys.exit(f"making {f} failed: {err}")
                    notes.append(f"{f}: {why} (its command, {unfinished[f]}, did not finish)")
                    standins.add(f)
                    made = True
            if not made:
                skip = f"reads {f}, which {unfinished[f]} did not finish making"
        if skip:
            leaves_unfinished(own, "skipped")
            result("skipped", skip)
            continue
        cargo = re.match(r"^(?:[A-Z_]+=\S*\s+)*(cargo|cd fuzz)", text) is not None
        cwd = REPO if cargo else d
        prelude = "\n".join(assignments)
        full = (prelude + "\n" if prelude else "") + text
        status, code, seconds, err = runner.run(
            full, cwd, env, "\n".join(stdin) + "\n" if stdin else None,
            timeout=runner.args.cargo_timeout if cargo else None)
        detail = []
        if status == "ok":
            for f in outputs(text):
                unfinished.pop(f, None)
        else:
            leaves_unfinished(outputs(text), status)
        last = text.split("&&")[-1].strip()
        if status == "ok" and ASSIGNMENT.fullmatch(last):
            # Kept for the file's later commands, as a shell would keep it.
            assignments.append(last)
            detail.append("an assignment, kept for the later commands of the file")
        if notes:
            detail.append("placeholders: " + "; ".join(notes))
        if stdin:
            detail.append("stdin: " + " / ".join(stdin))
        if cargo:
            detail.append("run in the repository")
        broken = BROKEN.search(err) if status == "started" else None
        if broken:
            status = "failed"
            line = err[broken.start():].split("\n")[0]
            detail.append(f"still running after {seconds:.0f} s, but its stderr says: {line[:300]}")
        elif status == "started":
            detail.append(f"still running after {seconds:.0f} s, killed: arguments accepted, "
                          "not run to the end")
        elif status == "failed":
            detail.append(f"exit {code} after {seconds:.1f} s; stderr:")
            detail += ["  " + x for x in err.strip().split("\n")[:8]]
        result(status, "\n".join(detail), text)

