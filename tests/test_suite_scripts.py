#!/usr/bin/env python3
"""bench/suite's scripts as a lent machine runs them (bench/suite/needles.sh,
bench/gpu-check.sh's last step): data.sh makes only the datasets DATASETS
names (and then needs no real-hf), and run.sh takes an absolute BUILD_DIR
(gpu-check's scratch build) and writes each run's JSON and the hit table.
A short run at a fixed evaluation count, so that it is quick and repeatable."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

check = cli.Checker()


def main():
    a = cli.parse_args()
    build = os.path.dirname(os.path.abspath(a.evolve))
    with cli.scratch_dir("evolve_suite_scripts_") as root:
        suite = os.path.join(root, "suite")
        env = dict(os.environ, BUILD_DIR=build, SUITE_DIR=suite, REAL_HF=os.path.join(root, "absent"))
        r = subprocess.run(["bash", os.path.join(a.source_dir, "bench", "suite", "data.sh")], capture_output=True,
                           text=True, env=dict(env, DATASETS="g21"), timeout=120)
        check(r.returncode == 0, f"data.sh DATASETS=g21: exit {r.returncode}: {r.stderr}")
        made = sorted(f for f in os.listdir(suite) if f.endswith(".h5")) if os.path.isdir(suite) else []
        check(made == ["g21.h5"], f"data.sh DATASETS=g21 made {made}")
        r = subprocess.run(["bash", os.path.join(a.source_dir, "bench", "suite", "run.sh"), "t", "1"],
                           capture_output=True, text=True, env=dict(env, LATTICES="s12", EVALS="3000"), timeout=300)
        check(r.returncode == 0, f"run.sh with an absolute BUILD_DIR: exit {r.returncode}: {r.stderr}")
        js = os.path.join(suite, "t", "s12-1.json")
        check(os.path.exists(js), f"run.sh wrote no {js}: {r.stdout} {r.stderr}")
        if os.path.exists(js):
            with open(js) as f:
                check(len(json.load(f)["top"]) > 0, "s12-1.json has no top genome")
        check("| s12 | holdout |" in r.stdout, f"run.sh's table: {r.stdout}")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
