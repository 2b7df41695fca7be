#!/usr/bin/env python3
"""The cost model of docs/scaling.md: predicted time and parallel efficiency of
a sharded grid and of the K-rank GA for K = 1, 8, 64, 512 ranks (one GPU or
CPU node each). Every input is a flag; the defaults are the figures measured
on the development machine for bench/mpi.sh's runs (bench/RESULTS.md) or, where
marked, assumed.

  python3 bench/scaling_model.py [--grid-s G] [--load-s L] ...
"""
import argparse
import math

RANKED_BYTES = 72  # sizeof(ranked_genome_t): one top-K entry sent to rank 0
RESULT_BYTES = 24  # sizeof(eval_result_t): one new genome's result in the GA's exchange
SHARDS_PER_RANK = 16  # dist/mpi_grid.c


def comm_s(nbytes, k, alpha, beta):
    """A collective over k ranks: log2(k) latencies plus the bytes once."""
    return 0.0 if k == 1 else math.log2(k) * alpha + nbytes / beta


def grid(a, k):
    merge_bytes = k * (4 + a.top * RANKED_BYTES + 8 * a.heat_cells + 24)
    tail = a.grid_s / (k * SHARDS_PER_RANK) if k > 1 else 0.0  # the last shard, at most
    shards = a.grid_s / k + tail + SHARDS_PER_RANK * comm_s(8, 2, a.alpha, a.beta)
    return a.load_s + shards + comm_s(merge_bytes, k, a.alpha, a.beta), merge_bytes


def ga(a, k):
    exchange = a.new * RESULT_BYTES
    per_gen = a.host_s + a.eval_s / k + comm_s(exchange, k, a.alpha, a.beta) + comm_s(4, k, a.alpha, a.beta)
    return a.load_s + a.generations * per_gen, exchange


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--grid-s", type=float, default=1.78, help="one device's grid (tables evaluator), s")
    ap.add_argument("--load-s", type=float, default=0.5, help="session open per rank (measured: 0.1-0.5 s + mpirun)")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--heat-cells", type=int, default=126, help="heatmap cells (21 x 6 in bench/mpi.sh)")
    ap.add_argument("--host-s", type=float, default=0.010,
                    help="GA work per generation that is not divided: host work every rank repeats, rank 0's run file")
    ap.add_argument("--eval-s", type=float, default=0.017,
                    help="work per generation the ranks divide: one device's fitness and local search's climbs, s")
    ap.add_argument("--new", type=int, default=1280, help="new genomes per generation")
    ap.add_argument("--generations", type=int, default=30)
    ap.add_argument("--alpha", type=float, default=5e-6, help="network latency, s (assumed)")
    ap.add_argument("--beta", type=float, default=10e9, help="network bandwidth, bytes/s (assumed)")
    a = ap.parse_args()
    print(f"| ranks | grid s | grid efficiency | grid merge bytes | GA s | GA efficiency | GA bytes/generation |")
    print("|---|---|---|---|---|---|---|")
    g1, _ = grid(a, 1)
    h1, _ = ga(a, 1)
    for k in (1, 2, 8, 64, 512):
        gk, gb = grid(a, k)
        hk, hb = ga(a, k)
        print(f"| {k} | {gk:.3g} | {g1 / (k * gk):.0%} | {gb if k > 1 else 0:,} | {hk:.3g} | {h1 / (k * hk):.0%} "
              f"| {hb if k > 1 else 0:,} |")


if __name__ == "__main__":
    main()
