#include "ga/local_search.h"

#include <stdlib.h>

/* The best value of the sweep over k1 (and k2, or -1) of n values: the
 * sweep's own best where it has one, else from out's whole array. */
static ev_status sweep_best(const ls_sweep_t *sw, const uint16_t *genes, int32_t k1, int32_t k2, uint64_t n,
                            eval_result_t *out, sweep_best_t *b, ev_error *err)
{
    ev_status st;
    if (sw->ops->best)
        return sw->ops->best(sw, genes, k1, k2, b, err);
    if ((st = k2 < 0 ? sw->ops->gene(sw, genes, k1, out, err) : sw->ops->pair(sw, genes, k1, k2, out, err)) != EV_OK)
        return st;
    sweep_best_of(out, n, b);
    return EV_OK;
}

/* 1-gene moves until none improves: the genes swept cyclically from the
 * first, each moved to its best value when that is strictly better. A gene
 * whose bit is in settled stands at its best given the others (swept since the
 * last move, or the gene that moved): it is not swept again until another gene
 * moves, and every gene settled is a 1-gene peak. The moves are those of whole
 * passes until a pass moves nothing, less the sweeps that cannot move: the
 * genes after the last move, and its own (bench/RESULTS.md "Settled genes"). */
static ev_status climb_genes(const ls_sweep_t *sw, int32_t n_genes, uint16_t *genes, eval_result_t *r,
                             eval_result_t *out, ls_tally_t *tally, uint32_t settled, ev_error *err)
{
    const uint32_t all = (uint32_t)((UINT64_C(1) << n_genes) - 1);
    for (int32_t k = 0; settled != all; k = (k + 1) % n_genes) {
        const uint32_t bit = UINT32_C(1) << k;
        uint32_t n;
        sweep_best_t b;
        ev_status st;
        if (settled & bit)
            continue;
        settled |= bit;
        if ((n = sw->ops->n_values(sw, k)) < 2)
            continue;
        if ((st = sweep_best(sw, genes, k, -1, n, out, &b, err)) != EV_OK)
            return st;
        tally->sweeps++;
        tally->cost += sw->ops->cost(sw, k, -1);
        if (b.key > rank_key(*r)) {
            genes[k] = (uint16_t)b.at;
            *r = b.r;
            tally->moves++;
            settled = bit;
        }
    }
    return EV_OK;
}

/* Pair moves until the first improvement; *moved: the two genes' bits when
 * one was taken, else unchanged. The pairs (k1 < k2: k1 ascending, then k2)
 * are tried cyclically from *next, the pair after the climb's last pair move,
 * which *next then names: a pass after a move first tries the pairs the pass
 * before had not reached (bench/RESULTS.md "Pair passes that go on from the
 * last move"). A pair is p = k1 * n_genes + k2. */
static ev_status pass_pairs(const ls_sweep_t *sw, int32_t n_genes, uint16_t *genes, eval_result_t *r,
                            eval_result_t *out, ls_tally_t *tally, uint32_t *moved, uint32_t *next, ev_error *err)
{
    const uint32_t ng = (uint32_t)n_genes, np = ng * ng;
    for (uint32_t i = 0; i < np; i++) {
        const uint32_t p = (*next + i) % np;
        const int32_t k1 = (int32_t)(p / ng), k2 = (int32_t)(p % ng);
        uint32_t n1, n2;
        sweep_best_t b;
        ev_status st;
        if (k2 <= k1)
            continue;
        n1 = sw->ops->n_values(sw, k1);
        n2 = sw->ops->n_values(sw, k2);
        /* a tables pair that would fall back to plain evaluation (a filter
         * under a drawdown objective) costs n1 x n2 evaluations: skipped */
        if (n1 < 2 || n2 < 2 || (uint64_t)n1 * n2 > LS_PAIR_MAX || !sw->ops->pair_worth(sw, k1, k2))
            continue;
        if ((st = sweep_best(sw, genes, k1, k2, (uint64_t)n1 * n2, out, &b, err)) != EV_OK)
            return st;
        tally->sweeps++;
        tally->cost += sw->ops->cost(sw, k1, k2);
        if (b.key > rank_key(*r)) {
            genes[k1] = (uint16_t)(b.at / n2);
            genes[k2] = (uint16_t)(b.at % n2);
            *r = b.r;
            tally->moves++;
            *moved = UINT32_C(1) << k1 | UINT32_C(1) << k2;
            *next = (p + 1) % np;
            return EV_OK;
        }
    }
    return EV_OK;
}

/* A sweep's results at depth 1 (a gene's values) or 2 (and a pair's, up to
 * LS_PAIR_MAX), in *out; NULL and err set when out of memory. */
static eval_result_t *alloc_out(const ls_sweep_t *sw, int32_t n_genes, uint32_t depth, ev_error *err)
{
    uint64_t most = 1;
    eval_result_t *out;
    for (int32_t k = 0; k < n_genes; k++) {
        uint64_t n = sw->ops->n_values(sw, k);
        if (n > most)
            most = n;
        for (int32_t k2 = k + 1; depth >= 2 && k2 < n_genes; k2++) {
            uint64_t nn = n * sw->ops->n_values(sw, k2);
            if (nn > most && nn <= LS_PAIR_MAX)
                most = nn;
        }
    }
    if (!(out = (eval_result_t *)malloc(most * sizeof *out)))
        ev_fail(err, EV_ENOMEM, "out of memory for local search (%llu values)", (unsigned long long)most);
    return out;
}

ev_status ls_climb(const ls_sweep_t *sw, int32_t n_genes, uint32_t depth, uint16_t *genes, eval_result_t *r,
                   ls_tally_t *tally, ev_error *err)
{
    eval_result_t *out;
    ev_status st = EV_OK;
    ls_sweep_t own;
    sweep_cache_t cache;
    uint32_t next = 0; /* the pair a pair pass starts from (pass_pairs) */
    if (!(out = alloc_out(sw, n_genes, depth, err)))
        return EV_ENOMEM;
    /* tables sweeps of this genome share its exits' columns (fitness/sweep_cache.h) */
    if (sw->t && !sw->cache && sweep_cache_init(&cache, sw->t, NULL) == EV_OK) {
        own = *sw;
        own.cache = &cache;
        sw = &own;
    }
    /* after a pair move its two genes stand at their best given the others:
     * each one's sweep is a row of the pair's */
    for (uint32_t settled = 0;;) {
        if ((st = climb_genes(sw, n_genes, genes, r, out, tally, settled, err)) != EV_OK || depth < 2)
            break;
        settled = 0;
        if ((st = pass_pairs(sw, n_genes, genes, r, out, tally, &settled, &next, err)) != EV_OK || !settled)
            break;
    }
    if (sw == &own)
        sweep_cache_free(&cache);
    free(out);
    return st;
}

ev_status ls_best_move(const ls_sweep_t *sw, int32_t n_genes, uint16_t *genes, eval_result_t *r, ls_tally_t *tally,
                       ev_error *err)
{
    uint64_t best = 0, at_v = 0;
    int32_t at_k = -1, known = 0;
    eval_result_t *out, at_r;
    ev_status st = EV_OK;
    if (!(out = alloc_out(sw, n_genes, 1, err)))
        return EV_ENOMEM;
    for (int32_t k = 0; k < n_genes && st == EV_OK; k++) {
        uint32_t n = sw->ops->n_values(sw, k);
        sweep_best_t b;
        if (n < 2 || (st = sw->ops->gene(sw, genes, k, out, err)) != EV_OK)
            continue;
        tally->sweeps++;
        tally->cost += sw->ops->cost(sw, k, -1);
        if (!known++) { /* the genome is one of the first sweep's values: its result under sw */
            *r = out[genes[k]];
            best = rank_key(*r);
        }
        sweep_best_of(out, n, &b);
        if (b.key > best) {
            best = b.key;
            at_k = k;
            at_v = b.at;
            at_r = b.r;
        }
    }
    if (st == EV_OK && at_k >= 0) {
        genes[at_k] = (uint16_t)at_v;
        *r = at_r;
        tally->moves++;
    }
    free(out);
    return st;
}
