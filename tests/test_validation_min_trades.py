#!/usr/bin/env python3
"""validation.min_trades (issue 24, docs/config.md "validation"): the holdout
and the folds are feasible by their own trade count, apart from the
in-sample objective's min_trades.
- Without the key (today's behaviour): every part is feasible iff its trades
  reach objective.min_trades.
- With validation.min_trades: 5 under objective.min_trades: 60, on a grid
  and a GA: every holdout and fold cell of every reported row (JSON) is
  feasible iff its trades reach 5, the in-sample ones iff theirs reach 40,
  and the search is the same (the same genomes, fitness and trades, in the
  same order) as without the key; the terminal table then shows the
  feasible holdout values unmarked.
- With validation.min_trades: 0 every holdout and fold is feasible (0 is
  a count, not "unset"), the search again the same.
- An infeasible holdout or fold says why by its own rule ("fewer kept trades
  than min_trades"), also above objective.min_trades, and the table's
  footnote names validation.min_trades.
- Refused, naming the key: a negative value, and the key beside
  objective.aggregate (whose fold statistic is the search's fitness).
Standard library only."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

check = cli.Checker()
OBJECTIVE_MIN = 60
PART_MIN = 5


def feasible(cell):
    return cell.get("feasible", True)


def run(E, root, name, args, extra, objective_min=OBJECTIVE_MIN):
    cfg = os.path.join(root, name + ".yaml")
    cli.write_config(cfg, os.path.join(root, "data"), os.path.join(root, name + ".h5"), population=64,
                     generations=4, min_trades=objective_min,
                     extra="validation:\n  holdout: {share: 0.3}\n  folds: 3\n" + extra)
    js = os.path.join(root, name + ".json")
    r = cli.run(E, [cfg, "--quiet", "--json", js] + args)
    check(r.returncode == 0, f"{name}: {r.stderr}")
    return (json.load(open(js)) if r.returncode == 0 else {"top": []}), r.stdout


def parts_feasible_by(doc, name, n):
    """Every holdout and fold cell of doc's rows feasible iff trades >= n;
    every in-sample cell iff trades >= OBJECTIVE_MIN. The count of holdout
    cells that cross between the two rules (the test's premise)."""
    between = 0
    for t in doc["top"]:
        ins, oos = t["in_sample"], t["out_of_sample"]
        for cell in [oos] + t["folds"]:  # why, by the part's own rule (total_return: no other)
            check(feasible(cell) or cell.get("infeasible") == "fewer kept trades than min_trades",
                  f"{name} rank {t['rank']}: {cell} says the wrong reason")
        check(feasible(ins) == (ins["trades"] >= OBJECTIVE_MIN), f"{name} rank {t['rank']}: in-sample {ins}")
        check(feasible(oos) == (oos["trades"] >= n), f"{name} rank {t['rank']}: holdout {oos} by min_trades {n}")
        between += n <= oos["trades"] < OBJECTIVE_MIN
        for k, f in enumerate(t["folds"]):
            check(feasible(f) == (f["trades"] >= n), f"{name} rank {t['rank']}: fold {k} {f} by min_trades {n}")
    return between


def search(doc):
    return [(t["values"], t["fitness"], t["trades"]) for t in doc["top"]]


def main():
    a = cli.parse_args()
    E = os.path.abspath(a.evolve)
    with cli.scratch_dir("evolve_valmin_") as root:
        cli.make_data(E, os.path.join(root, "data"), days=4, trades=200)
        for mode, args in (("grid", ["--grid"]), ("ga", [])):
            plain, _ = run(E, root, mode + "_plain", args, "")
            own, stdout = run(E, root, mode + "_own", args, f"  min_trades: {PART_MIN}\n")
            parts_feasible_by(plain, mode + " without the key", OBJECTIVE_MIN)
            between = parts_feasible_by(own, mode + " with validation.min_trades", PART_MIN)
            check(between > 0, f"{mode}: no holdout holds {PART_MIN} to {OBJECTIVE_MIN - 1} trades (the premise)")
            check(search(own) == search(plain), f"{mode}: the search changed with validation.min_trades")
            # 0 is a count like any other (not "unset"): every holdout and fold feasible
            zero, _ = run(E, root, mode + "_zero", args, "  min_trades: 0\n")
            check(parts_feasible_by(zero, mode + " with validation.min_trades 0", 0) > 0,
                  f"{mode}: no holdout holds fewer than {OBJECTIVE_MIN} trades (the premise)")
            check(search(zero) == search(plain), f"{mode}: the search changed with validation.min_trades 0")
            # above the objective's (1): every holdout and fold is infeasible by this rule alone, and says so
            high, high_out = run(E, root, mode + "_high", args, "  min_trades: 1000000\n", objective_min=1)
            cells = [c for t in high["top"] for c in [t["out_of_sample"]] + t["folds"]]
            check(cells and all(not feasible(c) and c.get("infeasible") == "fewer kept trades than min_trades"
                                for c in cells) and any(c["trades"] >= 1 for c in cells),
                  f"{mode}: validation.min_trades 1000000: the parts say {cells[:4]}")
            check("infeasible on that part (fewer than 1000000 kept trades (min_trades))" in high_out,
                  f"{mode}: the footnote does not name validation.min_trades: {high_out[-600:]}")
            shown = [" ".join(row) for row in cli.list_tables(stdout)[0]["rows"] if "-" not in row]  # validated
            check(shown and any("*" not in line for line in shown), f"{mode}: the table marks every row: {stdout}")
        good = open(os.path.join(root, "grid_own.yaml")).read()
        objective = f"  min_trades: {OBJECTIVE_MIN}\n"
        for name, text, says in (
                ("a negative count", good.replace(f"  min_trades: {PART_MIN}\n", "  min_trades: -1\n"),
                 "expected a non-negative integer"),
                ("beside objective.aggregate", good.replace(objective, objective + "  aggregate: worst_fold\n", 1),
                 "drop validation.min_trades or objective.aggregate")):
            cfg = os.path.join(root, "bad.yaml")
            with open(cfg, "w") as f:
                f.write(text)
            r = cli.run(E, [cfg, "--grid", "--quiet"])
            check(r.returncode == 1 and "bad.yaml:" in r.stderr and "key 'validation.min_trades'" in r.stderr
                  and says in r.stderr, f"refused, {name}: {r.stderr}")
    if not check.failures:
        print("ok: validation.min_trades")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
