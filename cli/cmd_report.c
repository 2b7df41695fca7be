/* evolve report RUN.h5 [--out DIR] [--heatmap X,Y]: a run file's summary on
 * the terminal and its charts as SVG files (report/). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/options.h"
#include "common/strutil.h"
#include "cli/commands.h"
#include "report/report.h"
#include "report/report_equity.h"
#include "report/report_html.h"
#include "runs/run_paths.h"

static void report_usage(FILE *out)
{
    fprintf(out,
            "usage: evolve report RUN.h5 [--out DIR] [--heatmap X,Y] [--dataset FILE]\n"
            "\n"
            "Summarises a run file written by 'evolve CONFIG' (GA), '--grid' or '--validate' (finished, or a\n"
            "RUN.h5.partial that no process writes any more: interrupted, or dead after a kill or crash; one\n"
            "its process still writes is refused naming that process): mode, config, dataset, generations,\n"
            "stop reason, the hall of fame and grid top-K, the validate figures. Draws SVG charts:\n"
            "  fitness.svg     best, mean and best-so-far fitness per generation (GA)\n"
            "  diversity.svg   unique genomes and gene entropy per generation (GA)\n"
            "  heatmap.svg     the best fitness over two parameters, over every value of the others:\n"
            "                  from the grid where the run has one, else from every genome the GA evaluated\n"
            "  equity.svg      the top-1's cumulative result over its kept trades, holdout trades shaded\n"
            "  daily.svg       the top-1's result per trading day (also printed), holdout days shaded;\n"
            "  versus.svg      the top-1 and each baseline, cumulative by trading day, holdout days shaded;\n"
            "                  all three replay on the run's dataset, skipped with a note without it\n"
            "and one page with all of it, DIR/index.html: self-contained (charts inline, no file or network\n"
            "reference), for a browser or to print on A4\n"
            "\n"
            "options:\n"
            "  --out DIR       where the charts and the page go (default: RUN_report beside the run file)\n"
            "  --heatmap X,Y   the heatmap's parameters (default: the config's report.heatmap, else the first\n"
            "                  two filter parameters); the grid records only its configured pair\n"
            "  --dataset FILE  the run's dataset at another path, for the equity curve (content hash checked)\n"
            "  --help          this text\n"
            "\n"
            "Exit status: 0 success, 1 error (a missing or foreign file, an unwritable DIR), 2 usage error.\n");
}

/* <run without .h5>_report */
static char *default_out(const char *run)
{
    size_t n = strlen(run);
    const char *suffix = "_report";
    char *out;
    if (n > 8 && !strcmp(run + n - 8, ".partial"))
        n -= 8;
    if (n > 3 && !strcmp(run + n - 3, ".h5"))
        n -= 3;
    out = (char *)malloc(n + strlen(suffix) + 1);
    if (out) {
        memcpy(out, run, n);
        strcpy(out + n, suffix);
    }
    return out;
}

#define DEAD_STATUS "dead: its process is gone (killed or crashed); --resume continues it"

/* A .partial's status as it is: "running" written by a process that no
 * longer holds the run's lock is a dead run; a file HDF5 keeps locked is
 * refused naming the evolve process writing it. */
static ev_status liveness(report_run_t *r, const char *run, ev_status loaded, ev_error *err)
{
    long holder = 0;
    char *dead;
    if (loaded == EV_EBUSY && run_paths_live(run, &holder) == 1)
        return ev_fail(err, EV_EBUSY,
                       "%s: evolve process %ld is writing this run now; it can be read once that process stops: "
                       "wait for it, or stop it with Ctrl-C (the interrupted run is read as it is, and --resume "
                       "continues it)",
                       run, holder);
    if (loaded != EV_OK || !r->status || strcmp(r->status, "running") != 0 || run_paths_live(run, &holder) != 0)
        return loaded;
    if (!(dead = ev_strdup(DEAD_STATUS)))
        return ev_fail(err, EV_ENOMEM, "out of memory");
    free(r->status);
    r->status = dead;
    return EV_OK;
}

int cmd_report(int argc, char **argv)
{
    const char *run = NULL, *out = NULL, *heat = NULL, *dataset = NULL;
    char *dir, *days_text = NULL;
    FILE *days = NULL;
    report_run_t r;
    int32_t px, py;
    ev_error err;
    ev_status st;
    const opt_spec_t opts[] = {
        {.name = "--out", .kind = OPT_STRING, .dest = &out},
        {.name = "--heatmap", .kind = OPT_STRING, .dest = &heat},
        {.name = "--dataset", .kind = OPT_STRING, .dest = &dataset},
    };
    const opt_table_t t = {.opts = opts,
                           .n_opts = (int)(sizeof opts / sizeof opts[0]),
                           .positional = &run,
                           .max_positional = 1,
                           .positional_hint = "one run file is expected"};
    opt_result res;
    if (opt_parse(&t, argc, argv, &res, &err) != EV_OK) {
        fprintf(stderr, "evolve report: %s (see evolve report --help)\n", err.msg);
        return 2;
    }
    if (res == OPT_HELP) {
        report_usage(stdout);
        return 0;
    }
    if (!run) {
        fprintf(stderr, "evolve report: no run file given (usage: evolve report RUN.h5 [--out DIR])\n");
        return 2;
    }
    memset(&err, 0, sizeof err);
    if ((st = liveness(&r, run, report_load(&r, run, &err), &err)) != EV_OK) {
        fprintf(stderr, "evolve report: error: %s\n", err.msg);
        report_free(&r);
        return ev_exit_code(st);
    }
    dir = out ? NULL : default_out(run);
    /* every argument and output checked before anything is printed */
    if ((st = report_heat_pair(&r, heat, &px, &py, &err)) == EV_OK &&
        (st = report_check_out(&r, out ? out : dir, dataset, &err)) == EV_OK &&
        (st = report_html_check(out ? out : dir, &err)) == EV_OK) {
        report_print(stdout, &r);
        st = report_plots(&r, out ? out : dir, px, py, stderr, &err);
    }
    if (st == EV_OK && !(days = tmpfile()))
        st = ev_fail(&err, EV_EIO, "cannot open a temporary file for the per-day table");
    if (st == EV_OK && (st = report_equity(&r, dataset, out ? out : dir, days, stderr, &err)) == EV_OK) {
        report_html_t h = {&r, out ? out : dir, days_text = report_html_slurp(days)};
        fputs(days_text ? days_text : "", stdout);
        st = report_html_write(&h, stderr, &err);
    }
    if (st != EV_OK)
        fprintf(stderr, "evolve report: error: %s\n", err.msg);
    if (days)
        fclose(days);
    free(days_text);
    free(dir);
    report_free(&r);
    return ev_exit_code(st);
}
