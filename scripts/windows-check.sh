#!/usr/bin/env bash
# The Windows build, built and run: the CPU backend, the evolve.exe a trader
# on Windows would run, and every C test, cross-built with MinGW-w64 against
# the libraries of scripts/windows-deps.sh (static: one .exe, no DLLs) and
# executed under Wine; then every host C file, the CUDA backend's host files
# included, compiled for Windows (syntax only), so that a POSIX-only call
# outside common/platform.c fails here rather than on the trader's machine.
# Prints the count of tests run and passed; exits 1 when one fails.
#   WIN_BUILD=build-win  the cross build tree
#   WIN_DEPS=.deps-win   the libraries' cache (scripts/windows-deps.sh)
#   Extra arguments go to ctest (e.g. -R test_config); --build-only alone builds
#   the libraries and the tree and stops (CI builds them ahead, .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
WIN_BUILD=${WIN_BUILD:-build-win}
P=$(bash scripts/windows-deps.sh | tail -1)
export WINEDEBUG=-all WINEPREFIX=${WINEPREFIX:-$(dirname "$P")/wine} EVOLVE_WIN_DEPS=$P
export PKG_CONFIG_LIBDIR=$P/lib/pkgconfig PKG_CONFIG_PATH=

cmake -S . -B "$WIN_BUILD" -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/mingw-w64.cmake -DCMAKE_BUILD_TYPE=Release \
  -DEVOLVE_CUDA=OFF -DEVOLVE_MPI=OFF -DEVOLVE_BENCH=OFF -DEVOLVE_WERROR=ON ${EVOLVE_CMAKE_ARGS:-} >/dev/null
cmake --build "$WIN_BUILD" -j"$(nproc)"
if [ "${1:-}" = --build-only ]; then
  wineserver -k 2>/dev/null || true # (HDF5's type probes ran under Wine: its server is not the tests')
  exit 0
fi

# The C tests (a tests/NAME.exe): ctest runs each under Wine (the toolchain's emulator), every one
# of them; test_fitness_random, the longest (117,085 genomes), takes 37 s of CPU there (15 natively),
# 2 to 3.5 minutes of wall time on a loaded 2-core machine. The Python tests drive a Linux evolve
# and stay with the Linux build; slow and gpu ones are left out.
mapfile -t tests < <(ctest --test-dir "$WIN_BUILD" -N -LE 'slow|gpu' | sed -n 's/^ *Test *#[0-9]*: //p' |
  while read -r t; do [ -f "$WIN_BUILD/tests/$t.exe" ] && echo "$t"; done)
((${#tests[@]})) || { echo "windows-check: no C test built in $WIN_BUILD" >&2; exit 1; }
wineserver -p 2>/dev/null || true # one Wine server for every test, not one start each
# Wine's first program starts its services (services.exe, winedevice.exe, ...), which keep the
# standard output they inherit: started here, they hold /dev/null rather than a test's pipe, which
# ctest would otherwise wait on until its time-out.
wine cmd /c exit >/dev/null 2>&1 </dev/null || true
rc=0
ctest --test-dir "$WIN_BUILD" --output-on-failure -j"$(nproc)" -R "^($(IFS='|'; echo "${tests[*]}"))\$" "$@" |
  tee "$WIN_BUILD/ctest-wine.log" || rc=1
wineserver -k 2>/dev/null || true
summary=$(grep -E 'tests passed, [0-9]+ tests failed out of' "$WIN_BUILD/ctest-wine.log" || echo "no summary")
echo "windows-check: evolve.exe and ${#tests[@]} C tests built for Windows; under Wine: $summary"

# Syntax: the host files the CPU build above leaves out (the CUDA backend's, dist/mpi_*.c and the
# fuzz harnesses, which are Linux-only, excepted).
defs=(-DEVOLVE_SOURCE_DIR='"."' -DEVOLVE_SHARED_DATA='"."' -DYAML_DECLARE_STATIC -DCJSON_HIDE_SYMBOLS)
# (16 files a compiler run, one run a core: each file is its own translation unit all the same)
failed=0
git ls-files -z '*.c' ':!tests/fuzz/*' ':!dist/mpi_*' |
  xargs -0 -n 16 -P "$(nproc)" x86_64-w64-mingw32-gcc -std=c11 -fsyntax-only -fopenmp -Wall -Wextra \
    -Wno-unused-parameter -Werror -I. -I"$WIN_BUILD/generated" -I"$P/include" "${defs[@]}" || failed=1
((failed == 0)) || { echo "windows-check: a C file does not compile for Windows" >&2; exit 1; }
echo "windows-check: $(git ls-files '*.c' ':!tests/fuzz/*' ':!dist/mpi_*' | wc -l) C files compile for Windows (MinGW-w64)"
exit $rc
