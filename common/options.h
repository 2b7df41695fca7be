/* The command-line parser every evolve command uses: a table of options,
 * one rule for each kind of value, one wording for every mistake.
 *
 * The rules:
 *   --opt VALUE and --opt=VALUE are the same; the VALUE after a space is the
 *     next argument whatever it is (even one that starts with '-').
 *   A flag takes no value: --quiet=1 is an error.
 *   -h and --help stop the parse (opt_parse reports OPT_HELP); a mistake
 *     before them is reported instead.
 *   An option given twice: the last one wins (a value is checked each time).
 *   An argument that does not start with '-' is positional; '-' alone, '--'
 *     and any other name not in the table are unknown options.
 *   A number is decimal digits only: no sign, no spaces, no hex, no
 *     exponent, at least one digit, and within the option's range; anything
 *     else is refused with "--seed: expected an integer 0..18446744073709551615,
 *     got '+5'".
 * Every error is EV_EUSAGE (exit status 2) with a message naming the option
 * and what it expects. */
#ifndef EVOLVE_OPTIONS_H
#define EVOLVE_OPTIONS_H

#include <stdint.h>

#include "common/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    OPT_FLAG,   /* int *: set to 1; takes no value */
    OPT_STRING, /* const char **: the value as given (it points into argv) */
    OPT_U64,    /* uint64_t *: a number in lo..hi */
    OPT_I64,    /* int64_t *: a number in lo..hi (hi <= INT64_MAX) */
    OPT_INT,    /* int *: a number in lo..hi (hi <= INT_MAX) */
    OPT_CHOICE, /* int *: the index of the value in choices (NULL-terminated) */
    OPT_CALL    /* call(name, value, dest, err) checks and stores the value */
} opt_kind;

typedef ev_status (*opt_call_fn)(const char *name, const char *value, void *dest, ev_error *err);

typedef struct {
    const char *name; /* "--seed" */
    opt_kind kind;
    void *dest;
    uint64_t lo, hi;            /* OPT_U64, OPT_I64, OPT_INT */
    const char *const *choices; /* OPT_CHOICE */
    opt_call_fn call;           /* OPT_CALL */
    int *seen;                  /* optional: set to 1 when the option is given */
} opt_spec_t;

/* A command's options and positional arguments. */
typedef struct {
    const opt_spec_t *opts;
    int n_opts;
    const char **positional;     /* room for max_positional arguments, in order */
    int max_positional;          /* 0: none accepted */
    int *n_positional;           /* optional: how many were given */
    const char *positional_hint; /* why one more is refused: "one config file is expected" */
} opt_table_t;

typedef enum { OPT_DONE = 0, OPT_HELP } opt_result;

/* Parses argv[1..argc-1] (argv[0] is the command) into the table's
 * destinations. EV_OK with *result OPT_DONE or OPT_HELP, or EV_EUSAGE. */
ev_status opt_parse(const opt_table_t *t, int argc, char **argv, opt_result *result, ev_error *err);

/* The number rule alone: s as a decimal integer in lo..hi, for the option
 * `name`; EV_EUSAGE "NAME: expected an integer LO..HI, got 'S'" otherwise. */
ev_status opt_parse_u64(const char *name, const char *s, uint64_t lo, uint64_t hi, uint64_t *out, ev_error *err);

/* Whether arg is the option `name` spelt alone or as NAME=VALUE. */
int opt_is(const char *arg, const char *name);

#ifdef __cplusplus
}
#endif
#endif
