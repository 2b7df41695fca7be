#!/usr/bin/env python3
"""A grid that keeps its progress (runs/grid_resume.h): a grid with SPEC sec.
4.1's exits (configs/soxl_exits.yaml's lattice, 204,120 points, heatmap on)
killed with SIGKILL (inside the progress write through EVOLVE_TEST_KILL, and
at random moments from outside, several times in a row) or stopped with
Ctrl-C, then continued with --grid --resume, must end with a run file
identical, dataset by dataset and attribute by attribute, to an
uninterrupted run's (wall-clock fields excepted), and the same --json
summary (its seconds excepted). Both pass orders are covered: the dominance
sums (what auto picks for total_return) and the tables evaluator in small
batches. A resume must continue where the progress file stopped, not start
over (the file would be identical either way): the finished file's session
says "resumed at point N", N the points the progress file held. Also:
a fresh grid over an interrupted one is refused with the command that
resumes it, a GA --resume of a grid and a resume with another evaluator are
refused, and a damaged progress file (truncated, or a pool entry past the
lattice) starts the grid over to the same end. The progress's seconds
continue across a resume.

Needs h5py (else skipped with 77)."""
import json
import os
import random
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402
import runfile  # noqa: E402

check = cli.Checker()
# per block (the dominance sums' block: a round of exit combinations, about 32 a pass), so that the
# pass lasts long enough for kills from outside to land mid-run
DELAY_MS = {"dominance": "150", "tables": "25"}


class Case:
    """A grid config, its command line and its output, in its own directory."""

    def __init__(self, root, name, data, args):
        self.dir = os.path.join(root, name)
        self.kind = name
        os.makedirs(self.dir)
        self.args = ["--grid"] + args
        # The config's output names the run; the grid writes its own file beside it (runs/run_name.h).
        self.out = cli.mode_file(os.path.join(self.dir, "run.h5"), self.args)
        self.name = os.path.basename(self.out)
        self.partial = self.out + ".partial"
        self.cfg = os.path.join(self.dir, "run.yaml")
        cli.write_config(self.cfg, data, os.path.join(self.dir, "run.h5"), parameters=cli.EXIT_PARAMETERS,
                         extra="grid:\n  checkpoint_every_s: 0\n")

    def clean(self):
        for f in os.listdir(self.dir):
            if f.startswith(self.name):
                os.remove(os.path.join(self.dir, f))

    def leftovers(self):
        return sorted(f for f in os.listdir(self.dir) if f.startswith(self.name) and f != self.name + ".lock")

    def run(self, evolve, extra, env=None):
        return cli.run(evolve, [self.cfg] + self.args + extra, env, timeout=300)


def progress_attr(case, name):
    """An attribute of the progress file ("done": the points it holds, "seconds": the pass's wall seconds so
    far), or None."""
    import h5py
    try:
        with h5py.File(case.partial, "r") as f:
            return f.attrs[name].item()
    except (OSError, KeyError):
        return None


def progress_done(case):
    return progress_attr(case, "done")


def summary(path):
    """The --json summary without its wall-clock seconds."""
    with open(path) as f:
        d = json.load(f)
    d.pop("seconds", None)
    return d


def same_as(case, ref, ref_json, got_json, what):
    diffs = runfile.compare(ref, case.out)
    check(not diffs, f"{what}: the resumed run file differs from the uninterrupted one: {diffs[:5]}")
    check(summary(ref_json) == summary(got_json), f"{what}: the resumed --json summary differs")


def sessions(path):
    import h5py
    with h5py.File(path, "r") as f:
        return list(f["provenance/sessions"].asstr())


def resume_to_end(evolve, case, ref, ref_json, what, argv=None):
    """argv: the resume's command line (none: the case's, --resume RUN)."""
    done = progress_done(case)
    got_json = os.path.join(case.dir, "got.json")
    argv = argv or [case.cfg] + case.args + ["--resume", case.out]
    r = cli.run(evolve, argv + ["--json", got_json], timeout=300)
    if not check(r.returncode == 0, f"{what}: resume exited {r.returncode}: {r.stderr}"):
        return
    check(case.leftovers() == [case.name], f"{what}: files left after the resume: {case.leftovers()}")
    last = sessions(case.out)[-1]
    if done is not None:
        check(re.search(rf"\bresumed at point {done} of 204120\b", last) is not None,
              f"{what}: the progress file held {done} points, the resume's session says {last!r}")
        check("--quiet" in argv or f"at point {done} of 204120" in r.stdout + r.stderr,
              f"{what}: the resume did not show its progress")
    same_as(case, ref, ref_json, got_json, what)
    return done


def killed_inside(evolve, case, ref, ref_json, serial):
    """Killed with its progress file's next version written, not yet renamed."""
    case.clean()
    r = case.run(evolve, ["--quiet"], {"EVOLVE_TEST_KILL": f"grid_progress:{serial}"})
    check(r.returncode == -signal.SIGKILL, f"grid_progress:{serial}: expected SIGKILL, got {r.returncode}: {r.stderr}")
    check(not os.path.exists(case.out), f"grid_progress:{serial}: a killed grid left {case.out}")
    check(os.path.exists(case.partial) == (serial > 0), f"grid_progress:{serial}: left {case.leftovers()}")
    if serial == 0:  # nothing saved yet: there is nothing to resume, the grid runs again
        r = case.run(evolve, ["--resume", case.out])
        check(r.returncode == 1 and "no run to resume" in r.stderr, f"nothing to resume: {r.returncode} {r.stderr}")
        return
    if serial == 7:  # the pass's seconds continue across a resume (results/README.md): killed again at once
        before = progress_attr(case, "seconds")
        r = case.run(evolve, ["--resume", case.out, "--quiet"], {"EVOLVE_TEST_KILL": "grid_progress:1"})
        after = progress_attr(case, "seconds")
        check(r.returncode == -signal.SIGKILL and before is not None and after is not None and after >= before,
              f"grid_progress:{serial}: the progress's seconds went from {before} to {after} over a resume")
    done = resume_to_end(evolve, case, ref, ref_json, f"killed at grid_progress:{serial}")
    check(done is not None and 0 < done < 204120, f"grid_progress:{serial}: the progress held {done} points")


def random_kills(evolve, case, ref, ref_json, rng, kills):
    """kill -9 at random moments, resuming after each; then to the end (a
    loaded machine may kill before the first save: that resume starts over,
    which killed_inside and ctrl_c cannot miss)."""
    case.clean()
    landed = []
    for k in range(kills):
        args = [case.cfg] + case.args + ["--quiet"]
        if os.path.exists(case.partial):
            args += ["--resume", case.out]
        p = subprocess.Popen([evolve] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             env=dict(os.environ, EVOLVE_TEST_DELAY_MS=DELAY_MS[case.kind]))
        time.sleep(rng.uniform(0.6, 1.3))
        p.send_signal(signal.SIGKILL)
        p.communicate()
        check(p.returncode == -signal.SIGKILL, f"random kill {k}: the grid ended first ({p.returncode})")
        check(not os.path.exists(case.out), f"random kill {k}: a killed grid left {case.out}")
        landed.append(progress_done(case))
    print(f"{case.args}: random kills; the progress then held {landed} points", flush=True)
    points = [x or 0 for x in landed]  # None: killed before the first save
    check(points == sorted(points), f"the progress went backwards over the kills: {landed}")
    if os.path.exists(case.partial):
        resume_to_end(evolve, case, ref, ref_json, f"random kills {landed}")
    else:  # every kill came before the first save: the grid runs again from its first point
        got_json = os.path.join(case.dir, "got.json")
        r = case.run(evolve, ["--quiet", "--json", got_json])
        if check(r.returncode == 0, f"random kills {landed}: the new run exited {r.returncode}: {r.stderr}"):
            same_as(case, ref, ref_json, got_json, f"random kills {landed}, then a new run")


def ctrl_c(evolve, case, ref, ref_json):
    case.clean()
    env = dict(os.environ, EVOLVE_TEST_DELAY_MS=DELAY_MS[case.kind])
    p = subprocess.Popen([evolve, case.cfg] + case.args + ["--quiet"], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, env=env)
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    err = p.communicate()[1]
    check(p.returncode == 130, f"Ctrl-C: expected exit 130, got {p.returncode}: {err}")
    check(not os.path.exists(case.out), "Ctrl-C left a file at the final name")
    check("interrupted after" in err and case.partial in err, f"Ctrl-C: {err}")
    lines = [ln.strip() for ln in err.splitlines() if "--resume" in ln]
    if not check(lines and lines[-1].startswith("evolve "), f"Ctrl-C: no resume command in: {err}"):
        return
    cmd = lines[-1].split()  # as the user would paste it
    done = resume_to_end(evolve, case, ref, ref_json, "Ctrl-C, then the printed command", cmd[1:])
    check(done is not None and 0 < done < 204120, f"Ctrl-C: the progress held {done} points")


def refusals(evolve, case):
    """What is not resumed: checked over an interrupted grid, left as it was."""
    case.clean()
    case.run(evolve, ["--quiet"], {"EVOLVE_TEST_KILL": "grid_progress:3"})
    before = open(case.partial, "rb").read()
    r = case.run(evolve, ["--quiet"])
    check(r.returncode != 0 and "an interrupted run of this output exists" in r.stderr and "--resume" in r.stderr,
          f"a fresh grid over an interrupted one: {r.returncode} {r.stderr}")
    r = cli.run(evolve, [case.cfg, "--resume", case.out, "--quiet"])
    check(r.returncode != 0 and "is an interrupted grid: resume it with --grid" in r.stderr,
          f"a GA --resume of a grid: {r.returncode} {r.stderr}")
    other = "dominance" if "tables" in case.args else "tables"
    r = cli.run(evolve, [case.cfg, "--grid", "--evaluator", other, "--resume", case.out, "--quiet"])
    check(r.returncode != 0 and "pass --evaluator" in r.stderr, f"another evaluator: {r.returncode} {r.stderr}")
    r = cli.run(evolve, [case.cfg, "--grid", "--top", "5", "--resume", case.out, "--quiet"])
    check(r.returncode != 0 and "top differs" in r.stderr, f"another top: {r.returncode} {r.stderr}")
    check(open(case.partial, "rb").read() == before, "a refused resume changed the progress file")


def truncate(case):
    size = os.path.getsize(case.partial)
    with open(case.partial, "r+b") as f:
        f.truncate(size // 2)


def pool_past_lattice(case):
    """A pool entry's index set to the lattice's size: one past its last point."""
    import h5py
    with h5py.File(case.partial, "r+") as f:
        rows = f["pool"][...]
        rows[0][1] = f.attrs["points"]
        f["pool"][...] = rows


def damaged(evolve, case, ref, ref_json):
    """A truncated progress file, or one whose pool names a point past the lattice: the grid says so and starts
    over, to the same end."""
    for how, spoil in (("truncated", truncate), ("a pool entry past the lattice", pool_past_lattice)):
        case.clean()
        case.run(evolve, ["--quiet"], {"EVOLVE_TEST_KILL": "grid_progress:3"})
        spoil(case)
        got_json = os.path.join(case.dir, "got.json")
        r = case.run(evolve, ["--resume", case.out, "--quiet", "--json", got_json])
        check(r.returncode == 0 and "starts again from its first point" in r.stderr,
              f"damaged ({how}): {r.returncode} {r.stderr}")
        check("started again" in sessions(case.out)[-1], f"damaged ({how}): session {sessions(case.out)[-1]!r}")
        same_as(case, ref, ref_json, got_json, f"damaged progress file ({how})")


def main():
    a = cli.parse_args()
    if not cli.have_modules("h5py"):
        print("skipped: h5py is not available to compare run files")
        return 77
    rng = random.Random(20261128)
    with cli.scratch_dir("evolve_grid_kill_") as root:
        data = os.path.join(root, "data")
        cli.make_data(a.evolve, data)
        for name, args in [("dominance", []), ("tables", ["--evaluator", "tables", "--batch", "1000"])]:
            case = Case(root, name, data, args)
            ref, ref_json = os.path.join(root, name + "_ref.h5"), os.path.join(root, name + "_ref.json")
            r = case.run(a.evolve, ["--quiet", "--output", ref, "--json", ref_json])
            if not check(r.returncode == 0, f"{name}: reference run: {r.stderr}"):
                continue
            check(not os.path.exists(ref + ".partial"), f"{name}: a finished grid left its progress file")
            for serial in [0, 1, 7]:
                killed_inside(a.evolve, case, ref, ref_json, serial)
            random_kills(a.evolve, case, ref, ref_json, rng, kills=3)
            ctrl_c(a.evolve, case, ref, ref_json)
            refusals(a.evolve, case)
            damaged(a.evolve, case, ref, ref_json)
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
