"""What the Python tests that drive the evolve binary share (standard library
only): the command line CMake gives every test, running evolve, sample data
from gen-data, a config, scratch directories and the files a command left in
them, optional modules, and a counter of failed checks.

A test imports it from its own directory, since ctest runs it from the build
tree:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
    import evolve_cli as cli
"""

import argparse
import contextlib
import hashlib
import importlib
import os
import shutil
import subprocess
import sys
import tempfile


def parse_args(flags=()):
    """--evolve BINARY --source-dir DIR --shared-data DIR, as
    tests/CMakeLists.txt passes them, and the test's own on/off `flags`."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--evolve", required=True)
    ap.add_argument("--source-dir")
    ap.add_argument("--shared-data")
    for flag in flags:
        ap.add_argument(flag, action="store_true")
    return ap.parse_args()


def run(evolve, args, env=None, cwd=None, timeout=None):
    """evolve ARGS, its stdout and stderr captured as text; `env` is added to
    the inherited environment."""
    return subprocess.run([evolve] + list(args), capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ, **(env or {})), timeout=timeout)


def python_env(evolve):
    """The environment of a python that imports the package (python/) on the libevolve of this build:
    EVOLVE_LIBRARY as ctest sets it, else the one beside `evolve`; in a sanitized build (ctest sets
    EVOLVE_PYTHON_PRELOAD) the sanitizer's runtime preloaded, its leak report off (python's own)."""
    here = os.path.dirname(os.path.abspath(__file__))
    lib = os.environ.get("EVOLVE_LIBRARY") or os.path.join(os.path.dirname(os.path.abspath(evolve)), "libevolve.so")
    env = dict(os.environ, EVOLVE_LIBRARY=lib, PYTHONPATH=os.path.join(here, "..", "..", "python"))
    if os.environ.get("EVOLVE_PYTHON_PRELOAD"):
        env.update(LD_PRELOAD=os.environ["EVOLVE_PYTHON_PRELOAD"], ASAN_OPTIONS="detect_leaks=0")
    return env


def list_tables(stdout):
    """The reported lists as the terminal prints them (report/top_table.c), in order: each a dict of "head" (the
    header's names) and "rows" (each row's cells). A list grouped into strategies is headed `strategy rank ...`, a
    row per strategy (`#N RANK ...`); a list that is not (a strategy config's, a walk-forward's windows in `evolve
    report`) `rank ...`, a row per genome. The trader-statistics tables (`rank trades ...`) are not lists."""
    lines = stdout.splitlines()
    tables = []
    for i, line in enumerate(lines):
        names = line.split()
        if names[:2] != ["strategy", "rank"] and (names[:1] != ["rank"] or names[1:2] == ["trades"]):
            continue
        rows = []
        for row in lines[i + 1:]:
            cells = row.split()
            if not cells or not cells[0].lstrip("#").isdigit():
                break
            rows.append(cells)
        tables.append({"head": names, "rows": rows})
    return tables


def is_shortest(text):
    """Whether a number's text in an evolve CSV is as it should be: it reads
    back as a double v with no text of fewer significant digits doing so
    (printf's %.Pg for each P of 1 to 17), e.g. 167.43, not
    167.43000000000001; and it is plain when %g is (151760, not 1.5176e+05)."""
    v = float(text)
    p = next(p for p in range(1, 18) if float("%.*g" % (p, v)) == v)
    mantissa = text.lstrip("-").split("e")[0].replace(".", "").lstrip("0").rstrip("0")
    return len(mantissa or "0") == p and ("e" in text) == ("e" in "%.17g" % v)


def gen_data(evolve, out, args=(), env=None):
    """evolve gen-data --out OUT --quiet ARGS."""
    return run(evolve, ["gen-data", "--out", out, "--quiet"] + list(args), env=env)


def make_data(evolve, out, days=2, trades=150):
    """Sample data (SOXL only) in the trader's formats, via gen-data."""
    r = gen_data(evolve, out, ["--days", str(days), "--tickers", "SOXL", "--trades", str(trades)])
    if r.returncode != 0:
        raise RuntimeError("gen-data failed: " + r.stderr)


# The raw files' columns (SPEC sec. 1); the log's Entry Rsi is one it ignores.
MARKET_HEADER = ["Ticker", "Price", "Val", "Avg", "Atr14", "Atr28", "Rsi", "Volume", "Adx28", "Adx14", "Adx7",
                 "Volatility Percent", "Volatility Ratio", "Time"]
LOG_HEADER = ["Date", "Trade Id", "Ticker", "Entry Price", "Exit Price", "Entry Time", "Exit Time",
              "Worst Exit Percent", "Entry Volatility Percent", "Entry Volatility Ratio", "Entry Adx28",
              "Entry Adx14", "Entry Adx7", "Trade Best Exit Percent", "Trade Percent Change", "Entry Rsi"]


def hms(sec):
    """Seconds of the day as the files' HH:MM:SS."""
    return f"{sec // 3600:02d}:{sec // 60 % 60:02d}:{sec % 60:02d}"


# The trader's seed lattice (configs/soxl.yaml): 11,340 points.
SOXL_PARAMETERS = """parameters:
  - {name: volatility, feature: Entry Volatility Percent, values: [0.0, 0.3, 0.4, 0.5, 0.6]}
  - {name: ratio, feature: Entry Volatility Ratio, values: [0.0, 0.2, 0.5, 0.7, 0.8, 0.9, 1.0]}
  - {name: adx28, feature: Entry Adx28, values: [0, 20, 30]}
  - {name: adx14, feature: Entry Adx14, values: [0, 20, 30]}
  - {name: adx7, feature: Entry Adx7, values: [0, 20, 30]}
  - {name: target, role: target, values: [0.2, 0.3, 0.4, 0.5]}
  - {name: stop, role: stop, values: [-0.5, -0.4, -0.3]}
"""
# configs/soxl_exits.yaml's: the seed lattice plus SPEC sec. 4.1's exits, 204,120 points.
EXIT_PARAMETERS = SOXL_PARAMETERS + """  - {name: trail, role: trail, values: [0.15, 0.25, 0.4]}
  - {name: breakeven, role: breakeven, values: [0.1, 0.2]}
  - {name: max_hold, role: max_hold, values: [300, 900, 3600]}
"""


def write_config(path, data_dir, output, population=128, generations=30, extra="", parameters=SOXL_PARAMETERS,
                 objective="total_return", min_trades=10, seed=42):
    """A config over make_data's data (SOXL), its dataset cached beside it."""
    text = f"""# written by a test
data:
  market_dir: {os.path.join(data_dir, "market")}
  trades: {os.path.join(data_dir, "all_trade_logs.csv")}
  tickers: [SOXL]
  cache: {os.path.join(os.path.dirname(path), "dataset.h5")}
{parameters}objective:
  name: {objective}
  min_trades: {min_trades}
ga:
  population: {population}
  generations: {generations}
{extra}top: 10
seed: {seed}
output: {output}
"""
    with open(path, "w") as f:
        f.write(text)
    return text


def mode_file(output, args):
    """The run file a run with ARGS writes when its config's `output` is OUTPUT
    and no --output is given: every mode but the GA adds its name before .h5
    (runs/run_name.h)."""
    walk = "--walk-forward" in args
    mode = ("walk-grid" if "--grid" in args else "walk") if walk else \
        "grid" if "--grid" in args else "validate" if "--validate" in args else None
    stem = output[:-3] if output.endswith(".h5") else output
    return f"{stem}.{mode}.h5" if mode else output


def data_and_config(evolve, root, output, **config):
    """make_data's data in ROOT/data and write_config's config (keywords
    `config`) as run.yaml beside OUTPUT; returns (data dir, config path)."""
    data = os.path.join(root, "data")
    make_data(evolve, data)
    cfg = os.path.join(os.path.dirname(output), "run.yaml")
    write_config(cfg, data, output, **config)
    return data, cfg


@contextlib.contextmanager
def scratch_dir(prefix, parent=None):
    """A new directory (under `parent`, else the system's temporary one),
    removed with all it holds when the block ends, however it ends."""
    root = tempfile.mkdtemp(prefix=prefix, dir=parent)
    try:
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


def files_under(d):
    """Every file below d, as sorted paths (what a failed command left)."""
    return sorted(os.path.join(r, f) for r, _, fs in os.walk(d) for f in fs)


def tree(d):
    """Every file under d with its content hash (what 'nothing changed' means)."""
    out = {}
    for base, _, files in os.walk(d):
        for f in files:
            p = os.path.join(base, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, d)] = hashlib.sha1(fh.read()).hexdigest()
    return out


def have_modules(*names):
    """True when every module can be imported (h5py, numpy: optional for the
    tests, which skip or drop checks without them)."""
    try:
        for name in names:
            importlib.import_module(name)
    except ImportError:
        return False
    return True


class Checker:
    """check(cond, what): counts and reports a failed check, returns cond;
    check.exit(): the test's exit status."""

    def __init__(self, stream=None):
        self.failures = 0
        self.stream = stream  # None: stdout (looked up when printing)

    def __call__(self, cond, what):
        if not cond:
            self.failures += 1
            print("FAIL: " + what, file=self.stream or sys.stdout, flush=True)
        return cond

    def exit(self):
        if self.failures:
            print(f"{self.failures} check(s) failed", file=self.stream or sys.stdout)
        return 1 if self.failures else 0
