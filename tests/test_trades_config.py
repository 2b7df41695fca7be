#!/usr/bin/env python3
"""`evolve trades CONFIG` for a trade-log config (issue 32 item 8): the
trader's own settings' trades.

- `--set` at a run's rank-N values lists byte for byte what `evolve trades
  RUN.h5 --rank N` lists (GA and grid, with a holdout so the part column
  counts);
- `--list baseline` lists the config's baseline: its in-sample trades and
  their summed outcome are the run's `baseline` row (total_return: the sum);
- no setting at all is the log: every trade, exited as logged, its outcome
  the log's Trade Percent Change less cost_pct (read from the CSV here);
- a misspelt name (or only its first letters), a value its role refuses, an
  infinite value, --list baseline without a baseline: block, and a --csv
  onto the dataset the config is about to build (data.cache) are refused
  naming them.
Standard library only."""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

check = cli.Checker()
COST = 0.02
EXTRA = (f"baseline: {{volatility: 0.3, ratio: 0.5, target: 0.5, stop: -0.4}}\n"
         "validation:\n  holdout: {last: 1}\n")


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def sets_of(values):
    out = []
    for name, v in values.items():
        out += ["--set", f"{name}={v:.17g}"]
    return out


def same_as_run(E, root, cfg, run, doc, mode, rank):
    """--set at rank N's values == evolve trades RUN --rank N, byte for byte."""
    a, b = os.path.join(root, f"{mode}{rank}-run.csv"), os.path.join(root, f"{mode}{rank}-set.csv")
    r = cli.run(E, ["trades", run, "--rank", str(rank), "--csv", a])
    if not check(r.returncode == 0, f"{mode}: trades RUN --rank {rank}: {r.stderr}"):
        return
    values = doc["top"][rank - 1]["values"]
    r = cli.run(E, ["trades", cfg] + sets_of(values) + ["--csv", b])
    if not check(r.returncode == 0, f"{mode}: trades CONFIG --set (rank {rank}): {r.stderr}"):
        return
    got, want = open(b).read(), open(a).read()
    check(got == want, f"{mode} rank {rank}: trades CONFIG --set differ from trades RUN --rank {rank}")
    parts = {row["part"] for row in rows(b)}
    check(parts == {"in_sample", "holdout"}, f"{mode} rank {rank}: parts {parts}")


def main():
    a = cli.parse_args()
    E = a.evolve
    with cli.scratch_dir("trades-config-") as root:
        data = os.path.join(root, "data")
        cli.make_data(E, data)
        cfg = os.path.join(root, "run.yaml")
        cli.write_config(cfg, data, os.path.join(root, "run.h5"), population=64, generations=8, extra=EXTRA)
        text = open(cfg).read().replace("  min_trades: 10\n", f"  min_trades: 10\n  cost_pct: {COST}\n", 1)
        open(cfg, "w").write(text)
        docs = {}
        for mode, args in (("ga", []), ("grid", ["--grid"])):
            js = os.path.join(root, mode + ".json")
            r = cli.run(E, [cfg, "--quiet", "--json", js] + args)
            if not check(r.returncode == 0, f"{mode} run: {r.stderr}"):
                return check.exit()
            docs[mode] = json.load(open(js))
        same_as_run(E, root, cfg, os.path.join(root, "run.h5"), docs["ga"], "ga", 1)
        same_as_run(E, root, cfg, os.path.join(root, "run.grid.h5"), docs["grid"], "grid", 1)
        same_as_run(E, root, cfg, os.path.join(root, "run.grid.h5"), docs["grid"], "grid", 4)

        # the baseline: its in-sample trades and sum are the run's baseline row
        out = os.path.join(root, "baseline.csv")
        r = cli.run(E, ["trades", cfg, "--list", "baseline", "--csv", out])
        if check(r.returncode == 0, f"--list baseline: {r.stderr}"):
            base = next(b for b in docs["grid"]["baselines"] if b["name"] == "baseline")
            ins = [row for row in rows(out) if row["part"] == "in_sample"]
            check(len(ins) == base["trades"], f"baseline: {len(ins)} in-sample trades, the run says {base['trades']}")
            total = sum(round(float(row["outcome_pct"]) * 1e6) for row in ins) / 1e6
            check(abs(total - base["fitness"]) < 1e-9, f"baseline: sum {total}, the run's fitness {base['fitness']}")

        # no setting: the log as traded, each outcome the log's change less the cost
        out = os.path.join(root, "log.csv")
        r = cli.run(E, ["trades", cfg, "--csv", out])
        if check(r.returncode == 0, f"the log: {r.stderr}"):
            log = {int(row["Trade Id"]): float(row["Trade Percent Change"])
                   for row in rows(os.path.join(data, "all_trade_logs.csv")) if row["Ticker"] == "SOXL"}
            got = rows(out)
            check(len(got) == len(log), f"the log: {len(got)} trades, the log has {len(log)}")
            bad = [row for row in got if row["exit_reason"] != "logged"
                   or abs(float(row["outcome_pct"]) - (log[int(row["trade_id"])] - COST)) > 1e-9]
            check(not bad, f"the log: {len(bad)} rows not as logged less the cost, e.g. {bad[:1]}")

        for what, args, code, words in (
                ("a misspelt name", ["--set", "volatilty=0.3"], 2, ["volatilty", "no parameter"]),
                ("a stop >= 0", ["--set", "stop=0.4"], 2, ["stop=0.4"]),
                ("not a number", ["--set", "ratio=high"], 2, ["ratio", "number"]),
                ("a name's first letters", ["--set", "vol=0.3"], 2, ["vol", "no parameter"]),
                ("an infinite value", ["--set", "target=inf"], 2, ["target", "finite"])):
            r = cli.run(E, ["trades", cfg] + args + ["--csv", os.path.join(root, "x.csv")])
            check(r.returncode == code and all(w in r.stderr for w in words),
                  f"{what}: exit {r.returncode}, {r.stderr!r}")
        # --csv onto the dataset the config is about to build (data.cache, not there yet): refused, nothing written
        os.makedirs(os.path.join(root, "fresh"))
        fresh = os.path.join(root, "fresh", "fresh.yaml")
        cli.write_config(fresh, data, os.path.join(root, "fresh", "fresh.h5"), extra=EXTRA)
        cache = os.path.join(root, "fresh", "dataset.h5")
        r = cli.run(E, ["trades", fresh, "--csv", cache])
        check(r.returncode != 0 and "dataset" in r.stderr and cache in r.stderr and not os.path.exists(cache),
              f"--csv onto data.cache: exit {r.returncode}, {r.stderr!r}, written: {os.path.exists(cache)}")
        plain = os.path.join(root, "plain.yaml")
        cli.write_config(plain, data, os.path.join(root, "plain.h5"))
        r = cli.run(E, ["trades", plain, "--list", "baseline"])
        check(r.returncode == 2 and "no baseline: block" in r.stderr, f"no baseline: {r.stderr!r}")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
