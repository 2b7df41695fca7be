#!/usr/bin/env python3
"""The run file's ranked tables (/ga/hall_of_fame, /grid/top) hold the
rows evolve reports: for a compound objective, a GA run and a grid run
must have, row by row, the genome, index, trades and `fitness` (the
reported percent, results/README.md) of the --json summary, and each
strategy's row of the table printed on stdout (its best genome) those of
GROUP/strategies and of its genome's row; `fitness_raw` is the log sum
that ranks.

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
    """The table of strategies on stdout: [(rank, values, fitness text, trades)], a row per strategy."""
    tables = cli.list_tables(stdout)
    if not check(len(tables) == 1, f"one table expected on stdout: {stdout[:400]}"):
        return []
    head = tables[0]["head"]
    check(head == ["strategy", "rank"] + names + ["compound", "trades", "genomes"] + (["basin"] if "basin" in head
                                                                                       else []),
          f"table header: {head}")
    at = head.index("compound")
    return [(int(c[1]), [float(x) for x in c[2:at]], c[at], int(c[at + 1])) for c in tables[0]["rows"]]


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
        s = f[group.split("/")[0] + "/strategies"]
        strat = [(int(s["rank"][i]), [float(vals[off[k] + s["genes"][i][k]]) for k in range(len(names))],
                  f"{s['fitness'][i]:.6f}", int(s["trades"][i])) for i in range(len(s["rank"]))]
    rows = printed_rows(stdout, names)
    n = len(fitness)
    check(n == 10 and len(top) == n, f"{what}: {n} rows in {group}, {len(top)} in the JSON")
    # the terminal: a row per strategy, its best genome's rank, values, percent and trades as the run file has them
    check(rows == strat and rows, f"{what}: printed strategies {rows[:3]}..., the run file's {strat[:3]}...")
    for i in range(min(n, len(top))):
        values = [float(vals[off[k] + genes[i][k]]) for k in range(len(names))]
        j = top[i]
        check(j["rank"] == i + 1, f"{what} row {i}: rank")
        check(fitness[i] == j["fitness"], f"{what} row {i}: {group}/fitness {fitness[i]!r} != JSON {j['fitness']!r}")
        check(int(index[i]) == j["index"], f"{what} row {i}: index {index[i]} != JSON {j['index']}")
        check(int(trades[i]) == j["trades"], f"{what} row {i}: trades")
        check([j["values"][nm] for nm in names] == values, f"{what} row {i}: genes {values} vs JSON {j['values']}")
        if i + 1 in [r[0] for r in rows]:  # a strategy's best genome: its row is this one
            row = next(r for r in rows if r[0] == i + 1)
            check(row[1:] == (values, f"{fitness[i]:.6f}", int(trades[i])),
                  f"{what} row {i}: printed {row}, {group} {values} {fitness[i]!r} {trades[i]}")
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
