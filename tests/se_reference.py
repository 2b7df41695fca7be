"""An independent reference of strategy seller_exhaustion (docs/signals-spec.md sec. 1)
and of evolve's bar rules (docs/signals.md), written from those documents, not
from the engine. Indicators in pandas, as the original (indicators/local.py,
strategy/seller_exhaustion.py@592842f); the backtest loop in plain Python over
the rows left after dropna(subset=["atr"]), as backtest/engine.py does.

Needs numpy and pandas.
"""

import glob
import os
import re

import numpy as np
import pandas as pd

PARAMS_INT = ("ema_fast", "ema_slow", "z_window", "atr_window", "max_hold")
PARAMS_DEC = ("vol_z", "tr_z", "cloc_min", "atr_stop_mult", "reward_r", "fee_bp", "slippage_bp")
DEFAULTS = dict(ema_fast=96, ema_slow=672, z_window=672, atr_window=96, vol_z=2.0, tr_z=1.2, cloc_min=0.6,
                atr_stop_mult=0.7, reward_r=2.0, max_hold=96, fee_bp=5.0, slippage_bp=5.0)


# ---- bars ------------------------------------------------------------------

def read_bars_csv(path, symbol=None):
    """A bars CSV -> DataFrame with ts (int64 seconds) and o/h/l/c/v columns."""
    df = pd.read_csv(path, dtype={"timestamp": str, "symbol": str}, float_precision="round_trip")
    if symbol is not None:
        df = df[df["symbol"].astype(str) == symbol]
    ts = df["timestamp"].str.strip()
    if ts.str.fullmatch(r"-?\d+").all():
        secs = ts.astype(np.int64)
    else:
        # to seconds through numpy's unit conversion: pandas 2+ may keep parsed times in s or us, not ns
        secs = pd.Series(pd.to_datetime(ts.str.rstrip("Z")).to_numpy().astype("datetime64[s]").astype(np.int64))
    out = pd.DataFrame({"ts": secs.to_numpy(np.int64),
                        "open": df["open"].astype(float).to_numpy(), "high": df["high"].astype(float).to_numpy(),
                        "low": df["low"].astype(float).to_numpy(), "close": df["close"].astype(float).to_numpy(),
                        "volume": df["volume"].astype(float).to_numpy()})
    return out.reset_index(drop=True)


def bars_from_market(market_dir, ticker, tf_seconds):
    """docs/signals.md "Bars from the market files": per day file, the ticker's
    rows in time order (a second given twice keeps its last row); bar = the
    seconds [start, start + tf) with start a multiple of tf since midnight;
    open/close = the first/last row's Price, high/low = max/min, volume = the
    sum of Volume; timestamp = start; intervals without rows give no bar."""
    frames = []
    for path in glob.glob(os.path.join(market_dir, "Raw_Market_data_*.csv")):
        m = re.fullmatch(r"Raw_Market_data_(\d\d)-(\d\d)-(\d{4})\.csv", os.path.basename(path))
        day = pd.Timestamp(int(m.group(3)), int(m.group(1)), int(m.group(2)))
        day_secs = int(day.value // 10**9)
        df = pd.read_csv(path, dtype={"Ticker": str, "Time": str}, float_precision="round_trip")
        df.columns = [c.strip() for c in df.columns]
        df = df[df["Ticker"].str.strip() == ticker]
        if df.empty:
            continue
        hms = df["Time"].str.strip().str.split(":", expand=True).astype(int)
        secs = day_secs + hms[0] * 3600 + hms[1] * 60 + hms[2]
        d = pd.DataFrame({"ts": secs.to_numpy(np.int64), "price": df["Price"].astype(float).to_numpy(),
                          "volume": df["Volume"].astype(float).to_numpy()})
        d = d.sort_values("ts", kind="mergesort").drop_duplicates("ts", keep="last")
        frames.append(d)
    ticks = pd.concat(frames).sort_values("ts", kind="mergesort").reset_index(drop=True)
    ticks["start"] = ticks["ts"] // tf_seconds * tf_seconds
    g = ticks.groupby("start", sort=True)
    bars = pd.DataFrame({"open": g["price"].first(), "high": g["price"].max(), "low": g["price"].min(),
                         "close": g["price"].last(), "volume": g["volume"].sum()})
    bars = bars.reset_index().rename(columns={"start": "ts"})
    return bars[["ts", "open", "high", "low", "close", "volume"]]


# ---- indicators (pandas, as the original) -----------------------------------

def ema(s, span):
    return s.ewm(span=span, adjust=False).mean()


def window_sums(x, w, mean=None):
    """For every full window x[i-w+1..i]: the sum of x (or of (x - mean[i])^2),
    added oldest to newest (docs/signals-spec.md sec. 4.3); NaN before the first window."""
    n = len(x)
    out = np.full(n, np.nan)
    if w > n:
        return out
    m = n - w + 1
    acc = np.zeros(m)
    for k in range(w):
        v = x[k:k + m]
        if mean is not None:
            v = (v - mean) * (v - mean)
        acc = acc + v
    out[w - 1:] = acc
    return out


def rolling_mean(s, w):
    """docs/signals-spec.md sec. 4.4's canonical mean: the window's sum (oldest first) / w."""
    return pd.Series(window_sums(s.to_numpy(float), w) / float(w), index=s.index)


def zscore_canonical(s, w):
    """Two passes per window (sec. 4.4): mean = sum/w, var = sum((x-mean)^2)/w,
    std = sqrt(var), z = (x - mean)/std; NaN while a window value is NaN. A
    window of equal values has mean = that value and std = 0 (docs/signals.md:
    as pandas' rolling mean/std give), so z = NaN."""
    x = s.to_numpy(float)
    n = len(x)
    z = np.full(n, np.nan)
    if w > n:
        return pd.Series(z, index=s.index)
    sums = window_sums(x, w)[w - 1:]
    mean = sums / float(w)
    var = window_sums(x, w, mean)[w - 1:] / float(w)
    cur = x[w - 1:]
    win = np.lib.stride_tricks.sliding_window_view(x, w)
    same = (win == win[:, :1]).all(axis=1)
    mean = np.where(same, win[:, 0], mean)
    var = np.where(same, 0.0, var)
    with np.errstate(divide="ignore", invalid="ignore"):
        z[w - 1:] = (cur - mean) / np.sqrt(var)
    return pd.Series(z, index=s.index)


def zscore_pandas(s, w):
    """The original's form: pandas' rolling (online add/remove updates)."""
    mean = s.rolling(w).mean()
    std = s.rolling(w).std(ddof=0)
    return (s - mean) / std


def build_features(bars, p, rolling="canonical"):
    """rolling: "canonical" (sec. 4.4's two passes, the contract) or "pandas"
    (the original's rolling mean/std, equal to ~1e-15 relative but not bitwise;
    where a z-score is ill-conditioned that flips signals)."""
    if rolling == "pandas":
        mean, zscore = (lambda s, w: s.rolling(w).mean()), zscore_pandas
    else:
        mean, zscore = rolling_mean, zscore_canonical
    d = pd.DataFrame({"open": bars["open"], "high": bars["high"], "low": bars["low"], "close": bars["close"],
                      "volume": bars["volume"]})
    d["ema_f"] = ema(d["close"], p["ema_fast"])
    d["ema_s"] = ema(d["close"], p["ema_slow"])
    d["downtrend"] = d["ema_f"] < d["ema_s"]
    prev_close = d["close"].shift()
    tr = pd.concat([d["high"] - d["low"], (d["high"] - prev_close).abs(), (d["low"] - prev_close).abs()],
                   axis=1).max(axis=1)
    d["atr"] = mean(tr, p["atr_window"])
    d["vol_z"] = zscore(d["volume"], p["z_window"])
    d["tr_z"] = zscore(d["atr"] * p["atr_window"], p["z_window"])
    span = (d["high"] - d["low"]).replace(0, np.nan)
    d["cloc"] = (d["close"] - d["low"]) / span
    d["exhaustion"] = (d["downtrend"] & (d["vol_z"] > p["vol_z"]) & (d["tr_z"] > p["tr_z"])
                       & (d["cloc"] > p["cloc_min"]))
    return d


# ---- the backtest (sec. 1.4) -------------------------------------------------

def backtest(feats, p):
    """Trades as dicts; bar indices are the rows of `feats` (before the drop)."""
    d = feats.dropna(subset=["atr"]).copy()
    orig = d.index.to_numpy()
    d = d.reset_index(drop=True)
    o = d["open"].to_numpy()
    h = d["high"].to_numpy()
    lo = d["low"].to_numpy()
    c = d["close"].to_numpy()
    atr = d["atr"].to_numpy()
    sig = d["exhaustion"].to_numpy()
    k, rr, hold = p["atr_stop_mult"], p["reward_r"], p["max_hold"]
    cost = p["fee_bp"] + p["slippage_bp"]
    trades = []
    in_pos = False
    entry = stop = tp = risk = 0.0
    entry_j = sig_j = bars_held = 0
    for j in range(len(d) - 1):
        nj = j + 1
        if not in_pos and sig[j]:
            entry = float(o[nj])
            stop = float(lo[j] - k * atr[j])
            risk = max(1e-8, entry - stop)
            tp = entry + rr * risk
            entry_j, sig_j = nj, j
            bars_held = 0
            in_pos = True
            continue
        if in_pos:
            bars_held += 1
            exit_price = None
            if o[nj] <= stop:
                exit_price, reason = float(o[nj]), "stop_gap"
            elif lo[nj] <= stop:
                exit_price, reason = stop, "stop"
            elif h[nj] >= tp:
                exit_price, reason = tp, "tp"
            elif bars_held >= hold:
                exit_price, reason = float(c[nj]), "time"
            if exit_price is not None:
                fee = (entry + exit_price) * cost / 10000.0
                pnl = exit_price - entry - fee
                trades.append(dict(signal_bar=int(orig[sig_j]), entry_bar=int(orig[entry_j]),
                                   exit_bar=int(orig[nj]), entry=entry, exit=exit_price, stop=stop, tp=tp,
                                   risk=risk, reason=reason, pnl=pnl, R=pnl / risk))
                in_pos = False
    return trades


def run(bars, params, rolling="canonical"):
    p = dict(DEFAULTS)
    p.update(params)
    return backtest(build_features(bars, p, rolling), p)


def metrics(trades):
    """docs/signals-spec.md sec. 1.4.5, in pandas as the source: n, win_rate, avg_R,
    total_pnl, max_dd, sharpe (0 where undefined; all 0 without trades)."""
    n = len(trades)
    if n == 0:
        return dict(n=0, win_rate=0.0, avg_R=0.0, total_pnl=0.0, max_dd=0.0, sharpe=0.0)
    df = pd.DataFrame(trades)
    cum = df["pnl"].cumsum()
    std = df["R"].std(ddof=1) if n > 1 else 0.0
    return dict(n=n, win_rate=float((df["pnl"] > 0).mean()), avg_R=float(df["R"].mean()),
                total_pnl=float(df["pnl"].sum()), max_dd=float((cum - cum.cummax()).min()),
                sharpe=float(df["R"].mean() / std) if n > 1 and std != 0 else 0.0)
