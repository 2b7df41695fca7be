#!/usr/bin/env python3
"""bench_climb (bench/bench_climb.c, the search suite's random-restart arm)
on the seed lattice (11,340 points) over gen-data's sample data: with a
budget of 20,000 evaluations its best is the grid's exact optimum, under
total_return and under compound with a drawdown limit (whose value is the
run's reported one, not the rank key's display), and on a lattice with exits
whose best holds `off` (the line is JSON, `off` the string evolve's --json
writes, and the genome is the grid's); the same seed gives the same line; the
counts add up (one start per climb, the budget spent, peaks and
climbs in best within bounds); no budget is a usage error.
"""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "support"))
import evolve_cli as cli  # noqa: E402


def climb(binary, cfg, *args):
    r = subprocess.run([binary, cfg] + list(args), capture_output=True, text=True, timeout=60)
    try:
        return r, (json.loads(r.stdout) if r.returncode == 0 else None)
    except ValueError:  # not JSON: the check names the line
        return r, None


# exits whose loosest value, off, is the best (a 0.05 % trail or breakeven cuts winners short)
OFF_PARAMETERS = cli.SOXL_PARAMETERS + """  - {name: trail, role: trail, values: [0.05, off]}
  - {name: breakeven, role: breakeven, values: [off, 0.05]}
  - {name: max_hold, role: max_hold, values: [60, off]}
"""


def exits_off(a, root, data, check):
    """bench_climb's best on an exit lattice is the grid's, `off` written as a JSON string."""
    cfg = os.path.join(root, "off.yaml")
    cli.write_config(cfg, data, os.path.join(root, "off.h5"), parameters=OFF_PARAMETERS)
    g = cli.run(a.evolve, [cfg, "--grid", "--quiet", "--json", os.path.join(root, "off.json")])
    if not check(g.returncode == 0, f"off grid: {g.stderr}"):
        return
    best = json.load(open(os.path.join(root, "off.json")))["top"][0]
    check("off" in best["values"].values(), f"the grid's best holds no off, so off is not checked: {best}")
    r, d = climb(a.climb, cfg, "--evals", "20000", "--seed", "3")
    if check(d is not None, f"off: bench_climb's line is not JSON: {r.stdout} {r.stderr}"):
        got = d["top"][0]
        check((got["fitness"], got["values"]) == (best["fitness"], best["values"]), f"off: climb {got} != grid {best}")
    # --exits-off (the GA's random_exits_off): other starts, so other climbs, the same best here; repeatable
    runs = [climb(a.climb, cfg, "--evals", "3000", "--seed", "3", "--depth", "1", "--peaks", *x)
            for x in ([], ["--exits-off"], ["--exits-off"])]
    if check(all(d is not None for _, d in runs), f"--exits-off: {[r.stderr[-300:] for r, _ in runs]}"):
        lines = [[x for x in r.stderr.splitlines() if x.startswith("peak ")] for r, _ in runs]
        check(lines[1] == lines[2] and lines[1] != lines[0], f"--exits-off: the same climbs as without it: {lines[1][:4]}")
        check(runs[1][1]["top"][0]["values"] == best["values"], f"--exits-off: {runs[1][1]['top'][0]} != grid {best}")


def relaxed(a, cfg, what, check):
    """--relax climbs kicks (of the best peak so far) as the GA's relaxed kicks: a
    valid line, each peak with its start's trades and feasibility; only with --kick."""
    r = subprocess.run([a.climb, cfg, "--evals", "5000", "--kick", "3", "--relax", "50", "--peaks"],
                       capture_output=True, text=True, timeout=60)
    peaks = [line.split() for line in r.stderr.splitlines() if line.startswith("peak ")]
    check(r.returncode == 0 and json.loads(r.stdout)["searches"] == len(peaks) >= 2, f"{what} --relax: {r.stderr}")
    check(all(len(p) == 7 and p[6] in ("0", "1") for p in peaks), f"{what} --relax: peak lines {peaks[:3]}")
    # without --kick, --relax climbs the random starts so (the GA's random_relax)
    r = subprocess.run([a.climb, cfg, "--evals", "5000", "--relax", "50", "--peaks"], capture_output=True, text=True,
                       timeout=60)
    peaks = [line.split() for line in r.stderr.splitlines() if line.startswith("peak ")]
    check(r.returncode == 0 and json.loads(r.stdout)["searches"] == len(peaks) >= 2,
          f"{what} --relax without --kick: {r.returncode} {r.stderr}")
    r = subprocess.run([a.climb, cfg, "--evals", "5000", "--kick-min", "3"], capture_output=True, text=True)
    check(r.returncode == 2 and "--kick" in r.stderr, f"--kick-min without --kick: {r.returncode} {r.stderr}")
    # --real-depth 1 (the GA's random starts) goes with --relax, at most --depth
    base = [a.climb, cfg, "--evals", "5000", "--kick", "3"]
    r = subprocess.run(base + ["--relax", "50", "--real-depth", "1"], capture_output=True, text=True, timeout=60)
    check(r.returncode == 0 and json.loads(r.stdout)["searches"] >= 2, f"{what} --real-depth 1: {r.stderr}")
    bad = ((["--real-depth", "1"], "--relax"),
           (["--relax", "50", "--depth", "1", "--real-depth", "2"], "more than --depth"))
    for args, word in bad:
        r = subprocess.run(base + args, capture_output=True, text=True)
        check(r.returncode == 2 and word in r.stderr, f"{args}: {r.returncode} {r.stderr}")


def main():
    ap = cli.argparse.ArgumentParser()
    ap.add_argument("--evolve", required=True)
    ap.add_argument("--climb", required=True)
    a = ap.parse_args()
    check = cli.Checker()
    with cli.scratch_dir("climb-") as root:
        data = os.path.join(root, "data")
        cli.make_data(a.evolve, data)
        for objective in ("total_return", "compound\n  max_drawdown_pct: 10"):
            cfg = os.path.join(root, "run.yaml")
            cli.write_config(cfg, data, os.path.join(root, "out.h5"), objective=objective)
            g = cli.run(a.evolve, [cfg, "--grid", "--quiet", "--json", os.path.join(root, "grid.json")])
            if not check(g.returncode == 0, f"grid: {g.stderr}"):
                continue
            best = json.load(open(os.path.join(root, "grid.json")))["top"][0]["fitness"]
            r, d = climb(a.climb, cfg, "--evals", "20000", "--seed", "3")
            if not check(d is not None, f"bench_climb: {r.stderr}"):
                continue
            what = objective.split()[0]
            check(d["top"][0]["fitness"] == best, f"{what}: climb best {d['top'][0]['fitness']} != grid {best}")
            _, again = climb(a.climb, cfg, "--evals", "20000", "--seed", "3")
            check(again is not None and {**again, "seconds": 0} == {**d, "seconds": 0}, f"{what}: not repeatable")
            check(d["unique_evaluations"] == d["searches"] == d["restarts"] + 1, f"{what}: one start a climb: {d}")
            check(d["unique_evaluations"] + d["ls_evaluations"] >= 20000, f"{what}: budget not spent: {d}")
            check(1 <= d["basin_values"] <= d["basins"] <= d["searches"], f"{what}: peaks out of bounds: {d}")
            check(1 <= d["searches_in_best"] <= d["searches"], f"{what}: climbs in best out of bounds: {d}")
            relaxed(a, cfg, what, check)
        exits_off(a, root, data, check)
    r = subprocess.run([a.climb, "x.yaml"], capture_output=True, text=True)
    check(r.returncode == 2 and "--evals" in r.stderr, f"no budget: {r.returncode} {r.stderr}")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
