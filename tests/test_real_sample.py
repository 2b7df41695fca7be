#!/usr/bin/env python3
"""The bundled real-price sample (samples/real): scripts/make-real-sample.py
remakes its market files and trade log byte for byte from the Lean zips beside
them; every trade's logged prices and Worst/Best/Trade Percent Change are
those of its path, recomputed here from the market files' text (the rows of
its ticker from entry to exit, docs/spec.md sec. 2); `evolve ingest` keeps
all 76 trades and counts the rows this test counts; configs/real.yaml runs
(grid) from the checkout with its holdout and baseline, a second config on
the same files reuses the one dataset in the shared cache, and `evolve cache`
lists and clears it. Standard library only."""
import csv
import filecmp
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

check = cli.Checker()
TICKERS = ["SPY", "AIG", "BAC", "IBM"]


def secs(hms):
    h, m, s = (int(x) for x in hms.split(":"))
    return h * 3600 + m * 60 + s


def regenerates(src, root):
    """The script's output in a fresh folder equals the committed files."""
    sample = os.path.join(src, "samples", "real")
    out = os.path.join(root, "regen")
    p = subprocess.run([sys.executable, os.path.join(src, "scripts", "make-real-sample.py"), "--lean",
                        os.path.join(sample, "lean"), "--out", out], capture_output=True, text=True)
    check(p.returncode == 0, f"make-real-sample.py: {p.stderr}")
    names = sorted(os.listdir(os.path.join(sample, "market")))
    check(names == [f"Raw_Market_data_10-{d:02d}-2013.csv" for d in range(7, 12)], f"market files {names}")
    check(sorted(os.listdir(os.path.join(out, "market"))) == names, "the script writes the same market files")
    for rel in [os.path.join("market", n) for n in names] + ["all_trade_logs.csv"]:
        check(filecmp.cmp(os.path.join(sample, rel), os.path.join(out, rel), shallow=False),
              f"{rel}: the script's output differs from the committed file")


def read_market(sample):
    """{(ticker, MM/DD/YYYY): [(second, price text)]} and the rows per ticker."""
    rows, counts = {}, dict.fromkeys(TICKERS, 0)
    for name in sorted(os.listdir(os.path.join(sample, "market"))):
        m = re.fullmatch(r"Raw_Market_data_(\d\d)-(\d\d)-(\d{4})\.csv", name)
        date = f"{m.group(1)}/{m.group(2)}/{m.group(3)}"
        with open(os.path.join(sample, "market", name), newline="") as f:
            for r in csv.DictReader(f):
                rows.setdefault((r["Ticker"], date), []).append((secs(r["Time"]), r["Price"]))
                counts[r["Ticker"]] += 1
    return rows, counts


def paths_match(sample):
    """Each trade's prices and percents from its path; returns the trade count."""
    rows, _ = read_market(sample)
    with open(os.path.join(sample, "all_trade_logs.csv"), newline="") as f:
        trades = list(csv.DictReader(f))
    for t in trades:
        e, x = secs(t["Entry Time"]), secs(t["Exit Time"])
        path = [(s, p) for s, p in rows[(t["Ticker"], t["Date"])] if e <= s <= x]
        what = f"trade {t['Trade Id']} ({t['Ticker']} {t['Date']} {t['Entry Time']})"
        if not check(len(path) >= 2 and path[0][0] == e and path[-1][0] == x, f"{what}: entry/exit rows"):
            continue
        check(path[0][1] == t["Entry Price"] and path[-1][1] == t["Exit Price"], f"{what}: entry/exit prices")
        pct = [(float(p) / float(t["Entry Price"]) - 1) * 100 for _, p in path]
        for col, want in (("Worst Exit Percent", min(pct)), ("Trade Best Exit Percent", max(pct)),
                          ("Trade Percent Change", pct[-1])):
            check(abs(float(t[col]) - want) <= 5e-7, f"{what}: {col} {t[col]}, the path gives {want:.6f}")
        hit = pct[-1] >= 0.3 - 1e-9 or pct[-1] <= -0.2 + 1e-9 or x - e <= 15 * 60
        check(hit, f"{what}: exit neither at +0.3 %, -0.2 % nor within 15 minutes")
    return len(trades)


def ingests(E, sample, root, n_trades):
    _, counts = read_market(sample)
    r = cli.run(E, ["ingest", "--market", os.path.join(sample, "market"), "--trades",
                    os.path.join(sample, "all_trade_logs.csv"), "--tickers", ",".join(TICKERS), "--out",
                    os.path.join(root, "ds.h5")])
    check(r.returncode == 0, f"evolve ingest: {r.stderr}")
    check(f"{n_trades} trade(s) kept, 0 dropped" in r.stderr, f"ingest keeps every trade: {r.stderr}")
    check(f"{sum(counts.values())} row(s) read" in r.stderr, f"ingest reads {sum(counts.values())} rows")
    kept = " ".join(f"{t} {counts[t]}" for t in TICKERS)
    check(f"prices kept: {kept}" in r.stderr, f"ingest keeps {kept}: {r.stderr}")


def runs_config(E, src, root):
    """configs/real.yaml from the checkout; a copy with another output reuses its dataset."""
    env = {"EVOLVE_CACHE_DIR": os.path.join(root, "cache")}
    cfg = os.path.join(src, "configs", "real.yaml")
    r = cli.run(E, [cfg, "--grid", "--output", os.path.join(root, "a.h5")], env=env)
    check(r.returncode == 0, f"evolve configs/real.yaml --grid: {r.stderr}")
    check("2 held out (29 trades), 3 in-sample (47 trades)" in r.stderr, f"the holdout: {r.stderr[:2000]}")
    check(re.search(r"(?m)^baseline +- +- +- +0\.3 +-0\.2 ", r.stdout) is not None, f"the baseline row: {r.stdout}")
    other = os.path.join(root, "other.yaml")  # another folder, lattice and output
    with open(cfg) as f:
        text = f.read().replace("../samples/real", os.path.join(src, "samples", "real").replace("\\", "/"))
    with open(other, "w") as f:
        f.write(re.sub(r"(?m)^output: .*$", "output: b.h5", text.replace("values: [0, 20, 25, 30, 35]", "values: [0, 30]")))
    r = cli.run(E, [other, "--grid", "--quiet"], env=env)
    check(r.returncode == 0, f"the second run: {r.stderr}")
    r = cli.run(E, ["cache"], env=env)
    check(r.returncode == 0 and "1 file(s)" in r.stdout and "samples/real/all_trade_logs.csv" in r.stdout,
          f"evolve cache: one dataset for both runs: {r.stdout} {r.stderr}")
    r = cli.run(E, ["cache", "--clear"], env=env)
    check(r.returncode == 0 and "removed 1 file(s)" in r.stdout, f"evolve cache --clear: {r.stdout} {r.stderr}")
    r = cli.run(E, ["cache"], env=env)
    check(r.returncode == 0 and "0 file(s)" in r.stdout, f"evolve cache after --clear: {r.stdout}")
    check(not [n for n in os.listdir(os.path.join(root, "cache", "datasets")) if not n.endswith(".lock")],
          f"--clear leaves {os.listdir(os.path.join(root, 'cache', 'datasets'))}")
    r = cli.run(E, ["cache", "extra"], env=env)
    check(r.returncode == 2 and "evolve cache takes no file" in r.stderr, f"evolve cache extra: {r.stderr}")


def main():
    a = cli.parse_args()
    E = os.path.abspath(a.evolve)
    src = os.path.abspath(a.source_dir)
    sample = os.path.join(src, "samples", "real")
    with cli.scratch_dir("evolve_real_sample_") as root:
        regenerates(src, root)
        n = paths_match(sample)
        check(n == 76, f"76 trades in the log, got {n}")
        ingests(E, sample, root, n)
        runs_config(E, src, root)
        shutil.rmtree(os.path.join(root, "regen"), ignore_errors=True)
    if not check.failures:
        print(f"ok: the sample regenerates byte for byte; {n} trades match their paths; ingest and configs/real.yaml")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
