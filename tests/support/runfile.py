"""Helpers for the run-file tests: compare two HDF5 files object by object
(h5py), make sample data, write a config, count failed checks."""

import math
import os
import subprocess

# Measurements and wall-clock fields: they differ between any two runs.
WALL_CLOCK = {"created_utc", "seconds", "wall_s", "sessions", "seconds_load", "seconds_total"}


def _same(a, b):
    import numpy as np
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        if a.dtype.kind == "f":
            # bit for bit, NaN payloads included
            return a.tobytes() == b.tobytes()
        if a.dtype.kind == "O" or a.dtype.names:
            return a.tolist() == b.tolist()
        return np.array_equal(a, b)
    if isinstance(a, float) and isinstance(b, float):
        return (math.isnan(a) and math.isnan(b)) or a == b
    return a == b


def compare(path_a, path_b, ignore=WALL_CLOCK):
    """Every dataset and attribute of two files; returns a list of differences."""
    import h5py
    diffs = []
    with h5py.File(path_a, "r") as fa, h5py.File(path_b, "r") as fb:
        names_a, names_b = [], []
        fa.visit(names_a.append)
        fb.visit(names_b.append)
        if sorted(names_a) != sorted(names_b):
            diffs.append(f"objects differ: {sorted(set(names_a) ^ set(names_b))}")
        for name in ["/"] + sorted(set(names_a) & set(names_b)):
            oa, ob = fa[name], fb[name]
            base = name.rsplit("/", 1)[-1]
            if set(oa.attrs) != set(ob.attrs):
                diffs.append(f"{name}: attributes differ: {sorted(set(oa.attrs) ^ set(ob.attrs))}")
            for k in sorted(set(oa.attrs) & set(ob.attrs)):
                if k not in ignore and not _same(oa.attrs[k], ob.attrs[k]):
                    diffs.append(f"{name} attribute {k}: {oa.attrs[k]!r} != {ob.attrs[k]!r}")
            if isinstance(oa, h5py.Dataset) and base not in ignore:
                if not _same(oa[()], ob[()]):
                    diffs.append(f"{name}: data differ ({oa.shape} vs {ob.shape})")
    return diffs


def make_data(evolve, out, days=2, trades=150):
    """Sample data (SOXL only) in the trader's formats, via gen-data."""
    r = subprocess.run([evolve, "gen-data", "--out", out, "--days", str(days), "--tickers", "SOXL",
                        "--trades", str(trades), "--quiet"], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError("gen-data failed: " + r.stderr)


# The trader's seed lattice (configs/soxl.yaml): 11,340 points.
SOXL_PARAMETERS = """parameters:
  - {name: volatility, feature: Entry Volatility Percent, values: [0.0, 0.3, 0.4, 0.5, 0.6]}
  - {name: ratio, feature: Entry Volatility Ratio, values: [0.0, 0.2, 0.5, 0.7, 0.8, 0.9, 1.0]}
  - {name: adx28, feature: Entry Adx28, values: [0, 20, 30]}
  - {name: adx14, feature: Entry Adx14, values: [0, 20, 30]}
  - {name: adx7, feature: Entry Adx7, values: [0, 20, 30]}
  - {name: target, role: target, values: [0.2, 0.3, 0.4, 0.5]}
  - {name: stop, role: stop, values: [-0.5, -0.4, -0.3]}
"""


def write_config(path, data_dir, output, population=128, generations=30, extra="", parameters=SOXL_PARAMETERS,
                 objective="total_return", min_trades=10, seed=42):
    text = f"""# written by a test
data:
  market_dir: {os.path.join(data_dir, "market")}
  trades: {os.path.join(data_dir, "all_trade_logs.csv")}
  tickers: [SOXL]
  cache: {os.path.join(os.path.dirname(path), "dataset.h5")}
{parameters}objective:
  name: {objective}
  min_trades: {min_trades}
ga:
  population: {population}
  generations: {generations}
{extra}top: 10
seed: {seed}
output: {output}
"""
    with open(path, "w") as f:
        f.write(text)
    return text


class Checker:
    def __init__(self):
        self.failures = 0

    def __call__(self, cond, what):
        if not cond:
            self.failures += 1
            print("FAIL: " + what, flush=True)
        return cond

    def exit(self):
        if self.failures:
            print(f"{self.failures} check(s) failed")
        return 1 if self.failures else 0
