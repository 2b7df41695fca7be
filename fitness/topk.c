#include "fitness/topk.h"

#include <stdlib.h>
#include <string.h>

ev_status topk_init(topk_t *t, uint32_t k, ev_error *err)
{
    t->k = k;
    t->n = 0;
    t->e = (ranked_genome_t *)calloc(k ? k : 1, sizeof *t->e);
    if (!t->e)
        return ev_fail(err, EV_ENOMEM, "out of memory for a top-%u list", k);
    return EV_OK;
}

void topk_free(topk_t *t)
{
    free(t->e);
    t->e = NULL;
    t->n = t->k = 0;
}

topk_bar_t topk_bar(const topk_t *t)
{
    topk_bar_t b;
    b.closed = t->k == 0;
    b.full = !b.closed && t->n >= t->k;
    b.key = b.full ? t->e[t->n - 1].key : 0;
    b.index = b.full ? t->e[t->n - 1].index : 0;
    return b;
}

int topk_would_enter(const topk_t *t, uint64_t key, uint64_t index)
{
    topk_bar_t b = topk_bar(t);
    return topk_bar_admits(&b, key, index);
}

void topk_insert(topk_t *t, const ranked_genome_t *x)
{
    uint32_t pos;
    if (x->key == 0 || t->k == 0)
        return;
    if (t->n == t->k && !ranked_before(x, &t->e[t->n - 1]))
        return;
    pos = t->n < t->k ? t->n++ : t->k - 1;
    while (pos > 0 && ranked_before(x, &t->e[pos - 1])) {
        t->e[pos] = t->e[pos - 1];
        pos--;
    }
    t->e[pos] = *x;
}

void topk_offer(topk_t *t, uint64_t index, eval_result_t r)
{
    ranked_genome_t x;
    uint64_t key = rank_key(r);
    if (!topk_would_enter(t, key, index)) /* most offers: no entry to build */
        return;
    memset(&x, 0, sizeof x);
    x.key = key;
    x.index = index;
    x.r = r;
    topk_insert(t, &x);
}

/* dst = the first k of the merged order of dst's list and src[ns] (sorted,
 * feasible), in place: the split is found walking forwards (an entry of dst
 * before an equal one of src, as topk_insert places them), then the merge is
 * written backwards, where it never overtakes dst's unread entries. */
static void merge_sorted(topk_t *dst, const ranked_genome_t *src, uint32_t ns)
{
    uint32_t a = 0, b = 0, m = dst->n + ns < dst->k ? dst->n + ns : dst->k;
    while (a + b < m) {
        if (b < ns && (a == dst->n || ranked_before(&src[b], &dst->e[a])))
            b++;
        else
            a++;
    }
    dst->n = m;
    while (b > 0) {
        int from_dst = a > 0 && ranked_before(&src[b - 1], &dst->e[a - 1]);
        dst->e[a + b - 1] = from_dst ? dst->e[a - 1] : src[b - 1];
        a -= (uint32_t)from_dst;
        b -= (uint32_t)!from_dst;
    }
}

void topk_merge(topk_t *dst, const topk_t *src)
{
    uint32_t n = src->n;
    while (n > 0 && src->e[n - 1].key == 0) /* infeasible entries (last, as sorted) never enter */
        n--;
    merge_sorted(dst, src->e, n);
}

static int by_rank(const void *a, const void *b)
{
    const ranked_genome_t *x = (const ranked_genome_t *)a, *y = (const ranked_genome_t *)b;
    return ranked_before(x, y) ? -1 : ranked_before(y, x) ? 1 : 0;
}

void topk_insert_many(topk_t *t, ranked_genome_t *x, uint32_t n)
{
    uint32_t keep = 0;
    for (uint32_t i = 0; i < n; i++) /* infeasible entries never enter (topk_insert) */
        if (x[i].key != 0)
            x[keep++] = x[i];
    qsort(x, keep, sizeof *x, by_rank);
    merge_sorted(t, x, keep);
}

void topk_to_ranked(const topk_t *t, const lattice_shape_t *shape, ranked_genome_t *out)
{
    for (uint32_t i = 0; i < t->n; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].key = t->e[i].key;
        out[i].index = t->e[i].index;
        out[i].r = t->e[i].r;
        shape_decode(shape, t->e[i].index, out[i].genes);
    }
}

ranked_genome_t *topk_ranked_new(const topk_t *t, const lattice_shape_t *shape)
{
    ranked_genome_t *out = (ranked_genome_t *)calloc(t->n + 1u, sizeof *out);
    if (out)
        topk_to_ranked(t, shape, out);
    return out;
}
