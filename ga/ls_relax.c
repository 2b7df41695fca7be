#include "ga/ls_relax.h"

int ls_relax_init(ls_relaxed_t *out, const ls_sweep_t *sw, uint32_t pct)
{
    int64_t min;
    if (!sw->t)
        return 0;
    min = sw->t->obj.min_trades * (int64_t)pct / 100;
    if (min >= sw->t->obj.min_trades)
        return 0;
    out->t = *sw->t; /* the same arrays: only feasibility differs */
    out->t.obj.min_trades = min;
    out->sw = *sw;
    out->sw.t = &out->t;
    return 1;
}

ev_status ls_climb_relaxed(const ls_sweep_t *relaxed, const ls_sweep_t *sw, int32_t n_genes, uint32_t depth,
                           uint32_t real_depth, uint16_t *genes, eval_result_t *r, ls_tally_t *tally, ev_error *err)
{
    ls_sweep_t lo = *relaxed, hi = *sw;
    sweep_cache_t cache;
    int own = sw->t && !sw->cache && sweep_cache_init(&cache, sw->t, NULL) == EV_OK;
    ev_status st;
    if (own) /* the cache holds the genome's exits and filter rows, whatever min_trades is */
        lo.cache = hi.cache = &cache;
    /* A relaxed peak that keeps the real min_trades is a peak under it too
     * (at depth, so at real_depth <= depth): a neighbour feasible under the
     * real one is so under the relaxed one, with the same value, so the real
     * climb's passes would move nothing. */
    if ((st = ls_climb(&lo, n_genes, depth, genes, r, tally, err)) == EV_OK &&
        !(r->feasible && r->trades >= sw->t->obj.min_trades) &&
        (st = ls_best_move(&hi, n_genes, genes, r, tally, err)) == EV_OK)
        st = ls_climb(&hi, n_genes, real_depth, genes, r, tally, err);
    if (own)
        sweep_cache_free(&cache);
    return st;
}
