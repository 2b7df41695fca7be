#include "ga/hall_of_fame.h"

#include <stdlib.h>
#include <string.h>

ev_status hof_init(hof_t *h, uint32_t k, ev_error *err)
{
    h->k = k;
    h->n = 0;
    h->e = (ga_hof_entry_t *)calloc(k ? k : 1, sizeof *h->e);
    if (!h->e)
        return ev_fail(err, EV_ENOMEM, "out of memory for a hall of fame of %u genomes", k);
    return EV_OK;
}

void hof_free(hof_t *h)
{
    free(h->e);
    memset(h, 0, sizeof *h);
}

void hof_offer(hof_t *h, const ga_hof_entry_t *x)
{
    uint32_t pos;
    if (x->key == 0 || h->k == 0)
        return;
    if (h->n == h->k && !ga_entry_before(x, &h->e[h->n - 1]))
        return;
    pos = h->n < h->k ? h->n++ : h->k - 1;
    while (pos > 0 && ga_entry_before(x, &h->e[pos - 1])) {
        h->e[pos] = h->e[pos - 1];
        pos--;
    }
    h->e[pos] = *x;
}

void hof_entry_make(ga_hof_entry_t *x, const uint16_t *genes, int32_t n_genes, const uint64_t *index,
                    int32_t index_words, eval_result_t r)
{
    ga_entry_make(x, genes, n_genes, index, index_words, r);
}
