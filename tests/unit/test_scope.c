/* test_scope.c - the module hierarchy (scope.h) on models built here byte
 * by byte: PyTorch-style names ("/enc/layer_0/fc/MatMul"), TensorFlow-style
 * ("model/dense/MatMul"), the dynamo exporter's node metadata, a flat graph;
 * the merged-initializer rule (one initializer, an Identity per original
 * name, each name a parameter of the scope that uses it); and identical
 * sibling layers, with a near-identical one (one attribute differs) that
 * must stay apart.
 *
 * Expected counts are worked out from the models written here. */
#include "testutil.h"

#include "scope.h"
#include "shape.h"

enum { DT_FLOAT = 1 };

static void put_weight(tu_pb *graph, const char *name, int64_t d0, int64_t d1)
{
    tu_pb t = {0};
    int64_t n = d0 * (d1 ? d1 : 1);
    tu_pb_int(&t, 1, (uint64_t)d0);
    if (d1)
        tu_pb_int(&t, 1, (uint64_t)d1);
    tu_pb_int(&t, 2, DT_FLOAT);
    tu_pb_str(&t, 8, name);
    uint8_t *zeros = calloc((size_t)n, 4);
    assert_non_null(zeros);
    tu_pb_bytes(&t, 9, zeros, (size_t)n * 4);
    free(zeros);
    tu_pb_msg(graph, 5, &t);
}

/* A float input or output with a fixed [1,4] shape. */
static void put_io(tu_pb *graph, uint32_t field, const char *name)
{
    tu_pb vi = {0}, tp = {0}, tt = {0}, shape = {0};
    for (int i = 0; i < 2; i++) {
        tu_pb dim = {0};
        tu_pb_int(&dim, 1, i ? 4 : 1);
        tu_pb_msg(&shape, 1, &dim);
    }
    tu_pb_int(&tt, 1, DT_FLOAT);
    tu_pb_msg(&tt, 2, &shape);
    tu_pb_msg(&tp, 1, &tt);
    tu_pb_str(&vi, 1, name);
    tu_pb_msg(&vi, 2, &tp);
    tu_pb_msg(graph, field, &vi);
}

/* A node, with an INT attribute when iattr is set, and dynamo-style
 * metadata when scopes is set. */
static void put_node(tu_pb *graph, const char *name, const char *op, const char *ins,
                     const char *outs, const char *iattr, int64_t ival, const char *scopes,
                     const char *classes)
{
    tu_pb node = {0};
    tu_pb_node(&node, name, op, ins, outs);
    if (iattr) {
        tu_pb a = {0};
        tu_pb_str(&a, 1, iattr);
        tu_pb_int(&a, 3, (uint64_t)ival);
        tu_pb_int(&a, 20, 2); /* INT */
        tu_pb_msg(&node, 5, &a);
    }
    const char *kv[2][2] = {{"pkg.torch.onnx.name_scopes", scopes},
                            {"pkg.torch.onnx.class_hierarchy", classes}};
    for (int i = 0; i < 2 && scopes; i++) {
        tu_pb e = {0};
        tu_pb_str(&e, 1, kv[i][0]);
        tu_pb_str(&e, 2, kv[i][1]);
        tu_pb_msg(&node, 9, &e);
    }
    tu_pb_msg(graph, 1, &node);
}

typedef struct built {
    nnav_model *m;
    nnav_shapes *s;
    nnav_scopes *t;
} built;

static built build(const char *tag, tu_pb *graph)
{
    tu_pb model = {0};
    tu_pb_str(graph, 2, tag);
    tu_pb_model(&model, graph);
    const char *path = tu_join(tu_tmpdir(tag), "model.onnx");
    tu_write(path, model.p, model.n);
    tu_pb_free(&model);
    tu_pb_free(graph);
    built b;
    b.m = tu_open(path);
    b.s = nnav_shapes_infer(b.m, NULL);
    assert_non_null(b.s);
    b.t = nnav_scopes_build(b.m, 0, b.s);
    assert_non_null(b.t);
    return b;
}

static void done(built *b)
{
    nnav_scopes_free(b->t);
    nnav_shapes_free(b->s);
    nnav_model_close(b->m);
}

/* The scope of this path, or NNAV_NONE. */
static uint32_t by_path(const nnav_scopes *t, const char *path)
{
    for (uint32_t i = 0; i < nnav_scopes_count(t); i++) {
        uint8_t buf[512];
        size_t n = nnav_scope_path(t, i, buf, sizeof buf);
        if (n == strlen(path) && !memcmp(buf, path, n))
            return i;
    }
    return NNAV_NONE;
}

static const nnav_scope *sc_at(const nnav_scopes *t, const char *path)
{
    uint32_t id = by_path(t, path);
    if (id == NNAV_NONE)
        fail_msg("no scope %s", path);
    return nnav_scope_get(t, id);
}

/* Three PyTorch-style layers: each MatMul by its own [4,4] weight, Mul by a
 * LayerNorm-like [4] weight, then Softmax(axis). The three [4] weights were
 * merged into the first's initializer, layers 1 and 2 reading it through an
 * Identity named as the original parameter. Layer 2's Softmax axis is
 * `axis2`. */
static built three_layers(const char *tag, int64_t axis2)
{
    tu_pb g = {0};
    char nm[128], in[128], out[128], w[128], lw[128];
    put_io(&g, 11, "x");
    put_io(&g, 12, "y");
    put_weight(&g, "enc.layer_0.ln.weight", 4, 0);
    for (int i = 0; i < 3; i++) {
        snprintf(w, sizeof w, "enc.layer_%d.fc.weight", i);
        put_weight(&g, w, 4, 4);
    }
    for (int i = 1; i < 3; i++) {
        snprintf(nm, sizeof nm, "Identity_%d", i);
        snprintf(lw, sizeof lw, "enc.layer_%d.ln.weight", i);
        put_node(&g, nm, "Identity", "enc.layer_0.ln.weight", lw, NULL, 0, NULL, NULL);
    }
    for (int i = 0; i < 3; i++) {
        snprintf(in, sizeof in, i ? "/enc/layer_%d/act/Softmax_output_0" : "x", i - 1);
        snprintf(nm, sizeof nm, "/enc/layer_%d/fc/MatMul", i);
        snprintf(out, sizeof out, "/enc/layer_%d/fc/MatMul_output_0", i);
        snprintf(w, sizeof w, "%s,enc.layer_%d.fc.weight", in, i);
        put_node(&g, nm, "MatMul", w, out, NULL, 0, NULL, NULL);
        snprintf(nm, sizeof nm, "/enc/layer_%d/ln/Mul", i);
        snprintf(w, sizeof w, "%s,enc.layer_%d.ln.weight", out, i);
        snprintf(out, sizeof out, "/enc/layer_%d/ln/Mul_output_0", i);
        put_node(&g, nm, "Mul", w, out, NULL, 0, NULL, NULL);
        snprintf(nm, sizeof nm, "/enc/layer_%d/act/Softmax", i);
        snprintf(in, sizeof in, "%s", out);
        snprintf(out, sizeof out, i == 2 ? "y" : "/enc/layer_%d/act/Softmax_output_0", i);
        put_node(&g, nm, "Softmax", in, out, "axis", i == 2 ? axis2 : -1, NULL, NULL);
    }
    return build(tag, &g);
}

static void pytorch_names(void **state)
{
    (void)state;
    built b = three_layers("scope_pt", -1);
    const nnav_scopes *t = b.t;
    /* root, enc, 3 layers, 3 x (fc, ln, act) */
    assert_int_equal(nnav_scopes_count(t), 2 + 3 + 9);
    const nnav_scope *root = nnav_scope_get(t, 0), *enc = sc_at(t, "enc");
    assert_int_equal(root->nodes_total, 2 + 9);
    assert_int_equal(root->node_count, 2); /* the Identity nodes */
    assert_int_equal(enc->nodes_total, 9);
    const nnav_scope *l1 = sc_at(t, "enc/layer_1");
    assert_int_equal(l1->depth, 2);
    assert_int_equal(l1->nodes_total, 3);
    assert_int_equal(l1->child_count, 3);
    /* A layer's nodes are one range, in scope order. */
    const uint32_t *nodes = nnav_scope_nodes(t);
    const nnav_scope *fc1 = sc_at(t, "enc/layer_1/fc");
    assert_true(tu_span_is(nnav_node_get(b.m, nodes[fc1->node_first])->name,
                           "/enc/layer_1/fc/MatMul"));
    assert_int_equal(nnav_scope_of_node(t, tu_node(b.m, 0, "/enc/layer_1/fc/MatMul")),
                     by_path(t, "enc/layer_1/fc"));
    /* Boundary: layer 1 takes layer 0's output and gives its own. */
    assert_int_equal(l1->in_count, 1);
    assert_true(tu_span_is(nnav_value_get(b.m, nnav_scope_values(t)[l1->in_first])->name,
                           "/enc/layer_0/act/Softmax_output_0"));
    assert_int_equal(l1->out_count, 1);
    assert_true(tu_span_is(nnav_value_get(b.m, nnav_scope_values(t)[l1->out_first])->name,
                           "/enc/layer_1/act/Softmax_output_0"));
    /* The last layer's output is the graph's: it leaves every scope up to the root. */
    assert_int_equal(sc_at(t, "enc/layer_2")->out_count, 1);
    assert_int_equal(root->out_count, 1);
    assert_int_equal(root->in_count, 1); /* x; weights are parameters, not inputs */
    /* MACs: a [1,4]x[4,4] MatMul is 16 a layer. */
    assert_true(l1->macs == 16);
    assert_true(root->macs == 48);
    done(&b);
}

static void merged_identity_params(void **state)
{
    (void)state;
    built b = three_layers("scope_merge", -1);
    const nnav_scopes *t = b.t;
    /* Each layer: 16 (fc) + 4 (its own ln name), as PyTorch counts. */
    for (int i = 0; i < 3; i++) {
        char p[64];
        snprintf(p, sizeof p, "enc/layer_%d", i);
        assert_int_equal(sc_at(t, p)->params, 20);
        assert_int_equal(sc_at(t, p)->param_names, 2);
        snprintf(p, sizeof p, "enc/layer_%d/ln", i);
        assert_int_equal(sc_at(t, p)->params, 4);
    }
    assert_int_equal(nnav_scope_get(t, 0)->params, 60);
    assert_int_equal(nnav_scope_get(t, 0)->param_names, 6);
    assert_int_equal(sc_at(t, "enc")->params, 60);
    /* Two names share the merged tensor: 2 x 4 floats saved. */
    uint64_t names, bytes;
    nnav_scopes_merged(b.m, 0, &names, &bytes);
    assert_int_equal(names, 2);
    assert_int_equal(bytes, 32);
    done(&b);
}

static void identical_layers(void **state)
{
    (void)state;
    built b = three_layers("scope_same", -1);
    const nnav_scopes *t = b.t;
    uint32_t l0 = by_path(t, "enc/layer_0");
    assert_int_equal(nnav_scope_get(t, l0)->same_as, NNAV_NONE);
    assert_int_equal(nnav_scope_get(t, l0)->repeats, 3);
    assert_int_equal(sc_at(t, "enc/layer_1")->same_as, l0);
    assert_int_equal(sc_at(t, "enc/layer_2")->same_as, l0);
    /* Inside a layer, fc, ln and act differ from each other. */
    assert_int_equal(sc_at(t, "enc/layer_0/ln")->same_as, NNAV_NONE);
    assert_int_equal(sc_at(t, "enc/layer_0/act")->same_as, NNAV_NONE);
    done(&b);
}

static void near_identical_stays_apart(void **state)
{
    (void)state;
    built b = three_layers("scope_near", 0); /* layer 2: Softmax axis 0, not -1 */
    const nnav_scopes *t = b.t;
    uint32_t l0 = by_path(t, "enc/layer_0");
    assert_int_equal(sc_at(t, "enc/layer_1")->same_as, l0);
    assert_int_equal(sc_at(t, "enc/layer_2")->same_as, NNAV_NONE);
    assert_int_equal(nnav_scope_get(t, l0)->repeats, 2);
    assert_int_equal(sc_at(t, "enc/layer_2")->repeats, 1);
    done(&b);
}

static void tensorflow_names(void **state)
{
    (void)state;
    tu_pb g = {0};
    put_io(&g, 11, "x");
    put_io(&g, 12, "y");
    put_weight(&g, "model/dense/kernel", 4, 4);
    put_weight(&g, "model/dense/bias", 4, 0);
    put_node(&g, "model/dense/MatMul", "MatMul", "x,model/dense/kernel", "mm", NULL, 0, NULL, NULL);
    put_node(&g, "model/dense/BiasAdd", "Add", "mm,model/dense/bias", "ba", NULL, 0, NULL, NULL);
    put_node(&g, "model/out", "Relu", "ba", "y", NULL, 0, NULL, NULL);
    built b = build("scope_tf", &g);
    const nnav_scopes *t = b.t;
    assert_int_equal(nnav_scopes_count(t), 3);
    const nnav_scope *model = sc_at(t, "model"), *dense = sc_at(t, "model/dense");
    assert_int_equal(model->node_count, 1); /* model/out */
    assert_int_equal(dense->node_count, 2);
    assert_int_equal(dense->params, 20);
    assert_int_equal(model->params, 20);
    assert_int_equal(dense->out_count, 1);
    done(&b);
}

static void metadata_scopes(void **state)
{
    (void)state;
    tu_pb g = {0};
    put_io(&g, 11, "x");
    put_io(&g, 12, "y");
    put_weight(&g, "p_network_0_weight", 4, 4);
    /* Names say nothing; the metadata says network.0 (a Linear) inside network. */
    put_node(&g, "linear", "MatMul", "x,p_network_0_weight", "h", NULL, 0,
             "['', 'network', 'network.0', 'linear']",
             "['__main__.Net', 'torch.nn.modules.container.Sequential', "
             "'torch.nn.modules.linear.Linear', 'aten.linear.default']");
    put_node(&g, "relu", "Relu", "h", "y", NULL, 0, "['', 'network', 'network.1', 'relu']",
             "['__main__.Net', 'torch.nn.modules.container.Sequential', "
             "'torch.nn.modules.activation.ReLU', 'aten.relu.default']");
    built b = build("scope_meta", &g);
    const nnav_scopes *t = b.t;
    assert_int_equal(nnav_scopes_count(t), 4);
    const nnav_scope *lin = sc_at(t, "network/0");
    assert_true(tu_span_is(lin->name, "0"));
    assert_true(tu_span_is(lin->cls, "torch.nn.modules.linear.Linear"));
    assert_true(tu_span_is(sc_at(t, "network")->cls, "torch.nn.modules.container.Sequential"));
    assert_true(tu_span_is(nnav_scope_get(t, 0)->cls, "__main__.Net"));
    assert_int_equal(lin->params, 16);
    assert_int_equal(sc_at(t, "network/1")->params, 0);
    assert_int_equal(sc_at(t, "network/1")->in_count, 1);
    done(&b);
}

static void flat_graph(void **state)
{
    (void)state;
    tu_pb g = {0};
    put_io(&g, 11, "x");
    put_io(&g, 12, "y");
    put_node(&g, "n0", "Relu", "x", "a", NULL, 0, NULL, NULL);
    put_node(&g, "", "Relu", "a", "b", NULL, 0, NULL, NULL);
    put_node(&g, "n2", "Relu", "b", "y", NULL, 0, NULL, NULL);
    built b = build("scope_flat", &g);
    assert_int_equal(nnav_scopes_count(b.t), 1);
    const nnav_scope *root = nnav_scope_get(b.t, 0);
    assert_int_equal(root->node_count, 3);
    assert_int_equal(root->nodes_total, 3);
    assert_int_equal(root->in_count, 1);
    assert_int_equal(root->out_count, 1);
    assert_int_equal(root->params, 0);
    done(&b);
}

/* More scopes than the lookup table's first size, with names shared across
 * parents ("x" under each of 50 scopes, at the root, and "s0" under "x"): a
 * scope is its parent and its name, and ids stay in preorder with siblings
 * in the order their first node appears. */
static void many_scopes_by_parent_and_name(void **state)
{
    (void)state;
    tu_pb g = {0};
    char nm[64], in[32], out[32];
    put_io(&g, 11, "v0");
    put_io(&g, 12, "v201");
    for (int i = 0; i <= 200; i++) {
        if (i < 200)
            snprintf(nm, sizeof nm, "/s%d/x/Relu_%d", i % 50, i);
        else
            snprintf(nm, sizeof nm, "/x/s0/Relu");
        snprintf(in, sizeof in, "v%d", i);
        snprintf(out, sizeof out, "v%d", i + 1);
        put_node(&g, nm, "Relu", in, out, NULL, 0, NULL, NULL);
    }
    built b = build("scope_many", &g);
    const nnav_scopes *t = b.t;
    assert_int_equal(nnav_scopes_count(t), 1 + 50 + 50 + 1 + 1);
    assert_int_equal(nnav_scope_get(t, 0)->child_count, 51);
    for (uint32_t k = 0; k < 50; k++) {
        char path[32];
        snprintf(path, sizeof path, "s%u", k);
        assert_int_equal(by_path(t, path), 1 + 2 * k);
        snprintf(path, sizeof path, "s%u/x", k);
        assert_int_equal(by_path(t, path), 2 + 2 * k);
        const nnav_scope *x = nnav_scope_get(t, 2 + 2 * k);
        assert_int_equal(x->parent, 1 + 2 * k);
        assert_int_equal(x->node_count, 4);
        assert_int_equal(nnav_scope_get(t, 1 + 2 * k)->nodes_total, 4);
    }
    assert_int_equal(by_path(t, "x"), 101);
    assert_int_equal(by_path(t, "x/s0"), 102);
    assert_int_equal(sc_at(t, "x")->nodes_total, 1);
    assert_int_equal(sc_at(t, "x/s0")->node_count, 1);
    done(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pytorch_names),
        cmocka_unit_test(merged_identity_params),
        cmocka_unit_test(identical_layers),
        cmocka_unit_test(near_identical_stays_apart),
        cmocka_unit_test(tensorflow_names),
        cmocka_unit_test(metadata_scopes),
        cmocka_unit_test(flat_graph),
        cmocka_unit_test(many_scopes_by_parent_and_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
