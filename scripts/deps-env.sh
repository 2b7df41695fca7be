# Sourced, not run: when the libraries evolve builds against are not installed
# but were packed into .deps by scripts/pack-deps.sh (machines without a
# package registry, such as the GPU machines), point pkg-config, the dynamic
# loader and PATH at them. Does nothing where the packages are installed.
if [ -d "${EVOLVE_ROOT:-.}/.deps/root" ] && ! pkg-config --exists hdf5 yaml-0.1 libcjson libxxhash 2>/dev/null; then
  EVOLVE_DEPS=$(cd "${EVOLVE_ROOT:-.}/.deps/root" && pwd)
  export EVOLVE_DEPS
  export PKG_CONFIG_SYSROOT_DIR=$EVOLVE_DEPS
  export PKG_CONFIG_LIBDIR=$EVOLVE_DEPS/usr/lib/x86_64-linux-gnu/pkgconfig
  export LD_LIBRARY_PATH=$EVOLVE_DEPS/usr/lib/x86_64-linux-gnu:$EVOLVE_DEPS/usr/lib/x86_64-linux-gnu/hdf5/serial${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export PATH=$EVOLVE_DEPS/usr/bin:$PATH
fi
