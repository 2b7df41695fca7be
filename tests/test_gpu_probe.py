#!/usr/bin/env python3
"""The GPU probe's verdicts, on a machine without a GPU (runs/gpu_probe.h).

EVOLVE_TEST_DEVICE=MODE puts the CPU backend's test twin (ga/backend_twin.h)
where a device backend would be, exact or corrupted in one place (a fitness
bit, a trade count, a top-K entry, a bred child, a cache entry). Through the
same probe and comparison code as a CUDA run:
  - --backend cuda stops before running anything (exit 1, no run file),
    naming the step, the first differing genome with its parameter values
    and both backends' values;
  - --backend auto warns loudly on stderr even with --quiet, runs on the
    CPU with results equal to a CPU run's, and the run file's /provenance
    records backend "cpu" and backend_probe "failed, ...";
  - an exact twin passes: one "gpu probe:" line, backend_probe "passed: ..."
    without the probe's timing, so that two runs write the same file;
  - --no-gpu-probe skips the probe, and backend_probe says so;
  - a device whose memory cannot hold the GA (ga-oom) keeps it on the host,
    says so, and gives the CPU's results;
  - a CPU run has no backend_probe attribute (its file is unchanged);
  - one result wrong in its fitness, trade count or feasibility, at random
    genome indices of the probe set, stops --backend cuda each time (the
    twin; with --cuda, the CUDA backend itself, EVOLVE_TEST_CUDA_CORRUPT,
    emulated on CI's CPU).
h5py checks the run files (skipped without it)."""
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402
import runfile  # noqa: E402

check = cli.Checker()

# What each corruption's message must say: the step and a genome.
CORRUPT = {
    "fitness": ["evaluate: genome (volatility=", "cpu: fitness ", "twin: fitness "],
    "trades": ["evaluate: genome (volatility=", "trade(s) kept"],
    "topk": ["top-1 of lattice points", "genome (volatility="],
    "breed": ["breed (generation 1): individual 1: cpu: genome (volatility=", "twin: genome (volatility="],
    "cache": ["dedup cache entry", "genome (volatility="],
}


def provenance(path):
    import h5py
    with h5py.File(path, "r") as h:
        a = h["provenance"].attrs
        probe = a.get("backend_probe")
        return (a["backend"].decode() if isinstance(a["backend"], bytes) else str(a["backend"]),
                None if probe is None else probe.decode() if isinstance(probe, bytes) else str(probe))


FAULT_FIELDS = ("fitness", "trades", "feasible")


def random_faults(work, cfg, E, env_of, name):
    """One result wrong in one field at random genome indices of the probe's
    evaluate (a probe comparing only some fields, or only part of its
    genomes, would let one through): --backend cuda must stop each run,
    naming the genome."""
    rng = random.Random(2026)
    faults = [(f, rng.randrange(0, 2000)) for f in FAULT_FIELDS for _ in range(3)] + [("fitness", 0)]
    for field, at in faults:
        r = cli.run(E, [cfg, "--quiet", "--backend", "cuda", "--output", f"fault-{field}-{at}.h5"], env_of(field, at),
                    cwd=work)
        check(r.returncode == 1 and "disagreeing with the CPU" in r.stderr and "evaluate: genome (" in r.stderr,
              f"{name}: {field} of result {at} wrong: exit {r.returncode}: {r.stderr[-600:]}")
        check(not os.path.exists(os.path.join(work, f"fault-{field}-{at}.h5")), f"{name}: {field} {at}: a run file")
    print(f"ok: {name}: {len(faults)} faults at random genomes and fields, each stopped", flush=True)


def main():
    a = cli.parse_args(["--cuda"])
    E = os.path.abspath(a.evolve)
    h5 = cli.have_modules("h5py")
    with cli.scratch_dir("evolve_probe_") as root:
        work = os.path.join(root, "work")
        os.makedirs(work)
        data, cfg = cli.data_and_config(E, root, os.path.join(work, "run.h5"), population=64, generations=5)
        if a.cuda:
            # the CUDA backend itself (the emulated one in CI: tests/cuda_emu), made wrong on purpose
            r = cli.run(E, [cfg, "--quiet", "--backend", "cuda", "--output", "exact-cuda.h5"], cwd=work)
            if r.returncode != 0 and ("no usable CUDA device" in r.stderr or "built without CUDA" in r.stderr):
                print(f"test_gpu_probe --cuda: skipped: {r.stderr.strip()}")
                return 77
            check(r.returncode == 0, f"cuda, exact: exit {r.returncode}: {r.stderr[-600:]}")
            random_faults(work, cfg, E, lambda f, at: {"EVOLVE_TEST_CUDA_CORRUPT": f"{f}:{at}"}, "cuda")
            return check.exit()
        random_faults(work, cfg, E, lambda f, at: {"EVOLVE_TEST_DEVICE": f, "EVOLVE_TEST_DEVICE_AT": str(at)}, "twin")
        big_cfg = os.path.join(work, "big.yaml")
        cli.write_config(big_cfg, data, os.path.join(work, "big.h5"), population=1024, generations=3)
        cpu = {}
        for mode in ("ga", "grid"):
            extra = ["--grid"] if mode == "grid" else []
            r = cli.run(E, [cfg, "--quiet", "--backend", "cpu", "--output", f"cpu-{mode}.h5"] + extra, cwd=work)
            check(r.returncode == 0, f"cpu {mode} run: {r.stderr}")
            cpu[mode] = r.stdout
            if h5:
                be, probe = provenance(os.path.join(work, f"cpu-{mode}.h5"))
                check(be == "cpu" and probe is None, f"cpu {mode}: backend {be}, backend_probe {probe!r}")

        for corrupt, msgs in CORRUPT.items():
            env = {"EVOLVE_TEST_DEVICE": corrupt}
            for mode in ("ga", "grid"):
                extra = ["--grid"] if mode == "grid" else []
                # --backend cuda: stops, nothing written
                before = cli.tree(work)
                out = f"stop-{corrupt}-{mode}.h5"
                r = cli.run(E, [cfg, "--quiet", "--backend", "cuda", "--output", out] + extra, env, cwd=work)
                check(r.returncode == 1, f"{corrupt} {mode} cuda: exit {r.returncode}: {r.stderr}")
                check("the GPU probe found the twin backend disagreeing with the CPU" in r.stderr,
                      f"{corrupt} {mode} cuda: {r.stderr}")
                for m in msgs:
                    check(m in r.stderr, f"{corrupt} {mode} cuda: message lacks '{m}': {r.stderr}")
                check(r.stdout == "", f"{corrupt} {mode} cuda: printed results: {r.stdout}")
                after = cli.tree(work)
                check(after == before, f"{corrupt} {mode} cuda: files changed: {sorted(set(after) ^ set(before))}")
                # --backend auto: warns (even quiet), runs on the CPU, records why
                out = f"auto-{corrupt}-{mode}.h5"
                r = cli.run(E, [cfg, "--quiet", "--backend", "auto", "--output", out] + extra, env, cwd=work)
                check(r.returncode == 0, f"{corrupt} {mode} auto: exit {r.returncode}: {r.stderr}")
                check("WARNING: the GPU probe found the twin backend disagreeing" in r.stderr and
                      "falls back to the CPU backend" in r.stderr, f"{corrupt} {mode} auto: {r.stderr}")
                for m in msgs:
                    check(m in r.stderr, f"{corrupt} {mode} auto: warning lacks '{m}': {r.stderr}")
                check(r.stdout == cpu[mode], f"{corrupt} {mode} auto: results differ from the CPU run's")
                if h5:
                    be, probe = provenance(os.path.join(work, out))
                    check(be == "cpu", f"{corrupt} {mode} auto: backend {be}")
                    check(probe is not None and probe.startswith("failed, the run fell back to the cpu backend")
                          and msgs[0] in probe, f"{corrupt} {mode} auto: backend_probe {probe!r}")
            print(f"ok: {corrupt}: cuda stops, auto falls back", flush=True)

        env = {"EVOLVE_TEST_DEVICE": "exact"}
        for mode in ("ga", "grid"):
            extra = ["--grid"] if mode == "grid" else []
            r = cli.run(E, [cfg, "--backend", "cuda", "--output", f"exact-{mode}.h5"] + extra, env, cwd=work)
            check(r.returncode == 0, f"exact {mode}: {r.stderr}")
            lines = [ln for ln in r.stderr.splitlines() if ln.startswith("gpu probe:")]
            check(len(lines) == 1 and "twin == cpu on" in lines[0], f"exact {mode}: probe lines {lines}")
            check(r.stdout == cpu[mode], f"exact {mode}: results differ from the CPU run's")
            # the probe's verdict is recorded without its timing: two runs (or a run and its resume)
            # write the same file, wall clocks aside
            r = cli.run(E, [cfg, "--quiet", "--backend", "cuda", "--output", f"exact-{mode}-again.h5"] + extra, env,
                        cwd=work)
            check(r.returncode == 0, f"exact {mode} again: {r.stderr}")
            if h5:
                diffs = runfile.compare(os.path.join(work, f"exact-{mode}.h5"),
                                        os.path.join(work, f"exact-{mode}-again.h5"))
                check(not diffs, f"exact {mode}: two runs wrote different files: {diffs[:3]}")
            r = cli.run(E, [cfg, "--quiet", "--backend", "auto", "--no-gpu-probe", "--output", f"skip-{mode}.h5"]
                        + extra, env, cwd=work)
            check(r.returncode == 0 and r.stdout == cpu[mode], f"--no-gpu-probe {mode}: {r.stderr}")
            if h5:
                be, probe = provenance(os.path.join(work, f"exact-{mode}.h5"))
                check(be == "twin" and probe and probe.startswith("passed: the twin backend equals the cpu backend"),
                      f"exact {mode}: backend {be}, backend_probe {probe!r}")
                be, probe = provenance(os.path.join(work, f"skip-{mode}.h5"))
                check(be == "twin" and probe and probe.startswith("skipped (--no-gpu-probe)"),
                      f"--no-gpu-probe {mode}: backend {be}, backend_probe {probe!r}")
        print("ok: exact twin passes; --no-gpu-probe skips", flush=True)
        # a device that cannot hold the GA: the run keeps it on the host, fitness on the device, same results
        r = cli.run(E, [cfg, "--backend", "cuda", "--output", "oom.h5"], {"EVOLVE_TEST_DEVICE": "ga-oom"}, cwd=work)
        check(r.returncode == 0 and "move to the host" not in r.stderr, f"ga-oom, population 64: {r.stderr}")
        r = cli.run(E, [big_cfg, "--backend", "cuda", "--output", "oom-big.h5"], {"EVOLVE_TEST_DEVICE": "ga-oom"},
                    cwd=work)
        check(r.returncode == 0 and "the population and its cache move to the host" in r.stderr,
              f"ga-oom, population 1024: exit {r.returncode}: {r.stderr[-500:]}")
        rc = cli.run(E, [big_cfg, "--backend", "cpu", "--quiet", "--output", "oom-cpu.h5"], cwd=work)
        check(rc.returncode == 0 and r.stdout == rc.stdout, "ga-oom: results differ from the CPU run's")
        print("ok: a device that cannot hold the GA keeps it on the host", flush=True)
        r = cli.run(E, [cfg, "--quiet", "--backend", "cuda"], {"EVOLVE_TEST_DEVICE": "nonsense"}, cwd=work)
        check(r.returncode == 2 and "unknown twin mode" in r.stderr, f"bad twin mode: {r.returncode} {r.stderr}")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
