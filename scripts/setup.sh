#!/usr/bin/env bash
# Installs evolve's dependencies (Debian/Ubuntu packages) when missing and builds it.
#   BUILD_DIR=build          where to build
#   EVOLVE_CUDA=AUTO|ON|OFF  build the CUDA backend (AUTO: when nvcc is found)
#   CUDA_ARCHS="89;90"       GPU architectures to compile for
#   EVOLVE_CMAKE_ARGS=...    extra CMake arguments
#   BUILD_TARGETS="a b"      build only these targets (default: all; CI's emulated stages: emu_tests)
#   bash scripts/setup.sh --deps-only   installs the packages and stops (CI, before its builds ahead)
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(build-essential cmake ninja-build pkg-config libhdf5-dev hdf5-tools libyaml-dev
          libcjson-dev libxxhash-dev python3 python3-h5py python3-numpy
          python3-pandas python3-pytest python3-matplotlib python3-venv python3-pip
          openmpi-bin libopenmpi-dev)

# A machine without a package registry (the GPU machines) builds against the
# libraries packed by scripts/pack-deps.sh and carried in .deps.
. scripts/deps-env.sh
if [ -n "${EVOLVE_DEPS:-}" ]; then
  echo "setup: using the libraries packed in .deps" >&2
  PACKAGES=()
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    SUDO=sudo
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
[ "${1:-}" != --deps-only ] || exit 0

# nvcc is often installed outside PATH.
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi

BUILD_DIR=${BUILD_DIR:-build}
# Built against .deps: the binaries find its libraries by their run path.
DEPS_ARGS=()
if [ -n "${EVOLVE_DEPS_RPATH:-}" ]; then
  DEPS_ARGS=(-DEVOLVE_DEPS_RPATH="$EVOLVE_DEPS_RPATH")
fi
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DEVOLVE_CUDA="${EVOLVE_CUDA:-AUTO}" -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHS:-89;90}" \
  "${DEPS_ARGS[@]}" ${EVOLVE_CMAKE_ARGS:-} >/dev/null
cmake --build "$BUILD_DIR" -j"$(nproc)" ${BUILD_TARGETS:+--target $BUILD_TARGETS}
