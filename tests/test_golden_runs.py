"""The sample-data runs give the same bits as the recorded ones.

A refactor of the engine or the application must not change a single result:
this test runs evolve on gen-data's sample data in every mode (--grid, the GA,
--validate, and a GA run killed mid-way then --resume'd), with an additive
objective (dominance sums), a compound one with a binding drawdown limit and a
sharpe one (tables),
on the CPU backend, and compares against tests/golden_runs.json:
  - the run file, object by object: a SHA-256 of every dataset's and
    attribute's value (wall-clock fields and the machine's provenance aside);
  - the --json summary (timings and the device aside);
  - the printed top-K table.
The recorded file was made by the build of 7f25f33 and equals, run for run,
that of ae029ec, the last commit before ga/ was split into rooms (issue 24
added the JSON's "lattice_edges"; issue 25 appended to the grid runs'
"strategies" and tables the strategies below the top list, so that they
list the K best, and the GA runs' JSON "basins" and "basin_ranks"; then
the GA and --validate runs' strategies below the top list too (the hall of
fame keeps 8K candidates), every strategy's "genomes" and "basin", the GA
tables' basins, the run files' GROUP/strategies, GROUP/basins and the lists'
strategy and basin columns, and "(rank: in the whole ranking)" reworded to
"(rank: among every genome evaluated)"; then the GA default restart_stall
20 (issue 25) changed the GA, resume and validate runs' GA results, and
added their "searches" / "searches_in_best" and ga@searches_best; then
local_search.random 8 changed them again: the grid runs are unchanged;
then SPEC sec. 5's zero-variance sharpe became infeasible (NaN): the sharpe
GA runs' per-individual ga/fitness and ga/fitness_raw changed, their lists
did not; and the JSON's infeasible rows name why, "infeasible"; then issue 32 added the verdict, and nothing else: the JSON's "verdict", the
run files' GROUP/verdict and the verdict's lines under each printed table; then the DSR and
PBO readings say why one is not computed: "no validation: block in the config"; then the
printed tables became the verdict first and one table of strategies, in place of the genomes',
the strategies' and the basins' tables, and "table" holds every printed line; then
local_search.kicks 4 (the last 4 of the 8 random climbs kick the hall of fame's best)
changed the GA, resume and validate runs again: the grid runs are unchanged; then pair passes
that go on from the climb's last pair move changed the GA runs' ls_evaluations alone, and so
did skipping the sweeps of settled genes and the random starts' real climbs at depth 1; then
the --json numbers were written exactly, as the text that reads back as the run file's double (306
of its 3,750 numbers moved by one ulp; nothing else changed), which each run now checks against the
run file);
`--record`
rewrites it, which is only right when a change of
results is intended and explained in the commit.
"""

import hashlib
import math
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402
import runfile  # noqa: E402

check = cli.Checker()
GOLDEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden_runs.json")

# Provenance that describes the machine, the build or the scratch paths, not
# the result; everything else in the run file must be identical.
PROVENANCE_KEPT = {"seed", "seed_random", "top", "backend", "content_hash", "trades_kept"}
JSON_DROPPED = {"device", "config", "dataset", "seconds", "timings", "seconds_total", "seconds_load", "wall_s",
                "output", "run_file"}

# case: (objective, min_trades, max_drawdown_pct or None)
OBJECTIVES = {
    "additive": ("total_return", 10, None),
    "compound": ("compound", 5, 0.6),
    "sharpe": ("sharpe", 40, None),
}


def _digest(value):
    import numpy as np
    h = hashlib.sha256()
    if isinstance(value, np.ndarray):
        h.update(str((value.dtype.str, value.shape)).encode())
        if value.dtype.kind == "O" or value.dtype.names:
            h.update(repr(value.tolist()).encode())
        else:
            h.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, (bytes, np.bytes_)):
        h.update(b"b" + bytes(value))
    elif isinstance(value, np.generic):
        h.update(str(value.dtype.str).encode() + value.tobytes())
    else:
        h.update(repr(value).encode())
    return h.hexdigest()[:32]


def run_file_digest(path):
    """{object or object@attribute: digest} for every result-bearing value."""
    import h5py
    out = {}
    with h5py.File(path, "r") as f:
        names = ["/"]
        f.visit(lambda n: names.append(n))
        for name in names:
            obj = f[name]
            in_provenance = name.startswith("provenance")
            for k, v in obj.attrs.items():
                if k in runfile.WALL_CLOCK or (in_provenance and k not in PROVENANCE_KEPT):
                    continue
                out[f"{name}@{k}"] = _digest(v)
            if isinstance(obj, h5py.Dataset) and not in_provenance:
                if name.rsplit("/", 1)[-1] not in runfile.WALL_CLOCK:
                    out[name] = _digest(obj[()])
    return out


def json_kept(path):
    with open(path) as f:
        doc = json.load(f)

    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in JSON_DROPPED}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x

    return strip(doc)


def printed_table(stdout):
    """What a quiet run prints: the verdict, then the table of strategies and the baselines (the validate runs:
    the grid's and the GA's, then the figures)."""
    return stdout.splitlines()


def run_case(evolve, root, data, objective, mode):
    d = os.path.join(root, f"{objective}-{mode}")
    os.makedirs(d)
    out, js, cfg = os.path.join(d, "run.h5"), os.path.join(d, "run.json"), os.path.join(d, "run.yaml")
    name, min_trades, max_dd = OBJECTIVES[objective]
    cli.write_config(cfg, data, out, population=96, generations=25, objective=name, min_trades=min_trades)
    if max_dd is not None:
        with open(cfg) as f:
            text = f.read()
        with open(cfg, "w") as f:
            f.write(text.replace("  min_trades:", f"  max_drawdown_pct: {max_dd}\n  min_trades:"))
    base = [cfg, "--backend", "cpu", "--json", js]
    if mode == "resume":
        r = cli.run(evolve, [cfg, "--backend", "cpu", "--quiet"], env={"EVOLVE_TEST_KILL": "written:10"}, timeout=300)
        check(r.returncode < 0, f"{objective}-resume: the planted kill did not kill the run ({r.returncode})")
        args = [cfg, "--resume", out, "--backend", "cpu", "--json", js]
    else:
        args = base + {"grid": ["--grid"], "ga": [], "validate": ["--validate"]}[mode]
    r = cli.run(evolve, args + ["--quiet"], timeout=300)
    if not check(r.returncode == 0, f"{objective}-{mode}: exit {r.returncode}: {r.stderr}"):
        return None
    run = cli.mode_file(out, args)  # a grid's or validate's own run file
    check_json_exact(run, js, f"{objective}-{mode}")
    return {"run_file": run_file_digest(run), "json": json_kept(js), "table": printed_table(r.stdout)}


def check_json_exact(run, js, what):
    """The --json summary's fitness values are the run file's doubles, bit for bit (not one ulp off)."""
    import h5py
    with open(js) as f:
        doc = json.load(f)
    with h5py.File(run, "r") as h:
        top = "grid/top/fitness" if "grid/top/fitness" in h else "ga/hall_of_fame/fitness"
        strategies = top.split("/")[0] + "/strategies/fitness"
        for key, path in (("top", top), ("strategies", strategies)):
            got = [float(e["fitness"]) for e in doc.get(key, [])]
            want = [float(v) for v in h[path][()][:len(got)]]
            same = len(got) == len(want) and all(g == w or (math.isnan(g) and math.isnan(w)) for g, w in zip(got, want))
            check(got and same, f"{what}: the JSON's {key} fitness {got[:4]} is not the run file's {path} {want[:4]}")


def diff(expected, got, what):
    if expected == got:
        return
    if isinstance(expected, dict) and isinstance(got, dict):
        for k in sorted(set(expected) | set(got)):
            if k not in got:
                check(False, f"{what}: {k} is missing")
            elif k not in expected:
                check(False, f"{what}: {k} is new")
            else:
                diff(expected[k], got[k], f"{what} {k}")
    else:
        check(False, f"{what}: expected {json.dumps(expected)[:300]}, got {json.dumps(got)[:300]}")


def main():
    a = cli.parse_args(["--record"])
    if not cli.have_modules("h5py", "numpy"):
        print("skipped: h5py / numpy are not available to read run files")
        return 77
    results = {}
    with cli.scratch_dir("evolve_golden_") as root:
        data = os.path.join(root, "data")
        r = cli.gen_data(a.evolve, data, ["--days", "3", "--seed", "1"])
        if not check(r.returncode == 0, f"gen-data: {r.stderr}"):
            return check.exit()
        for objective in OBJECTIVES:
            for mode in ("grid", "ga", "validate", "resume"):
                results[f"{objective}-{mode}"] = run_case(a.evolve, root, data, objective, mode)
    for objective in OBJECTIVES:
        ga, resumed = results[f"{objective}-ga"], results[f"{objective}-resume"]
        if ga and resumed:
            diff(ga["run_file"], resumed["run_file"], f"{objective}: the resumed run file against the uninterrupted")
    if a.record:
        with open(GOLDEN, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"recorded {GOLDEN}")
        return check.exit()
    with open(GOLDEN) as f:
        expected = json.load(f)
    diff(expected, results, "golden")
    print(f"{len(results)} runs compared with {os.path.basename(GOLDEN)}")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
