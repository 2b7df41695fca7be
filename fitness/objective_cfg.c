#include "fitness/objective_cfg.h"

#include <string.h>

static const char *const names[OBJ_COUNT] = {"total_return", "mean", "sharpe", "profit_factor", "compound", "calmar"};

const char *objective_name(objective_kind k)
{
    return (k >= 0 && k < OBJ_COUNT) ? names[k] : "unknown";
}

int objective_from_name(const char *name)
{
    for (int k = 0; k < OBJ_COUNT; k++)
        if (strcmp(names[k], name) == 0)
            return k;
    return -1;
}
