/* The GPU probe of a run and its verdicts (runs/gpu_probe.h). */
#include "runs/gpu_probe.h"

#include <stdio.h>
#include <string.h>

#include "runs/backend_strategy.h"
#include "ga/backend_probe.h"

/* A strategy's probe: each genome is a backtest over all the bars on both
 * sides, so fewer than a trade log's: 256 random lattice points, the corners
 * (at most 256) and three top-K selections over 128 points each. */
#define GPU_PROBE_STRATEGY_RANDOM 256u
#define GPU_PROBE_STRATEGY_TOPK 128u

/* The CPU backend the device is checked against (and falls back to): the
 * trade-log CPU backend on the session's tables, or a strategy's CPU backend
 * on the session's strategy (the same store: the same series on both sides). */
static ev_status open_reference(session_t *s, const backend_ops_t **ops, backend_t **cpu, ev_error *err)
{
    if (s->strategy) {
        *ops = &backend_strategy_ops;
        return backend_strategy_open(*ops, cpu, s->strategy, &s->prob, err);
    }
    *ops = &backend_cpu_ops;
    return backend_cpu_ops.open(cpu, &s->prob, &s->tables, err);
}

ev_status gpu_probe_session(session_t *s, const session_opts_t *opts, ev_error *err)
{
    const backend_ops_t *dev = s->ops, *ref = NULL;
    backend_t *cpu = NULL;
    backend_probe_opts_t po;
    backend_probe_t r;
    ev_status st;
    int asked_auto = !strcmp(opts->backend, "auto");
    if (opts->no_probe) {
        snprintf(s->probe, sizeof s->probe,
                 "skipped (--no-gpu-probe): the %s backend's results were not checked against the CPU", dev->name);
        run_note(opts->report, "gpu probe: skipped (--no-gpu-probe): the %s backend is trusted unchecked\n", dev->name);
        return EV_OK;
    }
    if ((st = open_reference(s, &ref, &cpu, err)) != EV_OK)
        return st;
    memset(&po, 0, sizeof po);
    po.seed = s->cfg.seed;
    po.random_points = s->strategy ? GPU_PROBE_STRATEGY_RANDOM : 0;
    po.topk_range = s->strategy ? GPU_PROBE_STRATEGY_TOPK : 0;
    st = backend_probe_run(ref, cpu, dev, s->backend, &s->prob, s->strategy ? NULL : &s->tables.view, &s->cfg.ga, &po,
                           &r, err);
    if (st != EV_OK) {
        ref->close(cpu);
        ev_error_prefix(err, "gpu probe: ");
        return st;
    }
    if (r.match) {
        ref->close(cpu);
        /* the run file records the verdict without its timing, so that a
         * resumed run's file equals the uninterrupted one's (the log has it) */
        snprintf(s->probe, sizeof s->probe, "passed: the %s backend equals the cpu backend bit for bit on %s",
                 dev->name, r.summary);
        run_note(opts->report, "gpu probe: %s == cpu on %s (%.1f ms)\n", dev->name, r.summary, r.seconds * 1e3);
        return EV_OK;
    }
    if (!asked_auto) {
        ref->close(cpu);
        return ev_fail(err, EV_ECUDA,
                       "--backend %s: the GPU probe found the %s backend disagreeing with the CPU: %s. Nothing was "
                       "run: its results cannot be trusted. Run with --backend cpu (or --backend auto, which falls "
                       "back to the CPU), and check the GPU with `evolve doctor`",
                       opts->backend, dev->name, r.what);
    }
    /* auto: loudly, even with --quiet, then the CPU backend opened for the probe runs the search */
    run_warning(opts->report,
                "evolve: WARNING: the GPU probe found the %s backend disagreeing with the CPU: %s\n"
                "evolve: WARNING: this run falls back to the CPU backend (recorded in the run file's "
                "/provenance backend_probe); check the GPU with `evolve doctor`\n",
                dev->name, r.what);
    snprintf(s->probe, sizeof s->probe,
             "failed, the run fell back to the cpu backend: the %s backend (%s) disagreed: %s", dev->name, s->device,
             r.what);
    dev->close(s->backend);
    s->ops = ref;
    s->backend = cpu;
    s->ops->describe(s->backend, s->device, sizeof s->device);
    return EV_OK;
}
