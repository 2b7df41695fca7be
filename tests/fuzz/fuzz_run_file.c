/* The run-file readers (archive/run_read, report/report_load) on any file:
 * the input is written to a temporary .h5 file and loaded as `evolve report`
 * does (report_load, report_print, report_plots into a temporary folder).
 * A failure needs a message; an accepted run must keep report_load's
 * promises: the lattice valid, every hall-of-fame and top-K genome on it,
 * the heatmap pair inside the lattice, the /ga series as long as the
 * generations. HDF5 1.10 itself can crash on damaged files: see README.md
 * (run.sh sorts such crashes out by their stack). */
#include <stdint.h>
#include <stdio.h>

#include "fuzz_common.h"
#include "report/report.h"

static void check_run(const report_run_t *r)
{
    const lattice_t *lat = &r->lat;
    FZ_ASSERT(lat->n_params >= 1 && lat->n_params <= EV_MAX_PARAMS, "%d parameters", (int)lat->n_params);
    for (int32_t k = 0; k < lat->n_params; k++)
        FZ_ASSERT(lat->params[k].n_values >= 1 && lat->params[k].values, "parameter %d has no values", (int)k);
    FZ_ASSERT((r->heat_x < 0 && r->heat_y < 0) || (r->heat_x >= 0 && r->heat_x < lat->n_params && r->heat_y >= 0 &&
                                                   r->heat_y < lat->n_params && r->heat_x != r->heat_y),
              "heatmap pair %d, %d", (int)r->heat_x, (int)r->heat_y);
    for (uint32_t i = 0; i < r->hof.list.n; i++)
        FZ_ASSERT(lattice_gene_outside(lat, r->hof.list.e[i].genes) < 0, "hall of fame row %u off the lattice", i);
    for (uint32_t i = 0; i < r->top.list.n; i++)
        FZ_ASSERT(lattice_gene_outside(lat, r->top.list.e[i].genes) < 0, "top row %u off the lattice", i);
    if (r->rf.has_ga)
        FZ_ASSERT(r->gen && r->best && r->mean && r->hof_best && r->diversity && r->entropy, "a /ga series missing");
    if (r->has_heat)
        FZ_ASSERT(r->heat.px >= 0 && r->heat.px < lat->n_params && r->heat.py >= 0 && r->heat.py < lat->n_params,
                  "heatmap parameters %d, %d", (int)r->heat.px, (int)r->heat.py);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *null_out;
    const char *path = fz_path(0, "run.h5"), *plots = fz_path(1, "plots");
    report_run_t r;
    ev_error err;
    ev_status st;
    if (!null_out && !(null_out = fopen("/dev/null", "w")))
        abort();
    fz_write(path, data, size);
    fz_err_reset(&err);
    st = report_load(&r, path, &err);
    fz_check_status(st, &err, "report_load");
    if (st == EV_OK) {
        check_run(&r);
        report_print(null_out, &r);
        fz_err_reset(&err);
        st = report_plots(&r, plots, r.heat_x, r.heat_y, NULL, &err);
        fz_check_status(st, &err, "report_plots");
    }
    report_free(&r);
    return 0;
}
