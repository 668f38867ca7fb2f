/* test_opschema.c - the operator table and a node held to its schema
 * (src/include/opschema.h).
 *
 * Version resolution: the schema in force is the newest whose since_version
 * is not past the opset (ONNX's published histories: Relu 1, 6, 13, 14;
 * Split 1, 2, 11, 13; Conv 1, 11); an op before its first version is
 * NOT_YET; a version past the table resolves to the newest with past_table.
 * Node resolution on a model built here byte by byte: the model's import
 * (opset 10) for its main graph, a function's own import (opset 13) for the
 * function body, a domain the table does not hold, a standard domain not
 * imported, an unknown op, a call to the local function. Default filling:
 * Conv's auto_pad defaults to NOTSET and group to 1, LeakyRelu's alpha to
 * 0.01 (a float32), RNN's activations to a list of strings; input names X,
 * W, B and a variadic formal's positions. The table is what
 * proto/gen_opschema.py writes (cli_opschema_fresh checks the bytes). */
#include "testutil.h"

#include "dtype.h"
#include "opschema.h"

static nnav_span S(const char *s)
{
    return (nnav_span){(const uint8_t *)s, strlen(s)};
}

static void test_table_sorted(void **state)
{
    (void)state;
    size_t n = nnav_op_table_count();
    assert_true(n > 400);
    assert_null(nnav_op_table_at(n));
    for (size_t i = 1; i < n; i++) {
        const nnav_op_schema *a = nnav_op_table_at(i - 1), *b = nnav_op_table_at(i);
        int c = strcmp(a->domain, b->domain);
        if (!c)
            c = strcmp(a->name, b->name);
        if (!c)
            c = a->since < b->since ? -1 : a->since > b->since;
        assert_true(c < 0);
        for (uint32_t k = 1; k < b->n_attrs; k++)
            assert_true(strcmp(b->attrs[k - 1].name, b->attrs[k].name) < 0);
        assert_true(b->min_in <= b->max_in && b->min_out <= b->max_out);
    }
    assert_string_equal(nnav_op_domain_canon(S("")), "ai.onnx");
    assert_string_equal(nnav_op_domain_canon(S("ai.onnx")), "ai.onnx");
    assert_string_equal(nnav_op_domain_canon(S("ai.onnx.ml")), "ai.onnx.ml");
    assert_string_equal(nnav_op_domain_canon(S("com.microsoft")), "com.microsoft");
    assert_string_equal(nnav_op_domain_canon(S("ai.onnx.preview")), "ai.onnx.preview");
    assert_null(nnav_op_domain_canon(S("com.microsoft.nchwc")));
    /* Canonical domains are the table's own strings, compared by pointer. */
    for (size_t i = 0; i < nnav_op_domain_count(); i++) {
        const char *d = nnav_op_domain_at(i);
        assert_ptr_equal(nnav_op_domain_canon(S(d)), d);
        assert_true(nnav_op_table_max(d) >= 1);
        assert_true(i == 0 || strcmp(nnav_op_domain_at(i - 1), d) < 0);
    }
    assert_null(nnav_op_domain_at(nnav_op_domain_count()));
    assert_null(nnav_op_domain_canon(S("ai.onnx.m")));
    assert_true(nnav_op_table_max("ai.onnx") >= 23);
    assert_int_equal(nnav_op_table_max("nope"), 0);
    assert_true(strncmp(nnav_op_table_origin(), "onnx ", 5) == 0);
}

static void test_versions(void **state)
{
    (void)state;
    const struct { const char *op; int64_t opset; int32_t since; } cases[] = {
        {"Relu", 1, 1}, {"Relu", 5, 1}, {"Relu", 6, 6}, {"Relu", 12, 6}, {"Relu", 13, 13},
        {"Relu", 14, 14}, {"Relu", 17, 14}, {"Relu", 99, 14}, {"Split", 10, 2},
        {"Split", 11, 11}, {"Split", 12, 11}, {"Split", 13, 13}, {"Conv", 9, 1},
        {"Conv", 11, 11}, {"Conv", 17, 11},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const nnav_op_schema *s = nnav_op_lookup("ai.onnx", S(cases[i].op), cases[i].opset);
        assert_non_null(s);
        assert_string_equal(s->name, cases[i].op);
        assert_int_equal(s->since, cases[i].since);
    }
    assert_null(nnav_op_lookup("ai.onnx", S("Relu"), 0));
    assert_null(nnav_op_lookup("ai.onnx", S("Gelu"), 17)); /* not an op before 20 */
    assert_int_equal(nnav_op_lookup("ai.onnx", S("Gelu"), 20)->since, 20);
    assert_int_equal(nnav_op_lookup("ai.onnx", S("ReduceMean"), 21)->since, 18);
    assert_int_equal(nnav_op_lookup("ai.onnx", S("GroupNormalization"), 21)->since, 21);
    assert_true(nnav_op_lookup("ai.onnx", S("GroupNormalization"), 18)->deprecated);
    assert_null(nnav_op_lookup("ai.onnx", S("Rel"), 17));
    assert_null(nnav_op_lookup("ai.onnx", S("Reluu"), 17));
    assert_null(nnav_op_lookup("ai.onnx.ml", S("Relu"), 17));
    assert_non_null(nnav_op_lookup("ai.onnx.ml", S("LinearClassifier"), 1));
    assert_non_null(nnav_op_lookup("ai.onnx.preview.training", S("Gradient"), 1));
    const nnav_op_schema *h[8];
    assert_int_equal(nnav_op_history("ai.onnx", S("Split"), h, 8), 5);
    assert_int_equal(h[0]->since, 1);
    assert_int_equal(h[1]->since, 2);
    assert_int_equal(h[2]->since, 11);
    assert_int_equal(h[3]->since, 13);
    assert_int_equal(h[4]->since, 18);
    assert_int_equal(nnav_op_history("ai.onnx", S("Split"), h, 2), 5); /* counts past max */
    assert_int_equal(nnav_op_history("ai.onnx", S("NoSuchOp"), h, 8), 0);
    /* deprecated operators are flagged */
    const nnav_op_schema *up = nnav_op_lookup("ai.onnx", S("Upsample"), 10);
    assert_non_null(up);
    assert_true(up->deprecated);
    assert_false(nnav_op_lookup("ai.onnx", S("Upsample"), 9)->deprecated);
}

static void test_defaults_and_names(void **state)
{
    (void)state;
    char buf[256];
    const nnav_op_schema *conv = nnav_op_lookup("ai.onnx", S("Conv"), 13);
    assert_string_equal(nnav_op_arg_name(conv, 0, 0, buf, sizeof buf), "X");
    assert_string_equal(nnav_op_arg_name(conv, 0, 1, buf, sizeof buf), "W");
    assert_string_equal(nnav_op_arg_name(conv, 0, 2, buf, sizeof buf), "B");
    assert_string_equal(nnav_op_arg_name(conv, 0, 3, buf, sizeof buf), "");
    assert_null(nnav_op_arg_formal(conv, 0, 3));
    assert_int_equal(nnav_op_arg_formal(conv, 0, 2)->option, NNAV_OPF_OPTIONAL);
    assert_string_equal(nnav_op_arg_name(conv, 1, 0, buf, sizeof buf), "Y");
    assert_int_equal(conv->min_in, 2);
    assert_int_equal(conv->max_in, 3);
    const nnav_op_attr *a = nnav_op_attr_find(conv, S("auto_pad"));
    assert_non_null(a);
    assert_int_equal(a->type, NNAV_ATTR_STRING);
    assert_false(a->required);
    assert_true(a->has_default);
    nnav_op_default_format(&a->def, buf, sizeof buf);
    assert_string_equal(buf, "\"NOTSET\"");
    a = nnav_op_attr_find(conv, S("group"));
    nnav_op_default_format(&a->def, buf, sizeof buf);
    assert_string_equal(buf, "1");
    a = nnav_op_attr_find(conv, S("kernel_shape"));
    assert_int_equal(a->type, NNAV_ATTR_INTS);
    assert_false(a->has_default);
    assert_null(nnav_op_attr_find(conv, S("auto_pa")));
    assert_null(nnav_op_attr_find(conv, S("auto_padx")));
    assert_null(nnav_op_attr_find(conv, S("")));
    const nnav_op_tc *tc = nnav_op_tc_find(conv, conv->in[0].type);
    assert_non_null(tc);
    int has_float = 0;
    for (uint32_t i = 0; i < tc->n_allowed; i++)
        has_float |= strcmp(tc->allowed[i], nnav_op_tensor_type_str(NNAV_DT_FLOAT)) == 0;
    assert_true(has_float);
    assert_null(nnav_op_tc_find(conv, "tensor(float)"));
    /* a float32 default reads as the float the file would hold */
    const nnav_op_schema *lr = nnav_op_lookup("ai.onnx", S("LeakyRelu"), 16);
    nnav_op_default_format(&nnav_op_attr_find(lr, S("alpha"))->def, buf, sizeof buf);
    assert_string_equal(buf, "0.01");
    const nnav_op_schema *rnn = nnav_op_lookup("ai.onnx", S("RNN"), 14);
    a = nnav_op_attr_find(rnn, S("activations"));
    assert_int_equal(a->def.kind, NNAV_ATTR_STRINGS);
    nnav_op_default_format(&a->def, buf, sizeof buf);
    assert_string_equal(buf, "[\"Tanh\", \"Tanh\"]");
    /* a required attribute has no default */
    const nnav_op_schema *cast = nnav_op_lookup("ai.onnx", S("Cast"), 13);
    a = nnav_op_attr_find(cast, S("to"));
    assert_true(a->required);
    assert_false(a->has_default);
    /* the variadic last formal takes the rest: Concat's inputs, Split's outputs */
    const nnav_op_schema *cat = nnav_op_lookup("ai.onnx", S("Concat"), 13);
    assert_string_equal(nnav_op_arg_name(cat, 0, 0, buf, sizeof buf), "inputs[0]");
    assert_string_equal(nnav_op_arg_name(cat, 0, 5, buf, sizeof buf), "inputs[5]");
    assert_int_equal(cat->max_in, NNAV_OP_UNBOUNDED);
    const nnav_op_schema *split = nnav_op_lookup("ai.onnx", S("Split"), 13);
    assert_string_equal(nnav_op_arg_name(split, 0, 1, buf, sizeof buf), "split");
    assert_string_equal(nnav_op_arg_name(split, 1, 2, buf, sizeof buf), "outputs[2]");
    assert_string_equal(nnav_op_tensor_type_str(NNAV_DT_INT64), "tensor(int64)");
    /* Every element type the table's constraints name has its string: each
     * allowed "tensor(X)" is nnav's name of some element type. */
    for (size_t i = 0; i < nnav_op_table_count(); i++) {
        const nnav_op_schema *s = nnav_op_table_at(i);
        for (uint32_t c = 0; c < s->n_tcs; c++)
            for (uint32_t k = 0; k < s->tcs[c].n_allowed; k++) {
                const char *t = s->tcs[c].allowed[k];
                if (strncmp(t, "tensor(", 7) != 0)
                    continue;
                int found = 0;
                for (int32_t d = 1; d < 64 && !found; d++)
                    found = nnav_op_tensor_type_str(d) && strcmp(nnav_op_tensor_type_str(d), t) == 0;
                if (!found)
                    fail_msg("%s-%d: no element type is %s", s->name, s->since, t);
            }
    }
    assert_null(nnav_op_tensor_type_str(0));
    assert_null(nnav_op_tensor_type_str(-1));
    assert_null(nnav_op_tensor_type_str(1000));
}

static void add_opset(tu_pb *msg, uint32_t field, const char *domain, uint64_t v)
{
    tu_pb op = {0};
    tu_pb_str(&op, 1, domain);
    tu_pb_int(&op, 2, v);
    tu_pb_msg(msg, field, &op);
}

/* Main graph at opset 10: Split (v2 in force), Upsample (deprecated at 10),
 * a com.example node, an ai.onnx.ml node not imported, an unknown op, an op
 * newer than 10 (Einsum, 12), a call to local function my.fn::F. F imports
 * opset 13: its Split is v13. */
static const char *build_model(void)
{
    tu_pb graph = {0}, model = {0}, fn = {0}, node = {0};
    tu_pb_node(&node, "split", "Split", "x", "a,b");
    tu_pb_msg(&graph, 1, &node);
    tu_pb_node(&node, "up", "Upsample", "x,s", "u");
    tu_pb_msg(&graph, 1, &node);
    tu_pb_node(&node, "custom", "Foo", "x", "c");
    tu_pb_str(&node, 7, "com.example");
    tu_pb_msg(&graph, 1, &node);
    tu_pb_node(&node, "ml", "Binarizer", "x", "d");
    tu_pb_str(&node, 7, "ai.onnx.ml");
    tu_pb_msg(&graph, 1, &node);
    tu_pb_node(&node, "what", "Frobnicate", "x", "e");
    tu_pb_msg(&graph, 1, &node);
    tu_pb_node(&node, "early", "Einsum", "x", "f");
    tu_pb_msg(&graph, 1, &node);
    tu_pb_node(&node, "call", "F", "x", "g");
    tu_pb_str(&node, 7, "my.fn");
    tu_pb_msg(&graph, 1, &node);
    tu_pb_str(&graph, 2, "g");
    tu_pb_int(&model, 1, 8);
    add_opset(&model, 8, "", 10);
    add_opset(&model, 8, "com.example", 1);
    add_opset(&model, 8, "my.fn", 1);
    tu_pb_msg(&model, 7, &graph);
    tu_pb_str(&fn, 1, "F");
    tu_pb_str(&fn, 4, "fx");
    tu_pb_str(&fn, 5, "fy");
    tu_pb_node(&node, "fsplit", "Split", "fx", "fy,fz");
    tu_pb_msg(&fn, 7, &node);
    add_opset(&fn, 9, "", 13);
    tu_pb_str(&fn, 10, "my.fn");
    tu_pb_msg(&model, 25, &fn);
    const char *path = tu_join(tu_tmpdir("opschema"), "resolve.onnx");
    tu_write(path, model.p, model.n);
    tu_pb_free(&model);
    tu_pb_free(&graph);
    return path;
}

static uint32_t node_any(const nnav_model *m, const char *name)
{
    for (uint32_t i = 0; i < nnav_node_count(m); i++)
        if (tu_span_is(nnav_node_get(m, i)->name, name))
            return i;
    fail_msg("no node %s", name);
    return NNAV_NONE;
}

static void test_resolve(void **state)
{
    (void)state;
    nnav_model *m = tu_open(build_model());
    nnav_op_use u;
    assert_int_equal(nnav_op_resolve(m, node_any(m, "split"), &u), 0);
    assert_int_equal(u.status, NNAV_OPS_FOUND);
    assert_int_equal(u.opset, 10);
    assert_int_equal(u.s->since, 2);
    assert_string_equal(u.domain, "ai.onnx");
    assert_false(u.past_table);
    nnav_op_resolve(m, node_any(m, "fsplit"), &u);
    assert_int_equal(u.status, NNAV_OPS_FOUND);
    assert_int_equal(u.opset, 13); /* the function's own import */
    assert_int_equal(u.s->since, 13);
    nnav_op_resolve(m, node_any(m, "up"), &u);
    assert_int_equal(u.status, NNAV_OPS_FOUND);
    assert_true(u.s->deprecated);
    nnav_op_resolve(m, node_any(m, "custom"), &u);
    assert_int_equal(u.status, NNAV_OPS_NONSTANDARD);
    assert_null(u.s);
    nnav_op_resolve(m, node_any(m, "ml"), &u);
    assert_int_equal(u.status, NNAV_OPS_NO_OPSET);
    assert_string_equal(u.domain, "ai.onnx.ml");
    nnav_op_resolve(m, node_any(m, "what"), &u);
    assert_int_equal(u.status, NNAV_OPS_UNKNOWN);
    nnav_op_resolve(m, node_any(m, "early"), &u);
    assert_int_equal(u.status, NNAV_OPS_NOT_YET);
    assert_int_equal(u.s->since, 12);
    nnav_op_resolve(m, node_any(m, "call"), &u);
    assert_int_equal(u.status, NNAV_OPS_FUNCTION);
    assert_int_equal(nnav_op_resolve(m, nnav_node_count(m), &u), -1);
    nnav_model_close(m);
}

/* A Loop body inherits the model's opset; past the table resolves to the
 * newest known schema and says so. */
static void test_body_and_past_table(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tu_sample("control_flow.onnx"));
    int seen = 0;
    for (uint32_t i = 0; i < nnav_node_count(m); i++) {
        const nnav_node *nd = nnav_node_get(m, i);
        if (nnav_graph_get(m, nd->graph)->kind != NNAV_GRAPH_BODY)
            continue;
        nnav_op_use u;
        nnav_op_resolve(m, i, &u);
        if (u.status == NNAV_OPS_FOUND) {
            assert_int_equal(u.opset, 17);
            seen++;
        }
    }
    assert_true(seen > 0);
    nnav_model_close(m);
    tu_pb graph = {0}, model = {0}, node = {0};
    tu_pb_node(&node, "r", "Relu", "x", "y");
    tu_pb_msg(&graph, 1, &node);
    tu_pb_int(&model, 1, 8);
    add_opset(&model, 8, "ai.onnx", 99);
    tu_pb_msg(&model, 7, &graph);
    const char *path = tu_join(tu_tmpdir("opschema"), "past.onnx");
    tu_write(path, model.p, model.n);
    tu_pb_free(&model);
    tu_pb_free(&graph);
    m = tu_open(path);
    nnav_op_use u;
    nnav_op_resolve(m, 0, &u);
    assert_int_equal(u.status, NNAV_OPS_FOUND);
    assert_true(u.past_table);
    assert_int_equal(u.opset, 99);
    assert_int_equal(u.s->since, nnav_op_lookup("ai.onnx", S("Relu"), 1000)->since);
    nnav_model_close(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_sorted),
        cmocka_unit_test(test_versions),
        cmocka_unit_test(test_defaults_and_names),
        cmocka_unit_test(test_resolve),
        cmocka_unit_test(test_body_and_past_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
