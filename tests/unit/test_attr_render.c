/* test_attr_render.c - the one text and the one YAML rendering of attribute
 * values (nnav_attr_format, nnav_yw_attr_value), on the bundled samples.
 *
 * Expected values come from samples/gen_samples.c and samples/gen_tf.c (what
 * each node's attributes were built with), never from the code under test. */
#define _GNU_SOURCE /* open_memstream */
#include "testutil.h"

#include "export.h"
#include "yamlout.h"

static nnav_model *open_sample(const char *name)
{
    nnav_model *m = NULL;
    nnav_error err;
    if (nnav_model_open(tu_sample(name), NULL, &m, &err) != 0)
        fail_msg("cannot open %s: %s", name, err.msg);
    return m;
}

/* The attribute `name` of the node named `node` (first such node). */
static uint32_t attr_of(const nnav_model *m, const char *node, const char *name)
{
    for (uint32_t n = 0; n < nnav_node_count(m); n++) {
        const nnav_node *nd = nnav_node_get(m, n);
        if (!nnav_span_eqs(nd->name, node))
            continue;
        for (uint32_t i = 0; i < nd->attr_count; i++)
            if (nnav_span_eqs(nnav_attr_get(m, nd->attr_first + i)->name, name))
                return nd->attr_first + i;
    }
    fail_msg("no attr %s on node %s", name, node);
    return NNAV_NONE;
}

static void assert_text(const nnav_model *m, const char *node, const char *name,
                        size_t max_items, const char *want)
{
    char buf[512];
    nnav_attr_format(m, attr_of(m, node, name), max_items, buf, sizeof buf);
    if (strcmp(buf, want) != 0)
        fail_msg("%s.%s reads \"%s\", want \"%s\"", node, name, buf, want);
}

/* The value as YAML, written as the only value of a block map {v: ...}: the
 * text after "v: " (or after "v:\n" for a block node), without the final
 * line break. Returns the writer's result in *rc. Caller frees. */
static char *yaml_of(const nnav_model *m, uint32_t a, const nnav_attr_yaml_opts *o, int *rc)
{
    char *buf = NULL;
    size_t len = 0;
    nnav_yw w;
    nnav_error err;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(nnav_yw_open(&w, f), 0);
    nnav_yw_map(&w);
    nnav_yw_key(&w, "v");
    *rc = nnav_yw_attr_value(&w, m, a, o, &err);
    nnav_yw_map_end(&w);
    assert_int_equal(nnav_yw_close(&w), 0);
    fclose(f);
    assert_true(len > 3 && !strncmp(buf, "v:", 2));
    char *s = strdup(buf + 3); /* after "v: " or "v:\n" */
    free(buf);
    size_t n = strlen(s);
    while (n && s[n - 1] == '\n')
        s[--n] = 0;
    return s;
}

static void assert_yaml(const nnav_model *m, const char *node, const char *name,
                        const nnav_attr_yaml_opts *o, const char *want)
{
    int rc;
    char *s = yaml_of(m, attr_of(m, node, name), o, &rc);
    if (strcmp(s, want) != 0)
        fail_msg("%s.%s as YAML is \"%s\", want \"%s\"", node, name, s, want);
    assert_int_equal(rc, 0);
    free(s);
}

/* The export's options (text in 512 bytes, tensors whole) and the node
 * command's (typed TF values, graph paths, brief tensors). */
static const nnav_export_opts export_o = {.max_values = 16};
static const nnav_attr_yaml_opts as_export = {.full = &export_o, .max_values = 16,
                                              .text_size = 512};
static const nnav_attr_yaml_opts as_node = {.max_values = 16, .tf_typed = 1,
                                            .graph_paths = 1, .text_size = 2048};

/* ---- text ---- */

static void test_text_onnx(void **state)
{
    (void)state;
    nnav_model *m = open_sample("control_flow.onnx");
    /* gen_samples.c: value_floats {0.1, 0.2, 0.3, 0.4}, value_ints {1, 1},
     * value_strings {"the", "Quick", "brown", "fox"}, mode "reflect",
     * num_scan_inputs 1, a TENSOR float32[4] {0.5, 1.5, -1, 2}. */
    assert_text(m, "const_bias", "value_floats", 16, "[0.1, 0.2, 0.3, 0.4]");
    assert_text(m, "const_pads", "value_ints", 16, "[1, 1]");
    assert_text(m, "const_labels", "value_strings", 16, "[\"the\", \"Quick\", \"brown\", \"fox\"]");
    /* A list cut after max_items says how many there are. */
    assert_text(m, "const_labels", "value_strings", 2, "[\"the\", \"Quick\", ... (4 in all)]");
    assert_text(m, "pad", "mode", 16, "\"reflect\"");
    assert_text(m, "scan", "num_scan_inputs", 16, "1");
    assert_text(m, "const_scale", "value", 16, "float32[4] {0.5, 1.5, -1, 2}");
    /* A graph attribute names its body and how many nodes it holds. */
    char buf[512];
    nnav_attr_format(m, attr_of(m, "loop", "body"), 16, buf, sizeof buf);
    assert_true(!strncmp(buf, "graph ", 6) && strstr(buf, " nodes)"));
    /* A buffer too small is cut, never overrun, and stays a string. */
    char small[6];
    nnav_attr_format(m, attr_of(m, "const_labels", "value_strings"), 16, small, sizeof small);
    assert_true(strlen(small) < sizeof small);
    assert_true(!strncmp(small, "[\"the", strlen(small)));
    nnav_model_close(m);
}

static void test_text_tf(void **state)
{
    (void)state;
    nnav_model *m = open_sample("tf_graph.pb");
    /* gen_tf.c: the Placeholder "input" has shape {-1, 4} (an unknown dim
     * reads "?") and _output_shapes the same one shape. */
    assert_text(m, "input", "dtype", 16, "float32");
    assert_text(m, "input", "shape", 16, "[?,4]");
    assert_text(m, "input", "_output_shapes", 16, "[[?,4]]");
    /* The MatMul's T float and transpose_a false; BiasAdd's data_format
     * "NHWC"; the Split's num_split 3: found by attribute name. */
    uint32_t n_t = NNAV_NONE, n_ta = NNAV_NONE, n_df = NNAV_NONE, n_ns = NNAV_NONE;
    for (uint32_t a = 0; a < nnav_attr_count(m); a++) {
        const nnav_attr *at = nnav_attr_get(m, a);
        if (nnav_span_eqs(at->name, "T") && n_t == NNAV_NONE)
            n_t = a;
        if (nnav_span_eqs(at->name, "transpose_a"))
            n_ta = a;
        if (nnav_span_eqs(at->name, "data_format"))
            n_df = a;
        if (nnav_span_eqs(at->name, "num_split"))
            n_ns = a;
    }
    assert_true(n_t != NNAV_NONE && n_ta != NNAV_NONE && n_df != NNAV_NONE && n_ns != NNAV_NONE);
    char buf[512];
    nnav_attr_format(m, n_t, 16, buf, sizeof buf);
    assert_string_equal(buf, "float32");
    nnav_attr_format(m, n_ta, 16, buf, sizeof buf);
    assert_string_equal(buf, "false");
    nnav_attr_format(m, n_df, 16, buf, sizeof buf);
    assert_string_equal(buf, "\"NHWC\"");
    nnav_attr_format(m, n_ns, 16, buf, sizeof buf);
    assert_string_equal(buf, "3");

    int rc;
    /* The export writes TF bools and types as their text; the node command
     * as YAML booleans and element type names. */
    char *s = yaml_of(m, n_ta, &as_export, &rc);
    assert_string_equal(s, "\"false\"");
    free(s);
    s = yaml_of(m, n_ta, &as_node, &rc);
    assert_string_equal(s, "false");
    free(s);
    s = yaml_of(m, n_t, &as_export, &rc);
    assert_string_equal(s, "float32");
    free(s);
    s = yaml_of(m, n_ns, &as_node, &rc);
    assert_string_equal(s, "3");
    free(s);
    nnav_model_close(m);
}

/* ---- YAML ---- */

static void test_yaml_onnx(void **state)
{
    (void)state;
    nnav_model *m = open_sample("control_flow.onnx");
    const nnav_attr_yaml_opts *both[2] = {&as_export, &as_node};
    for (int i = 0; i < 2; i++) {
        assert_yaml(m, "const_pads", "value_ints", both[i], "[1, 1]");
        /* Floats exactly: the float32 nearest 0.1 read back as the same double. */
        assert_yaml(m, "const_bias", "value_floats", both[i],
                    "[0.10000000149011612, 0.20000000298023224, 0.30000001192092896, "
                    "0.4000000059604645]");
        assert_yaml(m, "const_labels", "value_strings", both[i], "[the, Quick, brown, fox]");
        assert_yaml(m, "pad", "mode", both[i], "reflect");
        assert_yaml(m, "scan", "num_scan_inputs", both[i], "1");
    }
    /* A graph: the export writes its text, the node command its path. */
    char text[512];
    uint32_t body = attr_of(m, "loop", "body");
    nnav_attr_format(m, body, 16, text, sizeof text);
    int rc;
    char *s = yaml_of(m, body, &as_export, &rc);
    assert_non_null(strstr(s, text));
    free(s);
    s = yaml_of(m, body, &as_node, &rc);
    assert_true(s[0] == '[' && strstr(s, "body") && !strstr(s, "nodes)"));
    free(s);
    /* A tensor: whole in the export (how it is stored too), briefly for
     * node (its element count instead). */
    uint32_t val = attr_of(m, "const_scale", "value");
    s = yaml_of(m, val, &as_export, &rc);
    assert_non_null(strstr(s, "name: scale_value"));
    assert_non_null(strstr(s, "values: [0.5, 1.5, -1.0, 2.0]"));
    free(s);
    char *brief = yaml_of(m, val, &as_node, &rc);
    assert_non_null(strstr(brief, "[0.5, 1.5, -1.0, 2.0]"));
    assert_non_null(strstr(brief, "elements: 4"));
    assert_null(strstr(brief, "storage:"));
    free(brief);
    nnav_model_close(m);
}

/* Every attribute of every sample: the YAML is one well-formed node under
 * both option sets, and every kind YAML has no node for is its text. */
static void test_yaml_every_attr(void **state)
{
    (void)state;
    const char *samples[] = {"cnn.onnx", "control_flow.onnx", "tf_graph.pb"};
    for (size_t k = 0; k < sizeof samples / sizeof *samples; k++) {
        nnav_model *m = open_sample(samples[k]);
        assert_true(nnav_attr_count(m) > 0);
        for (uint32_t a = 0; a < nnav_attr_count(m); a++) {
            int rc;
            char *e = yaml_of(m, a, &as_export, &rc);
            assert_int_equal(rc, 0);
            char *n = yaml_of(m, a, &as_node, &rc);
            assert_int_equal(rc, 0);
            uint8_t t = nnav_attr_get(m, a)->type;
            if (t == NNAV_ATTR_TF_SHAPE || t == NNAV_ATTR_TF_SHAPES || t == NNAV_ATTR_TF_FUNC) {
                char text[512];
                nnav_attr_format(m, a, 16, text, sizeof text);
                assert_non_null(strstr(e, text[0] == '[' ? text + 1 : text));
                assert_string_equal(e, n);
            }
            if (t == NNAV_ATTR_INT || t == NNAV_ATTR_INTS || t == NNAV_ATTR_FLOAT ||
                t == NNAV_ATTR_FLOATS || t == NNAV_ATTR_STRING || t == NNAV_ATTR_STRINGS)
                assert_string_equal(e, n);
            free(e);
            free(n);
        }
        nnav_model_close(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_onnx),
        cmocka_unit_test(test_text_tf),
        cmocka_unit_test(test_yaml_onnx),
        cmocka_unit_test(test_yaml_every_attr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
