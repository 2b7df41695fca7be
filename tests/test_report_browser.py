#!/usr/bin/env python3
"""evolve report's HTML page in a real browser: headless Chromium (Debian's
`chromium`, installed by .ci/run) opens the page of a GA, a grid, a validate
and a walk-forward run (tests/support/report_pages.py), with every host name
resolving nowhere, and for each:

- takes a screenshot: a PNG of exactly the window's size (kept beside the
  test as report-page-MODE.png, the CI artefact);
- dumps the DOM after the scripts ran: it holds rank 1's fitness and trades
  as the JSON reported them (the top-K table's text) and, where the run has
  them, the baselines' names;
- logs nothing on the console: no script error, no resource that failed to
  load (a page that fetched anything would, the network being cut off).
- prints to PDF on A4 pages (the page's @page rule).

Without Chromium the test skips (77), which EVOLVE_TESTS_NO_SKIP (CI) makes
a failure.
"""
import html
import json
import os
import re
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402
import report_pages  # noqa: E402

check = cli.Checker()
WIDTH, HEIGHT = 1280, 2000


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def browse(browser, profile, page, args, size=(WIDTH, HEIGHT)):
    """browser on file://page with args; (returncode, stdout, stderr)."""
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
           "--disable-background-networking", "--host-resolver-rules=MAP * ~NOTFOUND", "--enable-logging=stderr",
           "--v=0", f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}"] + args + ["file://" + page]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    return r.returncode, r.stdout, r.stderr


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def console(stderr):
    return [ln for ln in stderr.splitlines() if ":CONSOLE" in ln]


# Measures the page as laid out, into the DOM (a copy of the page carries it): where the verdict's headline
# and table end, and every visible table wider than its box (a horizontal scroll).
GEOMETRY = """<script>window.addEventListener('load',function(){
var r={},h=document.querySelector('#verdict .headline'),t=document.querySelector('table.verdict');
r.headline=h?h.getBoundingClientRect().bottom:-1;r.table=t?t.getBoundingClientRect().bottom:-1;
r.page=document.documentElement.scrollWidth;r.scrolls=[];
document.querySelectorAll('.wide').forEach(function(d){if(d.closest('details'))return;
if(d.scrollWidth>d.clientWidth+1)r.scrolls.push((d.previousElementSibling||d.parentNode).textContent.slice(0,40));});
document.body.setAttribute('data-geometry',JSON.stringify(r));});</script>"""


def diff_text(d):
    """A difference as the verdict prints it (fitness/verdict.c verdict_num, signed)."""
    d = float(d)
    return f"{d:+.3g}" if d != 0 and (abs(d) < 0.01 or abs(d) >= 1e7) else f"{d:+.2f}"


def first_screen(browser, root, mode, p):
    """The page at 1280 x 800: its screenshot (report-first-screen-MODE.png) shows the verdict's headline and
    its table of differences (laid out above 800 px), and no table of the page scrolls sideways."""
    profile = os.path.join(root, "profile-first-" + mode)
    shot = os.path.abspath(f"report-first-screen-{mode}.png")
    size = (1280, 800)
    rc, _, err = browse(browser, profile, p["page"], [f"--screenshot={shot}"], size)
    check(rc == 0 and png_size(shot) == size, f"{mode}: first screen: rc {rc}, {png_size(shot)}: {err[-800:]}")
    probe = os.path.join(p["dir"], "geometry.html")
    with open(p["page"]) as f:
        page = f.read()
    with open(probe, "w") as f:
        f.write(page.replace("</body>", GEOMETRY + "</body>"))
    rc, dom, err = browse(browser, profile, probe, ["--dump-dom"], size)
    os.remove(probe)
    m = re.search(r'data-geometry="([^"]*)"', dom)
    if not check(rc == 0 and m, f"{mode}: no geometry measured: rc {rc}: {err[-800:]}"):
        return
    g = json.loads(html.unescape(m.group(1)))
    v = p["json"]["verdict"]
    check(html.escape(v["headline"], quote=False) in dom or v["headline"] in html.unescape(dom),
          f"{mode}: the verdict's headline is not in the DOM")
    check(0 <= g["headline"] <= size[1] and 0 <= g["table"] <= size[1],
          f"{mode}: the verdict ends below the first screen: headline {g['headline']}, table {g['table']} px")
    check(g["page"] <= size[0] and not g["scrolls"], f"{mode}: wider than {size[0]} px: page {g['page']}, "
          f"tables that scroll: {g['scrolls']}")
    table = dom[dom.find('class="verdict"'):]
    table = table[:table.find("</table>")]
    for part in v["parts"]:
        for name, b in part["baselines"].items():
            check(diff_text(b["difference"]) in table, f"{mode}: {part['part']}: rank 1 - {name} "
                  f"{diff_text(b['difference'])} not in the verdict's table")


def check_page(browser, root, mode, p):
    profile = os.path.join(root, "profile-" + mode)
    shot = os.path.abspath(f"report-page-{mode}.png")
    if os.path.exists(shot):
        os.remove(shot)
    rc, _, err = browse(browser, profile, p["page"], [f"--screenshot={shot}"])
    check(rc == 0 and os.path.exists(shot), f"{mode}: screenshot: rc {rc}: {err[-2000:]}")
    if os.path.exists(shot):
        check(png_size(shot) == (WIDTH, HEIGHT), f"{mode}: screenshot {png_size(shot)}, want {(WIDTH, HEIGHT)}")
    check(not console(err), f"{mode}: console: {console(err)[:5]}")
    rc, dom, err = browse(browser, profile, p["page"], ["--dump-dom"])
    check(rc == 0 and "</html>" in dom, f"{mode}: --dump-dom: rc {rc}: {err[-2000:]}")
    check(not console(err), f"{mode}: console: {console(err)[:5]}")
    fit, trades = report_pages.top_rows(p["json"])
    check(f"<td>{fit}</td><td>{trades}</td>" in dom or (mode == "walk" and fit in dom and trades in dom),
          f"{mode}: rank 1's {fit} over {trades} trades not in the DOM")
    for b in p["json"].get("baselines", []):
        check(f"<td>{b['name']}</td>" in dom, f"{mode}: baseline {b['name']} not in the DOM")
    pdf = os.path.join(root, mode + ".pdf")
    rc, _, err = browse(browser, profile, p["page"], ["--no-pdf-header-footer", f"--print-to-pdf={pdf}"])
    boxes = re.findall(rb"/MediaBox \[0 0 ([0-9.]+) ([0-9.]+)\]", open(pdf, "rb").read()) if rc == 0 else []
    a4 = [b for b in boxes if abs(float(b[0]) - 595.3) < 2 and abs(float(b[1]) - 841.9) < 2]
    check(boxes and len(a4) == len(boxes), f"{mode}: PDF pages {boxes[:3]}, want A4 (rc {rc}: {err[-500:]})")
    check(not console(err), f"{mode}: console while printing: {console(err)[:5]}")


def main():
    a = cli.parse_args()
    browser = chromium()
    if not browser:
        print("test_report_browser: skipped: no chromium (apt-get install chromium)")
        return 77
    with cli.scratch_dir("evolve-report-browser-") as root:
        pages = report_pages.make(a.evolve, root, check)
        check(set(pages) == set(report_pages.RUNS), f"pages made: {sorted(pages)}")
        for mode, p in pages.items():
            check_page(browser, root, mode, p)
            first_screen(browser, root, mode, p)
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
