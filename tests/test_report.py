#!/usr/bin/env python3
"""evolve report on GA, grid, validate and in-progress (.partial) run files:
the SVG charts are written and are well-formed XML with a title, axes,
labels and a legend or colour bar; the terminal summary carries the mode,
the stop reason, the hall of fame and the grid's top-K (the same rows the
run printed) and the validate figures. Standard library only."""
import json
import os
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402
from evolve_cli import run  # noqa: E402

check = cli.Checker()
SVG = "{http://www.w3.org/2000/svg}"


def svg_texts(path):
    """Parses an SVG (ElementTree raises on malformed XML); its texts."""
    root = ET.parse(path).getroot()
    check(root.tag == SVG + "svg", f"{path}: root element {root.tag}")
    check(root.find(SVG + "title") is not None, f"{path}: no <title>")
    return [t.text or "" for t in root.iter(SVG + "text")]


def check_svgs(out_dir, names, must_say):
    for name in names:
        path = os.path.join(out_dir, name)
        if not check(os.path.exists(path), f"{path} was not written"):
            continue
        try:
            texts = svg_texts(path)
        except ET.ParseError as e:
            check(False, f"{path} is not well-formed XML: {e}")
            continue
        for words in must_say.get(name, []):
            check(any(words in t for t in texts), f"{path}: no text '{words}' (has {texts[:12]})")
    left = [f for f in os.listdir(out_dir) if ".tmp." in f]
    check(not left, f"temporary files left in {out_dir}: {left}")


def main():
    a = cli.parse_args()
    with cli.scratch_dir("evolve_report_") as root:
        ga = os.path.join(root, "ga.h5")
        data, cfg = cli.data_and_config(a.evolve, root, ga, population=64, generations=15)
        r = run(a.evolve, [cfg, "--quiet"])
        check(r.returncode == 0, f"GA: {r.stderr}")
        hof_rows = [ln for ln in r.stdout.splitlines() if ln.strip()[:1] == "#"]  # a row per strategy

        rep = run(a.evolve, ["report", ga])
        check(rep.returncode == 0, f"report: {rep.stderr}")
        s = rep.stdout
        check("(ga, complete)" in s and "stopped: generations" in s, f"summary: mode/stop reason: {s[:300]}")
        check("hall of fame" in s and all(row in s for row in hof_rows) and len(hof_rows) >= 1,
              f"summary: the hall of fame's strategies the run printed ({len(hof_rows)})")
        out = os.path.join(root, "ga_report")
        obj = "total_return"
        check_svgs(out, ["fitness.svg", "diversity.svg", "heatmap.svg"],
                   {"fitness.svg": [f"{obj} per generation", "generation", "best of the generation",
                                    "mean of the feasible", "best so far"],
                    "diversity.svg": ["Diversity per generation", "unique genomes / population", "generation"],
                    "heatmap.svg": [f"Best {obj} by volatility and ratio", "volatility", "ratio",
                                    "genomes the GA evaluated", "best cell"]})
        r = run(a.evolve, ["report", ga, "--out", os.path.join(root, "pair"), "--heatmap", "adx14,target"])
        check(r.returncode == 0, f"report --heatmap: {r.stderr}")
        check_svgs(os.path.join(root, "pair"), ["heatmap.svg"], {"heatmap.svg": ["by adx14 and target", "0.2"]})

        grid = os.path.join(root, "grid.h5")
        r = run(a.evolve, [cfg, "--grid", "--quiet", "--output", grid])
        top_rows = [ln for ln in r.stdout.splitlines() if ln.strip()[:1] == "#"]
        rep = run(a.evolve, ["report", grid, "--out", os.path.join(root, "grid_out")])
        check(rep.returncode == 0 and "(grid, complete)" in rep.stdout, f"grid report: {rep.stderr}")
        check(top_rows and all(row in rep.stdout for row in top_rows) and "grid top-10 (exact)" in rep.stdout,
              "grid report: the strategies' rows")
        check_svgs(os.path.join(root, "grid_out"), ["heatmap.svg"],
                   {"heatmap.svg": ["the grid's 11340 points", "total_return"]})
        check(not os.path.exists(os.path.join(root, "grid_out", "fitness.svg")), "a grid run has no fitness chart")

        val = os.path.join(root, "val.h5")
        r = run(a.evolve, [cfg, "--validate", "--quiet", "--output", val])
        rep = run(a.evolve, ["report", val, "--out", os.path.join(root, "val_out")])
        check(rep.returncode == 0 and "grid rank of the GA's best:" in rep.stdout and "top-10 overlap:" in rep.stdout,
              f"validate report: {rep.stdout[-600:]}")
        check_svgs(os.path.join(root, "val_out"), ["fitness.svg", "diversity.svg", "heatmap.svg"],
                   {"heatmap.svg": ["the grid's 11340 points"]})

        # a run in progress, killed: its .partial reports what it has. The run file is flushed before
        # each checkpoint (runs/ga_record.h), here one every generation: killed after generation 6's
        # rows, before its checkpoint, the file holds generations 0-5 for sure and may hold 6
        part = os.path.join(root, "killed.h5")
        kcfg = os.path.join(root, "killed.yaml")
        cli.write_config(kcfg, data, part, population=64, generations=15, extra="  checkpoint_every_s: 0\n")
        run(a.evolve, [kcfg, "--quiet"], {"EVOLVE_TEST_KILL": "written:6"})
        rep = run(a.evolve, ["report", part + ".partial", "--out", os.path.join(root, "part_out")])
        check(rep.returncode == 0 and "(ga, dead: its process is gone (killed or crashed); --resume continues it)"
              in rep.stdout and ("6 of 15 generations" in rep.stdout or "7 of 15 generations" in rep.stdout),
              f"partial report: {rep.stdout[:400]} {rep.stderr}")
        check_svgs(os.path.join(root, "part_out"), ["fitness.svg"], {"fitness.svg": ["(in progress)"]})

        # a run its process still writes: refused naming that process (HDF5 keeps the file locked)
        live = os.path.join(root, "live.h5")
        long_cfg = os.path.join(root, "long.yaml")
        # 204,120 points at 64 a generation: thousands of generations, long enough to be caught running
        cli.write_config(long_cfg, os.path.join(root, "data"), live, population=64, generations=1000000,
                         parameters=cli.EXIT_PARAMETERS)
        proc = subprocess.Popen([a.evolve, long_cfg, "--quiet", "--output", live], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        try:
            for _ in range(600):
                if os.path.exists(live + ".partial.ckpt"):
                    break
                time.sleep(0.1)
            rep = run(a.evolve, ["report", live + ".partial", "--out", os.path.join(root, "live_out")])
            check(rep.returncode == 1 and f"evolve process {proc.pid} is writing this run now" in rep.stderr,
                  f"live partial report: exit {rep.returncode}, {rep.stderr}")
        finally:
            proc.kill()
            proc.wait()

        # a budget and no generations: no cap; with restarts the summary says
        # how sure, as the JSON does (docs/ga.md "Budgets", "Restarts")
        bud, bcfg, bjs = (os.path.join(root, n) for n in ("budget.h5", "budget.yaml", "budget.json"))
        text = cli.write_config(bcfg, os.path.join(root, "data"), bud, population=16)
        with open(bcfg, "w") as f:
            f.write(text.replace("  generations: 30\n", "  max_evaluations: 10000\n  restart_stall: 4\n"))
        r = run(a.evolve, [bcfg, "--quiet", "--json", bjs])
        check(r.returncode == 0, f"budget run: {r.stderr}")
        with open(bjs) as f:
            doc = json.load(f)
        check(doc["termination"] == "max evaluations" and doc["restarts"] > 0 and
              doc["searches"] == doc["restarts"] + 1 and 1 <= doc["searches_in_best"] <= doc["searches"],
              f"budget run: {doc['termination']}, {doc.get('restarts')} restarts, {doc.get('searches_in_best')} best")
        rep = run(a.evolve, ["report", bud, "--out", os.path.join(root, "budget_out")])
        want = (f"{doc['searches']} searches ({doc['restarts']} restarts), {doc['searches_in_best']} of them ended "
                "in the best")
        check(rep.returncode == 0 and "no cap: a budget ends the run" in rep.stdout and want in rep.stdout,
              f"budget report: expected '{want}': {rep.stdout[:600]}")

        r = run(a.evolve, ["report", "--help"])
        check(r.returncode == 0 and "--heatmap X,Y" in r.stdout and "--out DIR" in r.stdout, "report --help")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
