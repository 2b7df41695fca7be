/* Helpers shared by the config tests: write a YAML text to a file under the
 * test's working directory. */
#ifndef EVOLVE_TESTS_CONFIG_TEST_UTIL_H
#define EVOLVE_TESTS_CONFIG_TEST_UTIL_H

#include <stdio.h>
#include <string.h>

#include "common/platform.h"

/* Writes text to dir/name (creating dir); returns 0 on success. */
static inline int write_text(const char *dir, const char *name, const char *text, char *path, size_t path_size)
{
    ev_error err;
    FILE *f;
    size_t n = strlen(text);
    if (plat_mkdirs(dir, &err) != EV_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    snprintf(path, path_size, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "cannot write %s\n", path);
        return -1;
    }
    if (fwrite(text, 1, n, f) != n) {
        fclose(f);
        return -1;
    }
    return fclose(f) == 0 ? 0 : -1;
}

/* 1 when every byte of the object is zero (a failed config_load leaves cfg so). */
static inline int all_zero(const void *p, size_t n)
{
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++)
        if (b[i])
            return 0;
    return 1;
}

#endif
