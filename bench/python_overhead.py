#!/usr/bin/env python3
"""The Python package's call overhead on evolve_evaluate, for batches of 1,
1,000 and 1,000,000 genomes on the sample data (configs/soxl.yaml's lattice,
CPU backend): the median time per call of
  - c:     evolve_evaluate called through ctypes with preallocated outputs
           (the engine's time plus one ctypes call, ~1 us);
  - raw:   ds.evaluate(..., raw=True): checks, the gene layout, numpy outputs;
  - frame: ds.evaluate(...): the same, as a DataFrame (the default).
Overhead = raw or frame minus c.

    evolve gen-data --out data/sample --days 5 --seed 1
    EVOLVE_LIBRARY=build/libevolve.so PYTHONPATH=python python3 bench/python_overhead.py
"""
import os
import statistics
import sys
import time

import numpy as np

import evolve
from evolve.core import _ctx, lib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
backend = sys.argv[1] if len(sys.argv) > 1 else "cpu"
cfg = os.path.join(ROOT, "configs", "soxl.yaml")
ds = evolve.Dataset.from_csv(os.path.join(ROOT, "data", "sample", "market"),
                             os.path.join(ROOT, "data", "sample", "all_trade_logs.csv"), tickers=["SOXL"])
lat = evolve.Lattice.from_yaml(cfg)
ev = ds.evaluator(lat, backend=backend)
rng = np.random.default_rng(0)
print(f"# {evolve.build_info()}; backend {lib.evolve_evaluator_device(ev.p).decode()}; {ds.n_trades} trades, "
      f"{len(lat.names)} parameters")
print("| genomes | calls | c (engine + ctypes) | raw=True | DataFrame | overhead raw | overhead DataFrame |")
print("|---|---|---|---|---|---|---|")
for n in (1, 1000, 1_000_000):
    genes = np.stack([rng.integers(0, len(p["values"]), n) for p in lat.params], axis=1).astype(np.uint16)
    soa = np.ascontiguousarray(genes.T)
    outs = [np.empty(n), np.empty(n), np.empty(n, np.int64), np.empty(n, np.uint8)]
    ptrs = [o.ctypes.data for o in outs]
    ctx = _ctx()
    calls = {1: 20000, 1000: 2000, 1_000_000: 9}[n]

    def c_call():
        lib.evolve_evaluate(ctx, ev.p, soa.ctypes.data, n, *ptrs)

    def timed(f):
        f()
        ts = []
        for _ in range(calls):
            t = time.perf_counter()
            f()
            ts.append(time.perf_counter() - t)
        return statistics.median(ts)
    c = timed(c_call)
    raw = timed(lambda: ds.evaluate(lat, genes, backend=backend, raw=True))
    frame = timed(lambda: ds.evaluate(lat, genes, backend=backend))

    def fmt(s):
        return f"{s * 1e6:.1f} us" if s < 1e-3 else f"{s * 1e3:.2f} ms"
    print(f"| {n:,} | {calls} | {fmt(c)} | {fmt(raw)} | {fmt(frame)} | {fmt(raw - c)} | {fmt(frame - c)} |")
