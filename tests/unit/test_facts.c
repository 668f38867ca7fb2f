/* test_facts.c - the op-type histogram (report.h): one entry per op and
 * domain, counted over many distinct ops (past its table's first size),
 * sorted by count then name. */
#include "testutil.h"

#include "report.h"

static void put(tu_pb *graph, int i, const char *op, const char *domain)
{
    tu_pb node = {0};
    char in[32], out[32];
    snprintf(in, sizeof in, "v%d", i);
    snprintf(out, sizeof out, "v%d", i + 1);
    tu_pb_node(&node, NULL, op, in, out);
    if (domain)
        tu_pb_str(&node, 7, domain);
    tu_pb_msg(graph, 1, &node);
}

static void histogram_by_op_and_domain(void **state)
{
    (void)state;
    tu_pb g = {0}, model = {0};
    int i = 0;
    char op[16];
    for (; i < 120; i++) { /* Op00..Op39, three each */
        snprintf(op, sizeof op, "Op%02d", i % 40);
        put(&g, i, op, NULL);
    }
    put(&g, i++, "Op00", NULL);
    put(&g, i++, "Relu", NULL);
    for (int k = 0; k < 5; k++) /* the same op in another domain is another entry */
        put(&g, i++, "Relu", "com.microsoft");
    put(&g, i++, "Relu", NULL);
    tu_pb_str(&g, 2, "facts");
    tu_pb_model(&model, &g);
    const char *path = tu_join(tu_tmpdir("facts"), "model.onnx");
    tu_write(path, model.p, model.n);
    tu_pb_free(&model);
    tu_pb_free(&g);
    nnav_model *m = tu_open(path);
    size_t n = 0;
    nnav_op_count *ops = nnav_op_histogram(m, 0, nnav_node_count(m), NULL, &n);
    assert_non_null(ops);
    assert_int_equal(n, 42);
    assert_true(tu_span_is(ops[0].op, "Relu"));
    assert_true(tu_span_is(ops[0].domain, "com.microsoft"));
    assert_int_equal(ops[0].count, 5);
    assert_true(tu_span_is(ops[1].op, "Op00"));
    assert_int_equal(ops[1].count, 4);
    for (int k = 1; k < 40; k++) {
        snprintf(op, sizeof op, "Op%02d", k);
        assert_true(tu_span_is(ops[1 + k].op, op));
        assert_int_equal(ops[1 + k].count, 3);
    }
    assert_true(tu_span_is(ops[41].op, "Relu"));
    assert_false(tu_span_is(ops[41].domain, "com.microsoft"));
    assert_int_equal(ops[41].count, 2);
    free(ops);
    nnav_model_close(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(histogram_by_op_and_domain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
