/* The checkpoint file: the identity attributes, then the GA state as its
 * field table (operators/ga_snapshot.h) lays it out: scalars as root
 * attributes, arrays as datasets, the hall of fame as a ranked table. */
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

/* How an array kind of the GA state is stored: its memory and file types,
 * and whether it is population-sized (rows in one chunk, write_plain) or
 * small (one contiguous array). */
static void array_storage(ga_field_kind k, hid_t *mem, hid_t *file, int *rows)
{
    switch (k) {
    case GA_FIELD_GENES:
        *mem = H5T_NATIVE_UINT16;
        *file = H5T_STD_U16LE;
        *rows = 1;
        break;
    case GA_FIELD_PARENTS:
        *mem = H5T_NATIVE_INT32;
        *file = H5T_STD_I32LE;
        *rows = 1;
        break;
    default: /* GA_FIELD_PLANS: breed_island_t is four uint32 */
        *mem = H5T_NATIVE_UINT32;
        *file = H5T_STD_U32LE;
        *rows = 0;
        break;
    }
}

static int is_scalar(ga_field_kind k)
{
    return k == GA_FIELD_U32 || k == GA_FIELD_U64 || k == GA_FIELD_F64;
}

static void array_dims(const ga_snapshot_t *s, const ga_snapshot_field_t *f, hsize_t dims[2])
{
    uint64_t d[2];
    ga_snapshot_dims(s, f, d);
    dims[0] = d[0];
    dims[1] = d[1];
}

/* The state's arrays, the generations' hashes, then its ranked tables. */
static ev_status write_arrays(run_file_t *rf, const checkpoint_t *c, ev_error *err)
{
    const ga_snapshot_t *s = &c->ga;
    hsize_t dh = s->generation, dims[2];
    ev_status st = EV_OK;
    for (size_t i = 0; i < ga_snapshot_n_fields && st == EV_OK; i++) {
        const ga_snapshot_field_t *f = &ga_snapshot_fields[i];
        hid_t mem, file;
        int rows;
        if (is_scalar(f->kind) || f->kind == GA_FIELD_RANKED)
            continue;
        array_storage(f->kind, &mem, &file, &rows);
        array_dims(s, f, dims);
        st = rows ? write_plain(rf, f->name, mem, file, 2, dims, ga_snapshot_array(s, f), err)
                  : h5u_write_array(rf->path, rf->file, f->name, mem, file, 2, dims, ga_snapshot_array(s, f), err);
    }
    if (st == EV_OK)
        st =
            h5u_write_array(rf->path, rf->file, "gen_hash", H5T_NATIVE_UINT64, H5T_STD_U64LE, 1, &dh, c->gen_hash, err);
    for (size_t i = 0; i < ga_snapshot_n_fields && st == EV_OK; i++) {
        const ga_snapshot_field_t *f = &ga_snapshot_fields[i];
        if (f->kind == GA_FIELD_RANKED)
            st = run_file_write_ranked(rf, f->name, (const ranked_genome_t *)ga_snapshot_array(s, f), NULL, s->hof_n,
                                       s->hof_k, err);
    }
    return st;
}

static ev_status write_attrs(run_file_t *rf, const checkpoint_t *c, ev_error *err)
{
    ev_status st = run_file_attr_str(rf, "/", "format", CHECKPOINT_FORMAT, err);
    if (st == EV_OK && (st = run_file_attr_u64(rf, "/", "format_version", CHECKPOINT_VERSION, err)) == EV_OK)
        st = identity_write(rf->path, rf->file, &c->id, err);
    for (size_t i = 0; i < ga_snapshot_n_fields && st == EV_OK; i++) {
        const ga_snapshot_field_t *f = &ga_snapshot_fields[i];
        if (f->kind == GA_FIELD_U32 || f->kind == GA_FIELD_U64)
            st = run_file_attr_u64(rf, "/", f->name, ga_snapshot_u64(&c->ga, f), err);
        else if (f->kind == GA_FIELD_F64)
            st = run_file_attr_f64(rf, "/", f->name, ga_snapshot_f64(&c->ga, f), err);
    }
    return st;
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
    if ((st = wrap(&rf, tmp, file, c->ga.n_genes, err)) != EV_OK) {
        H5Fclose(file);
    } else {
        if ((st = write_attrs(&rf, c, err)) == EV_OK)
            st = write_arrays(&rf, c, err);
        if (run_file_close(&rf, st == EV_OK ? err : NULL) != EV_OK && st == EV_OK)
            st = EV_EIO;
    }
    if (st == EV_OK) {
        test_hook_point("checkpoint", c->ga.generation);
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

/* An array of the expected shape, stored at *slot (a const pointer of the
 * caller's struct, freed by checkpoint_free). */
static ev_status read_array(run_file_t *rf, const char *name, hid_t mem, int rank, const hsize_t *want, void *slot,
                            ev_error *err)
{
    void *p = NULL;
    ev_status st = read_shaped(rf, name, mem, rank, want, &p, err);
    memcpy(slot, &p, sizeof p);
    return st;
}

/* The state's scalar attributes, in table order. */
static ev_status read_scalars(run_file_t *rf, ga_snapshot_t *s, ev_error *err)
{
    ev_status st = EV_OK;
    for (size_t i = 0; i < ga_snapshot_n_fields && st == EV_OK; i++) {
        const ga_snapshot_field_t *f = &ga_snapshot_fields[i];
        void *at = ga_snapshot_at(s, f);
        if (f->kind == GA_FIELD_U32)
            st = read_u32(rf, f->name, (uint32_t *)at, err);
        else if (f->kind == GA_FIELD_U64)
            st = run_file_read_u64(rf, "/", f->name, (uint64_t *)at, err);
        else if (f->kind == GA_FIELD_F64)
            st = run_file_read_f64(rf, "/", f->name, (double *)at, err);
    }
    return st;
}

/* The state's arrays and ranked tables, shaped by its scalars. */
static ev_status read_state_arrays(run_file_t *rf, ga_snapshot_t *s, ev_error *err)
{
    ev_status st = EV_OK;
    for (size_t i = 0; i < ga_snapshot_n_fields && st == EV_OK; i++) {
        const ga_snapshot_field_t *f = &ga_snapshot_fields[i];
        hsize_t dims[2];
        hid_t mem, file;
        int rows;
        ranked_genome_t *e = NULL;
        if (is_scalar(f->kind))
            continue;
        if (f->kind == GA_FIELD_RANKED) {
            st = run_file_read_ranked(rf, f->name, &e, NULL, &s->hof_n, err);
            memcpy(ga_snapshot_at(s, f), &e, sizeof e);
            continue;
        }
        array_storage(f->kind, &mem, &file, &rows);
        array_dims(s, f, dims);
        st = read_array(rf, f->name, mem, 2, dims, ga_snapshot_at(s, f), err);
    }
    return st;
}

static ev_status read_all(run_file_t *rf, checkpoint_t *c, ev_error *err)
{
    char *format = NULL;
    uint64_t version = 0;
    ev_status st = run_file_read_str(rf, "/", "format", 0, &format, err);
    hsize_t dh;
    if (st != EV_OK || strcmp(format, CHECKPOINT_FORMAT) != 0)
        st = ev_fail(err, EV_EDATA, "%s: not an evolve checkpoint", rf->path);
    free(format);
    if (st == EV_OK && (st = run_file_read_u64(rf, "/", "format_version", &version, err)) == EV_OK &&
        version != CHECKPOINT_VERSION)
        st = ev_fail(err, EV_EDATA, "%s: checkpoint version %llu, this evolve reads %d", rf->path,
                     (unsigned long long)version, CHECKPOINT_VERSION);
    if (st != EV_OK || (st = identity_read(rf->path, rf->file, &c->id, err)) != EV_OK ||
        (st = read_scalars(rf, &c->ga, err)) != EV_OK)
        return st;
    /* the hall of fame's genes are read into ranked_genome_t's */
    if (c->ga.n_genes > EV_MAX_PARAMS)
        return ev_fail(err, EV_EDATA, "%s: the checkpoint is inconsistent", rf->path);
    rf->n_params = c->ga.n_genes;
    dh = c->ga.generation;
    if ((st = read_state_arrays(rf, &c->ga, err)) == EV_OK)
        st = read_array(rf, "gen_hash", H5T_NATIVE_UINT64, 1, &dh, &c->gen_hash, err);
    return st;
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

static void free_const(const void *p)
{
    void *q;
    memcpy(&q, &p, sizeof q);
    free(q);
}

void checkpoint_free(checkpoint_t *c)
{
    identity_free(&c->id);
    free_const(c->gen_hash);
    for (size_t i = 0; i < ga_snapshot_n_fields; i++)
        if (!is_scalar(ga_snapshot_fields[i].kind))
            free_const(ga_snapshot_array(&c->ga, &ga_snapshot_fields[i]));
    memset(c, 0, sizeof *c);
}
