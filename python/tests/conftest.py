"""Fixtures of the Python package's tests: the evolve binary to compare with,
sample data made by gen-data, and the bundled real prices (samples/real).

Run by ctest (tests/CMakeLists.txt: test_python) with EVOLVE_BINARY,
EVOLVE_LIBRARY (the built libevolve), EVOLVE_SOURCE_DIR and EVOLVE_SHARED_DATA set;
EVOLVE_TESTS_SMALL=1 in the sanitizer build (CI stage 3): every test, on smaller
numbers (SMALL below; bench/RESULTS.md "CI time, fourth cut")."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import pytest

SOURCE = os.environ.get("EVOLVE_SOURCE_DIR") or os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SOURCE, "tests", "support"))
# never the user's own dataset cache (ctest sets one per test; a bare pytest gets a new one)
os.environ.setdefault("EVOLVE_CACHE_DIR", tempfile.mkdtemp(prefix="evolve-cache-"))
# the sanitizer build's sizes: sample-3tickers.yaml's GA 1,024 genomes (4 islands of 256; was 4,096), which
# still migrates every 10 generations and still ends on its stall limit (40 generations without a better
# best: at generation 48, was 45), and the big evaluate of 100,000 genomes (test_python_api.py MILLION;
# was 1,000,000)
SMALL = os.environ.get("EVOLVE_TESTS_SMALL") == "1"


def pytest_report_header(config):
    import evolve
    return f"evolve {evolve.build_info()} from {evolve.core._ffi._find_library()}"


@pytest.fixture(scope="session")
def binary():
    b = os.environ.get("EVOLVE_BINARY")
    if not b or not os.path.exists(b):
        pytest.fail("EVOLVE_BINARY must name the built evolve executable")
    return b


def cli(binary, *args, check=True):
    p = subprocess.run([binary, *map(str, args)], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"evolve {' '.join(map(str, args))}: exit {p.returncode}\n{p.stderr}")
    return p


@pytest.fixture(scope="session")
def sample(tmp_path_factory, binary):
    """A folder with data/sample (gen-data --days 5 --seed 1) and configs/ copied from the repository."""
    root = tmp_path_factory.mktemp("sample")
    cli(binary, "gen-data", "--out", root / "data" / "sample", "--days", 5, "--seed", 1)
    (root / "configs").mkdir()
    for name in ("soxl.yaml", "sample-3tickers.yaml", "soxl_exits.yaml"):
        shutil.copy(os.path.join(SOURCE, "configs", name), root / "configs" / name)
    if SMALL:
        cfg = root / "configs" / "sample-3tickers.yaml"
        text = cfg.read_text()
        assert "  population: 4096\n" in text, "sample-3tickers.yaml's GA changed: see SMALL"
        cfg.write_text(text.replace("  population: 4096\n", "  population: 1024\n"))
    return root


def write_config(path, text):
    path.write_text(text)
    return path


@pytest.fixture(scope="session")
def real(tmp_path_factory):
    """configs/real.yaml on the bundled sample (samples/real), without its holdout: the Python
    evaluations compared with the CLI's run on every day."""
    root = tmp_path_factory.mktemp("real")
    (root / "configs").mkdir()
    text = open(os.path.join(SOURCE, "configs", "real.yaml")).read()
    text = text.replace("../samples/real", os.path.join(SOURCE, "samples", "real").replace("\\", "/"))
    text = re.sub(r"(?ms)^validation:.*?(?=^\S)", "", text)
    write_config(root / "configs" / "real.yaml", text)
    return root
