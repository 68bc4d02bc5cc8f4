#!/usr/bin/env python3
"""Hermes-style skills_list() and skill_view(name) through the Python package.

    bench/python.sh [N_SKILLS]                     # builds, generates the tree, runs this
    python3 bench/python_bench.py HOME VIEW_NAME [RUNS]

Times each call in this process (the way Hermes calls its tools: one
long-running interpreter), warm page cache, after one warm-up call, and
prints the median and minimum wall time and the mean CPU time per call.

With HERMES_AGENT_DIR set to a checkout of NousResearch/hermes-agent, the
same two calls are also timed through Hermes' own tools.skills_tool, in a
child interpreter with HERMES_HOME pointing at the same home (nothing of
Hermes is copied into this repository). Hermes' listing keeps a 30-second
in-process cache keyed on directory mtimes, so its warm figures are reported
apart from its first (cold-cache) call.
"""
import json
import os
import statistics
import subprocess
import sys
import time

CHILD = r"""
import json, os, sys, time
sys.path.insert(0, os.environ["HERMES_AGENT_DIR"])
from tools import skills_tool
name, runs = sys.argv[1], int(sys.argv[2])
out = {}
for label, call in (("list", lambda: skills_tool.skills_list()), ("view", lambda: skills_tool.skill_view(name))):
    first = time.perf_counter(); answer = call(); first = time.perf_counter() - first
    walls, cpus = [], []
    for _ in range(runs):
        skills_tool._SKILLS_CACHE.clear()  # a fresh scan each time, as a new session would do
        w, c = time.perf_counter(), time.process_time()
        answer = call()
        walls.append(time.perf_counter() - w); cpus.append(time.process_time() - c)
    out[label] = {"first": first, "walls": walls, "cpus": cpus, "ok": json.loads(answer).get("success")}
print(json.dumps(out))
"""


def timed(call, runs):
    call()  # warm-up
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        answer = call()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return answer, walls, cpus


def row(label, walls, cpus):
    ms = lambda seconds: f"{seconds * 1000:.1f}"
    print(f"| {label} | {ms(statistics.median(walls))} | {ms(min(walls))} | {ms(statistics.mean(cpus))} |")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    home, view_name = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    import skillrt

    skillrt.configure(home=home)
    listed, list_walls, list_cpus = timed(lambda: skillrt.skills_list(), runs)
    viewed, view_walls, view_cpus = timed(lambda: skillrt.skill_view(view_name), runs)
    count = json.loads(listed)["count"]
    assert json.loads(viewed)["success"], viewed[:300]
    print(f"home: {home} ({count} skills listed), view: {view_name}, {runs} runs each, "
          f"load average {os.getloadavg()[0]:.2f}")
    print("| call | wall median ms | wall min ms | CPU mean ms |")
    print("|---|---:|---:|---:|")
    row("skillrt.skills_list()", list_walls, list_cpus)
    row("skillrt.skill_view(name)", view_walls, view_cpus)

    hermes = os.environ.get("HERMES_AGENT_DIR")
    if not hermes:
        print("(HERMES_AGENT_DIR not set: Hermes' own Python not timed)")
        return
    env = dict(os.environ, HERMES_HOME=home)
    done = subprocess.run([sys.executable, "-c", CHILD, view_name, str(runs)], env=env, capture_output=True,
                          text=True, check=True)
    theirs = json.loads(done.stdout.strip().splitlines()[-1])
    for label, call in (("list", "tools.skills_tool.skills_list()"), ("view", "tools.skills_tool.skill_view(name)")):
        row(call, theirs[label]["walls"], theirs[label]["cpus"])
        print(f"|   first call (cold caches) | {theirs[label]['first'] * 1000:.1f} | | |")


if __name__ == "__main__":
    main()
