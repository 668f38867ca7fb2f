/* test_tf.c - TensorFlow SavedModel, MetaGraphDef and GraphDef in the index.
 *
 * Expected facts come from outside the code under test: the samples' from
 * samples/gen_tf.c (weights recomputed with the generator's LCG, halves decoded
 * here from their bits); the corpus' from the files themselves, counted with
 * an independent decoder (tests/cli/tf_facts.py, a Python wire reader) and
 * with `protoc-c --decode_raw`. Broken inputs are written by hand with
 * testutil.h's protobuf writer, so every offset is known. The corpus tests
 * skip visibly when ../shared/corpus is absent. */
#define _GNU_SOURCE /* memmem */
#include "testutil.h"

#include <math.h>

#include "dtype.h"
#include "tf.h"

/* ---- helpers ---- */

static const char *tf_sample(const char *name) { return tu_sample(name); }

static uint32_t count_kind(const nnav_model *m, uint8_t kind)
{
    uint32_t n = 0;
    for (uint32_t g = 0; g < nnav_graph_count(m); g++)
        n += nnav_graph_get(m, g)->kind == kind;
    return n;
}

static uint32_t attr_of(const nnav_model *m, uint32_t node, const char *name)
{
    const nnav_node *nd = nnav_node_get(m, node);
    for (uint32_t i = 0; i < nd->attr_count; i++)
        if (nnav_span_eqs(nnav_attr_get(m, nd->attr_first + i)->name, name))
            return nd->attr_first + i;
    fail_msg("node has no attr %s", name);
    return NNAV_NONE;
}

static void assert_attr_text(const nnav_model *m, uint32_t node, const char *name,
                             uint8_t type, const char *text)
{
    char buf[512];
    uint32_t a = attr_of(m, node, name);
    nnav_attr_format(m, a, 16, buf, sizeof buf);
    if (strcmp(buf, text) != 0)
        fail_msg("attr %s reads \"%s\", want \"%s\"", name, buf, text);
    if (nnav_attr_get(m, a)->type != type)
        fail_msg("attr %s has kind %s, want %s", name,
                 nnav_attr_type_name(nnav_attr_get(m, a)->type), nnav_attr_type_name(type));
}

/* The value an input ref names, and its producer node's name. */
static const char *producer_of(const nnav_model *m, uint32_t node, uint32_t input)
{
    static char buf[256];
    const nnav_node *nd = nnav_node_get(m, node);
    assert_true(input < nd->in_count);
    const nnav_ref r = nnav_ref_get(m, nd->in_first + input);
    if (r.value == NNAV_NONE)
        return "(none)";
    const nnav_value *v = nnav_value_get(m, r.value);
    if (v->kind == NNAV_VAL_INPUT)
        return "(graph input)";
    if (v->kind != NNAV_VAL_NODE)
        return "(not a node)";
    nnav_span s = nnav_node_get(m, v->producer)->name;
    snprintf(buf, sizeof buf, "%.*s", (int)s.n, (const char *)s.p);
    return buf;
}

static int has_warning(const nnav_model *m, const char *phrase)
{
    for (uint32_t i = 0; i < nnav_warning_count(m); i++)
        if (strstr(nnav_warning_get(m, i), phrase))
            return 1;
    return 0;
}

static void value_type_is(const nnav_model *m, uint32_t graph, const char *value, const char *type)
{
    char buf[256];
    uint32_t v = nnav_value_lookup(m, graph, value, strlen(value));
    if (v == NNAV_NONE)
        fail_msg("no value %s", value);
    nnav_value_type_format(m, v, buf, sizeof buf);
    if (strcmp(buf, type) != 0)
        fail_msg("value %s has type \"%s\", want \"%s\"", value, buf, type);
}

/* ---- hand-made TensorFlow messages ---- */

/* NodeDef: name, op, comma-separated inputs. */
static void pb_tf_node(tu_pb *n, const char *name, const char *op, const char *ins)
{
    tu_pb_str(n, 1, name);
    tu_pb_str(n, 2, op);
    for (const char *p = ins; p && *p;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        tu_pb_bytes(n, 3, p, len);
        if (!c)
            break;
        p = c + 1;
    }
}

/* An attr map entry with an AttrValue built by the caller. */
static void pb_tf_attr(tu_pb *node, uint32_t field, const char *key, tu_pb *av)
{
    tu_pb e = {0};
    tu_pb_str(&e, 1, key);
    tu_pb_msg(&e, 2, av);
    tu_pb_msg(node, field, &e);
}

static void pb_av_func(tu_pb *av, const char *fn)
{
    tu_pb nl = {0};
    tu_pb_str(&nl, 1, fn);
    tu_pb_msg(av, 10, &nl);
}

/* FunctionDef named `name` with one float input x, one float output y
 * returned from `ret`; the body is given. */
static void pb_tf_function(tu_pb *lib, const char *name, tu_pb *body_nodes, const char *ret)
{
    tu_pb fd = {0}, sig = {0}, arg = {0}, out = {0}, r = {0};
    tu_pb_str(&sig, 1, name);
    tu_pb_str(&arg, 1, "x");
    tu_pb_int(&arg, 3, 1);
    tu_pb_msg(&sig, 2, &arg);
    tu_pb_str(&out, 1, "y");
    tu_pb_int(&out, 3, 1);
    tu_pb_msg(&sig, 3, &out);
    tu_pb_msg(&fd, 1, &sig);
    tu_pb_raw(&fd, body_nodes->p, body_nodes->n); /* already field-3 records */
    tu_pb_free(body_nodes);
    tu_pb_str(&r, 1, "y");
    tu_pb_str(&r, 2, ret);
    tu_pb_msg(&fd, 4, &r);
    tu_pb_msg(lib, 1, &fd);
}

static const char *write_tf(const char *sub, const char *name, const tu_pb *b)
{
    const char *p = tu_join(tu_tmpdir(sub), name);
    tu_write(p, b->p, b->n);
    return p;
}

static uint64_t offset_of(const tu_pb *b, const void *needle, size_t n)
{
    const uint8_t *at = memmem(b->p, b->n, needle, n);
    if (!at)
        fail_msg("pattern not in the message");
    return (uint64_t)(at - b->p);
}

/* ---- the bare GraphDef sample ---- */

static void test_graphdef_sample(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tf_sample("tf_graph.pb"));
    const nnav_model_facts *f = nnav_model_facts_get(m);
    assert_int_equal(f->format, NNAV_FMT_TF_GRAPHDEF);
    tu_assert_contains(f->format_reason, "GraphDef");
    assert_int_equal(nnav_graph_count(m), 1);
    assert_int_equal(nnav_node_count(m), 15);
    assert_int_equal(nnav_function_count(m), 0);
    assert_int_equal(nnav_signature_count(m), 0);

    uint32_t split = tu_node(m, 0, "split"), pick = tu_node(m, 0, "pick");
    uint32_t init = tu_node(m, 0, "init"), relu = tu_node(m, 0, "relu");
    /* Split's outputs: three, as pick reads split:2 (no op list here). */
    const nnav_node *sp = nnav_node_get(m, split);
    assert_int_equal(sp->out_count, 3);
    tu_assert_span(nnav_ref_get(m, sp->out_first + 2).name, "split:2");
    assert_string_equal(producer_of(m, pick, 0), "split");
    /* "dense/MatMul:0" and "dense/bias" (meaning :0) both resolve. */
    uint32_t bias_add = tu_node(m, 0, "dense/BiasAdd");
    assert_string_equal(producer_of(m, bias_add, 0), "dense/MatMul");
    assert_string_equal(producer_of(m, bias_add, 1), "dense/bias");
    /* The control edge: flagged on both ends, linked, not a data output. */
    const nnav_node *pk = nnav_node_get(m, pick);
    assert_int_equal(pk->in_count, 2);
    const nnav_ref ctl = nnav_ref_get(m, pk->in_first + 1);
    assert_true(ctl.control);
    tu_assert_span(ctl.name, "^init");
    assert_string_equal(producer_of(m, pick, 1), "init");
    const nnav_node *in = nnav_node_get(m, init);
    assert_int_equal(in->out_count, 1);
    assert_true(nnav_ref_get(m, in->out_first).control);
    uint32_t nc;
    const uint32_t *cons = nnav_value_consumers(m, ctl.value, &nc);
    assert_int_equal(nc, 1);
    assert_int_equal(cons[0], pick);
    tu_assert_span(nnav_node_device(m, relu), "/job:localhost/replica:0/task:0/device:CPU:0");
    /* The placeholder is the graph's input; shapes come from _output_shapes. */
    const nnav_graph *g = nnav_graph_get(m, 0);
    assert_int_equal(g->input_count, 1);
    tu_assert_span(nnav_vinfo_get(m, g->input_first)->name, "input:0");
    value_type_is(m, 0, "input:0", "float32[?,4]");
    value_type_is(m, 0, "dense/MatMul:0", "float32[?,3]");
    value_type_is(m, 0, "relu:0", "float32[...]"); /* T known, no shape */
    /* debug_info, field 5, is outside the schema: kept by its number. */
    size_t size;
    uint8_t *bytes = tu_read(tf_sample("tf_graph.pb"), &size);
    free(bytes);
    int found = 0;
    for (uint32_t i = 0; i < nnav_unknown_count(m); i++) {
        const nnav_unknown *u = nnav_unknown_get(m, i);
        if (!strcmp(u->where, "GraphDef") && u->number == 5) {
            found = 1;
            assert_int_equal(u->wire_type, 2);
            assert_int_equal(u->offset, size - 8);
            assert_int_equal(u->span.n, 6);
        }
    }
    assert_true(found);
    assert_int_equal(nnav_warning_count(m), 0);
    nnav_model_close(m);
}

static void test_graphdef_attrs(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tf_sample("tf_graph.pb"));
    uint32_t n = tu_node(m, 0, "attrs");
    assert_attr_text(m, n, "a_string", NNAV_ATTR_STRING, "\"hello \\x1B[31mred\"");
    assert_attr_text(m, n, "an_int", NNAV_ATTR_INT, "-3");
    assert_attr_text(m, n, "a_float", NNAV_ATTR_FLOAT, "2.5");
    assert_attr_text(m, n, "a_bool", NNAV_ATTR_TF_BOOL, "true");
    assert_attr_text(m, n, "a_type", NNAV_ATTR_TF_TYPE, "int64");
    assert_attr_text(m, n, "a_shape", NNAV_ATTR_TF_SHAPE, "[2,?]");
    assert_attr_text(m, n, "some_ints", NNAV_ATTR_INTS, "[1, 2, 3]");
    assert_attr_text(m, n, "some_floats", NNAV_ATTR_FLOATS, "[0.5, 1.5]");
    assert_attr_text(m, n, "some_strings", NNAV_ATTR_STRINGS, "[\"a\", \"b\"]");
    assert_attr_text(m, n, "some_types", NNAV_ATTR_TF_TYPES, "[float32, int32]");
    assert_attr_text(m, n, "some_shapes", NNAV_ATTR_TF_SHAPES, "[[5], [...]]");
    assert_attr_text(m, n, "a_func", NNAV_ATTR_TF_FUNC, "SomeOpNotInTheLibrary (not in the library)");
    assert_attr_text(m, n, "an_empty_list", NNAV_ATTR_TF_LIST, "[]");
    /* The accessors read TensorFlow's fields; types come as nnav dtypes. */
    nnav_error err;
    int64_t iv;
    double dv;
    nnav_span sv;
    assert_int_equal(nnav_attr_int(m, attr_of(m, n, "an_int"), &iv, &err), 0);
    assert_int_equal(iv, -3);
    assert_int_equal(nnav_attr_int(m, attr_of(m, n, "a_type"), &iv, &err), 0);
    assert_int_equal(iv, NNAV_DT_INT64);
    assert_int_equal(nnav_attr_float(m, attr_of(m, n, "a_float"), &dv, &err), 0);
    assert_true(dv == 2.5);
    assert_int_equal(nnav_attr_string(m, attr_of(m, n, "a_string"), &sv, &err), 0);
    tu_assert_span(sv, "hello \x1b[31mred");
    int64_t list[4];
    size_t total;
    assert_int_equal(nnav_attr_ints(m, attr_of(m, n, "some_types"), list, 4, &total, &err), 0);
    assert_int_equal(total, 2);
    assert_int_equal(list[0], NNAV_DT_FLOAT);
    assert_int_equal(list[1], NNAV_DT_INT32);
    nnav_model_close(m);
}

static void test_graphdef_values(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tf_sample("tf_graph.pb"));
    const nnav_graph *g = nnav_graph_get(m, 0);
    /* Const values are the initializers, named by their node. */
    assert_int_equal(g->init_count, 6);
    nnav_error err;
    double v[16];
    nnav_values vals = {.v = v};
    uint32_t k = tu_tensor(m, "dense/kernel");
    assert_int_equal(nnav_tensor_get(m, k)->owner, NNAV_TOWN_INITIALIZER);
    assert_int_equal(nnav_tensor_get(m, k)->storage, NNAV_STORE_RAW);
    assert_int_equal(nnav_tensor_values(m, k, 12, 0, &vals, &err), 0);
    assert_int_equal(vals.count, 12);
    tu_lcg lg = tu_lcg_for("dense/kernel");
    for (int i = 0; i < 12; i++)
        assert_true(v[i] == (double)tu_lcg_next(&lg, -1.0f, 1.0f));
    /* A splat: one float_val for three elements. */
    uint32_t b = tu_tensor(m, "dense/bias");
    assert_int_equal(nnav_tensor_get(m, b)->nbytes, 12);
    assert_int_equal(nnav_tensor_get(m, b)->warn, 0);
    assert_int_equal(nnav_tensor_values(m, b, 16, 1, &vals, &err), 0);
    assert_int_equal(vals.count, 3);
    assert_int_equal(vals.total, 3);
    for (int i = 0; i < 3; i++)
        assert_true(v[i] == 0.25);
    char buf[128];
    nnav_tensor_storage_format(m, b, buf, sizeof buf);
    assert_string_equal(buf, "float_val (splat: 1 value for 3)");
    /* A million sevens, stated once: stats without a million-element buffer. */
    uint32_t s = tu_tensor(m, "big_splat");
    assert_int_equal(nnav_tensor_get(m, s)->nelems, 1000000);
    assert_int_equal(nnav_tensor_get(m, s)->nbytes, 4000000);
    assert_int_equal(nnav_tensor_values(m, s, 5, 1, &vals, &err), 0);
    assert_int_equal(vals.count, 5);
    assert_int_equal(vals.total, 1000000);
    assert_true(vals.has_stats && vals.min == 7 && vals.max == 7 && vals.mean == 7);
    /* half_val holds bit patterns. */
    uint32_t h = tu_tensor(m, "half_weights");
    assert_int_equal(nnav_tensor_values(m, h, 4, 0, &vals, &err), 0);
    const uint16_t bits[] = {0x3c00, 0xc000, 0x3800, 0x7bff};
    for (int i = 0; i < 4; i++)
        assert_true(v[i] == tu_half(bits[i]));
    nnav_tensor_shape_format(m, h, buf, sizeof buf);
    assert_string_equal(buf, "float16[2,2]");
    /* Strings come back as spans. */
    nnav_span sv[4];
    nnav_values sval = {.v = v, .s = sv};
    uint32_t l = tu_tensor(m, "labels");
    assert_int_equal(nnav_tensor_values(m, l, 4, 0, &sval, &err), 0);
    assert_int_equal(sval.count, 3);
    tu_assert_span(sv[0], "cat");
    tu_assert_span(sv[2], "bird");
    nnav_model_close(m);
}

/* ---- the SavedModel sample ---- */

/* A meta graph's count fact of that key, as info lists it; -1 when none. */
static int64_t group_fact(const nnav_model *m, uint32_t g, const char *key)
{
    nnav_sig_fact f;
    for (uint32_t k = 0; nnav_sig_group_fact(m, g, k, &f) == 1; k++)
        if (!strcmp(f.key, key))
            return f.kind == NNAV_DV_UINT ? (int64_t)f.u : f.i;
    return -1;
}

static void test_saved_model_sample(void **state)
{
    (void)state;
    /* The folder opens its saved_model.pb. */
    const char *dir = tf_sample("tf_saved_model");
    nnav_model *m = tu_open(dir);
    const nnav_model_facts *f = nnav_model_facts_get(m);
    assert_int_equal(f->format, NNAV_FMT_TF_SAVEDMODEL);
    tu_assert_contains(f->path, "tf_saved_model/saved_model.pb");
    tu_assert_span(f->producer_version, "2.99.0-nnav-samples");
    assert_int_equal(nnav_sig_group_count(m), 1);
    const nnav_sig_group *mg = nnav_sig_group_get(m, 0);
    assert_int_equal(mg->tag_count, 1);
    tu_assert_span(nnav_sig_tag_get(m, mg->tag_first), "serve");
    assert_int_equal(group_fact(m, 0, "stripped_ops"), 15);
    assert_int_equal(nnav_graph_get(m, 0)->node_count, 5);
    assert_int_equal(nnav_function_count(m), 6);
    assert_int_equal(count_kind(m, NNAV_GRAPH_FUNCTION), 6);
    assert_int_equal(nnav_node_count(m), 5 + 3 + 12 + 1 + 1 + 2 + 2);
    /* Signatures are the model's inputs and outputs. */
    assert_int_equal(nnav_signature_count(m), 2);
    const nnav_signature *sg = nnav_signature_get(m, 0);
    tu_assert_span(sg->key, "serving_default");
    tu_assert_span(sg->method, "tensorflow/serving/predict");
    assert_int_equal(sg->in_count, 1);
    assert_int_equal(sg->out_count, 1);
    const nnav_sig_tensor *x = nnav_sig_tensor_get(m, sg->in_first);
    tu_assert_span(x->key, "x");
    tu_assert_span(x->name, "serving_default_x:0");
    char buf[256];
    nnav_sig_tensor_format(m, sg->in_first, buf, sizeof buf);
    assert_string_equal(buf, "float32[?,4]");
    assert_int_not_equal(x->value, NNAV_NONE);
    const nnav_value *xv = nnav_value_get(m, x->value);
    assert_true(xv->is_input);
    const nnav_graph *g = nnav_graph_get(m, 0);
    assert_int_equal(g->input_count, 1);
    assert_int_equal(g->output_count, 1); /* the init op's NoOp is an op, not a tensor */
    value_type_is(m, 0, "serving_default_x:0", "float32[?,4]");
    value_type_is(m, 0, "StatefulPartitionedCall:0", "float32[?,3]");
    /* The same file named directly reads the same. */
    nnav_model *m2 = tu_open(tu_join(dir, "saved_model.pb"));
    assert_int_equal(nnav_node_count(m2), nnav_node_count(m));
    assert_int_equal(nnav_tensor_count(m2), nnav_tensor_count(m));
    nnav_model_close(m2);
    assert_int_equal(nnav_warning_count(m), 0);
    nnav_model_close(m);
}

static void test_saved_model_functions(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tf_sample("tf_saved_model"));
    /* The top graph's call links to the wrapper's body, whose call links to
     * the layer: Enter descends twice. */
    uint32_t call = tu_node(m, 0, "StatefulPartitionedCall");
    const nnav_attr *fa = nnav_attr_get(m, attr_of(m, call, "f"));
    assert_int_equal(fa->type, NNAV_ATTR_TF_FUNC);
    assert_int_equal(fa->graph_count, 1);
    uint32_t wrapper = tu_graph(m, "@__inference_signature_wrapper_40");
    assert_int_equal(fa->graph_first, wrapper);
    assert_int_equal(nnav_graph_get(m, wrapper)->kind, NNAV_GRAPH_FUNCTION);
    uint32_t inner_call = tu_node(m, wrapper, "StatefulPartitionedCall");
    uint32_t serve = tu_graph(m, "@__inference_serve_30");
    assert_int_equal(nnav_attr_get(m, attr_of(m, inner_call, "f"))->graph_first, serve);
    /* Inside the body: If and While link to their branches and loop parts. */
    uint32_t cond = tu_node(m, serve, "cond"), loop = tu_node(m, serve, "loop");
    assert_int_equal(nnav_attr_get(m, attr_of(m, cond, "then_branch"))->graph_first,
                     tu_graph(m, "@__inference_cond_true_31"));
    assert_int_equal(nnav_attr_get(m, attr_of(m, cond, "else_branch"))->graph_first,
                     tu_graph(m, "@__inference_cond_false_32"));
    assert_int_equal(nnav_attr_get(m, attr_of(m, loop, "cond"))->graph_first,
                     tu_graph(m, "@__inference_loop_cond_33"));
    assert_int_equal(nnav_attr_get(m, attr_of(m, loop, "body"))->graph_first,
                     tu_graph(m, "@__inference_loop_body_34"));
    /* node:out_arg:k names resolve; Split has num_split outputs (op list). */
    uint32_t mm = tu_node(m, serve, "MatMul");
    assert_string_equal(producer_of(m, mm, 0), "(graph input)");
    assert_string_equal(producer_of(m, mm, 1), "ReadVariableOp");
    const nnav_node *split = nnav_node_get(m, tu_node(m, serve, "split"));
    assert_int_equal(split->out_count, 3);
    tu_assert_span(nnav_ref_get(m, split->out_first + 1).name, "split:output:1");
    assert_string_equal(producer_of(m, tu_node(m, serve, "Identity"), 0), "split");
    /* The function's input args are its inputs; its output is what ret names. */
    const nnav_graph *sg = nnav_graph_get(m, serve);
    assert_int_equal(sg->input_count, 3);
    tu_assert_span(nnav_vinfo_get(m, sg->input_first)->name, "x");
    assert_int_equal(sg->output_count, 1);
    tu_assert_span(nnav_vinfo_get(m, sg->output_first)->name, "Identity:output:0");
    uint32_t out = nnav_value_lookup(m, serve, "Identity:output:0", 17);
    assert_true(nnav_value_get(m, out)->is_output);
    uint32_t xin = nnav_value_lookup(m, serve, "x", 1);
    uint32_t nc;
    nnav_value_consumers(m, xin, &nc);
    assert_int_equal(nc, 1);
    /* Types from the op list (MatMul's T) and the wrapper's arg shapes. */
    value_type_is(m, serve, "MatMul:product:0", "float32[?,3]");
    value_type_is(m, serve, "is_neg:z:0", "bool[...]");
    value_type_is(m, wrapper, "x", "float32[?,4]");
    /* A body never repeats: six function graphs, one per library entry. */
    assert_int_equal(nnav_graph_count(m), 7);
    assert_int_equal(nnav_graph_total_nodes(m, 0), 5);
    nnav_model_close(m);
}

static void test_saved_model_variables(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tf_sample("tf_saved_model"));
    const nnav_graph *g = nnav_graph_get(m, 0);
    /* Three bundle entries are the main graph's initializers. */
    assert_int_equal(g->init_count, 3);
    uint32_t k = tu_tensor(m, "dense/kernel/.ATTRIBUTES/VARIABLE_VALUE");
    const nnav_tensor *t = nnav_tensor_get(m, k);
    assert_int_equal(t->storage, NNAV_STORE_EXTERNAL);
    assert_int_equal(t->dtype, NNAV_DT_FLOAT);
    assert_int_equal(t->ndims, 2);
    assert_int_equal(nnav_dims(m, t->dims_first)[0], 4);
    assert_int_equal(nnav_dims(m, t->dims_first)[1], 3);
    assert_int_equal(t->nbytes, 48);
    assert_int_equal(t->ext_offset, 0);
    assert_int_equal(t->ext_length, 48);
    tu_assert_span(t->ext_location, "variables/variables.data-00000-of-00001");
    assert_int_equal(t->warn, 0);
    nnav_error err;
    double v[12];
    nnav_values vals = {.v = v};
    assert_int_equal(nnav_tensor_values(m, k, 12, 1, &vals, &err), 0);
    tu_lcg lg = tu_lcg_for("dense/kernel");
    for (int i = 0; i < 12; i++)
        assert_true(v[i] == (double)tu_lcg_next(&lg, -1.0f, 1.0f));
    uint32_t b = tu_tensor(m, "dense/bias/.ATTRIBUTES/VARIABLE_VALUE");
    assert_int_equal(nnav_tensor_get(m, b)->ext_offset, 48);
    assert_int_equal(nnav_tensor_values(m, b, 3, 0, &vals, &err), 0);
    lg = tu_lcg_for("dense/bias");
    for (int i = 0; i < 3; i++)
        assert_true(v[i] == (double)tu_lcg_next(&lg, -1.0f, 1.0f));
    uint32_t o = tu_tensor(m, "_CHECKPOINTABLE_OBJECT_GRAPH");
    assert_int_equal(nnav_tensor_get(m, o)->dtype, NNAV_DT_STRING);
    assert_int_equal(nnav_tensor_get(m, o)->nbytes, 41);
    nnav_model_close(m);
}

/* A MetaGraphDef and a GraphDef cut out of the SavedModel sample, as a user
 * might save them: told apart by content, with the same graphs. */
static void test_cut_out_messages(void **state)
{
    (void)state;
    size_t n;
    uint8_t *b = tu_read(tu_join(tf_sample("tf_saved_model"), "saved_model.pb"), &n);
    /* SavedModel: field 1 (varint), then field 2 = the MetaGraphDef. */
    const uint8_t *p = b, *end = b + n;
    uint64_t tag, len;
    nnav_span meta = {0};
    while (p < end) {
        assert_int_equal(nnav_wire_varint(&p, end, &tag), 0);
        if ((tag & 7) == 0) {
            assert_int_equal(nnav_wire_varint(&p, end, &len), 0);
            continue;
        }
        assert_int_equal(nnav_wire_varint(&p, end, &len), 0);
        if (tag >> 3 == 2)
            meta = (nnav_span){p, len};
        p += len;
    }
    assert_non_null(meta.p);
    tu_pb mb = {0};
    tu_pb_raw(&mb, meta.p, meta.n);
    nnav_model *m = tu_open(write_tf("tf_cut", "meta.pb", &mb));
    assert_int_equal(nnav_model_facts_get(m)->format, NNAV_FMT_TF_METAGRAPH);
    assert_int_equal(nnav_node_count(m), 26);
    assert_int_equal(nnav_signature_count(m), 2);
    assert_int_equal(nnav_function_count(m), 6);
    assert_int_equal(nnav_graph_get(m, 0)->init_count, 0); /* no variables beside it */
    nnav_model_close(m);
    /* Its field 2 is the GraphDef. */
    nnav_span graph = {0};
    for (p = meta.p, end = meta.p + meta.n; p < end;) {
        assert_int_equal(nnav_wire_varint(&p, end, &tag), 0);
        assert_int_equal(nnav_wire_varint(&p, end, &len), 0);
        if (tag >> 3 == 2)
            graph = (nnav_span){p, len};
        p += len;
    }
    tu_pb gb = {0};
    tu_pb_raw(&gb, graph.p, graph.n);
    m = tu_open(write_tf("tf_cut2", "graph.pb", &gb));
    assert_int_equal(nnav_model_facts_get(m)->format, NNAV_FMT_TF_GRAPHDEF);
    assert_int_equal(nnav_node_count(m), 26);
    assert_int_equal(nnav_function_count(m), 6);
    /* No op list now: outputs come from what is read, names still resolve. */
    uint32_t serve = tu_graph(m, "@__inference_serve_30");
    assert_string_equal(producer_of(m, tu_node(m, serve, "Identity"), 0), "split");
    nnav_model_close(m);
    tu_pb_free(&mb);
    tu_pb_free(&gb);
    free(b);
}

/* Two MetaGraphs (the sample's, and a copy tagged train,gpu): two root
 * graphs, each with its own library; calls stay within their MetaGraph. */
static void test_two_meta_graphs(void **state)
{
    (void)state;
    size_t n;
    uint8_t *b = tu_read(tu_join(tf_sample("tf_saved_model"), "saved_model.pb"), &n);
    const uint8_t *p = b, *end = b + n;
    uint64_t tag, len;
    nnav_span meta = {0};
    while (p < end) {
        assert_int_equal(nnav_wire_varint(&p, end, &tag), 0);
        assert_int_equal(nnav_wire_varint(&p, end, &len), 0);
        if ((tag & 7) == 2) {
            if (tag >> 3 == 2)
                meta = (nnav_span){p, len};
            p += len;
        }
    }
    /* The copy: meta_info_def replaced by one with other tags. */
    tu_pb info = {0}, mg2 = {0}, sm = {0};
    tu_pb_str(&info, 4, "train");
    tu_pb_str(&info, 4, "gpu");
    tu_pb_msg(&mg2, 1, &info);
    for (p = meta.p, end = meta.p + meta.n; p < end;) {
        const uint8_t *start = p;
        assert_int_equal(nnav_wire_varint(&p, end, &tag), 0);
        assert_int_equal(nnav_wire_varint(&p, end, &len), 0);
        p += len;
        if (tag >> 3 != 1)
            tu_pb_raw(&mg2, start, (size_t)(p - start));
    }
    tu_pb_int(&sm, 1, 1);
    tu_pb_bytes(&sm, 2, meta.p, meta.n);
    tu_pb_msg(&sm, 2, &mg2);
    nnav_model *m = tu_open(write_tf("tf_two_metas", "saved_model.pb", &sm));
    assert_int_equal(nnav_sig_group_count(m), 2);
    assert_int_equal(count_kind(m, NNAV_GRAPH_MAIN), 2);
    assert_int_equal(nnav_function_count(m), 12);
    assert_int_equal(nnav_signature_count(m), 4);
    const nnav_sig_group *m1 = nnav_sig_group_get(m, 1);
    assert_int_equal(m1->tag_count, 2);
    tu_assert_span(nnav_sig_tag_get(m, m1->tag_first + 1), "gpu");
    uint32_t g1 = tu_graph(m, "~meta[1]");
    assert_int_equal(g1, m1->graph);
    tu_assert_span(nnav_graph_get(m, g1)->name, "train,gpu");
    /* Same function names in both libraries: paths say which. */
    uint32_t w0 = tu_graph(m, "@tensorflow:__inference_signature_wrapper_40");
    uint32_t w1 = tu_graph(m, "@tensorflow~meta[1]:__inference_signature_wrapper_40");
    assert_int_not_equal(w0, w1);
    uint32_t call0 = tu_node(m, 0, "StatefulPartitionedCall");
    uint32_t call1 = tu_node(m, g1, "StatefulPartitionedCall");
    assert_int_equal(nnav_attr_get(m, attr_of(m, call0, "f"))->graph_first, w0);
    assert_int_equal(nnav_attr_get(m, attr_of(m, call1, "f"))->graph_first, w1);
    nnav_model_close(m);
    tu_pb_free(&sm);
    free(b);
}

static void test_onnx_still_onnx(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tf_sample("control_flow.onnx"));
    assert_int_equal(nnav_model_facts_get(m)->format, NNAV_FMT_ONNX);
    assert_string_equal(nnav_model_facts_get(m)->format_reason, "read as an ONNX ModelProto");
    assert_int_equal(nnav_sig_group_count(m), 0);
    assert_int_equal(nnav_warning_count(m), 0);
    nnav_model_close(m);
}

/* ---- the corpus: TensorFlow Serving's test models ---- */

static void test_corpus_tf1(void **state)
{
    (void)state;
    const char *p = tu_corpus("tensorflow/saved_model_half_plus_two_cpu");
    if (!p) {
        skip();
        return;
    }
    nnav_model *m = tu_open(p);
    assert_int_equal(nnav_model_facts_get(m)->format, NNAV_FMT_TF_SAVEDMODEL);
    tu_assert_span(nnav_model_facts_get(m)->producer_version, "1.14.0");
    assert_int_equal(nnav_graph_count(m), 1);
    assert_int_equal(nnav_node_count(m), 74);
    assert_int_equal(nnav_function_count(m), 0);
    assert_int_equal(nnav_signature_count(m), 5);
    const char *keys[] = {"serving_default", "classify_x_to_y", "regress_x_to_y2",
                          "regress_x_to_y", "regress_x2_to_y3"};
    for (uint32_t i = 0; i < 5; i++)
        tu_assert_span(nnav_signature_get(m, i)->key, keys[i]);
    const nnav_signature *sg = nnav_signature_get(m, 0);
    tu_assert_span(nnav_sig_tensor_get(m, sg->in_first)->name, "x:0");
    tu_assert_span(nnav_sig_tensor_get(m, sg->out_first)->name, "y:0");
    assert_int_equal(group_fact(m, 0, "collections"), 5);
    /* The variables: five float scalars, in key order, 4 bytes each. */
    const char *vars[] = {"a", "a2", "b", "c", "c2"};
    const double want[] = {0.5, 0.5, 2, 3, 3};
    for (int i = 0; i < 5; i++) {
        uint32_t t = tu_tensor(m, vars[i]);
        const nnav_tensor *tt = nnav_tensor_get(m, t);
        assert_int_equal(tt->storage, NNAV_STORE_EXTERNAL);
        assert_int_equal(tt->ndims, 0);
        assert_int_equal(tt->nbytes, 4);
        assert_int_equal(tt->ext_offset, 4 * i);
        double v;
        nnav_values vals = {.v = &v};
        nnav_error err;
        assert_int_equal(nnav_tensor_values(m, t, 1, 0, &vals, &err), 0);
        assert_true(v == want[i]);
    }
    /* Control edges: save/restore_all waits for save/restore_shard. */
    uint32_t ra = tu_node(m, 0, "save/restore_all");
    assert_true(nnav_ref_get(m, nnav_node_get(m, ra)->in_first).control);
    assert_string_equal(producer_of(m, ra, 0), "save/restore_shard");
    tu_assert_span(nnav_node_device(m, ra), "/device:CPU:0");
    nnav_model_close(m);
}

static void test_corpus_tf2(void **state)
{
    (void)state;
    const char *p = tu_corpus("tensorflow/saved_model_half_plus_two_tf2_cpu");
    if (!p) {
        skip();
        return;
    }
    nnav_model *m = tu_open(p);
    tu_assert_span(nnav_model_facts_get(m)->producer_version, "2.14.0");
    assert_int_equal(nnav_graph_get(m, 0)->node_count, 29);
    assert_int_equal(nnav_function_count(m), 14);
    assert_int_equal(nnav_node_count(m), 151);
    assert_int_equal(nnav_signature_count(m), 7);
    /* serving_default calls the wrapper, which calls the predict function. */
    uint32_t call = tu_node(m, 0, "StatefulPartitionedCall_5");
    uint32_t wrapper = tu_graph(m, "@__inference_signature_wrapper_predict_245");
    assert_int_equal(nnav_attr_get(m, attr_of(m, call, "f"))->graph_first, wrapper);
    uint32_t inner = tu_node(m, wrapper, "StatefulPartitionedCall");
    uint32_t predict = tu_graph(m, "@__inference_predict_235");
    assert_int_equal(nnav_attr_get(m, attr_of(m, inner, "f"))->graph_first, predict);
    assert_int_equal(nnav_graph_get(m, predict)->node_count, 6);
    /* Inside it: node:out_arg:index inputs resolve to their producers. */
    uint32_t mul = tu_node(m, predict, "Mul");
    assert_string_equal(producer_of(m, mul, 0), "Mul/ReadVariableOp");
    /* Four bundle entries: the object graph and three variables. */
    const char *vars[] = {"_CHECKPOINTABLE_OBJECT_GRAPH", "a/.ATTRIBUTES/VARIABLE_VALUE",
                          "b/.ATTRIBUTES/VARIABLE_VALUE", "c/.ATTRIBUTES/VARIABLE_VALUE"};
    const uint64_t bytes[] = {619, 4, 4, 4};
    for (int i = 0; i < 4; i++)
        assert_int_equal(nnav_tensor_get(m, tu_tensor(m, vars[i]))->nbytes, bytes[i]);
    nnav_model_close(m);
}

static void test_corpus_matrix(void **state)
{
    (void)state;
    const char *p = tu_corpus("tensorflow/matrix_half_plus_two/saved_model.pb");
    if (!p) {
        skip();
        return;
    }
    nnav_model *m = tu_open(p);
    assert_int_equal(nnav_node_count(m), 6);
    assert_int_equal(nnav_signature_count(m), 1);
    char buf[128];
    const nnav_signature *sg = nnav_signature_get(m, 0);
    nnav_sig_tensor_format(m, sg->in_first, buf, sizeof buf);
    assert_string_equal(buf, "float32[?,3,3]");
    value_type_is(m, 0, "y:0", "float32[?,3,3]");
    assert_int_equal(nnav_graph_get(m, 0)->init_count, 2); /* the two Const values */
    nnav_model_close(m);
}

/* ---- malformed inputs ---- */

/* f calls g by op name, g calls f through a func attr, h calls itself. */
static void test_recursive_functions(void **state)
{
    (void)state;
    tu_pb graph = {0}, lib = {0}, body = {0}, nd = {0}, av = {0};
    pb_tf_node(&nd, "start", "f", "");
    tu_pb_msg(&graph, 1, &nd);
    pb_tf_node(&nd, "call", "g", "x");
    tu_pb_msg(&body, 3, &nd);
    pb_tf_function(&lib, "f", &body, "call:y:0");
    pb_tf_node(&nd, "back", "PartitionedCall", "x");
    pb_av_func(&av, "f");
    pb_tf_attr(&nd, 5, "f", &av);
    tu_pb_msg(&body, 3, &nd);
    pb_tf_function(&lib, "g", &body, "back:output:0");
    pb_tf_node(&nd, "self", "h", "x");
    tu_pb_msg(&body, 3, &nd);
    pb_tf_function(&lib, "h", &body, "self:y:0");
    tu_pb_msg(&graph, 2, &lib);
    nnav_model *m = tu_open(write_tf("tf_recursive", "rec.pb", &graph));
    assert_int_equal(nnav_function_count(m), 3);
    uint32_t f = tu_graph(m, "@f"), g = tu_graph(m, "@g"), h = tu_graph(m, "@h");
    /* Links by id, not copies: each body once. */
    assert_int_equal(nnav_graph_count(m), 4);
    assert_int_equal(nnav_node_get(m, tu_node(m, 0, "start"))->function,
                     nnav_graph_get(m, f)->function);
    assert_int_equal(nnav_attr_get(m, attr_of(m, tu_node(m, g, "back"), "f"))->graph_first, f);
    assert_int_equal(nnav_node_get(m, tu_node(m, h, "self"))->function, nnav_graph_get(m, h)->function);
    assert_true(has_warning(m, "function \"h\" calls itself"));
    assert_true(has_warning(m, "calls itself through"));
    assert_int_equal(nnav_graph_total_nodes(m, 0), 1);
    /* The callee's output names the call's output. */
    assert_string_equal(producer_of(m, tu_node(m, g, "back"), 0), "(graph input)");
    nnav_model_close(m);
    tu_pb_free(&graph);
}

static void test_attr_wrong_wire_type(void **state)
{
    (void)state;
    tu_pb graph = {0}, nd = {0}, av = {0};
    pb_tf_node(&nd, "n", "Foo", "");
    tu_pb_bytes(&av, 3, "zz", 2); /* i, but as LEN */
    pb_tf_attr(&nd, 5, "x", &av);
    tu_pb_msg(&graph, 1, &nd);
    const char *p = write_tf("tf_wrongwt", "wt.pb", &graph);
    nnav_error err;
    tu_open_fails(p, NULL, &err);
    tu_assert_contains(err.msg, "field 3 (i) has wire type 2, expected 0");
    assert_string_equal(err.path, "node[0].attr[\"x\"].i");
    assert_int_equal(err.offset, offset_of(&graph, "\x1a\x02zz", 4));
    char line[1024];
    nnav_error_format(&err, p, line, sizeof line);
    tu_assert_contains(line, "wt.pb: node[0].attr[\"x\"].i:");
    tu_pb_free(&graph);
}

static void test_attr_wrong_kind(void **state)
{
    (void)state;
    tu_pb graph = {0}, nd = {0}, av = {0};
    /* A Const whose value is an int, and a call whose f is a string. */
    pb_tf_node(&nd, "c", "Const", "");
    tu_pb_int(&av, 3, 5);
    pb_tf_attr(&nd, 5, "value", &av);
    tu_pb_msg(&graph, 1, &nd);
    pb_tf_node(&nd, "call", "PartitionedCall", "c");
    tu_pb_str(&av, 2, "not_a_function");
    pb_tf_attr(&nd, 5, "f", &av);
    tu_pb_msg(&graph, 1, &nd);
    nnav_model *m = tu_open(write_tf("tf_wrongkind", "kind.pb", &graph));
    assert_true(has_warning(m, "node \"c\" (Const): attr \"value\" is int, the op wants tensor"));
    assert_true(has_warning(m, "attr \"f\" is string, the op wants func"));
    assert_int_equal(nnav_graph_get(m, 0)->init_count, 0);
    nnav_model_close(m);
    tu_pb_free(&graph);
}

static void test_dims_and_dtypes(void **state)
{
    (void)state;
    tu_pb graph = {0}, nd = {0}, av = {0}, t = {0}, sh = {0}, d = {0}, l = {0};
    /* A Const of shape [-2, 3] and one of dtype 99. */
    tu_pb_int(&d, 1, (uint64_t)-2);
    tu_pb_msg(&sh, 2, &d);
    tu_pb_int(&d, 1, 3);
    tu_pb_msg(&sh, 2, &d);
    tu_pb_int(&t, 1, 1);
    tu_pb_msg(&t, 2, &sh);
    tu_pb_msg(&av, 8, &t);
    pb_tf_node(&nd, "neg", "Const", "");
    pb_tf_attr(&nd, 5, "value", &av);
    tu_pb_msg(&graph, 1, &nd);
    tu_pb_int(&t, 1, 99);
    tu_pb_msg(&av, 8, &t);
    pb_tf_node(&nd, "odd", "Const", "");
    pb_tf_attr(&nd, 5, "value", &av);
    tu_pb_msg(&graph, 1, &nd);
    /* float32[2^62]: its element count fits, its bytes do not: as bad as
     * an overflowing count, for TensorFlow as for ONNX. */
    tu_pb_int(&d, 1, 1ull << 62);
    tu_pb_msg(&sh, 2, &d);
    tu_pb_int(&t, 1, 1);
    tu_pb_msg(&t, 2, &sh);
    tu_pb_msg(&av, 8, &t);
    pb_tf_node(&nd, "huge", "Const", "");
    pb_tf_attr(&nd, 5, "value", &av);
    tu_pb_msg(&graph, 1, &nd);
    /* _output_shapes with a dim of -5: shown as unknown, with a warning. */
    tu_pb_int(&d, 1, (uint64_t)-5);
    tu_pb_msg(&sh, 2, &d);
    tu_pb_msg(&l, 7, &sh);
    tu_pb_msg(&av, 1, &l);
    pb_tf_node(&nd, "id", "Identity", "neg");
    pb_tf_attr(&nd, 5, "_output_shapes", &av);
    tu_pb_msg(&graph, 1, &nd);
    nnav_model *m = tu_open(write_tf("tf_dims", "dims.pb", &graph));
    const nnav_tensor *neg = nnav_tensor_get(m, tu_tensor(m, "neg"));
    assert_true(neg->warn & NNAV_TW_BAD_DIMS);
    const nnav_tensor *odd = nnav_tensor_get(m, tu_tensor(m, "odd"));
    assert_true(odd->warn & NNAV_TW_BAD_DTYPE);
    const nnav_tensor *huge = nnav_tensor_get(m, tu_tensor(m, "huge"));
    assert_true(huge->nelems == 1ull << 62);
    assert_true(huge->nbytes == UINT64_MAX);
    assert_true(huge->warn & NNAV_TW_BAD_DIMS);
    nnav_error err;
    double v[2];
    nnav_values vals = {.v = v};
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "odd"), 2, 0, &vals, &err), -1);
    tu_assert_contains(err.msg, "unknown dtype");
    char buf[64];
    nnav_tensor_shape_format(m, tu_tensor(m, "odd"), buf, sizeof buf);
    assert_string_equal(buf, "unknown[]");
    value_type_is(m, 0, "id:0", "undefined[?]");
    assert_true(has_warning(m, "dims below -1"));
    nnav_model_close(m);
    tu_pb_free(&graph);
}

/* A Const of dtype `dtype` and dims [n, n2], whose only value (a splat) is
 * `v` in field `field` of the TensorProto. */
static void pb_int_splat(tu_pb *graph, const char *name, uint64_t dtype, uint64_t n, uint64_t n2,
                         uint32_t field, uint64_t v)
{
    tu_pb nd = {0}, av = {0}, t = {0}, sh = {0}, d = {0};
    tu_pb_int(&d, 1, n);
    tu_pb_msg(&sh, 2, &d);
    tu_pb_int(&d, 1, n2);
    tu_pb_msg(&sh, 2, &d);
    tu_pb_int(&t, 1, dtype);
    tu_pb_msg(&t, 2, &sh);
    tu_pb_int(&t, field, v);
    tu_pb_msg(&av, 8, &t);
    pb_tf_node(&nd, name, "Const", "");
    pb_tf_attr(&nd, 5, "value", &av);
    tu_pb_msg(graph, 1, &nd);
}

/* 64-bit integer splats go through the shared accumulator exactly: the
 * values and extremes as their bits, the mean from the exact sum, even when
 * the sum passes what 128 bits hold (2^63 elements of 2^64 - 1). */
static void test_int64_splats(void **state)
{
    (void)state;
    tu_pb graph = {0};
    pb_int_splat(&graph, "i64", 9, 5, 1, 10, (uint64_t)((1ll << 62) + 1)); /* int64_val */
    pb_int_splat(&graph, "u64", 23, 1ull << 62, 2, 17, UINT64_MAX);       /* uint64_val */
    nnav_model *m = tu_open(write_tf("tf_splats", "splats.pb", &graph));
    nnav_error err;
    double v[4];
    int64_t iv[4];
    nnav_values vals = {.v = v, .i = iv};
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "i64"), 4, 1, &vals, &err), 0);
    assert_true(vals.is_int && !vals.is_unsigned);
    assert_int_equal(vals.count, 4);
    assert_int_equal(vals.total, 5);
    for (int i = 0; i < 4; i++)
        assert_true(iv[i] == (1ll << 62) + 1);
    assert_true(vals.has_stats && vals.imin == (1ll << 62) + 1 && vals.imax == (1ll << 62) + 1);
    assert_true(vals.mean == (double)((1ll << 62) + 1));
    assert_int_equal(nnav_tensor_values(m, tu_tensor(m, "u64"), 2, 1, &vals, &err), 0);
    assert_true(vals.is_int && vals.is_unsigned);
    assert_int_equal(vals.count, 2);
    assert_true((uint64_t)iv[0] == UINT64_MAX && (uint64_t)iv[1] == UINT64_MAX);
    assert_true(vals.has_stats && (uint64_t)vals.imax == UINT64_MAX);
    assert_true(vals.mean == (double)UINT64_MAX);
    nnav_model_close(m);
    tu_pb_free(&graph);
}

static void test_duplicate_names(void **state)
{
    (void)state;
    tu_pb graph = {0}, nd = {0};
    pb_tf_node(&nd, "twin", "NoOp", "");
    tu_pb_msg(&graph, 1, &nd);
    pb_tf_node(&nd, "other", "NoOp", "");
    tu_pb_msg(&graph, 1, &nd);
    size_t second = graph.n;
    pb_tf_node(&nd, "twin", "NoOp", "");
    tu_pb_msg(&graph, 1, &nd);
    const char *p = write_tf("tf_dup", "dup.pb", &graph);
    nnav_error err;
    tu_open_fails(p, NULL, &err);
    tu_assert_contains(err.msg, "duplicate node name \"twin\" (node[0] has it too)");
    assert_string_equal(err.path, "node[2].name");
    assert_int_equal(err.offset, second + 2); /* the NodeDef's bytes, after tag and length */
    tu_pb_free(&graph);
}

static void test_dangling_inputs(void **state)
{
    (void)state;
    tu_pb graph = {0}, nd = {0};
    pb_tf_node(&nd, "a", "Identity", "ghost:3,^phantom");
    tu_pb_msg(&graph, 1, &nd);
    nnav_model *m = tu_open(write_tf("tf_dangling", "dangling.pb", &graph));
    uint32_t a = tu_node(m, 0, "a");
    const nnav_node *nd0 = nnav_node_get(m, a);
    for (uint32_t i = 0; i < 2; i++) {
        const nnav_ref r = nnav_ref_get(m, nd0->in_first + i);
        assert_int_not_equal(r.value, NNAV_NONE);
        assert_int_equal(nnav_value_get(m, r.value)->kind, NNAV_VAL_UNDEFINED);
    }
    tu_assert_span(nnav_ref_get(m, nd0->in_first).name, "ghost:3");
    tu_assert_span(nnav_ref_get(m, nd0->in_first + 1).name, "^phantom");
    nnav_model_close(m);
    tu_pb_free(&graph);
}

/* Cut a file at every length: each cut opens or fails with status 2 and an
 * offset inside the cut file; none crashes (ASan builds check the reads). */
static void cut_everywhere(const char *src, const char *sub, const char *name)
{
    size_t n;
    uint8_t *bytes = tu_read(src, &n);
    const char *dir = tu_tmpdir(sub);
    const char *path = tu_join(dir, name);
    int opened = 0, failed = 0;
    for (size_t cut = 0; cut < n; cut++) {
        tu_write(path, bytes, cut);
        nnav_model *m = NULL;
        nnav_error err;
        if (nnav_model_open(path, NULL, &m, &err) == 0) {
            opened++;
            char buf[512];
            for (uint32_t a = 0; a < nnav_attr_count(m); a += 7)
                nnav_attr_format(m, a, 4, buf, sizeof buf);
            for (uint32_t t = 0; t < nnav_tensor_count(m); t++) {
                double v[4];
                nnav_values vals = {.v = v};
                nnav_tensor_values(m, t, 4, 1, &vals, &err);
                nnav_tensor_storage_format(m, t, buf, sizeof buf);
            }
            for (uint32_t s = 0; s < nnav_signature_count(m); s++)
                nnav_sig_tensor_get(m, nnav_signature_get(m, s)->in_first);
            nnav_model_close(m);
        } else {
            failed++;
            if (err.kind != NNAV_ERR_INPUT || !err.msg[0])
                fail_msg("cut at %zu: kind %d, \"%s\"", cut, err.kind, err.msg);
            if (cut > 0 && (!err.has_offset || err.offset > cut))
                fail_msg("cut at %zu: \"%s\" has offset %llu", cut, err.msg,
                         (unsigned long long)err.offset);
        }
    }
    assert_true(failed > 0);
    (void)opened;
    free(bytes);
}

static void test_truncated(void **state)
{
    (void)state;
    cut_everywhere(tf_sample("tf_graph.pb"), "tf_cut_graph", "cut.pb");
    cut_everywhere(tu_join(tf_sample("tf_saved_model"), "saved_model.pb"), "tf_cut_sm",
                   "saved_model.pb");
}

/* Damage single bytes of the SavedModel sample: whatever opens is safe to
 * read in full; whatever fails says why with status 2. */
static void test_mutated(void **state)
{
    (void)state;
    size_t n;
    uint8_t *orig = tu_read(tu_join(tf_sample("tf_saved_model"), "saved_model.pb"), &n);
    uint8_t *b = malloc(n);
    assert_non_null(b);
    const char *path = tu_join(tu_tmpdir("tf_mutate"), "m.pb");
    static const uint8_t repl[] = {0x00, 0xff, 0x80, 0x0a, 0x12};
    int opened = 0;
    for (size_t i = 0; i < n; i += 3) {
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
                char buf[512];
                for (uint32_t a = 0; a < nnav_attr_count(m); a++)
                    nnav_attr_format(m, a, 4, buf, sizeof buf);
                for (uint32_t v = 0; v < nnav_value_count(m); v++)
                    nnav_value_type_format(m, v, buf, sizeof buf);
                for (uint32_t g = 0; g < nnav_graph_count(m); g++)
                    nnav_graph_path(m, g, buf, sizeof buf);
                for (uint32_t t = 0; t < nnav_tensor_count(m); t++) {
                    double v[4];
                    nnav_values vals = {.v = v};
                    nnav_tensor_values(m, t, 4, 1, &vals, &err);
                }
                nnav_model_close(m);
            } else if (err.kind != NNAV_ERR_INPUT || !err.msg[0]) {
                fail_msg("byte %zu -> 0x%02x: kind %d \"%s\"", i, repl[r], err.kind, err.msg);
            }
        }
    }
    assert_true(opened > 0);
    free(b);
    free(orig);
}

/* A copy of the SavedModel sample whose variables.index is replaced. */
static const char *model_with_index(const char *sub, const uint8_t *index, size_t n)
{
    const char *dir = tu_tmpdir(sub);
    static char d[4096];
    snprintf(d, sizeof d, "%s", dir);
    size_t pn;
    uint8_t *pb = tu_read(tu_join(tf_sample("tf_saved_model"), "saved_model.pb"), &pn);
    tu_write(tu_join(d, "saved_model.pb"), pb, pn);
    free(pb);
    char vdir[4096];
    snprintf(vdir, sizeof vdir, "%s/variables", d);
    mkdir(vdir, 0755);
    if (index)
        tu_write(tu_join(vdir, "variables.index"), index, n);
    return d;
}

static void test_bundle_damage(void **state)
{
    (void)state;
    size_t n;
    uint8_t *idx = tu_read(tu_join(tf_sample("tf_saved_model"), "variables/variables.index"), &n);
    nnav_error err;
    /* A byte of the data block changed: its checksum says so. */
    uint8_t *bad = malloc(n);
    assert_non_null(bad);
    memcpy(bad, idx, n);
    bad[10] ^= 0x40;
    tu_open_fails(model_with_index("tf_bundle_crc", bad, n), NULL, &err);
    tu_assert_contains(err.path, "variables/variables.index");
    tu_assert_contains(err.msg, "checksum");
    /* Cut short: no footer. */
    tu_open_fails(model_with_index("tf_bundle_cut", idx, 30), NULL, &err);
    tu_assert_contains(err.msg, "too short for a table footer");
    /* Footer handles pointing past the end. */
    memcpy(bad, idx, n);
    bad[n - 48 + 2] = 0x7f; /* the index handle's offset, made huge */
    bad[n - 48 + 3] = 0x7f;
    nnav_model *m = NULL;
    if (nnav_model_open(model_with_index("tf_bundle_far", bad, n), NULL, &m, &err) == 0) {
        nnav_model_close(m);
        fail_msg("a handle past the end was accepted");
    }
    assert_int_equal(err.kind, NNAV_ERR_INPUT);
    tu_assert_contains(err.path, "variables/variables.index");
    /* Not a table at all. */
    memset(bad, 'x', n);
    tu_open_fails(model_with_index("tf_bundle_magic", bad, n), NULL, &err);
    tu_assert_contains(err.msg, "no table magic number");
    /* No index: a SavedModel without variables, not an error. */
    m = tu_open(model_with_index("tf_bundle_none", NULL, 0));
    assert_int_equal(nnav_graph_get(m, 0)->init_count, 0);
    nnav_model_close(m);
    /* An index reached through a symbolic link is not followed. */
    const char *d = model_with_index("tf_bundle_link", NULL, 0);
    char target[4096], link[4096];
    snprintf(target, sizeof target, "%s/real.index", d);
    tu_write(target, idx, n);
    snprintf(link, sizeof link, "%s/variables/variables.index", d);
    assert_int_equal(symlink(target, link), 0);
    m = tu_open(d);
    assert_int_equal(nnav_graph_get(m, 0)->init_count, 0);
    assert_true(has_warning(m, "symbolic link"));
    nnav_model_close(m);
    /* Every cut of the index: refused with the file named, never a crash. */
    for (size_t cut = 0; cut < n; cut++) {
        m = NULL;
        if (nnav_model_open(model_with_index("tf_bundle_cuts", idx, cut), NULL, &m, &err) == 0) {
            nnav_model_close(m);
            fail_msg("index cut at %zu opened", cut);
        }
        tu_assert_contains(err.path, "variables/variables.index");
    }
    /* Single damaged bytes anywhere: refused or read, safely. */
    for (size_t i = 0; i < n; i++) {
        memcpy(bad, idx, n);
        bad[i] ^= 0xa5;
        m = NULL;
        if (nnav_model_open(model_with_index("tf_bundle_flip", bad, n), NULL, &m, &err) == 0) {
            for (uint32_t t = 0; t < nnav_tensor_count(m); t++) {
                double v[4];
                nnav_values vals = {.v = v};
                nnav_tensor_values(m, t, 4, 1, &vals, &err);
            }
            nnav_model_close(m);
        } else {
            assert_int_equal(err.kind, NNAV_ERR_INPUT);
        }
    }
    free(bad);
    free(idx);
}

static void test_folder_errors(void **state)
{
    (void)state;
    nnav_error err;
    const char *dir = tu_tmpdir("tf_empty_folder");
    tu_open_fails(dir, NULL, &err);
    tu_assert_contains(err.msg, "no saved_model.pb");
}

static void test_snappy_and_crc(void **state)
{
    (void)state;
    /* CRC-32C's check value, and LevelDB's mask. */
    assert_int_equal(nnav_tf_crc32c(0, (const uint8_t *)"123456789", 9), 0xe3069283u);
    assert_int_equal(nnav_tf_crc_mask(0), 0xa282ead8u);
    /* literal "abcd", copy (1-byte offset 4, length 4), copy (2-byte offset 1,
     * length 3: an overlapping run of the last byte). */
    static const uint8_t ok[] = {11, 0x0c, 'a', 'b', 'c', 'd', 0x01, 0x04, 0x0a, 0x01, 0x00};
    uint8_t out[16];
    assert_int_equal(nnav_tf_snappy(ok, sizeof ok, out, 11), 0);
    assert_memory_equal(out, "abcdabcdddd", 11);
    /* A 4-byte-offset copy. */
    static const uint8_t c4[] = {6, 0x04, 'x', 'y', 0x0f, 0x02, 0, 0, 0};
    assert_int_equal(nnav_tf_snappy(c4, sizeof c4, out, 6), 0);
    assert_memory_equal(out, "xyxyxy", 6);
    /* Refused: a length other than declared, offset 0, an offset before the
     * start, a literal past the input, a cut tag, a copy past the output. */
    assert_int_equal(nnav_tf_snappy(ok, sizeof ok, out, 10), -1);
    static const uint8_t off0[] = {5, 0x00, 'a', 0x01, 0x00};
    assert_int_equal(nnav_tf_snappy(off0, sizeof off0, out, 5), -1);
    static const uint8_t far[] = {5, 0x00, 'a', 0x01, 0x09};
    assert_int_equal(nnav_tf_snappy(far, sizeof far, out, 5), -1);
    static const uint8_t lit[] = {9, 0x20, 'a', 'b'};
    assert_int_equal(nnav_tf_snappy(lit, sizeof lit, out, 9), -1);
    static const uint8_t cut[] = {5, 0x00, 'a', 0x02, 0x01};
    assert_int_equal(nnav_tf_snappy(cut, sizeof cut, out, 5), -1);
    static const uint8_t over[] = {3, 0x00, 'a', 0x19, 0x01};
    assert_int_equal(nnav_tf_snappy(over, sizeof over, out, 3), -1);
}

static void test_tf_dtypes(void **state)
{
    (void)state;
    /* Shared types map onto ONNX's numbering; TF-only ones get names. */
    assert_int_equal(nnav_tf_dtype(1), NNAV_DT_FLOAT);
    assert_int_equal(nnav_tf_dtype(101), NNAV_DT_FLOAT); /* DT_FLOAT_REF */
    assert_int_equal(nnav_tf_dtype(19), NNAV_DT_FLOAT16);
    assert_int_equal(nnav_tf_dtype(14), NNAV_DT_BFLOAT16);
    assert_int_equal(nnav_tf_dtype(9), NNAV_DT_INT64);
    assert_int_equal(nnav_tf_dtype(7), NNAV_DT_STRING);
    assert_string_equal(nnav_dtype_name(nnav_tf_dtype(11)), "qint8");
    assert_string_equal(nnav_dtype_name(nnav_tf_dtype(20)), "resource");
    assert_string_equal(nnav_dtype_name(nnav_tf_dtype(21)), "variant");
    assert_int_equal(nnav_dtype_bits(nnav_tf_dtype(20)), 0);
    assert_int_equal(nnav_dtype_bits(nnav_tf_dtype(13)), 32);
    assert_int_equal(nnav_tf_dtype(99), -1);
    assert_false(nnav_dtype_valid(-1));
    /* TF's int4 keeps one value per byte. */
    double v;
    const uint8_t b = 0xf9; /* -7 */
    assert_int_equal(nnav_dtype_decode_raw(nnav_tf_dtype(29), &b, 1, 0, &v), 0);
    assert_true(v == -7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_graphdef_sample),
        cmocka_unit_test(test_graphdef_attrs),
        cmocka_unit_test(test_graphdef_values),
        cmocka_unit_test(test_saved_model_sample),
        cmocka_unit_test(test_saved_model_functions),
        cmocka_unit_test(test_saved_model_variables),
        cmocka_unit_test(test_cut_out_messages),
        cmocka_unit_test(test_two_meta_graphs),
        cmocka_unit_test(test_onnx_still_onnx),
        cmocka_unit_test(test_corpus_tf1),
        cmocka_unit_test(test_corpus_tf2),
        cmocka_unit_test(test_corpus_matrix),
        cmocka_unit_test(test_recursive_functions),
        cmocka_unit_test(test_attr_wrong_wire_type),
        cmocka_unit_test(test_attr_wrong_kind),
        cmocka_unit_test(test_dims_and_dtypes),
        cmocka_unit_test(test_int64_splats),
        cmocka_unit_test(test_duplicate_names),
        cmocka_unit_test(test_dangling_inputs),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_mutated),
        cmocka_unit_test(test_bundle_damage),
        cmocka_unit_test(test_folder_errors),
        cmocka_unit_test(test_snappy_and_crc),
        cmocka_unit_test(test_tf_dtypes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
