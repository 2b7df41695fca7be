#!/usr/bin/env python3
"""The verdict (issue 32, docs/report.md "The verdict"): rank 1 against each
baseline in sample and out of sample, the same in every place.

- `--json`'s "verdict" gives, for every part (in sample, the holdout, each
  fold; a walk-forward's test windows), rank 1's value and trades and each
  baseline's, and their difference: each equals what the same JSON's own
  parts give (top[0] and baselines[] per part; a window's test result and
  its baselines), the difference computed here from them;
- the headline says "LOSES out of sample on the holdout" exactly when rank 1
  makes less than the trade log on the holdout (one holdout day at a time,
  until both a loss and a win were seen), with both values;
- the terminal prints that headline and the pointer to the glossary; `evolve
  report` prints it first, and Python's Result.verdict holds it and the
  same table (the run file's GROUP/verdict);
- the GA's and --validate's verdicts (the grid's list for --validate, as its
  JSON, its DSR deflated by the grid's trials), and a walk-forward's;
- every headline is the one docs/report.md promises, rebuilt here from the
  verdict's table: in sample, then the holdout (beats / only TIES / LOSES,
  joined by "and" or "but"), or on how many folds rank 1 wins; a
  walk-forward's over the chained test windows, then on how many test
  windows, naming the worst; an infeasible
  rank 1 beats nothing (validation.min_trades above every part's trades),
  and a lattice of one point that is the log ties every part; the DSR and
  PBO readings follow their thresholds, and Result.verdict's dsr and pbo
  are the JSON's.
Needs numpy (tests/support/small_lattice.py)."""
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402
import small_lattice  # noqa: E402

check = cli.Checker()
BASELINE = "baseline: {volatility: 0.35, target: 0.45, stop: -0.42}\n"
# the headline's end when rank 1 keeps no trade in sample (docs/report.md "The verdict")
NO_TRADE = ("; rank 1 keeps NO trade in sample: doing nothing did at least as well as every genome evaluated that "
            "trades (objective.min_trades 1 or more ranks only genomes that trade)")


def num(v):
    return float(v) if not isinstance(v, str) else float(v.replace("inf", "Infinity"))


def config(root, name, data, validation):
    """small_lattice's config (4 parameters, 81 points) with a baseline:, min_trades 5."""
    return small_lattice.config(root, name, data, "  name: total_return\n  min_trades: 5\n", validation,
                                "population: 16\n  generations: 10", extra=BASELINE)


def run(evolve, path, args):
    js = path[:-5] + ".json"
    r = cli.run(evolve, [path, "--json", js] + args, timeout=300)
    if not check(r.returncode == 0, f"{os.path.basename(path)} {args}: exit {r.returncode}: {r.stderr}"):
        return None, r
    with open(js) as f:
        return json.load(f), r


def part_cells(doc, name):
    """(rank 1's cell, {baseline: cell}) of a part, from the JSON's own parts."""
    if name == "in sample":
        key = lambda e: e["in_sample"]  # noqa: E731
    elif name == "holdout":
        key = lambda e: e["out_of_sample"]  # noqa: E731
    else:
        k = int(name.split()[1]) - 1
        key = lambda e: e["folds"][k]  # noqa: E731
    return key(doc["top"][0]), {b["name"]: key(b) for b in doc["baselines"]}


def check_parts(where, v, want):
    """v: the verdict's parts; want: {part: (rank 1 cell, {baseline: cell})} from the JSON's own parts."""
    check([p["part"] for p in v["parts"]] == list(want), f"{where}: parts {[p['part'] for p in v['parts']]}, "
          f"the JSON has {list(want)}")
    for p in v["parts"]:
        if p["part"] not in want:
            continue
        best, bases = want[p["part"]]
        got = p["rank1"]
        # the same JSON value as the row's (an exact number, or the same "inf" / "nan" string; never null)
        check(got["fitness"] == best["fitness"] and got["trades"] == best["trades"]
              and got["feasible"] == best.get("feasible", True), f"{where} {p['part']}: rank 1 {got}, JSON {best}")
        check(sorted(p["baselines"]) == sorted(bases), f"{where} {p['part']}: baselines {sorted(p['baselines'])}")
        for name, cell in bases.items():
            b = p["baselines"].get(name, {})
            diff = num(best["fitness"]) - num(cell["fitness"])
            check(b.get("fitness") == cell["fitness"] and b.get("trades") == cell["trades"]
                  and b.get("feasible") == cell.get("feasible", True), f"{where} {p['part']} {name}: {b}, JSON {cell}")
            # the verdict's own subtraction of the two doubles: within an ulp or so of this one
            tol = 4e-16 * max(1.0, abs(num(best["fitness"])), abs(num(cell["fitness"])))
            check(abs(num(b.get("difference", "nan")) - diff) <= tol, f"{where} {p['part']} {name}: difference "
                  f"{b.get('difference')}, rank 1 - {name} = {diff}")


def list_parts(doc):
    names = ["in sample"]
    if doc["validation"]["holdout_days"]:
        names.append("holdout")
    names += [f"fold {k + 1}" for k in range(len(doc["validation"].get("folds", [])))]
    return {n: part_cells(doc, n) for n in names}


def f2(x):
    return f"{x:.2f}" if x == 0 or 0.01 <= abs(x) < 1e7 else f"{x:.3g}"


def headline_says(where, doc, stdout):
    """The headline against the log's holdout: LOSES or beats, with the values; printed on the terminal.
    Returns 'loses' or 'beats'."""
    v = doc["verdict"]
    head = v["headline"]
    best, bases = part_cells(doc, "holdout")
    a, b = num(best["fitness"]), num(bases["log"]["fitness"])
    check(f"{f2(a)} vs {f2(b)}" in head, f"{where}: headline {head!r} lacks '{f2(a)} vs {f2(b)}'")
    if a < b:
        check("LOSES out of sample on the holdout" in head, f"{where}: rank 1 {a} < log {b}, headline {head!r}")
    elif a > b and best.get("feasible", True):
        check("beats it out of sample on the holdout" in head, f"{where}: rank 1 {a} > log {b}, headline {head!r}")
    check(f"verdict: {head}\n" in stdout, f"{where}: the terminal does not print the headline {head!r}")
    check('docs/report.md "Glossary"' in stdout, f"{where}: the terminal does not point to the glossary")
    check("0.000 " not in stdout.split("verdict:")[1].split("PBO")[0] or "DSR 0.000" not in stdout,
          f"{where}: DSR printed as 0.000")
    return "loses" if a < b else "beats"


WHO = {"log": "your trade log", "baseline": "your baseline", "loosest": "the loosest point"}


def vnum(x, sign=False):
    """A value as the verdict writes it (docs/report.md's example): 2 decimals, 3 digits where those read 0.00 or
    run too wide, +inf, - for none."""
    x = num(x) if x is not None else math.nan
    if math.isinf(x):
        return ("+inf" if sign else "inf") if x > 0 else "-inf"
    if x != x:
        return "-"
    if x != 0 and (abs(x) < 0.01 or abs(x) >= 1e7):
        return ("%+.3g" if sign else "%.3g") % x
    return ("%+.2f" if sign else "%.2f") % x


def want_headline(v):
    """The headline docs/report.md "The verdict" promises, from the verdict's own table (checked against the JSON's
    parts by check_parts): rank 1 against the log (else the config's baseline), in sample, then on the holdout (or
    on how many folds it wins); a walk-forward's on how many test windows, naming the worst. Rank 1 beats a part
    only with a higher value there and feasible; an equal value ties."""
    parts = v["parts"]
    names = list(parts[0]["baselines"])
    who = "log" if "log" in names else "baseline" if "baseline" in names else names[0]

    def outcome(p):
        a, b = num(p["rank1"]["fitness"]), num(p["baselines"][who]["fitness"])
        return 1 if a > b and p["rank1"]["feasible"] else 0 if a == b else -1

    def versus(p):
        return (f"{vnum(p['rank1']['fitness'])} vs {vnum(p['baselines'][who]['fitness'])}, "
                f"{vnum(p['baselines'][who]['difference'], True)}")

    if parts[0]["part"].startswith("window"):  # the test windows, then their chain (a run file that has it)
        wins = [p for p in parts if p["part"].startswith("window")]
        chain = [p for p in parts if p["part"] == "chained"]
        won = sum(outcome(p) > 0 for p in wins)
        if won == len(wins):
            on = f"on every test window ({won} of {len(wins)})"
        else:
            worst = 0
            for k, p in enumerate(wins):  # the lowest difference, the first of equals
                if not num(p["baselines"][who]["difference"]) >= num(wins[worst]["baselines"][who]["difference"]):
                    worst = k
            on = f"on {won} of {len(wins)} test windows (window {worst + 1}: {versus(wins[worst])})"
        if not chain:
            beat = won == len(wins)
            return (f"The walk-forward winners {'beat' if beat else 'do NOT beat'} {WHO[who]} out of sample"
                    f"{'' if beat else ': they beat it'} {on}")
        out = outcome(chain[0])
        verb = "beat" if out > 0 else "only TIE" if out == 0 else "do NOT beat"
        return (f"The walk-forward winners {verb} {WHO[who]} out of sample over the chained test windows "
                f"({versus(chain[0])}); they beat it {on}")
    ins = parts[0]
    nothing = NO_TRADE if ins["rank1"]["feasible"] and ins["rank1"]["trades"] == 0 else ""
    beat_in = outcome(ins) > 0
    head = (f"Rank 1 beats {WHO[who]} in sample ({vnum(ins['baselines'][who]['difference'], True)})" if beat_in
            else f"Rank 1 does NOT beat {WHO[who]} even in sample ({versus(ins)})")
    hold = [p for p in parts if p["part"] == "holdout"]
    folds = [p for p in parts if p["part"].startswith("fold")]
    if not hold:
        if folds:
            won = sum(outcome(p) > 0 for p in folds)
            return head + f"; it beats it on {won} of {len(folds)} folds; no holdout to test it out of sample" + nothing
        return head + "; no holdout to test it out of sample (validation.holdout)" + nothing
    h = hold[0]
    out = outcome(h)
    if not h["rank1"]["feasible"]:
        tail = f" {'but' if beat_in else 'and'} does NOT beat it out of sample on the holdout ({versus(h)})"
    elif out > 0:
        tail = f" {'and' if beat_in else 'but'} beats it out of sample on the holdout ({versus(h)})"
    elif out == 0:
        tail = f" {'but' if beat_in else 'and'} only TIES it out of sample on the holdout ({versus(h)})"
    else:
        tail = f" {'but' if beat_in else 'and'} LOSES out of sample on the holdout ({versus(h)})"
    if not h["rank1"]["feasible"]:
        tail += f", on {h['rank1']['trades']} trades: too few (min_trades)"
    return head + tail + nothing


def readings(where, v, doc=None):
    """The headline as promised, the DSR and PBO read against their thresholds (0.95, 0.5), and with a validation:
    block the DSR's trials are the validation's (the top rows' own search)."""
    if doc is not None and doc.get("validation"):
        check(num(v["trials"]) == doc["validation"]["trials"],
              f"{where}: the verdict's trials {v['trials']}, the validation's {doc['validation']['trials']}")
    if not v.get("parts") or not v["parts"][0]["baselines"]:
        return
    want = want_headline(v)
    check(v["headline"] == want, f"{where}: headline {v['headline']!r}, promised {want!r}")
    dsr, pbo = v.get("dsr"), v.get("pbo")
    if dsr is not None:
        word = "significant (>= 0.95)" if num(dsr) >= 0.95 else "NOT significant (< 0.95)"
        check(f": {word}" in v["dsr_reading"], f"{where}: DSR {dsr} read as {v['dsr_reading']!r}")
    if pbo is not None:
        word = f"PBO {num(pbo):.2f}: " + ("likely OVERFIT (> 0.5)" if num(pbo) > 0.5 else "no sign of overfitting")
        check(v["pbo_reading"].startswith(word), f"{where}: PBO {pbo} read as {v['pbo_reading']!r}")
        share = "half the" if num(pbo) == 0.5 else "most"  # the splits where the best fell, or stayed above
        check(f"in {share} splits" in v["pbo_reading"], f"{where}: PBO {pbo} read as {v['pbo_reading']!r}")


PY_VERDICT = """import json, sys, evolve
v = evolve.load_run(sys.argv[1]).verdict
t = v.table
print(json.dumps({"headline": v.headline, "parts": list(t.index), "dsr": v.dsr, "pbo": v.pbo, "dsr_z": v.dsr_z,
                  "trials": v.trials, "dsr_reading": v.dsr_reading, "pbo_reading": v.pbo_reading,
                  "rank1": [float(x) for x in t["rank1"]], "log": [float(x) for x in t["log"]],
                  "diff": [float(x) for x in t["rank1-log"]], "trades": [int(x) for x in t["rank1_trades"]]}))
"""


def python_verdict(evolve, where, run_file, doc):
    if not cli.have_modules("numpy", "pandas"):
        print(f"note: {where}: no numpy/pandas, Result.verdict not checked")
        return
    r = subprocess.run([sys.executable, "-c", PY_VERDICT, run_file], capture_output=True, text=True,
                       env=cli.python_env(evolve), timeout=120)
    if not check(r.returncode == 0, f"{where}: python: {r.stderr[-600:]}"):
        return
    py = json.loads(r.stdout)
    v = doc["verdict"]
    check(py["headline"] == v["headline"], f"{where}: Result.verdict.headline {py['headline']!r}")
    check(py["parts"] == [p["part"] for p in v["parts"]], f"{where}: Result.verdict parts {py['parts']}")
    def near(a, b):  # the run file's bits, and the JSON's numbers read back as them
        return a == b

    check(near(py["rank1"], [num(p["rank1"]["fitness"]) for p in v["parts"]])
          and py["trades"] == [p["rank1"]["trades"] for p in v["parts"]]
          and near(py["log"], [num(p["baselines"]["log"]["fitness"]) for p in v["parts"]])
          and near(py["diff"], [num(p["baselines"]["log"]["difference"]) for p in v["parts"]]),
          f"{where}: Result.verdict's table {py}, the JSON {v['parts']}")
    for key in ("dsr", "dsr_z", "pbo", "trials"):  # the run file's numbers: NaN where the JSON has null
        want, got = v.get(key), py[key]
        same = (got != got) if want is None else abs(got - num(want)) <= 4e-16 * max(1.0, abs(num(want)))
        check(same, f"{where}: Result.verdict.{key} {got}, the JSON {want}")
    for key in ("dsr_reading", "pbo_reading"):
        check(py[key] == v[key], f"{where}: Result.verdict.{key} {py[key]!r}, the JSON {v[key]!r}")


def holdout_days(evolve, root, data):
    """One holdout day at a time: the headline's LOSES / beats follows the JSON's values; both are seen."""
    seen = set()
    days = None
    for i in range(8):
        cfg = config(root, f"h{i}", data, "  holdout: {share: 0.3}\n  folds: 3\n" if days is None else
                     f"  holdout: {{days: [{days[i]}]}}\n  folds: 3\n")
        doc, r = run(evolve, cfg, ["--grid"])
        if doc is None:
            return
        if days is None:  # the first run lists the days; then one holdout day each
            days = sorted(doc["validation"]["holdout_days"] + doc["validation"]["in_sample_days"])
        check_parts(f"grid h{i}", doc["verdict"], list_parts(doc))
        readings(f"grid h{i}", doc["verdict"], doc)
        seen.add(headline_says(f"grid h{i}", doc, r.stdout))
        if i == 1:
            rep = cli.run(evolve, ["report", cli.mode_file(cfg[:-5] + ".h5", ["--grid"]), "--out", os.path.join(root, f"h{i}_report")])
            check(rep.returncode == 0 and rep.stdout.find("verdict: " + doc["verdict"]["headline"]) >= 0
                  and rep.stdout.find("verdict:") < rep.stdout.find("grid top-"),
                  f"report h{i}: the verdict is not printed first: {rep.stdout[:800]}")
            python_verdict(evolve, f"grid h{i}", cli.mode_file(cfg[:-5] + ".h5", ["--grid"]), doc)
        if seen == {"loses", "beats"} and i >= 2:
            break
    check(seen == {"loses", "beats"}, f"the holdout days never gave both a loss and a win against the log: {seen}")


def other_modes(evolve, root, data):
    cfg = config(root, "modes", data, "  holdout: {share: 0.3}\n  folds: 3\n")
    for mode, args in (("ga", []), ("validate", ["--validate"])):
        doc, r = run(evolve, cfg, args)
        if doc is None:
            continue
        check_parts(mode, doc["verdict"], list_parts(doc))
        readings(mode, doc["verdict"], doc)
        headline_says(mode, doc, r.stdout)
        python_verdict(evolve, mode, cli.mode_file(cfg[:-5] + ".h5", args), doc)
        print(f"ok: {mode}: {doc['verdict']['headline']}")
    cfg = config(root, "folds", data, "  folds: 3\n")
    doc, r = run(evolve, cfg, ["--grid"])
    if doc is not None:
        check_parts("folds only", doc["verdict"], list_parts(doc))
        readings("folds only", doc["verdict"], doc)
        top = cli.list_tables(r.stdout)[0]["head"]
        check("holdout" not in top, f"folds only: the table of strategies has holdout columns: {top}")
        check("no holdout to test it out of sample" in doc["verdict"]["headline"],
              f"folds only: headline {doc['verdict']['headline']!r}")
        # rank 1 keeps >= min_trades 5 trades and the config has a validation: block: both are computed
        for k in ("dsr_reading", "pbo_reading"):
            check("not computed" not in doc["verdict"][k], f"folds only: {k} {doc['verdict'][k]!r}")


def infeasible_and_ties(evolve, root, data):
    """validation.min_trades above every part's trades: rank 1 is infeasible on the holdout and every fold, so it
    beats the log on none of them whatever its values (the headline says so, with its trades); a lattice of one
    point that keeps every trade as logged: rank 1 is the log, so every part ties."""
    cfg = config(root, "strict", data, "  holdout: {share: 0.3}\n  folds: 3\n  min_trades: 100000\n")
    doc, _ = run(evolve, cfg, ["--grid"])
    if doc is not None:
        v = doc["verdict"]
        check_parts("strict", v, list_parts(doc))
        readings("strict", v, doc)
        check(all(not p["rank1"]["feasible"] for p in v["parts"][1:]) and "too few (min_trades)" in v["headline"]
              and "beats it out of sample" not in v["headline"], f"strict: rank 1 feasible out of sample: {v}")
    cfg = config(root, "folds_strict", data, "  folds: 3\n  min_trades: 100000\n")
    doc, _ = run(evolve, cfg, ["--grid"])
    if doc is not None:
        check_parts("folds strict", doc["verdict"], list_parts(doc))
        readings("folds strict", doc["verdict"], doc)
        check("it beats it on 0 of 3 folds" in doc["verdict"]["headline"],
              f"folds strict: an infeasible rank 1 beats a fold: {doc['verdict']['headline']!r}")
    one = "parameters:\n  - {name: volatility, feature: Entry Volatility Percent, values: [0]}\n"
    for name, validation in (("tie", "  holdout: {share: 0.3}\n  folds: 3\n"), ("tie_folds", "  folds: 3\n")):
        cfg = small_lattice.config(root, name, data, "  name: total_return\n  min_trades: 5\n",
                                   validation, "population: 4\n  generations: 2", params_yaml=one)
        doc, _ = run(evolve, cfg, ["--grid"])
        if doc is None:
            continue
        v = doc["verdict"]
        check_parts(name, v, list_parts(doc))
        readings(name, v, doc)
        check(all(num(p["baselines"]["log"]["difference"]) == 0 for p in v["parts"]),
              f"{name}: the one point is not the log on every part: {v['parts']}")
        check("does NOT beat your trade log even in sample" in v["headline"]
              and ("only TIES it out of sample" in v["headline"] or "beats it on 0 of 3 folds" in v["headline"]),
              f"{name}: headline {v['headline']!r}")
    # one test window (7 days to train, the 8th to test) where the winner is the log: it beats it on none
    cfg = small_lattice.config(root, "tie_walk", data, "  name: total_return\n  min_trades: 5\n",
                               "  walk_forward: {train_days: 7, test_days: 1}\n", "population: 4\n  generations: 2",
                               params_yaml=one)
    doc, _ = run(evolve, cfg, ["--walk-forward", "--grid"])
    if doc is not None:
        v = doc["verdict"]
        readings("tie_walk", v)
        check([p["part"] for p in v["parts"]] == ["window 1", "chained"]
              and "only TIE your trade log" in v["headline"] and "they beat it on 0 of 1 test windows" in v["headline"],
              f"tie_walk: one window, tied: headline {v['headline']!r}")


def nothing_trades(evolve, root, data):
    """A 5 % round-trip cost makes every trade a loss: rank 1 is the filter that keeps no trade (min_trades 0),
    and the headline says so, on the grid and the GA; a winner that trades never does (want_headline)."""
    lattice = ("parameters:\n  - {name: volatility, feature: Entry Volatility Percent, values: [0, 0.3, 1000]}\n"
               "  - {name: target, role: target, values: [0.2, 0.5]}\n  - {name: stop, role: stop, values: [-0.5]}\n")
    cfg = small_lattice.config(root, "nothing", data, "  name: total_return\n  cost_pct: 5\n",
                               "  holdout: {share: 0.3}\n", "population: 8\n  generations: 12", params_yaml=lattice,
                               extra=BASELINE)
    for mode, args in (("grid", ["--grid"]), ("ga", [])):
        doc, r = run(evolve, cfg, args)
        if doc is None:
            continue
        v = doc["verdict"]
        check_parts(f"nothing {mode}", v, list_parts(doc))
        readings(f"nothing {mode}", v, doc)
        check(doc["top"][0]["trades"] == 0 and doc["top"][0]["values"]["volatility"] == 1000
              and v["headline"].endswith(NO_TRADE) and f"verdict: {v['headline']}\n" in r.stdout,
              f"nothing {mode}: rank 1 {doc['top'][0]}, headline {v['headline']!r}")


def walk(evolve, root, data):
    cfg = config(root, "walk", data, "  walk_forward: {train_days: 3, test_days: 1}\n")
    doc, r = run(evolve, cfg, ["--walk-forward", "--grid"])
    if doc is None:
        return
    wins = doc["walk_forward"]["windows"]
    want = {}
    for w in wins:
        best = {"fitness": w["test_fitness"], "trades": w["test_trades"], "feasible": w.get("test_feasible", True)}
        want[f"window {w['window']}"] = (best, {b["name"]: b for b in w["baselines"]})
    ch = doc["walk_forward"]["chained"]
    want["chained"] = ({"fitness": ch["fitness"], "trades": ch["trades"], "feasible": ch.get("feasible", True)},
                       {b["name"]: b for b in ch["baselines"]})
    check_parts("walk", doc["verdict"], want)
    # total_return adds up: each baseline over the chained test windows (one day each, none shared) is the
    # sum of its windows, as the winners' chain is the sum of theirs
    for name, cell in want["chained"][1].items():
        per = [next(b for b in w["baselines"] if b["name"] == name) for w in wins]
        check(abs(num(cell["fitness"]) - sum(num(b["fitness"]) for b in per)) <= 1e-9
              and cell["trades"] == sum(b["trades"] for b in per),
              f"walk: {name} over the chain {cell}, its windows sum to {sum(num(b['fitness']) for b in per)}")
    h = doc["verdict"]["headline"]
    log = want["chained"][1]["log"]
    check(f"over the chained test windows ({f2(num(ch['fitness']))} vs {f2(num(log['fitness']))}" in h,
          f"walk: the headline does not compare the chains: {h!r}")
    readings("walk", doc["verdict"])
    check(f"verdict: {doc['verdict']['headline']}\n" in r.stdout, "walk: the terminal does not print the headline")
    for k, name in (("dsr_reading", "DSR"), ("pbo_reading", "PBO")):
        check(doc["verdict"][k] == f"{name} -: not computed (a walk-forward has none)", f"walk: {k} {doc['verdict'][k]!r}")
    python_verdict(evolve, "walk", cli.mode_file(cfg[:-5] + ".h5", ["--walk-forward", "--grid"]), doc)
    print(f"ok: walk: {doc['verdict']['headline']}")


def main():
    a = cli.parse_args()
    E = os.path.abspath(a.evolve)
    with cli.scratch_dir("evolve_verdict_") as root:
        data = os.path.join(root, "data")
        r = cli.gen_data(E, data, ["--days", "8", "--tickers", "SOXL", "--trades", "320", "--seed", "3"])
        if not check(r.returncode == 0, f"gen-data: {r.stderr}"):
            return check.exit()
        holdout_days(E, root, data)
        other_modes(E, root, data)
        infeasible_and_ties(E, root, data)
        nothing_trades(E, root, data)
        walk(E, root, data)
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
