/* Packed chunks of prepared genomes (signals/strategy_pack.h). */
#include "signals/strategy_pack.h"

#include <stdlib.h>
#include <string.h>

/* The distinct buffers, found by address: open addressing over a power of two. */
typedef struct {
    const void **key;
    uint32_t *idx;
    uint64_t mask;
} addr_set_t;

static uint64_t addr_hash(const void *p)
{
    uint64_t z = (uint64_t)(uintptr_t)p;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int set_init(addr_set_t *h, uint64_t most)
{
    uint64_t cap = 16;
    while (cap < 2 * most)
        cap *= 2;
    h->mask = cap - 1;
    h->key = (const void **)calloc((size_t)cap, sizeof *h->key);
    h->idx = (uint32_t *)malloc((size_t)cap * sizeof *h->idx);
    return h->key && h->idx;
}

/* The buffer index of p, adding it (at *n) when new. */
static uint32_t set_index(addr_set_t *h, const void *p, uint32_t *n, int *added)
{
    uint64_t at = addr_hash(p) & h->mask;
    while (h->key[at] && h->key[at] != p)
        at = (at + 1) & h->mask;
    *added = !h->key[at];
    if (*added) {
        h->key[at] = p;
        h->idx[at] = (*n)++;
    }
    return h->idx[at];
}

void strategy_pack_free(strategy_pack_t *pk)
{
    free(pk->genome);
    free(pk->slot_off);
    free(pk->params);
    free((void *)pk->buf);
    free(pk->buf_bytes);
    free(pk->buf_off);
    memset(pk, 0, sizeof *pk);
}

static int pack_alloc(strategy_pack_t *pk, uint64_t slots)
{
    pk->genome = (uint64_t *)malloc((size_t)pk->count * sizeof *pk->genome + 1);
    pk->slot_off = (uint64_t *)malloc((size_t)slots * sizeof *pk->slot_off + 1);
    pk->params = (unsigned char *)malloc((size_t)pk->count * pk->params_bytes + 1);
    pk->buf = (const void **)malloc((size_t)slots * sizeof *pk->buf + 1);
    pk->buf_bytes = (uint64_t *)malloc((size_t)slots * sizeof *pk->buf_bytes + 1);
    pk->buf_off = (uint64_t *)malloc((size_t)slots * sizeof *pk->buf_off + 1);
    return pk->genome && pk->slot_off && pk->params && pk->buf && pk->buf_bytes && pk->buf_off;
}

ev_status strategy_pack_build(strategy_pack_t *pk, strategy_t *s, const uint16_t *genes, uint64_t n,
                              const uint64_t *which, uint32_t count, ev_error *err)
{
    const strategy_ops_t *ops = strategy_ops(s);
    const void *state = strategy_state(s);
    const int32_t np = strategy_n_params(s), ns = ops->n_slots;
    const uint64_t slots = (uint64_t)count * (uint64_t)ns;
    const void *view[256];
    addr_set_t set;
    ev_status st = EV_OK;
    memset(pk, 0, sizeof *pk);
    memset(&set, 0, sizeof set);
    pk->n_bars = ops->n_bars(state);
    pk->kind = ops->device_kind;
    pk->n_slots = ns;
    pk->params_bytes = ops->params_bytes;
    pk->count = count;
    if (ns > (int32_t)(sizeof view / sizeof view[0]))
        return ev_fail(err, EV_EINTERNAL, "strategy %s: %d series slots (at most 256)", ops->name, ns);
    if (!pack_alloc(pk, slots) || !set_init(&set, slots)) {
        st = ev_fail(err, EV_ENOMEM, "out of memory packing %u genomes for the device", count);
        goto done;
    }
    for (uint32_t g = 0; g < count; g++) {
        uint16_t gg[EV_MAX_PARAMS];
        for (int32_t k = 0; k < np; k++)
            gg[k] = genes[(uint64_t)k * n + which[g]];
        pk->genome[g] = which[g];
        if (!ops->device_view(state, gg, view, pk->params + (size_t)g * pk->params_bytes)) {
            st = ev_fail(err, EV_EINTERNAL, "strategy %s: genome %llu of the batch was not prepared", ops->name,
                         (unsigned long long)which[g]);
            goto done;
        }
        for (int32_t k = 0; k < ns; k++) {
            int added;
            uint32_t b = set_index(&set, view[k], &pk->n_bufs, &added);
            if (added) {
                const uint64_t bytes = ops->slot_bytes(state, k);
                pk->buf[b] = view[k];
                pk->buf_bytes[b] = bytes;
                pk->buf_off[b] = pk->arena_bytes;
                pk->arena_bytes += (bytes + STRATEGY_PACK_ALIGN - 1) / STRATEGY_PACK_ALIGN * STRATEGY_PACK_ALIGN;
            }
            pk->slot_off[(uint64_t)g * (uint64_t)ns + (uint64_t)k] = pk->buf_off[b];
        }
    }
done:
    free((void *)set.key);
    free(set.idx);
    if (st != EV_OK)
        strategy_pack_free(pk);
    return st;
}

/* Genomes which[0 .. m) packed and run in jobs of at most r->batch, their
 * fitness from the outcomes and entry bars by the CPU's function. */
static ev_status run_jobs(strategy_packed_runner_t *r, strategy_t *s, const strategy_score_t *sc, const uint16_t *genes,
                          uint64_t n, const uint64_t *which, uint64_t m, eval_result_t *out, ev_error *err)
{
    uint64_t j = 0;
    while (j < m) {
        const uint64_t most = r->batch < UINT32_MAX ? r->batch : UINT32_MAX;
        const uint64_t take = m - j < most ? m - j : most;
        int64_t *counts = (int64_t *)malloc((size_t)take * sizeof *counts + 1);
        double *pct = NULL;
        int64_t *bar = NULL;
        strategy_pack_t pk;
        uint64_t at = 0, smaller;
        ev_status st;
        if (!counts)
            return ev_fail(err, EV_ENOMEM, "out of memory for a job of %llu genomes", (unsigned long long)take);
        if ((st = strategy_pack_build(&pk, s, genes, n, which + j, (uint32_t)take, err)) != EV_OK) {
            free(counts);
            return st;
        }
        st = r->run(r, &pk, counts, &pct, &bar, err);
        strategy_pack_free(&pk);
        if (st == EV_ENOMEM && r->smaller && (smaller = r->smaller(r, take)) != 0) {
            free(counts);
            r->batch = smaller;
            continue;
        }
        if (st != EV_OK) {
            free(counts);
            free(pct);
            free(bar);
            return st;
        }
        r->jobs++;
        for (uint64_t g = 0; g < take; g++) {
            out[which[j + g]] = strategy_result(s, sc, pct ? pct + at : NULL, bar ? bar + at : NULL, counts[g]);
            at += (uint64_t)counts[g];
        }
        free(counts);
        free(pct);
        free(bar);
        j += take;
    }
    return EV_OK;
}

ev_status strategy_pack_chunk(void *ctx, strategy_t *s, const strategy_score_t *sc, const uint16_t *genes, uint64_t n,
                              uint64_t from, uint64_t to, const uint8_t *feasible, eval_result_t *out, ev_error *err)
{
    strategy_packed_runner_t *r = (strategy_packed_runner_t *)ctx;
    uint64_t *which = (uint64_t *)malloc((size_t)(to - from) * sizeof *which + 1), m = 0;
    ev_status st;
    if (!which)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    for (uint64_t i = from; i < to; i++) {
        if (feasible[i - from])
            which[m++] = i;
        else
            memset(&out[i], 0, sizeof out[i]); /* infeasible: no backtest */
    }
    if (r->batch == 0)
        r->batch = 1;
    st = run_jobs(r, s, sc, genes, n, which, m, out, err);
    free(which);
    return st;
}

/* ---- the host runner --------------------------------------------------------- */

static ev_status host_run(strategy_packed_runner_t *r, const strategy_pack_t *pk, int64_t *counts, double **pct,
                          int64_t **bar, ev_error *err)
{
    strategy_t *s = (strategy_t *)r->ctx;
    const strategy_ops_t *ops = strategy_ops(s);
    const void *state = strategy_state(s);
    const int64_t cap = ops->max_trades(state);
    unsigned char *arena = (unsigned char *)malloc((size_t)pk->arena_bytes + 1);
    double *one = (double *)malloc((size_t)(cap > 0 ? cap : 1) * sizeof *one);
    int64_t *one_bar = (int64_t *)malloc((size_t)(cap > 0 ? cap : 1) * sizeof *one_bar);
    void *scratch = malloc(ops->scratch_bytes(state) + 1);
    const void *slots[256];
    uint64_t total = 0;
    ev_status st = EV_OK;
    *pct = NULL;
    *bar = NULL;
    if (!arena || !one || !one_bar || !scratch) {
        st = ev_fail(err, EV_ENOMEM, "out of memory for a packed job");
        goto done;
    }
    for (uint32_t b = 0; b < pk->n_bufs; b++)
        memcpy(arena + pk->buf_off[b], pk->buf[b], (size_t)pk->buf_bytes[b]);
    for (uint32_t g = 0; g < pk->count; g++) {
        double *grown;
        int64_t *grown_bar;
        for (int32_t k = 0; k < pk->n_slots; k++)
            slots[k] = arena + pk->slot_off[(uint64_t)g * (uint64_t)pk->n_slots + (uint64_t)k];
        counts[g] = ops->view_outcomes(state, slots, pk->params + (size_t)g * pk->params_bytes, one, one_bar, scratch);
        if (counts[g] == 0)
            continue;
        grown = (double *)realloc(*pct, (size_t)(total + (uint64_t)counts[g]) * sizeof *grown);
        if (grown)
            *pct = grown;
        grown_bar = (int64_t *)realloc(*bar, (size_t)(total + (uint64_t)counts[g]) * sizeof *grown_bar);
        if (grown_bar)
            *bar = grown_bar;
        if (!grown || !grown_bar) {
            st = ev_fail(err, EV_ENOMEM, "out of memory for a packed job's outcomes");
            goto done;
        }
        memcpy(*pct + total, one, (size_t)counts[g] * sizeof *one);
        memcpy(*bar + total, one_bar, (size_t)counts[g] * sizeof *one_bar);
        total += (uint64_t)counts[g];
    }
done:
    if (st != EV_OK) {
        free(*pct);
        free(*bar);
        *pct = NULL;
        *bar = NULL;
    }
    free(arena);
    free(one);
    free(one_bar);
    free(scratch);
    return st;
}

void strategy_pack_host_runner(strategy_packed_runner_t *r, strategy_t *s)
{
    memset(r, 0, sizeof *r);
    r->run = host_run;
    r->ctx = s;
    r->batch = UINT64_MAX;
}
