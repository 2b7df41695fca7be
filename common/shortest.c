#include "common/shortest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

char *ev_shortest(char *buf, size_t n, double v)
{
    if (!isfinite(v)) {
        snprintf(buf, n, "%s", v != v ? "nan" : v > 0 ? "inf" : "-inf");
        return buf;
    }
    for (int p = 15; p <= 17; p++) {
        snprintf(buf, n, "%.*g", p, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}
