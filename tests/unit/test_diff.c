/* test_diff.c - two models compared (src/include/diff.h), on pairs of ONNX
 * models built here byte by byte, written to the scratch folder and opened.
 *
 * Written from the contract, not from diff.c: what each case expects is what
 * the header promises. Identical files differ in nothing; a re-export that
 * renumbers every node and value (onnx::Conv_123) lines up node for node, by
 * structure, even where the file lists the two branches in the other order;
 * a node inserted in (removed from) a chain is one ADDED (REMOVED) node and
 * its consumer's INPUTS, nothing else; Add(x,y) -> Add(y,x) rewires both
 * slots; attributes changed, added and removed come as pairs; an op changed
 * under the same name is OP; a weight changed in one element by 0.5 is
 * VALUES with the count, the largest absolute and relative differences and
 * where they are, and equal under a tolerance of 0.5 or more or with
 * no_values; an initializer renamed with the same bytes is only RENAMED; a
 * dtype or dims change; a graph input's type; a change inside an If's
 * then-branch lands in that body's graph entry; a change inside a
 * model-local function lands in the function's; model facts; the summary
 * line; an ONNX model against a TensorFlow one is refused as a usage error.
 * Hostile shapes: a name used twice, nodes without names, and 10,000
 * nameless Relu nodes with one removed (exactly one REMOVED). */
#include "testutil.h"

#include "diff.h"

/* ---- building models ---- */

enum { T_FLOAT = 1, T_INT64 = 7, T_FLOAT16 = 10, T_DOUBLE = 11 };
enum { A_FLOAT = 1, A_INT = 2, A_GRAPH = 5, A_INTS = 7 };

/* A node into graph (or function) field `field` (GraphProto.node 1,
 * FunctionProto.node 7), with optional attributes already encoded in attrs
 * (freed). */
static void add_node(tu_pb *g, const char *name, const char *op, const char *ins,
                     const char *outs, tu_pb *attrs)
{
    tu_pb node = {0};
    tu_pb_node(&node, name, op, ins, outs);
    if (attrs) {
        tu_pb_raw(&node, attrs->p, attrs->n);
        tu_pb_free(attrs);
    }
    tu_pb_msg(g, 1, &node);
}

/* AttributeProto fields appended to list (NodeProto.attribute is field 5). */
static void attr_int(tu_pb *list, const char *name, int64_t v)
{
    tu_pb a = {0};
    tu_pb_str(&a, 1, name);
    tu_pb_int(&a, 3, (uint64_t)v);
    tu_pb_int(&a, 20, A_INT);
    tu_pb_msg(list, 5, &a);
}

static void attr_float(tu_pb *list, const char *name, float f)
{
    tu_pb a = {0};
    tu_pb_str(&a, 1, name);
    tu_pb_f32(&a, 2, f);
    tu_pb_int(&a, 20, A_FLOAT);
    tu_pb_msg(list, 5, &a);
}

static void attr_ints(tu_pb *list, const char *name, int64_t x, int64_t y)
{
    tu_pb a = {0};
    tu_pb_str(&a, 1, name);
    tu_pb_int(&a, 8, (uint64_t)x);
    tu_pb_int(&a, 8, (uint64_t)y);
    tu_pb_int(&a, 20, A_INTS);
    tu_pb_msg(list, 5, &a);
}

static void attr_graph(tu_pb *list, const char *name, tu_pb *body)
{
    tu_pb a = {0};
    tu_pb_str(&a, 1, name);
    tu_pb_msg(&a, 6, body);
    tu_pb_int(&a, 20, A_GRAPH);
    tu_pb_msg(list, 5, &a);
}

/* An initializer (GraphProto.initializer, field 5) with raw_data. */
static void add_init(tu_pb *g, const char *name, int32_t dtype, const int64_t *dims, int nd,
                     const void *raw, size_t n)
{
    tu_pb t = {0};
    for (int i = 0; i < nd; i++)
        tu_pb_int(&t, 1, (uint64_t)dims[i]);
    tu_pb_int(&t, 2, (uint64_t)dtype);
    tu_pb_str(&t, 8, name);
    tu_pb_bytes(&t, 9, raw, n);
    tu_pb_msg(g, 5, &t);
}

static void add_f32(tu_pb *g, const char *name, int64_t d0, int64_t d1, const float *v)
{
    int64_t dims[2] = {d0, d1};
    add_init(g, name, T_FLOAT, dims, 2, v, (size_t)(d0 * d1) * sizeof(float));
}

/* A graph input (field 11) or output (12) of a tensor type with known dims. */
static void add_io(tu_pb *g, uint32_t field, const char *name, int32_t elem, const int64_t *dims,
                   int nd)
{
    tu_pb vi = {0}, tp = {0}, tt = {0}, shape = {0};
    tu_pb_int(&tt, 1, (uint64_t)elem);
    for (int i = 0; i < nd; i++) {
        tu_pb dim = {0};
        tu_pb_int(&dim, 1, (uint64_t)dims[i]);
        tu_pb_msg(&shape, 1, &dim);
    }
    tu_pb_msg(&tt, 2, &shape);
    tu_pb_msg(&tp, 1, &tt);
    tu_pb_str(&vi, 1, name);
    tu_pb_msg(&vi, 2, &tp);
    tu_pb_msg(g, field, &vi);
}

/* ---- a pair of models ---- */

typedef struct pair {
    nnav_model *m[2];
    nnav_diff *d;
} pair;

static void pair_write(pair *p, const char *tag, tu_pb *model_a, tu_pb *model_b)
{
    char sub[128];
    snprintf(sub, sizeof sub, "diff_%s", tag);
    const char *dir = tu_tmpdir(sub);
    tu_write(tu_join(dir, "a.onnx"), model_a->p, model_a->n);
    tu_write(tu_join(dir, "b.onnx"), model_b->p, model_b->n);
    tu_pb_free(model_a);
    tu_pb_free(model_b);
    p->m[0] = tu_open(tu_join(dir, "a.onnx"));
    p->m[1] = tu_open(tu_join(dir, "b.onnx"));
    p->d = NULL;
}

/* Two graphs wrapped as models (ir_version 8, opset 17), written, opened. */
static void pair_graphs(pair *p, const char *tag, tu_pb *ga, tu_pb *gb)
{
    tu_pb ma = {0}, mb = {0};
    tu_pb_str(ga, 2, "g"); /* a graph name, as the checker wants */
    tu_pb_str(gb, 2, "g");
    tu_pb_model(&ma, ga);
    tu_pb_model(&mb, gb);
    pair_write(p, tag, &ma, &mb);
}

static void pair_run(pair *p, const nnav_diff_opts *o)
{
    nnav_error err;
    memset(&err, 0, sizeof err);
    nnav_diff_opts none = {0};
    if (p->d)
        nnav_diff_free(p->d);
    p->d = NULL;
    if (nnav_diff_run(p->m[0], p->m[1], o ? o : &none, &p->d, &err) != 0)
        fail_msg("nnav_diff_run failed: %s (%s)", err.msg, err.path);
    assert_non_null(p->d);
    assert_ptr_equal(nnav_diff_model(p->d, 0), p->m[0]);
    assert_ptr_equal(nnav_diff_model(p->d, 1), p->m[1]);
}

static void pair_close(pair *p)
{
    nnav_diff_free(p->d);
    nnav_model_close(p->m[0]);
    nnav_model_close(p->m[1]);
}

static const char *summary(const nnav_diff *d)
{
    static char buf[1024];
    size_t n = nnav_diff_summary(d, buf, sizeof buf);
    assert_int_equal(n, strlen(buf));
    return buf;
}

static uint32_t node_of(const pair *p, int side, const char *name)
{
    return tu_node(p->m[side], tu_graph(p->m[side], "/"), name);
}

/* A value of the main graph by name. */
static uint32_t value_of(const pair *p, int side, const char *name)
{
    uint32_t v = nnav_value_lookup(p->m[side], 0, name, strlen(name));
    if (v == NNAV_NONE)
        fail_msg("no value %s on side %d", name, side);
    return v;
}

/* The diff's entry for a node named name on side, which must exist. */
static const nnav_diff_node *entry_of(const pair *p, int side, const char *name)
{
    uint32_t e = nnav_diff_node_entry(p->d, side, node_of(p, side, name));
    if (e == NNAV_NONE)
        fail_msg("node %s (side %d) has no entry", name, side);
    assert_true(e < nnav_diff_node_count(p->d));
    return nnav_diff_node_get(p->d, e);
}

/* Everything equal: no entry anywhere, every node its counterpart's twin. */
static void assert_no_differences(const pair *p)
{
    const nnav_diff *d = p->d;
    assert_int_equal(nnav_diff_any(d), 0);
    assert_string_equal(summary(d), "no differences");
    assert_int_equal(nnav_diff_node_count(d), 0);
    assert_int_equal(nnav_diff_tensor_count(d), 0);
    assert_int_equal(nnav_diff_io_count(d), 0);
    assert_int_equal(nnav_diff_fact_count(d), 0);
    assert_int_equal(nnav_diff_opsum_count(d), 0);
    const nnav_diff_totals *t = nnav_diff_totals_get(d);
    assert_int_equal(t->nodes_a, nnav_node_count(p->m[0]));
    assert_int_equal(t->nodes_b, nnav_node_count(p->m[1]));
    assert_int_equal(t->same, t->nodes_a);
    assert_int_equal(t->added + t->removed + t->renamed + t->changed, 0);
    assert_int_equal(t->graphs_added + t->graphs_removed + t->io_changed, 0);
    assert_int_equal(t->tensors_added + t->tensors_removed + t->tensors_renamed +
                         t->tensors_changed, 0);
    assert_int_equal(t->facts, 0);
    for (size_t i = 0; i < nnav_diff_graph_count(d); i++) {
        const nnav_diff_graph *g = nnav_diff_graph_get(d, i);
        assert_int_equal(g->what, 0);
        assert_int_equal(g->node_count + g->io_count + g->tensor_count, 0);
        assert_int_equal(g->added + g->removed + g->renamed + g->changed, 0);
    }
}

/* ---- cases ---- */

static void test_words(void **state)
{
    (void)state;
    static const char *words[] = {"added", "removed", "renamed", "op", "attributes", "inputs",
                                  "outputs", "dtype", "shape", "values", "unread", "type",
                                  "transposed"};
    /* Word i names bit i (NNAV_DIFF_ADDED is 1u << 0). */
    for (unsigned i = 0; i < 13; i++)
        assert_string_equal(nnav_diff_word(i), words[i]);
    assert_null(nnav_diff_word(13));
    assert_null(nnav_diff_word(UINT32_MAX));
    assert_int_equal(NNAV_DIFF_TYPE, 1u << 11);
    assert_int_equal(NNAV_DIFF_TRANSPOSED, 1u << 12);
    assert_int_equal(nnav_diff_mark(NNAV_DIFF_ADDED), '+');
    assert_int_equal(nnav_diff_mark(NNAV_DIFF_REMOVED), '-');
    assert_int_equal(nnav_diff_mark(NNAV_DIFF_RENAMED), '~');
    assert_int_equal(nnav_diff_mark(NNAV_DIFF_ATTRS | NNAV_DIFF_INPUTS), '~');
    assert_int_equal(nnav_diff_mark(0), ' ');
}

/* A small network with a Conv (attributes, weights), Relu, Add. */
static void small_net(tu_pb *g)
{
    static const float w[6] = {1, 2, 3, 4, 5, 6}, b[2] = {0.5f, -0.5f};
    int64_t xd[2] = {1, 3}, bd[1] = {2};
    tu_pb at = {0};
    attr_ints(&at, "kernel_shape", 1, 1);
    attr_int(&at, "group", 1);
    add_node(g, "conv", "Conv", "x,W,B", "c", &at);
    add_node(g, "relu", "Relu", "c", "r", NULL);
    add_node(g, "add", "Add", "r,c", "y", NULL);
    add_f32(g, "W", 2, 3, w);
    add_init(g, "B", T_FLOAT, bd, 1, b, sizeof b);
    add_io(g, 11, "x", T_FLOAT, xd, 2);
    add_io(g, 12, "y", T_FLOAT, xd, 2);
}

static void test_identical(void **state)
{
    (void)state;
    pair p;
    tu_pb ga = {0}, gb = {0};
    small_net(&ga);
    small_net(&gb);
    pair_graphs(&p, "identical", &ga, &gb);
    pair_run(&p, NULL);
    assert_no_differences(&p);
    assert_int_equal(nnav_diff_graph_count(p.d), 1);
    const nnav_diff_graph *g = nnav_diff_graph_get(p.d, 0);
    assert_int_equal(g->a, 0);
    assert_int_equal(g->b, 0);
    assert_int_equal(g->same, 3);
    assert_int_equal(nnav_diff_graph_of(p.d, 0, 0), 0);
    assert_int_equal(nnav_diff_graph_of(p.d, 1, 0), 0);
    /* Both payloads were compared: W (24 bytes) and B (8). */
    assert_int_equal(nnav_diff_totals_get(p.d)->bytes_compared, 32);
    for (uint32_t n = 0; n < 3; n++)
        for (int s = 0; s < 2; s++) {
            assert_int_equal(nnav_diff_node_peer(p.d, s, n), n);
            assert_int_equal(nnav_diff_node_what(p.d, s, n), 0);
            assert_int_equal(nnav_diff_node_entry(p.d, s, n), NNAV_NONE);
        }
    for (int s = 0; s < 2; s++) {
        assert_int_equal(nnav_diff_value_peer(p.d, s, value_of(&p, s, "r")),
                         value_of(&p, !s, "r"));
        assert_int_equal(nnav_diff_value_peer(p.d, s, value_of(&p, s, "x")),
                         value_of(&p, !s, "x"));
        uint32_t w = tu_tensor(p.m[s], "W");
        assert_int_equal(nnav_diff_tensor_peer(p.d, s, w), tu_tensor(p.m[!s], "W"));
        assert_int_equal(nnav_diff_tensor_entry(p.d, s, w), NNAV_NONE);
    }
    pair_close(&p);
}

/* Two branches from x, each Relu then Conv, each ending in its own output.
 * A lists p before q with readable names; B is a re-export: every node and
 * inner value renumbered, the q branch listed first (so the file's order
 * alone would pair the wrong nodes). */
static void branches(tu_pb *g, int reexport)
{
    static const float wp[4] = {1, 2, 3, 4}, wq[4] = {5, 6, 7, 8};
    int64_t d[2] = {1, 2};
    if (!reexport) {
        add_node(g, "/p/Relu", "Relu", "x", "/p/Relu_output_0", NULL);
        add_node(g, "/p/Conv", "Conv", "/p/Relu_output_0,Wp", "yp", NULL);
        add_node(g, "/q/Relu", "Relu", "x", "/q/Relu_output_0", NULL);
        add_node(g, "/q/Conv", "Conv", "/q/Relu_output_0,Wq", "yq", NULL);
    } else {
        add_node(g, "onnx::Relu_10", "Relu", "x", "onnx::Conv_11", NULL);
        add_node(g, "onnx::Conv_12", "Conv", "onnx::Conv_11,Wq", "yq", NULL);
        add_node(g, "onnx::Relu_13", "Relu", "x", "onnx::Conv_14", NULL);
        add_node(g, "onnx::Conv_15", "Conv", "onnx::Conv_14,Wp", "yp", NULL);
    }
    add_f32(g, "Wp", 2, 2, wp);
    add_f32(g, "Wq", 2, 2, wq);
    add_io(g, 11, "x", T_FLOAT, d, 2);
    add_io(g, 12, "yp", T_FLOAT, d, 2);
    add_io(g, 12, "yq", T_FLOAT, d, 2);
}

static void test_renamed_all(void **state)
{
    (void)state;
    pair p;
    tu_pb ga = {0}, gb = {0};
    branches(&ga, 0);
    branches(&gb, 1);
    pair_graphs(&p, "renamed", &ga, &gb);
    pair_run(&p, NULL);
    const nnav_diff *d = p.d;
    static const char *pairs[4][2] = {{"/p/Relu", "onnx::Relu_13"},
                                      {"/p/Conv", "onnx::Conv_15"},
                                      {"/q/Relu", "onnx::Relu_10"},
                                      {"/q/Conv", "onnx::Conv_12"}};
    for (int i = 0; i < 4; i++) {
        uint32_t a = node_of(&p, 0, pairs[i][0]), b = node_of(&p, 1, pairs[i][1]);
        assert_int_equal(nnav_diff_node_peer(d, 0, a), b);
        assert_int_equal(nnav_diff_node_peer(d, 1, b), a);
        assert_int_equal(nnav_diff_node_what(d, 0, a), NNAV_DIFF_RENAMED);
        assert_int_equal(nnav_diff_node_what(d, 1, b), NNAV_DIFF_RENAMED);
        const nnav_diff_node *e = entry_of(&p, 0, pairs[i][0]);
        assert_ptr_equal(e, entry_of(&p, 1, pairs[i][1]));
        assert_int_equal(e->a, a);
        assert_int_equal(e->b, b);
        assert_int_equal(e->what, NNAV_DIFF_RENAMED);
        assert_int_equal(e->attr_count, 0);
        assert_int_equal(nnav_diff_input_same(d, e, 0), 1);
    }
    assert_int_equal(nnav_diff_node_count(d), 4);
    /* Values follow their producers, whatever they are called. */
    assert_int_equal(nnav_diff_value_peer(d, 0, value_of(&p, 0, "/p/Relu_output_0")),
                     value_of(&p, 1, "onnx::Conv_14"));
    assert_int_equal(nnav_diff_value_peer(d, 1, value_of(&p, 1, "onnx::Conv_11")),
                     value_of(&p, 0, "/q/Relu_output_0"));
    const nnav_diff_totals *t = nnav_diff_totals_get(d);
    assert_int_equal(t->renamed, 4);
    assert_int_equal(t->added + t->removed + t->changed + t->same, 0);
    assert_int_equal(t->tensors_added + t->tensors_removed + t->tensors_renamed +
                         t->tensors_changed, 0);
    assert_int_equal(nnav_diff_io_count(d), 0);
    assert_int_equal(nnav_diff_tensor_count(d), 0);
    assert_int_equal(nnav_diff_graph_get(d, 0)->renamed, 4);
    /* The summary names both operators as renamed, and nothing else. */
    const char *s = summary(d);
    tu_assert_contains(s, "2 Conv renamed");
    tu_assert_contains(s, "2 Relu renamed");
    assert_null(strchr(s, '+'));
    assert_null(strstr(s, "changed"));
    assert_int_equal(nnav_diff_opsum_count(d), 2);
    for (size_t i = 0; i < 2; i++) {
        const nnav_diff_opsum *o = nnav_diff_opsum_get(d, i);
        assert_int_equal(o->renamed, 2);
        assert_int_equal(o->added + o->removed + o->changed, 0);
    }
    pair_close(&p);
}

/* What no structure reaches: two dead Constant nodes (no inputs, outputs
 * read by nobody) renamed, paired along the file's order; an initializer no
 * node reads, renamed with the same bytes, paired by its bytes. */
static void dead_ends(tu_pb *g, int b)
{
    static const float w[4] = {1, 2, 3, 4}, u[4] = {4, 3, 2, 1};
    int64_t d[1] = {4};
    tu_pb at = {0};
    add_node(g, "r", "Relu", "x", "y", NULL);
    attr_float(&at, "value_float", 1.0f);
    add_node(g, b ? "onnx::Constant_7" : "k1", "Constant", NULL, b ? "c7" : "k1_out", &at);
    attr_float(&at, "value_float", 2.0f);
    add_node(g, b ? "onnx::Constant_8" : "k2", "Constant", NULL, b ? "c8" : "k2_out", &at);
    add_f32(g, b ? "unused.renamed" : "unused", 2, 2, w);
    add_f32(g, b ? "other.new" : "other", 2, 2, b ? u : w); /* renamed and changed */
    add_io(g, 11, "x", T_FLOAT, d, 1);
    add_io(g, 12, "y", T_FLOAT, d, 1);
}

static void test_unreached(void **state)
{
    (void)state;
    pair p;
    tu_pb ga = {0}, gb = {0};
    dead_ends(&ga, 0);
    dead_ends(&gb, 1);
    pair_graphs(&p, "unreached", &ga, &gb);
    pair_run(&p, NULL);
    const nnav_diff *d = p.d;
    assert_int_equal(nnav_diff_node_peer(d, 0, node_of(&p, 0, "k1")),
                     node_of(&p, 1, "onnx::Constant_7"));
    assert_int_equal(nnav_diff_node_peer(d, 0, node_of(&p, 0, "k2")),
                     node_of(&p, 1, "onnx::Constant_8"));
    assert_int_equal(nnav_diff_node_what(d, 0, node_of(&p, 0, "k1")), NNAV_DIFF_RENAMED);
    assert_int_equal(nnav_diff_node_what(d, 1, node_of(&p, 1, "onnx::Constant_8")),
                     NNAV_DIFF_RENAMED);
    assert_int_equal(nnav_diff_node_count(d), 2);
    const nnav_diff_totals *t = nnav_diff_totals_get(d);
    assert_int_equal(t->renamed, 2);
    assert_int_equal(t->same, 1);
    /* The unread initializer follows its bytes; the other one, renamed and
     * changed, has nothing to follow: removed and added. */
    uint32_t ua = tu_tensor(p.m[0], "unused"), ub = tu_tensor(p.m[1], "unused.renamed");
    assert_int_equal(nnav_diff_tensor_peer(d, 0, ua), ub);
    const nnav_diff_tensor *e = nnav_diff_tensor_get(d, nnav_diff_tensor_entry(d, 1, ub));
    assert_int_equal(e->what, NNAV_DIFF_RENAMED);
    assert_int_equal(e->a, ua);
    uint32_t oa = tu_tensor(p.m[0], "other"), ob = tu_tensor(p.m[1], "other.new");
    assert_int_equal(nnav_diff_tensor_peer(d, 0, oa), NNAV_NONE);
    assert_int_equal(nnav_diff_tensor_peer(d, 1, ob), NNAV_NONE);
    assert_int_equal(nnav_diff_tensor_get(d, nnav_diff_tensor_entry(d, 0, oa))->what,
                     NNAV_DIFF_REMOVED);
    assert_int_equal(nnav_diff_tensor_get(d, nnav_diff_tensor_entry(d, 1, ob))->what,
                     NNAV_DIFF_ADDED);
    assert_int_equal(nnav_diff_tensor_count(d), 3);
    /* In B's order, then the removed ones. */
    assert_int_equal(nnav_diff_tensor_get(d, 0)->b, ub);
    assert_int_equal(nnav_diff_tensor_get(d, 1)->b, ob);
    assert_int_equal(nnav_diff_tensor_get(d, 2)->a, oa);
    assert_int_equal(t->tensors_renamed, 1);
    assert_int_equal(t->tensors_added, 1);
    assert_int_equal(t->tensors_removed, 1);
    pair_close(&p);
}

/* x -> a Sigmoid -> b Tanh -> c Sigmoid -> y; with `extra`, a Relu named
 * "extra" sits between a and b (extra reads a's output, b reads extra's). */
static void chain3(tu_pb *g, int extra)
{
    int64_t d[1] = {4};
    add_node(g, "a", "Sigmoid", "x", "va", NULL);
    if (extra) {
        add_node(g, "extra", "Relu", "va", "vx", NULL);
        add_node(g, "b", "Tanh", "vx", "vb", NULL);
    } else {
        add_node(g, "b", "Tanh", "va", "vb", NULL);
    }
    add_node(g, "c", "Sigmoid", "vb", "y", NULL);
    add_io(g, 11, "x", T_FLOAT, d, 1);
    add_io(g, 12, "y", T_FLOAT, d, 1);
}

static void test_inserted(void **state)
{
    (void)state;
    pair p;
    tu_pb ga = {0}, gb = {0};
    chain3(&ga, 0);
    chain3(&gb, 1);
    pair_graphs(&p, "inserted", &ga, &gb);
    pair_run(&p, NULL);
    const nnav_diff *d = p.d;
    assert_true(nnav_diff_any(d));
    assert_int_equal(nnav_diff_node_count(d), 2);
    /* Unified order is B's: extra, then b. */
    const nnav_diff_node *e0 = nnav_diff_node_get(d, 0), *e1 = nnav_diff_node_get(d, 1);
    assert_int_equal(e0->what, NNAV_DIFF_ADDED);
    assert_int_equal(e0->a, NNAV_NONE);
    assert_int_equal(e0->b, node_of(&p, 1, "extra"));
    assert_int_equal(nnav_diff_node_peer(d, 1, e0->b), NNAV_NONE);
    assert_int_equal(nnav_diff_node_what(d, 1, e0->b), NNAV_DIFF_ADDED);
    assert_int_equal(e1->what, NNAV_DIFF_INPUTS);
    assert_int_equal(e1->a, node_of(&p, 0, "b"));
    assert_int_equal(e1->b, node_of(&p, 1, "b"));
    assert_int_equal(nnav_diff_input_same(d, e1, 0), 0);
    /* a and c are untouched. */
    for (int s = 0; s < 2; s++) {
        assert_int_equal(nnav_diff_node_what(d, s, node_of(&p, s, "a")), 0);
        assert_int_equal(nnav_diff_node_what(d, s, node_of(&p, s, "c")), 0);
        assert_int_equal(nnav_diff_node_peer(d, s, node_of(&p, s, "c")), node_of(&p, !s, "c"));
    }
    /* The new value has no counterpart; va still matches va. */
    assert_int_equal(nnav_diff_value_peer(d, 1, value_of(&p, 1, "vx")), NNAV_NONE);
    assert_int_equal(nnav_diff_value_peer(d, 0, value_of(&p, 0, "va")), value_of(&p, 1, "va"));
    const nnav_diff_totals *t = nnav_diff_totals_get(d);
    assert_int_equal(t->added, 1);
    assert_int_equal(t->changed, 1);
    assert_int_equal(t->same, 2);
    assert_int_equal(t->removed + t->renamed, 0);
    assert_int_equal(nnav_diff_io_count(d) + nnav_diff_tensor_count(d) +
                         nnav_diff_fact_count(d), 0);
    assert_string_equal(summary(d), "+1 Relu, 1 Tanh changed (inputs)");
    /* Cut between whole items when the buffer is small. */
    char small[24];
    size_t n = nnav_diff_summary(d, small, sizeof small);
    assert_int_equal(n, strlen(small));
    assert_string_equal(small, "+1 Relu, ...");
    pair_close(&p);
}

static void test_removed(void **state)
{
    (void)state;
    pair p;
    tu_pb ga = {0}, gb = {0};
    chain3(&ga, 1);
    chain3(&gb, 0);
    pair_graphs(&p, "removed", &ga, &gb);
    pair_run(&p, NULL);
    const nnav_diff *d = p.d;
    assert_int_equal(nnav_diff_node_count(d), 2);
    /* The removed node is placed before the node that follows it on A. */
    const nnav_diff_node *e0 = nnav_diff_node_get(d, 0), *e1 = nnav_diff_node_get(d, 1);
    assert_int_equal(e0->what, NNAV_DIFF_REMOVED);
    assert_int_equal(e0->a, node_of(&p, 0, "extra"));
    assert_int_equal(e0->b, NNAV_NONE);
    assert_int_equal(e1->what, NNAV_DIFF_INPUTS);
    assert_int_equal(e1->a, node_of(&p, 0, "b"));
    const nnav_diff_totals *t = nnav_diff_totals_get(d);
    assert_int_equal(t->removed, 1);
    assert_int_equal(t->changed, 1);
    assert_int_equal(t->added + t->renamed, 0);
    assert_string_equal(summary(d), "-1 Relu, 1 Tanh changed (inputs)");
    pair_close(&p);
}

static void add_xy(tu_pb *g, int swap)
{
    int64_t d[1] = {4};
    add_node(g, "add", "Add", swap ? "y,x" : "x,y", "z", NULL);
    add_node(g, "neg", "Neg", "x", "n", NULL);
    add_io(g, 11, "x", T_FLOAT, d, 1);
    add_io(g, 11, "y", T_FLOAT, d, 1);
    add_io(g, 12, "z", T_FLOAT, d, 1);
    add_io(g, 12, "n", T_FLOAT, d, 1);
}

static void test_inputs_reordered(void **state)
{
    (void)state;
    pair p;
    tu_pb ga = {0}, gb = {0};
    add_xy(&ga, 0);
    add_xy(&gb, 1);
    pair_graphs(&p, "reordered", &ga, &gb);
    pair_run(&p, NULL);
    const nnav_diff *d = p.d;
    assert_int_equal(nnav_diff_node_count(d), 1);
    const nnav_diff_node *e = entry_of(&p, 0, "add");
    assert_int_equal(e->what, NNAV_DIFF_INPUTS);
    assert_int_equal(e->b, node_of(&p, 1, "add"));
    assert_int_equal(nnav_diff_input_same(d, e, 0), 0);
    assert_int_equal(nnav_diff_input_same(d, e, 1), 0);
    assert_int_equal(nnav_diff_input_same(d, e, 2), 0); /* a slot neither has */
    assert_int_equal(nnav_diff_node_what(d, 0, node_of(&p, 0, "neg")), 0);
    assert_int_equal(nnav_diff_io_count(d), 0);
    assert_string_equal(summary(d), "1 Add changed (inputs)");
    pair_close(&p);
}

/* The attribute of node n named name, or NNAV_NONE. */
static uint32_t attr_named(const nnav_model *m, uint32_t n, const char *name)
{
    const nnav_node *node = nnav_node_get(m, n);
    for (uint32_t i = 0; i < node->attr_count; i++)
        if (nnav_span_eqs(nnav_attr_get(m, node->attr_first + i)->name, name))
            return node->attr_first + i;
    return NNAV_NONE;
}

static void test_attrs(void **state)
{
    (void)state;
    pair p;
    tu_pb ga = {0}, gb = {0}, at = {0};
    static const float w[4] = {1, 2, 3, 4};
    int64_t d[2] = {2, 2};
    /* A: kernel_shape [1,1], strides [1,1], group 1, alpha 0.5 */
    attr_ints(&at, "kernel_shape", 1, 1);
    attr_ints(&at, "strides", 1, 1);
    attr_int(&at, "group", 1);
    add_node(&ga, "conv", "Conv", "x,W", "c", &at);
    attr_float(&at, "alpha", 0.5f);
    add_node(&ga, "leaky", "LeakyRelu", "c", "y", &at);
    /* B: kernel_shape the same, strides [2,2], no group, dilations [1,1]
     * added; alpha the same bytes. */
    attr_ints(&at, "kernel_shape", 1, 1);
    attr_ints(&at, "strides", 2, 2);
    attr_ints(&at, "dilations", 1, 1);
    add_node(&gb, "conv", "Conv", "x,W", "c", &at);
    attr_float(&at, "alpha", 0.5f);
    add_node(&gb, "leaky", "LeakyRelu", "c", "y", &at);
    for (int s = 0; s < 2; s++) {
        tu_pb *g = s ? &gb : &ga;
        add_f32(g, "W", 2, 2, w);
        add_io(g, 11, "x", T_FLOAT, d, 2);
        add_io(g, 12, "y", T_FLOAT, d, 2);
    }
    pair_graphs(&p, "attrs", &ga, &gb);
    pair_run(&p, NULL);
    const nnav_diff *d_ = p.d;
    assert_int_equal(nnav_diff_node_count(d_), 1);
    const nnav_diff_node *e = entry_of(&p, 0, "conv");
    assert_int_equal(e->what, NNAV_DIFF_ATTRS);
    assert_int_equal(e->attr_count, 3);
    uint32_t na = e->a, nb = e->b;
    uint32_t want[3][2] = {
        {attr_named(p.m[0], na, "strides"), attr_named(p.m[1], nb, "strides")},
        {attr_named(p.m[0], na, "group"), NNAV_NONE},
        {NNAV_NONE, attr_named(p.m[1], nb, "dilations")},
    };
    assert_int_not_equal(want[0][0], NNAV_NONE);
    assert_int_not_equal(want[2][1], NNAV_NONE);
    int seen[3] = {0};
    for (uint32_t i = 0; i < e->attr_count; i++) {
        assert_true(e->attr_first + i < nnav_diff_attr_count(d_));
        const nnav_diff_attr *x = nnav_diff_attr_get(d_, e->attr_first + i);
        int hit = 0;
        for (int k = 0; k < 3; k++)
            if (x->a == want[k][0] && x->b == want[k][1])
                seen[k]++, hit = 1;
        if (!hit)
            fail_msg("unexpected attribute pair %u/%u", x->a, x->b);
    }
    assert_true(seen[0] == 1 && seen[1] == 1 && seen[2] == 1);
    assert_int_equal(nnav_diff_node_what(p.d, 1, node_of(&p, 1, "leaky")), 0);
    assert_string_equal(summary(d_), "1 Conv changed (attributes)");
    pair_close(&p);
}

static void test_op_changed(void **state)
{
    (void)state;
    pair p;
    tu_pb ga = {0}, gb = {0};
    int64_t d[1] = {4};
    add_node(&ga, "first", "Relu", "x", "v", NULL);
    add_node(&ga, "act", "Relu", "v", "y", NULL);
    add_node(&gb, "first", "Relu", "x", "v", NULL);
    add_node(&gb, "act", "Sigmoid", "v", "y", NULL);
    for (int s = 0; s < 2; s++) {
        add_io(s ? &gb : &ga, 11, "x", T_FLOAT, d, 1);
        add_io(s ? &gb : &ga, 12, "y", T_FLOAT, d, 1);
    }
    pair_graphs(&p, "op", &ga, &gb);
    pair_run(&p, NULL);
    assert_int_equal(nnav_diff_node_count(p.d), 1);
    const nnav_diff_node *e = nnav_diff_node_get(p.d, 0);
    assert_int_equal(e->what, NNAV_DIFF_OP);
    assert_int_equal(e->a, node_of(&p, 0, "act"));
    assert_int_equal(e->b, node_of(&p, 1, "act"));
    const nnav_diff_totals *t = nnav_diff_totals_get(p.d);
    assert_int_equal(t->changed, 1);
    assert_int_equal(t->added + t->removed + t->renamed, 0);
    assert_int_equal(nnav_diff_node_what(p.d, 0, node_of(&p, 0, "first")), 0);
    assert_int_equal(nnav_diff_opsum_count(p.d), 1);
    const nnav_diff_opsum *o = nnav_diff_opsum_get(p.d, 0);
    tu_assert_span(o->op, "Sigmoid"); /* B's spelling */
    assert_int_equal(o->changed, 1);
    assert_int_equal(o->changed_what, NNAV_DIFF_OP);
    pair_close(&p);
}

/* x -> Conv(x, W, B) -> y, W float[2,3] and B float[2] as given. */
static void weights_net(tu_pb *g, const float *w, const float *b)
{
    int64_t d[2] = {1, 3}, bd[1] = {2};
    add_node(g, "conv", "Conv", "x,W,B", "y", NULL);
    add_f32(g, "W", 2, 3, w);
    add_init(g, "B", T_FLOAT, bd, 1, b, 2 * sizeof(float));
    add_io(g, 11, "x", T_FLOAT, d, 2);
    add_io(g, 12, "y", T_FLOAT, d, 2);
}

static const nnav_diff_tensor *only_tensor(const pair *p)
{
    assert_int_equal(nnav_diff_tensor_count(p->d), 1);
    return nnav_diff_tensor_get(p->d, 0);
}

static void test_values(void **state)
{
    (void)state;
    pair p;
    tu_pb ga = {0}, gb = {0};
    static const float wa[6] = {1, 2, 3, 4, 5, 6}, wb[6] = {1, 2, 3, 4, 5.5f, 6};
    static const float b[2] = {0.25f, 0.75f};
    weights_net(&ga, wa, b);
    weights_net(&gb, wb, b);
    pair_graphs(&p, "values", &ga, &gb);
    pair_run(&p, NULL);
    const nnav_diff *d = p.d;
    const nnav_diff_tensor *t = only_tensor(&p);
    assert_int_equal(t->what, NNAV_DIFF_VALUES);
    assert_int_equal(t->a, tu_tensor(p.m[0], "W"));
    assert_int_equal(t->b, tu_tensor(p.m[1], "W"));
    assert_int_equal(t->ndiff, 1);
    assert_true(t->max_abs == 0.5);
    assert_int_equal(t->at_abs, 4);
    assert_true(t->a_at_abs == 5.0);
    assert_true(t->b_at_abs == 5.5);
    /* float32 weights: the differences are float32 numbers (diff.h). */
    assert_int_equal(t->narrow, 1);
    assert_true(t->max_rel == (double)(0.5f / 5.0f));
    assert_int_equal(t->at_rel, 4);
    assert_null(t->note);
    assert_int_equal(nnav_diff_tensor_entry(d, 0, t->a), 0);
    assert_int_equal(nnav_diff_tensor_peer(d, 1, t->b), t->a);
    assert_int_equal(nnav_diff_tensor_entry(d, 1, tu_tensor(p.m[1], "B")), NNAV_NONE);
    /* The consumer reads the same initializer: nothing about the node. */
    assert_int_equal(nnav_diff_node_count(d), 0);
    assert_int_equal(nnav_diff_totals_get(d)->tensors_changed, 1);
    assert_int_equal(nnav_diff_totals_get(d)->same, 1);
    assert_int_equal(nnav_diff_totals_get(d)->bytes_compared, 32);
    tu_assert_contains(summary(d), "1 initializer");
    tu_assert_contains(summary(d), "changed (values)");

    /* A tolerance below the difference keeps it; at or above, equal. */
    nnav_diff_opts o = {0};
    o.tolerance = 0.4;
    pair_run(&p, &o);
    assert_int_equal(only_tensor(&p)->what, NNAV_DIFF_VALUES);
    assert_int_equal(only_tensor(&p)->ndiff, 1);
    o.tolerance = 0.5;
    pair_run(&p, &o);
    assert_no_differences(&p);
    o.tolerance = 0.6;
    pair_run(&p, &o);
    assert_no_differences(&p);
    /* Structure only: the payloads are not read. */
    memset(&o, 0, sizeof o);
    o.no_values = 1;
    pair_run(&p, &o);
    assert_no_differences(&p);
    assert_int_equal(nnav_diff_totals_get(p.d)->bytes_compared, 0);
    pair_close(&p);
}

/* The largest absolute and relative differences at different elements, and
 * a tensor whose only change is where A holds 0 (no relative difference). */
static void test_relative(void **state)
{
    (void)state;
    pair p;
    tu_pb ga = {0}, gb = {0};
    static const float wa[6] = {100, 0.125f, 0, 3, -2, 7}, wb[6] = {101, 0.25f, 5, 3, -2, 7};
    static const float ba[2] = {0, 1}, bb[2] = {-3, 1};
    weights_net(&ga, wa, ba);
    weights_net(&gb, wb, bb);
    pair_graphs(&p, "relative", &ga, &gb);
    pair_run(&p, NULL);
    assert_int_equal(nnav_diff_tensor_count(p.d), 2);
    assert_int_equal(nnav_diff_node_count(p.d), 0);
    const nnav_diff_tensor *w = NULL, *b = NULL;
    for (size_t i = 0; i < 2; i++) {
        const nnav_diff_tensor *t = nnav_diff_tensor_get(p.d, i);
        if (t->a == tu_tensor(p.m[0], "W"))
            w = t;
        else if (t->a == tu_tensor(p.m[0], "B"))
            b = t;
    }
    assert_non_null(w);
    assert_non_null(b);
    assert_int_equal(w->what, NNAV_DIFF_VALUES);
    assert_int_equal(w->ndiff, 3);
    assert_true(w->max_abs == 5.0);
    assert_int_equal(w->at_abs, 2);
    assert_true(w->a_at_abs == 0.0 && w->b_at_abs == 5.0);
    assert_true(w->max_rel == 1.0); /* |0.25 - 0.125| / 0.125 */
    assert_int_equal(w->at_rel, 1);
    assert_int_equal(b->what, NNAV_DIFF_VALUES);
    assert_int_equal(b->ndiff, 1);
    assert_true(b->max_abs == 3.0);
    assert_int_equal(b->at_abs, 0);
    assert_true(b->a_at_abs == 0.0 && b->b_at_abs == -3.0);
    assert_true(b->max_rel == -1); /* A is 0 wherever they differ */
    tu_assert_contains(summary(p.d), "2 initializers changed (values)");
    pair_close(&p);
}

/* Elements whose bytes differ but whose values do not, and the reverse of
 * what a double can hold: NaN in the same place on both sides is not a
 * difference, -0 against +0 is none, int64 values past 2^53 that differ by
 * one are told apart, and a float16 element. */
static void test_value_edges(void **state)
{
    (void)state;
    pair p;
    tu_pb ga = {0}, gb = {0};
    int64_t d3[1] = {3}, d2[1] = {2}, d4[1] = {4}, x[1] = {3};
    const float fa[3] = {NAN, 1, 2}, fb[3] = {NAN, 1, 2.5f};
    const float za[2] = {0.0f, 1}, zb[2] = {-0.0f, 1};
    const int64_t ia[2] = {(int64_t)1 << 60, 7}, ib[2] = {((int64_t)1 << 60) + 1, 7};
    const uint16_t ha[4] = {0x3c00, 0x4000, 0x4200, 0x4400}; /* 1 2 3 4 */
    const uint16_t hb[4] = {0x3c00, 0x4000, 0x4300, 0x4400}; /* 1 2 3.5 4 */
    for (int s = 0; s < 2; s++) {
        tu_pb *g = s ? &gb : &ga;
        add_node(g, "a1", "Add", "x,nan", "y1", NULL);
        add_node(g, "a2", "Add", "x,zero", "y2", NULL);
        add_node(g, "a3", "Add", "x,big", "y3", NULL);
        add_node(g, "a4", "Add", "x,half", "y4", NULL);
        add_init(g, "nan", T_FLOAT, d3, 1, s ? fb : fa, sizeof fa);
        add_init(g, "zero", T_FLOAT, d2, 1, s ? zb : za, sizeof za);
        add_init(g, "big", T_INT64, d2, 1, s ? ib : ia, sizeof ia);
        add_init(g, "half", T_FLOAT16, d4, 1, s ? hb : ha, sizeof ha);
        add_io(g, 11, "x", T_FLOAT, x, 1);
        add_io(g, 12, "y1", T_FLOAT, x, 1);
    }
    pair_graphs(&p, "edges", &ga, &gb);
    pair_run(&p, NULL);
    const nnav_diff *d = p.d;
    const nnav_diff_tensor *t =
        nnav_diff_tensor_get(d, nnav_diff_tensor_entry(d, 0, tu_tensor(p.m[0], "nan")));
    assert_int_equal(t->what, NNAV_DIFF_VALUES);
    assert_int_equal(t->ndiff, 1);
    assert_true(t->max_abs == 0.5);
    assert_int_equal(t->at_abs, 2);
    assert_int_equal(nnav_diff_tensor_entry(d, 0, tu_tensor(p.m[0], "zero")), NNAV_NONE);
    t = nnav_diff_tensor_get(d, nnav_diff_tensor_entry(d, 0, tu_tensor(p.m[0], "big")));
    assert_int_equal(t->what, NNAV_DIFF_VALUES);
    assert_int_equal(t->ndiff, 1);
    assert_int_equal(t->at_abs, 0);
    assert_true(t->max_abs == 1.0);
    assert_int_equal(t->narrow, 0);
    t = nnav_diff_tensor_get(d, nnav_diff_tensor_entry(d, 0, tu_tensor(p.m[0], "half")));
    assert_int_equal(t->what, NNAV_DIFF_VALUES);
    assert_int_equal(t->ndiff, 1);
    assert_int_equal(t->at_abs, 2);
    assert_true(t->max_abs == 0.5);
    assert_true(t->a_at_abs == 3.0 && t->b_at_abs == 3.5);
    assert_int_equal(t->narrow, 1);
    assert_int_equal(nnav_diff_tensor_count(d), 3);
    assert_int_equal(nnav_diff_node_count(d), 0);
    pair_close(&p);
}

/* The external-data sample copied twice; in the second copy's data file
 * fc1.bias[5] is 1.5 where the first holds 1.0. Then the second copy's data
 * file is cut short: its values cannot be compared, which is said. */
static void test_external_values(void **state)
{
    (void)state;
    size_t n, nd;
    uint8_t *onnx = tu_read(tu_sample("external.onnx"), &n);
    uint8_t *data = tu_read(tu_sample("external.onnx.data"), &nd);
    assert_true(nd >= 32768 + 512);
    const char *dir[2] = {tu_tmpdir("diff_ext_a"), tu_tmpdir("diff_ext_b")};
    for (int s = 0; s < 2; s++) {
        float v = s ? 1.5f : 1.0f;
        memcpy(data + 32768 + 5 * 4, &v, 4); /* little-endian host, as the file */
        tu_write(tu_join(dir[s], "external.onnx"), onnx, n);
        tu_write(tu_join(dir[s], "external.onnx.data"), data, nd);
    }
    pair p = {{tu_open(tu_join(dir[0], "external.onnx")),
               tu_open(tu_join(dir[1], "external.onnx"))}, NULL};
    pair_run(&p, NULL);
    assert_int_equal(nnav_diff_tensor_count(p.d), 1);
    const nnav_diff_tensor *t = nnav_diff_tensor_get(p.d, 0);
    assert_int_equal(t->a, tu_tensor(p.m[0], "fc1.bias"));
    assert_int_equal(t->what, NNAV_DIFF_VALUES);
    assert_int_equal(t->ndiff, 1);
    assert_int_equal(t->at_abs, 5);
    assert_true(t->max_abs == 0.5);
    assert_true(t->a_at_abs == 1.0 && t->b_at_abs == 1.5);
    assert_int_equal(nnav_diff_node_count(p.d), 0);
    /* Every external payload was compared (32768 + 512 + 5120) and fc2.bias. */
    assert_int_equal(nnav_diff_totals_get(p.d)->bytes_compared, 32768 + 512 + 5120 + 40);
    pair_close(&p);

    /* B's data file stops inside fc1.weight: its values are unread, with a
     * note, or the comparison fails as bad input. */
    tu_write(tu_join(dir[1], "external.onnx.data"), data, 1000);
    p.m[0] = tu_open(tu_join(dir[0], "external.onnx"));
    p.m[1] = tu_open(tu_join(dir[1], "external.onnx"));
    nnav_diff_opts o = {0};
    nnav_error err;
    memset(&err, 0, sizeof err);
    p.d = NULL;
    if (nnav_diff_run(p.m[0], p.m[1], &o, &p.d, &err) == 0) {
        uint32_t e = nnav_diff_tensor_entry(p.d, 0, tu_tensor(p.m[0], "fc1.weight"));
        assert_int_not_equal(e, NNAV_NONE);
        t = nnav_diff_tensor_get(p.d, e);
        assert_true(t->what & NNAV_DIFF_UNREAD);
        assert_non_null(t->note);
        assert_true(t->note[0] != 0);
        assert_true(nnav_diff_any(p.d));
    } else {
        assert_int_equal(err.kind, NNAV_ERR_INPUT);
        assert_true(err.msg[0] != 0);
    }
    pair_close(&p);
    free(onnx);
    free(data);
}

/* W renamed with the same bytes: RENAMED only. B renamed and changed in one
 * element: matched through its consumer's slot, RENAMED and VALUES. */
static void test_tensor_renamed(void **state)
{
    (void)state;
    pair p;
    tu_pb ga = {0}, gb = {0};
    static const float w[6] = {1, 2, 3, 4, 5, 6}, v[2] = {9, 10}, v2[2] = {9, 10.5f};
    int64_t d[2] = {1, 3}, bd[1] = {2};
    add_node(&ga, "conv", "Conv", "x,conv.weight,conv.bias", "y", NULL);
    add_f32(&ga, "conv.weight", 2, 3, w);
    add_init(&ga, "conv.bias", T_FLOAT, bd, 1, v, sizeof v);
    add_node(&gb, "conv", "Conv", "x,onnx::Conv_5,onnx::Conv_6", "y", NULL);
    add_init(&gb, "onnx::Conv_6", T_FLOAT, bd, 1, v2, sizeof v2);
    add_f32(&gb, "onnx::Conv_5", 2, 3, w);
    for (int s = 0; s < 2; s++) {
        add_io(s ? &gb : &ga, 11, "x", T_FLOAT, d, 2);
        add_io(s ? &gb : &ga, 12, "y", T_FLOAT, d, 2);
    }
    pair_graphs(&p, "trenamed", &ga, &gb);
    pair_run(&p, NULL);
    const nnav_diff *dd = p.d;
    uint32_t wa = tu_tensor(p.m[0], "conv.weight"), wb = tu_tensor(p.m[1], "onnx::Conv_5");
    uint32_t ba = tu_tensor(p.m[0], "conv.bias"), bb = tu_tensor(p.m[1], "onnx::Conv_6");
    assert_int_equal(nnav_diff_tensor_peer(dd, 0, wa), wb);
    assert_int_equal(nnav_diff_tensor_peer(dd, 1, wb), wa);
    assert_int_equal(nnav_diff_tensor_peer(dd, 0, ba), bb);
    assert_int_equal(nnav_diff_tensor_count(dd), 2);
    const nnav_diff_tensor *tw = nnav_diff_tensor_get(dd, nnav_diff_tensor_entry(dd, 0, wa));
    assert_int_equal(tw->what, NNAV_DIFF_RENAMED);
    assert_int_equal(tw->b, wb);
    const nnav_diff_tensor *tb = nnav_diff_tensor_get(dd, nnav_diff_tensor_entry(dd, 1, bb));
    assert_int_equal(tb->what, NNAV_DIFF_RENAMED | NNAV_DIFF_VALUES);
    assert_int_equal(tb->a, ba);
    assert_int_equal(tb->ndiff, 1);
    assert_int_equal(tb->at_abs, 1);
    assert_true(tb->max_abs == 0.5);
    /* The initializers follow the consumer: its inputs read matching values. */
    assert_int_equal(nnav_diff_node_count(dd), 0);
    const nnav_diff_totals *t = nnav_diff_totals_get(dd);
    assert_int_equal(t->tensors_renamed + t->tensors_changed, 2);
    assert_int_equal(t->tensors_added + t->tensors_removed, 0);
    pair_close(&p);
}

static void test_dtype_shape(void **state)
{
    (void)state;
    pair p;
    tu_pb ga = {0}, gb = {0};
    static const float w[6] = {1, 2, 3, 4, 5, 6}, b[2] = {0, 1};
    static const double wd[6] = {1, 2, 3, 4, 5, 6};
    int64_t d[2] = {1, 3}, bd[1] = {2}, b12[2] = {1, 2}, w23[2] = {2, 3};
    add_node(&ga, "conv", "Conv", "x,W,B", "y", NULL);
    add_f32(&ga, "W", 2, 3, w);
    add_init(&ga, "B", T_FLOAT, bd, 1, b, sizeof b);
    add_node(&gb, "conv", "Conv", "x,W,B", "y", NULL);
    add_init(&gb, "W", T_DOUBLE, w23, 2, wd, sizeof wd); /* dtype changed */
    add_init(&gb, "B", T_FLOAT, b12, 2, b, sizeof b);    /* dims [2] -> [1,2] */
    for (int s = 0; s < 2; s++) {
        add_io(s ? &gb : &ga, 11, "x", T_FLOAT, d, 2);
        add_io(s ? &gb : &ga, 12, "y", T_FLOAT, d, 2);
    }
    pair_graphs(&p, "dtype", &ga, &gb);
    pair_run(&p, NULL);
    assert_int_equal(nnav_diff_tensor_count(p.d), 2);
    const nnav_diff_tensor *tw =
        nnav_diff_tensor_get(p.d, nnav_diff_tensor_entry(p.d, 0, tu_tensor(p.m[0], "W")));
    const nnav_diff_tensor *tb =
        nnav_diff_tensor_get(p.d, nnav_diff_tensor_entry(p.d, 0, tu_tensor(p.m[0], "B")));
    assert_true(tw->what & NNAV_DIFF_DTYPE);
    assert_false(tw->what & (NNAV_DIFF_SHAPE | NNAV_DIFF_RENAMED | NNAV_DIFF_ADDED));
    assert_int_equal(tw->b, tu_tensor(p.m[1], "W"));
    assert_true(tb->what & NNAV_DIFF_SHAPE);
    assert_false(tb->what & (NNAV_DIFF_DTYPE | NNAV_DIFF_RENAMED | NNAV_DIFF_ADDED));
    assert_int_equal(nnav_diff_node_count(p.d), 0);
    /* The same under no_values. */
    nnav_diff_opts o = {0};
    o.no_values = 1;
    pair_run(&p, &o);
    assert_int_equal(nnav_diff_tensor_count(p.d), 2);
    tw = nnav_diff_tensor_get(p.d, nnav_diff_tensor_entry(p.d, 0, tu_tensor(p.m[0], "W")));
    assert_true(tw->what & NNAV_DIFF_DTYPE);
    pair_close(&p);
}

static void test_io(void **state)
{
    (void)state;
    pair p;
    tu_pb ga = {0}, gb = {0};
    int64_t d13[2] = {1, 3}, d14[2] = {1, 4};
    for (int s = 0; s < 2; s++) {
        tu_pb *g = s ? &gb : &ga;
        add_node(g, "add", "Add", "x,z", "y", NULL);
        add_io(g, 11, "x", s ? T_FLOAT16 : T_FLOAT, d13, 2); /* dtype changed */
        add_io(g, 11, "z", T_FLOAT, s ? d14 : d13, 2);       /* shape changed */
        add_io(g, 12, "y", T_FLOAT, d13, 2);                 /* the same */
    }
    pair_graphs(&p, "io", &ga, &gb);
    pair_run(&p, NULL);
    assert_true(nnav_diff_any(p.d));
    assert_int_equal(nnav_diff_io_count(p.d), 2);
    int seen = 0;
    for (size_t i = 0; i < 2; i++) {
        const nnav_diff_io *io = nnav_diff_io_get(p.d, i);
        assert_int_equal(io->output, 0);
        assert_int_equal(io->graph, 0);
        if (io->a == value_of(&p, 0, "x")) {
            assert_int_equal(io->b, value_of(&p, 1, "x"));
            assert_int_equal(io->what, NNAV_DIFF_DTYPE);
            seen |= 1;
        } else {
            assert_int_equal(io->a, value_of(&p, 0, "z"));
            assert_int_equal(io->b, value_of(&p, 1, "z"));
            assert_int_equal(io->what, NNAV_DIFF_SHAPE);
            seen |= 2;
        }
    }
    assert_int_equal(seen, 3);
    assert_int_equal(nnav_diff_totals_get(p.d)->io_changed, 2);
    assert_int_equal(nnav_diff_node_count(p.d), 0);
    tu_assert_contains(summary(p.d), "2 graph inputs/outputs changed");
    pair_close(&p);
}

/* An If whose then-branch holds a Relu, or (changed) a Relu with an
 * extra Neg after it; the else-branch the same on both sides. */
static void if_net(tu_pb *g, int changed)
{
    tu_pb then_b = {0}, else_b = {0}, at = {0};
    int64_t d[1] = {4}, one[1] = {1};
    if (changed) {
        add_node(&then_b, "t_relu", "Relu", "x", "t_mid", NULL);
        add_node(&then_b, "t_neg", "Neg", "t_mid", "t_out", NULL);
    } else {
        add_node(&then_b, "t_relu", "Relu", "x", "t_out", NULL);
    }
    tu_pb_str(&then_b, 2, "then");
    add_io(&then_b, 12, "t_out", T_FLOAT, d, 1);
    add_node(&else_b, "e_sig", "Sigmoid", "x", "e_out", NULL);
    tu_pb_str(&else_b, 2, "else");
    add_io(&else_b, 12, "e_out", T_FLOAT, d, 1);
    attr_graph(&at, "then_branch", &then_b);
    attr_graph(&at, "else_branch", &else_b);
    add_node(g, "cond", "If", "c", "y", &at);
    add_io(g, 11, "c", 9 /* BOOL */, one, 1);
    add_io(g, 11, "x", T_FLOAT, d, 1);
    add_io(g, 12, "y", T_FLOAT, d, 1);
}

static void test_if_body(void **state)
{
    (void)state;
    pair p;
    tu_pb ga = {0}, gb = {0};
    if_net(&ga, 0);
    if_net(&gb, 1);
    pair_graphs(&p, "ifbody", &ga, &gb);
    pair_run(&p, NULL);
    const nnav_diff *d = p.d;
    assert_int_equal(nnav_diff_graph_count(d), 3);
    uint32_t then_a = tu_graph(p.m[0], "/cond/then_branch");
    uint32_t then_b = tu_graph(p.m[1], "/cond/then_branch");
    uint32_t else_a = tu_graph(p.m[0], "/cond/else_branch");
    uint32_t ge = nnav_diff_graph_of(d, 0, then_a);
    assert_int_not_equal(ge, NNAV_NONE);
    assert_int_equal(nnav_diff_graph_of(d, 1, then_b), ge);
    const nnav_diff_graph *g = nnav_diff_graph_get(d, ge);
    assert_int_equal(g->a, then_a);
    assert_int_equal(g->b, then_b);
    assert_int_equal(g->what, 0);
    assert_int_equal(g->added, 1);
    assert_int_equal(g->same, 1);
    assert_int_equal(g->node_count, 1);
    const nnav_diff_node *e = nnav_diff_node_get(d, g->node_first);
    assert_int_equal(e->what, NNAV_DIFF_ADDED);
    assert_int_equal(e->graph, ge);
    assert_int_equal(e->b, tu_node(p.m[1], then_b, "t_neg"));
    assert_int_equal(nnav_diff_node_count(d), 1);
    /* The If itself is not changed: its bodies are compared as graphs. */
    assert_int_equal(nnav_diff_node_what(d, 0, node_of(&p, 0, "cond")), 0);
    assert_int_equal(nnav_diff_graph_get(d, nnav_diff_graph_of(d, 0, 0))->node_count, 0);
    const nnav_diff_graph *ee = nnav_diff_graph_get(d, nnav_diff_graph_of(d, 0, else_a));
    assert_int_equal(ee->node_count, 0);
    assert_int_equal(ee->same, 1);
    assert_string_equal(summary(d), "+1 Neg");
    pair_close(&p);
}

/* A model with a local function local.Scale(X) = Mul(X, X) then LeakyRelu
 * (alpha 0.1, or 0.2 when changed), called once from the main graph. */
static void fn_model(tu_pb *model, int changed)
{
    tu_pb graph = {0}, fn = {0}, op = {0}, at = {0};
    int64_t d[1] = {4};
    tu_pb_int(model, 1, 8);
    tu_pb_str(&op, 1, "");
    tu_pb_int(&op, 2, 17);
    tu_pb_msg(model, 8, &op);
    tu_pb_str(&op, 1, "local");
    tu_pb_int(&op, 2, 1);
    tu_pb_msg(model, 8, &op);
    tu_pb node = {0};
    tu_pb_node(&node, "call", "Scale", "x", "y");
    tu_pb_str(&node, 7, "local");
    tu_pb_msg(&graph, 1, &node);
    tu_pb_str(&graph, 2, "main");
    add_io(&graph, 11, "x", T_FLOAT, d, 1);
    add_io(&graph, 12, "y", T_FLOAT, d, 1);
    tu_pb_msg(model, 7, &graph);
    /* FunctionProto: name 1, input 4, output 5, node 7, opset_import 9, domain 10 */
    tu_pb_str(&fn, 1, "Scale");
    tu_pb_str(&fn, 4, "X");
    tu_pb_str(&fn, 5, "Y");
    tu_pb_node(&node, "f_mul", "Mul", "X,X", "M");
    tu_pb_msg(&fn, 7, &node);
    attr_float(&at, "alpha", changed ? 0.2f : 0.1f);
    tu_pb_node(&node, "f_leaky", "LeakyRelu", "M", "Y");
    tu_pb_raw(&node, at.p, at.n);
    tu_pb_free(&at);
    tu_pb_msg(&fn, 7, &node);
    tu_pb_str(&op, 1, "");
    tu_pb_int(&op, 2, 17);
    tu_pb_msg(&fn, 9, &op);
    tu_pb_str(&fn, 10, "local");
    tu_pb_msg(model, 25, &fn);
}

static void test_function_body(void **state)
{
    (void)state;
    pair p;
    tu_pb ma = {0}, mb = {0};
    fn_model(&ma, 0);
    fn_model(&mb, 1);
    pair_write(&p, "function", &ma, &mb);
    pair_run(&p, NULL);
    const nnav_diff *d = p.d;
    uint32_t fa = tu_graph(p.m[0], "@Scale"), fb = tu_graph(p.m[1], "@Scale");
    uint32_t ge = nnav_diff_graph_of(d, 0, fa);
    assert_int_not_equal(ge, NNAV_NONE);
    const nnav_diff_graph *g = nnav_diff_graph_get(d, ge);
    assert_int_equal(g->a, fa);
    assert_int_equal(g->b, fb);
    assert_int_equal(g->node_count, 1);
    assert_int_equal(g->changed, 1);
    assert_int_equal(g->same, 1);
    const nnav_diff_node *e = nnav_diff_node_get(d, g->node_first);
    assert_int_equal(e->what, NNAV_DIFF_ATTRS);
    assert_int_equal(e->a, tu_node(p.m[0], fa, "f_leaky"));
    assert_int_equal(e->b, tu_node(p.m[1], fb, "f_leaky"));
    assert_int_equal(e->attr_count, 1);
    const nnav_diff_attr *x = nnav_diff_attr_get(d, e->attr_first);
    tu_assert_span(nnav_attr_get(p.m[0], x->a)->name, "alpha");
    tu_assert_span(nnav_attr_get(p.m[1], x->b)->name, "alpha");
    /* The caller and the main graph are untouched. */
    assert_int_equal(nnav_diff_node_count(d), 1);
    assert_int_equal(nnav_diff_node_what(d, 0, node_of(&p, 0, "call")), 0);
    assert_int_equal(nnav_diff_fact_count(d), 0);
    pair_close(&p);
}

/* ir_version 8 -> 9, opset 17 -> 18, producer, metadata: one changed, one
 * added, one the same. */
static void facts_model(tu_pb *model, int b)
{
    tu_pb graph = {0}, op = {0}, kv = {0};
    int64_t d[1] = {4};
    tu_pb_int(model, 1, b ? 9 : 8);
    tu_pb_str(model, 2, b ? "exporter-b" : "exporter-a");
    tu_pb_str(model, 3, "1.0");
    tu_pb_str(&op, 1, "");
    tu_pb_int(&op, 2, b ? 18 : 17);
    tu_pb_msg(model, 8, &op);
    add_node(&graph, "r", "Relu", "x", "y", NULL);
    tu_pb_str(&graph, 2, "g");
    add_io(&graph, 11, "x", T_FLOAT, d, 1);
    add_io(&graph, 12, "y", T_FLOAT, d, 1);
    tu_pb_msg(model, 7, &graph);
    tu_pb_str(&kv, 1, "author");
    tu_pb_str(&kv, 2, b ? "bob" : "alice");
    tu_pb_msg(model, 14, &kv);
    tu_pb_str(&kv, 1, "license");
    tu_pb_str(&kv, 2, "mit");
    tu_pb_msg(model, 14, &kv);
    if (b) {
        tu_pb_str(&kv, 1, "note");
        tu_pb_str(&kv, 2, "fine-tuned");
        tu_pb_msg(model, 14, &kv);
    }
}

static const nnav_diff_fact *fact_with(const nnav_diff *d, const char *a, const char *b)
{
    for (size_t i = 0; i < nnav_diff_fact_count(d); i++) {
        const nnav_diff_fact *f = nnav_diff_fact_get(d, i);
        if (((!a && !f->a) || (a && f->a && strstr(f->a, a))) &&
            ((!b && !f->b) || (b && f->b && strstr(f->b, b))))
            return f;
    }
    fail_msg("no fact %s -> %s", a ? a : "(none)", b ? b : "(none)");
    return NULL;
}

static void test_facts(void **state)
{
    (void)state;
    pair p;
    tu_pb ma = {0}, mb = {0};
    facts_model(&ma, 0);
    facts_model(&mb, 1);
    pair_write(&p, "facts", &ma, &mb);
    pair_run(&p, NULL);
    const nnav_diff *d = p.d;
    assert_true(nnav_diff_any(d));
    assert_int_equal(nnav_diff_fact_count(d), 5);
    assert_int_equal(nnav_diff_totals_get(d)->facts, 5);
    const nnav_diff_fact *f = fact_with(d, "8", "9");
    assert_string_equal(f->key, "ir_version");
    assert_string_equal(f->a, "8");
    f = fact_with(d, "17", "18");
    assert_string_equal(f->key, "opset ai.onnx");
    fact_with(d, "exporter-a", "exporter-b");
    f = fact_with(d, "alice", "bob");
    assert_string_equal(f->key, "metadata author");
    f = fact_with(d, NULL, "fine-tuned");
    assert_string_equal(f->key, "metadata note");
    assert_int_equal(nnav_diff_node_count(d), 0);
    tu_assert_contains(summary(d), "5 model facts changed");
    pair_close(&p);
}

static void test_formats_differ(void **state)
{
    (void)state;
    nnav_model *a = tu_open(tu_sample("cnn.onnx"));
    nnav_model *b = tu_open(tu_sample("tf_graph.pb"));
    nnav_diff *d = (nnav_diff *)1;
    nnav_error err;
    memset(&err, 0, sizeof err);
    nnav_diff_opts o = {0};
    assert_int_equal(nnav_diff_run(a, b, &o, &d, &err), -1);
    assert_int_equal(err.kind, NNAV_ERR_USAGE);
    assert_true(err.msg[0] != 0);
    memset(&err, 0, sizeof err);
    assert_int_equal(nnav_diff_run(b, a, &o, &d, &err), -1);
    assert_int_equal(err.kind, NNAV_ERR_USAGE);
    nnav_model_close(a);
    nnav_model_close(b);
}

/* The bundled samples against themselves (two opens of one file). */
static void test_samples_self(void **state)
{
    (void)state;
    static const char *names[] = {"cnn.onnx", "control_flow.onnx", "external.onnx",
                                  "tf_graph.pb"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        pair p = {{tu_open(tu_sample(names[i])), tu_open(tu_sample(names[i]))}, NULL};
        pair_run(&p, NULL);
        if (nnav_diff_any(p.d))
            fail_msg("%s differs from itself: %s", names[i], summary(p.d));
        assert_no_differences(&p);
        for (uint32_t n = 0; n < nnav_node_count(p.m[0]); n++)
            assert_int_equal(nnav_diff_node_peer(p.d, 0, n), n);
        for (uint32_t g = 0; g < nnav_graph_count(p.m[0]); g++)
            assert_int_not_equal(nnav_diff_graph_of(p.d, 0, g), NNAV_NONE);
        pair_close(&p);
    }
}

/* Two nodes named "dup", two without names; identical files differ in
 * nothing, node for node. Then B drops one nameless Relu. */
static void dup_net(tu_pb *g, int drop)
{
    int64_t d[1] = {4};
    add_node(g, "dup", "Relu", "x", "a", NULL);
    add_node(g, "dup", "Relu", "a", "b", NULL);
    add_node(g, "", "Relu", "b", "c", NULL);
    if (!drop)
        add_node(g, "", "Relu", "c", "e", NULL);
    add_node(g, NULL, "Sigmoid", drop ? "c" : "e", "y", NULL);
    add_io(g, 11, "x", T_FLOAT, d, 1);
    add_io(g, 12, "y", T_FLOAT, d, 1);
}

static void test_duplicate_and_empty_names(void **state)
{
    (void)state;
    pair p;
    tu_pb ga = {0}, gb = {0};
    dup_net(&ga, 0);
    dup_net(&gb, 0);
    pair_graphs(&p, "dup_same", &ga, &gb);
    pair_run(&p, NULL);
    assert_no_differences(&p);
    for (uint32_t n = 0; n < 5; n++)
        assert_int_equal(nnav_diff_node_peer(p.d, 0, n), n);
    pair_close(&p);

    dup_net(&ga, 0);
    dup_net(&gb, 1);
    pair_graphs(&p, "dup_drop", &ga, &gb);
    pair_run(&p, NULL);
    const nnav_diff_totals *t = nnav_diff_totals_get(p.d);
    assert_int_equal(t->removed, 1);
    assert_int_equal(t->added + t->renamed, 0);
    assert_int_equal(t->changed, 1);
    assert_int_equal(t->same, 3);
    /* Both "dup" keep their partners, the second found past the first that
     * the index's name lookup gives; a nameless Relu is the one removed. */
    assert_int_equal(nnav_diff_node_peer(p.d, 0, 0), 0);
    assert_int_equal(nnav_diff_node_what(p.d, 0, 0), 0);
    assert_int_equal(nnav_diff_node_peer(p.d, 0, 1), 1);
    assert_int_equal(nnav_diff_node_what(p.d, 0, 1), 0);
    assert_true(nnav_diff_node_what(p.d, 0, 2) & NNAV_DIFF_REMOVED ||
                nnav_diff_node_what(p.d, 0, 3) & NNAV_DIFF_REMOVED);
    tu_assert_contains(summary(p.d), "-1 Relu");
    pair_close(&p);
}

/* 10,000 nameless Relu nodes in a chain; B has one fewer. Exactly one
 * REMOVED, at most one node rewired, the rest the same. */
static void relu_chain(tu_pb *g, uint32_t n)
{
    int64_t d[1] = {4};
    char in[32], out[32];
    for (uint32_t i = 0; i < n; i++) {
        snprintf(in, sizeof in, i ? "v%u" : "x", i);
        snprintf(out, sizeof out, i + 1 < n ? "v%u" : "y", i + 1);
        add_node(g, NULL, "Relu", in, out, NULL);
    }
    add_io(g, 11, "x", T_FLOAT, d, 1);
    add_io(g, 12, "y", T_FLOAT, d, 1);
}

static void test_many_same_op(void **state)
{
    (void)state;
    enum { N = 10000 };
    pair p;
    tu_pb ga = {0}, gb = {0};
    relu_chain(&ga, N);
    relu_chain(&gb, N);
    pair_graphs(&p, "many_same", &ga, &gb);
    pair_run(&p, NULL);
    assert_no_differences(&p);
    assert_int_equal(nnav_diff_node_peer(p.d, 0, N / 2), N / 2);
    pair_close(&p);

    relu_chain(&ga, N);
    relu_chain(&gb, N - 1);
    pair_graphs(&p, "many_drop", &ga, &gb);
    pair_run(&p, NULL);
    const nnav_diff_totals *t = nnav_diff_totals_get(p.d);
    assert_int_equal(t->nodes_a, N);
    assert_int_equal(t->nodes_b, N - 1);
    assert_int_equal(t->removed, 1);
    assert_int_equal(t->added, 0);
    assert_int_equal(t->renamed, 0);
    assert_true(t->changed <= 1);
    assert_int_equal(t->same + t->changed, N - 1);
    assert_int_equal(nnav_diff_node_count(p.d), 1 + t->changed);
    uint32_t removed = 0;
    for (size_t i = 0; i < nnav_diff_node_count(p.d); i++) {
        const nnav_diff_node *e = nnav_diff_node_get(p.d, i);
        if (e->what == NNAV_DIFF_REMOVED)
            removed++;
        else
            assert_int_equal(e->what, NNAV_DIFF_INPUTS);
    }
    assert_int_equal(removed, 1);
    /* Every node of B has a partner. */
    for (uint32_t n = 0; n < N - 1; n++)
        assert_int_not_equal(nnav_diff_node_peer(p.d, 1, n), NNAV_NONE);
    pair_close(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_words),
        cmocka_unit_test(test_identical),
        cmocka_unit_test(test_renamed_all),
        cmocka_unit_test(test_unreached),
        cmocka_unit_test(test_inserted),
        cmocka_unit_test(test_removed),
        cmocka_unit_test(test_inputs_reordered),
        cmocka_unit_test(test_attrs),
        cmocka_unit_test(test_op_changed),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_relative),
        cmocka_unit_test(test_value_edges),
        cmocka_unit_test(test_external_values),
        cmocka_unit_test(test_tensor_renamed),
        cmocka_unit_test(test_dtype_shape),
        cmocka_unit_test(test_io),
        cmocka_unit_test(test_if_body),
        cmocka_unit_test(test_function_body),
        cmocka_unit_test(test_facts),
        cmocka_unit_test(test_formats_differ),
        cmocka_unit_test(test_samples_self),
        cmocka_unit_test(test_duplicate_and_empty_names),
        cmocka_unit_test(test_many_same_op),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
