#!/usr/bin/env python3
"""evolve against an independent oracle of SPEC sec. 1-5 and 4.1 (tests/spec_oracle.py,
written from docs/spec.md and the docs, not from the engine).

Data: two synthetic raw-CSV datasets written here (edge cases: missing seconds,
prices exactly on the float32 target/stop levels and one float32 step short of
them, entries and exits between market rows, equal entry seconds across tickers
and within one, features exactly on filter thresholds, trades on a day without a
market file, in a gap, before the open, overnight, non-finite fields, an
unconfigured ticker, unsorted and duplicate market rows, one-digit hours,
columns in any order, half-micro-percent outcomes, an outcome of -100.5 %), one
from `evolve gen-data`, and the real data in SHARED/real-hf when present.

Configs: random (seeded), over every objective, fill level/price, cost_pct,
min/max filters, two filters on one feature, ranges, min_trades and
max_drawdown_pct on their boundaries. Each is gridded with the full ranking
(--top = lattice size; the evaluator rotates over auto, tables, dominance and
reference) and with top 20, and a few are run with the GA. Every reported
genome must have the oracle's trade count and fitness, and the lists must be
the oracle's ranking (see compare()).

SPEC sec. 4.1 (trail, breakeven, max_hold): a hand-computed two-trade path
(check_hand_cases: each exit alone, their ties within one second, a time stop
at a missing second and before the first one, fill level and price, a cost;
every evaluator), and syn3 (syn1's layout plus trail levels and breakeven
activations/returns planted exactly on their float32 levels, or one float32
step short) and gen-data under random lattices that add one to three of the
roles to random_config's (run_dataset_exits: full ranking with the tables and,
for objectives independent of trade order, the dominance sums; evolve's top-K;
GA runs). These cases use their own seeds: the sec. 1-5 cases above draw
exactly what they drew before.

Exactness: trade counts, feasibility, lattice size, drop counts and the order of
genomes with the same exact sums are compared exactly. Fitness values are
compared to within 1e-12 relative (REL): the SPEC fixes the exact integer sums
but not the order of the final double operations (mean: S/n/1e6 or S/(n*1e6);
sharpe: how the variance is formed from the 128-bit sums; compound's product),
so the oracle computes the correctly rounded exact quantity and a last-bit
difference is not a disagreement. Two genomes whose oracle keys differ by less
than that may come in either order. compound is ranked by its exact key (the sum
of quantised log factors: compared exactly) and its value must be SPEC's
(prod (1 + o_j/100) - 1) * 100 to within the rounding of a double product
(compound_close). (evolve once reported expm1(key * 1e-12) * 100, off by up to
~1e-9: this test found it.)

Needs numpy (skips with 77 without it)."""
import json
import math
import os
import random
import sys
import time
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "support"))
sys.path.insert(0, HERE)
import evolve_cli as cli  # noqa: E402

try:
    import numpy as np
    import spec_oracle as so
except ImportError as exc:  # pragma: no cover
    print(f"test_spec_oracle: skipped: {exc} (install python3-numpy)")
    sys.exit(77)

check = cli.Checker()
KINDS = {}  # mismatches by kind, for the summary
REL = 1e-12
K = 20
MAX_REPORT = 8  # mismatches printed per run

TARGETS = ["0.000001", "0.05", "0.1", "0.15", "0.2", "0.25", "0.3", "0.4", "0.5", "0.75", "1"]
STOPS = ["-1", "-0.75", "-0.5", "-0.4", "-0.3", "-0.25", "-0.2", "-0.15", "-0.1", "-0.05", "-0.000001"]
# SPEC sec. 4.1's roles: trail and breakeven in percent (> 0), max_hold in whole seconds (>= 0)
TRAILS = ["0.000001", "0.05", "0.1", "0.15", "0.2", "0.25", "0.3", "0.5", "1"]
BREAKEVENS = ["0.000001", "0.05", "0.1", "0.15", "0.2", "0.3", "0.5"]
HOLDS = ["0", "1", "2", "3", "5", "10", "30", "60", "90", "150", "300", "400", "1000000"]
MARKET_HEADER, LOG_HEADER = cli.MARKET_HEADER, cli.LOG_HEADER


# ====================================================================== synthetic data

def f32_text(x):
    """Shortest decimal text whose (float)strtod is the float32 x."""
    t = np.format_float_positional(np.float32(x), unique=True, trim="-")
    assert np.float32(float(t)) == np.float32(x), (t, x)
    return t


hms = cli.hms


def date_text(rng, d, forms):
    form = rng.choice(forms)
    if form == "us":
        return f"{d.month:02d}/{d.day:02d}/{d.year}"
    if form == "us1":
        return f"{d.month}/{d.day}/{d.year}"
    if form == "dash":
        return f"{d.month:02d}-{d.day:02d}-{d.year}"
    return d.isoformat()


def make_synthetic(root, seed, variant):
    """Writes ROOT/market/*.csv and ROOT/all_trade_logs.csv; returns
    {'tickers': configured tickers, 'features': pools of feature texts}."""
    import datetime
    rng = random.Random(seed)
    os.makedirs(os.path.join(root, "market"), exist_ok=True)
    if variant in (1, 3):
        file_tickers = ["AAA", "BBB", "CCC", "ZZZ"]
        tickers = ["BBB", "AAA", "CCC"]           # ids differ from alphabetical order
        days = [datetime.date(2024, 3, 4), datetime.date(2024, 3, 5), datetime.date(2024, 3, 6)]
        no_file_day = datetime.date(2024, 3, 7)
        n_trades, span = 260, 900
    else:
        file_tickers = ["QQQ", "RRR", "SSS"]
        tickers = ["SSS", "QQQ"]
        days = [datetime.date(2023, 12, 29), datetime.date(2024, 1, 2)]
        no_file_day = datetime.date(2024, 1, 1)
        n_trades, span = 240, 700
    base = {"AAA": (25.0, 2), "BBB": (143.1234, 4), "CCC": (7.5, 3), "ZZZ": (50.0, 2),
            "QQQ": (401.25, 2), "RRR": (12.0, 3), "SSS": (3.2, 4)}
    open_s = 9 * 3600 + 30 * 60
    # market[(ticker, day index)] = list of [second offset, price text] (or None where missing)
    market = {}
    for tk in file_tickers:
        p, dec = base[tk]
        for di in range(len(days)):
            row = []
            for s in range(span):
                p *= 1 + rng.gauss(0, 0.0006)
                present = rng.random() < 0.85
                row.append(f"{p:.{dec}f}" if present else None)
            market[(tk, di)] = row
    gap = (tickers[1], 0, 600, 640)  # a 40-second gap: trades inside it have an empty path
    for s in range(gap[2], gap[3]):
        market[(gap[0], gap[1])][s] = None
    # one day file of the variant-2 data holds no row of one kept ticker
    if variant == 2:
        for s in range(span):
            market[("QQQ", 1)][s] = None

    def row_at(tk, di, s):
        """First present second >= s of the ticker's day (or None)."""
        m = market.get((tk, di))
        if m is None:
            return None
        for k in range(max(s, 0), span):
            if m[k] is not None:
                return k
        return None

    def feature_row():
        # thresholds and features a hair apart: equal in float32, not in double
        vol = rng.choice(["0", "0.05", "0.1", "0.15", "0.2", "0.25", "0.3", "0.35", "0.4", "0.2999999999",
                          "0.30000000001", "0.09999999999"] +
                         [f"{rng.uniform(0, 0.6):.2f}" for _ in range(4)] + [f"{rng.uniform(0, 0.6):.3f}"])
        ratio = rng.choice(["0.7", "0.75", "0.8", "0.85", "0.9", "0.95", "1", "1.0", "1.05", "0.8499999999",
                            "0.85000000001", "0.6999999999"] +
                           [f"{rng.uniform(0.5, 1.4):.2f}" for _ in range(5)])
        adx = lambda: rng.choice(["20", "25", "30", "22.5", "15", "19.9999999999", "25.000000001"] +  # noqa: E731
                                 [f"{rng.uniform(10, 45):.2f}" for _ in range(4)])
        return {"Entry Volatility Percent": vol, "Entry Volatility Ratio": ratio, "Entry Adx28": adx(),
                "Entry Adx14": adx(), "Entry Adx7": adx(),
                "Worst Exit Percent": rng.choice([f"{-rng.uniform(0, 1):.4f}", "-0.25", "-0.5", "0"]),
                "Trade Best Exit Percent": rng.choice([f"{rng.uniform(0, 1):.4f}", "0.25", "0.5"]),
                "Entry Rsi": rng.choice([f"{rng.uniform(20, 80):.1f}", "50", "30", "70"])}

    trades = []
    forms = ["us", "us1", "dash", "iso"]
    for tid in range(1, n_trades + 1):
        tk = rng.choices(file_tickers, weights=[3] * (len(file_tickers) - 1) + [1])[0]
        dayi = rng.choices(range(len(days) + 1), weights=[3] * len(days) + [1])[0]
        day = days[dayi] if dayi < len(days) else no_file_day
        entry = rng.randrange(0, span - 20)
        dur = rng.randint(1, 400)
        exit_ = entry + dur
        r0 = row_at(tk, dayi, entry)
        if r0 is not None:
            e_text = market[(tk, dayi)][r0]
            if rng.random() < 0.3:
                e_text = f"{float(e_text) * (1 + rng.gauss(0, 0.0008)):.4f}"
        else:
            e_text = f"{base[tk][0]:.{base[tk][1]}f}"
        e = float(e_text)
        # plant exact float32 levels (and one float32 step short of them) on the path
        if r0 is not None and rng.random() < 0.6:
            for _ in range(rng.randint(1, 3)):
                k = rng.randrange(r0, min(span, exit_ + 1))
                if market[(tk, dayi)][k] is None:
                    continue
                if rng.random() < 0.5:
                    lvl = np.float32(e * (1 + float(rng.choice(TARGETS[1:])) / 100))
                    if rng.random() < 0.3:
                        lvl = np.nextafter(lvl, np.float32(-np.inf))
                else:
                    lvl = np.float32(e * (1 + float(rng.choice(STOPS[:-1])) / 100))
                    if rng.random() < 0.3:
                        lvl = np.nextafter(lvl, np.float32(np.inf))
                market[(tk, dayi)][k] = f32_text(lvl)
        last = row_at(tk, dayi, min(exit_, span - 1))
        pc = (float(market[(tk, dayi)][last]) / e - 1) * 100 if last is not None else rng.gauss(0, 0.4)
        pc += rng.gauss(0, 0.05)
        form = rng.random()
        if form < 0.15:      # on a half micro-percent: llround's ties
            pc_text = f"{pc:.6f}" + "5"
        elif form < 0.3:
            pc_text = f"{pc:.7f}"
        else:
            pc_text = f"{pc:.4f}"
        feats = feature_row()
        entry_text = hms(open_s + entry)
        exit_text = hms(open_s + exit_)
        trades.append({"tid": tid, "tk": tk, "day": day, "dayi": dayi, "entry": entry, "exit": exit_,
                       "e": e_text, "pc": pc_text, "f": feats, "entry_text": entry_text, "exit_text": exit_text,
                       "exit_price": f"{e * (1 + pc / 100):.4f}"})
    # special rows
    kt = tickers[0]
    special = [
        # overnight: exit written with its own date (the next day), the path crosses days
        dict(tk=kt, dayi=0, entry=span - 100, exit_text=f"{days[1].isoformat()} {hms(open_s + 50)}"),
        dict(tk=tickers[1], dayi=0, entry=span - 30, exit_text=f"{days[1].isoformat()}T{hms(open_s + 200)}"),
        # entry written as a full date-time
        dict(tk=kt, dayi=1, entry_text=f"{days[1].isoformat()} {hms(open_s + 10)}", entry=10, exit=300),
        # inside the gap: empty path
        dict(tk=gap[0], dayi=gap[1], entry=gap[2] + 3, exit=gap[3] - 3),
        # before the open: empty path
        dict(tk=kt, dayi=0, entry=-1200, exit=-600),
        # a day without a market file
        dict(tk=kt, day=no_file_day, entry=100, exit=200),
        # non-finite: NaN feature, empty percent change, inf feature, empty Rsi (dropped only when kept)
        dict(tk=kt, dayi=0, entry=50, exit=90, f={"Entry Volatility Ratio": "nan"}),
        dict(tk=kt, dayi=1, entry=70, exit=95, pc=""),
        dict(tk=tickers[1], dayi=0, entry=80, exit=120, f={"Entry Adx7": "inf"}),
        dict(tk=tickers[1], dayi=1, entry=82, exit=150, f={"Entry Rsi": ""}),
        # an empty Exit Price is not a kept column: no drop
        dict(tk=tickers[1], dayi=1, entry=90, exit=150, exit_price=""),
        # ruin: -100.5 % on a path that hits no target or stop of the pools (flat prices)
        dict(tk=kt, dayi=1, entry=400, exit=420, pc="-100.5", flat=True,
             f={"Entry Volatility Percent": "0.01", "Entry Volatility Ratio": "1.3"}),
        # a trade that ends where it starts (one second)
        dict(tk=kt, dayi=0, entry=300, exit=300),
    ]
    if variant in (1, 3):
        special.append(dict(tk="ZZZ", dayi=0, entry=100, exit=200))  # not configured: skipped, not dropped
    for sp in special:
        day = sp.get("day", days[sp.get("dayi", 0)] if sp.get("dayi", 0) < len(days) else no_file_day)
        dayi = days.index(day) if day in days else len(days)
        tk, entry = sp["tk"], sp["entry"]
        r0 = row_at(tk, dayi, max(entry, 0))
        e_text = market[(tk, dayi)][r0] if r0 is not None else f"{base[tk][0]:.{base[tk][1]}f}"
        if sp.get("flat"):
            for s in range(entry, sp["exit"] + 1):
                if market[(tk, dayi)][s] is not None:
                    market[(tk, dayi)][s] = e_text
        feats = feature_row()
        feats.update(sp.get("f", {}))
        ex = sp.get("exit", entry + 60)
        trades.append({"tid": len(trades) + 1, "tk": tk, "day": day, "dayi": dayi, "entry": entry, "exit": ex,
                       "e": e_text, "pc": sp.get("pc", "0.1234"), "f": feats,
                       "entry_text": sp.get("entry_text", hms(open_s + entry)),
                       "exit_text": sp.get("exit_text", hms(open_s + ex)),
                       "exit_price": sp.get("exit_price", e_text), "flat": sp.get("flat", False)})
    # equal entry seconds: across tickers, and within one ticker (log order decides)
    same_day = [t for t in trades if t["dayi"] == 0 and t["entry"] >= 0 and ":" in t["entry_text"]
                and " " not in t["entry_text"] and "T" not in t["entry_text"]]
    for _ in range(12):
        a, b = rng.sample(same_day, 2)
        b["entry"] = a["entry"]
        b["entry_text"] = a["entry_text"]
        b["exit"] = max(b["exit"], b["entry"] + 1)
        if ":" in b["exit_text"] and " " not in b["exit_text"] and "T" not in b["exit_text"]:
            b["exit_text"] = hms(open_s + b["exit"])
    for _ in range(4):
        a = rng.choice(same_day)
        twin = dict(a, tid=len(trades) + 1, pc=f"{rng.gauss(0, 0.4):.4f}", f=feature_row())
        trades.append(twin)
    # unique crossings: on a quarter of the trades, one price of the path is exactly a
    # target's (or stop's) float32 level and every other price of the path stays short of
    # it (the ones that reached it are clamped one float32 step short). Where the double
    # level lies above the float32 one (target; below it for a stop), only a simulator that
    # compares with the float32 level sees this hit.
    for t in trades:
        dayi = t["dayi"]
        if dayi >= len(days) or rng.random() > 0.25 or t["entry"] < 0 or t.get("flat"):
            continue
        m = market[(t["tk"], dayi)]
        ks = [k for k in range(t["entry"], min(t["exit"], span - 1) + 1) if m[k] is not None]
        if len(ks) < 2:
            continue
        e = float(t["e"])
        up = rng.random() < 0.5
        lvl = np.float32(e * (1 + float(rng.choice(TARGETS[1:] if up else STOPS[:-1])) / 100))
        short = f32_text(np.nextafter(lvl, np.float32(-np.inf if up else np.inf)))
        for k in ks:
            if (up and np.float32(float(m[k])) >= lvl) or (not up and np.float32(float(m[k])) <= lvl):
                m[k] = short
        m[rng.choice(ks[1:] if rng.random() < 0.8 else ks)] = f32_text(lvl)
    if variant == 3:
        plant_more_exits(rng, trades, market, days, span)
    # duplicate seconds on trade paths: a second row of the same ticker and second, a few
    # seconds later in the file, one percent away (a target or stop hit): the later row wins
    dups = {}
    for t in rng.sample([t for t in trades if t["dayi"] < len(days) and t["entry"] >= 0 and not t.get("flat")], 24):
        m = market[(t["tk"], t["dayi"])]
        ks = [k for k in range(t["entry"], min(t["exit"], span - 1) + 1) if m[k] is not None]
        if ks:
            k = rng.choice(ks)
            dups.setdefault((t["dayi"], k + rng.randint(0, 4)), []).append(
                (t["tk"], k, f"{float(m[k]) * rng.choice([1.01, 0.99, 1.003, 0.997]):.4f}"))
    rng.shuffle(trades)

    # ---- market files
    header = list(MARKET_HEADER)
    if variant == 2:
        header = ["Time", "Volume", "Price", "Ticker", "Rsi", "Extra Column"]
    for di, day in enumerate(days):
        lines = []
        for s in range(span):
            order = list(file_tickers)
            rng.shuffle(order)
            for tk in order:
                p = market[(tk, di)][s]
                if p is None:
                    continue
                sec = open_s + s
                t = f"{sec // 3600}:{sec // 60 % 60:02d}:{sec % 60:02d}" if variant == 2 else hms(sec)
                vals = {"Ticker": tk, "Price": p, "Time": t, "Volume": "100", "Rsi": "50.00",
                        "Extra Column": "x"}
                lines.append([vals.get(h, "1.00") for h in header])
            for tk, k, p in dups.get((di, s), []):
                sec = open_s + k
                vals = {"Ticker": tk, "Price": p, "Time": hms(sec), "Volume": "100", "Rsi": "50.00",
                        "Extra Column": "x"}
                lines.append([vals.get(h, "1.00") for h in header])
        if di == 0:
            # a ticker's rows out of time order (sorted by the reader), and a duplicate second
            # whose later row wins
            tk = tickers[0]
            pos = [i for i, ln in enumerate(lines) if ln[header.index("Ticker")] == tk]
            i, j = pos[100], pos[101]
            lines[i], lines[j] = lines[j], lines[i]
            dup = list(lines[pos[200]])
            dup[header.index("Price")] = f32_text(np.float32(float(dup[header.index("Price")]) * 1.004))
            lines.insert(pos[205], dup)
        name = f"Raw_Market_data_{day.month:02d}-{day.day:02d}-{day.year}.csv"
        with open(os.path.join(root, "market", name), "w") as f:
            f.write(",".join(header) + "\n")
            for ln in lines:
                f.write(",".join(ln) + "\n")
    with open(os.path.join(root, "market", "README.txt"), "w") as f:
        f.write("not a csv: ignored\n")

    # ---- trade log
    lh = list(LOG_HEADER)
    if variant == 2:
        lh = lh[::-1] + ["Notes"]
        lh.remove("Trade Id")
    with open(os.path.join(root, "all_trade_logs.csv"), "w") as f:
        f.write(",".join(lh) + "\n")
        for t in trades:
            vals = {"Date": date_text(rng, t["day"], forms), "Trade Id": str(t["tid"]), "Ticker": t["tk"],
                    "Entry Price": t["e"], "Exit Price": t["exit_price"], "Entry Time": t["entry_text"],
                    "Exit Time": t["exit_text"], "Trade Percent Change": t["pc"], "Notes": "n"}
            vals.update(t["f"])
            f.write(",".join(vals[h] for h in lh) + "\n")
    return {"tickers": tickers}


def plant_more_exits(rng, trades, market, days, span):
    """SPEC sec. 4.1 edge cases on trade paths (variant 3 only): a price exactly on a
    trail level float32(m_i * (1 - x/100)) of a pool value x (or one float32 step above
    it: no hit), and a breakeven activation exactly on float32(e * (1 + y/100)) followed
    by a price exactly float32(e) (or one step above it). Later plants and other trades
    on the same seconds may move these; the oracle reads whatever the files hold."""
    for t in trades:
        if t["dayi"] >= len(days) or t["entry"] < 0 or t.get("flat") or rng.random() > 0.45:
            continue
        m = market[(t["tk"], t["dayi"])]
        ks = [k for k in range(t["entry"], min(t["exit"], span - 1) + 1) if m[k] is not None]
        if len(ks) < 3:
            continue
        e = float(t["e"])
        if rng.random() < 0.5:
            p = rng.randrange(1, len(ks))
            top = max([e] + [float(np.float32(float(m[k]))) for k in ks[:p]])
            lvl = np.float32(top * (1 - float(rng.choice(TRAILS[1:])) / 100))
            if rng.random() < 0.3:
                lvl = np.nextafter(lvl, np.float32(np.inf))
            m[ks[p]] = f32_text(lvl)
        else:
            p1 = rng.randrange(0, len(ks) - 1)
            p2 = min(len(ks) - 1, p1 + rng.randint(1, 3))
            act = np.float32(e * (1 + float(rng.choice(BREAKEVENS[1:])) / 100))
            back = np.float32(e)
            if rng.random() < 0.25:
                act = np.nextafter(act, np.float32(-np.inf))
            if rng.random() < 0.25:
                back = np.nextafter(back, np.float32(np.inf))
            for k in ks[p1:p2]:  # the activation, held until the return to the entry
                m[k] = f32_text(act)
            m[ks[p2]] = f32_text(back)


# ====================================================================== configs

class Config:
    """One test config: the YAML text, and what the oracle needs."""

    def __init__(self, name, data, tickers, params, objective, features=(), top=K):
        self.name, self.data, self.tickers = name, data, tickers
        self.params, self.objective, self.features, self.top = params, objective, list(features), top

    def yaml(self, root):
        lines = ["# written by test_spec_oracle.py", "data:",
                 f"  market_dir: {os.path.join(self.data, 'market')}",
                 f"  trades: {os.path.join(self.data, 'all_trade_logs.csv')}",
                 f"  tickers: [{', '.join(self.tickers)}]",
                 f"  cache: {os.path.join(root, self.name + '.dataset.h5')}"]
        if self.features:
            lines.append(f"  features: [{', '.join(self.features)}]")
        lines.append("parameters:")
        for p in self.params:
            d = [f"name: {p['name']}"]
            if p["role"] != "filter":
                d.append(f"role: {p['role']}")
            else:
                d.append(f"feature: {p['feature']}")
                if p.get("direction", "min") != "min" or p.get("say_min"):
                    d.append(f"direction: {p.get('direction', 'min')}")
            if "values" in p:
                d.append(f"values: [{', '.join(p['values'])}]")
            else:
                a, b, s = p["range"]
                d.append(f"range: {{start: {a}, stop: {b}, step: {s}}}")
            lines.append("  - {" + ", ".join(d) + "}")
        o = self.objective
        lines += ["objective:", f"  name: {o['name']}"]
        for k in ("min_trades", "max_drawdown_pct", "fill", "cost_pct"):
            if o.get(k) is not None:
                lines.append(f"  {k}: {o[k]}")
        if "ga" in o:
            lines.append("ga:")
            for k, v in o["ga"].items():
                lines.append(f"  {k}: {v}")
        lines += [f"top: {self.top}", "seed: 7", f"output: {os.path.join(root, self.name + '.h5')}"]
        return "\n".join(lines) + "\n"

    def oracle_params(self):
        out = []
        for p in self.params:
            out.append(so.param(p["name"], role=p["role"], feature=p.get("feature"),
                                direction=p.get("direction", "min"), values=p.get("values"),
                                range=p.get("range")))
        return out

    def oracle_objective(self, **over):
        o = dict(self.objective)
        o.update(over)
        return so.Objective(name=o["name"], min_trades=o.get("min_trades") or 0,
                            max_drawdown_pct=o.get("max_drawdown_pct"), fill=o.get("fill") or "level",
                            cost_pct=o.get("cost_pct") or "0")


def feature_pools(trades_csv, tickers):
    """Per feature column: the texts of the log (for thresholds exactly equal to them)."""
    import csv
    pools = {}
    with open(trades_csv, newline="") as f:
        for row in csv.DictReader(f):
            if row.get("Ticker") not in tickers:
                continue
            for k, v in row.items():
                k = k.strip()
                if k in so.STANDARD_FEATURES or k == "Entry Rsi":
                    try:
                        x = float(v)
                    except ValueError:
                        continue
                    if math.isfinite(x):
                        pools.setdefault(k, {})[x] = v
    return {k: sorted(v.items()) for k, v in pools.items()}


def dec_text(d):
    t = format(Decimal(d).normalize(), "f")
    return "0" if t in ("-0", "0") else t


def random_filter(rng, name, feature, pool, count, allow_range=True):
    """A filter on `feature` with about `count` values: a list (texts of the log
    and round numbers) or a range."""
    lo, hi = pool[0][0], pool[-1][0]
    direction = "max" if rng.random() < 0.3 else "min"
    p = {"name": name, "role": "filter", "feature": feature, "direction": direction}
    if direction == "min" and rng.random() < 0.2:
        p["say_min"] = True
    if allow_range and rng.random() < 0.45:
        scale = max(abs(lo), abs(hi), 1e-9)
        step = Decimal(rng.choice(["0.05", "0.1", "0.025", "0.15"])) if scale < 3 else \
            Decimal(rng.choice(["1", "2.5", "5", "0.5"]))
        start = (Decimal(str(lo)) / step).to_integral_value(rounding="ROUND_FLOOR") * step
        if rng.random() < 0.3:
            start -= step
        n = int((Decimal(str(hi)) - start) / step) + 1
        n = max(1, min(n, count))
        if rng.random() < 0.5:  # start somewhere inside, so some trades are always out
            start += step * rng.randint(0, max(0, int((Decimal(str(hi)) - start) / step) - n + 1))
        p["range"] = (dec_text(start), dec_text(start + step * (n - 1)), dec_text(step))
        if start == 0 and rng.random() < 0.5:
            p["range"] = ("0.0",) + p["range"][1:]
        return p
    texts = {x: t for x, t in rng.sample(pool, min(len(pool), max(1, count - 1)))}
    if direction == "min" and lo >= 0:
        texts[0.0] = "0"
    elif direction == "max":
        texts[hi] = dict(pool)[hi]
    vals = sorted(texts.items())[:count]
    p["values"] = [t for _, t in vals]
    return p


def random_exit(rng, role, count):
    pool = TARGETS if role == "target" else STOPS
    if rng.random() < 0.4:
        if role == "target":
            step = rng.choice(["0.1", "0.05"])
            start = rng.choice(["0.1", "0.05"])
        else:
            step = rng.choice(["0.1", "0.05"])
            start = rng.choice(["-0.5", "-0.6", "-1"])
        n = max(2, min(count, 8))
        a, s = Decimal(start), Decimal(step)
        stop = a + s * (n - 1)
        if role == "stop" and stop >= 0:
            stop = a + s * int((-a / s) - 1)
        return {"name": role, "role": role, "range": (start, dec_text(stop), step)}
    vals = sorted(rng.sample(pool, min(len(pool), count)), key=float)
    return {"name": role, "role": role, "values": vals}


def random_config(rng, name, data, tickers, objective, pools, max_points, extra=()):
    feats = [f for f in pools if len(pools[f]) >= 2]
    nf = rng.randint(1, 4)
    chosen = [rng.choice(feats) for _ in range(nf)]
    params = []
    counts = [rng.randint(2, 7) for _ in chosen]
    nt, ns = rng.randint(1, 6), rng.randint(1, 6)
    while math.prod(counts) * nt * ns > max_points:
        if nt * ns > 4 and rng.random() < 0.5:
            if nt >= ns:
                nt -= 1
            else:
                ns -= 1
        else:
            counts[counts.index(max(counts))] -= 1
    for i, (feat, c) in enumerate(zip(chosen, counts)):
        params.append(random_filter(rng, f"f{i}", feat, pools[feat], max(1, c)))
    if rng.random() < 0.9:
        params.append(random_exit(rng, "target", nt))
    if rng.random() < 0.85:
        params.append(random_exit(rng, "stop", ns))
    rng.shuffle(params)
    obj = {"name": objective, "fill": rng.choice([None, "level", "price"]),
           "cost_pct": rng.choice([None, "0", "0.01", "0.0125", "0.05", "0.0000005"]),
           "min_trades": rng.choice([None, 0, 1, 2, 3, 5])}
    features = [f for f in extra if rng.random() < 0.5]
    return Config(name, data, tickers, params, obj, features=features)


def random_more_exit(rng, role, count):
    """A sec. 4.1 exit parameter with `count` values: a list from the pool or a range."""
    pool = {"trail": TRAILS, "breakeven": BREAKEVENS, "max_hold": HOLDS}[role]
    if rng.random() < 0.35:
        if role == "max_hold":
            start, step = rng.choice(["0", "1", "5", "10"]), rng.choice(["1", "5", "30", "60"])
        else:
            start, step = rng.choice(["0.05", "0.1"]), rng.choice(["0.05", "0.1"])
        stop = Decimal(start) + Decimal(step) * (count - 1)
        return {"name": role, "role": role, "range": (start, dec_text(stop), step)}
    vals = rng.sample(pool, min(len(pool), count))
    if role == "breakeven" and "0.000001" not in vals and rng.random() < 0.5:
        vals[0] = "0.000001"  # armed where the price is float32(e), as the entry second often is
    return {"name": role, "role": role, "values": sorted(vals, key=float)}


def random_exits_config(rng, name, data, tickers, objective, pools, max_points, extra=(), must="trail"):
    """random_config's lattice (filters, target, stop, objective options) with one to
    three of sec. 4.1's roles added (`must` among them), the whole within max_points."""
    roles = [r for r in ("trail", "breakeven", "max_hold") if r == must or rng.random() < 0.6]
    counts = {r: rng.randint(1, 4) for r in roles}
    cfg = random_config(rng, name, data, tickers, objective, pools, max(8, max_points // math.prod(counts.values())),
                        extra)
    for r in roles:
        cfg.params.insert(rng.randrange(len(cfg.params) + 1), random_more_exit(rng, r, counts[r]))
    return cfg


# ====================================================================== comparing

def fmt(v):
    return repr(v) if v is not None else "infeasible"


def json_fitness(v):
    if isinstance(v, str):
        return {"inf": math.inf, "-inf": -math.inf}.get(v, float("nan"))
    return float(v)


def close(a, b):
    if a == b:
        return True
    if a is None or b is None or not (math.isfinite(a) and math.isfinite(b)):
        return False
    return abs(a - b) <= REL * max(abs(a), abs(b))


def compound_close(got, want, n):
    """SPEC sec. 5: compound = (prod (1 + o_j/100) - 1) * 100. A double product
    of n factors, in any order, is within about n rounding errors of the exact
    product P, so within (100 + |v|) * (n + 1) * 2 eps of the exact value v:
    the tolerance (a relative 1e-12 on v itself would be too tight where v is
    near 0, since v = 100 (P - 1) cancels)."""
    if got == want:
        return True
    if not (math.isfinite(got) and math.isfinite(want)):
        return False
    return abs(got - want) <= (100 + abs(want)) * (n + 1) * 4.5e-16


class Run:
    def __init__(self, cfg, cfg_path, orc, label):
        self.cfg, self.cfg_path, self.orc, self.label = cfg, cfg_path, orc, label
        self.errors = 0

    def fail(self, what, kind="other"):
        KINDS[kind] = KINDS.get(kind, 0) + 1
        self.errors += 1
        if self.errors <= MAX_REPORT:
            check(False, f"[{self.label}] {self.cfg.name}: {what}")
        elif self.errors == MAX_REPORT + 1:
            check(False, f"[{self.label}] {self.cfg.name}: further mismatches not shown")
        else:
            check.failures += 1

    def genome(self, i):
        return f"index {i} ({self.orc.genome_text(i)})"


def key_tol(orc, keys):
    finite = [abs(k) for k in keys if math.isfinite(k)]
    if orc.obj.name == "compound":
        return 0.0  # an integer sum of quantised log factors: exact
    return REL * max(finite, default=0.0)


def compare(run, top, expect_len, complete=True):
    """top: evolve's list (JSON "top"). Checks each genome against the oracle,
    then (complete=True: a grid's exact top-K) that the list is the oracle's
    ranking: non-increasing oracle keys (within tolerance), genomes with the same
    exact sums in index order, and no genome outside it better than its last."""
    orc = run.orc
    dims = orc.dims
    seen = set()
    for r, e in enumerate(top):
        i = int(e["index"])
        fit = json_fitness(e["fitness"])
        if i in seen:
            run.fail(f"rank {r + 1}: {run.genome(i)} reported twice")
        seen.add(i)
        if not (0 <= i < orc.size):
            run.fail(f"rank {r + 1}: index {i} outside the lattice of {orc.size}")
            continue
        g = so.genes_of(i, dims)
        vals = e.get("values", {})
        for p, k in zip(orc.params, g):
            if p.name in vals and float(vals[p.name]) != p.values[k]:
                run.fail(f"rank {r + 1}: {run.genome(i)}: value of {p.name} is {vals[p.name]}, "
                         f"the lattice says {p.texts[k]}")
        if not orc.feasible[i]:
            run.fail(f"rank {r + 1}: {run.genome(i)} is infeasible per the oracle (n={orc.n[i]}, "
                     f"drawdown {orc.DD[i] / 1e6}%), evolve reports fitness {fit!r} with {e['trades']} trades")
            continue
        want = orc.value(i)
        if int(e["trades"]) != int(orc.n[i]):
            run.fail(f"rank {r + 1}: {run.genome(i)}: trades kept: oracle {orc.n[i]}, evolve {e['trades']}")
        if orc.obj.name == "compound" and not orc.R[i]:
            if not compound_close(fit, want, int(orc.n[i])):
                # say what evolve's number is, when it is the quantised log sum's exponential
                L = int(orc.L[i])
                via_log = math.expm1(L * 1e-12) * 100
                how = (f"; evolve's value is expm1(L * 1e-12) * 100 bit for bit, L = {L} the sum of the "
                       f"quantised log factors (the ranking key), not the product" if fit == via_log else "")
                run.fail(f"rank {r + 1}: {run.genome(i)}: compound value (SPEC sec. 5: (prod (1 + o_j/100) - 1)"
                         f" * 100): oracle {fmt(want)}, evolve {fit!r}, off by {fit - want:.3g}, "
                         f"{int(orc.n[i])} trades{how}", kind="compound value (SPEC sec. 5: the product)")
        elif not close(fit, want):
            run.fail(f"rank {r + 1}: {run.genome(i)}: fitness: oracle {fmt(want)}, evolve {fit!r} "
                     f"(trades oracle {orc.n[i]}, evolve {e['trades']})")
    if len(top) != expect_len:
        run.fail(f"{len(top)} genomes reported, the oracle expects {expect_len} "
                 f"({int(orc.feasible.sum())} feasible of {orc.size})")
    idx = [int(e["index"]) for e in top if 0 <= int(e["index"]) < orc.size and orc.feasible[int(e["index"])]]
    if not idx:
        return
    keys = [float(orc.key[i]) for i in idx]
    tol = key_tol(orc, keys)
    # same exact sums: same fitness bits, index order
    by_sig = {}
    fits = {int(e["index"]): json_fitness(e["fitness"]) for e in top}
    for r, i in enumerate(idx):
        s = orc.sig(i)
        if s in by_sig:
            j = by_sig[s]
            if fits[j] != fits[i] and not (math.isnan(fits[j]) and math.isnan(fits[i])):
                run.fail(f"{run.genome(j)} and {run.genome(i)} have the same exact sums {s} but evolve gives "
                         f"them fitness {fits[j]!r} and {fits[i]!r}")
        by_sig[s] = i
    for r in range(len(idx) - 1):
        a, b = idx[r], idx[r + 1]
        ka, kb = keys[r], keys[r + 1]
        if ka < kb - tol and not (ka == kb):
            run.fail(f"ranks {r + 1}, {r + 2}: {run.genome(a)} (oracle {fmt(orc.value(a))}) is ranked above "
                     f"{run.genome(b)} (oracle {fmt(orc.value(b))})")
        elif ka == kb == math.inf and orc.inf_tie(a) < orc.inf_tie(b):
            run.fail(f"ranks {r + 1}, {r + 2}: {run.genome(a)} (+inf, (total return, trades) {orc.inf_tie(a)}) is "
                     f"ranked above {run.genome(b)} (+inf, {orc.inf_tie(b)}): SPEC sec. 5 ranks +inf by total "
                     f"return, then trades")
        elif orc.sig(a) == orc.sig(b) and a > b:
            run.fail(f"ranks {r + 1}, {r + 2}: equal fitness must rank the lower index first: {a} before {b}")
    if not complete:
        return
    # nothing left out is better than the list's worst; an exact tie class is cut at its lowest indices
    inside = set(idx)
    worst = min(keys)
    out = np.nonzero(orc.feasible)[0]
    kout = orc.key[out]
    better = out[(kout > worst + tol) | ((kout == np.inf) & (worst != np.inf))]
    if worst == math.inf:  # +inf ranks by total return, then trades
        last = orc.inf_tie(idx[-1])
        better = np.array([i for i in out[kout == np.inf].tolist() if orc.inf_tie(i) > last], dtype=np.int64)
    for i in [int(i) for i in better if int(i) not in inside][:MAX_REPORT]:
        run.fail(f"{run.genome(i)} (oracle {fmt(orc.value(i))}, {orc.n[i]} trades) is missing; "
                 f"evolve's list ends at {fmt(orc.value(idx[-1]))}")
    max_in = {}
    for i in idx:
        s = orc.sig(i)
        max_in[s] = max(max_in.get(s, -1), i)
    cand = out[np.abs(kout - worst) <= tol] if math.isfinite(worst) else out[kout == worst]
    for i in cand.tolist():
        if i in inside:
            continue
        s = orc.sig(i)
        if s in max_in and i < max_in[s]:
            run.fail(f"{run.genome(i)} ties exactly with {run.genome(max_in[s])} (sums {s}) and has the lower "
                     f"index, but only the latter is reported")


def oracle_for(cfg, ds_cache):
    feats = tuple(sorted(set(cfg.features) | {p["feature"] for p in cfg.params if p["role"] == "filter"}))
    key = (cfg.data, tuple(cfg.tickers), feats)
    if key not in ds_cache:
        ds_cache[key] = so.load_dataset(os.path.join(cfg.data, "market"),
                                        os.path.join(cfg.data, "all_trade_logs.csv"), cfg.tickers, feats)
    return ds_cache[key]


def dominance_applies(cfg):
    """Dominance sums refuse what depends on the order of trades (calmar, max_drawdown_pct)."""
    return cfg.objective.get("max_drawdown_pct") is None and cfg.objective["name"] != "calmar"


def run_grid(evolve, root, cfg, orc, ds, evaluator, stats, top_run=True):
    if evaluator == "dominance" and not dominance_applies(cfg):
        evaluator = "tables"
    path = os.path.join(root, cfg.name + ".yaml")
    with open(path, "w") as f:
        f.write(cfg.yaml(root))
    runs = [(orc.size, f"grid full, {evaluator}")] + ([(None, "grid top")] if top_run else [])
    for top, label in runs:
        js = os.path.join(root, cfg.name + ".json")
        args = [path, "--grid", "--quiet", "--json", js]
        if top is not None:
            args += ["--top", str(top), "--evaluator", evaluator]
        r = cli.run(evolve, args, timeout=120)
        run = Run(cfg, path, orc, label)
        if r.returncode != 0:
            run.fail(f"evolve exited {r.returncode}: {r.stderr.strip()}\n{cfg.yaml(root)}")
            return
        with open(js) as f:
            doc = json.load(f)
        if doc.get("lattice_size") != orc.size:
            run.fail(f"lattice_size {doc.get('lattice_size')}, oracle {orc.size}")
        if doc.get("trades_kept") != len(ds.trades):
            run.fail(f"trades_kept {doc.get('trades_kept')}, oracle {len(ds.trades)}")
        if doc.get("drops") != ds.drops:
            run.fail(f"drops {doc.get('drops')}, oracle {ds.drops}")
        if doc.get("objective") != cfg.objective["name"]:
            run.fail(f"objective {doc.get('objective')}")
        nfeas = int(orc.feasible.sum())
        want = min(top if top is not None else cfg.top, nfeas)
        compare(run, doc.get("top", []), want)
        stats["runs"] += 1
        stats["genomes"] += len(doc.get("top", []))
        if run.errors:
            print(f"--- config {cfg.name} ({path}):\n{cfg.yaml(root)}", flush=True)


def run_ga(evolve, root, cfg, orc, stats):
    path = os.path.join(root, cfg.name + ".yaml")
    with open(path, "w") as f:
        f.write(cfg.yaml(root))
    js = os.path.join(root, cfg.name + ".json")
    r = cli.run(evolve, [path, "--quiet", "--json", js], timeout=120)
    run = Run(cfg, path, orc, "ga")
    if r.returncode != 0:
        run.fail(f"evolve exited {r.returncode}: {r.stderr.strip()}")
        return
    with open(js) as f:
        doc = json.load(f)
    top = doc.get("top", [])
    # each genome exactly as the oracle has it; the list in ranking order (a GA's
    # hall of fame need not be the lattice's top-K, so no completeness check)
    compare(run, top, len(top), complete=False)
    if not top and orc.feasible.any():
        run.fail("the GA reported no genome")
    stats["runs"] += 1
    stats["genomes"] += len(top)
    if run.errors:
        print(f"--- config {cfg.name} ({path}):\n{cfg.yaml(root)}", flush=True)


def boundary_constraints(rng, cfg, orc):
    """min_trades and max_drawdown_pct set on a value some feasible genome has
    exactly (equal is allowed)."""
    feas = np.nonzero(orc.feasible)[0]
    if len(feas) == 0:
        return
    if rng.random() < 0.5:
        i = int(rng.choice(feas.tolist()))
        dd = int(orc.DD[i])
        cfg.objective["max_drawdown_pct"] = dec_text(Decimal(dd) / Decimal(10 ** 6)) if dd > 0 else "0.5"
    if rng.random() < 0.4:
        i = int(rng.choice(feas.tolist()))
        cfg.objective["min_trades"] = int(orc.n[i])


# ====================================================================== main

EVALUATORS = ["auto", "tables", "dominance", "reference"]


def run_dataset(evolve, root, label, data, tickers, n_configs, seed, stats, max_points=3000, extra=(), ga=0,
                loop_check=0, ds_cache=None):
    rng = random.Random(seed)
    pools = feature_pools(os.path.join(data, "all_trade_logs.csv"), tickers)
    if "Entry Rsi" not in extra:
        pools.pop("Entry Rsi", None)
    objectives = list(so.OBJECTIVES)
    for c in range(n_configs):
        objective = objectives[(c + seed) % len(objectives)]
        cfg = random_config(rng, f"{label}-{c}-{objective}", data, tickers, objective, pools, max_points, extra)
        ds = oracle_for(cfg, ds_cache)
        orc = so.Oracle(ds, cfg.oracle_params(), cfg.oracle_objective(), check_loop=c < loop_check)
        boundary_constraints(rng, cfg, orc)
        orc = so.Oracle(ds, cfg.oracle_params(), cfg.oracle_objective())
        run_grid(evolve, root, cfg, orc, ds, EVALUATORS[(c + seed) % len(EVALUATORS)], stats)
        if c < ga:
            cfg.objective["ga"] = {"population": 48, "generations": 12}
            cfg.name += "-ga"
            run_ga(evolve, root, cfg, orc, stats)
        stats["configs"] += 1
        stats["points"] += orc.size


def exit_combos(cfg):
    return math.prod(len(p) for p in cfg.oracle_params() if p.role in so.EXIT_ROLES)


def run_dataset_exits(evolve, root, label, data, tickers, n_configs, seed, stats, max_points=1500, extra=(), ga=0,
                      loop_check=0, ds_cache=None):
    """Random configs with sec. 4.1's roles: the full grid with the tables and (where
    they apply) the dominance sums, evolve's own top-K, and a GA run's hall of fame,
    against the oracle. The first loop_check configs check the oracle's tables against
    its literal race on a sample of about 2500 (trade, exit combination) pairs."""
    rng = random.Random(seed)
    pools = feature_pools(os.path.join(data, "all_trade_logs.csv"), tickers)
    if "Entry Rsi" not in extra:
        pools.pop("Entry Rsi", None)
    objectives = list(so.OBJECTIVES)
    roles = {}
    for c in range(n_configs):
        objective = objectives[(c + seed) % len(objectives)]
        cfg = random_exits_config(rng, f"{label}-{c}-{objective}", data, tickers, objective, pools, max_points,
                                  extra, must=("trail", "breakeven", "max_hold")[c % 3])
        for p in cfg.params:
            roles[p["role"]] = roles.get(p["role"], 0) + 1
        ds = oracle_for(cfg, ds_cache)
        stride = max(1, len(ds.trades) * exit_combos(cfg) // 2500) if c < loop_check else 0
        orc = so.Oracle(ds, cfg.oracle_params(), cfg.oracle_objective(), check_loop=stride)
        boundary_constraints(rng, cfg, orc)
        orc = so.Oracle(ds, cfg.oracle_params(), cfg.oracle_objective())
        run_grid(evolve, root, cfg, orc, ds, "tables", stats)
        if dominance_applies(cfg):
            run_grid(evolve, root, cfg, orc, ds, "dominance", stats, top_run=False)
        if c < ga:
            cfg.objective["ga"] = {"population": 48, "generations": 12}
            cfg.name += "-ga"
            run_ga(evolve, root, cfg, orc, stats)
        stats["configs"] += 1
        stats["points"] += orc.size
    print(f"{label}: {n_configs} configs with sec. 4.1 exits, parameters by role {dict(sorted(roles.items()))}",
          flush=True)
    for r in ("trail", "breakeven", "max_hold"):
        check(roles.get(r, 0) >= 2, f"{label}: only {roles.get(r, 0)} configs with a {r}")


def exact_exit_hits(ds):
    """(trail, breakeven): trades whose first trail hit (pool value) is a price exactly
    on its float32 level, and trades whose breakeven exit (pool value) is a price
    exactly float32(e) after an activation exactly on its level."""
    trail = be = 0
    for tr in ds.trades:
        p, e = ds.path(tr), tr.entry_price
        ts = ds.ts[tr.ticker_id][tr.start:tr.end]
        # (the tiny values left out: a trail of 0.000001 % is hit exactly at every new maximum)
        fs = so.first_seconds(p, ts, e, tr.entry_ts, {"trail": [float(x) for x in TRAILS[1:]],
                                                       "breakeven": [float(y) for y in BREAKEVENS[1:]]})
        trail += any(i < len(p) and p[i] == fs["trail_level"][a, i] for a, i in enumerate(fs["trail"]))
        for y, i in zip(BREAKEVENS[1:], fs["breakeven"]):
            act = np.float32(e * (1 + float(y) / 100))
            if i < len(p) and p[i] == np.float32(e) and (p[:i] == act).any():
                be += 1
                break
    return trail, be


def check_hand_cases(evolve, root, stats, ds_cache):
    """SPEC sec. 4.1 on a tiny path, by hand. One ticker HND, seconds 0 1 2 4 5 7 after
    09:30:00 (3 and 6 missing), prices 10 10.1 10.2 10.05 9.99 10.3. Trade 1 enters at
    second 0 (e = 10, exits 7, logged +0.5 %); trade 2 at second 3, between rows (e = 10.05,
    path 10.05 9.99 10.3 at seconds 4 5 7, logged -0.2 %). Trade 3 on HN2 (prices 10 10.25 L
    10.1 9.8 at seconds 0..4, e = 10, logged +0.3 %), L exactly the 2 % trail level below 10.25.
    Two filters on Entry Adx7 (= the trade id) pick any one trade. The expected outcomes below
    are derived by hand from the SPEC text;
    the oracle must give them, and evolve's total_return of the one-trade genomes too."""
    d = os.path.join(root, "hand")
    os.makedirs(os.path.join(d, "market"), exist_ok=True)
    secs, texts = [0, 1, 2, 4, 5, 7], ["10", "10.1", "10.2", "10.05", "9.99", "10.3"]
    # HN2: a price exactly on the 2 % trail level below the maximum 10.25 (exact in binary)
    lvl2 = float(np.float32(float(np.float32(10.25)) * (1 - 2 / 100)))
    texts2 = ["10", "10.25", f32_text(np.float32(lvl2)), "10.1", "9.8"]
    open_s = 9 * 3600 + 30 * 60
    with open(os.path.join(d, "market", "Raw_Market_data_03-04-2024.csv"), "w") as f:
        f.write(",".join(MARKET_HEADER) + "\n")
        rows = sorted([(s, "HND", p) for s, p in zip(secs, texts)] + [(s, "HN2", p) for s, p in enumerate(texts2)])
        for s, tk, p in rows:
            vals = {"Ticker": tk, "Price": p, "Time": hms(open_s + s)}
            f.write(",".join(vals.get(h, "1") for h in MARKET_HEADER) + "\n")
    with open(os.path.join(d, "all_trade_logs.csv"), "w") as f:
        f.write(",".join(LOG_HEADER) + "\n")
        for tid, (tk, s, x, e, pc) in enumerate([("HND", 0, 7, "10", "0.5"), ("HND", 3, 7, "10.05", "-0.2"),
                                                  ("HN2", 0, 4, "10", "0.3")], start=1):
            vals = {"Date": "03/04/2024", "Trade Id": str(tid), "Ticker": tk, "Entry Price": e,
                    "Exit Price": e, "Entry Time": hms(open_s + s), "Exit Time": hms(open_s + x),
                    "Trade Percent Change": pc, "Entry Adx7": str(tid)}
            f.write(",".join(vals.get(h, "1") for h in LOG_HEADER) + "\n")
    params = [{"name": "lo", "role": "filter", "feature": "Entry Adx7", "values": ["1", "2", "3"]},
              {"name": "hi", "role": "filter", "feature": "Entry Adx7", "direction": "max",
               "values": ["1", "2", "3"]},
              {"name": "target", "role": "target", "values": ["2", "5"]},
              {"name": "stop", "role": "stop", "values": ["-5", "-0.1"]},
              {"name": "breakeven", "role": "breakeven", "values": ["0.000001", "0.5", "1", "50"]},
              {"name": "trail", "role": "trail", "values": ["0.5", "1", "2", "50"]},
              {"name": "max_hold", "role": "max_hold", "values": ["0", "2", "3", "4", "6", "7"]}]
    f32 = lambda t: float(np.float32(float(t)))  # noqa: E731  a price as the dataset holds it
    pct = lambda x, e: (x / e - 1) * 100  # noqa: E731
    m2 = f32("10.2")  # trade 1's running maximum from second 2 on
    # (trade, target, stop, breakeven, trail, max_hold) -> (outcome fill level, fill price, why)
    # values 5, -5, 50, 50 and 7 never exit
    hand = {
        (1, "5", "-5", "50", "50", "7"): (0.5, 0.5, "no event: the logged result"),
        (1, "2", "-5", "50", "50", "7"): (2.0, pct(f32("10.2"), 10), "target float32(10.2) at second 2"),
        (1, "5", "-0.1", "50", "50", "7"): (-0.1, pct(f32("9.99"), 10), "stop float32(9.99) at second 4"),
        (1, "5", "-5", "50", "1", "7"): (pct(float(np.float32(m2 * 0.99)), 10), pct(f32("10.05"), 10),
                                         "trail 1 %: level float32(10.2 * 0.99) = 10.098 hit by 10.05 at 3"),
        (1, "5", "-5", "1", "50", "7"): (0.0, pct(f32("9.99"), 10),
                                         "breakeven 1 %: armed by 10.1 at 1, 9.99 <= 10 at 4"),
        (1, "5", "-5", "0.5", "50", "7"): (0.0, pct(f32("9.99"), 10), "breakeven 0.5 %: armed at 1, exits at 4"),
        (1, "5", "-5", "0.000001", "50", "7"): (0.0, pct(f32("9.99"), 10),
                                               "breakeven 0.000001 %: level float32(10.0000001) = 10, armed by 10 "
                                               "at second 0, exits from second 1 on: 9.99 at 4"),
        (1, "5", "-5", "0.000001", "50", "3"): (pct(f32("10.2"), 10),) * 2 +
                                               ("breakeven armed at 0 (not exiting at 0); the time stop at 2 first",),
        (1, "5", "-5", "50", "50", "3"): (pct(f32("10.2"), 10),) * 2 + ("max_hold 3: k = second 2 (ts 2)",),
        (1, "5", "-5", "50", "50", "4"): (pct(f32("10.05"), 10),) * 2 + ("max_hold 4: k = 3 (ts 4)",),
        (1, "5", "-5", "50", "50", "6"): (pct(f32("9.99"), 10),) * 2 + ("max_hold 6: k = 4 (ts 5; 6 missing)",),
        (1, "5", "-5", "50", "50", "0"): (0.0, 0.0, "max_hold 0: k = 0, at the entry price"),
        (1, "5", "-5", "50", "1", "4"): (pct(float(np.float32(m2 * 0.99)), 10), pct(f32("10.05"), 10),
                                         "trail and time stop both at 3: the trail comes first"),
        (1, "2", "-5", "50", "50", "3"): (2.0, pct(f32("10.2"), 10), "target and time stop at 2: target first"),
        (1, "5", "-0.1", "1", "50", "7"): (-0.1, pct(f32("9.99"), 10), "stop and breakeven at 4: stop first"),
        (1, "5", "-5", "1", "1", "6"): (pct(float(np.float32(m2 * 0.99)), 10), pct(f32("10.05"), 10),
                                        "trail at 3 before breakeven and time stop at 4"),
        (2, "5", "-5", "50", "50", "7"): (-0.2, -0.2, "no event"),
        (2, "5", "-5", "50", "50", "0"): (pct(f32("10.05"), 10.05),) * 2 +
                                         ("max_hold 0: no second <= entry (ts 3): the first second",),
        (2, "5", "-5", "50", "50", "2"): (pct(f32("9.99"), 10.05),) * 2 + ("max_hold 2: k = 1 (ts 5)",),
        (2, "5", "-5", "50", "50", "6"): (-0.2, -0.2, "max_hold 6: k = 2, the last second: no change"),
        (2, "5", "-5", "50", "0.5", "7"): (pct(float(np.float32(max(10.05, f32("10.05")) * 0.995)), 10.05),
                                           pct(f32("9.99"), 10.05), "trail 0.5 %: 9.99 at 1"),
        (2, "5", "-5", "0.5", "50", "7"): (-0.2, -0.2, "breakeven armed by 10.3 at the last second only"),
        (3, "5", "-5", "50", "2", "7"): (pct(lvl2, 10),) * 2 + ("trail 2 %: the price at 2 is its level exactly",),
        (3, "5", "-5", "50", "2", "3"): (pct(lvl2, 10),) * 2 + ("trail at 2 before the time stop at 3",),
        (3, "5", "-5", "50", "50", "3"): (pct(f32("10.1"), 10),) * 2 + ("max_hold 3: k = 3 of 0..4",),
        (3, "5", "-5", "50", "50", "7"): (0.3, 0.3, "max_hold 7 reaches the last second: no change"),
    }
    names = [p["name"] for p in params]
    for fill, cost in (("level", "0"), ("price", "0.01")):
        cfg = Config(f"hand-{fill}", d, ["HND", "HN2"], params,
                     {"name": "total_return", "fill": fill, "cost_pct": cost},
                     top=K)
        ds = oracle_for(cfg, ds_cache)
        check(len(ds.trades) == 3, f"hand: {len(ds.trades)} trades kept")
        orc = so.Oracle(ds, cfg.oracle_params(), cfg.oracle_objective(), check_loop=True)
        index = {}
        for (tid, *ex), (lvl, price, why) in hand.items():
            vals = [str(tid), str(tid)] + ex
            genes = [cfg.oracle_params()[k].texts.index(v) for k, v in enumerate(vals)]
            i = so.linear_index(genes, orc.dims)
            want = (lvl if fill == "level" else price) - float(cost)
            got = [o for _, o, _ in orc.trade_outcomes(i)]
            check(got == [want], f"hand, fill {fill}: trade {tid} {dict(zip(names[2:], ex))} ({why}): "
                                 f"oracle {got}, by hand {want!r}")
            index[i] = (so.quantise(want) / 1e6, tid, ex, why)
        for evaluator in ("tables", "dominance", "reference"):
            js = os.path.join(root, f"{cfg.name}-{evaluator}.json")
            path = os.path.join(root, cfg.name + ".yaml")
            with open(path, "w") as f:
                f.write(cfg.yaml(root))
            r = cli.run(evolve, [path, "--grid", "--quiet", "--json", js, "--top", str(orc.size),
                                 "--evaluator", evaluator], timeout=120)
            if not check(r.returncode == 0, f"hand: evolve exited {r.returncode}: {r.stderr.strip()}"):
                continue
            with open(js) as f:
                top = json.load(f).get("top", [])
            run = Run(cfg, path, orc, f"hand, {evaluator}")
            compare(run, top, orc.size)
            got = {int(e["index"]): json_fitness(e["fitness"]) for e in top}
            for i, (want, tid, ex, why) in index.items():
                check(got.get(i) == want, f"hand, fill {fill}, {evaluator}: trade {tid} {dict(zip(names[2:], ex))} "
                                          f"({why}): evolve {got.get(i)!r}, by hand {want!r}")
            stats["runs"] += 1
            stats["genomes"] += len(top)
        stats["configs"] += 1
        stats["points"] += orc.size


def float32_only_hits(ds):
    """Trades whose path reaches a pool target (stop) level exactly once, at the float32
    level, where the double level lies beyond that price: only float32 levels hit."""
    count = 0
    for tr in ds.trades:
        p, e = ds.path(tr), tr.entry_price
        for t in TARGETS[1:] + STOPS[:-1]:
            lvl, exact = np.float32(e * (1 + float(t) / 100)), e * (1 + float(t) / 100)
            up = float(t) > 0
            reach = (p >= lvl) if up else (p <= lvl)
            if reach.sum() == 1 and (p == lvl).sum() == 1 and (float(lvl) < exact if up else float(lvl) > exact):
                count += 1
    return count


def check_tiny_exits(evolve, root, data, tickers, stats, ds_cache):
    """Target 0.000001 % and stop -0.000001 %: both levels round to the same
    float32 as the entry price, so a path starting at the entry price hits both at
    its first second, and the target, checked first, must win."""
    params = [{"name": "target", "role": "target", "values": ["0.000001", "0.2"]},
              {"name": "stop", "role": "stop", "values": ["-0.2", "-0.000001"]},
              {"name": "vol", "role": "filter", "feature": "Entry Volatility Percent", "values": ["0", "0.2"]}]
    for fill in ("level", "price"):
        cfg = Config(f"tiny-{fill}", data, tickers, params, {"name": "total_return", "fill": fill})
        ds = oracle_for(cfg, ds_cache)
        orc = so.Oracle(ds, cfg.oracle_params(), cfg.oracle_objective(), check_loop=True)
        both = 0
        for tr in ds.trades:
            path = ds.path(tr)
            lvl = np.float32(tr.entry_price * (1 + 0.000001 / 100))
            if lvl == np.float32(tr.entry_price * (1 - 0.000001 / 100)) and path[0] == lvl:
                both += 1
        check(both >= 5, f"tiny exits: only {both} trades hit both levels at their first second")
        run_grid(evolve, root, cfg, orc, ds, "reference", stats)
        stats["configs"] += 1
        stats["points"] += orc.size


def check_ruin(evolve, root, data, tickers, stats, ds_cache):
    """compound with a trade of -100.5 %: every genome keeping it is ruined, value -100,
    ranked below every genome without ruin (README), ties by index."""
    params = [{"name": "vol", "role": "filter", "feature": "Entry Volatility Percent", "values": ["0", "0.05"]},
              {"name": "target", "role": "target", "values": ["0.2", "0.5"]},
              {"name": "stop", "role": "stop", "values": ["-0.5", "-0.3"]},
              {"name": "ratio", "role": "filter", "feature": "Entry Volatility Ratio", "direction": "max",
               "values": ["1", "1.3"]}]
    cfg = Config("ruin", data, tickers, params, {"name": "compound", "cost_pct": "0.01"})
    ds = oracle_for(cfg, ds_cache)
    orc = so.Oracle(ds, cfg.oracle_params(), cfg.oracle_objective())
    check(4 <= int(orc.R.sum()) < orc.size, f"ruin: {int(orc.R.sum())} ruined genomes of {orc.size}")
    run_grid(evolve, root, cfg, orc, ds, "tables", stats)
    stats["configs"] += 1
    stats["points"] += orc.size


def spec_1_5(a, root, stats, ds_cache):
    """SPEC sec. 1-5: the synthetic datasets, gen-data's sample and the real data."""
    # synthetic datasets
    d1 = os.path.join(root, "syn1")
    info1 = make_synthetic(d1, 11, 1)
    d2 = os.path.join(root, "syn2")
    info2 = make_synthetic(d2, 22, 2)
    ds1 = so.load_dataset(os.path.join(d1, "market"), os.path.join(d1, "all_trade_logs.csv"),
                          info1["tickers"])
    print(f"syn1: {len(ds1.trades)} trades kept, drops {ds1.drops}, {ds1.other_ticker} of other tickers",
          flush=True)
    check(all(v > 0 for v in ds1.drops.values()), f"syn1 exercises every drop reason: {ds1.drops}")
    hits = float32_only_hits(ds1)
    check(hits >= 10, f"syn1 has {hits} trades that only a float32 level hits")
    check_tiny_exits(a.evolve, root, d1, info1["tickers"], stats, ds_cache)
    check_ruin(a.evolve, root, d1, info1["tickers"], stats, ds_cache)
    run_dataset(a.evolve, root, "syn1", d1, info1["tickers"], 14, 1, stats, extra=("Entry Rsi",), ga=1,
                loop_check=2, ds_cache=ds_cache)
    run_dataset(a.evolve, root, "syn2", d2, info2["tickers"], 8, 2, stats, extra=("Entry Rsi",),
                loop_check=1, ds_cache=ds_cache)
    # gen-data's sample (SOXL, 2 days)
    d3 = os.path.join(root, "gen")
    r = cli.gen_data(a.evolve, d3, ["--days", "2", "--tickers", "SOXL", "--trades", "300", "--seed", "5"])
    if check(r.returncode == 0, f"gen-data: {r.stderr}"):
        run_dataset(a.evolve, root, "gen", d3, ["SOXL"], 6, 3, stats, max_points=4000, ds_cache=ds_cache)
    # the real data
    real = os.path.join(a.shared_data or "", "real-hf")
    if a.shared_data and os.path.isdir(os.path.join(real, "market")):
        run_dataset(a.evolve, root, "real", real, ["ETF", "AAA", "BBB", "XXX"], 12, 4, stats, ga=1,
                    ds_cache=ds_cache)
    else:
        print(f"real-hf: {real} is absent: its part is skipped", flush=True)


def spec_41(a, root, stats, ds_cache):
    """SPEC sec. 4.1: the hand-computed path, syn3 and gen-data's sample under exit lattices."""
    # SPEC sec. 4.1: a hand-computed path, then syn1's layout with planted trail and
    # breakeven levels, under random lattices with the new roles
    check_hand_cases(a.evolve, root, stats, ds_cache)
    d4 = os.path.join(root, "syn3")
    info4 = make_synthetic(d4, 33, 3)
    ds4 = oracle_for(Config("syn3", d4, info4["tickers"], [], {}), ds_cache)
    trail_hits, be_hits = exact_exit_hits(ds4)
    print(f"syn3: {len(ds4.trades)} trades kept; {trail_hits} trail hits exactly on the level, "
          f"{be_hits} breakeven exits exactly at float32(e)", flush=True)
    check(trail_hits >= 10 and be_hits >= 8, f"syn3: planted exits {trail_hits}, {be_hits}")
    run_dataset_exits(a.evolve, root, "syn3", d4, info4["tickers"], 12, 5, stats, extra=("Entry Rsi",), ga=2,
                      loop_check=3, ds_cache=ds_cache)
    # gen-data's sample (SOXL, 2 days)
    d3 = os.path.join(root, "gen")
    r = cli.gen_data(a.evolve, d3, ["--days", "2", "--tickers", "SOXL", "--trades", "300", "--seed", "5"])
    if check(r.returncode == 0, f"gen-data: {r.stderr}"):
        run_dataset_exits(a.evolve, root, "gen-exits", d3, ["SOXL"], 6, 6, stats, max_points=2000, ga=1,
                          loop_check=1, ds_cache=ds_cache)


def main():
    a = cli.parse_args(["--exits"])
    t0 = time.time()
    stats = {"configs": 0, "runs": 0, "genomes": 0, "points": 0}
    ds_cache = {}
    with cli.scratch_dir("evolve_oracle_") as root:
        if a.exits:  # SPEC sec. 4.1, apart so that the two halves run side by side
            spec_41(a, root, stats, ds_cache)
        else:
            spec_1_5(a, root, stats, ds_cache)
    print(f"{stats['configs']} configs, {stats['points']} lattice points, {stats['runs']} evolve runs, "
          f"{stats['genomes']} reported genomes checked against the oracle in {time.time() - t0:.1f} s", flush=True)
    if KINDS:
        print("mismatches by kind: " + "; ".join(f"{k}: {v}" for k, v in sorted(KINDS.items())), flush=True)
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
