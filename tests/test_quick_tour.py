#!/usr/bin/env python3
"""The README's Quick tour and its Python snippet, followed in order in a
fresh folder (issue 32 item 3): no line replaces the results of another.

The lines are read from README.md itself, so the test breaks when the README
drifts: each `evolve ...` line of the Quick tour's block runs as written but
for its placeholders (DIR, FILE, A,B, T, and `...` standing for the rest of a
genome: each other parameter's first value); `mpirun` lines run only in an MPI
build (EVOLVE_MPIEXEC, as tests/test_mpi.py). Then the ```python block of
"From Python" runs. After each step every run file under results/ is copied
the first time it appears; at the end each must still be there, complete, and
equal to its copy but for wall-clock fields (a line that reruns the same run,
as mpirun's do, may rewrite it with the same results); this is checked after
every step too, so a file replaced and later rewritten is still caught.

--small (the sanitizer build, tests/CMakeLists.txt): every line as written,
but the copied configs/exhaustion.yaml's GA (the tour's longest run: the
default 4,096 genomes for 50 generations) gets SMALL_GA's smaller numbers
(bench/RESULTS.md "CI time, fourth cut").

Needs h5py, numpy, pandas and PyYAML (the run-file tests' python); else 77."""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402
import runfile  # noqa: E402

check = cli.Checker()
# what a rerun of the same search may change besides the wall clock: who ran it and how
# (mpirun's grid may pick another evaluator for the same results)
PROCESS_FIELDS = runfile.WALL_CLOCK | {"device", "config_path", "evaluator"}
# --small: the strategy GA's numbers (its config has no ga: block: the defaults, docs/config.md)
SMALL_GA = "ga:\n  population: 512\n  generations: 10\n"


def shrink_strategy_ga(root):
    """--small: the copied configs/exhaustion.yaml with SMALL_GA's numbers."""
    path = os.path.join(root, "configs", "exhaustion.yaml")
    text = open(path).read()
    check("\nga:" not in text, "configs/exhaustion.yaml has a ga: block now: --small would give it two")
    with open(path, "w") as f:
        f.write(text + SMALL_GA)


def block_after(readme, heading, fence):
    """The lines of the first fenced block (opening line `fence`) after `heading`."""
    rest = readme[readme.index(heading):]
    start = rest.index(fence + "\n") + len(fence) + 1
    return rest[start:rest.index("```", start)].splitlines()


def tour_lines(readme):
    """The Quick tour's commands, comments dropped."""
    out = []
    for line in block_after(readme, "## Quick tour", "```"):
        cmd = line.split("  #", 1)[0].strip()
        if cmd:
            out.append(cmd)
    return out


def first_values(config):
    """Each parameter's first value in a config's lattice, as --set text."""
    import yaml
    doc = yaml.safe_load(open(config))
    out = {}
    for p in doc["parameters"]:
        v = p["values"][0] if "values" in p else p["range"]["start"]
        out[p["name"]] = str(v)
    return out


def expand(cmd, root):
    """The argv of a tour line: placeholders filled, `evolve` left first."""
    words = cmd.split()
    words = [{"DIR": "data/sample/market", "FILE": "data/sample/all_trade_logs.csv", "A,B": "SOXL,IONQ",
              "T": "SOXL"}.get(w, w) for w in words]
    if "..." in words:  # the rest of the genome: the other parameters' first values
        given = {w.split("=", 1)[0] for w in words if "=" in w}
        rest = []
        for name, value in first_values(os.path.join(root, words[2])).items():
            if name not in given:
                rest += ["--set", f"{name}={value}"]
        i = words.index("...")
        words = words[:i] + rest + words[i + 1:]
    return words


def run_files(root):
    """The run files under results/ (not datasets, not a run in progress)."""
    d = os.path.join(root, "results")
    if not os.path.isdir(d):
        return []
    return sorted(os.path.join(d, f) for f in os.listdir(d)
                  if f.endswith(".h5") and not f.endswith(".dataset.h5"))


def status(path):
    import h5py
    with h5py.File(path, "r") as f:
        return f.attrs["status"].decode() if isinstance(f.attrs["status"], bytes) else str(f.attrs["status"])


def keep_new(root, kept, step):
    """Copies each run file seen for the first time; checks it is complete."""
    for path in run_files(root):
        if path in kept:
            continue
        kept[path] = os.path.join(root, "kept", f"{len(kept)}-" + os.path.basename(path))
        shutil.copyfile(path, kept[path])
        check(status(path) == "complete", f"{step}: {path} is {status(path)}, not complete")


def still_there(kept, step, broken):
    """Every run file kept so far is still complete and equal to its copy but
    for the fields a rerun of the same search changes; a file replaced is
    reported once, at the step that replaced it."""
    for path, copy in sorted(kept.items()):
        if path in broken:
            continue
        if not os.path.exists(path):
            diffs = ["gone"]
        else:
            diffs = ([] if status(path) == "complete" else [f"status {status(path)}"]) + \
                runfile.compare(copy, path, ignore=PROCESS_FIELDS)
        if not check(not diffs, f"after {step}: {path} is not the run it was: {diffs[:5]}"):
            broken.add(path)


def run_line(E, cmd, root, mpiexec):
    """One tour line; returns (argv, result) or None when it does not run here."""
    words = expand(cmd, root)
    env = {}
    if words[0] == "mpirun":
        if not mpiexec:
            print(f"not run (no MPI build): {cmd}")
            return None
        i = words.index("evolve")
        argv = [mpiexec] + words[1:i] + ["--oversubscribe", E] + words[i + 1:]
        env = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
    else:
        check(words[0] == "evolve", f"a tour line that is not an evolve command: {cmd}")
        argv = [E] + words[1:]
    return argv, subprocess.run(argv, cwd=root, capture_output=True, text=True, env=dict(os.environ, **env),
                                timeout=600)


def expected(cmd, r):
    """Whether a line's exit is what the README promises here."""
    if cmd.startswith("evolve doctor"):
        return r.returncode in (0, 3)  # 3: no usable GPU (README "evolve doctor")
    if "--resume" in cmd:  # the tour's GA run is complete: resume refuses and changes nothing
        return r.returncode != 0 and "a finished run, nothing to resume" in r.stderr
    return r.returncode == 0


def main():
    a = cli.parse_args(["--small"])
    if not cli.have_modules("h5py", "numpy", "pandas", "yaml"):
        print("skipped: needs h5py, numpy, pandas and PyYAML")
        return 77
    E = os.path.abspath(a.evolve)
    readme = open(os.path.join(a.source_dir, "README.md")).read()
    mpiexec = os.environ.get("EVOLVE_MPIEXEC")
    with cli.scratch_dir("quick-tour-") as root:
        shutil.copytree(os.path.join(a.source_dir, "configs"), os.path.join(root, "configs"))
        shutil.copytree(os.path.join(a.source_dir, "samples"), os.path.join(root, "samples"))  # configs/real.yaml's data
        os.makedirs(os.path.join(root, "kept"))
        if a.small:
            shrink_strategy_ga(root)
        kept, broken = {}, set()
        lines = tour_lines(readme)
        check(len(lines) >= 10 and lines[0].startswith("evolve gen-data"), f"the Quick tour's lines: {lines}")
        for cmd in lines:
            done = run_line(E, cmd, root, mpiexec)
            if done is None:
                continue
            argv, r = done
            check(expected(cmd, r), f"{cmd}: exit {r.returncode}\n{r.stderr[-2000:]}")
            still_there(kept, cmd, broken)
            keep_new(root, kept, cmd)
        snippet = "\n".join(block_after(readme, "## From Python", "```python"))
        r = subprocess.run([sys.executable, "-c", snippet], cwd=root, capture_output=True, text=True,
                           env=cli.python_env(E), timeout=600)
        check(r.returncode == 0, f"the README's Python snippet: exit {r.returncode}\n{r.stderr[-2000:]}")
        still_there(kept, "the Python snippet", broken)
        keep_new(root, kept, "the Python snippet")
        check(len(kept) >= 5, f"the tour made {len(kept)} run files: {sorted(kept)}")
        still_there(kept, "the end", broken)
        print(f"{len(lines)} tour lines, the Python snippet, {len(kept)} run files: "
              + ", ".join(os.path.basename(p) for p in sorted(kept)))
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
