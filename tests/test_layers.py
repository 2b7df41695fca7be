#!/usr/bin/env python3
"""The house rules of layers.txt, checked on the sources and the built objects.

1. Includes: a file in folder F includes "G/..." only for G = F or a folder
   layers.txt lets F use.
2. Symbols: an object of folder F uses (nm's undefined symbols) only symbols
   defined in F or in the folders F may use; this catches a call the wrong way
   made through a hand-written prototype, which no include shows.
3. No file loops: files whose objects use each other's symbols, directly or
   round a longer cycle, are reported; one job per file means one direction.
4. Declarations: a function defined in F/X.c (a global text symbol of its
   object) is declared in F/X.h and in no other header of the engine, so a
   prototype is found where its file's name says. The only exceptions are
   the module headers of SHARED_HEADERS: one interface whose functions are
   defined in the several files listed with it.

Usage: test_layers.py --source-dir DIR --build-dir DIR (exit 1 on a breach).
"""
import argparse
import collections
import functools
import os
import re
import subprocess
import sys


# Headers that declare the functions of several .c files: one interface split
# into files by job. A function of a listed file may be declared in its
# module header instead of (or as well as) its own X.h. Keep the lists exact:
# a file that is gone, or a header, is reported.
SHARED_HEADERS = {
    # the run file's API, written, read and navigated by separate files
    "archive/run_file.h": ["archive/run_lattice.c", "archive/run_object.c", "archive/run_ranked.c",
                           "archive/run_read.c", "archive/run_write.c"],
    # archive/'s internal helpers between those files
    "archive/run_internal.h": ["archive/run_lattice.c", "archive/run_object.c", "archive/run_provenance.c"],
    # the commands main.c dispatches to, one file each
    "cli/commands.h": ["cli/cmd_doctor.c", "cli/cmd_gen_data.c", "cli/cmd_ingest.c", "cli/cmd_report.c",
                       "cli/cmd_run.c"],
    # the signal commands, one file each
    "cli/cmd_signals.h": ["cli/cmd_bars.c", "cli/cmd_trades.c"],
    # the run modes, one file each
    "runs/modes.h": ["runs/mode_follow.c", "runs/mode_ga.c", "runs/mode_grid.c", "runs/mode_validate.c"],
    # the MPI job's interface: one file per job with MPI, one stub without
    "dist/dist.h": ["dist/dist_single.c", "dist/mpi_ga.c", "dist/mpi_grid.c", "dist/mpi_world.c"],
    # the CPU GA state's ops: state in cpu_ga.c, evaluate and rank in their own files
    "ga/cpu_ga.h": ["ga/cpu_ga_evaluate.c", "ga/cpu_ga_rank.c"],
    # ga_run's steps between its files: state, generation, decisions, climbs, checkpoints
    "ga/ga_run_internal.h": ["ga/ga_run_climbs.c", "ga/ga_run_decide.c", "ga/ga_run_generation.c",
                             "ga/ga_run_snapshot.c", "ga/ga_run_state.c"],
    # the generator's options beside the generator
    "gendata/gen_data.h": ["gendata/gen_options.c"],
    # the config loader's sections, one file each
    "io/config_internal.h": ["io/config_lattice.c", "io/config_report.c", "io/config_search.c",
                             "io/config_validation.c", "io/config_baseline.c"],
    # the dataset file, read and written by separate files
    "io/dataset_h5.h": ["io/dataset_h5_read.c", "io/dataset_h5_write.c"],
    # HDF5 helpers: row tables in their own file
    "io/h5_util.h": ["io/h5_rows.c"],
    # the trade ingester's internal steps
    "io/trades_internal.h": ["io/trades_place.c"],
    # libevolve's public header (outside the folders): the API, defined in lib/'s files
    "include/evolve.h": ["lib/lib_core.c", "lib/lib_data.c", "lib/lib_replay.c", "lib/lib_run.c",
                         "lib/lib_runfile.c"],
    # the report: loading, plots and the summary
    "report/report.h": ["report/report_load.c", "report/report_plots.c", "report/report_summary.c"],
}

# Headers outside the folders that declare engine functions: libevolve's
# public header (its functions are defined in lib/).
PUBLIC_HEADERS = ["include/evolve.h"]


def read_layers(path):
    uses = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^([a-z]+):(.*)$", line)
            if m:
                uses[m.group(1)] = set(m.group(2).split())
    return uses


def include_breaches(src, uses):
    breaches = []
    pattern = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/')
    for folder in uses:
        fdir = os.path.join(src, folder)
        for name in sorted(os.listdir(fdir)):
            if not re.search(r"\.(c|h|cu|cuh)$", name):
                continue
            with open(os.path.join(fdir, name), encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    m = pattern.match(line)
                    if not m:
                        continue
                    target = m.group(1)
                    if target in uses and target != folder and target not in uses[folder]:
                        breaches.append(f"{folder}/{name}:{n}: includes {target}/ "
                                        f"(layers.txt lets {folder} use: {' '.join(sorted(uses[folder])) or 'nothing'})")
    return breaches


def objects(build, uses, src):
    """{source path relative to the tree: object path} of every engine library
    (not the stale objects of sources since removed)."""
    found = {}
    for folder in uses:
        odir = os.path.join(build, "CMakeFiles", f"evolve_{folder}.dir", folder)
        if not os.path.isdir(odir):
            continue
        for name in os.listdir(odir):
            source = f"{folder}/{name.rsplit('.', 1)[0]}"
            if (name.endswith(".o") or name.endswith(".obj")) and os.path.exists(os.path.join(src, source)):
                found[source] = os.path.join(odir, name)
    return found


@functools.lru_cache(maxsize=None)
def nm(obj):
    """nm -P's output for obj (read once: both checks below read every object)."""
    return subprocess.run(["nm", "-P", obj], check=True, capture_output=True, text=True).stdout


def symbols(obj):
    out = nm(obj)
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefined.add(name)
        elif kind.isupper():  # global: text, data, bss, read-only, weak, common
            defined.add(name)
    return defined, undefined


def strongly_connected(graph):
    """Tarjan's components of more than one node (iterative)."""
    index, low, on, stack, comps, counter = {}, {}, set(), [], [], [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    advanced = True
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == node:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))
    return comps


def symbol_breaches(src, build, uses):
    objs = objects(build, uses, src)
    if not objs:
        return [f"no engine objects under {build}/CMakeFiles: build first"], []
    defs, undefs = {}, {}
    for src, obj in objs.items():
        defs[src], undefs[src] = symbols(obj)
    owner = {}
    for src, names in defs.items():
        for name in names:
            owner.setdefault(name, src)
    graph = collections.defaultdict(set)
    breaches = []
    for src in sorted(objs):
        graph[src]
        folder = src.split("/")[0]
        for name in sorted(undefs[src]):
            dst = owner.get(name)
            if dst is None or dst == src:
                continue
            graph[src].add(dst)
            target = dst.split("/")[0]
            if target != folder and target not in uses[folder]:
                breaches.append(f"{src} uses {name} of {dst} ({target}/ is not below {folder}/)")
    loops = [" -> ".join(c) for c in strongly_connected(graph)]
    return breaches, loops


def strip_c(text):
    """C text without comments, string literals and preprocessor lines."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    return re.sub(r"(?m)^[ \t]*#.*(?:\\\n.*)*$", " ", text)


DECL_KEYWORDS = {"return", "if", "else", "while", "for", "do", "switch", "case", "goto", "sizeof"}


def declares(text, name):
    """1 when stripped header text declares function `name`: `name (` whose
    statement starts with nothing but type words and stars (a call in an
    inline body has an =, a keyword or a bracket before it)."""
    for m in re.finditer(r"\b" + re.escape(name) + r"\s*\(", text):
        start = max(text.rfind(c, 0, m.start()) for c in ";{}")
        prefix = text[start + 1:m.start()]
        words = re.findall(r"[A-Za-z_]\w*", prefix)
        if words and re.fullmatch(r"[\w\s*]*", prefix) and not DECL_KEYWORDS & set(words):
            return 1
    return 0


def declaration_breaches(src, build, uses):
    breaches = []
    headers = {}
    for folder in uses:
        for name in sorted(os.listdir(os.path.join(src, folder))):
            if re.search(r"\.(h|cuh)$", name):
                with open(os.path.join(src, folder, name), encoding="utf-8") as f:
                    headers[f"{folder}/{name}"] = strip_c(f.read())
    for public in PUBLIC_HEADERS:
        with open(os.path.join(src, public), encoding="utf-8") as f:
            headers[public] = strip_c(f.read())
    shared = collections.defaultdict(set)
    for header, files in SHARED_HEADERS.items():
        if header not in headers:
            breaches.append(f"test_layers.py SHARED_HEADERS: {header} does not exist")
        for c in files:
            if not os.path.isfile(os.path.join(src, c)):
                breaches.append(f"test_layers.py SHARED_HEADERS: {c} (under {header}) does not exist")
            shared[c].add(header)
    # the names each header has before a "(": only those can be declared there (declares' own pattern)
    called = {h: set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", text)) for h, text in headers.items()}
    for c, obj in sorted(objects(build, uses, src).items()):
        if not c.endswith(".c"):
            continue  # .cu files: their C interface is kernels/cuda_api.h, the rest ga_device.cuh
        out = nm(obj)
        funcs = sorted({p[0] for p in (line.split() for line in out.splitlines()) if len(p) > 1 and p[1] == "T"})
        own = c[:-2] + ".h"
        allowed = {own} | shared[c]
        for fn in funcs:
            where = sorted(h for h, text in headers.items() if fn in called[h] and declares(text, fn))
            if not set(where) & allowed:
                breaches.append(f"{c} defines {fn}, declared in {', '.join(where) or 'no header'}, not in {own}")
            for h in where:
                if h not in allowed:
                    breaches.append(f"{h} declares {fn} of {c} (declare it in {own} only)")
    return breaches


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--build-dir", required=True)
    a = ap.parse_args()
    uses = read_layers(os.path.join(a.source_dir, "layers.txt"))
    unknown = {u for us in uses.values() for u in us} - set(uses)
    problems = [f"layers.txt: {u} is used but has no line" for u in sorted(unknown)]
    problems += include_breaches(a.source_dir, uses)
    sym, loops = symbol_breaches(a.source_dir, a.build_dir, uses)
    problems += sym
    problems += [f"files use each other in a loop: {c}" for c in loops]
    problems += declaration_breaches(a.source_dir, a.build_dir, uses)
    for p in problems:
        print(p)
    if problems:
        print(f"test_layers: {len(problems)} breach(es) of layers.txt")
        return 1
    print(f"test_layers: {len(uses)} folders, includes, symbols and file loops as layers.txt says; "
          "every function declared in the header named after its file")
    return 0


if __name__ == "__main__":
    sys.exit(main())
