"""evolve from Python: the C engine (libevolve, include/evolve.h) through ctypes.

    import evolve
    ds = evolve.Dataset.from_csv("data/sample/market", "data/sample/all_trade_logs.csv")
    lat = evolve.Lattice.from_yaml("configs/soxl.yaml")
    df = ds.evaluate(lat, genes)               # fitness, trades, feasible per genome
    res = evolve.grid("configs/soxl.yaml")     # the exact top-K, as `evolve CONFIG --grid`
    res = evolve.run("configs/soxl.yaml", on_generation=lambda g: g["generation"] >= 10)
    res.stats, res.trades(rank=1)              # trader statistics; a genome's trades and exit reasons

Every error is an evolve.EvolveError carrying the engine's message (the file,
line or key), the same sentence the command line prints.
"""
from .core import (ClosedError, Dataset, EvolveError, Lattice, Result, RunFile, Verdict, build_info, grid,
                   has_cuda, load_run, run, trades_of, version)

__version__ = version()
__all__ = ["ClosedError", "Dataset", "EvolveError", "Lattice", "Result", "RunFile", "Verdict", "build_info", "grid",
           "has_cuda", "load_run", "run", "trades_of", "version"]
