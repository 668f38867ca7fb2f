/* test_place.c - nnav_place_resolve: every spelling nnav prints for a place
 * (node index, node name anywhere, graph path with or without its slash, the
 * tree's NODE.ATTR label) leads to it, from any graph. Expected ids come from
 * the samples' structure as samples/gen_samples.c and gen_tf.c write it,
 * looked up with the index's own path and name functions (tested elsewhere). */
#include "testutil.h"

#include "place.h"

static nnav_place_ref ok(const nnav_model *m, uint32_t cur, const char *text, unsigned flags)
{
    nnav_place_ref r;
    nnav_error e;
    memset(&r, 0xab, sizeof r);
    if (nnav_place_resolve(m, cur, text, flags, &r, &e) != 0)
        fail_msg("'%s' from graph %u: %s", text, cur, e.msg);
    return r;
}

static const char *refused(const nnav_model *m, uint32_t cur, const char *text, unsigned flags)
{
    static nnav_error e;
    nnav_place_ref r;
    if (nnav_place_resolve(m, cur, text, flags, &r, &e) == 0)
        fail_msg("'%s' resolved (kind %u id %u) but names nothing", text, r.kind, r.id);
    assert_int_equal(e.kind, NNAV_ERR_USAGE);
    assert_true(e.msg[0] != 0);
    return e.msg;
}

static void is_graph(nnav_place_ref r, uint32_t g, uint8_t how)
{
    assert_int_equal(r.kind, NNAV_PLACE_GRAPH);
    assert_int_equal(r.id, g);
    assert_int_equal(r.graph, g);
    assert_int_equal(r.how, how);
}

static const nnav_model *cur_model;

static void is_node(nnav_place_ref r, uint32_t node, uint8_t how, uint32_t others)
{
    assert_int_equal(r.kind, NNAV_PLACE_NODE);
    assert_int_equal(r.id, node);
    assert_int_equal(r.graph, nnav_node_get(cur_model, node)->graph);
    assert_int_equal(r.how, how);
    assert_int_equal(r.others, others);
}

static void test_graph_spellings(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tu_sample("control_flow.onnx"));
    cur_model = m;
    uint32_t body = tu_graph(m, "/loop/body");
    uint32_t els = tu_graph(m, "/loop/body/body_if/else_branch");
    uint32_t fn = tu_graph(m, "@AddLeakyRelu");
    for (unsigned f = 0; f <= NNAV_PLACE_GRAPHS; f += NNAV_PLACE_GRAPHS) {
        is_graph(ok(m, 0, "/loop/body", f), body, NNAV_PLACE_BY_PATH);
        is_graph(ok(m, 0, "loop/body", f), body, NNAV_PLACE_BY_PATH);
        is_graph(ok(m, 0, "loop/body/", f), body, NNAV_PLACE_BY_PATH);
        is_graph(ok(m, els, "loop.body", f), body, NNAV_PLACE_BY_LABEL);
        is_graph(ok(m, 0, "loop/body/body_if/else_branch", f), els, NNAV_PLACE_BY_PATH);
        /* The label of a body two levels down, typed from the main graph. */
        is_graph(ok(m, 0, "body_if.else_branch", f), els, NNAV_PLACE_BY_LABEL);
        is_graph(ok(m, els, "main", f), 0, NNAV_PLACE_BY_LABEL);
        is_graph(ok(m, 0, "/", f), 0, NNAV_PLACE_BY_PATH);
        is_graph(ok(m, 0, "@AddLeakyRelu", f), fn, NNAV_PLACE_BY_PATH);
    }
    /* Graphs only: node names, indexes and half labels name no graph. */
    refused(m, 0, "then_mul", NNAV_PLACE_GRAPHS);
    refused(m, 0, "#0", NNAV_PLACE_GRAPHS);
    refused(m, 0, "body_if.", NNAV_PLACE_GRAPHS);
    refused(m, 0, ".else_branch", NNAV_PLACE_GRAPHS);
    refused(m, 0, "body_if.else_branch[0]", NNAV_PLACE_GRAPHS);
    refused(m, 0, "loop/bod", NNAV_PLACE_GRAPHS);
    const char *msg = refused(m, 0, "body_if.no_branch", NNAV_PLACE_GRAPHS);
    assert_non_null(strstr(msg, "'body_if.no_branch'"));
    nnav_model_close(m);
}

static void test_nodes_anywhere(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tu_sample("control_flow.onnx"));
    cur_model = m;
    uint32_t body = tu_graph(m, "/loop/body");
    uint32_t then = tu_graph(m, "/loop/body/body_if/then_branch");
    /* A node only in a body two levels down, from the main graph. */
    nnav_place_ref r = ok(m, 0, "then_add", 0);
    is_node(r, tu_node(m, then, "then_add"), NNAV_PLACE_BY_NAME_ELSEWHERE, 0);
    assert_int_equal(r.graph, then);
    /* ... and from the graph itself, as a name here. */
    is_node(ok(m, then, "then_add", 0), tu_node(m, then, "then_add"), NNAV_PLACE_BY_NAME, 0);
    /* Indexes count from 0, in the current graph, with or without '#'. */
    is_node(ok(m, body, "#3", 0), tu_node(m, body, "body_if"), NNAV_PLACE_BY_INDEX, 0);
    is_node(ok(m, body, "3", 0), tu_node(m, body, "body_if"), NNAV_PLACE_BY_INDEX, 0);
    is_node(ok(m, 0, "#0", 0), tu_node(m, 0, "const_scale"), NNAV_PLACE_BY_INDEX, 0);
    is_node(ok(m, 0, "10", 0), tu_node(m, 0, "normalize"), NNAV_PLACE_BY_INDEX, 0);
    const char *msg = refused(m, body, "#5", 0);
    assert_non_null(strstr(msg, "#0 to #4"));
    refused(m, 0, "#", 0);
    refused(m, 0, "#-1", 0);
    refused(m, 0, "#99999999999999999999", 0);
    refused(m, 0, "11", 0);
    /* A value the current graph sees (scoping through the Loop body). */
    r = ok(m, body, "scale", 0);
    assert_int_equal(r.kind, NNAV_PLACE_VALUE);
    assert_int_equal(r.how, NNAV_PLACE_BY_VALUE);
    assert_int_equal(r.graph, 0);
    /* What names nothing says so, escaped. */
    msg = refused(m, 0, "no_such\x1b[31m", 0);
    assert_null(strchr(msg, '\x1b'));
    assert_non_null(strstr(msg, "no_such"));
    refused(m, 0, "", 0);
    nnav_model_close(m);
}

static void test_name_in_several_graphs(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tu_sample("tf_saved_model"));
    cur_model = m;
    /* "Identity" is a node of three functions and not of the main graph:
     * the first function in graph order, and two others. */
    uint32_t first = NNAV_NONE, n = 0;
    for (uint32_t g = 0; g < nnav_graph_count(m); g++)
        if (nnav_node_by_name(m, g, "Identity", 8) != NNAV_NONE && n++ == 0)
            first = g;
    assert_int_equal(n, 3);
    assert_true(first != 0);
    nnav_place_ref r = ok(m, 0, "Identity", 0);
    is_node(r, tu_node(m, first, "Identity"), NNAV_PLACE_BY_NAME_ELSEWHERE, 2);
    assert_int_equal(r.graph, first);
    /* In the main graph and a function: the main graph's, from there. */
    is_node(ok(m, 0, "StatefulPartitionedCall", 0), tu_node(m, 0, "StatefulPartitionedCall"),
            NNAV_PLACE_BY_NAME, 0);
    nnav_model_close(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_graph_spellings),
        cmocka_unit_test(test_nodes_anywhere),
        cmocka_unit_test(test_name_in_several_graphs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
