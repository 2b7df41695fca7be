/* Placeholder until io/config.c lands. */
#include "io/config.h"

ev_status config_load(const char *path, config_t *cfg, ev_error *err)
{
    (void)cfg;
    return ev_fail(err, EV_EINTERNAL, "%s: config loading is not implemented yet", path);
}

void config_free(config_t *cfg)
{
    (void)cfg;
}
