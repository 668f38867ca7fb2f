/* The graph view's layers: BFS placement, folding of wide fans, edges, moves. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "gview.h"

/* A made-up DAG as an edge list: edge i goes from src[i] to dst[i]. */
typedef struct fake {
    const uint32_t *src, *dst;
    size_t n;
    uint32_t input_of; /* this node also has a graph input (value id 1000) */
} fake;

static uint64_t f_count(void *ctx, uint32_t node, int up)
{
    fake *f = ctx;
    uint64_t c = up && node == f->input_of;
    for (size_t i = 0; i < f->n; i++)
        c += (up ? f->dst[i] : f->src[i]) == node;
    return c;
}

static int f_get(void *ctx, uint32_t node, int up, uint64_t k, uint32_t *id)
{
    fake *f = ctx;
    if (up && node == f->input_of) {
        if (k == 0) {
            *id = 1000;
            return GV_INPUT;
        }
        k--;
    }
    for (size_t i = 0; i < f->n; i++)
        if ((up ? f->dst[i] : f->src[i]) == node && k-- == 0) {
            *id = up ? f->src[i] : f->dst[i];
            return GV_NODE;
        }
    return GV_NONE;
}

static int layer_count(const gv_layout *g, int layer)
{
    int n = 0;
    for (size_t i = 0; i < g->nitems; i++)
        n += g->items[i].layer == layer;
    return n;
}

/*   0   1        two producers of 2, which feeds 3 and 4; 3 feeds 5
 *    \ /
 *     2
 *    / \
 *   3   4
 *   |
 *   5
 */
static const uint32_t S1[] = { 0, 1, 2, 2, 3 };
static const uint32_t D1[] = { 2, 2, 3, 4, 5 };

static void test_layers(void **state)
{
    (void)state;
    fake f = { S1, D1, 5, UINT32_MAX };
    gv_source src = { &f, f_count, f_get };
    gv_layout g = { 0 };
    assert_int_equal(gv_build(&g, &src, 2, 1, 8), 0);
    assert_int_equal(g.up, 1);
    assert_int_equal(g.down, 1);
    assert_int_equal(layer_count(&g, -1), 2);
    assert_int_equal(layer_count(&g, 0), 1);
    assert_int_equal(layer_count(&g, 1), 2);
    assert_int_equal(g.nedges, 4);
    size_t c = gv_find(&g, GV_NODE, 2), p0 = gv_find(&g, GV_NODE, 0);
    assert_int_equal(c, g.centre);
    assert_true(gv_has_edge(&g, p0, c));
    assert_int_equal(gv_find(&g, GV_NODE, 5), (size_t)-1); /* depth 1 stops before 5 */

    assert_int_equal(gv_build(&g, &src, 2, 2, 8), 0);
    assert_int_equal(g.down, 2);
    assert_int_equal(g.up, 1); /* nothing above 0 and 1 */
    size_t n5 = gv_find(&g, GV_NODE, 5);
    assert_int_not_equal(n5, (size_t)-1);
    assert_int_equal(g.items[n5].layer, 2);
    gv_free(&g);
}

static void test_place_and_move(void **state)
{
    (void)state;
    fake f = { S1, D1, 5, UINT32_MAX };
    gv_source src = { &f, f_count, f_get };
    gv_layout g = { 0 };
    assert_int_equal(gv_build(&g, &src, 2, 2, 8), 0);
    gv_place(&g, 10, 3, 2, 2);
    assert_int_equal(g.width, 22);
    assert_int_equal(g.height, 4 * 3 + 3 * 2);
    size_t c = g.centre;
    assert_int_equal(g.items[c].col, 6); /* centred */
    assert_int_equal(g.items[c].row, 5);
    size_t n0 = gv_find(&g, GV_NODE, 0), n1 = gv_find(&g, GV_NODE, 1);
    assert_int_equal(g.items[n0].col, 0);
    assert_int_equal(g.items[n1].col, 12);
    /* up goes to a producer, right and left walk the layer */
    size_t u = gv_move(&g, c, 'u');
    assert_true(u == n0 || u == n1);
    assert_int_equal(gv_move(&g, n0, 'r'), n1);
    assert_int_equal(gv_move(&g, n1, 'l'), n0);
    assert_int_equal(gv_move(&g, n0, 'l'), n0);
    /* down from 2 then down again reaches 5 through 3, not 4 */
    size_t n3 = gv_find(&g, GV_NODE, 3), n5 = gv_find(&g, GV_NODE, 5);
    assert_int_equal(gv_move(&g, n3, 'd'), n5);
    assert_int_equal(gv_move(&g, n5, 'd'), n5);
    gv_free(&g);
}

/* A node with 300 consumers: 6 boxes and one "+294 more". */
static void test_fold(void **state)
{
    (void)state;
    enum { N = 300 };
    uint32_t *s = malloc(N * sizeof *s), *d = malloc(N * sizeof *d);
    for (uint32_t i = 0; i < N; i++) {
        s[i] = 0;
        d[i] = i + 1;
    }
    fake f = { s, d, N, 0 };
    gv_source src = { &f, f_count, f_get };
    gv_layout g = { 0 };
    assert_int_equal(gv_build(&g, &src, 0, 2, 6), 0);
    assert_int_equal(layer_count(&g, 1), 7);
    size_t more = (size_t)-1;
    for (size_t i = 0; i < g.nitems; i++)
        if (g.items[i].kind == GV_MORE)
            more = i;
    assert_int_not_equal(more, (size_t)-1);
    assert_int_equal(g.items[more].more, N - 6);
    assert_int_equal(g.items[more].layer, 1);
    assert_true(gv_has_edge(&g, g.centre, more));
    /* the graph input above node 0 is a box of its own kind */
    size_t in = gv_find(&g, GV_INPUT, 1000);
    assert_int_not_equal(in, (size_t)-1);
    assert_int_equal(g.items[in].layer, -1);
    gv_place(&g, 12, 3, 1, 2);
    assert_true(g.items[more].col > g.items[gv_find(&g, GV_NODE, 6)].col); /* last */
    gv_free(&g);
    free(s);
    free(d);
}

/* A diamond: 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3; each node placed once. */
static void test_diamond_once(void **state)
{
    (void)state;
    static const uint32_t s[] = { 0, 0, 1, 2 }, d[] = { 1, 2, 3, 3 };
    fake f = { s, d, 4, UINT32_MAX };
    gv_source src = { &f, f_count, f_get };
    gv_layout g = { 0 };
    assert_int_equal(gv_build(&g, &src, 0, 3, 8), 0);
    assert_int_equal(g.nitems, 4);
    assert_int_equal(g.down, 2);
    size_t n3 = gv_find(&g, GV_NODE, 3);
    assert_true(gv_has_edge(&g, gv_find(&g, GV_NODE, 1), n3));
    assert_true(gv_has_edge(&g, gv_find(&g, GV_NODE, 2), n3));
    gv_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layers),
        cmocka_unit_test(test_place_and_move),
        cmocka_unit_test(test_fold),
        cmocka_unit_test(test_diamond_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
