#include "runs/resume_command.h"

#include <stdio.h>
#include <string.h>

#include "common/options.h"

/* Appends s to buf, single-quoted when the shell would split or expand it. */
static void append_arg(char *buf, size_t n, const char *s)
{
    size_t used = strlen(buf);
    int plain = *s != '\0';
    for (const char *c = s; *c && plain; c++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%", *c) != NULL;
    if (plain) {
        snprintf(buf + used, n - used, " %s", s);
        return;
    }
    snprintf(buf + used, n - used, " '");
    for (const char *c = s; *c; c++) {
        used = strlen(buf);
        snprintf(buf + used, n - used, *c == '\'' ? "'\\''" : "%c", *c);
    }
    used = strlen(buf);
    snprintf(buf + used, n - used, "'");
}

void run_resume_command(const run_args_t *a, const char *partial, char *buf, size_t n)
{
    snprintf(buf, n, "evolve");
    for (int i = 1; i < a->argc; i++) {
        if (opt_is(a->argv[i], "--output") || opt_is(a->argv[i], "--resume")) {
            i += strchr(a->argv[i], '=') == NULL; /* --opt VALUE: skip VALUE too */
            continue;
        }
        append_arg(buf, n, a->argv[i]);
    }
    append_arg(buf, n, "--resume");
    append_arg(buf, n, partial);
}

ev_status run_refuse_fresh(const run_args_t *a, const char *partial, const char *also, ev_error *err)
{
    char cmd[2048];
    run_resume_command(a, partial, cmd, sizeof cmd);
    return ev_fail(err, EV_EIO,
                   "%s: an interrupted run of this output exists (Ctrl-C, a crash or a kill). Continue it with\n  "
                   "%s\nor start over: give this run another output (--output NEW.h5), or delete %s%s%s%s and run "
                   "this command again",
                   partial, cmd, partial, also ? " (and " : "", also ? also : "", also ? ")" : "");
}
