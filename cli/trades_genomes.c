/* evolve trades' genomes: --set values, a genomes CSV, a run file's genome at a rank. */
#include "cli/trades_genomes.h"

#include <stdlib.h>
#include <string.h>

#include "io/csv_reader.h"
#include "runs/run_genome.h"

/* --set values are checked once the strategy is known (a config or --strategy
 * may come after them). */
ev_status trades_add_set(const char *name, const char *value, void *dest, ev_error *err)
{
    sets_t *s = (sets_t *)dest;
    (void)name;
    if (s->n == s->cap) {
        int c = s->cap ? 2 * s->cap : 16;
        const char **p = (const char **)realloc((void *)s->v, (size_t)c * sizeof *p);
        if (!p)
            return ev_fail(err, EV_ENOMEM, "out of memory");
        s->v = p;
        s->cap = c;
    }
    s->v[s->n++] = value;
    return EV_OK;
}

ev_status trades_apply_set(const trades_kind_t *k, void *g, const char *a, ev_error *err)
{
    const char *eq = strchr(a, '=');
    if (!eq)
        return ev_fail(err, EV_EUSAGE, "--set: expected NAME=VALUE, got '%s'", a);
    if (k->set(g, a, (size_t)(eq - a), eq + 1, strlen(eq + 1), err) != EV_OK) {
        ev_error_prefix(err, "--set: ");
        return EV_EUSAGE;
    }
    return EV_OK;
}

/* The genomes of a CSV whose header names parameters; the rest from base. */
ev_status trades_read_genomes(const trades_kind_t *k, const char *path, const void *base, char **out, int64_t *n,
                              ev_error *err)
{
    csv_reader_t *r;
    const csv_row_t *row;
    int64_t cap = 0;
    ev_status st;
    *out = NULL;
    *n = 0;
    if ((st = csv_open(path, 0, &r, err)) != EV_OK)
        return st;
    while ((st = csv_next(r, &row, err)) == EV_OK && row) {
        void *g;
        if (*n == cap) {
            int64_t c = cap ? 2 * cap : 256;
            char *q = (char *)realloc(*out, (size_t)c * k->genome_size);
            if (!q) {
                st = ev_fail(err, EV_ENOMEM, "out of memory reading %s", path);
                break;
            }
            *out = q;
            cap = c;
        }
        g = *out + (size_t)*n * k->genome_size;
        memcpy(g, base, k->genome_size);
        for (size_t c = 0; c < row->n_fields; c++) {
            const char *name = csv_column_name(r, (int)c);
            csv_field_t f = csv_trim(row->fields[c]);
            if ((st = k->set(g, name, strlen(name), f.p, f.n, err)) != EV_OK) {
                ev_error_prefix(err, "%s:%lld: column '%s': ", path, (long long)row->line, name);
                break;
            }
        }
        if (st != EV_OK)
            break;
        (*n)++;
    }
    csv_close(r);
    if (st == EV_OK && *n == 0)
        st =
            ev_fail(err, EV_EDATA, "%s: no genome (expected a header of parameter names and one row per genome)", path);
    if (st != EV_OK) {
        free(*out);
        *out = NULL;
        *n = 0;
    }
    return st;
}

/* The run's genome at rank onto genome g (before --set). */
ev_status trades_apply_run_genome(const trades_kind_t *k, const char *run, uint64_t rank, void *g, ev_error *err)
{
    char **sets;
    int n;
    ev_status st = run_genome_assignments(run, rank, &sets, &n, err);
    for (int i = 0; i < n; i++) {
        if (st == EV_OK && (st = trades_apply_set(k, g, sets[i], err)) != EV_OK)
            ev_error_prefix(err, "%s: rank %llu: ", run, (unsigned long long)rank);
        free(sets[i]);
    }
    free(sets);
    return st;
}
