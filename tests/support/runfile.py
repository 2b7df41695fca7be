"""Run files compared object by object (h5py). Running evolve, sample data
and configs: evolve_cli.py."""

import math

# Measurements and wall-clock fields: they differ between any two runs.
# path_from_run: the dataset seen from where the run file lies, not what it holds
WALL_CLOCK = {"created_utc", "seconds", "wall_s", "sessions", "seconds_load", "seconds_total", "path_from_run"}


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
            # an ignored attribute may also be absent from one file (backend_probe: a CPU run has none)
            if set(oa.attrs) - set(ignore) != set(ob.attrs) - set(ignore):
                diffs.append(f"{name}: attributes differ: {sorted((set(oa.attrs) ^ set(ob.attrs)) - set(ignore))}")
            for k in sorted(set(oa.attrs) & set(ob.attrs)):
                if k not in ignore and not _same(oa.attrs[k], ob.attrs[k]):
                    diffs.append(f"{name} attribute {k}: {oa.attrs[k]!r} != {ob.attrs[k]!r}")
            if isinstance(oa, h5py.Dataset) and base not in ignore:
                if not _same(oa[()], ob[()]):
                    diffs.append(f"{name}: data differ ({oa.shape} vs {ob.shape})")
    return diffs
