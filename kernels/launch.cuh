/* Launch-shape helpers shared by the .cu files. */
#ifndef EVOLVE_LAUNCH_CUH
#define EVOLVE_LAUNCH_CUH

#include <stdint.h>

/* Blocks for a grid-stride loop over n items: one item per thread up to
 * 2^20 blocks (far more than any GPU holds at once), never 0 (a 0-block
 * launch is an error). gridDim.x allows 2^31 - 1, so this always fits. */
static inline unsigned launch_blocks(uint64_t n, unsigned threads)
{
    const uint64_t most = (uint64_t)1 << 20;
    uint64_t b = (n + threads - 1) / threads;
    if (b == 0)
        b = 1;
    return (unsigned)(b < most ? b : most);
}

#endif
