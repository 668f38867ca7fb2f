/* Compare mode's ]c / [c order (ui/cmpwalk.c): differences visited by graph,
 * a graph's nodes before its initializers, each in id order; from a place
 * that is not a difference to the nearest one in the direction; wrapping at
 * either end, said so. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "cmpwalk.h"

static cmp_key K(uint32_t g, uint32_t kind, uint32_t id)
{
    return (cmp_key){ g, kind, id, kind ? 0 : CMP_SUB_SELF };
}

/* A row for the other side's node `other`, placed before node `at`. */
static cmp_key O(uint32_t g, uint32_t at, uint32_t other)
{
    return (cmp_key){ g, 0, at, other };
}

/* Given out of order: graph 1's node, graph 0's tensor, graph 0's nodes. */
static cmp_key keys[5];

static void setup_keys(void)
{
    keys[0] = K(1, 0, 40);
    keys[1] = K(0, 1, 3);
    keys[2] = K(0, 0, 9);
    keys[3] = K(0, 0, 2);
    keys[4] = K(1, 1, 0);
    cmp_keys_sort(keys, 5);
}

static void test_sorted_graph_then_nodes_then_tensors(void **state)
{
    (void)state;
    setup_keys();
    assert_int_equal(keys[0].id, 2);
    assert_int_equal(keys[1].id, 9);
    assert_true(keys[2].kind == 1 && keys[2].id == 3);
    assert_true(keys[3].graph == 1 && keys[3].kind == 0 && keys[3].id == 40);
    assert_true(keys[4].graph == 1 && keys[4].kind == 1);
}

static void test_next_walks_every_key_then_wraps(void **state)
{
    (void)state;
    setup_keys();
    int wrapped = 0;
    cmp_key cur = K(0, 0, 0); /* before the first difference */
    for (size_t want = 0; want < 5; want++) {
        size_t i = cmp_walk(keys, 5, cur, 1, &wrapped);
        assert_int_equal(i, want);
        assert_int_equal(wrapped, 0);
        cur = keys[i];
    }
    assert_int_equal(cmp_walk(keys, 5, cur, 1, &wrapped), 0);
    assert_int_equal(wrapped, 1);
}

static void test_prev_walks_back_then_wraps(void **state)
{
    (void)state;
    setup_keys();
    int wrapped = 0;
    cmp_key cur = keys[4];
    for (size_t want = 3; want != (size_t)-1; want--) {
        size_t i = cmp_walk(keys, 5, cur, -1, &wrapped);
        assert_int_equal(i, want);
        assert_int_equal(wrapped, 0);
        cur = keys[i];
    }
    assert_int_equal(cmp_walk(keys, 5, cur, -1, &wrapped), 4);
    assert_int_equal(wrapped, 1);
}

/* From a node between two differences: the one after it, or before it. */
static void test_from_a_place_that_is_the_same(void **state)
{
    (void)state;
    setup_keys();
    int wrapped = 0;
    assert_int_equal(cmp_walk(keys, 5, K(0, 0, 5), 1, &wrapped), 1);
    assert_int_equal(cmp_walk(keys, 5, K(0, 0, 5), -1, &wrapped), 0);
    assert_int_equal(wrapped, 0);
    /* Graph 0's last node precedes its initializers. */
    assert_int_equal(cmp_walk(keys, 5, K(0, 0, 99), 1, &wrapped), 2);
    /* Past everything: wraps to the first. */
    assert_int_equal(cmp_walk(keys, 5, K(7, 0, 0), 1, &wrapped), 0);
    assert_int_equal(wrapped, 1);
}

/* Rows of the other side's nodes come before the node they are placed at,
 * in the other side's order, and after the graph's last node when placed
 * at its end. */
static void test_other_side_rows(void **state)
{
    (void)state;
    cmp_key k[5] = { K(0, 0, 4), O(0, CMP_AT_END, 1), O(0, 4, 7), K(0, 1, 0), O(0, 4, 3) };
    cmp_keys_sort(k, 5);
    assert_true(k[0].id == 4 && k[0].sub == 3);
    assert_true(k[1].id == 4 && k[1].sub == 7);
    assert_true(k[2].id == 4 && k[2].sub == CMP_SUB_SELF);
    assert_true(k[3].id == CMP_AT_END && k[3].kind == 0);
    assert_true(k[4].kind == 1);
    int wrapped = 0;
    /* From node 4 back: the two rows before it, nearest first. */
    assert_int_equal(cmp_walk(k, 5, K(0, 0, 4), -1, &wrapped), 1);
    assert_int_equal(cmp_walk(k, 5, k[1], -1, &wrapped), 0);
    assert_int_equal(cmp_walk(k, 5, K(0, 0, 4), 1, &wrapped), 3);
    assert_int_equal(wrapped, 0);
}

static void test_none(void **state)
{
    (void)state;
    int wrapped = 5;
    assert_int_equal(cmp_walk(keys, 0, K(0, 0, 0), 1, &wrapped), 0);
    assert_int_equal(wrapped, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sorted_graph_then_nodes_then_tensors),
        cmocka_unit_test(test_next_walks_every_key_then_wraps),
        cmocka_unit_test(test_prev_walks_back_then_wraps),
        cmocka_unit_test(test_from_a_place_that_is_the_same),
        cmocka_unit_test(test_other_side_rows),
        cmocka_unit_test(test_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
