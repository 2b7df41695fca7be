/* Placeholder until io/dataset_source.c lands. */
#include "io/dataset_source.h"

ev_status dataset_obtain(const config_t *cfg, dataset_t *ds, FILE *log, ev_error *err)
{
    (void)cfg;
    (void)ds;
    (void)log;
    return ev_fail(err, EV_EINTERNAL, "dataset loading is not implemented yet");
}
