#!/usr/bin/env python3
"""evolve's strategy atc (evolve trades --strategy atc, and atc configs)
against the independent reference tests/atc_reference.py (numpy/pandas,
written from docs/signals-spec.md sec. 2 and docs/signals.md).

Bars: the real TAQ prices in SHARED/real-hf at 10 s and 30 s (when present),
bars evolve builds from gen-data's market files, and a random walk written as
a bars CSV. Genomes: GENOMES random ones per bars set (seeded; --full: 200),
lengths on docs/signals-spec.md sec. 3's lattice and below it down to the feasible
minimum, La/De/thresholds on decimal lattices, some with cutout > 0, weights
off 1.0 or the Pine flags set. Every genome must have the reference's
trades: the same count, signal/entry/exit bars, sides and reasons, and
prices and pnl within REL relative (they are expected bit-equal).

Also: the config path gives the same trades as --bars; lattice, feasibility
and config errors name what is wrong.
"""

import math
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import evolve_cli as cli  # noqa: E402

if not cli.have_modules("numpy", "pandas"):
    print("SKIP: numpy and pandas are needed for the reference")
    sys.exit(77)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import atc_reference as ref  # noqa: E402
import se_reference  # noqa: E402  (bars CSVs and market files, read independently of evolve)

REL = 1e-9
FIELDS = ("entry", "exit", "pnl")

args = cli.parse_args(("--full",))
GENOMES = 200 if args.full else 25
check = cli.Checker()


def dec(k, scale):
    """k/scale as the decimal text a lattice writes (e.g. 7, 200 -> '0.035')."""
    return repr(float(k / scale))  # float(): numpy 2's repr of its scalars is 'np.float64(...)'


def random_genomes(count, seed):
    rng = random.Random(seed)
    out = []
    for gi in range(count):
        rob = rng.choice(("Narrow", "Medium", "Wide"))
        lo = {"Narrow": 7, "Medium": 9, "Wide": 10}[rob]
        g = {"robustness": rob}
        for fam in ref.FAMILIES:
            g[fam + "_len"] = rng.choice((rng.randrange(10, 61, 2), rng.randint(lo, 40)))
        g["La"] = dec(rng.randint(1, 20) * 5, 1000)
        g["De"] = dec(rng.randint(1, 25), 100)
        g["cutout"] = rng.choice((0, 0, 0, rng.randrange(0, 101, 10)))
        g["long_threshold"] = dec(rng.randint(1, 10) * 5, 100)
        g["short_threshold"] = dec(-rng.randint(1, 10) * 5, 100)
        g["cut_threshold"] = rng.choice(("0.49", dec(rng.randint(5, 60), 100)))
        g["fee_bp"] = str(rng.randint(0, 10))
        g["slippage_bp"] = dec(rng.randint(0, 20), 2)
        if gi % 5 == 1:
            for w in ref.WEIGHTS:
                g[w] = dec(rng.randint(5, 20), 10)
        if gi % 7 == 2:
            g["hma_as_sma"] = "true"
        if gi % 7 == 3:
            g["pine_sticky_a"] = "true"
        if gi % 7 == 4:
            g["python_cut"] = "true"
        out.append(g)
    return out


def as_params(g):
    p = {}
    for k, v in g.items():
        if k == "robustness":
            p[k] = v
        elif k in ("hma_as_sma", "pine_sticky_a", "python_cut"):
            p[k] = v == "true"
        elif k.endswith("_len") or k == "cutout":
            p[k] = int(v)
        else:
            p[k] = float(v)
    return p


COLUMNS = ["robustness"] + [f + "_len" for f in ref.FAMILIES] + list(ref.WEIGHTS) + [
    "La", "De", "cutout", "long_threshold", "short_threshold", "cut_threshold", "fee_bp", "slippage_bp",
    "hma_as_sma", "pine_sticky_a", "python_cut"]


def evolve_trades(extra, genomes, work, name):
    gpath = os.path.join(work, name + "_genomes.csv")
    with open(gpath, "w") as f:
        f.write(",".join(COLUMNS) + "\n")
        for g in genomes:
            full = {k: ("true" if v else "false") if isinstance(v, bool) else str(v) for k, v in ref.DEFAULTS.items()}
            full.update(g)
            f.write(",".join(str(full[c]) for c in COLUMNS) + "\n")
    out = os.path.join(work, name + "_trades.csv")
    r = cli.run(args.evolve, ["trades"] + extra + ["--genomes", gpath, "--csv", out])
    if not check(r.returncode == 0, f"{name}: evolve trades failed: {r.stderr}"):
        return None, r.stderr
    t = pd.read_csv(out, float_precision="round_trip", dtype={"reason": str, "side": str})
    return {g: df for g, df in t.groupby("genome")}, r.stderr


def close(a, b):
    return a == b or (math.isfinite(a) and math.isfinite(b) and abs(a - b) <= REL * max(abs(a), abs(b)))


def compare(name, bars, extra, work, seed):
    genomes = random_genomes(GENOMES, seed)
    got, log = evolve_trades(extra, genomes, work, name)
    if got is None:
        return
    store = ref.Store(bars)
    n_trades = n_exact = bad = 0
    for gi, g in enumerate(genomes):
        want = ref.run(store, as_params(g))
        have = got.get(gi)
        have = [] if have is None else have.to_dict("records")
        ok = check(len(want) == len(have), f"{name} genome {gi} {g}: {len(have)} trades, reference {len(want)}")
        for k, (w, h) in enumerate(zip(want, have)):
            same = all(w[c] == h[c] for c in ("signal_bar", "entry_bar", "exit_bar", "side", "reason"))
            ok &= check(same, f"{name} genome {gi} trade {k}: evolve {h}, reference {w}")
            for fld in FIELDS:
                ok &= check(close(w[fld], h[fld]), f"{name} genome {gi} trade {k} {fld}: {h[fld]!r} vs {w[fld]!r}")
                n_exact += w[fld] == h[fld]
        n_trades += len(want)
        bad += not ok
        if bad > 5:
            print(f"{name}: stopping after 5 genomes that disagree")
            break
    print(f"{name}: {len(bars)} bars, {len(genomes)} genomes, {n_trades} trades; {n_exact} of "
          f"{n_trades * len(FIELDS)} values bit-equal; {log.strip()}")
    check(n_trades > 5 * len(genomes), f"{name}: too few trades ({n_trades}) to mean much")
    keys = set()
    for g in genomes:
        p = dict(ref.DEFAULTS)
        p.update(as_params(g))
        for fam in ref.FAMILIES:
            kind = "sma" if fam == "hull" and p["hma_as_sma"] else fam
            keys |= {(kind, L) for L in ref.member_lengths(p[fam + "_len"], p["robustness"])}
        keys.add(("growth", p["La"]))  # one growth table per La
    check(f"indicators: {len(keys)} distinct series computed for {55 * len(genomes)} look-ups" in log,
          f"{name}: expected {len(keys)} distinct series computed (each once), got: {log}")


def compare_market(name, market, ticker, tf, tf_seconds, work, seed):
    bars = se_reference.bars_from_market(market, ticker, tf_seconds)
    compare(name, bars, ["--strategy", "atc", "--market", market, "--ticker", ticker, "--timeframe", tf], work, seed)


def random_walk(path, n, seed):
    rng = np.random.default_rng(seed)
    close = np.round(50.0 * np.exp(np.cumsum(rng.normal(0, 0.003, n))), 2)
    open_ = np.round(np.concatenate([[50.0], close[:-1]]) * np.exp(rng.normal(0, 0.0005, n)), 2)
    close[200:230] = close[199]  # a flat stretch: the close equals slow MAs, crosses decided by the last bit
    open_[200:230] = close[199]
    high = np.maximum(open_, close) + 0.01
    low = np.minimum(open_, close) - 0.01
    with open(path, "w") as f:
        f.write("timestamp,open,high,low,close,volume\n")
        for i in range(n):
            # repr of a Python float: the shortest text that reads back the same (numpy 2's repr is not a number)
            o, h, lo, c = (float(v[i]) for v in (open_, high, low, close))
            f.write(f"{1600000000 + 60 * i},{o!r},{h!r},{lo!r},{c!r},100\n")


def config_runs(work, bars_path):
    lattice = ("parameters:\n"
               "  - {name: ema_len, range: {start: 10, stop: 30, step: 2}}\n"
               "  - {name: robustness, values: [Narrow, Wide]}\n"
               "  - {name: La, range: {start: 0.005, stop: 0.1, step: 0.005}}\n"
               "  - {name: long_threshold, range: {start: 0.05, stop: 0.5, step: 0.05}}\n")
    cfg = os.path.join(work, "atc.yaml")
    with open(cfg, "w") as f:
        f.write(f"strategy:\n  type: atc\n  bars: {{csv: {os.path.basename(bars_path)}}}\n"
                "  costs: {fee_bp: 3, slippage_bp: 2.5}\n  pine: {python_cut: true}\n" + lattice)
    sets = ["ema_len=14", "robustness=Wide", "La=0.035", "long_threshold=0.15", "short_threshold=-0.2"]
    a, b = os.path.join(work, "cfg_a.csv"), os.path.join(work, "cfg_b.csv")
    setargs = sum((["--set", x] for x in sets), [])
    r = cli.run(args.evolve, ["trades", cfg] + setargs + ["--csv", a])
    check(r.returncode == 0, f"trades CONFIG: {r.stderr}")
    r2 = cli.run(args.evolve, ["trades", "--strategy", "atc", "--bars", bars_path] + setargs
                 + ["--set", "fee_bp=3", "--set", "slippage_bp=2.5", "--set", "python_cut=true", "--csv", b])
    check(r2.returncode == 0, f"trades --bars: {r2.stderr}")
    if r.returncode == 0 and r2.returncode == 0:
        ta, tb = open(a).read(), open(b).read()
        check(ta == tb and ta.count("\n") > 3, "trades CONFIG and trades --bars with the same settings differ")
        want = ref.run(ref.Store(se_reference.read_bars_csv(bars_path)), dict(
            ema_len=14, robustness="Wide", La=0.035, long_threshold=0.15, short_threshold=-0.2, fee_bp=3.0,
            slippage_bp=2.5, python_cut=True))
        check(len(want) == ta.count("\n") - 1, f"trades CONFIG: {ta.count(chr(10)) - 1} trades, reference {len(want)}")
    for extra, expect in ((["--set", "ema_len=11"], "not on the lattice"),
                          (["--set", "robustness=Medium"], "not on the lattice"),
                          (["--set", "ema_len=10", "--set", "wma_len=8"], "infeasible genome: wma_len = 8"),
                          (["--set", "robustness=Huge"], "Narrow, Medium or Wide"),
                          (["--set", "cutout=-1"], "cutout"),
                          (["--set", "nope=1"], "unknown atc parameter 'nope'")):
        r = cli.run(args.evolve, ["trades", cfg] + setargs + extra + ["--csv", a])
        check(r.returncode == 2 and expect in r.stderr, f"trades CONFIG {extra}: exit {r.returncode}: {r.stderr}")
    r = cli.run(args.evolve, ["trades", cfg] + setargs + ["--metrics", os.path.join(work, "m.csv"), "--csv", a])
    check(r.returncode == 2 and "--metrics" in r.stderr, f"atc --metrics: exit {r.returncode}: {r.stderr}")
    bad = os.path.join(work, "bad.yaml")
    head = "strategy:\n  type: atc\n  bars: {csv: x.csv}\n"
    for text, expect in (
            (head + "parameters:\n  - {name: robustness, values: [Narrow, Broad]}\n", "bad.yaml:5:"),
            (head + "parameters:\n  - {name: robustness, range: {start: 0, stop: 2, step: 1}}\n", "not a range"),
            (head + "parameters:\n  - {name: kama_len, values: [10, 12.5]}\n", "whole numbers"),
            (head + "parameters:\n  - {name: ema_fast, values: [10]}\n", "not an atc parameter"),
            (head + "  pine: {hma_as_sma: maybe}\nparameters:\n  - {name: La, values: [0.02]}\n", "bad.yaml:4:"),
            ("strategy:\n  type: seller_exhaustion\n  bars: {csv: x.csv}\n  pine: {hma_as_sma: true}\n"
             "parameters:\n  - {name: ema_fast, values: [10]}\n", "belong to strategy atc")):
        with open(bad, "w") as f:
            f.write(text)
        r = cli.run(args.evolve, ["trades", bad, "--csv", a])
        check(r.returncode != 0 and expect in r.stderr, f"bad config ({expect}): exit {r.returncode}: {r.stderr}")


def shipped_config(market, work):
    """configs/atc.yaml (its lattice, the genome its comment shows) on gen-data's bars."""
    with open(os.path.join(args.source_dir, "configs", "atc.yaml")) as f:
        text = f.read()
    path = os.path.join(work, "shipped_atc.yaml")
    with open(path, "w") as f:
        f.write(text.replace("../data/sample/market", market))
    out = os.path.join(work, "shipped.csv")
    sets = dict(ema_len=20, hull_len=30, robustness="Wide", La="0.05", De="0.1")
    r = cli.run(args.evolve, ["trades", path] + sum((["--set", f"{k}={v}"] for k, v in sets.items()), [])
                + ["--csv", out])
    if check(r.returncode == 0, f"configs/atc.yaml: {r.stderr}"):
        want = ref.run(ref.Store(se_reference.bars_from_market(market, "SOXL", 60)),
                       {k: (v if k == "robustness" else float(v) if isinstance(v, str) else v) for k, v in sets.items()})
        have = pd.read_csv(out, float_precision="round_trip")
        check(len(want) == len(have) and len(want) > 10 and
              all(w["exit_bar"] == h for w, h in zip(want, have["exit_bar"])),
              f"configs/atc.yaml: {len(have)} trades, reference {len(want)}")


def main():
    with cli.scratch_dir("evolve-atc-") as work:
        walk = os.path.join(work, "walk.csv")
        random_walk(walk, 2500, 11)
        compare("walk", se_reference.read_bars_csv(walk), ["--strategy", "atc", "--bars", walk], work, 1)
        config_runs(work, walk)
        data = os.path.join(work, "gen")
        r = cli.gen_data(args.evolve, data, ["--days", "3", "--tickers", "SOXL", "--trades", "10"])
        if check(r.returncode == 0, f"gen-data failed: {r.stderr}"):
            compare_market("gen-SOXL-1m", os.path.join(data, "market"), "SOXL", "1m", 60, work, 2)
            shipped_config(os.path.join(data, "market"), work)
        real = os.path.join(args.shared_data or "", "real-hf", "market")
        if os.path.isdir(real):
            compare_market("real-XXX-10s", real, "XXX", "10s", 10, work, 3)
            if args.full:
                compare_market("real-ETF-30s", real, "ETF", "30s", 30, work, 4)
        else:
            print(f"note: {real} is absent: the real-price sets are skipped")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
