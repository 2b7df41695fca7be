"""An independent reading of docs/spec.md, sections 1-5 (4.1 included), in Python.

Written from the contract (docs/spec.md, docs/config.md, docs/dataset.md and the
README's "Semantics where the SPEC is silent"), not from the engine's code, so
that tests/test_spec_oracle.py can check evolve against it. Standard library
plus numpy.

    ds = load_dataset(market_dir, trades_csv, tickers, features=(...))
    params = [param(name, role=..., feature=..., direction=..., values=[...] | range=(a, b, c))]
        (roles: filter, target, stop, and sec. 4.1's trail, breakeven, max_hold)
    orc = Oracle(ds, params, Objective(name="sharpe", min_trades=3, fill="price", cost_pct="0.01"))
    orc.ranking()          # feasible linear indices, best first (SPEC sec. 5)
    orc.value(i), orc.n[i], orc.feasible[i]

Conventions (where the SPEC names a rule, the rule is quoted next to its code):
- prices are float32 of the CSV text parsed as a double; features, entry prices,
  percent changes and lattice values are doubles of their text;
- a range's values are exact decimals (Python's decimal), written out and read
  back as doubles;
- outcomes are quantised to micro-percent with C's llround (half away from zero,
  on the exact double), and every fitness sum is a Python integer (exact);
- objective values are computed from those exact sums; where the SPEC leaves the
  order of the double operations open (mean, sharpe, compound) the oracle
  computes the correctly rounded value of the exact quantity, and the test
  compares with a small relative tolerance (see test_spec_oracle.py).
"""

import csv
import datetime
import math
import os
import re
from decimal import ROUND_HALF_UP, Decimal, localcontext

import numpy as np

F32 = np.float32
EPOCH = datetime.date(1970, 1, 1)

STANDARD_FEATURES = ("Entry Volatility Percent", "Entry Volatility Ratio", "Entry Adx28", "Entry Adx14",
                     "Entry Adx7", "Worst Exit Percent", "Trade Best Exit Percent")
REQUIRED_TRADE_COLUMNS = ("Date", "Ticker", "Entry Price", "Entry Time", "Exit Time", "Trade Percent Change")
OBJECTIVES = ("total_return", "mean", "sharpe", "profit_factor", "compound", "calmar")
MARKET_NAME = re.compile(r"^Raw_Market_data_(\d\d)-(\d\d)-(\d\d\d\d)\.csv$")


class OracleError(Exception):
    """Input the SPEC / docs/dataset.md call an error (the engine must refuse it)."""


# ---------------------------------------------------------------- numbers

def llround(x):
    """C's llround on a double: round half away from zero, decided on the exact
    binary value of x (Decimal(float) is exact)."""
    if not math.isfinite(x):
        raise OracleError(f"llround of {x}")
    return int(Decimal(x).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def quantise(o):
    """SPEC sec. 5: q = llround(o * 1e6), the product computed in double."""
    return llround(o * 1e6)


def log_factor(q):
    """README: log factors are log1p(q / 1e8) of the quantised outcome q,
    quantised to 1e-12 (an integer number of 1e-12)."""
    return llround(math.log1p(q / 1e8) * 1e12)


def num(text):
    """strtod of a CSV field as a double; None when empty (a drop, not an error).
    NaN and inf texts come back as such (drops as well)."""
    t = text.strip()
    if t == "":
        return None
    try:
        return float(t)
    except ValueError:
        raise OracleError(f"not a number: {text!r}")


def f32(text):
    """SPEC sec. 2: (float)strtod(text)."""
    return F32(float(text))


# ---------------------------------------------------------------- dates and times

def parse_date(text):
    """MM/DD/YYYY, MM-DD-YYYY or YYYY-MM-DD, one-digit month/day allowed."""
    t = text.strip()
    m = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", t)
    if m:
        y, mo, d = int(m[1]), int(m[2]), int(m[3])
    else:
        m = re.fullmatch(r"(\d{1,2})[/-](\d{1,2})[/-](\d{4})", t)
        if not m:
            raise OracleError(f"malformed date {text!r}")
        mo, d, y = int(m[1]), int(m[2]), int(m[3])
    return datetime.date(y, mo, d)


def parse_hms(text):
    m = re.fullmatch(r"(\d{1,2}):(\d\d):(\d\d)", text.strip())
    if not m:
        raise OracleError(f"malformed time {text!r}")
    h, mi, s = int(m[1]), int(m[2]), int(m[3])
    if h > 23 or mi > 59 or s > 59:
        raise OracleError(f"malformed time {text!r}")
    return h * 3600 + mi * 60 + s


def day_ts(date):
    return (date - EPOCH).days * 86400


def parse_trade_time(text, date):
    """HH:MM:SS on `date`, or a full date and time (space or T) carrying its own date."""
    t = text.strip()
    parts = re.split(r"[ T]", t, maxsplit=1) if (" " in t or "T" in t) else [t]
    if len(parts) == 2:
        return day_ts(parse_date(parts[0])) + parse_hms(parts[1])
    return day_ts(date) + parse_hms(t)


# ---------------------------------------------------------------- dataset (SPEC sec. 1-2)

class Trade:
    __slots__ = ("ticker", "ticker_id", "row", "trade_id", "entry_ts", "exit_ts", "entry_price", "pct_change",
                 "features", "start", "end")


class Dataset:
    """tickers; price[k] (float32) and ts[k] (int64) per ticker id; trades in
    dataset order (ticker id, entry time, log order); drops per reason."""

    def __init__(self):
        self.tickers = []
        self.price = []
        self.ts = []
        self.trades = []
        self.drops = {"no_market_day": 0, "empty_path": 0, "non_finite": 0}
        self.other_ticker = 0
        self.market_days = set()
        self.kept_features = []

    def path(self, tr):
        return self.price[tr.ticker_id][tr.start:tr.end]


def _header(row):
    return {name.strip(): i for i, name in enumerate(row)}


def load_market(market_dir, tickers):
    """Per ticker: float32 prices and int64 timestamps sorted by time (stable),
    a duplicate second keeping the later row of the file; the set of days."""
    files = []
    for name in os.listdir(market_dir):
        p = os.path.join(market_dir, name)
        if not name.endswith(".csv") or not os.path.isfile(p):
            continue
        m = MARKET_NAME.match(name)
        if not m:
            raise OracleError(f"market file not named Raw_Market_data_MM-DD-YYYY.csv: {name}")
        files.append((datetime.date(int(m[3]), int(m[1]), int(m[2])), p))
    files.sort()
    ids = {t: i for i, t in enumerate(tickers)}
    rows = [[] for _ in tickers]  # (ts, price) in file order, files in date order
    for date, p in files:
        base = day_ts(date)
        with open(p, newline="") as f:
            rd = csv.reader(f)
            col = _header(next(rd))
            for need in ("Ticker", "Price", "Time"):
                if need not in col:
                    raise OracleError(f"{p}: no column {need}")
            ct, cp, cm = col["Ticker"], col["Price"], col["Time"]
            per_file = [[] for _ in tickers]
            for r in rd:
                if not r:
                    continue
                k = ids.get(r[ct])
                if k is None:
                    continue
                price = float(r[cp])
                if not (math.isfinite(price) and price > 0):
                    raise OracleError(f"{p}: price {r[cp]!r}")
                per_file[k].append((base + parse_hms(r[cm]), F32(price)))
            for k, lst in enumerate(per_file):
                # stable sort by time; then the later row of a second wins
                lst.sort(key=lambda e: e[0])
                dedup = []
                for e in lst:
                    if dedup and dedup[-1][0] == e[0]:
                        dedup[-1] = e
                    else:
                        dedup.append(e)
                rows[k].extend(dedup)
    price, ts = [], []
    for k, lst in enumerate(rows):
        if not lst:
            raise OracleError(f"ticker {tickers[k]} has no market row")
        ts.append(np.array([e[0] for e in lst], dtype=np.int64))
        price.append(np.array([e[1] for e in lst], dtype=np.float32))
        assert np.all(np.diff(ts[-1]) > 0)
    return price, ts, {d for d, _ in files}


def load_dataset(market_dir, trades_csv, tickers, features=()):
    """SPEC sec. 1-2 and docs/dataset.md. `features`: the config's extra
    features plus every filter's feature (both are kept features)."""
    ds = Dataset()
    ds.tickers = list(tickers)
    ids = {t: i for i, t in enumerate(tickers)}
    with open(trades_csv, newline="") as f:
        rd = csv.reader(f)
        col = _header(next(rd))
        for need in REQUIRED_TRADE_COLUMNS:
            if need not in col:
                raise OracleError(f"trade log: no column {need}")
        kept = [c for c in STANDARD_FEATURES if c in col]
        for c in features:
            if c not in col:
                raise OracleError(f"trade log: no feature column {c}")
            if c not in kept:
                kept.append(c)
        ds.kept_features = kept
        raw = list(rd)
    ds.price, ds.ts, ds.market_days = load_market(market_dir, tickers)
    trades = []
    for row_no, r in enumerate(raw, start=1):
        if not r:
            continue
        k = ids.get(r[col["Ticker"]])
        if k is None:
            ds.other_ticker += 1
            continue
        date = parse_date(r[col["Date"]])
        tr = Trade()
        tr.ticker, tr.ticker_id, tr.row = r[col["Ticker"]], k, row_no
        tr.trade_id = int(r[col["Trade Id"]]) if "Trade Id" in col else row_no
        tr.entry_ts = parse_trade_time(r[col["Entry Time"]], date)
        tr.exit_ts = parse_trade_time(r[col["Exit Time"]], date)
        if tr.exit_ts < tr.entry_ts:
            raise OracleError(f"trade row {row_no}: exit before entry")
        tr.entry_price = num(r[col["Entry Price"]])
        tr.pct_change = num(r[col["Trade Percent Change"]])
        tr.features = {c: num(r[col[c]]) for c in kept}
        if tr.entry_price is not None and math.isfinite(tr.entry_price) and tr.entry_price <= 0:
            raise OracleError(f"trade row {row_no}: entry price <= 0")
        # drops, in docs/dataset.md's order: non_finite, no_market_day, empty_path
        vals = [tr.entry_price, tr.pct_change] + list(tr.features.values())
        if any(v is None or not math.isfinite(v) for v in vals):
            ds.drops["non_finite"] += 1
            continue
        entry_day = EPOCH + datetime.timedelta(days=tr.entry_ts // 86400)
        if entry_day not in ds.market_days:
            ds.drops["no_market_day"] += 1
            continue
        t = ds.ts[k]
        # SPEC sec. 2: start = first index with ts >= entry; end = one past the last with ts <= exit
        tr.start = int(np.searchsorted(t, tr.entry_ts, side="left"))
        tr.end = int(np.searchsorted(t, tr.exit_ts, side="right"))
        if tr.end <= tr.start:
            ds.drops["empty_path"] += 1
            continue
        trades.append(tr)
    # dataset order: ticker id, entry time, log order (sorted() is stable)
    ds.trades = sorted(trades, key=lambda tr: (tr.ticker_id, tr.entry_ts))
    return ds


# ---------------------------------------------------------------- lattice (SPEC sec. 3)

class Param:
    def __init__(self, name, role, feature, direction, texts):
        self.name, self.role, self.feature, self.direction = name, role, feature, direction
        self.texts = texts                       # the values as decimal text
        # strtod of that text; "off" (SPEC sec. 4.1, trail/breakeven/max_hold) as +inf, the loosest
        self.values = [math.inf if t == "off" else float(t) for t in texts]

    def __len__(self):
        return len(self.values)


def range_texts(start, stop, step):
    """The i-th value is the decimal start + i*step, written out (minimal text);
    stop included; stop - start must be a whole number of steps."""
    with localcontext() as ctx:
        ctx.prec = 60
        a, b, s = Decimal(start), Decimal(stop), Decimal(step)
        k = (b - a) / s
        if s <= 0 or b < a or k != k.to_integral_value():
            raise OracleError(f"bad range {start}..{stop} step {step}")
        out = []
        for i in range(int(k) + 1):
            v = (a + i * s).normalize()
            txt = format(v, "f")
            out.append("0" if txt in ("-0", "0") else txt)
        return out


def param(name, role="filter", feature=None, direction="min", values=None, range=None):  # noqa: A002
    texts = list(values) if values is not None else range_texts(*range)
    p = Param(name, role, feature, direction, texts)
    if any(b <= a for a, b in zip(p.values, p.values[1:])):
        raise OracleError(f"{name}: values not strictly increasing")
    return p


def linear_index(genes, dims):
    """SPEC sec. 3: row-major, the first parameter most significant."""
    idx = 0
    for g, n in zip(genes, dims):
        idx = idx * n + g
    return idx


def genes_of(index, dims):
    out = []
    for n in reversed(dims):
        out.append(index % n)
        index //= n
    return out[::-1]


# ---------------------------------------------------------------- the simulator (SPEC sec. 4)

class Objective:
    def __init__(self, name="total_return", min_trades=0, max_drawdown_pct=None, fill="level", cost_pct="0"):
        assert name in OBJECTIVES and fill in ("level", "price")
        self.name, self.min_trades, self.fill = name, int(min_trades), fill
        self.max_drawdown_pct = None if max_drawdown_pct is None else float(max_drawdown_pct)
        self.cost = float(cost_pct)


def simulate_loop(path, e, t, s, pct_change, fill, cost):
    """The SPEC sec. 4 loop, literally (t or s None: that parameter is absent)."""
    tl = F32(e * (1 + t / 100)) if t is not None else None
    sl = F32(e * (1 + s / 100)) if s is not None else None
    o = pct_change
    for p in path:
        if tl is not None and p >= tl:
            o = t if fill == "level" else (float(p) / e - 1) * 100
            break
        if sl is not None and p <= sl:
            o = s if fill == "level" else (float(p) / e - 1) * 100
            break
    return o - cost


def first_hits(path, e, targets, stops):
    """Per target value, the first index with price >= its float32 level, and per
    stop value the first with price <= its level (len(path) when never): the
    first-hit table, from the running max / min of the path."""
    n = len(path)
    hi = np.maximum.accumulate(path)
    lo = np.minimum.accumulate(path)
    tl = np.array([F32(e * (1 + t / 100)) for t in targets], dtype=np.float32)
    sl = np.array([F32(e * (1 + s / 100)) for s in stops], dtype=np.float32)
    ht = np.searchsorted(hi, tl, side="left") if n else np.zeros(len(targets), int)
    hs = np.searchsorted(-lo, -sl, side="left") if n else np.zeros(len(stops), int)
    return ht, hs


# ---------------------------------------------------------------- more exits (SPEC sec. 4.1)

# The exit roles, in the SPEC's order within one second: "within one second the
# order is target, stop, breakeven, trail, time stop (the target-first rule of
# sec. 4 extended)". The outcome tables are indexed by one value per role in
# this order (a role the lattice lacks has one "absent" value, None).
EXIT_ROLES = ("target", "stop", "breakeven", "trail", "max_hold")
NEVER = None  # no first second


def max_hold_second(ts, entry_ts, h):
    """SPEC sec. 4.1: "Let k be the last path second whose timestamp is <= entry
    time + h (the path's first second if none is that early)." ts: the path's
    timestamps. A literal scan."""
    k = 0
    for i, t in enumerate(ts):
        if int(t) <= entry_ts + h:
            k = i
    return k


def simulate_race(path, ts, e, entry_ts, exits, pct_change, fill, cost):
    """SPEC sec. 4 with sec. 4.1, literally: second by second, each event checked
    in the SPEC's order (target, stop, breakeven, trail, time stop); the first
    that happens exits. exits: {role: value or None}. The outcome after cost."""
    return race_exit(path, ts, e, entry_ts, exits, pct_change, fill)[2] - cost


def race_exit(path, ts, e, entry_ts, exits, pct_change, fill):
    """simulate_race's walk: (reason, path index, outcome before cost), reason one
    of the trades CSV's exit reasons (target, stop, breakeven, trail, time; logged
    with index None when no event happens). A role at off (+inf) is absent
    (SPEC sec. 4.1: "its event never happens")."""
    exits = {r: (None if v is not None and math.isinf(v) else v) for r, v in exits.items()}
    t, s = exits.get("target"), exits.get("stop")
    y, x, h = exits.get("breakeven"), exits.get("trail"), exits.get("max_hold")
    n = len(path)
    tl = F32(e * (1 + t / 100)) if t is not None else None    # (float)(e * (1 + t/100))
    sl = F32(e * (1 + s / 100)) if s is not None else None    # (float)(e * (1 + s/100))
    # breakeven: "once price[j] >= (float)(e * (1 + y/100)) at some second j, the stop
    # moves to the entry: from second j+1 on, a price <= (float)e exits"
    bl = F32(e * (1 + y / 100)) if y is not None else None
    be_stop = F32(e)
    armed = False
    # max_hold: "If k comes before the path's last second, the trade exits at second k
    # at its price ... Otherwise it changes nothing."
    k = max_hold_second(ts, entry_ts, h) if h is not None else None
    if k is not None and not k < n - 1:
        k = None
    m = e  # trail: m_i = max(e, price[start..i]), in double
    at_price = lambda p: (float(p) / e - 1) * 100  # noqa: E731  fill: price, (price[i] / e - 1) * 100
    for i, p in enumerate(path):
        m = max(m, float(p))
        if tl is not None and p >= tl:                  # target, filled at the target
            return "target", i, (t if fill == "level" else at_price(p))
        if sl is not None and p <= sl:                  # stop, filled at the stop
            return "stop", i, (s if fill == "level" else at_price(p))
        if armed and p <= be_stop:                      # breakeven: "Filled at the entry: outcome 0"
            return "breakeven", i, (0.0 if fill == "level" else at_price(p))
        if x is not None:
            lvl = F32(m * (1 - x / 100))                # trail_level_i = (float)(m_i * (1 - x/100))
            if p <= lvl:                                # "hit at the first i where price[i] <= trail_level_i"
                # "Filled at trail_level_i: outcome (trail_level_i / e - 1) * 100 in double"
                return "trail", i, ((float(lvl) / e - 1) * 100 if fill == "level" else at_price(p))
        if k is not None and i == k:                    # time stop: "outcome (price[k] / e - 1) * 100"
            return "time", i, at_price(p)
        if bl is not None and p >= bl:                  # armed from the next second on
            armed = True
    return "logged", None, pct_change                   # "If no event happens ... the logged Trade Percent Change"


def first_seconds(path, ts, e, entry_ts, values):
    """SPEC sec. 4.1: "Each event has, per trade and per value of its parameter, a
    first second (or none)". values: {role: list of values} (roles present only).
    Returns {role: int array of first seconds, len(path) for none}, computed with
    numpy (running maxima and minima, searchsorted), independently of the loop."""
    n = len(path)
    p64 = path.astype(np.float64)
    out = {}
    hi = np.maximum.accumulate(path) if n else path
    lo = np.minimum.accumulate(path) if n else path
    if "target" in values:
        tl = np.array([F32(e * (1 + t / 100)) for t in values["target"]], dtype=np.float32)
        out["target"] = np.searchsorted(hi, tl, side="left")     # first price >= level
    if "stop" in values:
        sl = np.array([F32(e * (1 + s / 100)) for s in values["stop"]], dtype=np.float32)
        out["stop"] = np.searchsorted(-lo, -sl, side="left")     # first price <= level
    if "breakeven" in values:
        # activation j: the first price >= (float)(e * (1 + y/100)); the exit: the first
        # i > j with price <= (float)e
        bl = np.array([F32(e * (1 + y / 100)) for y in values["breakeven"]], dtype=np.float32)
        j = np.searchsorted(hi, bl, side="left")
        below = np.nonzero(path <= F32(e))[0]
        if len(below):
            pos = np.searchsorted(below, j, side="right")        # first index of `below` > j
            out["breakeven"] = np.where((j < n) & (pos < len(below)), below[np.minimum(pos, len(below) - 1)], n)
        else:
            out["breakeven"] = np.full(len(bl), n)
    if "trail" in values:
        m = np.maximum(e, np.maximum.accumulate(p64)) if n else p64  # m_i in double
        xs = np.array(values["trail"], dtype=np.float64)[:, None]
        lvl = (m[None, :] * (1 - xs / 100)).astype(np.float32)        # rounded once to float32
        hit = path[None, :] <= lvl
        out["trail"] = np.where(hit.any(axis=1), hit.argmax(axis=1), n)
        out["trail_level"] = lvl
    if "max_hold" in values:
        hs = np.array([int(h) for h in values["max_hold"]], dtype=np.int64)
        k = np.searchsorted(ts, entry_ts + hs, side="right") - 1   # last ts <= entry + h
        k = np.maximum(k, 0)                                        # the first second if none
        out["max_hold"] = np.where(k < n - 1, k, n)
    return out


# ---------------------------------------------------------------- fitness (SPEC sec. 5)

class Oracle:
    """Every lattice point of `params` on `ds`: kept-trade count n, feasibility,
    the ranking key, and the exact sums the objective is computed from."""

    CHUNK = 2048

    def __init__(self, ds, params, objective, check_loop=False):
        """check_loop: True compares every table entry with the literal loop
        (simulate_race); an integer k > 1 compares one entry in k (a sample)."""
        self.ds, self.params, self.obj = ds, params, objective
        self.dims = [len(p) for p in params]
        self.size = int(np.prod(self.dims, dtype=object))
        roles = [p.role for p in params]
        for r in EXIT_ROLES:
            # SPEC sec. 4.1: "at most one parameter of each role per lattice"
            assert roles.count(r) <= 1, f"two {r} parameters"
        assert all(r in EXIT_ROLES or r == "filter" for r in roles), roles
        # self.ei[role]: the parameter index of each exit role (None: absent)
        self.ei = {r: (roles.index(r) if r in roles else None) for r in EXIT_ROLES}
        self.ti, self.si = self.ei["target"], self.ei["stop"]
        self.fi = [i for i, r in enumerate(roles) if r == "filter"]
        trades = ds.trades
        nt = len(trades)
        # per exit role its values, [None] when the lattice lacks it
        evals = [params[self.ei[r]].values if self.ei[r] is not None else [None] for r in EXIT_ROLES]
        shape = tuple(len(v) for v in evals)
        present = {r: params[self.ei[r]].values for r in EXIT_ROLES if self.ei[r] is not None}
        # off (+inf): the event never happens; first_seconds sees a finite stand-in, overridden below
        off = {r: np.isinf(np.array(v, dtype=np.float64)) for r, v in present.items()}
        finite = {r: [x if not math.isinf(x) else next((y for y in v if not math.isinf(y)), 1.0) for x in v]
                  for r, v in present.items()}
        # outcome tables over every combination of the exit values:
        # q[target, stop, breakeven, trail, max_hold, trade] (micro-percent)
        self.o = np.zeros(shape + (nt,))
        self.q = np.zeros(shape + (nt,), dtype=np.int64)
        stride = 1 if check_loop is True else int(check_loop or 0)
        level = objective.fill == "level"
        for j, tr in enumerate(trades):
            path = ds.path(tr)
            ts = ds.ts[tr.ticker_id][tr.start:tr.end]
            e = tr.entry_price
            n = len(path)
            fs = first_seconds(path, ts, e, tr.entry_ts, finite)
            at_price = (path.astype(np.float64) / e - 1) * 100   # fill: price, per second
            # per role: first second (n: none) and outcome, per value, as 5 broadcastable axes
            secs, outs = [], []
            for a, r in enumerate(EXIT_ROLES):
                ax = [1] * 5
                ax[a] = shape[a]
                if r not in present:
                    secs.append(np.full(ax, n))
                    outs.append(np.zeros(ax))
                    continue
                sec = np.where(off[r], n, np.asarray(fs[r], dtype=np.int64))
                where = np.minimum(sec, n - 1)
                if r == "max_hold" or not level:
                    o = at_price[where]
                elif r == "trail":
                    o = (fs["trail_level"][np.arange(len(sec)), where].astype(np.float64) / e - 1) * 100
                elif r == "breakeven":
                    o = np.zeros(len(sec))
                else:  # target, stop: filled at the level, the outcome is the value itself
                    o = np.array(present[r], dtype=np.float64)
                secs.append(sec.reshape(ax))
                outs.append(o.reshape(ax))
            # the earliest event; within one second the role order of EXIT_ROLES
            key = np.full(shape, 5 * n + 5, dtype=np.int64)
            for a in range(5):
                key = np.minimum(key, np.where(secs[a] < n, secs[a] * 5 + a, 5 * n + 5))
            role = key % 5
            o = np.full(shape, tr.pct_change, dtype=np.float64)
            for a in range(5):
                o = np.where((key < 5 * n) & (role == a), np.broadcast_to(outs[a], shape), o)
            o = o - objective.cost
            if stride:
                for c, combo in enumerate(np.ndindex(*shape)):
                    if (c + j) % stride:
                        continue
                    ex = {r: evals[a][combo[a]] for a, r in enumerate(EXIT_ROLES)}
                    lo = simulate_race(path, ts, e, tr.entry_ts, ex, tr.pct_change, objective.fill, objective.cost)
                    assert lo == o[combo], (j, ex, lo, o[combo])
                if set(present) <= {"target", "stop"} and j % stride == 0:
                    # sec. 4.1: "A lattice without these roles gives exactly the outcomes of sec. 4"
                    for combo in np.ndindex(*shape):
                        lo = simulate_loop(path, e, evals[0][combo[0]], evals[1][combo[1]], tr.pct_change,
                                           objective.fill, objective.cost)
                        assert lo == o[combo], (j, combo, lo, o[combo])
            self.o[..., j] = o
            self.q[..., j] = np.array([quantise(v) for v in o.ravel().tolist()], dtype=np.int64).reshape(shape)
        if objective.name == "compound":
            self.ruin = self.q <= -10 ** 8
            # one log factor per distinct outcome value (0 where ruined: never summed)
            uq, inv = np.unique(self.q, return_inverse=True)
            lfu = np.array([log_factor(int(v)) if v > -10 ** 8 else 0 for v in uq.tolist()], dtype=np.int64)
            self.lf = lfu[inv.reshape(-1)].reshape(self.q.shape)
        # filter pass tables: passes[f][value index, trade]
        self.passes = []
        for i in self.fi:
            p = params[i]
            feat = np.array([tr.features[p.feature] for tr in trades], dtype=np.float64)
            vals = np.array(p.values, dtype=np.float64)[:, None]
            self.passes.append(feat[None, :] >= vals if p.direction == "min" else feat[None, :] <= vals)
        # the equity curve's order: entry time across tickers, ties in dataset order
        self.curve = np.array(sorted(range(nt), key=lambda j: (trades[j].entry_ts, j)), dtype=np.int64)
        self._evaluate()

    # ---- per-point sums
    def kept(self, idx):
        """Kept-trade mask (points x trades) and the index into the outcome
        tables' exit axes per point (a tuple of 5 arrays, EXIT_ROLES' order)."""
        idx = np.asarray(idx, dtype=np.int64)
        genes = np.unravel_index(idx, self.dims)
        mask = np.ones((len(idx), len(self.ds.trades)), dtype=bool)
        for f, i in enumerate(self.fi):
            mask &= self.passes[f][genes[i]]
        ex = tuple(genes[self.ei[r]] if self.ei[r] is not None else np.zeros(len(idx), np.int64)
                   for r in EXIT_ROLES)
        return mask, ex

    def kept_mask(self, idx):
        """Kept-trade mask (points x trades) and (target, stop) index per point
        (the sec. 4 view; kept() gives every exit role's)."""
        mask, ex = self.kept(idx)
        return mask, ex[0], ex[1]

    def _evaluate(self):
        size = self.size
        self.n = np.zeros(size, np.int64)
        self.S = np.zeros(size, np.int64)
        self.P = np.zeros(size, np.int64)
        self.N = np.zeros(size, np.int64)
        self.DD = np.zeros(size, np.int64)
        self.Q = [0] * size if self.obj.name == "sharpe" else None
        self.L = np.zeros(size, np.int64)
        self.R = np.zeros(size, bool)
        qmax = int(np.abs(self.q).max()) if self.q.size else 0
        big = qmax * qmax * max(1, len(self.ds.trades)) >= 2 ** 62
        for lo in range(0, size, self.CHUNK):
            idx = np.arange(lo, min(size, lo + self.CHUNK), dtype=np.int64)
            mask, ex = self.kept(idx)
            qm = np.where(mask, self.q[ex], 0)
            sl = slice(lo, lo + len(idx))
            self.n[sl] = mask.sum(axis=1)
            self.S[sl] = qm.sum(axis=1)
            self.P[sl] = np.where(qm > 0, qm, 0).sum(axis=1)
            self.N[sl] = np.where(qm < 0, qm, 0).sum(axis=1)
            cum = np.cumsum(qm[:, self.curve], axis=1)
            peak = np.maximum(np.maximum.accumulate(cum, axis=1), 0)  # the curve starts at 0
            dd = (peak - cum).max(axis=1) if cum.shape[1] else np.zeros(len(idx), np.int64)
            self.DD[sl] = dd
            if self.Q is not None:
                if big:
                    sq = [sum(int(v) * int(v) for v in row) for row in qm]
                else:
                    sq = (qm * qm).sum(axis=1).tolist()
                self.Q[lo:lo + len(idx)] = [int(v) for v in sq]
            if self.obj.name == "compound":
                self.R[sl] = (mask & self.ruin[ex]).any(axis=1)
                self.L[sl] = np.where(mask, self.lf[ex], 0).sum(axis=1)
        self._feasible()
        self._keys()

    def _feasible(self):
        o = self.obj
        ok = self.n >= o.min_trades
        if o.name in ("mean", "profit_factor", "calmar"):
            ok &= self.n >= 1
        if o.name == "sharpe":
            ok &= self.n >= 2
            # SPEC sec. 5: zero variance (every kept outcome equal) is infeasible
            ok &= np.array([self.n[i] < 2 or self._spread(i) != 0 for i in range(self.size)], dtype=bool)
        if o.max_drawdown_pct is not None:
            # README: a drawdown equal to max_drawdown_pct is allowed, above it infeasible.
            # The drawdown is DD micro-percent, DD / 1e6 percent: compared as the double
            # nearest that decimal, as the threshold is the double nearest its text.
            ok &= (self.DD / 1e6) <= o.max_drawdown_pct
        self.feasible = ok

    def _keys(self):
        """key: the ranking value (higher is better), exact where the SPEC makes
        it exact; sig: the exact sums the objective is a function of (equal sig:
        an exact tie on every backend)."""
        name = self.obj.name
        S, n = self.S, self.n
        with np.errstate(divide="ignore", invalid="ignore"):
            if name == "total_return":
                self.key = S / 1e6
            elif name == "mean":
                self.key = S / (n * 1e6)
            elif name == "sharpe":
                self.key = np.array([self._sharpe(i) if n[i] >= 2 else -np.inf for i in range(self.size)])
            elif name == "profit_factor":
                self.key = np.where(self.N == 0, np.inf, self.P / -self.N.astype(np.float64))
            elif name == "compound":
                # ranked by the exact sum of quantised log factors; ruin below everything
                self.key = np.where(self.R, -np.inf, self.L.astype(np.float64))
            elif name == "calmar":
                self.key = np.where(self.DD == 0, np.inf, S / self.DD.astype(np.float64))
        self.key = np.where(self.feasible, self.key, np.nan)

    def sig(self, i):
        name = self.obj.name
        if name == "total_return":
            return (int(self.S[i]),)
        if name == "mean":
            return (int(self.S[i]), int(self.n[i]))
        if name == "sharpe":
            return (int(self.S[i]), int(self.n[i]), self.Q[i])
        if name == "profit_factor":  # +inf ties only within the same total return and trades
            return (int(self.P[i]), int(self.N[i])) + ((int(self.n[i]),) if self.N[i] == 0 else ())
        if name == "compound":
            return (bool(self.R[i]), int(self.L[i]) if not self.R[i] else 0)
        return (int(self.S[i]), int(self.DD[i])) + ((int(self.n[i]),) if self.DD[i] == 0 else ())

    def inf_tie(self, i):
        """SPEC sec. 5: profit_factor and calmar at +inf rank among themselves by
        total return, then by more trades (then by the lower index)."""
        return (int(self.S[i]), int(self.n[i]))

    def _spread(self, i):
        """n * sum q^2 - (sum q)^2: n^2 times the population variance, exact."""
        return int(self.n[i]) * self.Q[i] - int(self.S[i]) ** 2

    def _sharpe(self, i):
        n, S = int(self.n[i]), int(self.S[i])
        num = self._spread(i)  # n^2 * the population variance, exact (>= 0)
        if num == 0:
            return math.nan  # no value: infeasible (SPEC sec. 5)
        # mean / sample sd = (S/n) / sqrt(num / (n (n-1))), in micro-percent units (they cancel)
        return (S / n) / math.sqrt(num / (n * (n - 1)))

    # ---- what a genome reports
    def value(self, i):
        """The objective value of point i (None when infeasible)."""
        if not self.feasible[i]:
            return None
        name = self.obj.name
        S, n = int(self.S[i]), int(self.n[i])
        if name == "total_return":
            return S / 10 ** 6
        if name == "mean":
            return S / (n * 10 ** 6)
        if name == "sharpe":
            return self._sharpe(i)
        if name == "profit_factor":
            N, P = int(self.N[i]), int(self.P[i])
            return math.inf if N == 0 else P / -N
        if name == "calmar":
            DD = int(self.DD[i])
            return math.inf if DD == 0 else S / DD
        # compound: (prod (1 + o_j/100) - 1) * 100 of the quantised outcomes, exactly, then rounded
        if self.R[i]:
            return -100.0
        mask, ex = self.kept([i])
        qs = self.q[tuple(a[0] for a in ex)][mask[0]]
        prod, den = 1, 1
        for qv in qs.tolist():
            prod *= 10 ** 8 + qv
            den *= 10 ** 8
        return (prod - den) * 100 / den

    def trade_outcomes(self, i):
        """(trade, outcome percent, q) of the trades point i keeps, dataset order."""
        mask, ex = self.kept([i])
        c = tuple(a[0] for a in ex)
        return [(tr, float(self.o[c][j]), int(self.q[c][j]))
                for j, tr in enumerate(self.ds.trades) if mask[0, j]]

    def ranking(self):
        """Feasible linear indices, higher key first, +inf by total return then
        trades, ties by lower index."""
        idx = np.nonzero(self.feasible)[0]
        inf = self.key[idx] == np.inf
        order = np.lexsort((idx, -np.where(inf, self.n[idx], 0), -np.where(inf, self.S[idx], 0), -self.key[idx]))
        return idx[order].tolist()

    def genome_text(self, i):
        g = genes_of(i, self.dims)
        return ", ".join(f"{p.name}={p.texts[k]}" for p, k in zip(self.params, g))
