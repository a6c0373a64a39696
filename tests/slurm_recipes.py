#!/usr/bin/env python3
"""Runs the Slurm and GNU parallel recipes of the docs as written, on a
one-node cluster and with `parallel -S 1/:`, and checks their results
against the one-process runs (docs/testing.md, "Slurm and GNU parallel
recipes").

    tools/slurm-one-node.sh run -- tests/slurm_recipes.py [--tama PATH] [--only NAME]... [--keep]

The recipes are taken from the docs' own text: each is the code block
under a given heading of docs/endgames.md, docs/match.md or
docs/evaluation.md that contains a given line, so a recipe that drifts
(a flag renamed, a path, a missing step) fails here. The only changes made
to a recipe are the sizes (pieces, shards, rounds, games, nodes, --mem,
time control) and the machines' names, each a substitution that must match
the recipe's text: a recipe whose sizes are written differently fails too,
with the substitution that no longer applies.

Tests (--only NAME runs some; all by default):
  egtb       the level loop of docs/endgames.md (4 pieces, both variants):
             files byte for byte those of `tama egtb build --pieces 4`;
             then a level-1 job whose input was removed fails, the levels
             above it never start, and the loop submitted again builds only
             the missing files; and the GNU parallel loop with `-S 1/:`
  match      the job array and merge of docs/match.md: counts, pentanomial
             and games (PDN) equal to the whole match's; a shard cancelled
             (scancel) after its first games and resubmitted alone ends the
             same; and the GNU parallel recipe with `--sshlogin 1/:`
  datagen    docs/evaluation.md's shards with GNU parallel and as a job
             array, merged: the whole run's file byte for byte
  sprt-waves tools/sprt-waves.sh stops an SPRT early (depth 6 against
             depth 2) and prints the decision `tama match --merge -sprt`
             gives on the shards it merged

Needs SLURM_CONF (a running cluster) and GNU parallel. Each test prints its
wall time; the exit status is 1 if any failed.
"""
import argparse
import filecmp
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.realpath(__file__))
REPO = os.path.dirname(HERE)


class Fail(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Fail(what)


# ---- recipes from the docs ----------------------------------------------

def code_blocks(path):
    """(heading, first line number, text) of every fenced or indented code
    block of a Markdown file."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out, heading, i = [], "", 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(```+|~~~+)", line)
        if m:
            fence, start, body = m.group(1), i + 1, []
            i += 1
            while i < len(lines) and not lines[i].startswith(fence):
                body.append(lines[i])
                i += 1
            out.append((heading, start + 1, "\n".join(body) + "\n"))
            i += 1
            continue
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        if line.startswith("    ") and line.strip() and (i == 0 or not lines[i - 1].strip()):
            start, body = i, []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                body.append(lines[i][4:])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            out.append((heading, start + 1, "\n".join(body) + "\n"))
            continue
        i += 1
    return out


def recipe(doc, heading, key):
    """The one code block of docs/DOC under a heading containing HEADING
    whose text contains KEY."""
    path = os.path.join(REPO, "docs", doc)
    found = [(h, n, t) for h, n, t in code_blocks(path) if heading in h and key in t]
    check(len(found) == 1, f"docs/{doc}: {len(found)} code blocks under a heading with "
          f"'{heading}' contain '{key}' (the recipe must be exactly one)")
    h, n, t = found[0]
    return Recipe(f"docs/{doc}:{n}", t)


class Recipe:
    def __init__(self, where, text):
        self.where, self.text = where, text

    def sub(self, old, new, regex=False):
        """Replaces OLD (every occurrence); OLD must occur."""
        pattern = old if regex else re.escape(old)
        text, n = re.subn(pattern, new.replace("\\", "\\\\") if not regex else new, self.text)
        check(n > 0, f"{self.where}: the recipe no longer contains '{old}' (the size or name the test replaces)")
        return Recipe(self.where, text)


# ---- running things -----------------------------------------------------

class Env:
    def __init__(self, tama, root):
        self.root = root
        self.bin = os.path.join(root, "bin")
        os.makedirs(self.bin)
        # The recipes name `tama` on PATH, and $HOME/bin/tama-new, bin/tama-old ...:
        # all the binary under test.
        for name in ("tama", "tama-new", "tama-old"):
            os.symlink(tama, os.path.join(self.bin, name))
        self.env = dict(os.environ, PATH=self.bin + os.pathsep + os.environ["PATH"])

    def sh(self, script, cwd, check_status=True, env=None, timeout=900):
        """Runs SCRIPT under bash -e in CWD; returns its stdout."""
        e = dict(self.env, **(env or {}))
        p = subprocess.run(["bash", "-e", "-c", script], cwd=cwd, env=e, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        if check_status and p.returncode != 0:
            raise Fail(f"exit status {p.returncode} from:\n{script}\nstderr: {p.stderr[-2000:]}")
        return p.stdout

    def run(self, args, cwd, timeout=900):
        p = subprocess.run(args, cwd=cwd, env=self.env, text=True, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
        if p.returncode != 0:
            raise Fail(f"exit status {p.returncode} from {' '.join(args)}\nstderr: {p.stderr[-2000:]}")
        return p.stdout


def slurm(*args):
    return subprocess.run(list(args), check=True, text=True, stdout=subprocess.PIPE).stdout


def jobs(ids=None):
    """{task id: (state, reason)} of the jobs (or all), finished ones included."""
    args = ["squeue", "-h", "-r", "-t", "all", "-o", "%i %T %r"]
    if ids:
        args += ["-j", ",".join(str(i) for i in ids)]
    out = {}
    for line in slurm(*args).splitlines():
        i, state, reason = (line.split(None, 2) + [""])[:3]
        out[i] = (state, reason)
    return out


ACTIVE = {"PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED", "REQUEUED", "RESIZING"}


def wait_jobs(ids=None, seen=(), timeout=900):
    """Waits until no job (of IDS, or any but those in SEEN) can still run:
    finished, or pending on a dependency that can never be met. Returns
    jobs(ids) without those in SEEN."""
    t0 = time.time()
    while True:
        js = {i: s for i, s in jobs(ids).items() if i not in seen}
        if all(s not in ACTIVE or r == "DependencyNeverSatisfied" for s, r in js.values()):
            return js
        if time.time() - t0 > timeout:
            raise Fail(f"jobs still running after {timeout} s: {js}")
        time.sleep(0.5)


def array_ids(name):
    """The job ids of the arrays (or jobs) named NAME, in order of submission."""
    out = slurm("squeue", "-h", "-t", "all", "-n", name, "-o", "%F")
    return sorted({int(x) for x in out.split()})


def same_dirs(a, b):
    fa, fb = sorted(os.listdir(a)), sorted(os.listdir(b))
    check(fa == fb, f"{a} and {b} hold different files: only in {a}: {sorted(set(fa) - set(fb))}, "
          f"only in {b}: {sorted(set(fb) - set(fa))}")
    _, mismatch, errors = filecmp.cmpfiles(a, b, fa, shallow=False)
    check(not mismatch and not errors, f"files differ between {a} and {b}: {mismatch + errors}")
    return len(fa)


# ---- endgame databases ----------------------------------------------------

def test_egtb(env, work):
    script = (recipe("endgames.md", "A build on many machines", "# egtb-level.sh LEVEL")
              .sub("--pieces 6", "--pieces 4").sub("--mem=14G", "--mem=1G"))
    loop = recipe("endgames.md", "A build on many machines", "sbatch --parsable --array").sub("--pieces 6", "--pieces 4")
    par = (recipe("endgames.md", "A build on many machines", "parallel --halt now,fail=1 -S 1/node1")
           .sub("--pieces 6", "--pieces 4").sub("-S 1/node1,1/node2,1/:", "-S 1/:"))
    top_line = next(l for l in loop.text.splitlines() if l.startswith("TOP="))

    ref = {}
    t0 = time.time()
    for v in ("armenian", "turkish"):
        ref[v] = os.path.join(work, "ref", v)
        env.run(["tama", "egtb", "build", "--pieces", "4", "--variant", v, "--threads", "2",
                 "--dir", ref[v]], work)
    print(f"    one-process builds, both variants: {time.time() - t0:.0f} s", flush=True)

    # The level loop, both variants at once (one script each, as a user would
    # for two rule sets).
    t0 = time.time()
    dirs = {}
    seen = set(jobs())
    for v in ("armenian", "turkish"):
        d = os.path.join(work, "slurm", v)
        os.makedirs(d)
        dirs[v] = os.path.join(d, "egtb")
        s = script.sub("/shared/egtb", dirs[v])
        if v == "turkish":
            s = s.sub("--variant armenian", "--variant turkish")
        open(os.path.join(d, "egtb-level.sh"), "w").write(s.text)
        env.sh(loop.text, d)
    js = wait_jobs(seen=seen)
    bad = {i: s for i, s in js.items() if s[0] != "COMPLETED"}
    check(not bad, f"level jobs that did not complete: {bad}")
    for v in ("armenian", "turkish"):
        n = same_dirs(dirs[v], ref[v])
    levels = len({i.split("_")[0] for i in js}) // 2
    print(f"    Slurm level loop, both variants: {levels} arrays and {len(js) // 2} tasks a variant, "
          f"files identical to the one-process build's ({n} a variant): {time.time() - t0:.0f} s", flush=True)
    egtb_failure(env, work, dirs, ref, levels, loop)
    egtb_parallel(env, work, ref, levels, par, top_line)


def egtb_failure(env, work, dirs, ref, levels, loop):
    # A job whose input is missing: the level-0 pair (KvK) is removed after
    # its job ran and before level 1 starts, which needs it. A blocking job
    # holds the node while the loop is submitted and level 1 is held.
    t0 = time.time()
    d, egtb = os.path.join(work, "slurm", "armenian"), dirs["armenian"]
    kvk = glob.glob(os.path.join(egtb, "*-KvK.egtb"))
    level4 = glob.glob(os.path.join(egtb, "*-KMvKM.egtb"))
    check(len(kvk) == 1 and len(level4) == 1, f"KvK, KMvKM files: {kvk}, {level4}")
    for f in kvk + level4:
        os.remove(f)
    before = {f: os.stat(os.path.join(egtb, f)).st_mtime_ns for f in os.listdir(egtb)}
    blocker = int(slurm("sbatch", "--parsable", "-J", "blocker", "-c", str(len(os.sched_getaffinity(0))),
                        "-o", "/dev/null", "--wrap", "sleep 600").split(";")[0])
    while jobs([blocker])[str(blocker)][0] != "RUNNING":
        time.sleep(0.2)
    done = set(array_ids("egtb-level.sh"))
    env.sh(loop.text, d)
    arrays = [i for i in array_ids("egtb-level.sh") if i not in done]
    check(len(arrays) == levels, f"the loop submitted {len(arrays)} arrays, not {levels}")
    slurm("scontrol", "hold", str(arrays[1]))
    slurm("scancel", str(blocker))
    js = wait_jobs([arrays[0]])
    check(all(s == "COMPLETED" for s, _ in js.values()), f"level 0: {js}")
    check(os.path.exists(kvk[0]), "level 0 did not build KvK again")
    os.remove(kvk[0])
    slurm("scontrol", "release", str(arrays[1]))
    l1 = wait_jobs([arrays[1]])
    check(all(s == "FAILED" for s, _ in l1.values()), f"level 1 with KvK missing: {l1}")
    # Level 2 can never start; the levels above wait on it (reason
    # Dependency). Nothing may start for a while after.
    t1 = time.time()
    while not all(r == "DependencyNeverSatisfied" for _, r in jobs([arrays[2]]).values()):
        check(time.time() - t1 < 60, f"level 2 after level 1 failed: {jobs([arrays[2]])}")
        time.sleep(0.5)
    time.sleep(5)
    above = jobs(arrays[2:])
    check(above and all(s == "PENDING" and r in ("Dependency", "DependencyNeverSatisfied")
                        for s, r in above.values()), f"the levels above the failed one: {above}")
    check(not os.path.exists(level4[0]), "a level-4 file was built above a failed level")
    logs = "".join(open(f).read() for f in glob.glob(os.path.join(d, f"slurm-{arrays[1]}_*.out")))
    check("KvK" in logs, f"the failed jobs' logs do not name the missing KvK: {logs[-500:]}")
    slurm("scancel", *[str(a) for a in arrays[2:]])
    wait_jobs(arrays[2:])
    print(f"    a level-1 job without its input failed, levels 2-{levels - 1} never started", flush=True)

    done = set(array_ids("egtb-level.sh"))
    env.sh(loop.text, d)
    arrays = [i for i in array_ids("egtb-level.sh") if i not in done]
    js = wait_jobs(arrays)
    check(all(s == "COMPLETED" for s, _ in js.values()), f"the loop submitted again: {js}")
    same_dirs(egtb, ref["armenian"])
    rewritten = [f for f, t in before.items() if os.stat(os.path.join(egtb, f)).st_mtime_ns != t]
    check(not rewritten, f"submitted again, the loop rewrote files that were there: {rewritten}")
    print(f"    submitted again: only the {len(kvk + level4)} missing files built, all identical: "
          f"{time.time() - t0:.0f} s", flush=True)


def egtb_parallel(env, work, ref, levels, par, top_line):
    # GNU parallel, this machine only.
    t0 = time.time()
    d = os.path.join(work, "parallel")
    os.makedirs(d)
    shared = os.path.join(d, "egtb")
    env.sh(top_line + "\n" + par.sub("/shared/egtb", shared).text, d)
    n = same_dirs(shared, ref["armenian"])
    check(len(glob.glob(shared + "-level-*.log")) == levels, "parallel's job logs, one a level")
    print(f"    GNU parallel level loop (-S 1/:), armenian: {n} files identical: {time.time() - t0:.0f} s",
          flush=True)


# ---- match shards -------------------------------------------------------

ROUNDS, SHARDS, DEPTH = 8, 4, 6


def games(pdn):
    """The games of a PDN file, sorted (shards and concurrency change their order)."""
    text = open(pdn).read().strip()
    return sorted(g.strip() for g in re.split(r"\n\n(?=\[Event )", text) if g.strip())


def figures(results):
    d = json.load(open(results))
    return d["games_played"], [(p["first"], p["second"], p["wins"], p["draws"], p["losses"],
                                p["pentanomial"]) for p in d["pairs"]]


def whole_match(env, cmd_text, cwd, name):
    """The whole match of a shard's command: -shard dropped, its own files."""
    cmd = re.sub(r"\\\n", " ", cmd_text)
    cmd = re.sub(r"-shard \S+", "", cmd)
    cmd = re.sub(r"-results \S+", f"-results {name}.json", cmd)
    cmd = re.sub(r"-pdnout \S+", f"-pdnout {name}.pdn", cmd)
    env.sh(cmd, cwd)
    return os.path.join(cwd, name + ".json"), os.path.join(cwd, name + ".pdn")


def test_match(env, work):
    shards = (recipe("match.md", "Slurm job array", "#SBATCH --array")
              .sub("--array=1-20", f"--array=1-{SHARDS}").sub("}/20 ", f"}}/{SHARDS} ")
              .sub("tc=10+0.1", f"depth={DEPTH}").sub("-rounds 2000", f"-rounds {ROUNDS}"))
    submit = recipe("match.md", "Slurm job array", "sbatch --dependency=afterok")
    par = (recipe("match.md", "GNU parallel over ssh", "parallel --sshlogin")
           .sub("--sshlogin 1/alpha,1/beta,1/gamma,1/delta", "--sshlogin 1/:")
           .sub("N=16", f"N={SHARDS}").sub("tc=10+0.1", f"depth={DEPTH}")
           .sub("-rounds 1000", f"-rounds {ROUNDS}"))
    match_line = re.search(r"^tama match .*?[^\\]$", shards.text, re.M | re.S).group(0)
    home = {"HOME": work}

    t0 = time.time()
    whole = os.path.join(work, "whole")
    os.makedirs(whole)
    wj, wp = whole_match(env, match_line.replace("$HOME", work), whole, "whole")
    want = figures(wj)
    wgames = games(wp)
    check(want[0] == 2 * ROUNDS, f"the whole match played {want[0]} games")
    print(f"    whole match ({want[0]} games at depth {DEPTH}): {time.time() - t0:.0f} s", flush=True)

    def merged_ok(d, what):
        got = figures(os.path.join(d, "out", "all.json"))
        check(got == want, f"{what}: merged {got}, the whole match {want}")
        check(json.load(open(os.path.join(d, "out", "all.json")))["sprt"]["decision"] in ("H0", "H1", "none"),
              f"{what}: no SPRT in the merged results")
        got_games = games(os.path.join(d, "out", "all.pdn"))
        check(got_games == wgames, f"{what}: the shards' PDN holds {len(got_games)} games, "
              f"not the whole match's {len(wgames)}, or other ones")

    # As written: the array, the merge after it.
    t0 = time.time()
    d = os.path.join(work, "slurm")
    os.makedirs(d)
    open(os.path.join(d, "shards.sh"), "w").write(shards.text)
    seen = set(jobs())
    env.sh(submit.text, d, env=home)
    js = wait_jobs(seen=seen)
    check(all(s == "COMPLETED" for s, _ in js.values()), f"shards and merge: {js}")
    check(len(js) == SHARDS + 1, f"{len(js)} jobs, not {SHARDS} shards and the merge")
    merged_ok(d, "Slurm array")
    print(f"    Slurm array of {SHARDS} shards, merge after afterok: same counts, pentanomial, "
          f"games: {time.time() - t0:.0f} s", flush=True)

    # A shard cancelled after its first games, then run again alone (the
    # recipe's comment: `sbatch --array=K shards.sh`, -resume in the script)
    # and the merge submitted after it.
    t0 = time.time()
    d = os.path.join(work, "slurm-cancel")
    os.makedirs(d)
    open(os.path.join(d, "shards.sh"), "w").write(shards.text)
    rerun = re.search(r"sbatch --array=(\d+) shards\.sh", submit.text)
    check(rerun, f"{submit.where}: no `sbatch --array=K shards.sh` to rerun a shard")
    check("-resume" in shards.text, f"{shards.where}: no -resume in the shard script, a rerun plays every game again")
    done = set(array_ids("tama-sprt"))
    seen = set(jobs())
    env.sh(submit.text, d, env=home)
    arr = [i for i in array_ids("tama-sprt") if i not in done][0]
    k = 2
    part = os.path.join(d, "out", f"shard-{k}.json")
    t1 = time.time()
    while True:
        state = jobs([f"{arr}_{k}"]).get(f"{arr}_{k}", ("?", ""))[0]
        n = json.load(open(part))["games_played"] if os.path.exists(part) else 0
        if n >= 1 and state == "RUNNING":
            break
        check(state in ("PENDING", "RUNNING", "CONFIGURING") and time.time() - t1 < 300,
              f"shard {k} ended ({state}) before it could be cancelled mid-run")
        time.sleep(0.05)
    slurm("scancel", f"{arr}_{k}")
    js = wait_jobs(seen=seen)
    played = json.load(open(part))["games_played"]
    check(js[f"{arr}_{k}"][0] == "CANCELLED" and played < 2 * ROUNDS // SHARDS,
          f"shard {k}: {js[f'{arr}_{k}']}, {played} games")
    merge = [i for i, (s, r) in js.items() if r == "DependencyNeverSatisfied"]
    check(len(merge) == 1, f"the merge after a cancelled shard: {js}")
    slurm("scancel", *merge)
    again = env.sh(f"sbatch --parsable --array={k} shards.sh", d, env=home).strip().split(";")[0]
    merge_line = submit.sub(r"afterok:\$\w+", f"afterok:{again}", regex=True)
    merge_cmd = re.search(r"^sbatch --dependency=afterok:.*?'\s*$", merge_line.text, re.M | re.S).group(0)
    env.sh(merge_cmd, d, env=home)
    js = wait_jobs(seen=seen)
    check(js[f"{again}_{k}"][0] == "COMPLETED", f"the rerun shard: {js[f'{again}_{k}']}")
    merged_ok(d, f"shard {k} cancelled after {played} games and run again with -resume")
    print(f"    shard {k} cancelled after {played} games, rerun alone, merged: same result: "
          f"{time.time() - t0:.0f} s", flush=True)

    # GNU parallel, this machine only (its whole match: the options differ).
    t0 = time.time()
    d = os.path.join(work, "parallel")
    os.makedirs(d)
    os.symlink(env.bin, os.path.join(d, "bin"))
    env.sh(par.text, d)
    pline = re.search(r"tama match -engine .*?-pdnout \S+", re.sub(r"\\\n", " ", par.text), re.S).group(0)
    pline = pline.replace("{}/'$N'", "1/1").replace("{}", "whole")
    pj, pp = whole_match(env, pline, d, "whole")
    got = figures(os.path.join(d, "out", "all.json"))
    check(got == figures(pj), f"parallel: merged {got}, whole {figures(pj)}")
    pgames = sorted(g for f in glob.glob(os.path.join(d, "out", "shard-*.pdn")) for g in games(f))
    check(pgames == games(pp), "parallel: the shards' games are not the whole match's")
    print(f"    GNU parallel (--sshlogin 1/:), {SHARDS} shards and the whole match: "
          f"{time.time() - t0:.0f} s", flush=True)


# ---- data generation ------------------------------------------------------

def test_datagen(env, work):
    sizes = [("--nodes 5000", "--nodes 200"), ("--games 40000", "--games 8")]
    par = recipe("evaluation.md", "Sharded data generation", "parallel -j")
    arr = recipe("evaluation.md", "Sharded data generation", "#SBATCH --array")
    for old, new in sizes:
        par, arr = par.sub(old, new), arr.sub(old, new)
    par, arr = par.sub("N=8", "N=4"), arr.sub("N=8", "N=4").sub("--array=1-8", "--array=1-4")
    merge = next(l for l in par.text.splitlines() if "--merge" in l)
    settings = re.search(r"tama datagen (.*?)\s*\\?\s*--shard", par.text, re.S).group(1)
    out = re.search(r"--out (\S+) --merge", merge).group(1)

    t0 = time.time()
    whole = os.path.join(work, "whole.data")
    env.sh(f"tama datagen {settings} --out {whole}", work)
    print(f"    whole run: {time.time() - t0:.0f} s", flush=True)

    t0 = time.time()
    d = os.path.join(work, "parallel")
    os.makedirs(d)
    env.sh(par.text, d)
    check(filecmp.cmp(os.path.join(d, out), whole, shallow=False),
          "GNU parallel: the merged file is not the whole run's")
    print(f"    GNU parallel, 4 shards merged: the whole run's file: {time.time() - t0:.0f} s", flush=True)

    t0 = time.time()
    d = os.path.join(work, "slurm")
    os.makedirs(d)
    open(os.path.join(d, "datagen.sh"), "w").write(arr.text)
    seen = set(jobs())
    env.sh(f"JOBID=$(sbatch --parsable datagen.sh)\n"
           f"sbatch --dependency=afterok:$JOBID --wrap {shlex.quote('N=4; ' + merge)}", d)
    js = wait_jobs(seen=seen)
    check(all(s == "COMPLETED" for s, _ in js.values()), f"datagen jobs: {js}")
    check(filecmp.cmp(os.path.join(d, out), whole, shallow=False),
          "Slurm: the merged file is not the whole run's")
    print(f"    Slurm array of 4 shards, merge after afterok: the whole run's file: "
          f"{time.time() - t0:.0f} s", flush=True)


# ---- the sharded SPRT ------------------------------------------------------

def test_sprt_waves(env, work):
    # The engine at depth 6 against itself at depth 2: H1 after a few shards.
    r = (recipe("match.md", "An SPRT that stops early", "tools/sprt-waves.sh --shards")
         .sub("--shards 20", "--shards 16").sub("--wave 4", "--wave 2").sub("elo1=5 ", "elo1=50 ")
         .sub("name=new", "name=new depth=6").sub("name=old", "name=old depth=2")
         .sub("-each tc=10+0.1", "-each").sub("-rounds 2000", "-rounds 32"))
    sprt = re.search(r"--sprt '([^']*)'", r.text).group(1)
    os.symlink(os.path.join(REPO, "tools"), os.path.join(work, "tools"))
    t0 = time.time()
    out = env.sh(r.text, work, env={"HOME": work})
    print("      " + "\n      ".join(out.strip().splitlines()), flush=True)
    m = re.search(r"^decision: (H0|H1|none) after (\d+) of (\d+) shards \((\d+) games\).*$", out, re.M)
    check(m, "sprt-waves.sh printed no decision line")
    check(m.group(1) == "H1", f"depth 6 against depth 2: {m.group(1)}, not H1")
    check(int(m.group(2)) < 16, "the SPRT did not stop before the last shard")
    files = sorted(glob.glob(os.path.join(work, "out", "shard-*.json")))
    done = [f for f in files if os.path.exists(f[:-len(".json")] + ".done")]
    check(len(done) == int(m.group(2)), f"{len(done)} finished shards' files, the script says {m.group(2)}")
    again = env.sh(f"tama match --merge {' '.join(done)} -results again.json -sprt {sprt}", work)
    d = json.load(open(os.path.join(work, "again.json")))
    check(d["sprt"]["decision"] == m.group(1) and d["games_played"] == int(m.group(4)),
          f"tama match --merge -sprt on the same shards: {d['sprt']['decision']} after "
          f"{d['games_played']} games")
    check(f"LLR {d['sprt']['llr']:.3f} " in m.group(0), f"the merge's LLR is {d['sprt']['llr']:.3f}: {m.group(0)}")
    check(not jobs() or all(s not in ACTIVE for s, _ in jobs().values()),
          f"jobs left running after the decision: {jobs()}")
    print(f"    sprt-waves.sh: {m.group(1)} after {m.group(2)} of 16 shards, as the merge says: "
          f"{time.time() - t0:.0f} s", flush=True)


TESTS = {"egtb": test_egtb, "match": test_match, "datagen": test_datagen, "sprt-waves": test_sprt_waves}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tama", default=os.path.join(REPO, "target", "release", "tama"))
    ap.add_argument("--only", action="append", choices=sorted(TESTS))
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory")
    a = ap.parse_args()
    if not os.environ.get("SLURM_CONF"):
        sys.exit("SLURM_CONF is not set: run under tools/slurm-one-node.sh run -- ...")
    for prog in ("sbatch", "squeue", "scancel", "scontrol", "parallel"):
        if not shutil.which(prog):
            sys.exit(f"{prog} not found: tools/slurm-one-node.sh installs it")
    subprocess.run(["sinfo"], check=True, stdout=subprocess.DEVNULL)
    tama = os.path.realpath(a.tama)
    root = tempfile.mkdtemp(prefix="tama-recipes.")
    failed = []
    t_all = time.time()
    for name in a.only or list(TESTS):
        work = os.path.join(root, name)
        os.makedirs(work)
        env = Env(tama, work)
        print(f"{name}:", flush=True)
        t0 = time.time()
        try:
            TESTS[name](env, work)
            print(f"  {name}: ok, {time.time() - t0:.0f} s", flush=True)
        except (Fail, subprocess.CalledProcessError, subprocess.TimeoutExpired) as e:
            failed.append(name)
            print(f"  {name}: FAILED after {time.time() - t0:.0f} s: {e}", flush=True)
        # A failed test may leave jobs behind; the next one starts on an empty queue.
        live = [i for i, (s, _) in jobs().items() if s in ACTIVE]
        if live:
            subprocess.run(["scancel"] + live)
            wait_jobs()
    print(f"{len(a.only or TESTS) - len(failed)} passed, {len(failed)} failed"
          f"{': ' + ', '.join(failed) if failed else ''}; {time.time() - t_all:.0f} s", flush=True)
    if a.keep or failed:
        print(f"scratch directory kept: {root}")
    else:
        shutil.rmtree(root)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
