#!/usr/bin/env python3
"""Checks that tools/nice_load.sh ends only what it started (docs/results.md,
"What a loaded machine costs, measured"). Needs bash, python3 and Linux's
/proc; a stand-in `cargo` (a short sleep) keeps the build loop cheap.

    python3 tests/nice_load_tool.py

The last line is `N passed, N failed`; the exit status is 1 if any failed.
"""
import os
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.realpath(__file__))
TOOL = os.path.join(os.path.dirname(HERE), "tools", "nice_load.sh")


def run(env, *args):
    return subprocess.run(["bash", TOOL, *args], env=env, capture_output=True, text=True, timeout=60)


def session_of(pid):
    with open(f"/proc/{pid}/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[3])


def in_session(sid):
    out = subprocess.run(["ps", "-eo", "pid=,sid="], capture_output=True, text=True).stdout
    return [int(p) for p, s in (line.split() for line in out.splitlines()) if int(s) == sid]


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


class Scratch:
    def __enter__(self):
        self.tmp = tempfile.TemporaryDirectory()
        root = self.tmp.name
        self.checkout = os.path.join(root, "clone")
        os.makedirs(os.path.join(self.checkout, "engine", "src"))
        open(os.path.join(self.checkout, "engine", "src", "lib.rs"), "w").close()
        bin_dir = os.path.join(root, "bin")
        os.makedirs(bin_dir)
        with open(os.path.join(bin_dir, "cargo"), "w") as f:
            f.write("#!/bin/sh\nsleep 0.2\n")
        os.chmod(os.path.join(bin_dir, "cargo"), 0o755)
        self.env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ["PATH"])
        self.dir = os.path.join(root, "load")
        # Two processes the tool did not make: one in a session of its
        # own, one in this test's session.
        self.foreign = [subprocess.Popen(["setsid", "sleep", "120"]),
                        subprocess.Popen(["sleep", "120"])]
        return self

    def __exit__(self, *exc):
        for p in self.foreign:
            p.kill()
            p.wait()
        if os.path.exists(os.path.join(self.dir, "session")):
            run(self.env, "stop", self.dir)
        self.tmp.cleanup()


def test_stop_ends_its_session_and_nothing_else():
    with Scratch() as s:
        r = run(s.env, "start", s.dir, s.checkout, "group")
        assert r.returncode == 0, r.stderr
        leader = int(open(os.path.join(s.dir, "session")).read().split()[0])
        time.sleep(1)
        members = in_session(leader)
        # The session leader, the two loops and a stand-in build at least.
        assert len(members) >= 3, members
        r = run(s.env, "stop", s.dir)
        assert r.returncode == 0, r.stderr
        time.sleep(0.5)
        assert in_session(leader) == [], in_session(leader)
        assert all(alive(p.pid) for p in s.foreign), "a process the tool did not make was ended"
        assert not os.path.exists(s.dir)


def test_stop_without_its_marker_refuses():
    with Scratch() as s:
        os.makedirs(s.dir)
        r = run(s.env, "stop", s.dir)
        assert r.returncode == 1 and "nothing of ours" in r.stderr, (r.returncode, r.stderr)
        assert all(alive(p.pid) for p in s.foreign)


def test_a_reused_session_id_is_not_signalled():
    with Scratch() as s:
        os.makedirs(s.dir)
        # A marker naming a live session that is not the load's (its start
        # time differs), as after a reboot or once the id is reused.
        victim = s.foreign[0].pid
        time.sleep(0.2)
        assert session_of(victim) == victim
        with open(os.path.join(s.dir, "session"), "w") as f:
            f.write(f"{victim} 1 group\n")
        r = run(s.env, "stop", s.dir)
        assert r.returncode == 0 and "nothing signalled" in r.stdout, (r.stdout, r.stderr)
        assert alive(victim), "a session the tool did not start was signalled"


def test_start_over_an_existing_directory_refuses():
    with Scratch() as s:
        os.makedirs(s.dir)
        r = run(s.env, "start", s.dir, s.checkout)
        assert r.returncode == 1 and "refusing" in r.stderr, (r.returncode, r.stderr)
        assert os.listdir(s.dir) == []


def test_low_nices_the_session_group_and_group_does_not():
    if not os.path.exists("/proc/self/autogroup"):
        print("    NOTE: this kernel has no session groups; only the processes' nice is checked")
    for mode, group_nice in (("low", "19"), ("group", "0")):
        with Scratch() as s:
            r = run(s.env, "start", s.dir, s.checkout, mode)
            assert r.returncode == 0, r.stderr
            leader = int(open(os.path.join(s.dir, "session")).read().split()[0])
            time.sleep(0.5)
            if os.path.exists("/proc/self/autogroup"):
                with open(f"/proc/{leader}/autogroup") as f:
                    line = f.read()
                assert line.split()[-1] == group_nice, (mode, line)
            nices = subprocess.run(["ps", "-o", "ni=", "--sid", str(leader)],
                                   capture_output=True, text=True).stdout.split()
            assert nices.count("19") >= 2, (mode, nices)


def main():
    tests = [(n, f) for n, f in globals().items() if n.startswith("test_")]
    failed = 0
    for name, f in tests:
        try:
            f()
            print(f"ok     {name}")
        except Exception:
            failed += 1
            print(f"FAILED {name}")
            traceback.print_exc()
    print(f"{len(tests) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
