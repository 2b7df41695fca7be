#!/usr/bin/env bash
# Compiles every host C file for Windows (MinGW-w64, syntax only) so that a
# POSIX-only call outside common/platform.c, or a broken _WIN32 branch, fails
# here rather than on the trader's machine. The libraries' own headers are
# borrowed from the Linux packages (their APIs are the same on Windows); the
# CUDA files are left to nvcc.
#   BUILD_DIR=build   a configured build tree (for generated/build_info.h)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
CC=x86_64-w64-mingw32-gcc

if ! command -v "$CC" >/dev/null; then
  [ "$(id -u)" = 0 ] || { echo "windows-check: need root to install gcc-mingw-w64-x86-64" >&2; exit 1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc-mingw-w64-x86-64 >/dev/null
fi
[ -f "$BUILD_DIR/generated/build_info.h" ] || { echo "windows-check: configure $BUILD_DIR first" >&2; exit 1; }

inc=$(mktemp -d)
trap 'rm -rf "$inc"' EXIT
hdf5_inc=$(pkg-config --cflags-only-I hdf5 2>/dev/null | sed 's/^-I//; s/ .*//')
for h in "${hdf5_inc:-/usr/include/hdf5/serial}"/*.h /usr/include/yaml.h /usr/include/xxhash.h; do
  ln -s "$h" "$inc/"
done
ln -s /usr/include/cjson "$inc/cjson"
touch "$inc/features.h" # Linux's H5pubconf.h asks for glibc's <features.h>

# The two tests below take paths from CMake definitions.
defs=(-DEVOLVE_SOURCE_DIR='"."' -DEVOLVE_SHARED_DATA='"."')
failed=0
while read -r f; do
  if ! out=$("$CC" -std=c11 -fsyntax-only -fopenmp -Wall -Wextra -Wno-unused-parameter -Werror \
                -I. -I"$BUILD_DIR/generated" -I"$inc" "${defs[@]}" "$f" 2>&1); then
    echo "$out" >&2
    failed=1
  fi
done < <(git ls-files '*.c' ':!tests/fuzz/*' ':!dist/mpi_*') # the fuzz harnesses are Linux-only (libFuzzer);
# dist/mpi_*.c are built only with MPI (EVOLVE_MPI), which the Windows build goes without
((failed == 0)) || { echo "windows-check: failed" >&2; exit 1; }
echo "windows-check: $(git ls-files '*.c' | wc -l) C files compile for Windows (MinGW-w64)"
