#!/usr/bin/env python3
"""What a trader met on first use (issue 24), items 3 and 4: a run file read
from another folder, or moved with its dataset, still finds its dataset and
says how; a data path that is not there is named by its YAML key and the
folder it was resolved against; a config without tickers is refused naming
data.tickers (no hidden SOXL default); GA and grid runs into the default
output get files of their own, and each prints where its run file went.
Item 5: after a GA killed by SIGKILL, the same command is refused with both
ways on: the exact --resume command line, and how to start over (another
--output, or deleting the interrupted files), and each way works. A winner
on an edge of its lattice is flagged (one warning line, and --json's
"lattice_edges"), exactly the genes this test finds there: the first or last
of at least three values, not a filter's loose end (a min filter's first).
Standard library only."""
import hashlib
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

check = cli.Checker()


def config_text(tickers="  tickers: [SOXL]\n", market="../data/market"):
    return (f"data:\n  market_dir: {market}\n  trades: ../data/all_trade_logs.csv\n{tickers}"
            + cli.SOXL_PARAMETERS + "objective: {name: total_return, min_trades: 10}\n"
            "ga: {population: 32, generations: 5}\n")


def digest(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


PARAMS = {"volatility": ("min", [0.0, 0.3, 0.4, 0.5, 0.6]), "ratio": ("min", [0.0, 0.2, 0.5, 0.7, 0.8, 0.9, 1.0]),
          "adx28": ("min", [0, 20, 30]), "adx14": ("min", [0, 20, 30]), "adx7": ("min", [0, 20, 30]),
          "target": (None, [0.2, 0.3, 0.4, 0.5]), "stop": (None, [-0.5, -0.4, -0.3])}  # cli.SOXL_PARAMETERS


def edges_flagged(E, root):
    """Grids on the SOXL lattice as given (its winner's target and stop on
    their lattices' edges) and with the target and stop narrowed to two
    values each (then no edge): what is flagged is what this test finds."""
    import json
    for name, target, stop in (("as given", "[0.2, 0.3, 0.4, 0.5]", "[-0.5, -0.4, -0.3]"),
                               ("two targets and stops", "[0.2, 0.3]", "[-0.5, -0.4]")):
        cfg = os.path.join(root, "e.yaml")
        params = cli.SOXL_PARAMETERS.replace("values: [0.2, 0.3, 0.4, 0.5]", "values: " + target).replace(
            "values: [-0.5, -0.4, -0.3]", "values: " + stop)
        cli.write_config(cfg, os.path.join(root, "data"), os.path.join(root, "e.h5"), parameters=params)
        js = os.path.join(root, "e.json")
        r = cli.run(E, [cfg, "--grid", "--quiet", "--json", js])
        if not check(r.returncode == 0, f"edges, {name}: {r.stderr}"):
            continue
        doc = json.load(open(js))
        lattice = dict(PARAMS, target=(None, json.loads(target)), stop=(None, json.loads(stop)))
        want = []
        for p, v in doc["top"][0]["values"].items():
            kind, values = lattice[p]
            at = values.index(v)
            if len(values) >= 3 and at in (0, len(values) - 1) and not (kind == "min" and at == 0):
                want.append({"parameter": p, "value": v, "edge": "lowest" if at == 0 else "highest"})
        check(doc.get("lattice_edges", []) == want, f"edges, {name}: JSON {doc.get('lattice_edges')}, expected {want}")
        warned = [line for line in r.stderr.splitlines() if "sits on an edge of the lattice" in line]
        check(len(warned) == (1 if want else 0) and all(f"{w['parameter']} = " in warned[0] for w in want),
              f"edges, {name}: warning {warned}, expected one naming {want}")
        check(bool(want) == (name == "as given"), f"edges, {name}: the case has edges ({want}) or none as meant")


def restart_hint(E, root):
    """A GA killed mid-run (EVOLVE_TEST_KILL: SIGKILL after generation 3's
    checkpoint), then the same command: refused, offering --resume and a
    fresh start; each offer, followed, runs."""
    cfg = os.path.join(root, "k.yaml")
    out = os.path.join(root, "k.h5")
    cli.write_config(cfg, os.path.join(root, "data"), out, population=32, generations=8)
    r = cli.run(E, [cfg, "--quiet"], {"EVOLVE_TEST_KILL": "written:3"})
    partial = out + ".partial"
    check(r.returncode != 0 and os.path.exists(partial) and not os.path.exists(out), f"killed GA: {r.returncode}")
    r = cli.run(E, [cfg, "--quiet"])
    resume = f"evolve {cfg} --quiet --resume {partial}"
    check(r.returncode == 1 and resume in r.stderr and "--output NEW.h5" in r.stderr
          and f"delete {partial} (and {partial}.ckpt)" in r.stderr, f"the refusal after a kill: {r.stderr}")
    r = cli.run(E, [cfg, "--quiet", "--output", os.path.join(root, "k2.h5")])
    check(r.returncode == 0 and os.path.exists(os.path.join(root, "k2.h5")) and os.path.exists(partial),
          f"start over with --output: {r.stderr}")
    r = cli.run(E, resume.split()[1:])
    check(r.returncode == 0 and os.path.exists(out) and not os.path.exists(partial),
          f"the --resume offered: {r.stderr}")
    r = cli.run(E, [cfg, "--quiet", "--seed", "7"], {"EVOLVE_TEST_KILL": "written:3"})
    r = cli.run(E, [cfg, "--quiet", "--resume", partial])
    check(r.returncode == 1 and "--output NEW.h5" in r.stderr, f"a resume that cannot continue: {r.stderr}")
    os.remove(partial)
    os.remove(partial + ".ckpt")
    r = cli.run(E, [cfg, "--quiet"])
    check(r.returncode == 0 and os.path.exists(out), f"start over after deleting: {r.stderr}")


def main():
    a = cli.parse_args()
    E = os.path.abspath(a.evolve)
    with cli.scratch_dir("evolve_firstuse_") as root:
        cli.make_data(E, os.path.join(root, "data"))
        os.makedirs(os.path.join(root, "configs"))
        cfg = os.path.join(root, "configs", "s.yaml")
        with open(cfg, "w") as f:
            f.write(config_text())
        # GA then grid into the default outputs, from the config's parent folder (relative paths)
        r = cli.run(E, ["configs/s.yaml"], cwd=root)
        check(r.returncode == 0 and "ga: run file configs/../results/s.h5" in r.stderr, f"GA: {r.stderr[-300:]}")
        ga = os.path.join(root, "results", "s.h5")
        before = digest(ga)
        r = cli.run(E, ["configs/s.yaml", "--grid"], cwd=root)
        check(r.returncode == 0 and "grid: run file configs/../results/s.grid.h5" in r.stderr,
              f"grid: {r.stderr[-300:]}")
        check(digest(ga) == before, "the grid run left the GA's run file as it was")
        # the run file read from another folder
        r = cli.run(E, ["trades", ga], cwd="/")
        check(r.returncode == 0 and "found by provenance/dataset path" in r.stdout,
              f"trades from /: {r.returncode} {r.stderr[-300:]}")
        moved = os.path.join(root, "moved")
        shutil.move(os.path.join(root, "results"), moved)
        r = cli.run(E, ["trades", os.path.join(moved, "s.h5")], cwd="/")  # its dataset: in the shared cache
        check(r.returncode == 0 and "found by provenance/dataset path" in r.stdout,
              f"trades of a moved run: {r.stderr[-300:]}")
        # a dataset beside its run (data.cache) moves with it: found from the run file's folder
        with open(cfg, "w") as f:
            f.write(config_text(tickers="  tickers: [SOXL]\n  cache: ../results/s.dataset.h5\n"))
        r = cli.run(E, ["configs/s.yaml", "--grid", "--quiet"], cwd=root)
        check(r.returncode == 0, f"grid with data.cache: {r.stderr[-300:]}")
        shutil.move(os.path.join(root, "results"), os.path.join(root, "moved2"))
        r = cli.run(E, ["trades", os.path.join(root, "moved2", "s.grid.h5")], cwd="/")
        check(r.returncode == 0 and "path_from_run" in r.stdout, f"trades of a moved run: {r.stderr[-300:]}")
        # data paths and tickers
        with open(cfg, "w") as f:
            f.write(config_text(market="../nowhere"))
        r = cli.run(E, ["configs/s.yaml", "--grid", "--quiet", "--output", "x.h5"], cwd=root)
        check(r.returncode == 1 and "key 'data.market_dir'" in r.stderr and "resolved against the config's folder, "
              "configs" in r.stderr, f"missing market_dir: {r.stderr}")
        with open(cfg, "w") as f:
            f.write(config_text(tickers=""))
        r = cli.run(E, ["configs/s.yaml", "--grid", "--quiet", "--output", "x.h5"], cwd=root)
        check(r.returncode == 1 and "key 'data.tickers': required key is missing" in r.stderr and "SOXL not found"
              not in r.stderr, f"no tickers: {r.stderr}")
        restart_hint(E, root)
        edges_flagged(E, root)
    if not check.failures:
        print("ok: paths, tickers, default outputs and the restart hint")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
