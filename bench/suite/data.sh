#!/usr/bin/env bash
# The suite's datasets (bench/suite/README.md), made once into SUITE_DIR
# (default bench/out/suite): gen-data with several seeds, day and trade
# counts (3 trading tickers), and the real NYSE TAQ sample, an optional
# fixture outside the repository (REAL_HF, else ../shared/data/real-hf beside
# the checkout; read in place, never copied): without it s7 and s8 cannot run.
# DATASETS (default all) names the ones to make, e.g. "g21 g25" (no real-hf then).
#   bash bench/suite/data.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
E=${BUILD_DIR:-build}/evolve
S=${SUITE_DIR:-bench/out/suite}
mkdir -p "$S"
wanted() { case " ${DATASETS:-all} " in *" all "* | *" $1 "*) return 0 ;; *) return 1 ;; esac; }
gen() { # name seed days trades [ingest options]
    wanted "$1" || return 0
    [ -f "$S/$1.h5" ] && return
    "$E" gen-data --out "$S/$1" --days "$3" --seed "$2" --trades "$4" --tickers SOXL,IONQ,MARA --quiet
    "$E" ingest --market "$S/$1/market" --trades "$S/$1/all_trade_logs.csv" --tickers SOXL,IONQ,MARA \
        --out "$S/$1.h5" --quiet "${@:5}"
    rm -rf "$S/$1/market" # the dataset holds what the runs read
}
gen g1 1 20 1000
gen g7 7 10 800
gen g11 11 15 1500
# the exit-role lattices (s9..s13): trade logs of issue 34's size, RSI a filter too
gen g21 21 15 4500 --features 'Entry Rsi'
gen g23 23 20 4800 --features 'Entry Rsi'
gen g25 25 15 4500 --features 'Entry Rsi'
if wanted real; then
    R=${REAL_HF:-}
    for up in .. ../.. ../../..; do # the shared folder beside the checkout (a worktree sits deeper)
        [ -n "$R" ] || { [ -f "$up/shared/data/real-hf/all_trade_logs.csv" ] && R=$up/shared/data/real-hf; } || true
    done
    [ -n "$R" ] || { echo "data.sh: no shared/data/real-hf beside the checkout; set REAL_HF" >&2; exit 1; }
    [ -f "$S/real.h5" ] || "$E" ingest --market "$R/market" --trades "$R/all_trade_logs.csv" \
        --tickers ETF,AAA,BBB,XXX --out "$S/real.h5" --quiet
fi
ls -l "$S"/*.h5
