/* gen-data's ownership marker; see gen_marker.h. */
#include "gendata/gen_marker.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"

static const char marker_text[] =
    "evolve gen-data wrote all_trade_logs.csv and market/*.csv in this directory.\n"
    "gen-data replaces existing files of those names only where this file is present.\n";

static int exists(const char *path)
{
    plat_stat_t st;
    return plat_stat(path, &st) == 0;
}

ev_status gen_marker_check(const char *out_dir, char *const *paths, int n, ev_error *err)
{
    char *marker = plat_path_join(out_dir, GEN_MARKER_NAME);
    ev_status st = EV_OK;
    if (!marker)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    if (!exists(marker)) {
        for (int i = 0; i < n && st == EV_OK; i++)
            if (exists(paths[i]))
                st = ev_fail(err, EV_EIO,
                             "%s: exists and was not written by gen-data (no %s beside it); refusing to "
                             "replace it: name a new --out directory",
                             paths[i], marker);
    }
    free(marker);
    return st;
}

ev_status gen_marker_write(const char *out_dir, int *created, ev_error *err)
{
    char *marker = plat_path_join(out_dir, GEN_MARKER_NAME);
    char *tmp = marker ? plat_temp_name(marker) : NULL;
    FILE *f;
    ev_status st = EV_OK;
    *created = 0;
    if (!tmp) {
        free(marker);
        return ev_fail(err, EV_ENOMEM, "out of memory");
    }
    if (!exists(marker)) {
        if (!(f = fopen(tmp, "wb")))
            st = ev_fail(err, EV_EIO, "%s: cannot create: %s", tmp, strerror(errno));
        else if ((fputs(marker_text, f) < 0) | (fclose(f) != 0))
            st = ev_fail(err, EV_EIO, "%s: cannot write: %s", tmp, strerror(errno));
        if (st == EV_OK)
            st = plat_rename_replace(tmp, marker, err);
        if (st == EV_OK)
            *created = 1;
        else
            plat_remove(tmp);
    }
    free(tmp);
    free(marker);
    return st;
}

void gen_marker_remove(const char *out_dir)
{
    char *marker = plat_path_join(out_dir, GEN_MARKER_NAME);
    if (marker)
        plat_remove(marker);
    free(marker);
}
