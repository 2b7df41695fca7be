#!/usr/bin/env python3
"""K distinct strategies from the GA where its best genomes cluster in a few
(issue 32 item 7, docs/ga.md "The GA's K strategies"), against brute force.

A lattice of 9,600 points whose filters mostly keep every trade, so each of
the best strategies holds many genomes. The grid with --top 9600 ranks every
point and groups all of them (each strategy's `ranks`: tests/test_grid_pool.c
checks the grid's grouping against brute force), which maps every genome to
its strategy. The GA (local search off: every genome it evaluates is in a
generation, read back from the run file) must list the first K strategies met
walking the genomes it evaluated in that ranking: here more than its hall of
fame's 8K best hold. Each strategy's rank and genomes are its best genome's
place among the distinct feasible genomes evaluated and how many of them it
holds. The same with `mean` and min_trades 60, where the genomes that keep
few trades, whose means are the best, are infeasible and never listed.
Needs h5py (else 77)."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

check = cli.Checker()
K = 10
VALUES = {"volatility": [0.0, 0.05, 0.1, 0.15, 0.3], "ratio": [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.9],
          "adx28": [0, 2, 4, 6, 20], "adx14": [0, 2, 4, 20], "target": [0.2, 0.3, 0.4, 0.5],
          "stop": [-0.5, -0.4, -0.3]}  # 5 * 8 * 5 * 4 * 4 * 3 = 9,600 points
FEATURES = {"volatility": "Entry Volatility Percent", "ratio": "Entry Volatility Ratio", "adx28": "Entry Adx28",
            "adx14": "Entry Adx14"}
SIZE = 9600


def parameters():
    out = "parameters:\n"
    for name, vals in VALUES.items():
        role = f"feature: {FEATURES[name]}" if name in FEATURES else f"role: {name}"
        out += f"  - {{name: {name}, {role}, values: {vals}}}\n"
    return out


def genome_of(values):
    return tuple(VALUES[n].index(values[n]) for n in VALUES)


def run(E, cfg, out, args):
    js = out + ".json"
    r = cli.run(E, [cfg, "--quiet", "--json", js, "--output", out] + args, timeout=900)
    if not check(r.returncode == 0, f"{args}: {r.stderr}"):
        return None
    with open(js) as f:
        return json.load(f)


def first_strategies(order, strategy_of, k):
    """The first genome of each of the first k strategies met walking `order`."""
    seen, firsts = set(), []
    for g in order:
        if strategy_of[g] not in seen:
            seen.add(strategy_of[g])
            firsts.append(g)
            if len(firsts) == k:
                break
    return firsts


def listed(ga, order, strategy_of, name):
    """Each strategy's rank and genomes: its best genome's place among the distinct feasible genomes the GA
    evaluated, best first, and how many of them its strategy holds (docs/ga.md: the candidates, each once)."""
    place = {g: i + 1 for i, g in enumerate(order)}
    for s in ga["strategies"]:
        g = genome_of(s["values"])
        mine = sum(1 for x in order if strategy_of[x] == strategy_of.get(g))
        check(place.get(g) == s["rank"] and s.get("genomes") == mine,
              f"{name}: strategy {g}: rank {s['rank']}, genomes {s.get('genomes')}; among the genomes evaluated "
              f"its rank is {place.get(g)}, its strategy holds {mine}")


def search(E, root, data, name, objective, min_trades):
    """The grid's whole ranking and grouping, the GA's run: (ga JSON, the GA's evaluated feasible genomes best
    first, genome -> strategy), or None."""
    import h5py
    cfg = os.path.join(root, name + ".yaml")
    cli.write_config(cfg, data, os.path.join(root, name + ".h5"), population=64, generations=1000,
                     parameters=parameters(), extra="  local_search: {every: 0}\n  max_evaluations: 3000\n",
                     objective=objective, min_trades=min_trades)
    grid = run(E, cfg, os.path.join(root, name + "-grid.h5"), ["--grid", "--top", str(SIZE)])
    ga = run(E, cfg, os.path.join(root, name + "-ga.h5"), [])
    if not grid or not ga:
        return None
    # brute force: every feasible genome's rank and strategy, from the grid's whole grouping
    rank = {genome_of(row["values"]): row["rank"] for row in grid["top"]}
    strategy_of = {}
    for sid, s in enumerate(grid["strategies"]):
        for r in s["ranks"]:
            strategy_of[genome_of(grid["top"][r - 1]["values"])] = sid
    check(len(strategy_of) == len(rank), f"{name}: the grid grouped {len(strategy_of)} of {len(rank)} genomes")
    with h5py.File(os.path.join(root, name + "-ga.h5"), "r") as f:
        evaluated = {tuple(int(x) for x in g) for gen in f["ga/genes"][()] for g in gen}
    order = sorted((g for g in evaluated if g in rank), key=lambda g: rank[g])
    want = first_strategies(order, strategy_of, K)
    got = [genome_of(s["values"]) for s in ga["strategies"]]
    check(len(got) == K, f"{name}: the GA lists {len(got)} strategies, K = {K}")
    check(got == want, f"{name}: the GA's strategies {got}, brute force {want}")
    listed(ga, order, strategy_of, name)
    return ga, order, strategy_of, len(evaluated)


def main():
    a = cli.parse_args()
    if not cli.have_modules("h5py"):
        print("skipped: needs h5py")
        return 77
    E = a.evolve
    with cli.scratch_dir("ga-strategies-k-") as root:
        data = os.path.join(root, "data")
        cli.make_data(E, data)
        # mean with min_trades 60: the genomes that keep few trades, the best means, are infeasible
        strict = search(E, root, data, "mean", "mean", 60)
        check(strict is None or len(strict[1]) < strict[3], "mean: no infeasible genome among those evaluated")
        found = search(E, root, data, "k", "total_return", 10)
        if not found:
            return check.exit()
        ga, order, strategy_of, n_evaluated = found
        got = [genome_of(s["values"]) for s in ga["strategies"]]
        # the premise: its hall of fame's 8K best alone hold fewer than K strategies
        hof_only = first_strategies(order[:8 * K], strategy_of, K)
        check(len(hof_only) < K, f"the best {8 * K} genomes the GA evaluated already hold {len(hof_only)} strategies")
        print(f"{n_evaluated} genomes evaluated, {len(set(strategy_of.values()))} strategies on the lattice; "
              f"the best {8 * K} hold {len(hof_only)}; the GA lists {len(got)}")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
