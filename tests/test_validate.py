#!/usr/bin/env python3
"""evolve CONFIG --validate on sample data made by gen-data (3 days, and the
5-day sample of README's demo) with configs/soxl.yaml's lattice and GA
settings: the GA's best must be at grid rank 1, the two top-10 lists must
overlap fully, the gap must be 0, on the terminal, in the JSON ("mode":
"validate", "validate": {...}) and in the run file (/validate). A weak GA
(rank decided by a count pass over the lattice) must get the rank a full
grid ranking gives. Standard library only (h5py optional)."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

check = cli.Checker()


def validate(evolve, root, name, days, extra_args=(), population=256, generations=40):
    data = os.path.join(root, name)
    r = cli.gen_data(evolve, data, ["--days", str(days), "--seed", "1"])
    check(r.returncode == 0, f"gen-data: {r.stderr}")
    cfg = os.path.join(root, name + ".yaml")
    out = os.path.join(root, name + ".h5")
    cli.write_config(cfg, data, out, population=population, generations=generations)
    out = os.path.join(root, name + ".validate.h5")  # output names the run; --validate adds its mode
    js = os.path.join(root, name + ".json")
    r = cli.run(evolve, [cfg, "--validate", "--quiet", "--json", js] + list(extra_args))
    check(r.returncode == 0, f"{name}: --validate exited {r.returncode}: {r.stderr}")
    with open(js) as f:
        doc = json.load(f)
    return cfg, out, r.stdout, doc


def check_rank1(name, out, stdout, doc):
    v = doc.get("validate", {})
    check(doc.get("mode") == "validate", f"{name}: JSON mode {doc.get('mode')}")
    check(v.get("grid_rank_of_ga_best") == 1, f"{name}: GA best at grid rank {v.get('grid_rank_of_ga_best')}")
    check(v.get("overlap_genomes") == 10 and v.get("overlap_fitness") == 10,
          f"{name}: overlap {v.get('overlap_genomes')} genomes, {v.get('overlap_fitness')} fitness values")
    check(v.get("fitness_gap") == 0 and v.get("grid_best") == v.get("ga_best"), f"{name}: gap {v.get('fitness_gap')}")
    check(0 < v.get("ga_share_evaluated", 0) < 1, f"{name}: share {v.get('ga_share_evaluated')}")
    check(v.get("lattice_size") == 11340 and len(v.get("ga_top", [])) == 10, f"{name}: lattice/ga_top")
    check(len(doc.get("top", [])) == 10 and doc["top"][0]["fitness"] == v.get("grid_best"), f"{name}: JSON top")
    check("grid rank of the GA's best:    1 (no lattice point is better)" in stdout, f"{name}: terminal: {stdout}")
    check("gap 0" in stdout and "10 of 10 genomes, 10 of 10 fitness values" in stdout, f"{name}: terminal figures")
    print(f"{name}: GA best {v['ga_best']} at grid rank 1, {v['ga_evaluations']} of 11340 points evaluated",
          flush=True)
    try:
        import h5py
    except ImportError:
        return
    with h5py.File(out, "r") as f:
        a = f["validate"].attrs
        check(f.attrs["mode"] == "validate" and int(a["grid_rank_of_ga_best"]) == 1 and a["fitness_gap"] == 0,
              f"{name}: /validate in the run file")
        check("ga" in f and "grid" in f and "heatmap" in f["grid"], f"{name}: /ga, /grid in the run file")


def check_count_pass(evolve, root):
    """A GA too small to find the top-3: its rank comes from a count pass."""
    cfg, out, stdout, doc = validate(evolve, root, "weak", 3, ["--top", "3"], population=4, generations=2)
    v = doc["validate"]
    check(v.get("rank_method", "").startswith("count pass"), f"weak GA: rank from {v.get('rank_method')}")
    js = os.path.join(root, "all.json")
    r = cli.run(evolve, [cfg, "--grid", "--quiet", "--top", "11340", "--json", js, "--output",
                         os.path.join(root, "all.h5")])
    check(r.returncode == 0, f"full ranking: {r.stderr}")
    with open(js) as f:
        ranking = json.load(f)["top"]
    better = sum(1 for e in ranking if e["fitness"] > v["ga_best"])
    check(v.get("grid_rank_of_ga_best") == better + 1,
          f"weak GA: rank {v.get('grid_rank_of_ga_best')}, the full ranking says {better + 1}")
    check(v.get("better_points") == better, "weak GA: better_points")
    print(f"weak GA: best {v['ga_best']} at grid rank {v['grid_rank_of_ga_best']} ({v['rank_method']})", flush=True)


# SPEC sec. 4.1's exits on a small lattice: 3 x 3 x 3 x 2 x 2 x 2 x 2 = 432 points
EXITS = """parameters:
  - {name: volatility, feature: Entry Volatility Percent, values: [0.0, 0.3, 0.5]}
  - {name: ratio, feature: Entry Volatility Ratio, values: [0.0, 0.5, 0.8]}
  - {name: target, role: target, values: [0.2, 0.3, 0.5]}
  - {name: stop, role: stop, values: [-0.5, -0.3]}
  - {name: trail, role: trail, values: [0.15, 0.4]}
  - {name: breakeven, role: breakeven, values: [0.1, 0.2]}
  - {name: max_hold, role: max_hold, values: [300, 3600]}
"""


def check_exits(evolve, root):
    """--validate with trail, breakeven and max_hold: its grid list is the
    lattice's full ranking's head, its GA list a plain GA run's (same seed),
    and rank, overlap and gap are what those lists say."""
    data = os.path.join(root, "exits")
    r = cli.gen_data(evolve, data, ["--days", "3", "--seed", "1"])
    check(r.returncode == 0, f"gen-data: {r.stderr}")
    cfg = os.path.join(root, "exits.yaml")
    cli.write_config(cfg, data, os.path.join(root, "exits.h5"), population=16, generations=4, parameters=EXITS)
    runs = {}
    for name, args in (("validate", ["--validate"]), ("ga", []), ("all", ["--grid", "--top", "432"])):
        js = os.path.join(root, f"exits_{name}.json")
        r = cli.run(evolve, [cfg, "--quiet", "--json", js, "--output", os.path.join(root, f"exits_{name}.h5")] + args)
        if not check(r.returncode == 0, f"exits {name}: exit {r.returncode}: {r.stderr}"):
            return
        with open(js) as f:
            runs[name] = json.load(f)
    doc, v = runs["validate"], runs["validate"]["validate"]
    full = runs["all"]["top"]
    check(len(full) == 432 and v.get("lattice_size") == 432,
          f"exits: {len(full)} ranked, lattice {v.get('lattice_size')}")

    def key(rows):
        return [(tuple(sorted(e["values"].items())), e["fitness"], e["trades"]) for e in rows]

    check(key(doc["top"]) == key(full[:10]), "exits: --validate's grid list is not the full ranking's head")
    check(key(v["ga_top"]) == key(runs["ga"]["top"]), "exits: --validate's GA list is not the plain GA run's")
    better = sum(1 for e in full if e["fitness"] > v["ga_best"])
    check(v["grid_rank_of_ga_best"] == better + 1 and v["better_points"] == better,
          f"exits: GA best at grid rank {v['grid_rank_of_ga_best']}, the full ranking says {better + 1}")
    ga_genomes = {g[0] for g in key(v["ga_top"])}
    overlap = sum(1 for g in key(full[:10]) if g[0] in ga_genomes)
    check(v["overlap_genomes"] == overlap, f"exits: overlap {v['overlap_genomes']}, the lists share {overlap}")
    check(v["fitness_gap"] == full[0]["fitness"] - v["ga_best"] and v["grid_best"] == full[0]["fitness"],
          f"exits: gap {v['fitness_gap']}, grid best {v['grid_best']}")
    print(f"exits: GA best {v['ga_best']} at grid rank {v['grid_rank_of_ga_best']} of 432, overlap {overlap}",
          flush=True)


def main():
    a = cli.parse_args()
    with cli.scratch_dir("evolve_validate_") as root:
        _, out, stdout, doc = validate(a.evolve, root, "days3", 3)
        check_rank1("3-day sample", out, stdout, doc)
        _, out, stdout, doc = validate(a.evolve, root, "sample", 5)  # README's demo data
        check_rank1("5-day sample (configs/soxl.yaml)", out, stdout, doc)
        check_count_pass(a.evolve, root)
        check_exits(a.evolve, root)
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
