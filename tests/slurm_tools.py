#!/usr/bin/env python3
"""Checks that tools/slurm-one-node.sh and tools/sprt-waves.sh touch only
what is theirs, against stand-in Slurm commands (docs/testing.md, "The
Slurm tools beside real work"). Needs no cluster, no root and no tama
build: python3, bash and flock.

    python3 tests/slurm_tools.py [-k NAME]

This file is also the stand-ins: linked as sbatch, squeue, scancel, sacct,
scontrol and tama in a scratch bin/ put first on PATH, it acts as a small
queue kept in $FAKE_SLURM (one JSON file a job; each job a real process
group, started by sbatch, ended by scancel), with one controller per
SLURM_CONF: squeue lists the jobs submitted under the SLURM_CONF it runs
with. munged, slurmctld and slurmd are linked too and start nothing, so
a `start` that should refuse cannot start a cluster. Every call is logged with the caller's $FAKE_TAG. squeue fails on
the calls listed in $FAKE_SLURM/squeue-fail (numbers, counted over all
callers); sacct fails as where accounting is off. The stand-in tama plays
a shard by logging it and sleeping ($FAKE_PLAY: `SHARD:SECONDS,...`, the
rest $FAKE_PLAY_DEFAULT), fails a shard's first play when
$FAKE_SLURM/fail-K exists, and merges with an SPRT that accepts H1 once
$FAKE_DECIDE_AT shards are merged.

The last line is `N passed, N failed`; the exit status is 1 if any failed.
"""
import argparse
import fcntl
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.realpath(__file__))
REPO = os.path.dirname(HERE)
ONE_NODE = os.path.join(REPO, "tools", "slurm-one-node.sh")
WAVES = os.path.join(REPO, "tools", "sprt-waves.sh")
STANDINS = ("sbatch", "squeue", "scancel", "sacct", "scontrol", "tama")
# So that a `start` that should refuse cannot start a real cluster.
DAEMONS = ("munged", "slurmctld", "slurmd")
ACTIVE = {"PENDING", "RUNNING"}
# Hang guard only: the scripts under test poll every 0.1 s and end in seconds.
HANG = 120

# ---- the stand-ins ------------------------------------------------------


class Queue:
    def __init__(self):
        self.root = os.environ["FAKE_SLURM"]
        self.lock = open(os.path.join(self.root, "lock"), "a")
        fcntl.flock(self.lock, fcntl.LOCK_EX)

    def path(self, *p):
        return os.path.join(self.root, *p)

    def log(self, prog, args):
        with open(self.path("calls.log"), "a") as f:
            f.write(json.dumps([os.environ.get("FAKE_TAG", ""), prog, args]) + "\n")

    def counter(self, name):
        n = int(open(self.path(name)).read()) + 1 if os.path.exists(self.path(name)) else 1
        open(self.path(name), "w").write(str(n))
        return n

    def jobs(self):
        out = []
        for f in sorted(os.listdir(self.path("jobs")), key=lambda f: int(f.split(".")[0])):
            if f.endswith(".json"):
                j = json.load(open(self.path("jobs", f)))
                j["state"] = self.state(j)
                out.append(j)
        return out

    def state(self, j):
        if os.path.exists(self.path("jobs", f"{j['id']}.cancelled")):
            return "CANCELLED"
        rc = self.path("jobs", f"{j['id']}.rc")
        if os.path.exists(rc):
            return "COMPLETED" if open(rc).read().strip() == "0" else "FAILED"
        return "RUNNING"


def opt(args, *names):
    """The value of the first option of NAMES (`-o X`, `--o=X`), or None."""
    for i, a in enumerate(args):
        for n in names:
            if a == n and i + 1 < len(args):
                return args[i + 1]
            if a.startswith(n + "=") and n.startswith("--"):
                return a[len(n) + 1:]
    return None


def fake_slurm(prog, args):
    q = Queue()
    q.log(prog, args)
    conf = os.environ.get("SLURM_CONF", "")
    if prog == "sbatch":
        jid = q.counter("next-id")
        wrap = opt(args, "--wrap")
        out = opt(args, "-o") or "/dev/null"
        env = dict(os.environ, SLURM_JOB_ID=str(jid))
        rc = q.path("jobs", f"{jid}.rc")
        p = subprocess.Popen(["bash", "-c", f"{wrap}\necho $? > {rc}"], env=env, stdin=subprocess.DEVNULL,
                             stdout=open(out, "a"), stderr=subprocess.STDOUT, start_new_session=True)
        json.dump({"id": jid, "name": opt(args, "-J") or "wrap", "user": os.environ.get("FAKE_USER", "me"),
                   "conf": conf, "pid": p.pid, "tag": os.environ.get("FAKE_TAG", "")},
                  open(q.path("jobs", f"{jid}.json"), "w"))
        print(f"{jid}" if "--parsable" in args else f"Submitted batch job {jid}")
        return 0
    if prog == "squeue":
        if str(q.counter("squeue-calls")) in open(q.path("squeue-fail")).read().split():
            print("slurm_load_jobs error: Socket timed out on send/recv operation", file=sys.stderr)
            return 1
        js = [j for j in q.jobs() if j["conf"] == conf]
        states = (opt(args, "-t", "--states") or "").upper()
        if states != "ALL":
            js = [j for j in js if j["state"] in ACTIVE]
        if opt(args, "-j", "--jobs"):
            want = opt(args, "-j", "--jobs").split(",")
            if any(w not in {str(j["id"]) for j in q.jobs()} for w in want):
                print("slurm_load_jobs error: Invalid job id specified", file=sys.stderr)
                return 1
            js = [j for j in js if str(j["id"]) in want]
        if opt(args, "-n", "--name"):
            js = [j for j in js if j["name"] == opt(args, "-n", "--name")]
        fmt = opt(args, "-o", "--format") or "%i"
        for j in js:
            print(fmt.replace("%i", str(j["id"])).replace("%A", str(j["id"])).replace("%F", str(j["id"]))
                  .replace("%T", j["state"]))
        return 0
    if prog == "scancel":
        user = opt(args, "-u", "--user")
        ids = [a for a in args if re.fullmatch(r"\d+", a)]
        for j in q.jobs():
            if j["conf"] == conf and j["state"] in ACTIVE and (str(j["id"]) in ids or user):
                open(q.path("jobs", f"{j['id']}.cancelled"), "w").close()
                try:
                    os.killpg(j["pid"], signal.SIGKILL)
                except ProcessLookupError:
                    pass
        return 0
    if prog == "sacct":
        print("sacct: error: Slurm accounting storage is disabled", file=sys.stderr)
        return 1
    if prog == "scontrol":
        ctl = json.load(open(q.path("controllers.json")))
        if conf not in ctl:
            print("slurm_load_ctl_conf error: Unable to contact slurm controller", file=sys.stderr)
            return 1
        print(f"SLURM_CONF               = {conf}\nStateSaveLocation        = {ctl[conf]}")
        return 0
    raise SystemExit(f"no stand-in {prog}")


def fake_tama(args):
    root = os.environ["FAKE_SLURM"]
    results = opt(args, "-results")
    if "--merge" in args:
        rest = args[args.index("--merge") + 1:]
        files = rest[:next((i for i, a in enumerate(rest) if a.startswith("-")), len(rest))]
        h1 = len(files) >= int(os.environ.get("FAKE_DECIDE_AT", "1000"))
        json.dump({"games_played": 2 * len(files)}, open(results, "w"))
        print(f"SPRT elo0=0 elo1=5 alpha=0.05 beta=0.05 (pentanomial model): LLR "
              f"{'3.000' if h1 else '0.100'} [-2.944, 2.944] {'H1 accepted' if h1 else 'continue'}")
        return 0
    shard = opt(args, "-shard").split("/")[0]
    play = dict(kv.split(":") for kv in os.environ.get("FAKE_PLAY", "").split(",") if kv)
    with open(os.path.join(root, "plays.log"), "a") as f:
        f.write(json.dumps([os.environ.get("FAKE_TAG", ""), shard, os.environ["SLURM_JOB_ID"]]) + "\n")
    fail = os.path.join(root, f"fail-{shard}")
    if os.path.exists(fail):
        os.remove(fail)
        return 1
    time.sleep(float(play.get(shard, os.environ.get("FAKE_PLAY_DEFAULT", "0.3"))))
    json.dump({"games_played": 2}, open(results, "w"))
    return 0


# ---- the test bench -----------------------------------------------------


class Fail(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Fail(what)


class Bench:
    """A scratch directory with the stand-ins first on PATH and an empty queue."""

    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="tama-slurm-tools.")
        self.q = os.path.join(self.root, "queue")
        os.makedirs(os.path.join(self.q, "jobs"))
        open(os.path.join(self.q, "squeue-fail"), "w").close()
        json.dump({}, open(os.path.join(self.q, "controllers.json"), "w"))
        self.bin = os.path.join(self.root, "bin")
        os.makedirs(self.bin)
        for name in STANDINS + DAEMONS:
            os.symlink(os.path.realpath(__file__), os.path.join(self.bin, name))
        self.env = dict(os.environ, PATH=self.bin + os.pathsep + os.environ["PATH"], FAKE_SLURM=self.q,
                        TAMA=os.path.join(self.bin, "tama"))
        self.env.pop("SLURM_CONF", None)
        self.spawned = []

    def calls(self, prog=None, tag=None):
        lines = open(os.path.join(self.q, "calls.log")).read().splitlines() \
            if os.path.exists(os.path.join(self.q, "calls.log")) else []
        return [c for c in map(json.loads, lines)
                if (prog is None or c[1] == prog) and (tag is None or c[0] == tag)]

    def plays(self, tag):
        path = os.path.join(self.q, "plays.log")
        lines = open(path).read().splitlines() if os.path.exists(path) else []
        return [(s, j) for t, s, j in map(json.loads, lines) if t == tag]

    def jobs(self):
        out = {}
        for f in os.listdir(os.path.join(self.q, "jobs")):
            if f.endswith(".json"):
                j = json.load(open(os.path.join(self.q, "jobs", f)))
                out[j["id"]] = dict(j, state=Queue.state(self, j))
        return out

    def path(self, *p):  # for Queue.state
        return os.path.join(self.q, *p)

    def submit(self, tag, wrap="sleep 600", conf=None, name="wrap"):
        """A job of someone else (TAG) through the stand-in sbatch; its id."""
        env = dict(self.env, FAKE_TAG=tag, **({"SLURM_CONF": conf} if conf else {}))
        out = subprocess.run(["sbatch", "--parsable", "-J", name, "--wrap", wrap], env=env, check=True,
                             text=True, stdout=subprocess.PIPE).stdout
        return int(out.strip())

    def waves(self, tag, d, *args, **env):
        """tools/sprt-waves.sh started in the background, run TAG."""
        e = dict(self.env, FAKE_TAG=tag, **env)
        # SIGINT as a terminal's Ctrl-C finds it: a shell that starts these
        # tests in the background ignores SIGINT for them, and bash can
        # neither trap nor reset a signal ignored when it starts.
        p = subprocess.Popen([WAVES, "--dir", d, "--poll", "0.1", *args, "--", "-engine", "cmd=a",
                              "-engine", "cmd=b", "-rounds", "8"], env=e, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.spawned.append(p)
        return p

    def wait_for(self, what, cond):
        t0 = time.time()
        while not cond():
            check(time.time() - t0 < HANG, f"hang guard: still waiting for {what} after {HANG} s")
            time.sleep(0.05)

    def close(self):
        for p in self.spawned:
            if p.poll() is None:
                p.kill()
        for j in self.jobs().values():
            if j["state"] == "RUNNING":
                try:
                    os.killpg(j["pid"], signal.SIGKILL)
                except ProcessLookupError:
                    pass
        shutil.rmtree(self.root, ignore_errors=True)


def finish(p):
    out, err = p.communicate(timeout=HANG)
    return p.returncode, out, err


def sbatch_ids(b, tag):
    """The job ids of the jobs TAG submitted."""
    return {i for i, j in b.jobs().items() if j["tag"] == tag}


def cancelled_by(b, tag):
    """Every job id named in TAG's scancel calls."""
    return {int(a) for c in b.calls("scancel", tag) for a in c[2] if a.isdigit()}


# ---- sprt-waves.sh --------------------------------------------------------


def test_squeue_failing_once_resubmits_nothing(b):
    # The third squeue call fails while the first two shards are playing;
    # shard 3's first play fails and is played again, once its job is FAILED.
    d = os.path.join(b.root, "out")
    open(os.path.join(b.q, "squeue-fail"), "w").write("3\n")
    open(os.path.join(b.q, "fail-3"), "w").close()
    p = b.waves("run", d, "--shards", "4", "--wave", "2", FAKE_PLAY_DEFAULT="1.5")
    rc, out, err = finish(p)
    check(rc == 0, f"exit status {rc}: {err}")
    check(int(open(os.path.join(b.q, "squeue-calls")).read()) >= 3, "the failing squeue call was never made")
    check("squeue failed" in err, f"the failed squeue is not reported: {err}")
    shards = [s for s, _ in b.plays("run")]
    check(sorted(shards) == ["1", "2", "3", "3", "4"],
          f"plays {sorted(shards)}: each shard once, shard 3 again after its failed first play")
    submits = [c[2][c[2].index("--wrap") + 1] for c in b.calls("sbatch", "run")]
    check(len(submits) == 5, f"{len(submits)} sbatch calls, not 4 shards and shard 3's retry")
    check(re.search(r"^decision: none after 4 of 4 shards \(8 games\)", out, re.M), out)
    check(re.search(r"shard 3 \(job \d+, FAILED\) ended unfinished", err), err)


def test_a_run_beside_another_counts_and_cancels_only_its_own(b):
    # Two runs whose DIRs have the same name (so their jobs have the same
    # name), by the same user, and a job of someone else's with that name.
    first, second = os.path.join(b.root, "a", "out"), os.path.join(b.root, "b", "out")
    other = b.submit("other", name="sprt-waves-out")
    p1 = b.waves("first", first, "--shards", "2", "--wave", "2", FAKE_PLAY_DEFAULT="3")
    b.wait_for("the first run's two shards", lambda: len(b.plays("first")) == 2)
    # The second stops after its first shard; its shards 2 and 3 are still playing.
    p2 = b.waves("second", second, "--shards", "3", "--wave", "3", FAKE_PLAY="1:0.2", FAKE_PLAY_DEFAULT="60",
                 FAKE_DECIDE_AT="1")
    rc2, out2, err2 = finish(p2)
    rc1, out1, err1 = finish(p1)
    check(rc2 == 0 and rc1 == 0, f"exit statuses {rc1}, {rc2}: {err1} {err2}")
    check(re.search(r"^decision: H1 after 1 of 3 shards", out2, re.M), out2)
    check(re.search(r"^decision: none after 2 of 2 shards", out1, re.M), out1)
    mine = sbatch_ids(b, "second")
    check(len(mine) == 3, f"the second run submitted {len(mine)} jobs, not 3 (a wave of 3)")
    check(cancelled_by(b, "second") <= mine, f"the second run cancelled {cancelled_by(b, 'second') - mine}, "
          f"not its own")
    check(cancelled_by(b, "second"), "the second run cancelled nothing: its shards 2 and 3 were playing")
    js = b.jobs()
    check(all(js[i]["state"] == "COMPLETED" for i in sbatch_ids(b, "first")),
          f"the first run's jobs: {[js[i]['state'] for i in sbatch_ids(b, 'first')]}")
    check(js[other]["state"] == "RUNNING", f"someone else's job of the same name: {js[other]['state']}")
    check(sorted(s for s, _ in b.plays("first")) == ["1", "2"], f"the first run's plays: {b.plays('first')}")
    check(not b.calls("scancel", "first"), "the first run, ending with nothing left, cancelled something")


def test_a_second_run_on_the_same_dir_is_refused(b):
    d = os.path.join(b.root, "out")
    p1 = b.waves("first", d, "--shards", "2", "--wave", "2", FAKE_PLAY_DEFAULT="2")
    b.wait_for("the first run's two shards", lambda: len(b.plays("first")) == 2)
    rc, out, err = finish(b.waves("second", d, "--shards", "2", "--wave", "2"))
    check(rc == 1 and "another sprt-waves.sh runs on" in err, f"the second run: exit {rc}: {err}")
    check(not b.calls("sbatch", "second") and not b.calls("scancel", "second"),
          "the refused run submitted or cancelled jobs")
    rc, _, err = finish(p1)
    check(rc == 0, err)
    check(sorted(s for s, _ in b.plays("first")) == ["1", "2"], f"plays: {b.plays('first')}")


def test_interrupted_it_cancels_its_jobs_and_no_other(b):
    d = os.path.join(b.root, "out")
    other = b.submit("other", name="sprt-waves-out")
    p = b.waves("run", d, "--shards", "3", "--wave", "2", FAKE_PLAY_DEFAULT="60")
    b.wait_for("two shards playing", lambda: len(b.plays("run")) == 2)
    p.send_signal(signal.SIGINT)
    rc, _, err = finish(p)
    check(rc == 130, f"exit status {rc} after SIGINT: {err}")
    js = b.jobs()
    mine = sbatch_ids(b, "run")
    check(len(mine) == 2 and all(js[i]["state"] == "CANCELLED" for i in mine),
          f"its jobs after SIGINT: {[(i, js[i]['state']) for i in mine]}")
    check(js[other]["state"] == "RUNNING", f"someone else's job: {js[other]['state']}")
    check(cancelled_by(b, "run") == mine, f"cancelled {cancelled_by(b, 'run')}, its jobs are {mine}")


def test_run_again_after_a_kill_takes_over_the_jobs_still_running(b):
    d = os.path.join(b.root, "out")
    p = b.waves("run", d, "--shards", "2", "--wave", "2", FAKE_PLAY_DEFAULT="2")
    b.wait_for("two shards playing", lambda: len(b.plays("run")) == 2)
    p.kill()  # no trap runs: the jobs play on
    p.wait()
    rc, out, err = finish(b.waves("run", d, "--shards", "2", "--wave", "2"))
    check(rc == 0, err)
    check(sorted(s for s, _ in b.plays("run")) == ["1", "2"], f"plays: {b.plays('run')}")
    check(len(b.calls("sbatch", "run")) == 2, f"sbatch calls: {len(b.calls('sbatch', 'run'))}, not 2")
    check(re.search(r"^decision: none after 2 of 2 shards", out, re.M), out)


# ---- slurm-one-node.sh stop -------------------------------------------------


def sleeper(b, env):
    p = subprocess.Popen(["sleep", "600"], env=dict(b.env, **env), start_new_session=True)
    b.spawned.append(p)
    return p


def start_time(pid):
    return open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[19]


def snapshot(d):
    return sorted((os.path.relpath(os.path.join(r, f), d), os.stat(os.path.join(r, f)).st_mtime_ns,
                   open(os.path.join(r, f), "rb").read()) for r, _, fs in os.walk(d) for f in fs)


def cluster_dir(b, name, marker=None):
    """A directory as a real cluster's: slurm.conf, a controller that answers
    for it, a running job, a process of that job and a pids file naming a
    live process. MARKER: the directory the marker names (None: no marker;
    "own": this one, as `start` writes it)."""
    d = os.path.realpath(os.path.join(b.root, name))
    os.makedirs(os.path.join(d, "state"))
    conf = os.path.join(d, "slurm.conf")
    open(conf, "w").write(f"ClusterName=real\nStateSaveLocation={d}/state\n")
    ctl = json.load(open(os.path.join(b.q, "controllers.json")))
    ctl[conf] = f"{d}/state"
    json.dump(ctl, open(os.path.join(b.q, "controllers.json"), "w"))
    job = b.submit("user", conf=conf)
    daemon = sleeper(b, {})
    step = sleeper(b, {"SLURM_CONF": conf, "SLURM_JOB_ID": str(job)})
    open(os.path.join(d, "pids"), "w").write(f"{daemon.pid} {start_time(daemon.pid)}\n")
    if marker:
        open(os.path.join(d, "slurm-one-node.marker"), "w").write(
            f"made by start\n{d if marker == 'own' else marker}\n")
    return d, conf, job, daemon, step


def stop(b, args, env=None):
    return subprocess.run([ONE_NODE, "stop", *args], env=dict(b.env, FAKE_TAG="stop", **(env or {})),
                          text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=HANG)


def test_stop_refuses_a_directory_start_did_not_make(b):
    for name, marker in (("etc-slurm", None), ("copied", "/tmp/elsewhere")):
        d, conf, job, daemon, step = cluster_dir(b, name, marker)
        before = snapshot(d)
        for args, env in (([d], None), ([], {"SLURM_CONF": conf})):
            r = stop(b, args, env)
            check(r.returncode != 0, f"stop {args} {env}: exit status 0 on {name}")
            check("was not made by `slurm-one-node.sh start`" in r.stderr and "nothing cancelled" in r.stderr,
                  f"stop on {name}: {r.stderr}")
        check(snapshot(d) == before, f"stop changed {name}")
        check(b.jobs()[job]["state"] == "RUNNING", f"the job of {name}: {b.jobs()[job]['state']}")
        check(daemon.poll() is None and step.poll() is None, f"stop on {name} killed a process")
    check(not b.calls(tag="stop"), f"stop called Slurm on a foreign directory: {b.calls(tag='stop')}")
    r = stop(b, [os.path.join(b.root, "none")])
    check(r.returncode != 0 and "no such directory" in r.stderr, f"stop on a missing directory: {r.stderr}")


def test_start_refuses_a_directory_with_files(b):
    d, conf, job, daemon, step = cluster_dir(b, "etc-slurm")
    before = snapshot(d)
    r = subprocess.run([ONE_NODE, "start", d], env=b.env, text=True, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=HANG)
    check(r.returncode != 0 and "exists and is not an empty directory" in r.stderr, f"start: {r.stderr}")
    check(snapshot(d) == before, "start changed a directory with files")


def test_stop_on_its_own_directory_ends_only_that_clusters_jobs_and_daemons(b):
    d, conf, job, daemon, step = cluster_dir(b, "mine", marker="own")
    # A process whose id the pids file names with another start time (the
    # id reused), a job of another cluster, and a process of that cluster's
    # job with the same job id as this cluster's job.
    reused = sleeper(b, {})
    open(os.path.join(d, "pids"), "a").write(f"{reused.pid} 1\n")
    other_conf = os.path.join(b.root, "other.conf")
    other_job = b.submit("user", conf=other_conf)
    other_step = sleeper(b, {"SLURM_CONF": other_conf, "SLURM_JOB_ID": str(job)})
    # A process with this SLURM_CONF in a job that is not this cluster's
    # (a job of the real cluster, from a shell that exported it).
    stranger = sleeper(b, {"SLURM_CONF": conf, "SLURM_JOB_ID": str(other_job + 1000)})
    r = stop(b, [d])
    check(r.returncode == 0, f"stop: {r.stderr}")
    check(not os.path.exists(d), "stop left its directory")
    for p in (daemon, step):
        b.wait_for(f"the end of process {p.pid}", lambda: p.poll() is not None)
    js = b.jobs()
    check(js[job]["state"] == "CANCELLED", f"the cluster's job: {js[job]['state']}")
    check(js[other_job]["state"] == "RUNNING", f"another cluster's job: {js[other_job]['state']}")
    check(reused.poll() is None and other_step.poll() is None and stranger.poll() is None,
          "stop killed a process that was not its own")
    check(cancelled_by(b, "stop") == {job}, f"stop cancelled {cancelled_by(b, 'stop')}, not {job}")
    check(all("--user" not in " ".join(c[2]) and "-u" not in c[2] for c in b.calls("scancel", "stop")),
          "stop cancelled by user")


TESTS = [v for k, v in sorted(globals().items()) if k.startswith("test_")]


def main():
    prog = os.path.basename(sys.argv[0])
    if prog == "tama":
        sys.exit(fake_tama(sys.argv[1:]))
    if prog in STANDINS:
        sys.exit(fake_slurm(prog, sys.argv[1:]))
    if prog in DAEMONS:
        sys.exit(f"{prog}: a stand-in of the tests, starts nothing")
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", help="run only the tests whose name contains this")
    a = ap.parse_args()
    failed = 0
    tests = [t for t in TESTS if not a.k or a.k in t.__name__]
    for t in tests:
        b = Bench()
        try:
            t(b)
            print(f"ok      {t.__name__}", flush=True)
        except Exception as e:  # noqa: BLE001 - every failure is reported, the others still run
            failed += 1
            print(f"FAILED  {t.__name__}: {e}", flush=True)
            if not isinstance(e, Fail):
                traceback.print_exc()
        finally:
            b.close()
    print(f"{len(tests) - failed} passed, {failed} failed")
    sys.exit(1 if failed or not tests else 0)


if __name__ == "__main__":
    main()
