#!/usr/bin/env python3
"""evolve doctor's report and exit status (cli/cmd_doctor.c).

Where CI runs it (no GPU) it must say so and exit 3, the code documented for
"no usable GPU", after the build and library lines: in a CPU-only build
because CUDA is not built in, in a CUDA build because no device (or driver)
is usable, naming why. With a device (bench/gpu-check.sh) every self-test
line must be PASS and the exit 0. --help exits 0; an argument is a usage
error (2)."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

check = cli.Checker()


def main():
    a = cli.parse_args()
    E = os.path.abspath(a.evolve)
    r = cli.run(E, ["doctor"])
    out = r.stdout
    print(out)
    check(out.startswith("evolve doctor\n"), "the report's first line")
    check(re.search(r"^build: +evolve \d+\.\d+\.\d+ \(git ", out, re.M) is not None, "a build line")
    check(re.search(r"^libraries: +HDF5 \d+\.\d+\.\d+, libyaml \S+, cJSON \S+, xxHash \d+\.\d+\.\d+", out, re.M)
          is not None, "a libraries line")
    verdicts = [ln for ln in out.splitlines() if ln.startswith("verdict:")]
    check(len(verdicts) == 1 and out.rstrip().splitlines()[-1] == verdicts[0], f"one verdict, last: {verdicts}")
    cuda_built = "CUDA backend built for sm_" in out
    no_device = re.search(r"^devices: +none usable: \S", out, re.M) is not None
    if not cuda_built:
        check(r.returncode == 3, f"CPU-only build: exit {r.returncode}, expected 3")
        check("verdict:    NO GPU: this evolve was built without CUDA" in out, "CPU-only build: the verdict")
    elif no_device:
        check(r.returncode == 3, f"no usable device: exit {r.returncode}, expected 3")
        check(re.search(r"^CUDA: +driver .*, runtime \d+\.\d+ \(linked statically\)", out, re.M) is not None,
              "the CUDA versions line")
        check("verdict:    NO GPU: no usable CUDA device" in out, "no device: the verdict")
        check("PASS" not in out and "FAIL" not in out, "no device: no self-test lines")
    else:
        lines = [ln for ln in out.splitlines() if ln.startswith(("PASS", "FAIL"))]
        check(len(lines) >= 7, f"with a device: {len(lines)} self-test lines")
        check(r.returncode == (0 if all(ln.startswith("PASS") for ln in lines) else 1),
              f"with a device: exit {r.returncode} against the lines")
        check(re.search(r"^device 0: +.*, sm_\d+, \d+ SMs, .* GiB", out, re.M) is not None, "the device line")
        check(r.returncode == 0, f"with a device: a check failed: {r.stderr}")
    r = cli.run(E, ["doctor", "--help"])
    check(r.returncode == 0 and "Exit status: 0 every check passed" in r.stdout and "3 no usable GPU" in r.stdout,
          f"--help: {r.returncode}")
    r = cli.run(E, ["doctor", "extra"])
    check(r.returncode == 2 and "doctor takes no arguments" in r.stderr, f"an argument: {r.returncode} {r.stderr}")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
