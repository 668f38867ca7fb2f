#include "util.h"

#include <string.h>

int nnav_vec_grow_(void **v, uint32_t *cap, size_t elem, uint32_t need)
{
    if (need <= *cap)
        return 0;
    if (need >= UINT32_MAX - 1)
        return -1;
    uint64_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    if (c > UINT32_MAX - 1)
        c = UINT32_MAX - 1;
    if (c > SIZE_MAX / elem)
        return -1;
    void *p = realloc(*v, (size_t)c * elem);
    if (!p)
        return -1;
    *v = p;
    *cap = (uint32_t)c;
    return 0;
}

/* FNV-1a over bytes, then a final mix: names are short, so this is cheap and
 * spreads well enough for open addressing. */
uint64_t nnav_hash_bytes(const uint8_t *p, uint64_t n, uint64_t seed)
{
    uint64_t h = 1469598103934665603ull ^ (seed * 0x9E3779B97F4A7C15ull);
    for (uint64_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}
