/* Test helpers: small input files written from the test itself. */
#ifndef EVOLVE_TESTS_FIXTURE_FILES_H
#define EVOLVE_TESTS_FIXTURE_FILES_H

#include <stdio.h>
#include <stdlib.h>

#include "common/platform.h"

/* Writes text (byte for byte) to path; returns 0 on success. */
static inline int fx_write(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", path);
        return -1;
    }
    fputs(text, f);
    return fclose(f);
}

/* Creates dir (and parents) and removes the files directly inside it, so a
 * test starts from the same state on every run. */
static inline int fx_clean_dir(const char *dir)
{
    ev_error err;
    char **names;
    size_t n;
    if (plat_mkdirs(dir, &err) != EV_OK || plat_list_dir(dir, &names, &n, &err) != EV_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        char *p = plat_path_join(dir, names[i]);
        plat_stat_t st;
        if (p && plat_stat(p, &st) == 0 && !st.is_dir)
            plat_remove(p);
        free(p);
    }
    plat_free_names(names, n);
    return 0;
}

/* The whole content of a stream (a tmpfile used as a log); caller frees. */
static inline char *fx_slurp(FILE *f)
{
    long n;
    char *s;
    fflush(f);
    n = ftell(f);
    s = (char *)calloc((size_t)(n > 0 ? n : 0) + 1, 1);
    if (s && n > 0) {
        rewind(f);
        if (fread(s, 1, (size_t)n, f) != (size_t)n)
            s[0] = '\0';
    }
    return s;
}

#endif
