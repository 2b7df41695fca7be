/* The rows of evolve trades on a trade log; see trade_rows.h. */
#include "cli/trade_rows.h"

#include <stdlib.h>

#include "common/platform.h"
#include "common/shortest.h"
#include "fitness/validation.h"
#include "io/timeparse.h"

static const char *part_name(int32_t part)
{
    return part == VAL_HOLDOUT ? "holdout" : "in_sample";
}

/* One trade as a CSV row (sep ",") or a table row. */
static void write_row(FILE *f, const trade_rows_t *rp, int64_t i, int64_t cum, int csv)
{
    const kept_trade_t *k = &rp->k[i];
    const dataset_t *ds = rp->ds;
    char te[32], tx[32], price[EV_SHORTEST_MAX], o[EV_SHORTEST_MAX], c[EV_SHORTEST_MAX];
    ev_shortest(price, sizeof price, ds->entry_price[k->trade]);
    time_format(ds->entry_ts[k->trade], te, sizeof te);
    time_format(k->exit_ts, tx, sizeof tx);
    if (csv)
        fprintf(f, "%lld,%s,%lld,%s,%s,%s,%s,%s,%s,%s\n", (long long)(i + 1), ds->tickers[ds->ticker[k->trade]],
                (long long)ds->trade_id[k->trade], te, price, tx, exit_reason_name(k->reason),
                ev_shortest(o, sizeof o, (double)k->q / 1e6), ev_shortest(c, sizeof c, (double)cum / 1e6),
                part_name(rp->part[i]));
    else
        fprintf(f, "%6lld  %-6s  %8lld  %s  %11s  %s  %-6s  %10.6f  %12.6f  %s\n", (long long)(i + 1),
                ds->tickers[ds->ticker[k->trade]], (long long)ds->trade_id[k->trade], te, price, tx,
                exit_reason_name(k->reason), (double)k->q / 1e6, (double)cum / 1e6, part_name(rp->part[i]));
}

void trade_rows_print(FILE *f, const trade_rows_t *rp, int csv)
{
    int64_t cum = 0;
    if (csv)
        fputs(TRADE_ROWS_CSV_HEADER, f);
    else
        fprintf(f, "%6s  %-6s  %8s  %-19s  %11s  %-19s  %-6s  %10s  %12s  %s\n", "n", "ticker", "trade id",
                "entry time", "entry price", "exit time", "exit", "outcome %", "cumulative %", "part");
    for (int64_t i = 0; i < rp->n; i++) {
        cum += rp->k[i].q;
        write_row(f, rp, i, cum, csv);
    }
}

ev_status trade_rows_write_csv(const char *path, const trade_rows_t *rp, ev_error *err)
{
    char *tmp = plat_temp_name(path);
    FILE *f;
    ev_status st;
    if (!tmp)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    if (!(f = fopen(tmp, "wb"))) {
        free(tmp);
        return ev_fail(err, EV_EIO, "%s: cannot create the trades file", path);
    }
    trade_rows_print(f, rp, 1);
    if (plat_fclose_written(f) != 0)
        st = ev_fail(err, EV_EIO, "%s: cannot write the trades file (disk full?)", path);
    else
        st = plat_rename_replace(tmp, path, err);
    if (st != EV_OK)
        plat_remove(tmp);
    free(tmp);
    return st;
}
