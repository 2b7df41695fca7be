#!/usr/bin/env python3
"""strategy.session.flat_at_close end to end (docs/signals.md "Sessions"), on
gen-data's 1-minute bars of 3 days, both strategies:
- by default a position is held overnight: some trade enters on one day and
  exits on a later one;
- with flat_at_close: true no trade does; every trade exiting for `session`
  exits at its day's last bar, at that bar's close; and a grid on the config
  reports, for its best genomes, the fitness (total_return) and trades that
  `evolve trades CONFIG --run` lists for them (the search backtests with the
  flag too).
Standard library only."""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

check = cli.Checker()

STRATEGIES = {
    "seller_exhaustion": ("  - {name: ema_fast, values: [4, 8]}\n  - {name: ema_slow, values: [16, 24]}\n"
                          "  - {name: z_window, values: [20, 40]}\n  - {name: atr_window, values: [8]}\n"
                          "  - {name: vol_z, values: [0.5, 1.0]}\n  - {name: tr_z, values: [0.0]}\n"
                          "  - {name: cloc_min, values: [0.3]}\n  - {name: reward_r, values: [4.0]}\n"
                          "  - {name: atr_stop_mult, values: [1.5]}\n  - {name: max_hold, values: [300]}\n"),
    "atc": ("  - {name: ema_len, values: [10, 20]}\n  - {name: hull_len, values: [10]}\n"
            "  - {name: wma_len, values: [10]}\n  - {name: dema_len, values: [10]}\n"
            "  - {name: lsma_len, values: [10]}\n  - {name: kama_len, values: [10, 20]}\n"),
}


def config(path, kind, flat):
    with open(path, "w") as f:
        f.write(f"strategy:\n  type: {kind}\n  bars: {{csv: b.csv}}\n"
                + ("  session: {flat_at_close: true}\n" if flat else "")
                + "objective: {name: total_return, min_trades: 1}\nparameters:\n" + STRATEGIES[kind])


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    a = cli.parse_args()
    E = os.path.abspath(a.evolve)
    with cli.scratch_dir("evolve_flat_") as root:
        cli.gen_data(E, os.path.join(root, "data"), ["--days", "3", "--tickers", "SOXL", "--trades", "10"])
        b = os.path.join(root, "b.csv")
        r = cli.run(E, ["bars", "--market", os.path.join(root, "data", "market"), "--ticker", "SOXL",
                        "--timeframe", "1m", "--csv", b])
        check(r.returncode == 0, f"bars: {r.stderr}")
        bars = rows(b)
        last_of_day = {}
        for bar in bars:
            last_of_day[bar["timestamp"][:10]] = bar
        for kind in STRATEGIES:
            for flat in (False, True):
                name = f"{kind}{' flat_at_close' if flat else ''}"
                cfg = os.path.join(root, f"{kind}_{int(flat)}.yaml")
                config(cfg, kind, flat)
                run = os.path.join(root, f"{kind}_{int(flat)}.h5")
                js = run + ".json"
                r = cli.run(E, [cfg, "--grid", "--quiet", "--output", run, "--json", js])
                if not check(r.returncode == 0, f"{name}: grid: {r.stderr}"):
                    continue
                top = json.load(open(js))["top"]
                spans, sessions = 0, 0
                for row in top[:3]:
                    t = os.path.join(root, "t.csv")
                    r = cli.run(E, ["trades", cfg, "--run", run, "--rank", str(row["rank"]), "--csv", t])
                    if not check(r.returncode == 0, f"{name}: trades: {r.stderr}"):
                        continue
                    trades = rows(t)
                    got = sum(round(float(x["outcome_pct"]) * 1e6) for x in trades)
                    check(got == round(row["fitness"] * 1e6) and len(trades) == row["trades"],
                          f"{name} rank {row['rank']}: the grid's {row['fitness']} / {row['trades']}, "
                          f"its trades {got / 1e6} / {len(trades)}")
                    for x in trades:
                        spans += x["entry_time"][:10] != x["exit_time"][:10]
                        if x["reason"] == "session":
                            sessions += 1
                            last = last_of_day[x["exit_time"][:10]]
                            check(x["exit_time"] == last["timestamp"] and float(x["exit"]) == float(last["close"]),
                                  f"{name}: a session exit at {x['exit_time']} {x['exit']}, the day's last bar "
                                  f"{last['timestamp']} closes at {last['close']}")
                if flat:
                    check(spans == 0 and sessions > 0, f"{name}: {spans} trades held overnight, {sessions} closed "
                          "at a session's end")
                else:
                    check(spans > 0 and sessions == 0, f"{name}: by default some trade is held overnight "
                          f"({spans}), none exits for session ({sessions})")
    if not check.failures:
        print("ok: flat_at_close")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
