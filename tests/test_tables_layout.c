/* The first-hit tables' memory (fitness/tables_layout.h, by which the CUDA
 * backend allocates its device tables) at the user's scale: 50,000 trades
 * with 20 values of each of SPEC sec. 4.1's roles. Each role's tables take
 * 12 bytes a trade and value (a first second int32 and an outcome int64; 20
 * with compound's log factors): 12 MB a role, 36 MB for the three; the whole
 * tables, even in the worst case (16 filters, 20 targets and stops filled at
 * the price, compound, folds), stay under a sixteenth of an 8 GB card's
 * ~7 GiB free (kernels/README.md "Device memory"), beside the batches (a
 * quarter of the free memory, kernels/backend_cuda.c) and the top-K (a
 * sixteenth). Expected bytes are worked out here from the array shapes. */
#include <stdio.h>
#include <string.h>

#include "fitness/tables_layout.h"
#include "tests/check.h"

#define TRADES 50000
#define VALUES 20
#define GIB ((uint64_t)1 << 30)

static uint64_t aligned(uint64_t bytes)
{
    return (bytes + 255) / 256 * 256;
}

/* A layout of TRADES trades: filters, 20 targets and stops, and `roles` of the three exits with 20 values. */
static fit_tables_t layout(int filters, int roles, int compound, int folds)
{
    fit_tables_t v;
    memset(&v, 0, sizeof v);
    v.n_trades = TRADES;
    v.n_filters = filters;
    v.n_targets = v.n_stops = VALUES;
    v.need_lf = compound;
    v.agg = folds ? AGG_ALL + 1 : AGG_ALL; /* a fold statistic: a fold byte per trade */
    for (int r = 0; r < MORE_EXITS; r++) {
        v.more[r].n = r < roles ? VALUES : 0;
        v.more[r].param = r < roles ? filters + 2 + r : -1;
    }
    return v;
}

static uint64_t more_bytes(const tables_layout_t *l)
{
    uint64_t b = 0;
    for (int a = TA_MORE_HIT; a < TA_COUNT; a++)
        b += l->present[a] ? aligned(l->count[a] * l->elem[a]) : 0;
    return b;
}

int main(void)
{
    const uint64_t n = TRADES, cell = n * VALUES; /* one role's trade x value cells */
    tables_layout_t l;
    /* the seed lattice's 5 filters, fill: level, total_return: 0 to 3 roles */
    for (int roles = 0; roles <= MORE_EXITS; roles++) {
        fit_tables_t v = layout(5, roles, 0, 0);
        uint64_t base = aligned(n * 5 * 2) + 2 * aligned(cell * 4) + 2 * aligned(VALUES * 8) + aligned(n * 8);
        tables_layout_plan(&v, VALUES, VALUES, &l);
        CHECK_EQ_I64((int64_t)(roles * cell * 12), (int64_t)more_bytes(&l));
        CHECK_EQ_I64((int64_t)(base + roles * cell * 12), (int64_t)l.bytes);
        printf(
            "50,000 trades, 5 filters, 20 targets and stops, %d exit role(s) of 20 values: %.1f MB "
            "(the exits' %.1f MB)\n",
            roles, (double)l.bytes / 1e6, (double)more_bytes(&l) / 1e6);
    }
    CHECK_EQ_I64(36000000, (int64_t)more_bytes(&l));
    /* each array at its offset, 256-byte aligned, inside the block, none overlapping */
    for (int a = 0; a < TA_COUNT; a++)
        if (l.present[a]) {
            CHECK(l.offset[a] % 256 == 0);
            for (int b = a + 1; b < TA_COUNT; b++)
                if (l.present[b])
                    CHECK(l.offset[a] + l.count[a] * l.elem[a] <= l.offset[b]);
            CHECK(l.offset[a] + l.count[a] * l.elem[a] <= l.bytes);
        }
    /* compound adds the log factors: 20 bytes a trade and value */
    {
        fit_tables_t v = layout(5, MORE_EXITS, 1, 0);
        tables_layout_plan(&v, VALUES, VALUES, &l);
        CHECK_EQ_I64((int64_t)(3 * cell * 20), (int64_t)more_bytes(&l));
    }
    /* the worst case: 16 filters, fill: price (q per trade and level), compound, folds */
    {
        fit_tables_t v = layout(16, MORE_EXITS, 1, 1);
        tables_layout_plan(&v, (int64_t)cell, (int64_t)cell, &l);
        CHECK_EQ_I64((int64_t)(aligned(n * 16 * 2) + 2 * aligned(cell * 4) + 4 * aligned(cell * 8) +
                               2 * aligned(n * 8) + aligned(n) + 3 * cell * 20),
                     (int64_t)l.bytes);
        CHECK(l.bytes <= 7 * GIB / 16);
        printf("worst case (16 filters, fill: price, compound, folds): %.1f MB of an 8 GB card's ~7 GiB free\n",
               (double)l.bytes / 1e6);
    }
    /* no exit role: no exit arrays, as before SPEC sec. 4.1 */
    {
        fit_tables_t v = layout(5, 0, 1, 0);
        tables_layout_plan(&v, VALUES, VALUES, &l);
        for (int a = TA_MORE_HIT; a < TA_COUNT; a++)
            CHECK(!l.present[a]);
    }
    return check_exit();
}
