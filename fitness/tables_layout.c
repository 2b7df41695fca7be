/* The first-hit tables as one block of memory (fitness/tables_layout.h). */
#include "fitness/tables_layout.h"

#include <string.h>

static uint64_t align_up(uint64_t x)
{
    return (x + 255u) & ~(uint64_t)255u;
}

static int array_present(const fit_tables_t *v, int a)
{
    if (a >= TA_MORE_HIT) {
        const int r = (a - TA_MORE_HIT) % MORE_EXITS;
        return v->more[r].param >= 0 && (a < TA_MORE_LF || v->need_lf);
    }
    if (a == TA_FOLD)
        return v->agg != AGG_ALL;
    return a < TA_LF_T || v->need_lf;
}

void tables_layout_plan(const fit_tables_t *v, int64_t q_t_len, int64_t q_s_len, tables_layout_t *l)
{
    static const uint32_t elem[TA_MORE_HIT] = {2, 4, 4, 8, 8, 8, 8, 8, 8, 1};
    const uint64_t n = (uint64_t)v->n_trades;
    memset(l, 0, sizeof *l);
    memcpy(l->elem, elem, sizeof elem);
    for (int r = 0; r < MORE_EXITS; r++) {
        const uint64_t cells = n * (uint64_t)v->more[r].n;
        l->elem[TA_MORE_HIT + r] = 4;
        l->elem[TA_MORE_Q + r] = 8;
        l->elem[TA_MORE_LF + r] = 8;
        l->count[TA_MORE_HIT + r] = cells;
        l->count[TA_MORE_Q + r] = cells;
        l->count[TA_MORE_LF + r] = v->need_lf ? cells : 0;
    }
    l->count[TA_CELLS] = n * (uint64_t)v->n_filters;
    l->count[TA_HIT_T] = n * (uint64_t)v->n_targets;
    l->count[TA_HIT_S] = n * (uint64_t)v->n_stops;
    l->count[TA_Q_T] = (uint64_t)q_t_len;
    l->count[TA_Q_S] = (uint64_t)q_s_len;
    l->count[TA_Q_LOG] = n;
    l->count[TA_LF_T] = v->need_lf ? (uint64_t)q_t_len : 0;
    l->count[TA_LF_S] = v->need_lf ? (uint64_t)q_s_len : 0;
    l->count[TA_LF_LOG] = v->need_lf ? n : 0;
    l->count[TA_FOLD] = v->agg != AGG_ALL ? n : 0;
    for (int a = 0; a < TA_COUNT; a++) {
        l->offset[a] = l->bytes;
        l->present[a] = (uint8_t)array_present(v, a);
        if (l->present[a])
            l->bytes += align_up(l->count[a] * l->elem[a]);
    }
    if (!l->bytes)
        l->bytes = 256;
}
