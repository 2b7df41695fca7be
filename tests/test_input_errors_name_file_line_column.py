#!/usr/bin/env python3
"""README's promise "every input error names the file, line and column (YAML:
line and column of the key) and what was expected", checked on one planted
error in each kind of input a trader gives evolve: the YAML config, the
trade log, a market file, a bars CSV and a genomes CSV. Each message must
carry the file, the very line the error was planted on, and its column (the
YAML column of the key; a CSV column by its header name), and exit non-zero.
The deeper cases per input are test_config_bad, test_ingest_badinput,
test_run_badinput and test_signals_reference. Standard library only."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

check = cli.Checker()


def plant(path, line_no, column, text):
    """Replaces the field `column` (by header name) of CSV line line_no (from
    1, the header being line 1) with text; the fields hold no commas."""
    lines = open(path).read().split("\n")
    header = lines[0].split(",")
    fields = lines[line_no - 1].split(",")
    fields[header.index(column)] = text
    lines[line_no - 1] = ",".join(fields)
    with open(path, "w") as f:
        f.write("\n".join(lines))


def names_it(name, r, path, line, column):
    """The message names path:line and the column (a YAML column number, or
    a CSV column's name)."""
    col = rf":{column}:" if isinstance(column, int) else rf".*column '{re.escape(column)}'"
    ok = r.returncode != 0 and re.search(rf"{re.escape(os.path.basename(path))}:{line}{col}", r.stderr)
    check(ok, f"{name}: expected {os.path.basename(path)}:{line} and column {column!r}: exit {r.returncode}, "
              f"{r.stderr.strip()[-400:]}")


def main():
    a = cli.parse_args()
    E = os.path.abspath(a.evolve)
    with cli.scratch_dir("evolve_inputerr_") as root:
        data = os.path.join(root, "data")
        cli.make_data(E, data)
        cfg = os.path.join(root, "c.yaml")
        out = os.path.join(root, "run.h5")
        # the YAML config: line and column of the key
        text = cli.write_config(cfg, data, out)
        lines = text.split("\n")
        at = next(i for i, ln in enumerate(lines) if ln.startswith("  population:"))
        lines[at] = "  population: lots"
        with open(cfg, "w") as f:
            f.write("\n".join(lines))
        r = cli.run(E, [cfg, "--grid", "--quiet"])
        names_it("config", r, cfg, at + 1, 15)
        check("population" in r.stderr and "expected" in r.stderr, f"config: names the key: {r.stderr}")
        cli.write_config(cfg, data, out)
        # the trade log
        log = os.path.join(data, "all_trade_logs.csv")
        keep = open(log).read()
        plant(log, 7, "Entry Price", "x")
        r = cli.run(E, [cfg, "--grid", "--quiet"])
        names_it("trade log", r, log, 7, "Entry Price")
        with open(log, "w") as f:
            f.write(keep)
        # a market file
        market = os.path.join(data, "market", sorted(os.listdir(os.path.join(data, "market")))[0])
        keep = open(market).read()
        plant(market, 30, "Price", "-1")
        r = cli.run(E, ["bars", "--market", os.path.join(data, "market"), "--ticker", "SOXL", "--timeframe", "1m",
                        "--csv", os.path.join(root, "b.csv")])
        names_it("market file", r, market, 30, "Price")
        with open(market, "w") as f:
            f.write(keep)
        # a bars CSV, then a genomes CSV
        bars = os.path.join(root, "b.csv")
        r = cli.run(E, ["bars", "--market", os.path.join(data, "market"), "--ticker", "SOXL", "--timeframe", "1m",
                        "--csv", bars])
        check(r.returncode == 0, f"bars: {r.stderr}")
        plant(bars, 12, "volume", "many")
        r = cli.run(E, ["trades", "--bars", bars, "--csv", os.path.join(root, "t.csv")])
        names_it("bars CSV", r, bars, 12, "volume")
        r = cli.run(E, ["bars", "--market", os.path.join(data, "market"), "--ticker", "SOXL", "--timeframe", "1m",
                        "--csv", bars])
        genomes = os.path.join(root, "g.csv")
        with open(genomes, "w") as f:
            f.write("ema_fast,vol_z\n8,1.5\n16,2.0\n4,high\n")
        r = cli.run(E, ["trades", "--bars", bars, "--genomes", genomes, "--csv", os.path.join(root, "t.csv")])
        names_it("genomes CSV", r, genomes, 4, "vol_z")
    if not check.failures:
        print("ok: every kind of input names its file, line and column")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
