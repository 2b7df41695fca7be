"""The Python package against the evolve command line, bit for bit.

Each search runs twice, once as `evolve CONFIG ...` and once through
evolve.run / evolve.grid, into two run files that must hold the same values
(tests/support/runfile.compare: every dataset and attribute, wall-clock fields
and the paths of provenance aside), and whose top-K DataFrames equal the
command's tables. A 1,000,000-genome evaluate from Python (100,000 in the
sanitizer build: conftest.SMALL) equals what the command computed for the same
genomes (a GA run of one generation of that many individuals, every
individual's fitness archived). A validation
run's Result.top, .baselines and .pbo equal the command's --json."""
import os
import re
import threading

import numpy as np
import pytest

import evolve
from conftest import SMALL, cli, write_config

MILLION = 100_000 if SMALL else 1_000_000  # the big evaluate's genomes



def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def compare_files(a, b):
    import h5py  # noqa: F401 (the comparison reads the files with h5py, independently of libevolve)
    import runfile
    diffs = runfile.compare(a, b)  # everything but the wall-clock fields
    assert not diffs, "\n".join(diffs[:20])


def compare_tables(t_cli, t_py):
    assert list(t_cli.columns) == list(t_py.columns)
    assert len(t_cli) > 0 and len(t_cli) == len(t_py)
    for c in t_cli.columns:
        assert same_bits(t_cli[c].to_numpy(), t_py[c].to_numpy()), c


CASES = {
    "sample": ("sample", "soxl.yaml"),
    "sample-sharpe": ("sample", "sample-3tickers.yaml"),
    "real": ("real", "real.yaml"),
}


def config_of(request, case):
    where, name = CASES[case]
    root = request.getfixturevalue(where)
    (root / "results").mkdir(exist_ok=True)
    return root, root / "configs" / name


@pytest.mark.parametrize("case", ["sample", "real"])
def test_grid_equals_cli(request, binary, case):
    root, cfg = config_of(request, case)
    a, b = root / f"grid-cli-{case}.h5", root / f"grid-py-{case}.h5"
    cli(binary, cfg, "--grid", "--backend", "cpu", "--quiet", "--output", a)
    res = evolve.grid(cfg, backend="cpu", output=b)
    assert res.run_file == str(b) and res.mode == "grid"
    compare_files(a, b)
    compare_tables(evolve.load_run(a).top, res.top)
    # and the top-K genomes evaluated from Python give the same fitness
    lat = evolve.Lattice.from_yaml(cfg)
    ds = evolve.Dataset.from_config(cfg)
    genes = res.top[["gene_" + n for n in lat.names]].to_numpy()
    got = ds.evaluate(lat, genes, backend="cpu")
    for c in ("fitness_raw", "trades", "feasible"):
        assert same_bits(got[c].to_numpy(), res.top[c].to_numpy()), c


@pytest.mark.parametrize("case", ["sample", "sample-sharpe", "real"])
def test_ga_equals_cli(request, binary, case):
    root, cfg = config_of(request, case)
    a, b = root / f"ga-cli-{case}.h5", root / f"ga-py-{case}.h5"
    cli(binary, cfg, "--backend", "cpu", "--quiet", "--output", a, "--seed", 7)
    res = evolve.run(cfg, backend="cpu", output=b, seed=7)
    compare_files(a, b)
    ref = evolve.load_run(a)
    compare_tables(ref.top, res.top)
    g_cli, g_py = ref.generations, res.generations
    assert list(g_cli.columns) == list(g_py.columns) and len(g_cli) > 1
    for c in g_cli.columns:
        if c != "wall_s":
            assert same_bits(g_cli[c].to_numpy(), g_py[c].to_numpy()), c
    assert res.info["stop_reason"] == ref.stop_reason != ""
    if case == "sample-sharpe":  # its stall limit ends it (conftest.SMALL keeps that so)
        assert ref.stop_reason == "stall"


def million_config(root, cfg):
    text = cfg.read_text()
    text = re.sub(r"population: \d+", f"population: {MILLION}", text)
    text = re.sub(r"(?m)^  generations: \d+", "  generations: 1", text)
    out = root / "configs" / ("million-" + cfg.name)
    out.write_text(text)
    return out


@pytest.mark.parametrize("case", ["sample-sharpe", "real"])
def test_evaluate_million_equals_cli(request, binary, case):
    root, cfg = config_of(request, case)
    cfg = million_config(root, cfg)
    a = root / f"million-{case}.h5"
    cli(binary, cfg, "--backend", "cpu", "--quiet", "--output", a)
    ref = evolve.load_run(a).population(0)
    assert len(ref) == MILLION
    lat = evolve.Lattice.from_yaml(cfg)
    ds = evolve.Dataset.from_config(cfg)
    genes = ref[["gene_" + n for n in lat.names]].to_numpy()
    got = ds.evaluate(lat, genes, backend="cpu")
    assert len(got) == MILLION
    for c in ("fitness", "fitness_raw", "trades", "feasible"):
        assert same_bits(got[c].to_numpy(), ref[c].to_numpy()), c


def test_validate_equals_cli(request, binary):
    root, cfg = config_of(request, "sample")
    a, b = root / "validate-cli.h5", root / "validate-py.h5"
    cli(binary, cfg, "--validate", "--backend", "cpu", "--quiet", "--output", a)
    res = evolve.run(cfg, mode="validate", backend="cpu", output=b)
    compare_files(a, b)
    assert res.mode == "validate" and len(res.grid_top) and len(res.hall_of_fame)


def test_top_out_of_sample_and_baselines_equal_json(sample, binary):
    """Result.top carries every validation column of the JSON's top rows, and Result.baselines its baselines."""
    import json
    text = (sample / "configs" / "soxl.yaml").read_text()
    cfg = write_config(sample / "configs" / "soxl-val.yaml", text + "validation:\n  holdout: {share: 0.3}\n  folds: 2\n"
                       "baseline: {volatility: 0.35, target: 0.45, stop: -0.42}\n")
    run, js = sample / "val-grid.h5", sample / "val-grid.json"
    cli(binary, cfg, "--grid", "--backend", "cpu", "--quiet", "--output", run, "--json", js)
    doc = json.loads(js.read_text())
    res = evolve.load_run(run)
    top = res.top
    assert len(top) == len(doc["top"])
    for i, row in enumerate(doc["top"], start=1):
        t = top.loc[i]
        for part in ("in_sample", "out_of_sample"):
            assert t[part + "_fitness"] == pytest.approx(row[part]["fitness"], rel=1e-12)
            assert t[part + "_trades"] == row[part]["trades"]
            assert t[part + "_feasible"] == row[part].get("feasible", True)
        assert t["plateau_mean"] == pytest.approx(row["plateau"]["mean"], rel=1e-12)
        assert t["deflated_sharpe"] == pytest.approx(row["deflated_sharpe"], rel=1e-12)
        for f, fold in enumerate(row["folds"]):
            assert t[f"fold_{f + 1}_fitness"] == pytest.approx(fold["fitness"], rel=1e-12)
            assert t[f"fold_{f + 1}_trades"] == fold["trades"]
        assert t["oos_total_return"] == pytest.approx(row["out_of_sample_stats"]["total_return"], rel=1e-12)
    assert res.pbo == pytest.approx(doc["validation"]["pbo"], rel=1e-12)
    b = res.baselines
    assert list(b.index) == [x["name"] for x in doc["baselines"]]
    for x in doc["baselines"]:
        assert b.loc[x["name"], "fitness"] == pytest.approx(x["fitness"], rel=1e-12)
        assert b.loc[x["name"], "trades"] == x["trades"]
        assert b.loc[x["name"], "out_of_sample_fitness"] == pytest.approx(x["out_of_sample"]["fitness"], rel=1e-12)
        for name, v in x["values"].items():
            assert b.loc[x["name"], name] == v


@pytest.mark.parametrize("mode", ["ga", "grid"])
def test_top_strategies_and_basins(request, binary, mode):
    """Result.top's strategy columns are the --json "strategies" (ranges, genomes, basin) of each row's strategy."""
    import json
    root, cfg = config_of(request, "sample")
    out, js = root / f"groups-{mode}.h5", root / f"groups-{mode}.json"
    extra = ["--grid"] if mode == "grid" else ["--seed", 7]
    cli(binary, cfg, *extra, "--backend", "cpu", "--quiet", "--output", out, "--json", js)
    top, strategies = evolve.load_run(out).top, json.loads(js.read_text())["strategies"]
    lat = evolve.Lattice.from_yaml(cfg)
    for rank, row in top.iterrows():
        s = strategies[row["strategy"] - 1]
        assert rank in s["ranks"]
        assert row["strategy_genomes"] == s["genomes"] and s["genomes"] >= len(s["ranks"])
        for n in lat.names:
            assert [row["low_" + n], row["high_" + n]] == s["ranges"][n], n
        if mode == "ga":
            assert row["basin"] == s["basin"]
    assert ("basin" in top) == (mode == "ga")
    assert len(strategies) == 10 and len(strategies) > top["strategy"].max()  # the K best, some below the list
