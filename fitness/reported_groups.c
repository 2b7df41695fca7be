#include "fitness/reported_groups.h"

#include <stdlib.h>
#include <string.h>

#include "fitness/basin.h"
#include "fitness/topk.h"

/* The strategy entry of pick j: a first genome of the list, or of more. */
static strat_entry_t *pick_entry(reported_t *r, uint32_t at, uint32_t *n_more)
{
    return at < r->n ? &r->strat[at] : &r->more->strat[(*n_more)++];
}

ev_status reported_pool(reported_t *r, const fit_problem_t *p, const fit_tables_t *t, const ranked_genome_t *cand,
                        uint32_t n_cand, const uint32_t *pick, uint32_t n_pick, ev_error *err)
{
    ranked_genome_t *more = (ranked_genome_t *)malloc((n_pick ? n_pick : 1) * sizeof *more);
    uint32_t *rank = (uint32_t *)malloc((n_pick ? n_pick : 1) * sizeof *rank);
    uint32_t *count = (uint32_t *)calloc(n_pick ? n_pick : 1, sizeof *count), n_more = 0;
    ev_status st = EV_OK;
    if (!more || !rank || !count)
        st = ev_fail(err, EV_ENOMEM, "out of memory grouping the candidates into strategies");
    for (uint32_t i = 0; st == EV_OK && i < n_pick; i++)
        if (pick[i] >= r->n) { /* a strategy the list does not hold: its rank among the candidates */
            more[n_more] = cand[pick[i]];
            rank[n_more++] = pick[i] + 1;
        }
    if (st == EV_OK && n_more)
        st = reported_more(r, p, t, more, rank, n_more, err);
    /* Every candidate of a picked strategy, found by its result first. */
    for (uint32_t c = 0; st == EV_OK && c < n_cand; c++) {
        uint32_t j;
        for (j = 0; j < n_pick && !strat_same_ranked(t, &cand[pick[j]], &cand[c]); j++)
            ;
        if (j < n_pick)
            count[j]++;
    }
    n_more = 0;
    for (uint32_t j = 0; st == EV_OK && j < n_pick; j++)
        pick_entry(r, pick[j], &n_more)->genomes = count[j];
    free(more);
    free(rank);
    free(count);
    return st;
}

/* Genome i of r's list followed by r->more's. */
static const ranked_genome_t *entry_at(const reported_t *r, uint32_t i)
{
    return i < r->n ? &r->e[i] : &r->more->e[i - r->n];
}

ev_status reported_basins(reported_t *r, const fit_problem_t *p, const fit_tables_t *t, ev_error *err)
{
    uint32_t n_more = r->more ? r->more->n : 0, n_all = r->n + n_more, n_peaks = 0;
    ranked_genome_t *peak = (ranked_genome_t *)calloc(n_all ? n_all : 1, sizeof *peak);
    uint32_t *basin = (uint32_t *)malloc((n_all ? n_all : 1) * sizeof *basin);
    reported_t *peaks = (reported_t *)calloc(1, sizeof *peaks);
    ev_status st = EV_OK;
    if (!peak || !basin || !peaks)
        st = ev_fail(err, EV_ENOMEM, "out of memory grouping the reported genomes into basins");
    for (uint32_t i = 0; st == EV_OK && i < n_all; i++) {
        ranked_genome_t *x = &peak[n_peaks];
        uint32_t steps, b;
        if ((st = basin_climb(t, &p->shape, entry_at(r, i)->genes, x->genes, &x->index, &x->r, &steps, err)) != EV_OK)
            break;
        x->key = rank_key(x->r);
        for (b = 0; b < n_peaks && memcmp(peak[b].genes, x->genes, sizeof x->genes); b++)
            ;
        n_peaks += b == n_peaks;
        basin[i] = b;
    }
    if (st == EV_OK && (st = reported_make(peaks, p, t, peak, n_peaks, err)) == EV_OK) {
        peaks->own_e = peak; /* reported_free frees it from here on */
        peak = NULL;
        free(r->basin);
        r->basin = basin;
        r->peaks = peaks;
        peaks = NULL;
        if (r->more && (r->more->basin = (uint32_t *)malloc((n_more ? n_more : 1) * sizeof *basin)) != NULL)
            memcpy(r->more->basin, basin + r->n, n_more * sizeof *basin);
        else if (r->more)
            st = ev_fail(err, EV_ENOMEM, "out of memory grouping the reported genomes into basins");
        basin = NULL;
    }
    free(peaks);
    free(peak);
    free(basin);
    return st;
}
