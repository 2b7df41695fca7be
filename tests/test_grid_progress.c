/* The grid's progress file (archive/grid_progress.h, results/README.md "A
 * grid in progress"):
 * - written, then read back field for field: the identity, the evaluator,
 *   points, done, seconds, every pool row (rank_key, index, the fitness's
 *   bits, trades, feasible) in rank order, and the heatmap;
 * - damaged, and refused naming the file: a pool entry at the lattice's size
 *   (one past its last point), more points done than the lattice has;
 * - a write that cannot be renamed into place (its name is a folder) fails
 *   and leaves no temporary file beside it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/grid_progress.h"
#include "common/platform.h"
#include "tests/check.h"
#include "tests/fixture_files.h"

#define DIR "tmp_grid_progress"

static uint64_t heat_keys[6] = {0, 11, 22, 33, UINT64_MAX, 5};

static ranked_genome_t entry(uint64_t index, double fitness, int64_t trades)
{
    ranked_genome_t x;
    memset(&x, 0, sizeof x);
    x.index = index;
    x.r.fitness = fitness;
    x.r.trades = trades;
    x.r.feasible = 1;
    x.key = rank_key(x.r);
    return x;
}

/* A progress of 60 of 100 points: three pool entries (two of one fitness),
 * a 2 x 3 heatmap. */
static int sample(grid_progress_t *g)
{
    const ranked_genome_t e[3] = {entry(99, 1.5, 12), entry(0, -0.25, 3), entry(42, 1.5, 7)};
    ev_error err;
    memset(g, 0, sizeof *g);
    g->id.config_text = "parameters: []\n";
    g->id.tool_version = "evolve test";
    g->id.backend = "cpu";
    g->id.seed = 7;
    g->id.top = 3;
    g->id.dataset_hash = 0x1234abcdull;
    g->evaluator = "tables";
    g->points = 100;
    g->done = 60;
    g->seconds = 2.5;
    if (topk_init(&g->pool, 4, &err) != EV_OK)
        return 0;
    for (int i = 0; i < 3; i++)
        topk_insert(&g->pool, &e[i]);
    g->heat.px = 0;
    g->heat.py = 1;
    g->heat.nx = 2;
    g->heat.ny = 3;
    g->heat.key = heat_keys;
    return 1;
}

static void test_round_trip(const grid_progress_t *w)
{
    grid_progress_t r;
    ev_error err;
    CHECK_EQ_I64(EV_OK, grid_progress_write(DIR "/run.h5.partial", w, &err));
    CHECK_EQ_I64(1, grid_progress_is(DIR "/run.h5.partial"));
    if (grid_progress_read(DIR "/run.h5.partial", &r, &err) != EV_OK) {
        CHECK(!"the progress file reads back");
        return;
    }
    CHECK_STR(w->id.config_text, r.id.config_text);
    CHECK_STR(w->id.tool_version, r.id.tool_version);
    CHECK_STR(w->id.backend, r.id.backend);
    CHECK(r.id.seed == 7 && r.id.top == 3 && r.id.dataset_hash == 0x1234abcdull);
    CHECK_STR("tables", r.evaluator);
    CHECK(r.points == 100 && r.done == 60 && r.seconds == 2.5);
    CHECK(r.pool.k == 4 && r.pool.n == 3);
    /* rank order: 1.5 at index 42, 1.5 at index 99, then -0.25 at index 0 */
    CHECK(r.pool.n == 3 && r.pool.e[0].index == 42 && r.pool.e[1].index == 99 && r.pool.e[2].index == 0);
    for (uint32_t i = 0; i < r.pool.n && i < 3; i++) {
        const ranked_genome_t *a = &r.pool.e[i], *b = &w->pool.e[i];
        CHECK(a->key == b->key && a->index == b->index && a->r.trades == b->r.trades && a->r.feasible == 1);
        CHECK(memcmp(&a->r.fitness, &b->r.fitness, sizeof a->r.fitness) == 0);
    }
    CHECK(r.heat.px == 0 && r.heat.py == 1 && r.heat.nx == 2 && r.heat.ny == 3);
    CHECK(r.heat.key && memcmp(r.heat.key, heat_keys, sizeof heat_keys) == 0);
    grid_progress_free(&r);
}

/* A progress that must not be resumed: read as damaged, naming the file. */
static void refused(const grid_progress_t *w, const char *what)
{
    grid_progress_t r;
    ev_error err;
    CHECK_EQ_I64(EV_OK, grid_progress_write(DIR "/bad.partial", w, &err));
    CHECK_EQ_I64(EV_EDATA, grid_progress_read(DIR "/bad.partial", &r, &err));
    CHECK_CONTAINS(err.msg, DIR "/bad.partial");
    CHECK_CONTAINS(err.msg, what);
}

static void test_damaged(grid_progress_t *w)
{
    const uint64_t index = w->pool.e[2].index, done = w->done;
    w->pool.e[2].index = w->points; /* the lattice's points are 0 .. points - 1 */
    refused(w, "a pool entry beyond the lattice");
    w->pool.e[2].index = index;
    w->done = w->points + 1;
    refused(w, "its counts");
    w->done = done;
}

/* Nothing but the folder's own file is left when the rename fails. */
static void test_failed_write(const grid_progress_t *w)
{
    char **names = NULL;
    size_t n = 0;
    ev_error err;
    CHECK(fx_clean_dir(DIR "/busy") == 0); /* what an earlier run left */
    CHECK(plat_mkdirs(DIR "/busy/run.h5.partial/inside", &err) == EV_OK);
    CHECK(grid_progress_write(DIR "/busy/run.h5.partial", w, &err) != EV_OK);
    CHECK(plat_list_dir(DIR "/busy", &names, &n, &err) == EV_OK);
    for (size_t i = 0; i < n; i++)
        printf("left in " DIR "/busy: %s\n", names[i]);
    CHECK_EQ_I64(1, (long long)n);
    plat_free_names(names, n);
}

int main(void)
{
    grid_progress_t w;
    if (fx_clean_dir(DIR) || !sample(&w))
        return 1;
    test_round_trip(&w);
    test_damaged(&w);
    test_failed_write(&w);
    topk_free(&w.pool);
    return check_exit();
}
