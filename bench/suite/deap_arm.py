"""The DEAP arm of the search suite (bench/suite/README.md): a textbook DEAP GA
over a config's lattice indices, its fitness evolve's own (the Python
package's Dataset.evaluate, bit for bit evolve's rank fitness). Prints one
JSON line in the shape bench/suite/summary.py reads.

    deap_arm.py CONFIG [--seed S] [--evals N] [--seconds T] [--algo simple|mupluslambda]

Integer genes, cxUniform (indpb 0.5), mutUniformInt (indpb 1/genes),
selTournament (3); eaSimple (cxpb 0.6, mutpb 0.3) or eaMuPlusLambda (mu =
lambda = population), run one generation at a time until the budget is spent
(checked after each generation, as evolve checks its own). Fitness is the
pair (feasible, fitness_raw), compared in that order, so an infeasible
genome ranks below every feasible one, as evolve's rank_key has it.
Evaluations count unique genomes (a genome seen before is not evaluated
again: evolve's dedup cache, the same units as its unique_evaluations);
`requested_evaluations` is what DEAP asked for. The best's value is the
package's `fitness`: for compound the display of the ranking sum, about
1e-10 relative off the product a run reports (within summary.py's hit
tolerance, but do not let it set best_known.tsv). Needs the bench venv:
bench/out/venv with deap (bench/suite/README.md), and EVOLVE_LIBRARY and
PYTHONPATH=python pointing at a build (run.sh sets them)."""
import argparse
import json
import math
import random
import time

import numpy as np
from deap import algorithms, base, creator, tools

import evolve


def parse():
    ap = argparse.ArgumentParser()
    ap.add_argument("config")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--evals", type=int, default=0)
    ap.add_argument("--seconds", type=float, default=0)
    ap.add_argument("--algo", choices=("simple", "mupluslambda"), default="simple")
    ap.add_argument("--population", type=int, default=200)
    a = ap.parse_args()
    if not a.evals and not a.seconds:
        ap.error("a budget: --evals or --seconds, or both")
    return a


class Fitness:
    """Unique evaluations through evolve, batched: DEAP's map over a generation's new genomes."""

    def __init__(self, ds, lat):
        self.ds, self.lat, self.memo, self.requested = ds, lat, {}, 0

    def map(self, _func, inds):
        keys = [tuple(i) for i in inds]
        self.requested += len(keys)
        new = list(dict.fromkeys(k for k in keys if k not in self.memo))
        if new:
            out = self.ds.evaluate(self.lat, np.array(new, dtype=np.uint16), backend="cpu", raw=True)
            for j, k in enumerate(new):
                raw = float(out["fitness_raw"][j])
                feasible = bool(out["feasible"][j])
                rank = raw if feasible and not math.isnan(raw) else -math.inf
                self.memo[k] = ((1.0 if feasible else 0.0, rank), float(out["fitness"][j]), int(out["trades"][j]))
        return [self.memo[k][0] for k in keys]


def clone(ind):
    """DEAP's default clone is deepcopy: the same copy, several times faster."""
    c = creator.Individual(ind)
    if ind.fitness.valid:
        c.fitness.values = ind.fitness.values
    return c


def toolbox_for(fit, n_values):
    creator.create("FitnessLex", base.Fitness, weights=(1.0, 1.0))
    creator.create("Individual", list, fitness=creator.FitnessLex)
    tb = base.Toolbox()
    tb.register("individual", lambda: creator.Individual(random.randrange(n) for n in n_values))
    tb.register("population", tools.initRepeat, list, tb.individual)
    tb.register("evaluate", lambda ind: None)  # fit.map evaluates the whole batch
    tb.register("map", fit.map)
    tb.register("mate", tools.cxUniform, indpb=0.5)
    tb.register("mutate", tools.mutUniformInt, low=[0] * len(n_values), up=[n - 1 for n in n_values],
                indpb=1.0 / len(n_values))
    tb.register("select", tools.selTournament, tournsize=3)
    tb.register("clone", clone)
    return tb


def main():
    a = parse()
    t0 = time.monotonic()
    random.seed(a.seed)
    lat = evolve.Lattice.from_yaml(a.config)
    ds = evolve.Dataset.from_config(a.config)
    params = lat.params
    fit = Fitness(ds, lat)
    tb = toolbox_for(fit, [len(p["values"]) for p in params])
    hof = tools.HallOfFame(1)
    pop = tb.population(n=a.population)
    gens = 0
    while True:
        if a.algo == "simple":
            pop, _ = algorithms.eaSimple(pop, tb, cxpb=0.6, mutpb=0.3, ngen=1 if gens else 0, halloffame=hof,
                                         verbose=False)
        else:
            pop, _ = algorithms.eaMuPlusLambda(pop, tb, mu=a.population, lambda_=a.population, cxpb=0.6,
                                               mutpb=0.3, ngen=1 if gens else 0, halloffame=hof, verbose=False)
        gens += 1
        if (a.evals and len(fit.memo) >= a.evals) or (a.seconds and time.monotonic() - t0 >= a.seconds):
            break
    best = hof[0]
    _, value, trades = fit.memo[tuple(best)]
    top = {"fitness": value if math.isfinite(value) else str(value), "trades": trades,
           "feasible": best.fitness.values[0] > 0,
           "values": {p["name"]: float(p["values"][g]) for p, g in zip(params, best)}}
    print(json.dumps({"method": "deap-" + a.algo, "seed": a.seed, "population": a.population, "top": [top],
                      "unique_evaluations": len(fit.memo), "ls_evaluations": 0,
                      "requested_evaluations": fit.requested, "generations": gens, "restarts": 0,
                      "seconds": round(time.monotonic() - t0, 3)}))


if __name__ == "__main__":
    main()
