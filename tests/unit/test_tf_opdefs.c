/* test_tf_opdefs.c - a TensorFlow model's OpDefs (stripped_op_list) as
 * operator schemas (nnav_model_op_schemas) and nodes resolved against them
 * (nnav_op_resolve_tf).
 *
 * Two uses:
 *  - run bare (ctest): cmocka tests on the bundled SavedModel (its op list is
 *    written by samples/gen_tf.c, so the facts below are read there), on
 *    hand-made MetaGraphDefs whose broken OpDefs must each give a warning and
 *    be left out while the file opens, and on a GraphDef (no op list);
 *  - run as `test_tf_opdefs --dump FILE`: every schema, every node's
 *    resolution and every warning as tab-separated lines, which
 *    tests/cli/tf_opdefs.sh compares with `protoc --decode` of the file. */
#include "testutil.h"

#include "dtype.h"
#include "opschema.h"
#include "opschema_tf.h"
#include "tf.h"

/* The OpDef words for an attr kind, written here from op_def.proto's
 * AttrDef.type comment, not taken from the reader. */
static const char *word(uint8_t kind)
{
    switch (kind) {
    case NNAV_ATTR_STRING: return "string";
    case NNAV_ATTR_INT: return "int";
    case NNAV_ATTR_FLOAT: return "float";
    case NNAV_ATTR_TF_BOOL: return "bool";
    case NNAV_ATTR_TF_TYPE: return "type";
    case NNAV_ATTR_TF_SHAPE: return "shape";
    case NNAV_ATTR_TENSOR: return "tensor";
    case NNAV_ATTR_TF_FUNC: return "func";
    case NNAV_ATTR_STRINGS: return "list(string)";
    case NNAV_ATTR_INTS: return "list(int)";
    case NNAV_ATTR_FLOATS: return "list(float)";
    case NNAV_ATTR_TF_BOOLS: return "list(bool)";
    case NNAV_ATTR_TF_TYPES: return "list(type)";
    case NNAV_ATTR_TF_SHAPES: return "list(shape)";
    case NNAV_ATTR_TENSORS: return "list(tensor)";
    case NNAV_ATTR_TF_FUNCS: return "list(func)";
    }
    return "?";
}

static const char *status_word(nnav_op_status s)
{
    switch (s) {
    case NNAV_OPS_FOUND: return "FOUND";
    case NNAV_OPS_NONSTANDARD: return "NONSTANDARD";
    case NNAV_OPS_FUNCTION: return "FUNCTION";
    case NNAV_OPS_UNKNOWN: return "UNKNOWN";
    case NNAV_OPS_NOT_YET: return "NOT_YET";
    case NNAV_OPS_NO_OPSET: return "NO_OPSET";
    case NNAV_OPS_NO_SCHEMAS: return "NO_SCHEMAS";
    }
    return "?";
}

/* Attr `name` of a schema (a plain search: the test does not lean on the
 * order it checks elsewhere). */
static const nnav_op_attr *sattr(const nnav_op_schema *s, nnav_span name)
{
    for (uint32_t i = 0; i < s->n_attrs; i++)
        if (nnav_span_eqs(name, s->attrs[i].name))
            return &s->attrs[i];
    return NULL;
}

static void put_esc(FILE *f, const char *s)
{
    char buf[1024];
    nnav_text_escape_cstr(s ? s : "(null)", buf, sizeof buf);
    fputs(buf, f);
}

static void put_default(FILE *f, const nnav_op_default *d)
{
    fprintf(f, "%s\t", nnav_attr_type_name(d->kind));
    switch (d->kind) {
    case NNAV_ATTR_INT: fprintf(f, "%lld", (long long)d->i); break;
    case NNAV_ATTR_FLOAT: fprintf(f, "%.9g", d->f); break;
    case NNAV_ATTR_STRING: put_esc(f, d->s); break;
    case NNAV_ATTR_INTS:
        for (uint32_t i = 0; i < d->count; i++)
            fprintf(f, i ? ",%lld" : "%lld", (long long)d->ints[i]);
        break;
    case NNAV_ATTR_FLOATS:
        for (uint32_t i = 0; i < d->count; i++)
            fprintf(f, i ? ",%.9g" : "%.9g", d->floats[i]);
        break;
    case NNAV_ATTR_STRINGS:
        for (uint32_t i = 0; i < d->count; i++) {
            if (i)
                fputc(',', f);
            put_esc(f, d->strings[i]);
        }
        break;
    default: put_esc(f, d->text);
    }
}

static int dump(const char *path)
{
    nnav_model *m = NULL;
    nnav_error err;
    if (nnav_model_open(path, NULL, &m, &err) != 0) {
        char line[2048];
        nnav_error_format(&err, path, line, sizeof line);
        fprintf(stderr, "%s\n", line);
        return 2;
    }
    uint32_t n;
    const nnav_op_schema *s = nnav_model_op_schemas(m, &n);
    for (uint32_t i = 0; i < n; i++, s++) {
        printf("op\t%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\n", s->name, s->domain, s->since,
               s->deprecated, s->min_in, s->max_in, s->min_out, s->max_out);
        for (int side = 0; side < 2; side++)
            for (uint32_t k = 0; k < (side ? s->n_out : s->n_in); k++) {
                const nnav_op_formal *fm = side ? &s->out[k] : &s->in[k];
                printf("%s\t%s\t%s\t%u\t%u\n", side ? "out" : "in", fm->name, fm->type,
                       fm->option, fm->homogeneous);
            }
        for (uint32_t k = 0; k < s->n_attrs; k++) {
            const nnav_op_attr *a = &s->attrs[k];
            printf("attr\t%s\t%s\t%u\t%u", a->name, word(a->type), a->required, a->has_default);
            if (a->has_default) {
                printf("\t");
                put_default(stdout, &a->def);
            }
            printf("\n");
        }
        for (uint32_t k = 0; k < s->n_tcs; k++) {
            printf("tc\t%s\t", s->tcs[k].param);
            for (uint32_t j = 0; j < s->tcs[k].n_allowed; j++)
                printf(j ? ",%s" : "%s", s->tcs[k].allowed[j]);
            printf("\n");
        }
    }
    /* Every node's resolution, and each attr whose kind is not its AttrDef's. */
    for (uint32_t i = 0; i < nnav_node_count(m); i++) {
        nnav_op_use u;
        char nb[512], ob[512];
        const nnav_node *nd = nnav_node_get(m, i);
        if (nnav_op_resolve_tf(m, i, &u) != 0)
            return 3;
        nnav_text_escape(nd->name.p, nd->name.n, nb, sizeof nb);
        nnav_text_escape(nd->op.p, nd->op.n, ob, sizeof ob);
        printf("node\t%s\t%s\t%s\t%s\n", nb, ob, status_word(u.status), u.s ? u.s->name : "-");
        /* Each data input and output named by the formal it binds to. */
        for (int side = 0; u.s && side < 2; side++) {
            uint32_t first = side ? nd->out_first : nd->in_first;
            uint32_t count = side ? nd->out_count : nd->in_count, pos = 0;
            for (uint32_t r = 0; r < count; r++) {
                char an[256];
                if (nnav_ref_get(m, first + r).control)
                    continue;
                nnav_op_tf_arg_name(m, i, u.s, side, pos, an, sizeof an);
                printf("arg\t%s\t%s\t%u\t%s\n", nb, side ? "out" : "in", pos, an[0] ? an : "-");
                pos++;
            }
        }
        for (uint32_t a = 0; u.s && a < nd->attr_count; a++) {
            const nnav_attr *at = nnav_attr_get(m, nd->attr_first + a);
            const nnav_op_attr *sa = sattr(u.s, at->name);
            if (sa && at->type != sa->type &&
                !(at->type == NNAV_ATTR_TF_LIST && !strncmp(word(sa->type), "list(", 5)) &&
                at->type != NNAV_ATTR_TF_PLACEHOLDER) {
                nnav_text_escape(at->name.p, at->name.n, ob, sizeof ob);
                printf("kind\t%s\t%s\t%s\t%s\n", nb, ob, nnav_attr_type_name(at->type),
                       word(sa->type));
            }
        }
    }
    for (uint32_t i = 0; i < nnav_warning_count(m); i++) {
        printf("warning\t");
        put_esc(stdout, nnav_warning_get(m, i));
        printf("\n");
    }
    nnav_model_close(m);
    return 0;
}

/* ---- the bundled SavedModel (samples/gen_tf.c writes its op list) ---- */

static const nnav_op_schema *op_named(const nnav_model *m, const char *name)
{
    const nnav_op_schema *s = nnav_op_tf_find(m, (nnav_span){(const uint8_t *)name, strlen(name)});
    if (!s)
        fail_msg("no OpDef %s", name);
    assert_string_equal(s->name, name);
    return s;
}

static void test_sample(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tu_sample("tf_saved_model"));
    uint32_t n;
    const nnav_op_schema *all = nnav_model_op_schemas(m, &n);
    assert_true(n >= 8);
    for (uint32_t i = 1; i < n; i++)
        assert_true(strcmp(all[i - 1].name, all[i].name) < 0);

    /* If: cond of type Tcond, then a list typed by Tin; outputs by Tout. */
    const nnav_op_schema *s = op_named(m, "If");
    assert_string_equal(s->domain, "tf");
    assert_int_equal(s->since, 0);
    assert_int_equal(s->n_in, 2);
    assert_string_equal(s->in[0].name, "cond");
    assert_string_equal(s->in[0].type, "Tcond");
    assert_int_equal(s->in[0].option, NNAV_OPF_SINGLE);
    assert_string_equal(s->in[1].name, "input");
    assert_string_equal(s->in[1].type, "Tin");
    assert_int_equal(s->in[1].option, NNAV_OPF_VARIADIC);
    assert_int_equal(s->in[1].homogeneous, 0);
    assert_int_equal(s->min_in, 1);
    assert_int_equal(s->max_in, NNAV_OP_UNBOUNDED);
    assert_int_equal(s->min_out, 0);
    assert_int_equal(s->max_out, NNAV_OP_UNBOUNDED);
    for (uint32_t i = 1; i < s->n_attrs; i++)
        assert_true(strcmp(s->attrs[i - 1].name, s->attrs[i].name) < 0);
    const nnav_op_attr *a = sattr(s, (nnav_span){(const uint8_t *)"Tin", 3});
    assert_non_null(a);
    assert_int_equal(a->type, NNAV_ATTR_TF_TYPES);
    assert_int_equal(a->required, 1);
    a = sattr(s, (nnav_span){(const uint8_t *)"then_branch", 11});
    assert_non_null(a);
    assert_int_equal(a->type, NNAV_ATTR_TF_FUNC);
    /* Each type attr is a constraint; none lists its types here: any. */
    assert_int_equal(s->n_tcs, 3);
    assert_string_equal(s->tcs[0].param, "Tcond");
    assert_int_equal(s->tcs[0].n_allowed, 0);

    /* Less: a fixed output type. */
    s = op_named(m, "Less");
    assert_int_equal(s->n_out, 1);
    assert_string_equal(s->out[0].type, "tensor(bool)");
    assert_int_equal(s->min_in, 2);
    assert_int_equal(s->max_in, 2);

    /* Every node of the main graph resolves to its OpDef or is a call. */
    uint32_t found = 0;
    for (uint32_t i = 0; i < nnav_node_count(m); i++) {
        nnav_op_use u;
        assert_int_equal(nnav_op_resolve_tf(m, i, &u), 0);
        assert_int_equal(u.opset, -1);
        assert_int_equal(u.table_max, 0);
        const nnav_node *nd = nnav_node_get(m, i);
        if (nd->function != NNAV_NONE) {
            assert_int_equal(u.status, NNAV_OPS_FUNCTION);
            assert_null(u.domain);
            continue;
        }
        assert_string_equal(u.domain, "tf");
        if (u.status == NNAV_OPS_FOUND) {
            assert_true(nnav_span_eqs(nd->op, u.s->name));
            found++;
        }
    }
    assert_true(found > 0);
    nnav_op_use u;
    assert_int_equal(nnav_op_resolve_tf(m, nnav_node_count(m), &u), -1);
    nnav_model_close(m);
}

static void test_graphdef(void **state)
{
    (void)state;
    nnav_model *m = tu_open(tu_sample("tf_graph.pb"));
    uint32_t n = 7;
    assert_null(nnav_model_op_schemas(m, &n));
    assert_int_equal(n, 0);
    assert_true(nnav_node_count(m) > 0);
    for (uint32_t i = 0; i < nnav_node_count(m); i++) {
        nnav_op_use u;
        assert_int_equal(nnav_op_resolve_tf(m, i, &u), 0);
        if (nnav_node_get(m, i)->function == NNAV_NONE)
            assert_int_equal(u.status, NNAV_OPS_NO_SCHEMAS);
        assert_null(u.s);
        nnav_op_use v;
        assert_int_equal(nnav_op_resolve(m, i, &v), 0);
        assert_int_equal(v.status, u.status);
    }
    nnav_model_close(m);
}

/* ---- hand-made MetaGraphDefs ---- */

/* An ArgDef: name and either a fixed type or a type attr. */
static void arg(tu_pb *op, uint32_t field, const char *name, uint64_t type, const char *type_attr,
                const char *number_attr)
{
    tu_pb a = {0};
    tu_pb_str(&a, 1, name);
    if (type)
        tu_pb_int(&a, 3, type);
    if (type_attr)
        tu_pb_str(&a, 4, type_attr);
    if (number_attr)
        tu_pb_str(&a, 5, number_attr);
    tu_pb_msg(op, field, &a);
    tu_pb_free(&a);
}

/* An AttrDef; def, when given, is its default_value's bytes. */
static void attrdef(tu_pb *op, const char *name, const char *type, tu_pb *def, tu_pb *allowed)
{
    tu_pb a = {0};
    tu_pb_str(&a, 1, name);
    tu_pb_str(&a, 2, type);
    if (def)
        tu_pb_msg(&a, 3, def);
    if (allowed)
        tu_pb_msg(&a, 7, allowed);
    tu_pb_msg(op, 4, &a);
    tu_pb_free(&a);
}

static void node(tu_pb *graph, const char *name, const char *op)
{
    tu_pb n = {0};
    tu_pb_str(&n, 1, name);
    tu_pb_str(&n, 2, op);
    tu_pb_msg(graph, 1, &n);
    tu_pb_free(&n);
}

static const char *warnings(const nnav_model *m)
{
    static char all[16384];
    size_t o = 0;
    all[0] = 0;
    for (uint32_t i = 0; i < nnav_warning_count(m) && o < sizeof all - 1; i++) {
        int k = snprintf(all + o, sizeof all - o, "%s\n", nnav_warning_get(m, i));
        o += k > 0 ? (size_t)k : 0;
        if (o >= sizeof all)
            o = sizeof all - 1;
    }
    return all;
}

/* Good ops next to broken ones: each broken one is named in a warning (its
 * field path and byte offset) and left out; the good ones and the graph
 * stay; a name defined twice keeps its first. */
static void test_broken(void **state)
{
    (void)state;
    tu_pb list = {0}, op = {0}, v = {0}, lv = {0};
    /* op[0] Add: x, y of T, z of T; T allowed float, int32; a default int */
    tu_pb_str(&op, 1, "Add");
    arg(&op, 2, "x", 0, "T", NULL);
    arg(&op, 2, "y", 0, "T", NULL);
    arg(&op, 3, "z", 0, "T", NULL);
    tu_pb_int(&lv, 6, 1);
    tu_pb_int(&lv, 6, 3);
    tu_pb_msg(&v, 1, &lv);
    attrdef(&op, "T", "type", NULL, &v);
    tu_pb_free(&v), tu_pb_free(&lv);
    tu_pb_int(&v, 3, 7);
    attrdef(&op, "k", "int", &v, NULL);
    tu_pb_free(&v);
    tu_pb_msg(&list, 1, &op);
    tu_pb_free(&op);
    /* op[1] BadType: an input of DataType 999 */
    tu_pb_str(&op, 1, "BadType");
    arg(&op, 2, "x", 999, NULL, NULL);
    tu_pb_msg(&list, 1, &op);
    tu_pb_free(&op);
    /* op[2] BadDefault: an int attr whose default is a float */
    tu_pb_str(&op, 1, "BadDefault");
    tu_pb_f32(&v, 4, 1.5f);
    attrdef(&op, "n", "int", &v, NULL);
    tu_pb_free(&v);
    tu_pb_msg(&list, 1, &op);
    tu_pb_free(&op);
    /* op[3] HugeLen: a default whose s claims 2^40 bytes */
    tu_pb_str(&op, 1, "HugeLen");
    tu_pb_tag(&v, 2, 2);
    tu_pb_varint(&v, 1ull << 40);
    tu_pb_raw(&v, "ab", 2);
    attrdef(&op, "s", "string", &v, NULL);
    tu_pb_free(&v);
    tu_pb_msg(&list, 1, &op);
    tu_pb_free(&op);
    /* op[4] NoAttr: N-many inputs counted by an attr it lacks */
    tu_pb_str(&op, 1, "NoAttr");
    arg(&op, 2, "xs", 1, NULL, "N");
    tu_pb_msg(&list, 1, &op);
    tu_pb_free(&op);
    /* op[5] Add again, different: the first stays */
    tu_pb_str(&op, 1, "Add");
    tu_pb_msg(&list, 1, &op);
    tu_pb_free(&op);
    /* op[6] AddN: N-many of T, N >= 2 */
    tu_pb_str(&op, 1, "AddN");
    arg(&op, 2, "inputs", 0, "T", "N");
    arg(&op, 3, "sum", 0, "T", NULL);
    {
        tu_pb a = {0};
        tu_pb_str(&a, 1, "N");
        tu_pb_str(&a, 2, "int");
        tu_pb_int(&a, 5, 1);
        tu_pb_int(&a, 6, 2);
        tu_pb_msg(&op, 4, &a);
        tu_pb_free(&a);
    }
    attrdef(&op, "T", "type", NULL, NULL);
    tu_pb_msg(&list, 1, &op);
    tu_pb_free(&op);

    tu_pb info = {0}, graph = {0}, meta = {0};
    tu_pb_msg(&info, 2, &list);
    node(&graph, "a", "Add");
    node(&graph, "b", "Nope");
    node(&graph, "c", "BadType");
    tu_pb_msg(&meta, 1, &info);
    tu_pb_msg(&meta, 2, &graph);
    const char *dir = tu_tmpdir("tf_opdefs_broken");
    const char *path = tu_join(dir, "broken.meta");
    tu_write(path, meta.p, meta.n);

    nnav_model *m = tu_open(path);
    const char *w = warnings(m);
    tu_assert_contains(w, "meta_info_def.stripped_op_list.op[1] (\"BadType\") at byte ");
    tu_assert_contains(w, ": input_arg[0]: type 999 is not a DataType; the op's definition is not "
                          "used");
    tu_assert_contains(w, "op[2] (\"BadDefault\") at byte ");
    tu_assert_contains(w, ": attr[0].default_value: a float where the attr's type is int;");
    tu_assert_contains(w, "op[3] (\"HugeLen\") at byte ");
    tu_assert_contains(w, ": attr[0].default_value: length 1099511627776 (field 2) runs past");
    tu_assert_contains(w, "op[4] (\"NoAttr\") at byte ");
    tu_assert_contains(w, ": input_arg[0]: number_attr \"N\" is no attr of the op;");
    tu_assert_contains(w, "op[5] (\"Add\") at byte ");
    tu_assert_contains(w, ": defined again (first: meta_info_def.stripped_op_list.op[0]); the "
                          "first is used");
    /* The byte offset named is the field's: BadType's type field. */
    const char *at = strstr(w, "(\"BadType\") at byte ");
    assert_non_null(at);
    unsigned long long off = strtoull(at + strlen("(\"BadType\") at byte "), NULL, 10);
    assert_true(off + 1 < meta.n);
    assert_int_equal(meta.p[off], 3 << 3 | 0);   /* ArgDef.type's tag */
    assert_int_equal(meta.p[off + 1], (999 & 0x7f) | 0x80);

    uint32_t n;
    const nnav_op_schema *all = nnav_model_op_schemas(m, &n);
    assert_int_equal(n, 2);
    assert_string_equal(all[0].name, "Add");
    assert_string_equal(all[1].name, "AddN");
    const nnav_op_schema *s = &all[0];
    assert_int_equal(s->n_in, 2);
    assert_int_equal(s->n_tcs, 1);
    assert_int_equal(s->tcs[0].n_allowed, 2);
    assert_string_equal(s->tcs[0].allowed[0], "tensor(float)");
    assert_string_equal(s->tcs[0].allowed[1], "tensor(int32)");
    assert_int_equal(s->n_attrs, 2);
    assert_string_equal(s->attrs[0].name, "T");
    assert_int_equal(s->attrs[0].required, 1);
    assert_string_equal(s->attrs[1].name, "k");
    assert_int_equal(s->attrs[1].has_default, 1);
    assert_int_equal(s->attrs[1].def.kind, NNAV_ATTR_INT);
    assert_int_equal(s->attrs[1].def.i, 7);
    s = &all[1];
    assert_int_equal(s->min_in, 2);
    assert_int_equal(s->max_in, NNAV_OP_UNBOUNDED);
    assert_int_equal(s->in[0].option, NNAV_OPF_VARIADIC);
    assert_int_equal(s->in[0].homogeneous, 1);
    assert_string_equal(s->in[0].type, "T");

    nnav_op_use u;
    uint32_t g = tu_graph(m, "/");
    assert_int_equal(nnav_op_resolve_tf(m, tu_node(m, g, "a"), &u), 0);
    assert_int_equal(u.status, NNAV_OPS_FOUND);
    assert_ptr_equal(u.s, &all[0]);
    assert_int_equal(nnav_op_resolve_tf(m, tu_node(m, g, "b"), &u), 0);
    assert_int_equal(u.status, NNAV_OPS_UNKNOWN);
    assert_null(u.s);
    /* A left-out OpDef is as if it were not there. */
    assert_int_equal(nnav_op_resolve_tf(m, tu_node(m, g, "c"), &u), 0);
    assert_int_equal(u.status, NNAV_OPS_UNKNOWN);
    nnav_model_close(m);
    tu_pb_free(&list), tu_pb_free(&info), tu_pb_free(&graph), tu_pb_free(&meta);
}

/* A NodeDef with inputs and one int attr (or a float one, when is_float). */
static void node_n(tu_pb *graph, const char *name, const char *op, int ins, const char *attr,
                   int64_t v, int is_float)
{
    tu_pb n = {0}, e = {0}, av = {0};
    tu_pb_str(&n, 1, name);
    tu_pb_str(&n, 2, op);
    for (int i = 0; i < ins; i++)
        tu_pb_str(&n, 3, "src");
    if (attr) {
        tu_pb_str(&e, 1, attr);
        if (is_float)
            tu_pb_f32(&av, 4, (float)v);
        else
            tu_pb_int(&av, 3, (uint64_t)v);
        tu_pb_msg(&e, 2, &av);
        tu_pb_msg(&n, 5, &e);
    }
    tu_pb_msg(graph, 1, &n);
}

/* Positions bind through the node's count attrs, lists anywhere: ConcatV2
 * (values: N of T, then axis) at N = 3, at the OpDef's default N = 2 when
 * the node has none, and unbound when N is not an int. */
static void test_bind(void **state)
{
    (void)state;
    tu_pb list = {0}, op = {0}, v = {0}, a = {0};
    tu_pb_str(&op, 1, "ConcatV2");
    arg(&op, 2, "values", 0, "T", "N");
    arg(&op, 2, "axis", 0, "Tidx", NULL);
    arg(&op, 3, "output", 0, "T", NULL);
    tu_pb_str(&a, 1, "N");
    tu_pb_str(&a, 2, "int");
    tu_pb_int(&v, 3, 2);
    tu_pb_msg(&a, 3, &v);
    tu_pb_int(&a, 5, 1);
    tu_pb_int(&a, 6, 2);
    tu_pb_msg(&op, 4, &a);
    attrdef(&op, "T", "type", NULL, NULL);
    attrdef(&op, "Tidx", "type", NULL, NULL);
    tu_pb_msg(&list, 1, &op);
    tu_pb info = {0}, graph = {0}, meta = {0};
    tu_pb_msg(&info, 2, &list);
    node(&graph, "src", "Placeholder");
    node_n(&graph, "three", "ConcatV2", 4, "N", 3, 0);
    node_n(&graph, "dflt", "ConcatV2", 3, NULL, 0, 0);
    node_n(&graph, "bad", "ConcatV2", 3, "N", 3, 1);
    tu_pb_msg(&meta, 1, &info);
    tu_pb_msg(&meta, 2, &graph);
    const char *path = tu_join(tu_tmpdir("tf_opdefs_bind"), "bind.meta");
    tu_write(path, meta.p, meta.n);
    tu_pb_free(&meta);

    nnav_model *m = tu_open(path);
    uint32_t g = tu_graph(m, "/"), n;
    const nnav_op_schema *s = nnav_model_op_schemas(m, &n);
    assert_int_equal(n, 1);
    assert_int_equal(s->min_in, 3); /* N >= 2, then axis */
    char buf[64];
    uint32_t three = tu_node(m, g, "three"), dflt = tu_node(m, g, "dflt"), bad = tu_node(m, g, "bad");
    static const char *const want3[] = {"values[0]", "values[1]", "values[2]", "axis", ""};
    for (uint32_t i = 0; i < 5; i++)
        assert_string_equal(nnav_op_tf_arg_name(m, three, s, 0, i, buf, sizeof buf), want3[i]);
    uint32_t k = 9;
    assert_ptr_equal(nnav_op_tf_arg_formal(m, three, s, 0, 2, &k), &s->in[0]);
    assert_int_equal(k, 2);
    assert_ptr_equal(nnav_op_tf_arg_formal(m, three, s, 0, 3, &k), &s->in[1]);
    assert_int_equal(k, 0);
    static const char *const want2[] = {"values[0]", "values[1]", "axis"};
    for (uint32_t i = 0; i < 3; i++)
        assert_string_equal(nnav_op_tf_arg_name(m, dflt, s, 0, i, buf, sizeof buf), want2[i]);
    assert_string_equal(nnav_op_tf_arg_name(m, bad, s, 0, 0, buf, sizeof buf), "");
    assert_null(nnav_op_tf_arg_formal(m, bad, s, 0, 0, &k));
    assert_string_equal(nnav_op_tf_arg_name(m, three, s, 1, 0, buf, sizeof buf), "output");
    /* A schema not of this model binds nothing. */
    nnav_op_schema other = *s;
    assert_null(nnav_op_tf_arg_formal(m, three, &other, 0, 0, &k));
    nnav_model_close(m);
}

/* A fixed DataType's type string is ONNX's (nnav_op_tensor_type_str) for
 * every type ONNX has, TensorFlow's name in tensor(...) for the others;
 * defaults of TensorFlow's kinds read as the reader writes values; a TF
 * model goes through nnav_op_resolve to its OpDefs. */
static void test_types_defaults(void **state)
{
    (void)state;
    tu_pb list = {0}, op = {0}, v = {0}, lv = {0}, sh = {0}, d = {0}, fn = {0};
    char name[16];
    tu_pb_str(&op, 1, "Types");
    for (uint64_t t = 1; t <= 33; t++) {
        snprintf(name, sizeof name, "x%llu", (unsigned long long)t);
        arg(&op, 2, name, t, NULL, NULL);
    }
    arg(&op, 2, "ref", 101, NULL, NULL); /* DT_FLOAT_REF: its base type */
    tu_pb_int(&v, 5, 1);
    attrdef(&op, "b", "bool", &v, NULL);
    tu_pb_int(&v, 6, 1);
    attrdef(&op, "t", "type", &v, NULL);
    tu_pb_int(&d, 1, 2), tu_pb_msg(&sh, 2, &d);
    tu_pb_int(&d, 1, 3), tu_pb_msg(&sh, 2, &d);
    tu_pb_msg(&v, 7, &sh);
    attrdef(&op, "s", "shape", &v, NULL);
    tu_pb_int(&lv, 6, 1), tu_pb_int(&lv, 6, 3);
    tu_pb_msg(&v, 1, &lv);
    attrdef(&op, "ts", "list(type)", &v, NULL);
    tu_pb_str(&fn, 1, "my_fn");
    tu_pb_msg(&v, 10, &fn);
    attrdef(&op, "f", "func", &v, NULL);
    tu_pb_f32(&v, 4, 0.25f);
    attrdef(&op, "x", "float", &v, NULL);
    tu_pb_msg(&v, 1, &lv); /* an empty list */
    attrdef(&op, "e", "list(int)", &v, NULL);
    tu_pb_str(&lv, 2, "SAME"), tu_pb_str(&lv, 2, "VALID");
    tu_pb_msg(&v, 1, &lv);
    attrdef(&op, "p", "list(string)", &v, NULL);
    tu_pb_msg(&list, 1, &op);
    tu_pb info = {0}, graph = {0}, meta = {0};
    tu_pb_msg(&info, 2, &list);
    node(&graph, "n", "Types");
    tu_pb_msg(&meta, 1, &info);
    tu_pb_msg(&meta, 2, &graph);
    const char *path = tu_join(tu_tmpdir("tf_opdefs_types"), "types.meta");
    tu_write(path, meta.p, meta.n);
    tu_pb_free(&meta);

    nnav_model *m = tu_open(path);
    uint32_t n;
    const nnav_op_schema *s = nnav_model_op_schemas(m, &n);
    assert_int_equal(n, 1);
    assert_int_equal(s->n_in, 34);
    for (uint32_t t = 1; t <= 33; t++) {
        int32_t dt = nnav_tf_dtype(t);
        const char *onnx = nnav_op_tensor_type_str(dt);
        if (onnx) {
            assert_string_equal(s->in[t - 1].type, onnx);
        } else {
            char want[64];
            snprintf(want, sizeof want, "tensor(%s)", nnav_dtype_name(dt));
            assert_string_equal(s->in[t - 1].type, want);
        }
    }
    assert_string_equal(s->in[33].type, "tensor(float)");
    static const struct { const char *attr, *text; } defs[] = {
        {"b", "true"}, {"t", "float32"}, {"s", "[2,3]"}, {"ts", "[float32, int32]"},
        {"f", "my_fn"}, {"x", "0.25"}, {"e", "[]"}, {"p", "[\"SAME\", \"VALID\"]"}};
    for (size_t i = 0; i < sizeof defs / sizeof *defs; i++) {
        const nnav_op_attr *a =
            nnav_op_attr_find(s, (nnav_span){(const uint8_t *)defs[i].attr, strlen(defs[i].attr)});
        char buf[128];
        assert_non_null(a);
        assert_true(a->has_default);
        nnav_op_default_format(&a->def, buf, sizeof buf);
        if (strcmp(buf, defs[i].text))
            fail_msg("default of %s reads %s, want %s", defs[i].attr, buf, defs[i].text);
    }
    nnav_op_use u;
    assert_int_equal(nnav_op_resolve(m, tu_node(m, tu_graph(m, "/"), "n"), &u), 0);
    assert_int_equal(u.status, NNAV_OPS_FOUND);
    assert_ptr_equal(u.s, s);
    assert_string_equal(u.domain, "tf");
    nnav_model_close(m);
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--dump"))
        return dump(argv[2]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sample),
        cmocka_unit_test(test_graphdef),
        cmocka_unit_test(test_broken),
        cmocka_unit_test(test_bind),
        cmocka_unit_test(test_types_defaults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
