/* libevolve: version, status names and the per-context last error. */
#include "lib/lib_core.h"

#include <stdlib.h>
#include <string.h>

#include "build_info.h"

_Static_assert((int)EVOLVE_EINTERNAL == (int)EV_EINTERNAL && (int)EVOLVE_EBUSY == (int)EV_EBUSY &&
                   (int)EVOLVE_ENODEV == (int)EV_ENODEV && (int)EVOLVE_EIO == (int)EV_EIO,
               "evolve_status mirrors ev_status");

EVOLVE_API const char *evolve_version(void)
{
    return EVOLVE_VERSION;
}

EVOLVE_API const char *evolve_build_info(void)
{
    return "evolve " EVOLVE_VERSION " (git " EVOLVE_GIT_REV ", " EVOLVE_C_COMPILER ", " EVOLVE_BUILD_TYPE ")";
}

EVOLVE_API const char *evolve_strerror(int status)
{
    if (status < EVOLVE_OK || status > EVOLVE_EINTERNAL)
        return "unknown status";
    return status == EVOLVE_OK ? "success" : ev_status_str((ev_status)status);
}

EVOLVE_API int evolve_has_cuda(void)
{
#ifdef EVOLVE_HAVE_CUDA
    return 1;
#else
    return 0;
#endif
}

EVOLVE_API evolve_ctx *evolve_ctx_new(void)
{
    return (evolve_ctx *)calloc(1, sizeof(evolve_ctx));
}

EVOLVE_API void evolve_ctx_free(evolve_ctx *ctx)
{
    free(ctx);
}

EVOLVE_API const char *evolve_last_error(const evolve_ctx *ctx)
{
    return ctx ? ctx->err.msg : "no context (evolve_ctx_new returned NULL)";
}

EVOLVE_API int evolve_last_status(const evolve_ctx *ctx)
{
    return ctx ? (int)ctx->err.status : EVOLVE_EUSAGE;
}

int lib_result(evolve_ctx *ctx, ev_status st, const ev_error *err)
{
    if (!ctx)
        return (int)st;
    if (st == EV_OK) {
        ctx->err.status = EV_OK;
        ctx->err.msg[0] = '\0';
    } else if (err != &ctx->err) {
        ctx->err.status = st;
        memcpy(ctx->err.msg, err->msg, sizeof ctx->err.msg);
    } else {
        ctx->err.status = st;
    }
    return (int)st;
}

int lib_usage(evolve_ctx *ctx, const char *what)
{
    ev_error e;
    return lib_result(ctx, ev_fail(&e, EV_EUSAGE, "%s", what), &e);
}

void lib_dataset_release(struct evolve_dataset *d)
{
    if (d && --d->refs <= 0) {
        dataset_free(&d->ds);
        free(d);
    }
}
