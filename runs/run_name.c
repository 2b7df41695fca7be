#include "runs/run_name.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/strutil.h"

const char *run_name_mode(const run_args_t *a)
{
    if (a->walk_forward)
        return a->grid ? "walk-grid" : "walk";
    if (a->grid)
        return "grid";
    if (a->validate)
        return "validate";
    return a->on_generation ? "py" : NULL;
}

ev_status run_name_output(config_t *cfg, const run_args_t *a, ev_error *err)
{
    const char *mode = run_name_mode(a);
    size_t n = strlen(cfg->output), keep = n >= 3 && !strcmp(cfg->output + n - 3, ".h5") ? n - 3 : n, size;
    char *out;
    if (a->output) {
        out = ev_strdup(a->output);
    } else {
        if (!mode || a->resume) /* --resume names its file; the GA's is the name as given */
            return EV_OK;
        size = keep + strlen(mode) + sizeof "..h5";
        if ((out = (char *)malloc(size)) != NULL)
            snprintf(out, size, "%.*s.%s.h5", (int)keep, cfg->output, mode);
    }
    if (!out)
        return ev_fail(err, EV_ENOMEM, "out of memory");
    free(cfg->output);
    cfg->output = out;
    return EV_OK;
}
