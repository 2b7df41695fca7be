/* The fused suffix sums of dominance sums (fitness/dominance_suffix.h:
 * dominance_suffix_rank cuts a block into slices of at most tile_bytes, sums
 * each alone and adds the next one into it, the last two axes plane by plane)
 * against a brute force written here: after the pass, every cell of every
 * sum set must hold the sum of the raw cells at or above it on every axis,
 * field by field, the sums of squares as 128-bit numbers (random low words,
 * so the carries into the high words are many), and the axis-by-axis sweeps
 * (dominance_suffix) must agree. Blocks of 1 to 5 axes of 1 to 7 values, 1 to
 * 3 sum sets, slices from 16 bytes (every cut taken) to past the block (no
 * cut). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fitness/dominance.h"
#include "fitness/dominance_suffix.h"
#include "fitness/problem.h"
#include "tests/check.h"
#include "tests/support/builder.h"

#define MAX_AXES 5
#define MAX_CELLS 2500

static const char *const tick[] = {"T"};
static const char *const feat[] = {"A", "B", "C", "D", "E"};

static void build_dataset(dataset_t *ds)
{
    static int64_t ts[40];
    static float px[40];
    for (int i = 0; i < 40; i++) {
        ts[i] = 1000 + i;
        px[i] = 10.0f;
    }
    tb_dataset(ds, 1, tick, MAX_AXES, feat);
    tb_prices(ds, 0, ts, px, 40);
    for (int i = 0; i < 30; i++) {
        const double f[MAX_AXES] = {i % 3, i % 5, i % 7, i % 2, i % 4};
        tb_trade(ds, 0, 1000 + i, 1001 + i, 10.0, (double)(i % 9) - 4.0, f);
    }
}

/* A lattice of `axes` filters of n[f] values each. */
static void build_lattice(lattice_t *lat, const dataset_t *ds, int axes, const uint32_t *n)
{
    static const char *const names[] = {"a", "b", "c", "d", "e"};
    memset(lat, 0, sizeof *lat);
    for (int f = 0; f < axes; f++) {
        double v[8];
        for (uint32_t i = 0; i < n[f]; i++)
            v[i] = (double)i;
        tb_param(lat, names[f], PARAM_FILTER, f % 2 ? FILTER_MAX : FILTER_MIN, feat[f], v, n[f]);
    }
    tb_lattice_done(lat, ds);
}

/* Cell x's coordinates (row-major, the last axis fastest). */
static void coords(const fit_tables_t *t, uint64_t x, uint32_t *c)
{
    for (int32_t f = t->n_filters - 1; f >= 0; f--) {
        c[f] = (uint32_t)(x % t->filter_n[f]);
        x /= t->filter_n[f];
    }
}

static int at_or_above(const fit_tables_t *t, uint64_t y, uint64_t x)
{
    uint32_t cy[MAX_AXES], cx[MAX_AXES];
    coords(t, y, cy);
    coords(t, x, cx);
    for (int32_t f = 0; f < t->n_filters; f++)
        if (cy[f] < cx[f])
            return 0;
    return 1;
}

/* Every field of every cell against the brute force over the raw words. */
static int check_cells(const fit_tables_t *t, const dom_cells_t *got, const dom_cells_t *raw, uint64_t cells,
                       uint64_t sets)
{
    const uint64_t *g[7] = {got->n, got->sum, got->pos, got->sq_lo, got->sq_hi, got->lsum, got->ruin};
    const uint64_t *r[7] = {raw->n, raw->sum, raw->pos, raw->sq_lo, raw->sq_hi, raw->lsum, raw->ruin};
    int bad = 0;
    for (uint64_t s = 0; s < sets; s++)
        for (uint64_t x = 0; x < cells; x++) {
            uint64_t want[7] = {0}, lo32 = 0, hi32 = 0, limb1;
            for (uint64_t y = 0; y < cells; y++) {
                if (!at_or_above(t, y, x))
                    continue;
                for (int k = 0; k < 7; k++)
                    want[k] += k == 3 ? 0 : r[k][s * cells + y];
                lo32 += raw->sq_lo[s * cells + y] & 0xffffffffu; /* the low words' halves, apart: no */
                hi32 += raw->sq_lo[s * cells + y] >> 32;         /* carry lost (< 2^44 each) */
            }
            /* lo32 + hi32 * 2^32 in 32-bit limbs: the low word, and its carry into the high one */
            limb1 = (lo32 >> 32) + (hi32 & 0xffffffffu);
            want[3] = (lo32 & 0xffffffffu) | (limb1 << 32);
            want[4] += (limb1 >> 32) + (hi32 >> 32);
            for (int k = 0; k < 7; k++)
                bad += g[k][s * cells + x] != want[k];
        }
    return bad;
}

static void check_block(const fit_problem_t *p, fit_tables_t *t, uint64_t sets, uint64_t tile, uint64_t *rng)
{
    dom_plan_t plan;
    dom_cells_t raw, fused, swept;
    grid_sink_t none;
    const tables_exits_t exits = tables_exit_combo(t, 0);
    const uint16_t lead[EV_MAX_PARAMS] = {0};
    uint64_t cells, words;
    uint64_t *mem_raw, *mem_fused, *mem_swept;
    memset(&none, 0, sizeof none);
    t->agg = sets > 1 ? AGG_MEAN_FOLD : AGG_ALL;
    t->n_folds = (int32_t)sets;
    dominance_plan(&plan, t, UINT64_MAX / 4, 56u * sets);
    CHECK_EQ_I64(0, plan.lead);
    cells = plan.cells;
    words = 7u * cells * sets;
    mem_raw = (uint64_t *)malloc(words * sizeof *mem_raw);
    mem_fused = (uint64_t *)malloc(words * sizeof *mem_fused);
    mem_swept = (uint64_t *)malloc(words * sizeof *mem_swept);
    /* sq_lo at random (carries); the rest below 2^40, so that the ranking's
     * signed sums over cells and sets stay far from overflow */
    for (uint64_t i = 0; i < words; i++)
        mem_raw[i] = tb_rand(rng) >> (i / (cells * sets) == 3 ? 0 : 24);
    memcpy(mem_fused, mem_raw, words * sizeof *mem_raw);
    memcpy(mem_swept, mem_raw, words * sizeof *mem_raw);
    dom_cells_bind(&raw, mem_raw, cells * sets, &t->obj);
    dom_cells_bind(&fused, mem_fused, cells * sets, &t->obj);
    dom_cells_bind(&swept, mem_swept, cells * sets, &t->obj);
    {
        const dom_block_t f = {p, t, &plan, &fused, lead, &exits, tile};
        const dom_block_t s = {p, t, &plan, &swept, lead, &exits, tile};
        dominance_suffix_rank(&f, &none, NULL);
        dominance_suffix(&s, 0);
    }
    CHECK_EQ_I64(0, check_cells(t, &fused, &raw, cells, sets));
    CHECK(!memcmp(mem_fused, mem_swept, words * sizeof *mem_raw));
    free(mem_swept);
    free(mem_fused);
    free(mem_raw);
}

int main(void)
{
    dataset_t ds;
    uint64_t rng = 2606;
    int blocks = 0, cut = 0, five = 0, sets3 = 0;
    build_dataset(&ds);
    for (int round_no = 0; round_no < 120; round_no++) {
        lattice_t lat;
        objective_cfg_t obj;
        fit_problem_t p;
        tables_host_t th;
        ev_error err;
        uint32_t n[MAX_AXES];
        uint64_t cells = 1, sets = 1 + tb_rand(&rng) % 3, tile = (uint64_t)16 << tb_rand(&rng) % 14;
        int axes = 1 + (int)(tb_rand(&rng) % MAX_AXES);
        for (int f = 0; f < axes; f++)
            cells *= n[f] = 1 + (uint32_t)(tb_rand(&rng) % 7);
        if (cells * sets > MAX_CELLS)
            continue;
        build_lattice(&lat, &ds, axes, n);
        memset(&obj, 0, sizeof obj);
        obj.kind = OBJ_SHARPE;
        CHECK_EQ_I64(EV_OK, problem_init(&p, &ds, &lat, &obj, &err));
        CHECK_EQ_I64(EV_OK, tables_build(&th, &p, &err));
        { /* every field the cells can have: the sweeps must carry each */
            fit_tables_t t = th.view;
            t.obj.need_pos = t.obj.need_sumsq = t.obj.need_log = 1;
            check_block(&p, &t, sets, tile, &rng);
        }
        blocks++;
        cut += cells * sets * 56u > tile && axes > 1;
        five += axes == MAX_AXES;
        sets3 += sets == 3;
        tables_free(&th);
        problem_free(&p);
        lattice_free(&lat);
    }
    dataset_free(&ds);
    printf("%d blocks (%d cut into slices, %d of 5 axes, %d of 3 sum sets)\n", blocks, cut, five, sets3);
    CHECK(blocks > 60 && cut > 30 && five > 5 && sets3 > 10);
    return check_exit();
}
