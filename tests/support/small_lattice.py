"""What the tests that check a run against the SPEC oracle on a small
four-parameter lattice share (test_trade_stats, test_walk_forward): the
lattice in both forms (and EXIT_PARAMS: the same plus SPEC sec. 4.1's trail,
breakeven and max_hold), a config over gen-data's sample data, a --json run,
and the oracle's view of a day subset. Needs numpy (spec_oracle).
"""

import datetime
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import evolve_cli as cli  # noqa: E402
import spec_oracle as so  # noqa: E402

PARAMS = [
    so.param("volatility", feature="Entry Volatility Percent", values=["0", "0.3", "0.5"]),
    so.param("ratio", feature="Entry Volatility Ratio", values=["0", "0.5", "0.8"]),
    so.param("target", role="target", values=["0.2", "0.3", "0.5"]),
    so.param("stop", role="stop", values=["-0.5", "-0.3", "-0.1"]),
]
# SPEC sec. 4.1's exits added: 81 x 3 x 2 x 3 = 1,458 points
EXIT_PARAMS = PARAMS + [
    so.param("trail", role="trail", values=["0.1", "0.25", "0.4"]),
    so.param("breakeven", role="breakeven", values=["0.05", "0.15"]),
    so.param("max_hold", role="max_hold", values=["120", "600", "1800"]),
]


def lattice_yaml(params):
    """The parameters: block of a config for so.param objects."""
    lines = ["parameters:"]
    for p in params:
        what = f"feature: {p.feature}" if p.role == "filter" else f"role: {p.role}"
        more = ", direction: max" if p.direction == "max" else ""
        lines.append(f"  - {{name: {p.name}, {what}{more}, values: [{', '.join(p.texts)}]}}")
    return "\n".join(lines) + "\n"


PARAM_YAML = lattice_yaml(PARAMS)
EXIT_YAML = lattice_yaml(EXIT_PARAMS)
FEATURES = ("Entry Volatility Percent", "Entry Volatility Ratio")


def day_text(d):
    return (datetime.date(1970, 1, 1) + datetime.timedelta(days=int(d))).isoformat()


def subset(ds, days):
    """The dataset of the trades entered on `days` (YYYY-MM-DD; dataset order kept)."""
    sub = so.Dataset()
    sub.tickers, sub.price, sub.ts = ds.tickers, ds.price, ds.ts
    sub.trades = [t for t in ds.trades if day_text(t.entry_ts // 86400) in days]
    return sub


def config(root, name, data, objective="  name: total_return\n", validation="",
           ga="population: 16\n  generations: 15", params_yaml=PARAM_YAML, tickers="SOXL", cache="ds.h5",
           extra=""):
    """ROOT/NAME.yaml on DATA (TICKERS), writing ROOT/NAME.h5; the dataset cached as ROOT/CACHE.
    params_yaml: PARAM_YAML or EXIT_YAML; extra: more top-level keys."""
    path = os.path.join(root, name + ".yaml")
    with open(path, "w") as f:
        f.write(f"""data:
  market_dir: {os.path.join(data, "market")}
  trades: {os.path.join(data, "all_trade_logs.csv")}
  tickers: [{tickers}]
  cache: {os.path.join(root, cache)}
{params_yaml}objective:
{objective}{"validation:" + chr(10) + validation if validation else ""}ga:
  {ga}
{extra}top: 6
seed: 7
output: {os.path.join(root, name + ".h5")}
""")
    return path


def run_json(evolve, path, args, check):
    """evolve PATH --quiet --json PATH.json ARGS; the summary, or None (a failed check)."""
    js = path[:-5] + ".json"
    r = cli.run(evolve, [path, "--quiet", "--json", js] + args, timeout=300)
    if not check(r.returncode == 0, f"{os.path.basename(path)} {args}: exit {r.returncode}: {r.stderr}"):
        return None
    with open(js) as f:
        return json.load(f)


def index_of(values, params=PARAMS):
    """The linear index of a JSON row's "values" on `params` (PARAMS or EXIT_PARAMS)."""
    genes = [next(i for i, v in enumerate(p.values) if v == values[p.name]) for p in params]
    return so.linear_index(genes, [len(p) for p in params])
