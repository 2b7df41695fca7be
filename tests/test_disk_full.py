"""Every writer meets a full disk cleanly.

Each command that writes (ingest, the dataset cache, the GA run file and its
checkpoint, the grid run file and --json, validate, report, gen-data) runs
with less room than it needs, at several fill levels, so that the failing
write lands in each of its files in turn. Room is taken away two ways:
  - a file-size limit (RLIMIT_FSIZE, SIGXFSZ ignored): every write past it
    fails with EFBIG, on any machine, for any user;
  - where this process may mount one (root), a tiny tmpfs: a real ENOSPC.
Each run must then exit 1 (or 0 when the room sufficed) with no signal (HDF5's
exit handler used to crash after a failed flush), print one error naming the
output and the reason with no HDF5 stack or addresses, leave no temporary
file, and leave no output that does not open. A GA run or a grid stopped by
a full disk resumes, once there is room, to the same file as an uninterrupted
run.
"""

import contextlib
import glob
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402
import runfile  # noqa: E402

check = cli.Checker()
LIMITS = [2000, 9000, 30000, 70000, 150000, 400000, 1500000]
REASON = re.compile(r"No space left on device|File too large")
NOISE = re.compile(r"0x[0-9a-f]{6,}|#0\d\d:|HDF5-DIAG|errno = ")


def limited(nbytes):
    def preexec():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (nbytes, nbytes))
    return preexec if nbytes else None


def run(evolve, args, nbytes=0):
    return subprocess.run([evolve] + args, capture_output=True, text=True, preexec_fn=limited(nbytes), timeout=300)


def opens(path):
    """A finished output opens: HDF5 through h5py, JSON through json."""
    try:
        if path.endswith(".h5"):
            import h5py
            with h5py.File(path, "r") as f:
                return len(f.keys()) > 0
        if path.endswith(".json"):
            import json
            with open(path) as f:
                json.load(f)
        return True
    except Exception:
        return False


def files_under(d):
    return set(glob.glob(os.path.join(d, "**"), recursive=True))


def judge(what, r, out_dir, before, outputs, resumable=False):
    """The run ended cleanly, whatever the room was; `before`: the files
    that were there before it."""
    check(r.returncode in (0, 1), f"{what}: exit {r.returncode} (a signal is a crash): {r.stderr[-400:]}")
    new = files_under(out_dir) - before
    temps = [f for f in new if ".tmp." in os.path.basename(f)]
    check(not temps, f"{what}: temporary files left: {temps}")
    if r.returncode == 1:
        errors = [ln for ln in r.stderr.splitlines() if REASON.search(ln)]
        check(errors and out_dir in errors[0],
              f"{what}: the error does not name the output and the reason: {r.stderr[-400:]}")
        check(not NOISE.search(r.stderr), f"{what}: HDF5's raw error text reached the user: {r.stderr[-400:]}")
    for path in outputs:
        if os.path.exists(path):
            check(opens(path), f"{what}: {path} exists but does not open (exit {r.returncode})")
        elif r.returncode == 0:
            check(False, f"{what}: exit 0 without {path}")
    if r.returncode == 1 and not resumable:
        partial = [f for f in new if ".partial" in f]
        check(not partial, f"{what}: a run that cannot be resumed left {partial}")


def sweep(evolve, root, data, room, limits, failed):
    """Every writer at every fill level; `room` says how room is limited.
    failed[writer] counts the runs the lack of room stopped."""
    ga_ref = grid_ref = None
    for n in limits:
        tag = f"{room} {n}"
        d = os.path.join(root, f"{room}-{n}")
        out = os.path.join(d, "out")
        os.makedirs(out)
        cfg = os.path.join(d, "run.yaml")
        cli.write_config(cfg, data, os.path.join(out, "run.h5"), population=64, generations=12)
        with open(cfg) as f:
            text = f.read()
        with open(cfg, "w") as f:  # the dataset cache in the room-limited folder
            f.write(text.replace(os.path.join(d, "dataset.h5"), os.path.join(out, "dataset.h5")))

        def limit():
            return n if room == "rlimit" else 0

        with room_for(room, out, n):
            cases = [
                ("ingest", ["ingest", "--market", os.path.join(data, "market"), "--trades",
                            os.path.join(data, "all_trade_logs.csv"), "--tickers", "SOXL", "--out", os.path.join(out, "ds.h5"),
                            "--quiet"],
                 [os.path.join(out, "ds.h5")], False),
                ("grid", [cfg, "--grid", "--quiet", "--json", os.path.join(out, "grid.json"), "--output",
                          os.path.join(out, "grid.h5")],
                 [os.path.join(out, "grid.h5"), os.path.join(out, "grid.json"), os.path.join(out, "dataset.h5")],
                 True),
                ("validate", [cfg, "--validate", "--quiet", "--output", os.path.join(out, "validate.h5")],
                 [os.path.join(out, "validate.h5")], False),
                ("ga", [cfg, "--quiet"], [os.path.join(out, "run.h5")], True),
                ("gen-data", ["gen-data", "--out", os.path.join(out, "gd"), "--days", "1", "--trades", "50",
                              "--quiet"], [], False),
            ]
            for name, args, outputs, resumable in cases:
                before = files_under(out)
                r = run(evolve, args, limit())
                failed[name] = failed.get(name, 0) + (r.returncode == 1)
                judge(f"{tag} {name}", r, out, before, outputs, resumable)
                if room == "rlimit" and name == "ga" and r.returncode == 1 and os.path.exists(os.path.join(out, "run.h5.partial")):
                    ga_ref = ga_ref or reference_ga(evolve, root, cfg)
                    resume_after_room(evolve, cfg, out, ga_ref, tag)
                if room == "rlimit" and name == "grid" and r.returncode == 1 and os.path.exists(os.path.join(out, "grid.h5.partial")):
                    grid_ref = grid_ref or reference_ga(evolve, root, cfg, ["--grid"])
                    resume_after_room(evolve, cfg, out, grid_ref, tag, ["--grid"], "grid.h5")
            if ga_ref:  # the charts of a finished GA run
                before = files_under(out)
                r = run(evolve, ["report", ga_ref, "--out", os.path.join(out, "report")], min(limit(), 9000))
                failed["report"] = failed.get("report", 0) + (r.returncode == 1)
                judge(f"{tag} report", r, out, before, [])


def json_on_full_disk(evolve, root, data, failed):
    """The --json summary alone on a full tmpfs (its run file has room)."""
    d = os.path.join(root, "json")
    small = os.path.join(d, "small")
    os.makedirs(small)
    cfg = os.path.join(d, "run.yaml")
    cli.write_config(cfg, data, os.path.join(d, "run.h5"), population=64, generations=12)
    with room_for("tmpfs", small, 4096):
        before = files_under(small)
        r = run(evolve, [cfg, "--grid", "--quiet", "--top", "100", "--json", os.path.join(small, "top.json")])
        failed["json"] = r.returncode == 1
        judge("tmpfs json", r, small, before, [os.path.join(small, "top.json")])


def reference_ga(evolve, root, cfg, mode=()):
    """A run that never stopped (the GA, or mode: ["--grid"])."""
    d = tempfile.mkdtemp(dir=root)
    ref = os.path.join(d, "ref.h5")
    r = run(evolve, [cfg, "--quiet", "--output", ref] + list(mode))
    check(r.returncode == 0, f"the reference run {mode} failed: {r.stderr}")
    return ref


def resume_after_room(evolve, cfg, out, ref, tag, mode=(), name="run.h5"):
    """The full disk stopped a GA run (or mode: ["--grid"], a grid): once
    there is room it resumes to the same file as a run that never stopped."""
    final = os.path.join(out, name)
    what = f"{tag} {' '.join(mode) or 'ga'}"
    r = run(evolve, [cfg, "--resume", final, "--quiet"] + list(mode))
    if check(r.returncode == 0, f"{what}: the resume after the full disk exited {r.returncode}: {r.stderr}"):
        diffs = runfile.compare(ref, final)
        check(not diffs, f"{what}: the resumed run differs from an uninterrupted one: {diffs[:3]}")


@contextlib.contextmanager
def room_for(room, folder, nbytes):
    """rlimit: nothing to set up (the limit goes on the process); tmpfs: a
    tmpfs of nbytes mounted on folder for the block."""
    if room != "tmpfs":
        yield
        return
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={nbytes}", "tmpfs", folder], check=True)
    try:
        yield
    finally:
        subprocess.run(["umount", "-l", folder])


def can_mount_tmpfs(root):
    if os.geteuid() != 0 or not shutil.which("mount"):
        return False
    d = os.path.join(root, "probe")
    os.makedirs(d)
    ok = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", d], capture_output=True).returncode == 0
    if ok:
        subprocess.run(["umount", d])
    return ok


def main():
    a = cli.parse_args()
    if not cli.have_modules("h5py", "numpy"):
        print("skipped: h5py / numpy are not available to open the outputs")
        return 77
    # under ASan: HDF5's own blocks of a failed write are not evolve's leaks (tests/support/lsan_hdf5.supp)
    supp = os.path.join(os.path.dirname(os.path.abspath(__file__)), "support", "lsan_hdf5.supp")
    os.environ["LSAN_OPTIONS"] = ":".join(o for o in (os.environ.get("LSAN_OPTIONS"), f"suppressions={supp}") if o)
    # whole stacks through HDF5 (built without frame pointers), so that the suppressions see its functions
    os.environ["ASAN_OPTIONS"] = ":".join(o for o in (os.environ.get("ASAN_OPTIONS"), "fast_unwind_on_malloc=0") if o)
    with cli.scratch_dir("evolve_diskfull_") as root:
        data = os.path.join(root, "data")
        cli.make_data(a.evolve, data)
        failed = {}
        sweep(a.evolve, root, data, "rlimit", LIMITS, failed)
        if can_mount_tmpfs(root):
            sweep(a.evolve, root, data, "tmpfs", [8192, 65536, 262144, 1048576], failed)
            json_on_full_disk(a.evolve, root, data, failed)
            print("full disk: file-size limits and tmpfs mounts")
        else:
            print("full disk: file-size limits only (this process cannot mount a tmpfs)")
        print("runs stopped by the lack of room, by writer:", failed)
        # every writer met a full disk at least once, or this test no longer tests it
        for writer, n in failed.items():
            check(n > 0, f"{writer}: no run met the full disk; the fill levels need adjusting")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
