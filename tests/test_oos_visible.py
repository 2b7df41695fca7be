#!/usr/bin/env python3
"""The out-of-sample answer is always on the terminal: with a min_trades no
holdout or fold reaches, the grid's and the GA's tables of strategies print each
part's value (the JSON's out_of_sample fitness, the lowest fold fitness)
marked '*' with a footnote, never only 'infeasible' or '-inf'; and the PBO
the JSON holds is printed under the table. Standard library only."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

check = cli.Checker()
VALIDATION = "validation:\n  holdout: {share: 0.3}\n  folds: 3\n"


def table_rows(stdout):
    """The list's table (a row per strategy): header names, rows (cells), all lines."""
    table = cli.list_tables(stdout)[0]
    return table["head"], table["rows"], stdout.splitlines()


def check_mode(evolve, root, cfg, mode, args):
    js = os.path.join(root, mode + ".json")
    r = cli.run(evolve, [cfg, "--quiet", "--json", js, "--output", os.path.join(root, mode + ".h5")] + args)
    if not check(r.returncode == 0, f"{mode}: exit {r.returncode}: {r.stderr}"):
        return
    doc = json.load(open(js))
    names, rows, lines = table_rows(r.stdout)
    hold = names.index("holdout")
    worst = names.index("worst_fold")
    rank = names.index("rank")
    strategies = doc["strategies"]
    check(len(rows) == len(strategies) and rows, f"{mode}: {len(rows)} rows, the JSON {len(strategies)} strategies")
    for cells in rows:
        if int(cells[rank]) > len(doc["top"]):  # a strategy below the list: not validated
            check(cells[hold] == "-" and cells[worst] == "-", f"{mode} rank {cells[rank]}: {cells}")
            continue
        t = doc["top"][int(cells[rank]) - 1]
        oos = t["out_of_sample"]
        check(not oos["feasible"], f"{mode}: the holdout is infeasible with min_trades 60 (the test's premise)")
        check(cells[hold] == f"{oos['fitness']:.6f}*",
              f"{mode} rank {cells[rank]}: holdout shows {cells[hold]}, the JSON {oos['fitness']} (infeasible)")
        low = min(f["fitness"] for f in t["folds"])
        check(cells[worst] == f"{low:.6f}*", f"{mode} rank {cells[rank]}: worst_fold shows {cells[worst]}, want {low}*")
        check("infeasible" not in cells and "-inf" not in cells, f"{mode} rank {cells[rank]}: {cells}")
    check(any(line.startswith("* infeasible on that part") for line in lines), f"{mode}: no footnote for '*'")
    pbo = doc["validation"].get("pbo")
    if isinstance(pbo, float):
        check(any(line.startswith("PBO") and f"{pbo:.4f}" in line for line in lines),
              f"{mode}: the PBO {pbo} is not printed: {r.stdout[-400:]}")
    else:
        check(False, f"{mode}: the JSON has no PBO ({pbo!r}), the test expects one")
    print(f"ok: {mode}: {len(rows)} rows, values marked", flush=True)


def main():
    a = cli.parse_args()
    E = os.path.abspath(a.evolve)
    with cli.scratch_dir("evolve_oos_") as root:
        data = os.path.join(root, "data")
        cli.make_data(E, data, days=4)
        cfg = os.path.join(root, "run.yaml")
        cli.write_config(cfg, data, os.path.join(root, "run.h5"), population=64, generations=5, min_trades=60,
                         extra=VALIDATION)
        check_mode(E, root, cfg, "grid", ["--grid"])
        check_mode(E, root, cfg, "ga", [])
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
