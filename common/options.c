/* The command-line parser of common/options.h. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/options.h"

ev_status opt_parse_u64(const char *name, const char *s, uint64_t lo, uint64_t hi, uint64_t *out, ev_error *err)
{
    uint64_t v = 0;
    const char *p = s;
    if (*p) {
        for (; *p >= '0' && *p <= '9'; p++) {
            unsigned d = (unsigned)(*p - '0');
            if (v > (UINT64_MAX - d) / 10)
                break;
            v = v * 10 + d;
        }
    }
    if (!*s || *p || v < lo || v > hi)
        return ev_fail(err, EV_EUSAGE, "%s: expected an integer %llu..%llu, got '%s'", name, (unsigned long long)lo,
                       (unsigned long long)hi, s);
    *out = v;
    return EV_OK;
}

int opt_is(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

static ev_status choice(const opt_spec_t *o, const char *value, ev_error *err)
{
    char list[512];
    size_t used = 0;
    for (int i = 0; o->choices[i]; i++)
        if (!strcmp(o->choices[i], value)) {
            *(int *)o->dest = i;
            return EV_OK;
        }
    list[0] = '\0';
    for (int i = 0; o->choices[i] && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", o->choices[i]);
    return ev_fail(err, EV_EUSAGE, "%s: expected one of %s, got '%s'", o->name, list, value);
}

static ev_status store(const opt_spec_t *o, const char *value, ev_error *err)
{
    uint64_t v = 0;
    ev_status st;
    switch (o->kind) {
    case OPT_STRING: *(const char **)o->dest = value; return EV_OK;
    case OPT_U64:
    case OPT_I64:
    case OPT_INT:
        if ((st = opt_parse_u64(o->name, value, o->lo, o->hi, &v, err)) != EV_OK)
            return st;
        if (o->kind == OPT_U64)
            *(uint64_t *)o->dest = v;
        else if (o->kind == OPT_I64 && v <= INT64_MAX)
            *(int64_t *)o->dest = (int64_t)v;
        else if (o->kind == OPT_INT && v <= INT_MAX)
            *(int *)o->dest = (int)v;
        else
            return ev_fail(err, EV_EINTERNAL, "%s: its range %llu..%llu does not fit its variable", o->name,
                           (unsigned long long)o->lo, (unsigned long long)o->hi);
        return EV_OK;
    case OPT_CHOICE: return choice(o, value, err);
    case OPT_CALL: return o->call(o->name, value, o->dest, err);
    case OPT_FLAG: break;
    }
    return ev_fail(err, EV_EINTERNAL, "%s: no value expected", o->name);
}

static const opt_spec_t *find(const opt_table_t *t, const char *arg, size_t len)
{
    for (int k = 0; k < t->n_opts; k++)
        if (strlen(t->opts[k].name) == len && !strncmp(t->opts[k].name, arg, len))
            return &t->opts[k];
    return NULL;
}

ev_status opt_parse(const opt_table_t *t, int argc, char **argv, opt_result *result, ev_error *err)
{
    int n_pos = 0;
    ev_status st;
    *result = OPT_DONE;
    if (t->n_positional)
        *t->n_positional = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *eq, *value;
        const opt_spec_t *o;
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            *result = OPT_HELP;
            return EV_OK;
        }
        if (arg[0] != '-') {
            if (n_pos >= t->max_positional)
                return ev_fail(err, EV_EUSAGE, "unexpected argument '%s'%s%s", arg, t->positional_hint ? ": " : "",
                               t->positional_hint ? t->positional_hint : "");
            t->positional[n_pos++] = arg;
            if (t->n_positional)
                *t->n_positional = n_pos;
            continue;
        }
        eq = arg[1] == '-' ? strchr(arg, '=') : NULL;
        o = find(t, arg, eq ? (size_t)(eq - arg) : strlen(arg));
        if (!o)
            return ev_fail(err, EV_EUSAGE, "unknown option '%s'", arg);
        if (o->kind == OPT_FLAG) {
            if (eq)
                return ev_fail(err, EV_EUSAGE, "%s takes no value, got '%s'", o->name, arg);
            *(int *)o->dest = 1;
        } else {
            if (eq)
                value = eq + 1;
            else if (i + 1 < argc)
                value = argv[++i];
            else
                return ev_fail(err, EV_EUSAGE, "%s needs a value", o->name);
            if ((st = store(o, value, err)) != EV_OK)
                return st;
        }
        if (o->seen)
            *o->seen = 1;
    }
    return EV_OK;
}
