#!/usr/bin/env bash
# Fails when a tracked C or CUDA file differs from .clang-format's layout.
# With --fix, rewrites them instead. clang-format is installed when missing
# (Debian's, as on CI), so CI and a developer's machine format alike.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang-format >/dev/null; then
  [ "$(id -u)" = 0 ] || { echo "format-check: need root to install clang-format" >&2; exit 1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang-format >/dev/null
fi
mapfile -t files < <(git ls-files '*.c' '*.h' '*.cu' '*.cuh' '*.cpp')
if [ "${1:-}" = --fix ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
if ! clang-format --dry-run --Werror "${files[@]}" 2>/tmp/format-check.$$; then
  grep -E '^[^ ].*: (error|warning):' /tmp/format-check.$$ | cut -d: -f1 | sort -u | sed 's/^/  /' >&2
  rm -f /tmp/format-check.$$
  echo "format-check: the files above differ from .clang-format; run: bash scripts/format-check.sh --fix" >&2
  exit 1
fi
rm -f /tmp/format-check.$$
echo "format-check: ${#files[@]} files as .clang-format lays them out ($(clang-format --version | grep -o 'version [0-9.]*'))"
