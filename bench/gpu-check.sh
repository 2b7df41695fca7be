#!/usr/bin/env bash
# One command that validates the CUDA code on a machine with a GPU:
#   1. builds the CUDA backend for this GPU (CMAKE_CUDA_ARCHITECTURES=native)
#   2. runs the `gpu` test label (CPU/CUDA parity, Philox vs cuRAND, GA on both)
#   3. runs a small grid (tables and dominance) and a small GA under
#      compute-sanitizer memcheck and racecheck
#   4. runs the GPU benchmarks (grid evaluators, GA generation time)
# and leaves a summary and every log in $OUT (when set) or bench/gpu-check-out.
# Exits non-zero, naming the failed steps, if anything failed. Where no GPU
# exists it fails at once with a clear message. Budget: < 8 minutes on an H100.
#
# The GPU machines have no package registry: on a machine with the packages
# (after scripts/setup.sh), run `bash scripts/pack-deps.sh` and carry `.deps`.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-bench/gpu-check-out}
mkdir -p "$OUT"
SUMMARY="$OUT/summary.txt"
: >"$SUMMARY"
FAILED=()
export PATH="/usr/local/cuda/bin:$PATH"
# Libraries carried in .deps (scripts/pack-deps.sh) where none are installed.
. scripts/deps-env.sh

note() { echo "$*" | tee -a "$SUMMARY"; }
step() { # step NAME LOGFILE COMMAND...: runs it, records PASS/FAIL and the time
  local name=$1 log=$2 t0=$SECONDS rc
  shift 2
  echo "== $name" >&2
  "$@" >"$OUT/$log" 2>&1
  rc=$?
  if ((rc == 0)); then note "PASS  $name ($((SECONDS - t0)) s, log $log)"
  else note "FAIL  $name (exit $rc, $((SECONDS - t0)) s, log $log)"; FAILED+=("$name"); tail -20 "$OUT/$log" >&2; fi
  return $rc
}

if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
  note "FAIL  no NVIDIA GPU found (nvidia-smi -L failed): bench/gpu-check.sh needs a machine with a GPU"
  exit 1
fi
if ! command -v nvcc >/dev/null; then
  note "FAIL  nvcc not found (install the CUDA toolkit or put /usr/local/cuda/bin on PATH)"
  exit 1
fi
note "gpu-check $(date -u +%Y-%m-%dT%H:%M:%SZ), git $(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
note "GPU: $(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | head -1)"
note "CPU: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores"

BUILD=build-gpu
step "build (CUDA, native arch)" build.log bash -c "
  EVOLVE_CUDA=ON CUDA_ARCHS=native BUILD_DIR=$BUILD EVOLVE_CMAKE_ARGS='-DEVOLVE_WERROR=ON' bash scripts/setup.sh" || {
  note "build failed: nothing else can run"; exit 1; }

step "ctest -L gpu" ctest_gpu.log ctest --test-dir "$BUILD" -L gpu --output-on-failure --timeout 300
# A skipped gpu test on a GPU machine is a failure of this check.
if grep -q "Skipped" "$OUT/ctest_gpu.log"; then
  note "FAIL  gpu tests were skipped although a GPU is present"; FAILED+=("gpu tests skipped")
fi
step "ctest (all but slow)" ctest_all.log ctest --test-dir "$BUILD" -LE slow --output-on-failure -j"$(nproc)"

# Small real runs for the sanitizer: a few days of sample data.
DATA="$OUT/data"
rm -rf "$DATA"
step "gen-data (3 days)" gen_data.log "$BUILD/evolve" gen-data --out "$DATA" --days 3 --seed 3 --quiet
cat >"$OUT/check.yaml" <<YAML
data: {market_dir: data/market, trades: data/all_trade_logs.csv, tickers: [SOXL, IONQ, MARA]}
parameters:
  - {name: volatility, feature: Entry Volatility Percent, values: [0.0, 0.3, 0.4, 0.5, 0.6]}
  - {name: ratio, feature: Entry Volatility Ratio, values: [0.0, 0.5, 0.8, 1.0]}
  - {name: adx14, feature: Entry Adx14, values: [0, 20, 30]}
  - {name: target, role: target, values: [0.2, 0.3, 0.4, 0.5]}
  - {name: stop, role: stop, values: [-0.5, -0.4, -0.3]}
objective: {name: total_return, min_trades: 5}
ga: {population: 256, generations: 5, islands: 2}
top: 10
seed: 1
output: check-run.h5
YAML
for tool in memcheck racecheck; do
  step "compute-sanitizer $tool: grid (tables)" "san_${tool}_grid_tables.log" \
    compute-sanitizer --tool "$tool" --error-exitcode 99 "$BUILD/evolve" "$OUT/check.yaml" --grid --backend cuda --evaluator tables --quiet
  step "compute-sanitizer $tool: grid (dominance)" "san_${tool}_grid_dominance.log" \
    compute-sanitizer --tool "$tool" --error-exitcode 99 "$BUILD/evolve" "$OUT/check.yaml" --grid --backend cuda --evaluator dominance --quiet
  step "compute-sanitizer $tool: GA" "san_${tool}_ga.log" \
    compute-sanitizer --tool "$tool" --error-exitcode 99 "$BUILD/evolve" "$OUT/check.yaml" --backend cuda --quiet
done

# CPU and CUDA must print the same results (and both succeed: two identical
# error messages would diff equal).
for mode in "--grid" ""; do
  for be in cpu cuda; do
    step "evolve ${mode:-ga} --backend $be" "$be$mode.txt" "$BUILD/evolve" "$OUT/check.yaml" $mode --backend $be --quiet
  done
  step "CPU == CUDA output (${mode:-ga})" "diff${mode}.log" diff "$OUT/cpu$mode.txt" "$OUT/cuda$mode.txt"
done

step "bench_grid (seed, 1e8, 1.2e9 lattices; 50,000 synthetic trades)" bench_grid.log \
  "$BUILD/bench/bench_grid" --synthetic 50000,250 --lattice seed,1e8,1.2e9 --seconds 10 --csv "$OUT/bench_grid.csv"
step "bench_ga (population 1k..64k x trades 5k..50k)" bench_ga.log \
  "$BUILD/bench/bench_ga" --backend cuda --pop 1024,4096,16384,65536 --trades 5000,50000 --gens 5 --csv "$OUT/bench_ga.csv"
tail -n 12 "$OUT/bench_grid.log" >>"$SUMMARY"
tail -n 10 "$OUT/bench_ga.log" >>"$SUMMARY"

note "total $SECONDS s"
if ((${#FAILED[@]})); then
  note "FAILED: ${FAILED[*]}"
  exit 1
fi
note "ALL PASSED"
