#!/usr/bin/env python3
"""configs/sample-3tickers.yaml (sharpe) on the README's sample data gives a
finite top-10 (SPEC sec. 5: sharpe with zero variance is infeasible, so the
genomes whose kept trades all hit one target level no longer rank first as
inf).

The config is run as shipped (its lattice, objective and constraints) with a
smaller GA budget (population 1024, 30 generations), in a copy of the
repository's layout (configs/, data/sample from `evolve gen-data --days 5`).
Each top-10 row must be feasible with a finite sharpe, and equal to the SPEC
oracle's (tests/spec_oracle.py) evaluation of that one genome: its trades,
their outcomes' variance > 0, and its value. (With zero variance taken as
feasible again, this config's GA ranks such genomes first as inf, and this
test fails: checked by planting that bug once.)
"""
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "support"))
sys.path.insert(0, HERE)
import evolve_cli as cli  # noqa: E402

try:
    import spec_oracle as so
except ImportError as exc:  # pragma: no cover
    print(f"test_sample_3tickers: skipped: {exc} (install python3-numpy)")
    sys.exit(77)

check = cli.Checker()


def shipped_config(source_dir):
    with open(os.path.join(source_dir, "configs", "sample-3tickers.yaml")) as f:
        text = f.read()
    small = text.replace("population: 4096", "population: 1024").replace("generations: 200", "generations: 30")
    assert small != text, "the config's GA block changed: update this test"
    return text, small


def lattice_of(text):
    """The config's parameters: {name: (feature or None, role, [value texts])}."""
    out = []
    for m in re.finditer(r"- \{name: (\w+), (?:feature: ([^,]+)|role: (\w+)), range: \{start: ([-\d.]+), "
                         r"stop: ([-\d.]+), step: ([-\d.]+)\}\}", text):
        name, feature, role, start, stop, step = m.groups()
        out.append((name, feature, role or "filter", so.range_texts(start, stop, step)))
    return out


def one_point(params, genome):
    """The oracle's lattice of one point: each parameter at the genome's value."""
    return [so.param(name, role=role, feature=feature, values=[texts[g]])
            for (name, feature, role, texts), g in zip(params, genome)]


def main():
    a = cli.parse_args()
    with cli.scratch_dir("evolve-sample3-") as root:
        data = os.path.join(root, "data", "sample")
        r = cli.gen_data(a.evolve, data, ["--days", "5"])  # the README's first command
        if not check(r.returncode == 0, f"gen-data: {r.stderr}"):
            return check.exit()
        text, small = shipped_config(a.source_dir)
        os.makedirs(os.path.join(root, "configs"))
        cfg = os.path.join(root, "configs", "sample-3tickers.yaml")
        with open(cfg, "w") as f:
            f.write(small)
        js = os.path.join(root, "top.json")
        r = cli.run(a.evolve, [cfg, "--quiet", "--json", js], timeout=600)
        if not check(r.returncode == 0, f"run: exit {r.returncode}: {r.stderr}"):
            return check.exit()
        with open(js) as f:
            top = json.load(f)["top"]
        check(len(top) == 10, f"{len(top)} rows in the top-10")
        check("inf" not in r.stdout, "the printed top-10 shows inf")
        params = lattice_of(text)
        check(len(params) == 7, f"read {len(params)} parameters of the config")
        names = [p[0] for p in params]
        ds = so.load_dataset(os.path.join(data, "market"), os.path.join(data, "all_trade_logs.csv"),
                             ["SOXL", "IONQ", "MARA"], tuple(sorted({p[1] for p in params if p[1]})))
        obj = so.Objective(name="sharpe", min_trades=20, max_drawdown_pct="10")
        for rank, e in enumerate(top, 1):
            f = e["fitness"]
            if not check(isinstance(f, float) and math.isfinite(f), f"rank {rank}: sharpe {f!r}"):
                continue
            genome = [next(i for i, t in enumerate(p[3]) if float(t) == e["values"][p[0]]) for p in params]
            orc = so.Oracle(ds, one_point(params, genome), obj)
            check(bool(orc.feasible[0]) and orc._spread(0) > 0 and int(orc.n[0]) == e["trades"],
                  f"rank {rank}: the oracle says feasible {bool(orc.feasible[0])}, spread {orc._spread(0)}, "
                  f"trades {int(orc.n[0])} (evolve {e['trades']})")
            want = orc.value(0)
            check(want is not None and abs(f - want) <= 1e-12 * abs(want),
                  f"rank {rank}: evolve {f!r}, oracle {want!r}")
        print(f"test_sample_3tickers: top-10 finite, rank 1 sharpe {top[0]['fitness']} on {top[0]['trades']} trades")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
