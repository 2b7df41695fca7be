#!/usr/bin/env bash
# Packs evolve's installed library dependencies (headers, shared libraries,
# pkg-config files, and the shared libraries they need in turn) and
# pkg-config itself (pkgconf and libpkgconf) into .deps/root, for a machine
# that has a compiler but no package registry and perhaps no pkg-config (the
# GPU machines): carry .deps there, and scripts/setup.sh builds against it
# (scripts/deps-env.sh). .deps/bin gets two wrappers, pkg-config and h5dump,
# which give the packed programs their libraries through LD_LIBRARY_PATH for
# themselves only. Run it where scripts/setup.sh has installed the packages.
# scripts/hidden-system-build.sh proves a build from .deps alone.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=.deps/root
rm -rf .deps
mkdir -p "$ROOT"

copy() { # copy PATH: keeps the path under $ROOT, following symlinks for files
  mkdir -p "$ROOT$(dirname "$1")"
  cp -aL "$1" "$ROOT$1" 2>/dev/null || true
}

for pkg in libhdf5-dev libyaml-dev libcjson-dev libxxhash-dev; do
  dpkg -L "$pkg" | while read -r f; do
    case "$f" in
      */include/*.h | */include/*/*.h | */include/*/*/*.h | *.pc | *.so) [ -f "$f" ] && copy "$f" ;;
    esac
  done
done
# h5dump: the run-file tests read files with HDF5's own tool; pkgconf: the
# GPU machines may have no pkg-config (its library comes with the closure below).
copy /usr/bin/h5dump
copy "$(readlink -f "$(command -v pkgconf || command -v pkg-config)")"
[ -x "$ROOT/usr/bin/pkgconf" ] || { echo "pack-deps: pkgconf not found (apt-get install pkgconf)" >&2; exit 1; }
# hdf5.pc is an alternatives symlink that dpkg -L does not list.
copy /usr/lib/x86_64-linux-gnu/pkgconfig/hdf5.pc
# Fortran, C++ and high-level HDF5 libraries are not used.
find "$ROOT" \( -name '*fortran*' -o -name '*_cpp*' -o -name '*hl*.so' \) -delete

# Runtime closure of the libraries evolve links, minus the C/C++ runtime
# every machine with a compiler already has.
libs=$(for l in "$ROOT"/usr/lib/x86_64-linux-gnu/*.so "$ROOT"/usr/lib/x86_64-linux-gnu/hdf5/serial/*.so "$ROOT"/usr/bin/*; do
  [ -f "$l" ] && ldd "$l" | awk '$3 ~ /^\// {print $3}'
done | sort -u)
for l in $libs; do
  case "$(basename "$l")" in
    libc.so* | libm.so* | libdl.so* | libpthread.so* | librt.so* | libresolv.so* | libutil.so* | libgcc_s.so* | libstdc++.so* | ld-linux*) ;;
    *) mkdir -p "$ROOT/usr/lib/x86_64-linux-gnu"; cp -L "$l" "$ROOT/usr/lib/x86_64-linux-gnu/$(basename "$l")" ;;
  esac
done
# The SONAMEs evolve records (libhdf5_serial.so.103, ...) must exist too.
for l in "$ROOT"/usr/lib/x86_64-linux-gnu/*.so "$ROOT"/usr/lib/x86_64-linux-gnu/hdf5/serial/*.so; do
  soname=$(objdump -p "$l" 2>/dev/null | awk '/SONAME/ {print $2}')
  [ -n "$soname" ] && [ ! -e "$ROOT/usr/lib/x86_64-linux-gnu/$soname" ] && cp -L "$l" "$ROOT/usr/lib/x86_64-linux-gnu/$soname"
done
# The wrappers: each packed program sees the packed libraries, nothing else does.
mkdir -p .deps/bin
for prog in pkg-config:pkgconf h5dump:h5dump; do
  cat >".deps/bin/${prog%%:*}" <<WRAP
#!/bin/sh
# scripts/pack-deps.sh: the packed ${prog#*:} with the packed libraries, for this program only.
d=\$(cd "\$(dirname "\$0")/../root" && pwd)
LD_LIBRARY_PATH="\$d/usr/lib/x86_64-linux-gnu:\$d/usr/lib/x86_64-linux-gnu/hdf5/serial\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}" \\
  exec "\$d/usr/bin/${prog#*:}" "\$@"
WRAP
  chmod +x ".deps/bin/${prog%%:*}"
done
echo "packed $(du -sh .deps | cut -f1) into .deps (carry it to the GPU machine)"
