#!/usr/bin/env python3
"""evolve report's HTML page (RUN_report/index.html), read without a browser,
for a GA, a grid, a validate and a walk-forward run:

- it is one self-contained file: no src, href, srcset, action, poster, data
  or xlink:href attribute anywhere, no <link>, <img>, <iframe>, <object>,
  <embed> or <base>, no url( or @import in its style, no address but the
  SVG namespace's; every chart of the folder is inline as <svg>;
- it shows the run's identity (content hash, seed, backend, the build's
  revision, compiler and HDF5) and what the JSON reported: rank 1's fitness and trades in the top-K
  table, a row per baseline, and with validation every out-of-sample column
  (holdout, plateau, DSR, worst fold, folds+), the PBO and the fold table;
  the GA its convergence, the walk-forward run its windows and each test
  window's baselines;
- every cell of the top-K table equals the JSON's value for its row under
  the same header (the columns found by their header text, in any order; a
  header the test cannot map to a JSON key fails it), and every cell of the
  trader-statistics tables the JSON's in-sample or holdout statistics, and of
  the baselines table the JSON's baseline of that name;
- `evolve report` on the validate run prints the holdout, plateau, DSR and
  fold columns the JSON has, and the holdout statistics a total-return
  column; Python's Result.top (Result.grid_top for --validate) holds the
  same out-of-sample columns;
- daily.svg keeps every bar inside its frame and labels days by date;
- `report --out FILE` refuses a file before printing anything, and a foreign
  index.html in the folder is refused and left as it was;
- a validation written before the plateau and trade-moment columns existed
  still reads.
"""
import html
import math
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402
import report_pages  # noqa: E402

check = cli.Checker()
REFERENCING = {"src", "href", "srcset", "action", "poster", "data", "xlink:href", "formaction", "background"}
FETCHING = {"link", "img", "iframe", "object", "embed", "base", "audio", "video", "source", "track", "image", "use"}
SVG_NS = "http://www.w3.org/2000/svg"


class Page(HTMLParser):
    """Tags, referencing attributes, style text and table cell texts of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.refs, self.tags, self.style, self.cells, self._in = [], [], "", [], None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.refs += [f"<{tag} {k}=\"{v}\">" for k, v in attrs if k.lower() in REFERENCING]
        self.refs += [f"<{tag} style=\"{v}\">" for k, v in attrs if k == "style" and "url(" in (v or "")]
        self._in = tag

    def handle_data(self, data):
        if self._in == "style":
            self.style += data
        elif self._in in ("td", "th"):
            self.cells.append(data.strip())

    def handle_endtag(self, tag):
        self._in = None


class Tables(HTMLParser):
    """Every <table>: its header cells (the <th> of its first row) and its body rows' cell texts."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tables, self._cell, self._row = [], None, None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append({"head": None, "rows": []})
        elif tag == "tr" and self.tables:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = ""

    def handle_data(self, data):
        if self._cell is not None:
            self._cell += data

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self._row.append((tag, self._cell.strip()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            t = self.tables[-1]
            if t["head"] is None and all(k == "th" for k, _ in self._row):
                t["head"] = [c for _, c in self._row]
            else:
                t["rows"].append([c for _, c in self._row])
            self._row = None


def top_columns(doc):
    """The JSON value of each column the page's top-K table may show, by its header: a function of a
    top entry (None: a header this test does not know)."""
    stats = lambda t, k: (t.get("stats") or {}).get(k)  # noqa: E731
    cols = {
        "rank": lambda t: t["rank"],
        doc["objective"]: lambda t: t["fitness"],
        "trades": lambda t: t["trades"],
        "win rate": lambda t: stats(t, "win_rate"),
        "max drawdown": lambda t: stats(t, "max_drawdown"),
        "holdout": lambda t: t["out_of_sample"]["fitness"],
        "holdout trades": lambda t: t["out_of_sample"]["trades"],
        "holdout total %": lambda t: t["out_of_sample_stats"]["total_return"],
        "plateau": lambda t: t["plateau"]["mean"],
        "DSR": lambda t: t["deflated_sharpe"],
        "worst fold": lambda t: t["worst_fold"],
        "folds+": lambda t: 100.0 * t["fold_profitable_share"],
    }
    for name in doc["top"][0]["values"]:
        cols[name] = (lambda n: lambda t: t["values"][n])(name)
    # each genome less the verdict's baseline (the log, else the trader's), in sample and on the holdout
    for b in doc.get("baselines", []):
        cols["\u2212 " + b["name"]] = (lambda b: lambda t: tv_num(t["fitness"]) - tv_num(b["fitness"]))(b)
        cols["holdout \u2212 " + b["name"]] = (
            lambda b: lambda t: tv_num(t["out_of_sample"]["fitness"]) - tv_num(b["out_of_sample"]["fitness"]))(b)
    # "strategies": strategy k's item names its best genome's rank (and basin): that row's cells
    best = {x["rank"]: (k + 1, x.get("basin")) for k, x in enumerate(doc.get("strategies", []))}
    cols["strategy"] = lambda t: best[t["rank"]][0] if t["rank"] in best else SKIP
    cols["basin"] = lambda t: best[t["rank"]][1] if t["rank"] in best and best[t["rank"]][1] else SKIP
    return cols


SKIP = object()  # a cell the JSON does not give


def cell_value(text):
    """A page cell as a number: %.6f (or %.9e), * when infeasible, % for folds+, #N for a number, - for none."""
    t = text.rstrip("*").rstrip("%").lstrip("#")
    if t == "-":
        return None
    return float(t)


def same_cell(cell, want):
    """A page cell shows the JSON value want (a number, null, or the text of an infinity), to the cell's
    decimals (%.6f, %+.4f, %.9e...)."""
    try:
        got = cell_value(cell)
    except ValueError:
        return False
    want = None if want is None else float(tv_num(want))
    if got is None:
        return want is None or want != want
    m = re.search(r"\.(\d+)(e[-+]\d+)?", cell.rstrip("*%"))
    half = 0.5 * 10.0 ** -len(m.group(1)) * (10.0 ** int(m.group(2)[1:]) if m and m.group(2) else 1.0) if m else 0.5
    return want is not None and abs(got - want) <= half * (1 + 1e-9) + 1e-12 * abs(want)


def rows_match(head, rows, entries, value):
    """The cells of rows that differ from value(entry, header) ([] when all match), row by row."""
    bad = []
    for row, t in zip(rows, entries):
        bad += [(t["rank"], h, cell, value(t, h)) for h, cell in zip(head, row)
                if value(t, h) is not SKIP and not same_cell(cell, value(t, h))]
    return bad


def top_cells(mode, doc, text):
    """Every cell of the page's top-K table (the first table headed rank, then every parameter) equals the
    JSON's value for its row under the same header, whatever the columns' order; and every cell of each
    trader-statistics table (headed rank, then statistics' names) equals the JSON's in-sample or holdout
    statistics of its row. The page and the JSON are written from one run file by different code."""
    tables = Tables()
    tables.feed(text)
    params = list(doc["top"][0]["values"])
    top = [t for t in tables.tables if t["head"] and t["head"][0] == "rank" and set(params) <= set(t["head"])]
    if not check(top, f"{mode}: no top-K table (headed rank, {', '.join(params)})"):
        return
    head, rows = top[0]["head"], top[0]["rows"]
    cols = top_columns(doc)
    unknown = [h for h in head if h not in cols]
    check(not unknown, f"{mode}: top-K columns this test cannot match to the JSON: {unknown} (add them)")
    check(len(rows) == len(doc["top"]), f"{mode}: {len(rows)} top-K rows, JSON {len(doc['top'])}")
    known = [h for h in head if h in cols]
    bad = rows_match(known, [[c for h, c in zip(head, r) if h in cols] for r in rows], doc["top"],
                     lambda t, h: cols[h](t))
    check(not bad, f"{mode}: top-K cells (rank, header, page, JSON) unlike the JSON's: {bad[:6]}")
    print(f"{mode}: {len(rows)} x {len(head)} top-K cells equal the JSON's ({', '.join(head)})")
    keys = set(doc["top"][0].get("stats") or {})
    parts = {"in-sample": "stats", "holdout": "out_of_sample_stats"}
    matched = set()
    for t in tables.tables:
        h = t["head"]
        if not h or h[0] != "rank" or len(h) < 3 or not set(h[1:]) <= keys:
            continue
        fits = [name for name, key in parts.items() if key in doc["top"][0] and not rows_match(
            h[1:], [r[1:] for r in t["rows"]], doc["top"], lambda e, col, key=key: e[key][col])]
        check(fits and len(t["rows"]) == len(doc["top"]),
              f"{mode}: a trader-statistics table ({', '.join(h)}) unlike the JSON's stats of its rows")
        matched.update(fits)
    want = {name for name, key in parts.items() if key in doc["top"][0]}
    check(matched == want, f"{mode}: trader-statistics tables for {sorted(matched)}, JSON has {sorted(want)}")
    baseline_cells(mode, doc, tables)


def baseline_cells(mode, doc, tables):
    """Every cell of the baselines table (headed baseline) equals the JSON baseline's of the same name under the
    same header: its parameters (a parameter it leaves out: no number), fitness, trades, win rate, drawdown,
    holdout and rank 1's differences (vs_best)."""
    bases = {b["name"]: b for b in doc.get("baselines", [])}
    found = [t for t in tables.tables if t["head"] and t["head"][0] == "baseline"]
    if not bases:
        check(not found, f"{mode}: a baselines table, the JSON has none")
        return
    if not check(found, f"{mode}: no baselines table"):
        return
    minus = "\u2212 "
    cols = {"fitness": lambda b: b["fitness"], "trades": lambda b: b["trades"],
            "win rate": lambda b: b["stats"]["win_rate"], "max drawdown": lambda b: b["stats"]["max_drawdown"],
            "holdout": lambda b: b["out_of_sample"]["fitness"],
            "holdout trades": lambda b: b["out_of_sample"]["trades"],
            "rank 1 " + minus + "fitness": lambda b: b["vs_best"]["fitness"],
            minus + "trades": lambda b: b["vs_best"]["trades"], minus + "win rate": lambda b: b["vs_best"]["win_rate"],
            minus + "max drawdown": lambda b: b["vs_best"]["max_drawdown"]}
    for name in doc["top"][0]["values"]:
        cols[name] = (lambda n: lambda b: b["values"][n] if n in b["values"] else SKIP)(name)
    results = [baseline_table(mode, t["head"], t["rows"], cols, bases) for t in found]
    # --validate shows the grid's list and the GA's, each with its baselines: the JSON's (the grid's) is one
    check(any(not bad for bad in results),
          f"{mode}: baseline cells (name, header, page, JSON) unlike the JSON's: {[bad[:6] for bad in results]}")
    for t in found:
        print(f"{mode}: {len(t['rows'])} x {len(t['head'])} baseline cells ({', '.join(t['head'])})")


def baseline_table(mode, head, rows, cols, bases):
    """The cells of one baselines table unlike the JSON's (name, header, page, JSON)."""
    unknown = [h for h in head[1:] if h not in cols]
    check(not unknown, f"{mode}: baselines columns this test cannot match to the JSON: {unknown} (add them)")
    check(sorted(r[0] for r in rows) == sorted(bases),
          f"{mode}: baseline rows {[r[0] for r in rows]}, JSON {sorted(bases)}")
    bad = []
    for row in rows:
        b = bases.get(row[0])
        for h, cell in zip(head[1:], row[1:]):
            want = cols[h](b) if b and h in cols else SKIP
            if want is not SKIP and not same_cell(cell, want):
                bad.append((row[0], h, cell, want))
    return bad


def tv_num(v):
    """A JSON number, or the text it writes for infinities."""
    return {"inf": math.inf, "-inf": -math.inf}.get(v, v) if isinstance(v, str) else v


def self_contained(mode, text, page):
    check(text.startswith("<!DOCTYPE html>\n<!-- written by evolve report -->\n"), f"{mode}: the page's mark")
    check(not page.refs, f"{mode}: references: {page.refs[:5]}")
    fetching = sorted(set(page.tags) & FETCHING)
    check(not fetching, f"{mode}: tags that fetch: {fetching}")
    check("url(" not in page.style and "@import" not in page.style, f"{mode}: the style fetches something")
    addresses = set(re.findall(r"[a-z][a-z0-9+.-]*://[^\s\"'<>)]*", text)) - {SVG_NS}
    check(not addresses, f"{mode}: addresses in the page: {sorted(addresses)[:5]}")


def shows(mode, p, text, page):
    doc = p["json"]
    for key, want in (("content hash", doc["dataset"]["content_hash"]), ("seed", str(doc["seed"])),
                      ("backend", doc["backend"])):
        i = page.cells.index(key) if key in page.cells else -1
        check(i >= 0 and page.cells[i + 1] == want, f"{mode}: identity {key}: {page.cells[i + 1:i + 2]}, want {want}")
    for key in ("git revision", "compiler", "HDF5", "written by"):
        check(key in page.cells, f"{mode}: identity without '{key}'")
    fit, trades = report_pages.top_rows(p["json"])
    check(fit in page.cells or fit in text, f"{mode}: rank 1's fitness {fit} not on the page")
    charts = [n for n in sorted(os.listdir(p["dir"])) if n.endswith(".svg")]
    check(text.count("<svg ") == len(charts), f"{mode}: {text.count('<svg ')} inline charts, {len(charts)} drawn")
    if mode != "walk":
        check("rank" in page.cells, f"{mode}: no top-K table")
        for b in doc.get("baselines", []):
            check(b["name"] in page.cells, f"{mode}: no baseline row {b['name']}")
            check(f"{float(b['fitness']):.6f}" in page.cells, f"{mode}: baseline {b['name']} {b['fitness']}")
    if doc.get("validation"):
        for head in ("holdout", "holdout trades", "plateau", "DSR", "worst fold", "folds+", "fold 1"):
            check(head in page.cells, f"{mode}: no column '{head}'")
        # one number, one column (issue 32): the holdout's total return is in the holdout statistics only
        check("holdout total %" not in page.cells, f"{mode}: a 'holdout total %' column repeats the holdout")
        t = doc["top"][0]
        check(f"{float(t['out_of_sample']['fitness']):.6f}" in " ".join(page.cells),
              f"{mode}: rank 1's holdout {t['out_of_sample']['fitness']}")
        if doc["validation"].get("pbo") is not None:
            check(f"{doc['validation']['pbo']:.4f}" in text and "PBO" in text, f"{mode}: no PBO")
    if mode in ("ga", "validate"):
        check("GA convergence" in text, f"{mode}: no convergence section")
    if mode == "walk":
        check("Walk-forward windows" in text, f"{mode}: no walk-forward section")
        # each test window's baselines (issue 28): every one's value and trades
        for x in doc["walk_forward"]["windows"]:
            bases = x.get("baselines", [])
            check([b["name"] for b in bases] == ["log", "loosest", "baseline"],
                  f"{mode}: window {x['window']}'s baselines {bases}")
            for b in bases:  # a table's cells now (issue 32): "value (trades)"
                cell = f"{float(b['fitness']):.6f}" + ("" if b["feasible"] else "*") + f" ({b['trades']})"
                check(cell in page.cells,
                      f"{mode}: window {x['window']}'s {b['name']} {b['fitness']} ({b['trades']}) not on the page")
        check("<pre>" not in text.split("Walk-forward windows")[1].split("</section>")[0],
              f"{mode}: the windows are preformatted text, not a table")
    # the verdict first (issue 32): its headline as the JSON's, before the lists and the identity at the bottom
    head = html.unescape(text)
    v = doc.get("verdict", {}).get("headline", "")
    check(v and v in head, f"{mode}: the verdict {v!r} is not on the page")
    check(head.find("<h2>Verdict</h2>") < head.find("<h2>Run</h2>") and head.find("<h2>Verdict</h2>") >= 0
          and head.find("<h2>Run</h2>") > max(head.find("<h2>GA hall of fame"), head.find("<h2>Grid top-K")),
          f"{mode}: the verdict does not open the page, or the identity is not at its bottom")
    if mode != "walk":
        check("Per trading day" in text, f"{mode}: no per-day table")
        # rank 1 and every baseline on one axis (issue 32), drawn and on the page before the lists
        vs = os.path.join(p["dir"], "versus.svg")
        names = ["rank 1"] + [b["name"] for b in doc.get("baselines", [])]
        svg = open(vs).read() if os.path.exists(vs) else ""
        check(svg and all(f">{n}<" in svg for n in names), f"{mode}: versus.svg lacks a series of {names}")
        check(0 <= text.find("Rank 1 and the baselines") < text.find("<h2>Grid top-K") if "Grid top-K" in text
              else 0 <= text.find("Rank 1 and the baselines") < text.find("<h2>GA hall of fame"),
              f"{mode}: versus.svg is not under the verdict")


def report_columns(p):
    """The validate run's terminal report: the JSON's validation columns and a holdout total return."""
    out, doc = p["stdout"], p["json"]
    table = next((t for t in cli.list_tables(out) if "holdout" in t["head"]), {"head": [], "rows": []})
    head = table["head"]
    for col in ("holdout", "plateau", "DSR", "worst_fold", "folds+"):
        check(col in head, f"report: no '{col}' column in {head!r}")
    t = doc["top"][0]
    row = next((r for r in table["rows"] if "rank" in head and r[head.index("rank")] == "1"), [])
    for v in (t["out_of_sample"]["fitness"], t["plateau"]["mean"]):
        check(f"{float(v):.6f}" in row, f"report: rank 1 row {row!r} lacks {v}")
    check("trader statistics on the holdout days" in out and "total %" in out, "report: holdout total return")
    check(f"{float(t['out_of_sample_stats']['total_return']):.4f}" in out, "report: holdout total return value")
    check(f"PBO (probability of backtest overfitting, CSCV): {doc['validation']['pbo']:.4f}" in out, "report: PBO")


PY_TOP = """
import sys, evolve
r = evolve.load_run(sys.argv[1])
t = r.grid_top if r.mode == "validate" else r.top  # the JSON's top of --validate is its grid's
print(t.loc[1, "out_of_sample_fitness"], t.loc[1, "out_of_sample_trades"], t.loc[1, "plateau_mean"],
      t.loc[1, "deflated_sharpe"], t.loc[1, "fold_1_fitness"], t.loc[1, "oos_total_return"])
"""


def python_top(evolve, p):
    """Result.top's out-of-sample columns for rank 1 (Result.grid_top's for --validate, whose JSON top is the
    grid's) equal the JSON's."""
    env = cli.python_env(evolve)
    r = subprocess.run([sys.executable, "-c", PY_TOP, p["run"]], capture_output=True, text=True, env=env,
                       timeout=120)
    if not check(r.returncode == 0, f"Result.top: {r.stderr}"):
        return
    got = [float(x) for x in r.stdout.split()]
    t = p["json"]["top"][0]
    want = [t["out_of_sample"]["fitness"], t["out_of_sample"]["trades"], t["plateau"]["mean"],
            t["deflated_sharpe"], t["folds"][0]["fitness"], t["out_of_sample_stats"]["total_return"]]
    for g, w in zip(got, want):
        check(abs(g - float(w)) <= 1e-9 * max(1.0, abs(float(w))), f"Result.top: {got}, JSON {want}")


def daily_inside(p):
    """daily.svg: every bar between the y axis and the frame's right end, days labelled YYYY-MM-DD."""
    path = os.path.join(p["dir"], "daily.svg")
    with open(path) as f:
        svg = f.read()
    left, right = 92.0, 880.0 - 30.0  # report/chart.c: the plot spans LEFT .. W - 30
    bars = [(float(x), float(w)) for x, w in
            re.findall(r'<rect x="([0-9.-]+)" y="[0-9.-]+" width="([0-9.]+)" height="[0-9.]+" '
                       r'fill="#(?:1f77b4|ff7f0e)"', svg)]
    check(len(bars) >= 6, f"{path}: {len(bars)} bars")
    for x, w in bars:
        check(x >= left and x + w <= right, f"{path}: a bar at [{x}, {x + w}] outside [{left}, {right}]")
    dates = re.findall(r">(\d{4}-\d\d-\d\d)</text>", svg)
    check(len(dates) >= 3, f"{path}: days not labelled by date ({dates})")


def guarded(evolve, p, root):
    """--out FILE: refused before any output; a foreign index.html: refused, unchanged."""
    path = os.path.join(root, "notes.txt")
    with open(path, "w") as f:
        f.write("mine\n")
    r = cli.run(evolve, ["report", p["run"], "--out", path])
    check(r.returncode != 0 and r.stdout == "" and path in r.stderr, f"--out FILE: rc {r.returncode}, "
          f"{len(r.stdout)} bytes printed, {r.stderr!r}")
    d = os.path.join(root, "foreign")
    os.makedirs(d)
    page = os.path.join(d, "index.html")
    with open(page, "w") as f:
        f.write("<html>my page</html>\n")
    r = cli.run(evolve, ["report", p["run"], "--out", d])
    with open(page) as f:
        kept = f.read()
    check(r.returncode != 0 and r.stdout == "" and "index.html" in r.stderr and kept == "<html>my page</html>\n",
          f"foreign index.html: rc {r.returncode}, {r.stderr!r}, now {kept!r}")


def older_file(evolve, p, root):
    """A run file from before the plateau and trade-moment columns: the report still reads it, the rest intact."""
    import h5py
    old = os.path.join(root, "older.h5")
    shutil.copy(p["run"], old)
    with h5py.File(old, "r+") as h:
        for group in ("grid", "ga"):
            v = h[f"{group}/validation"]
            for name in [n for n in v if n.startswith(("plateau_", "trade_"))]:
                del v[name]
    r = cli.run(evolve, ["report", old])
    hold = f"{float(p['json']['top'][0]['out_of_sample']['fitness']):.6f}"
    check(r.returncode == 0 and hold in r.stdout, f"an older run file: rc {r.returncode}: {r.stderr}")


def main():
    a = cli.parse_args()
    with cli.scratch_dir("evolve-report-page-") as root:
        pages = report_pages.make(a.evolve, root, check)
        check(set(pages) == set(report_pages.RUNS), f"pages made: {sorted(pages)}")
        for mode, p in pages.items():
            if not check(os.path.exists(p["page"]), f"{mode}: {p['page']} not written"):
                continue
            with open(p["page"], encoding="utf-8") as f:
                text = f.read()
            page = Page()
            page.feed(text)
            self_contained(mode, text, page)
            shows(mode, p, text, page)
            if mode != "walk":
                top_cells(mode, p["json"], text)
        if "validate" in pages:
            report_columns(pages["validate"])
            python_top(a.evolve, pages["validate"])
            daily_inside(pages["validate"])
            guarded(a.evolve, pages["validate"], root)
            older_file(a.evolve, pages["validate"], root)
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
