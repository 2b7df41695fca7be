"""Random-walk OHLCV bars for the strategy tests (numpy and pandas): session
gaps, bars that open or close at the low, flat bars (high == low), a stretch of
constant volume (zero-std z-score windows), and a bars CSV writer."""
import numpy as np
import pandas as pd


def random_walk_bars(n, seed):
    rng = np.random.default_rng(seed)
    close = 100.0 * np.exp(np.cumsum(rng.normal(0, 0.004, n) + rng.standard_t(3, n) * 0.001))
    close = np.round(close, 2)
    open_ = np.round(np.concatenate([[100.0], close[:-1]]) * np.exp(rng.normal(0, 0.001, n)), 2)
    high = np.round(np.maximum(open_, close) * (1 + np.abs(rng.normal(0, 0.002, n))), 2)
    low = np.round(np.minimum(open_, close) * (1 - np.abs(rng.normal(0, 0.002, n))), 2)
    at_low = rng.random(n) < 0.02  # some bars open or close at the low
    low[at_low] = np.minimum(open_, close)[at_low]
    flat = rng.random(n) < 0.01  # some bars with high == low (close location undefined)
    open_[flat] = high[flat] = low[flat] = close[flat]
    volume = np.round(rng.lognormal(8, 0.6, n) * (1 + 4 * (rng.random(n) < 0.03)))
    volume[100:140] = 5000.0  # a constant stretch: zero std windows
    ts = 1700000000 + 60 * np.arange(n) + 3600 * (np.arange(n) // 390) * 17  # session gaps
    return pd.DataFrame({"ts": ts.astype(np.int64), "open": open_, "high": high, "low": low, "close": close,
                         "volume": volume})


def write_bars(df, path, iso=False, symbol=None, other=None):
    with open(path, "w") as f:
        f.write("symbol,timestamp,open,high,low,close,volume\n" if symbol else "timestamp,open,high,low,close,volume\n")
        rows = []
        for r in df.itertuples():
            t = pd.Timestamp(int(r.ts), unit="s").strftime("%Y-%m-%dT%H:%M:%SZ") if iso else str(int(r.ts))
            line = f"{t},{r.open!r},{r.high!r},{r.low!r},{r.close!r},{r.volume!r}\n"
            rows.append((int(r.ts), (symbol + "," if symbol else "") + line))
        if other is not None:
            for r in other.itertuples():
                t = pd.Timestamp(int(r.ts), unit="s").strftime("%Y-%m-%dT%H:%M:%SZ")
                rows.append((int(r.ts), f"OTHER,{t},{r.open!r},{r.high!r},{r.low!r},{r.close!r},{r.volume!r}\n"))
        rows.sort(key=lambda x: x[0])
        f.write("".join(line for _, line in rows))
