"""evolve from a notebook: the sample data, a lattice, numpy genomes in, pandas out.

Run from the repository root after

    evolve gen-data --out data/sample --days 5 --seed 1
    pip install ./python          (or: PYTHONPATH=python EVOLVE_LIBRARY=build/libevolve.so)

    python3 python/examples/quickstart.py

Each block is a notebook cell."""
import os
import sys
import time

import numpy as np
import pandas as pd  # noqa: F401 (the results are DataFrames)

import evolve

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "data", "sample")
if not os.path.isdir(SAMPLE):
    sys.exit(f"no sample data in {SAMPLE}: run `evolve gen-data --out data/sample --days 5 --seed 1` first")
os.makedirs(os.path.join(ROOT, "results"), exist_ok=True)
print(evolve.build_info())

# %% The trades, as the engine prepared them (SPEC sec. 2), as a DataFrame.
ds = evolve.Dataset.from_csv(os.path.join(SAMPLE, "market"), os.path.join(SAMPLE, "all_trade_logs.csv"),
                             tickers=["SOXL"])
trades = ds.trades
print(trades[["ticker", "entry_time", "pct_change", "Entry Volatility Percent"]].head())

# %% A lattice: the config's parameters (or Lattice.from_dict / from_arrays in the notebook).
lat = evolve.Lattice.from_yaml(os.path.join(ROOT, "configs", "soxl.yaml"))
print(lat, lat.names)

# %% Evaluate a million random genomes (lattice indices), numpy in, pandas out.
rng = np.random.default_rng(0)
genes = np.stack([rng.integers(0, len(p["values"]), 1_000_000) for p in lat.params], axis=1)
t = time.perf_counter()
fit = ds.evaluate(lat, genes, backend="auto")
print(f"{len(fit):,} genomes in {time.perf_counter() - t:.2f} s; best feasible:")
best = fit[fit.feasible].sort_values("fitness", ascending=False).head(3)
for i, p in enumerate(lat.params):  # gene indices -> the parameters' values
    best[p["name"]] = p["values"][genes[best.index, i]]
print(best)

# %% The same objective, another view: the per-trade Sharpe ratio of the same genomes.
sharpe = ds.evaluate(lat, genes[:1000], objective={"name": "sharpe", "min_trades": 10})
print(sharpe.describe().loc[["mean", "max"]])

# %% The exact grid, as `evolve configs/soxl.yaml --grid` (the same run file, bit for bit).
res = evolve.grid(os.path.join(ROOT, "configs", "soxl.yaml"), output=os.path.join(ROOT, "results", "quickstart-grid.h5"))
print(res.top[lat.names + ["fitness", "trades"]])

# %% The GA, watched generation by generation; the callback stops it after 15 generations.
def watch(g):
    print(f"  generation {g['generation']:3d}: best {g['best']:.4f}, {g['evaluations']} evaluated")
    return g["generation"] >= 15

ga = evolve.run(os.path.join(ROOT, "configs", "soxl.yaml"), on_generation=watch,
                output=os.path.join(ROOT, "results", "quickstart-ga.h5"))
print(ga.info)
print(ga.top[lat.names + ["fitness", "trades"]].head())
print(ga.generations[["best", "median", "diversity", "hit_rate"]].tail())

# %% The run file, read back later (h5py not needed).
run = evolve.load_run(ga.run_file)
print(run.stop_reason, len(run.generations), "generations; hall of fame:", len(run.hall_of_fame))

# %% Plots (optional: matplotlib).
try:
    import matplotlib
    matplotlib.use("Agg")
    ax = ga.plot_convergence()
    ax.figure.savefig(os.path.join(ROOT, "results", "quickstart-convergence.png"))
    ax = ga.plot_heatmap("volatility", "ratio")
    ax.figure.savefig(os.path.join(ROOT, "results", "quickstart-heatmap.png"))
    print("plots in results/quickstart-*.png")
except ImportError:
    print("matplotlib is not installed: no plots")
