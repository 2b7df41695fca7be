#include "ga/ls_kick.h"

uint32_t ls_kick(philox_key_t key, uint32_t generation, uint32_t individual, int32_t n_genes, const uint32_t *n_values,
                 uint32_t k_min, uint32_t k_max, uint16_t *genes)
{
    int32_t movable[GA_MAX_GENES];
    uint32_t m = 0, k;
    rng_cursor_t c;
    for (int32_t g = 0; g < n_genes && g < GA_MAX_GENES; g++)
        if (n_values[g] >= 2)
            movable[m++] = g;
    rng_cursor_init(&c, key, generation, individual, RNG_STREAM_RANDOM);
    if (k_max < k_min)
        k_max = k_min;
    k = k_min + rng_uniform(rng_cursor_draw(&c, LS_KICK_DRAW0), k_max - k_min + 1);
    if (k > m)
        k = m;
    for (uint32_t i = 0; i < k; i++) {
        uint32_t at = rng_uniform(rng_cursor_draw(&c, LS_KICK_DRAW0 + 1 + 2 * i), m - i);
        int32_t g = movable[at];
        uint32_t v = rng_uniform(rng_cursor_draw(&c, LS_KICK_DRAW0 + 2 + 2 * i), n_values[g] - 1);
        for (uint32_t j = at; j + 1 < m - i; j++) /* the genes left stay in gene order */
            movable[j] = movable[j + 1];
        genes[g] = (uint16_t)(v + (v >= genes[g]));
    }
    return k;
}
