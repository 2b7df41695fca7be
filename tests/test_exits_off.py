#!/usr/bin/env python3
"""`off` in trail, breakeven and max_hold lattices (SPEC sec. 4.1 "Off") on
gen-data's sample data: a 144-point lattice with off written first in a list,
last in a list and as a range's `off: true`.

- The grid's full ranking (every evaluator the CLI picks) equals the SPEC
  oracle's (tests/spec_oracle.py), index for index and value for value.
- At off the role is absent: every genome with a role at off has the value
  the oracle gives on the lattice without that role (a second, reduced
  oracle), for each of the three roles, and for all three off at once.
- The GA's top-10 equals the grid's (index, fitness, trades).
- off is printed as off: the JSON's values, the top table, the loosest
  baseline (which uses off, the loosest value; its value the oracle's), a
  config's `baseline:` with exits off (in the JSON and the terminal's
  baselines table), and never a lattice edge.
- `evolve trades CONFIG --set trail=off` lists the rows of trail left out.
- A config puts off only where it belongs: a filter's off, off in the middle
  of a list and off twice are refused naming the parameter and the place.
- --gpu: the CUDA backend (emulated in CI) gives the CPU's lists bit for bit;
  exit 77 without one.
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "support"))
sys.path.insert(0, HERE)
import evolve_cli as cli  # noqa: E402

try:
    import spec_oracle as so
except ImportError as exc:  # pragma: no cover
    print(f"test_exits_off: skipped: {exc} (install python3-numpy)")
    sys.exit(77)

check = cli.Checker()

# off first (trail), last (breakeven), by a range (max_hold): 2 x 2 x 2 x 3 x 2 x 3 = 144 points
PARAMETERS = """parameters:
  - {name: volatility, feature: Entry Volatility Percent, values: [0.0, 0.3]}
  - {name: target, role: target, values: [0.2, 0.5]}
  - {name: stop, role: stop, values: [-0.5, -0.3]}
  - {name: trail, role: trail, values: [off, 0.15, 0.4]}
  - {name: breakeven, role: breakeven, values: [0.1, off]}
  - {name: max_hold, role: max_hold, range: {start: 300, stop: 900, step: 600, off: true}}
"""
SIZE = 144
ORACLE_PARAMS = [
    so.param("volatility", feature="Entry Volatility Percent", values=["0.0", "0.3"]),
    so.param("target", role="target", values=["0.2", "0.5"]),
    so.param("stop", role="stop", values=["-0.5", "-0.3"]),
    so.param("trail", role="trail", values=["0.15", "0.4", "off"]),  # off is held last: the loosest
    so.param("breakeven", role="breakeven", values=["0.1", "off"]),
    so.param("max_hold", role="max_hold", values=["300", "900", "off"]),
]
OFF_ROLES = ("trail", "breakeven", "max_hold")
# the trader's settings with two exits off: the lattice point (0.0, 0.2, -0.5, off, off, 300)
BASELINE = "baseline: {volatility: 0.0, target: 0.2, stop: -0.5, trail: off, breakeven: off, max_hold: 300}\n"


def run_json(evolve, root, cfg, name, args):
    js = os.path.join(root, f"{name}.json")
    r = cli.run(evolve, [cfg, "--json", js, "--output", os.path.join(root, f"{name}.h5")] + args, timeout=600)
    if r.returncode != 0:
        return r, None
    with open(js) as f:
        return r, json.load(f)


def rows(doc):
    return [(int(e["index"]), e["fitness"], e["trades"]) for e in doc["top"]]


def check_oracle(doc, orc):
    """The grid's full ranking is the oracle's; values print off as "off"."""
    top = doc["top"]
    check(len(top) == SIZE, f"{len(top)} genomes ranked, the lattice has {SIZE}")
    want = orc.ranking()
    got = [int(e["index"]) for e in top]
    check(got == want, f"grid ranking differs from the oracle's: first at rank "
                       f"{next((i + 1 for i, (a, b) in enumerate(zip(got, want)) if a != b), len(got))}")
    for e in top:
        i = int(e["index"])
        check(e["fitness"] == orc.value(i) and e["trades"] == int(orc.n[i]),
              f"index {i}: evolve {e['fitness']}/{e['trades']}, oracle {orc.value(i)}/{int(orc.n[i])}")
        g = so.genes_of(i, orc.dims)
        for p, k in zip(ORACLE_PARAMS, g):
            want_text = p.texts[k]
            got_v = e["values"][p.name]
            ok = got_v == "off" if want_text == "off" else got_v == float(want_text)
            check(ok, f"index {i}: {p.name} is {got_v!r} in the JSON, the lattice's value is {want_text}")


def check_absent(ds, orc, obj):
    """At off the role is absent: the value of the lattice without it."""
    for drop in [(r,) for r in OFF_ROLES] + [OFF_ROLES]:
        keep = [p for p in ORACLE_PARAMS if p.name not in drop]
        # the reduced lattice: the dropped roles gone, the others' values as they are (off included)
        red = so.Oracle(ds, keep, obj)
        pos = {p.name: j for j, p in enumerate(ORACLE_PARAMS)}
        checked = 0
        for i in range(SIZE):
            g = so.genes_of(i, orc.dims)
            if not all(ORACLE_PARAMS[pos[r]].texts[g[pos[r]]] == "off" for r in drop):
                continue
            j = so.linear_index([g[pos[p.name]] for p in keep], red.dims)
            check(orc.value(i) == red.value(j) and int(orc.n[i]) == int(red.n[j]),
                  f"{'+'.join(drop)} off at index {i}: {orc.value(i)}, without the role {red.value(j)}")
            checked += 1
        expect = SIZE
        for r in drop:
            expect //= len(ORACLE_PARAMS[pos[r]])
        check(checked == expect, f"{drop}: {checked} genomes at off, expected {expect}")
    # and the role does something where it is on: some genome differs from its off twin
    differs = sum(1 for i in range(SIZE) if orc.value(i) != orc.value(i - i % 3 + 2))
    check(differs > 0, "max_hold changes nothing on this data: the test would not see off misread")


def check_printing(doc, stdout, orc):
    loosest = [b for b in doc.get("baselines", []) if b["name"] == "loosest"]
    if check(len(loosest) == 1, f"no loosest baseline in the JSON: {[b['name'] for b in doc.get('baselines', [])]}"):
        v = loosest[0]["values"]
        check(all(v.get(r) == "off" for r in OFF_ROLES), f"the loosest baseline's exits are {v}, not off")
        # evaluated alone (a lattice of one point): the oracle's value at that point of the full lattice
        at = so.linear_index([0, 0, 0, 2, 1, 2], orc.dims)
        check(loosest[0]["fitness"] == orc.value(at) and loosest[0]["trades"] == int(orc.n[at]),
              f"loosest baseline: {loosest[0]['fitness']}/{loosest[0]['trades']}, oracle {orc.value(at)}")
    mine = [b for b in doc.get("baselines", []) if b["name"] == "baseline"]
    if check(len(mine) == 1, "no baseline row for the config's baseline:"):
        at = so.linear_index([0, 0, 0, 2, 1, 0], orc.dims)
        check(mine[0]["values"].get("trail") == "off" and mine[0]["values"].get("max_hold") == 300,
              f"baseline: values {mine[0]['values']}")
        check(mine[0]["fitness"] == orc.value(at), f"baseline: {mine[0]['fitness']}, oracle {orc.value(at)}")
    for e in doc.get("lattice_edges", []):
        check(not (e["parameter"] in OFF_ROLES and e["value"] == "off"), f"off reported as an edge: {e}")
    check(" off " in stdout or " off\n" in stdout, "the top table does not print off")
    # the terminal's baselines table: the loosest's exits and the config's trail read off (columns by header)
    lines = stdout.splitlines()
    head = next((ln.split() for ln in lines if ln.split()[:1] == ["baseline"] and "trail" in ln.split()), None)
    table = {ln.split()[0]: ln.split() for ln in lines if head and ln.split()[:1] in (["loosest"], ["baseline"])
             and len(ln.split()) >= len(head)}
    if check(head and "loosest" in table and "baseline" in table, f"no baselines table with both rows: {stdout}"):
        got = {r: table["loosest"][head.index(r)] for r in OFF_ROLES}
        check(all(v == "off" for v in got.values()), f"the baselines table prints the loosest's exits as {got}")
        check(table["baseline"][head.index("trail")] == "off",
              f"the baselines table prints the baseline's trail as {table['baseline'][head.index('trail')]}")


def check_refused(evolve, root, data):
    cases = [
        ("filter", "  - {name: volatility, feature: Entry Volatility Percent, values: [0.0, off]}\n",
         "off is a value of trail, breakeven and max_hold only"),
        ("middle", "  - {name: trail, role: trail, values: [0.1, off, 0.4]}\n", "off goes first or last"),
        ("twice", "  - {name: trail, role: trail, values: [off, 0.1, off]}\n", "off is listed twice"),
        ("range", "  - {name: target, role: target, range: {start: 0.1, stop: 0.3, step: 0.1, off: true}}\n",
         "off is a value of trail, breakeven and max_hold only"),
    ]
    for name, line, want in cases:
        cfg = os.path.join(root, f"bad_{name}.yaml")
        params = "parameters:\n  - {name: stop, role: stop, values: [-0.5]}\n" + line
        cli.write_config(cfg, data, os.path.join(root, f"bad_{name}.h5"), parameters=params)
        r = cli.run(evolve, [cfg, "--grid", "--quiet"])
        check(r.returncode != 0 and want in r.stderr and "parameters[1]" in r.stderr and "bad_" in r.stderr,
              f"{name}: exit {r.returncode}, stderr {r.stderr.strip()!r} (expected {want!r} at parameters[1])")


def check_set_off(evolve, root, cfg):
    """`evolve trades CONFIG --set trail=off` lists a genome as printed: the rows of the exit left out,
    not those of its lowest value; a misspelt value or name is refused, naming what is expected."""
    def trades(name, sets):
        csv = os.path.join(root, f"set_{name}.csv")
        r = cli.run(evolve, ["trades", cfg, "--csv", csv] + [a for s in sets for a in ("--set", s)])
        if r.returncode != 0:
            return r, None
        with open(csv) as f:
            return r, f.read()
    base = ["volatility=0.0", "target=0.2", "stop=-0.5", "max_hold=300"]
    r, off = trades("off", base + ["trail=off", "breakeven=off"])
    _, left_out = trades("left_out", base)
    _, lowest = trades("lowest", base + ["trail=0.15", "breakeven=0.1"])
    if check(off is not None, f"--set trail=off: exit {r.returncode}: {r.stderr.strip()}"):
        check(off.count("\n") > 10 and off == left_out, "--set trail=off breakeven=off: not the rows of both left out")
        check(off != lowest, "the exits' lowest values give the rows of off: the test would not see off misread")
    for name, sets, want in (("bad_off", base + ["trail=of"], "--set trail: expected a finite number or off"),
                             ("bad_name", base + ["trial=0.15"],
                              "its parameters: volatility, target, stop, trail, breakeven, max_hold")):
        r, _ = trades(name, sets)
        check(r.returncode == 2 and want in r.stderr,
              f"{name}: exit {r.returncode}, stderr {r.stderr.strip()!r} (expected {want!r})")


def main():
    a = cli.parse_args(["--gpu"])
    with cli.scratch_dir("evolve-exits-off-") as root:
        data = os.path.join(root, "data")
        r = cli.gen_data(a.evolve, data, ["--days", "3", "--tickers", "SOXL", "--trades", "300", "--seed", "3"])
        if not check(r.returncode == 0, f"gen-data: {r.stderr}"):
            return check.exit()
        cfg = os.path.join(root, "off.yaml")
        cli.write_config(cfg, data, os.path.join(root, "off.h5"), population=32, generations=40,
                         parameters=PARAMETERS, min_trades=1, extra=BASELINE)
        if a.gpu:
            docs = {}
            for backend in ("cpu", "cuda"):
                for mode, args in (("grid", ["--grid", "--top", str(SIZE)]), ("ga", [])):
                    r, doc = run_json(a.evolve, root, cfg, f"{backend}_{mode}", args + ["--quiet", "--backend",
                                                                                          backend])
                    if backend == "cuda" and doc is None and ("no usable CUDA device" in r.stderr
                                                              or "without CUDA" in r.stderr):
                        print(f"test_exits_off: skipped: no CUDA backend here: {r.stderr.strip()}")
                        sys.exit(77)
                    if check(doc is not None, f"{backend} {mode}: exit {r.returncode}: {r.stderr}"):
                        docs[(backend, mode)] = doc
            for mode in ("grid", "ga"):
                if ("cpu", mode) in docs and ("cuda", mode) in docs:
                    check(docs[("cpu", mode)]["top"] == docs[("cuda", mode)]["top"],
                          f"{mode}: the CUDA backend's list differs from the CPU's")
            return check.exit()
        obj = so.Objective(name="total_return", min_trades=1)
        ds = so.load_dataset(os.path.join(data, "market"), os.path.join(data, "all_trade_logs.csv"), ["SOXL"],
                             ("Entry Volatility Percent",))
        orc = so.Oracle(ds, ORACLE_PARAMS, obj, check_loop=True)
        r, grid = run_json(a.evolve, root, cfg, "grid", ["--grid", "--top", str(SIZE)])
        if check(grid is not None, f"grid: exit {r.returncode}: {r.stderr}"):
            check_oracle(grid, orc)
            check_printing(grid, r.stdout, orc)
        check_absent(ds, orc, obj)
        r, ga = run_json(a.evolve, root, cfg, "ga", ["--quiet"])
        if check(ga is not None and grid is not None, f"ga: exit {r.returncode}: {r.stderr}"):
            check(rows(ga) == rows(grid)[:10], f"GA top-10 {rows(ga)} differs from the grid's {rows(grid)[:10]}")
        check_refused(a.evolve, root, data)
        check_set_off(a.evolve, root, cfg)
    print(f"test_exits_off: {SIZE} points, grid == oracle == GA top-10, off == absent; "
          f"{check.failures} failure(s)")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
