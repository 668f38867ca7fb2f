/* test_index.c - opening models and the index the core builds from them.
 *
 * Expected facts come from samples/gen_samples.c (the sample models are
 * its output) and from the corpus README, never from the code under test:
 * weights are recomputed with the generator's LCG, half floats are decoded
 * here from their bits. Broken models are written by hand (testutil.h's
 * protobuf writer, so every offset is known) or with protobuf-c. */
#define _GNU_SOURCE /* memmem */
#include "testutil.h"

#include <dirent.h>
#include <signal.h>
#include <sys/wait.h>
#include <math.h>

#include "onnx.pb-c.h"
#include "typeproto.h"

/* ---- helpers ---- */

static const char *tmpfile_in(const char *sub, const char *name)
{
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s", tu_join(tu_tmpdir(sub), name));
    return buf;
}

/* Write a hand-built model and return its path (in NNAV_TMP/index_<tag>). */
static const char *write_model(const char *tag, const tu_pb *model)
{
    char sub[128];
    snprintf(sub, sizeof sub, "index_%s", tag);
    const char *path = tmpfile_in(sub, "model.onnx");
    tu_write(path, model->p, model->n);
    return path;
}

/* Offset of a unique byte pattern in a buffer (the test's own bytes). */
static uint64_t offset_of(const tu_pb *b, const void *pat, size_t n)
{
    const uint8_t *hit = memmem(b->p, b->n, pat, n);
    if (!hit)
        fail_msg("pattern not found in the built model");
    assert_null(memmem(hit + 1, b->n - (size_t)(hit + 1 - b->p), pat, n));
    return (uint64_t)(hit - b->p);
}

static uint32_t value_named(const nnav_model *m, uint32_t graph, const char *name)
{
    for (uint32_t v = 0; v < nnav_value_count(m); v++) {
        const nnav_value *val = nnav_value_get(m, v);
        if (val->graph == graph && nnav_span_eqs(val->name, name))
            return v;
    }
    fail_msg("no value %s in graph %u", name, graph);
    return NNAV_NONE;
}

/* The value a node's i-th input resolved to. */
static uint32_t input_value(const nnav_model *m, uint32_t node, uint32_t i)
{
    const nnav_node *nd = nnav_node_get(m, node);
    assert_true(i < nd->in_count);
    return nnav_ref_get(m, nd->in_first + i).value;
}

static int has_consumer(const nnav_model *m, uint32_t v, uint32_t node)
{
    uint32_t n;
    const uint32_t *c = nnav_value_consumers(m, v, &n);
    for (uint32_t i = 0; i < n; i++)
        if (c[i] == node)
            return 1;
    return 0;
}

static int no_control_bytes(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return 0;
    return 1;
}

/* Touch everything a viewer would show: paths, types, attributes, values.
 * Used on every model that opens, broken ones included. */
static void exercise_(const nnav_model *m, int strict)
{
    char buf[2048];
    nnav_error err;
    uint32_t ng = nnav_graph_count(m);
    for (uint32_t g = 0; g < ng; g++) {
        nnav_graph_path(m, g, buf, sizeof buf);
        assert_true(no_control_bytes(buf));
        if (ng < 200) {
            /* A damaged file may give two graphs one path; the path must
             * still lead to a graph that has it. */
            uint32_t back = nnav_graph_by_path(m, buf);
            if (strict)
                assert_int_equal(back, g);
            char again[2048];
            assert_int_not_equal(back, NNAV_NONE);
            nnav_graph_path(m, back, again, sizeof again);
            assert_string_equal(again, buf);
        }
        const nnav_graph *gr = nnav_graph_get(m, g);
        assert_true(gr->parent == NNAV_NONE || gr->parent < ng);
        assert_true(nnav_graph_total_nodes(m, g) >= gr->node_count);
    }
    for (uint32_t v = 0; v < nnav_value_count(m); v++) {
        nnav_value_type_format(m, v, buf, sizeof buf);
        assert_true(no_control_bytes(buf));
        uint32_t n;
        const uint32_t *c = nnav_value_consumers(m, v, &n);
        for (uint32_t i = 0; i < n; i++)
            assert_true(c[i] < nnav_node_count(m));
    }
    for (uint32_t a = 0; a < nnav_attr_count(m); a++) {
        nnav_attr_format(m, a, 8, buf, sizeof buf);
        assert_true(no_control_bytes(buf));
    }
    for (uint32_t vi = 0; vi < nnav_vinfo_count(m); vi++) {
        nnav_type_format(m, nnav_vinfo_get(m, vi)->type, buf, sizeof buf);
        assert_true(no_control_bytes(buf));
    }
    for (uint32_t t = 0; t < nnav_tensor_count(m); t++) {
        double v[4];
        nnav_span s[4];
        nnav_values vals = {.v = v, .s = s};
        if (nnav_tensor_values(m, t, 4, 1, &vals, &err) == 0)
            assert_true(vals.count <= 4);
        nnav_tensor_shape_format(m, t, buf, sizeof buf);
        nnav_tensor_storage_format(m, t, buf, sizeof buf);
        assert_true(no_control_bytes(buf));
    }
}

#define exercise(m) exercise_((m), 1)
#define exercise_damaged(m) exercise_((m), 0)

/* First values and min/max/mean of a float tensor against the generator's
 * LCG draws (values exact: float -> double is exact). */
static void check_lcg(const nnav_model *m, const char *name, uint64_t n, float lo, float hi)
{
    uint32_t t = tu_tensor(m, name);
    double v[8];
    nnav_values vals = {.v = v};
    nnav_error err;
    if (nnav_tensor_values(m, t, 8, 1, &vals, &err) != 0)
        fail_msg("values of %s: %s", name, err.msg);
    assert_int_equal(vals.total, n);
    assert_int_equal(vals.count, n < 8 ? n : 8);
    tu_lcg g = tu_lcg_for(name);
    double mn = INFINITY, mx = -INFINITY, sum = 0;
    for (uint64_t i = 0; i < n; i++) {
        double f = tu_lcg_next(&g, lo, hi);
        if (i < 8 && v[i] != f)
            fail_msg("%s[%llu] = %.9g, want %.9g", name, (unsigned long long)i, v[i], f);
        mn = f < mn ? f : mn;
        mx = f > mx ? f : mx;
        sum += f;
    }
    assert_true(vals.has_stats);
    assert_true(vals.min == mn);
    assert_true(vals.max == mx);
    assert_true(fabs(vals.mean - sum / (double)n) <= 1e-12);
    assert_int_equal(vals.nan_count, 0);
}

/* ---- the samples ---- */

static void test_cnn_counts(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tu_sample("cnn.onnx"));
    const nnav_model_facts *fa = nnav_model_facts_get(m);
    assert_int_equal(fa->ir_version, 8);
    assert_int_equal(fa->model_version, 1);
    tu_assert_span(fa->producer_name, "nnav-samples");
    tu_assert_span(fa->domain, "org.nnav.samples");
    tu_assert_span(fa->graph_name, "cnn");
    assert_int_equal(nnav_opset_count(m), 1);
    assert_int_equal(nnav_opset_get(m, 0)->version, 17);
    assert_int_equal(nnav_metadata_count(m), 1);
    tu_assert_span(nnav_metadata_get(m, 0)->key, "author");

    assert_int_equal(nnav_graph_count(m), 1);
    assert_int_equal(nnav_node_count(m), 11);
    assert_int_equal(nnav_function_count(m), 0);
    assert_int_equal(nnav_sparse_count(m), 0);
    assert_int_equal(nnav_unknown_count(m), 0);
    const nnav_graph *g = nnav_graph_get(m, 0);
    assert_int_equal(g->kind, NNAV_GRAPH_MAIN);
    assert_int_equal(g->parent, NNAV_NONE);
    assert_int_equal(g->node_count, 11);
    assert_int_equal(g->init_count, 9);
    assert_int_equal(g->input_count, 1);
    assert_int_equal(g->output_count, 1);
    assert_int_equal(g->vi_count, 4);
    assert_int_equal(nnav_tensor_count(m), 9);
    tu_assert_span(nnav_vinfo_get(m, g->input_first)->name, "input");
    tu_assert_span(nnav_vinfo_get(m, g->output_first)->name, "output");

    /* Nodes in file order, with their ops. */
    static const char *names[] = {"conv1", "relu1", "pool1", "conv2", "cast_var", "bn2",
                                  "relu2", "gap", "flatten", "fc", "softmax"};
    static const char *ops[] = {"Conv", "Relu", "MaxPool", "Conv", "Cast", "BatchNormalization",
                                "Relu", "GlobalAveragePool", "Flatten", "Gemm", "Softmax"};
    for (uint32_t i = 0; i < 11; i++) {
        const nnav_node *nd = nnav_node_get(m, g->node_first + i);
        tu_assert_span(nd->name, names[i]);
        tu_assert_span(nd->op, ops[i]);
        assert_int_equal(nnav_node_index(m, g->node_first + i), i);
        assert_int_equal(tu_node(m, 0, names[i]), g->node_first + i);
    }
    /* bn2 reads five values: one node output, four initializers... */
    uint32_t bn2 = tu_node(m, 0, "bn2");
    assert_int_equal(nnav_node_get(m, bn2)->in_count, 5);
    const nnav_value *v = nnav_value_get(m, input_value(m, bn2, 0));
    assert_int_equal(v->kind, NNAV_VAL_NODE);
    assert_int_equal(v->producer, tu_node(m, 0, "conv2"));
    v = nnav_value_get(m, input_value(m, bn2, 1));
    assert_int_equal(v->kind, NNAV_VAL_INITIALIZER);
    assert_int_equal(v->producer, tu_tensor(m, "bn2.scale"));
    /* ...and the fifth is the Cast's output, typed by its value_info. */
    uint32_t var = input_value(m, bn2, 4);
    v = nnav_value_get(m, var);
    tu_assert_span(v->name, "bn2.var");
    assert_int_equal(v->producer, tu_node(m, 0, "cast_var"));
    char type[64];
    nnav_value_type_format(m, var, type, sizeof type);
    assert_string_equal(type, "float32[32]");
    /* The model input has one consumer, the output none and is flagged. */
    uint32_t in = nnav_value_lookup(m, 0, "input", 5);
    assert_int_not_equal(in, NNAV_NONE);
    assert_int_equal(nnav_value_get(m, in)->kind, NNAV_VAL_INPUT);
    assert_int_equal(nnav_value_get(m, in)->cons_count, 1);
    assert_true(has_consumer(m, in, tu_node(m, 0, "conv1")));
    nnav_value_type_format(m, in, type, sizeof type);
    assert_string_equal(type, "float32[1,3,32,32]");
    uint32_t out = nnav_value_lookup(m, 0, "output", 6);
    assert_true(nnav_value_get(m, out)->is_output);
    assert_int_equal(nnav_value_get(m, out)->cons_count, 0);
    /* Attributes. */
    const nnav_node *conv1 = nnav_node_get(m, tu_node(m, 0, "conv1"));
    assert_int_equal(conv1->attr_count, 3);
    const nnav_attr *ks = nnav_attr_get(m, conv1->attr_first);
    tu_assert_span(ks->name, "kernel_shape");
    assert_int_equal(ks->type, NNAV_ATTR_INTS);
    int64_t iv[4];
    size_t total;
    nnav_error err;
    assert_int_equal(nnav_attr_ints(m, conv1->attr_first + 1, iv, 4, &total, &err), 0);
    assert_int_equal(total, 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(iv[i], 1);
    const nnav_node *bn = nnav_node_get(m, bn2);
    double eps;
    assert_int_equal(nnav_attr_float(m, bn->attr_first, &eps, &err), 0);
    assert_true(eps == (double)1e-5f);
    nnav_model_close(m);
}

static void test_cnn_values(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tu_sample("cnn.onnx"));
    /* raw_data */
    uint32_t t = tu_tensor(m, "conv1.weight");
    const nnav_tensor *tt = nnav_tensor_get(m, t);
    assert_int_equal(tt->storage, NNAV_STORE_RAW);
    assert_int_equal(tt->dtype, 1);
    assert_int_equal(tt->ndims, 4);
    const int64_t *d = nnav_dims(m, tt->dims_first);
    assert_int_equal(d[0], 16);
    assert_int_equal(d[1], 3);
    assert_int_equal(d[2], 3);
    assert_int_equal(d[3], 3);
    assert_int_equal(tt->nelems, 432);
    assert_int_equal(tt->nbytes, 432 * 4);
    assert_int_equal(tt->stored, 432 * 4);
    assert_int_equal(tt->warn, 0);
    char buf[64];
    nnav_tensor_shape_format(m, t, buf, sizeof buf);
    assert_string_equal(buf, "float32[16,3,3,3]");
    check_lcg(m, "conv1.weight", 432, -0.19f, 0.19f);
    check_lcg(m, "conv2.weight", 32 * 16 * 9, -0.083f, 0.083f);
    check_lcg(m, "bn2.scale", 32, 0.8f, 1.2f);
    check_lcg(m, "fc.weight", 320, -0.18f, 0.18f);
    /* The raw bytes are the file's bytes. */
    nnav_span bytes;
    void *cookie;
    nnav_error err;
    assert_int_equal(nnav_tensor_bytes(m, t, &bytes, &cookie, &err), 0);
    assert_ptr_equal(bytes.p, tt->data.p);
    assert_int_equal(bytes.n, 432 * 4);
    nnav_tensor_bytes_release(cookie);

    /* float_data */
    t = tu_tensor(m, "fc.bias");
    tt = nnav_tensor_get(m, t);
    assert_int_equal(tt->storage, NNAV_STORE_TYPED);
    assert_int_equal(tt->typed_field, 4);
    assert_int_equal(tt->warn, 0);
    check_lcg(m, "fc.bias", 10, -0.05f, 0.05f);
    /* Typed storage has no raw bytes to export. */
    memset(&err, 0, sizeof err);
    assert_int_equal(nnav_tensor_bytes(m, t, &bytes, &cookie, &err), -1);
    assert_true(err.msg[0] != 0);

    /* FLOAT16: decoded here from the stored bits, and near the LCG draw. */
    t = tu_tensor(m, "bn2.var_fp16");
    tt = nnav_tensor_get(m, t);
    assert_int_equal(tt->dtype, 10);
    assert_int_equal(tt->storage, NNAV_STORE_RAW);
    assert_int_equal(tt->stored, 64);
    double v[32];
    nnav_values vals = {.v = v};
    assert_int_equal(nnav_tensor_values(m, t, 32, 1, &vals, &err), 0);
    assert_int_equal(vals.count, 32);
    tu_lcg g = tu_lcg_for("bn2.var_fp16");
    double mn = INFINITY, mx = -INFINITY, sum = 0;
    for (int i = 0; i < 32; i++) {
        uint16_t h = (uint16_t)(tt->data.p[2 * i] | tt->data.p[2 * i + 1] << 8);
        double want = tu_half(h);
        if (v[i] != want)
            fail_msg("bn2.var_fp16[%d] = %.9g, want %.9g (bits %04x)", i, v[i], want, h);
        float drawn = tu_lcg_next(&g, 0.5f, 1.5f);
        assert_true(fabs(want - drawn) <= 1.0 / 2048); /* half has 11 bits */
        mn = want < mn ? want : mn;
        mx = want > mx ? want : mx;
        sum += want;
    }
    assert_true(vals.min == mn && vals.max == mx);
    assert_true(fabs(vals.mean - sum / 32) < 1e-12);
    /* Asking for fewer values than there are. */
    vals.v = v;
    assert_int_equal(nnav_tensor_values(m, t, 3, 0, &vals, &err), 0);
    assert_int_equal(vals.count, 3);
    assert_int_equal(vals.total, 32);
    assert_false(vals.has_stats);
    nnav_model_close(m);
}

static void test_control_flow_graphs(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tu_sample("control_flow.onnx"));
    assert_int_equal(nnav_graph_count(m), 6);
    assert_int_equal(nnav_node_count(m), 24);
    assert_int_equal(nnav_function_count(m), 1);
    assert_int_equal(nnav_sparse_count(m), 1);
    assert_int_equal(nnav_opset_count(m), 2);

    uint32_t main_g = tu_graph(m, "/");
    uint32_t loop = tu_graph(m, "/loop/body");
    uint32_t scan = tu_graph(m, "/scan/body");
    uint32_t then_g = tu_graph(m, "/loop/body/body_if/then_branch");
    uint32_t else_g = tu_graph(m, "/loop/body/body_if/else_branch");
    uint32_t fn = tu_graph(m, "@AddLeakyRelu");
    assert_int_equal(main_g, 0);
    /* Also by domain, and with a trailing slash as users type it. */
    assert_int_equal(nnav_graph_by_path(m, "@local.fn:AddLeakyRelu"), fn);
    assert_int_equal(nnav_graph_by_path(m, "/loop/body/"), loop);
    assert_int_equal(nnav_graph_by_path(m, "/loop"), NNAV_NONE);
    assert_int_equal(nnav_graph_by_path(m, "/loop/body/body_if"), NNAV_NONE);
    assert_int_equal(nnav_graph_by_path(m, "@NoSuchFunction"), NNAV_NONE);
    assert_int_equal(nnav_graph_by_path(m, ""), NNAV_NONE);

    /* Every graph's path leads back to it. */
    for (uint32_t g = 0; g < nnav_graph_count(m); g++) {
        char p[512];
        size_t n = nnav_graph_path(m, g, p, sizeof p);
        assert_int_equal(n, strlen(p));
        assert_int_equal(nnav_graph_by_path(m, p), g);
    }
    char p[8];
    nnav_graph_path(m, then_g, p, sizeof p); /* cut, still terminated */
    assert_string_equal(p, "/loop/b");

    /* Node counts per graph, from the generator. */
    assert_int_equal(nnav_graph_get(m, main_g)->node_count, 11);
    assert_int_equal(nnav_graph_get(m, loop)->node_count, 5);
    assert_int_equal(nnav_graph_get(m, scan)->node_count, 2);
    assert_int_equal(nnav_graph_get(m, then_g)->node_count, 2);
    assert_int_equal(nnav_graph_get(m, else_g)->node_count, 2);
    assert_int_equal(nnav_graph_get(m, fn)->node_count, 2);
    assert_int_equal(nnav_graph_total_nodes(m, main_g), 22);
    assert_int_equal(nnav_graph_total_nodes(m, loop), 9);
    assert_int_equal(nnav_graph_get(m, main_g)->input_count, 4);
    assert_int_equal(nnav_graph_get(m, main_g)->output_count, 4);
    assert_int_equal(nnav_graph_get(m, main_g)->init_count, 0);
    assert_int_equal(nnav_graph_get(m, loop)->input_count, 3);
    assert_int_equal(nnav_graph_get(m, loop)->output_count, 2);

    /* Parents, owners, kinds, depth. */
    const nnav_graph *lg = nnav_graph_get(m, loop);
    assert_int_equal(lg->kind, NNAV_GRAPH_BODY);
    assert_int_equal(lg->parent, main_g);
    assert_int_equal(lg->depth, 1);
    assert_int_equal(lg->owner_node, tu_node(m, main_g, "loop"));
    tu_assert_span(nnav_attr_get(m, lg->owner_attr)->name, "body");
    assert_int_equal(lg->list_index, NNAV_NONE);
    tu_assert_span(lg->name, "loop_body");
    const nnav_graph *tg = nnav_graph_get(m, then_g);
    assert_int_equal(tg->parent, loop);
    assert_int_equal(tg->depth, 2);
    assert_int_equal(tg->owner_node, tu_node(m, loop, "body_if"));
    assert_int_equal(nnav_graph_get(m, else_g)->parent, loop);
    assert_int_equal(nnav_graph_get(m, scan)->parent, main_g);
    const nnav_graph *fg = nnav_graph_get(m, fn);
    assert_int_equal(fg->kind, NNAV_GRAPH_FUNCTION);
    assert_int_equal(fg->parent, NNAV_NONE);
    assert_int_equal(fg->function, 0);
    /* Children in node order. */
    uint32_t nc;
    const uint32_t *ch = nnav_graph_children(m, main_g, &nc);
    assert_int_equal(nc, 2);
    assert_int_equal(ch[0], loop);
    assert_int_equal(ch[1], scan);
    ch = nnav_graph_children(m, loop, &nc);
    assert_int_equal(nc, 2);
    assert_int_equal(ch[0], then_g);
    assert_int_equal(ch[1], else_g);
    nnav_graph_children(m, then_g, &nc);
    assert_int_equal(nc, 0);
    /* The If's two GRAPH attributes point at the two bodies. */
    const nnav_node *bif = nnav_node_get(m, tu_node(m, loop, "body_if"));
    assert_int_equal(bif->attr_count, 2);
    const nnav_attr *a0 = nnav_attr_get(m, bif->attr_first);
    assert_int_equal(a0->type, NNAV_ATTR_GRAPH);
    assert_int_equal(a0->graph_count, 1);
    assert_int_equal(a0->graph_first, then_g);
    nnav_model_close(m);
}

static void test_control_flow_scoping(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tu_sample("control_flow.onnx"));
    uint32_t loop = tu_graph(m, "/loop/body");
    uint32_t then_g = tu_graph(m, "/loop/body/body_if/then_branch");
    uint32_t else_g = tu_graph(m, "/loop/body/body_if/else_branch");
    uint32_t scan = tu_graph(m, "/scan/body");
    uint32_t const_scale = tu_node(m, 0, "const_scale");

    /* then_mul(x_in, scale): x_in is the Loop body's input (one scope out),
     * scale the Constant's output in the main graph (two scopes out). */
    uint32_t then_mul = tu_node(m, then_g, "then_mul");
    const nnav_node *nd = nnav_node_get(m, then_mul);
    tu_assert_span(nnav_ref_get(m, nd->in_first).name, "x_in");
    tu_assert_span(nnav_ref_get(m, nd->in_first + 1).name, "scale");
    uint32_t scale = input_value(m, then_mul, 1);
    const nnav_value *sv = nnav_value_get(m, scale);
    assert_int_equal(sv->graph, 0);
    assert_int_equal(sv->kind, NNAV_VAL_NODE);
    assert_int_equal(sv->producer, const_scale);
    assert_int_equal(nnav_ref_get(m, nnav_node_get(m, const_scale)->out_first).value, scale);
    uint32_t x_in = input_value(m, then_mul, 0);
    const nnav_value *xv = nnav_value_get(m, x_in);
    assert_int_equal(xv->graph, loop);
    assert_int_equal(xv->kind, NNAV_VAL_INPUT);
    tu_assert_span(xv->name, "x_in");
    /* Lookups see the same, and do not see inward. */
    assert_int_equal(nnav_value_lookup(m, then_g, "scale", 5), scale);
    assert_int_equal(nnav_value_lookup(m, then_g, "x_in", 4), x_in);
    assert_int_equal(nnav_value_lookup(m, scan, "scale", 5), scale);
    assert_int_equal(nnav_value_lookup(m, 0, "x_in", 4), NNAV_NONE);
    assert_int_equal(nnav_value_lookup(m, 0, "then_tmp", 8), NNAV_NONE);
    assert_int_equal(nnav_value_lookup(m, else_g, "then_tmp", 8), NNAV_NONE);
    assert_int_equal(nnav_value_lookup(m, 0, "scal", 4), NNAV_NONE);

    /* Consumers across scopes: scale is read by then_mul, else_sub and scan_mul. */
    assert_int_equal(sv->cons_count, 3);
    assert_true(has_consumer(m, scale, then_mul));
    assert_true(has_consumer(m, scale, tu_node(m, else_g, "else_sub")));
    assert_true(has_consumer(m, scale, tu_node(m, scan, "scan_mul")));
    /* x_in: body_sum, then_mul, then_add, else_neg. */
    assert_int_equal(xv->cons_count, 4);
    assert_true(has_consumer(m, x_in, tu_node(m, loop, "body_sum")));
    assert_true(has_consumer(m, x_in, then_mul));
    assert_true(has_consumer(m, x_in, tu_node(m, then_g, "then_add")));
    assert_true(has_consumer(m, x_in, tu_node(m, else_g, "else_neg")));
    /* loop_x: scan and the function call. */
    uint32_t loop_x = nnav_value_lookup(m, 0, "loop_x", 6);
    assert_int_equal(nnav_value_get(m, loop_x)->cons_count, 2);
    assert_true(has_consumer(m, loop_x, tu_node(m, 0, "scan")));
    assert_true(has_consumer(m, loop_x, tu_node(m, 0, "call_addleaky")));
    /* Nothing in the sample is undefined. */
    for (uint32_t v = 0; v < nnav_value_count(m); v++)
        assert_int_not_equal(nnav_value_get(m, v)->kind, NNAV_VAL_UNDEFINED);
    /* Optional outputs and the If output in the body. */
    uint32_t x_out = nnav_value_lookup(m, loop, "x_out", 5);
    assert_int_equal(nnav_value_get(m, x_out)->producer, tu_node(m, loop, "body_if"));
    assert_true(nnav_value_get(m, x_out)->is_output);
    nnav_model_close(m);
}

static void test_control_flow_function_and_sparse(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tu_sample("control_flow.onnx"));
    nnav_error err;
    /* The call links to the model-local function; other nodes do not. */
    const nnav_node *call = nnav_node_get(m, tu_node(m, 0, "call_addleaky"));
    tu_assert_span(nnav_node_domain(m, tu_node(m, 0, "call_addleaky")), "local.fn");
    assert_int_equal(call->function, 0);
    assert_int_equal(nnav_node_get(m, tu_node(m, 0, "add_bias"))->function, NNAV_NONE);
    /* A node that names no domain reads as the default one. */
    assert_int_equal(nnav_node_domain(m, tu_node(m, 0, "add_bias")).n, 0);
    const nnav_function *f = nnav_function_get(m, 0);
    tu_assert_span(f->name, "AddLeakyRelu");
    tu_assert_span(f->domain, "local.fn");
    assert_int_equal(f->graph, tu_graph(m, "@AddLeakyRelu"));
    assert_int_equal(f->attr_count, 1);
    tu_assert_span(nnav_attr_get(m, f->attr_first)->name, "alpha");
    double alpha;
    assert_int_equal(nnav_attr_float(m, f->attr_first, &alpha, &err), 0);
    assert_true(alpha == (double)0.2f);
    const nnav_graph *fg = nnav_graph_get(m, f->graph);
    assert_int_equal(fg->input_count, 2);
    assert_int_equal(fg->output_count, 1);
    tu_assert_span(nnav_vinfo_get(m, fg->input_first)->name, "A");
    tu_assert_span(nnav_vinfo_get(m, fg->input_first + 1)->name, "B");
    /* Inside, A resolves to the function's input; fn_leaky's alpha refers to
     * the caller's attribute. */
    uint32_t fn_add = tu_node(m, f->graph, "fn_add");
    assert_int_equal(nnav_value_get(m, input_value(m, fn_add, 0))->kind, NNAV_VAL_INPUT);
    assert_int_equal(nnav_value_get(m, input_value(m, fn_add, 0))->graph, f->graph);
    const nnav_node *leaky = nnav_node_get(m, tu_node(m, f->graph, "fn_leaky"));
    tu_assert_span(nnav_attr_get(m, leaky->attr_first)->ref_attr_name, "alpha");

    /* The sparse initializer: 3x4 dense, three values at 1, 6, 10. */
    const nnav_sparse *sp = nnav_sparse_get(m, 0);
    assert_int_equal(sp->graph, 0);
    assert_int_equal(sp->ndims, 2);
    assert_int_equal(nnav_dims(m, sp->dims_first)[0], 3);
    assert_int_equal(nnav_dims(m, sp->dims_first)[1], 4);
    assert_int_equal(sp->nbytes_dense, 48);
    const nnav_tensor *vt = nnav_tensor_get(m, sp->values);
    tu_assert_span(vt->name, "sparse_w");
    assert_int_equal(vt->owner, NNAV_TOWN_SPARSE_VALUES);
    assert_int_equal(vt->dtype, 1);
    double v[4];
    nnav_values vals = {.v = v};
    assert_int_equal(nnav_tensor_values(m, sp->values, 4, 1, &vals, &err), 0);
    assert_int_equal(vals.count, 3);
    assert_true(v[0] == 1.5 && v[1] == -2.0 && v[2] == 0.25);
    assert_true(vals.min == -2.0 && vals.max == 1.5);
    assert_true(fabs(vals.mean - (-0.25 / 3)) < 1e-15);
    const nnav_tensor *it = nnav_tensor_get(m, sp->indices);
    assert_int_equal(it->dtype, 7);
    assert_int_equal(it->storage, NNAV_STORE_TYPED);
    assert_int_equal(it->owner, NNAV_TOWN_SPARSE_INDICES);
    assert_int_equal(nnav_tensor_values(m, sp->indices, 4, 0, &vals, &err), 0);
    assert_int_equal(vals.count, 3);
    assert_true(v[0] == 1 && v[1] == 6 && v[2] == 10);
    /* As a value: kind SPARSE, read by add_sparse. */
    uint32_t sw = nnav_value_lookup(m, 0, "sparse_w", 8);
    assert_int_not_equal(sw, NNAV_NONE);
    assert_int_equal(nnav_value_get(m, sw)->kind, NNAV_VAL_SPARSE);
    assert_int_equal(nnav_value_get(m, sw)->producer, 0);
    assert_true(has_consumer(m, sw, tu_node(m, 0, "add_sparse")));
    char type[64];
    nnav_value_type_format(m, sw, type, sizeof type);
    assert_string_equal(type, "sparse float32[3,4]");

    /* The Constant's TENSOR attribute, typed float_data. */
    const nnav_node *cs = nnav_node_get(m, tu_node(m, 0, "const_scale"));
    const nnav_attr *a = nnav_attr_get(m, cs->attr_first);
    assert_int_equal(a->type, NNAV_ATTR_TENSOR);
    assert_int_equal(a->tensor_count, 1);
    assert_int_equal(nnav_tensor_values(m, a->tensor_first, 4, 0, &vals, &err), 0);
    assert_int_equal(vals.count, 4);
    assert_true(v[0] == 0.5 && v[1] == 1.5 && v[2] == -1.0 && v[3] == 2.0);
    /* STRINGS and STRING attributes. */
    const nnav_node *lab = nnav_node_get(m, tu_node(m, 0, "const_labels"));
    nnav_span s[4];
    size_t total;
    assert_int_equal(nnav_attr_strings(m, lab->attr_first, s, 4, &total, &err), 0);
    assert_int_equal(total, 4);
    tu_assert_span(s[1], "Quick");
    const nnav_node *pad = nnav_node_get(m, tu_node(m, 0, "pad"));
    assert_int_equal(nnav_attr_string(m, pad->attr_first, &s[0], &err), 0);
    tu_assert_span(s[0], "reflect");
    nnav_model_close(m);
}

static void test_external_sample(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tu_sample("external.onnx"));
    assert_int_equal(nnav_node_count(m), 5);
    assert_int_equal(nnav_graph_get(m, 0)->init_count, 4);
    static const struct {
        const char *name;
        uint64_t n, off;
        float bound;
    } ext[] = {{"fc1.weight", 64 * 128, 0, 0.125f},
               {"fc1.bias", 128, 32768, 0.05f},
               {"fc2.weight", 1280, 36864, 0.088f}};
    for (int i = 0; i < 3; i++) {
        const nnav_tensor *t = nnav_tensor_get(m, tu_tensor(m, ext[i].name));
        assert_int_equal(t->storage, NNAV_STORE_EXTERNAL);
        tu_assert_span(t->ext_location, "external.onnx.data");
        assert_int_equal(t->ext_offset, ext[i].off);
        assert_int_equal(t->ext_length, ext[i].n * 4);
        assert_int_equal(t->warn, 0);
        check_lcg(m, ext[i].name, ext[i].n, -ext[i].bound, ext[i].bound);
    }
    check_lcg(m, "fc2.bias", 10, -0.05f, 0.05f);
    char buf[128];
    nnav_tensor_storage_format(m, tu_tensor(m, "fc1.bias"), buf, sizeof buf);
    assert_string_equal(buf, "external external.onnx.data @32768 +512");
    nnav_model_close(m);
}

/* ---- search ---- */

typedef struct hits {
    size_t n, by_kind[4];
} hits;

static hits search_all(const nnav_model *m, const char *pat)
{
    nnav_search *s = nnav_search_new(m, pat);
    assert_non_null(s);
    assert_int_equal(nnav_search_step(s, 1000000), 1);
    size_t n;
    const nnav_hit *h = nnav_search_hits(s, &n);
    hits r = {n, {0}};
    for (size_t i = 0; i < n; i++) {
        assert_true(h[i].kind <= NNAV_HIT_INITIALIZER);
        r.by_kind[h[i].kind]++;
    }
    nnav_search_free(s);
    return r;
}

static void test_search(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tu_sample("cnn.onnx"));
    hits h = search_all(m, "op:Conv");
    assert_int_equal(h.n, 2);
    assert_int_equal(h.by_kind[NNAV_HIT_OP], 2);
    assert_int_equal(search_all(m, "op:conv").n, 2);
    assert_int_equal(search_all(m, "op:CONV").n, 2);
    assert_int_equal(search_all(m, "op:Con").n, 0); /* op: is exact */
    assert_int_equal(search_all(m, "op:BatchNormalization").n, 1);
    /* Substrings, any case: relu1, relu2 by name; relu1_out, relu2_out as values. */
    h = search_all(m, "RELU");
    assert_int_equal(h.n, 4);
    assert_int_equal(h.by_kind[NNAV_HIT_NODE_NAME], 2);
    assert_int_equal(h.by_kind[NNAV_HIT_VALUE], 2);
    /* Initializers are reported once, as initializers: bn2.scale/bias/mean/var_fp16,
     * and the Cast's output bn2.var as a value. */
    h = search_all(m, "bN2.");
    assert_int_equal(h.by_kind[NNAV_HIT_INITIALIZER], 4);
    assert_int_equal(h.by_kind[NNAV_HIT_VALUE], 1);
    assert_int_equal(h.n, 5);
    /* An op matched when the name is not: GlobalAveragePool's node is "gap". */
    h = search_all(m, "averagepool");
    assert_int_equal(h.n, 1);
    assert_int_equal(h.by_kind[NNAV_HIT_OP], 1);
    assert_int_equal(search_all(m, "no such thing").n, 0);

    /* Stepping one item at a time ends with the same hits, after exactly
     * `total` items, progress counting up by one. */
    nnav_search *s = nnav_search_new(m, "conv");
    uint64_t total;
    assert_int_equal(nnav_search_progress(s, &total), 0);
    assert_int_equal(total, (uint64_t)nnav_node_count(m) + nnav_value_count(m) +
                                nnav_tensor_count(m));
    uint64_t steps = 0;
    int done;
    while ((done = nnav_search_step(s, 1)) == 0) {
        steps++;
        assert_int_equal(nnav_search_progress(s, NULL), steps);
        assert_true(steps < total);
    }
    assert_int_equal(done, 1);
    assert_int_equal(steps + 1, total);
    size_t n;
    const nnav_hit *hv = nnav_search_hits(s, &n);
    assert_int_equal(n, search_all(m, "conv").n);
    assert_int_equal(n, 7); /* conv1, conv2; conv1_out, conv2_out; 3 initializers */
    assert_int_equal(hv[0].kind, NNAV_HIT_NODE_NAME);
    tu_assert_span(nnav_node_get(m, hv[0].id)->name, "conv1");
    /* Finished is finished. */
    assert_int_equal(nnav_search_step(s, 5), 1);
    nnav_search_free(s);
    nnav_model_close(m);
}

/* "Finish the rest" with the largest budget after a partial step. */
static void test_search_huge_budget(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tu_sample("cnn.onnx"));
    nnav_search *s = nnav_search_new(m, "conv");
    int first = nnav_search_step(s, 3);
    int rest = nnav_search_step(s, UINT64_MAX);
    uint64_t pos = nnav_search_progress(s, NULL);
    size_t n;
    nnav_search_hits(s, &n);
    nnav_search_free(s);
    nnav_model_close(m);
    assert_int_equal(first, 0);
    if (rest != 1)
        fail_msg("step(UINT64_MAX) after step(3) returned %d at position %llu, not finished",
                 rest, (unsigned long long)pos);
    assert_int_equal(n, 7);
}

static void test_search_control_flow(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tu_sample("control_flow.onnx"));
    /* Add nodes live in the main graph (2), then branch, scan body, function. */
    nnav_search *s = nnav_search_new(m, "op:add");
    assert_int_equal(nnav_search_step(s, 1000), 1);
    size_t n;
    const nnav_hit *h = nnav_search_hits(s, &n);
    assert_int_equal(n, 5);
    int graphs_seen[6] = {0};
    for (size_t i = 0; i < n; i++) {
        tu_assert_span(nnav_node_get(m, h[i].id)->op, "Add");
        assert_int_equal(h[i].graph, nnav_node_get(m, h[i].id)->graph);
        graphs_seen[h[i].graph]++;
    }
    assert_int_equal(graphs_seen[0], 2);
    assert_int_equal(graphs_seen[tu_graph(m, "/loop/body/body_if/then_branch")], 1);
    assert_int_equal(graphs_seen[tu_graph(m, "/scan/body")], 1);
    assert_int_equal(graphs_seen[tu_graph(m, "@AddLeakyRelu")], 1);
    nnav_search_free(s);
    nnav_model_close(m);
}

/* ---- broken files ---- */

static void test_not_models(void **state)
{
    (void)state;
    nnav_error err;
    const char *dir = tu_tmpdir("index_notmodels");
    const char *p = tu_join(dir, "empty.onnx");
    tu_write(p, "", 0);
    tu_open_fails(p, NULL, &err);
    tu_assert_contains(err.msg, "empty");

    p = tu_join(dir, "page.onnx");
    static const char html[] = "<!DOCTYPE html>\n<html><body>404 Not Found</body></html>\n";
    tu_write(p, html, sizeof html - 1);
    tu_open_fails(p, NULL, &err);
    tu_assert_contains(err.msg, "HTML");
    p = tu_join(dir, "page2.onnx");
    static const char html2[] = "\r\n  <HTML><head><title>x</title></head></HTML>";
    tu_write(p, html2, sizeof html2 - 1);
    tu_open_fails(p, NULL, &err);
    tu_assert_contains(err.msg, "HTML");

    p = tu_join(dir, "lfs.onnx");
    static const char lfs[] = "version https://git-lfs.github.com/spec/v1\n"
                              "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
                              "size 12345\n";
    tu_write(p, lfs, sizeof lfs - 1);
    tu_open_fails(p, NULL, &err);
    tu_assert_contains(err.msg, "git-LFS");

    tu_open_fails(tu_join(dir, "missing.onnx"), NULL, &err);
    tu_assert_contains(err.msg, "cannot open");
    /* A folder is not a model either. */
    tu_open_fails(dir, NULL, &err);
}

/* Cut a sample at every length: each cut opens or fails with status 2 and an
 * offset inside the cut file; none crashes. */
static void cut_everywhere(const char *sample, const char *sub)
{
    size_t n;
    uint8_t *bytes = tu_read(tu_sample(sample), &n);
    const char *path = tmpfile_in(sub, "cut.onnx");
    tu_write(path, bytes, n);
    int opened = 0, failed = 0;
    for (size_t cut = n; cut-- > 0;) {
        if (truncate(path, (off_t)cut) != 0)
            fail_msg("truncate: %s", strerror(errno));
        nnav_model *m = NULL;
        nnav_error err;
        if (nnav_model_open(path, NULL, &m, &err) == 0) {
            opened++;
            assert_true(nnav_model_facts_get(m)->file_size == cut);
            if (cut % 97 == 0)
                exercise_damaged(m);
            nnav_model_close(m);
        } else {
            failed++;
            assert_null(m);
            if (err.kind != NNAV_ERR_INPUT || !err.msg[0])
                fail_msg("cut at %zu: kind %d, \"%s\"", cut, err.kind, err.msg);
            if (cut > 0) {
                if (!err.has_offset || err.offset > cut)
                    fail_msg("cut at %zu: \"%s\" has offset %llu (has_offset %d)", cut, err.msg,
                             (unsigned long long)err.offset, err.has_offset);
            }
        }
    }
    /* Cuts at top-level field boundaries open; the rest do not. */
    assert_true(opened > 0 && failed > 0);
    free(bytes);
}

static void test_truncated_cnn(void **state)
{
    (void)state;
    cut_everywhere("cnn.onnx", "index_cut_cnn");
}

static void test_truncated_control_flow(void **state)
{
    (void)state;
    cut_everywhere("control_flow.onnx", "index_cut_cf");
}

/* Damage single bytes of control_flow.onnx: whatever opens must be safe to
 * look at in full. */
static void test_mutated_control_flow(void **state)
{
    (void)state;
    size_t n;
    uint8_t *orig = tu_read(tu_sample("control_flow.onnx"), &n);
    uint8_t *b = malloc(n);
    assert_non_null(b);
    const char *path = tmpfile_in("index_mutate", "m.onnx");
    static const uint8_t repl[] = {0x00, 0xff, 0x80, 0x7f, 0x0f};
    int opened = 0;
    for (size_t i = 0; i < n; i++) {
        for (size_t r = 0; r < sizeof repl; r++) {
            if (orig[i] == repl[r])
                continue;
            memcpy(b, orig, n);
            b[i] = repl[r];
            tu_write(path, b, n);
            nnav_model *m = NULL;
            nnav_error err;
            if (nnav_model_open(path, NULL, &m, &err) == 0) {
                opened++;
                exercise_damaged(m);
                nnav_model_close(m);
            } else {
                if (err.kind != NNAV_ERR_INPUT || !err.msg[0])
                    fail_msg("byte %zu -> 0x%02x: kind %d \"%s\"", i, repl[r], err.kind,
                             err.msg);
            }
        }
    }
    assert_true(opened > 0);
    free(b);
    free(orig);
}

/* model{graph{node{input x, output y, op Relu, attribute{name alpha, BAD}}}} */
static void attr_model(tu_pb *model, const void *bad, size_t badn)
{
    tu_pb attr = {0}, node = {0}, graph = {0};
    tu_pb_str(&attr, 1, "alpha");
    tu_pb_raw(&attr, bad, badn);
    tu_pb_node(&node, "act", "LeakyRelu", "x", "y");
    tu_pb_msg(&node, 5, &attr);
    tu_pb_msg(&graph, 1, &node);
    tu_pb_model(model, &graph);
}

static void test_attr_wrong_wire_type(void **state)
{
    (void)state;
    nnav_error err;
    /* f (field 2, FLOAT) sent as a VARINT: tag 0x10. */
    tu_pb model = {0};
    attr_model(&model, "\x10\x05", 2);
    uint64_t off = offset_of(&model, "alpha\x10\x05", 7) + 5;
    tu_open_fails(write_model("attr_wt", &model), NULL, &err);
    assert_int_equal(err.has_offset, 1);
    assert_int_equal(err.offset, off);
    assert_string_equal(err.path, "graph.node[0].attribute[0].f");
    tu_assert_contains(err.msg, "wire type");
    tu_pb_free(&model);

    /* i (field 3, INT) sent as I32: tag 0x1d. */
    attr_model(&model, "\x1d\x01\x02\x03\x04", 5);
    off = offset_of(&model, "alpha\x1d", 6) + 5;
    tu_open_fails(write_model("attr_wt2", &model), NULL, &err);
    assert_int_equal(err.offset, off);
    assert_string_equal(err.path, "graph.node[0].attribute[0].i");
    tu_pb_free(&model);

    /* A field inside the attribute whose length runs past the attribute
     * (though not past the file): s (field 4) claims 9 bytes, has 2. */
    tu_pb attr = {0}, node = {0}, graph = {0};
    tu_pb_str(&attr, 1, "mode");
    tu_pb_raw(&attr, "\x22\x09zz", 4);
    tu_pb_node(&node, "p", "Pad", "x", "y");
    tu_pb_msg(&node, 5, &attr);
    tu_pb_str(&node, 6, "a doc string after the attribute, long enough to hold 9 bytes");
    tu_pb_msg(&graph, 1, &node);
    tu_pb_model(&model, &graph);
    off = offset_of(&model, "mode\x22\x09", 6) + 5; /* the length byte */
    tu_open_fails(write_model("attr_len", &model), NULL, &err);
    assert_int_equal(err.offset, off);
    tu_assert_contains(err.path, "graph.node[0].attribute[0]");
    tu_assert_contains(err.msg, "runs past");
    tu_pb_free(&model);

    /* A node input that is a VARINT. */
    tu_pb_node(&node, "n", "Relu", NULL, "y");
    tu_pb_int(&node, 1, 7);
    tu_pb_msg(&graph, 1, &node);
    tu_pb_model(&model, &graph);
    tu_open_fails(write_model("input_wt", &model), NULL, &err);
    tu_assert_contains(err.path, "graph.node[0].input");
    tu_pb_free(&model);

    /* The second node of a body graph: the path names the nesting. */
    tu_pb body = {0}, ifn = {0}, g_attr = {0};
    tu_pb_node(&node, "ok", "Relu", "x", "y");
    tu_pb_msg(&body, 1, &node);
    tu_pb_node(&node, "bad", "Relu", "y", "z");
    tu_pb_str(&attr, 1, "alpha");
    tu_pb_raw(&attr, "\x10\x05", 2); /* f as VARINT */
    tu_pb_msg(&node, 5, &attr);
    tu_pb_msg(&body, 1, &node);
    tu_pb_str(&g_attr, 1, "then_branch");
    tu_pb_int(&g_attr, 20, 5);
    tu_pb_msg(&g_attr, 6, &body);
    tu_pb_node(&ifn, "cond_if", "If", "c", "z");
    tu_pb_msg(&ifn, 5, &g_attr);
    tu_pb_node(&node, "first", "Relu", "x", "c");
    tu_pb_msg(&graph, 1, &node);
    tu_pb_msg(&graph, 1, &ifn);
    tu_pb_model(&model, &graph);
    tu_open_fails(write_model("body_attr", &model), NULL, &err);
    assert_string_equal(err.path, "graph.node[1].attribute[0].g.node[1].attribute[0].f");
    assert_int_equal(err.offset, offset_of(&model, "alpha\x10\x05", 7) + 5);
    tu_pb_free(&model);
}

/* A chain of If bodies `levels` deep, written back to front so each level
 * costs O(1): graph{node{name n, op If, attribute{name g, type GRAPH, g{...}}}}.
 * gstart[k] gets the file offset of the depth-k GraphProto's payload. */
typedef struct rev {
    uint8_t *buf;
    size_t cap, pos;
} rev;

static void rev_raw(rev *r, const void *p, size_t n)
{
    assert_true(r->pos >= n);
    r->pos -= n;
    memcpy(r->buf + r->pos, p, n);
}

static void rev_varint(rev *r, uint64_t v)
{
    tu_pb t = {0};
    tu_pb_varint(&t, v);
    rev_raw(r, t.p, t.n);
    tu_pb_free(&t);
}

/* Wrap [pos, end) as field num. */
static void rev_wrap(rev *r, uint32_t num, size_t end)
{
    rev_varint(r, end - r->pos);
    rev_varint(r, (uint64_t)num << 3 | 2);
}

static uint8_t *deep_model(uint32_t levels, size_t *n, uint64_t *gstart)
{
    rev r = {NULL, (size_t)levels * 48 + 256, 0};
    r.buf = malloc(r.cap);
    assert_non_null(r.buf);
    r.pos = r.cap;
    size_t end = r.cap;
    /* The innermost graph: one Identity node. */
    rev_raw(&r, "\x22\x08Identity", 10);
    rev_raw(&r, "\x1a\x04leaf", 6);
    rev_wrap(&r, 1, end);
    size_t *starts = malloc(((size_t)levels + 1) * sizeof *starts);
    starts[levels] = r.pos;
    for (uint32_t k = levels; k-- > 0;) {
        rev_wrap(&r, 6, end);             /* attribute.g */
        rev_raw(&r, "\xa0\x01\x05", 3);   /* attribute.type = GRAPH */
        rev_raw(&r, "\x0a\x01g", 3);      /* attribute.name */
        rev_wrap(&r, 5, end);             /* node.attribute */
        rev_raw(&r, "\x22\x02If", 4);     /* node.op_type */
        rev_raw(&r, "\x1a\x01n", 3);      /* node.name */
        rev_wrap(&r, 1, end);             /* graph.node */
        starts[k] = r.pos;
    }
    rev_wrap(&r, 7, end);                          /* model.graph */
    rev_raw(&r, "\x42\x04\x0a\x00\x10\x11", 6);     /* opset_import {"" 17} */
    rev_raw(&r, "\x08\x08", 2);                     /* ir_version 8 */
    *n = end - r.pos;
    uint8_t *out = malloc(*n);
    memcpy(out, r.buf + r.pos, *n);
    if (gstart)
        for (uint32_t k = 0; k <= levels; k++)
            gstart[k] = starts[k] - r.pos;
    free(starts);
    free(r.buf);
    return out;
}

static void test_deep_nesting(void **state)
{
    (void)state;
    nnav_error err;
    const char *dir = tu_tmpdir("index_deep");
    /* 30000 levels against the default bound of 20000: refused, with the
     * offset of the first graph too deep, and no stack overflow. */
    size_t n;
    uint64_t *gstart = malloc(30001 * sizeof *gstart);
    uint8_t *b = deep_model(30000, &n, gstart);
    const char *p = tu_join(dir, "deep30000.onnx");
    tu_write(p, b, n);
    free(b);
    tu_open_fails(p, NULL, &err);
    tu_assert_contains(err.msg, "nested deeper");
    assert_int_equal(err.has_offset, 1);
    assert_int_equal(err.offset, gstart[NNAV_MAX_DEPTH + 1]);
    tu_assert_contains(err.path, "graph.node[0].attribute[0].g.node[0].attribute[0].g");
    char line[1200];
    nnav_error_format(&err, p, line, sizeof line);
    tu_assert_contains(line, "nested deeper");

    /* A caller's bound: exactly max_depth levels open, one more does not. */
    b = deep_model(100, &n, gstart);
    p = tu_join(dir, "deep100.onnx");
    tu_write(p, b, n);
    free(b);
    nnav_open_opts o = {.max_depth = 99};
    tu_open_fails(p, &o, &err);
    tu_assert_contains(err.msg, "nested deeper than 99");
    assert_int_equal(err.offset, gstart[100]);
    o.max_depth = 100;
    nnav_model *m = NULL;
    assert_int_equal(nnav_model_open(p, &o, &m, &err), 0);
    assert_int_equal(nnav_graph_count(m), 101);
    assert_int_equal(nnav_node_count(m), 101);
    assert_int_equal(nnav_graph_get(m, 100)->depth, 100);
    assert_int_equal(nnav_graph_get(m, 100)->parent, 99);
    assert_int_equal(nnav_graph_get(m, 100)->offset, gstart[100]);
    assert_int_equal(nnav_graph_total_nodes(m, 0), 101);
    char path[1024];
    nnav_graph_path(m, 100, path, sizeof path);
    assert_int_equal(strlen(path), 400); /* "/n/g" per level */
    assert_int_equal(nnav_graph_by_path(m, path), 100);
    nnav_model_close(m);
    free(gstart);
}

/* Paths stay exact however deep: each graph's path is its own. */
static void test_deep_paths(void **state)
{
    (void)state;
    const uint32_t levels = 1500;
    size_t n;
    uint8_t *b = deep_model(levels, &n, NULL);
    const char *p = tu_join(tu_tmpdir("index_deep_paths"), "deep.onnx");
    tu_write(p, b, n);
    free(b);
    nnav_model *m = tu_open(p);
    assert_int_equal(nnav_graph_count(m), levels + 1);
    uint32_t bad = 0;
    size_t bad_len = 0;
    for (uint32_t g = 1; g <= levels && !bad; g++) {
        size_t len = nnav_graph_path(m, g, NULL, 0);
        if (len != 4 * (size_t)g)
            bad = g, bad_len = len;
    }
    char *want = malloc(4 * (size_t)levels + 1);
    for (uint32_t k = 0; k < levels; k++)
        memcpy(want + 4 * k, "/n/g", 4);
    want[4 * levels] = 0;
    uint32_t deepest = nnav_graph_by_path(m, want);
    want[4 * (levels - 1)] = 0;
    uint32_t next = nnav_graph_by_path(m, want);
    free(want);
    nnav_model_close(m);
    if (bad)
        fail_msg("path of the graph at depth %u is %zu long, want %u", bad, bad_len, 4 * bad);
    assert_int_equal(deepest, levels);
    assert_int_equal(next, levels - 1);
}

static void test_undefined_names(void **state)
{
    (void)state;
    tu_pb model = {0}, graph = {0}, node = {0}, body = {0}, attr = {0};
    /* main: use_ghost(ghost) -> y; two(y, "") -> z; sq(y, y) -> q; If(y) with a then branch
     * reading "phantom"; outputs z and "nowhere", which nothing makes. */
    tu_pb_node(&node, "use_ghost", "Relu", "ghost", "y");
    tu_pb_msg(&graph, 1, &node);
    tu_pb_node(&node, "two", "Add", "y,", "z");
    tu_pb_msg(&graph, 1, &node);
    tu_pb_node(&node, "sq", "Mul", "y,y", "q");
    tu_pb_msg(&graph, 1, &node);
    tu_pb_node(&node, "inner", "Neg", "phantom", "w");
    tu_pb_msg(&body, 1, &node);
    tu_pb_vinfo(&body, 12, "w");
    tu_pb_str(&attr, 1, "then_branch");
    tu_pb_int(&attr, 20, 5);
    tu_pb_msg(&attr, 6, &body);
    tu_pb_node(&node, "branch", "If", "y", "w_out");
    tu_pb_msg(&node, 5, &attr);
    tu_pb_msg(&graph, 1, &node);
    tu_pb_vinfo(&graph, 12, "z");
    tu_pb_vinfo(&graph, 12, "nowhere");
    tu_pb_model(&model, &graph);
    nnav_model *m = tu_open(write_model("undef", &model));
    tu_pb_free(&model);

    uint32_t use = tu_node(m, 0, "use_ghost");
    uint32_t ghost = input_value(m, use, 0);
    assert_int_not_equal(ghost, NNAV_NONE);
    const nnav_value *gv = nnav_value_get(m, ghost);
    tu_assert_span(gv->name, "ghost");
    assert_int_equal(gv->kind, NNAV_VAL_UNDEFINED);
    assert_int_equal(gv->graph, 0);
    assert_int_equal(gv->cons_count, 1);
    assert_true(has_consumer(m, ghost, use));
    /* Lookups report only defined names. */
    assert_int_equal(nnav_value_lookup(m, 0, "ghost", 5), NNAV_NONE);
    /* The omitted optional input stays "none". */
    const nnav_node *two = nnav_node_get(m, tu_node(m, 0, "two"));
    assert_int_equal(two->in_count, 2);
    assert_int_equal(nnav_ref_get(m, two->in_first + 1).name.n, 0);
    assert_int_equal(nnav_ref_get(m, two->in_first + 1).value, NNAV_NONE);
    /* y is read by two, sq (twice: listed once) and the If. */
    uint32_t y = nnav_value_lookup(m, 0, "y", 1);
    uint32_t ny;
    const uint32_t *cy = nnav_value_consumers(m, y, &ny);
    assert_int_equal(ny, 3);
    assert_int_equal(cy[0], tu_node(m, 0, "two"));
    assert_int_equal(cy[1], tu_node(m, 0, "sq"));
    assert_int_equal(cy[2], tu_node(m, 0, "branch"));
    /* In the body: flagged in the body's scope. */
    uint32_t body_g = tu_graph(m, "/branch/then_branch");
    uint32_t ph = input_value(m, tu_node(m, body_g, "inner"), 0);
    assert_int_equal(nnav_value_get(m, ph)->kind, NNAV_VAL_UNDEFINED);
    assert_int_equal(nnav_value_get(m, ph)->graph, body_g);
    /* The output nothing produces is kept, flagged. */
    uint32_t nw = value_named(m, 0, "nowhere");
    assert_int_equal(nnav_value_get(m, nw)->kind, NNAV_VAL_UNDEFINED);
    /* ...and search still finds them. */
    assert_int_equal(search_all(m, "ghost").by_kind[NNAV_HIT_VALUE], 1);
    exercise(m);
    nnav_model_close(m);
}

static void test_unknown_fields(void **state)
{
    (void)state;
    tu_pb model = {0}, graph = {0}, node = {0};
    tu_pb_node(&node, "n0", "Relu", "x", "y");
    tu_pb_tag(&node, 50, 1); /* field 50, I64 */
    tu_pb_raw(&node, "UNKNOWN!", 8);
    tu_pb_msg(&graph, 1, &node);
    tu_pb_bytes(&graph, 77, "gg-payload", 10);
    tu_pb_vinfo(&graph, 11, "x");
    tu_pb_model(&model, &graph);
    uint64_t off99 = model.n;
    tu_pb_int(&model, 99, 300);
    uint64_t off100 = model.n;
    tu_pb_bytes(&model, 100, "zz", 2);
    uint64_t off101 = model.n;
    tu_pb_tag(&model, 101, 5);
    tu_pb_raw(&model, "\x01\x02\x03\x04", 4);
    uint64_t off_node = offset_of(&model, "\x91\x03UNKNOWN!", 10);
    uint64_t off_graph = offset_of(&model, "gg-payload", 10) - 3; /* ea 04 0a */
    nnav_model *m = tu_open(write_model("unknown", &model));
    tu_pb_free(&model);

    assert_int_equal(nnav_unknown_count(m), 5);
    int seen = 0;
    for (uint32_t i = 0; i < nnav_unknown_count(m); i++) {
        const nnav_unknown *u = nnav_unknown_get(m, i);
        if (u->number == 99) {
            assert_string_equal(u->where, "ModelProto");
            assert_int_equal(u->wire_type, 0);
            assert_int_equal(u->offset, off99);
            assert_int_equal(u->owner, NNAV_NONE);
            assert_int_equal(u->span.n, 2); /* 300 = ac 02 */
            assert_memory_equal(u->span.p, "\xac\x02", 2);
            seen |= 1;
        } else if (u->number == 100) {
            assert_string_equal(u->where, "ModelProto");
            assert_int_equal(u->wire_type, 2);
            assert_int_equal(u->offset, off100);
            tu_assert_span(u->span, "zz");
            seen |= 2;
        } else if (u->number == 101) {
            assert_int_equal(u->wire_type, 5);
            assert_int_equal(u->offset, off101);
            assert_int_equal(u->span.n, 4);
            assert_memory_equal(u->span.p, "\x01\x02\x03\x04", 4);
            seen |= 4;
        } else if (u->number == 50) {
            assert_string_equal(u->where, "NodeProto");
            assert_int_equal(u->wire_type, 1);
            assert_int_equal(u->offset, off_node);
            assert_int_equal(u->owner, tu_node(m, 0, "n0"));
            tu_assert_span(u->span, "UNKNOWN!");
            seen |= 8;
        } else if (u->number == 77) {
            assert_string_equal(u->where, "GraphProto");
            assert_int_equal(u->wire_type, 2);
            assert_int_equal(u->offset, off_graph);
            assert_int_equal(u->owner, 0);
            tu_assert_span(u->span, "gg-payload");
            seen |= 16;
        } else {
            fail_msg("unexpected unknown field %u", u->number);
        }
    }
    assert_int_equal(seen, 31); /* each once: five entries, five numbers */
    /* The model itself still reads. */
    assert_int_equal(nnav_node_count(m), 1);
    assert_int_equal(nnav_model_facts_get(m)->ir_version, 8);
    nnav_model_close(m);
}

/* Functions that share a name across domains, an overload, training graphs,
 * shadowing in a body and IR 3 initializers listed as inputs. */
static void fn_pb(tu_pb *model, const char *domain, const char *name, const char *overload,
                  const char *op)
{
    tu_pb fn = {0}, node = {0};
    tu_pb_str(&fn, 1, name);
    tu_pb_str(&fn, 4, "X");
    tu_pb_str(&fn, 5, "Y");
    tu_pb_node(&node, "inner", op, "X", "Y");
    tu_pb_msg(&fn, 7, &node);
    tu_pb_str(&fn, 10, domain);
    if (overload)
        tu_pb_str(&fn, 13, overload);
    tu_pb_msg(model, 25, &fn);
}

static void test_functions_training_scopes(void **state)
{
    (void)state;
    tu_pb model = {0}, graph = {0}, node = {0}, body = {0}, attr = {0}, ti = {0}, tg = {0};
    /* main: IR 3 style input "w" that is also an initializer; k = Const();
     * Loop whose body shadows k with its own input; a call to b:F. */
    tu_pb_vinfo(&graph, 11, "w");
    tu_pb t = {0};
    tu_pb_int(&t, 1, 2);   /* dims [2] */
    tu_pb_int(&t, 2, 1);   /* FLOAT */
    tu_pb_str(&t, 8, "w");
    tu_pb_bytes(&t, 9, "\0\0\x80\x3f\0\0\0\x40", 8);
    tu_pb_msg(&graph, 5, &t);
    tu_pb_node(&node, "mk", "Constant", NULL, "k");
    tu_pb_msg(&graph, 1, &node);
    tu_pb_vinfo(&body, 11, "i");
    tu_pb_vinfo(&body, 11, "cond");
    tu_pb_vinfo(&body, 11, "k");
    tu_pb_node(&node, "use_k", "Neg", "k", "nk");
    tu_pb_msg(&body, 1, &node);
    tu_pb_node(&node, "use_w", "Neg", "w", "nw");
    tu_pb_msg(&body, 1, &node);
    tu_pb_str(&attr, 1, "body");
    tu_pb_int(&attr, 20, 5);
    tu_pb_msg(&attr, 6, &body);
    tu_pb_node(&node, "lp", "Loop", ",,k", "out");
    tu_pb_msg(&node, 5, &attr);
    tu_pb_msg(&graph, 1, &node);
    tu_pb_node(&node, "call", "F", "w", "fy");
    tu_pb_str(&node, 7, "b");
    tu_pb_msg(&graph, 1, &node);
    tu_pb_model(&model, &graph);
    fn_pb(&model, "a", "F", NULL, "Relu");
    fn_pb(&model, "b", "F", NULL, "Neg");
    fn_pb(&model, "c", "G", "v2", "Abs");
    /* training_info { initialization{node}, algorithm{node} } */
    tu_pb_node(&node, "init_n", "Identity", "w", "w0");
    tu_pb_msg(&tg, 1, &node);
    tu_pb_msg(&ti, 1, &tg);
    tu_pb_node(&node, "algo_n", "Identity", "w", "w1");
    tu_pb_msg(&tg, 1, &node);
    tu_pb_msg(&ti, 2, &tg);
    tu_pb_msg(&model, 20, &ti);
    nnav_model *m = tu_open(write_model("fns", &model));
    tu_pb_free(&model);

    assert_int_equal(nnav_function_count(m), 3);
    assert_int_equal(nnav_training_count(m), 1);
    assert_int_equal(nnav_graph_count(m), 1 + 2 + 3 + 1);
    /* Same name in two domains: paths qualify it. */
    uint32_t fa = tu_graph(m, "@a:F"), fb = tu_graph(m, "@b:F");
    assert_int_not_equal(fa, fb);
    assert_int_equal(nnav_graph_get(m, fa)->kind, NNAV_GRAPH_FUNCTION);
    tu_assert_span(nnav_function_get(m, nnav_graph_get(m, fb)->function)->domain, "b");
    uint32_t fg = tu_graph(m, "@G:v2");
    tu_assert_span(nnav_function_get(m, nnav_graph_get(m, fg)->function)->overload, "v2");
    /* The call picks the function of its own domain. */
    const nnav_node *call = nnav_node_get(m, tu_node(m, 0, "call"));
    assert_int_equal(call->function, nnav_graph_get(m, fb)->function);
    /* Training graphs are roots. */
    uint32_t ginit = tu_graph(m, "~training[0]/initialization");
    uint32_t galgo = tu_graph(m, "~training[0]/algorithm");
    assert_int_equal(nnav_graph_get(m, ginit)->kind, NNAV_GRAPH_TRAINING_INIT);
    assert_int_equal(nnav_graph_get(m, galgo)->kind, NNAV_GRAPH_TRAINING_ALGO);
    assert_int_equal(nnav_graph_get(m, galgo)->parent, NNAV_NONE);
    tu_node(m, ginit, "init_n");
    /* IR 3: w is an input and an initializer; the initializer wins, the
     * input flag stays. */
    uint32_t w = nnav_value_lookup(m, 0, "w", 1);
    assert_int_equal(nnav_value_get(m, w)->kind, NNAV_VAL_INITIALIZER);
    assert_true(nnav_value_get(m, w)->is_input);
    double v[2];
    nnav_values vals = {.v = v};
    nnav_error err;
    assert_int_equal(nnav_tensor_values(m, nnav_value_get(m, w)->producer, 2, 0, &vals, &err),
                     0);
    assert_true(v[0] == 1.0 && v[1] == 2.0);
    /* The body's own k shadows the outer one; w is seen from outside. */
    uint32_t body_g = tu_graph(m, "/lp/body");
    uint32_t k_in = input_value(m, tu_node(m, body_g, "use_k"), 0);
    assert_int_equal(nnav_value_get(m, k_in)->graph, body_g);
    assert_int_equal(nnav_value_get(m, k_in)->kind, NNAV_VAL_INPUT);
    uint32_t k_out = nnav_value_lookup(m, 0, "k", 1);
    assert_int_not_equal(k_in, k_out);
    assert_true(has_consumer(m, k_out, tu_node(m, 0, "lp")));
    assert_false(has_consumer(m, k_out, tu_node(m, body_g, "use_k")));
    assert_int_equal(input_value(m, tu_node(m, body_g, "use_w"), 0), w);
    /* The Loop's two omitted inputs. */
    const nnav_node *lp = nnav_node_get(m, tu_node(m, 0, "lp"));
    assert_int_equal(lp->in_count, 3);
    assert_int_equal(nnav_ref_get(m, lp->in_first).value, NNAV_NONE);
    exercise(m);
    nnav_model_close(m);
}

/* ---- tensors with bad shapes, sizes and types (built with protobuf-c) ---- */

static Onnx__TensorProto *mk_tensor(const char *name, int32_t dtype, size_t nd, int64_t *dims)
{
    Onnx__TensorProto *t = calloc(1, sizeof *t);
    Onnx__TensorProto init = ONNX__TENSOR_PROTO__INIT;
    *t = init;
    t->name = (char *)name;
    t->has_data_type = 1;
    t->data_type = dtype;
    t->n_dims = nd;
    t->dims = dims;
    return t;
}

static void raw(Onnx__TensorProto *t, const void *p, size_t n)
{
    t->has_raw_data = 1;
    t->raw_data.data = (uint8_t *)p;
    t->raw_data.len = n;
}

static const char *pack_initializers(const char *tag, Onnx__TensorProto **ts, size_t n)
{
    Onnx__GraphProto g = ONNX__GRAPH_PROTO__INIT;
    Onnx__ModelProto mp = ONNX__MODEL_PROTO__INIT;
    g.name = "tensors";
    g.n_initializer = n;
    g.initializer = ts;
    mp.has_ir_version = 1;
    mp.ir_version = 8;
    mp.graph = &g;
    size_t len = onnx__model_proto__get_packed_size(&mp);
    tu_pb b = {0};
    b.p = malloc(len);
    b.n = b.cap = len;
    assert_int_equal(onnx__model_proto__pack(&mp, b.p), len);
    const char *p = write_model(tag, &b);
    tu_pb_free(&b);
    return p;
}

static void test_tensor_warnings(void **state)
{
    (void)state;
    static const float f12[3] = {1.0f, -2.0f, 3.5f};
    static float typed3[3] = {4.0f, 5.0f, 6.0f};
    int64_t d_neg[] = {2, -3};
    int64_t d_ovf[] = {INT64_C(1) << 32, INT64_C(1) << 32, 2};
    int64_t d4[] = {4}, d2[] = {2}, d3[] = {3}, d0[] = {0};
    Onnx__TensorProto *ts[] = {
        mk_tensor("neg", 1, 2, d_neg),      mk_tensor("ovf", 1, 3, d_ovf),
        mk_tensor("short", 1, 1, d4),       mk_tensor("long", 1, 1, d2),
        mk_tensor("exact", 1, 1, d3),       mk_tensor("bad_dtype", 99, 1, d3),
        mk_tensor("typed_short", 1, 1, d4), mk_tensor("many", 1, 1, d3),
        mk_tensor("nothing", 1, 1, d2),     mk_tensor("empty", 1, 1, d0),
        mk_tensor("no_dtype", 0, 1, d3),
    };
    enum { NT = sizeof ts / sizeof *ts };
    raw(ts[0], f12, 12);
    raw(ts[1], f12, 12);
    raw(ts[2], f12, 12);
    raw(ts[3], f12, 12);
    raw(ts[4], f12, 12);
    raw(ts[5], f12, 12);
    ts[6]->n_float_data = 3, ts[6]->float_data = typed3;
    raw(ts[7], f12, 12);
    ts[7]->n_float_data = 3, ts[7]->float_data = typed3;
    raw(ts[10], f12, 12);
    const char *path = pack_initializers("tensors", ts, NT);
    for (int i = 0; i < NT; i++)
        free(ts[i]);
    nnav_model *m = tu_open(path);
    assert_int_equal(nnav_tensor_count(m), NT);
    nnav_error err;
    double v[8];
    nnav_values vals = {.v = v};

    const nnav_tensor *t = nnav_tensor_get(m, tu_tensor(m, "neg"));
    assert_true(t->warn & NNAV_TW_BAD_DIMS);
    assert_int_equal(nnav_dims(m, t->dims_first)[1], -3);
    assert_true(t->nelems == UINT64_MAX);
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "neg"), 8, 1, &vals, &err), 0);
    assert_int_equal(vals.count, 0);
    assert_int_equal(vals.total, 0);

    t = nnav_tensor_get(m, tu_tensor(m, "ovf"));
    assert_true(t->warn & NNAV_TW_BAD_DIMS);
    assert_true(t->nelems == UINT64_MAX);
    assert_true(t->nbytes == UINT64_MAX);
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "ovf"), 8, 1, &vals, &err), 0);
    assert_int_equal(vals.count, 0);

    /* raw_data shorter than dims x dtype: flagged, and only what is there is read. */
    t = nnav_tensor_get(m, tu_tensor(m, "short"));
    assert_int_equal(t->warn, NNAV_TW_SIZE_MISMATCH);
    assert_int_equal(t->nbytes, 16);
    assert_int_equal(t->stored, 12);
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "short"), 8, 1, &vals, &err), 0);
    assert_int_equal(vals.count, 3);
    assert_true(v[0] == 1.0 && v[1] == -2.0 && v[2] == 3.5);
    /* Longer: flagged; only dims x dtype worth is read. */
    t = nnav_tensor_get(m, tu_tensor(m, "long"));
    assert_int_equal(t->warn, NNAV_TW_SIZE_MISMATCH);
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "long"), 8, 1, &vals, &err), 0);
    assert_int_equal(vals.count, 2);
    assert_true(vals.max == 1.0 && vals.min == -2.0);
    t = nnav_tensor_get(m, tu_tensor(m, "exact"));
    assert_int_equal(t->warn, 0);

    t = nnav_tensor_get(m, tu_tensor(m, "bad_dtype"));
    assert_true(t->warn & NNAV_TW_BAD_DTYPE);
    memset(&err, 0, sizeof err);
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "bad_dtype"), 8, 1, &vals, &err), -1);
    tu_assert_contains(err.msg, "99");
    char buf[64];
    nnav_tensor_shape_format(m, tu_tensor(m, "bad_dtype"), buf, sizeof buf);
    assert_true(no_control_bytes(buf));
    t = nnav_tensor_get(m, tu_tensor(m, "no_dtype"));
    assert_true(t->warn & NNAV_TW_BAD_DTYPE);

    t = nnav_tensor_get(m, tu_tensor(m, "typed_short"));
    assert_int_equal(t->storage, NNAV_STORE_TYPED);
    assert_true(t->warn & NNAV_TW_SIZE_MISMATCH);
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "typed_short"), 8, 0, &vals, &err), 0);
    assert_int_equal(vals.count, 3);
    assert_true(v[2] == 6.0);

    t = nnav_tensor_get(m, tu_tensor(m, "many"));
    assert_true(t->warn & NNAV_TW_MANY_FIELDS);
    assert_int_equal(t->storage, NNAV_STORE_RAW);

    t = nnav_tensor_get(m, tu_tensor(m, "nothing"));
    assert_int_equal(t->storage, NNAV_STORE_NONE);
    assert_true(t->warn & NNAV_TW_SIZE_MISMATCH);

    t = nnav_tensor_get(m, tu_tensor(m, "empty"));
    assert_int_equal(t->warn, 0);
    assert_int_equal(t->nelems, 0);
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "empty"), 8, 1, &vals, &err), 0);
    assert_int_equal(vals.count, 0);
    assert_false(vals.has_stats);
    exercise(m);
    nnav_model_close(m);
}

/* Values from every typed field, for the element types that use them. The
 * expected numbers are the ONNX definitions of those fields. */
static void test_typed_values(void **state)
{
    (void)state;
    int64_t d1[] = {1}, d2[] = {2}, d3[] = {3};
    static int32_t i32[] = {-5, 0, 2147483647};
    static int32_t i8[] = {-3, 127};
    static int32_t u8[] = {255, 0};
    static int32_t f16[] = {0x3c00, 0xc000, 0x7c00}; /* 1, -2, inf */
    static int32_t bf16[] = {0x3f80, 0xc0a0};      /* 1, -5 */
    static int32_t b[] = {1, 0};
    static int64_t i64[] = {-1, INT64_C(1) << 53};
    static uint64_t u64[] = {UINT64_MAX};
    static uint64_t u32[] = {4294967295u, 7};
    static double dd[] = {0.1, -1e300, 2.5};
    static int32_t i4[] = {0x8f, 0x07}; /* -1, -8, 7 (and a padding nibble) */
    static int32_t u4[] = {0x21, 0x03}; /* 1, 2, 3 */
    static float f3[] = {1.0f, 2.0f, 3.0f};
    static ProtobufCBinaryData strs[] = {{1, (uint8_t *)"a"}, {3, (uint8_t *)"\x1b[m"}};
    Onnx__TensorProto *ts[] = {
        mk_tensor("i32", 6, 1, d3),   mk_tensor("i8", 3, 1, d2),     mk_tensor("u8", 2, 1, d2),
        mk_tensor("f16", 10, 1, d3),  mk_tensor("bf16", 16, 1, d2),  mk_tensor("bool", 9, 1, d2),
        mk_tensor("i64", 7, 1, d2),   mk_tensor("u64", 13, 1, d1),   mk_tensor("u32", 12, 1, d2),
        mk_tensor("dbl", 11, 1, d3),  mk_tensor("i4", 22, 1, d3),    mk_tensor("u4", 21, 1, d3),
        mk_tensor("str", 8, 1, d2),   mk_tensor("extra", 1, 1, d2),
    };
    enum { NT = sizeof ts / sizeof *ts };
    ts[0]->n_int32_data = 3, ts[0]->int32_data = i32;
    ts[1]->n_int32_data = 2, ts[1]->int32_data = i8;
    ts[2]->n_int32_data = 2, ts[2]->int32_data = u8;
    ts[3]->n_int32_data = 3, ts[3]->int32_data = f16;
    ts[4]->n_int32_data = 2, ts[4]->int32_data = bf16;
    ts[5]->n_int32_data = 2, ts[5]->int32_data = b;
    ts[6]->n_int64_data = 2, ts[6]->int64_data = i64;
    ts[7]->n_uint64_data = 1, ts[7]->uint64_data = u64;
    ts[8]->n_uint64_data = 2, ts[8]->uint64_data = u32;
    ts[9]->n_double_data = 3, ts[9]->double_data = dd;
    ts[10]->n_int32_data = 2, ts[10]->int32_data = i4;
    ts[11]->n_int32_data = 2, ts[11]->int32_data = u4;
    ts[12]->n_string_data = 2, ts[12]->string_data = strs;
    ts[13]->n_float_data = 3, ts[13]->float_data = f3; /* dims [2], three stored */
    const char *path = pack_initializers("typed", ts, NT);
    for (int i = 0; i < NT; i++)
        free(ts[i]);
    nnav_model *m = tu_open(path);
    static const struct {
        const char *name;
        size_t n;
        double v[3];
    } want[] = {
        {"i32", 3, {-5, 0, 2147483647}},
        {"i8", 2, {-3, 127}},
        {"u8", 2, {255, 0}},
        {"f16", 3, {1, -2, INFINITY}},
        {"bf16", 2, {1, -5}},
        {"bool", 2, {1, 0}},
        {"i64", 2, {-1, 9007199254740992.0}},
        {"u64", 1, {18446744073709551615.0}},
        {"u32", 2, {4294967295.0, 7}},
        {"dbl", 3, {0.1, -1e300, 2.5}},
        {"u4", 3, {1, 2, 3}},
        {"i4", 3, {-1, -8, 7}},
        {"extra", 2, {1, 2}},
    };
    char bad[1024] = "";
    size_t o = 0;
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        uint32_t t = tu_tensor(m, want[i].name);
        assert_int_equal(nnav_tensor_get(m, t)->storage, NNAV_STORE_TYPED);
        double v[8];
        nnav_values vals = {.v = v};
        nnav_error err;
        if (nnav_tensor_values(m, t, 8, 1, &vals, &err) != 0) {
            o += (size_t)snprintf(bad + o, sizeof bad - o, "%s: %s; ", want[i].name, err.msg);
            continue;
        }
        int ok = vals.count == want[i].n && vals.total == want[i].n;
        for (size_t k = 0; ok && k < want[i].n; k++)
            ok = v[k] == want[i].v[k];
        /* Stats cover the tensor's elements, no more. */
        double mx = -INFINITY;
        for (size_t k = 0; k < want[i].n; k++)
            mx = want[i].v[k] > mx ? want[i].v[k] : mx;
        ok = ok && vals.max == mx;
        if (!ok && o < sizeof bad)
            o += (size_t)snprintf(bad + o, sizeof bad - o,
                                  "%s: count %zu of total %llu, first %g %g %g, max %g; ",
                                  want[i].name, vals.count, (unsigned long long)vals.total, v[0],
                                  vals.count > 1 ? v[1] : 0.0, vals.count > 2 ? v[2] : 0.0,
                                  vals.max);
    }
    /* Strings: spans, no stats. */
    uint32_t t = tu_tensor(m, "str");
    double v[4];
    nnav_span sp[4];
    nnav_values vals = {.v = v, .s = sp};
    nnav_error err;
    assert_int_equal(nnav_tensor_values(m, t, 4, 1, &vals, &err), 0);
    assert_int_equal(vals.count, 2);
    assert_false(vals.has_stats);
    tu_assert_span(sp[0], "a");
    tu_assert_span(sp[1], "\x1b[m");
    nnav_model_close(m);
    if (bad[0])
        fail_msg("%s", bad);
}

static int cancel_at_first(void *ctx, uint64_t done, uint64_t total)
{
    uint64_t *seen = ctx;
    assert_true(done <= total);
    assert_true(done >= seen[1]);
    seen[0]++;
    seen[1] = done;
    seen[2] = total;
    return seen[3] ? 1 : 0;
}

/* A long open reports progress and can be cancelled. */
static void test_progress_and_cancel(void **state)
{
    (void)state;
    tu_pb model = {0}, graph = {0}, node = {0};
    const uint32_t nn = 200000;
    char in[16], out[16];
    for (uint32_t i = 0; i < nn; i++) {
        snprintf(in, sizeof in, "v%u", i);
        snprintf(out, sizeof out, "v%u", i + 1);
        tu_pb_node(&node, NULL, "Relu", in, out);
        tu_pb_msg(&graph, 1, &node);
    }
    tu_pb_vinfo(&graph, 11, "v0");
    tu_pb_model(&model, &graph);
    const char *p = write_model("progress", &model);
    uint64_t size = model.n;
    tu_pb_free(&model);
    uint64_t seen[4] = {0, 0, 0, 0};
    nnav_open_opts o = {.progress = cancel_at_first, .ctx = seen};
    nnav_model *m = NULL;
    nnav_error err;
    assert_int_equal(nnav_model_open(p, &o, &m, &err), 0);
    assert_true(seen[0] >= 1);
    assert_int_equal(seen[2], size);
    assert_int_equal(nnav_node_count(m), nn);
    /* A chain: v1..v200000 each made by one node, read by the next. */
    uint32_t last = nnav_value_lookup(m, 0, "v200000", 7);
    assert_int_equal(nnav_value_get(m, last)->producer, nn - 1);
    nnav_model_close(m);
    memset(seen, 0, sizeof seen);
    seen[3] = 1;
    m = (nnav_model *)1;
    assert_int_equal(nnav_model_open(p, &o, &m, &err), -1);
    assert_null(m);
    assert_int_equal(seen[0], 1);
    tu_assert_contains(err.msg, "cancel");
}

/* The file shrinks while open: values from the lost part are an error,
 * not a crash (SIGBUS) and not silent zeros. */
static void test_file_shrinks(void **state)
{
    (void)state;
    size_t n;
    uint8_t *bytes = tu_read(tu_sample("cnn.onnx"), &n);
    const char *p = tmpfile_in("index_shrink", "cnn.onnx");
    tu_write(p, bytes, n);
    free(bytes);
    nnav_model *m = tu_open(p);
    uint32_t t = tu_tensor(m, "fc.weight"); /* stored near the end */
    assert_true(nnav_tensor_get(m, t)->data.p - nnav_tensor_get(m, tu_tensor(m, "conv1.weight"))->data.p > 8192);
    assert_int_equal(truncate(p, 64), 0);
    double v[4];
    nnav_values vals = {.v = v};
    nnav_error err;
    int r = nnav_tensor_values(m, t, 4, 1, &vals, &err);
    int trunc = nnav_model_truncated(m);
    nnav_model_close(m);
    assert_int_equal(r, -1);
    tu_assert_contains(err.msg, "shrank");
    assert_true(trunc);
}

/* Run fn in a child process so a crash is reported as this test's failure
 * instead of ending the whole program (ASan aborts on the first error). */
static int isolated_(int (*fn)(const char *), const char *arg, char *why, size_t n)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* cmocka's handlers would carry on with the next test in here. */
        static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
        for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
            signal(sigs[i], SIG_DFL);
        _exit(fn(arg));
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    if (WIFSIGNALED(st))
        return snprintf(why, n, "killed by signal %d", WTERMSIG(st)), -1;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return snprintf(why, n, "exit status %d", WEXITSTATUS(st)), -1;
    return 0;
}

/* Open, then name every graph and format every attribute. 0 when all is well. */
static int open_and_name_all(const char *path)
{
    nnav_model *m = NULL;
    nnav_error err;
    if (nnav_model_open(path, NULL, &m, &err) != 0)
        return 10;
    int rc = 0;
    for (uint32_t g = 0; g < nnav_graph_count(m) && !rc; g++) {
        char p[1024];
        if (nnav_graph_path(m, g, p, sizeof p) == 0 || nnav_graph_by_path(m, p) != g)
            rc = 11;
    }
    for (uint32_t a = 0; a < nnav_attr_count(m); a++) {
        char buf[512];
        nnav_attr_format(m, a, 4, buf, sizeof buf);
    }
    nnav_model_close(m);
    return rc;
}

/* Open must fail cleanly (status 2, a message), not crash. */
static int open_fails_cleanly(const char *path)
{
    nnav_model *m = NULL;
    nnav_error err;
    memset(&err, 0, sizeof err);
    if (nnav_model_open(path, NULL, &m, &err) == 0) {
        nnav_model_close(m);
        return 20;
    }
    return err.kind == NNAV_ERR_INPUT && err.msg[0] ? 0 : 21;
}

/* A function whose attribute default (attribute_proto) is a GRAPH: the body
 * belongs to no node. Naming it, or reporting an error inside it, must not
 * index the node array with NNAV_NONE. */
static void test_function_graph_default(void **state)
{
    (void)state;
    char bad[256] = "";
    size_t o = 0;
    for (int broken = 0; broken < 2; broken++) {
        tu_pb model = {0}, graph = {0}, node = {0}, fn = {0}, attr = {0}, body = {0};
        tu_pb_node(&node, "call", "F", "x", "y");
        tu_pb_str(&node, 7, "d");
        tu_pb_msg(&graph, 1, &node);
        tu_pb_vinfo(&graph, 11, "x");
        tu_pb_model(&model, &graph);
        tu_pb_node(&node, "b0", "Identity", "X", "Y");
        if (broken)
            tu_pb_int(&node, 1, 3); /* an input that is a VARINT */
        tu_pb_msg(&body, 1, &node);
        tu_pb_str(&attr, 1, "branch");
        tu_pb_int(&attr, 20, 5);
        tu_pb_msg(&attr, 6, &body);
        tu_pb_str(&fn, 1, "F");
        tu_pb_str(&fn, 4, "X");
        tu_pb_str(&fn, 5, "Y");
        tu_pb_node(&node, "f0", "Identity", "X", "Y");
        tu_pb_msg(&fn, 7, &node);
        tu_pb_str(&fn, 10, "d");
        tu_pb_msg(&fn, 11, &attr);
        tu_pb_msg(&model, 25, &fn);
        const char *p = write_model(broken ? "fn_graph_default_bad" : "fn_graph_default", &model);
        tu_pb_free(&model);
        char why[64];
        if (isolated_(broken ? open_fails_cleanly : open_and_name_all, p, why, sizeof why))
            o += (size_t)snprintf(bad + o, sizeof bad - o, "%s: %s; ",
                                  broken ? "an error inside the body" : "naming the body", why);
    }
    if (bad[0])
        fail_msg("function with a GRAPH attribute default: %s", bad);
}

/* Protobuf merges repeated occurrences of a singular message field: a file
 * holding graph{node a} graph{node b} has one graph with both nodes, as
 * the ONNX package reads it. */
static void test_singular_message_merged(void **state)
{
    (void)state;
    tu_pb model = {0}, g1 = {0}, g2 = {0}, node = {0};
    tu_pb_node(&node, "a", "Relu", "x", "y");
    tu_pb_msg(&g1, 1, &node);
    tu_pb_str(&g1, 2, "first");
    tu_pb_node(&node, "b", "Relu", "y", "z");
    tu_pb_msg(&g2, 1, &node);
    tu_pb_model(&model, &g1);
    tu_pb_msg(&model, 7, &g2);
    nnav_model *m = tu_open(write_model("merge", &model));
    tu_pb_free(&model);
    uint32_t nodes = nnav_graph_get(m, 0)->node_count;
    int named = nnav_span_eqs(nnav_graph_get(m, 0)->name, "first");
    nnav_model_close(m);
    if (nodes != 2 || !named)
        fail_msg("graph field given twice: %u nodes (want 2), name kept: %d", nodes, named);
}

/* Names, strings and types with terminal escapes in them: every formatted
 * piece of the index comes out escaped. */
static void test_hostile_names(void **state)
{
    (void)state;
    tu_pb model = {0}, graph = {0}, node = {0}, attr = {0}, body = {0}, t = {0};
    const char *evil = "\x1b]0;pwned\x07\xe2\x80\xae\xc2\x9b";
    /* An evil node name and input, a STRING and a STRINGS attribute. */
    tu_pb_node(&node, evil, "Relu", evil, "out\x1b[2J");
    tu_pb_str(&attr, 1, "mode\x1b");
    tu_pb_str(&attr, 4, evil);
    tu_pb_int(&attr, 20, 3);
    tu_pb_msg(&node, 5, &attr);
    tu_pb_str(&attr, 1, "list");
    tu_pb_str(&attr, 9, evil);
    tu_pb_str(&attr, 9, "ok");
    tu_pb_int(&attr, 20, 8);
    tu_pb_msg(&node, 5, &attr);
    tu_pb_msg(&graph, 1, &node);
    /* An If named "If\e" whose body attribute is "g\e". */
    tu_pb_node(&node, NULL, "Neg", "out\x1b[2J", "n1");
    tu_pb_msg(&body, 1, &node);
    tu_pb_str(&attr, 1, "g\x1b");
    tu_pb_int(&attr, 20, 5);
    tu_pb_msg(&attr, 6, &body);
    tu_pb_node(&node, "If\x1b", "If", "out\x1b[2J", "r");
    tu_pb_msg(&node, 5, &attr);
    tu_pb_msg(&graph, 1, &node);
    /* An initializer and the graph itself with the evil name. */
    tu_pb_int(&t, 1, 1);
    tu_pb_int(&t, 2, 1);
    tu_pb_str(&t, 8, evil);
    tu_pb_bytes(&t, 9, "\0\0\0\0", 4);
    tu_pb_msg(&graph, 5, &t);
    tu_pb_str(&graph, 2, evil);
    tu_pb_vinfo(&graph, 12, "out\x1b[2J");
    tu_pb_model(&model, &graph);
    nnav_model *m = tu_open(write_model("hostile", &model));
    tu_pb_free(&model);
    exercise(m);
    char buf[1024];
    for (uint32_t a = 0; a < nnav_attr_count(m); a++) {
        nnav_attr_format(m, a, 8, buf, sizeof buf);
        assert_true(no_control_bytes(buf));
        assert_null(strstr(buf, "\xe2\x80\xae"));
        assert_null(strstr(buf, "\xc2\x9b"));
    }
    nnav_attr_format(m, 0, 8, buf, sizeof buf);
    tu_assert_contains(buf, "\\x1B]0;pwned\\x07\\u{202E}\\u{009B}");
    uint32_t g1 = nnav_graph_count(m) - 1;
    nnav_graph_path(m, g1, buf, sizeof buf);
    assert_string_equal(buf, "/If\\x1B/g\\x1B");
    assert_int_equal(nnav_graph_by_path(m, buf), g1);
    nnav_model_close(m);
}

/* TypeProto bytes as the readers decode them, as text. */
static void type_text(nnav_span type, char *buf, size_t n)
{
    nnav_type t;
    nnav_typeproto_decode(NULL, type, 0, &t);
    nnav_type_text(&t, buf, n);
}

/* TypeProto nesting is bounded when formatting; a sane depth is rendered. */
static void test_type_format(void **state)
{
    (void)state;
    char buf[512];
    for (int depth = 1; depth <= 2000; depth = depth < 40 ? depth + 1 : depth * 2) {
        /* seq(seq(...(tensor float32[2,N])...)) */
        tu_pb tp = {0}, tt = {0}, sh = {0}, dim = {0};
        tu_pb_int(&dim, 1, 2);
        tu_pb_msg(&sh, 1, &dim);
        tu_pb_str(&dim, 2, "N");
        tu_pb_msg(&sh, 1, &dim);
        tu_pb_int(&tt, 1, 1);
        tu_pb_msg(&tt, 2, &sh);
        tu_pb_msg(&tp, 1, &tt);
        for (int i = 0; i < depth; i++) {
            tu_pb seq = {0}, outer = {0};
            tu_pb_msg(&seq, 1, &tp);
            tu_pb_msg(&outer, 4, &seq);
            tp = outer;
        }
        type_text((nnav_span){tp.p, tp.n}, buf, sizeof buf);
        if (depth <= 8) {
            char want[512] = "";
            for (int i = 0; i < depth; i++)
                strcat(want, "seq(");
            strcat(want, "float32[2,N]");
            for (int i = 0; i < depth; i++)
                strcat(want, ")");
            assert_string_equal(buf, want);
        }
        assert_true(no_control_bytes(buf));
        assert_true(strlen(buf) < sizeof buf);
        if (depth > 40)
            tu_assert_contains(buf, "nested");
        tu_pb_free(&tp);
    }
    /* Broken bytes say so. */
    type_text((nnav_span){(const uint8_t *)"\x0a\x09\x08", 3}, buf, sizeof buf);
    tu_assert_contains(buf, "malformed");
    type_text((nnav_span){NULL, 0}, buf, sizeof buf);
    assert_string_equal(buf, "");
}

/* ---- the corpus ---- */

static void test_corpus_counts(void **state)
{
    (void)state;
    const char *p = tu_corpus("onnx/light_densenet121.onnx");
    if (!p) {
        skip();
        return;
    }
    nnav_model *m = tu_open(p);
    assert_int_equal(nnav_graph_get(m, 0)->node_count, 1746);
    assert_int_equal(nnav_node_count(m), 1746);
    assert_int_equal(nnav_graph_get(m, 0)->init_count, 848);
    nnav_model_close(m);

    m = tu_open(tu_corpus("onnx/light_inception_v2.onnx"));
    assert_int_equal(nnav_graph_get(m, 0)->node_count, 916);
    assert_int_equal(nnav_graph_get(m, 0)->init_count, 486);
    nnav_model_close(m);

    m = tu_open(tu_corpus("onnx/hey_jarvis_v0.1.onnx"));
    assert_int_equal(nnav_graph_get(m, 0)->node_count, 33);
    assert_int_equal(nnav_graph_get(m, 0)->init_count, 20);
    uint32_t graph_attrs = 0;
    for (uint32_t a = 0; a < nnav_attr_count(m); a++)
        if (nnav_attr_get(m, a)->type == NNAV_ATTR_GRAPH)
            graph_attrs++;
    assert_int_equal(graph_attrs, 2);
    assert_int_equal(nnav_graph_count(m), 3);
    for (uint32_t g = 1; g < 3; g++) {
        const nnav_graph *gr = nnav_graph_get(m, g);
        assert_int_equal(gr->kind, NNAV_GRAPH_BODY);
        tu_assert_span(nnav_node_get(m, gr->owner_node)->op, "If");
        char path[512];
        nnav_graph_path(m, g, path, sizeof path);
        assert_int_equal(nnav_graph_by_path(m, path), g);
    }
    nnav_model_close(m);
}

static void test_corpus_all_open(void **state)
{
    (void)state;
    const char *dir = tu_corpus("onnx");
    if (!dir) {
        skip();
        return;
    }
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l < 5 || strcmp(e->d_name + l - 5, ".onnx") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        nnav_model *m = NULL;
        nnav_error err;
        if (nnav_model_open(path, NULL, &m, &err) != 0) {
            char line[2048];
            nnav_error_format(&err, path, line, sizeof line);
            closedir(d);
            fail_msg("%s", line);
        }
        assert_true(nnav_node_count(m) > 0);
        /* Real exporters write no undefined names. */
        for (uint32_t v = 0; v < nnav_value_count(m); v++)
            if (nnav_value_get(m, v)->kind == NNAV_VAL_UNDEFINED &&
                nnav_value_get(m, v)->cons_count)
                fail_msg("%s: value %.*s undefined", e->d_name,
                         (int)nnav_value_get(m, v)->name.n,
                         (const char *)nnav_value_get(m, v)->name.p);
        exercise(m);
        nnav_model_close(m);
        n++;
    }
    closedir(d);
    assert_true(n >= 19); /* the corpus README lists 19 ONNX files */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cnn_counts),
        cmocka_unit_test(test_cnn_values),
        cmocka_unit_test(test_control_flow_graphs),
        cmocka_unit_test(test_control_flow_scoping),
        cmocka_unit_test(test_control_flow_function_and_sparse),
        cmocka_unit_test(test_external_sample),
        cmocka_unit_test(test_search),
        cmocka_unit_test(test_search_huge_budget),
        cmocka_unit_test(test_search_control_flow),
        cmocka_unit_test(test_not_models),
        cmocka_unit_test(test_truncated_cnn),
        cmocka_unit_test(test_truncated_control_flow),
        cmocka_unit_test(test_mutated_control_flow),
        cmocka_unit_test(test_attr_wrong_wire_type),
        cmocka_unit_test(test_deep_nesting),
        cmocka_unit_test(test_deep_paths),
        cmocka_unit_test(test_undefined_names),
        cmocka_unit_test(test_unknown_fields),
        cmocka_unit_test(test_functions_training_scopes),
        cmocka_unit_test(test_tensor_warnings),
        cmocka_unit_test(test_typed_values),
        cmocka_unit_test(test_progress_and_cancel),
        cmocka_unit_test(test_file_shrinks),
        cmocka_unit_test(test_function_graph_default),
        cmocka_unit_test(test_singular_message_merged),
        cmocka_unit_test(test_hostile_names),
        cmocka_unit_test(test_type_format),
        cmocka_unit_test(test_corpus_counts),
        cmocka_unit_test(test_corpus_all_open),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
