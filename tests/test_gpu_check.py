#!/usr/bin/env python3
"""bench/gpu-check.sh where there is no GPU (CI, this machine): it must stop
at once, exit 3, and leave in $OUT summary.txt saying why (its first line the
check's header, a SKIP line naming the reason, the verdict last) and, in
all, at most 8 files at most 2 folders deep, none of them a dataset or run
file. The no-GPU path is forced (EVOLVE_GPU_CHECK_NO_GPU=1) so that a GPU
machine does not run the whole check here; where nvidia-smi is missing the
real path is run too."""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

check = cli.Checker()


def run_check(src, root, name, env):
    out = os.path.join(root, name, "out")
    scratch = os.path.join(root, name, "scratch")
    r = subprocess.run(["bash", os.path.join(src, "bench", "gpu-check.sh")], capture_output=True, text=True,
                       env=dict(os.environ, OUT=out, GPU_CHECK_SCRATCH=scratch, **env), timeout=120)
    check(r.returncode == 3, f"{name}: exit {r.returncode}, expected 3: {r.stderr}")
    files = cli.files_under(out)
    rel = [os.path.relpath(f, out) for f in files]
    check(0 < len(files) <= 8, f"{name}: {len(files)} files in $OUT: {rel}")
    check(all(p.count(os.sep) <= 2 for p in rel), f"{name}: deeper than 2 folders: {rel}")
    check(not any(p.endswith((".h5", ".partial", ".ckpt", ".csv.gz")) for p in rel), f"{name}: data in $OUT: {rel}")
    check("summary.txt" in rel, f"{name}: no summary.txt: {rel}")
    check(not os.path.exists(scratch), f"{name}: the scratch folder was left behind")
    if "summary.txt" in rel:
        with open(os.path.join(out, "summary.txt")) as f:
            lines = f.read().splitlines()
        print(f"{name}:\n  " + "\n  ".join(lines))
        check(lines and lines[0].startswith("gpu-check "), f"{name}: first line {lines[:1]}")
        check(any(ln.startswith("SKIP  every step: no GPU: ") for ln in lines), f"{name}: no SKIP line saying why")
        check(lines and lines[-1].startswith("verdict: NO GPU"), f"{name}: last line {lines[-1:]}")
    return r


def main():
    a = cli.parse_args()
    with cli.scratch_dir("evolve_gpucheck_") as root:
        run_check(a.source_dir, root, "forced", {"EVOLVE_GPU_CHECK_NO_GPU": "1"})
        if shutil.which("nvidia-smi") is None:
            r = run_check(a.source_dir, root, "real", {})
            check("nvidia-smi not found" in r.stdout, f"real: the reason: {r.stdout}")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
