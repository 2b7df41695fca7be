#!/usr/bin/env python3
"""Fuzzes evolve's CSV ingest (not run in CI): mutates gen-data's sample CSVs
(bit flips, truncation, NUL bytes, line-end swaps, giant and tiny numbers,
duplicated header names, other separators, UTF-16) and runs `evolve ingest`
(and, for one case in ten, a short GA run through a config) on each, flagging

  crash    a signal, or an ASan/UBSan report on stderr
  hang     no answer within --timeout seconds
  garbage  exit 0 on input that must be refused (a NUL, a lone CR, UTF-16)
  unclear  an error that does not name the mutated file, or leaves output behind

Every file it writes lies in one fresh tempfile.mkdtemp directory, removed at
the end unless a case was flagged (then kept, and named, for a look).

The readers themselves are fuzzed in-process, coverage-guided, by the libFuzzer
harnesses of tests/fuzz (tests/fuzz/run.sh; CI runs them). This script is kept
for what they do not do (tests/fuzz/README.md): the evolve binary end to end
(exit codes, the mutated file named in the message, nothing left behind) and
whole-file transformations (every line end swapped, UTF-16 re-encoding).

    python3 scripts/fuzz_inputs.py --evolve build-asan/evolve --cases 3000
"""

import argparse
import concurrent.futures
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                "support"))
import evolve_cli as cli  # noqa: E402

NUMBERS = [b"1e400", b"-1e400", b"1e-400", b"1e-50", b"1e-320", b"1e308", b"1e39", b"1e13",
           b"-1e13", b"2e5", b"nan", b"inf", b"-inf", b"0", b"-0", b"0x1p3", b"9" * 400,
           b"9223372036854775808", b"-9223372036854775809", b"1e", b"--1", b".", b"1.2.3"]
# Mutations whose output no reader may accept.
MUST_FAIL = {"nul", "cr_only", "lf_cr", "utf16"}
SANITIZER = re.compile(r"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:")


def bit_flip(data, rng):
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(b))
        b[i] ^= 1 << rng.randrange(8)
    return bytes(b)


def truncate(data, rng):
    return data[:rng.randrange(len(data) + 1)]


def nul(data, rng):
    i = rng.randrange(len(data) + 1)
    return data[:i] + b"\0" * rng.randint(1, 3) + data[i:]


def line_ends(kind):
    ends = {"crlf": b"\r\n", "cr_only": b"\r", "crcrlf": b"\r\r\n", "lf_cr": b"\n\r"}[kind]
    return lambda data, rng: data.replace(b"\n", ends)


def giant_number(data, rng):
    spots = [m.span() for m in re.finditer(rb"-?\d+(\.\d+)?", data[:200000])]
    if not spots:
        return data
    a, b = rng.choice(spots)
    return data[:a] + rng.choice(NUMBERS) + data[b:]


def header_of(data):
    end = data.find(b"\n")
    return (data, b"") if end < 0 else (data[:end], data[end:])


def duplicate_header(data, rng):
    head, rest = header_of(data)
    names = head.split(b",")
    if len(names) > 1:
        i, j = rng.sample(range(len(names)), 2)
        names[j] = names[i]
    return b",".join(names) + rest


def header_case(data, rng):
    head, rest = header_of(data)
    return head.upper() + rest


def separator(data, rng):
    return data.replace(b",", rng.choice([b";", b"\t"]))


def utf16(data, rng):
    return data[:100000].decode("latin-1").encode(rng.choice(["utf-16", "utf-16-le"]))


def field_count(data, rng):
    lines = data.split(b"\n")
    i = rng.randrange(len(lines))
    lines[i] = lines[i] + b",x" if rng.random() < 0.5 else lines[i].rsplit(b",", 1)[0]
    return b"\n".join(lines)


def quote(data, rng):
    i = rng.randrange(len(data) + 1)
    return data[:i] + b'"' + data[i:]


def splice(data, rng):
    """A random line repeated, or a random range of bytes removed."""
    if rng.random() < 0.5:
        lines = data.split(b"\n")
        i = rng.randrange(len(lines))
        return b"\n".join(lines[:i] + [lines[i]] * rng.randint(2, 5) + lines[i + 1:])
    a = rng.randrange(len(data) + 1)
    return data[:a] + data[a + rng.randrange(64):]


MUTATIONS = {
    "bit_flip": bit_flip, "truncate": truncate, "nul": nul, "crlf": line_ends("crlf"),
    "cr_only": line_ends("cr_only"), "crcrlf": line_ends("crcrlf"), "lf_cr": line_ends("lf_cr"),
    "giant_number": giant_number, "duplicate_header": duplicate_header,
    "header_case": header_case, "separator": separator, "utf16": utf16,
    "field_count": field_count, "quote": quote, "splice": splice,
}


def make_base(evolve, root):
    base = os.path.join(root, "base")
    r = cli.gen_data(evolve, base, ["--days", "2", "--tickers", "SOXL,IONQ", "--trades", "60"])
    if r.returncode != 0:
        sys.exit("fuzz: gen-data failed: " + r.stderr)
    return base


def input_files(base):
    market = sorted(os.path.join("market", n) for n in os.listdir(os.path.join(base, "market")))
    return market + ["all_trade_logs.csv"]


def run_case(evolve, root, base, files, seed, timeout, with_run):
    """Builds case `seed` under root, runs it; returns (seed, problems, what)."""
    rng = random.Random(seed)
    d = os.path.join(root, f"case{seed:06d}")
    shutil.copytree(base, d)
    os.makedirs(os.path.join(d, "out"))
    target = rng.choice(files)
    path = os.path.join(d, target)
    with open(path, "rb") as f:
        data = f.read()
    applied = rng.sample(sorted(MUTATIONS), rng.choice([1, 1, 2, 3]))
    for name in applied:
        data = MUTATIONS[name](data, rng) if data else data
    with open(path, "wb") as f:
        f.write(data)
    what = f"{target}: {'+'.join(applied)}"
    cmds = [["ingest", "--market", "market", "--trades", "all_trade_logs.csv",
             "--tickers", "SOXL,IONQ", "--out", os.path.join("out", "ds.h5"), "--quiet"]]
    if with_run:
        cfg = os.path.join(d, "run.yaml")
        cli.write_config(cfg, d, os.path.join(d, "out", "run.h5"), population=16, generations=2,
                         min_trades=1)
        cmds.append([cfg, "--backend", "cpu"])
    problems = []
    for args in cmds:
        before = set(cli.files_under(d))
        try:
            p = subprocess.run([evolve] + args, capture_output=True, cwd=d, timeout=timeout)
        except subprocess.TimeoutExpired:
            problems.append(f"hang: {args[0]}")
            continue
        err = p.stderr.decode("utf-8", "backslashreplace")
        if err != p.stderr.decode("latin-1") and p.returncode > 0:
            problems.append(f"unclear: {args[0]}: raw bytes in the message: {err.strip()[:300]}")
        if p.returncode < 0 or SANITIZER.search(err):
            problems.append(f"crash: {args[0]} rc {p.returncode}: {err[-2000:]}")
        elif p.returncode == 0 and MUST_FAIL & set(applied):
            problems.append(f"garbage: {args[0]} accepted {'+'.join(applied)}")
        elif p.returncode != 0:
            if os.path.basename(target) not in err and "ticker" not in err:
                problems.append(f"unclear: {args[0]}: {err.strip()[:300]}")
            left = set(cli.files_under(d)) - before
            if left:
                problems.append(f"unclear: {args[0]} left {sorted(left)}")
    if not problems:
        shutil.rmtree(d, ignore_errors=True)
    return seed, problems, what


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--evolve", default="build-asan/evolve")
    ap.add_argument("--cases", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    a = ap.parse_args()
    evolve = os.path.abspath(a.evolve)
    root = tempfile.mkdtemp(prefix="evolve_fuzz_")
    base = make_base(evolve, root)
    files = input_files(base)
    flagged = 0
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        jobs = [pool.submit(run_case, evolve, root, base, files, a.seed * 1000000 + i, a.timeout,
                            i % 10 == 0) for i in range(a.cases)]
        for done, job in enumerate(concurrent.futures.as_completed(jobs), 1):
            seed, problems, what = job.result()
            for p in problems:
                flagged += 1
                print(f"case{seed:06d} ({what}): {p}", flush=True)
            if done % 250 == 0:
                print(f"fuzz: {done}/{a.cases} cases, {flagged} finding(s)", flush=True)
    print(f"fuzz: {a.cases} cases, {flagged} finding(s)")
    if flagged:
        print(f"fuzz: flagged cases kept under {root}")
    else:
        shutil.rmtree(root, ignore_errors=True)
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
