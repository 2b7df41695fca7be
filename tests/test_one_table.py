#!/usr/bin/env python3
"""The end of a run on the terminal is the verdict, then one table of
strategies (issue 32 item 9; report/top_table.c), and `evolve report` prints
the same table:

- a GA run with a holdout and folds prints exactly one table with the
  lattice's parameters as columns besides the baselines' (no genome table,
  no basins table, no second strategies table), after the verdict;
- its rows are the run file's ga/strategies, row for row: the strategy's
  number, its best genome's rank, each parameter's value of that genome
  (lattice/values of its genes), fitness, trades, genomes and basin; the
  rows whose rank is in the list show that genome's holdout value and
  trades as the JSON's top has them, those below the list "-";
- the premise that makes a genome table tell itself apart: the hall of fame
  holds fewer strategies than genomes (hall_of_fame/strategy);
- the table says where the genomes one by one are (the run file);
- `evolve report RUN` prints the same rows, once.

Needs h5py and numpy (else skipped with 77)."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

check = cli.Checker()
VALIDATION = "validation:\n  holdout: {share: 0.3}\n  folds: 3\n"


def param_tables(stdout, names):
    """The lines headed by a table whose columns include every parameter, in order."""
    return [ln.split() for ln in stdout.splitlines()
            if any(ln.split()[i:i + len(names)] == names for i in range(len(ln.split())))]


def run_file_strategies(path):
    """ga/strategies of the run file, a dict per row, and the hall of fame's strategy column."""
    import h5py
    with h5py.File(path, "r") as f:
        names = list(f["lattice/name"].asstr())
        off, vals = f["lattice/value_offset"][:], f["lattice/values"][:]
        text = list(f["lattice/value_text"].asstr())
        s = f["ga/strategies"]
        rows = [{"rank": int(s["rank"][i]), "fitness": float(s["fitness"][i]), "trades": int(s["trades"][i]),
                 "genomes": int(s["genomes"][i]), "basin": int(s["basin"][i]),
                 "values": [vals[off[k] + s["genes"][i][k]] for k in range(len(names))],
                 "text": [text[off[k] + s["genes"][i][k]] for k in range(len(names))]}
                for i in range(len(s["rank"]))]
        cls = [int(c) for c in f["ga/hall_of_fame/strategy"][:]]
    return names, rows, cls


def check_rows(what, table, names, want, top):
    """table's rows against the run file's strategies (want) and the JSON's top."""
    head, rows = table["head"], table["rows"]
    at = {name: head.index(name) for name in ["rank", "total_return", "trades", "holdout", "genomes", "basin"]}
    hold_trades = at["holdout"] + 1
    check(len(rows) == len(want), f"{what}: {len(rows)} rows, the run file {len(want)} strategies")
    for s, (cells, w) in enumerate(zip(rows, want)):
        where = f"{what} strategy #{s + 1}"
        got_values = [float(cells[head.index(n)]) for n in names]
        check(cells[0] == f"#{s + 1}" and int(cells[at["rank"]]) == w["rank"],
              f"{where}: {cells[0]} rank {cells[at['rank']]}, the run file's rank {w['rank']}")
        check(got_values == [float(v) for v in w["values"]] and [cells[head.index(n)] for n in names] == w["text"],
              f"{where}: values {got_values}, the run file's {w['values']}")
        check(cells[at["total_return"]] == f"{w['fitness']:.6f}" and int(cells[at["trades"]]) == w["trades"],
              f"{where}: {cells[at['total_return']]} over {cells[at['trades']]} trades, the run file's "
              f"{w['fitness']} over {w['trades']}")
        check(int(cells[at["genomes"]]) == w["genomes"] and cells[at["basin"]] == f"#{w['basin'] + 1}",
              f"{where}: genomes {cells[at['genomes']]} basin {cells[at['basin']]}, the run file's {w['genomes']}, "
              f"{w['basin'] + 1}")
        if w["rank"] > len(top):  # below the list: not validated
            check(cells[at["holdout"]] == "-" and cells[hold_trades] == "-", f"{where}: holdout {cells}")
            continue
        oos = top[w["rank"] - 1]["out_of_sample"]
        text = f"{oos['fitness']:.6f}" + ("" if oos.get("feasible", True) else "*")
        check(cells[at["holdout"]] == text and int(cells[hold_trades]) == oos["trades"],
              f"{where}: holdout {cells[at['holdout']]} over {cells[hold_trades]}, the JSON's {text} over "
              f"{oos['trades']}")


def main():
    a = cli.parse_args()
    if not cli.have_modules("h5py", "numpy"):
        print("skipped: h5py / numpy are not available")
        return 77
    E = os.path.abspath(a.evolve)
    with cli.scratch_dir("evolve_one_table_") as root:
        out, js = os.path.join(root, "ga.h5"), os.path.join(root, "ga.json")
        data, cfg = os.path.join(root, "data"), os.path.join(root, "run.yaml")
        cli.make_data(E, data, days=4)
        cli.write_config(cfg, data, out, population=64, generations=8, extra=VALIDATION)
        r = cli.run(E, [cfg, "--quiet", "--json", js])
        if not check(r.returncode == 0, f"GA run: {r.stderr}"):
            return check.exit()
        names, want, cls = run_file_strategies(out)
        with open(js) as f:
            top = json.load(f)["top"]
        check(len(want) == 10 and len(set(cls)) < len(cls),
              f"premise: 10 strategies (got {len(want)}), fewer in the hall of fame than its {len(cls)} genomes "
              f"({len(set(cls))})")
        heads = param_tables(r.stdout, names)
        check([h[:2] for h in heads] == [["strategy", "rank"], ["baseline"] + names[:1]],
              f"one table of strategies (and the baselines') expected, the headers: {heads}")
        check(r.stdout.count("strategies:") == 1 and "basins:" not in r.stdout, f"a second list: {r.stdout}")
        check(0 <= r.stdout.find("verdict: ") < r.stdout.find("strategies:"), "the verdict is not printed first")
        check(f"the top {len(top)} genomes one by one, each strategy's value ranges and the basins' peaks: the run "
              "file" in r.stdout, f"the table does not say where the genomes are: {r.stdout}")
        tables = cli.list_tables(r.stdout)
        if check(len(tables) == 1, f"{len(tables)} list tables"):
            check_rows("run", tables[0], names, want, top)
        rep = cli.run(E, ["report", out, "--out", os.path.join(root, "page")])
        tables = cli.list_tables(rep.stdout)
        if check(rep.returncode == 0 and len(tables) == 1, f"report: {len(tables)} list tables: {rep.stderr}"):
            check_rows("report", tables[0], names, want, top)
            check(len(param_tables(rep.stdout, names)) == 2 and "basins:" not in rep.stdout,
                  f"report: another table of genomes: {rep.stdout}")
        if not check.failures:
            print(f"ok: one table of {len(want)} strategies ({len(set(cls))} in the hall of fame's {len(cls)} genomes), "
                  "the run file's, on the terminal and in evolve report")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
