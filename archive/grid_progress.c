/* The grid progress file: root attributes, the pool as one [n][5] uint64
 * array, the heatmap as an [nx][ny] one. */
#include "archive/grid_progress.h"

#include <stdlib.h>
#include <string.h>

#include "common/platform.h"
#include "common/test_hooks.h"
#include "io/h5_util.h"

/* A pool row: rank_key, index, the fitness's bits, trades, feasible. */
enum { POOL_COLS = 5 };

typedef struct {
    const char *name;
    uint64_t v;
} named_u64_t;

static ev_status write_u64s(const char *path, hid_t f, const named_u64_t *a, size_t n, ev_error *err)
{
    ev_status st = EV_OK;
    for (size_t i = 0; i < n && st == EV_OK; i++)
        st = h5u_write_attr(path, f, a[i].name, H5T_NATIVE_UINT64, H5T_STD_U64LE, &a[i].v, err);
    return st;
}

static ev_status write_pool(const char *path, hid_t f, const topk_t *pool, ev_error *err)
{
    hsize_t dims[2] = {pool->n, POOL_COLS};
    uint64_t *rows = (uint64_t *)malloc(((size_t)pool->n + 1) * POOL_COLS * sizeof *rows);
    ev_status st;
    if (!rows)
        return ev_fail(err, EV_ENOMEM, "out of memory writing %s", path);
    for (uint32_t i = 0; i < pool->n; i++) {
        uint64_t *r = rows + (size_t)i * POOL_COLS;
        r[0] = pool->e[i].key;
        r[1] = pool->e[i].index;
        memcpy(&r[2], &pool->e[i].r.fitness, sizeof r[2]);
        r[3] = (uint64_t)pool->e[i].r.trades;
        r[4] = (uint64_t)(uint32_t)pool->e[i].r.feasible;
    }
    st = h5u_write_array(path, f, "pool", H5T_NATIVE_UINT64, H5T_STD_U64LE, 2, dims, rows, err);
    free(rows);
    return st;
}

static ev_status write_all(const char *path, hid_t f, const grid_progress_t *g, ev_error *err)
{
    const char *strs[][2] = {{"format", GRID_PROGRESS_FORMAT}, {"evaluator", g->evaluator}};
    const named_u64_t nums[] = {
        {"format_version", GRID_PROGRESS_VERSION}, {"points", g->points}, {"done", g->done}, {"pool_k", g->pool.k}};
    const grid_heat_t *h = &g->heat;
    ev_status st = identity_write(path, f, &g->id, err);
    for (size_t i = 0; i < sizeof strs / sizeof strs[0] && st == EV_OK; i++)
        st = h5u_write_attr_str(path, f, strs[i][0], strs[i][1], err);
    if (st == EV_OK && (st = write_u64s(path, f, nums, sizeof nums / sizeof nums[0], err)) == EV_OK &&
        (st = h5u_write_attr(path, f, "seconds", H5T_NATIVE_DOUBLE, H5T_IEEE_F64LE, &g->seconds, err)) == EV_OK)
        st = write_pool(path, f, &g->pool, err);
    if (st == EV_OK && h->key) {
        const named_u64_t axes[] = {{"heat_px", (uint64_t)h->px}, {"heat_py", (uint64_t)h->py}};
        hsize_t dims[2] = {h->nx, h->ny};
        if ((st = write_u64s(path, f, axes, 2, err)) == EV_OK)
            st = h5u_write_array(path, f, "heat", H5T_NATIVE_UINT64, H5T_STD_U64LE, 2, dims, h->key, err);
    }
    return st;
}

ev_status grid_progress_write(const char *path, const grid_progress_t *g, ev_error *err)
{
    char *tmp = plat_temp_name(path);
    hid_t f;
    ev_status st;
    if (!tmp)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    h5u_init();
    if ((f = h5u_file_create(tmp, err)) < 0) {
        plat_remove(tmp); /* a full disk can fail the create after the file exists */
        free(tmp);
        return EV_EIO;
    }
    st = write_all(tmp, f, g, err);
    if (H5Fclose(f) < 0 && st == EV_OK)
        st = h5u_fail(err, EV_EIO, tmp, -1, NULL, "close");
    if (st == EV_OK) {
        test_hook_point("grid_progress", g->serial);
        st = plat_rename_replace(tmp, path, err);
    }
    if (st != EV_OK)
        plat_remove(tmp);
    free(tmp);
    return st;
}

int grid_progress_is(const char *path)
{
    plat_stat_t ps;
    hid_t f;
    char *format = NULL;
    int yes = 0;
    ev_error e;
    h5u_init();
    if (plat_stat(path, &ps) != 0 || H5Fis_hdf5(path) <= 0) {
        H5Eclear2(H5E_DEFAULT);
        return 0;
    }
    if ((f = h5u_file_open(path, 0, &e)) < 0)
        return 0;
    yes = h5u_read_attr_str(path, f, "format", &format, &e) == EV_OK && !strcmp(format, GRID_PROGRESS_FORMAT) ? 1 : -1;
    free(format);
    H5Fclose(f);
    return yes;
}

static ev_status read_u64(const char *path, hid_t f, const char *name, uint64_t *v, ev_error *err)
{
    return h5u_read_attr(path, f, name, H5T_NATIVE_UINT64, v, err);
}

static ev_status read_str(const char *path, hid_t f, const char *name, const char **out, ev_error *err)
{
    char *s = NULL;
    ev_status st = h5u_read_attr_str(path, f, name, &s, err);
    *out = s;
    return st;
}

static ev_status damaged(const char *path, const char *what, ev_error *err)
{
    return ev_fail(err, EV_EDATA, "%s: the grid's progress file is damaged (%s)", path, what);
}

/* The pool's rows back into a top-K of capacity k; every row must enter it
 * (a feasible key, an index on the lattice, no two alike). */
static ev_status read_pool(const char *path, hid_t f, grid_progress_t *g, uint64_t k, ev_error *err)
{
    hsize_t dims[2] = {0, 0};
    uint64_t *rows = NULL;
    ev_status st = h5u_read_array(path, f, "pool", H5T_NATIVE_UINT64, 2, dims, (void **)&rows, err);
    if (st == EV_OK && (dims[1] != POOL_COLS || dims[0] > k || k > UINT32_MAX))
        st = damaged(path, "the pool's shape", err);
    if (st == EV_OK)
        st = topk_init(&g->pool, (uint32_t)k, err);
    for (hsize_t i = 0; st == EV_OK && i < dims[0]; i++) {
        const uint64_t *r = rows + i * POOL_COLS;
        ranked_genome_t x;
        memset(&x, 0, sizeof x);
        x.key = r[0];
        x.index = r[1];
        memcpy(&x.r.fitness, &r[2], sizeof x.r.fitness);
        x.r.trades = (int64_t)r[3];
        x.r.feasible = (int32_t)r[4];
        if (x.index >= g->points)
            st = damaged(path, "a pool entry beyond the lattice", err);
        topk_insert(&g->pool, &x);
    }
    if (st == EV_OK && g->pool.n != dims[0])
        st = damaged(path, "pool entries that would not enter a top-K", err);
    free(rows);
    return st;
}

static ev_status read_heat(const char *path, hid_t f, grid_progress_t *g, ev_error *err)
{
    uint64_t px = 0, py = 0;
    hsize_t dims[2] = {0, 0};
    uint64_t *key = NULL;
    ev_status st;
    if (h5u_exists(f, "heat", 0) != 1)
        return EV_OK;
    if ((st = read_u64(path, f, "heat_px", &px, err)) != EV_OK ||
        (st = read_u64(path, f, "heat_py", &py, err)) != EV_OK ||
        (st = h5u_read_array(path, f, "heat", H5T_NATIVE_UINT64, 2, dims, (void **)&key, err)) != EV_OK) {
        free(key);
        return st;
    }
    if (px >= EV_MAX_PARAMS || py >= EV_MAX_PARAMS || dims[0] > UINT32_MAX || dims[1] > UINT32_MAX ||
        dims[0] * dims[1] > GRID_HEAT_MAX_CELLS) {
        free(key);
        return damaged(path, "the heatmap's shape", err);
    }
    g->heat.px = (int32_t)px;
    g->heat.py = (int32_t)py;
    g->heat.nx = (uint32_t)dims[0];
    g->heat.ny = (uint32_t)dims[1];
    g->heat.key = key;
    return EV_OK;
}

static ev_status read_all(const char *path, hid_t f, grid_progress_t *g, ev_error *err)
{
    const char *format = NULL;
    uint64_t version = 0, k = 0;
    ev_status st = read_str(path, f, "format", &format, err);
    int ok = st == EV_OK && !strcmp(format, GRID_PROGRESS_FORMAT);
    free((void *)(uintptr_t)format);
    if (!ok)
        return ev_fail(err, EV_EDATA, "%s: not the progress file of an evolve grid", path);
    if ((st = read_u64(path, f, "format_version", &version, err)) != EV_OK)
        return st;
    if (version != GRID_PROGRESS_VERSION)
        return ev_fail(err, EV_EDATA, "%s: grid progress version %llu, this evolve reads %d", path,
                       (unsigned long long)version, GRID_PROGRESS_VERSION);
    if ((st = identity_read(path, f, &g->id, err)) != EV_OK ||
        (st = read_str(path, f, "evaluator", &g->evaluator, err)) != EV_OK ||
        (st = read_u64(path, f, "points", &g->points, err)) != EV_OK ||
        (st = read_u64(path, f, "done", &g->done, err)) != EV_OK ||
        (st = read_u64(path, f, "pool_k", &k, err)) != EV_OK ||
        (st = h5u_read_attr(path, f, "seconds", H5T_NATIVE_DOUBLE, &g->seconds, err)) != EV_OK)
        return st;
    if (g->done > g->points)
        return damaged(path, "its counts", err);
    if ((st = read_pool(path, f, g, k, err)) != EV_OK)
        return st;
    return read_heat(path, f, g, err);
}

ev_status grid_progress_read(const char *path, grid_progress_t *g, ev_error *err)
{
    hid_t f;
    ev_status st;
    memset(g, 0, sizeof *g);
    h5u_init();
    if (H5Fis_hdf5(path) <= 0) {
        H5Eclear2(H5E_DEFAULT);
        return ev_fail(err, EV_EDATA, "%s: the grid's progress file is not readable", path);
    }
    if ((f = h5u_file_open(path, 0, err)) < 0)
        return err && err->status == EV_EBUSY ? EV_EBUSY : EV_EDATA;
    if ((st = read_all(path, f, g, err)) != EV_OK) {
        if (st != EV_ENOMEM)
            st = EV_EDATA;
        grid_progress_free(g);
    }
    H5Fclose(f);
    return st;
}

void grid_progress_free(grid_progress_t *g)
{
    identity_free(&g->id);
    free((void *)(uintptr_t)g->evaluator);
    if (g->pool.e)
        topk_free(&g->pool);
    free(g->heat.key);
    memset(g, 0, sizeof *g);
}
