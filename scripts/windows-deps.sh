#!/usr/bin/env bash
# Cross-builds the libraries evolve needs for Windows x64 (static, MinGW-w64)
# from Debian's own source packages (HDF5 1.10.8, libyaml, cJSON, xxHash; zlib
# is Debian's libz-mingw-w64-dev), for scripts/windows-check.sh. Debian
# packages none of them for MinGW. HDF5's build runs its type probes (H5detect)
# under Wine. A cache: a library already in the prefix is not built again.
#   WIN_DEPS=.deps-win   the cache: src/ (source packages), <lib>-build/, prefix/
#                        (include/, lib/*.a, lib/pkgconfig/*.pc with Windows flags)
#   WIN_DEPS_CMAKE_ARGS  more CMake arguments for HDF5 (e.g. a compiler launcher)
# Prints the prefix on its last line.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
W=$(realpath -m "${WIN_DEPS:-.deps-win}")
P=$W/prefix
export WINEDEBUG=-all WINEPREFIX=${WINEPREFIX:-$W/wine} EVOLVE_WIN_DEPS=$P

need=()
command -v x86_64-w64-mingw32-gcc >/dev/null || need+=(gcc-mingw-w64-x86-64)
command -v wine >/dev/null || need+=(wine64)
[ -f /usr/x86_64-w64-mingw32/lib/libz.a ] || need+=(libz-mingw-w64-dev)
if ((${#need[@]})); then
  [ "$(id -u)" = 0 ] || { echo "windows-deps: need root to install ${need[*]}" >&2; exit 1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

# The source packages of the Linux libraries evolve builds against, through apt with
# a private deb-src list (the machine's own apt configuration is left alone).
fetch() {
  mkdir -p "$W/src/lists/partial"
  if [ ! -f "$W/src/sources.list" ]; then
    # The machine's own Debian mirror and release (its first main archive), as a deb-src line.
    local uri suite
    uri=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -1)
    suite=$(sed -n 's/^Suites: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1)
    if [ -z "$uri" ]; then
      read -r uri suite < <(awk '$1 == "deb" && $0 !~ /security/ {print $2, $3; exit}' /etc/apt/sources.list)
    fi
    [ -n "$uri" ] && [ -n "$suite" ] || { echo "windows-deps: no Debian archive in the machine's apt sources" >&2; exit 1; }
    echo "deb-src $uri $suite main" >"$W/src/sources.list"
  fi
  local apt=(apt-get -qq -o Dir::Etc::SourceList="$W/src/sources.list" -o Dir::Etc::SourceParts=/dev/null
             -o Dir::State::Lists="$W/src/lists")
  if ! ls "$W/src"/*.dsc >/dev/null 2>&1; then
    "${apt[@]}" update
    (cd "$W/src" && "${apt[@]}" source --download-only hdf5 libyaml cjson xxhash 2>/dev/null)
  fi
  local t
  for t in "$W"/src/*.orig.tar.gz; do
    [ -d "$W/src/$(tar tzf "$t" | head -1 | cut -d/ -f1)" ] || tar xzf "$t" -C "$W/src"
  done
}

CC=x86_64-w64-mingw32-gcc
AR=x86_64-w64-mingw32-ar
pc() { # name, version, libs, cflags
  mkdir -p "$P/lib/pkgconfig"
  printf 'prefix=%s\nName: %s\nDescription: %s for Windows (scripts/windows-deps.sh)\nVersion: %s\nLibs: -L${prefix}/lib %s\nCflags: -I${prefix}/include %s\n' \
    "$P" "$1" "$1" "$2" "$3" "$4" >"$P/lib/pkgconfig/$1.pc"
}

# One C library as a static archive of its sources: cJSON and xxHash (one file each), libyaml.
archive() { # lib name, source dir, cflags, sources...
  local name=$1 dir=$2 cflags=$3 o=()
  shift 3
  mkdir -p "$W/$name-build" "$P/lib"
  for s in "$@"; do
    o+=("$W/$name-build/$(basename "$s" .c).o")
    $CC -O2 $cflags -I"$dir" -c "$dir/$s" -o "${o[-1]}"
  done
  $AR rcs "$P/lib/lib$name.a" "${o[@]}"
}

fetch
mkdir -p "$P/include/cjson"
if [ ! -f "$P/lib/libcjson.a" ]; then
  d=$(ls -d "$W"/src/cJSON-*/)
  archive cjson "$d" -DCJSON_HIDE_SYMBOLS cJSON.c
  cp "$d/cJSON.h" "$P/include/cjson/"
fi
pc libcjson 1.7.15 -lcjson -DCJSON_HIDE_SYMBOLS
if [ ! -f "$P/lib/libxxhash.a" ]; then
  d=$(ls -d "$W"/src/xxHash-*/)
  archive xxhash "$d" "" xxhash.c
  cp "$d/xxhash.h" "$P/include/"
fi
pc libxxhash 0.8.1 -lxxhash ""
if [ ! -f "$P/lib/libyaml.a" ]; then
  d=$(ls -d "$W"/src/libyaml-*/)
  v=0.2.5
  archive yaml "$d/src" "-DYAML_DECLARE_STATIC -I$d/include -DYAML_VERSION_MAJOR=0 -DYAML_VERSION_MINOR=2
    -DYAML_VERSION_PATCH=5 -DYAML_VERSION_STRING=\"$v\"" api.c dumper.c emitter.c loader.c parser.c reader.c \
    scanner.c writer.c
  cp "$d/include/yaml.h" "$P/include/"
fi
pc yaml-0.1 0.2.5 -lyaml -DYAML_DECLARE_STATIC

# HDF5 with its CMake build: the C library only, static, with zlib (deflate); -O0 -w compiles its
# 300 files in 0.73 times -O1's CPU (half of -O3's), and the tests' HDF5 work is tenths of a second
# either way (bench/RESULTS.md "CI time, second cut"); its own warnings were never read.
if [ ! -f "$P/lib/libhdf5.a" ]; then
  d=$(ls -d "$W"/src/hdf5-*/)
  # HDF5 1.10 includes <sys/wait.h> wherever unistd.h exists (MinGW has the one, not the other) and
  # uses none of it; a probe writes its answer to a file that Wine's run leaves in the working
  # directory, not where HDF5 reads it: seeded there, and configured from $W (not the checkout).
  mkdir -p "$W/shim/sys" "$W/hdf5-build"
  : >"$W/shim/sys/wait.h"
  [ -f "$W/hdf5-build/pac_Cconftest.out" ] || printf '21;0;' >"$W/hdf5-build/pac_Cconftest.out"
  if [ ! -f "$W/hdf5-build/build.ninja" ]; then
    (cd "$W" && cmake -S "$d" -B "$W/hdf5-build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/mingw-w64.cmake" \
      -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="-O0 -DNDEBUG -w" -DCMAKE_INSTALL_PREFIX="$P" \
      -DCMAKE_C_FLAGS="-I$W/shim" ${WIN_DEPS_CMAKE_ARGS:-} \
      -DBUILD_SHARED_LIBS=OFF -DONLY_SHARED_LIBS=OFF -DBUILD_TESTING=OFF -DHDF5_BUILD_TOOLS=OFF \
      -DHDF5_BUILD_EXAMPLES=OFF -DHDF5_BUILD_HL_LIB=OFF -DHDF5_BUILD_FORTRAN=OFF -DHDF5_BUILD_CPP_LIB=OFF \
      -DHDF5_BUILD_JAVA=OFF -DHDF5_ENABLE_Z_LIB_SUPPORT=ON -DHDF5_ENABLE_SZIP_SUPPORT=OFF >"$W/hdf5-build.log")
  fi
  cmake --build "$W/hdf5-build" -j"$(nproc)" >>"$W/hdf5-build.log"
  cmake --install "$W/hdf5-build" >>"$W/hdf5-build.log"
fi
pc hdf5 1.10.8 "-lhdf5 -lz -lws2_32 -lwsock32" ""
echo "$P"
