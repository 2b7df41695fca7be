#include "fitness/pbo.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int popcount32(uint32_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

ev_status pbo_cscv(const fit_problem_t *p, const fit_tables_t *t, const ranked_genome_t *e, uint32_t m,
                   const int32_t *block, int32_t s_blocks, double *pbo, uint64_t *combos, ev_error *err)
{
    accum_t *a;
    ev_status st;
    *pbo = NAN;
    *combos = 0;
    if (p->obj.need_dd)
        return pbo_refuse_dd(err);
    if (s_blocks < 2 || s_blocks > PBO_MAX_BLOCKS || (s_blocks & 1) || m < 2)
        return EV_OK;
    if (!(a = (accum_t *)calloc((size_t)m * (size_t)s_blocks, sizeof *a)))
        return ev_fail(err, EV_ENOMEM, "out of memory computing the PBO");
    /* every candidate's exact sums per block */
    for (uint32_t i = 0; i < m; i++) {
        tables_genome_t g;
        tables_genome(t, e[i].genes, &g);
        for (int32_t b = 0; b < s_blocks; b++)
            accum_init(&a[(size_t)i * s_blocks + b]);
        for (int64_t jj = 0; jj < t->n_trades; jj++) {
            int32_t b = block[p->order[jj]];
            int64_t q, lf;
            if (b < 0 || !tables_kept(t, jj, &g))
                continue;
            tables_outcome(t, jj, &g.x, &q, &lf);
            accum_add(&a[(size_t)i * s_blocks + b], &p->obj, q, lf);
        }
    }
    st = pbo_of_sums(a, m, s_blocks, &p->obj, pbo, combos, err);
    free(a);
    return st;
}

ev_status pbo_refuse_dd(ev_error *err)
{
    return ev_fail(err, EV_EUSAGE,
                   "PBO: the objective depends on the equity curve's order (calmar or "
                   "max_drawdown_pct), which is not additive over day blocks");
}

ev_status pbo_of_sums(const accum_t *a, uint32_t m, int32_t s_blocks, const objective_prep_t *op, double *pbo,
                      uint64_t *combos, ev_error *err)
{
    uint64_t *oos;
    uint64_t below = 0, n_comb = 0;
    const objective_prep_t o = *op;
    *pbo = NAN;
    *combos = 0;
    if (o.need_dd)
        return pbo_refuse_dd(err);
    if (s_blocks < 2 || s_blocks > PBO_MAX_BLOCKS || (s_blocks & 1) || m < 2)
        return EV_OK;
    if (!(oos = (uint64_t *)malloc((size_t)m * sizeof *oos)))
        return ev_fail(err, EV_ENOMEM, "out of memory computing the PBO");
    for (uint32_t mask = 0; mask < (1u << s_blocks); mask++) {
        uint32_t best = 0, r = 1;
        uint64_t best_key = 0;
        if (popcount32(mask) != s_blocks / 2)
            continue;
        for (uint32_t i = 0; i < m; i++) {
            accum_t in, out;
            uint64_t kin;
            accum_init(&in);
            accum_init(&out);
            for (int32_t b = 0; b < s_blocks; b++)
                accum_merge((mask >> b) & 1u ? &in : &out, &a[(size_t)i * s_blocks + b]);
            kin = rank_key(accum_finish(&in, &o));
            oos[i] = rank_key(accum_finish(&out, &o));
            if (i == 0 || kin > best_key) {
                best = i;
                best_key = kin;
            }
        }
        for (uint32_t i = 0; i < m; i++)
            r += oos[i] < oos[best];
        {
            double w = (double)r / ((double)m + 1.0);
            below += log(w / (1.0 - w)) <= 0.0;
        }
        n_comb++;
    }
    free(oos);
    *combos = n_comb;
    *pbo = n_comb ? (double)below / (double)n_comb : NAN;
    return EV_OK;
}
