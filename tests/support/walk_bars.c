#include "tests/support/walk_bars.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double walk_uniform(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return (double)(*state >> 11) / 9007199254740992.0;
}

void walk_bars(bars_t *b, int64_t n, double start, uint64_t *state)
{
    double px = start;
    memset(b, 0, sizeof *b);
    b->n = n;
    b->ts = (int64_t *)malloc((size_t)n * sizeof(int64_t));
    b->open = (double *)malloc((size_t)n * sizeof(double));
    b->high = (double *)malloc((size_t)n * sizeof(double));
    b->low = (double *)malloc((size_t)n * sizeof(double));
    b->close = (double *)malloc((size_t)n * sizeof(double));
    b->volume = (double *)malloc((size_t)n * sizeof(double));
    for (int64_t i = 0; i < n; i++) {
        const double o = px;
        const double c = round(o * (1 + (walk_uniform(state) - 0.5) * 0.01) * 100) / 100;
        b->ts[i] = 1700000000 + 60 * i;
        b->open[i] = o;
        b->close[i] = c;
        b->high[i] = round(fmax(o, c) * (1 + walk_uniform(state) * 0.003) * 100) / 100;
        b->low[i] = round(fmin(o, c) * (1 - walk_uniform(state) * 0.003) * 100) / 100;
        b->volume[i] =
            round(1000 + 4000 * walk_uniform(state) * walk_uniform(state) * (walk_uniform(state) < 0.05 ? 8 : 1));
        px = c;
    }
}
