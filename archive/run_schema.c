#include "archive/run_schema.h"

#include <stdlib.h>
#include <xxhash.h>

const run_column_t run_columns[RUN_N_COLUMNS] = {
    [COL_GENES] = {"ga/genes", RUN_U16, ROW_POP_GENES},
    [COL_FITNESS] = {"ga/fitness", RUN_F64, ROW_POP},
    [COL_FITNESS_RAW] = {"ga/fitness_raw", RUN_F64, ROW_POP},
    [COL_TRADES] = {"ga/trades", RUN_I64, ROW_POP},
    [COL_FEASIBLE] = {"ga/feasible", RUN_U8, ROW_POP},
    [COL_INDEX] = {"ga/index", RUN_U64, ROW_POP},
    [COL_PARENTS] = {"ga/parents", RUN_I32, ROW_POP_PAIR},
    [COL_GENERATION] = {"ga/stats/generation", RUN_U32, ROW_ONE},
    [COL_FEASIBLE_COUNT] = {"ga/stats/feasible", RUN_U64, ROW_ONE},
    [COL_BEST] = {"ga/stats/best", RUN_F64, ROW_ONE},
    [COL_MEDIAN] = {"ga/stats/median", RUN_F64, ROW_ONE},
    [COL_MEAN] = {"ga/stats/mean", RUN_F64, ROW_ONE},
    [COL_STD] = {"ga/stats/std", RUN_F64, ROW_ONE},
    [COL_BEST_DISPLAY] = {"ga/stats/best_display", RUN_F64, ROW_ONE},
    [COL_MEDIAN_DISPLAY] = {"ga/stats/median_display", RUN_F64, ROW_ONE},
    [COL_MEAN_DISPLAY] = {"ga/stats/mean_display", RUN_F64, ROW_ONE},
    [COL_HOF_BEST] = {"ga/stats/hof_best", RUN_F64, ROW_ONE},
    [COL_UNIQUE] = {"ga/stats/unique", RUN_U64, ROW_ONE},
    [COL_DIVERSITY] = {"ga/stats/diversity", RUN_F64, ROW_ONE},
    [COL_GENE_ENTROPY] = {"ga/stats/gene_entropy", RUN_F64, ROW_GENES},
    [COL_ISLAND_UNIQUE] = {"ga/stats/island_unique", RUN_U32, ROW_ISLANDS},
    [COL_ISLAND_PLAN] = {"ga/stats/island_plan", RUN_U32, ROW_ISLANDS_PLAN},
    [COL_NEW_EVALUATIONS] = {"ga/stats/new_evaluations", RUN_U64, ROW_ONE},
    [COL_EVALUATIONS] = {"ga/stats/evaluations", RUN_U64, ROW_ONE},
    [COL_LOOKUPS] = {"ga/stats/lookups", RUN_U64, ROW_ONE},
    [COL_HIT_RATE] = {"ga/stats/hit_rate", RUN_F64, ROW_ONE},
    [COL_WALL_S] = {"ga/stats/wall_s", RUN_F64, ROW_ONE},
};

hid_t run_elem_mem(run_elem e)
{
    switch (e) {
    case RUN_U8: return H5T_NATIVE_UINT8;
    case RUN_U16: return H5T_NATIVE_UINT16;
    case RUN_I32: return H5T_NATIVE_INT32;
    case RUN_U32: return H5T_NATIVE_UINT32;
    case RUN_I64: return H5T_NATIVE_INT64;
    case RUN_U64: return H5T_NATIVE_UINT64;
    case RUN_F64: return H5T_NATIVE_DOUBLE;
    }
    return -1;
}

hid_t run_elem_file(run_elem e)
{
    switch (e) {
    case RUN_U8: return H5T_STD_U8LE;
    case RUN_U16: return H5T_STD_U16LE;
    case RUN_I32: return H5T_STD_I32LE;
    case RUN_U32: return H5T_STD_U32LE;
    case RUN_I64: return H5T_STD_I64LE;
    case RUN_U64: return H5T_STD_U64LE;
    case RUN_F64: return H5T_IEEE_F64LE;
    }
    return -1;
}

size_t run_elem_size(run_elem e)
{
    static const size_t size[] = {1, 2, 4, 4, 8, 8, 8};
    return size[e];
}

int run_column_present(run_column_id c, const run_dims_t *d)
{
    return c != COL_INDEX || d->has_index;
}

int run_column_row(run_column_id c, const run_dims_t *d, uint64_t *row)
{
    switch (run_columns[c].row) {
    case ROW_ONE: return 0;
    case ROW_POP: row[0] = d->population; return 1;
    case ROW_POP_GENES:
        row[0] = d->population;
        row[1] = d->n_genes;
        return 2;
    case ROW_POP_PAIR:
        row[0] = d->population;
        row[1] = 2;
        return 2;
    case ROW_GENES: row[0] = d->n_genes; return 1;
    case ROW_ISLANDS: row[0] = d->islands; return 1;
    case ROW_ISLANDS_PLAN:
        row[0] = d->islands;
        row[1] = 4;
        return 2;
    }
    return 0;
}

size_t run_column_row_bytes(run_column_id c, const run_dims_t *d)
{
    uint64_t row[2];
    int rank = run_column_row(c, d, row);
    size_t n = run_elem_size(run_columns[c].elem);
    for (int i = 0; i < rank; i++)
        n *= (size_t)row[i];
    return n;
}

ev_status run_rows_alloc(run_rows_t *r, const run_dims_t *d, ev_error *err)
{
    for (int c = 0; c < RUN_N_COLUMNS; c++) {
        size_t n = run_column_row_bytes((run_column_id)c, d);
        r->col[c] = NULL;
        if (!run_column_present((run_column_id)c, d))
            continue;
        if (!(r->col[c] = calloc(n ? n : 1, 1))) {
            run_rows_free(r);
            return ev_fail(err, EV_ENOMEM, "out of memory for a generation's rows (%zu bytes)", n);
        }
    }
    return EV_OK;
}

void run_rows_free(run_rows_t *r)
{
    for (int c = 0; c < RUN_N_COLUMNS; c++) {
        free(r->col[c]);
        r->col[c] = NULL;
    }
}

uint64_t run_rows_hash(const run_rows_t *r, const run_dims_t *d)
{
    XXH64_state_t *h = XXH64_createState();
    uint64_t out = 0;
    if (!h)
        return 0; /* 0 never verifies: a resume would then start over, never trust */
    XXH64_reset(h, 0);
    for (int c = 0; c < RUN_N_COLUMNS; c++)
        if (run_column_present((run_column_id)c, d))
            XXH64_update(h, r->col[c], run_column_row_bytes((run_column_id)c, d));
    out = XXH64_digest(h);
    XXH64_freeState(h);
    return out ? out : 1;
}
