"""Hit rates of one arm of the suite (bench/suite/run.sh) against the
best-known values (bench/suite/best_known.tsv), tune and holdout apart;
--best-known rewrites that file from every arm's runs found under SUITE_DIR;
--compare SUITE_DIR ARM... puts several arms side by side in one table."""
import glob
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def lattices():
    rows = [ln.rstrip("\n").split("\t") for ln in open(os.path.join(HERE, "lattices.tsv")) if not ln.startswith("#")]
    return [(r[0], r[1]) for r in rows]


def best_known_lines():
    """best_known.tsv as {name: (value, who found it)}."""
    path = os.path.join(HERE, "best_known.tsv")
    if not os.path.exists(path):
        return {}
    rows = [ln.rstrip("\n").split("\t") for ln in open(path) if ln.strip() and not ln.startswith("#")]
    return {r[0]: (float(r[1]), r[2] if len(r) > 2 else "") for r in rows}


def best_known():
    return {name: v for name, (v, _) in best_known_lines().items()}


def results(suite, arm, name):
    out = []
    for js in sorted(glob.glob(os.path.join(suite, arm, f"{name}-*.json"))):
        d = json.load(open(js))
        t = js[:-5] + ".time"
        top = d["top"][0]["fitness"] if d["top"] else float("-inf")
        wall = float(open(t).read().split()[-1]) if os.path.exists(t) else float("nan")
        out.append((float(top), d.get("unique_evaluations", 0) + d.get("ls_evaluations", 0), wall,
                    d.get("generations", 0), d.get("restarts", 0), js, d))
    return out


def hit(v, ref):
    return v >= ref - 1e-9 * max(1.0, abs(ref))


def basin_row(name, r, ref):
    d = [x[6] for x in r]
    mean = lambda k: statistics.mean(x[k] for x in d)  # noqa: E731
    share = statistics.mean(x["searches_in_best"] / x["searches"] for x in d)
    return (f"| {name} | {mean('searches'):.0f} | {mean('basins'):.0f} | {mean('basin_values'):.0f} | "
            f"{mean('searches_in_best'):.1f} | {100 * share:.1f} % | {sum(x['searches_in_best'] == 1 for x in d)} |")


def summary(suite, arm):
    ref = best_known()
    print(f"arm {arm}")
    print("| lattice | half | best known | hits | median best | worst best | mean evaluations | mean generations "
          "| mean restarts | mean wall s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    total = {"tune": [0, 0], "holdout": [0, 0]}
    basins = []
    for name, half in lattices():
        r = results(suite, arm, name)
        if not r:
            continue
        b = ref.get(name, max(x[0] for x in r))
        h = sum(hit(x[0], b) for x in r)
        total[half][0] += h
        total[half][1] += len(r)
        print(f"| {name} | {half} | {b:.6g} | {h}/{len(r)} | {statistics.median(x[0] for x in r):.6g} | "
              f"{min(x[0] for x in r):.6g} | {statistics.mean(x[1] for x in r):.0f} | "
              f"{statistics.mean(x[3] for x in r):.0f} | {statistics.mean(x[4] for x in r):.1f} | "
              f"{statistics.mean(x[2] for x in r):.2f} |")
        if all(x[6].get("method") == "climb" for x in r):
            basins.append(basin_row(name, r, b))
    if basins:
        print("\nclimbs (bench_climb): per run, the climbs, the distinct peaks (genomes; their distinct values) "
              "and the climbs that ended at the run's best value; means over the runs, and the runs whose best "
              "was found by one climb only")
        print("| lattice | climbs | peaks | peak values | climbs in run's best | share | runs with 1 climb in best |")
        print("|---|---|---|---|---|---|---|")
        print("\n".join(basins))
    for half, (h, n) in total.items():
        if n:
            print(f"{half}: {h}/{n} runs reached the best-known value")


def compare(suite, arms):
    """One table for several arms: per lattice and arm, hits (median best) and mean evaluations / wall s."""
    ref = best_known()
    print("| lattice | half | best known | " + " | ".join(arms) + " |")
    print("|---|---|---|" + "---|" * len(arms))
    total = {arm: {"tune": [0, 0], "holdout": [0, 0]} for arm in arms}
    for name, half in lattices():
        cells = []
        for arm in arms:
            r = results(suite, arm, name)
            if not r:
                cells.append("-")
                continue
            h = sum(hit(x[0], ref[name]) for x in r)
            total[arm][half][0] += h
            total[arm][half][1] += len(r)
            cells.append(f"{h}/{len(r)} ({statistics.median(x[0] for x in r):.6g}; "
                         f"{statistics.mean(x[1] for x in r) / 1000:.0f}k ev, {statistics.mean(x[2] for x in r):.1f} s)")
        print(f"| {name} | {half} | {ref[name]:.6g} | " + " | ".join(cells) + " |")
    for half in ("tune", "holdout"):
        print(f"| {half} | | | " + " | ".join(f"{total[a][half][0]}/{total[a][half][1]}" for a in arms) + " |")


def write_best_known(suite):
    lines = ["# name\tbest known fitness (JSON top[0].fitness)\tfound by (arm/run: the best of every suite run, "
             "long runs included; bench/suite/README.md)"]
    known = best_known_lines()
    for name, _ in lattices():
        allr = [x for arm in sorted(os.listdir(suite)) if os.path.isdir(os.path.join(suite, arm))
                for x in results(suite, arm, name)]
        if not allr:
            continue
        best = max(x[0] for x in allr)
        if name in known and known[name][0] > best:  # a value found by runs no longer on disk stays
            lines.append(f"{name}\t{known[name][0]!r}\t{known[name][1]}")
            continue
        who = sorted({os.path.relpath(x[5], suite)[:-5] for x in allr if hit(x[0], best)})
        lines.append(f"{name}\t{best!r}\t{len(who)} runs, e.g. {', '.join(who[:3])}")
    with open(os.path.join(HERE, "best_known.tsv.tmp"), "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(os.path.join(HERE, "best_known.tsv.tmp"), os.path.join(HERE, "best_known.tsv"))
    print("\n".join(lines))


if __name__ == "__main__":
    if sys.argv[1] == "--best-known":
        write_best_known(sys.argv[2])
    elif sys.argv[1] == "--compare":
        compare(sys.argv[2], sys.argv[3:])
    else:
        summary(sys.argv[1], sys.argv[2])
