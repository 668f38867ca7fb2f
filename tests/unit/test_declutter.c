/* test_declutter.c - the decluttered view (declutter.h) on models built here
 * byte by byte: a Constant (hidden, its tensor shown on the consumer), an
 * Identity chain (hidden, the producer walked through to the real node), the
 * exporter's shape chain Shape -> Gather -> Unsqueeze -> Concat -> Reshape
 * (all hidden but the Reshape, whose shape input reads as the folded value),
 * the same chain on a dynamic input (nothing folds: it all stays), and a
 * clutter node producing a graph output (it stays).
 *
 * Expected values are worked out from the models written here. */
#include "testutil.h"

#include "declutter.h"
#include "shape.h"

enum { DT_FLOAT = 1, DT_INT64 = 7 };

/* A value info of element type dt and dims "1,197,1024" (a name is a dim_param). */
static void put_value(tu_pb *graph, uint32_t field, const char *name, int dt, const char *dims)
{
    tu_pb vi = {0}, tp = {0}, tt = {0}, shape = {0};
    char buf[256];
    snprintf(buf, sizeof buf, "%s", dims);
    tu_pb_int(&tt, 1, (uint64_t)dt);
    for (char *p = buf; *p;) {
        char *c = strchr(p, ',');
        if (c)
            *c = 0;
        tu_pb dim = {0};
        if (*p >= '0' && *p <= '9')
            tu_pb_int(&dim, 1, strtoull(p, NULL, 10));
        else
            tu_pb_str(&dim, 2, p);
        tu_pb_msg(&shape, 1, &dim);
        if (!c)
            break;
        p = c + 1;
    }
    tu_pb_msg(&tt, 2, &shape);
    tu_pb_msg(&tp, 1, &tt);
    tu_pb_str(&vi, 1, name);
    tu_pb_msg(&vi, 2, &tp);
    tu_pb_msg(graph, field, &vi);
}

/* A node with an optional INT attribute or INTS attribute (n values). */
static void put_node(tu_pb *graph, const char *name, const char *op, const char *ins,
                     const char *outs, const char *attr, const int64_t *iv, int n)
{
    tu_pb node = {0};
    tu_pb_node(&node, name, op, ins, outs);
    if (attr) {
        tu_pb a = {0};
        tu_pb_str(&a, 1, attr);
        if (n < 0) {
            tu_pb_int(&a, 3, (uint64_t)iv[0]);
            tu_pb_int(&a, 20, 2); /* INT */
        } else {
            for (int i = 0; i < n; i++)
                tu_pb_int(&a, 8, (uint64_t)iv[i]);
            tu_pb_int(&a, 20, 7); /* INTS */
        }
        tu_pb_msg(&node, 5, &a);
    }
    tu_pb_msg(graph, 1, &node);
}

/* A Constant holding an int64 tensor of n values (a scalar when n < 0), or
 * a float32 tensor of n zeros when flt. */
static void put_constant(tu_pb *graph, const char *name, const char *out, const int64_t *v,
                         int n, int flt)
{
    tu_pb node = {0}, a = {0}, t = {0}, packed = {0};
    tu_pb_node(&node, name, "Constant", NULL, out);
    if (n >= 0)
        tu_pb_int(&t, 1, (uint64_t)n);
    tu_pb_int(&t, 2, flt ? DT_FLOAT : DT_INT64);
    if (flt) {
        float *z = calloc((size_t)n, sizeof *z);
        assert_non_null(z);
        tu_pb_bytes(&t, 9, z, (size_t)n * sizeof *z);
        free(z);
    } else {
        for (int i = 0; i < (n < 0 ? 1 : n); i++)
            tu_pb_varint(&packed, (uint64_t)v[i]);
        tu_pb_msg(&t, 7, &packed); /* int64_data */
    }
    tu_pb_str(&a, 1, "value");
    tu_pb_msg(&a, 5, &t);
    tu_pb_int(&a, 20, 4); /* TENSOR */
    tu_pb_msg(&node, 5, &a);
    tu_pb_msg(graph, 1, &node);
    tu_pb_free(&t);
}

typedef struct built {
    nnav_model *m;
    nnav_shapes *s;
    nnav_declutter *d;
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
    b.d = nnav_declutter_build(b.m, 0, b.s);
    assert_non_null(b.d);
    return b;
}

static void done(built *b)
{
    nnav_declutter_free(b->d);
    nnav_shapes_free(b->s);
    nnav_model_close(b->m);
}

static uint32_t node_of(built *b, const char *name)
{
    return tu_node(b->m, 0, name);
}

static uint32_t value_of(built *b, const char *name)
{
    uint32_t v = nnav_value_lookup(b->m, 0, name, strlen(name));
    if (v == NNAV_NONE)
        fail_msg("no value %s", name);
    return v;
}

static void input_text_is(built *b, const char *value, const char *want)
{
    char buf[256];
    nnav_declutter_input_text(b->d, value_of(b, value), buf, sizeof buf);
    if (strcmp(buf, want) != 0)
        fail_msg("input %s reads '%s', not '%s'", value, buf, want);
}

/* Constant (a float weight) -> MatMul: the Constant is hidden, the MatMul
 * shows it as the constant's type; the Constant stays in the file's counts. */
static void constant_hidden(void **state)
{
    (void)state;
    tu_pb g = {0};
    put_value(&g, 11, "x", DT_FLOAT, "1,4");
    put_value(&g, 12, "y", DT_FLOAT, "1,4");
    put_constant(&g, "w", "wv", NULL, 16, 1);
    /* dims [16] would not be [4,4]; reshape through a Constant shape */
    int64_t sh[2] = {4, 4};
    put_constant(&g, "wshape", "ws", sh, 2, 0);
    put_node(&g, "wr", "Reshape", "wv,ws", "w44", NULL, NULL, 0);
    put_node(&g, "mm", "MatMul", "x,w44", "y", NULL, NULL, 0);
    built b = build("decl_const", &g);
    assert_int_equal(nnav_graph_get(b.m, 0)->node_count, 4);
    assert_int_equal(nnav_declutter_why(b.d, node_of(&b, "w")), NNAV_DECL_CONSTANT);
    assert_int_equal(nnav_declutter_why(b.d, node_of(&b, "wshape")), NNAV_DECL_CONSTANT);
    /* A float Reshape does not fold: it is real work on a constant, kept. */
    assert_false(nnav_declutter_hidden(b.d, node_of(&b, "wr")));
    assert_false(nnav_declutter_hidden(b.d, node_of(&b, "mm")));
    assert_int_equal(nnav_declutter_visible(b.d), 2);
    assert_int_equal(nnav_declutter_hidden_count(b.d), 2);
    assert_int_equal(nnav_declutter_input(b.d, value_of(&b, "wv")), NNAV_DECL_IN_CONSTANT);
    input_text_is(&b, "wv", "float32[16] (constant)");
    input_text_is(&b, "ws", "[4,4] (folded)");
    input_text_is(&b, "x", "");
    assert_int_equal(nnav_declutter_input(b.d, value_of(&b, "x")), NNAV_DECL_IN_PLAIN);
    done(&b);
}

/* Relu -> Identity -> Identity -> Identity -> Add: the chain is hidden and
 * the Add's input walks back to the Relu. */
static void identity_chain(void **state)
{
    (void)state;
    tu_pb g = {0};
    put_value(&g, 11, "x", DT_FLOAT, "1,4");
    put_value(&g, 12, "y", DT_FLOAT, "1,4");
    put_node(&g, "relu", "Relu", "x", "r", NULL, NULL, 0);
    put_node(&g, "id1", "Identity", "r", "i1", NULL, NULL, 0);
    put_node(&g, "id2", "Identity", "i1", "i2", NULL, NULL, 0);
    put_node(&g, "id3", "Identity", "i2", "i3", NULL, NULL, 0);
    put_node(&g, "add", "Add", "i3,x", "y", NULL, NULL, 0);
    built b = build("decl_identity", &g);
    for (int i = 1; i <= 3; i++) {
        char nm[8];
        snprintf(nm, sizeof nm, "id%d", i);
        assert_int_equal(nnav_declutter_why(b.d, node_of(&b, nm)), NNAV_DECL_RENAME);
    }
    assert_int_equal(nnav_declutter_visible(b.d), 2);
    assert_int_equal(nnav_declutter_producer(b.d, value_of(&b, "i3")), node_of(&b, "relu"));
    assert_int_equal(nnav_declutter_source(b.d, value_of(&b, "i3")), value_of(&b, "r"));
    assert_int_equal(nnav_declutter_producer(b.d, value_of(&b, "r")), node_of(&b, "relu"));
    /* A graph input has no producer node. */
    assert_int_equal(nnav_declutter_producer(b.d, value_of(&b, "x")), NNAV_NONE);
    /* The real producer is shown: the input reads as in the file. */
    assert_int_equal(nnav_declutter_input(b.d, value_of(&b, "i3")), NNAV_DECL_IN_PLAIN);
    done(&b);
}

/* The exporter's shape chain on x of shape dims:
 *   s = Shape(x); b = Gather(s, 0); bu = Unsqueeze(b, [0]);
 *   shp = Concat(bu, [197], [16], [64]); y = Reshape(x, shp)
 * Folds when dims are numbers: Shape, Gather, Unsqueeze, Concat and the
 * Constants hide and the Reshape reads [1,197,16,64] (folded). */
static built shape_chain(const char *tag, const char *dims)
{
    tu_pb g = {0};
    put_value(&g, 11, "x", DT_FLOAT, dims);
    put_value(&g, 12, "y", DT_FLOAT, "1,197,16,64");
    int64_t zero = 0, axes0[1] = {0}, c197[1] = {197}, c16[1] = {16}, c64[1] = {64};
    put_node(&g, "/Shape", "Shape", "x", "s", NULL, NULL, 0);
    put_constant(&g, "/Constant", "idx", &zero, -1, 0);
    put_node(&g, "/Gather", "Gather", "s,idx", "b", "axis", &zero, -1);
    put_constant(&g, "/Constant_1", "axes", axes0, 1, 0);
    put_node(&g, "/Unsqueeze", "Unsqueeze", "b,axes", "bu", NULL, NULL, 0);
    put_constant(&g, "/Constant_2", "c197", c197, 1, 0);
    put_constant(&g, "/Constant_3", "c16", c16, 1, 0);
    put_constant(&g, "/Constant_4", "c64", c64, 1, 0);
    put_node(&g, "/Concat", "Concat", "bu,c197,c16,c64", "shp", "axis", &zero, -1);
    put_node(&g, "/Reshape", "Reshape", "x,shp", "y", NULL, NULL, 0);
    return build(tag, &g);
}

static void shape_chain_folds(void **state)
{
    (void)state;
    built b = shape_chain("decl_fold", "1,197,1024");
    assert_int_equal(nnav_graph_get(b.m, 0)->node_count, 10);
    const char *folded[] = {"/Shape", "/Gather", "/Unsqueeze", "/Concat"};
    for (size_t i = 0; i < 4; i++)
        if (nnav_declutter_why(b.d, node_of(&b, folded[i])) != NNAV_DECL_FOLDED)
            fail_msg("%s is not hidden as folded", folded[i]);
    assert_int_equal(nnav_declutter_why(b.d, node_of(&b, "/Constant_3")), NNAV_DECL_CONSTANT);
    assert_false(nnav_declutter_hidden(b.d, node_of(&b, "/Reshape")));
    assert_int_equal(nnav_declutter_visible(b.d), 1);
    assert_int_equal(nnav_declutter_hidden_count(b.d), 9);
    assert_int_equal(nnav_declutter_input(b.d, value_of(&b, "shp")), NNAV_DECL_IN_FOLDED);
    input_text_is(&b, "shp", "[1,197,16,64] (folded)");
    input_text_is(&b, "b", "1 (folded)"); /* a scalar: no brackets */
    /* The folded value's producer is still the Concat (hidden). */
    assert_int_equal(nnav_declutter_producer(b.d, value_of(&b, "shp")), node_of(&b, "/Concat"));
    done(&b);
}

/* The same chain on x[batch,197,1024]: Shape gives [batch,197,1024], which
 * is not a constant, so Shape, Gather, Unsqueeze and Concat stay; only the
 * Constants hide. */
static void dynamic_shape_stays(void **state)
{
    (void)state;
    built b = shape_chain("decl_dynamic", "batch,197,1024");
    const char *kept[] = {"/Shape", "/Gather", "/Unsqueeze", "/Concat", "/Reshape"};
    for (size_t i = 0; i < 5; i++)
        if (nnav_declutter_hidden(b.d, node_of(&b, kept[i])))
            fail_msg("%s is hidden on a dynamic input", kept[i]);
    assert_int_equal(nnav_declutter_visible(b.d), 5);
    assert_int_equal(nnav_declutter_input(b.d, value_of(&b, "shp")), NNAV_DECL_IN_PLAIN);
    input_text_is(&b, "shp", "");
    /* The Constants still fold into their consumers. */
    input_text_is(&b, "c197", "[197] (folded)");
    done(&b);
}

/* Clutter that makes a graph output stays: the output needs its producer. */
static void graph_output_stays(void **state)
{
    (void)state;
    tu_pb g = {0};
    put_value(&g, 11, "x", DT_FLOAT, "1,4");
    put_value(&g, 12, "y", DT_FLOAT, "1,4");
    put_value(&g, 12, "s", DT_INT64, "2");
    put_node(&g, "sh", "Shape", "x", "s", NULL, NULL, 0);
    put_node(&g, "id", "Identity", "x", "y", NULL, NULL, 0);
    built b = build("decl_output", &g);
    assert_false(nnav_declutter_hidden(b.d, node_of(&b, "sh")));
    assert_false(nnav_declutter_hidden(b.d, node_of(&b, "id")));
    assert_int_equal(nnav_declutter_visible(b.d), 2);
    done(&b);
}

/* A hostile file: two Identity nodes naming each other's output (a cycle no
 * exporter writes). The walk ends: each source is found in one step. */
static void identity_cycle(void **state)
{
    (void)state;
    tu_pb g = {0};
    put_value(&g, 11, "x", DT_FLOAT, "1,4");
    put_value(&g, 12, "y", DT_FLOAT, "1,4");
    put_node(&g, "ia", "Identity", "b", "a", NULL, NULL, 0);
    put_node(&g, "ib", "Identity", "a", "b", NULL, NULL, 0);
    put_node(&g, "add", "Add", "a,x", "y", NULL, NULL, 0);
    built b = build("decl_cycle", &g);
    assert_int_equal(nnav_declutter_hidden_count(b.d), 2);
    uint32_t src = nnav_declutter_source(b.d, value_of(&b, "a"));
    /* ("b" read before it is made may be indexed as its own undefined value) */
    assert_true(src < nnav_value_count(b.m));
    uint32_t pn = nnav_declutter_producer(b.d, value_of(&b, "a"));
    assert_true(pn == NNAV_NONE || pn == node_of(&b, "ib") || pn == node_of(&b, "ia"));
    assert_int_equal(nnav_declutter_input(b.d, value_of(&b, "a")), NNAV_DECL_IN_PLAIN);
    done(&b);
}

/* Without shapes only Constant and Identity hide: nothing folds. */
static void without_shapes(void **state)
{
    (void)state;
    built b = shape_chain("decl_noshapes", "1,197,1024");
    nnav_declutter *d = nnav_declutter_build(b.m, 0, NULL);
    assert_non_null(d);
    assert_int_equal(nnav_declutter_hidden_count(d), 5); /* the five Constants */
    assert_false(nnav_declutter_hidden(d, node_of(&b, "/Shape")));
    nnav_declutter_free(d);
    assert_null(nnav_declutter_build(b.m, 7, b.s)); /* no such graph */
    done(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(constant_hidden),
        cmocka_unit_test(identity_chain),
        cmocka_unit_test(shape_chain_folds),
        cmocka_unit_test(dynamic_shape_stays),
        cmocka_unit_test(graph_output_stays),
        cmocka_unit_test(identity_cycle),
        cmocka_unit_test(without_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
