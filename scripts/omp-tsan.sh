#!/usr/bin/env bash
# The GA's OpenMP loops under ThreadSanitizer (CI; docs/ga.md "Local search",
# Threads): local search's climbs in threads (test_ls_threads, which runs
# 2, 4 and 8 threads) and the CPU GA's loops (test_ga_run, test_ga_stop),
# built with clang -fsanitize=thread against LLVM's OpenMP runtime with its
# Archer tool, which tells TSan what OpenMP's barriers and locks order. GCC's
# libgomp cannot be seen through (the emulated-CUDA TSan build runs its CPU
# side on one thread for that reason, tests/CMakeLists.txt); the runtime's
# own accesses are not instrumented and are ignored. Any report fails.
#   bash scripts/omp-tsan.sh            (BUILD_DIR, default build-omp-tsan)
#   bash scripts/omp-tsan.sh --build-only  the build alone (CI builds it ahead, .ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD_DIR:-build-omp-tsan}
TESTS=(test_ls_threads test_ga_run test_ga_stop)

# clang, LLVM's libomp and libarcher beside it (Debian: clang libomp-dev).
archer() {
  command -v clang >/dev/null || return 1
  ARCHER=$(dirname "$(readlink -f "$(command -v clang)")")/../lib/libarcher.so
  [ -f "$ARCHER" ]
}
if ! archer && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "omp-tsan: installing clang and LLVM's OpenMP runtime (Archer)" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libomp-dev >/dev/null
fi
if ! archer; then
  echo "omp-tsan: needs clang and LLVM's OpenMP runtime with libarcher.so (Debian: apt-get install clang libomp-dev)" >&2
  exit 1
fi

cmake -S . -B "$BUILD" -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEVOLVE_CUDA=OFF \
  -DEVOLVE_MPI=OFF -DEVOLVE_BENCH=OFF -DCMAKE_C_FLAGS=-fsanitize=thread \
  -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=thread >/dev/null
grep -q '^OpenMP_C_FLAGS:.*libomp' "$BUILD/CMakeCache.txt" || {
  echo "omp-tsan: clang found no OpenMP (libomp) in $BUILD: nothing would run in threads" >&2
  exit 1
}
cmake --build "$BUILD" --target "${TESTS[@]}" -j"${JOBS:-$(nproc)}"
[ "${1:-}" != --build-only ] || exit 0
for t in "${TESTS[@]}"; do
  echo "omp-tsan: $t"
  OMP_NUM_THREADS=4 OMP_TOOL_LIBRARIES=$ARCHER TSAN_OPTIONS="ignore_noninstrumented_modules=1 halt_on_error=1" \
    "$BUILD/tests/$t"
done
