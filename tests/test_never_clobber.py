#!/usr/bin/env python3
"""README's promise "Outputs never clobber", for the writers the run-file
tests do not cover (test_run_badinput.py has the run file, data.cache, --json
and ingest --out): `evolve trades RUN.h5 --csv`, `evolve report --out`,
`evolve bars --csv` and `evolve trades --bars/--market --csv` are each pointed
at a foreign file (notes), an input (the trade log, the config), the run file
and its dataset. Each is refused (exit 1, the path named), nothing changes,
and nothing is printed first; each still replaces its own earlier output.
Standard library only."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402
from evolve_cli import tree  # noqa: E402

check = cli.Checker()


def refused(evolve, work, name, args, path):
    """args must exit 1 naming path, print nothing on stdout, change nothing."""
    before = tree(work)
    r = cli.run(evolve, args, cwd=work)
    ok = check(r.returncode == 1, f"{name}: exit {r.returncode}, expected 1: {r.stderr.strip()}")
    ok &= check(os.path.basename(path) in r.stderr, f"{name}: the message does not name {path}: {r.stderr.strip()}")
    ok &= check(r.stdout == "", f"{name}: printed before refusing: {r.stdout[:200]!r}")
    ok &= check(tree(work) == before, f"{name}: files changed")
    if ok:
        print(f"ok: {name}: {r.stderr.strip().splitlines()[-1][:160]}", flush=True)


def accepted(evolve, work, name, args):
    r = cli.run(evolve, args, cwd=work)
    if check(r.returncode == 0, f"{name}: exit {r.returncode}: {r.stderr.strip()}"):
        print(f"ok: {name}", flush=True)


def main():
    a = cli.parse_args()
    E = os.path.abspath(a.evolve)
    with cli.scratch_dir("evolve_clobber_") as root:
        work = os.path.join(root, "work")
        os.makedirs(work)
        run = os.path.join(work, "run.h5")
        data, cfg = cli.data_and_config(E, root, run, population=32, generations=5)
        r = cli.run(E, [cfg, "--grid", "--quiet", "--output", run])
        check(r.returncode == 0, f"a grid run: {r.stderr}")
        notes = os.path.join(work, "notes.txt")
        with open(notes, "w") as f:
            f.write("the trader's notes\n")
        log = os.path.join(data, "all_trade_logs.csv")
        log_before = open(log, "rb").read()
        market = os.path.join(data, "market")
        foreign = {"a notes file": notes, "the trade log": log, "the config": cfg, "the run file": run,
                   "the dataset": os.path.join(work, "dataset.h5")}

        for what, path in foreign.items():
            refused(E, work, f"trades RUN.h5 --csv over {what}", ["trades", run, "--csv", path], path)
            refused(E, work, f"bars --csv over {what}",
                    ["bars", "--market", market, "--ticker", "SOXL", "--timeframe", "1m", "--csv", path], path)
            refused(E, work, f"trades --market --csv over {what}",
                    ["trades", "--market", market, "--ticker", "SOXL", "--timeframe", "1m", "--csv", path], path)
        check(open(log, "rb").read() == log_before, "the trade log is untouched")

        # report --out: a folder with a foreign chart in it, a file, the run file itself
        charts = os.path.join(work, "charts")
        os.makedirs(charts)
        with open(os.path.join(charts, "fitness.svg"), "w") as f:
            f.write("<svg><!-- the trader's own drawing --></svg>\n")
        refused(E, work, "report --out over a foreign fitness.svg", ["report", run, "--out", charts],
                os.path.join(charts, "fitness.svg"))
        os.remove(os.path.join(charts, "fitness.svg"))
        with open(os.path.join(charts, "heatmap.svg"), "w") as f:
            f.write("<?xml version=\"1.0\"?>\n<svg/>\n")
        refused(E, work, "report --out over a foreign heatmap.svg", ["report", run, "--out", charts],
                os.path.join(charts, "heatmap.svg"))
        os.remove(os.path.join(charts, "heatmap.svg"))
        refused(E, work, "report --out a file", ["report", run, "--out", notes], notes)

        # each writer replaces what it wrote itself
        mine = os.path.join(work, "mine")
        os.makedirs(mine)
        for _ in range(2):
            accepted(E, work, "trades RUN.h5 --csv over its own output",
                     ["trades", run, "--csv", os.path.join(mine, "t.csv")])
            accepted(E, work, "report --out over its own charts", ["report", run, "--out", os.path.join(mine, "r")])
            accepted(E, work, "bars --csv over its own output",
                     ["bars", "--market", market, "--ticker", "SOXL", "--timeframe", "1m", "--csv",
                      os.path.join(mine, "b.csv")])
            accepted(E, work, "trades --market --csv over its own output",
                     ["trades", "--market", market, "--ticker", "SOXL", "--timeframe", "1m", "--csv",
                      os.path.join(mine, "s.csv")])
        check(not [f for f in cli.files_under(mine) if ".tmp." in f], "no temporary file left")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
