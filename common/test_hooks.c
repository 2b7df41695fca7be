#include "common/test_hooks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/platform.h"

/* POINT:N from environment variable var into want[n] and *at (want "" when unset). */
static void read_spec(const char *var, char *want, size_t n, unsigned long *at)
{
    const char *e = getenv(var);
    const char *colon = e ? strchr(e, ':') : NULL;
    if (colon && (size_t)(colon - e) < n) {
        memcpy(want, e, (size_t)(colon - e));
        want[colon - e] = '\0';
        *at = strtoul(colon + 1, NULL, 10);
    }
}

void test_hook_point(const char *point, uint32_t generation)
{
    static int read = 0;
    static char want[32];
    static unsigned long at = 0;
    if (!read) {
        read = 1;
        read_spec("EVOLVE_TEST_KILL", want, sizeof want, &at);
    }
    if (want[0] && !strcmp(want, point) && at == generation) {
        fprintf(stderr, "evolve: EVOLVE_TEST_KILL: killed at %s of generation %u\n", point, generation);
        fflush(stderr);
        plat_kill_self();
    }
}

int test_hook_fails(const char *point, uint32_t n)
{
    static int read = 0;
    static char want[32];
    static unsigned long at = 0;
    if (!read) {
        read = 1;
        read_spec("EVOLVE_TEST_FAIL", want, sizeof want, &at);
    }
    return want[0] && !strcmp(want, point) && at == n;
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
