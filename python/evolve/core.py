"""The Python face of libevolve: handles, numpy in, pandas out."""
import ctypes as C
import json
import os
import threading

import numpy as np
import pandas as pd

from . import _ffi
from ._ffi import lib

_STATUS_NAMES = ["ok", "usage", "io", "parse", "config", "data", "nomem", "hdf5", "cuda", "nodev", "intr",
                 "busy", "internal"]


class EvolveError(Exception):
    """An error of the engine: .status (the evolve_status code), .kind ("config",
    "io", ...) and the engine's message as str(e)."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status
        self.kind = _STATUS_NAMES[status] if 0 <= status < len(_STATUS_NAMES) else "unknown"
        self.message = message


class ClosedError(EvolveError, ValueError):
    """A handle used after close()."""

    def __init__(self, what):
        super().__init__(1, f"{what} is closed")


def version():
    return lib.evolve_version().decode()


def build_info():
    return lib.evolve_build_info().decode()


def has_cuda():
    """True when libevolve was built with the CUDA backend."""
    return bool(lib.evolve_has_cuda())


class _Ctx:
    """One evolve_ctx per thread: the library keeps no global state."""

    def __init__(self):
        self.p = lib.evolve_ctx_new()
        if not self.p:
            raise MemoryError("evolve_ctx_new")

    def __del__(self):
        if getattr(self, "p", None):
            lib.evolve_ctx_free(self.p)
            self.p = None


_local = threading.local()


def _ctx():
    c = getattr(_local, "ctx", None)
    if c is None:
        c = _local.ctx = _Ctx()
    return c.p


def _check(rc, ctx):
    if rc != 0:
        raise EvolveError(rc, lib.evolve_last_error(ctx).decode(errors="replace"))


def _b(s):
    return None if s is None else os.fsencode(s) if isinstance(s, os.PathLike) else str(s).encode()


def _ptr(a):
    return a.ctypes.data_as(C.c_void_p) if a is not None else None


class _Handle:
    _close = None
    _what = "handle"

    def __init__(self, p):
        self._p = p

    @property
    def p(self):
        if not self._p:
            raise ClosedError(self._what)
        return self._p

    @property
    def closed(self):
        return not self._p

    def close(self):
        if self._p:
            getattr(lib, self._close)(self._p)
            self._p = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


# ---------------------------------------------------------------- lattices
class Lattice(_Handle):
    """The parameters (and the objective) of a search: evolve_lattice."""
    _close = "evolve_lattice_close"
    _what = "Lattice"

    def __init__(self, p, yaml=None, name=None, objective=None):
        super().__init__(p)
        self._yaml, self._name, self._objective = yaml, name, objective

    @classmethod
    def from_yaml_text(cls, text, name="<lattice>"):
        ctx = _ctx()
        out = C.c_void_p()
        _check(lib.evolve_lattice_from_yaml(ctx, text.encode(), str(name).encode(), C.byref(out)), ctx)
        return cls(out.value, text, str(name))

    @classmethod
    def from_yaml(cls, path):
        """The `parameters:` (and `objective:`) of a YAML file: a config, or a file of just those."""
        path = os.fspath(path)
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise EvolveError(2, f"{path}: cannot read: {e.strerror}") from None
        return cls.from_yaml_text(text, path)

    @classmethod
    def from_dict(cls, d):
        """{"parameters": [{name, feature | role, values | range}, ...], "objective": {...}}
        (the config's blocks as Python objects), or {name: {"feature": ..., "values": [...]}, ...}."""
        if "parameters" not in d:
            d = {"parameters": [dict(name=k, **v) for k, v in d.items()]}

        def plain(x):
            if isinstance(x, np.ndarray):
                return x.tolist()
            if isinstance(x, np.generic):
                return x.item()
            if isinstance(x, dict):
                return {k: plain(v) for k, v in x.items()}
            if isinstance(x, (list, tuple)):
                return [plain(v) for v in x]
            return x
        # JSON is YAML: the engine reads it with the config's rules and messages
        return cls.from_yaml_text(json.dumps(plain(d)), "<lattice dict>")

    @classmethod
    def from_arrays(cls, params, objective=None):
        """params: [(name, values, feature or role "target"/"stop"), ...]: arrays of values per parameter
        (evolve_lattice_from_values)."""
        keep, arr = [], (_ffi.Param * len(params))()
        for i, (name, values, what) in enumerate(params):
            v = np.ascontiguousarray(values, dtype=np.float64)
            keep.append(v)
            arr[i].name = name.encode()
            if what in ("target", "stop"):
                arr[i].role = what.encode()
            else:
                arr[i].role, arr[i].feature = b"filter", what.encode()
            arr[i].values = v.ctypes.data_as(C.POINTER(C.c_double))
            arr[i].n_values = v.size
        ctx = _ctx()
        out = C.c_void_p()
        obj = _objective_yaml(objective)
        _check(lib.evolve_lattice_from_values(ctx, arr, len(params), _b(obj), C.byref(out)), ctx)
        return cls(out.value)

    def with_objective(self, objective):
        """A copy with another objective: a name ("sharpe") or the config's objective block as a dict."""
        if self._yaml is None:
            raise EvolveError(1, "this lattice was not read from YAML; give the objective when making it")
        other = Lattice.from_yaml_text(self._yaml, self._name)
        ctx = _ctx()
        try:
            _check(lib.evolve_lattice_set_objective(ctx, other.p, _objective_yaml(objective).encode()), ctx)
        except EvolveError:
            other.close()
            raise
        other._objective = objective
        return other

    @property
    def params(self):
        ctx, out = _ctx(), []
        for i in range(lib.evolve_lattice_n_params(self.p)):
            name, role, feat, n = C.c_char_p(), C.c_char_p(), C.c_char_p(), C.c_uint32()
            _check(lib.evolve_lattice_param(ctx, self.p, i, C.byref(name), C.byref(role), C.byref(feat),
                                            C.byref(n)), ctx)
            v = np.empty(n.value, dtype=np.float64)
            _check(lib.evolve_lattice_values(ctx, self.p, i, _ptr(v)), ctx)
            out.append({"name": name.value.decode(), "role": role.value.decode(),
                        "feature": feat.value.decode(), "values": v})
        return out

    @property
    def names(self):
        return [q["name"] for q in self.params]

    @property
    def size(self):
        """Lattice points (0 when 2^63 or more)."""
        return int(lib.evolve_lattice_size(self.p))

    @property
    def objective(self):
        return lib.evolve_lattice_objective(self.p).decode()

    def __repr__(self):
        return "<evolve.Lattice closed>" if self.closed else \
            f"<evolve.Lattice {len(self.names)} parameters, {self.size} points, {self.objective}>"


_OFF_ROLES = ("trail", "breakeven", "max_hold")


def _shown(q, v):
    """A parameter's values as a column: an exit's off (held as +inf, SPEC sec. 4.1) reads "off"."""
    if q["role"] in _OFF_ROLES and np.isinf(v).any():
        return np.where(np.isinf(v), "off", v.astype(object))
    return v


def _value_text(q, v):
    return "off" if q["role"] in _OFF_ROLES and np.isinf(v) else f"{v:g}"


def _objective_yaml(objective):
    if objective is None:
        return None
    if isinstance(objective, str):
        return json.dumps({"objective": {"name": objective}})
    return json.dumps({"objective": objective})


# ---------------------------------------------------------------- datasets
class _Evaluator(_Handle):
    _close = "evolve_evaluator_close"
    _what = "evaluator"


class Dataset(_Handle):
    """The prepared trades and prices (SPEC sec. 2): evolve_dataset."""
    _close = "evolve_dataset_close"
    _what = "Dataset"

    def __init__(self, p):
        super().__init__(p)
        self._evaluators = {}

    @classmethod
    def from_csv(cls, market_dir, trades, tickers=None, features=None):
        """Ingests the trader's CSVs in memory (no cache file); tickers default to SOXL, IONQ, MARA."""
        ctx = _ctx()
        tk = [_b(t) for t in (tickers or [])]
        ft = [_b(f) for f in (features or [])]
        tarr = (C.c_char_p * len(tk))(*tk) if tk else None
        farr = (C.c_char_p * len(ft))(*ft) if ft else None
        out = C.c_void_p()
        _check(lib.evolve_dataset_from_csv(ctx, _b(os.fspath(market_dir)), _b(os.fspath(trades)), tarr, len(tk),
                                           farr, len(ft), C.byref(out)), ctx)
        return cls(out.value)

    @classmethod
    def from_h5(cls, path):
        """A dataset file written by `evolve ingest` (or a run's dataset cache)."""
        ctx = _ctx()
        out = C.c_void_p()
        _check(lib.evolve_dataset_from_h5(ctx, _b(os.fspath(path)), C.byref(out)), ctx)
        return cls(out.value)

    @classmethod
    def from_config(cls, path):
        """The dataset a config's data: block names, as a run of it reads it (through its cache)."""
        ctx = _ctx()
        out = C.c_void_p()
        _check(lib.evolve_dataset_from_config(ctx, _b(os.fspath(path)), C.byref(out)), ctx)
        return cls(out.value)

    def close(self):
        for e in self._evaluators.values():
            e.close()
        self._evaluators = {}
        super().close()

    def _trades_struct(self):
        ctx, t = _ctx(), _ffi.Trades()
        _check(lib.evolve_dataset_trades(ctx, self.p, C.byref(t)), ctx)
        return t

    @property
    def n_trades(self):
        return int(self._trades_struct().n_trades)

    @property
    def content_hash(self):
        return int(self._trades_struct().content_hash)

    @property
    def trades(self):
        """The kept trades in dataset order, one row each (a copy: it outlives the dataset)."""
        t = self._trades_struct()
        n = t.n_trades

        def arr(ptr):
            return np.ctypeslib.as_array(ptr, shape=(n,)).copy() if n else np.empty(0)
        tickers = [t.tickers[i].decode() for i in range(t.n_tickers)]
        cols = {"ticker": pd.Categorical.from_codes(arr(t.ticker), categories=tickers) if n else [],
                "trade_id": arr(t.trade_id),
                "entry_time": pd.to_datetime(arr(t.entry_ts), unit="s"),
                "exit_time": pd.to_datetime(arr(t.exit_ts), unit="s"),
                "entry_price": arr(t.entry_price),
                "pct_change": arr(t.pct_change)}
        if n and t.n_features:
            feats = np.ctypeslib.as_array(t.features, shape=(t.n_features, n))
            for f in range(t.n_features):
                cols[t.feature_names[f].decode()] = feats[f].copy()
        return pd.DataFrame(cols)

    def evaluator(self, lattice, objective=None, backend="auto"):
        """The prepared evaluator for (lattice, objective, backend), built once and kept."""
        key = (id(lattice), json.dumps(objective, sort_keys=True, default=str), backend)
        ev = self._evaluators.get(key)
        if ev is not None and not ev.closed and not lattice.closed:
            return ev
        lat = lattice.with_objective(objective) if objective is not None else lattice
        ctx, out = _ctx(), C.c_void_p()
        try:
            _check(lib.evolve_evaluator_open(ctx, self.p, lat.p, _b(backend), C.byref(out)), ctx)
        finally:
            if lat is not lattice:
                lat.close()
        ev = self._evaluators[key] = _Evaluator(out.value)
        ev.lattice_ref = lattice
        return ev

    def evaluate(self, lattice, genes, objective=None, backend="auto", raw=False):
        """Fitness of each genome: genes is (n, n_params) lattice indices (an F-ordered uint16 array is used
        without a copy) or a DataFrame with the parameters' names as columns. Returns a DataFrame with
        fitness (as a run file shows it), fitness_raw (the ranking fitness), trades and feasible; raw=True
        returns the dict of numpy arrays instead."""
        ev = self.evaluator(lattice, objective, backend)
        if isinstance(genes, pd.DataFrame):
            genes = genes[lattice.names].to_numpy()
        g = np.asarray(genes)
        if g.ndim == 1:
            g = g.reshape(1, -1)
        if g.ndim != 2 or g.shape[1] != lib.evolve_lattice_n_params(lattice.p):
            raise EvolveError(1, f"genes: expected an array of shape (n, {lib.evolve_lattice_n_params(lattice.p)}),"
                                 f" got {g.shape}")
        if g.dtype != np.uint16:
            if g.size and (g.min() < 0 or g.max() > 65535):
                raise EvolveError(1, "genes: lattice indices must lie in 0..65535")
            g = g.astype(np.uint16, order="F")
        soa = g.T if g.T.flags.c_contiguous else np.ascontiguousarray(g.T)
        n = g.shape[0]
        out = {"fitness": np.empty(n), "fitness_raw": np.empty(n), "trades": np.empty(n, dtype=np.int64),
               "feasible": np.empty(n, dtype=np.uint8)}
        ctx = _ctx()
        _check(lib.evolve_evaluate(ctx, ev.p, _ptr(soa), n, _ptr(out["fitness_raw"]), _ptr(out["fitness"]),
                                   _ptr(out["trades"]), _ptr(out["feasible"])), ctx)
        out["feasible"] = out["feasible"].view(np.bool_)
        return out if raw else pd.DataFrame(out, copy=False)

    def __repr__(self):
        return "<evolve.Dataset closed>" if self.closed else f"<evolve.Dataset {self.n_trades} trades>"


# ---------------------------------------------------------------- run files
# The trader statistics (fitness/trade_stats.h) and validation columns a run file may hold (results/README.md).
_STAT_NAMES = ("trades", "wins", "losses", "exits_logged", "exits_target", "exits_stop", "exits_breakeven",
               "exits_trail", "exits_time", "total_return", "win_rate", "profit_factor", "expectancy",
               "max_drawdown", "sharpe", "sortino", "avg_hold_s", "best", "worst")
_COUNT_STATS = ("trades", "wins", "losses", "exits_logged", "exits_target", "exits_stop", "exits_breakeven",
                "exits_trail", "exits_time")
_VALIDATION_COLUMNS = ("in_sample_fitness", "in_sample_trades", "in_sample_feasible", "out_of_sample_fitness",
                       "out_of_sample_trades", "out_of_sample_feasible", "plateau_mean", "plateau_worst",
                       "plateau_neighbours", "plateau_feasible", "deflated_sharpe", "trade_sharpe", "trade_skewness",
                       "trade_kurtosis", "worst_fold", "fold_profitable_share")
_INT_COLUMNS = ("in_sample_trades", "out_of_sample_trades", "plateau_neighbours", "plateau_feasible")
_BOOL_COLUMNS = ("in_sample_feasible", "out_of_sample_feasible")


class RunFile(_Handle):
    """A run file (results/README.md) read through libevolve."""
    _close = "evolve_runfile_close"
    _what = "RunFile"

    def __init__(self, path):
        ctx, out = _ctx(), C.c_void_p()
        _check(lib.evolve_runfile_open(ctx, _b(os.fspath(path)), C.byref(out)), ctx)
        super().__init__(out.value)
        self.path = os.fspath(path)
        lat = C.c_void_p()
        _check(lib.evolve_runfile_lattice(ctx, self.p, C.byref(lat)), ctx)
        with Lattice(lat.value) as la:
            self.params = la.params
        self.names = [q["name"] for q in self.params]

    def attr(self, obj, name):
        ctx, buf = _ctx(), C.create_string_buffer(4096)
        _check(lib.evolve_runfile_attr(ctx, self.p, obj.encode(), name.encode(), buf, len(buf)), ctx)
        return buf.value.decode()

    def has(self, obj):
        return bool(lib.evolve_runfile_has(self.p, obj.encode()))

    @property
    def mode(self):
        return self.attr("/", "mode")

    def ranked(self, group, raw=False):
        """A ranked table ("ga/hall_of_fame", "grid/top"): one row per genome, best first, with each
        parameter's value, its gene (index) in gene_<name>, and fitness, fitness_raw, trades, feasible."""
        ctx, n = _ctx(), C.c_uint32(0)
        nul = [None] * 7
        _check(lib.evolve_runfile_ranked(ctx, self.p, group.encode(), C.byref(n), *nul), ctx)
        m, k = n.value, len(self.names)
        cols = {"rank_key": np.empty(m, np.uint64), "index": np.empty(m, np.uint64), "fitness": np.empty(m),
                "fitness_raw": np.empty(m), "trades": np.empty(m, np.int64), "feasible": np.empty(m, np.uint8)}
        genes = np.empty((k, m), np.uint16)
        _check(lib.evolve_runfile_ranked(ctx, self.p, group.encode(), C.byref(n), _ptr(cols["rank_key"]),
                                         _ptr(cols["index"]), _ptr(cols["fitness"]), _ptr(cols["fitness_raw"]),
                                         _ptr(cols["trades"]), _ptr(cols["feasible"]), _ptr(genes)), ctx)
        cols["feasible"] = cols["feasible"].view(np.bool_)
        if raw:
            cols["genes"] = genes.T
            return cols
        df = {}
        for i, q in enumerate(self.params):
            df[q["name"]] = _shown(q, q["values"][genes[i]])
        for i, q in enumerate(self.params):
            df["gene_" + q["name"]] = genes[i]
        df.update(cols)
        out = pd.DataFrame(df)
        out.index = pd.RangeIndex(1, m + 1, name="rank")
        return out

    def array(self, path):
        """Any numeric dataset of the file ("grid/validation/out_of_sample_fitness", ...) as float64."""
        ctx, n = _ctx(), C.c_uint64(0)
        _check(lib.evolve_runfile_array(ctx, self.p, path.encode(), C.byref(n), None), ctx)
        out = np.empty(n.value)
        _check(lib.evolve_runfile_array(ctx, self.p, path.encode(), C.byref(n), _ptr(out)), ctx)
        return out

    def number(self, obj, name):
        """A numeric attribute ("grid/validation", "pbo") as a float."""
        ctx, out = _ctx(), C.c_double(0)
        _check(lib.evolve_runfile_number(ctx, self.p, obj.encode(), name.encode(), C.byref(out)), ctx)
        return out.value

    def _group_columns(self, path, n, prefix=""):
        """The 1-D columns of n rows in group path (trader statistics), as {prefix + name: array}."""
        out = {}
        for name in _STAT_NAMES:
            if self.has(f"{path}/{name}"):
                a = self.array(f"{path}/{name}")[:n]
                out[prefix + name] = a.astype(np.int64) if name in _COUNT_STATS else a
        return out

    def _validation_columns(self, group, n):
        """GROUP/validation (results/README.md), one column a row: in-sample, out-of-sample (holdout), plateau,
        deflated Sharpe ratio, fold_<i>_fitness/trades/feasible (i from 1), worst fold, and the holdout's trader statistics
        as oos_<statistic>."""
        v, out = f"{group}/validation", {}
        if not self.has(v):
            return out
        for name in _VALIDATION_COLUMNS:
            if self.has(f"{v}/{name}"):
                a = self.array(f"{v}/{name}")
                kind = np.int64 if name in _INT_COLUMNS else bool if name in _BOOL_COLUMNS else None
                out[name] = a.astype(kind) if kind else a
        if self.has(f"{v}/fold_fitness"):
            for part in ("fitness", "trades", "feasible"):
                a = self.array(f"{v}/fold_{part}").reshape(n, -1)
                for f in range(a.shape[1]):
                    col = a[:, f]
                    # numbered from 1, as the terminal, the page and the verdict number them
                    out[f"fold_{f + 1}_{part}"] = col.astype(np.int64) if part == "trades" else \
                        col.astype(bool) if part == "feasible" else col
        out.update(self._group_columns(f"{v}/out_of_sample_trader_stats", n, "oos_"))
        return out

    def _grouping_columns(self, group, table, n):
        """Each row's strategy and basin (results/README.md GROUP/strategies, GROUP/basins): `strategy` (1 = the
        list's first), `strategy_genomes` (its genomes among the candidates), `low_<name>` / `high_<name>` (its
        equal range around its best genome, as values) and, with report.diverse, `basin` (1 = rank 1's) and
        `basin_peak_fitness`; none for files written before them or a strategy config."""
        sp, out = f"{group}/strategies", {}
        if not n or not self.has(f"{table}/strategy"):
            return out
        row = self.array(f"{table}/strategy").astype(np.int64)
        lo = self.array(f"{sp}/range_lo").astype(np.int64).reshape(-1, len(self.params))[row]
        hi = self.array(f"{sp}/range_hi").astype(np.int64).reshape(-1, len(self.params))[row]
        out["strategy"] = row + 1
        out["strategy_genomes"] = self.array(f"{sp}/genomes").astype(np.int64)[row]
        for i, q in enumerate(self.params):
            out["low_" + q["name"]] = _shown(q, q["values"][lo[:, i]])
            out["high_" + q["name"]] = _shown(q, q["values"][hi[:, i]])
        if self.has(f"{group}/basins"):
            b = self.array(f"{table}/basin").astype(np.int64)
            out["basin"] = b + 1
            out["basin_peak_fitness"] = self.array(f"{group}/basins/fitness")[b]
        return out

    def _list(self, group, table):
        """A reported list with its out-of-sample columns (validation runs), holdout statistics, strategies and
        basins."""
        if not self.has(table):
            return None
        df = self.ranked(table)
        for name, col in self._validation_columns(group, len(df)).items():
            df[name] = col
        for name, col in self._grouping_columns(group, table, len(df)).items():
            df[name] = col
        return df

    @property
    def hall_of_fame(self):
        return self._list("ga", "ga/hall_of_fame")

    @property
    def grid_top(self):
        return self._list("grid", "grid/top")

    def baselines(self, group):
        """GROUP/baselines (group "ga" or "grid"): a row per baseline ("log", "loosest", "baseline"), its parameter
        values (NaN where it leaves one out, "off" for an exit's off), fitness, trades, feasible, infeasible (why:
        "zero variance" for sharpe without variance; None when feasible), trader statistics and, with validation,
        the out-of-sample columns; None when the run has none."""
        rows = []
        for name in ("log", "loosest", "baseline"):
            path = f"{group}/baselines/{name}"
            if not self.has(path):
                continue
            row = {"baseline": name}
            for q, v in zip(self.params, self.array(f"{path}/value")):
                row[q["name"]] = "off" if q["role"] in _OFF_ROLES and np.isinf(v) else v
            for col in ("fitness", "fitness_raw", "trades", "feasible"):
                row[col] = self.array(f"{path}/{col}")[0]
            row["trades"], row["feasible"] = int(row["trades"]), bool(row["feasible"])
            # why it is infeasible: sharpe without variance has no value (NaN, SPEC sec. 5)
            row["infeasible"] = (None if row["feasible"] else "zero variance" if np.isnan(row["fitness_raw"])
                                 else "min_trades or max_drawdown_pct")
            row.update({k: v[0] for k, v in self._group_columns(f"{path}/trader_stats", 1).items()})
            row.update({k: v[0] for k, v in self._validation_columns(path, 1).items()})
            rows.append(row)
        return pd.DataFrame(rows).set_index("baseline") if rows else None

    def strings(self, path):
        """A string dataset of the file ("walk_forward/baselines/names") as a list of str."""
        ctx, n, buf = _ctx(), C.c_uint64(0), C.create_string_buffer(256)
        _check(lib.evolve_runfile_string(ctx, self.p, path.encode(), 0, None, 0, C.byref(n)), ctx)
        out = []
        for i in range(n.value):
            _check(lib.evolve_runfile_string(ctx, self.p, path.encode(), i, buf, len(buf), C.byref(n)), ctx)
            out.append(buf.value.decode())
        return out

    def verdict(self):
        """GROUP/verdict (results/README.md): the Verdict of the run's list (the grid's where it has one, else the
        hall of fame's, or a walk-forward's windows); None in files written before it existed."""
        group = next((g for g in ("walk_forward", "grid", "ga") if self.has(f"{g}/verdict")), None)
        if group is None:
            return None
        g = f"{group}/verdict"
        parts = self.strings(f"{g}/parts") if self.has(f"{g}/parts") else []
        cols = {}
        if parts:
            cols["rank1"] = self.array(f"{g}/rank1")
            cols["rank1_trades"] = self.array(f"{g}/rank1_trades").astype(np.int64)
            cols["rank1_feasible"] = self.array(f"{g}/rank1_feasible").astype(bool)
        names = self.strings(f"{g}/baselines") if self.has(f"{g}/baselines") else []
        if names:
            shape = (len(names), len(parts))
            arrs = {c: self.array(f"{g}/{c}").reshape(shape)
                    for c in ("baseline", "baseline_trades", "baseline_feasible", "difference")}
            for j, name in enumerate(names):
                cols[name] = arrs["baseline"][j]
                cols[name + "_trades"] = arrs["baseline_trades"][j].astype(np.int64)
                cols[name + "_feasible"] = arrs["baseline_feasible"][j].astype(bool)
                cols["rank1-" + name] = arrs["difference"][j]
        table = pd.DataFrame(cols, index=pd.Index(parts, name="part"))
        return Verdict(self.attr(g, "headline"), self.attr(g, "dsr_reading"), self.attr(g, "pbo_reading"),
                       {k: self.number(g, k) for k in ("dsr", "dsr_z", "pbo", "trials")}, table)

    @property
    def walk_forward_baselines(self):
        """/walk_forward/baselines: a row per (window, baseline) (index: window from 1, baseline "log", "loosest",
        "baseline"), the window's test days (test_first_day, test_last_day) and the baseline's fitness as
        reported, trades and feasible there; None when the run has none."""
        g = "walk_forward/baselines"
        if not self.has(g):
            return None
        names = self.strings(f"{g}/names")
        cols = {c: self.array(f"{g}/{c}").reshape(-1, len(names)) for c in ("fitness", "trades", "feasible")}
        days = {c: pd.to_datetime(self.array(f"walk_forward/{c}").astype(np.int64), unit="D")
                for c in ("test_first_day", "test_last_day")}
        rows = [{"window": w + 1, "baseline": name, "test_first_day": days["test_first_day"][w],
                 "test_last_day": days["test_last_day"][w], "fitness": cols["fitness"][w, j],
                 "trades": int(cols["trades"][w, j]), "feasible": bool(cols["feasible"][w, j])}
                for w in range(cols["fitness"].shape[0]) for j, name in enumerate(names)]
        return pd.DataFrame(rows).set_index(["window", "baseline"])

    @property
    def n_generations(self):
        return int(lib.evolve_runfile_generations(self.p))

    @property
    def generations(self):
        """ga/stats, one row per generation (None without a GA)."""
        if not self.has("ga"):
            return None
        ctx, g, cols, i = _ctx(), self.n_generations, {}, 0
        while True:
            name = lib.evolve_runfile_stat_name(i)
            if not name:
                break
            v = np.empty(g)
            _check(lib.evolve_runfile_stat(ctx, self.p, name, _ptr(v)), ctx)
            cols[name.decode()] = v
            i += 1
        df = pd.DataFrame(cols)
        for c in ("generation", "feasible", "unique", "new_evaluations", "evaluations", "lookups"):
            df[c] = df[c].astype(np.int64)
        return df.set_index("generation")

    def population(self, gen):
        """Generation gen's individuals: genes (gene_<name>), fitness, fitness_raw, trades, feasible."""
        ctx, P = _ctx(), C.c_uint32(0)
        _check(lib.evolve_runfile_population(ctx, self.p, gen, C.byref(P), *([None] * 5)), ctx)
        n, k = P.value, len(self.names)
        genes = np.empty((k, n), np.uint16)
        fit, raw, tr, fe = np.empty(n), np.empty(n), np.empty(n, np.int64), np.empty(n, np.uint8)
        _check(lib.evolve_runfile_population(ctx, self.p, gen, C.byref(P), _ptr(genes), _ptr(fit), _ptr(raw),
                                             _ptr(tr), _ptr(fe)), ctx)
        df = {"gene_" + name: genes[i] for i, name in enumerate(self.names)}
        df.update(fitness=fit, fitness_raw=raw, trades=tr, feasible=fe.view(np.bool_))
        return pd.DataFrame(df)


    def trader_stats(self, list_, holdout=False):
        """The trader statistics of list "grid" (grid/top) or "ga" (ga/hall_of_fame), a row per rank
        (docs/config.md "Trader statistics"; the exits_breakeven/_trail/_time columns where the lattice has
        SPEC sec. 4.1's exits); holdout: those on the holdout days. None when the file has none."""
        ctx, n = _ctx(), C.c_uint32(0)
        _check(lib.evolve_runfile_trader_stats(ctx, self.p, _b(list_), int(holdout), C.byref(n), None, None), ctx)
        if not n.value:
            return None
        names = []
        while lib.evolve_trade_stat_name(len(names)):
            names.append(lib.evolve_trade_stat_name(len(names)).decode())
        m = n.value
        shown, out = np.zeros(len(names), np.uint8), np.empty((len(names), m))
        _check(lib.evolve_runfile_trader_stats(ctx, self.p, _b(list_), int(holdout), C.byref(n), _ptr(shown),
                                               _ptr(out)), ctx)
        df = pd.DataFrame({name: out[f] for f, name in enumerate(names) if shown[f]})
        for c in df.columns:
            if c in ("trades", "wins", "losses") or c.startswith("exits_"):
                df[c] = df[c].astype(np.int64)
        df.index = pd.RangeIndex(1, m + 1, name="rank")
        return df


def trades_of(run_file, rank=1, list_=None, dataset=None):
    """The kept trades of a reported genome over the run's whole dataset, as `evolve trades RUN.h5 --csv`
    lists them (equity-curve order): ticker, trade_id, entry_time, entry_price, exit_time, exit_reason
    (target, stop, breakeven, trail, time or logged), outcome_pct (after costs, as the fitness sums it),
    cumulative_pct and part (in_sample or holdout). list_: "grid", "ga" or None (the grid's where the run
    has one); dataset: the run's dataset at another path."""
    ctx, h = _ctx(), C.c_void_p()
    _check(lib.evolve_replay_open(ctx, _b(os.fspath(run_file)), _b(list_), int(rank),
                                  _b(os.fspath(dataset)) if dataset else None, C.byref(h)), ctx)
    try:
        t = _ffi.ReplayTrades()
        _check(lib.evolve_replay_trades_get(ctx, h, C.byref(t)), ctx)
        n = t.n

        def arr(ptr):
            return np.ctypeslib.as_array(ptr, shape=(n,)).copy() if n else np.empty(0, np.int64)
        tickers = [t.tickers[i].decode() for i in range(t.n_tickers)]
        reasons = []
        while lib.evolve_exit_reason_name(len(reasons)):
            reasons.append(lib.evolve_exit_reason_name(len(reasons)).decode())
        q = arr(t.q)
        df = pd.DataFrame({
            "ticker": pd.Categorical.from_codes(arr(t.ticker), categories=tickers),
            "trade_id": arr(t.trade_id),
            "entry_time": pd.to_datetime(arr(t.entry_ts), unit="s"),
            "entry_price": arr(t.entry_price) if n else np.empty(0),
            "exit_time": pd.to_datetime(arr(t.exit_ts), unit="s"),
            "exit_reason": pd.Categorical.from_codes(arr(t.reason), categories=reasons),
            "outcome_pct": q / 1e6,
            "cumulative_pct": np.cumsum(q) / 1e6,
            "part": np.where(arr(t.holdout) != 0, "holdout", "in_sample"),
        })
        df.index = pd.RangeIndex(1, n + 1, name="n")
        df.attrs.update(list=t.list.decode(), rank=t.rank)
        return df
    finally:
        lib.evolve_replay_close(h)


class Verdict:
    """Rank 1 against each baseline, in and out of sample (docs/report.md "The verdict"): .headline (the first line
    the terminal and the page show), .table (a row per part: "in sample", "holdout", "fold F" or "window W"; rank
    1's value, trades and feasibility, then each baseline's and rank 1's difference to it, "rank1-log", ...),
    .dsr, .dsr_z, .pbo, .trials (NaN where not computed) and their plain readings .dsr_reading, .pbo_reading."""

    def __init__(self, headline, dsr_reading, pbo_reading, numbers, table):
        self.headline, self.dsr_reading, self.pbo_reading, self.table = headline, dsr_reading, pbo_reading, table
        self.dsr, self.dsr_z, self.pbo, self.trials = (numbers[k] for k in ("dsr", "dsr_z", "pbo", "trials"))

    def __str__(self):
        return "\n".join([self.headline, self.table.to_string(), self.dsr_reading, self.pbo_reading])

    def __repr__(self):
        return f"<evolve.Verdict {self.headline!r}>"


def load_run(path):
    """A run file's tables: .generations, .hall_of_fame, .grid_top (DataFrames), .population(gen)."""
    return Result(path, None)


# ---------------------------------------------------------------- searches
class Result:
    """A finished run: .top (the grid's top-K or the GA's hall of fame, with the out-of-sample columns of a
    validation run), .stats (their trader statistics), .baselines (what .top is compared with), .pbo,
    .verdict (rank 1 against each baseline in and out of sample, evolve.Verdict), .walk_forward_baselines (a walk-forward's baselines on each test window), .generations, .run_file, .info;
    .trades(rank) lists a reported genome's trades."""

    def __init__(self, run_file, info):
        self.run_file = os.fspath(run_file)
        self.info = info or {}
        with RunFile(self.run_file) as rf:
            self.mode = rf.mode
            self.params = rf.params
            self.hall_of_fame = rf.hall_of_fame
            self.grid_top = rf.grid_top
            group = "grid" if self.mode == "grid" else "ga"
            self.baselines = rf.baselines(group)
            self.walk_forward_baselines = rf.walk_forward_baselines
            self.verdict = rf.verdict()
            self.pbo = rf.number(f"{group}/validation", "pbo") if rf.has(f"{group}/validation") else None
            self.generations = rf.generations
            self.stop_reason = rf.attr("ga", "stop_reason") if rf.has("ga") else ""
            lists = ("grid", "ga") if self.mode == "validate" else ("grid" if self.mode == "grid" else "ga",)
            self._stats = {(li, h): rf.trader_stats(li, h) for li in lists for h in (False, True)}

    @property
    def stats(self):
        """The trader statistics of .top, a row per rank (None when the file has none)."""
        return self._stats.get((self._top_list, False))

    @property
    def out_of_sample_stats(self):
        """.top's trader statistics on the holdout days (None without a validation holdout)."""
        return self._stats.get((self._top_list, True))

    @property
    def _top_list(self):
        return "grid" if self.mode == "grid" else "ga"

    def trades(self, rank=1, dataset=None):
        """The kept trades of .top's genome of that rank (evolve.trades_of)."""
        return trades_of(self.run_file, rank, self._top_list, dataset)

    @property
    def top(self):
        return self.grid_top if self.mode == "grid" else self.hall_of_fame

    def population(self, gen):
        with RunFile(self.run_file) as rf:
            return rf.population(gen)

    def plot_convergence(self, ax=None):
        """Best, median and hall-of-fame best per generation (matplotlib: pip install evolve[plot])."""
        import matplotlib.pyplot as plt
        if self.generations is None:
            raise EvolveError(1, f"{self.run_file}: a {self.mode} run has no generations to plot")
        ax = ax or plt.figure().gca()
        g = self.generations
        ax.plot(g.index, g["best_display"], label="best")
        ax.plot(g.index, g["median_display"], label="median")
        ax.plot(g.index, g["hof_best"], label="hall of fame")
        ax.set_xlabel("generation")
        ax.set_ylabel("fitness")
        ax.legend()
        return ax

    def plot_heatmap(self, x, y, ax=None):
        """The best fitness over the values of parameters x and y, among the genomes this run recorded
        (the GA's every individual, or the grid's top-K)."""
        import matplotlib.pyplot as plt
        names = [q["name"] for q in self.params]
        values = {q["name"]: q["values"] for q in self.params}
        qs = {q["name"]: q for q in self.params}
        for p in (x, y):
            if p not in names:
                raise EvolveError(1, f"plot_heatmap: no parameter '{p}' (the run has: {', '.join(names)})")
        if self.generations is not None:
            frames = [self.population(g) for g in range(len(self.generations))]
            rows = pd.concat(frames, ignore_index=True)
        else:
            rows = self.top
        rows = rows[rows["feasible"]]
        grid = np.full((len(values[y]), len(values[x])), np.nan)
        best = rows.groupby(["gene_" + y, "gene_" + x])["fitness"].max()
        for (gy, gx), v in best.items():
            grid[gy, gx] = v
        ax = ax or plt.figure().gca()
        im = ax.imshow(grid, origin="lower", aspect="auto")
        ax.set_xticks(range(len(values[x])), [_value_text(qs[x], v) for v in values[x]], rotation=90)
        ax.set_yticks(range(len(values[y])), [_value_text(qs[y], v) for v in values[y]])
        ax.set_xlabel(x)
        ax.set_ylabel(y)
        ax.figure.colorbar(im, ax=ax, label="best fitness")
        return ax

    def __repr__(self):
        return f"<evolve.Result {self.mode} {self.run_file}>"


def run(config, on_generation=None, mode="ga", backend="auto", output=None, seed=None, top=None, verbose=False,
        on_message=None):
    """Runs a config as `evolve CONFIG` does (mode "ga", "grid" or "validate"): the same run file, bit for bit.
    output: the run file; by default the config's output with the mode added as the command adds it
    (<stem>.grid.h5, <stem>.validate.h5), and <stem>.py.h5 for a GA given on_generation (which may stop
    it early), so no call replaces the command's complete run (results/README.md).
    on_generation(stats: dict) is called after each GA generation; a true answer stops the run there
    (stop reason "stopped by caller"); an exception in it stops the run and is raised here.
    on_message(kind, text) gets each line of progress or note ("note") and each warning ("warning", perhaps
    several lines) the command prints on stderr, without the last newline, verbose or not; an exception in it
    is raised after the run."""
    if on_generation is not None and mode != "ga":
        raise EvolveError(1, f"on_generation: only a GA run calls it (mode 'ga', not '{mode}')")
    ctx = _ctx()
    opts = _ffi.RunOpts()
    opts.mode, opts.backend, opts.output = _b(mode), _b(backend), _b(os.fspath(output) if output else None)
    if seed is not None:
        opts.seed, opts.seed_given = int(seed), 1
    opts.top = int(top or 0)
    opts.verbose = 1 if verbose else 0
    raised = []

    def cb(_user, g):
        s = g.contents
        stats = {name: getattr(s, name) for name, _ in _ffi.Generation._fields_}
        try:
            return 1 if on_generation(stats) else 0
        except BaseException as e:  # noqa: B902 - re-raised after the run
            raised.append(e)
            return 1
    def message(_user, kind, line):
        try:
            on_message(_ffi.MESSAGE_KINDS[kind], line.decode(errors="replace").rstrip("\n"))
        except BaseException as e:  # noqa: B902 - re-raised after the run
            raised.append(e)
    cfun = _ffi.GENERATION_CB(cb) if on_generation else _ffi.GENERATION_CB()
    opts.on_generation = cfun
    mfun = _ffi.MESSAGE_CB(message) if on_message else _ffi.MESSAGE_CB()
    opts.on_message = mfun
    info = _ffi.RunInfo()
    rc = lib.evolve_run(ctx, _b(os.fspath(config)), C.byref(opts), C.byref(info))
    if raised:
        raise raised[0]
    _check(rc, ctx)
    d = {"stop_reason": info.stop_reason.decode(), "generations": info.generations,
         "evaluations": info.evaluations, "seconds": info.seconds}
    return Result(info.run_file.decode(), d)


def grid(config, **kw):
    """Every lattice point of a config, as `evolve CONFIG --grid`: Result.top is the exact top-K."""
    return run(config, mode="grid", **kw)
