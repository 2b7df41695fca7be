#!/usr/bin/env python3
"""The run file read by independent clients:

- h5dump (HDF5's own tool) reads GA and grid run files: exit 0, the
  expected objects present;
- h5py checks every shape against the run, the provenance against the
  config and the dataset file, and every recorded fitness against an
  independent evaluation in Python straight from the CSVs (SPEC sec. 3-5:
  float32 levels, first hit along the price path, micro-percent
  quantisation): every genome of every generation of a GA run, and for the
  grid run the whole lattice: its top-K and its heatmap;
- pandas (when installed) loads the generations into a DataFrame as
  results/README.md shows.

Needs h5py and numpy (else skipped with 77)."""
import csv
import datetime
import math
import os
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

check = cli.Checker()


def llround(x):
    """C's llround: half away from zero, on the exact double."""
    return int(Decimal(x).quantize(Decimal(1), rounding=ROUND_HALF_UP))


class Spec:
    """SPEC sec. 1-5 for one ticker's trades, from the CSVs, in numpy."""

    def __init__(self, data_dir, lattice):
        import numpy as np
        self.np = np
        ts, price = [], []
        for name in sorted(os.listdir(os.path.join(data_dir, "market")),
                           key=lambda n: datetime.datetime.strptime(n[16:26], "%m-%d-%Y")):
            day = datetime.datetime.strptime(name[16:26], "%m-%d-%Y")
            with open(os.path.join(data_dir, "market", name)) as f:
                for row in csv.DictReader(f):
                    if row["Ticker"] != "SOXL":
                        continue
                    h, m, s = map(int, row["Time"].split(":"))
                    ts.append(int((day - datetime.datetime(1970, 1, 1)).total_seconds()) + h * 3600 + m * 60 + s)
                    price.append(float(row["Price"]))
        order = np.argsort(np.array(ts), kind="stable")
        self.ts = np.array(ts, dtype=np.int64)[order]
        self.price = np.array(price, dtype=np.float32)[order]  # (float)strtod
        self.lat = lattice
        self.trades = []
        with open(os.path.join(data_dir, "all_trade_logs.csv")) as f:
            for row in csv.DictReader(f):
                if row["Ticker"] != "SOXL":
                    continue
                day = datetime.datetime.strptime(row["Date"], "%m/%d/%Y")
                base = int((day - datetime.datetime(1970, 1, 1)).total_seconds())

                def at(t):
                    h, m, s = map(int, t.split(":"))
                    return base + h * 3600 + m * 60 + s
                start = int(np.searchsorted(self.ts, at(row["Entry Time"]), side="left"))
                end = int(np.searchsorted(self.ts, at(row["Exit Time"]), side="right"))
                if end <= start:
                    continue  # empty path: dropped
                self.trades.append({"e": float(row["Entry Price"]), "pct": float(row["Trade Percent Change"]),
                                    "path": self.price[start:end],
                                    "features": {k: float(v) for k, v in row.items()
                                                 if k.startswith("Entry ") and k != "Entry Time"}})
        self._hits()

    def _first(self, cond):
        i = int(self.np.argmax(cond))
        return i if cond.size and cond[i] else 1 << 40

    def _hits(self):
        """Per trade: the first-hit offset of every target and stop level."""
        np = self.np
        tgt = [p for p in self.lat if p["role"] == "target"][0]
        stp = [p for p in self.lat if p["role"] == "stop"][0]
        self.t_values, self.s_values = tgt["values"], stp["values"]
        for t in self.trades:
            e = t["e"]
            t["hit_t"] = [self._first(t["path"] >= np.float32(e * (1 + v / 100))) for v in self.t_values]
            t["hit_s"] = [self._first(t["path"] <= np.float32(e * (1 + v / 100))) for v in self.s_values]
            t["q_log"] = llround(t["pct"] * 1e6)

    def evaluate(self, genes):
        """(total_return, trades kept) of a genome: SPEC sec. 4-5."""
        total, n = 0, 0
        for t in self.trades:
            keep, ti, si = True, None, None
            for p, g in zip(self.lat, genes):
                if p["role"] == "filter":
                    keep &= t["features"][p["feature"]] >= p["values"][g]
                elif p["role"] == "target":
                    ti = g
                else:
                    si = g
            if not keep:
                continue
            ht, hs = t["hit_t"][ti], t["hit_s"][si]
            if ht == hs == 1 << 40:
                q = t["q_log"]
            elif ht <= hs:
                q = llround(self.t_values[ti] * 1e6)
            else:
                q = llround(self.s_values[si] * 1e6)
            total += q
            n += 1
        return total / 1e6, n


def read_lattice(f):
    names = list(f["lattice/name"].asstr())
    roles = list(f["lattice/role"].asstr())
    feats = list(f["lattice/feature"].asstr())
    nv = f["lattice/n_values"][:]
    off = f["lattice/value_offset"][:]
    vals = f["lattice/values"][:]
    return [{"name": names[k], "role": roles[k], "feature": feats[k],
             "values": [float(x) for x in vals[off[k]:off[k] + nv[k]]]} for k in range(len(names))]


def h5dump_ok(path, objects):
    r = subprocess.run(["h5dump", "-H", path], capture_output=True, text=True)
    if not check(r.returncode == 0, f"h5dump -H {path} exited {r.returncode}: {r.stderr[:400]}"):
        return
    for o in objects:
        check(f'"{o}"' in r.stdout or f'"{o.rsplit("/", 1)[-1]}"' in r.stdout, f"h5dump: {o} not listed")
    r = subprocess.run(["h5dump", "-d", objects[-1], path], capture_output=True, text=True)
    check(r.returncode == 0 and "DATA" in r.stdout, f"h5dump -d {objects[-1]}: {r.returncode}")


def check_ga_file(path, cfg_path, spec, min_trades):
    import h5py
    import numpy as np
    with h5py.File(path, "r") as f:
        ga = f["ga"]
        G, P, n = int(ga.attrs["generations"]), int(ga.attrs["population"]), len(spec.lat)
        check(ga["genes"].shape == (G, P, n), f"ga/genes shape {ga['genes'].shape}")
        for name in ("fitness", "fitness_raw", "trades", "feasible", "index"):
            check(ga[name].shape == (G, P), f"ga/{name} shape {ga[name].shape}")
        check(ga["parents"].shape == (G, P, 2), f"ga/parents shape {ga['parents'].shape}")
        check(ga["stats/gene_entropy"].shape == (G, n), "ga/stats/gene_entropy shape")
        for name in ("best", "mean", "median", "std", "unique", "diversity", "evaluations", "hit_rate", "wall_s"):
            check(ga["stats"][name].shape == (G,), f"ga/stats/{name} shape")
        check(ga["hall_of_fame/genes"].shape == (10, n), "hall of fame shape")
        check(f.attrs["status"] == "complete" and f.attrs["format"] == "evolve-run", "root attributes")
        prov = f["provenance"]
        with open(cfg_path) as c:
            check(prov.attrs["config_text"] == c.read(), "provenance/config_text is not the config verbatim")
        with h5py.File(os.path.join(os.path.dirname(cfg_path), "dataset.h5"), "r") as d:
            check(int(prov["dataset"].attrs["content_hash"]) == int(d["provenance"].attrs["content_hash"]),
                  "provenance/dataset content_hash differs from the dataset file's")
            check(prov["dataset/sources"][:].tolist() == d["provenance/sources"][:].tolist(),
                  "provenance/dataset/sources is not a copy of the dataset's sources table")
        for key in ("git_revision", "compiler", "build_flags", "hdf5_version", "backend", "device", "created_utc"):
            check(key in prov.attrs, f"provenance lacks {key}")
        # every genome of every generation, evaluated independently
        genes = ga["genes"][:].reshape(G * P, n)
        raw, trades, feasible = ga["fitness_raw"][:].ravel(), ga["trades"][:].ravel(), ga["feasible"][:].ravel()
        index, strides = ga["index"][:].ravel(), np.cumprod([1] + [len(p["values"]) for p in spec.lat[::-1]])[-2::-1]
        seen, wrong = {}, 0
        for i in range(G * P):
            key = tuple(int(g) for g in genes[i])
            if key not in seen:
                seen[key] = spec.evaluate(key)
            value, kept = seen[key]
            ok = raw[i] == value and trades[i] == kept and feasible[i] == (kept >= min_trades)
            ok &= int(index[i]) == int(np.dot(genes[i].astype(np.int64), strides))
            wrong += not ok
        check(wrong == 0, f"{wrong} of {G * P} recorded genomes disagree with the independent evaluation")
        print(f"GA file: {G} generations x {P}: {len(seen)} distinct genomes re-evaluated from the CSVs", flush=True)
        check(len(seen) == int(ga.attrs["evaluations"]), "ga evaluations != distinct genomes archived")
        hof = ga["hall_of_fame"]
        best = sorted(((-v[0], k) for k, v in seen.items() if v[1] >= min_trades))[:10]
        check([round(-b[0], 6) for b in best] == [round(x, 6) for x in hof["fitness"][:]],
              "the hall of fame is not the top of the evaluated genomes")
    return G, P


def check_grid_file(path, spec, min_trades):
    import h5py
    import itertools
    with h5py.File(path, "r") as f:
        nvals = [len(p["values"]) for p in spec.lat]
        every = {}
        for genes in itertools.product(*[range(k) for k in nvals]):
            every[genes] = spec.evaluate(genes)
        feasible = sorted(((-v, g) for g, (v, n) in every.items() if n >= min_trades))
        top = f["grid/top"]
        got = [tuple(int(x) for x in g) for g in top["genes"][:]]
        check(got == [g for _, g in feasible[:10]], f"grid top-10 genomes differ: {got[:3]} vs {feasible[:3]}")
        check(list(top["fitness"][:]) == [-v for v, _ in feasible[:10]], "grid top-10 fitness differs")
        heat = f["grid/heatmap"]
        x, y = int(heat.attrs["x"]), int(heat.attrs["y"])
        want = {}
        for g, (v, n) in every.items():
            if n >= min_trades:
                c = (g[x], g[y])
                want[c] = max(want.get(c, -math.inf), v)
        best = heat["best"][:]
        bad = sum(1 for i in range(nvals[x]) for j in range(nvals[y])
                  if not ((i, j) not in want and math.isnan(best[i, j]) or want.get((i, j)) == best[i, j]))
        check(bad == 0, f"{bad} heatmap cells differ from the independent evaluation")
        print(f"grid file: all {len(every)} lattice points re-evaluated; top-10 and the "
              f"{nvals[x]}x{nvals[y]} heatmap agree", flush=True)


def check_pandas(path):
    try:
        import pandas as pd
    except ImportError:
        print("pandas not installed: DataFrame check skipped")
        return
    import h5py
    import numpy as np
    # the example of results/README.md
    with h5py.File(path, "r") as f:
        names = list(f["lattice/name"].asstr())
        G, P, n = f["ga/genes"].shape
        df = pd.DataFrame(f["ga/genes"][:].reshape(G * P, n), columns=names)
        df["generation"] = np.repeat(np.arange(G), P)
        for col in ("fitness", "trades", "feasible"):
            df[col] = f["ga"][col][:].ravel()
        off, vals = f["lattice/value_offset"][:], f["lattice/values"][:]
        for k, name in enumerate(names):
            df[name + "_value"] = vals[off[k] + df[name].to_numpy()]
    check(len(df) == G * P and df.groupby("generation")["fitness"].max().shape == (G,), "pandas DataFrame")
    print(f"pandas: {len(df)} rows x {len(df.columns)} columns", flush=True)


def main():
    a = cli.parse_args()
    if not cli.have_modules("h5py", "numpy"):
        print("skipped: h5py / numpy are not available")
        return 77
    with cli.scratch_dir("evolve_runfile_") as root:
        out = os.path.join(root, "run.h5")
        data, cfg = cli.data_and_config(a.evolve, root, out, population=96, generations=12)
        r = cli.run(a.evolve, [cfg, "--quiet"])
        check(r.returncode == 0, f"GA run: {r.stderr}")
        h5dump_ok(out, ["/provenance", "/lattice/values", "/ga/hall_of_fame", "/ga/stats/best", "/ga/genes"])
        import h5py
        with h5py.File(out, "r") as f:
            spec = Spec(data, read_lattice(f))
        check_ga_file(out, cfg, spec, 10)
        check_pandas(out)
        grid = os.path.join(root, "grid.h5")
        r = cli.run(a.evolve, [cfg, "--grid", "--quiet", "--output", grid])
        check(r.returncode == 0, f"grid run: {r.stderr}")
        h5dump_ok(grid, ["/provenance", "/grid/top", "/grid/heatmap/best_key", "/grid/heatmap/best"])
        check_grid_file(grid, spec, 10)
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
