#!/usr/bin/env python3
"""Crash safety of the GA run file: a run killed with SIGKILL at many points
(inside the write path through EVOLVE_TEST_KILL, and at random moments from
outside, several times in a row), or stopped with Ctrl-C, or whose .partial
file was damaged after the crash, is resumed with --resume and must end with
a run file identical, dataset by dataset and attribute by attribute, to an
uninterrupted run's (wall-clock fields excepted); one case runs restarts on
stall and local search. A killed run never leaves
a file under the final name. A resume must also continue from its
checkpoint's generation rather than start over (the file would be identical
either way): the finished file's sessions say "resumed at generation N".
A lattice with SPEC sec. 4.1's exits (trail, breakeven, max_hold; local
search on) is killed and resumed likewise.

Needs h5py (else skipped with 77). --long: more random kills (label slow)."""
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


def evolve_run(evolve, args, env=None, timeout=120):
    return cli.run(evolve, args, env, timeout=timeout)


class Case:
    """A config and its output, in its own directory."""

    def __init__(self, root, name, data, extra="", every_s="0", **config):
        """every_s: ga.checkpoint_every_s (None: the default, one a second);
        0 by default here, so that the kill points name checkpoints."""
        if every_s is not None:
            extra = f"  checkpoint_every_s: {every_s}\n" + extra
        self.dir = os.path.join(root, name)
        os.makedirs(self.dir)
        self.out = os.path.join(self.dir, "run.h5")
        self.partial = self.out + ".partial"
        self.ckpt = self.partial + ".ckpt"
        self.cfg = os.path.join(self.dir, "run.yaml")
        text = cli.write_config(self.cfg, data, self.out, extra=extra, **config)
        if config.get("generations") is None:  # a budget run: no generations key at all
            with open(self.cfg, "w") as f:
                f.write(re.sub(r"\n  generations: None\n", "\n", text))

    def clean(self):
        for f in os.listdir(self.dir):
            if f.startswith("run.h5"):
                os.remove(os.path.join(self.dir, f))

    def leftovers(self):
        """The run's files; a killed run's lock file aside (the OS released
        its lock; the next run takes it over)."""
        return sorted(f for f in os.listdir(self.dir) if f.startswith("run.h5") and f != "run.h5.lock")


def same_as(ref, got, what):
    diffs = runfile.compare(ref, got)
    check(not diffs, f"{what}: the resumed run file differs from the uninterrupted one: {diffs[:5]}")
    return not diffs


def resume_to_end(evolve, case, what):
    r = evolve_run(evolve, [case.cfg, "--resume", case.out, "--quiet"])
    check(r.returncode == 0, f"{what}: resume exited {r.returncode}: {r.stderr}")
    check(case.leftovers() == ["run.h5"], f"{what}: files left after the resume: {case.leftovers()}")
    return r


def checkpoint_generation(case):
    """The generation the checkpoint lets a resume continue from, or None."""
    import h5py
    try:
        with h5py.File(case.ckpt, "r") as f:
            return int(f.attrs["generation"])
    except (OSError, KeyError):
        return None


def sessions(path):
    import h5py
    with h5py.File(path, "r") as f:
        return list(f["provenance/sessions"].asstr())


def continued_from(case, gen, r, what):
    """A resume over a checkpoint of generation gen >= 1 continued there,
    and one over no complete generation said it starts again: the finished
    file's sessions and the resume's stderr tell. A resume that silently
    started over would still end with an identical file (same config, same
    seed), so same_as alone cannot see it."""
    s = sessions(case.out)
    last = s[-1] if s else ""
    check(len(s) == 2 and " started on " in s[0], f"{what}: sessions {s}")
    if gen:
        check(re.search(rf"\bresumed at generation {gen}\b", last) is not None,
              f"{what}: the checkpoint held generation {gen}, the resume's session says: {last!r}")
        check("starts again" not in r.stderr, f"{what}: the resume started over: {r.stderr}")
    else:
        check("started again" in last and "starts again" in r.stderr,
              f"{what}: nothing to continue, yet the resume did not say it starts again: {last!r} {r.stderr!r}")


def killed_inside(evolve, case, ref, point):
    case.clean()
    r = evolve_run(evolve, [case.cfg, "--quiet"], {"EVOLVE_TEST_KILL": point})
    check(r.returncode == -signal.SIGKILL, f"{point}: expected death by SIGKILL, got {r.returncode}: {r.stderr}")
    check(not os.path.exists(case.out), f"{point}: a killed run left {case.out}")
    check(os.path.exists(case.partial), f"{point}: no {case.partial} after the kill")
    gen = checkpoint_generation(case)
    r = resume_to_end(evolve, case, point)
    continued_from(case, gen, r, f"killed at {point}")
    return same_as(ref, case.out, f"killed at {point}")


def killed_after_commit(evolve, case, ref):
    """Killed between the final rename and the checkpoint's removal: the run
    is finished (and identical); --resume says so; a new run is not stopped
    by the stale checkpoint."""
    case.clean()
    r = evolve_run(evolve, [case.cfg, "--quiet"], {"EVOLVE_TEST_KILL": "committed:30"})
    check(r.returncode == -signal.SIGKILL, f"committed: expected death by SIGKILL, got {r.returncode}")
    check(case.leftovers() == ["run.h5", "run.h5.partial.ckpt"], f"committed: left {case.leftovers()}")
    same_as(ref, case.out, "killed after the final rename")
    r = evolve_run(evolve, [case.cfg, "--resume", case.out, "--quiet"])
    check(r.returncode == 1 and "a finished run" in r.stderr, f"committed: resume said {r.returncode} {r.stderr}")
    r = evolve_run(evolve, [case.cfg, "--quiet"])
    check(r.returncode == 0 and case.leftovers() == ["run.h5"], f"committed: a new run: {r.stderr}")
    same_as(ref, case.out, "a new run after a stale checkpoint")


def random_kills(evolve, case, ref, rng, kills, delay_ms):
    """Kills at random moments, resuming (or restarting) after each."""
    case.clean()
    env = {"EVOLVE_TEST_DELAY_MS": str(delay_ms)}
    landed = []
    for k in range(kills):
        if os.path.exists(case.out):
            break
        args = [case.cfg, "--quiet"]
        if os.path.exists(case.partial) or os.path.exists(case.ckpt):
            args += ["--resume", case.partial]
        p = subprocess.Popen([evolve] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                             env=dict(os.environ, **env))
        time.sleep(rng.uniform(0.05, 0.4))
        p.send_signal(signal.SIGKILL)
        p.wait()
        gens = "done" if os.path.exists(case.out) else "before the first checkpoint"
        if os.path.exists(case.ckpt):
            try:
                import h5py
                with h5py.File(case.ckpt, "r") as f:
                    gens = int(f.attrs["generation"])
            except Exception:  # a checkpoint being replaced: fine
                pass
        landed.append(gens)
        check(p.returncode in (-signal.SIGKILL, 0), f"random kill {k}: exit {p.returncode}")
        if p.returncode == -signal.SIGKILL:
            check(not os.path.exists(case.out), f"random kill {k}: a killed run left {case.out}")
    if not os.path.exists(case.out):
        if os.path.exists(case.partial) or os.path.exists(case.ckpt):
            resume_to_end(evolve, case, "after random kills")
        else:
            evolve_run(evolve, [case.cfg, "--quiet"])
    print(f"random kills; the checkpoint then held generation {landed}", flush=True)
    return same_as(ref, case.out, f"random kills {landed}")


def damaged(evolve, case, ref, how):
    """The partial file torn after the crash: the resume must notice and
    start over (the checkpoint's hashes), and still end identical."""
    case.clean()
    evolve_run(evolve, [case.cfg, "--quiet"], {"EVOLVE_TEST_KILL": "written:8"})
    size = os.path.getsize(case.partial)
    with open(case.partial, "r+b") as f:
        if how == "truncated":
            f.truncate(size // 2)
        else:  # overwrite a stretch in the middle (raw data or metadata)
            f.seek(size // 2)
            f.write(b"\xa5" * 4096)
    r = resume_to_end(evolve, case, how)
    if how == "truncated":
        check("starts again" in r.stderr, f"{how}: the resume did not notice the damage: {r.stderr}")
    print(f"damaged ({how}): {r.stderr.strip() or 'the damage missed what the checkpoint covers: resumed'}",
          flush=True)
    return same_as(ref, case.out, f"damaged partial ({how})")


def ctrl_c(evolve, case, ref):
    case.clean()
    p = subprocess.Popen([evolve, case.cfg, "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         env=dict(os.environ, EVOLVE_TEST_DELAY_MS="25"))
    time.sleep(0.4)
    p.send_signal(signal.SIGINT)
    err = p.communicate()[1]
    check(p.returncode == 130, f"Ctrl-C: expected exit 130, got {p.returncode}: {err}")
    check(not os.path.exists(case.out), "Ctrl-C left a file at the final name")
    lines = [ln.strip() for ln in err.splitlines() if "--resume" in ln]
    if not check(lines and lines[-1].startswith("evolve "), f"Ctrl-C: no resume command in: {err}"):
        return
    # the printed command, as the user would paste it
    cmd = lines[-1].split()
    gen = checkpoint_generation(case)
    r = evolve_run(evolve, cmd[1:])
    check(r.returncode == 0, f"the printed resume command failed ({r.returncode}): {r.stderr}")
    continued_from(case, gen, r, "Ctrl-C, then the printed command")
    same_as(ref, case.out, "Ctrl-C, then the printed command")


def main():
    a = cli.parse_args(flags=["--long"])
    if not cli.have_modules("h5py"):
        print("skipped: h5py is not available to compare run files")
        return 77
    with cli.scratch_dir("evolve_kill_") as root:
        data = os.path.join(root, "data")
        cli.make_data(a.evolve, data)
        every1 = Case(root, "every1", data)
        r = evolve_run(a.evolve, [every1.cfg, "--quiet", "--output", os.path.join(root, "ref1.h5")])
        if not check(r.returncode == 0, f"reference run: {r.stderr}"):
            return check.exit()
        ref1 = os.path.join(root, "ref1.h5")
        print(f"reference: {generations(ref1)} generations", flush=True)
        points = ["append:0", "written:0", "checkpoint:1", "append:6", "written:11", "checkpoint:17",
                  "append:29", "finalize:30"]
        for point in points:
            killed_inside(a.evolve, every1, ref1, point)
        killed_after_commit(a.evolve, every1, ref1)
        # every 4 generations, with restarts on stall and local search every 2 (depth 2)
        every4 = Case(root, "every4", data, extra="  checkpoint_every: 4\n  restart_stall: 2\n"
                      "  local_search: {every: 2, members: 3, depth: 2}\n")
        r = evolve_run(a.evolve, [every4.cfg, "--quiet", "--output", os.path.join(root, "ref4.h5")])
        ref4 = os.path.join(root, "ref4.h5")
        check(r.returncode == 0, f"reference run (checkpoint_every 4): {r.stderr}")
        check(restarts(ref4) > 0, "the restart case restarted")
        for point in ["written:2", "written:10", "checkpoint:8", "append:27"]:
            killed_inside(a.evolve, every4, ref4, point)
        budget_case(a.evolve, root, data)
        rng = random.Random(20240607)
        for _ in range(6 if a.long else 2):
            random_kills(a.evolve, every1, ref1, rng, kills=5 if a.long else 3, delay_ms=20)
        random_kills(a.evolve, every4, ref4, rng, kills=3, delay_ms=20)
        # SPEC sec. 4.1's exits (configs/soxl_exits.yaml's lattice), local search sweeping their genes too
        exits = Case(root, "exits", data, extra="  local_search: {every: 2, members: 3, depth: 2}\n",
                     parameters=cli.EXIT_PARAMETERS)
        refx = os.path.join(root, "refx.h5")
        r = evolve_run(a.evolve, [exits.cfg, "--quiet", "--output", refx])
        check(r.returncode == 0, f"reference run (exits): {r.stderr}")
        for point in ["checkpoint:7", "written:19"]:
            killed_inside(a.evolve, exits, refx, point)
        per_second(a.evolve, root, data)
        damaged(a.evolve, every1, ref1, "truncated")
        damaged(a.evolve, every1, ref1, "overwritten")
        ctrl_c(a.evolve, every1, ref1)
    return check.exit()


def budget_case(evolve, root, data):
    """max_evaluations and no generations: the run ends on the budget, past
    the 200 generations that were the default cap (8 individuals a
    generation cannot spend 5,000 evaluations in 200), reproducibly, and a kill
    -9 then --resume gives the same file (restarts, local search and its
    random climbs on)."""
    budget = Case(root, "budget", data, population=8, generations=None,
                  extra="  max_evaluations: 5000\n  checkpoint_every: 3\n  restart_stall: 4\n"
                  "  local_search: {every: 5, members: 2, depth: 1, random: 1}\n")
    refs = [os.path.join(root, f"refb{i}.h5") for i in (1, 2)]
    for ref in refs:
        r = evolve_run(evolve, [budget.cfg, "--quiet", "--output", ref])
        if not check(r.returncode == 0, f"reference run (budget): {r.stderr}"):
            return
    same_as(refs[0], refs[1], "budget: a second run of the same config")
    import h5py
    with h5py.File(refs[0], "r") as f:
        ga = f["ga"].attrs
        reason, gens, evals = ga["stop_reason"], int(ga["generations"]), int(ga["evaluations"])
        used = evals + int(ga["ls_evaluations"])
        cap = int(ga["generations_max"])
    reason = reason.decode() if isinstance(reason, bytes) else str(reason)
    check(reason == "max evaluations", f"budget: the run stopped on {reason!r}, not on its budget")
    check(gens > 200, f"budget: {gens} generations; a budget run has no 200-generation cap")
    check(used >= 5000, f"budget: stopped having used {used} of 5000 evaluations")
    check(cap == 2**32 - 1, f"budget: generations_max {cap}, expected the uncapped mark")
    print(f"budget: {gens} generations, {used} evaluations, {restarts(refs[0])} restarts", flush=True)
    for point in ["written:5", "checkpoint:120", "append:" + str(gens - 2)]:
        killed_inside(evolve, budget, refs[0], point)


def per_second(evolve, root, data):
    """The default ga.checkpoint_every_s (1): a run whose generations take
    well under a second keeps its first checkpoint (generation 1) until a
    second has passed, so a kill -9 at generation 20 resumes from 1, and the
    resumed run still ends identical. (Failing: checkpoints every generation
    again, as before the default, or a throttle that loses the first one.)"""
    case = Case(root, "persecond", data, every_s=None)
    ref = os.path.join(root, "refs.h5")
    r = evolve_run(evolve, [case.cfg, "--quiet", "--output", ref])
    if not check(r.returncode == 0, f"reference run (default checkpoint_every_s): {r.stderr}"):
        return
    case.clean()
    t0 = time.time()
    r = evolve_run(evolve, [case.cfg, "--quiet"], {"EVOLVE_TEST_KILL": "written:20"})
    took = time.time() - t0
    check(r.returncode == -signal.SIGKILL, f"per second: expected death by SIGKILL, got {r.returncode}: {r.stderr}")
    gen = checkpoint_generation(case)
    if took < 0.9:  # the whole run to the kill took under a second: no second checkpoint was due
        check(gen == 1, f"per second: killed at generation 20 after {took:.2f} s, the checkpoint holds {gen}, not 1")
    else:
        check(gen is not None and 1 <= gen <= 20, f"per second: the checkpoint holds {gen} ({took:.2f} s)")
        print(f"per second: the run took {took:.2f} s to generation 20 (a slow build): generation {gen} kept")
    r = resume_to_end(evolve, case, "per second")
    continued_from(case, gen, r, "per second")
    same_as(ref, case.out, "per second: killed at generation 20, resumed")
    print(f"per second: killed at generation 20 after {took:.2f} s, resumed from generation {gen}", flush=True)


def restarts(path):
    import h5py
    with h5py.File(path, "r") as f:
        return int(f["ga"].attrs["restarts"])


def generations(path):
    import h5py
    with h5py.File(path, "r") as f:
        return int(f["ga"].attrs["generations"])


if __name__ == "__main__":
    sys.exit(main())
