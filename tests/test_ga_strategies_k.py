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
fame's 8K best hold. Needs h5py (else 77)."""
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


def main():
    a = cli.parse_args()
    if not cli.have_modules("h5py"):
        print("skipped: needs h5py")
        return 77
    import h5py
    E = a.evolve
    with cli.scratch_dir("ga-strategies-k-") as root:
        data = os.path.join(root, "data")
        cli.make_data(E, data)
        cfg = os.path.join(root, "k.yaml")
        cli.write_config(cfg, data, os.path.join(root, "k.h5"), population=64, generations=1000,
                         parameters=parameters(), extra="  local_search: {every: 0}\n  max_evaluations: 3000\n")
        grid = run(E, cfg, os.path.join(root, "grid.h5"), ["--grid", "--top", str(SIZE)])
        ga = run(E, cfg, os.path.join(root, "ga.h5"), [])
        if not grid or not ga:
            return check.exit()
        # brute force: every feasible genome's rank and strategy, from the grid's whole grouping
        rank = {genome_of(row["values"]): row["rank"] for row in grid["top"]}
        strategy_of = {}
        for sid, s in enumerate(grid["strategies"]):
            for r in s["ranks"]:
                strategy_of[genome_of(grid["top"][r - 1]["values"])] = sid
        check(len(strategy_of) == len(rank), f"the grid grouped {len(strategy_of)} of {len(rank)} genomes")
        with h5py.File(os.path.join(root, "ga.h5"), "r") as f:
            evaluated = {tuple(int(x) for x in g) for gen in f["ga/genes"][()] for g in gen}
        order = sorted((g for g in evaluated if g in rank), key=lambda g: rank[g])
        want = first_strategies(order, strategy_of, K)
        got = [genome_of(s["values"]) for s in ga["strategies"]]
        check(len(got) == K, f"the GA lists {len(got)} strategies, K = {K}")
        check(got == want, f"the GA's strategies {got}, brute force {want}")
        # the premise: its hall of fame's 8K best alone hold fewer than K strategies
        hof_only = first_strategies(order[:8 * K], strategy_of, K)
        check(len(hof_only) < K, f"the best {8 * K} genomes the GA evaluated already hold {len(hof_only)} strategies")
        print(f"{len(evaluated)} genomes evaluated, {len(set(strategy_of.values()))} strategies on the lattice; "
              f"the best {8 * K} hold {len(hof_only)}; the GA lists {len(got)}")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
