/* ingest_key: the content key of an ingest (io/ingest_key.h). */
#include "io/ingest_key.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xxhash.h>

#include "common/plat_cache.h"
#include "common/platform.h"
#include "common/strutil.h"
#include "io/hash_memo.h"

/* Bumped whenever ingest would build a different dataset from the same
 * inputs, so older caches are rebuilt rather than reused. */
#define INGEST_FORMAT_TAG "evolve-ingest-2"

static void hash_str(XXH64_state_t *h, const char *s)
{
    XXH64_update(h, s, strlen(s) + 1); /* the NUL separates consecutive strings */
}

static void hash_i64(XXH64_state_t *h, int64_t v)
{
    XXH64_update(h, &v, sizeof v);
}

/* The length and XXH64 of a file's bytes. */
static ev_status hash_bytes(const char *path, const char *what, int64_t *len, uint64_t *digest, ev_error *err)
{
    enum { CHUNK = 1 << 20 };
    FILE *f = plat_open_input(path, what, err);
    char *buf = f ? (char *)malloc(CHUNK) : NULL;
    XXH64_state_t *one = buf ? XXH64_createState() : NULL;
    size_t n;
    ev_status st = EV_OK;
    if (!f)
        return err->status;
    if (!one) {
        fclose(f);
        free(buf);
        return ev_fail(err, EV_ENOMEM, "out of memory");
    }
    XXH64_reset(one, 0);
    *len = 0;
    while ((n = fread(buf, 1, CHUNK, f)) > 0) {
        XXH64_update(one, buf, n);
        *len += (int64_t)n;
    }
    if (ferror(f))
        st = ev_fail(err, EV_EIO, "%s: cannot read it", path);
    *digest = XXH64_digest(one);
    XXH64_freeState(one);
    free(buf);
    fclose(f);
    return st;
}

/* Feeds the length and the hash of one input file's bytes: from the memo
 * when it holds the file as it is, else read (and recorded). */
static ev_status hash_file(XXH64_state_t *h, hash_memo_t *memo, const char *path, const char *what, ev_error *err)
{
    plat_stat_t ps;
    int have_stat = plat_stat(path, &ps) == 0;
    char *abs = memo && have_stat ? plat_abs_path(path) : NULL;
    int64_t now_ns = (int64_t)time(NULL) * 1000000000LL, len = 0; /* before the read: a later write is newer */
    uint64_t digest = 0;
    ev_status st = EV_OK;
    if (abs && hash_memo_get(memo, abs, &ps, &digest)) {
        len = ps.size;
    } else if ((st = hash_bytes(path, what, &len, &digest, err)) == EV_OK && abs && len == ps.size) {
        hash_memo_put(memo, abs, &ps, now_ns, digest);
    }
    free(abs);
    hash_i64(h, len);
    hash_i64(h, (int64_t)digest);
    return st;
}

/* The memo in the cache folder, created when missing; NULL without one. */
static hash_memo_t *open_memo(void)
{
    char *dir = plat_cache_dir(), *path = dir ? plat_path_join(dir, "hash-memo") : NULL;
    hash_memo_t *m = NULL;
    ev_error ignored;
    if (path && plat_mkdirs(dir, &ignored) == EV_OK)
        m = hash_memo_open(path);
    free(dir);
    free(path);
    return m;
}

ev_status ingest_key(const market_files_t *files, const ingest_opts_t *o, uint64_t *key, ev_error *err)
{
    XXH64_state_t *h = XXH64_createState();
    hash_memo_t *memo = h ? open_memo() : NULL;
    ev_status st = EV_OK;
    if (!h)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    XXH64_reset(h, 0);
    hash_str(h, INGEST_FORMAT_TAG);
    hash_i64(h, (int64_t)files->n);
    for (size_t i = 0; i < files->n && st == EV_OK; i++) {
        hash_str(h, plat_basename(files->files[i].path)); /* the day */
        st = hash_file(h, memo, files->files[i].path, "a market data CSV file", err);
    }
    if (st == EV_OK)
        st = hash_file(h, memo, o->trades_path, "the trade log CSV file", err);
    hash_i64(h, o->n_tickers);
    for (int32_t i = 0; i < o->n_tickers; i++)
        hash_str(h, o->tickers[i]);
    hash_i64(h, o->n_extra_features);
    for (int32_t i = 0; i < o->n_extra_features; i++)
        hash_str(h, o->extra_features[i]);
    hash_i64(h, o->strict != 0);
    *key = XXH64_digest(h);
    XXH64_freeState(h);
    hash_memo_close(memo);
    return st;
}

static ev_status restamp(dataset_source_t *s, const char *path, int64_t size, int64_t mtime_ns, ev_error *err)
{
    char *p = ev_strdup(path);
    if (!p)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    free(s->path);
    s->path = p;
    s->size = size;
    s->mtime_ns = mtime_ns;
    return EV_OK;
}

ev_status ingest_restamp_sources(const ingest_opts_t *o, dataset_t *ds, ev_error *err)
{
    market_files_t files;
    plat_stat_t ts;
    ev_status st;
    if ((st = plat_check_input(o->trades_path, "the trade log CSV file", &ts, err)) != EV_OK ||
        (st = market_list_files(o->market_dir, &files, err)) != EV_OK)
        return st;
    /* the key holds the market files' names, so the same days in the same order */
    if ((size_t)ds->n_sources != files.n + 1)
        st = ev_fail(err, EV_EDATA, "%s: the cached dataset lists %d input file(s), the inputs are %zu", o->market_dir,
                     (int)ds->n_sources, files.n + 1);
    for (size_t i = 0; i < files.n && st == EV_OK; i++)
        st = restamp(&ds->sources[i], files.files[i].path, files.files[i].size, files.files[i].mtime_ns, err);
    if (st == EV_OK)
        st = restamp(&ds->sources[files.n], o->trades_path, ts.size, ts.mtime_ns, err);
    market_files_free(&files);
    return st;
}
