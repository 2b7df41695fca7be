"""The report pages the page tests read: gen-data's sample data searched as a
GA run, a grid run, a validate run (holdout and folds, with a baseline:) and
a walk-forward run, each then given to `evolve report` (index.html and the
charts in RUN_report/). Shared by tests/test_report_page.py (no browser) and
tests/test_report_browser.py (headless Chromium)."""
import json
import os

import evolve_cli as cli

PARAMS = """parameters:
  - {name: volatility, feature: Entry Volatility Percent, values: [0.0, 0.3, 0.4, 0.5]}
  - {name: ratio, feature: Entry Volatility Ratio, values: [0.0, 0.5, 0.8]}
  - {name: target, role: target, values: [0.2, 0.3, 0.4, 0.5]}
  - {name: stop, role: stop, values: [-0.5, -0.4, -0.3]}
"""
# mode: (evolve's arguments, the config's validation: block)
RUNS = {
    "ga": ([], ""),
    "grid": (["--grid"], ""),
    "validate": (["--validate"], "validation:\n  holdout: {share: 0.3}\n  folds: 3\n"),
    "walk": (["--walk-forward", "--grid"], "validation:\n  walk_forward: {train_days: 3, test_days: 1}\n"),
}


def config(root, data, mode):
    path = os.path.join(root, mode + ".yaml")
    with open(path, "w") as f:
        f.write(f"""data:
  market_dir: {os.path.join(data, "market")}
  trades: {os.path.join(data, "all_trade_logs.csv")}
  tickers: [SOXL]
  cache: {os.path.join(root, "sample.dataset.h5")}
{PARAMS}objective:
  name: total_return
  min_trades: 5
{RUNS[mode][1]}ga:
  population: 24
  generations: 8
baseline: {{volatility: 0.35, target: 0.45, stop: -0.42}}
top: 5
seed: 7
output: {os.path.join(root, mode + ".h5")}
""")
    return path


def make(evolve, root, check):
    """{mode: {"run", "json" (the --json summary), "dir" (the report folder), "page", "stdout"}} for every mode
    whose run and report succeeded (a failure is checked, so it fails the test)."""
    data = os.path.join(root, "data")
    r = cli.gen_data(evolve, data, ["--days", "6", "--tickers", "SOXL", "--trades", "240", "--seed", "3"])
    if not check(r.returncode == 0, f"gen-data: {r.stderr}"):
        return {}
    out = {}
    for mode, (args, _) in RUNS.items():
        cfg = config(root, data, mode)
        js = os.path.join(root, mode + ".json")
        r = cli.run(evolve, [cfg, "--quiet", "--json", js] + args, timeout=300)
        if not check(r.returncode == 0, f"{mode}: evolve exited {r.returncode}: {r.stderr}"):
            continue
        run = os.path.join(root, mode + ".h5")
        rep = cli.run(evolve, ["report", run], timeout=300)
        if not check(rep.returncode == 0, f"report {mode}: exited {rep.returncode}: {rep.stderr}"):
            continue
        with open(js) as f:
            doc = json.load(f)
        d = os.path.join(root, mode + "_report")
        out[mode] = {"run": run, "json": doc, "dir": d, "page": os.path.join(d, "index.html"), "stdout": rep.stdout}
    return out


def top_rows(doc):
    """The rows the page's top-K table must show: (rank 1's fitness as printed, its trades), from the JSON
    (a walk-forward run: the first window's test result)."""
    if "walk_forward" in doc:
        w = doc["walk_forward"]["windows"][0]
        return f"{float(w['test_fitness']):.6f}", str(w["test_trades"])
    t = doc["top"][0]
    return f"{float(t['fitness']):.6f}", str(t["trades"])
