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
- `evolve report` on the validate run prints the holdout, plateau, DSR and
  fold columns the JSON has, and the holdout statistics a total-return
  column; Python's Result.top holds the same out-of-sample columns;
- daily.svg keeps every bar inside its frame and labels days by date;
- `report --out FILE` refuses a file before printing anything, and a foreign
  index.html in the folder is refused and left as it was;
- a validation written before the plateau and trade-moment columns existed
  still reads.
"""
import html
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
    head = next((ln for ln in out.splitlines() if ln.startswith("rank") and "holdout" in ln), "")
    for col in ("holdout", "plateau", "DSR", "worst_fold", "folds+"):
        check(col in head, f"report: no '{col}' column in {head!r}")
    t = doc["top"][0]
    row = next((ln for ln in out.splitlines()
                if ln.split()[:1] == ["1"] and "holdout" not in ln and "searches" not in ln), "")
    for v in (t["out_of_sample"]["fitness"], t["plateau"]["mean"]):
        check(f"{float(v):.6f}" in row, f"report: rank 1 row {row!r} lacks {v}")
    check("trader statistics on the holdout days" in out and "total %" in out, "report: holdout total return")
    check(f"{float(t['out_of_sample_stats']['total_return']):.4f}" in out, "report: holdout total return value")
    check(f"PBO (probability of backtest overfitting, CSCV): {doc['validation']['pbo']:.4f}" in out, "report: PBO")


PY_TOP = """
import sys, evolve
t = evolve.load_run(sys.argv[1]).top
print(t.loc[1, "out_of_sample_fitness"], t.loc[1, "out_of_sample_trades"], t.loc[1, "plateau_mean"],
      t.loc[1, "deflated_sharpe"], t.loc[1, "fold_1_fitness"], t.loc[1, "oos_total_return"])
"""


def python_top(evolve, p):
    """Result.top's out-of-sample columns for rank 1 equal the JSON's."""
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
        if "validate" in pages:
            report_columns(pages["validate"])
            python_top(a.evolve, pages["validate"])
            daily_inside(pages["validate"])
            guarded(a.evolve, pages["validate"], root)
            older_file(a.evolve, pages["validate"], root)
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
