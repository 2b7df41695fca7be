#include "common/test_hooks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"

/* A POINT:N setting of an environment variable, read once. */
typedef struct {
    int read;
    char want[32]; /* "" when unset */
    unsigned long at;
} hook_spec_t;

/* 1 when variable var (read into h the first time) names point and n. */
static int hook_matches(hook_spec_t *h, const char *var, const char *point, unsigned long n)
{
    if (!h->read) {
        const char *e = getenv(var);
        const char *colon = e ? strchr(e, ':') : NULL;
        h->read = 1;
        if (colon && (size_t)(colon - e) < sizeof h->want) {
            memcpy(h->want, e, (size_t)(colon - e));
            h->want[colon - e] = '\0';
            h->at = strtoul(colon + 1, NULL, 10);
        }
    }
    return h->want[0] && !strcmp(h->want, point) && h->at == n;
}

void test_hook_point(const char *point, uint32_t generation)
{
    static hook_spec_t kill;
    if (hook_matches(&kill, "EVOLVE_TEST_KILL", point, generation)) {
        fprintf(stderr, "evolve: EVOLVE_TEST_KILL: killed at %s of generation %u\n", point, generation);
        fflush(stderr);
        plat_kill_self();
    }
}

int test_hook_fails(const char *point, uint32_t n)
{
    static hook_spec_t fail;
    return hook_matches(&fail, "EVOLVE_TEST_FAIL", point, n);
}

void test_hook_delay(void)
{
    static int read = 0;
    static unsigned long ms = 0;
    if (!read) {
        const char *e = getenv("EVOLVE_TEST_DELAY_MS");
        read = 1;
        ms = e ? strtoul(e, NULL, 10) : 0;
    }
    if (ms)
        plat_sleep_ms((unsigned)ms);
}

/* A positive count from environment variable name (cached in *value), else 0. */
static int64_t env_count(const char *name, int *read, int64_t *value)
{
    if (!*read) {
        const char *e = getenv(name);
        *read = 1;
        *value = e ? strtoll(e, NULL, 10) : 0;
    }
    return *value > 0 ? *value : 0;
}

int64_t test_hook_strategy_slice(void)
{
    static int read = 0;
    static int64_t rows = 0;
    return env_count("EVOLVE_TEST_STRATEGY_SLICE", &read, &rows);
}

int64_t test_hook_strategy_group(void)
{
    static int read = 0;
    static int64_t genomes = 0;
    return env_count("EVOLVE_TEST_STRATEGY_GROUP", &read, &genomes);
}
