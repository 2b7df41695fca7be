"""One owner per output: two commands that meet one output never lose it.

  - a run and a resume (or a second run) of one output, started at random
    moments against each other: the second is refused naming the live
    process, the first finishes, and its file equals an undisturbed run's;
  - two resumes of one crashed run at once: one continues, the other is
    refused, and the result equals an undisturbed run's;
  - kill -9 in the middle of a grid run, a dataset-cache build and an
    ingest: the next command removes the temporary files the killed one left,
    says so, and its outputs open;
  - a run file another program holds open for writing (HDF5's own lock) is
    "in use", never "damaged": the resume is refused and nothing is lost.
Every case asserts: no unreadable file, no run exiting 0 with a broken
result, nothing half-written left behind.

--small (the sanitizer build, tests/CMakeLists.txt): every case with fewer
timings (8 of each race, was 20; 4 rounds of kills, was 8: the first still
empties the dataset cache), bench/RESULTS.md "CI time, fourth cut".
"""

import glob
import os
import random
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402
import runfile  # noqa: E402

check = cli.Checker()
opts = cli.parse_args(["--small"])  # --small: the docstring
TIMINGS = 8 if opts.small else 20
KILL_ROUNDS = 4 if opts.small else 8  # t % 4 == 0 empties the cache: round 0 of 4 still does
BUSY = "is writing this output now"


def start(evolve, args, env=None):
    return subprocess.Popen([evolve] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, **(env or {})))


def finish(p):
    _, err = p.communicate(timeout=120)
    return p.returncode, err


def temps(d):
    return [f for f in glob.glob(os.path.join(d, "*")) if ".tmp." in os.path.basename(f)]


def same(ref, got, what):
    diffs = runfile.compare(ref, got)
    return check(not diffs, f"{what}: the file differs from an undisturbed run's: {diffs[:3]}")


def setup_case(evolve, root, data, name):
    """A case's folder, config and output, and the output of an undisturbed
    run of the same config (ref.h5)."""
    d = os.path.join(root, name)
    os.makedirs(d)
    cfg = os.path.join(d, "run.yaml")
    out = os.path.join(d, "run.h5")
    cli.write_config(cfg, data, out, population=64, generations=15)
    ref = os.path.join(d, "ref.h5")
    r = cli.run(evolve, [cfg, "--quiet", "--output", ref])
    check(r.returncode == 0, f"{name}: the undisturbed run: {r.stderr}")
    return d, cfg, out, ref


def clean(d):
    for f in glob.glob(os.path.join(d, "run.h5*")):  # not ref.h5
        os.remove(f)


def run_against_second(evolve, root, data, rng):
    """A GA run, and at a random moment a resume or a second run of its output."""
    d, cfg, out, ref = setup_case(evolve, root, data, "pair")
    slow = {"EVOLVE_TEST_DELAY_MS": "15"}
    refused = 0
    for t in range(TIMINGS):
        clean(d)
        a = start(evolve, [cfg, "--quiet"], slow)
        time.sleep(rng.uniform(0.0, 0.5))
        second = [cfg, "--resume", out, "--quiet"] if t % 2 == 0 else [cfg, "--quiet"]
        b = start(evolve, second)
        (a_rc, a_err), (b_rc, b_err) = finish(a), finish(b)
        what = f"timing {t} ({'resume' if t % 2 == 0 else 'run'} after a run)"
        # whichever took the output first finishes; the other is refused
        # naming it, or (a resume) finds nothing or a finished run to resume
        check(a_rc == 0 or b_rc == 0, f"{what}: neither finished: {a_err} | {b_err}")
        for rc, err, other in ((a_rc, a_err, b), (b_rc, b_err, a)):
            if rc == 0:
                continue
            if BUSY in err:
                refused += 1
                check(f"process {other.pid}" in err, f"{what}: the refusal does not name process {other.pid}: {err}")
            else:
                check("a finished run" in err or "no run to resume" in err,
                      f"{what}: a command failed unexpectedly: {err}")
        check(os.path.exists(out) and same(ref, out, what), f"{what}: no intact run file")
        check(not temps(d), f"{what}: temporary files left: {temps(d)}")
    check(refused >= TIMINGS // 3, f"only {refused} of {TIMINGS} timings met a live run: the case no longer tests it")
    print(f"run + second command: {refused} of {TIMINGS} refused as busy", flush=True)


def two_resumes(evolve, root, data, rng):
    """A crashed run, then two resumes of it at once."""
    d, cfg, out, ref = setup_case(evolve, root, data, "resumes")
    slow = {"EVOLVE_TEST_DELAY_MS": "15"}
    for t in range(TIMINGS):
        clean(d)
        r = cli.run(evolve, [cfg, "--quiet"], {"EVOLVE_TEST_KILL": f"written:{rng.randint(1, 10)}"})
        check(r.returncode == -signal.SIGKILL, f"timing {t}: the crash was not a kill ({r.returncode})")
        a = start(evolve, [cfg, "--resume", out, "--quiet"], slow)
        time.sleep(rng.uniform(0.0, 0.2))
        b = start(evolve, [cfg, "--resume", out, "--quiet"], slow)
        (a_rc, a_err), (b_rc, b_err) = finish(a), finish(b)
        what = f"timing {t}"
        check(sorted([a_rc, b_rc]) == [0, 1], f"{what}: exits {a_rc}, {b_rc}: {a_err} | {b_err}")
        loser = a_err if a_rc else b_err
        check(BUSY in loser or "a finished run" in loser, f"{what}: the refused resume said: {loser}")
        check(os.path.exists(out) and same(ref, out, what), f"{what}: no intact run file")
        check(not temps(d), f"{what}: temporary files left: {temps(d)}")
    print(f"two resumes at once: {TIMINGS} timings", flush=True)


def killed_writers(evolve, root, data, rng):
    """kill -9 during a grid run (cache build included) and an ingest; the
    next command tidies up and says so."""
    d, cfg, out, _ = setup_case(evolve, root, data, "killed")
    cache = os.path.join(d, "dataset.h5")
    ds = os.path.join(d, "ds.h5")
    ingest = ["ingest", "--market", os.path.join(data, "market"), "--trades", os.path.join(data, "all_trade_logs.csv"),
              "--tickers", "SOXL", "--out", ds, "--quiet"]
    grid = [cfg, "--grid", "--quiet", "--output", out]  # out, not its default out.grid.h5: the file checked below
    tidied = 0
    for t in range(KILL_ROUNDS):
        for args in (grid, ingest):
            if t % 4 == 0 and os.path.exists(cache):
                os.remove(cache)
            p = start(evolve, args)
            time.sleep(rng.uniform(0.0, 0.15))
            p.send_signal(signal.SIGKILL)
            p.wait()
            # a planted leftover of a killed writer, whatever the kill hit
            planted = (out if args is grid else ds) + ".tmp.999999"
            with open(planted, "w") as f:
                f.write("half")
            # a grid killed after its first progress write is continued, not started over (runs/grid_resume.h)
            resumable = args is grid and os.path.exists(out + ".partial")
            r = cli.run(evolve, [cfg, "--grid", "--quiet", "--resume", out] if resumable else args)
            what = f"after a kill during {'grid' if args is grid else 'ingest'} ({t})"
            check(r.returncode == 0, f"{what}: exit {r.returncode}: {r.stderr}")
            check(not temps(d), f"{what}: temporary files left: {temps(d)}")
            check("removed " + planted in r.stderr, f"{what}: removing {planted} was not said: {r.stderr}")
            tidied += "removed " in r.stderr
            for f in (out, cache) if args is grid else (ds,):
                check(cli.have_modules("h5py") and h5_opens(f), f"{what}: {f} does not open")
    print(f"kill -9 during grid and ingest writes: {tidied} next commands tidied up", flush=True)


def h5_opens(path):
    import h5py
    try:
        with h5py.File(path, "r") as f:
            return len(f.keys()) > 0
    except Exception:
        return False


def held_by_another_program(evolve, root, data):
    """HDF5's own lock: a run file open for writing elsewhere is in use."""
    d, cfg, out, _ = setup_case(evolve, root, data, "held")
    r = cli.run(evolve, [cfg, "--quiet"], {"EVOLVE_TEST_KILL": "written:5"})
    partial = out + ".partial"
    before = os.path.getsize(partial)
    holder = subprocess.Popen([sys.executable, "-c", "import h5py, sys, time\n"
                               f"f = h5py.File({partial!r}, 'r+')\nprint('open', flush=True)\ntime.sleep(30)"],
                              stdout=subprocess.PIPE, text=True)
    holder.stdout.readline()
    try:
        r = cli.run(evolve, [cfg, "--resume", out, "--quiet"])
        check(r.returncode == 1 and "another program is writing it" in r.stderr,
              f"held: the resume exited {r.returncode}: {r.stderr}")
        check("starts again" not in r.stderr, f"held: a file in use was taken for damaged: {r.stderr}")
        check(os.path.getsize(partial) == before, "held: the partial run file changed under its holder")
    finally:
        holder.kill()
        holder.wait()
    r = cli.run(evolve, [cfg, "--resume", out, "--quiet"])
    check(r.returncode == 0 and "starts again" not in r.stderr, f"held: the resume once free: {r.stderr}")


def cache_in_new_folder(evolve, root, data):
    """The dataset cache's lock file lies beside the cache: a cache in a
    folder that does not exist yet still works (the folder is made first)."""
    d = os.path.join(root, "newcache")
    os.makedirs(d)
    cfg = os.path.join(d, "run.yaml")
    cli.write_config(cfg, data, os.path.join(d, "run.h5"))
    with open(cfg) as f:
        text = f.read()
    cache = os.path.join(d, "not", "yet", "dataset.h5")
    with open(cfg, "w") as f:
        f.write(text.replace(os.path.join(d, "dataset.h5"), cache))
    r = cli.run(evolve, [cfg, "--grid", "--quiet"])
    check(r.returncode == 0 and os.path.exists(cache), f"cache in a new folder: exit {r.returncode}: {r.stderr}")


def main():
    a = opts
    if not cli.have_modules("h5py", "numpy"):
        print("skipped: h5py / numpy are not available to compare run files")
        return 77
    rng = random.Random(20261125)
    with cli.scratch_dir("evolve_owner_") as root:
        data = os.path.join(root, "data")
        cli.make_data(a.evolve, data)
        run_against_second(a.evolve, root, data, rng)
        two_resumes(a.evolve, root, data, rng)
        killed_writers(a.evolve, root, data, rng)
        held_by_another_program(a.evolve, root, data)
        cache_in_new_folder(a.evolve, root, data)
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
