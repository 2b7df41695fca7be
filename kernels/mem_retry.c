/* Retry sizes after out of device memory (kernels/mem_retry.h). */
#include "kernels/mem_retry.h"

#include <stdio.h>

static uint32_t notes;

uint64_t mem_retry_smaller(uint64_t count, uint64_t floor, uint64_t unit)
{
    uint64_t half;
    if (unit == 0)
        unit = 1;
    if (floor < unit)
        floor = unit;
    if (count <= floor)
        return 0;
    half = count / 2 / unit * unit;
    return half < floor ? floor : half;
}

uint32_t mem_retry_steps(uint64_t count, uint64_t floor, uint64_t unit)
{
    uint32_t n = 0;
    while ((count = mem_retry_smaller(count, floor, unit)) != 0)
        n++;
    return n;
}

int mem_retry_note(const char *what, uint64_t from, uint64_t to)
{
    if (notes++)
        return 0;
    fprintf(stderr,
            "evolve: note: GPU memory is short: %s shrunk from %llu to %llu and retried (the run goes on, "
            "slower, with the same results; said once)\n",
            what, (unsigned long long)from, (unsigned long long)to);
    return 1;
}

uint32_t mem_retry_notes(void)
{
    return notes;
}
