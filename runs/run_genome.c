#include "runs/run_genome.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/run_file.h"

static ev_status assignments(const lattice_t *lat, const uint16_t *genes, char ***sets, int *n, ev_error *err)
{
    *sets = (char **)calloc((size_t)lat->n_params + 1, sizeof **sets);
    if (!*sets)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    for (int32_t k = 0; k < lat->n_params; k++) {
        const param_t *p = &lat->params[k];
        size_t len = strlen(p->name) + strlen(p->value_text[genes[k]]) + 2;
        if (!((*sets)[k] = (char *)malloc(len)))
            return ev_fail(err, EV_ENOMEM, "out of memory");
        snprintf((*sets)[k], len, "%s=%s", p->name, p->value_text[genes[k]]);
        *n = k + 1;
    }
    return EV_OK;
}

ev_status run_genome_assignments(const char *path, uint64_t rank, char ***sets, int *n, ev_error *err)
{
    run_file_t rf;
    lattice_t lat;
    objective_cfg_t obj;
    ranked_genome_t *e = NULL;
    double *value = NULL;
    char *strategy = NULL;
    uint32_t count = 0;
    const char *group;
    ev_status st;
    *sets = NULL;
    *n = 0;
    memset(&lat, 0, sizeof lat);
    if ((st = run_file_open(&rf, path, err)) != EV_OK)
        return st;
    group = run_file_has(&rf, "grid/top") ? "grid/top" : "ga/hall_of_fame";
    if ((st = run_file_read_str(&rf, "provenance", "strategy", 1, &strategy, err)) == EV_OK && !strategy)
        st = ev_fail(err, EV_EUSAGE, "%s: not a strategy run (no /provenance strategy attribute)", path);
    if (st == EV_OK && (st = run_file_read_lattice(&rf, &lat, &obj, err)) == EV_OK &&
        (st = run_file_read_ranked(&rf, group, &e, &value, &count, err)) == EV_OK) {
        if (rank < 1 || rank > count)
            st = ev_fail(err, EV_EUSAGE, "--rank %llu: %s's %s lists %u genome(s)", (unsigned long long)rank, path,
                         group, count);
        else if (lattice_gene_outside(&lat, e[rank - 1].genes) >= 0)
            st = ev_fail(err, EV_EDATA, "%s: %s row %llu has a gene outside /lattice", path, group,
                         (unsigned long long)rank);
        else
            st = assignments(&lat, e[rank - 1].genes, sets, n, err);
    }
    free(strategy);
    free(e);
    free(value);
    lattice_free(&lat);
    run_file_close(&rf, NULL);
    if (st != EV_OK && *sets) {
        for (int i = 0; i < *n; i++)
            free((*sets)[i]);
        free(*sets);
        *sets = NULL;
        *n = 0;
    }
    return st;
}
