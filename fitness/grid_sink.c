#include "fitness/grid_sink.h"

#include <stdlib.h>
#include <string.h>

#include "common/platform.h"

ev_status grid_heat_init(grid_heat_t *h, int32_t px, int32_t py, uint32_t nx, uint32_t ny, ev_error *err)
{
    uint64_t cells = (uint64_t)nx * ny;
    memset(h, 0, sizeof *h);
    if (cells > GRID_HEAT_MAX_CELLS)
        return ev_fail(err, EV_ECONFIG, "a heatmap of %u x %u cells is larger than the %llu cells kept", nx, ny,
                       (unsigned long long)GRID_HEAT_MAX_CELLS);
    h->key = (uint64_t *)calloc(cells ? cells : 1, sizeof *h->key);
    if (!h->key)
        return ev_fail(err, EV_ENOMEM, "out of memory for a heatmap of %u x %u cells", nx, ny);
    h->px = px;
    h->py = py;
    h->nx = nx;
    h->ny = ny;
    return EV_OK;
}

void grid_heat_free(grid_heat_t *h)
{
    free(h->key);
    memset(h, 0, sizeof *h);
}

void grid_heat_merge(grid_heat_t *dst, const grid_heat_t *src)
{
    uint64_t cells = (uint64_t)dst->nx * dst->ny;
    for (uint64_t c = 0; c < cells; c++)
        if (src->key[c] > dst->key[c])
            dst->key[c] = src->key[c];
}

ev_status grid_sink_local(grid_sink_t *local, const grid_sink_t *shared, ev_error *err)
{
    ev_status st = EV_OK;
    memset(local, 0, sizeof *local);
    local->count_better = shared->count_better;
    local->better_than = shared->better_than;
    if (shared->top) {
        uint32_t k = shared->top->k;
        if ((st = topk_init(&local->own_top, k, err)) != EV_OK)
            return st;
        local->top = &local->own_top;
        local->cap_pend = k >= GRID_SINK_PEND_MIN_K ? (k < 4096 ? 4096 : k) : 0;
        if (local->cap_pend && !(local->pend = (ranked_genome_t *)malloc(local->cap_pend * sizeof *local->pend))) {
            grid_sink_local_free(local);
            return ev_fail(err, EV_ENOMEM, "out of memory for a top-%u list's waiting offers", k);
        }
    }
    if (shared->heat) {
        const grid_heat_t *h = shared->heat;
        if ((st = grid_heat_init(&local->own_heat, h->px, h->py, h->nx, h->ny, err)) != EV_OK) {
            grid_sink_local_free(local);
            return st;
        }
        local->heat = &local->own_heat;
    }
    return EV_OK;
}

void grid_sink_flush(grid_sink_t *s)
{
    topk_insert_many(s->top, s->pend, s->n_pend);
    s->n_pend = 0;
}

void grid_sink_local_free(grid_sink_t *local)
{
    free(local->pend);
    local->pend = NULL;
    local->n_pend = local->cap_pend = 0;
    if (local->top)
        topk_free(&local->own_top);
    if (local->heat)
        grid_heat_free(&local->own_heat);
    local->top = NULL;
    local->heat = NULL;
}

void grid_sink_merge(grid_sink_t *shared, grid_sink_t *local)
{
    if (local->pend)
        grid_sink_flush(local);
    if (shared->top && local->top)
        topk_merge(shared->top, local->top);
    if (shared->heat && local->heat)
        grid_heat_merge(shared->heat, local->heat);
    shared->count += local->count;
}

ev_status grid_pass_step(const grid_progress_hook_t *hook, progress_t *prog, uint64_t done, uint64_t size,
                         ev_error *err)
{
    ev_status st;
    progress_update(prog, done);
    if (hook && hook->at && (st = hook->at(hook->ctx, done, err)) != EV_OK)
        return st;
    if (done < size && plat_interrupted())
        return ev_fail(err, EV_EINTR, "interrupted after %llu of %llu lattice points", (unsigned long long)done,
                       (unsigned long long)size);
    return EV_OK;
}
