#!/usr/bin/env python3
"""libevolve exports exactly the functions of include/evolve.h: `nm -D` of
the shared library lists no defined name outside them (the static libraries'
symbols are hidden: -fvisibility=hidden and --exclude-libs), and every
function the header declares is there.

Usage: test_lib_exports.py --library libevolve.so --header include/evolve.h"""
import argparse
import re
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--library", required=True)
    ap.add_argument("--header", required=True)
    a = ap.parse_args()
    out = subprocess.run(["nm", "-D", "--defined-only", a.library], check=True, capture_output=True,
                         text=True).stdout
    exported = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] not in ("w", "v"):
            exported.add(parts[2].split("@")[0])
    with open(a.header, encoding="utf-8") as f:
        text = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
    text = re.sub(r"(?m)^#.*$", " ", text)  # the EVOLVE_API definitions
    declared = set(re.findall(r"EVOLVE_API\s[^;(]*?\b(\w+)\s*\(", text))
    problems = [f"exported but not in the header: {n}" for n in sorted(exported - declared)]
    problems += [f"exported without the evolve_ prefix: {n}" for n in sorted(exported) if not n.startswith("evolve_")]
    problems += [f"declared but not exported: {n}" for n in sorted(declared - exported)]
    for p in problems:
        print(p)
    print(f"test_lib_exports: {len(exported)} names exported, {len(declared)} declared, {len(problems)} problem(s)")
    return 1 if problems or not exported else 0


if __name__ == "__main__":
    sys.exit(main())
