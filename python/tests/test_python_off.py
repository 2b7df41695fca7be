"""An exit's `off` (SPEC sec. 4.1) as Python reads it: the run's lists and
baselines show "off" where the genome's gene is off (the last value, held as
+inf in the lattice), numbers elsewhere; the lattice's values end in +inf."""
import re

import numpy as np

import evolve


def test_off_reads_off(sample):
    (sample / "results").mkdir(exist_ok=True)
    text = (sample / "configs" / "soxl_exits.yaml").read_text()
    for role, values in (("trail", "[off, 0.15, 0.4]"), ("breakeven", "[0.1, off]"), ("max_hold", "[300, off]")):
        text, n = re.subn(rf"(role: {role}, values: )\[[^]]*\]", rf"\g<1>{values}", text)
        assert n == 1, role
    cfg = sample / "configs" / "off_exits.yaml"
    cfg.write_text(text)
    res = evolve.grid(cfg, backend="cpu", output=sample / "results" / "off-py.h5", top=40)
    top = res.top
    params = {q["name"]: q for q in res.params}
    for name, n in (("trail", 3), ("breakeven", 2), ("max_hold", 2)):
        assert np.isinf(params[name]["values"][-1]) and len(params[name]["values"]) == n
        off = top["gene_" + name] == n - 1
        assert (top.loc[off, name] == "off").all()
        assert all(isinstance(v, float) for v in top.loc[~off, name])
    assert (top["trail"] == "off").any(), "no genome of the top 40 has its trail off: the test would see nothing"
    loosest = res.baselines.loc["loosest"]
    assert (loosest["trail"], loosest["breakeven"], loosest["max_hold"]) == ("off", "off", "off")
