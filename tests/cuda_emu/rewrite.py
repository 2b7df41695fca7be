#!/usr/bin/env python3
"""The CUDA syntax host C++ lacks, rewritten for the emulation layer.

    rewrite.py --source-dir DIR --out-dir OUT [--line-base BUILD] FILE...

Each FILE (relative to DIR: the .cu and .cuh files of kernels/ and tests/)
is written to OUT/FILE (a .cu gets .cpp appended) with the same line
numbers and a #line naming the original, so every report points at the
source: by its path relative to BUILD when given (the build folder, where
Ninja runs the compiler: a copy of the sources built in a folder of the
same name then gets the same text, which a compiler cache serves), else
absolute. Two constructs change:
  name<<<grid, block>>>(args)  ->  ::emu::Launcher(__FILE__, __LINE__, "name",
                                   bounds, grid, block).run(name, args)
      bounds: the kernel's __launch_bounds__ (found in any FILE), else 0;
  __shared__ T a[N];           ->  a per-block buffer of poison bytes
                                   (::emu::shared, tests/cuda_emu/include/cuda_emu/device.h).
Anything else with <<< or __shared__ is an error: the layer must not fall behind."""
import argparse
import os
import re
import sys

LAUNCH = re.compile(r"(?P<name>[A-Za-z_]\w*(?:\s*<[^<>;()]*>)?)\s*<<<(?P<cfg>.*?)>>>\s*\(", re.S)
BOUNDS = re.compile(r"__launch_bounds__\s*\((?P<b>[^)]*)\)\s*(?P<name>[A-Za-z_]\w*)\s*\(", re.S)
SHARED = re.compile(r"__shared__\s+(?P<type>[^;\[]+?)\s+(?P<name>[A-Za-z_]\w*)\s*(?P<dims>(?:\[[^\]]+\])+)\s*;")


def newlines(text):
    return "\n" * text.count("\n")


def rewrite(text, bounds):
    def launch(m):
        name = m.group("name")
        base = re.match(r"\w+", name).group(0)
        rest = text[m.end():].lstrip()
        sep = "" if rest.startswith(")") else ", "
        return '::emu::Launcher(__FILE__, __LINE__, "%s", %s, %s).run(%s%s%s' % (
            base, bounds.get(base, "0"), " ".join(m.group("cfg").split()), name, sep, newlines(m.group(0)))

    def shared(m):
        name = m.group("name")
        return ('static ::emu::SharedSlot emu_slot_%s{"%s"}; auto &%s = ::emu::shared<%s %s>(emu_slot_%s, '
                "__FILE__, __LINE__);%s" % (name, name, name, m.group("type"), m.group("dims"), name,
                                           newlines(m.group(0))))

    text = LAUNCH.sub(launch, text)
    return SHARED.sub(shared, text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source-dir", required=True)
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--line-base")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    texts = {}
    bounds = {}
    for f in a.files:
        with open(os.path.join(a.source_dir, f), encoding="utf-8") as fh:
            texts[f] = fh.read()
        for m in BOUNDS.finditer(texts[f]):
            bounds[m.group("name")] = m.group("b").strip()
    bad = 0
    for f, text in texts.items():
        out = rewrite(text, bounds)
        for i, line in enumerate(out.split("\n"), 1):
            code = line.split("//")[0]
            if "<<<" in code or re.search(r"\b__shared__\b", code):
                print("%s:%d: a launch or __shared__ the emulation cannot rewrite" % (f, i), file=sys.stderr)
                bad = 1
        src = os.path.abspath(os.path.join(a.source_dir, f))
        if a.line_base:
            src = os.path.relpath(src, a.line_base)
        dst = os.path.join(a.out_dir, f + (".cpp" if f.endswith(".cu") else ""))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        body = '#line 1 "%s"\n%s' % (src, out)
        old = None
        if os.path.exists(dst):
            with open(dst, encoding="utf-8") as fh:
                old = fh.read()
        if old != body:
            with open(dst, "w", encoding="utf-8") as fh:
                fh.write(body)
    return bad


if __name__ == "__main__":
    sys.exit(main())
