/* test_opref.c - the operator reference and a node read against its schema
 * (src/include/opref.h), as nnav op, nnav node and the explorer show them.
 *
 * The reference: Split's history (1, 2, 11, 13) with v11 in force at opset
 * 12 and v13 the newest; LayerNormalization before its first version
 * (NOT_YET, its v17 shown); a domain the table does not hold and an op it
 * does not know; close names for a misspelt op; the text form's version and
 * history lines. A node (a model built here byte by byte, opset 17): a Conv
 * setting kernel_shape and an attribute the schema does not know gets its
 * rows in file order (FILE, UNKNOWN) then auto_pad and group by default
 * (NOTSET, 1) and dilations, pads and strides unset; X, W, B as formal
 * names; Concat's third input is inputs[2]; a com.microsoft node has no
 * schema and only the file's attributes; the schema lines say each. */
#include "testutil.h"

#include "opref.h"
#include "opschema.h"

static nnav_span S(const char *s)
{
    return (nnav_span){(const uint8_t *)s, strlen(s)};
}

static void test_find(void **state)
{
    (void)state;
    nnav_opref r;
    assert_int_equal(nnav_opref_find("", S("Split"), 12, NULL, &r), NNAV_OPREF_OK);
    assert_string_equal(r.domain, "ai.onnx");
    assert_int_equal(r.s->since, 11);
    assert_int_equal(r.n_hist, 5);
    int32_t want[] = {1, 2, 11, 13, 18};
    for (size_t i = 0; i < 5; i++)
        assert_int_equal(r.hist[i]->since, want[i]);
    assert_int_equal(r.opset, 12);
    assert_int_equal(r.model_opset, -1);
    assert_int_equal(nnav_opref_find(NULL, S("Split"), -1, NULL, &r), NNAV_OPREF_OK);
    assert_int_equal(r.s->since, 18);
    assert_int_equal(r.opset, -1);
    assert_int_equal(nnav_opref_find("ai.onnx", S("LayerNormalization"), 13, NULL, &r),
                     NNAV_OPREF_NOT_YET);
    assert_int_equal(r.s->since, 17);
    assert_int_equal(nnav_opref_find("org.example", S("Conv"), 13, NULL, &r),
                     NNAV_OPREF_NO_DOMAIN);
    /* com.microsoft is ONNX Runtime's, in the table; it has no Conv. */
    assert_int_equal(nnav_opref_find("com.microsoft", S("Conv"), 1, NULL, &r), NNAV_OPREF_NO_OP);
    assert_int_equal(nnav_opref_find("com.microsoft", S("FusedConv"), 1, NULL, &r), NNAV_OPREF_OK);
    assert_string_equal(r.s->domain, "com.microsoft");
    /* One name, two domains, two operators. */
    assert_int_equal(nnav_opref_find("com.microsoft", S("Attention"), 1, NULL, &r), NNAV_OPREF_OK);
    assert_non_null(nnav_op_attr_find(r.s, S("num_heads")));
    assert_int_equal(nnav_opref_find("ai.onnx", S("Attention"), 23, NULL, &r), NNAV_OPREF_OK);
    assert_null(nnav_op_attr_find(r.s, S("num_heads")));
    assert_int_equal(r.s->since, 23);
    assert_int_equal(nnav_opref_find("ai.onnx", S("Frobnicate"), 13, NULL, &r), NNAV_OPREF_NO_OP);
    assert_int_equal(nnav_opref_find("ai.onnx", S("conv"), 13, NULL, &r), NNAV_OPREF_NO_OP);
    assert_int_equal(nnav_opref_find("ai.onnx.ml", S("LinearClassifier"), 1, NULL, &r),
                     NNAV_OPREF_OK);
    assert_string_equal(r.s->domain, "ai.onnx.ml");
}

static void test_suggest(void **state)
{
    (void)state;
    const char *out[8];
    size_t n = nnav_opref_suggest(NULL, S("conv"), out, 8);
    assert_true(n >= 3);
    assert_string_equal(out[0], "Conv"); /* the same but for case, first */
    for (size_t i = 0; i < n; i++)
        for (size_t k = i + 1; k < n; k++)
            assert_string_not_equal(out[i], out[k]);
    n = nnav_opref_suggest("ai.onnx", S("RESIZ"), out, 8);
    assert_int_equal(n, 1);
    assert_string_equal(out[0], "Resize");
    assert_int_equal(nnav_opref_suggest(NULL, S("Frobnicate"), out, 8), 0);
    assert_int_equal(nnav_opref_suggest(NULL, S("C"), out, 2), 2); /* at most max */
}

static char *write_text(const nnav_opref *r, int yaml)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(nnav_opref_write(r, yaml, f), 0);
    fclose(f);
    return buf;
}

static void test_write(void **state)
{
    (void)state;
    nnav_opref r;
    nnav_opref_find("", S("Split"), 12, NULL, &r);
    char *t = write_text(&r, 0);
    assert_non_null(strstr(t, "op         Split\n"));
    assert_non_null(strstr(t, "version    11 (in force at opset 12)\n"));
    assert_non_null(strstr(t, "outputs (1 or more):\n  outputs  T                        variadic\n"));
    assert_non_null(strstr(t, "history (5 versions):\n  v1\n  v2\n  v11      in force at opset 12\n  v13\n  v18\n"));
    free(t);
    nnav_opref_find("", S("Conv"), -1, NULL, &r);
    t = write_text(&r, 0);
    assert_non_null(strstr(t, "  auto_pad             STRING   default \"NOTSET\"\n"));
    assert_non_null(strstr(t, "  v22      the newest\n"));
    free(t);
    t = write_text(&r, 1);
    assert_non_null(strstr(t, "since_version: 22\n"));
    assert_non_null(strstr(t, "{name: auto_pad, type: STRING, required: false, default: NOTSET}"));
    free(t);
}

static void add_attr_int(tu_pb *node, const char *name, int64_t v)
{
    tu_pb a = {0};
    tu_pb_str(&a, 1, name);
    tu_pb_int(&a, 3, (uint64_t)v);
    tu_pb_int(&a, 20, 2); /* INT */
    tu_pb_msg(node, 5, &a);
}

static const char *build_model(void)
{
    tu_pb graph = {0}, model = {0}, node = {0}, a = {0};
    tu_pb_node(&node, "conv", "Conv", "x,w,b", "y");
    tu_pb_str(&a, 1, "kernel_shape");
    tu_pb_int(&a, 8, 3);
    tu_pb_int(&a, 8, 3);
    tu_pb_int(&a, 20, 7); /* INTS */
    tu_pb_msg(&node, 5, &a);
    add_attr_int(&node, "zzz", 4);
    tu_pb_msg(&graph, 1, &node);
    tu_pb_node(&node, "cat", "Concat", "x,x,x", "z");
    add_attr_int(&node, "axis", 0);
    tu_pb_msg(&graph, 1, &node);
    tu_pb_node(&node, "ms", "FusedConv", "x", "v");
    tu_pb_str(&node, 7, "org.example");
    add_attr_int(&node, "k", 1);
    tu_pb_msg(&graph, 1, &node);
    tu_pb_str(&graph, 2, "g");
    tu_pb_model(&model, &graph);
    const char *path = tu_join(tu_tmpdir("opref"), "node.onnx");
    tu_write(path, model.p, model.n);
    tu_pb_free(&model);
    return path;
}

static void test_node(void **state)
{
    (void)state;
    nnav_model *m = tu_open(build_model());
    uint32_t conv = tu_node(m, 0, "conv"), cat = tu_node(m, 0, "cat"), ms = tu_node(m, 0, "ms");
    nnav_op_use u;
    char buf[512];
    assert_int_equal(nnav_op_resolve(m, conv, &u), 0);
    assert_string_equal(nnav_node_schema_line(m, conv, &u, buf, sizeof buf),
                        "Conv v11 (ai.onnx, opset 17 in force)");
    const char *formals[] = {"X", "W", "B"};
    for (uint32_t i = 0; i < 3; i++)
        assert_string_equal(nnav_node_formal(m, conv, &u, 0, i, buf, sizeof buf), formals[i]);
    assert_string_equal(nnav_node_formal(m, conv, &u, 0, 3, buf, sizeof buf), "");
    assert_string_equal(nnav_node_formal(m, conv, &u, 1, 0, buf, sizeof buf), "Y");
    nnav_node_attr_row rows[16];
    size_t n = nnav_node_attr_rows(m, conv, &u, rows, 16);
    assert_int_equal(n, 2 + 5); /* the file's 2, then 6 - 1 the schema adds */
    assert_int_equal(nnav_node_attr_rows(m, conv, &u, NULL, 0), n);
    assert_int_equal(rows[0].state, NNAV_NA_FILE);
    assert_string_equal(rows[0].sa->name, "kernel_shape");
    assert_int_equal(rows[1].state, NNAV_NA_UNKNOWN);
    assert_null(rows[1].sa);
    assert_true(tu_span_is(nnav_attr_get(m, rows[1].attr)->name, "zzz"));
    const char *names[] = {"auto_pad", "dilations", "group", "pads", "strides"};
    const int states[] = {NNAV_NA_DEFAULT, NNAV_NA_UNSET, NNAV_NA_DEFAULT, NNAV_NA_UNSET,
                          NNAV_NA_UNSET};
    for (size_t k = 0; k < 5; k++) {
        assert_string_equal(rows[2 + k].sa->name, names[k]);
        assert_int_equal(rows[2 + k].state, states[k]);
        assert_int_equal(rows[2 + k].attr, NNAV_NONE);
    }
    assert_string_equal(nnav_node_attr_row_value(m, &rows[2], 16, buf, sizeof buf), "\"NOTSET\"");
    assert_string_equal(nnav_node_attr_row_value(m, &rows[4], 16, buf, sizeof buf), "1");
    assert_string_equal(nnav_node_attr_row_value(m, &rows[3], 16, buf, sizeof buf), "");
    assert_string_equal(nnav_node_attr_row_value(m, &rows[0], 16, buf, sizeof buf), "[3, 3]");
    /* Fewer rows than there are: the count is still all of them. */
    assert_int_equal(nnav_node_attr_rows(m, conv, &u, rows, 1), n);

    nnav_op_resolve(m, cat, &u);
    assert_string_equal(nnav_node_formal(m, cat, &u, 0, 2, buf, sizeof buf), "inputs[2]");
    assert_int_equal(nnav_node_attr_rows(m, cat, &u, rows, 16), 1);

    nnav_op_resolve(m, ms, &u);
    assert_int_equal(u.status, NNAV_OPS_NONSTANDARD);
    assert_string_equal(nnav_node_schema_line(m, ms, &u, buf, sizeof buf),
                        "not in the table: domain org.example");
    assert_string_equal(nnav_node_formal(m, ms, &u, 0, 0, buf, sizeof buf), "");
    n = nnav_node_attr_rows(m, ms, &u, rows, 16);
    assert_int_equal(n, 1);
    assert_int_equal(rows[0].state, NNAV_NA_FILE);
    assert_null(rows[0].sa);

    nnav_opref r;
    assert_int_equal(nnav_opref_for_node(m, conv, &r), NNAV_OPREF_OK);
    assert_int_equal(r.s->since, 11);
    assert_int_equal(r.model_since, 11);
    assert_int_equal(r.model_opset, 17);
    assert_int_equal(r.n_hist, 3); /* Conv 1, 11, 22 */
    assert_int_equal(nnav_opref_for_node(m, ms, &r), NNAV_OPS_NONSTANDARD);
    assert_int_equal(nnav_opref_for_node(m, nnav_node_count(m), &r), -1);
    nnav_model_close(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_suggest),
        cmocka_unit_test(test_write),
        cmocka_unit_test(test_node),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
