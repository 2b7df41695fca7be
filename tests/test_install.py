#!/usr/bin/env python3
"""`cmake --install` into a fresh prefix (issue 33, item 1): what lands there,
and that it works from there alone. The installed `evolve --version` is the
build's; a grid run by the installed command on gen-data's data gives the
top-K the build's command gives; a C program compiled against the installed
header with `pkg-config --cflags --libs evolve` starts without LD_LIBRARY_PATH
and reads the trader's seed lattice (11,340 points = 5*7*3*3*3*4*3); the man
page holds each command's --help as the command prints it. Standard library,
pkg-config and the C compiler."""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))
import evolve_cli as cli  # noqa: E402

check = cli.Checker()

PROGRAM = r"""
#include <evolve.h>
#include <stdio.h>
int main(int argc, char **argv) {
    evolve_ctx *ctx = evolve_ctx_new();
    evolve_lattice *lat = NULL;
    if (evolve_lattice_from_yaml(ctx, argv[1], "soxl", &lat) != 0) {
        fprintf(stderr, "%s\n", evolve_last_error(ctx));
        return 1;
    }
    printf("%s %llu\n", evolve_version(), (unsigned long long)evolve_lattice_size(lat));
    evolve_lattice_close(lat);
    evolve_ctx_free(ctx);
    return argc == 2 ? 0 : 1;
}
"""


def sh(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def installed_files(prefix, build, source):
    """The layout README "Install" promises; the docs are the repository's own."""
    libdir = next((d for d in ("lib", "lib64", "lib/x86_64-linux-gnu") if
                   os.path.exists(os.path.join(prefix, d, "pkgconfig", "evolve.pc"))), None)
    if not check(libdir is not None, f"no lib*/pkgconfig/evolve.pc under {prefix}: {cli.files_under(prefix)}"):
        return None
    for rel in ("bin/evolve", "include/evolve.h", f"{libdir}/libevolve.so", "share/man/man1/evolve.1",
                "share/doc/evolve/README.md", "share/doc/evolve/docs/config.md",
                "share/doc/evolve/results/README.md"):
        check(os.path.exists(os.path.join(prefix, rel)), f"{rel} not installed")
    for rel, src in (("include/evolve.h", "include/evolve.h"), ("share/doc/evolve/README.md", "README.md")):
        p = os.path.join(prefix, rel)
        if os.path.exists(p):
            check(open(p).read() == open(os.path.join(source, src)).read(), f"{rel} differs from {src}")
    man = os.path.join(prefix, "share/man/man1/evolve.1")
    if os.path.exists(man):
        page = open(man).read()
        for cmd in (["--help"], ["ingest", "--help"], ["trades", "--help"]):
            first = sh([os.path.join(build, "evolve")] + cmd).stdout.splitlines()[0]
            check(first.replace("\\", "\\e") in page, f"evolve.1 lacks `evolve {' '.join(cmd)}`'s '{first}'")
    return libdir


def same_grid(installed, built, root):
    """The installed command runs a config as the build's does."""
    data = os.path.join(root, "data")
    r = cli.gen_data(installed, data, ["--days", "2", "--tickers", "SOXL", "--trades", "150"])
    if not check(r.returncode == 0, f"installed gen-data: {r.stderr}"):
        return
    tops = []
    for name, exe in (("installed", installed), ("built", built)):
        cfg = os.path.join(root, name + ".yaml")
        cli.write_config(cfg, data, os.path.join(root, name + ".h5"))
        js = os.path.join(root, name + ".json")
        r = cli.run(exe, [cfg, "--grid", "--quiet", "--json", js], cwd=root)
        if not check(r.returncode == 0, f"{name} evolve --grid: {r.stderr}"):
            return
        tops.append([(t["values"], t["fitness"], t["trades"]) for t in json.load(open(js))["top"]])
    check(len(tops[0]) == 10 and tops[0] == tops[1], f"installed and built top-K differ: {tops}")


def pkg_config_program(prefix, libdir, root, version):
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(prefix, libdir, "pkgconfig"))
    env.pop("LD_LIBRARY_PATH", None)
    # scripts/deps-env.sh's sysroot (a build from .deps) is the packed libraries' root, not this prefix's
    env.pop("PKG_CONFIG_SYSROOT_DIR", None)
    flags = sh(["pkg-config", "--cflags", "--libs", "evolve"], env=env)
    if not check(flags.returncode == 0, f"pkg-config evolve: {flags.stderr}"):
        return
    src, exe = os.path.join(root, "prog.c"), os.path.join(root, "prog")
    open(src, "w").write(PROGRAM)
    cc = [os.environ.get("CC", "cc"), "-std=c11", src, "-o", exe] + flags.stdout.split()
    # a sanitized libevolve wants the sanitizer's runtime first in the program
    if "libasan" in sh(["ldd", os.path.join(prefix, libdir, "libevolve.so")]).stdout:
        cc.append("-fsanitize=address,undefined")
    r = sh(cc, env=env)
    if not check(r.returncode == 0, f"{' '.join(cc)}: {r.stderr}"):
        return
    r = sh([exe, cli.SOXL_PARAMETERS], env=env, cwd="/")
    check(r.returncode == 0 and r.stdout == f"{version} 11340\n",
          f"the program on the installed libevolve: exit {r.returncode}, {r.stdout!r} {r.stderr}"
          f" (want '{version} 11340')")


def main():
    args = cli.parse_args()
    built = os.path.abspath(args.evolve)
    build = os.path.dirname(built)
    if not shutil.which("pkg-config") or not shutil.which(os.environ.get("CC", "cc")):
        print("SKIP: needs pkg-config and a C compiler")
        return 77
    with cli.scratch_dir("evolve-install-") as root:
        prefix = os.path.join(root, "prefix")
        r = sh(["cmake", "--install", build, "--prefix", prefix])
        if not check(r.returncode == 0, f"cmake --install: {r.stdout}{r.stderr}"):
            return check.exit()
        libdir = installed_files(prefix, build, args.source_dir)
        installed = os.path.join(prefix, "bin", "evolve")
        want = sh([built, "--version"]).stdout
        got = sh([installed, "--version"], cwd=root)
        check(got.returncode == 0 and got.stdout == want and want.startswith("evolve "),
              f"installed --version: {got.stdout!r}, the build's: {want!r}")
        same_grid(installed, built, root)
        if libdir:
            pkg_config_program(prefix, libdir, root, want.split()[1])
    return check.exit()


if __name__ == "__main__":
    sys.exit(main())
