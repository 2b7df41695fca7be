#!/usr/bin/env python3
"""cudaMalloc failure injection: every failure point of a test, one run each.

    fail_malloc.py [--max N] -- TEST [ARGS...]

Runs TEST once to count its cudaMalloc calls, then once per call N with
EVOLVE_EMU_FAIL_MALLOC=N (tests/cuda_emu/device_memory.cpp). Each run must
either pass (the code recovered, and the test's own comparison with the CPU
says the result is identical) or stop with the test's error status (1 or 2)
and a message about device memory (a clean error); a signal, a sanitizer
report (exit status 99 here) or anything else is a crash. With more than --max calls
(default 200), every k-th point is tried so that at most --max are."""
import argparse
import os
import re
import subprocess
import sys


def run(cmd, n):
    env = dict(os.environ, EVOLVE_EMU_FAIL_MALLOC=str(n))
    env["ASAN_OPTIONS"] = (os.environ.get("ASAN_OPTIONS", "") + ":exitcode=99").lstrip(":")
    env["UBSAN_OPTIONS"] = (os.environ.get("UBSAN_OPTIONS", "") + ":exitcode=99").lstrip(":")
    return subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max", type=int, default=200)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    r = run(cmd, 1 << 62)
    m = re.search(r"emu: (\d+) cudaMalloc calls", r.stdout)
    if r.returncode != 0 or not m:
        print(r.stdout[-3000:])
        print("fail_malloc: the run without failures did not pass")
        return 1
    calls = int(m.group(1))
    step = max(1, -(-calls // a.max))
    recovered = clean = 0
    for n in range(1, calls + 1, step):
        r = run(cmd, n)
        where = re.search(r"emu: cudaMalloc call \d+ \((.*?)\) fails", r.stdout)
        where = where.group(1) if where else "?"
        said = [ln for ln in r.stdout.splitlines() if not ln.startswith("emu:")]  # the test's own words
        if r.returncode == 0:
            recovered += 1
        elif r.returncode in (1, 2) and any("memory" in ln for ln in said):
            clean += 1
        else:
            print(r.stdout[-3000:])
            print("fail_malloc: call %d of %d (%s): exit status %d, neither a recovery nor a clean error" %
                  (n, calls, where, r.returncode))
            return 1
    print("fail_malloc: %s: %d of %d cudaMalloc calls failed in turn: %d recovered (identical results), "
          "%d clean errors, no crash" % (os.path.basename(cmd[0]), len(range(1, calls + 1, step)), calls,
                                          recovered, clean))
    return 0


if __name__ == "__main__":
    sys.exit(main())
