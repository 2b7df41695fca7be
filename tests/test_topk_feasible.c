/* The top-K never lists an infeasible genome (SPEC sec. 5, fitness/topk.h),
 * whatever its fitness and whether the list has room: through each way in
 * (topk_offer, topk_insert, topk_merge, topk_would_enter and the bar a
 * kernel takes), and infeasible results all rank at key 0. */
#include <string.h>

#include "fitness/topk.h"
#include "tests/check.h"

static eval_result_t result(double fitness, int feasible)
{
    eval_result_t r;
    memset(&r, 0, sizeof r);
    r.fitness = fitness;
    r.trades = 5;
    r.feasible = feasible;
    return r;
}

static ranked_genome_t ranked(uint64_t index, eval_result_t r)
{
    ranked_genome_t x;
    memset(&x, 0, sizeof x);
    x.key = rank_key(r);
    x.index = index;
    x.r = r;
    x.genes[0] = (uint16_t)index;
    return x;
}

int main(void)
{
    topk_t t, src;
    topk_bar_t bar;
    ranked_genome_t bad = ranked(9, result(1e9, 0));
    ev_error err;
    CHECK_EQ_I64(0, (int64_t)rank_key(result(1e9, 0)));
    CHECK_EQ_I64(0, (int64_t)rank_key(result(-1.0, 0)));
    CHECK(rank_key(result(-1e9, 1)) > 0); /* a feasible loss still ranks */
    if (topk_init(&t, 3, &err) != EV_OK || topk_init(&src, 3, &err) != EV_OK)
        return 2;

    /* room in the list: infeasible offers stay out, feasible ones go in */
    topk_offer(&t, 0, result(100.0, 0));
    CHECK_EQ_I64(0, t.n);
    topk_offer(&t, 1, result(1.0, 1));
    topk_insert(&t, &bad);
    CHECK_EQ_I64(1, t.n);
    CHECK(!topk_would_enter(&t, 0, 0));
    bar = topk_bar(&t);
    CHECK(!topk_bar_admits(&bar, 0, 0));
    CHECK(topk_bar_admits(&bar, rank_key(result(-5.0, 1)), 7)); /* not full: any feasible one */

    /* merged lists: the source's infeasible entries (were one there) stay out */
    topk_offer(&src, 4, result(0.5, 1));
    topk_offer(&src, 5, result(1e6, 0));
    CHECK_EQ_I64(1, src.n);
    src.e[src.n++] = bad; /* forced in, as a damaged list would hold it */
    topk_merge(&t, &src);
    CHECK_EQ_I64(2, t.n);
    CHECK_EQ_I64(1, (int64_t)t.e[0].index);
    CHECK_EQ_I64(4, (int64_t)t.e[1].index);

    /* a full list: still never */
    topk_offer(&t, 6, result(-3.0, 1));
    CHECK_EQ_I64(3, t.n);
    topk_offer(&t, 2, result(1e12, 0));
    topk_insert(&t, &bad);
    CHECK_EQ_I64(3, t.n);
    for (uint32_t i = 0; i < t.n; i++)
        CHECK(t.e[i].r.feasible && t.e[i].key != 0);
    CHECK_EQ_I64(6, (int64_t)t.e[2].index);
    topk_free(&t);
    topk_free(&src);
    return check_exit();
}
