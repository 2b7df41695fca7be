#!/usr/bin/env python3
"""The `loosest` baseline (fitness/baseline.h, runs/session_baseline.c)
where test_baselines.py's lattice (min filters only) cannot tell, on
gen-data's sample data against the SPEC oracle (tests/spec_oracle.py):

- max: a lattice with a max filter (keep a trade iff feature <= value), a
  min filter and a target: the loosest point is the max filter's last value,
  the min filter's first and the target's first (the JSON's values), and its
  fitness and trades are the oracle's on that point;
- holdout: a filter whose loosest value is the in-sample days' lowest
  feature value (min) or highest (max), beyond some holdout trade's: the
  loosest point equals the log in sample and drops holdout trades, so it is
  reported (not dropped as equal to the log): its in-sample result is the
  log's, its holdout result the oracle's and not the log's;
- same: the loosest value keeps every trade of every day: the loosest point
  is the log on every part and is left out; so too beside a trail and a
  max_hold whose loosest value is off (its statistics then show exit counts,
  all zero, that the log's do not).
Needs numpy (spec_oracle)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "support"))
sys.path.insert(0, HERE)
import evolve_cli as cli  # noqa: E402

try:
    import spec_oracle as so
    from small_lattice import config, day_text, lattice_yaml, run_json, subset
except ImportError as exc:  # pragma: no cover
    print(f"test_baselines_loosest: skipped: {exc} (install python3-numpy)")
    sys.exit(77)

check = cli.Checker()
VOL, ADX = "Entry Volatility Percent", "Entry Adx7"
FEATURES = (VOL, "Entry Volatility Ratio", ADX)
OBJ = so.Objective("total_return", min_trades=0)
HOLDOUT = "  holdout: {last: 2}\n"


def text(v):
    return repr(float(v))


def bases_of(doc, where):
    bases = {b["name"]: b for b in doc.get("baselines", [])}
    check("log" in bases, f"{where}: no log baseline: {sorted(bases)}")
    return bases


def oracle_cell(where, cell, ds, params):
    orc = so.Oracle(ds, params, OBJ)
    want = orc.value(0)
    check(cell["trades"] == int(orc.n[0]), f"{where}: trades {cell['trades']}, oracle {int(orc.n[0])}")
    check(abs(float(cell["fitness"]) - want) <= 1e-12 * max(1.0, abs(want)),
          f"{where}: fitness {cell['fitness']}, oracle {want}")


def max_filter(evolve, root, data, ds):
    adx = sorted({t.features[ADX] for t in ds.trades})
    cuts = [adx[len(adx) // 4], adx[len(adx) // 2], adx[-1] + 1.0]  # the last keeps every trade
    params = [so.param("volatility", feature=VOL, values=["0", "0.3"]),
              so.param("adx", feature=ADX, direction="max", values=[text(c) for c in cuts]),
              so.param("target", role="target", values=["0.2", "0.5"])]
    cfg = config(root, "max", data, params_yaml=lattice_yaml(params), cache="max.dataset.h5")
    doc = run_json(evolve, cfg, ["--grid"], check)
    if doc is None:
        return
    b = bases_of(doc, "max").get("loosest")
    if not check(b is not None, "max: no loosest baseline (it differs from the log: a target)"):
        return
    want = {"volatility": 0.0, "adx": float(text(cuts[-1])), "target": 0.2}
    check(b["values"] == want, f"max: loosest values {b['values']}, want {want}")
    loosest = [so.param(p.name, role=p.role, feature=p.feature, direction=p.direction,
                        values=[p.texts[-1] if p.direction == "max" else p.texts[0]]) for p in params]
    oracle_cell("max: loosest", b, ds, loosest)


def parts(evolve, root, data, ds):
    """The in-sample and holdout days of a run with HOLDOUT (its JSON)."""
    cfg = config(root, "probe", data, validation=HOLDOUT,
                 params_yaml=lattice_yaml([so.param("volatility", feature=VOL, values=["0"])]),
                 cache="probe.dataset.h5")
    doc = run_json(evolve, cfg, ["--grid"], check)
    if doc is None:
        return None, None
    v = doc["validation"]
    return set(v["in_sample_days"]), set(v["holdout_days"])


def holdout_filter(ins, hold):
    """A filter (feature, direction, loosest value) that keeps every in-sample trade and drops some, not all,
    holdout trades: a min filter at the in-sample lowest value, or a max filter at the highest; None if no
    feature has one."""
    for feature in FEATURES:
        lo, hi = min(t.features[feature] for t in ins.trades), max(t.features[feature] for t in ins.trades)
        for direction, edge, drops in (("min", lo, lambda v, e: v < e), ("max", hi, lambda v, e: v > e)):
            below = [t for t in hold.trades if drops(t.features[feature], edge)]
            if 0 < len(below) < len(hold.trades):
                return feature, direction, edge, len(below)
    return None


def holdout_only(evolve, root, data, ds):
    ins_days, hold_days = parts(evolve, root, data, ds)
    if ins_days is None:
        return
    ins, hold = subset(ds, ins_days), subset(ds, hold_days)
    found = holdout_filter(ins, hold)
    if not check(found is not None, "holdout: no feature whose in-sample range drops some holdout trades "
                 "(the premise)"):
        return
    feature, direction, edge, dropped = found
    everything = min(t.features[feature] for t in ds.trades) - 1.0 if direction == "min" else \
        max(t.features[feature] for t in ds.trades) + 1.0
    for case, loose in (("holdout", edge), ("same", everything), ("same_exits", everything)):
        other = loose + 0.5 if direction == "min" else loose - 0.5  # a tighter value beside it
        values = [text(loose), text(other)] if direction == "min" else [text(other), text(loose)]
        params = [so.param("f", feature=feature, direction=direction, values=values)]
        if case == "same_exits":  # exits at off: the loosest point is still the log (its stats show exit counts)
            params += [so.param("trail", role="trail", values=["0.1", "off"]),
                       so.param("max_hold", role="max_hold", values=["60", "off"])]
        cfg = config(root, case, data, validation=HOLDOUT, params_yaml=lattice_yaml(params),
                     cache=case + ".dataset.h5")
        doc = run_json(evolve, cfg, ["--grid"], check)
        if doc is None:
            continue
        bases = bases_of(doc, case)
        if case.startswith("same"):
            check("loosest" not in bases, f"{case}: a loosest row equal to the log on every part: {bases.get('loosest')}")
            continue
        b, log = bases.get("loosest"), bases["log"]
        if not check(b is not None, f"holdout: no loosest row; it drops {dropped} holdout trades: {sorted(bases)}"):
            continue
        check((b["in_sample"]["fitness"], b["in_sample"]["trades"]) ==
              (log["in_sample"]["fitness"], log["in_sample"]["trades"]),
              f"holdout: loosest in sample {b['in_sample']}, log {log['in_sample']}")
        check(b["out_of_sample"]["trades"] == log["out_of_sample"]["trades"] - dropped,
              f"holdout: loosest holdout {b['out_of_sample']}, log {log['out_of_sample']}, {dropped} dropped")
        loosest = [so.param("f", feature=feature, direction=direction, values=[text(loose)])]
        oracle_cell("holdout: loosest in sample", b["in_sample"], ins, loosest)
        oracle_cell("holdout: loosest on the holdout", b["out_of_sample"], hold, loosest)
        print(f"holdout: {feature} {direction} {loose}: in sample the log's {log['in_sample']}, holdout "
              f"{b['out_of_sample']} against the log's {log['out_of_sample']}")


def main():
    a = cli.parse_args()
    with cli.scratch_dir("evolve-baselines-loosest-") as root:
        data = os.path.join(root, "data")
        r = cli.gen_data(a.evolve, data, ["--days", "6", "--tickers", "SOXL", "--trades", "300"])
        if not check(r.returncode == 0, f"gen-data: {r.stderr}"):
            return check.exit()
        ds = so.load_dataset(os.path.join(data, "market"), os.path.join(data, "all_trade_logs.csv"), ["SOXL"],
                             FEATURES)
        max_filter(a.evolve, root, data, ds)
        holdout_only(a.evolve, root, data, ds)
        days = sorted({day_text(t.entry_ts // 86400) for t in ds.trades})
        print(f"test_baselines_loosest: {len(ds.trades)} trades on {len(days)} days")
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
