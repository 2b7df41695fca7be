/* The content-hash memo of the inputs (io/hash_memo.h). */
#include "io/hash_memo.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strutil.h"

typedef struct {
    char *path;
    int64_t size, mtime_ns, hashed_ns;
    uint64_t dev, ino, hash;
} memo_entry_t;

struct hash_memo {
    char *file;
    memo_entry_t *e;
    size_t n, cap;
    int changed;
};

static memo_entry_t *find(const hash_memo_t *m, const char *path)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->e[i].path, path) == 0)
            return &m->e[i];
    return NULL;
}

/* A new entry for path (owned), or NULL when out of memory. */
static memo_entry_t *add(hash_memo_t *m, const char *path)
{
    memo_entry_t *e;
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        memo_entry_t *grown = (memo_entry_t *)realloc(m->e, cap * sizeof *grown);
        if (!grown)
            return NULL;
        m->e = grown;
        m->cap = cap;
    }
    e = &m->e[m->n];
    memset(e, 0, sizeof *e);
    if (!(e->path = ev_strdup(path)))
        return NULL;
    m->n++;
    return e;
}

/* Six numbers (the hash in hex) and the path after one space; 0 when the
 * line is not that. strtoll rather than sscanf's %lld, which not every C
 * runtime reads. */
static int parse(char *line, memo_entry_t *e, char **path)
{
    char *p = line, *end;
    long long v[5];
    for (int i = 0; i < 5; i++, p = end) {
        v[i] = strtoll(p, &end, 10);
        if (end == p || *end != ' ')
            return 0;
    }
    e->hash = (uint64_t)strtoull(p, &end, 16);
    if (end == p || *end != ' ' || !end[1])
        return 0;
    e->size = v[0];
    e->mtime_ns = v[1];
    e->dev = (uint64_t)v[2];
    e->ino = (uint64_t)v[3];
    e->hashed_ns = v[4];
    *path = end + 1;
    return 1;
}

static void load(hash_memo_t *m, FILE *f)
{
    char line[8192], *path;
    memo_entry_t got, *e;
    while (fgets(line, sizeof line, f)) {
        size_t len = strcspn(line, "\r\n");
        if (line[len] != '\n')
            continue; /* a line too long, or the last one cut short */
        line[len] = '\0';
        if (!parse(line, &got, &path) || find(m, path) || !(e = add(m, path)))
            continue;
        got.path = e->path;
        *e = got;
    }
}

hash_memo_t *hash_memo_open(const char *path)
{
    hash_memo_t *m = (hash_memo_t *)calloc(1, sizeof *m);
    FILE *f;
    if (!m || !(m->file = ev_strdup(path))) {
        free(m);
        return NULL;
    }
    if ((f = fopen(path, "rb")) != NULL) {
        load(m, f);
        fclose(f);
    }
    return m;
}

int hash_memo_get(const hash_memo_t *m, const char *abs_path, const plat_stat_t *st, uint64_t *hash)
{
    const memo_entry_t *e = m ? find(m, abs_path) : NULL;
    if (!e || e->size != st->size || e->mtime_ns != st->mtime_ns || e->dev != st->dev || e->ino != st->ino ||
        e->hashed_ns - e->mtime_ns < HASH_MEMO_SETTLE_NS)
        return 0;
    *hash = e->hash;
    return 1;
}

void hash_memo_put(hash_memo_t *m, const char *abs_path, const plat_stat_t *st, int64_t hashed_ns, uint64_t hash)
{
    memo_entry_t *e;
    if (!m || strpbrk(abs_path, "\r\n") || (!(e = find(m, abs_path)) && !(e = add(m, abs_path))))
        return;
    e->size = st->size;
    e->mtime_ns = st->mtime_ns;
    e->dev = st->dev;
    e->ino = st->ino;
    e->hashed_ns = hashed_ns;
    e->hash = hash;
    m->changed = 1;
}

static int newest_first(const void *a, const void *b)
{
    const memo_entry_t *x = (const memo_entry_t *)a, *y = (const memo_entry_t *)b;
    return x->hashed_ns != y->hashed_ns ? (x->hashed_ns < y->hashed_ns ? 1 : -1) : strcmp(x->path, y->path);
}

static void save(hash_memo_t *m)
{
    char *tmp = plat_temp_name(m->file);
    FILE *f = tmp ? fopen(tmp, "wb") : NULL;
    size_t keep = m->n < HASH_MEMO_MAX_ENTRIES ? m->n : HASH_MEMO_MAX_ENTRIES;
    if (f) {
        if (m->n > 1)
            qsort(m->e, m->n, sizeof *m->e, newest_first);
        for (size_t i = 0; i < keep; i++)
            fprintf(f, "%lld %lld %lld %lld %lld %016llx %s\n", (long long)m->e[i].size, (long long)m->e[i].mtime_ns,
                    (long long)m->e[i].dev, (long long)m->e[i].ino, (long long)m->e[i].hashed_ns,
                    (unsigned long long)m->e[i].hash, m->e[i].path);
        if (plat_fclose_written(f) != 0 || plat_rename_replace(tmp, m->file, NULL) != EV_OK)
            plat_remove(tmp);
    }
    free(tmp);
}

void hash_memo_close(hash_memo_t *m)
{
    if (!m)
        return;
    if (m->changed)
        save(m);
    for (size_t i = 0; i < m->n; i++)
        free(m->e[i].path);
    free(m->e);
    free(m->file);
    free(m);
}
