/* The parity probe (ga/backend_probe.h) on random problems (every objective,
 * fill, cost, min/max filters), no GPU needed: the CPU backend against its
 * test twin (ga/backend_twin.h). An exact twin matches on every problem; a
 * twin corrupted in one place (a fitness bit, a trade count, a top-K entry,
 * a bred child, a dedup cache entry) is caught wherever the problem lets
 * that part be exercised, and the message names the step and a genome. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ga/backend_probe.h"
#include "ga/backend_twin.h"
#include "tests/check.h"
#include "tests/support/builder.h"
#include "tests/support/random_problem.h"

static void die(const char *what, const ev_error *err)
{
    fprintf(stderr, "test_backend_probe: %s: %s\n", what, err->msg);
    exit(2);
}

typedef struct {
    const char *mode;
    const char *step; /* what the message starts with */
    int caught, tried;
} corruption_t;

int main(void)
{
    corruption_t cs[] = {{"fitness", "evaluate: genome (", 0, 0},
                         {"trades", "evaluate: genome (", 0, 0},
                         {"topk", "top-", 0, 0},
                         {"breed", "breed (generation 1): individual 1", 0, 0},
                         {"cache", "dedup cache entry", 0, 0}};
    uint64_t rng = 20261125;
    int rounds = 40, exact_ok = 0;
    for (int r = 0; r < rounds; r++) {
        dataset_t ds;
        lattice_t lat;
        objective_cfg_t obj;
        fit_problem_t p;
        tables_host_t t;
        ga_settings_t s;
        backend_t *cpu = NULL, *twin = NULL;
        backend_probe_opts_t o;
        backend_probe_t res;
        ev_error err;
        random_dataset(&ds, &rng, NULL);
        random_lattice(&lat, &ds, &rng);
        random_objective(&obj, &rng);
        ga_settings_default(&s);
        s.islands = 1 + (uint32_t)(tb_rand(&rng) % 3);
        s.population = s.islands * (8 + (uint32_t)(tb_rand(&rng) % 40));
        if (problem_init(&p, &ds, &lat, &obj, &err) != EV_OK || tables_build(&t, &p, &err) != EV_OK)
            die("random problem", &err);
        if (backend_cpu_ops.open(&cpu, &p, &t, &err) != EV_OK)
            die("cpu open", &err);
        memset(&o, 0, sizeof o);
        o.seed = tb_rand(&rng);
        o.random_points = 200 + (uint32_t)(tb_rand(&rng) % 2000);
        /* exact */
        if (backend_twin_select("exact", &err) != EV_OK || backend_twin_ops.open(&twin, &p, &t, &err) != EV_OK)
            die("twin", &err);
        if (backend_probe_run(&backend_cpu_ops, cpu, &backend_twin_ops, twin, &p, &t.view, &s, &o, &res, &err) != EV_OK)
            die("probe", &err);
        if (!res.match)
            fprintf(stderr, "round %d: an exact twin differs: %s\n", r, res.what);
        CHECK(res.match);
        CHECK(res.ga_checked);
        exact_ok += res.match;
        backend_twin_ops.close(twin);
        /* each corruption */
        for (size_t c = 0; c < sizeof cs / sizeof cs[0]; c++) {
            if (backend_twin_select(cs[c].mode, &err) != EV_OK || backend_twin_ops.open(&twin, &p, &t, &err) != EV_OK)
                die("twin", &err);
            if (backend_probe_run(&backend_cpu_ops, cpu, &backend_twin_ops, twin, &p, &t.view, &s, &o, &res, &err) !=
                EV_OK)
                die("probe", &err);
            cs[c].tried++;
            if (!res.match) {
                cs[c].caught++;
                if (strncmp(res.what, cs[c].step, strlen(cs[c].step)) != 0 || !strstr(res.what, "genome") ||
                    !strstr(res.what, "cpu: ") || !strstr(res.what, "twin: ")) {
                    fprintf(stderr, "round %d, %s: unexpected message: %s\n", r, cs[c].mode, res.what);
                    CHECK(0);
                }
            }
            backend_twin_ops.close(twin);
        }
        backend_cpu_ops.close(cpu);
        tables_free(&t);
        problem_free(&p);
        lattice_free(&lat);
        dataset_free(&ds);
    }
    printf("exact twin: %d of %d problems match\n", exact_ok, rounds);
    for (size_t c = 0; c < sizeof cs / sizeof cs[0]; c++) {
        printf("%-8s caught in %d of %d problems\n", cs[c].mode, cs[c].caught, cs[c].tried);
        /* fitness and trades: always (genome 17 of thousands); the others
         * need a lattice where the corrupted value exists (a feasible genome
         * for top-K, a gene with 2 values for breed): most problems */
        if (!strcmp(cs[c].mode, "fitness") || !strcmp(cs[c].mode, "trades") || !strcmp(cs[c].mode, "cache"))
            CHECK_EQ_I64(cs[c].tried, cs[c].caught);
        else
            CHECK(cs[c].caught * 2 > cs[c].tried);
    }
    return check_exit();
}
