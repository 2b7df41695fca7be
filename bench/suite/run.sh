#!/usr/bin/env bash
# Runs the suite (bench/suite/README.md): every lattice of
# bench/suite/lattices.tsv (or those named in LATTICES), SEEDS seeds each,
# with ga.time_budget_s BUDGET and the extra ga: lines GA_EXTRA, into
# SUITE_DIR/ARM; then prints each lattice's hit rate against
# bench/suite/best_known.tsv (the tune and the holdout half apart).
#   bash bench/suite/run.sh ARM [SEEDS [BUDGET [GA_EXTRA]]]   (default 10 2 "")
# FIRST_SEED (default 1) numbers the seeds; EVALS=N runs on max_evaluations N
# instead of a time budget (reproducible); SUMMARY_ONLY=1 only prints.
# METHOD picks the search (the same budget units: evaluations + ls_evaluations,
# or wall seconds): evolve (the default: the GA of the config), climb (random
# restarts of the exact sweeps, bench/bench_climb.c; run_climb.sh) or deap
# (bench/suite/deap_arm.py in the bench venv VENV, default bench/out/venv;
# DEAP_ARGS are its options, e.g. '--algo mupluslambda'). GA_EXTRA is evolve's only.
# BUILD_DIR (default build: from the repository's root, or an absolute path)
# holds evolve; SUITE_DIR (default bench/out/suite) the datasets (data.sh).
set -euo pipefail
cd "$(dirname "$0")/../.."
ARM=$1
SEEDS=${2:-10}
BUDGET=${3:-2}
EXTRA=${4:-}
B=${BUILD_DIR:-build}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
E=$B/evolve
S=$(cd "${SUITE_DIR:-bench/out/suite}" && pwd)
W=$S/$ARM
mkdir -p "$W"
LIMIT="time_budget_s: $BUDGET"
[ -n "${EVALS:-}" ] && LIMIT="max_evaluations: $EVALS"
ARGS=(--seconds "$BUDGET")
[ -n "${EVALS:-}" ] && ARGS=(--evals "$EVALS")
METHOD=${METHOD:-evolve}
case $METHOD in
evolve) ;;
climb) C=$B/bench/bench_climb ;;
deap)
    PY=$(cd "${VENV:-bench/out/venv}" && pwd)/bin/python
    export EVOLVE_LIBRARY=$B/libevolve.so PYTHONPATH=$(pwd)/python
    ;;
*) echo "run.sh: METHOD is evolve, climb or deap, not '$METHOD'" >&2; exit 2 ;;
esac
if [ -z "${SUMMARY_ONLY:-}" ]; then
    grep -v '^#' bench/suite/lattices.tsv | while IFS=$'\t' read -r name half data genes what; do
        case " ${LATTICES:-$name} " in *" $name "*) ;; *) continue ;; esac
        for s in $(seq "${FIRST_SEED:-1}" $((${FIRST_SEED:-1} + SEEDS - 1))); do
            cfg=$W/$name-$s.yaml out=$W/$name-$s.h5
            sed -e "s|DATA|$S/$data.h5|" -e "s|OUT|$out|" "bench/suite/$name.yaml" >"$cfg"
            printf 'ga:\n  %s\n' "$LIMIT" >>"$cfg"
            [ -n "$EXTRA" ] && printf '%b\n' "$EXTRA" | sed 's/^/  /' >>"$cfg"
            rm -f "$out" "$out.partial" "$out.partial.ckpt"
            T=() # the wall time where /usr/bin/time is installed (a bare machine may lack it)
            [ -x /usr/bin/time ] && T=(/usr/bin/time -f "%e" -o "$W/$name-$s.time")
            case $METHOD in
            evolve) "${T[@]}" "$E" "$cfg" --seed "$s" --quiet --json "$W/$name-$s.json" >/dev/null ;;
            climb) "${T[@]}" "$C" "$cfg" --seed "$s" "${ARGS[@]}" >"$W/$name-$s.json" ;;
            deap) "${T[@]}" "$PY" bench/suite/deap_arm.py "$cfg" --seed "$s" "${ARGS[@]}" ${DEAP_ARGS:-} \
                >"$W/$name-$s.json" ;;
            esac
            rm -f "$out"
        done
    done
fi
${PYTHON:-python3} bench/suite/summary.py "$S" "$ARM"
