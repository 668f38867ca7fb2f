/* test_hashtab.c - the one hash table (hashtab.h): ids found by their keys
 * through collisions of the whole hash and of the slot index, across growth,
 * in a zeroed table, and sizes whose computation would overflow refused. */
#include "testutil.h"

#include "hashtab.h"

/* Keys live in the caller's array; the table holds indices into it. Each key
 * carries the hash the test chose for it, so collisions are made on purpose. */
typedef struct key { uint64_t k, hash; } key;
typedef struct keys { key *v; uint32_t n; } keys;
typedef struct probe { const keys *ks; uint64_t k; } probe;

static int same(const void *ctx, uint32_t id)
{
    const probe *p = ctx;
    return p->ks->v[id].k == p->k;
}

static uint64_t rehash(const void *ctx, uint32_t id)
{
    return ((const keys *)ctx)->v[id].hash;
}

static uint32_t find(const nnav_hashtab *t, const keys *ks, uint64_t k, uint64_t hash,
                     uint64_t *at)
{
    probe p = { ks, k };
    return nnav_hashtab_find(t, hash, same, &p, at);
}

/* Adds key k with `hash` unless present; returns its id. */
static uint32_t intern(nnav_hashtab *t, keys *ks, uint64_t k, uint64_t hash)
{
    uint64_t at = 0;
    uint32_t id = find(t, ks, k, hash, &at);
    if (id != NNAV_HASHTAB_NONE)
        return id;
    id = ks->n++;
    ks->v[id] = (key){ k, hash };
    assert_int_equal(nnav_hashtab_put(t, at, hash, id, rehash, ks), 0);
    return id;
}

/* Every key found under its id, and a key never added not found. */
static void check_all(const nnav_hashtab *t, const keys *ks)
{
    for (uint32_t i = 0; i < ks->n; i++)
        assert_int_equal(find(t, ks, ks->v[i].k, ks->v[i].hash, NULL), i);
    assert_int_equal(find(t, ks, UINT64_MAX, 12345, NULL), NNAV_HASHTAB_NONE);
    assert_true(t->used * 10 < (t->mask + 1) * 7);
    assert_int_equal(t->used, ks->n);
}

static void zeroed_table_is_empty_and_grows(void **state)
{
    (void)state;
    key v[64];
    keys ks = { v, 0 };
    nnav_hashtab t = { 0 };
    uint64_t at = 99;
    assert_int_equal(find(&t, &ks, 1, 1, &at), NNAV_HASHTAB_NONE);
    for (uint64_t k = 0; k < 40; k++)
        assert_int_equal(intern(&t, &ks, k * 7, nnav_hashtab_mix64(k * 7)), k);
    /* Interning again finds, adds nothing. */
    for (uint64_t k = 0; k < 40; k++)
        assert_int_equal(intern(&t, &ks, k * 7, nnav_hashtab_mix64(k * 7)), k);
    check_all(&t, &ks);
    assert_true(t.mask + 1 >= 64); /* 40 keys below 70% */
    nnav_hashtab_free(&t);
    assert_null(t.slot);
}

/* Every key with the same hash: the tag always agrees, equality decides,
 * probes run through one cluster that wraps the end of the slots. */
static void whole_hash_collisions(void **state)
{
    (void)state;
    key v[200];
    keys ks = { v, 0 };
    nnav_hashtab t;
    assert_int_equal(nnav_hashtab_init(&t, 0), 0);
    uint64_t h = 0xabcdef01ffffffffull; /* low bits: the last slot, so probes wrap */
    for (uint64_t k = 0; k < 200; k++)
        assert_int_equal(intern(&t, &ks, k + 1000, h), k);
    check_all(&t, &ks);
    assert_int_equal(find(&t, &ks, 999, h, NULL), NNAV_HASHTAB_NONE);
    nnav_hashtab_free(&t);
}

/* Same slot index, different tags; and same tag, different slot index. */
static void index_and_tag_collisions(void **state)
{
    (void)state;
    key v[300];
    keys ks = { v, 0 };
    nnav_hashtab t;
    assert_int_equal(nnav_hashtab_init(&t, 300), 0);
    uint64_t mask = t.mask;
    for (uint64_t k = 0; k < 150; k++)
        intern(&t, &ks, k, k << 32 | 5);          /* one index, 150 tags */
    for (uint64_t k = 0; k < 150; k++)
        intern(&t, &ks, 500 + k, 7ull << 32 | k); /* one tag, 150 indices */
    assert_int_equal(ks.n, 300);
    assert_int_equal(t.mask, mask); /* init(300) made room for 300 */
    check_all(&t, &ks);
    /* A key whose tag and index match an entry's but whose key differs. */
    assert_int_equal(find(&t, &ks, 77777, 3ull << 32 | 5, NULL), NNAV_HASHTAB_NONE);
    nnav_hashtab_free(&t);
}

/* Growth from 16 slots to past 2^17, keys hashed for real; the ids found
 * after each doubling are the ones given. */
static void growth_keeps_every_id(void **state)
{
    (void)state;
    enum { N = 100000 };
    key *v = malloc(N * sizeof *v);
    assert_non_null(v);
    keys ks = { v, 0 };
    nnav_hashtab t;
    assert_int_equal(nnav_hashtab_init(&t, 0), 0);
    assert_int_equal(t.mask, 15);
    uint64_t grew = 0, last = t.mask;
    for (uint64_t k = 0; k < N; k++) {
        uint64_t kk = k * 0x9E3779B97F4A7C15ull;
        assert_int_equal(intern(&t, &ks, kk, nnav_hashtab_mix64(kk)), k);
        if (t.mask != last) {
            assert_int_equal(t.mask, last * 2 + 1);
            last = t.mask, grew++;
        }
    }
    assert_true(grew >= 13);
    check_all(&t, &ks);
    nnav_hashtab_free(&t);
    free(v);
}

/* init's room: n keys go in without growth, n + 1 more than 70% do grow. */
static void init_sizes_for_n(void **state)
{
    (void)state;
    for (uint64_t n = 0; n < 200; n += 13) {
        nnav_hashtab t;
        assert_int_equal(nnav_hashtab_init(&t, n), 0);
        assert_true(t.mask + 1 >= 16);
        assert_true((t.mask + 1) * 7 >= n * 10);
        assert_true(t.mask + 1 == 16 || (t.mask + 1) / 2 * 7 < n * 10);
        nnav_hashtab_free(&t);
    }
}

/* Sizes past what uint32 ids can number are refused before any arithmetic
 * could wrap (n * 10, cap * 8 bytes), leaving an empty table. */
static void overflowing_sizes_refused(void **state)
{
    (void)state;
    uint64_t bad[] = { UINT64_MAX, UINT64_MAX / 10 + 1, UINT64_MAX / 7, 1ull << 61,
                       (uint64_t)UINT32_MAX + 1 };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        nnav_hashtab t = { (uint64_t *)&t, 5, 5 };
        assert_int_equal(nnav_hashtab_init(&t, bad[i]), -1);
        assert_null(t.slot);
        assert_int_equal(t.used, 0);
        nnav_hashtab_free(&t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(zeroed_table_is_empty_and_grows),
        cmocka_unit_test(whole_hash_collisions),
        cmocka_unit_test(index_and_tag_collisions),
        cmocka_unit_test(growth_keeps_every_id),
        cmocka_unit_test(init_sizes_for_n),
        cmocka_unit_test(overflowing_sizes_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
