"""DEAP and Optuna arms of the 12-gene search study (issue 18; bench/study12.sh, bench/RESULTS.md).

Same lattice (bench/study12.yaml), objective (total_return, min_trades 20) and data (20 days of
gen-data --seed 1, ingested as bench/study12.sh does) as the evolve arms. Fitness goes through
libevolve (evolve.Dataset.evaluate, CPU backend) in batches; every arm counts unique genomes
evaluated through a cache, as evolve does, and stops at the budget (a generation or batch that
would pass it is cut at exactly the budget). Ranking uses fitness_raw (infeasible genomes rank
last); the reported best is the run-file fitness of the best genome.

  (a) deap  eaSimple-style GA: integer gene = lattice index per parameter, tournament selection
            (size 3), uniform crossover (cxpb 0.5, indpb 0.5), per-gene random-reset mutation
            (mutpb 0.2, indpb 1/12), population 1024, whole population evaluated per generation.
  (b) tpe   Optuna's TPESampler (seeded; constant_liar for batched ask/tell), one integer index
            per gene (suggest_int 0..n-1), batches of 64 trials; a trial whose genome is already
            in the cache is told the cached value without spending budget (at most 5x budget
            trials in all).

  bench/out/venv/bin/python bench/study12_baselines.py ARM SEEDS BUDGET --data data20.h5 [--out F.jsonl]
  bench/out/venv/bin/python bench/study12_baselines.py table REFERENCE F.jsonl...    (the RESULTS.md rows)

This is bench-only: deap and optuna are never dependencies of evolve. One JSON line per seed:
arm, seed, budget, best, unique_evaluations, trials (tpe), wall_s.
"""
import argparse
import json
import os
import random
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import evolve  # noqa: E402

OBJECTIVE = {"name": "total_return", "min_trades": 20}


def lattice_text(data):
    t = open(os.path.join(HERE, "study12.yaml")).read()
    return (t.replace("DATA", data).replace("OBJECTIVE", OBJECTIVE["name"])
            .replace("MINTRADES", str(OBJECTIVE["min_trades"])).replace("OUT", "/dev/null")
            .replace("BUDGET", "1").replace("GAEXTRA", ""))


class Fitness:
    """Cache of genome -> (raw, shown); unique-evaluation counter; best so far."""

    def __init__(self, ds, lat, budget):
        self.ds, self.lat, self.budget = ds, lat, budget
        self.cache, self.best_raw, self.best = {}, -np.inf, None

    @property
    def left(self):
        return self.budget - len(self.cache)

    def batch(self, genomes):
        """Evaluates the uncached genomes among genomes (tuples) up to the budget; returns the
        raw fitness of each genome, None for one left unevaluated because the budget ran out."""
        new = []
        seen = set()
        for g in genomes:
            if g not in self.cache and g not in seen:
                seen.add(g)
                new.append(g)
        new = new[:max(self.left, 0)]
        if new:
            r = self.ds.evaluate(self.lat, np.array(new, dtype=np.uint16), objective=OBJECTIVE,
                                 backend="cpu", raw=True)
            for g, fr, fs in zip(new, r["fitness_raw"], r["fitness"]):
                self.cache[g] = (float(fr), float(fs))
                if fr > self.best_raw:
                    self.best_raw, self.best = float(fr), float(fs)
        return [self.cache[g][0] if g in self.cache else None for g in genomes]


def run_deap(fit, sizes, seed, pop_size=1024, cxpb=0.5, mutpb=0.2):
    from deap import base, creator, tools
    random.seed(seed)
    if not hasattr(creator, "FitnessMax"):
        creator.create("FitnessMax", base.Fitness, weights=(1.0,))
        creator.create("Individual", list, fitness=creator.FitnessMax)
    n = len(sizes)

    def reset(ind, indpb):
        for i in range(n):
            if random.random() < indpb:
                ind[i] = random.randrange(sizes[i])
        return ind,

    tb = base.Toolbox()
    tb.register("individual", lambda: creator.Individual(random.randrange(s) for s in sizes))
    tb.register("mate", tools.cxUniform, indpb=0.5)
    tb.register("mutate", reset, indpb=1.0 / n)
    tb.register("select", tools.selTournament, tournsize=3)

    def evaluate(pop):
        bad = [ind for ind in pop if not ind.fitness.valid]
        vals = fit.batch([tuple(ind) for ind in bad])
        for ind, v in zip(bad, vals):
            if v is None:
                return False
            ind.fitness.values = (v if np.isfinite(v) else -1e300,)
        return True

    pop = [tb.individual() for _ in range(pop_size)]
    gens = 0
    while evaluate(pop) and fit.left > 0:
        gens += 1
        off = [tb.clone(ind) for ind in tb.select(pop, len(pop))]  # eaSimple's varAnd
        for i in range(1, len(off), 2):
            if random.random() < cxpb:
                off[i - 1], off[i] = tb.mate(off[i - 1], off[i])
                del off[i - 1].fitness.values, off[i].fitness.values
        for i in range(len(off)):
            if random.random() < mutpb:
                off[i], = tb.mutate(off[i])
                del off[i].fitness.values
        pop[:] = off
    return {"generations": gens}


def run_tpe(fit, sizes, seed, batch=64):
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    sampler = optuna.samplers.TPESampler(seed=seed, constant_liar=True)
    study = optuna.create_study(direction="maximize", sampler=sampler)
    trials = 0
    while fit.left > 0 and trials < 5 * fit.budget:
        ts = [study.ask() for _ in range(batch)]
        gs = [tuple(t.suggest_int(f"g{i}", 0, s - 1) for i, s in enumerate(sizes)) for t in ts]
        vals = fit.batch(gs)
        for t, v in zip(ts, vals):
            if v is None:
                study.tell(t, state=optuna.trial.TrialState.FAIL)
            else:
                study.tell(t, v if np.isfinite(v) else -1e9)  # infeasible: below any total return
                trials += 1
    return {"trials": trials}


def table(ref, files):
    import statistics
    for path in files:
        r = [json.loads(x) for x in open(path) if x.strip()]
        b = [x["best"] for x in r]
        print(f"| {r[0]['budget']:,} | {r[0]['arm']} | {sum(x >= ref for x in b)}/{len(b)} | "
              f"{statistics.median(b):.4f} | {min(b):.4f} | {statistics.mean(x['unique_evaluations'] for x in r):.0f} | "
              f"{statistics.mean(x['wall_s'] for x in r):.2f} |")


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "table":
        return table(float(sys.argv[2]), sys.argv[3:])
    ap = argparse.ArgumentParser()
    ap.add_argument("arm", choices=["deap", "tpe"])
    ap.add_argument("seeds", type=int)
    ap.add_argument("budget", type=int)
    ap.add_argument("--data", required=True)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--out")
    a = ap.parse_args()
    ds = evolve.Dataset.from_h5(a.data)
    lat = evolve.Lattice.from_yaml_text(lattice_text(os.path.abspath(a.data)), "study12.yaml")
    sizes = [len(p["values"]) for p in lat.params]
    for seed in range(a.first_seed, a.first_seed + a.seeds):
        fit = Fitness(ds, lat, a.budget)
        t0 = time.perf_counter()
        extra = (run_deap if a.arm == "deap" else run_tpe)(fit, sizes, seed)
        wall = time.perf_counter() - t0
        rec = {"arm": a.arm, "seed": seed, "budget": a.budget, "best": fit.best,
               "unique_evaluations": len(fit.cache), "wall_s": round(wall, 2), **extra}
        line = json.dumps(rec)
        print(line, flush=True)
        if a.out:
            with open(a.out, "a") as f:
                f.write(line + "\n")


if __name__ == "__main__":
    main()
