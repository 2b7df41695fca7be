#include "io/json_number.h"

#include <math.h>

#include "common/shortest.h"

cJSON *json_number(double v)
{
    char text[EV_SHORTEST_MAX];
    return isfinite(v) ? cJSON_CreateRaw(ev_shortest(text, sizeof text, v)) : cJSON_CreateNumber(v);
}

cJSON *json_add_number(cJSON *obj, const char *key, double v)
{
    cJSON *n = json_number(v);
    if (n && !cJSON_AddItemToObject(obj, key, n)) {
        cJSON_Delete(n);
        n = NULL;
    }
    return n;
}

cJSON *json_add_fitness(cJSON *obj, const char *key, double v)
{
    if (isfinite(v))
        return json_add_number(obj, key, v);
    return cJSON_AddStringToObject(obj, key, v > 0 ? "inf" : v < 0 ? "-inf" : "nan");
}
