#!/usr/bin/env python3
"""The strategies on a device backend (docs/signals.md "Backends";
runs/backend_strategy.h), for seller_exhaustion and atc on random-walk bars.

Without a GPU (label unit), through the strategy backend's test twin
(EVOLVE_TEST_DEVICE=MODE): the device's packed path (signals/strategy_pack.h:
the chunk's distinct series once in an arena, each genome's slots and
parameters, the series bound back and backtested) run on the CPU.
  - exact: `--backend cuda` passes the GPU probe (/provenance
    backend_probe "passed: ...") and its grid top-K (the whole
    lattice) and GA hall of fame equal the CPU backend's bit for bit;
  - a planted fault (fitness: one bit of genome 17's fitness; trades: its
    trade count; topk: the last top-K entry's fitness) is caught by the
    probe: `--backend cuda` stops (exit 1, no run file) naming the genome with
    its parameter values and both values; `--backend auto` warns, falls back
    to the CPU and gives the CPU's results (provenance backend "cpu",
    backend_probe "failed, ...");
  - ga-oom: a pretend device that holds no job above 200 genomes; the jobs
    are retried with fewer genomes and give the CPU's results;
  - with a validation: split (holdout, folds, objective.aggregate: worst_fold)
    the packed path scores trades by their entry bar's day as the CPU does:
    `--backend cuda` passes the probe and its rows (in-sample, out-of-sample,
    folds) equal the CPU's;
  - --no-gpu-probe runs a faulty twin unchecked and says so in provenance;
  - `--backend cuda` without the twin: the device's results, or (no GPU, no
    CUDA build) the refusal naming why.
  - ga.local_search: the GA's climbs (batches through the device's evaluate)
    on the exact twin equal the CPU's, ls_evaluations included.
  - strategy.session.flat_at_close (the flag in the packed parameters, the
    session ends a slot): the exact twin's grid and GA equal the CPU's.
With --gpu (label gpu): `--backend cuda` on the real device against
`--backend cpu`, grid and GA (also a GA with local search, and a grid with
flat_at_close), bit for bit, with
the backtests whole and in slices of 37 rows per launch
(EVOLVE_TEST_STRATEGY_SLICE) in groups of at most 50 genomes
(EVOLVE_TEST_STRATEGY_GROUP: the grid's jobs take several groups); exit 77
where no GPU exists.
--small (the sanitizer build, and with --gpu the emulated ASan build,
tests/CMakeLists.txt): the same cases on fewer bars (800: three days, the
validation's holdout day and two folds) and GAs of fewer generations (3; local
search's 4, climbs at 2 and 4): every strategy, mode, backend, twin and fault
as without it (with --gpu: every strategy, mode, local search and flat_at_close
run, whole and sliced).
--tiny (with --gpu, the emulated ThreadSanitizer build): 400 bars (a session
end inside them, for flat_at_close), GAs of 2 generations (local search's 3,
a climb at 2; that the climbs ran is checked): the same runs, which launch
the same kernels and run the same kernel lines as --small's, each kernel on
several blocks in the whole runs (bench/RESULTS.md "CI time, seventh cut").
Needs h5py (else skipped with 77)."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

if not cli.have_modules("numpy", "h5py"):
    print("SKIP: numpy and h5py are needed")
    sys.exit(77)

import h5py  # noqa: E402

from walk_bars import random_walk_bars, write_bars  # noqa: E402

args = cli.parse_args(["--gpu", "--small", "--tiny"])
# --small: the sanitizer build's sizes, --tiny: the emulated ThreadSanitizer build's (the docstring); every case kept
BARS, GENERATIONS, LS_GENERATIONS = (400, 2, 3) if args.tiny else (800, 3, 4) if args.small else (1500, 6, 6)
check = cli.Checker()

SE = ("seller_exhaustion", "",
      [("ema_fast", [4, 8, 16]), ("ema_slow", [8, 24, 48]), ("z_window", [20, 40]), ("atr_window", [8, 16]),
       ("vol_z", ["0.5", "1.0", "1.5"]), ("tr_z", ["0.0", "0.5"]), ("cloc_min", ["0.3", "0.6"]),
       ("reward_r", ["1.5", "2.5"])])
ATC = ("atc", "  pine: {python_cut: true}\n",
       [("ema_len", [10, 24, 40]), ("hull_len", [12, 30]), ("wma_len", [8, 30]), ("robustness", ["Narrow", "Wide"]),
        ("La", ["0.02", "0.5"]), ("De", ["0.01", "0.1"]), ("long_threshold", ["0.05", "0.3"]),
        ("short_threshold", ["-0.3", "-0.05"])])
FAULTS = {"fitness": ["evaluate: genome (", "cpu: fitness ", "twin: fitness "],
          "trades": ["evaluate: genome (", "trade(s) kept"],
          "topk": ["top-1 of lattice points", "genome ("]}


def write_config(path, bars, strategy, extra="", objective="{name: total_return, min_trades: 2}",
                 ga=f"{{population: 48, generations: {GENERATIONS}}}"):
    name, block, params = strategy
    size = 1
    for _, v in params:
        size *= len(v)
    with open(path, "w") as f:
        f.write(f"strategy:\n  type: {name}\n  bars: {{csv: {bars}}}\n  costs: {{fee_bp: 2, slippage_bp: 1}}\n{block}")
        f.write("parameters:\n")
        for p, values in params:
            f.write(f"  - {{name: {p}, values: [{', '.join(str(v) for v in values)}]}}\n")
        f.write(f"objective: {objective}\ntop: {size}\n"
                f"ga: {ga}\nseed: 5\n" + extra)


def provenance(path):
    with h5py.File(path, "r") as h:
        a = h["provenance"].attrs
        text = lambda v: None if v is None else v.decode() if isinstance(v, bytes) else str(v)  # noqa: E731
        return text(a.get("backend")), text(a.get("backend_probe"))


def run(work, cfg, tag, backend, mode, env=None, extra=()):
    """One run; returns (result, its JSON summary or None, its run file)."""
    out, js = os.path.join(work, f"{tag}.h5"), os.path.join(work, f"{tag}.json")
    more = ["--grid"] if mode == "grid" else []
    r = cli.run(args.evolve, [cfg, "--quiet", "--backend", backend, "--output", out, "--json", js] + more + list(extra),
                env, timeout=600)
    doc = None
    if r.returncode == 0 and os.path.exists(js):
        with open(js) as f:
            doc = json.load(f)
    return r, doc, out


def same_results(a, b):
    """The ranked genomes, fitness and trades of two JSON summaries."""
    return a is not None and b is not None and a["top"] == b["top"]


def twin_checks(work, cfg, name):
    cpu = {}
    for mode in ("grid", "ga"):
        r, cpu[mode], _ = run(work, cfg, f"{name}-cpu-{mode}", "cpu", mode)
        check(r.returncode == 0 and cpu[mode], f"{name} cpu {mode}: {r.stderr}")
        r, doc, out = run(work, cfg, f"{name}-exact-{mode}", "cuda", mode, {"EVOLVE_TEST_DEVICE": "exact"})
        if check(r.returncode == 0, f"{name} exact twin {mode}: {r.stderr}"):
            check(same_results(cpu[mode], doc), f"{name} exact twin {mode}: results differ from the CPU's")
            be, probe = provenance(out)
            check(be == "twin" and probe and probe.startswith("passed: "), f"{name} {mode}: {be} {probe!r}")
        if mode == "grid":
            check(len(cpu[mode]["top"]) > 50, f"{name}: the grid should rank many genomes: {len(cpu[mode]['top'])}")
    # a pretend device too small for a chunk: jobs retried with fewer genomes, the same results
    for mode in ("grid", "ga"):
        r, doc, _ = run(work, cfg, f"{name}-oom-{mode}", "cuda", mode, {"EVOLVE_TEST_DEVICE": "ga-oom"})
        check(r.returncode == 0 and same_results(cpu[mode], doc),
              f"{name} ga-oom twin {mode}: exit {r.returncode}, results differ or: {r.stderr}")
    for fault, msgs in FAULTS.items():
        env = {"EVOLVE_TEST_DEVICE": fault}
        for mode in ("grid", "ga"):
            r, _, out = run(work, cfg, f"{name}-stop-{fault}-{mode}", "cuda", mode, env)
            check(r.returncode == 1 and "the GPU probe found the twin backend disagreeing with the CPU" in r.stderr,
                  f"{name} {fault} {mode} cuda: exit {r.returncode}: {r.stderr}")
            for m in msgs:
                check(m in r.stderr, f"{name} {fault} {mode} cuda: message lacks {m!r}: {r.stderr}")
            check(not os.path.exists(out) and r.stdout == "", f"{name} {fault} {mode} cuda: it ran")
            r, doc, out = run(work, cfg, f"{name}-auto-{fault}-{mode}", "auto", mode, env)
            check(r.returncode == 0 and "WARNING: the GPU probe found the twin backend" in r.stderr,
                  f"{name} {fault} {mode} auto: exit {r.returncode}: {r.stderr}")
            check(same_results(cpu[mode], doc), f"{name} {fault} {mode} auto: results differ from the CPU's")
            if r.returncode == 0:
                be, probe = provenance(out)
                check(be == "cpu" and probe and probe.startswith("failed, the run fell back to the cpu backend"),
                      f"{name} {fault} {mode} auto: {be} {probe!r}")
    r, doc, out = run(work, cfg, f"{name}-noprobe", "cuda", "grid", {"EVOLVE_TEST_DEVICE": "fitness"},
                      ["--no-gpu-probe"])
    if check(r.returncode == 0, f"{name} --no-gpu-probe: {r.stderr}"):
        check(provenance(out)[1].startswith("skipped (--no-gpu-probe)"), f"{name} --no-gpu-probe: {provenance(out)}")
    # the real device: results, or why not
    r, doc, _ = run(work, cfg, f"{name}-cuda", "cuda", "grid")
    check((r.returncode == 0 and same_results(cpu["grid"], doc)) or "no usable CUDA device" in r.stderr
          or "without CUDA" in r.stderr, f"{name} --backend cuda: exit {r.returncode}: {r.stderr}")
    print(f"{name}: the twin's packed path equals the CPU (grid of {len(cpu['grid']['top'])}, GA); "
          f"{len(FAULTS)} planted faults caught")


def exact_twin_checks(work, cfg, tag, rows_ok=lambda doc: True):
    """cfg's grid and GA on the exact twin equal the CPU's, the probe passed;
    rows_ok: what the CPU's rows must show (the case's premise)."""
    for mode in ("grid", "ga"):
        r, cpu, _ = run(work, cfg, f"{tag}-cpu-{mode}", "cpu", mode)
        if not check(r.returncode == 0 and cpu, f"{tag} cpu {mode}: {r.stderr}"):
            continue
        check(rows_ok(cpu), f"{tag} cpu {mode}: the rows lack what the case is about")
        r, doc, out = run(work, cfg, f"{tag}-exact-{mode}", "cuda", mode, {"EVOLVE_TEST_DEVICE": "exact"})
        if check(r.returncode == 0, f"{tag} exact twin {mode}: {r.stderr}"):
            check(same_results(cpu, doc), f"{tag} exact twin {mode}: results differ from the CPU's")
            check(provenance(out)[1].startswith("passed: "), f"{tag} {mode}: {provenance(out)}")


def validation_checks(work, bars, strategy):
    """A split by day: the twin's packed path must bring back each trade's entry bar."""
    name = strategy[0]
    cfg = os.path.join(work, f"{name}-val.yaml")
    write_config(cfg, bars, strategy, "validation: {holdout: {last: 1}, folds: 2}\n",
                 "{name: total_return, min_trades: 2, aggregate: worst_fold}")
    exact_twin_checks(work, cfg, f"{name}-val",
                      lambda doc: all("out_of_sample" in row and len(row["folds"]) == 2 for row in doc["top"]))


def flat_config(work, bars, strategy):
    """The strategy with session: {flat_at_close: true}."""
    name, block, params = strategy
    cfg = os.path.join(work, f"{name}-flat.yaml")
    write_config(cfg, bars, (name, "  session: {flat_at_close: true}\n" + block, params))
    return cfg


LOCAL_SEARCH = f"{{population: 24, generations: {LS_GENERATIONS}, local_search: {{every: 2, members: 2, depth: 2}}}}"


def local_search_checks(work, bars, strategy):
    """ga.local_search: the climbs' batches of backtests go through the
    device backend's evaluate; its GA equals the CPU's, climbs included."""
    name = strategy[0]
    cfg = os.path.join(work, f"{name}-ls.yaml")
    write_config(cfg, bars, strategy, ga=LOCAL_SEARCH)
    r, cpu, _ = run(work, cfg, f"{name}-ls-cpu", "cpu", "ga")
    if not check(r.returncode == 0 and cpu, f"{name} local search cpu: {r.stderr}"):
        return
    check(cpu.get("ls_evaluations", 0) > 0, f"{name} local search cpu: no sweep: {cpu.get('ls_evaluations')}")
    r, doc, _ = run(work, cfg, f"{name}-ls-exact", "cuda", "ga", {"EVOLVE_TEST_DEVICE": "exact"})
    if check(r.returncode == 0, f"{name} local search exact twin: {r.stderr}"):
        check(same_results(cpu, doc) and doc.get("ls_evaluations") == cpu["ls_evaluations"],
              f"{name} local search exact twin: results differ from the CPU's")
    print(f"{name}: local search ({cpu['ls_evaluations']} evaluations of sweeps) on the twin = the CPU's")


def gpu_checks(work, cfg, name, modes=("grid", "ga"), climbs=False):
    """climbs: the GA has local search, whose climbs must have run (on the fewest generations too)."""
    for mode in modes:
        docs = {}
        for backend in ("cpu", "cuda"):
            r, docs[backend], out = run(work, cfg, f"{name}-gpu-{backend}-{mode}", backend, mode)
            if climbs and docs[backend] is not None:
                check(docs[backend].get("ls_evaluations", 0) > 0,
                      f"{name} {backend}: no climb ran: ls_evaluations {docs[backend].get('ls_evaluations')}")
            if backend == "cuda" and r.returncode != 0 and ("no usable CUDA device" in r.stderr
                                                            or "without CUDA" in r.stderr):
                print(f"test_strategy_backends: skipped: no CUDA backend here: {r.stderr.strip()}")
                sys.exit(77)
            check(r.returncode == 0, f"{name} {backend} {mode}: {r.stderr}")
            if backend == "cuda" and r.returncode == 0:
                be, probe = provenance(out)
                check(be == "cuda" and probe.startswith("passed: "), f"{name} {mode}: {be} {probe!r}")
        check(same_results(docs["cpu"], docs["cuda"]), f"{name} {mode}: the GPU's results differ from the CPU's")
        # the backtests in slices of 37 rows (dozens of launches a group on these bars), in groups of at most 50
        # genomes (a job of more takes several groups, each group's run states from its first genome)
        r, sliced, _ = run(work, cfg, f"{name}-gpu-sliced-{mode}", "cuda", mode,
                           {"EVOLVE_TEST_STRATEGY_SLICE": "37", "EVOLVE_TEST_STRATEGY_GROUP": "50"})
        check(r.returncode == 0 and same_results(docs["cpu"], sliced),
              f"{name} {mode}: the GPU's results in slices of 37 rows, groups of 50, differ from the CPU's: {r.stderr}")
        print(f"{name} {mode}: cuda == cpu bit for bit (whole backtests; slices of 37 rows in groups of 50 genomes)")


def main():
    with cli.scratch_dir("evolve-strategy-backends-") as work:
        write_bars(random_walk_bars(BARS, 23), os.path.join(work, "walk.csv"))
        for strategy in (SE, ATC):
            cfg = os.path.join(work, f"{strategy[0]}.yaml")
            write_config(cfg, "walk.csv", strategy)
            if args.gpu:
                gpu_checks(work, cfg, strategy[0])
                ls = os.path.join(work, f"{strategy[0]}-ls.yaml")
                write_config(ls, "walk.csv", strategy, ga=LOCAL_SEARCH)
                gpu_checks(work, ls, strategy[0] + "-ls", ("ga",), climbs=True)
                gpu_checks(work, flat_config(work, "walk.csv", strategy), strategy[0] + "-flat", ("grid",))
            else:
                twin_checks(work, cfg, strategy[0])
                validation_checks(work, "walk.csv", strategy)
                exact_twin_checks(work, flat_config(work, "walk.csv", strategy), strategy[0] + "-flat")
                local_search_checks(work, "walk.csv", strategy)
    sys.exit(check.exit())


if __name__ == "__main__":
    main()
