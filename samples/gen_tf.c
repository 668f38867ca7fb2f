/* gen_tf.c - the TensorFlow samples, written by nnav-samples next to the ONNX
 * ones (gen_samples.c calls nnav_gen_tf).
 *
 * Writes into OUTDIR:
 *   tf_graph.pb        a bare GraphDef, frozen style: a dense layer whose
 *                      weights are Const nodes (tensor_content, a float_val
 *                      splat, a million-element int splat, half_val,
 *                      string_val), a control input, a device, an attr of
 *                      every AttrValue kind, and a debug_info field (GraphDef
 *                      field 5, outside nnav's schema)
 *   tf_saved_model/    a TF2-style SavedModel: saved_model.pb whose top graph
 *                      only calls a signature wrapper; the work sits in library
 *                      functions (a dense layer, an If with two branches, a
 *                      While with cond and body); the variables are in
 *                      variables/variables.index (a sorted table with a Snappy
 *                      data block) and variables.data-00000-of-00001
 *
 * Built as protobuf-c structs from our own proto/tensorflow/ schemas and packed
 * with the generated packers; the table and Snappy stream are written here.
 * Weights come from the same LCG as gen_samples.c, seeded by the tensor name,
 * so tests compute the values they expect instead of copying them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tensorflow/saved_model.pb-c.h"
#include "tensorflow/tensor_bundle.pb-c.h"

void nnav_gen_tf(const char *outdir);

/* ---- memory: everything lives until the samples are written ---- */

static void **pool;
static size_t pool_n, pool_cap;

static _Noreturn void die(const char *fmt, ...)
{
    va_list ap;
    fputs("nnav-samples: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static void *take(void *p)
{
    if (!p)
        die("out of memory");
    if (pool_n == pool_cap) {
        pool_cap = pool_cap ? pool_cap * 2 : 256;
        pool = realloc(pool, pool_cap * sizeof *pool);
        if (!pool)
            die("out of memory");
    }
    pool[pool_n++] = p;
    return p;
}

static void *zalloc(size_t n) { return take(calloc(1, n ? n : 1)); }

static void pool_free(void)
{
    for (size_t i = 0; i < pool_n; i++)
        free(pool[i]);
    free(pool);
    pool = NULL;
    pool_n = pool_cap = 0;
}

static char *sdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(zalloc(n), s, n);
}

/* Grow a repeated field by one (the old array stays in the pool). */
static void *grow(void *old, size_t n, size_t elem)
{
    void *p = zalloc(n * elem);
    if (old && n > 1)
        memcpy(p, old, (n - 1) * elem);
    return p;
}

#define NEW(T, INIT) ((T *)memcpy(zalloc(sizeof(T)), &(T)INIT, sizeof(T)))
#define APPEND(arr, n, item)                                                                \
    do {                                                                                    \
        (arr) = grow((arr), (n) + 1, sizeof *(arr));                                        \
        (arr)[(n)++] = (item);                                                              \
    } while (0)

/* ---- data ---- */

static uint32_t lcg_seed(const char *name)
{
    uint32_t h = 2166136261u; /* FNV-1a, as gen_samples.c */
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h;
}

static float lcg_next(uint32_t *s, float lo, float hi)
{
    *s = *s * 1664525u + 1013904223u;
    return lo + (hi - lo) * ((float)(*s >> 8) * (1.0f / 16777216.0f));
}

/* n floats from the LCG seeded by `seed`, little-endian. */
static uint8_t *lcg_bytes(const char *seed, size_t n)
{
    uint8_t *b = zalloc(n * 4);
    uint32_t s = lcg_seed(seed);
    for (size_t i = 0; i < n; i++) {
        float f = lcg_next(&s, -1.0f, 1.0f);
        uint32_t u;
        memcpy(&u, &f, 4);
        for (int k = 0; k < 4; k++)
            b[i * 4 + k] = (uint8_t)(u >> (8 * k));
    }
    return b;
}

/* ---- messages ---- */

typedef Tensorflow__AttrValue AV;

static Tensorflow__TensorShapeProto *shape(size_t rank, const int64_t *dims)
{
    Tensorflow__TensorShapeProto *s = NEW(Tensorflow__TensorShapeProto, TENSORFLOW__TENSOR_SHAPE_PROTO__INIT);
    for (size_t i = 0; i < rank; i++) {
        Tensorflow__TensorShapeProto__Dim *d =
            NEW(Tensorflow__TensorShapeProto__Dim, TENSORFLOW__TENSOR_SHAPE_PROTO__DIM__INIT);
        d->size = dims[i];
        APPEND(s->dim, s->n_dim, d);
    }
    return s;
}

static Tensorflow__TensorProto *tensor(Tensorflow__DataType dt, size_t rank, const int64_t *dims)
{
    Tensorflow__TensorProto *t = NEW(Tensorflow__TensorProto, TENSORFLOW__TENSOR_PROTO__INIT);
    t->dtype = dt;
    t->tensor_shape = shape(rank, dims);
    return t;
}

static AV *av(void) { return NEW(AV, TENSORFLOW__ATTR_VALUE__INIT); }

static AV *av_type(Tensorflow__DataType t)
{
    AV *a = av();
    a->value_case = TENSORFLOW__ATTR_VALUE__VALUE_TYPE;
    a->type = t;
    return a;
}

static AV *av_i(int64_t v)
{
    AV *a = av();
    a->value_case = TENSORFLOW__ATTR_VALUE__VALUE_I;
    a->i = v;
    return a;
}

static AV *av_f(float v)
{
    AV *a = av();
    a->value_case = TENSORFLOW__ATTR_VALUE__VALUE_F;
    a->f = v;
    return a;
}

static AV *av_b(int v)
{
    AV *a = av();
    a->value_case = TENSORFLOW__ATTR_VALUE__VALUE_B;
    a->b = v;
    return a;
}

static AV *av_s(const char *s)
{
    AV *a = av();
    a->value_case = TENSORFLOW__ATTR_VALUE__VALUE_S;
    a->s.data = (uint8_t *)sdup(s);
    a->s.len = strlen(s);
    return a;
}

static AV *av_shape(size_t rank, const int64_t *dims)
{
    AV *a = av();
    a->value_case = TENSORFLOW__ATTR_VALUE__VALUE_SHAPE;
    a->shape = shape(rank, dims);
    return a;
}

static AV *av_tensor(Tensorflow__TensorProto *t)
{
    AV *a = av();
    a->value_case = TENSORFLOW__ATTR_VALUE__VALUE_TENSOR;
    a->tensor = t;
    return a;
}

static Tensorflow__NameAttrList *namelist(const char *name)
{
    Tensorflow__NameAttrList *n = NEW(Tensorflow__NameAttrList, TENSORFLOW__NAME_ATTR_LIST__INIT);
    n->name = sdup(name);
    return n;
}

static AV *av_func(const char *name)
{
    AV *a = av();
    a->value_case = TENSORFLOW__ATTR_VALUE__VALUE_FUNC;
    a->func = namelist(name);
    return a;
}

static AV *av_list(void)
{
    AV *a = av();
    a->value_case = TENSORFLOW__ATTR_VALUE__VALUE_LIST;
    a->list = NEW(Tensorflow__AttrValue__ListValue, TENSORFLOW__ATTR_VALUE__LIST_VALUE__INIT);
    return a;
}

static AV *av_types(size_t n, const Tensorflow__DataType *t)
{
    AV *a = av_list();
    for (size_t i = 0; i < n; i++)
        APPEND(a->list->type, a->list->n_type, t[i]);
    return a;
}

/* list(shape); a rank of -1 is an unknown rank. */
static AV *av_shapes(size_t n, const int *ranks, const int64_t *dims)
{
    AV *a = av_list();
    for (size_t i = 0; i < n; i++) {
        Tensorflow__TensorShapeProto *s = shape(ranks[i] > 0 ? (size_t)ranks[i] : 0, dims);
        if (ranks[i] < 0)
            s->unknown_rank = 1;
        dims += ranks[i] > 0 ? ranks[i] : 0;
        APPEND(a->list->shape, a->list->n_shape, s);
    }
    return a;
}

static Tensorflow__NodeDef *node(const char *name, const char *op, const char *inputs)
{
    Tensorflow__NodeDef *n = NEW(Tensorflow__NodeDef, TENSORFLOW__NODE_DEF__INIT);
    n->name = sdup(name);
    n->op = sdup(op);
    char *list = sdup(inputs);
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ","))
        APPEND(n->input, n->n_input, tok);
    return n;
}

static Tensorflow__NodeDef *attr(Tensorflow__NodeDef *n, const char *key, AV *v)
{
    Tensorflow__NodeDef__AttrEntry *e =
        NEW(Tensorflow__NodeDef__AttrEntry, TENSORFLOW__NODE_DEF__ATTR_ENTRY__INIT);
    e->key = sdup(key);
    e->value = v;
    APPEND(n->attr, n->n_attr, e);
    return n;
}

static Tensorflow__NodeDef *out_shape(Tensorflow__NodeDef *n, int rank, const int64_t *dims)
{
    return attr(n, "_output_shapes", av_shapes(1, &rank, dims));
}

static void add(Tensorflow__NodeDef ***nodes, size_t *n, Tensorflow__NodeDef *nd)
{
    APPEND(*nodes, *n, nd);
}

/* ---- op signatures (the stripped op list) ---- */

/* "name:T" takes its type from attr T, "name:=float"/"=resource"/"=bool"/
 * "=string" is fixed, "name:*Tin" is a list(type) attr, "name:N*T" N of T. */
static Tensorflow__OpDef__ArgDef *arg(const char *spec)
{
    Tensorflow__OpDef__ArgDef *a = NEW(Tensorflow__OpDef__ArgDef, TENSORFLOW__OP_DEF__ARG_DEF__INIT);
    char *s = sdup(spec), *colon = strchr(s, ':');
    *colon = 0;
    a->name = s;
    char *t = colon + 1;
    if (t[0] == '=') {
        a->type = !strcmp(t + 1, "float") ? TENSORFLOW__DATA_TYPE__DT_FLOAT
                  : !strcmp(t + 1, "resource") ? TENSORFLOW__DATA_TYPE__DT_RESOURCE
                  : !strcmp(t + 1, "bool") ? TENSORFLOW__DATA_TYPE__DT_BOOL
                  : !strcmp(t + 1, "int32") ? TENSORFLOW__DATA_TYPE__DT_INT32
                                            : TENSORFLOW__DATA_TYPE__DT_STRING;
    } else if (t[0] == '*') {
        a->type_list_attr = t + 1;
    } else if (strchr(t, '*')) {
        char *star = strchr(t, '*');
        *star = 0;
        a->number_attr = t;
        a->type_attr = star + 1;
    } else {
        a->type_attr = t;
    }
    return a;
}

static Tensorflow__OpDef *opdef(const char *name, const char *ins, const char *outs,
                                const char *attrs)
{
    Tensorflow__OpDef *o = NEW(Tensorflow__OpDef, TENSORFLOW__OP_DEF__INIT);
    o->name = sdup(name);
    char *l = sdup(ins);
    for (char *tok = strtok(l, ","); tok; tok = strtok(NULL, ","))
        APPEND(o->input_arg, o->n_input_arg, arg(tok));
    l = sdup(outs);
    for (char *tok = strtok(l, ","); tok; tok = strtok(NULL, ","))
        APPEND(o->output_arg, o->n_output_arg, arg(tok));
    l = sdup(attrs); /* "T:type,N:int" */
    for (char *tok = strtok(l, ","); tok; tok = strtok(NULL, ",")) {
        Tensorflow__OpDef__AttrDef *d = NEW(Tensorflow__OpDef__AttrDef, TENSORFLOW__OP_DEF__ATTR_DEF__INIT);
        char *colon = strchr(tok, ':');
        *colon = 0;
        d->name = tok;
        d->type = colon + 1;
        APPEND(o->attr, o->n_attr, d);
    }
    return o;
}

/* ---- files ---- */

static void write_file(const char *dir, const char *name, const void *p, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f)
        die("cannot write %s: %s", path, strerror(errno));
    if ((n && fwrite(p, 1, n, f) != n) || fclose(f) != 0)
        die("cannot write %s: %s", path, strerror(errno));
}

static void make_dir(const char *dir, const char *sub, char *out, size_t n)
{
    snprintf(out, n, "%s/%s", dir, sub);
    if (mkdir(out, 0755) != 0 && errno != EEXIST)
        die("cannot make %s: %s", out, strerror(errno));
}

/* ---- the bare GraphDef ---- */

static void make_graph(const char *outdir)
{
    Tensorflow__GraphDef *g = NEW(Tensorflow__GraphDef, TENSORFLOW__GRAPH_DEF__INIT);
    const int64_t in_dims[] = {-1, 4}, k_dims[] = {4, 3}, b_dims[] = {3}, h_dims[] = {-1, 3};
    const int64_t big[] = {1000, 1000}, half_dims[] = {2, 2}, three[] = {3};

    Tensorflow__NodeDef *n = node("input", "Placeholder", "");
    attr(n, "dtype", av_type(TENSORFLOW__DATA_TYPE__DT_FLOAT));
    attr(n, "shape", av_shape(2, in_dims));
    add(&g->node, &g->n_node, out_shape(n, 2, in_dims));

    Tensorflow__TensorProto *kt = tensor(TENSORFLOW__DATA_TYPE__DT_FLOAT, 2, k_dims);
    kt->tensor_content.data = lcg_bytes("dense/kernel", 12);
    kt->tensor_content.len = 48;
    n = attr(node("dense/kernel", "Const", ""), "value", av_tensor(kt));
    add(&g->node, &g->n_node, attr(n, "dtype", av_type(TENSORFLOW__DATA_TYPE__DT_FLOAT)));

    /* One value for three elements: a splat. */
    Tensorflow__TensorProto *bt = tensor(TENSORFLOW__DATA_TYPE__DT_FLOAT, 1, b_dims);
    APPEND(bt->float_val, bt->n_float_val, 0.25f);
    n = attr(node("dense/bias", "Const", ""), "value", av_tensor(bt));
    add(&g->node, &g->n_node, attr(n, "dtype", av_type(TENSORFLOW__DATA_TYPE__DT_FLOAT)));

    n = node("dense/MatMul", "MatMul", "input,dense/kernel");
    attr(n, "T", av_type(TENSORFLOW__DATA_TYPE__DT_FLOAT));
    attr(n, "transpose_a", av_b(0));
    attr(n, "transpose_b", av_b(0));
    add(&g->node, &g->n_node, out_shape(n, 2, h_dims));

    n = node("dense/BiasAdd", "BiasAdd", "dense/MatMul:0,dense/bias");
    attr(n, "T", av_type(TENSORFLOW__DATA_TYPE__DT_FLOAT));
    add(&g->node, &g->n_node, attr(n, "data_format", av_s("NHWC")));

    n = node("relu", "Relu", "dense/BiasAdd");
    n->device = sdup("/job:localhost/replica:0/task:0/device:CPU:0");
    add(&g->node, &g->n_node, attr(n, "T", av_type(TENSORFLOW__DATA_TYPE__DT_FLOAT)));

    add(&g->node, &g->n_node,
        attr(node("probs", "Softmax", "relu"), "T", av_type(TENSORFLOW__DATA_TYPE__DT_FLOAT)));

    Tensorflow__TensorProto *dim = tensor(TENSORFLOW__DATA_TYPE__DT_INT32, 0, NULL);
    APPEND(dim->int_val, dim->n_int_val, 1);
    n = attr(node("split/dim", "Const", ""), "value", av_tensor(dim));
    add(&g->node, &g->n_node, attr(n, "dtype", av_type(TENSORFLOW__DATA_TYPE__DT_INT32)));

    n = node("split", "Split", "split/dim,relu");
    attr(n, "T", av_type(TENSORFLOW__DATA_TYPE__DT_FLOAT));
    add(&g->node, &g->n_node, attr(n, "num_split", av_i(3)));

    /* Reads the third output, and waits for init (a control edge). */
    n = node("pick", "Identity", "split:2,^init");
    add(&g->node, &g->n_node, attr(n, "T", av_type(TENSORFLOW__DATA_TYPE__DT_FLOAT)));
    add(&g->node, &g->n_node, node("init", "NoOp", ""));

    /* A million int32 sevens, written as one value. */
    Tensorflow__TensorProto *st = tensor(TENSORFLOW__DATA_TYPE__DT_INT32, 2, big);
    APPEND(st->int_val, st->n_int_val, 7);
    n = attr(node("big_splat", "Const", ""), "value", av_tensor(st));
    add(&g->node, &g->n_node, attr(n, "dtype", av_type(TENSORFLOW__DATA_TYPE__DT_INT32)));

    /* float16 bit patterns: 1.0, -2.0, 0.5, 65504 */
    Tensorflow__TensorProto *ht = tensor(TENSORFLOW__DATA_TYPE__DT_HALF, 2, half_dims);
    const int32_t halves[] = {0x3c00, 0xc000, 0x3800, 0x7bff};
    for (int i = 0; i < 4; i++)
        APPEND(ht->half_val, ht->n_half_val, halves[i]);
    n = attr(node("half_weights", "Const", ""), "value", av_tensor(ht));
    add(&g->node, &g->n_node, attr(n, "dtype", av_type(TENSORFLOW__DATA_TYPE__DT_HALF)));

    Tensorflow__TensorProto *lt = tensor(TENSORFLOW__DATA_TYPE__DT_STRING, 1, three);
    const char *labels[] = {"cat", "dog", "bird"};
    for (int i = 0; i < 3; i++) {
        ProtobufCBinaryData d = {strlen(labels[i]), (uint8_t *)sdup(labels[i])};
        APPEND(lt->string_val, lt->n_string_val, d);
    }
    n = attr(node("labels", "Const", ""), "value", av_tensor(lt));
    add(&g->node, &g->n_node, attr(n, "dtype", av_type(TENSORFLOW__DATA_TYPE__DT_STRING)));

    /* One attr of every kind. */
    n = node("attrs", "NoOp", "");
    attr(n, "a_string", av_s("hello \x1b[31mred"));
    attr(n, "an_int", av_i(-3));
    attr(n, "a_float", av_f(2.5f));
    attr(n, "a_bool", av_b(1));
    attr(n, "a_type", av_type(TENSORFLOW__DATA_TYPE__DT_INT64));
    const int64_t sd[] = {2, -1};
    attr(n, "a_shape", av_shape(2, sd));
    AV *ints = av_list();
    for (int i = 1; i <= 3; i++)
        APPEND(ints->list->i, ints->list->n_i, i);
    attr(n, "some_ints", ints);
    AV *fl = av_list();
    APPEND(fl->list->f, fl->list->n_f, 0.5f);
    APPEND(fl->list->f, fl->list->n_f, 1.5f);
    attr(n, "some_floats", fl);
    AV *ss = av_list();
    ProtobufCBinaryData sa = {1, (uint8_t *)sdup("a")}, sb = {1, (uint8_t *)sdup("b")};
    APPEND(ss->list->s, ss->list->n_s, sa);
    APPEND(ss->list->s, ss->list->n_s, sb);
    attr(n, "some_strings", ss);
    const Tensorflow__DataType tl[] = {TENSORFLOW__DATA_TYPE__DT_FLOAT, TENSORFLOW__DATA_TYPE__DT_INT32};
    attr(n, "some_types", av_types(2, tl));
    const int ranks[] = {1, -1};
    const int64_t sdims[] = {5};
    attr(n, "some_shapes", av_shapes(2, ranks, sdims));
    attr(n, "a_func", av_func("SomeOpNotInTheLibrary"));
    attr(n, "an_empty_list", av_list());
    add(&g->node, &g->n_node, n);

    g->versions = NEW(Tensorflow__VersionDef, TENSORFLOW__VERSION_DEF__INIT);
    g->versions->producer = 27;

    size_t len = tensorflow__graph_def__get_packed_size(g);
    /* debug_info (field 5) is outside nnav's schema: written by hand, it must
     * come back as an unknown field, by its number. */
    static const uint8_t debug_info[] = {0x2a, 0x06, 0x0a, 0x04, 'f', 'i', 'l', 'e'};
    uint8_t *buf = zalloc(len + sizeof debug_info);
    tensorflow__graph_def__pack(g, buf);
    memcpy(buf + len, debug_info, sizeof debug_info);
    write_file(outdir, "tf_graph.pb", buf, len + sizeof debug_info);
}

/* ---- the SavedModel ---- */

static Tensorflow__FunctionDef *function(const char *name, const char *ins, const char *outs)
{
    Tensorflow__FunctionDef *f = NEW(Tensorflow__FunctionDef, TENSORFLOW__FUNCTION_DEF__INIT);
    f->signature = opdef(name, ins, outs, "");
    return f;
}

static void fn_node(Tensorflow__FunctionDef *f, Tensorflow__NodeDef *n)
{
    APPEND(f->node_def, f->n_node_def, n);
}

static void fn_ret(Tensorflow__FunctionDef *f, const char *key, const char *value)
{
    Tensorflow__FunctionDef__RetEntry *e =
        NEW(Tensorflow__FunctionDef__RetEntry, TENSORFLOW__FUNCTION_DEF__RET_ENTRY__INIT);
    e->key = sdup(key);
    e->value = sdup(value);
    APPEND(f->ret, f->n_ret, e);
}

static void fn_arg_shape(Tensorflow__FunctionDef *f, uint32_t idx, int rank, const int64_t *dims)
{
    Tensorflow__FunctionDef__ArgAttrEntry *e =
        NEW(Tensorflow__FunctionDef__ArgAttrEntry, TENSORFLOW__FUNCTION_DEF__ARG_ATTR_ENTRY__INIT);
    e->key = idx;
    e->value = NEW(Tensorflow__FunctionDef__ArgAttrs, TENSORFLOW__FUNCTION_DEF__ARG_ATTRS__INIT);
    Tensorflow__FunctionDef__ArgAttrs__AttrEntry *a = NEW(
        Tensorflow__FunctionDef__ArgAttrs__AttrEntry, TENSORFLOW__FUNCTION_DEF__ARG_ATTRS__ATTR_ENTRY__INIT);
    a->key = sdup("_output_shapes");
    a->value = av_shapes(1, &rank, dims);
    APPEND(e->value->attr, e->value->n_attr, a);
    APPEND(f->arg_attr, f->n_arg_attr, e);
}

static Tensorflow__NodeDef *call(const char *name, const char *inputs, const char *fn,
                                 size_t nin, const Tensorflow__DataType *tin)
{
    const Tensorflow__DataType f32 = TENSORFLOW__DATA_TYPE__DT_FLOAT;
    Tensorflow__NodeDef *n = node(name, "StatefulPartitionedCall", inputs);
    attr(n, "Tin", av_types(nin, tin));
    attr(n, "Tout", av_types(1, &f32));
    return attr(n, "f", av_func(fn));
}

static Tensorflow__TensorInfo *tinfo(const char *name, Tensorflow__DataType dt, int rank,
                                     const int64_t *dims)
{
    Tensorflow__TensorInfo *t = NEW(Tensorflow__TensorInfo, TENSORFLOW__TENSOR_INFO__INIT);
    t->encoding_case = TENSORFLOW__TENSOR_INFO__ENCODING_NAME;
    t->name = sdup(name);
    t->dtype = dt;
    t->tensor_shape = shape(rank > 0 ? (size_t)rank : 0, dims);
    if (rank < 0)
        t->tensor_shape->unknown_rank = 1;
    return t;
}

/* ---- the variables: a sorted table (LevelDB format) ---- */

static uint32_t crc_table[256];

static uint32_t crc32c(uint32_t crc, const uint8_t *p, size_t n)
{
    if (!crc_table[1])
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
            crc_table[i] = c;
        }
    crc = ~crc;
    for (size_t i = 0; i < n; i++)
        crc = crc_table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return ~crc;
}

static uint32_t crc_mask(uint32_t c) { return ((c >> 15) | (c << 17)) + 0xa282ead8u; }

typedef struct buf {
    uint8_t *p;
    size_t n, cap;
} buf;

static void put(buf *b, const void *p, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->n + n)
            cap *= 2;
        uint8_t *q = zalloc(cap);
        if (b->n)
            memcpy(q, b->p, b->n);
        b->p = q;
        b->cap = cap;
    }
    if (n)
        memcpy(b->p + b->n, p, n);
    b->n += n;
}

static void put_varint(buf *b, uint64_t v)
{
    uint8_t t[10];
    size_t n = 0;
    do {
        t[n] = v & 0x7f;
        v >>= 7;
        t[n++] |= v ? 0x80 : 0;
    } while (v);
    put(b, t, n);
}

static void put_u32(buf *b, uint32_t v)
{
    uint8_t t[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(b, t, 4);
}

/* Snappy, greedily: the longest earlier match of 4+ bytes becomes a copy
 * (2-byte offset), the rest literals. Small blocks: a plain search will do. */
static void snappy(buf *out, const uint8_t *p, size_t n)
{
    put_varint(out, n);
    size_t i = 0, lit = 0;
    while (i <= n) {
        size_t best = 0, off = 0;
        for (size_t j = i > 65535 ? i - 65535 : 0; i < n && j < i; j++) {
            size_t k = 0;
            while (i + k < n && k < 64 && p[j + k] == p[i + k])
                k++;
            if (k > best)
                best = k, off = i - j;
        }
        if (i < n && best < 4) {
            i++;
            continue;
        }
        while (lit < i) { /* the literal run before the copy (or the end) */
            size_t len = i - lit > 60 ? 60 : i - lit;
            uint8_t tag = (uint8_t)((len - 1) << 2);
            put(out, &tag, 1);
            put(out, p + lit, len);
            lit += len;
        }
        if (i >= n)
            break;
        uint8_t c[3] = {(uint8_t)(((best - 1) << 2) | 2), (uint8_t)off, (uint8_t)(off >> 8)};
        put(out, c, 3);
        i += best;
        lit = i;
    }
}

typedef struct kv {
    const char *key;
    uint8_t *val;
    size_t n;
} kv;

/* One block: prefix-compressed entries, one restart point. */
static void table_block(buf *b, const kv *e, size_t n)
{
    const char *prev = "";
    for (size_t i = 0; i < n; i++) {
        size_t shared = 0, kl = strlen(e[i].key);
        while (prev[shared] && prev[shared] == e[i].key[shared])
            shared++;
        put_varint(b, shared);
        put_varint(b, kl - shared);
        put_varint(b, e[i].n);
        put(b, e[i].key + shared, kl - shared);
        put(b, e[i].val, e[i].n);
        prev = e[i].key;
    }
    put_u32(b, 0); /* restarts[0] */
    put_u32(b, 1); /* one restart */
}

/* Append a block with its trailer; returns its handle (offset, size). */
static void table_put_block(buf *file, const buf *contents, int compress, uint64_t *off,
                            uint64_t *size)
{
    buf c = {0};
    if (compress)
        snappy(&c, contents->p, contents->n);
    else
        put(&c, contents->p, contents->n);
    *off = file->n;
    *size = c.n;
    put(file, c.p, c.n);
    uint8_t type = compress ? 1 : 0;
    put(file, &type, 1);
    put_u32(file, crc_mask(crc32c(crc32c(0, c.p, c.n), &type, 1)));
}

static uint8_t *pack_entry(Tensorflow__BundleEntryProto *e, size_t *n)
{
    *n = tensorflow__bundle_entry_proto__get_packed_size(e);
    uint8_t *p = zalloc(*n);
    tensorflow__bundle_entry_proto__pack(e, p);
    return p;
}

static void make_variables(const char *dir)
{
    /* Data file: the kernel, the bias, then the object graph's bytes. */
    uint8_t *kernel = lcg_bytes("dense/kernel", 12), *bias = lcg_bytes("dense/bias", 3);
    /* A string scalar as TensorFlow stores one: its length (varint), the
     * masked CRC-32C of that length as a 4-byte integer, then the bytes. */
    static const char text[] = "nnav sample: not a real object graph";
    buf objects = {0};
    put_varint(&objects, sizeof text - 1);
    uint8_t len4[4] = {sizeof text - 1, 0, 0, 0};
    put_u32(&objects, crc_mask(crc32c(0, len4, 4)));
    put(&objects, text, sizeof text - 1);
    buf data = {0};
    put(&data, kernel, 48);
    put(&data, bias, 12);
    put(&data, objects.p, objects.n);
    write_file(dir, "variables.data-00000-of-00001", data.p, data.n);

    Tensorflow__BundleHeaderProto *h = NEW(Tensorflow__BundleHeaderProto, TENSORFLOW__BUNDLE_HEADER_PROTO__INIT);
    h->num_shards = 1;
    h->version = NEW(Tensorflow__VersionDef, TENSORFLOW__VERSION_DEF__INIT);
    h->version->producer = 1;
    kv e[4];
    e[0].key = "";
    e[0].n = tensorflow__bundle_header_proto__get_packed_size(h);
    e[0].val = zalloc(e[0].n);
    tensorflow__bundle_header_proto__pack(h, e[0].val);

    const int64_t k_dims[] = {4, 3}, b_dims[] = {3};
    Tensorflow__BundleEntryProto *g = NEW(Tensorflow__BundleEntryProto, TENSORFLOW__BUNDLE_ENTRY_PROTO__INIT);
    g->dtype = TENSORFLOW__DATA_TYPE__DT_STRING;
    g->shape = shape(0, NULL);
    g->offset = 60;
    g->size = objects.n;
    g->crc32c = crc_mask(crc32c(0, objects.p, objects.n));
    e[1].key = "_CHECKPOINTABLE_OBJECT_GRAPH";
    e[1].val = pack_entry(g, &e[1].n);

    Tensorflow__BundleEntryProto *b = NEW(Tensorflow__BundleEntryProto, TENSORFLOW__BUNDLE_ENTRY_PROTO__INIT);
    b->dtype = TENSORFLOW__DATA_TYPE__DT_FLOAT;
    b->shape = shape(1, b_dims);
    b->offset = 48;
    b->size = 12;
    b->crc32c = crc_mask(crc32c(0, bias, 12));
    e[2].key = "dense/bias/.ATTRIBUTES/VARIABLE_VALUE";
    e[2].val = pack_entry(b, &e[2].n);

    Tensorflow__BundleEntryProto *k = NEW(Tensorflow__BundleEntryProto, TENSORFLOW__BUNDLE_ENTRY_PROTO__INIT);
    k->dtype = TENSORFLOW__DATA_TYPE__DT_FLOAT;
    k->shape = shape(2, k_dims);
    k->offset = 0;
    k->size = 48;
    k->crc32c = crc_mask(crc32c(0, kernel, 48));
    e[3].key = "dense/kernel/.ATTRIBUTES/VARIABLE_VALUE";
    e[3].val = pack_entry(k, &e[3].n);

    buf file = {0}, blk = {0}, index = {0}, meta = {0};
    uint64_t doff, dsize, moff, msize, ioff, isize;
    table_block(&blk, e, 4);
    table_put_block(&file, &blk, 1, &doff, &dsize);
    table_block(&meta, NULL, 0);
    table_put_block(&file, &meta, 0, &moff, &msize);
    buf handle = {0};
    put_varint(&handle, doff);
    put_varint(&handle, dsize);
    kv ie = {e[3].key, handle.p, handle.n};
    table_block(&index, &ie, 1);
    table_put_block(&file, &index, 0, &ioff, &isize);
    buf footer = {0};
    put_varint(&footer, moff);
    put_varint(&footer, msize);
    put_varint(&footer, ioff);
    put_varint(&footer, isize);
    while (footer.n < 40) {
        uint8_t z = 0;
        put(&footer, &z, 1);
    }
    put_u32(&footer, 0x8b80fb57u);
    put_u32(&footer, 0xdb477524u);
    put(&file, footer.p, footer.n);
    write_file(dir, "variables.index", file.p, file.n);
}

static void make_saved_model(const char *outdir)
{
    const Tensorflow__DataType F = TENSORFLOW__DATA_TYPE__DT_FLOAT, R = TENSORFLOW__DATA_TYPE__DT_RESOURCE;
    const Tensorflow__DataType frr[] = {F, R, R};
    const int64_t in_dims[] = {-1, 4}, k_dims[] = {4, 3}, b_dims[] = {3}, h_dims[] = {-1, 3};

    Tensorflow__MetaGraphDef *mg = NEW(Tensorflow__MetaGraphDef, TENSORFLOW__META_GRAPH_DEF__INIT);
    Tensorflow__MetaGraphDef__MetaInfoDef *mi =
        NEW(Tensorflow__MetaGraphDef__MetaInfoDef, TENSORFLOW__META_GRAPH_DEF__META_INFO_DEF__INIT);
    APPEND(mi->tags, mi->n_tags, sdup("serve"));
    mi->tensorflow_version = sdup("2.99.0-nnav-samples");
    mi->tensorflow_git_version = sdup("none");
    mi->stripped_op_list = NEW(Tensorflow__OpList, TENSORFLOW__OP_LIST__INIT);
    Tensorflow__OpList *ol = mi->stripped_op_list;
    APPEND(ol->op, ol->n_op, opdef("AddV2", "x:T,y:T", "z:T", "T:type"));
    APPEND(ol->op, ol->n_op, opdef("Const", "", "output:dtype", "value:tensor,dtype:type"));
    APPEND(ol->op, ol->n_op, opdef("Identity", "input:T", "output:T", "T:type"));
    APPEND(ol->op, ol->n_op, opdef("If", "cond:Tcond,input:*Tin", "output:*Tout",
                                   "Tcond:type,Tin:list(type),Tout:list(type),then_branch:func,"
                                   "else_branch:func"));
    APPEND(ol->op, ol->n_op, opdef("Less", "x:T,y:T", "z:=bool", "T:type"));
    APPEND(ol->op, ol->n_op, opdef("MatMul", "a:T,b:T", "product:T", "T:type"));
    APPEND(ol->op, ol->n_op, opdef("Neg", "x:T", "y:T", "T:type"));
    APPEND(ol->op, ol->n_op, opdef("NoOp", "", "", ""));
    APPEND(ol->op, ol->n_op, opdef("Placeholder", "", "output:dtype", "dtype:type,shape:shape"));
    APPEND(ol->op, ol->n_op, opdef("ReadVariableOp", "resource:=resource", "value:dtype", "dtype:type"));
    APPEND(ol->op, ol->n_op, opdef("Relu", "features:T", "activations:T", "T:type"));
    APPEND(ol->op, ol->n_op, opdef("Split", "split_dim:=int32,value:T", "output:num_split*T",
                                   "num_split:int,T:type"));
    APPEND(ol->op, ol->n_op, opdef("StatefulPartitionedCall", "args:*Tin", "output:*Tout",
                                   "Tin:list(type),Tout:list(type),f:func"));
    APPEND(ol->op, ol->n_op, opdef("VarHandleOp", "", "resource:=resource",
                                   "dtype:type,shape:shape,shared_name:string"));
    APPEND(ol->op, ol->n_op, opdef("While", "input:*T", "output:*T",
                                   "T:list(type),cond:func,body:func"));
    mg->meta_info_def = mi;

    /* The top graph: placeholders, the variables' handles, one call. */
    Tensorflow__GraphDef *g = NEW(Tensorflow__GraphDef, TENSORFLOW__GRAPH_DEF__INIT);
    mg->graph_def = g;
    Tensorflow__NodeDef *n = node("serving_default_x", "Placeholder", "");
    attr(n, "dtype", av_type(F));
    attr(n, "shape", av_shape(2, in_dims));
    add(&g->node, &g->n_node, out_shape(n, 2, in_dims));
    n = node("dense/kernel", "VarHandleOp", "");
    attr(n, "dtype", av_type(F));
    attr(n, "shape", av_shape(2, k_dims));
    add(&g->node, &g->n_node, attr(n, "shared_name", av_s("dense/kernel")));
    n = node("dense/bias", "VarHandleOp", "");
    attr(n, "dtype", av_type(F));
    attr(n, "shape", av_shape(1, b_dims));
    add(&g->node, &g->n_node, attr(n, "shared_name", av_s("dense/bias")));
    n = call("StatefulPartitionedCall", "serving_default_x,dense/kernel,dense/bias",
             "__inference_signature_wrapper_40", 3, frr);
    add(&g->node, &g->n_node, out_shape(n, 2, h_dims));
    add(&g->node, &g->n_node, node("NoOp", "NoOp", "^dense/kernel,^dense/bias"));

    Tensorflow__FunctionDefLibrary *lib = NEW(Tensorflow__FunctionDefLibrary, TENSORFLOW__FUNCTION_DEF_LIBRARY__INIT);
    g->library = lib;
    g->versions = NEW(Tensorflow__VersionDef, TENSORFLOW__VERSION_DEF__INIT);
    g->versions->producer = 1645;
    g->versions->min_consumer = 12;

    /* The wrapper the signature calls. */
    Tensorflow__FunctionDef *f = function("__inference_signature_wrapper_40",
                                          "x:=float,unknown:=resource,unknown_0:=resource",
                                          "output_0:=float");
    fn_node(f, call("StatefulPartitionedCall", "x,unknown,unknown_0", "__inference_serve_30", 3, frr));
    n = node("Identity", "Identity", "StatefulPartitionedCall:output:0,^NoOp");
    fn_node(f, attr(n, "T", av_type(F)));
    fn_node(f, node("NoOp", "NoOp", "^StatefulPartitionedCall"));
    fn_ret(f, "output_0", "Identity:output:0");
    fn_arg_shape(f, 0, 2, in_dims);
    APPEND(lib->function, lib->n_function, f);

    /* The layer: a dense layer, an If, a While, a Split. */
    f = function("__inference_serve_30", "x:=float,kernel:=resource,bias:=resource", "identity:=float");
    fn_node(f, attr(node("ReadVariableOp", "ReadVariableOp", "kernel"), "dtype", av_type(F)));
    n = node("MatMul", "MatMul", "x,ReadVariableOp:value:0");
    fn_node(f, out_shape(attr(n, "T", av_type(F)), 2, h_dims));
    fn_node(f, attr(node("ReadVariableOp_1", "ReadVariableOp", "bias"), "dtype", av_type(F)));
    n = node("BiasAdd", "AddV2", "MatMul:product:0,ReadVariableOp_1:value:0");
    fn_node(f, attr(n, "T", av_type(F)));
    fn_node(f, attr(node("relu", "Relu", "BiasAdd:z:0"), "T", av_type(F)));
    Tensorflow__TensorProto *zero = tensor(F, 0, NULL);
    APPEND(zero->float_val, zero->n_float_val, 0.0f);
    n = attr(node("zero", "Const", ""), "value", av_tensor(zero));
    fn_node(f, attr(n, "dtype", av_type(F)));
    n = node("is_neg", "Less", "MatMul:product:0,zero:output:0");
    fn_node(f, attr(n, "T", av_type(F)));
    n = node("cond", "If", "is_neg:z:0,relu:activations:0");
    const Tensorflow__DataType b1 = TENSORFLOW__DATA_TYPE__DT_BOOL;
    attr(n, "Tcond", av_type(b1));
    attr(n, "Tin", av_types(1, &F));
    attr(n, "Tout", av_types(1, &F));
    attr(n, "then_branch", av_func("__inference_cond_true_31"));
    fn_node(f, attr(n, "else_branch", av_func("__inference_cond_false_32")));
    n = node("loop", "While", "cond:output:0");
    attr(n, "T", av_types(1, &F));
    attr(n, "cond", av_func("__inference_loop_cond_33"));
    fn_node(f, attr(n, "body", av_func("__inference_loop_body_34")));
    Tensorflow__TensorProto *one = tensor(TENSORFLOW__DATA_TYPE__DT_INT32, 0, NULL);
    APPEND(one->int_val, one->n_int_val, 1);
    n = attr(node("split/dim", "Const", ""), "value", av_tensor(one));
    fn_node(f, attr(n, "dtype", av_type(TENSORFLOW__DATA_TYPE__DT_INT32)));
    n = node("split", "Split", "split/dim:output:0,loop:output:0");
    attr(n, "T", av_type(F));
    fn_node(f, attr(n, "num_split", av_i(3)));
    n = node("Identity", "Identity", "split:output:1");
    fn_node(f, attr(n, "T", av_type(F)));
    fn_ret(f, "identity", "Identity:output:0");
    APPEND(lib->function, lib->n_function, f);

    f = function("__inference_cond_true_31", "x:=float", "out:=float");
    fn_node(f, attr(node("Identity", "Identity", "x"), "T", av_type(F)));
    fn_ret(f, "out", "Identity:output:0");
    APPEND(lib->function, lib->n_function, f);
    f = function("__inference_cond_false_32", "x:=float", "out:=float");
    fn_node(f, attr(node("Neg", "Neg", "x"), "T", av_type(F)));
    fn_ret(f, "out", "Neg:y:0");
    APPEND(lib->function, lib->n_function, f);
    f = function("__inference_loop_cond_33", "x:=float", "keep_going:=bool");
    Tensorflow__TensorProto *ten = tensor(F, 0, NULL);
    APPEND(ten->float_val, ten->n_float_val, 10.0f);
    n = attr(node("limit", "Const", ""), "value", av_tensor(ten));
    fn_node(f, attr(n, "dtype", av_type(F)));
    fn_node(f, attr(node("Less", "Less", "x,limit:output:0"), "T", av_type(F)));
    fn_ret(f, "keep_going", "Less:z:0");
    APPEND(lib->function, lib->n_function, f);
    f = function("__inference_loop_body_34", "x:=float", "next:=float");
    Tensorflow__TensorProto *step = tensor(F, 0, NULL);
    APPEND(step->float_val, step->n_float_val, 1.0f);
    n = attr(node("step", "Const", ""), "value", av_tensor(step));
    fn_node(f, attr(n, "dtype", av_type(F)));
    fn_node(f, attr(node("add", "AddV2", "x,step:output:0"), "T", av_type(F)));
    fn_ret(f, "next", "add:z:0");
    APPEND(lib->function, lib->n_function, f);

    /* Signatures: the model's inputs and outputs. */
    Tensorflow__SignatureDef *sd = NEW(Tensorflow__SignatureDef, TENSORFLOW__SIGNATURE_DEF__INIT);
    sd->method_name = sdup("tensorflow/serving/predict");
    Tensorflow__SignatureDef__InputsEntry *ie =
        NEW(Tensorflow__SignatureDef__InputsEntry, TENSORFLOW__SIGNATURE_DEF__INPUTS_ENTRY__INIT);
    ie->key = sdup("x");
    ie->value = tinfo("serving_default_x:0", F, 2, in_dims);
    APPEND(sd->inputs, sd->n_inputs, ie);
    Tensorflow__SignatureDef__OutputsEntry *oe =
        NEW(Tensorflow__SignatureDef__OutputsEntry, TENSORFLOW__SIGNATURE_DEF__OUTPUTS_ENTRY__INIT);
    oe->key = sdup("output_0");
    oe->value = tinfo("StatefulPartitionedCall:0", F, 2, h_dims);
    APPEND(sd->outputs, sd->n_outputs, oe);
    Tensorflow__MetaGraphDef__SignatureDefEntry *se =
        NEW(Tensorflow__MetaGraphDef__SignatureDefEntry, TENSORFLOW__META_GRAPH_DEF__SIGNATURE_DEF_ENTRY__INIT);
    se->key = sdup("serving_default");
    se->value = sd;
    APPEND(mg->signature_def, mg->n_signature_def, se);
    Tensorflow__SignatureDef *init = NEW(Tensorflow__SignatureDef, TENSORFLOW__SIGNATURE_DEF__INIT);
    oe = NEW(Tensorflow__SignatureDef__OutputsEntry, TENSORFLOW__SIGNATURE_DEF__OUTPUTS_ENTRY__INIT);
    oe->key = sdup("__saved_model_init_op");
    oe->value = tinfo("NoOp", TENSORFLOW__DATA_TYPE__DT_INVALID, -1, NULL);
    APPEND(init->outputs, init->n_outputs, oe);
    se = NEW(Tensorflow__MetaGraphDef__SignatureDefEntry, TENSORFLOW__META_GRAPH_DEF__SIGNATURE_DEF_ENTRY__INIT);
    se->key = sdup("__saved_model_init_op");
    se->value = init;
    APPEND(mg->signature_def, mg->n_signature_def, se);

    Tensorflow__SavedModel *sm = NEW(Tensorflow__SavedModel, TENSORFLOW__SAVED_MODEL__INIT);
    sm->saved_model_schema_version = 1;
    APPEND(sm->meta_graphs, sm->n_meta_graphs, mg);

    char dir[4096], vdir[4096];
    make_dir(outdir, "tf_saved_model", dir, sizeof dir);
    size_t len = tensorflow__saved_model__get_packed_size(sm);
    uint8_t *bytes = zalloc(len);
    tensorflow__saved_model__pack(sm, bytes);
    write_file(dir, "saved_model.pb", bytes, len);
    make_dir(dir, "variables", vdir, sizeof vdir);
    make_variables(vdir);
}

void nnav_gen_tf(const char *outdir)
{
    make_graph(outdir);
    pool_free();
    make_saved_model(outdir);
    pool_free();
}
