/* ga_plan_islands (ga/ga_plan.c): random immigrants are planned exactly for
 * the islands whose distinct genomes fell below immigrants.diversity x size
 * (docs/ga.md: "when an island's distinct genomes / size falls below this").
 *
 * Why: an inverted trigger (immigrants for the diverse islands, none for the
 * converged ones) keeps every run valid and only makes the search worse; no
 * result-level test notices it. */
#include <string.h>

#include "ga/ga_plan.h"
#include "tests/check.h"

static void test_immigrant_trigger(void)
{
    ga_settings_t s;
    ga_plan_t plan;
    breed_island_t out[4];
    uint32_t nv[3] = {10, 10, 10};
    /* islands of 20; threshold 0.25 x 20 = 5 distinct genomes */
    const uint32_t unique[4] = {4, 5, 6, 20};
    const uint32_t want[4] = {4, 0, 0, 0}; /* ceil(0.2 x 20) below the threshold, none at or above it */
    ga_settings_default(&s);
    s.population = 80;
    s.islands = 4;
    s.migration_every = 0;
    s.elitism = 0.05;
    s.immigrant_diversity = 0.25;
    s.immigrant_share = 0.2;
    memset(&plan, 0, sizeof plan);
    breed_ctx_init(&plan.ctx, &s, 1, 3, nv, NULL);
    ga_plan_islands(&plan, &s, 1, unique, out);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ_I64(want[i], out[i].immigrants);
        CHECK_EQ_I64(1, out[i].elites);
        CHECK_EQ_I64(0, out[i].migrants);
    }
    /* just below and just above a threshold between integers: 0.33 x 20 = 6.6 */
    {
        const uint32_t u2[4] = {6, 7, 0, 1};
        s.immigrant_diversity = 0.33;
        ga_plan_islands(&plan, &s, 1, u2, out);
        CHECK_EQ_I64(4, out[0].immigrants);
        CHECK_EQ_I64(0, out[1].immigrants);
        CHECK_EQ_I64(4, out[2].immigrants);
        CHECK_EQ_I64(4, out[3].immigrants);
    }
    /* diversity 0: never */
    s.immigrant_diversity = 0.0;
    ga_plan_islands(&plan, &s, 1, unique, out);
    for (int i = 0; i < 4; i++)
        CHECK_EQ_I64(0, out[i].immigrants);
}

int main(void)
{
    test_immigrant_trigger();
    return check_exit();
}
