/* hashtab.h - the one hash table of the core and the explorer: ids keyed by
 * a 64-bit hash, with the caller's equality.
 *
 * The table holds only ids (uint32, below NNAV_HASHTAB_NONE); the keys stay
 * where the caller keeps them (names in the mmap, records in an array), and
 * the caller says whether id `id` holds the key looked up. Each slot is
 * (hash >> 32 << 32 | id), all ones when empty: a probe visits the caller's
 * record only when the upper 32 bits of the hashes agree, so a lookup costs
 * one cache miss, not three, on million-name graphs. Open addressing with
 * linear probing over a power-of-two number of slots, indexed by the low
 * bits of the hash; the table doubles when 70% full, so probes stay short
 * however many keys a hostile file invents. There is no removal.
 *
 * Use: find; if absent, put at the slot find gave (nothing may change the
 * table in between):
 *
 *     uint64_t at = 0;
 *     uint32_t id = nnav_hashtab_find(&t, h, same_key, &key, &at);
 *     if (id == NNAV_HASHTAB_NONE && nnav_hashtab_put(&t, at, h, new_id, key_hash, ctx))
 *         ...out of memory...
 *
 * find is inline so that a constant equality function is inlined too.
 */
#ifndef NNAV_HASHTAB_H
#define NNAV_HASHTAB_H

#include <stdint.h>

#define NNAV_HASHTAB_NONE UINT32_MAX /* no id; equals NNAV_NONE */
#define NNAV_HASHTAB_EMPTY UINT64_MAX

typedef struct nnav_hashtab {
    uint64_t *slot; /* mask + 1 slots; NULL until init or the first put */
    uint64_t mask;
    uint64_t used;
} nnav_hashtab;

/* Does entry `id` hold the key looked up? (ctx: the key, or what finds it) */
typedef int (*nnav_hashtab_eq)(const void *ctx, uint32_t id);
/* The hash of entry id's key: growth places every entry again. */
typedef uint64_t (*nnav_hashtab_hash)(const void *ctx, uint32_t id);

/* Room for n ids below the 70% growth mark (at least 16 slots). 0, or -1
 * when out of memory or when n passes what ids can number (UINT32_MAX):
 * the size computation never overflows. A zeroed table is empty too. */
int nnav_hashtab_init(nnav_hashtab *t, uint64_t n);
void nnav_hashtab_free(nnav_hashtab *t);

/* The id whose key has this hash and satisfies eq(ctx, id), or
 * NNAV_HASHTAB_NONE with *at (when at is not NULL) the free slot where
 * nnav_hashtab_put stores it. */
static inline uint32_t nnav_hashtab_find(const nnav_hashtab *t, uint64_t hash,
                                         nnav_hashtab_eq eq, const void *ctx, uint64_t *at)
{
    if (!t->slot) {
        if (at)
            *at = 0;
        return NNAV_HASHTAB_NONE;
    }
    uint64_t tag = hash >> 32 << 32;
    uint64_t i = hash & t->mask;
    for (;;) {
        uint64_t e = t->slot[i];
        if (e == NNAV_HASHTAB_EMPTY) {
            if (at)
                *at = i;
            return NNAV_HASHTAB_NONE;
        }
        if ((e & 0xffffffff00000000ull) == tag && eq(ctx, (uint32_t)e))
            return (uint32_t)e;
        i = (i + 1) & t->mask;
    }
}

/* Stores id (not NNAV_HASHTAB_NONE) with its key's hash in the free slot `at`
 * the last find gave, then grows the table when 70% full, asking rehash(ctx,
 * id) for each entry's hash. -1 when growing runs out of memory or past
 * 2^33 slots (the id is stored; the table still finds what it holds), or
 * when, growth having failed, only one free slot is left (not stored: one
 * slot stays free so that every probe ends). */
int nnav_hashtab_put(nnav_hashtab *t, uint64_t at, uint64_t hash, uint32_t id,
                     nnav_hashtab_hash rehash, const void *ctx);

/* Table probes are cache misses on big tables; asking for the slot of a key
 * a few keys ahead lets several misses overlap instead of queueing. */
static inline void nnav_hashtab_prefetch(const nnav_hashtab *t, uint64_t hash)
{
    if (t->slot)
        __builtin_prefetch(&t->slot[hash & t->mask]);
}

/* A 64-bit key's hash (a murmur3-style finaliser): for keys that are ids. */
static inline uint64_t nnav_hashtab_mix64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return k;
}

#endif
