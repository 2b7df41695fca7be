#!/usr/bin/env python3
"""Makes samples/real: real prices in the trader's formats (docs/spec.md sec. 1).

Input: QuantConnect/Lean's second trade bars (Apache-2.0), as Lean stores them
under Data/equity/usa/second/<ticker>/<yyyymmdd>_trade.zip: one CSV inside, one
line a second with a trade, `milliseconds since midnight (New York time), open,
high, low, close, volume`, prices in deci-cents (dollars * 10000; Lean's
Data/equity/readme.md). The copies used are in samples/real/lean.

Output (the same bytes on every run and every platform: integer prices, IEEE
double arithmetic only with + - * / and sqrt, fixed formats):

  market/Raw_Market_data_MM-DD-YYYY.csv, one a day: a row per ticker per second
    that has a Lean bar, from SESSION_START to SESSION_END, sorted by time (then
    ticker). Price = the bar's close; Volume = its volume. Val and Avg are left
    empty (their meaning in the trader's files is not documented and evolve
    never reads them). The indicators are those of the one-minute bars (built
    from the second bars from 09:30) completed before the row's minute, so a
    row never sees its own future; they are empty until the first minute is
    complete:
      Atr14, Atr28   true range smoothed with Wilder's rule (s += (x - s)/n,
                     seeded with the first value), in dollars
      Rsi            14-minute RSI, gains and losses smoothed likewise
      Adx7/14/28     Wilder's ADX: +DM/-DM and true range smoothed as above,
                     DX = 100 |+DI - -DI| / (+DI + -DI), ADX = DX smoothed
      Volatility Percent   sample standard deviation of the last 30 one-minute
                     close-to-close returns, in percent
      Volatility Ratio     that of the last 10 over that of the last 30 (1 when
                     the latter is 0)

  all_trade_logs.csv: the trades of one documented rule, long only, per ticker:
    entry  when a minute (from 09:44 on) closes above the highest high of the
           5 minutes before it, at the first row of the ticker in the next
           minute, if no trade of the ticker is open then;
    exit   at the first later row with price >= entry * 1.003 (+0.3 %) or
           <= entry * 0.998 (-0.2 %), else at the last row at most 15 minutes
           after the entry, else at the ticker's last row of the session.
    Entry/Exit Price are the rows' prices; Trade Percent Change is
    (exit / entry - 1) * 100; Worst and Best Exit Percent are the lowest and
    highest (price / entry - 1) * 100 over the rows from entry to exit (the
    price path evolve uses, docs/spec.md sec. 2); the Entry indicator columns
    are the entry row's. Percents have 6 decimals.

    python3 scripts/make-real-sample.py                 # rewrites samples/real
    python3 scripts/make-real-sample.py --out /tmp/x    # elsewhere (the test)
"""

import argparse
import io
import math
import os
import sys
import zipfile

TICKERS = ["SPY", "AIG", "BAC", "IBM"]
DAYS = ["20131007", "20131008", "20131009", "20131010", "20131011"]
SESSION_START = 9 * 3600 + 30 * 60  # 09:30:00
SESSION_END = 11 * 3600 + 30 * 60  # 11:30:00 excluded: the morning keeps the sample small
ENTRY_FROM = 9 * 3600 + 45 * 60  # no entry before 09:45 (15 minutes of indicators)
BREAKOUT_MINUTES = 5
TARGET, STOP, HOLD_S = 1.003, 0.998, 15 * 60

MARKET_HEADER = ("Ticker,Price,Val,Avg,Atr14,Atr28,Rsi,Volume,Adx28,Adx14,Adx7,"
                 "Volatility Percent,Volatility Ratio,Time")
TRADES_HEADER = ("Date,Trade Id,Ticker,Entry Price,Exit Price,Entry Time,Exit Time,Worst Exit Percent,"
                 "Entry Volatility Percent,Entry Volatility Ratio,Entry Adx28,Entry Adx14,Entry Adx7,"
                 "Trade Best Exit Percent,Trade Percent Change")


def price_text(deci_cents):
    """Deci-cents as the exact decimal (1674100 -> 167.41)."""
    whole, frac = divmod(deci_cents, 10000)
    return f"{whole}.{frac:04d}".rstrip("0").rstrip(".")


def hms(secs):
    return f"{secs // 3600:02d}:{secs // 60 % 60:02d}:{secs % 60:02d}"


def read_bars(lean, ticker, day):
    """[(second, open, high, low, close, volume)] of the session, prices in deci-cents."""
    path = os.path.join(lean, ticker.lower(), f"{day}_trade.zip")
    with zipfile.ZipFile(path) as z:
        (name,) = z.namelist()
        text = z.read(name).decode("ascii")
    bars = []
    for line in io.StringIO(text):
        ms, o, h, lo, c, v = (int(x) for x in line.split(","))
        if ms % 1000 or not SESSION_START * 1000 <= ms < SESSION_END * 1000:
            continue
        bars.append((ms // 1000, o, h, lo, c, v))
    return bars


class Wilder:
    """s += (x - s) / n, seeded with the first value."""

    def __init__(self, n):
        self.n, self.s = n, None

    def add(self, x):
        self.s = x if self.s is None else self.s + (x - self.s) / self.n
        return self.s


def stdev(xs):
    if len(xs) < 2:
        return 0.0
    m = sum(xs) / len(xs)
    return math.sqrt(sum((x - m) * (x - m) for x in xs) / (len(xs) - 1))


class Indicators:
    """The one-minute indicators, updated with each completed minute."""

    def __init__(self):
        self.prev = None  # (high, low, close) of the last minute, in dollars
        self.atr = {n: Wilder(n) for n in (14, 28)}
        self.adx = {n: (Wilder(n), Wilder(n), Wilder(n), Wilder(n)) for n in (7, 14, 28)}  # tr, +dm, -dm, dx
        self.gain, self.loss = Wilder(14), Wilder(14)
        self.returns = []
        self.text = None  # the formatted fields after Volume, or None before the first minute

    def add_minute(self, h, lo, c):
        if self.prev is None:
            tr, up, down, chg = h - lo, 0.0, 0.0, 0.0
        else:
            ph, pl, pc = self.prev
            tr = max(h - lo, abs(h - pc), abs(lo - pc))
            up, down = h - ph, pl - lo
            chg = c - pc
            self.returns.append((c / pc - 1) * 100)
        pdm = up if up > down and up > 0 else 0.0
        mdm = down if down > up and down > 0 else 0.0
        self.prev = (h, lo, c)
        atr = {n: w.add(tr) for n, w in self.atr.items()}
        g, loss = self.gain.add(max(chg, 0.0)), self.loss.add(max(-chg, 0.0))
        rsi = 50.0 if g == 0 and loss == 0 else (100.0 if loss == 0 else 100 - 100 / (1 + g / loss))
        adx = {}
        for n, (wtr, wp, wm, wdx) in self.adx.items():
            s_tr, s_p, s_m = wtr.add(tr), wp.add(pdm), wm.add(mdm)
            pdi = 100 * s_p / s_tr if s_tr > 0 else 0.0
            mdi = 100 * s_m / s_tr if s_tr > 0 else 0.0
            adx[n] = wdx.add(100 * abs(pdi - mdi) / (pdi + mdi) if pdi + mdi > 0 else 0.0)
        v30, v10 = stdev(self.returns[-30:]), stdev(self.returns[-10:])
        ratio = v10 / v30 if v30 > 0 else 1.0
        self.text = (f"{atr[14]:.4f},{atr[28]:.4f},{rsi:.2f}", f"{adx[28]:.2f},{adx[14]:.2f},{adx[7]:.2f},"
                     f"{v30:.4f},{ratio:.4f}")


def ticker_day(bars):
    """Per row: (second, price in deci-cents, volume, indicator texts or None), and the
    one-minute bars [(minute start, high, low, close)] in dollars."""
    rows, minutes = [], []
    ind, cur = Indicators(), None  # cur: [minute, high, low, close] of the minute being built
    for sec, _o, h, lo, c, v in bars:
        minute = sec - sec % 60
        if cur and cur[0] != minute:
            ind.add_minute(cur[1] / 10000, cur[2] / 10000, cur[3] / 10000)
            minutes.append((cur[0], cur[1] / 10000, cur[2] / 10000, cur[3] / 10000))
            cur = None
        cur = [minute, h, lo, c] if cur is None else [minute, max(cur[1], h), min(cur[2], lo), c]
        rows.append((sec, c, v, ind.text))
    return rows, minutes


def pct(x):
    return f"{x:.6f}"


def trades_of(rows, minutes):
    """The rule's trades on one ticker-day: (entry row index, exit row index)."""
    out, busy_until = [], -1
    for k in range(BREAKOUT_MINUTES, len(minutes)):
        start, _h, _lo, close = minutes[k]
        if start < ENTRY_FROM - 60 or start + 60 <= busy_until:
            continue
        if close <= max(m[1] for m in minutes[k - BREAKOUT_MINUTES:k]):
            continue
        i = next((j for j, r in enumerate(rows) if r[0] >= start + 60), None)
        if i is None or rows[i][3] is None:
            continue
        e = rows[i][1]
        j = next((j for j in range(i + 1, len(rows)) if rows[j][1] >= e * TARGET or rows[j][1] <= e * STOP), None)
        if j is None:
            late = [j for j in range(i + 1, len(rows)) if rows[j][0] <= rows[i][0] + HOLD_S]
            j = late[-1] if late and late[-1] < len(rows) - 1 else len(rows) - 1
        if j <= i:
            continue
        out.append((i, j))
        busy_until = rows[j][0]
    return out


def trade_line(day, tid, ticker, rows, i, j):
    e = rows[i][1]
    path = [(r[1] / e - 1) * 100 for r in rows[i:j + 1]]
    date = f"{day[4:6]}/{day[6:8]}/{day[0:4]}"
    ind = rows[i][3][1].split(",")  # adx28, adx14, adx7, volatility %, ratio
    return ",".join([date, str(tid), ticker, price_text(e), price_text(rows[j][1]), hms(rows[i][0]), hms(rows[j][0]),
                     pct(min(path)), ind[3], ind[4], ind[0], ind[1], ind[2], pct(max(path)), pct(path[-1])])


def write(path, lines):
    with open(path, "w", newline="\n", encoding="ascii") as f:
        f.write("\n".join(lines) + "\n")


def main():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lean", default=os.path.join(here, "samples", "real", "lean"),
                    help="folder of <ticker>/<yyyymmdd>_trade.zip (Lean's Data/equity/usa/second)")
    ap.add_argument("--out", default=os.path.join(here, "samples", "real"), help="where market/ and the log go")
    a = ap.parse_args()
    os.makedirs(os.path.join(a.out, "market"), exist_ok=True)
    trades = []
    for day in DAYS:
        merged = []
        for t, ticker in enumerate(TICKERS):
            rows, minutes = ticker_day(read_bars(a.lean, ticker, day))
            merged += [(r[0], t, r) for r in rows]
            trades += [(day, rows[i][0], t, ticker, rows, i, j) for i, j in trades_of(rows, minutes)]
        merged.sort(key=lambda x: (x[0], x[1]))
        lines = [MARKET_HEADER]
        for sec, t, (_, c, v, ind) in merged:
            a3, a5 = ind if ind else (",,", ",,,,")
            lines.append(f"{TICKERS[t]},{price_text(c)},,,{a3},{v},{a5},{hms(sec)}")
        write(os.path.join(a.out, "market", f"Raw_Market_data_{day[4:6]}-{day[6:8]}-{day[0:4]}.csv"), lines)
    trades.sort(key=lambda x: (x[0], x[1], x[2]))
    write(os.path.join(a.out, "all_trade_logs.csv"),
          [TRADES_HEADER] + [trade_line(d, k + 1, tk, rows, i, j) for k, (d, _s, _t, tk, rows, i, j) in
                             enumerate(trades)])
    print(f"make-real-sample: {len(DAYS)} market files and {len(trades)} trades in {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
