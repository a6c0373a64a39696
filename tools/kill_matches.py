#!/usr/bin/env python3
"""Kills `tama match` at random moments, as an out-of-memory killer, a
crashed node or Slurm's scancel would, and reports what each kill left.

    tools/kill_matches.py RUNNER ENGINE OUTDIR            # 25 separate matches
    tools/kill_matches.py RUNNER ENGINE OUTDIR --resume   # one match, resumed after each kill

Every kill alternates SIGKILL and SIGTERM, 1 to 8 s after the start
(seeded: the same moments each run). A match is 40 games of ENGINE at
depth 3 against ENGINE at depth 2, two at once. The last line counts the
results files left and how many of them are valid JSON; with --resume,
a final run without a kill completes the match (docs/match.md, Resuming).
"""
import json
import os
import random
import signal
import subprocess
import sys
import time


def main():
    runner, engine, out = sys.argv[1:4]
    resume = "--resume" in sys.argv[4:]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(29)
    files = valid = 0
    for i in range(25):
        name = "r" if resume else f"r{i}"
        res, pdn = f"{out}/{name}.json", f"{out}/{name}.pdn"
        cmd = [runner, "match",
               "-engine", f"cmd={engine}", "name=A", "depth=3",
               "-engine", f"cmd={engine}", "name=B", "depth=2",
               "-rounds", "20", "-repeat", "-concurrency", "2",
               "-results", res, "-pdnout", pdn] + (["-resume"] if resume else [])
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(1.0, 8.0))
        sig = signal.SIGTERM if i % 2 else signal.SIGKILL
        p.send_signal(sig)
        status = p.wait()
        games = None
        if os.path.exists(res):
            files += 1
            try:
                games = json.load(open(res))["games_played"]
                valid += 1
            except (ValueError, KeyError) as e:
                print(f"invalid {res}: {e}")
        print(f"{i} {sig.name} exit {status} games {games}", flush=True)
    print(f"kills 25, results files {files}, valid {valid}")
    if resume:
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        j = json.load(open(res))
        print(f"resumed to the end: {j['games_played']} games, interrupted {j['interrupted']}")


if __name__ == "__main__":
    main()
