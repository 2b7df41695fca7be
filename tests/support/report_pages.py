"""The report pages the page tests read: gen-data's sample data searched as a
GA run, a grid run, a validate run (holdout and folds) and a walk-forward
run on small_lattice's lattice with a baseline:, each then given to `evolve
report` (index.html and the charts in RUN_report/). Shared by
tests/test_report_page.py (no browser) and tests/test_report_browser.py
(headless Chromium)."""
import os

import evolve_cli as cli
import small_lattice

# mode: (evolve's arguments, the config's validation: block)
RUNS = {
    "ga": ([], ""),
    "grid": (["--grid"], ""),
    "validate": (["--validate"], "  holdout: {share: 0.3}\n  folds: 3\n"),
    "walk": (["--walk-forward", "--grid"], "  walk_forward: {train_days: 3, test_days: 1}\n"),
}
BASELINE = "baseline: {volatility: 0.35, target: 0.45, stop: -0.42}\n"


def make(evolve, root, check):
    """{mode: {"run", "json" (the --json summary), "dir" (the report folder), "page", "stdout"}} for every mode
    whose run and report succeeded (a failure is checked, so it fails the test)."""
    data = os.path.join(root, "data")
    r = cli.gen_data(evolve, data, ["--days", "6", "--tickers", "SOXL", "--trades", "240", "--seed", "3"])
    if not check(r.returncode == 0, f"gen-data: {r.stderr}"):
        return {}
    out = {}
    for mode, (args, validation) in RUNS.items():
        cfg = small_lattice.config(root, mode, data, "  name: total_return\n  min_trades: 5\n", validation,
                                   "population: 24\n  generations: 8", extra=BASELINE)
        run = os.path.join(root, mode + ".h5")  # named: a mode's own default adds the mode (grid.grid.h5)
        doc = small_lattice.run_json(evolve, cfg, args + ["--output", run], check)
        if doc is None:
            continue
        rep = cli.run(evolve, ["report", run], timeout=300)
        if not check(rep.returncode == 0, f"report {mode}: exited {rep.returncode}: {rep.stderr}"):
            continue
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
