/* test_opset_rules.c - the per-format operator table (src/typed/opset_rules.h)
 * on real files: the ONNX sample gets the ONNX table and the TensorFlow
 * GraphDef and SavedModel samples the TensorFlow one (chosen from the
 * model's public format); each table names its own constant, identity and
 * no-op ops on the samples' nodes; ops with bodies and cost classes are
 * told apart per format (MatMul is a TensorFlow MatMul in one, an ONNX one
 * in the other); an ONNX op counts only in the default domain ("" or
 * "ai.onnx"), shown on a model built here byte by byte. */
#include "testutil.h"

#include "opset_rules.h"

static nnav_span S(const char *s)
{
    return (nnav_span){(const uint8_t *)s, strlen(s)};
}

static void test_onnx_sample(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tu_sample("control_flow.onnx"));
    const nnav_opset_rules *R = nnav_opset_rules_of(m);
    assert_ptr_equal(R, &nnav_rules_onnx);
    assert_true(R->is_op(m, tu_node(m, 0, "const_scale"), R->constant_op));
    assert_false(R->is_op(m, tu_node(m, 0, "loop"), R->constant_op));
    /* "AddLeakyRelu" of domain local.fn is no ONNX op, even by its name */
    assert_false(R->is_op(m, tu_node(m, 0, "call_addleaky"), "AddLeakyRelu"));
    assert_int_equal(R->body_kind(nnav_node_get(m, tu_node(m, 0, "loop"))->op), NNAV_BODY_LOOP);
    assert_int_equal(R->body_kind(nnav_node_get(m, tu_node(m, 0, "scan"))->op), NNAV_BODY_SCAN);
    assert_int_equal(R->body_kind(S("If")), NNAV_BODY_IF);
    assert_int_equal(R->body_kind(S("SequenceMap")), NNAV_BODY_EACH);
    assert_int_equal(R->body_kind(S("StatelessWhile")), NNAV_BODY_OTHER);
    assert_null(R->rule); /* the engine's ONNX rules by op type */
    assert_null(R->noop_op);
    assert_int_equal(R->control_mark, 0);
    assert_int_equal(R->cost_class(S("MatMul")), COST_MATMUL);
    assert_int_equal(R->cost_class(S("Conv2D")), COST_ELEM);
    assert_int_equal(R->cost_class(S("Reshape")), COST_NONE);
    nnav_model_close(m);
}

static void check_tf(nnav_model *m)
{
    const nnav_opset_rules *R = nnav_opset_rules_of(m);
    assert_ptr_equal(R, &nnav_rules_tf);
    assert_non_null(R->rule);
    assert_string_equal(R->constant_op, "Const");
    assert_int_equal(R->control_mark, '^');
    assert_true(R->const_as_initializer);
    assert_int_equal(R->body_kind(S("StatelessIf")), NNAV_BODY_IF);
    assert_int_equal(R->body_kind(S("While")), NNAV_BODY_EACH);
    assert_int_equal(R->body_kind(S("Loop")), NNAV_BODY_OTHER);
    assert_int_equal(R->body_kind(S("Scan")), NNAV_BODY_OTHER);
    assert_int_equal(R->cost_class(S("MatMul")), COST_TF_MATMUL);
    assert_int_equal(R->cost_class(S("Conv2D")), COST_TF_CONV);
    assert_int_equal(R->cost_class(S("Const")), COST_NONE);
    assert_int_equal(R->cost_class(S("Reshape")), COST_NONE); /* shared with ONNX */
}

static void test_tf_graphdef(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tu_sample("tf_graph.pb"));
    check_tf(m);
    const nnav_opset_rules *R = nnav_opset_rules_of(m);
    assert_true(R->is_op(m, tu_node(m, 0, "dense/kernel"), R->constant_op));
    assert_true(R->is_op(m, tu_node(m, 0, "pick"), R->identity_op));
    assert_true(R->is_op(m, tu_node(m, 0, "init"), R->noop_op));
    assert_false(R->is_op(m, tu_node(m, 0, "dense/MatMul"), R->constant_op));
    nnav_model_close(m);
}

static void test_tf_saved_model(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tu_sample("tf_saved_model"));
    check_tf(m);
    nnav_model_close(m);
}

/* Three Constants: no domain, "ai.onnx", "custom.ops". */
static void test_onnx_domain(void **state)
{
    (void)state;
    tu_pb graph = {0}, model = {0};
    const char *dom[3] = {NULL, "ai.onnx", "custom.ops"};
    const char *name[3] = {"c_none", "c_onnx", "c_custom"};
    const char *out[3] = {"a", "b", "c"};
    for (int i = 0; i < 3; i++) {
        tu_pb node = {0};
        tu_pb_node(&node, name[i], "Constant", NULL, out[i]);
        if (dom[i])
            tu_pb_str(&node, 7, dom[i]); /* NodeProto.domain */
        tu_pb_msg(&graph, 1, &node);
    }
    tu_pb_str(&graph, 2, "domains");
    tu_pb_model(&model, &graph);
    const char *path = tu_join(tu_tmpdir("opset_rules"), "domains.onnx");
    tu_write(path, model.p, model.n);
    tu_pb_free(&model);
    tu_pb_free(&graph);
    nnav_model *m = tu_open(path);
    const nnav_opset_rules *R = nnav_opset_rules_of(m);
    assert_ptr_equal(R, &nnav_rules_onnx);
    assert_true(R->is_op(m, tu_node(m, 0, "c_none"), "Constant"));
    assert_true(R->is_op(m, tu_node(m, 0, "c_onnx"), "Constant"));
    assert_false(R->is_op(m, tu_node(m, 0, "c_custom"), "Constant"));
    nnav_model_close(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_onnx_sample),
        cmocka_unit_test(test_tf_graphdef),
        cmocka_unit_test(test_tf_saved_model),
        cmocka_unit_test(test_onnx_domain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
