#!/usr/bin/env python3
"""Planted bugs the emulation layer must catch (issues 23 and 35).

    planted_bugs.py --source-dir DIR --work-dir DIR [--cmake-arg ARG]... [--jobs N]
                    [--build-name NAME] [--stage asan|tsan] [--only TEXT]

Copies the sources into WORK/src, configures an emulated build in
WORK/src/NAME (EVOLVE_CUDA_EMU=ON plus the given arguments; CI passes its
ASan+UBSan ones, or its TSan ones with --stage tsan; NAME is the calling
build's folder name, so that the copy's compiler command lines, relative to
their build folder, are the calling build's and a compiler cache such as
ccache with base_dir serves every unchanged file), then
for each bug of the stage: plants it (the original text must occur exactly
once, so a changed source fails this test rather than passing it),
builds the one test executable it runs, and runs `ctest -L emu` on the test that exercises that code
(or that test's executable with arguments of its own, where ctest's would
reach the code only late), which must fail, with the report the layer gives. Each bug names the stage
that must catch it: ASan (test_emu_planted) for what the layer checks itself
and for memory errors, TSan (test_emu_planted_tsan) for races. A missing
barrier or atomic has no report of its own under ASan: without the first
barrier of slices_eval_kernel the forward schedule reads the block's ends
before they are written and the test fails on what follows (a barrier
reached by part of the block, or a wrong result); TSan names each race.
--only keeps the bugs whose name contains TEXT. Exit 0 when every bug was
caught."""
import argparse
import os
import shutil
import subprocess
import sys

TSAN_RACE = "ThreadSanitizer: data race"

# (name, file, original, planted, the test, {stage: what its output must contain}); the test is its ctest
# name (run as ctest registers it), or (executable, arguments...): run so, where ctest's arguments would
# reach the planted code only late (below)
BUGS = [
    ("missing __syncthreads before slices_eval_kernel reads its block's ends", "kernels/slices_device.cu",
     "    }\n    __syncthreads();\n    tiled = ends[0] == ends[1];", "    }\n    tiled = ends[0] == ends[1];",
     "test_cuda_slices", {"asan": "", "tsan": TSAN_RACE}),
    # a later phase: barriers before and after it, so only a barrier model with an edge per barrier sees it
    ("missing __syncthreads before a shared tile of planes is reloaded", "kernels/slices_device.cu",
     "                        __syncthreads(); /* the last tile is read by every thread */\n", "",
     "test_cuda_slices", {"tsan": TSAN_RACE}),
    ("topk slot counter without atomicAdd", "kernels/topk_device.cuh",
     "        slot = atomicAdd(count, 1ull);", "        slot = (*count)++;",
     "test_cuda_parity", {"tsan": TSAN_RACE}),
    ("ga_table slot claimed by check-then-set", "kernels/ga_table.cuh",
     "    while (atomicCAS(&t.vals[s].used, 0u, 1u) != 0u)\n        s = (s + 1) & t.mask;\n",
     "    while (t.vals[s].used != 0u)\n        s = (s + 1) & t.mask;\n    t.vals[s].used = 1u;\n",
     "test_ga_cuda", {"tsan": TSAN_RACE}),
    ("full mask to __match_any_sync", "kernels/ga_rank.cu",
     "unsigned peers = __match_any_sync(active, bin);", "unsigned peers = __match_any_sync(0xFFFFFFFFu, bin);",
     "test_ga_cuda", {"asan": "which have exited"}),
    ("bounds check widened by one", "kernels/ga_rank.cu",
     "    if (j >= n)\n        return;\n    vals[j] = sorted[j];", "    if (j > n)\n        return;\n    vals[j] = sorted[j];",
     "test_ga_cuda", {"asan": "AddressSanitizer: heap-buffer-overflow"}),
    ("cudaMemcpy one element too long", "kernels/ga_state.cu",
     "cudaMemcpy(results, g->results, (uint64_t)g->pop * sizeof *results,",
     "cudaMemcpy(results, g->results, ((uint64_t)g->pop + 1) * sizeof *results,",
     "test_ga_cuda", {"asan": "past the end"}),
    ("CUB scratch size query skipped", "kernels/grid_topk.cu",
     "    CUDA_TRY(cub::DeviceMergeSort::SortKeys(NULL, d->sort_temp_bytes, (topk_entry_t *)NULL, (int64_t)d->cap,\n"
     "                                            entry_before()));\n", "",
     "test_cuda_parity", {"asan": "ask CUB for the size"}),
    # max_hold's arrays keep the layout's host pointers: a kernel argument's struct field, not the argument;
    # reached in the rounds with SPEC sec. 4.1's exits only, which follow all plain rounds: 6 plain rounds,
    # then two of exits, the second with a max_hold (test_cuda_parity's list: "exits round 1: ... max_hold")
    ("bind_view skips max_hold (host pointers in fit_tables_t)", "kernels/tables_device.cu",
     "    for (int r = 0; r < MORE_EXITS; r++) {\n        v->more[r].hit",
     "    for (int r = 0; r < MORE_EXITS - 1; r++) {\n        v->more[r].hit",
     ("test_cuda_parity", "6", "0"), {"asan": "field more[2].hit"}),
    ("host code reads the topk counter in device memory", "kernels/topk_device.cuh",
     "        CUDA_TRY(cudaMemcpy(&found, d->count, sizeof found, cudaMemcpyDeviceToHost));",
     "        found = *d->count;",
     "test_cuda_parity", {"asan": "AddressSanitizer: use-after-poison"}),
]

def ignore(source_dir):
    """What not to copy: the top level's build folders, worktrees, data, results and libraries built
    for other machines (.deps, .deps-win: its Wine prefix links z: to /); caches anywhere."""
    top = os.path.abspath(source_dir)

    def names(folder, entries):
        skip = {"__pycache__"}
        if os.path.abspath(folder) == top:
            skip |= {e for e in entries if e.startswith("build") or e in (".git", ".wt", "data", "results", ".deps", ".deps-win")}
        return [e for e in entries if e in skip]

    return names


def run(cmd, cwd, env=None):
    return subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--work-dir", required=True)
    ap.add_argument("--cmake-arg", action="append", default=[])
    ap.add_argument("--jobs", default=str(os.cpu_count() or 2))
    ap.add_argument("--build-name", default="build")
    ap.add_argument("--stage", choices=("asan", "tsan"), default="asan")
    ap.add_argument("--only")
    a = ap.parse_args()
    bugs = [b[:5] + (b[5][a.stage],) for b in BUGS if a.stage in b[5] and (not a.only or a.only in b[0])]
    src = os.path.join(a.work_dir, "src")
    # (a name the copy skips: the build folder is not in the copy of the sources)
    if not a.build_name.startswith("build") or os.sep in a.build_name:
        ap.error("--build-name %r: one folder name beginning with build" % a.build_name)
    build = os.path.join(src, a.build_name)
    if os.path.exists(src):
        shutil.rmtree(src)
    # (links copied as links: one may lead out of the tree, as a Wine prefix's z: to / and its /proc/kmsg)
    shutil.copytree(a.source_dir, src, ignore=ignore(a.source_dir), symlinks=True)
    r = run(["cmake", "-S", src, "-B", build, "-DEVOLVE_CUDA_EMU=ON"] + a.cmake_arg, a.work_dir)
    if r.returncode:
        print(r.stdout)
        print("planted_bugs: configure failed")
        return 1
    # TSan stops at its first report (a planted race is caught there; the rest of the test is not needed)
    env = dict(os.environ, EVOLVE_EMU_SCHEDULE="forward",
               TSAN_OPTIONS=("halt_on_error=1 " + os.environ.get("TSAN_OPTIONS", "")).strip())
    missed = 0
    for name, rel, old, new, test, marker in bugs:
        path = os.path.join(src, rel)
        with open(path, encoding="utf-8") as fh:
            orig = fh.read()
        if orig.count(old) != 1:
            print("planted_bugs: %s: the text to change is not in %s exactly once (the source changed: update "
                  "tests/cuda_emu/planted_bugs.py)" % (name, rel))
            return 1
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(orig.replace(old, new))
        try:
            # only the executable that runs (the others would be linked again for nothing)
            target = test if isinstance(test, str) else test[0]
            r = run(["cmake", "--build", build, "-j", a.jobs, "--target", target], a.work_dir)
            if r.returncode:
                print(r.stdout[-4000:])
                print("planted_bugs: %s: the build failed" % name)
                return 1
            cpu = os.times()
            if isinstance(test, str):
                r = run(["ctest", "--test-dir", build, "-L", "emu", "-R", "^%s$" % test, "--output-on-failure"],
                        a.work_dir, env)
            else:  # as ctest runs it (the folder; under TSan one OpenMP thread, tests/CMakeLists.txt)
                tests_dir = os.path.join(build, "tests")
                r = run([os.path.join(tests_dir, test[0])] + list(test[1:]), tests_dir,
                        dict(env, OMP_NUM_THREADS="1") if a.stage == "tsan" else env)
                test = " ".join(test)
        finally:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(orig)
        caught = r.returncode != 0 and marker in r.stdout
        lines = [ln for ln in r.stdout.splitlines() if "emu:" in ln or "ERROR: AddressSanitizer" in ln or
                 "runtime error" in ln or (marker and marker in ln)]
        cpu = sum(os.times()[2:4]) - sum(cpu[2:4])  # the test's CPU seconds (its processes', waited for)
        print("%s: %s (%s in %s, %.1f s of CPU)%s" % ("caught" if caught else "MISSED", name, test, rel, cpu,
                                                   "\n    " + lines[0] if lines else ""))
        if not caught:
            print(r.stdout[-3000:])
            missed += 1
    print("planted_bugs: %d of %d planted bugs caught" % (len(bugs) - missed, len(bugs)))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
