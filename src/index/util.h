/* util.h - growable arrays and small helpers shared by the core. */
#ifndef NNAV_UTIL_H
#define NNAV_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A growable array of T: { T *v; uint32_t n, cap; }. Growth doubles, so
 * appending is amortised O(1); ids are uint32 indices, so a vector refuses to
 * grow past UINT32_MAX - 1 elements (NNAV_NONE stays free). */
#define NNAV_VEC(T) struct { T *v; uint32_t n, cap; }

int nnav_vec_grow_(void **v, uint32_t *cap, size_t elem, uint32_t need);
#define nnav_vec_reserve(vec, need) \
    nnav_vec_grow_((void **)&(vec).v, &(vec).cap, sizeof(*(vec).v), (need))
/* Pointer to a new zeroed slot at the end, or NULL when out of memory. */
#define nnav_vec_push(vec) \
    (((vec).n < (vec).cap || nnav_vec_reserve((vec), (vec).n + 1) == 0) \
         ? (memset(&(vec).v[(vec).n], 0, sizeof(*(vec).v)), &(vec).v[(vec).n++]) \
         : NULL)
#define nnav_vec_free(vec) (free((vec).v), (vec).v = NULL, (vec).n = (vec).cap = 0)

uint64_t nnav_hash_bytes(const uint8_t *p, uint64_t n, uint64_t seed);

#endif
