/* Placeholder until the CUDA backend lands: registered but refuses to open. */
#include "ga/backend.h"

static ev_status stub_open(backend_t **b, const fit_problem_t *p, const tables_host_t *t, ev_error *err)
{
    (void)b;
    (void)p;
    (void)t;
    return ev_fail(err, EV_ENODEV, "the CUDA backend is not implemented yet");
}

const backend_ops_t backend_cuda_ops = {"cuda", stub_open, NULL, NULL, NULL, NULL, NULL, NULL};
