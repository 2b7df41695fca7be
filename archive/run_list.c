/* A reported list read back whole from a run file. */
#include "archive/run_list.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_baseline.h"
#include "archive/run_groups.h"
#include "archive/run_stats.h"
#include "archive/run_validation_read.h"

ev_status run_list_read(run_file_t *rf, const char *group, const char *table, run_list_t *l, ev_error *err)
{
    char path[512];
    ev_status st;
    memset(l, 0, sizeof *l);
    snprintf(path, sizeof path, "%s/trader_stats", group);
    if ((st = run_file_read_ranked(rf, table, &l->e, &l->list.value, &l->list.n, err)) == EV_OK &&
        (st = run_file_read_stats(rf, path, l->list.n, &l->list.stats, err)) == EV_OK &&
        (st = run_file_read_validation(rf, group, l->list.n, &l->list.val, &l->split, err)) == EV_OK &&
        (st = run_file_read_baselines(rf, group, &l->list, &l->split, err)) == EV_OK)
        st = run_file_read_groups(rf, group, table, &l->list, err);
    l->list.e = l->e;
    l->list.split = l->list.val ? &l->split : NULL;
    if (st != EV_OK)
        run_list_free(l);
    return st;
}

void run_list_free(run_list_t *l)
{
    reported_free(&l->list);
    free(l->e);
    val_split_free(&l->split);
    memset(l, 0, sizeof *l);
}
