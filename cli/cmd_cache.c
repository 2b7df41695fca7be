/* evolve cache: lists or clears the shared dataset cache (docs/dataset.md,
 * "The dataset cache"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cmd_cache.h"
#include "common/options.h"
#include "io/dataset_cache.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: evolve cache [--clear]\n"
            "\n"
            "Lists the shared dataset cache: one file per content of a config's market files\n"
            "and trade log (and its tickers, features and strict), whatever config or output\n"
            "uses it. Each line: the key, the size, when it was last used (UTC) and the\n"
            "inputs it was first built from.\n"
            "\n"
            "  --clear   remove every cached dataset (one in use by a running evolve is kept)\n"
            "  --help    this text\n"
            "\n"
            "The folder is $EVOLVE_CACHE_DIR/datasets, else $XDG_CACHE_HOME/evolve/datasets,\n"
            "else ~/.cache/evolve/datasets (%%LOCALAPPDATA%%\\evolve\\cache\\datasets on Windows).\n"
            "When a new dataset makes it larger than $EVOLVE_CACHE_MAX_MB (default %d), the\n"
            "least recently used ones are removed. A config's data.cache names its own file\n"
            "instead.\n"
            "Exit status: 0 done, 1 a file could not be read or removed, 2 bad command line.\n",
            DATASET_CACHE_MAX_MB_DEFAULT);
}

static void utc(int64_t ns, char *buf, size_t n)
{
    time_t t = (time_t)(ns / 1000000000LL);
    struct tm *tm = gmtime(&t);
    if (!tm || !strftime(buf, n, "%Y-%m-%d %H:%M:%S", tm))
        snprintf(buf, n, "?");
}

static ev_status list(const char *dir, const dataset_cache_entry_t *e, size_t n)
{
    int64_t total = 0;
    char when[32];
    printf("dataset cache %s: %zu file(s)\n", dir, n);
    for (size_t i = 0; i < n; i++) {
        char *inputs = dataset_cache_inputs(e[i].path);
        utc(e[i].mtime_ns, when, sizeof when);
        printf("%s  %10.1f MB  %s  %s\n", e[i].key, (double)e[i].size / (1 << 20), when, inputs ? inputs : "?");
        total += e[i].size;
        free(inputs);
    }
    printf("total %.1f MB\n", (double)total / (1 << 20));
    return EV_OK;
}

static ev_status clear(const char *dir, const dataset_cache_entry_t *e, size_t n, ev_error *err)
{
    size_t removed = 0, busy = 0;
    ev_error why;
    ev_status st = EV_OK;
    for (size_t i = 0; i < n; i++) {
        ev_status s = dataset_cache_remove(e[i].path, &why);
        if (s == EV_OK) {
            removed++;
        } else if (s == EV_EBUSY) {
            busy++;
            fprintf(stderr, "evolve cache: note: kept %s: %s\n", e[i].path, why.msg);
        } else if (st == EV_OK) {
            st = ev_fail(err, s, "%s", why.msg);
        }
    }
    printf("dataset cache %s: removed %zu file(s)%s\n", dir, removed, busy ? ", kept those in use" : "");
    return st;
}

int cmd_cache(int argc, char **argv)
{
    int do_clear = 0;
    const opt_spec_t opts[] = {{.name = "--clear", .kind = OPT_FLAG, .dest = &do_clear}};
    const opt_table_t t = {.opts = opts, .n_opts = 1, .positional_hint = "evolve cache takes no file"};
    dataset_cache_entry_t *e = NULL;
    size_t n = 0;
    char *dir = NULL;
    opt_result res;
    ev_error err;
    ev_status st = opt_parse(&t, argc, argv, &res, &err);
    if (st == EV_EUSAGE) {
        fprintf(stderr, "evolve cache: %s (see evolve cache --help)\n", err.msg);
        return ev_exit_code(st);
    }
    if (res == OPT_HELP) {
        usage(stdout);
        return 0;
    }
    if ((st = dataset_cache_dir(&dir, &err)) == EV_OK && (st = dataset_cache_entries(dir, &e, &n, &err)) == EV_OK)
        st = do_clear ? clear(dir, e, n, &err) : list(dir, e, n);
    if (st != EV_OK)
        fprintf(stderr, "evolve cache: error: %s\n", err.msg);
    dataset_cache_entries_free(e, n);
    free(dir);
    return ev_exit_code(st);
}
