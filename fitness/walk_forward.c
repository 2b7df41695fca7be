#include "fitness/walk_forward.h"

#include <stdlib.h>
#include <string.h>

ev_status wf_windows(int32_t n_days, uint32_t train, uint32_t test, uint32_t step, wf_window_t **out, int32_t *n,
                     ev_error *err)
{
    int64_t count = 0;
    *out = NULL;
    *n = 0;
    if ((int64_t)train + test > n_days)
        return ev_fail(err, EV_ECONFIG,
                       "validation.walk_forward: a window needs train_days + test_days = %llu trading days, the "
                       "data has %d",
                       (unsigned long long)train + test, n_days);
    count = ((int64_t)n_days - train - test) / step + 1;
    if (!(*out = (wf_window_t *)calloc((size_t)count, sizeof **out)))
        return ev_fail(err, EV_ENOMEM, "out of memory");
    for (int64_t w = 0; w < count; w++) {
        int64_t b = w * (int64_t)step;
        (*out)[w].train_begin = (int32_t)b;
        (*out)[w].train_end = (int32_t)(b + train);
        (*out)[w].test_begin = (int32_t)(b + train);
        (*out)[w].test_end = (int32_t)(b + train + test);
    }
    *n = (int32_t)count;
    return EV_OK;
}

ev_status wf_result_alloc(wf_result_t *r, int32_t n, ev_error *err)
{
    size_t m = (size_t)n + 1;
    r->n = n;
    r->winner = (ranked_genome_t *)calloc(m, sizeof *r->winner);
    r->test = (ranked_genome_t *)calloc(m, sizeof *r->test);
    r->train_value = (double *)calloc(m, sizeof *r->train_value);
    r->test_value = (double *)calloc(m, sizeof *r->test_value);
    r->test_stats = (trade_stats_t *)calloc(m, sizeof *r->test_stats);
    r->base = (eval_result_t *)calloc(m * ((size_t)r->n_base + 1), sizeof *r->base);
    r->base_value = (double *)calloc(m * ((size_t)r->n_base + 1), sizeof *r->base_value);
    if (!r->winner || !r->test || !r->train_value || !r->test_value || !r->test_stats || !r->base || !r->base_value)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    return EV_OK;
}

void wf_result_free(wf_result_t *r)
{
    free(r->days);
    free(r->win);
    free(r->winner);
    free(r->test);
    free(r->train_value);
    free(r->test_value);
    free(r->test_stats);
    free(r->base);
    free(r->base_value);
    memset(r, 0, sizeof *r);
}
