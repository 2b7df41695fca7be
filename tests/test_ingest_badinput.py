#!/usr/bin/env python3
"""Every user-caused ingest error: `evolve ingest` must exit non-zero (2 for a
bad command line), say what is wrong naming the file (and line and column
where there is one), and leave no output file, nor a temporary one, behind.

Each case starts from a small valid input set (written here), breaks one
thing, and runs the command. Standard library only."""

import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

HEADER = ("Ticker,Price,Val,Avg,Atr14,Atr28,Rsi,Volume,Adx28,Adx14,Adx7,"
          "Volatility Percent,Volatility Ratio,Time\n")
FILL = "0,0,0,0,0,0,0,0,0,0,0"
DAY1 = "Raw_Market_data_09-17-2014.csv"
DAY2 = "Raw_Market_data_01-05-2015.csv"
TRADES_HEADER = ("Date,Trade Id,Ticker,Entry Price,Exit Price,Entry Time,Exit Time,"
                 "Worst Exit Percent,Entry Volatility Percent,Entry Volatility Ratio,"
                 "Entry Adx28,Entry Adx14,Entry Adx7,Trade Best Exit Percent,"
                 "Trade Percent Change\n")


def market_row(ticker, price, time):
    return f"{ticker},{price},{FILL},{time}\n"


def trade_row(date, ticker, entry, exit_, entry_price="10.0", feature="0.5"):
    return (f"{date},1,{ticker},{entry_price},10.1,{entry},{exit_},-0.1,{feature},0.9,20,21,22,"
            "0.3,0.2\n")


def valid_inputs():
    """File name -> text of a valid input set (market/ files and trades.csv)."""
    return {
        "market/" + DAY1: HEADER + market_row("SOXL", "10.00", "09:30:00")
        + market_row("IONQ", "20.00", "09:30:00") + market_row("SOXL", "10.10", "09:30:01")
        + market_row("SOXL", "10.20", "09:30:02"),
        "market/" + DAY2: HEADER + market_row("SOXL", "11.00", "09:31:00")
        + market_row("IONQ", "21.00", "09:31:00"),
        "trades.csv": TRADES_HEADER + trade_row("09/17/2014", "SOXL", "09:30:00", "09:30:02")
        + trade_row("01/05/2015", "IONQ", "09:30:00", "09:32:00"),
    }


class Runner:
    def __init__(self, evolve, root):
        self.evolve = evolve
        self.root = root
        self.failures = 0
        self.count = 0

    def older_dataset(self):
        """A dataset evolve ingest wrote from valid_inputs() (made once)."""
        d = os.path.join(self.root, "older")
        out = os.path.join(d, "ds.h5")
        if not os.path.exists(out):
            os.makedirs(os.path.join(d, "market"), exist_ok=True)
            for rel, text in valid_inputs().items():
                with open(os.path.join(d, rel), "wb") as f:
                    f.write(text if isinstance(text, bytes) else text.encode())
            r = cli.run(self.evolve, ["ingest", "--market", "market", "--trades", "trades.csv", "--tickers",
                                      "SOXL,IONQ", "--out", "ds.h5", "--quiet"], cwd=d, timeout=60)
            if r.returncode != 0:
                raise RuntimeError("ingest of the valid inputs failed: " + r.stderr)
        return out

    def case(self, name, expect_rc, expect_msgs, files=None, remove=(), args=None,
             out_name="ds.h5", setup=None, keep_existing=False):
        """Writes the inputs (valid_inputs() updated by `files`, minus
        `remove`), runs `evolve ingest` and checks the exit code, that every
        string of expect_msgs is in stderr, and what is left in out/."""
        self.count += 1
        d = os.path.join(self.root, f"case{self.count:02d}")
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(os.path.join(d, "market"))
        os.makedirs(os.path.join(d, "out"))
        inputs = valid_inputs()
        inputs.update(files or {})
        for rel, text in inputs.items():
            if rel in remove or text is None:
                continue
            data = text if isinstance(text, bytes) else text.encode()
            with open(os.path.join(d, rel), "wb") as f:
                f.write(data)
        if setup:
            setup(d)
        existing = os.path.join(d, "out", out_name)
        if keep_existing:  # an evolve dataset, which --out may replace (a foreign file is refused before any input)
            shutil.copyfile(self.older_dataset(), existing)
            older = open(existing, "rb").read()
        if args is None:
            args = ["--market", "market", "--trades", "trades.csv", "--tickers", "SOXL,IONQ",
                    "--out", os.path.join("out", out_name)]
        try:
            proc = cli.run(self.evolve, ["ingest"] + args, cwd=d, timeout=60)
        except subprocess.TimeoutExpired:
            self.failures += 1
            print(f"FAIL {name}: no answer within 60 s")
            return
        problems = []
        if expect_rc == "nonzero":
            if proc.returncode == 0:
                problems.append("exit code 0, expected an error")
        elif proc.returncode != expect_rc:
            problems.append(f"exit code {proc.returncode}, expected {expect_rc}")
        for msg in expect_msgs:
            if msg not in proc.stderr:
                problems.append(f"stderr lacks {msg!r}")
        left = sorted(os.listdir(os.path.join(d, "out")))
        allowed = [out_name] if (expect_rc == 0 or keep_existing) else []
        if expect_rc != 0 and "dir" in out_name:
            allowed = [out_name]
        extra = [n for n in left if n not in allowed]
        if extra:
            problems.append(f"left in out/: {extra}")
        if keep_existing and open(existing, "rb").read() != older:
            problems.append("the existing output file was changed")
        if problems:
            self.failures += 1
            print(f"FAIL {name}: " + "; ".join(problems))
            print("  stderr: " + proc.stderr.strip().replace("\n", "\n          "))
        else:
            print(f"ok   {name}")


def make_dir_named(rel):
    return lambda d: os.makedirs(os.path.join(d, rel))


def make_fifo_named(rel):
    """A named pipe nobody writes to: reading it would wait forever."""
    def setup(d):
        p = os.path.join(d, rel)
        if os.path.exists(p):
            os.remove(p)
        os.mkfifo(p)
    return setup


def make_dangling_link(rel):
    """A symbolic link (inside the case directory) to a file that is not there."""
    def setup(d):
        p = os.path.join(d, rel)
        if os.path.exists(p):
            os.remove(p)
        os.symlink("no_such_target.csv", p)
    return setup


def main():
    a = cli.parse_args()
    root = tempfile.mkdtemp(prefix="evolve_ingest_badinput_")
    r = Runner(os.path.abspath(a.evolve), root)
    m1 = "market/" + DAY1
    base = valid_inputs()

    def market_with(row):
        return {m1: base[m1] + row}

    def trades_with(row):
        return {"trades.csv": base["trades.csv"] + row}

    # The harness itself: a valid set succeeds and leaves exactly the output.
    r.case("valid inputs", 0, ["2 trade(s) kept"])

    # Files and directories.
    r.case("missing market dir", 1, ["nowhere: no such market data directory"],
           args=["--market", "nowhere", "--trades", "trades.csv", "--tickers", "SOXL,IONQ", "--out", "out/ds.h5"])
    r.case("missing trade file", 1, ["gone.csv: no such file; expected the trade log"],
           args=["--market", "market", "--trades", "gone.csv", "--tickers", "SOXL,IONQ", "--out", "out/ds.h5"])
    r.case("trade log is a directory", 1, ["logdir.csv: is a directory"],
           setup=make_dir_named("logdir.csv"),
           args=["--market", "market", "--trades", "logdir.csv", "--tickers", "SOXL,IONQ", "--out", "out/ds.h5"])
    r.case("trade log is a named pipe", 1, ["trades.csv: is a named pipe (FIFO); expected the trade log"],
           setup=make_fifo_named("trades.csv"))
    r.case("market file is a named pipe", 1, [DAY1 + ": is a named pipe (FIFO)"],
           setup=make_fifo_named(m1))
    r.case("trade log is a dangling link", 1, ["trades.csv: is a dangling symbolic link"],
           setup=make_dangling_link("trades.csv"))
    r.case("market file is a dangling link", 1, [DAY1 + ": is a dangling symbolic link"],
           setup=make_dangling_link(m1))
    if os.geteuid() != 0:  # root reads any file
        r.case("unreadable market file", 1, [DAY1 + ": cannot open the file"],
               setup=lambda d: os.chmod(os.path.join(d, m1), 0))
    r.case("no market file", 1, ["market: no market file"],
           remove=(m1, "market/" + DAY2))
    r.case("bad file-name date", 1, ["Raw_Market_data_02-30-2014.csv: not a market file name"],
           files={"market/Raw_Market_data_02-30-2014.csv": base[m1]})
    r.case("bad file-name pattern", 1,
           ["Raw_Market_data_2014-09-17.csv: not a market file name",
            "Raw_Market_data_MM-DD-YYYY.csv"],
           files={"market/Raw_Market_data_2014-09-17.csv": base[m1]})

    # Market file content.
    r.case("missing market column", 1, [DAY1 + ":1: the header has no column 'Price'"],
           files={m1: "Ticker,Time\nSOXL,09:30:00\n"})
    r.case("market column twice", 1,
           [DAY1 + ":1: the header has column 'Price' twice (fields 2 and 3)"],
           files={m1: base[m1].replace("Price,Val", "Price,Price")})
    r.case("market column in other case", 1,
           [DAY1 + ":1: the header has no column 'Time'", "(the header has 'TIME':"],
           files={m1: base[m1].replace(",Time", ",TIME")})
    r.case("semicolon-separated market file", 1,
           [DAY1 + ":1: the header has no column 'Ticker'", "has ';': expected comma-separated"],
           files={m1: base[m1].replace(",", ";")})
    r.case("short market row", 1,
           [DAY1 + ":6: the row has 4 field(s); expected 14, as many as the header (line 1) has"],
           files=market_with("SOXL,10.3,0,0\n"))
    r.case("long market row", 1, [DAY1 + ":6: the row has 15 field(s); expected 14"],
           files=market_with(market_row("IONQ", "20.1", "09:30:03").replace("\n", ",7\n")))
    r.case("trailing commas", 0, ["2 trade(s) kept"],
           files={m1: base[m1].replace("\n", ",,\n"),
                  "trades.csv": base["trades.csv"].replace("\n", ",\n")})
    r.case("non-numeric price", 1,
           [DAY1 + ":6: column 'Price': expected a positive price, got 'abc'"],
           files=market_with(market_row("SOXL", "abc", "09:30:03")))
    r.case("zero price", 1,
           [DAY1 + ":6: column 'Price': expected a positive price within the float32 range, "
            "1.2e-38 to 3.4e38, got '0'"],
           files=market_with(market_row("SOXL", "0", "09:30:03")))
    r.case("negative price", 1, [DAY1 + ":6: column 'Price'", "got '-1.5'"],
           files=market_with(market_row("SOXL", "-1.5", "09:30:03")))
    r.case("inf price", 1, [DAY1 + ":6: column 'Price'", "got 'inf'"],
           files=market_with(market_row("IONQ", "inf", "09:30:03")))
    r.case("price out of range", 1,
           [DAY1 + ":6: column 'Price': expected a number of magnitude below 1.8e308 (this one is "
            "out of range), got '1e400'"],
           files=market_with(market_row("IONQ", "1e400", "09:30:03")))
    r.case("price rounding to 0", 1, [DAY1 + ":6: column 'Price'", "got '1e-50'"],
           files=market_with(market_row("SOXL", "1e-50", "09:30:03")))
    r.case("price beyond float32", 1, [DAY1 + ":6: column 'Price'", "got '1e39'"],
           files=market_with(market_row("SOXL", "1e39", "09:30:03")))
    r.case("empty price", 1, [DAY1 + ":6: column 'Price'"],
           files=market_with(market_row("IONQ", "", "09:30:03")))
    r.case("NUL byte in a ticker", 1, [DAY1 + ":6: byte 5: a NUL byte; expected text"],
           files=market_with(market_row("SOXL\0" + "X" * 40, "10.3", "09:30:03")))
    r.case("CR-only line ends", 1,
           [DAY1 + ":1: byte ", "a carriage return (CR) that does not end the line",
            "expected lines ending in LF or CRLF"],
           files={m1: base[m1].replace("\n", "\r")})
    r.case("LF CR line ends", 1, [DAY1 + ":2: byte 1: a carriage return (CR)"],
           files={m1: base[m1].replace("\n", "\n\r")})
    r.case("CR CR LF line ends parse", 0, ["2 trade(s) kept"],
           files={m1: base[m1].replace("\n", "\r\r\n"),
                  "trades.csv": base["trades.csv"].replace("\n", "\r\r\n")})
    r.case("malformed time", 1,
           [DAY1 + ":6: column 'Time': expected a time of day HH:MM:SS", "got '9:30'"],
           files=market_with(market_row("SOXL", "10.3", "9:30")))
    r.case("raw bytes are escaped in messages", 1,
           [DAY1 + ":6: column 'Time'", "got '09:3\\xB70:03'"],
           files={m1: base[m1].encode() + b"SOXL,10.3," + FILL.encode() + b",09:3\xb70:03\n"})
    r.case("time out of range", 1, [DAY1 + ":6: column 'Time'", "got '24:00:00'"],
           files=market_with(market_row("SOXL", "10.3", "24:00:00")))
    r.case("tickers not found", 1, ["ticker NVDA not found in any market file"],
           args=["--market", "market", "--trades", "trades.csv", "--tickers", "SOXL,NVDA",
                 "--out", "out/ds.h5"])

    # Trade log content.
    r.case("missing trade column", 1, ["trades.csv:1: the header has no column 'Entry Time'"],
           files={"trades.csv": base["trades.csv"].replace("Entry Time", "Entry Moment")})
    r.case("trade column twice", 1,
           ["trades.csv:1: the header has column 'Entry Adx7' twice (fields 13 and 14)"],
           files={"trades.csv": base["trades.csv"].replace("Trade Best Exit Percent",
                                                           "Entry Adx7")})
    r.case("unread column twice is fine", 0, ["2 trade(s) kept"],
           files={"trades.csv": base["trades.csv"].replace("Exit Price", "Notes")
                  .replace("Worst Exit Percent", "Notes")})
    r.case("missing extra feature", 1,
           ["feature 'Nope' was asked for", "trades.csv:1: the header has no column 'Nope'"],
           args=["--market", "market", "--trades", "trades.csv", "--tickers", "SOXL,IONQ",
                 "--features", "Exit Price,Nope", "--out", "out/ds.h5"])
    r.case("malformed date", 1,
           ["trades.csv:4: column 'Date': expected a date", "got '13/45/2014'"],
           files=trades_with(trade_row("13/45/2014", "SOXL", "09:30:00", "09:30:02")))
    r.case("malformed entry time", 1, ["trades.csv:4: column 'Entry Time'", "got '9h30'"],
           files=trades_with(trade_row("09/17/2014", "SOXL", "9h30", "09:30:02")))
    r.case("exit before entry", 1,
           ["trades.csv:4: column 'Exit Time': the exit (2014-09-17 09:29:00) is before the "
            "entry (2014-09-17 09:30:00)"],
           files=trades_with(trade_row("09/17/2014", "SOXL", "09:30:00", "09:29:00")))
    r.case("non-numeric feature", 1,
           ["trades.csv:4: column 'Entry Volatility Percent': expected a number", "got 'high'"],
           files=trades_with(trade_row("09/17/2014", "SOXL", "09:30:00", "09:30:02",
                                       feature="high")))
    r.case("feature out of range", 1,
           ["trades.csv:4: column 'Entry Volatility Percent': expected a number of magnitude "
            "below 1.8e308 (this one is out of range), got '-1e400'"],
           files=trades_with(trade_row("09/17/2014", "SOXL", "09:30:00", "09:30:02",
                                       feature="-1e400")))
    r.case("non-numeric extra feature", 1,
           ["trades.csv:4: column 'Exit Price': expected a number (or an empty field), got 'n/a'"],
           files=trades_with(trade_row("09/17/2014", "SOXL", "09:30:00", "09:30:02")
                             .replace(",10.1,", ",n/a,")),
           args=["--market", "market", "--trades", "trades.csv", "--tickers", "SOXL,IONQ",
                 "--features", "Exit Price", "--out", "out/ds.h5"])
    r.case("zero entry price", 1,
           ["trades.csv:4: column 'Entry Price': expected a positive entry price within the "
            "float32 range, 1.2e-38 to 3.4e38, got '0'"],
           files=trades_with(trade_row("09/17/2014", "SOXL", "09:30:00", "09:30:02",
                                       entry_price="0")))
    r.case("entry price rounding to 0", 1,
           ["trades.csv:4: column 'Entry Price': expected a positive entry price", "got '1e-320'"],
           files=trades_with(trade_row("09/17/2014", "SOXL", "09:30:00", "09:30:02",
                                       entry_price="1e-320")))
    r.case("percent change too large to sum", 1,
           ["trades.csv:4: column 'Trade Percent Change': expected a percent change within "
            "+-1e5 % (outcomes are summed as 64-bit integers of micro-percent), got '-2e5'"],
           files=trades_with(trade_row("09/17/2014", "SOXL", "09:30:00", "09:30:02")
                             .replace(",0.2\n", ",-2e5\n")))
    r.case("path move too large to sum", 1,
           ["trades.csv:4: column 'Entry Price': the SOXL price reaches 10.2 during the trade",
            "above the entry price 0.0001; expected moves within +-1e5 %"],
           files=trades_with(trade_row("09/17/2014", "SOXL", "09:30:00", "09:30:02",
                                       entry_price="0.0001")))
    r.case("malformed trade row", 1, ["trades.csv:4: the row has 4 field(s); expected 15"],
           files=trades_with("09/17/2014,9,SOXL,10.0\n"))
    r.case("UTF-16 trade log", 1,
           ["trades.csv: starts with a UTF-16 byte-order mark", "save it as UTF-8"],
           files={"trades.csv": base["trades.csv"].encode("utf-16")})
    r.case("UTF-16 trade log without a byte-order mark", 1,
           ["trades.csv:1: byte 2: a NUL byte", "looks like UTF-16"],
           files={"trades.csv": base["trades.csv"].encode("utf-16-le")})
    r.case("empty trade log", 1, ["trades.csv: the trade log has no data rows"],
           files={"trades.csv": TRADES_HEADER})
    r.case("empty trade log file", 1, ["trades.csv: the file is empty; expected a header row"],
           files={"trades.csv": ""})
    r.case("no trade of the kept tickers", 1,
           ["trades.csv: none of its 1 trade(s) is of the kept tickers (SOXL, IONQ)"],
           files={"trades.csv": TRADES_HEADER
                  + trade_row("09/17/2014", "MARA", "09:30:00", "09:30:02")})
    r.case("every trade dropped", 1, ["all 1 trade(s) of the kept tickers were dropped"],
           files={"trades.csv": TRADES_HEADER
                  + trade_row("09/18/2014", "SOXL", "09:30:00", "09:30:02")})
    r.case("strict with a drop", 1,
           ["trades.csv:4: trade dropped (no_market_day)", "Raw_Market_data_09-18-2014.csv"],
           files=trades_with(trade_row("09/18/2014", "SOXL", "09:30:00", "09:30:02")),
           args=["--market", "market", "--trades", "trades.csv", "--tickers", "SOXL,IONQ",
                 "--strict", "--out", "out/ds.h5"])
    r.case("strict with a NaN feature", 1,
           ["trades.csv:4: trade dropped (non_finite): column 'Entry Volatility Percent'"],
           files=trades_with(trade_row("09/17/2014", "SOXL", "09:30:00", "09:30:02",
                                       feature="nan")),
           args=["--market", "market", "--trades", "trades.csv", "--tickers", "SOXL,IONQ",
                 "--strict", "--out", "out/ds.h5"])
    r.case("error keeps an older output", 1, ["trades.csv:4: column 'Date'"],
           files=trades_with(trade_row("2014/09/17", "SOXL", "09:30:00", "09:30:02")),
           keep_existing=True)

    # Writing the output.
    r.case("output is a directory", 1, ["out/dir.h5"], out_name="dir.h5",
           setup=make_dir_named("out/dir.h5"))

    # The command line.
    r.case("unknown option", 2, ["unknown option '--bogus'"],
           args=["--market", "market", "--trades", "trades.csv", "--out", "out/ds.h5", "--bogus"])
    r.case("missing --out", 2, ["missing --out FILE.h5"],
           args=["--market", "market", "--trades", "trades.csv"])
    r.case("missing --market", 2, ["missing --market DIR"],
           args=["--trades", "trades.csv", "--out", "out/ds.h5"])
    # no hidden ticker default (issue 24: SOXL,IONQ,MARA once, a ticker another trader never named)
    r.case("missing --tickers", 2, ["missing --tickers A,B,C"],
           args=["--market", "market", "--trades", "trades.csv", "--out", "out/ds.h5"])
    r.case("option without its value", 2, ["--out needs a value"],
           args=["--market", "market", "--trades", "trades.csv", "--out"])
    r.case("empty ticker name", 2, ["--tickers 'SOXL,,IONQ': an empty name"],
           args=["--market", "market", "--trades", "trades.csv", "--tickers", "SOXL,,IONQ",
                 "--out", "out/ds.h5"])
    r.case("repeated ticker", 2, ["--tickers: 'SOXL' is listed twice"],
           args=["--market", "market", "--trades", "trades.csv", "--tickers", "SOXL,SOXL",
                 "--out", "out/ds.h5"])

    # --help describes every option and the drop reasons.
    proc = cli.run(r.evolve, ["ingest", "--help"])
    for word in ["--market", "--trades", "--out", "--tickers", "--features", "--strict",
                 "--quiet", "no_market_day", "empty_path", "non_finite"]:
        if proc.returncode != 0 or word not in proc.stdout:
            r.failures += 1
            print(f"FAIL --help: exit {proc.returncode}, mentions {word!r}: {word in proc.stdout}")
    print(f"{r.count} cases, {r.failures} failed")
    if r.failures == 0:
        shutil.rmtree(root, ignore_errors=True)
    else:
        print(f"inputs of the failed cases kept in {root}")
    return 1 if r.failures else 0


if __name__ == "__main__":
    sys.exit(main())
