"""The Python package's behaviour: callbacks, errors, closed handles, the ways
to make datasets and lattices, threads."""
import glob
import os
import re
import threading

import numpy as np
import pytest

import evolve
from conftest import cli


@pytest.fixture(scope="module")
def soxl(sample):
    (sample / "results").mkdir(exist_ok=True)
    return sample / "configs" / "soxl.yaml"


def test_callback_stops_ga(sample, soxl, binary):
    seen = []

    def cb(g):
        seen.append(g["generation"])
        assert g["evaluations"] >= g["new_evaluations"] and 0 <= g["diversity"] <= 1
        return g["generation"] >= 3

    res = evolve.run(soxl, on_generation=cb, backend="cpu", output=sample / "stopped.h5", seed=7)
    assert seen == [0, 1, 2, 3]
    assert res.info["stop_reason"] == res.stop_reason == "stopped by caller"
    assert len(res.generations) == 4 and len(res.top) > 0
    rf = evolve.RunFile(res.run_file)
    assert rf.attr("/", "status") == "complete"
    # the generations it ran are those of the full run, bit for bit
    full = sample / "full.h5"
    cli(binary, soxl, "--backend", "cpu", "--quiet", "--output", full, "--seed", 7)
    ref = evolve.RunFile(full)
    for g in range(4):
        a, b = rf.population(g), ref.population(g)
        assert a.equals(b)


def test_callback_run_names_its_own_file(sample, soxl):
    """docs/config.md `output`: a GA given on_generation (which its caller may stop) writes <output stem>.py.h5,
    never the GA's own <output stem>.h5."""
    res = evolve.run(soxl, on_generation=lambda g: g["generation"] >= 1, backend="cpu", seed=7)
    assert os.path.basename(res.run_file) == "soxl.py.h5"
    assert os.path.dirname(os.path.abspath(res.run_file)) == os.path.abspath(sample / "results")


def test_callback_exception_propagates(sample, soxl):
    class Boom(Exception):
        pass

    def cb(g):
        raise Boom("from the callback")

    with pytest.raises(Boom):
        evolve.run(soxl, on_generation=cb, backend="cpu", output=sample / "boom.h5")


def test_bad_config_raises_cli_message(sample, binary):
    bad = sample / "configs" / "bad.yaml"
    text = (sample / "configs" / "soxl.yaml").read_text().replace("min_trades: 10", "min_trade: 10")
    bad.write_text(text)
    p = cli(binary, bad, "--grid", "--quiet", check=False)
    assert p.returncode == 1
    msg = p.stderr.strip().removeprefix("evolve: error: ")
    assert "bad.yaml" in msg and "min_trade" in msg
    with pytest.raises(evolve.EvolveError) as e:
        evolve.grid(bad)
    assert str(e.value) == msg and e.value.kind == "config"
    # the lattice reader gives the same sentence for the same document
    with pytest.raises(evolve.EvolveError) as e:
        evolve.Lattice.from_yaml(bad)
    assert str(e.value) == msg
    # a missing file names it
    with pytest.raises(evolve.EvolveError, match="nope.yaml"):
        evolve.run(sample / "configs" / "nope.yaml")


def test_use_after_close_raises(sample, soxl):
    ds = evolve.Dataset.from_config(soxl)
    lat = evolve.Lattice.from_yaml(soxl)
    rf = evolve.RunFile(evolve.grid(soxl, backend="cpu", output=sample / "closed.h5").run_file)
    genes = np.zeros((3, len(lat.names)), dtype=np.uint16)
    assert len(ds.evaluate(lat, genes)) == 3
    ds.close()
    ds.close()  # twice is fine
    with pytest.raises(evolve.ClosedError):
        ds.evaluate(lat, genes)
    with pytest.raises(evolve.ClosedError):
        ds.trades
    lat.close()
    with pytest.raises(evolve.ClosedError):
        lat.params
    rf.close()
    with pytest.raises(evolve.ClosedError):
        rf.hall_of_fame
    # an evaluator keeps its dataset alive: closing the dataset handle first is safe
    ds2 = evolve.Dataset.from_config(soxl)
    lat2 = evolve.Lattice.from_yaml(soxl)
    ev = ds2.evaluator(lat2)
    lib = evolve.core.lib
    lib.evolve_dataset_close(ds2._p)  # the C handle only: the evaluator holds a reference
    ds2._p = None
    out = np.empty(1)
    ctx = evolve.core._ctx()
    g = np.zeros(len(lat2.names), dtype=np.uint16)
    assert lib.evolve_evaluate(ctx, ev.p, g.ctypes.data, 1, out.ctypes.data, None, None, None) == 0
    ev.close()


def test_datasets_agree(sample, soxl):
    a = evolve.Dataset.from_config(soxl)
    b = evolve.Dataset.from_csv(sample / "data" / "sample" / "market", sample / "data" / "sample" /
                                "all_trade_logs.csv", tickers=["SOXL"])
    assert a.content_hash == b.content_hash
    # the config's dataset was cached in the shared cache (conftest sets EVOLVE_CACHE_DIR)
    cached = [evolve.Dataset.from_h5(p).content_hash
              for p in glob.glob(os.path.join(os.environ["EVOLVE_CACHE_DIR"], "datasets", "*.h5"))]
    assert a.content_hash in cached
    t = b.trades
    assert len(t) == b.n_trades > 0 and set(t["ticker"]) == {"SOXL"}
    assert "Entry Volatility Percent" in t.columns and t["entry_time"].is_monotonic_increasing
    with pytest.raises(evolve.EvolveError, match="x.csv: no such file"):
        evolve.Dataset.from_csv(sample / "missing-dir", sample / "x.csv")


def test_lattices_agree(sample, soxl):
    ds = evolve.Dataset.from_config(soxl)
    lat = evolve.Lattice.from_yaml(soxl)
    params = lat.params
    as_dict = evolve.Lattice.from_dict({"parameters": [
        {"name": q["name"], **({"feature": q["feature"]} if q["role"] == "filter" else {"role": q["role"]}),
         "values": q["values"]} for q in params], "objective": {"name": "total_return", "min_trades": 10}})
    as_arrays = evolve.Lattice.from_arrays(
        [(q["name"], q["values"], q["feature"] if q["role"] == "filter" else q["role"]) for q in params],
        objective={"name": "total_return", "min_trades": 10})
    rng = np.random.default_rng(3)
    genes = np.stack([rng.integers(0, len(q["values"]), 5000) for q in params], axis=1)
    ref = ds.evaluate(lat, genes)
    for other in (as_dict, as_arrays):
        assert other.size == lat.size and other.names == lat.names
        assert ds.evaluate(other, genes).equals(ref)
    # another objective: the same genomes ranked by sharpe
    sh = ds.evaluate(lat, genes, objective={"name": "sharpe", "min_trades": 10})
    assert not sh["fitness"].equals(ref["fitness"]) and sh["trades"].equals(ref["trades"])
    with pytest.raises(evolve.EvolveError, match="objective"):
        ds.evaluate(lat, genes, objective="no-such-objective")
    # a gene off the lattice is refused, naming it
    bad = genes[:2].copy()
    bad[1, 0] = len(params[0]["values"])
    with pytest.raises(evolve.EvolveError, match=params[0]["name"]):
        ds.evaluate(lat, bad)
    with pytest.raises(evolve.EvolveError, match="parameters"):
        evolve.Lattice.from_dict({"parameters": []})


def test_genes_layouts_and_threads(soxl):
    ds = evolve.Dataset.from_config(soxl)
    lat = evolve.Lattice.from_yaml(soxl)
    rng = np.random.default_rng(5)
    genes = np.stack([rng.integers(0, len(q["values"]), 20000) for q in lat.params], axis=1)
    ref = ds.evaluate(lat, genes)
    assert ds.evaluate(lat, np.asfortranarray(genes.astype(np.uint16))).equals(ref)
    assert ds.evaluate(lat, genes.astype(np.int32)).equals(ref)
    # one context per thread: threads evaluate at once, each with its own evaluator
    results = [None] * 4

    def work(i):
        d = evolve.Dataset.from_config(soxl)
        la = evolve.Lattice.from_yaml(soxl)
        results[i] = d.evaluate(la, genes[i::4], backend="cpu")

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(4):
        assert results[i].reset_index(drop=True).equals(ref.iloc[i::4].reset_index(drop=True))


def test_result_plots(sample, soxl):
    mpl = pytest.importorskip("matplotlib")
    mpl.use("Agg")
    res = evolve.run(soxl, backend="cpu", output=sample / "plots.h5")
    assert res.plot_convergence() is not None
    assert res.plot_heatmap("volatility", "ratio") is not None


def test_version():
    assert evolve.__version__ == evolve.version() and evolve.build_info().startswith("evolve ")
    assert isinstance(evolve.has_cuda(), bool)


def test_runs_in_threads(sample, soxl):
    """Runs and run-file reads from several threads (HDF5, not thread-safe in Debian's build, is entered by one
    thread at a time); a callback may itself read a run file."""
    ref = evolve.grid(soxl, backend="cpu", output=sample / "thread-ref.h5").top
    errors, tops = [], {}

    def work(i):
        try:
            def cb(g):
                evolve.load_run(sample / "thread-ref.h5")  # re-entering HDF5 from the run's own thread
                return g["generation"] >= 2
            if i % 2:
                tops[i] = evolve.grid(soxl, backend="cpu", output=sample / f"thread-{i}.h5").top
            else:
                evolve.run(soxl, backend="cpu", output=sample / f"thread-{i}.h5", on_generation=cb)
                tops[i] = evolve.load_run(sample / f"thread-{i}.h5").generations
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert tops[1].equals(ref) and tops[3].equals(ref)
    assert len(tops[0]) == len(tops[2]) == 3


def test_library_runs_probe_the_device(sample, soxl, monkeypatch):
    """evolve.run proves a device backend as the CLI does: a planted fault in
    the test twin standing in for the GPU (EVOLVE_TEST_DEVICE) stops a
    backend="cuda" run naming the genome, and an exact twin passes the probe
    (the run file's backend_probe). Its session options were once left
    uninitialised, so the probe could be skipped at random."""
    monkeypatch.setenv("EVOLVE_TEST_DEVICE", "fitness")
    with pytest.raises(evolve.EvolveError) as e:
        evolve.run(soxl, backend="cuda", output=sample / "faulty.h5", seed=3)
    assert "GPU probe" in str(e.value) and "genome" in str(e.value)
    assert not (sample / "faulty.h5").exists()
    monkeypatch.setenv("EVOLVE_TEST_DEVICE", "exact")
    res = evolve.run(soxl, backend="cuda", output=sample / "exact.h5", seed=3)
    assert evolve.RunFile(res.run_file).attr("/provenance", "backend_probe").startswith("passed: ")


def test_messages_are_the_commands(sample, soxl, binary, capfd):
    """on_message gets the notes the command prints on stderr (runs/reporter.h), in its order, without
    printing them itself (verbose off)."""
    got = []
    lib_out, cli_out = sample / "msg-lib.h5", sample / "msg-cli.h5"
    evolve.grid(soxl, backend="cpu", output=lib_out, on_message=lambda kind, text: got.append((kind, text)))
    assert "grid: run file" not in capfd.readouterr().err
    p = cli(binary, soxl, "--grid", "--backend", "cpu", "--output", cli_out)

    def mask(line, out):  # timings and the output's name differ
        return re.sub(r"[0-9][0-9.e+-]*", "#", line.replace(str(out), "OUT"))
    printed = iter(mask(line, cli_out) for line in p.stderr.splitlines())
    notes = [mask(text, lib_out) for kind, text in got]
    assert {kind for kind, _ in got} == {"note"}
    assert any(n.startswith("grid: run file OUT") for n in notes) and any(n.startswith("grid: #") for n in notes)
    assert all(any(n == line for line in printed) for n in notes), (notes, p.stderr)


def test_messages_carry_warnings(sample, soxl, monkeypatch):
    """A warning reaches on_message as "warning": backend auto falling back to the CPU when the GPU probe finds
    the device (here the test twin with a planted fault) disagreeing."""
    got = []
    monkeypatch.setenv("EVOLVE_TEST_DEVICE", "fitness")
    evolve.run(soxl, backend="auto", output=sample / "msg-warn.h5", seed=3,
               on_message=lambda kind, text: got.append((kind, text)))
    warnings = [text for kind, text in got if kind == "warning"]
    assert len(warnings) == 1 and "falls back to the CPU backend" in warnings[0], got
    assert any(text.startswith("ga: population") for kind, text in got if kind == "note")
