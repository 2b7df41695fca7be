/* The schedule (internal.h): forward by default, reverse, or a seeded random order. */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "internal.h"

namespace emu
{

namespace
{

enum class Kind { forward, reverse, random };

struct Policy {
    Kind kind = Kind::forward;
    uint64_t state = 1;
    Policy()
    {
        const char *s = getenv("EVOLVE_EMU_SCHEDULE");
        if (!s || !*s || !strcmp(s, "forward"))
            return;
        if (!strcmp(s, "reverse")) {
            kind = Kind::reverse;
            return;
        }
        if (!strncmp(s, "random", 6) && (s[6] == 0 || s[6] == ':')) {
            kind = Kind::random;
            state = s[6] ? strtoull(s + 7, nullptr, 10) : 1;
            return;
        }
        fail("EVOLVE_EMU_SCHEDULE=%s: expected forward, reverse, random or random:SEED", s);
    }
};

Policy &policy()
{
    static Policy p;
    return p;
}

} // namespace

uint64_t schedule_draw(void)
{
    /* splitmix64 */
    uint64_t z = (policy().state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void schedule_order(uint64_t n, std::vector<uint64_t> &out)
{
    out.resize(n);
    for (uint64_t i = 0; i < n; i++)
        out[i] = policy().kind == Kind::reverse ? n - 1 - i : i;
    if (policy().kind == Kind::random)
        for (uint64_t i = n; i > 1; i--) {
            uint64_t j = schedule_draw() % i;
            uint64_t t = out[i - 1];
            out[i - 1] = out[j];
            out[j] = t;
        }
}

} // namespace emu
