#!/usr/bin/env python3
"""One option parser for every command (common/options.h), seen from the
binary: --opt VALUE and --opt=VALUE give the same run; every command that
takes a number refuses the same bad numbers the same way (exit 2, one line
naming the option and its range, no file written); a flag given a value, an
unknown option and a missing value read alike in every command; the command
printed to resume an interrupted run leaves out --output in either spelling.
Standard library only."""
import json
import os
import shlex
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402
from evolve_cli import tree  # noqa: E402

check = cli.Checker()
U64_MAX = 18446744073709551615
BAD_NUMBERS = ["+5", "-1", "5x", "", "99999999999999999999", " 5", "0x10", "1e3"]


def message(stderr, command):
    """The one line of a usage error without the command's prefix and help
    pointer: what is the same in every command."""
    line = stderr.strip()
    prefix = "evolve: " if command == "run" else f"evolve {command}: "
    hint = " (see evolve CONFIG.yaml --help)" if command == "run" else f" (see evolve {command} --help)"
    ok = check(stderr.count("\n") == 1 and line.startswith(prefix) and line.endswith(hint),
               f"{command}: one line '{prefix}... {hint}', got {stderr!r}")
    return line[len(prefix):-len(hint)] if ok else line


def refused(E, work, command, args, expected):
    """args (after the command word) exits 2 with `expected` as its message
    and changes nothing under work; returns the message."""
    before = tree(work)
    full = args if command == "run" else [command] + args
    r = cli.run(E, full, cwd=work)
    msg = message(r.stderr, command)
    check(r.returncode == 2, f"{command} {args}: exit {r.returncode}, expected 2: {r.stderr.strip()}")
    check(msg == expected, f"{command} {args}: message {msg!r}, expected {expected!r}")
    check(tree(work) == before, f"{command} {args}: files changed")
    return msg


def summary(path):
    with open(path) as f:
        j = json.load(f)
    j.pop("seconds", None)
    j.pop("config", None)
    return j


def main():
    a = cli.parse_args()
    E = os.path.abspath(a.evolve)
    with cli.scratch_dir("evolve_options_") as root:
        work = os.path.join(root, "work")
        os.makedirs(work)
        data, cfg = cli.data_and_config(E, root, os.path.join(work, "run.h5"), population=32, generations=6)
        market, trades = os.path.join(data, "market"), os.path.join(data, "all_trade_logs.csv")

        # the two spellings give the same GA run
        r1 = cli.run(E, [cfg, "--seed=5", "--top=4", "--output=a.h5", "--json=a.json", "--quiet"], cwd=work)
        r2 = cli.run(E, [cfg, "--seed", "5", "--top", "4", "--output", "b.h5", "--json", "b.json", "--quiet"],
                     cwd=work)
        if check(r1.returncode == 0 and r2.returncode == 0, f"runs: {r1.stderr} {r2.stderr}"):
            s1, s2 = summary(os.path.join(work, "a.json")), summary(os.path.join(work, "b.json"))
            check(s1["seed"] == 5 and len(s1["top"]) == 4, f"--seed=5 --top=4 applied: {s1['seed']}, "
                                                           f"{len(s1['top'])}")
            check(s1 == s2, "--opt=VALUE and --opt VALUE give the same summary")
            print("ok: --seed=5 and --seed 5 give the same top-K", flush=True)
        # and the same grid (--evaluator, --batch)
        r1 = cli.run(E, [cfg, "--grid", "--evaluator=tables", "--batch=100", "--output=g1.h5", "--json=g1.json",
                         "--quiet"], cwd=work)
        r2 = cli.run(E, [cfg, "--grid", "--evaluator", "tables", "--batch", "100", "--output", "g2.h5", "--json",
                         "g2.json", "--quiet"], cwd=work)
        if check(r1.returncode == 0 and r2.returncode == 0, f"grids: {r1.stderr} {r2.stderr}"):
            check(summary(os.path.join(work, "g1.json")) == summary(os.path.join(work, "g2.json")),
                  "grid: both spellings give the same summary")
        # gen-data: the same bytes
        g1, g2 = os.path.join(root, "g1"), os.path.join(root, "g2")
        r1 = cli.run(E, ["gen-data", "--out=" + g1, "--days=1", "--trades=7", "--seed=3", "--tickers=SOXL",
                         "--start=2024-03-04", "--quiet"])
        r2 = cli.run(E, ["gen-data", "--out", g2, "--days", "1", "--trades", "7", "--seed", "3", "--tickers", "SOXL",
                         "--start", "2024-03-04", "--quiet"])
        if check(r1.returncode == 0 and r2.returncode == 0, f"gen-data: {r1.stderr} {r2.stderr}"):
            check(tree(g1) == tree(g2), "gen-data: both spellings write the same files")
        # ingest and report take --opt=VALUE too
        r = cli.run(E, ["ingest", "--market=" + market, "--trades=" + trades, "--tickers=SOXL",
                        "--out=" + os.path.join(root, "ds.h5"), "--quiet"])
        check(r.returncode == 0 and os.path.exists(os.path.join(root, "ds.h5")), f"ingest --opt=VALUE: {r.stderr}")
        r = cli.run(E, ["report", os.path.join(work, "a.h5"), "--out=" + os.path.join(root, "charts")])
        check(r.returncode == 0 and os.path.exists(os.path.join(root, "charts", "fitness.svg")),
              f"report --out=DIR: {r.stderr}")

        # the same bad number, refused the same way by every command that takes one
        gen_out = os.path.join(work, "gen")
        numeric = [  # command, the arguments before the option, option, range
            ("run", [cfg], "--seed", (0, U64_MAX)),
            ("run", [cfg, "--grid"], "--top", (1, 100000)),
            ("run", [cfg, "--grid"], "--batch", (1, U64_MAX)),
            ("gen-data", ["--out", gen_out], "--seed", (0, U64_MAX)),
            ("gen-data", ["--out", gen_out], "--days", (1, 20000)),
            ("gen-data", ["--out", gen_out], "--trades", (0, 1000000000)),
        ]
        seen = {}
        for command, before, opt, (lo, hi) in numeric:
            for bad in BAD_NUMBERS + [str(hi + 1), str(lo - 1) if lo else "-0"]:
                expected = f"{opt}: expected an integer {lo}..{hi}, got '{bad}'"
                for spelt in ([opt, bad], [f"{opt}={bad}"]):
                    msg = refused(E, work, command, before + spelt, expected)
                    seen.setdefault((opt, bad), set()).add(msg)
        for (opt, bad), msgs in seen.items():
            check(len(msgs) == 1, f"{opt} {bad!r}: the commands word it differently: {msgs}")
        check(not os.path.exists(gen_out), "gen-data: no output for a bad number")
        print(f"ok: {len(BAD_NUMBERS) + 2} bad numbers refused alike by run and gen-data", flush=True)

        # the other mistakes, alike in every command
        ingest = ["--market", market, "--trades", trades, "--out", os.path.join(work, "x.h5")]
        report = [os.path.join(work, "a.h5")]
        for command, args, flag, value_opt in [("run", [cfg], "--quiet", "--json"),
                                               ("ingest", ingest, "--quiet", "--tickers"),
                                               ("gen-data", ["--out", gen_out], "--quiet", "--start"),
                                               ("report", report, None, "--heatmap")]:
            refused(E, work, command, args + ["--bogus"], "unknown option '--bogus'")
            refused(E, work, command, args + ["--bogus=1"], "unknown option '--bogus=1'")
            refused(E, work, command, args + [value_opt], f"{value_opt} needs a value")
            if flag:
                refused(E, work, command, args + [flag + "=1"], f"{flag} takes no value, got '{flag}=1'")
            if command in ("run", "report"):
                refused(E, work, command, args + ["extra"],
                        "unexpected argument 'extra': one %s file is expected" %
                        ("config" if command == "run" else "run"))
            else:
                refused(E, work, command, args + ["extra"], "unexpected argument 'extra'")
            for h in ("--help", "-h"):
                r = cli.run(E, ([] if command == "run" else [command]) + args + [h])
                check(r.returncode == 0 and r.stdout.startswith("usage: evolve") and not r.stderr,
                      f"{command} {h}: exit {r.returncode}: {r.stderr}")
        refused(E, work, "run", [cfg, "--evaluator=fast"],
                "--evaluator: expected one of auto, reference, tables, dominance, got 'fast'")
        print("ok: unknown options, missing values, flags with values and extra arguments read alike",
              flush=True)

        # an interrupted run started with --output=FILE: the command printed to
        # resume it leaves --output out in either spelling, and works
        os.makedirs(os.path.join(root, "kill"))
        for spelt in (["--output=k.h5"], ["--output", "k.h5"]):
            kill_dir = os.path.join(root, "kill")
            for f in os.listdir(kill_dir):
                os.remove(os.path.join(kill_dir, f))
            cli.run(E, [cfg, "--quiet", "--seed=9"] + spelt, {"EVOLVE_TEST_KILL": "written:2"}, cwd=kill_dir)
            if not check(os.path.exists(os.path.join(kill_dir, "k.h5.partial")), f"{spelt}: a killed run"):
                continue
            r = cli.run(E, [cfg, "--quiet", "--seed=9"] + spelt, cwd=kill_dir)
            lines = r.stderr.splitlines()
            idx = [i for i, s in enumerate(lines) if "Continue it with" in s]
            if not check(r.returncode == 1 and idx, f"{spelt}: the resume hint: {r.stderr}"):
                continue
            words = shlex.split(lines[idx[0] + 1])
            check(not any(w.startswith("--output") for w in words) and "--seed=9" in words
                  and words[-2:] == ["--resume", "k.h5.partial"], f"{spelt}: resume command {words}")
            r = cli.run(E, words[1:], cwd=kill_dir)
            check(r.returncode == 0 and os.path.exists(os.path.join(kill_dir, "k.h5")),
                  f"{spelt}: the printed command resumes: {r.stderr}")
        print("ok: the resume hint after --output=FILE", flush=True)
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
