"""The installed package imports, finds its libevolve and reads a lattice (CI, after pip install ./python)."""
import evolve

lat = evolve.Lattice.from_dict({"volatility": {"feature": "Entry Volatility Percent", "values": [0, 0.3, 0.5]},
                                "target": {"role": "target", "values": [0.2, 0.4]},
                                "stop": {"role": "stop", "values": [-0.5, -0.3]}})
assert lat.size == 12 and lat.names == ["volatility", "target", "stop"], lat
try:
    evolve.Lattice.from_dict({"parameters": []})
    raise SystemExit("an empty lattice was accepted")
except evolve.EvolveError as e:
    assert "parameters" in str(e), e
print(f"evolve {evolve.__version__} imported from {evolve.__file__}: {evolve.build_info()}; {lat}")
