"""An independent reference of strategy atc (Adaptive Trend Classification,
docs/signals-spec.md sec. 2; the choices docs/signals-spec.md leaves open as docs/signals.md
makes them), written from those documents, not from the engine.

Whole series at a time in numpy/pandas: each moving average over all bars,
window sums added oldest term first as vectors over the bars (docs/signals-spec.md
sec. 4.3: numpy's pairwise sum would change the last bits), the crossovers
with pandas' shift, the equity recurrences as one loop over the bars that
updates the 54 layer-1 curves (or the 6 layer-2 curves) together, the
growth factor from math.exp of each bar's index.

Needs numpy and pandas.
"""

import math

import numpy as np
import pandas as pd

FAMILIES = ("ema", "hull", "wma", "dema", "lsma", "kama")  # sec. 2.7's order
WEIGHTS = ("ema_w", "hma_w", "wma_w", "dema_w", "lsma_w", "kama_w")
OFFSETS = {"Narrow": (1, 2, 3, 4), "Medium": (1, 2, 4, 6), "Wide": (1, 3, 5, 7)}
DEFAULTS = dict(ema_len=28, hull_len=28, wma_len=28, dema_len=28, lsma_len=28, kama_len=28, ema_w=1.0, hma_w=1.0,
                wma_w=1.0, dema_w=1.0, lsma_w=1.0, kama_w=1.0, robustness="Medium", La=0.02, De=0.03, cutout=0,
                long_threshold=0.1, short_threshold=-0.1, cut_threshold=0.49, fee_bp=5.0, slippage_bp=5.0,
                hma_as_sma=False, pine_sticky_a=False, python_cut=False)


def member_lengths(L, robustness):
    """sec. 2.2: [L, L+a1..L+a4, L-a1..L-a4]."""
    a = OFFSETS[robustness]
    return [L] + [L + v for v in a] + [L - v for v in a]


# ---- moving averages (sec. 2.3), each over the whole close series ------------

def _oldest_first(terms, L, n):
    """sum over k = 0..L-1 of terms(k), where terms(k) is the vector of the
    k-th oldest window element's term for every full window (bars L-1..n-1),
    added in k order. Returns a full-length array, NaN before the first window."""
    out = np.full(n, np.nan)
    if L > n:
        return out
    acc = np.zeros(n - L + 1)
    for k in range(L):
        acc = acc + terms(k)
    out[L - 1:] = acc
    return out


def ma_sma(x, L):
    n = len(x)
    m = n - L + 1
    return _oldest_first(lambda k: x[k:k + m], L, n) / float(L)


def ma_wma(x, L):
    n = len(x)
    m = n - L + 1
    s = _oldest_first(lambda k: float(k + 1) * x[k:k + m], L, n)  # weight 1 on the oldest, L on the newest
    return s / (float(L) * (float(L) + 1.0) / 2.0)


def _ema_from(x, L, seed_at, seed):
    """y[seed_at] = seed, then y = a*x + (1-a)*y_prev; NaN before seed_at."""
    a = 2.0 / (L + 1.0)
    b = 1.0 - a
    y = np.full(len(x), np.nan)
    if seed_at >= len(x):
        return y
    prev = seed
    y[seed_at] = prev
    for i in range(seed_at + 1, len(x)):
        prev = a * x[i] + b * prev
        y[i] = prev
    return y


def ma_ema(x, L):
    """SMA-seeded: the first L closes' mean at L-1 (summed oldest first)."""
    if L > len(x):
        return np.full(len(x), np.nan)
    seed = 0.0
    for v in x[:L]:
        seed = seed + v
    return _ema_from(x, L, L - 1, seed / L)


def ma_dema(x, L):
    e1 = ma_ema(x, L)
    if L > len(x):
        return e1
    e2 = _ema_from(e1, L, L - 1, e1[L - 1])  # seeded with e1's first value, no second SMA
    return 2.0 * e1 - e2


def ma_hull(x, L):
    h = max(1, L // 2)
    s = max(1, math.isqrt(L))
    raw = 2.0 * ma_wma(x, h) - ma_wma(x, L)
    return ma_wma(raw, s)  # NaN until raw's window is full: from L+s-2


def ma_lsma(x, L):
    """The least-squares line over the last L bars (x = 0..L-1, oldest
    first), at the newest bar."""
    n = len(x)
    m = n - L + 1
    fl = float(L)
    sx = fl * (fl - 1.0) / 2.0
    sxx = fl * (fl - 1.0) * (2.0 * fl - 1.0) / 6.0
    den = fl * sxx - sx * sx
    sy = _oldest_first(lambda k: x[k:k + m], L, n)
    sxy = _oldest_first(lambda k: float(k) * x[k:k + m], L, n)
    slope = (fl * sxy - sx * sy) / den
    icpt = (sy - slope * sx) / fl
    return slope * (fl - 1.0) + icpt


def ma_kama(x, L):
    n = len(x)
    fast, slow = 0.666, 0.064
    diff = np.abs(np.diff(x))  # diff[j-1] = |x[j] - x[j-1]|
    noise = np.full(n, np.nan)
    if L < n:
        m = n - L  # bars L..n-1; bar i's window is diff[i-L .. i-1]
        acc = np.zeros(m)
        for k in range(L):
            acc = acc + diff[k:k + m]
        noise[L:] = acc
    y = np.empty(n)
    y[0] = x[0]
    for i in range(1, n):
        if i < L:
            y[i] = y[i - 1]
            continue
        sig = abs(x[i] - x[i - L])
        er = 0.0 if noise[i] == 0.0 else sig / noise[i]
        t = er * (fast - slow) + slow
        y[i] = y[i - 1] + (t * t) * (x[i] - y[i - 1])
    return y


MA = dict(ema=ma_ema, hull=ma_hull, wma=ma_wma, dema=ma_dema, lsma=ma_lsma, kama=ma_kama, sma=ma_sma)


# ---- layer-1 cross states (sec. 2.4) ---------------------------------------------

def cross_state(close, ma):
    """+1 after a cross up, -1 after a cross down, held; 0 before the first."""
    c = pd.Series(close)
    m = pd.Series(ma)
    up = (c > m) & (c.shift(1) <= m.shift(1))
    dn = (c < m) & (c.shift(1) >= m.shift(1))
    ev = pd.Series(np.where(up, 1.0, np.where(dn, -1.0, np.nan)))
    return ev.ffill().fillna(0.0).to_numpy()


class Store:
    """Each (MA, length)'s cross state once per bar set."""

    def __init__(self, bars):
        self.close = bars["close"].to_numpy(float)
        self.open = bars["open"].to_numpy(float)
        self.cache = {}

    def state(self, kind, L):
        key = (kind, L)
        if key not in self.cache:
            self.cache[key] = cross_state(self.close, MA[kind](self.close, L))
        return self.cache[key]


# ---- equity, layers, Average (sec. 2.5-2.7) ----------------------------------------

def equities(start, sig, r, d, cutout, sticky):
    """sig: (n, m) signals, r: (n,) scaled returns, start: (m,) -> (n, m)."""
    n, m = sig.shape
    e = np.full((n, m), np.nan)
    if cutout >= n:
        return e
    cur = np.maximum(np.asarray(start, float), 0.25)
    e[cutout] = cur
    a = np.zeros(m)
    for i in range(cutout + 1, n):
        p = sig[i - 1]
        if math.isnan(r[i]):
            a = np.zeros(m)
        else:
            keep = a if sticky else np.zeros(m)
            a = np.where(np.isnan(p), 0.0, np.where(p > 0, r[i], np.where(p < 0, -r[i], keep)))
        cur = np.maximum((cur * d) * (1.0 + a), 0.25)
        e[i] = cur
    return e


def average_signal(store, p):
    close = store.close
    n = len(close)
    cutout = int(p["cutout"])
    lam = p["La"] / 1000.0
    d = 1.0 - p["De"] / 100.0
    R = np.full(n, np.nan)
    R[1:] = (close[1:] - close[:-1]) / close[:-1]
    g = np.array([math.exp(lam * (i - cutout)) if i >= cutout else math.nan for i in range(n)])
    r = R * g
    states = []
    for fam in FAMILIES:
        kind = "sma" if fam == "hull" and p["hma_as_sma"] else fam
        for L in member_lengths(int(p[fam + "_len"]), p["robustness"]):
            states.append(store.state(kind, L))
    S = np.stack(states, axis=1)  # (n, 54)
    E = equities(np.ones(54), S, r, d, cutout, p["pine_sticky_a"])
    L1 = np.full((n, 6), np.nan)
    for f in range(6):
        num = np.zeros(n)
        den = np.zeros(n)
        for k in range(9):
            j = 9 * f + k
            num = num + S[:, j] * E[:, j]
            den = den + E[:, j]
        L1[:, f] = np.rint(num / den * 100.0) / 100.0  # NaN before cutout (E is)
    W = np.array([p[w] for w in WEIGHTS], float)
    S2 = equities(W, L1, r, d, cutout, p["pine_sticky_a"])
    if p["python_cut"]:
        tl, ts = p["long_threshold"], p["short_threshold"]
    else:
        tl, ts = p["cut_threshold"], -p["cut_threshold"]
    cut = np.where(L1 > tl, 1.0, np.where(L1 < ts, -1.0, 0.0))  # NaN compares false: 0
    num = np.zeros(n)
    den = np.zeros(n)
    for f in range(6):
        num = num + cut[:, f] * S2[:, f]
        den = den + S2[:, f]
    with np.errstate(invalid="ignore", divide="ignore"):
        avg = num / den
    avg[~np.isfinite(avg)] = 0.0
    avg[:cutout] = 0.0
    return avg


# ---- warm-up (sec. 2.9) and the trade rule (sec. 2.8) --------------------------------

def warmup_bar(p):
    first = []
    for fam in FAMILIES:
        m = int(p[fam + "_len"]) + OFFSETS[p["robustness"]][3]  # the slowest member
        if fam == "kama":
            first.append(0)
        elif fam == "hull" and not p["hma_as_sma"]:
            first.append(m + max(1, math.isqrt(m)) - 2)
        else:
            first.append(m - 1)
    return max(int(p["cutout"]), max(first)) + 1


def trades(store, p):
    avg = average_signal(store, p)
    n = len(avg)
    B = warmup_bar(p)
    tl, ts = p["long_threshold"], p["short_threshold"]
    cost = p["fee_bp"] + p["slippage_bp"]
    out = []
    direction = 0
    pos = None
    for i in range(max(B, 1), n):
        new = direction
        if avg[i - 1] <= tl < avg[i]:
            new = 1
        if avg[i - 1] >= ts > avg[i]:
            new = -1
        if new == direction or i + 1 >= n:
            continue
        px = float(store.open[i + 1])
        if pos is not None:
            fee = (pos["entry"] + px) * cost / 10000.0
            gain = px - pos["entry"] if pos["side"] == "long" else pos["entry"] - px
            pos.update(exit_bar=i + 1, exit=px, reason="signal", pnl=gain - fee)
            out.append(pos)
        pos = dict(signal_bar=i, entry_bar=i + 1, side="long" if new > 0 else "short", entry=px)
        direction = new
    return out


def run(store, params):
    p = dict(DEFAULTS)
    p.update(params)
    return trades(store, p)
