/* evolve doctor's longest-launch check against the OS watchdog. */
#include "cli/doctor_gpu_launch.h"

#include <string.h>

#include "fitness/tables.h"
#include "kernels/backend_cuda.h"
#include "kernels/cuda_api.h"
#include "runs/synth_data.h"

void doctor_check_launch(doctor_tally_t *t)
{
    dataset_t ds;
    lattice_t lat;
    objective_cfg_t obj;
    fit_problem_t p;
    tables_host_t h;
    cuda_tables_t *d = NULL;
    cuda_eval_t *e = NULL;
    cuda_eval_sizes_t sz;
    uint64_t free_bytes = 0, total_bytes = 0;
    int sms = 0, have_ds = 0, have_lat = 0, have_p = 0, have_h = 0;
    double secs = 0.0;
    ev_error err;
    ev_status st;
    memset(&obj, 0, sizeof obj);
    obj.kind = OBJ_SHARPE; /* the slowest objective per trade: 128-bit sums of squares */
    obj.min_trades = 10;
    if ((st = synth_dataset(&ds, 50000, 10, 11, &err)) == EV_OK && (have_ds = 1) &&
        (st = synth_lattice(&lat, "1e8", &ds, &err)) == EV_OK && (have_lat = 1) &&
        (st = problem_init(&p, &ds, &lat, &obj, &err)) == EV_OK && (have_p = 1) &&
        (st = tables_build(&h, &p, &err)) == EV_OK && (have_h = 1) &&
        (st = cuda_tables_upload(&d, &h, &err)) == EV_OK &&
        (st = cuda_device_memory(&free_bytes, &total_bytes, &sms, &err)) == EV_OK) {
        cuda_plan_sizes(&sz, free_bytes, sms, p.ds->n_trades, p.shape.n_params, cuda_batch_bound(&lat));
        if ((st = cuda_eval_open(&e, d, &p.shape, &sz, &err)) == EV_OK) {
            /* once to warm up (module load), then measured */
            st = cuda_eval_time_launch(e, sz.launch_max, &secs, &err);
            if (st == EV_OK)
                st = cuda_eval_time_launch(e, sz.launch_max, &secs, &err);
            sz = cuda_eval_sizes(e);
        }
    }
    if (st != EV_OK)
        doctor_verdict(t, 0, "longest launch: %s", err.msg);
    else
        doctor_verdict(
            t, secs <= DOCTOR_LAUNCH_LIMIT_S,
            "longest launch: %.1f ms (%llu genomes x %lld trades, sharpe) against Windows' 2 s watchdog (limit "
            "%.1f s)",
            secs * 1e3, (unsigned long long)sz.launch_max, (long long)p.ds->n_trades, DOCTOR_LAUNCH_LIMIT_S);
    cuda_eval_close(e);
    cuda_tables_free(d);
    if (have_h)
        tables_free(&h);
    if (have_p)
        problem_free(&p);
    if (have_lat)
        lattice_free(&lat);
    if (have_ds)
        dataset_free(&ds);
}
