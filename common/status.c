#include "common/status.h"

#include "common/strutil.h"

#include <stdio.h>
#include <string.h>

const char *ev_status_str(ev_status s)
{
    switch (s) {
    case EV_OK: return "ok";
    case EV_EUSAGE: return "usage error";
    case EV_EIO: return "I/O error";
    case EV_EPARSE: return "parse error";
    case EV_ECONFIG: return "config error";
    case EV_EDATA: return "data error";
    case EV_ENOMEM: return "out of memory";
    case EV_EHDF5: return "HDF5 error";
    case EV_ECUDA: return "CUDA error";
    case EV_ENODEV: return "no CUDA device";
    case EV_EINTR: return "interrupted";
    case EV_EBUSY: return "in use";
    case EV_EINTERNAL: return "internal error";
    }
    return "unknown error";
}

/* A message may quote text read from a damaged file (a name in a run file,
 * a field of a CSV row): it reaches the user with no raw bytes. */
ev_status ev_fail(ev_error *err, ev_status s, const char *fmt, ...)
{
    if (err) {
        char raw[EV_ERROR_MSG_MAX];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        ev_show_text(err->msg, sizeof err->msg, raw, 1);
        err->status = s;
    }
    return s;
}

void ev_error_prefix(ev_error *err, const char *fmt, ...)
{
    char head[EV_ERROR_MSG_MAX], raw[EV_ERROR_MSG_MAX];
    char old[EV_ERROR_MSG_MAX];
    va_list ap;
    if (!err)
        return;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    ev_show_text(head, sizeof head, raw, 1);
    size_t nh;
    memcpy(old, err->msg, sizeof old);
    nh = strlen(head);
    if (nh >= sizeof err->msg)
        nh = sizeof err->msg - 1;
    memcpy(err->msg, head, nh);
    /* Keep as much of the original message as still fits. */
    strncpy(err->msg + nh, old, sizeof err->msg - nh - 1);
    err->msg[sizeof err->msg - 1] = '\0';
}

int ev_exit_code(ev_status s)
{
    switch (s) {
    case EV_OK: return 0;
    case EV_EUSAGE: return 2;
    case EV_EINTR: return 130;
    default: return 1;
    }
}
