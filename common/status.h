/* Status codes and the error record every fallible function fills.
 *
 * Convention: a function that can fail returns ev_status and takes an ev_error *
 * last; on failure it writes one complete, user-facing sentence into err->msg
 * that names the file (with line/column) or config key and says what was
 * expected. Callers add context only by prefixing, never by overwriting. */
#ifndef EVOLVE_STATUS_H
#define EVOLVE_STATUS_H

#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    EV_OK = 0,
    EV_EUSAGE,   /* bad command line */
    EV_EIO,      /* a file is missing, unreadable or unwritable */
    EV_EPARSE,   /* malformed CSV or YAML content */
    EV_ECONFIG,  /* the config breaks the schema */
    EV_EDATA,    /* data inconsistent with the SPEC (no trades, strict drops, ...) */
    EV_ENOMEM,   /* out of host or device memory */
    EV_EHDF5,    /* an HDF5 call failed */
    EV_ECUDA,    /* a CUDA / cuRAND call failed */
    EV_ENODEV,   /* the CUDA backend was asked for but no device exists */
    EV_EINTR,    /* interrupted (Ctrl-C); partial work was saved where possible */
    EV_EBUSY,    /* a file is in use by another process (its lock is held) */
    EV_EINTERNAL /* a bug: an invariant did not hold */
} ev_status;

#define EV_ERROR_MSG_MAX 2048

typedef struct {
    ev_status status;
    char msg[EV_ERROR_MSG_MAX];
} ev_error;

/* printf-format checking; MinGW's plain `printf` means the MS dialect, which
 * lacks %zu, while evolve formats with the C99 one (UCRT has it). */
#if defined(__MINGW32__)
#define EV_PRINTF(f, a) __attribute__((format(gnu_printf, f, a)))
#elif defined(__GNUC__)
#define EV_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define EV_PRINTF(f, a)
#endif

/* Short name of a status, like strerror: "I/O error", "parse error", ... */
const char *ev_status_str(ev_status s);

/* Formats the message into err (if err is non-NULL) and returns s. */
ev_status ev_fail(ev_error *err, ev_status s, const char *fmt, ...) EV_PRINTF(3, 4);

/* Prefixes err->msg with formatted context ("loading dataset x.h5: ..."). */
void ev_error_prefix(ev_error *err, const char *fmt, ...) EV_PRINTF(2, 3);

/* Process exit code for a status: 0 ok, 2 usage, 130 interrupted, 1 otherwise. */
int ev_exit_code(ev_status s);

#ifdef __cplusplus
}
#endif
#endif
