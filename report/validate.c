#include "report/validate.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <string.h>

#include "fitness/accum.h"
#include "io/json_cells.h"
#include "io/json_summary.h"

/* Entries of a with the same genome in b (each list holds a genome once). */
static uint32_t overlap_genomes(const ranked_genome_t *a, uint32_t na, const ranked_genome_t *b, uint32_t nb,
                                int32_t n_params)
{
    uint32_t same = 0;
    for (uint32_t i = 0; i < na; i++)
        for (uint32_t j = 0; j < nb; j++)
            if (!memcmp(a[i].genes, b[j].genes, (size_t)n_params * sizeof a[i].genes[0])) {
                same++;
                break;
            }
    return same;
}

/* Multiset intersection of the rank keys; both lists are sorted by key,
 * descending. */
static uint32_t overlap_fitness(const ranked_genome_t *a, uint32_t na, const ranked_genome_t *b, uint32_t nb)
{
    uint32_t i = 0, j = 0, same = 0;
    while (i < na && j < nb) {
        if (a[i].key == b[j].key) {
            same++;
            i++;
            j++;
        } else if (a[i].key > b[j].key) {
            i++;
        } else {
            j++;
        }
    }
    return same;
}

void validate_compare(validate_figures_t *v, const reported_t *grid_list, const reported_t *ga_list, uint32_t top_k,
                      int32_t n_params)
{
    const ranked_genome_t *grid = grid_list->e, *ga = ga_list->e;
    uint32_t n_grid = grid_list->n, n_ga = ga_list->n;
    memset(v, 0, sizeof *v);
    v->top_k = top_k;
    v->n_grid = n_grid;
    v->n_ga = n_ga;
    v->grid_best = n_grid ? grid_list->value[0] : NAN;
    v->ga_best = n_ga ? ga_list->value[0] : NAN;
    v->gap = v->grid_best - v->ga_best;
    if (n_grid && n_ga && grid[0].key == ga[0].key)
        v->gap = 0.0; /* equal ranks (inf - inf; compound ties whose products differ in the last bit) */
    v->overlap_genomes = overlap_genomes(grid, n_grid, ga, n_ga, n_params);
    v->overlap_fitness = overlap_fitness(grid, n_grid, ga, n_ga);
    v->ga_feasible = n_ga > 0;
    if (!v->ga_feasible)
        return;
    v->ga_best_key = ga[0].key;
    /* Every point better than the GA's best ranks above the list's last
     * entry when that entry is no better: then they are all in the list. */
    if (n_grid < top_k || grid[n_grid - 1].key <= v->ga_best_key) {
        for (uint32_t i = 0; i < n_grid && grid[i].key > v->ga_best_key; i++)
            v->better++;
        v->rank_known = 1;
        v->rank = v->better + 1;
        v->rank_method = "grid top-K";
    }
}

void validate_print(FILE *out, const validate_figures_t *v)
{
    char label[64];
    fprintf(out, "validate: the GA against the grid (top %u)\n", v->top_k);
    if (!v->ga_feasible)
        fprintf(out, "  %-30s none: every genome it evaluated breaks min_trades or max_drawdown_pct\n",
                "the GA's best:");
    else if (v->rank == 1)
        fprintf(out, "  %-30s 1 (no lattice point is better)\n", "grid rank of the GA's best:");
    else
        fprintf(out, "  %-30s %llu (%llu lattice points are better)\n",
                "grid rank of the GA's best:", (unsigned long long)v->rank, (unsigned long long)v->better);
    fprintf(out, "  %-30s grid %.6g, GA %.6g, gap %.6g\n", "best fitness:", v->grid_best, v->ga_best, v->gap);
    snprintf(label, sizeof label, "top-%u overlap:", v->top_k);
    fprintf(out, "  %-30s %u of %u genomes, %u of %u fitness values\n", label, v->overlap_genomes, v->n_grid,
            v->overlap_fitness, v->n_grid);
    fprintf(out, "  %-30s %llu of %llu points (%.4g%%)\n",
            "lattice the GA evaluated:", (unsigned long long)v->ga_evaluations, (unsigned long long)v->lattice_size,
            100.0 * v->ga_share);
}

void *validate_json(const validate_figures_t *v, const config_t *cfg, const reported_t *ga_top)
{
    cJSON *root = cJSON_CreateObject(), *o = root ? cJSON_AddObjectToObject(root, "validate") : NULL;
    cJSON *top = (cJSON *)json_summary_top(cfg, ga_top);
    jctx c = {.failed = !o || !top};
    if (!c.failed) {
        if (v->ga_feasible) {
            jnum(&c, o, "grid_rank_of_ga_best", (double)v->rank);
            jnum(&c, o, "better_points", (double)v->better);
            jstr(&c, o, "rank_method", v->rank_method);
        }
        jnum(&c, o, "top_k", v->top_k);
        jnum(&c, o, "overlap_genomes", v->overlap_genomes);
        jnum(&c, o, "overlap_fitness", v->overlap_fitness);
        jfitness(&c, o, "grid_best", v->grid_best);
        jfitness(&c, o, "ga_best", v->ga_best);
        jfitness(&c, o, "fitness_gap", v->gap);
        jnum(&c, o, "ga_evaluations", (double)v->ga_evaluations);
        jnum(&c, o, "lattice_size", (double)v->lattice_size);
        jnum(&c, o, "ga_share_evaluated", v->ga_share);
        c.failed |= !cJSON_AddItemToObject(o, "ga_top", top);
        top = c.failed ? top : NULL;
    }
    cJSON_Delete(top);
    if (c.failed) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

ev_status validate_write(run_file_t *rf, const validate_figures_t *v, ev_error *err)
{
    ev_status st = EV_OK;
    if (v->ga_feasible && (st = run_file_attr_u64(rf, "validate", "grid_rank_of_ga_best", v->rank, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "validate", "better_points", v->better, err)) == EV_OK)
        st = run_file_attr_str(rf, "validate", "rank_method", v->rank_method, err);
    if (st == EV_OK &&
        (st = run_file_attr_u64(rf, "validate", "ga_feasible", (uint64_t)v->ga_feasible, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "validate", "top_k", v->top_k, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "validate", "overlap_genomes", v->overlap_genomes, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "validate", "overlap_fitness", v->overlap_fitness, err)) == EV_OK &&
        (st = run_file_attr_f64(rf, "validate", "grid_best", v->grid_best, err)) == EV_OK &&
        (st = run_file_attr_f64(rf, "validate", "ga_best", v->ga_best, err)) == EV_OK &&
        (st = run_file_attr_f64(rf, "validate", "fitness_gap", v->gap, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "validate", "ga_evaluations", v->ga_evaluations, err)) == EV_OK &&
        (st = run_file_attr_u64(rf, "validate", "lattice_size", v->lattice_size, err)) == EV_OK)
        st = run_file_attr_f64(rf, "validate", "ga_share_evaluated", v->ga_share, err);
    return st;
}
