"""A run's trader statistics (Result.stats) and a reported genome's trades
(Result.trades, evolve.trades_of) from Python against the command line:
`evolve trades RUN.h5 --csv` row by row (tests/test_trade_stats.py checks
that against the SPEC oracle) and the run file's GROUP/trader_stats read with
h5py, on configs/soxl_exits.yaml with tighter exits (SPEC sec. 4.1's trail, breakeven and
max_hold: exit reasons breakeven, trail and time, their counts as
exits_breakeven, exits_trail, exits_time) and on configs/soxl.yaml (no
such columns)."""
import csv
import re

import numpy as np
import pytest

import evolve
from conftest import cli

REASONS = ["logged", "target", "stop", "breakeven", "trail", "time"]


@pytest.fixture(scope="module")
def exits_run(sample):
    """configs/soxl_exits.yaml with exits tight enough that the top genomes take each of them."""
    (sample / "results").mkdir(exist_ok=True)
    text = (sample / "configs" / "soxl_exits.yaml").read_text()
    for role, values in (("trail", "[0.1, 0.3]"), ("breakeven", "[0.01, 0.03]"), ("max_hold", "[2, 10]")):
        text, n = re.subn(rf"(role: {role}, values: )\[[^]]*\]", rf"\g<1>{values}", text)
        assert n == 1, role
    cfg = sample / "configs" / "tight_exits.yaml"
    cfg.write_text(text)
    return evolve.grid(cfg, backend="cpu", output=sample / "results" / "exits-py.h5", top=8)


def cli_trades(binary, tmp_path, run_file, rank, list_="grid"):
    out = tmp_path / f"trades-{list_}-{rank}.csv"
    cli(binary, "trades", run_file, "--rank", rank, "--list", list_, "--csv", out)
    with open(out) as f:
        return list(csv.DictReader(f))


def same_as_cli(df, rows):
    assert len(df) == len(rows) > 0
    for (n, t), r in zip(df.iterrows(), rows):
        got = {"n": str(n), "ticker": t.ticker, "trade_id": str(t.trade_id),
               "entry_time": t.entry_time.strftime("%Y-%m-%d %H:%M:%S"),
               "exit_time": t.exit_time.strftime("%Y-%m-%d %H:%M:%S"), "exit_reason": t.exit_reason,
               "part": t.part}
        assert got == {k: r[k] for k in got}, (n, got, r)
        assert (t.outcome_pct, t.cumulative_pct) == (float(r["outcome_pct"]), float(r["cumulative_pct"])), (n, r)
        assert t.entry_price == float(r["entry_price"])


def test_trades_and_exit_counts(exits_run, binary, tmp_path):
    import h5py
    res = exits_run
    st = res.stats
    assert list(st.index) == list(range(1, len(res.top) + 1))
    assert {"exits_breakeven", "exits_trail", "exits_time"} <= set(st.columns)
    assert res.out_of_sample_stats is None
    with h5py.File(res.run_file, "r") as f:
        g = f["grid/trader_stats"]
        assert sorted(st.columns) == sorted(g.keys())
        for c in st.columns:
            assert np.array_equal(st[c].to_numpy(), g[c][:], equal_nan=True), c
    seen = dict.fromkeys(REASONS, 0)
    for rank in st.index:
        df = res.trades(rank)
        assert df.attrs == {"list": "grid", "rank": rank}
        same_as_cli(df, cli_trades(binary, tmp_path, res.run_file, rank))
        counts = df["exit_reason"].value_counts()
        for reason in REASONS:
            col = "exits_" + reason
            assert st.loc[rank, col] == counts.get(reason, 0), (rank, reason)
            seen[reason] += counts.get(reason, 0)
        assert st.loc[rank, "trades"] == len(df) == res.top.loc[rank, "trades"]
        assert df["cumulative_pct"].iloc[-1] == pytest.approx(res.top.loc[rank, "fitness"], abs=1e-9)
    # the sample's top genomes exit by each of SPEC sec. 4.1's events
    assert seen["breakeven"] and seen["trail"] and seen["time"], str(seen)


def test_no_exit_columns_without_the_roles(sample, binary, tmp_path):
    (sample / "results").mkdir(exist_ok=True)
    res = evolve.grid(sample / "configs" / "soxl.yaml", backend="cpu", output=sample / "results" / "plain-py.h5",
                      top=3)
    assert not [c for c in res.stats.columns if c in ("exits_breakeven", "exits_trail", "exits_time")]
    df = res.trades(2)
    same_as_cli(df, cli_trades(binary, tmp_path, res.run_file, 2))
    assert set(df["exit_reason"]) <= {"logged", "target", "stop"}


def test_trades_errors(exits_run, sample):
    with pytest.raises(evolve.EvolveError) as e:
        evolve.trades_of(exits_run.run_file, rank=9)
    assert "--rank 9: the grid list holds 8 genome(s)" in str(e.value)
    with pytest.raises(evolve.EvolveError) as e:
        evolve.trades_of(exits_run.run_file, list_="ga")
    assert "no GA hall of fame" in str(e.value)
    with pytest.raises(evolve.EvolveError) as e:
        evolve.trades_of(exits_run.run_file, dataset=sample / "missing.h5")
    assert "missing.h5" in str(e.value)
