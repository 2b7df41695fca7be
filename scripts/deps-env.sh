# Sourced, not run: when the libraries evolve builds against are not installed
# (or no pkg-config is) but were packed into .deps by scripts/pack-deps.sh
# (machines without a package registry, such as the GPU machines), point the
# build at them. Does nothing where the packages and pkg-config are installed.
#
# Only the build sees .deps: pkg-config is .deps/bin/pkg-config (a wrapper
# that gives the packed pkgconf its own library), the build's binaries get a
# run path into .deps (EVOLVE_DEPS_RPATH, passed to CMake by scripts/setup.sh;
# DT_RPATH, so it also serves the libraries' own dependencies), and
# LD_LIBRARY_PATH is left alone: the machine's own tools (python3 and h5py,
# git, nvidia-smi, compute-sanitizer) keep their own libraries. .deps/bin
# holds only pkg-config and h5dump (wrappers).
if [ -d "${EVOLVE_ROOT:-.}/.deps/root" ] &&
  ! { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists hdf5 yaml-0.1 libcjson libxxhash 2>/dev/null; }; then
  EVOLVE_DEPS=$(cd "${EVOLVE_ROOT:-.}/.deps/root" && pwd)
  export EVOLVE_DEPS
  export PKG_CONFIG_SYSROOT_DIR=$EVOLVE_DEPS
  export PKG_CONFIG_LIBDIR=$EVOLVE_DEPS/usr/lib/x86_64-linux-gnu/pkgconfig
  export PKG_CONFIG=$EVOLVE_DEPS/../bin/pkg-config
  export EVOLVE_DEPS_RPATH=$EVOLVE_DEPS/usr/lib/x86_64-linux-gnu:$EVOLVE_DEPS/usr/lib/x86_64-linux-gnu/hdf5/serial
  export PATH=$EVOLVE_DEPS/../bin:$PATH
fi
