/* Local search's sweeps for ga_run (ga_ls_sweep.h). */
#include "ga/ga_ls_sweep.h"

#include <string.h>

#include "fitness/fold_accum.h"

int ga_ls_sweep(const backend_ops_t *ops, backend_t *b, const ga_run_opts_t *o, int32_t n_genes,
                const uint32_t *n_values, ls_sweep_t *sw)
{
    const fit_tables_t *t = o->ls_batch ? NULL : o->tables ? o->tables : ops->host_tables ? ops->host_tables(b) : NULL;
    memset(sw, 0, sizeof *sw);
    if (o->ls_batch || (t && t->agg != AGG_ALL)) {
        *sw = ls_sweep_batch(n_genes, n_values, ops->evaluate, b);
        return 1;
    }
    if (!t)
        return 0;
    *sw = ls_sweep_tables(t, n_genes);
    return 1;
}
