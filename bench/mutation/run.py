#!/usr/bin/env python3
"""Mutation testing (bench/mutation/README.md): each mutant of mutants.py
applied in place to the source tree, the build brought up to date for the
targets its tests need, its tests run; a mutant is killed when a test fails
(or the build fails: reported apart, as "stillborn"), it survives when they
all pass. Every file is restored after each mutant, and at start from the
journal a killed runner left (.mutation-journal.json in the tree's root), so
the tree is never left mutated. Prints one line per mutant and the score
"killed/total"; exits 1 when a mutant survived, 2 on a usage error (an
original text that is not in its file exactly once: the list is stale).

  run.py --build-dir build                 every mutant (emu ones only in an emulated build)
  run.py --build-dir build --ci            the CI sample (mutants marked ci)
  run.py --build-dir build --only ID ...   these mutants
  run.py --build-dir build --suite         every mutant against the fast suite (-LE slow), not its tests
  run.py --list                            the list, checked against the tree
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
JOURNAL = os.path.join(ROOT, ".mutation-journal.json")
sys.path.insert(0, HERE)
import mutants as M  # noqa: E402


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def write(path, text):
    with open(os.path.join(ROOT, path), "w", encoding="utf-8") as f:
        f.write(text)


def journal():
    """The journal a runner keeps while a file is mutated ({file, text, pid}), or None."""
    try:
        with open(JOURNAL, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def restore_journal():
    """Puts back the file a runner killed mid-mutant left mutated; refuses while that runner is still at work
    (two runners on one tree would restore each other's files)."""
    j = journal()
    if j is None:
        return
    if j.get("pid") and j["pid"] != os.getpid() and alive(j["pid"]):
        raise SystemExit(f"mutation: runner {j['pid']} is mutating {j['file']} in this tree: wait for it to end")
    write(j["file"], j["text"])
    os.remove(JOURNAL)
    print(f"mutation: restored {j['file']} (a runner stopped while it was mutated)", flush=True)


def original(path):
    """A file's text as the tree holds it, unmutated: a running runner's journal has it while it is mutated."""
    j = journal()
    return j["text"] if j and j["file"] == path else read(path)


def stale(m):
    """Why mutant m cannot be applied to the tree, or None."""
    try:
        n = original(m["file"]).count(m["original"])
    except OSError as e:
        return f"{m['file']}: {e.strerror}"
    return None if n == 1 else f"{m['file']}: its original text occurs {n} times, not once"


def emu_build(build):
    cache = os.path.join(build, "CMakeCache.txt")
    return os.path.exists(cache) and re.search(r"^EVOLVE_CUDA_EMU:BOOL=ON$", open(cache).read(), re.M) is not None


def targets(build, tests):
    """The build targets the tests need: evolve, libevolve (when the build has it), and each C test's
    executable (Ninja's help lists those as "name: phony"; the Python tests need only evolve and libevolve)."""
    r = subprocess.run(["cmake", "--build", build, "--target", "help"], capture_output=True, text=True)
    known = set(re.findall(r"^([A-Za-z0-9_.-]+):", r.stdout, re.M))
    known |= set(re.findall(r"^\.\.\. ([A-Za-z0-9_.-]+)", r.stdout, re.M))  # Make's help
    lib = "evolve_lib" in known or any(n.startswith("libevolve.") for n in os.listdir(build))
    return ["evolve"] + (["evolve_lib"] if lib else []) + [t for t in tests if t in known]


def build(build_dir, tests, log):
    cmd = ["cmake", "--build", build_dir, "--target"] + targets(build_dir, tests)
    r = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT)
    return r.returncode == 0


def run_tests(build_dir, tests, suite, jobs, timeout, log):
    cmd = ["ctest", "--test-dir", build_dir, "-j", str(jobs), "--timeout", str(timeout)]
    cmd += ["-LE", "slow"] if suite else ["-R", "^(" + "|".join(re.escape(t) for t in tests) + ")$"]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    log.write(r.stdout)
    log.flush()
    ran = re.search(r"tests passed, (\d+) tests failed out of (\d+)", r.stdout)
    if not suite and (not ran or int(ran.group(2)) != len(tests)):
        raise SystemExit(f"mutation: ctest ran {ran.group(2) if ran else 0} of {tests}: a name is not a test here")
    failed = re.findall(r"^\s*\d+ - (\S+) \(", r.stdout, re.M)
    return r.returncode != 0, failed


def one(m, args, log):
    """'killed', 'survived' or 'stillborn' for mutant m, the tests that failed, the seconds taken."""
    t0 = time.time()
    text = read(m["file"])
    with open(JOURNAL, "w", encoding="utf-8") as f:
        json.dump({"file": m["file"], "text": text, "pid": os.getpid()}, f)
    try:
        write(m["file"], text.replace(m["original"], m["replacement"], 1))
        log.write(f"\n===== {m['id']}: {m['file']}\n")
        log.flush()  # before the build's and the tests' output, written to the same file
        if not build(args.build_dir, m["tests"], log):
            return "stillborn", [], time.time() - t0
        killed, failed = run_tests(args.build_dir, m["tests"], args.suite, args.jobs, args.timeout, log)
        return ("killed" if killed else "survived"), failed, time.time() - t0
    finally:
        write(m["file"], text)
        os.remove(JOURNAL)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build-dir", default="build")
    ap.add_argument("--ci", action="store_true", help="only the mutants marked ci")
    ap.add_argument("--only", nargs="+", metavar="ID")
    ap.add_argument("--suite", action="store_true", help="run the fast suite (-LE slow) for each mutant")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=600, help="seconds per test (a mutant may make one spin)")
    ap.add_argument("--log", default=None, help="the builds' and tests' output (default BUILD/mutation.log)")
    args = ap.parse_args()
    # Ctrl-C and kill: the file restored on the way out (a background job starts with SIGINT ignored)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if not args.list:  # --list only reads: it may run beside a campaign
        restore_journal()
    ids = [m["id"] for m in M.MUTANTS]
    if len(set(ids)) != len(ids):
        raise SystemExit("mutation: two mutants share an id")
    bad = [f"{m['id']}: {why}" for m in M.MUTANTS for why in [stale(m)] if why]
    if bad:
        print("mutation: stale mutants (fix mutants.py):\n  " + "\n  ".join(bad), file=sys.stderr)
        return 2
    if args.list:
        for m in M.MUTANTS:
            print(f"{m['id']:28} {m['file']:32} {' '.join(m['tests'])}{' [ci]' if m.get('ci') else ''}"
                  f"{' [emu]' if m.get('emu') else ''}")
        return 0
    chosen = [m for m in M.MUTANTS if (not args.only or m["id"] in args.only) and (not args.ci or m.get("ci"))]
    if args.only:  # in the order given
        chosen.sort(key=lambda m: args.only.index(m["id"]))
    if args.only and len(chosen) != len(args.only):
        print(f"mutation: unknown ids: {sorted(set(args.only) - set(ids))}", file=sys.stderr)
        return 2
    emu = emu_build(args.build_dir)
    skipped = [m["id"] for m in chosen if m.get("emu") and not emu]
    chosen = [m for m in chosen if not m.get("emu") or emu]
    if skipped:
        print(f"mutation: {len(skipped)} mutants of device code need an emulated build: skipped {skipped}")
    score = {"killed": 0, "survived": 0, "stillborn": 0}
    with open(args.log or os.path.join(args.build_dir, "mutation.log"), "w") as log:
        try:
            for m in chosen:
                verdict, failed, secs = one(m, args, log)
                score[verdict] += 1
                print(f"{verdict:9} {m['id']:28} {secs:6.0f} s  {' '.join(failed)}", flush=True)
        finally:
            log.write("\n===== restored: the build brought back to the tree\n")
            log.flush()
            subprocess.run(["cmake", "--build", args.build_dir], stdout=log, stderr=subprocess.STDOUT)
    total = score["killed"] + score["survived"]
    print(f"mutation score: {score['killed']}/{total} killed"
          + (f" ({100.0 * score['killed'] / total:.0f} %)" if total else "")
          + (f", {score['stillborn']} did not build" if score["stillborn"] else ""))
    return 1 if score["survived"] or score["stillborn"] else 0


if __name__ == "__main__":
    sys.exit(main())
