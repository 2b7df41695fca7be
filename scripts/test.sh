#!/usr/bin/env bash
# Sets everything up and runs the test suite (everything but the `slow` label;
# `gpu` tests skip where no GPU exists). Extra arguments go to ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
BUILD_DIR=${BUILD_DIR:-build}
ctest --test-dir "$BUILD_DIR" --output-on-failure -LE slow -j"$(nproc)" "$@"
