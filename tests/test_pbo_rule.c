/* PBO's rule at lambda exactly 0 (fitness/pbo.c): with an odd number of
 * candidates, an in-sample best that ranks exactly mid out of sample
 * (w = 1/2, lambda = ln 1 = 0) counts as overfit (Bailey et al.: lambda <= 0).
 * Three candidates over two blocks, one trade each, total return:
 *   c0 (30, 20), c1 (20, 10), c2 (10, 30).
 * Train on block 0: c0 is best, out of sample 20 ranks 2 of 3: w = 2/4,
 * lambda 0, overfit. Train on block 1: c2 is best, out of sample 10 ranks 1
 * of 3: lambda < 0, overfit. PBO = 2/2; counting lambda 0 as not overfit
 * (`< 0`) gives 1/2. */
#include <string.h>

#include "fitness/pbo.h"
#include "tests/check.h"

int main(void)
{
    static const int64_t pct[3][2] = {{30, 20}, {20, 10}, {10, 30}};
    accum_t a[3 * 2];
    objective_prep_t o;
    ev_error err;
    double pbo = 0;
    uint64_t combos = 0;
    memset(&o, 0, sizeof o);
    o.kind = OBJ_TOTAL_RETURN;
    o.min_trades = 1;
    for (int i = 0; i < 3; i++)
        for (int b = 0; b < 2; b++) {
            accum_init(&a[i * 2 + b]);
            accum_add(&a[i * 2 + b], &o, pct[i][b] * 1000000, 0);
        }
    CHECK_EQ_I64(EV_OK, pbo_of_sums(a, 3, 2, &o, &pbo, &combos, &err));
    CHECK_EQ_I64(2, (int64_t)combos);
    CHECK(pbo == 1.0);
    return check_exit();
}
