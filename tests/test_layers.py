#!/usr/bin/env python3
"""The house rules of layers.txt, checked on the sources and the built objects.

1. Includes: a file in folder F includes "G/..." only for G = F or a folder
   layers.txt lets F use.
2. Symbols: an object of folder F uses (nm's undefined symbols) only symbols
   defined in F or in the folders F may use; this catches a call the wrong way
   made through a hand-written prototype, which no include shows.
3. No file loops: files whose objects use each other's symbols, directly or
   round a longer cycle, are reported; one job per file means one direction.

Usage: test_layers.py --source-dir DIR --build-dir DIR (exit 1 on a breach).
"""
import argparse
import collections
import os
import re
import subprocess
import sys


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


def objects(build, uses):
    """{source path relative to the tree: object path} of every engine library."""
    found = {}
    for folder in uses:
        odir = os.path.join(build, "CMakeFiles", f"evolve_{folder}.dir", folder)
        if not os.path.isdir(odir):
            continue
        for name in os.listdir(odir):
            if name.endswith(".o") or name.endswith(".obj"):
                found[f"{folder}/{name.rsplit('.', 1)[0]}"] = os.path.join(odir, name)
    return found


def symbols(obj):
    out = subprocess.run(["nm", "-P", obj], check=True, capture_output=True, text=True).stdout
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


def symbol_breaches(build, uses):
    objs = objects(build, uses)
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--build-dir", required=True)
    a = ap.parse_args()
    uses = read_layers(os.path.join(a.source_dir, "layers.txt"))
    unknown = {u for us in uses.values() for u in us} - set(uses)
    problems = [f"layers.txt: {u} is used but has no line" for u in sorted(unknown)]
    problems += include_breaches(a.source_dir, uses)
    sym, loops = symbol_breaches(a.build_dir, uses)
    problems += sym
    problems += [f"files use each other in a loop: {c}" for c in loops]
    for p in problems:
        print(p)
    if problems:
        print(f"test_layers: {len(problems)} breach(es) of layers.txt")
        return 1
    print(f"test_layers: {len(uses)} folders, includes, symbols and file loops as layers.txt says")
    return 0


if __name__ == "__main__":
    sys.exit(main())
