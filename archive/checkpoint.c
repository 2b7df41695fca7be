#include "archive/checkpoint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_file.h"
#include "common/platform.h"
#include "common/strutil.h"
#include "common/test_hooks.h"
#include "io/h5_util.h"

/* The ranked-table writer works on a run_file_t; a checkpoint is opened as
 * one (same helpers, no second set). */
static ev_status wrap(run_file_t *rf, const char *path, hid_t file, uint32_t n_genes, ev_error *err)
{
    memset(rf, 0, sizeof *rf);
    rf->file = file;
    rf->n_params = n_genes;
    if (!(rf->path = ev_strdup(path)))
        return ev_fail(err, EV_ENOMEM, "out of memory");
    return EV_OK;
}

/* An array of dims[0] rows in one uncompressed chunk: the checkpoint is
 * rewritten every generation and lives a short while, so speed beats size. */
static ev_status write_plain(run_file_t *rf, const char *name, hid_t mem, hid_t file_type, int rank,
                             const hsize_t *dims, const void *data, ev_error *err)
{
    ev_status st = h5u_rows_create(rf->path, rf->file, name, file_type, rank, dims + 1, dims[0] ? dims[0] : 1, 0, err);
    return st == EV_OK ? h5u_rows_write(rf->path, rf->file, name, mem, 0, dims[0], data, err) : st;
}

static ev_status write_arrays(run_file_t *rf, const checkpoint_t *c, ev_error *err)
{
    hsize_t dg[2] = {c->generation ? c->n_genes : 0, c->generation ? c->population : 0};
    hsize_t dp[2] = {c->generation ? 2 : 0, c->generation ? c->population : 0};
    hsize_t di[2] = {c->generation ? c->islands : 0, 4};
    hsize_t dh = c->generation;
    ev_status st;
    if ((st = write_plain(rf, "genes", H5T_NATIVE_UINT16, H5T_STD_U16LE, 2, dg, c->genes, err)) == EV_OK &&
        (st = write_plain(rf, "parents", H5T_NATIVE_INT32, H5T_STD_I32LE, 2, dp, c->parents, err)) == EV_OK &&
        (st = h5u_write_array(rf->path, rf->file, "plans", H5T_NATIVE_UINT32, H5T_STD_U32LE, 2, di, c->plans, err)) ==
            EV_OK &&
        (st = h5u_write_array(rf->path, rf->file, "gen_hash", H5T_NATIVE_UINT64, H5T_STD_U64LE, 1, &dh, c->gen_hash,
                              err)) == EV_OK)
        st = run_file_write_ranked(rf, "hall_of_fame", c->hof, NULL, c->hof_n, c->hof_k, err);
    return st;
}

static ev_status write_attrs(run_file_t *rf, const checkpoint_t *c, ev_error *err)
{
    const char *strs[][2] = {{"format", CHECKPOINT_FORMAT},
                             {"config_text", c->config_text},
                             {"tool_version", c->tool_version},
                             {"backend", c->backend}};
    const struct {
        const char *name;
        uint64_t v;
    } nums[] = {{"format_version", CHECKPOINT_VERSION},
                {"seed", c->seed},
                {"top", c->top},
                {"dataset_hash", c->dataset_hash},
                {"generation", c->generation},
                {"population", c->population},
                {"n_genes", c->n_genes},
                {"islands", c->islands},
                {"last_improvement", c->last_improvement},
                {"evaluations", c->evaluations},
                {"lookups", c->lookups},
                {"hof_k", c->hof_k}};
    ev_status st = EV_OK;
    for (size_t i = 0; i < sizeof strs / sizeof strs[0] && st == EV_OK; i++)
        st = run_file_attr_str(rf, "/", strs[i][0], strs[i][1], err);
    for (size_t i = 0; i < sizeof nums / sizeof nums[0] && st == EV_OK; i++)
        st = run_file_attr_u64(rf, "/", nums[i].name, nums[i].v, err);
    return st == EV_OK ? run_file_attr_f64(rf, "/", "elapsed_s", c->elapsed_s, err) : st;
}

ev_status checkpoint_write(const char *path, const checkpoint_t *c, ev_error *err)
{
    char *tmp = plat_temp_name(path);
    run_file_t rf;
    hid_t file;
    ev_status st;
    if (!tmp)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    if ((file = h5u_file_create(tmp, err)) < 0) {
        plat_remove(tmp); /* a full disk can fail the create after the file exists */
        free(tmp);
        return EV_EIO;
    }
    if ((st = wrap(&rf, tmp, file, c->n_genes, err)) != EV_OK) {
        H5Fclose(file);
    } else {
        if ((st = write_attrs(&rf, c, err)) == EV_OK)
            st = write_arrays(&rf, c, err);
        if (run_file_close(&rf, st == EV_OK ? err : NULL) != EV_OK && st == EV_OK)
            st = EV_EIO;
    }
    if (st == EV_OK) {
        test_hook_point("checkpoint", c->generation);
        st = plat_rename_replace(tmp, path, err);
    }
    if (st != EV_OK)
        plat_remove(tmp);
    free(tmp);
    return st;
}

static ev_status read_u32(run_file_t *rf, const char *name, uint32_t *v, ev_error *err)
{
    uint64_t x = 0;
    ev_status st = run_file_read_u64(rf, "/", name, &x, err);
    *v = (uint32_t)x;
    if (st == EV_OK && x > UINT32_MAX)
        st = ev_fail(err, EV_EDATA, "%s: attribute %s is out of range", rf->path, name);
    return st;
}

/* An array of the expected shape; dims[0..rank) must equal want. */
static ev_status read_shaped(run_file_t *rf, const char *name, hid_t mem, int rank, const hsize_t *want, void **data,
                             ev_error *err)
{
    hsize_t dims[2] = {0, 0};
    ev_status st = h5u_read_array(rf->path, rf->file, name, mem, rank, dims, data, err);
    for (int i = 0; st == EV_OK && i < rank; i++)
        if (dims[i] != want[i])
            st = ev_fail(err, EV_EDATA, "%s: %s has the wrong shape", rf->path, name);
    return st;
}

/* Keeps an allocation for checkpoint_free and returns it. */
static void *own(checkpoint_t *c, void *p)
{
    if (!p)
        return NULL;
    for (int i = 0; i < 8; i++)
        if (!c->owned_[i]) {
            c->owned_[i] = p;
            return p;
        }
    free(p); /* not reached: owned_ has a slot per field */
    return NULL;
}

static ev_status read_text(run_file_t *rf, checkpoint_t *c, const char *name, const char **out, ev_error *err)
{
    char *s = NULL;
    ev_status st = run_file_read_str(rf, "/", name, 0, &s, err);
    *out = (const char *)own(c, s);
    return st;
}

/* An owned array, or NULL with *st set. */
static void *read_array(run_file_t *rf, checkpoint_t *c, const char *name, hid_t mem, int rank, const hsize_t *want,
                        ev_status *st, ev_error *err)
{
    void *p = NULL;
    if (*st == EV_OK)
        *st = read_shaped(rf, name, mem, rank, want, &p, err);
    return own(c, p);
}

static ev_status read_all(run_file_t *rf, checkpoint_t *c, ev_error *err)
{
    char *format = NULL;
    uint64_t version = 0;
    ev_status st = run_file_read_str(rf, "/", "format", 0, &format, err);
    hsize_t dg[2], dp[2], di[2], dh;
    ranked_genome_t *hof = NULL;
    if (st != EV_OK || strcmp(format, CHECKPOINT_FORMAT) != 0)
        st = ev_fail(err, EV_EDATA, "%s: not an evolve checkpoint", rf->path);
    free(format);
    if (st == EV_OK && (st = run_file_read_u64(rf, "/", "format_version", &version, err)) == EV_OK &&
        version != CHECKPOINT_VERSION)
        st = ev_fail(err, EV_EDATA, "%s: checkpoint version %llu, this evolve reads %d", rf->path,
                     (unsigned long long)version, CHECKPOINT_VERSION);
    if (st != EV_OK || (st = read_text(rf, c, "config_text", &c->config_text, err)) != EV_OK ||
        (st = read_text(rf, c, "tool_version", &c->tool_version, err)) != EV_OK ||
        (st = read_text(rf, c, "backend", &c->backend, err)) != EV_OK ||
        (st = run_file_read_u64(rf, "/", "seed", &c->seed, err)) != EV_OK ||
        (st = read_u32(rf, "top", &c->top, err)) != EV_OK ||
        (st = run_file_read_u64(rf, "/", "dataset_hash", &c->dataset_hash, err)) != EV_OK ||
        (st = read_u32(rf, "generation", &c->generation, err)) != EV_OK ||
        (st = read_u32(rf, "population", &c->population, err)) != EV_OK ||
        (st = read_u32(rf, "n_genes", &c->n_genes, err)) != EV_OK ||
        (st = read_u32(rf, "islands", &c->islands, err)) != EV_OK ||
        (st = read_u32(rf, "last_improvement", &c->last_improvement, err)) != EV_OK ||
        (st = run_file_read_u64(rf, "/", "evaluations", &c->evaluations, err)) != EV_OK ||
        (st = run_file_read_u64(rf, "/", "lookups", &c->lookups, err)) != EV_OK ||
        (st = read_u32(rf, "hof_k", &c->hof_k, err)) != EV_OK ||
        (st = run_file_read_f64(rf, "/", "elapsed_s", &c->elapsed_s, err)) != EV_OK)
        return st;
    rf->n_params = c->n_genes;
    dg[0] = c->generation ? c->n_genes : 0;
    dg[1] = dp[1] = c->generation ? c->population : 0;
    dp[0] = c->generation ? 2 : 0;
    di[0] = c->generation ? c->islands : 0;
    di[1] = 4;
    dh = c->generation;
    c->genes = (const uint16_t *)read_array(rf, c, "genes", H5T_NATIVE_UINT16, 2, dg, &st, err);
    c->parents = (const int32_t *)read_array(rf, c, "parents", H5T_NATIVE_INT32, 2, dp, &st, err);
    c->plans = (const breed_island_t *)read_array(rf, c, "plans", H5T_NATIVE_UINT32, 2, di, &st, err);
    c->gen_hash = (const uint64_t *)read_array(rf, c, "gen_hash", H5T_NATIVE_UINT64, 1, &dh, &st, err);
    if (st == EV_OK)
        st = run_file_read_ranked(rf, "hall_of_fame", &hof, NULL, &c->hof_n, err);
    c->hof = (const ranked_genome_t *)own(c, hof);
    if (st == EV_OK && (c->hof_n > c->hof_k || c->n_genes > EV_MAX_PARAMS))
        st = ev_fail(err, EV_EDATA, "%s: the checkpoint is inconsistent", rf->path);
    return st;
}

static int64_t parent_outside(const checkpoint_t *c)
{
    for (uint64_t j = 0; j < 2 * (uint64_t)c->population; j++)
        if (c->parents[j] < -1 || c->parents[j] >= (int64_t)c->population)
            return (int64_t)j;
    return -1;
}

int checkpoint_fits(const checkpoint_t *c, const checkpoint_shape_t *want, char *why, size_t n)
{
    breed_ctx_t ctx; /* the fields the operators' own population and plan checks read */
    ev_error e;
    int64_t at;
    if (c->population != want->population || c->islands != want->islands || c->n_genes != want->n_genes ||
        c->hof_k != want->top) {
        snprintf(why, n, "population %u, %u islands, %u genes, top %u; the run has %u, %u, %u, %u", c->population,
                 c->islands, c->n_genes, c->hof_k, want->population, want->islands, want->n_genes, want->top);
        return 0;
    }
    if (c->last_improvement >= c->generation || c->lookups != (uint64_t)c->generation * c->population ||
        c->evaluations > c->lookups) {
        snprintf(why, n,
                 "counters that contradict generation %u (last improvement %u, %llu evaluations, %llu "
                 "lookups)",
                 c->generation, c->last_improvement, (unsigned long long)c->evaluations,
                 (unsigned long long)c->lookups);
        return 0;
    }
    if ((at = parent_outside(c)) >= 0) {
        snprintf(why, n, "parent %d of individual %u is not an individual of a population of %u", c->parents[at],
                 (unsigned)(at % c->population), c->population);
        return 0;
    }
    memset(&ctx, 0, sizeof ctx);
    ctx.population = c->population;
    ctx.islands = c->islands;
    ctx.island_size = c->population / c->islands;
    ctx.n_genes = (int32_t)c->n_genes;
    memcpy(ctx.n_values, want->n_values, c->n_genes * sizeof *ctx.n_values);
    if (breed_genes_check(&ctx, c->genes, &e) == EV_OK && breed_islands_check(&ctx, c->plans, &e) == EV_OK)
        return 1;
    snprintf(why, n, "%s", e.msg);
    return 0;
}

ev_status checkpoint_read(const char *path, checkpoint_t *c, ev_error *err)
{
    ev_error open_err;
    plat_stat_t ps;
    run_file_t rf;
    hid_t file;
    ev_status st;
    memset(c, 0, sizeof *c);
    h5u_init();
    if (plat_stat(path, &ps) != 0)
        return ev_fail(err, EV_EIO, "%s: no checkpoint", path);
    if (H5Fis_hdf5(path) <= 0) {
        H5Eclear2(H5E_DEFAULT);
        return ev_fail(err, EV_EDATA, "%s: the checkpoint is not readable", path);
    }
    if ((file = h5u_file_open(path, 0, &open_err)) < 0) {
        if (err)
            *err = open_err;
        return open_err.status == EV_EBUSY ? EV_EBUSY : EV_EDATA;
    }
    if ((st = wrap(&rf, path, file, 0, err)) != EV_OK) {
        H5Fclose(file);
        return st;
    }
    if ((st = read_all(&rf, c, err)) != EV_OK) {
        if (st != EV_ENOMEM)
            st = EV_EDATA;
        checkpoint_free(c);
    }
    run_file_close(&rf, NULL);
    return st;
}

void checkpoint_free(checkpoint_t *c)
{
    for (int i = 0; i < 8; i++)
        free(c->owned_[i]);
    memset(c, 0, sizeof *c);
}
