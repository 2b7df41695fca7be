/* evolve trades' trades and metrics files, written under temporary names and renamed when whole. */
#include "cli/trades_write.h"

#include <stdio.h>
#include <stdlib.h>

#include "common/platform.h"

ev_status trades_write_all(const trades_kind_t *k, const bars_t *b, double cost_pct, const char *csv,
                           const char *metrics, const char *gs, int64_t n_gs, int64_t *total, void **store_out,
                           ev_error *err)
{
    FILE *out = NULL, *mout = NULL;
    char *tmp = NULL, *mtmp = NULL;
    void *store = NULL;
    ev_status st;
    *total = 0;
    if ((st = k->store_create(b, &store, err)) != EV_OK)
        goto done;
    *store_out = store;
    tmp = plat_temp_name(csv);
    mtmp = metrics ? plat_temp_name(metrics) : NULL;
    if (!tmp || (metrics && !mtmp)) {
        st = ev_fail(err, EV_ENOMEM, "out of memory");
        goto done;
    }
    if (metrics && !(mout = fopen(mtmp, "wb"))) {
        st = ev_fail(err, EV_EIO, "%s: cannot create the metrics file", metrics);
        goto done;
    }
    if (!(out = fopen(tmp, "wb"))) {
        st = ev_fail(err, EV_EIO, "%s: cannot create the trades file", csv);
        goto done;
    }
    fputs(k->header, out);
    if (mout)
        fputs(k->metrics_header, mout);
    for (int64_t g = 0; g < n_gs; g++) {
        int64_t n;
        if ((st = k->write(store, b, g, gs + (size_t)g * k->genome_size, cost_pct, out, mout, &n, err)) != EV_OK) {
            ev_error_prefix(err, "genome %lld: ", (long long)g);
            goto done;
        }
        *total += n;
    }
    {
        const int e = plat_fclose_written(out);
        out = NULL;
        if (e != 0) {
            st = ev_fail(err, EV_EIO, "%s: cannot write the trades file (disk full?)", csv);
            goto done;
        }
    }
    if (mout) {
        const int e = plat_fclose_written(mout);
        mout = NULL;
        if (e != 0) {
            st = ev_fail(err, EV_EIO, "%s: cannot write the metrics file (disk full?)", metrics);
            goto done;
        }
        if ((st = plat_rename_replace(mtmp, metrics, err)) != EV_OK)
            goto done;
    }
    st = plat_rename_replace(tmp, csv, err);
done:
    if (out)
        fclose(out);
    if (mout)
        fclose(mout);
    if (st != EV_OK) {
        if (tmp)
            plat_remove(tmp);
        if (mtmp)
            plat_remove(mtmp);
    }
    free(tmp);
    free(mtmp);
    return st;
}
