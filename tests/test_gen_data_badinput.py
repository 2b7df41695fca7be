#!/usr/bin/env python3
"""evolve gen-data on bad input: every user-caused error exits non-zero (2 for
usage errors) with a message that names the problem, and leaves no file."""
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402
from evolve_cli import files_under  # noqa: E402

check = cli.Checker(sys.stderr)


def expect(evolve, args, code, needle, out_dir, allowed=()):
    p = cli.run(evolve, ["gen-data"] + args)
    check(p.returncode == code, "%s: exit %d, expected %d (%s)" % (args, p.returncode, code,
                                                                    p.stderr.strip()))
    check(needle in p.stderr, "%s: message %r should mention %r" % (args, p.stderr.strip(), needle))
    check(p.stderr.count("\n") == 1, "%s: one message line, got %r" % (args, p.stderr))
    left = [f for f in files_under(out_dir) if f not in allowed]
    check(not left, "%s: left files behind: %s" % (args, left))


def main():
    a = cli.parse_args()
    with cli.scratch_dir("gen_data_bad_", os.getcwd()) as tmp:
        out = os.path.join(tmp, "out")
        o = ["--out", out]
        usage = [
            (o + ["--days", "0"], "--days"),
            (o + ["--days", "x"], "--days"),
            (o + ["--days", "20001"], "--days"),
            (o + ["--days"], "--days needs a value"),
            (o + ["--start", "2024-02-30"], "2024-02-30"),
            (o + ["--start", "2023-02-29"], "2023-02-29"),
            (o + ["--start", "01/02/2024"], "YYYY-MM-DD"),
            (o + ["--tickers", "SOXL,,IONQ"], "empty ticker"),
            (o + ["--tickers", "SOXL,"], "empty ticker"),
            (o + ["--tickers", ""], "--tickers"),
            (o + ["--tickers", "soxl"], "upper-case"),
            (o + ["--tickers", "SOXL IONQ"], "upper-case"),
            (o + ["--tickers", "SOXL,SOXL"], "twice"),
            (o + ["--tickers", "ABCDEFGHIJKLMNOPQ"], "longer"),
            (o + ["--trade-tickers", "NVDA,XYZ"], "XYZ is not among --tickers"),
            (o + ["--trade-tickers", "", "--trades", "5"], "no ticker to trade"),
            (o + ["--trades", "-1"], "--trades"),
            (o + ["--trades", "5000", "--days", "1", "--trade-tickers", "SOXL"], "do not fit"),
            (o + ["--seed", "-3"], "--seed"),
            (o + ["--seed", "18446744073709551616"], "--seed"),
            (o + ["--bogus"], "unknown option '--bogus'"),
            (o + ["--bars", "7m"], "--bars: expected a timeframe"),
            (o + ["--bars", "1x"], "--bars: expected a timeframe"),
            (["--days", "2"], "--out"),
        ]
        for args, needle in usage:
            expect(a.evolve, args, 2, needle, out)
        check(not os.path.exists(out), "usage errors create no output directory")

        # --out under a regular file: cannot be created.
        blocker = os.path.join(tmp, "file")
        with open(blocker, "w") as f:
            f.write("x")
        expect(a.evolve, ["--out", os.path.join(blocker, "sub"), "--days", "1"], 1, "file", tmp,
               allowed=[blocker])
        os.remove(blocker)

        # A file of the same name that gen-data did not write (no marker beside
        # it: the trader's own log) is refused and left as it was.
        mine = os.path.join(out, "all_trade_logs.csv")
        os.makedirs(out)
        with open(mine, "w") as f:
            f.write("my own trades\n")
        expect(a.evolve, ["--out", out, "--days", "1", "--trades", "3"], 1,
               mine + ": exists and was not written by gen-data", out, allowed=[mine])
        with open(mine) as f:
            check(f.read() == "my own trades\n", "the trader's trade log was changed")
        os.remove(mine)

        # The same for a bars file of --bars: refused before anything is written.
        mine = os.path.join(out, "bars", "SOXL_15m.csv")
        os.makedirs(os.path.dirname(mine))
        with open(mine, "w") as f:
            f.write("my own bars\n")
        expect(a.evolve, ["--out", out, "--days", "1", "--tickers", "SOXL", "--bars", "15m"], 1,
               mine + ": exists and was not written by gen-data", out, allowed=[mine])
        with open(mine) as f:
            check(f.read() == "my own bars\n", "the trader's bars file was changed")
        os.remove(mine)
        os.rmdir(os.path.dirname(mine))

        # The last step fails (the trade log's name is taken by a directory, in
        # a directory gen-data wrote before): the market files already moved
        # into place are taken back.
        os.makedirs(os.path.join(out, "all_trade_logs.csv"))
        marker = os.path.join(out, ".evolve-gen-data")
        with open(marker, "w") as f:
            f.write("")
        p = cli.gen_data(a.evolve, out, ["--days", "2"])
        check(p.returncode == 1, "unmovable trade log: exit %d (%s)" % (p.returncode, p.stderr))
        check("all_trade_logs.csv" in p.stderr, "message names the trade log: %r" % p.stderr)
        check(files_under(out) == [marker], "failed run left files: %s" % files_under(out))
        os.rmdir(os.path.join(out, "all_trade_logs.csv"))
        os.remove(marker)

        # gen-data replaces its own files: a second run into the same directory.
        for run in (1, 2):
            p = cli.gen_data(a.evolve, out, ["--days", "1", "--trades", "3"])
            check(p.returncode == 0, "gen-data run %d into its own directory: exit %d (%s)"
                  % (run, p.returncode, p.stderr.strip()))
        check(os.path.isfile(marker), "gen-data leaves its marker")
        for f in files_under(out):
            os.remove(f)

        # Ctrl-C in the middle of a long run: exit 130, nothing left behind.
        if hasattr(signal, "SIGINT") and os.name == "posix":
            p = subprocess.Popen([a.evolve, "gen-data", "--out", out, "--days", "3000"],
                                 stderr=subprocess.PIPE, text=True)
            time.sleep(1.5)
            p.send_signal(signal.SIGINT)
            _, err = p.communicate(timeout=120)
            check(p.returncode == 130, "Ctrl-C: exit %d (%s)" % (p.returncode, err.strip()))
            check("interrupted" in err, "Ctrl-C: message %r" % err)
            check(files_under(out) == [], "Ctrl-C left files: %s" % files_under(out)[:5])

        # --help describes every option and exits 0.
        p = cli.run(a.evolve, ["gen-data", "--help"])
        check(p.returncode == 0, "--help exits 0")
        for opt in ["--out", "--days", "--start", "--tickers", "--trade-tickers", "--trades",
                    "--seed", "--quiet"]:
            check(opt in p.stdout, "--help mentions %s" % opt)
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
