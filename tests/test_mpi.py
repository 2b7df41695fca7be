#!/usr/bin/env python3
"""MPI runs (dist/, docs/scaling.md) against one process, bit for bit:

- `mpirun -n 2` and `-n 3 evolve CONFIG --grid` (small batches, so that every
  rank takes shards) print the same top-K table as the one-process grid, and
  write the same JSON summary and run file (timings, the device's thread count
  and the evaluator's name aside: one process sums dominance cells, the shards
  run the tables evaluator; against `--evaluator tables` the evaluator is
  equal too);
- `mpirun -n 2 evolve CONFIG` with 4 islands equals the one-process GA: table,
  JSON, run file; also on a device backend (the CPU's test twin), whose GA then
  moves to the host;
- a rank killed (SIGKILL) mid-run ends the others within seconds, and
  `mpirun -n 3 ... --resume` (another K) finishes with the uninterrupted run's
  file, continuing from the checkpoint's generation; a rank whose fitness
  fails mid-run (EVOLVE_TEST_FAIL) likewise, and one process resumes it;
- SPEC sec. 4.1's exits (trail, breakeven, max_hold): grid and GA on 2
  ranks equal one process, and a failed rank's run resumes to the same;
- a strategy config's grid and GA (also with local search, whose batch
  sweeps are sliced between the ranks) on 2 ranks equal one process;
- objective.aggregate's GA with local search (its sweeps through the
  evaluator, sliced between the ranks) on 2 ranks equals one process;
- a failure every rank meets alike is printed once, by rank 0; a failure of
  one rank alone by that rank, naming it.

Registered only when evolve is built with MPI (EVOLVE_MPIEXEC: CMake's
mpiexec, an Open MPI one: --oversubscribe); needs h5py, numpy and pandas
(else skipped with 77). Runs as root with Open MPI's consent variables."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402
import runfile  # noqa: E402

check = cli.Checker()
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
# What may differ between a K-rank and a one-process run of the same config:
# wall clocks, and the device line ("CPU, 1 thread": mpirun binds a rank to a core).
IGNORE = runfile.WALL_CLOCK | {"device"}


def mpirun_cmd(mpirun, n):
    return [mpirun, "-n", str(n), "--oversubscribe"]


def run_mpi(mpirun, n, evolve, args, env=None, timeout=120):
    return subprocess.run(mpirun_cmd(mpirun, n) + [evolve] + args, capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, **MPI_ENV, **(env or {})))


def json_core(path, drop=()):
    with open(path) as f:
        j = json.load(f)
    for k in ("seconds", "device") + tuple(drop):
        j.pop(k, None)
    return j


def same_run(ref, got, what, ignore=IGNORE, json_drop=()):
    """Table, JSON and run file of two runs (dicts: txt, json, h5)."""
    check(ref["txt"] == got["txt"], f"{what}: the printed tables differ:\n{ref['txt']}\n---\n{got['txt']}")
    check(json_core(ref["json"], json_drop) == json_core(got["json"], json_drop), f"{what}: the JSON summaries differ")
    diffs = runfile.compare(ref["h5"], got["h5"], ignore=ignore)
    check(not diffs, f"{what}: the run files differ: {diffs[:5]}")


def one_run(evolve, mpirun, n, cfg, d, name, extra=(), env=None):
    """evolve CONFIG EXTRA --output d/name.h5 --json d/name.json, on one
    process (n = 0) or n ranks; its outputs and stderr."""
    out = {"h5": os.path.join(d, name + ".h5"), "json": os.path.join(d, name + ".json")}
    args = [cfg, "--output", out["h5"], "--json", out["json"]] + list(extra)
    r = cli.run(evolve, args, env=env) if n == 0 else run_mpi(mpirun, n, evolve, args, env=env)
    check(r.returncode == 0, f"{name}: exit {r.returncode}: {r.stderr[-2000:]}")
    out["txt"], out["err"] = r.stdout, r.stderr
    return out


def test_grid(evolve, mpirun, cfg, d):
    # first the 3 ranks, which find no dataset cache: one builds it, the others wait for it
    runs = {3: one_run(evolve, mpirun, 3, cfg, d, "grid3", ["--grid", "--batch", "300"])}
    ref = one_run(evolve, mpirun, 0, cfg, d, "grid1", ["--grid"])
    ref_tables = one_run(evolve, mpirun, 0, cfg, d, "grid1t", ["--grid", "--evaluator", "tables"])
    runs[2] = one_run(evolve, mpirun, 2, cfg, d, "grid2", ["--grid", "--batch", "300"])
    for n, got in sorted(runs.items()):
        same_run(ref_tables, got, f"grid on {n} ranks vs one process (tables)")
        same_run(ref, got, f"grid on {n} ranks vs one process (dominance)", ignore=IGNORE | {"evaluator"},
                 json_drop=("evaluator",))
        m = re.search(r"grid: (\d+) ranks, shards of (\d+) points; points \(shards\) per rank:((?: \d+ \(\d+\))+)",
                      got["err"])
        check(m is not None and int(m.group(1)) == n, f"grid on {n} ranks: no shard line: {got['err']}")
        if m:
            points = [int(p) for p in re.findall(r"(\d+) \(", m.group(3))]
            # Shards are handed out on demand, so a rank that starts late on a busy machine may get none:
            # only the whole lattice, once, is required.
            check(len(points) == n and sum(points) == 11340,
                  f"grid on {n} ranks: the shards should cover the 11340 points once: {points}")
    test_grid_mixed(evolve, mpirun, cfg, d, ref_tables)
    r = run_mpi(mpirun, 2, evolve, [cfg, "--grid", "--evaluator", "dominance", "--output", os.path.join(d, "no.h5")])
    check(r.returncode == 2 and r.stderr.count("--evaluator dominance") == 1,
          f"dominance under mpirun: one usage error expected, got exit {r.returncode}: {r.stderr}")
    check(not os.path.exists(os.path.join(d, "no.h5")), "dominance under mpirun: an output was written")


def test_grid_mixed(evolve, mpirun, cfg, d, ref_tables):
    """A device rank beside a CPU rank (one GPU, two ranks: docs/scaling.md), MPMD: rank 0 on the
    test twin, whose grid folds no heatmap, rank 1 on the CPU, which could. The heatmap's reduction
    is collective, so the ranks must agree to leave it to rank 0 (once an MPI_ERR_TRUNCATE abort on a
    real GPU); the results, heatmap included, equal one CPU process's."""
    out = {"h5": os.path.join(d, "mixed.h5"), "json": os.path.join(d, "mixed.json")}
    args = [cfg, "--grid", "--batch", "300", "--output", out["h5"], "--json", out["json"]]
    r = subprocess.run([mpirun, "--oversubscribe", "-n", "1", "env", "EVOLVE_TEST_DEVICE=exact", evolve] + args
                       + [":", "-n", "1", "env", "-u", "EVOLVE_TEST_DEVICE", evolve] + args, capture_output=True,
                       text=True, timeout=120, env=dict(os.environ, **MPI_ENV))
    check(r.returncode == 0, f"grid on a twin rank and a CPU rank: exit {r.returncode}: {r.stderr[-2000:]}")
    if r.returncode == 0:
        out["txt"] = r.stdout
        same_run(ref_tables, out, "grid on a twin rank and a CPU rank vs one CPU process",
                 ignore=IGNORE | {"backend", "backend_probe"}, json_drop=("backend",))


def rank_pid(mpirun_pid, rank):
    """The pid of rank `rank` among mpirun's children (its environment says)."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            if ppid != mpirun_pid:
                continue
            with open(f"/proc/{pid}/environ", "rb") as f:
                env = f.read().split(b"\0")
        except (OSError, IndexError, ValueError):
            continue
        if f"OMPI_COMM_WORLD_RANK={rank}".encode() in env:
            return int(pid)
    return None


def test_kill_resume(evolve, mpirun, cfg, d, ref):
    out = os.path.join(d, "killed.h5")
    ckpt = out + ".partial.ckpt"
    p = subprocess.Popen(mpirun_cmd(mpirun, 2) + [evolve, cfg, "--output", out, "--quiet"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True,
                         env=dict(os.environ, **MPI_ENV, EVOLVE_TEST_DELAY_MS="100"))
    deadline = time.time() + 30
    while time.time() < deadline and not os.path.exists(ckpt):
        time.sleep(0.05)
    time.sleep(0.5)  # a few generations past the first checkpoint
    victim = rank_pid(p.pid, 1)
    check(victim is not None, "no rank 1 among mpirun's children")
    if victim is None:
        p.kill()
        p.communicate()
        return
    t0 = time.time()
    os.kill(victim, signal.SIGKILL)
    try:
        _, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
    took = time.time() - t0
    check(took < 10, f"rank 1 killed: the job took {took:.1f} s to end")
    check(p.returncode != 0, f"rank 1 killed: mpirun exited {p.returncode}")
    check(not os.path.exists(out), "rank 1 killed: a file under the final name")
    check(os.path.exists(ckpt), f"rank 1 killed: no checkpoint to resume from: {err}")
    with open(ckpt, "rb"):
        pass
    r = run_mpi(mpirun, 3, evolve, [cfg, "--resume", out + ".partial", "--quiet"])
    check(r.returncode == 0, f"resume on 3 ranks: exit {r.returncode}: {r.stderr[-2000:]}")
    check(r.stdout == ref["txt"], "resume on 3 ranks: the table differs from the uninterrupted run's")
    if os.path.exists(out):
        diffs = runfile.compare(ref["h5"], out, ignore=IGNORE)
        check(not diffs, f"resume on 3 ranks: the run file differs from the uninterrupted run's: {diffs[:5]}")
        import h5py
        with h5py.File(out, "r") as f:
            sessions = list(f["provenance/sessions"].asstr())
        check(len(sessions) == 2 and re.search(r"resumed at generation [1-9]", sessions[-1]) is not None,
              f"resume on 3 ranks: it should continue from the checkpoint: {sessions}")
    else:
        check(False, "resume on 3 ranks: no finished run file")


def test_strategy(evolve, mpirun, d):
    """A strategy config (seller_exhaustion on random-walk bars, calmar): its
    grid and 4-island GA, with and without local search, on 2 ranks equal one
    process."""
    from walk_bars import random_walk_bars, write_bars
    write_bars(random_walk_bars(2500, 11), os.path.join(d, "walk.csv"))
    cfg = os.path.join(d, "strategy.yaml")
    small = [("ema_fast", "4, 8, 16"), ("ema_slow", "8, 24, 48"), ("z_window", "20, 40"), ("atr_window", "8, 16"),
             ("vol_z", "0.5, 1.0, 1.5"), ("tr_z", "0.0, 0.5"), ("cloc_min", "0.3, 0.6"), ("reward_r", "1.5, 2.5")]
    ls = "local_search: {every: 2, members: 3, depth: 2}, "
    for mode, extra, ga in (("grid", ["--grid"], ""), ("ga", [], ""), ("ga_ls", [], ls)):
        with open(cfg, "w") as f:
            f.write("strategy:\n  type: seller_exhaustion\n  bars: {csv: walk.csv}\n"
                    "  costs: {fee_bp: 2, slippage_bp: 1}\n"
                    "parameters:\n" + "".join(f"  - {{name: {n}, values: [{v}]}}\n" for n, v in small) +
                    f"objective: {{name: calmar, min_trades: 3}}\nga: {{{ga}population: 64, generations: 20, "
                    "islands: 4}\ntop: 5\nseed: 7\n")
        ref = one_run(evolve, mpirun, 0, cfg, d, f"strategy-{mode}1", extra)
        got = one_run(evolve, mpirun, 2, cfg, d, f"strategy-{mode}2", extra)
        same_run(ref, got, f"a strategy config's {mode} on 2 ranks vs one process")
        if ga:
            check(json_core(got["json"]).get("ls_evaluations", 0) > 0, "a strategy's local search on 2 ranks: no sweep")


def test_rank_error(evolve, mpirun, cfg, d, ref):
    """Rank 1's fitness fails in generation 8 (EVOLVE_TEST_FAIL, as a device
    error would; an MPMD launch gives rank 1 alone the variable): one message
    from rank 1, every rank ended within seconds, and the checkpoint resumes
    on one process without mpirun to the uninterrupted run's result."""
    out = os.path.join(d, "failed.h5")
    t0 = time.time()
    r = subprocess.run([mpirun, "--oversubscribe", "-n", "1", evolve, cfg, "--output", out, "--quiet", ":", "-n", "1",
                        "env", "EVOLVE_TEST_FAIL=dist_evaluate:8", evolve, cfg, "--output", out, "--quiet"],
                       capture_output=True, text=True, timeout=60, env=dict(os.environ, **MPI_ENV))
    took = time.time() - t0
    lines = [x for x in r.stderr.splitlines() if x.startswith("evolve:")]
    check(r.returncode != 0 and len(lines) == 1 and lines[0].startswith("evolve: error: rank 1 of 2: EVOLVE_TEST_FAIL"),
          f"rank 1 failing mid-run: one message from rank 1 expected, exit {r.returncode}: {r.stderr}")
    check(took < 10, f"rank 1 failing mid-run: the job took {took:.1f} s to end")
    check(not os.path.exists(out) and os.path.exists(out + ".partial.ckpt"),
          f"rank 1 failing mid-run: a checkpoint and no final file expected: {os.listdir(d)}")
    r = cli.run(evolve, [cfg, "--resume", out + ".partial", "--quiet"])
    check(r.returncode == 0 and r.stdout == ref["txt"],
          f"resume on one process: exit {r.returncode}, the uninterrupted run's table expected: {r.stderr[-2000:]}")
    if os.path.exists(out):
        diffs = runfile.compare(ref["h5"], out, ignore=IGNORE)
        check(not diffs, f"resume on one process: the run file differs from the uninterrupted run's: {diffs[:5]}")


def test_exits(evolve, mpirun, data, root):
    """SPEC sec. 4.1's exits (configs/soxl_exits.yaml's lattice): the grid
    (shards of 20,000 of its 204,120 points) and the 4-island GA with local
    search on 2 ranks equal one process; a rank failing mid-run resumes on
    one process to the uninterrupted run's result."""
    d = os.path.join(root, "exits")
    os.makedirs(d)
    cfg = os.path.join(d, "run.yaml")
    cli.write_config(cfg, data, os.path.join(d, "run.h5"), parameters=cli.EXIT_PARAMETERS,
                     extra="  islands: 4\n  local_search: {every: 3, members: 2, depth: 1}\n")
    ref = one_run(evolve, mpirun, 0, cfg, d, "grid1", ["--grid", "--evaluator", "tables"])
    got = one_run(evolve, mpirun, 2, cfg, d, "grid2", ["--grid", "--batch", "20000"])
    same_run(ref, got, "exits: grid on 2 ranks vs one process (tables)")
    ref = one_run(evolve, mpirun, 0, cfg, d, "ga1")
    got = one_run(evolve, mpirun, 2, cfg, d, "ga2")
    same_run(ref, got, "exits: 4-island GA on 2 ranks vs one process")
    check(json_core(got["json"]).get("ls_evaluations", 0) > 0, "exits: the GA's local search on 2 ranks: no sweep")
    test_rank_error(evolve, mpirun, cfg, d, ref)


def test_folds(evolve, mpirun, data, root):
    """objective.aggregate (worst_fold over 2 folds: the data's 2 days):
    local search sweeps through the evaluator (docs/ga.md "Sweeps with a fold statistic"), sliced
    between the ranks; every rank climbs every member. The 4-island GA with
    local search on 2 ranks equals one process."""
    d = os.path.join(root, "folds")
    os.makedirs(d)
    cfg = os.path.join(d, "run.yaml")
    cli.write_config(cfg, data, os.path.join(d, "run.h5"), objective="total_return\n  aggregate: worst_fold",
                     min_trades=2, extra="  islands: 4\n  local_search: {every: 3, members: 2, depth: 1}\n"
                     "validation:\n  folds: 2\n")
    ref = one_run(evolve, mpirun, 0, cfg, d, "ga1")
    got = one_run(evolve, mpirun, 2, cfg, d, "ga2")
    same_run(ref, got, "worst_fold: 4-island GA with local search on 2 ranks vs one process")
    check(json_core(got["json"]).get("ls_evaluations", 0) > 0, "worst_fold: the GA's local search on 2 ranks: no sweep")


def test_config_error(evolve, mpirun, cfg, d):
    bad = os.path.join(d, "bad.yaml")
    with open(bad, "w") as f:
        f.write("seed: [1, 2]\n")
    r = run_mpi(mpirun, 2, evolve, [bad])
    check(r.returncode != 0 and r.stderr.count("evolve: error:") == 1 and "rank 0" not in r.stderr,
          f"a config error on 2 ranks: printed once expected, exit {r.returncode}: {r.stderr}")
    r = run_mpi(mpirun, 2, evolve, [cfg, "--validate", "--output", os.path.join(d, "val.h5")])
    check(r.returncode == 2 and r.stderr.count("evolve: error: --validate runs on one process") == 1,
          f"--validate on 2 ranks: one usage error expected, exit {r.returncode}: {r.stderr}")


def test_one_rank_fails(evolve, mpirun, cfg, d):
    """Rank 1 alone cannot start (its config is bad; MPMD launch): it says so,
    once, with its rank; rank 0 is silent; nothing is written."""
    bad = os.path.join(d, "bad.yaml")
    out = os.path.join(d, "mpmd.h5")
    r = subprocess.run([mpirun, "--oversubscribe", "-n", "1", evolve, cfg, "--grid", "--output", out, ":", "-n", "1",
                        evolve, bad, "--grid", "--output", out], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, **MPI_ENV))
    lines = [x for x in r.stderr.splitlines() if x.startswith("evolve:")]
    check(r.returncode != 0 and len(lines) == 1 and "rank 1 of 2" in lines[0] and "bad.yaml" in lines[0],
          f"rank 1 failing alone: one message from rank 1 expected, exit {r.returncode}: {r.stderr}")
    check(not [f for f in os.listdir(d) if f.startswith("mpmd.h5")], "rank 1 failing alone: an output was left")


def main():
    args = cli.parse_args()
    mpirun = os.environ.get("EVOLVE_MPIEXEC") or shutil.which("mpirun")
    if not mpirun or not cli.have_modules("h5py", "numpy", "pandas"):
        print("test_mpi: skipped (needs mpirun, h5py, numpy and pandas)")
        return 77
    with cli.scratch_dir("evolve-mpi-") as root:
        out = os.path.join(root, "run", "ga1.h5")
        os.makedirs(os.path.dirname(out))
        _, cfg = cli.data_and_config(args.evolve, root, out, extra="  islands: 4\n")
        d = os.path.dirname(out)
        test_grid(args.evolve, mpirun, cfg, d)
        ref = one_run(args.evolve, mpirun, 0, cfg, d, "ga1")
        got = one_run(args.evolve, mpirun, 2, cfg, d, "ga2")
        same_run(ref, got, "4-island GA on 2 ranks vs one process")
        # a device backend (the test twin, device-resident GA ops): on 2 ranks the population moves to the
        # host (host_ga 1), the generations stay the same; the probe's line holds its timing
        twin = {"EVOLVE_TEST_DEVICE": "exact"}
        ref_twin = one_run(args.evolve, mpirun, 0, cfg, d, "twin1", ["--backend", "cuda"], env=twin)
        got_twin = one_run(args.evolve, mpirun, 2, cfg, d, "twin2", ["--backend", "cuda"], env=twin)
        same_run(ref_twin, got_twin, "a device backend's GA on 2 ranks vs one process",
                 ignore=IGNORE | {"host_ga", "backend_probe"})
        check(ref_twin["txt"] == ref["txt"], "the twin's GA differs from the CPU's")
        import h5py
        with h5py.File(ref_twin["h5"], "r") as f1, h5py.File(got_twin["h5"], "r") as f2:
            hosts = (int(f1["ga"].attrs["host_ga"]), int(f2["ga"].attrs["host_ga"]))
        check(hosts == (0, 1), f"host_ga of the twin's GA on 1 and 2 ranks: {hosts}, expected (0, 1)")
        test_kill_resume(args.evolve, mpirun, cfg, d, ref)
        test_rank_error(args.evolve, mpirun, cfg, d, ref)
        test_config_error(args.evolve, mpirun, cfg, d)
        test_one_rank_fails(args.evolve, mpirun, cfg, d)
        test_strategy(args.evolve, mpirun, d)
        test_exits(args.evolve, mpirun, os.path.join(root, "data"), root)
        test_folds(args.evolve, mpirun, os.path.join(root, "data"), root)
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
