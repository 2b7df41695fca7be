#!/usr/bin/env python3
"""The run file's ranked tables (/ga/hall_of_fame, /grid/top) hold the
rows evolve reports: for a compound objective, a GA run and a grid run
must have, row by row, the genome, index, trades and `fitness` (the
reported percent, results/README.md) of the top-K table printed on stdout
and of the --json summary; `fitness_raw` is the log sum that ranks.

Why: with total_return the displayed and the raw fitness are the same
number, so a table written with the raw value passes every other test;
only an objective whose two values differ (compound) tells them apart.

Needs h5py and numpy (else skipped with 77)."""
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

check = cli.Checker()


def printed_rows(stdout, names):
    """The top-K table on stdout: [(rank, values, fitness text, trades)]."""
    lines = stdout.splitlines()
    head = [i for i, ln in enumerate(lines) if ln.split()[:1] == ["rank"]]
    if not check(len(head) == 1, f"one top-K table header expected on stdout: {stdout[:400]}"):
        return []
    check(lines[head[0]].split() == ["rank"] + names + ["compound", "trades"],
          f"table header: {lines[head[0]]}")
    rows = []
    for ln in lines[head[0] + 1:]:
        cols = ln.split()
        if len(cols) != len(names) + 3:
            break
        rows.append((int(cols[0]), [float(x) for x in cols[1:-2]], cols[-2], int(cols[-1])))
    return rows


def check_ranked(path, group, stdout, json_path, what):
    import h5py
    with open(json_path) as f:
        top = json.load(f)["top"]
    with h5py.File(path, "r") as f:
        names = list(f["lattice/name"].asstr())
        off, vals = f["lattice/value_offset"][:], f["lattice/values"][:]
        t = f[group]
        fitness, raw = t["fitness"][:], t["fitness_raw"][:]
        genes, index, trades = t["genes"][:], t["index"][:], t["trades"][:]
    rows = printed_rows(stdout, names)
    n = len(fitness)
    check(n == 10 and len(top) == n and len(rows) == n,
          f"{what}: {n} rows in {group}, {len(top)} in the JSON, {len(rows)} printed")
    for i in range(min(n, len(top), len(rows))):
        values = [float(vals[off[k] + genes[i][k]]) for k in range(len(names))]
        j = top[i]
        check(j["rank"] == i + 1 and rows[i][0] == i + 1, f"{what} row {i}: rank")
        check(fitness[i] == j["fitness"], f"{what} row {i}: {group}/fitness {fitness[i]!r} != JSON {j['fitness']!r}")
        check(f"{fitness[i]:.6f}" == rows[i][2], f"{what} row {i}: {group}/fitness {fitness[i]!r} printed {rows[i][2]}")
        check(int(index[i]) == j["index"], f"{what} row {i}: index {index[i]} != JSON {j['index']}")
        check(int(trades[i]) == j["trades"] == rows[i][3], f"{what} row {i}: trades")
        check([j["values"][nm] for nm in names] == values and rows[i][1] == values,
              f"{what} row {i}: genes {values} vs JSON {j['values']} vs printed {rows[i][1]}")
        # the raw column is the log sum the displayed percent comes from
        check(math.isclose(math.expm1(raw[i] * 1e-12) * 100, fitness[i], rel_tol=1e-9, abs_tol=1e-9),
              f"{what} row {i}: fitness {fitness[i]!r} is not the display of fitness_raw {raw[i]!r}")
    check(any(fitness[i] != raw[i] for i in range(n)), f"{what}: the compound's raw and displayed values coincide")


def main():
    a = cli.parse_args()
    if not cli.have_modules("h5py", "numpy"):
        print("skipped: h5py / numpy are not available")
        return 77
    with cli.scratch_dir("evolve_ranked_") as root:
        out = os.path.join(root, "ga.h5")
        _, cfg = cli.data_and_config(a.evolve, root, out, population=64, generations=8, objective="compound")
        ga_json = os.path.join(root, "ga.json")
        r = cli.run(a.evolve, [cfg, "--json", ga_json])
        if check(r.returncode == 0, f"GA run: {r.stderr}"):
            check_ranked(out, "ga/hall_of_fame", r.stdout, ga_json, "GA")
        grid, grid_json = os.path.join(root, "grid.h5"), os.path.join(root, "grid.json")
        r = cli.run(a.evolve, [cfg, "--grid", "--output", grid, "--json", grid_json])
        if check(r.returncode == 0, f"grid run: {r.stderr}"):
            check_ranked(grid, "grid/top", r.stdout, grid_json, "grid")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
