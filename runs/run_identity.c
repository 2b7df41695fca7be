#include "runs/run_identity.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "build_info.h"

void run_identity_of(const session_t *s, run_identity_t *id)
{
    id->config_text = s->cfg.text;
    id->seed = s->cfg.seed;
    id->top = s->cfg.top;
    id->dataset_hash = s->ds.content_hash;
    id->tool_version = EVOLVE_TOOL_VERSION;
    id->backend = s->ops->name;
}

ev_status run_identity_compare(const run_identity_t *was, const run_identity_t *now, const char *partial,
                               const char *also, const session_t *s, ev_error *err)
{
    char what[512];
    if (strcmp(was->config_text, now->config_text) != 0)
        snprintf(what, sizeof what, "the config differs from the one the run started with (%s has changed)",
                 s->cfg.path);
    else if (was->seed != now->seed)
        snprintf(what, sizeof what, "the seed differs (the run used %" PRIu64 ", this command %" PRIu64 ")", was->seed,
                 now->seed);
    else if (was->top != now->top)
        snprintf(what, sizeof what, "top differs (the run kept %" PRIu64 ", this command %" PRIu64 ")", was->top,
                 now->top);
    else if (was->dataset_hash != now->dataset_hash)
        snprintf(what, sizeof what,
                 "the dataset differs (content hash %016" PRIx64 " then, %016" PRIx64 " now: the data changed)",
                 was->dataset_hash, now->dataset_hash);
    else if (strcmp(was->tool_version, now->tool_version) != 0)
        snprintf(what, sizeof what, "the code differs (the run was written by %s, this is %s)", was->tool_version,
                 now->tool_version);
    else if (strcmp(was->backend, now->backend) != 0)
        snprintf(what, sizeof what, "the backend differs (the run used %s, this command %s: pass --backend %s)",
                 was->backend, now->backend, was->backend);
    else
        return EV_OK;
    return ev_fail(err, EV_ECONFIG,
                   "cannot resume %s: %s. Resume it with the same config, data, evolve and options, or start over "
                   "without --resume: with another output (--output NEW.h5), or after deleting %s%s%s",
                   partial, what, partial, also ? " and " : "", also ? also : "");
}
