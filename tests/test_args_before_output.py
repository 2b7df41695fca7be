#!/usr/bin/env python3
"""Argument checks before any output (issue 24): a command given a bad
argument, option or output path prints nothing but its one error line and
exits non-zero; never a dataset summary, a progress line or results first,
then the error. Each command is tried with what a newcomer gets wrong:
--walk-forward without validation.walk_forward (a trade log and a strategy),
a --json summary in a folder that is not there, ingest --out naming a run
file, report --out naming a file, a rank beyond the list, options out of
range or in the wrong combination. Standard library only."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

check = cli.Checker()

STRATEGY = """strategy:
  type: seller_exhaustion
  bars: {market_dir: data/market, ticker: SOXL, timeframe: 1m}
parameters:
  - {name: ema_fast, values: [4, 8]}
  - {name: ema_slow, values: [16, 24]}
"""


def refused(E, root, name, args, rc, says):
    """args run in root: exit rc, nothing on stdout, one line on stderr that
    holds `says`, and no file left behind."""
    before = set(cli.files_under(root))
    r = cli.run(E, args, cwd=root)
    lines = r.stderr.splitlines()
    check(r.returncode == rc and r.stdout == "" and len(lines) == 1 and says in r.stderr,
          f"{name}: expected exit {rc}, no output and one line with {says!r}; got exit {r.returncode}, "
          f"stdout {r.stdout[:200]!r}, stderr {r.stderr[:400]!r}")
    left = set(cli.files_under(root)) - before
    check(not left, f"{name}: left {sorted(left)}")


def main():
    a = cli.parse_args()
    E = os.path.abspath(a.evolve)
    with cli.scratch_dir("evolve_argsfirst_") as root:
        cli.make_data(E, os.path.join(root, "data"))
        cfg = os.path.join(root, "c.yaml")
        cli.write_config(cfg, os.path.join(root, "data"), os.path.join(root, "run.h5"), population=16, generations=2)
        r = cli.run(E, [cfg, "--grid", "--quiet", "--output", "run.h5"], cwd=root)  # run file, cached dataset
        check(r.returncode == 0, f"the grid run: {r.stderr}")
        with open(os.path.join(root, "s.yaml"), "w") as f:
            f.write(STRATEGY)
        ingest = ["ingest", "--market", "data/market", "--trades", "data/all_trade_logs.csv", "--tickers", "SOXL"]
        cases = [
            ("walk-forward without validation.walk_forward", [cfg, "--walk-forward", "--output", "w.h5"], 2,
             "--walk-forward needs validation.walk_forward"),
            ("a strategy's walk-forward without validation.walk_forward", ["s.yaml", "--walk-forward"], 2,
             "--walk-forward needs validation.walk_forward"),
            ("--json in a folder that is not there", [cfg, "--grid", "--json", "nowhere/x.json", "--output", "g.h5"],
             1, "the folder nowhere is not there (--json summary)"),
            ("GA --json in a folder that is not there", [cfg, "--json", "nowhere/x.json", "--output", "g.h5"], 1,
             "the folder nowhere is not there"),
            ("ingest --out over a run file", ingest + ["--out", "run.h5"], 1, "refusing to overwrite it"),
            ("ingest --out over the trade log", ingest + ["--out", "data/all_trade_logs.csv"], 1,
             "refusing to overwrite it"),
            ("--grid with --validate", [cfg, "--grid", "--validate"], 2, "exclusive"),
            ("--top beyond its bound", [cfg, "--grid", "--top", "100000000"], 2, "--top"),
            ("--backend unknown", [cfg, "--grid", "--backend", "tpu"], 2, "--backend"),
            ("report --out a file", ["report", "run.h5", "--out", "c.yaml"], 1, "not a directory"),
            ("trades --rank beyond the list", ["trades", "run.h5", "--rank", "99"], 2, "--rank 99"),
            ("trades --csv over the config", ["trades", "run.h5", "--csv", "c.yaml"], 1, "c.yaml"),
            ("gen-data --days 0", ["gen-data", "--out", "gd", "--days", "0"], 2, "--days"),
            ("bars without --csv", ["bars", "--market", "data/market", "--ticker", "SOXL", "--timeframe", "1m"], 2,
             "--csv OUT is required"),
            ("bars --timeframe 7m", ["bars", "--market", "data/market", "--ticker", "SOXL", "--timeframe", "7m",
                                     "--csv", "b.csv"], 2, "--timeframe"),
        ]
        for name, args, rc, says in cases:
            refused(E, root, name, args, rc, says)
    if not check.failures:
        print(f"ok: {len(cases)} refusals, each before any output")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
