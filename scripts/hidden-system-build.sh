#!/usr/bin/env bash
# Proves that evolve builds and runs from .deps alone (scripts/pack-deps.sh),
# as on a bare GPU machine without a package registry or pkg-config: in a
# private mount namespace (unshare -m; needs root) it hides the system's
# pkg-config (pkgconf, libpkgconf, every pkgconfig folder), the headers and
# the libraries of HDF5, libyaml, cJSON, xxHash and szip/aec, then
#   1. builds evolve from a clean build folder (scripts/setup.sh; CPU only
#      unless EVOLVE_CUDA is set: the CUDA toolkit is not hidden),
#   2. checks that the binary's libraries resolve into .deps (its run path)
#      and that the machine's own tools (git, python3, curl) keep their own
#      libraries: nothing is put on LD_LIBRARY_PATH,
#   3. runs evolve: --version, doctor (exit 3 without a GPU), gen-data, a GA
#      run, a grid run, report, the C unit tests that use a library of .deps (below: the others run
#      in CI's first and ASan stages, linked the same way) and tests/test_install.py (cmake --install,
#      pkg-config and a C program).
# Nothing outside the namespace changes; the build goes to $BUILD_DIR
# (default /tmp/evolve-hidden-build), removed first. Its output is recorded
# in bench/RESULTS.md ("Build from .deps alone").
#   PACK=1              run scripts/pack-deps.sh first (default: when .deps is missing)
#   EVOLVE_CMAKE_ARGS   more CMake arguments for the build (CI: -DEVOLVE_WERROR=ON, as its
#                       first build, so that ccache serves the files that see no library header)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-/tmp/evolve-hidden-build}
[ "$(id -u)" = 0 ] || { echo "hidden-system-build: needs root (unshare -m and mounts)" >&2; exit 1; }
command -v unshare >/dev/null || { echo "hidden-system-build: needs unshare (util-linux)" >&2; exit 1; }
if [ "${PACK:-}" = 1 ] || [ ! -d .deps/root ]; then
  bash scripts/pack-deps.sh
fi
rm -rf "$BUILD_DIR"

exec unshare -m --propagation private env BUILD_DIR="$BUILD_DIR" EVOLVE_CUDA="${EVOLVE_CUDA:-OFF}" bash -c '
set -euo pipefail
hidden=0
hide_dir() { [ -d "$1" ] && mount -t tmpfs -o size=1m,mode=755 evolve-hidden "$1" && hidden=$((hidden + 1)) || true; }
hide_file() { [ -e "$1" ] && mount --bind /dev/null "$1" && hidden=$((hidden + 1)) || true; }
# pkg-config
for f in /usr/bin/pkg-config /usr/bin/pkgconf /usr/bin/x86_64-linux-gnu-pkg-config /usr/bin/x86_64-linux-gnu-pkgconf \
         /usr/lib/x86_64-linux-gnu/libpkgconf.so*; do hide_file "$f"; done
for d in /usr/lib/x86_64-linux-gnu/pkgconfig /usr/share/pkgconfig /usr/lib/pkgconfig /usr/local/lib/pkgconfig; do
  hide_dir "$d"
done
# headers
for d in /usr/include/hdf5 /usr/include/cjson; do hide_dir "$d"; done
for f in /usr/include/yaml.h /usr/include/xxhash.h /usr/include/xxh3.h /usr/include/szlib.h /usr/include/libaec.h \
         /usr/include/H5*.h /usr/include/hdf5*.h; do hide_file "$f"; done
# libraries (the HDF5 tools too: h5cc would let CMake find HDF5 another way)
hide_dir /usr/lib/x86_64-linux-gnu/hdf5
for f in /usr/lib/x86_64-linux-gnu/libhdf5* /usr/lib/x86_64-linux-gnu/libyaml* /usr/lib/x86_64-linux-gnu/libcjson* \
         /usr/lib/x86_64-linux-gnu/libxxhash* /usr/lib/x86_64-linux-gnu/libsz* /usr/lib/x86_64-linux-gnu/libaec* \
         /usr/bin/h5cc /usr/bin/h5pcc /usr/bin/h5dump /usr/bin/h5ls; do hide_file "$f"; done
echo "== hidden: $hidden system files and folders (pkg-config, headers and libraries of HDF5, libyaml, cJSON, xxHash, szip/aec)"
if pkg-config --version >/dev/null 2>&1; then echo "FAIL: the system pkg-config still runs"; exit 1; fi
if [ -s /usr/include/yaml.h ] || ls /usr/include/hdf5/serial/hdf5.h >/dev/null 2>&1; then
  echo "FAIL: system headers still visible"; exit 1
fi
echo "   system pkg-config: $(pkg-config --version 2>&1 | head -1)"

echo "== build from .deps (EVOLVE_CUDA=$EVOLVE_CUDA, $BUILD_DIR)"
t0=$SECONDS
# MPI is not packed into .deps (the GPU machines have none): the build goes without it
if ! EVOLVE_CMAKE_ARGS="-DEVOLVE_BENCH=OFF -DEVOLVE_MPI=OFF ${EVOLVE_CMAKE_ARGS:-}" bash scripts/setup.sh >"$BUILD_DIR.log" 2>&1; then
  tail -30 "$BUILD_DIR.log"; echo "FAIL: the build from .deps failed (log $BUILD_DIR.log)"; exit 1
fi
grep -E "^setup:" "$BUILD_DIR.log" | sed "s/^/   /" || true
echo "   built in $((SECONDS - t0)) s"

echo "== libraries of evolve (run path into .deps, no LD_LIBRARY_PATH: ${LD_LIBRARY_PATH:-unset})"
readelf -d "$BUILD_DIR/evolve" | grep -E "RPATH|RUNPATH" | sed "s#$PWD#.#g; s/^ */   /"
ldd "$BUILD_DIR/evolve" | grep -E "hdf5|yaml|cjson|xxhash|libsz|libaec|not found" | sed "s#$PWD#.#g; s/^\t/   /"
if ldd "$BUILD_DIR/evolve" | grep -E "hdf5|yaml|cjson|xxhash|libsz|libaec" | grep -v "/.deps/root/" | grep -q .; then
  echo "FAIL: a library of evolve resolves outside .deps"; exit 1
fi
echo "== the machine'"'"'s own tools keep their own libraries (after sourcing scripts/deps-env.sh)"
. scripts/deps-env.sh
for tool in git python3 curl; do
  p=$(command -v $tool || true)
  [ -n "$p" ] || continue
  libs=$(ldd "$p" 2>/dev/null || true)
  if echo "$libs" | grep -q "/.deps/"; then echo "FAIL: $tool would load a library from .deps"; exit 1; fi
  echo "   $tool ($p): $(echo "$libs" | grep -c "=> /") shared libraries, none from .deps; $($tool --version 2>&1 | head -1 | cut -c1-60)"
done
echo "   pkg-config is $(command -v pkg-config | sed "s#$PWD#.#"): pkgconf $(pkg-config --version), hdf5 $(pkg-config --modversion hdf5)"

echo "== run"
E=$BUILD_DIR/evolve
W=$(mktemp -d)
trap "rm -rf $W" EXIT
$E --version
set +e
$E doctor >"$W/doctor.txt"; rc=$?
set -e
echo "   evolve doctor: exit $rc ($(tail -1 "$W/doctor.txt" | sed "s/^verdict: *//"))"
$E gen-data --out "$W/data" --days 2 --tickers SOXL --trades 150 --quiet
sed -e "s#\.\./data/sample#$W/data#; s#\.\./results/#$W/#" configs/soxl.yaml >"$W/soxl.yaml"
$E "$W/soxl.yaml" --quiet --output "$W/ga.h5" | head -3
$E "$W/soxl.yaml" --grid --quiet --output "$W/grid.h5" | head -3
$E report "$W/grid.h5" --out "$W/report" >/dev/null 2>&1 && echo "   report: $(ls "$W/report" | wc -l) file(s) written"
# Each library .deps provides, through a C unit test that uses it (the Python ones, label python, need
# numpy and the system h5py, whose HDF5 is hidden here): HDF5 written and read back (test_dataset_h5, its
# large arrays chunked and deflated: the zlib filter of HDF5; test_ga_snapshot, the checkpoint;
# test_run_provenance, the run file), libyaml (test_config: every field and the example configs), xxHash
# (the content hash of test_dataset_h5, the ingest key of test_hash_memo), cJSON (test_output_paths:
# output_check_json), OpenMP (test_ls_threads: climbs at 1, 2, 4 and 8 threads, the same run). The runs
# above use them all once more; the other C unit tests run in the first and ASan stages of CI.
DEPS_TESTS="test_dataset_h5|test_ga_snapshot|test_run_provenance|test_config|test_hash_memo|test_output_paths|test_ls_threads"
echo "== C unit tests of the libraries of .deps (${DEPS_TESTS//|/, })"
ctest --test-dir "$BUILD_DIR" -R "^($DEPS_TESTS)\$" -j"$(nproc)" \
  2>&1 | grep -E "tests passed|tests failed|Failed|\*\*\*" | sed "s/^/   /"
IFS="|" read -ra deps_tests <<<"$DEPS_TESTS"; n_deps_tests=${#deps_tests[@]}
if [ "$(ctest --test-dir "$BUILD_DIR" -N -R "^($DEPS_TESTS)\$" | grep -c "Test *#")" != "$n_deps_tests" ]; then
  echo "FAIL: not all $n_deps_tests C unit tests of the libraries of .deps are registered"; exit 1
fi
echo "== cmake --install from this build and a C program against it (tests/test_install.py)"
ctest --test-dir "$BUILD_DIR" -R "^test_install$" --output-on-failure 2>&1 | grep -E "tests passed|tests failed|Failed|FAIL|error" | sed "s/^/   /"
echo "== PASS: evolve builds and runs from .deps alone"
'
