#include "tests/support/brute_force.h"

int kept_same(const kept_trade_t *a, int64_t na, const kept_trade_t *b, int64_t nb)
{
    if (na != nb)
        return 0;
    for (int64_t j = 0; j < na; j++)
        if (a[j].trade != b[j].trade || a[j].reason != b[j].reason || a[j].exit_ts != b[j].exit_ts || a[j].q != b[j].q)
            return 0;
    return 1;
}

void brute_range(const lattice_shape_t *sh, const uint64_t *cls, uint64_t i, int32_t k, uint16_t *lo, uint16_t *hi)
{
    uint16_t g[EV_MAX_PARAMS] = {0};
    shape_decode(sh, i, g);
    *lo = *hi = g[k];
    while (*lo > 0) {
        g[k] = (uint16_t)(*lo - 1);
        if (cls[shape_encode(sh, g)] != cls[i])
            break;
        (*lo)--;
    }
    while ((uint32_t)*hi + 1 < sh->n_values[k]) {
        g[k] = (uint16_t)(*hi + 1);
        if (cls[shape_encode(sh, g)] != cls[i])
            break;
        (*hi)++;
    }
}
