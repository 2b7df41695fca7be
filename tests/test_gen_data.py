#!/usr/bin/env python3
"""evolve gen-data end to end: determinism, the exact formats, and trades that
agree with the market rows they were cut from (standard library only).

Each check recomputes from the written text, as a reader of the files would:
Volatility Percent/Ratio from the written Atr14/Atr28/Price, Worst/Best/Trade
Percent Change from the market rows between entry and exit."""
import csv
import filecmp
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

MARKET_HEADER = ("Ticker,Price,Val,Avg,Atr14,Atr28,Rsi,Volume,Adx28,Adx14,Adx7,"
                 "Volatility Percent,Volatility Ratio,Time")
TRADE_COLUMNS = ["Date", "Trade Id", "Ticker", "Entry Price", "Exit Price", "Entry Time",
                 "Exit Time", "Worst Exit Percent", "Entry Volatility Percent",
                 "Entry Volatility Ratio", "Entry Adx28", "Entry Adx14", "Entry Adx7",
                 "Trade Best Exit Percent", "Trade Percent Change"]
DEFAULT_TICKERS = ["SOXL", "IONQ", "MARA", "NVDA", "TSLA", "AMD", "TQQQ"]
FEATURES = {"Entry Volatility Percent": "Volatility Percent",
            "Entry Volatility Ratio": "Volatility Ratio", "Entry Adx28": "Adx28",
            "Entry Adx14": "Adx14", "Entry Adx7": "Adx7", "Entry Rsi": "Rsi"}
# One market row: Ticker, 5 prices/ATRs with 4 decimals, Rsi with 2, Volume,
# three ADXs and the two volatility columns with 2, Time.
MARKET_ROW = re.compile(r"^[A-Z0-9.-]+(,\d+\.\d{4}){5},\d+\.\d\d,\d+(,\d+\.\d\d){5},"
                        r"\d\d:\d\d:\d\d$")

check = cli.Checker(sys.stderr)


def generate(evolve, out, args, threads=None):
    p = cli.gen_data(evolve, out, args, None if threads is None else {"OMP_NUM_THREADS": str(threads)})
    check(p.returncode == 0, "gen-data %s exited %d: %s" % (args, p.returncode, p.stderr))
    return p


def same_tree(a, b):
    """Byte-identical files under a and b (same names)."""
    fa = sorted(os.path.relpath(os.path.join(d, f), a) for d, _, fs in os.walk(a) for f in fs)
    fb = sorted(os.path.relpath(os.path.join(d, f), b) for d, _, fs in os.walk(b) for f in fs)
    if fa != fb:
        return False
    return all(filecmp.cmp(os.path.join(a, f), os.path.join(b, f), shallow=False) for f in fa)


def secs(hms):
    h, m, s = hms.split(":")
    return int(h) * 3600 + int(m) * 60 + int(s)


def load_market(path, tickers):
    """Checks one market file's format; returns {ticker: [(sec, row dict)]}."""
    by = {t: [] for t in tickers}
    position = {t: k for k, t in enumerate(tickers)}
    names = MARKET_HEADER.split(",")
    last = (-1, -1)
    order_ok = True
    with open(path, newline="") as f:
        lines = f.read().split("\n")
    check(lines[0] == MARKET_HEADER, "%s: header %r" % (path, lines[0]))
    check(lines[-1] == "", "%s: ends with a newline" % path)
    bad = 0
    for line in lines[1:-1]:
        if not MARKET_ROW.match(line):
            bad += 1
            continue
        fields = line.split(",")
        sec = secs(fields[13])
        if not (34200 <= sec <= 57599) or fields[0] not in by:
            bad += 1
            continue
        # Sorted by time, then by the tickers' list order: one row per ticker
        # per second at most.
        key = (sec, position[fields[0]])
        order_ok &= key > last
        last = key
        by[fields[0]].append((sec, dict(zip(names, fields))))
    check(bad == 0, "%s: %d malformed fields or rows" % (path, bad))
    check(order_ok, "%s: rows sorted by time then ticker order, one per ticker per second" % path)
    missing = 1 - sum(len(v) for v in by.values()) / (23400.0 * len(tickers))
    check(0.002 <= missing <= 0.01, "%s: %.3f%% of rows missing (~0.5%%)" % (path, 100 * missing))
    return by


def check_derived(path, by):
    """Volatility Percent and Ratio recomputed from the written text."""
    bad = 0
    for rows in by.values():
        for _, r in rows:
            atr14, atr28, price = float(r["Atr14"]), float(r["Atr28"]), float(r["Price"])
            pct = "%.2f" % round(atr14 / price * 100, 2)
            ratio = "%.2f" % (round(atr14 / atr28, 2) if atr28 != 0 else 1.0)
            if r["Volatility Percent"] != pct or r["Volatility Ratio"] != ratio:
                bad += 1
                if bad <= 3:
                    print("  %s: %s -> %s %s" % (path, r, pct, ratio), file=sys.stderr)
            if float(r["Atr28"]) <= 0 or not (0 <= float(r["Rsi"]) <= 100):
                bad += 1
    check(bad == 0, "%s: %d rows whose Volatility Percent/Ratio differ from "
          "round(atr14/price*100, 2) / round(atr14/atr28, 2)" % (path, bad))


def check_trades(out, markets, n_expected, trade_tickers):
    with open(os.path.join(out, "all_trade_logs.csv"), newline="") as f:
        rd = csv.DictReader(f)
        header = rd.fieldnames
        trades = list(rd)
    check(header[:3] == TRADE_COLUMNS[:3] and all(c in header for c in TRADE_COLUMNS),
          "trade log header has the 15 usable columns: %s" % header)
    check(2 <= len(header) - len(TRADE_COLUMNS) <= 3, "trade log has 2-3 extra columns")
    check(len(trades) == n_expected, "trade count %d == --trades %d" % (len(trades), n_expected))
    check([int(t["Trade Id"]) for t in trades] == list(range(1, len(trades) + 1)),
          "Trade Ids are 1..N in file order")
    keys = [(t["Date"][6:] + t["Date"][:5], secs(t["Entry Time"])) for t in trades]
    check(keys == sorted(keys), "trades ordered by date and entry time")
    open_until = {}
    bad = 0
    for t in trades:
        date = t["Date"]
        check(re.match(r"^\d\d/\d\d/\d{4}$", date) is not None, "date %s is MM/DD/YYYY" % date)
        if t["Ticker"] not in trade_tickers:
            bad += 1
            continue
        rows = markets[date.replace("/", "-")][t["Ticker"]]
        e, x = secs(t["Entry Time"]), secs(t["Exit Time"])
        if not x > e:
            bad += 1
        key = (date, t["Ticker"])
        if key in open_until and open_until[key] >= e:
            bad += 1  # overlapping positions
        open_until[key] = x
        at = {s: r for s, r in rows}
        if e not in at or x not in at:
            bad += 1
            continue
        if t["Entry Price"] != at[e]["Price"] or t["Exit Price"] != at[x]["Price"]:
            bad += 1
        for col, mcol in FEATURES.items():
            if col in t and t[col] != at[e][mcol]:
                bad += 1
        entry = float(t["Entry Price"])
        path = [float(r["Price"]) for s, r in rows if e <= s <= x]
        pct = lambda p: "%.4f" % ((p / entry - 1) * 100)
        want = (pct(min(path)), pct(max(path)), pct(float(t["Exit Price"])))
        got = (t["Worst Exit Percent"], t["Trade Best Exit Percent"], t["Trade Percent Change"])
        if want != got:
            bad += 1
            if bad <= 3:
                print("  trade %s: want %s got %s" % (t["Trade Id"], want, got), file=sys.stderr)
    check(bad == 0, "%d trade fields disagree with the market rows" % bad)
    per = {}
    for t in trades:
        per[(t["Date"], t["Ticker"])] = per.get((t["Date"], t["Ticker"]), 0) + 1
    if n_expected >= len(markets) * len(trade_tickers):
        check(len(per) == len(markets) * len(trade_tickers) and max(per.values()) -
              min(per.values()) <= 1, "trades spread evenly over days and trade tickers: %s" % per)
    return trades


def main():
    a = cli.parse_args()
    with cli.scratch_dir("gen_data_", os.getcwd()) as tmp:
        base = ["--days", "2", "--seed", "7", "--trades", "90"]
        A, B, C, D = (os.path.join(tmp, n) for n in "ABCD")
        generate(a.evolve, A, base, threads=2)
        generate(a.evolve, B, base, threads=1)
        check(same_tree(A, B), "same seed, 1 vs 2 threads: byte-identical files")
        generate(a.evolve, C, ["--days", "2", "--seed", "8", "--trades", "90"])
        check(not filecmp.cmp(os.path.join(A, "all_trade_logs.csv"),
                              os.path.join(C, "all_trade_logs.csv"), shallow=False),
              "a different seed gives different files")

        names = sorted(os.listdir(os.path.join(A, "market")))
        check(names == ["Raw_Market_data_01-02-2024.csv", "Raw_Market_data_01-03-2024.csv"],
              "market file names: %s" % names)
        check(sorted(os.listdir(A)) == [".evolve-gen-data", "all_trade_logs.csv", "market"],
              "no stray files in --out: %s" % sorted(os.listdir(A)))
        markets = {}
        for n in names:
            path = os.path.join(A, "market", n)
            by = load_market(path, DEFAULT_TICKERS)
            check_derived(n, by)
            markets[n[16:26]] = by
        check_trades(A, markets, 90, ["SOXL", "IONQ", "MARA"])

        # A ticker's prices do not depend on the other tickers generated with it.
        generate(a.evolve, D, ["--days", "1", "--seed", "7", "--trades", "0", "--tickers", "TSLA"])
        generate(a.evolve, B, ["--days", "1", "--seed", "7", "--trades", "0"])
        only = load_market(os.path.join(D, "market", names[0]), ["TSLA"])["TSLA"]
        full = load_market(os.path.join(B, "market", names[0]), DEFAULT_TICKERS)["TSLA"]
        check(only == full, "TSLA's rows alone equal TSLA's rows among the seven tickers")

        # Weekdays only: a Friday start skips the weekend; custom trade tickers.
        shutil.rmtree(D)
        generate(a.evolve, D, ["--days", "2", "--start", "2024-03-01", "--tickers", "NVDA,AMD",
                               "--trade-tickers", "AMD", "--trades", "7"])
        names = sorted(os.listdir(os.path.join(D, "market")))
        check(names == ["Raw_Market_data_03-01-2024.csv", "Raw_Market_data_03-04-2024.csv"],
              "Friday start then Monday: %s" % names)
        markets = {n[16:26]: load_market(os.path.join(D, "market", n), ["NVDA", "AMD"])
                   for n in names}
        check_trades(D, markets, 7, ["AMD"])

        # No trade tickers and no trades: a header-only log.
        shutil.rmtree(D)
        generate(a.evolve, D, ["--days", "1", "--trades", "0", "--trade-tickers", ""])
        with open(os.path.join(D, "all_trade_logs.csv")) as f:
            lines = f.read().split("\n")
        check(len(lines) == 2 and lines[0].startswith("Date,Trade Id") and lines[1] == "",
              "--trades 0: the trade log is its header only")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
