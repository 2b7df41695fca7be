#include "fitness/basin.h"

#include <stdlib.h>
#include <string.h>

#include "fitness/sweep.h"
#include "fitness/topk.h"

ev_status basin_climb(const fit_tables_t *t, const lattice_shape_t *shape, const uint16_t *genes, uint16_t *peak,
                      uint64_t *index, eval_result_t *r, uint32_t *steps, ev_error *err)
{
    uint32_t most = 1;
    eval_result_t *line;
    ev_status st = EV_OK;
    sweep_cache_t cache; /* the climb's sweeps share its exits' columns */
    const int cached = sweep_cache_init(&cache, t, NULL) == EV_OK;
    for (int32_t k = 0; k < shape->n_params; k++)
        most = shape->n_values[k] > most ? shape->n_values[k] : most;
    if (!(line = (eval_result_t *)malloc((size_t)most * sizeof *line))) {
        if (cached)
            sweep_cache_free(&cache);
        return ev_fail(err, EV_ENOMEM, "out of memory climbing to a basin's peak");
    }
    memcpy(peak, genes, (size_t)shape->n_params * sizeof *peak);
    *index = shape_encode(shape, peak);
    *steps = 0;
    for (int moved = 1; moved && st == EV_OK;) {
        uint64_t best_key = 0, best_index = *index;
        int32_t best_k = -1;
        uint16_t best_v = 0;
        moved = 0;
        for (int32_t k = 0; k < shape->n_params && st == EV_OK; k++) {
            uint16_t own = peak[k];
            if ((st = sweep_gene_cached(t, cached ? &cache : NULL, peak, k, line, err)) != EV_OK)
                break;
            if (k == 0) { /* the current genome, as every sweep sees it */
                *r = line[own];
                best_key = rank_key(*r);
            }
            for (uint32_t v = 0; v < shape->n_values[k]; v++) {
                uint64_t key = rank_key(line[v]), idx;
                if (v == own)
                    continue;
                peak[k] = (uint16_t)v;
                idx = shape_encode(shape, peak);
                peak[k] = own;
                if (key && rank_before(key, idx, best_key, best_index)) {
                    best_key = key;
                    best_index = idx;
                    best_k = k;
                    best_v = (uint16_t)v;
                    *r = line[v];
                }
            }
        }
        if (st == EV_OK && best_k >= 0) {
            peak[best_k] = best_v;
            *index = best_index;
            (*steps)++;
            moved = 1;
        }
    }
    if (cached)
        sweep_cache_free(&cache);
    free(line);
    return st;
}

ev_status basin_group(const fit_tables_t *t, const lattice_shape_t *shape, const ranked_genome_t *e, uint32_t n,
                      uint32_t *best, uint32_t *n_basins, ev_error *err)
{
    uint64_t *peak_at = (uint64_t *)malloc((n ? n : 1) * sizeof *peak_at);
    ev_status st = EV_OK;
    *n_basins = 0;
    if (!peak_at)
        return ev_fail(err, EV_ENOMEM, "out of memory grouping the reported genomes into basins");
    for (uint32_t i = 0; i < n && st == EV_OK; i++) {
        uint16_t peak[EV_MAX_PARAMS];
        eval_result_t r;
        uint32_t steps, j;
        if ((st = basin_climb(t, shape, e[i].genes, peak, &peak_at[*n_basins], &r, &steps, err)) != EV_OK)
            break;
        for (j = 0; j < *n_basins && peak_at[j] != peak_at[*n_basins]; j++)
            ;
        if (j == *n_basins)
            best[(*n_basins)++] = i;
    }
    free(peak_at);
    return st;
}
