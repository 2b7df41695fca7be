#!/usr/bin/env python3
"""Writes the seed corpora of tests/fuzz/corpus/ (committed; run again only
when a format changes):

    python3 tests/fuzz/make_seeds.py --evolve build/evolve

CSV seeds are snippets of `evolve gen-data` output (the first seconds of two
days, SOXL and IONQ) and of the fixtures of tests/test_ingest_golden.c and
tests/test_csv_reader.c; YAML seeds are configs/*.yaml and small configs like
those of tests/test_config.c; HDF5 seeds are a dataset from `evolve ingest` and
run files of a tiny GA run and a tiny --grid run on the CSV seeds, and the checkpoint
of that GA run (killed after committing its run file). Every seed
is a few KB at most.
"""

import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MARK = b"\n@@file@@\n"  # FZ_FILE_MARK of fuzz_common.h

TRADES_HEADER = (b"Date,Trade Id,Ticker,Strategy,Entry Price,Exit Price,Entry Time,Exit Time,"
                 b"Worst Exit Percent,Entry Volatility Percent,Entry Volatility Ratio,Entry Adx28,"
                 b"Entry Adx14,Entry Adx7,Trade Best Exit Percent,Trade Percent Change,Shares,Entry Rsi\n")
# Entries and exits within the first 20 seconds of the snippets' days; one trade of
# another ticker, one on a day without a market file, one with an empty feature.
TRADES_ROWS = [
    b"01/02/2024,1,SOXL,pullback,28.6600,28.6900,09:30:01,09:30:09,-0.10,0.72,0.99,14.07,10.74,18.56,0.15,0.10,348,45.62",
    b"01/02/2024,2,IONQ,pullback,12.4700,12.4800,09:30:02,09:30:15,-0.24,0.85,1.21,15.84,22.84,26.70,0.48,0.08,800,49.43",
    b"2024-01-03,3,SOXL,pullback,28.5800,28.6600,09:30:04,09:30:18,-0.28,0.57,1.06,10.05,19.94,39.72,0.59,0.28,349,51.71",
    b"01-03-2024,4,IONQ,pullback,12.5000,12.5200,9:30:05,2024-01-03 09:30:11,-0.30,0.55,1.04,10.34,23.34,48.44,0.52,0.16,800,54.23",
    b"01/02/2024,5,MARA,pullback,18.0000,18.1000,09:30:00,09:30:05,-0.10,0.50,1.00,20.00,20.00,20.00,0.50,0.55,100,50.00",
    b"01/04/2024,6,SOXL,pullback,28.6000,28.7000,09:30:00,09:30:05,-0.10,0.50,1.00,20.00,20.00,20.00,0.50,0.35,100,50.00",
    b"01/02/2024,7,SOXL,pullback,28.6000,28.7000,09:30:03,09:30:07,-0.10,0.50,1.00,,20.00,20.00,0.50,0.35,100,50.00",
]
TRADES = TRADES_HEADER + b"\n".join(TRADES_ROWS) + b"\n"

# tests/test_ingest_golden.c and tests/test_csv_reader.c
GOLDEN_MARKET = (b"\xef\xbb\xbfTime,Volume,Ticker,Rsi,Price,Note\r\n09:30:00,100,IONQ,50,21.00,x\r\n"
                 b"09:30:10,100,IONQ,50,21.50,\r\n09:31:00,100,SOXL,50,11.00,\"a,b\"\r\n"
                 b"09:32:00,100,SOXL,50,11.20,\r\n09:33:00,100,SOXL,50,11.30,\r\n")
CSV_SNIPPETS = {
    "short.csv": b"Ticker,Price,Time\nSOXL,1.0\n",
    "dup.csv": b"Ticker,Price,Time,Price\nA,1,09:30:00,2\n",
    "crcrlf.csv": b"Ticker,Price\r\r\nSOXL,1\r\r\nIONQ,2\r\r\n",
    "quoted.csv": b'Ticker,"Pri""ce",Time\n"SO\nXL",1.5,09:30:00\n\n"IONQ" ,2,09:30:01',
    "golden_market2.csv": GOLDEN_MARKET,
}

CONFIGS = {
    "dataset.yaml": b"""data: {dataset: ds.h5}
parameters:
  - {name: vol, feature: Entry Volatility Percent, direction: max, values: [0.5, 1, 1.5]}
  - {name: adx, feature: Entry Adx28, range: {start: 0, stop: 40, step: 2.5}}
  - {name: target, role: target, range: {start: 0.5, stop: 1.3, step: 0.05}}
  - {name: stop, role: stop, values: [-1, -0.5]}
objective: {name: calmar, min_trades: 3, max_drawdown_pct: 20, fill: price, cost_pct: 0.05}
ga:
  population: 64
  generations: 5
  islands: 4
  migration: {every: 2, count: 1}
  selection: {type: truncation, truncation: 0.3}
  crossover: {type: two_point, rate: 0.8}
  mutation: {rate: 0.1, creep_share: 0.5, creep_max: 3}
  elitism: 0.05
  stall_generations: 10
  max_evaluations: 1000
  time_budget_s: 60
  immigrants: {diversity: 0.2, share: 0.1}
  cache_max_mb: 64
  checkpoint_every: 2
grid: {batch: 4096}
report: {heatmap: [adx, target]}
top: 5
seed: 7
output: out/run.h5
""",
    "csv.yaml": b"""# raw CSVs
data:
  market_dir: market
  trades: all_trade_logs.csv
  tickers: [SOXL, IONQ]
  features: [Exit Price]
  strict: true
  cache: cache.h5
parameters:
  - name: ratio
    feature: Entry Volatility Ratio
    values: [0.0, 0.5, 1.0]
  - {name: t, role: target, values: [0.2, 0.3]}
objective:
  name: sharpe
seed: random
""",
    "anchors.yaml": b"""base: &b {name: x, feature: Entry Adx7, values: [1, 2]}
data: {dataset: "d.h5"}
parameters: [*b, {name: s, role: stop, values: [-2.0e0, -1e-1]}]
objective: {name: compound}
""",
}


def run(args, **kw):
    r = subprocess.run(args, capture_output=True, **kw)
    if r.returncode != 0:
        sys.exit(f"make_seeds: {' '.join(args)} failed: {r.stderr.decode(errors='replace')}")
    return r


def put(corpus, name, data):
    d = os.path.join(HERE, "corpus", corpus)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def head_lines(path, n):
    with open(path, "rb") as f:
        return b"".join(f.readline() for _ in range(n))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--evolve", default=os.path.join(ROOT, "build", "evolve"))
    a = ap.parse_args()
    evolve = os.path.abspath(a.evolve)
    for d in glob.glob(os.path.join(HERE, "corpus", "*")):
        shutil.rmtree(d)
    tmp = tempfile.mkdtemp(prefix="evolve_seeds_")
    try:
        run([evolve, "gen-data", "--out", os.path.join(tmp, "g"), "--days", "2", "--tickers", "SOXL,IONQ",
             "--trades", "20", "--quiet"])
        day1 = head_lines(os.path.join(tmp, "g", "market", "Raw_Market_data_01-02-2024.csv"), 41)
        day2 = head_lines(os.path.join(tmp, "g", "market", "Raw_Market_data_01-03-2024.csv"), 41)
        gen_log = head_lines(os.path.join(tmp, "g", "all_trade_logs.csv"), 6)

        put("fuzz_csv_reader", "market.csv", day1[:1500])
        put("fuzz_csv_reader", "trades.csv", TRADES)
        for name, data in CSV_SNIPPETS.items():
            put("fuzz_csv_reader", name, data)

        put("fuzz_market", "one_day.csv", day1)
        put("fuzz_market", "two_days.csv", day1 + MARK + day2)
        put("fuzz_market", "golden_crlf_bom.csv", day1[:600] + MARK + GOLDEN_MARKET)

        put("fuzz_trades", "trades.csv", TRADES)
        put("fuzz_trades", "gen_data_log.csv", gen_log)
        put("fuzz_trades", "minimal.csv",
            b"Ticker,Date,Entry Time,Exit Time,Entry Price,Trade Percent Change\n"
            b"SOXL,01/02/2024,09:30:10,09:30:20,28.55,0.5\nIONQ,01/03/2024,09:30:00,09:30:59,12.5,-0.25\n")

        put("fuzz_ingest", "two_days.csv", day1 + MARK + day2 + MARK + TRADES)
        put("fuzz_ingest", "one_day.csv", day1 + MARK + TRADES_HEADER + TRADES_ROWS[0] + b"\n")

        for path in sorted(glob.glob(os.path.join(ROOT, "configs", "*.yaml"))):
            with open(path, "rb") as f:
                put("fuzz_config", os.path.basename(path), f.read())
        for name, data in CONFIGS.items():
            put("fuzz_config", name, data)

        # HDF5: a dataset and two run files from the ingest seed.
        data = os.path.join(tmp, "d")
        os.makedirs(os.path.join(data, "market"))
        for name, text in (("Raw_Market_data_01-02-2024.csv", day1), ("Raw_Market_data_01-03-2024.csv", day2)):
            with open(os.path.join(data, "market", name), "wb") as f:
                f.write(text)
        with open(os.path.join(data, "all_trade_logs.csv"), "wb") as f:
            f.write(TRADES)
        ds = os.path.join(tmp, "ds.h5")
        run([evolve, "ingest", "--market", os.path.join(data, "market"), "--trades",
             os.path.join(data, "all_trade_logs.csv"), "--tickers", "SOXL,IONQ", "--out", ds, "--quiet"])
        with open(ds, "rb") as f:
            put("fuzz_dataset_h5", "dataset.h5", f.read())
        cfg = os.path.join(tmp, "run.yaml")
        with open(cfg, "w") as f:
            f.write(f"""data: {{dataset: {ds}}}
parameters:
  - {{name: vol, feature: Entry Volatility Percent, values: [0, 0.6]}}
  - {{name: target, role: target, values: [0.05, 0.1]}}
  - {{name: stop, role: stop, values: [-0.1, -0.05]}}
objective: {{name: total_return, min_trades: 1}}
ga: {{population: 4, generations: 2}}
top: 3
output: {os.path.join(tmp, "ga.h5")}
""")
        run([evolve, cfg, "--backend", "cpu", "--quiet"])
        run([evolve, cfg, "--backend", "cpu", "--grid", "--quiet", "--output", os.path.join(tmp, "grid.h5")])
        for name in ("ga.h5", "grid.h5"):
            with open(os.path.join(tmp, name), "rb") as f:
                put("fuzz_run_file", name, f.read())
        # A checkpoint outlives its run only when the run dies after committing its file:
        # the test hook kills it there (common/test_hooks.h).
        ckpt = os.path.join(tmp, "ck.h5")
        r = subprocess.run([evolve, cfg, "--backend", "cpu", "--quiet", "--output", ckpt], capture_output=True,
                           env=dict(os.environ, EVOLVE_TEST_KILL="committed:2"))
        if r.returncode != -9 or not os.path.exists(ckpt + ".partial.ckpt"):
            sys.exit(f"make_seeds: the killed GA run left no checkpoint (exit {r.returncode})")
        with open(ckpt + ".partial.ckpt", "rb") as f:
            put("fuzz_checkpoint", "ga.ckpt", f.read())
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for d in sorted(glob.glob(os.path.join(HERE, "corpus", "*"))):
        sizes = [os.path.getsize(p) for p in glob.glob(os.path.join(d, "*"))]
        print(f"{os.path.basename(d)}: {len(sizes)} seed(s), largest {max(sizes)} bytes")


if __name__ == "__main__":
    main()
