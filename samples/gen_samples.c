/* gen_samples.c - writes the sample ONNX models that nnav's tests and demos use.
 *
 * Usage: nnav-samples OUTDIR
 *
 * Writes into OUTDIR:
 *   cnn.onnx            a small image classifier with real-shaped weights,
 *                       mixing raw_data, float_data and a FLOAT16 initializer
 *   control_flow.onnx   Loop (whose body holds an If), Scan, a call to a
 *                       model-local function, a sparse initializer, and one
 *                       attribute of each common kind
 *   external.onnx       an MLP whose larger weights live in
 *   external.onnx.data  (4096-aligned, like the ONNX tools write them)
 * and the TensorFlow samples of gen_tf.c (tf_graph.pb, tf_saved_model/).
 *
 * The models are built as protobuf-c structs from our own proto/onnx.proto and
 * packed with onnx__model_proto__pack, so the same schema that nnav reads with
 * also produced the bytes. Weights come from a tiny LCG seeded by the tensor
 * name, so the files are byte-for-byte reproducible across runs and hosts.
 *
 * Memory: every allocation goes through a small arena (xalloc/xgrow) that is
 * released after each model, so the program is leak-free under ASan without
 * hand-written destructors for every message.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.pb-c.h"

/* IR version 8, not 9: the reference checker we verify against (onnx 1.12,
 * Debian's python3-onnx) refuses any ir_version above the newest it knows,
 * which is 8. Everything these samples use exists in IR 8 except
 * FunctionProto.attribute_proto (IR 9); older readers keep that field as an
 * unknown one, newer readers honour it. */
#define SAMPLE_IR_VERSION 8
#define SAMPLE_OPSET 17
#define EXTERNAL_ALIGN 4096u

enum {
    DT_FLOAT = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT,
    DT_INT64 = ONNX__TENSOR_PROTO__DATA_TYPE__INT64,
    DT_STRING = ONNX__TENSOR_PROTO__DATA_TYPE__STRING,
    DT_BOOL = ONNX__TENSOR_PROTO__DATA_TYPE__BOOL,
    DT_FLOAT16 = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16,
};

/* ---------------------------------------------------------------- arena -- */

static void **arena;
static size_t arena_n, arena_cap;

static void arena_free_all(void)
{
    for (size_t i = 0; i < arena_n; i++)
        free(arena[i]);
    free(arena);
    arena = NULL;
    arena_n = arena_cap = 0;
}

static _Noreturn void die(const char *fmt, ...)
{
    va_list ap;
    fputs("nnav-samples: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    arena_free_all();
    exit(1);
}

static void arena_track(void *p)
{
    if (arena_n == arena_cap) {
        size_t nc = arena_cap ? arena_cap * 2 : 256;
        void **na = realloc(arena, nc * sizeof *na);
        if (!na) {
            free(p);
            die("out of memory");
        }
        arena = na;
        arena_cap = nc;
    }
    arena[arena_n++] = p;
}

/* Zeroed memory owned by the arena. */
static void *xalloc(size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (!p)
        die("out of memory");
    arena_track(p);
    return p;
}

/* Resize an arena block (or allocate one when old is NULL). New bytes are
 * not zeroed; callers only use them for arrays they fill at once. */
static void *xgrow(void *old, size_t n)
{
    if (!old)
        return xalloc(n);
    size_t i = arena_n;
    while (i > 0 && arena[i - 1] != old)
        i--;
    if (i == 0)
        die("internal error: resizing memory the arena does not own");
    void *p = realloc(old, n ? n : 1);
    if (!p)
        die("out of memory");
    arena[i - 1] = p;
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xalloc(n), s, n);
}

/* A fresh message of type T, set to its protobuf-c initial value. */
#define NEW(T, INIT) ((T *)memcpy(xalloc(sizeof(T)), &(T)INIT, sizeof(T)))

/* Append one element to a protobuf-c repeated field (pointer + count). */
#define APPEND(arr, n, item)                                        \
    do {                                                            \
        (arr) = xgrow((arr), ((n) + 1) * sizeof *(arr));            \
        (arr)[(n)++] = (item);                                      \
    } while (0)

/* ---------------------------------------------------- deterministic data -- */

/* Numerical Recipes' LCG; good enough for weights nobody trains. */
typedef struct lcg {
    uint32_t s;
} lcg;

static lcg lcg_for(const char *name)
{
    uint32_t h = 2166136261u; /* FNV-1a of the tensor name */
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 16777619u;
    lcg g = { h };
    return g;
}

static float lcg_next(lcg *g, float lo, float hi)
{
    g->s = g->s * 1664525u + 1013904223u;
    float u = (float)(g->s >> 8) * (1.0f / 16777216.0f); /* [0, 1) */
    return lo + (hi - lo) * u;
}

static float *random_floats(const char *seed, size_t n, float lo, float hi)
{
    float *v = xalloc(n * sizeof *v);
    lcg g = lcg_for(seed);
    for (size_t i = 0; i < n; i++)
        v[i] = lcg_next(&g, lo, hi);
    return v;
}

static void put_le(uint8_t *p, uint64_t v, size_t nbytes)
{
    for (size_t i = 0; i < nbytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t f32_bits(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    return x;
}

/* float -> IEEE half, round to nearest even; handles subnormals, inf, NaN. */
static uint16_t f32_to_f16(float f)
{
    uint32_t x = f32_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xffu;
    uint32_t man = x & 0x7fffffu;

    if (exp == 0xffu)
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u : 0u));
    int32_t e = (int32_t)exp - 127 + 15;
    if (e >= 0x1f)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        man |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t h = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1u);
        uint32_t half = 1u << (shift - 1u);
        if (rem > half || (rem == half && (h & 1u)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (man >> 13);
    uint32_t rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        h++; /* a carry into the exponent is the correct rounding */
    return (uint16_t)(sign | h);
}

/* -------------------------------------------------------------- builders -- */

static Onnx__StringStringEntryProto *kv(const char *k, const char *v)
{
    Onnx__StringStringEntryProto *e =
        NEW(Onnx__StringStringEntryProto, ONNX__STRING_STRING_ENTRY_PROTO__INIT);
    e->key = xstrdup(k);
    e->value = xstrdup(v);
    return e;
}

static Onnx__OperatorSetIdProto *opset(const char *domain, int64_t version)
{
    Onnx__OperatorSetIdProto *o =
        NEW(Onnx__OperatorSetIdProto, ONNX__OPERATOR_SET_ID_PROTO__INIT);
    o->domain = xstrdup(domain);
    o->has_version = 1;
    o->version = version;
    return o;
}

static ProtobufCBinaryData bytes_of(const char *s)
{
    ProtobufCBinaryData b;
    b.len = strlen(s);
    b.data = xalloc(b.len);
    memcpy(b.data, s, b.len);
    return b;
}

/* Tensor type with a known rank; a negative dim is left for dim_param(). */
static Onnx__TypeProto *tensor_type(int32_t elem, size_t rank, const int64_t *dims)
{
    Onnx__TypeProto *tp = NEW(Onnx__TypeProto, ONNX__TYPE_PROTO__INIT);
    Onnx__TypeProto__Tensor *tt = NEW(Onnx__TypeProto__Tensor, ONNX__TYPE_PROTO__TENSOR__INIT);
    Onnx__TensorShapeProto *shape = NEW(Onnx__TensorShapeProto, ONNX__TENSOR_SHAPE_PROTO__INIT);
    tt->has_elem_type = 1;
    tt->elem_type = elem;
    for (size_t i = 0; i < rank; i++) {
        Onnx__TensorShapeProto__Dimension *d =
            NEW(Onnx__TensorShapeProto__Dimension, ONNX__TENSOR_SHAPE_PROTO__DIMENSION__INIT);
        if (dims[i] >= 0) {
            d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
            d->dim_value = dims[i];
        }
        APPEND(shape->dim, shape->n_dim, d);
    }
    tt->shape = shape; /* rank 0 = scalar, still a (empty) shape */
    tp->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    tp->tensor_type = tt;
    return tp;
}

static Onnx__TensorShapeProto__Dimension *vi_dim(Onnx__ValueInfoProto *vi, size_t axis)
{
    Onnx__TensorShapeProto *s = vi->type->tensor_type->shape;
    if (axis >= s->n_dim)
        die("internal error: axis %zu out of range for %s", axis, vi->name);
    return s->dim[axis];
}

static void dim_param(Onnx__ValueInfoProto *vi, size_t axis, const char *param)
{
    Onnx__TensorShapeProto__Dimension *d = vi_dim(vi, axis);
    d->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
    d->dim_param = xstrdup(param);
}

static void dim_denotation(Onnx__ValueInfoProto *vi, size_t axis, const char *den)
{
    vi_dim(vi, axis)->denotation = xstrdup(den);
}

static Onnx__ValueInfoProto *vinfo(const char *name, int32_t elem, size_t rank,
                                   const int64_t *dims)
{
    Onnx__ValueInfoProto *vi = NEW(Onnx__ValueInfoProto, ONNX__VALUE_INFO_PROTO__INIT);
    vi->name = xstrdup(name);
    vi->type = tensor_type(elem, rank, dims);
    return vi;
}

static size_t numel(size_t rank, const int64_t *dims)
{
    size_t n = 1;
    for (size_t i = 0; i < rank; i++)
        n *= (size_t)dims[i];
    return n;
}

static Onnx__TensorProto *tensor_new(const char *name, int32_t dtype, size_t rank,
                                     const int64_t *dims)
{
    Onnx__TensorProto *t = NEW(Onnx__TensorProto, ONNX__TENSOR_PROTO__INIT);
    if (name)
        t->name = xstrdup(name);
    t->has_data_type = 1;
    t->data_type = dtype;
    for (size_t i = 0; i < rank; i++)
        APPEND(t->dims, t->n_dims, dims[i]);
    return t;
}

static size_t tensor_numel(const Onnx__TensorProto *t)
{
    return numel(t->n_dims, t->dims);
}

/* Little-endian float32 bytes, as raw_data and external files hold them. */
static uint8_t *f32_le_bytes(const float *v, size_t n)
{
    uint8_t *b = xalloc(n * 4);
    for (size_t i = 0; i < n; i++)
        put_le(b + 4 * i, f32_bits(v[i]), 4);
    return b;
}

static void set_raw(Onnx__TensorProto *t, uint8_t *bytes, size_t n)
{
    t->has_raw_data = 1;
    t->raw_data.data = bytes;
    t->raw_data.len = n;
}

/* Uniform weights in [lo, hi), stored in the chosen place. */
static Onnx__TensorProto *weights_raw(const char *name, size_t rank, const int64_t *dims,
                                      float lo, float hi)
{
    Onnx__TensorProto *t = tensor_new(name, DT_FLOAT, rank, dims);
    size_t n = tensor_numel(t);
    set_raw(t, f32_le_bytes(random_floats(name, n, lo, hi), n), n * 4);
    return t;
}

static Onnx__TensorProto *weights_typed(const char *name, size_t rank, const int64_t *dims,
                                        float lo, float hi)
{
    Onnx__TensorProto *t = tensor_new(name, DT_FLOAT, rank, dims);
    t->n_float_data = tensor_numel(t);
    t->float_data = random_floats(name, t->n_float_data, lo, hi);
    return t;
}

static Onnx__TensorProto *weights_f16(const char *name, size_t rank, const int64_t *dims,
                                      float lo, float hi)
{
    Onnx__TensorProto *t = tensor_new(name, DT_FLOAT16, rank, dims);
    size_t n = tensor_numel(t);
    const float *v = random_floats(name, n, lo, hi);
    uint8_t *b = xalloc(n * 2);
    for (size_t i = 0; i < n; i++)
        put_le(b + 2 * i, f32_to_f16(v[i]), 2);
    set_raw(t, b, n * 2);
    return t;
}

/* "a,b,,c" -> four names, the third empty (an omitted optional input). */
static void add_names(char ***arr, size_t *n, const char *csv)
{
    if (!csv)
        return;
    for (const char *p = csv;;) {
        const char *c = strchr(p, ',');
        size_t len = c ? (size_t)(c - p) : strlen(p);
        char *s = xalloc(len + 1);
        memcpy(s, p, len);
        APPEND(*arr, *n, s);
        if (!c)
            break;
        p = c + 1;
    }
}

static Onnx__NodeProto *node_new(const char *name, const char *op, const char *ins,
                                 const char *outs)
{
    Onnx__NodeProto *nd = NEW(Onnx__NodeProto, ONNX__NODE_PROTO__INIT);
    nd->name = xstrdup(name);
    nd->op_type = xstrdup(op);
    add_names(&nd->input, &nd->n_input, ins);
    add_names(&nd->output, &nd->n_output, outs);
    return nd;
}

/* Attributes: attached to nd when it is not NULL, returned either way. */
static Onnx__AttributeProto *attr_new(Onnx__NodeProto *nd, const char *name,
                                      Onnx__AttributeProto__AttributeType type)
{
    Onnx__AttributeProto *a = NEW(Onnx__AttributeProto, ONNX__ATTRIBUTE_PROTO__INIT);
    a->name = xstrdup(name);
    a->has_type = 1;
    a->type = type;
    if (nd)
        APPEND(nd->attribute, nd->n_attribute, a);
    return a;
}

static Onnx__AttributeProto *attr_f(Onnx__NodeProto *nd, const char *name, float v)
{
    Onnx__AttributeProto *a = attr_new(nd, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
    a->has_f = 1;
    a->f = v;
    return a;
}

static Onnx__AttributeProto *attr_i(Onnx__NodeProto *nd, const char *name, int64_t v)
{
    Onnx__AttributeProto *a = attr_new(nd, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);
    a->has_i = 1;
    a->i = v;
    return a;
}

static Onnx__AttributeProto *attr_s(Onnx__NodeProto *nd, const char *name, const char *v)
{
    Onnx__AttributeProto *a = attr_new(nd, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);
    a->has_s = 1;
    a->s = bytes_of(v);
    return a;
}

static Onnx__AttributeProto *attr_ints(Onnx__NodeProto *nd, const char *name, size_t n,
                                       const int64_t *v)
{
    Onnx__AttributeProto *a = attr_new(nd, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);
    for (size_t i = 0; i < n; i++)
        APPEND(a->ints, a->n_ints, v[i]);
    return a;
}

static Onnx__AttributeProto *attr_floats(Onnx__NodeProto *nd, const char *name, size_t n,
                                         const float *v)
{
    Onnx__AttributeProto *a = attr_new(nd, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS);
    for (size_t i = 0; i < n; i++)
        APPEND(a->floats, a->n_floats, v[i]);
    return a;
}

static Onnx__AttributeProto *attr_strings(Onnx__NodeProto *nd, const char *name, size_t n,
                                          const char *const *v)
{
    Onnx__AttributeProto *a = attr_new(nd, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS);
    for (size_t i = 0; i < n; i++) {
        ProtobufCBinaryData b = bytes_of(v[i]);
        APPEND(a->strings, a->n_strings, b);
    }
    return a;
}

static Onnx__AttributeProto *attr_t(Onnx__NodeProto *nd, const char *name,
                                    Onnx__TensorProto *t)
{
    Onnx__AttributeProto *a = attr_new(nd, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);
    a->t = t;
    return a;
}

static Onnx__AttributeProto *attr_g(Onnx__NodeProto *nd, const char *name,
                                    Onnx__GraphProto *g)
{
    Onnx__AttributeProto *a = attr_new(nd, name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH);
    a->g = g;
    return a;
}

/* Inside a function body: the value comes from the caller's attribute `ref`. */
static Onnx__AttributeProto *attr_ref(Onnx__NodeProto *nd, const char *name, const char *ref,
                                      Onnx__AttributeProto__AttributeType type)
{
    Onnx__AttributeProto *a = attr_new(nd, name, type);
    a->ref_attr_name = xstrdup(ref);
    return a;
}

static Onnx__GraphProto *graph_new(const char *name, const char *doc)
{
    Onnx__GraphProto *g = NEW(Onnx__GraphProto, ONNX__GRAPH_PROTO__INIT);
    g->name = xstrdup(name);
    if (doc)
        g->doc_string = xstrdup(doc);
    return g;
}

static Onnx__NodeProto *graph_node(Onnx__GraphProto *g, const char *name, const char *op,
                                   const char *ins, const char *outs)
{
    Onnx__NodeProto *nd = node_new(name, op, ins, outs);
    APPEND(g->node, g->n_node, nd);
    return nd;
}

static Onnx__ValueInfoProto *graph_input(Onnx__GraphProto *g, const char *name, int32_t elem,
                                         size_t rank, const int64_t *dims)
{
    Onnx__ValueInfoProto *vi = vinfo(name, elem, rank, dims);
    APPEND(g->input, g->n_input, vi);
    return vi;
}

static Onnx__ValueInfoProto *graph_output(Onnx__GraphProto *g, const char *name, int32_t elem,
                                          size_t rank, const int64_t *dims)
{
    Onnx__ValueInfoProto *vi = vinfo(name, elem, rank, dims);
    APPEND(g->output, g->n_output, vi);
    return vi;
}

static Onnx__ValueInfoProto *graph_value_info(Onnx__GraphProto *g, const char *name,
                                              int32_t elem, size_t rank, const int64_t *dims)
{
    Onnx__ValueInfoProto *vi = vinfo(name, elem, rank, dims);
    APPEND(g->value_info, g->n_value_info, vi);
    return vi;
}

static void graph_init(Onnx__GraphProto *g, Onnx__TensorProto *t)
{
    APPEND(g->initializer, g->n_initializer, t);
}

static Onnx__ModelProto *model_new(Onnx__GraphProto *g, const char *doc)
{
    Onnx__ModelProto *m = NEW(Onnx__ModelProto, ONNX__MODEL_PROTO__INIT);
    Onnx__OperatorSetIdProto *std = opset("", SAMPLE_OPSET);
    m->has_ir_version = 1;
    m->ir_version = SAMPLE_IR_VERSION;
    m->producer_name = xstrdup("nnav-samples");
    m->producer_version = xstrdup("0.1");
    m->has_model_version = 1;
    m->model_version = 1;
    m->doc_string = xstrdup(doc);
    m->graph = g;
    APPEND(m->opset_import, m->n_opset_import, std);
    return m;
}

static void model_meta(Onnx__ModelProto *m, const char *k, const char *v)
{
    Onnx__StringStringEntryProto *e = kv(k, v);
    APPEND(m->metadata_props, m->n_metadata_props, e);
}

/* ---------------------------------------------------------------- output -- */

static const char *outdir;

static char *out_path(const char *file)
{
    size_t n = strlen(outdir) + 1 + strlen(file) + 1;
    char *p = xalloc(n);
    snprintf(p, n, "%s/%s", outdir, file);
    return p;
}

static void write_file(const char *file, const uint8_t *data, size_t n)
{
    char *path = out_path(file);
    FILE *f = fopen(path, "wb");
    if (!f)
        die("cannot create %s: %s", path, strerror(errno));
    if (n && fwrite(data, 1, n, f) != n) {
        int err = errno;
        fclose(f);
        die("cannot write %s: %s", path, strerror(err));
    }
    if (fclose(f) != 0)
        die("cannot write %s: %s", path, strerror(errno));
    printf("wrote %s (%zu bytes)\n", path, n);
}

static void write_model(const Onnx__ModelProto *m, const char *file)
{
    size_t n = onnx__model_proto__get_packed_size(m);
    uint8_t *buf = xalloc(n);
    if (onnx__model_proto__pack(m, buf) != n)
        die("internal error: packed size of %s changed while packing", file);
    write_file(file, buf, n);
}

/* ------------------------------------------------------------- cnn.onnx -- */

static void make_cnn(void)
{
    Onnx__GraphProto *g = graph_new("cnn", "Conv-BN-Pool classifier for 32x32 RGB images.");

    Onnx__ValueInfoProto *in = graph_input(g, "input", DT_FLOAT, 4, (int64_t[]){ 1, 3, 32, 32 });
    dim_denotation(in, 0, "DATA_BATCH");
    dim_denotation(in, 1, "DATA_CHANNEL");
    dim_denotation(in, 2, "DATA_FEATURE");
    dim_denotation(in, 3, "DATA_FEATURE");
    graph_output(g, "output", DT_FLOAT, 2, (int64_t[]){ 1, 10 });

    /* Weights scaled roughly like He initialisation: +-1/sqrt(fan_in). */
    graph_init(g, weights_raw("conv1.weight", 4, (int64_t[]){ 16, 3, 3, 3 }, -0.19f, 0.19f));
    graph_init(g, weights_raw("conv1.bias", 1, (int64_t[]){ 16 }, -0.1f, 0.1f));
    graph_init(g, weights_raw("conv2.weight", 4, (int64_t[]){ 32, 16, 3, 3 }, -0.083f, 0.083f));
    graph_init(g, weights_raw("bn2.scale", 1, (int64_t[]){ 32 }, 0.8f, 1.2f));
    graph_init(g, weights_raw("bn2.bias", 1, (int64_t[]){ 32 }, -0.1f, 0.1f));
    graph_init(g, weights_raw("bn2.mean", 1, (int64_t[]){ 32 }, -0.05f, 0.05f));
    /* Kept in half precision and widened by a Cast: the FLOAT16 sample. */
    graph_init(g, weights_f16("bn2.var_fp16", 1, (int64_t[]){ 32 }, 0.5f, 1.5f));
    graph_init(g, weights_raw("fc.weight", 2, (int64_t[]){ 10, 32 }, -0.18f, 0.18f));
    /* The one initializer in the typed float_data field instead of raw_data. */
    graph_init(g, weights_typed("fc.bias", 1, (int64_t[]){ 10 }, -0.05f, 0.05f));

    Onnx__NodeProto *nd;
    nd = graph_node(g, "conv1", "Conv", "input,conv1.weight,conv1.bias", "conv1_out");
    attr_ints(nd, "kernel_shape", 2, (int64_t[]){ 3, 3 });
    attr_ints(nd, "pads", 4, (int64_t[]){ 1, 1, 1, 1 });
    attr_ints(nd, "strides", 2, (int64_t[]){ 1, 1 });
    graph_node(g, "relu1", "Relu", "conv1_out", "relu1_out");
    nd = graph_node(g, "pool1", "MaxPool", "relu1_out", "pool1_out");
    attr_ints(nd, "kernel_shape", 2, (int64_t[]){ 2, 2 });
    attr_ints(nd, "strides", 2, (int64_t[]){ 2, 2 });
    nd = graph_node(g, "conv2", "Conv", "pool1_out,conv2.weight", "conv2_out");
    attr_ints(nd, "kernel_shape", 2, (int64_t[]){ 3, 3 });
    attr_ints(nd, "pads", 4, (int64_t[]){ 1, 1, 1, 1 });
    nd = graph_node(g, "cast_var", "Cast", "bn2.var_fp16", "bn2.var");
    attr_i(nd, "to", DT_FLOAT);
    nd = graph_node(g, "bn2", "BatchNormalization",
                    "conv2_out,bn2.scale,bn2.bias,bn2.mean,bn2.var", "bn2_out");
    attr_f(nd, "epsilon", 1e-5f);
    attr_f(nd, "momentum", 0.9f);
    graph_node(g, "relu2", "Relu", "bn2_out", "relu2_out");
    graph_node(g, "gap", "GlobalAveragePool", "relu2_out", "gap_out");
    nd = graph_node(g, "flatten", "Flatten", "gap_out", "flat");
    attr_i(nd, "axis", 1);
    nd = graph_node(g, "fc", "Gemm", "flat,fc.weight,fc.bias", "logits");
    attr_i(nd, "transB", 1);
    nd = graph_node(g, "softmax", "Softmax", "logits", "output");
    attr_i(nd, "axis", 1);

    graph_value_info(g, "relu1_out", DT_FLOAT, 4, (int64_t[]){ 1, 16, 32, 32 });
    graph_value_info(g, "pool1_out", DT_FLOAT, 4, (int64_t[]){ 1, 16, 16, 16 });
    graph_value_info(g, "bn2.var", DT_FLOAT, 1, (int64_t[]){ 32 });
    graph_value_info(g, "flat", DT_FLOAT, 2, (int64_t[]){ 1, 32 });

    Onnx__ModelProto *m = model_new(g,
        "A small CNN (nnav sample): two conv blocks, global pooling and a "
        "10-way classifier. Weights are deterministic pseudo-random numbers.");
    m->domain = xstrdup("org.nnav.samples");
    model_meta(m, "author", "nnav");
    write_model(m, "cnn.onnx");
}

/* ---------------------------------------------------- control_flow.onnx -- */

/* If branches inside the Loop body. Both read x_in (a Loop body input, one
 * scope out) and scale (a main-graph value, two scopes out). */
static Onnx__GraphProto *make_then_branch(void)
{
    Onnx__GraphProto *g = graph_new("then_body", "Taken when sum(x_in) > 0.");
    graph_node(g, "then_mul", "Mul", "x_in,scale", "then_tmp");
    graph_node(g, "then_add", "Add", "then_tmp,x_in", "then_out");
    graph_output(g, "then_out", DT_FLOAT, 1, (int64_t[]){ 4 });
    return g;
}

static Onnx__GraphProto *make_else_branch(void)
{
    Onnx__GraphProto *g = graph_new("else_body", "Taken when sum(x_in) <= 0.");
    graph_node(g, "else_neg", "Neg", "x_in", "else_tmp");
    graph_node(g, "else_sub", "Sub", "else_tmp,scale", "else_out");
    graph_output(g, "else_out", DT_FLOAT, 1, (int64_t[]){ 4 });
    return g;
}

static Onnx__GraphProto *make_loop_body(void)
{
    Onnx__GraphProto *g = graph_new("loop_body", "One Loop iteration: branch on the sign of sum(x).");
    graph_input(g, "i", DT_INT64, 0, NULL);
    graph_input(g, "cond", DT_BOOL, 0, NULL);
    graph_input(g, "x_in", DT_FLOAT, 1, (int64_t[]){ 4 });

    Onnx__NodeProto *nd;
    nd = graph_node(g, "body_zero", "Constant", NULL, "zero");
    attr_f(nd, "value_float", 0.0f);
    nd = graph_node(g, "body_sum", "ReduceSum", "x_in", "sum");
    attr_i(nd, "keepdims", 0);
    graph_node(g, "body_pos", "Greater", "sum,zero", "is_pos");
    nd = graph_node(g, "body_if", "If", "is_pos", "x_out");
    attr_g(nd, "then_branch", make_then_branch());
    attr_g(nd, "else_branch", make_else_branch());
    graph_node(g, "body_cond", "Identity", "cond", "cond_out");

    graph_output(g, "cond_out", DT_BOOL, 0, NULL);
    graph_output(g, "x_out", DT_FLOAT, 1, (int64_t[]){ 4 });
    graph_value_info(g, "sum", DT_FLOAT, 0, NULL);
    return g;
}

static Onnx__GraphProto *make_scan_body(void)
{
    Onnx__GraphProto *g = graph_new("scan_body", "Running sum of the rows; each row scaled.");
    graph_input(g, "acc_in", DT_FLOAT, 1, (int64_t[]){ 4 });
    graph_input(g, "row", DT_FLOAT, 1, (int64_t[]){ 4 });
    graph_node(g, "scan_add", "Add", "acc_in,row", "acc_out");
    graph_node(g, "scan_mul", "Mul", "row,scale", "row_scaled"); /* scale: outer scope */
    graph_output(g, "acc_out", DT_FLOAT, 1, (int64_t[]){ 4 });
    graph_output(g, "row_scaled", DT_FLOAT, 1, (int64_t[]){ 4 });
    return g;
}

/* local.fn::AddLeakyRelu(A, B) = LeakyRelu(A + B, alpha), alpha defaults to 0.2. */
static Onnx__FunctionProto *make_function(void)
{
    Onnx__FunctionProto *f = NEW(Onnx__FunctionProto, ONNX__FUNCTION_PROTO__INIT);
    f->name = xstrdup("AddLeakyRelu");
    f->domain = xstrdup("local.fn");
    f->doc_string = xstrdup("LeakyRelu(A + B); attribute alpha has a default of 0.2.");
    add_names(&f->input, &f->n_input, "A,B");
    add_names(&f->output, &f->n_output, "Y");

    Onnx__AttributeProto *alpha = attr_f(NULL, "alpha", 0.2f);
    APPEND(f->attribute_proto, f->n_attribute_proto, alpha);

    Onnx__NodeProto *add = node_new("fn_add", "Add", "A,B", "S");
    Onnx__NodeProto *leaky = node_new("fn_leaky", "LeakyRelu", "S", "Y");
    attr_ref(leaky, "alpha", "alpha", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);
    APPEND(f->node, f->n_node, add);
    APPEND(f->node, f->n_node, leaky);

    Onnx__OperatorSetIdProto *std = opset("", SAMPLE_OPSET);
    APPEND(f->opset_import, f->n_opset_import, std);
    return f;
}

/* A 3x4 sparse tensor with three non-zeros at linear positions 1, 6, 10. */
static Onnx__SparseTensorProto *make_sparse(void)
{
    Onnx__SparseTensorProto *sp = NEW(Onnx__SparseTensorProto, ONNX__SPARSE_TENSOR_PROTO__INIT);
    static const float vals[3] = { 1.5f, -2.0f, 0.25f };
    static const int64_t idx[3] = { 1, 6, 10 };

    sp->values = tensor_new("sparse_w", DT_FLOAT, 1, (int64_t[]){ 3 });
    set_raw(sp->values, f32_le_bytes(vals, 3), 12);
    sp->indices = tensor_new("sparse_w_indices", DT_INT64, 1, (int64_t[]){ 3 });
    for (size_t i = 0; i < 3; i++)
        APPEND(sp->indices->int64_data, sp->indices->n_int64_data, idx[i]);
    APPEND(sp->dims, sp->n_dims, (int64_t)3);
    APPEND(sp->dims, sp->n_dims, (int64_t)4);
    return sp;
}

static void make_control_flow(void)
{
    Onnx__GraphProto *g = graph_new("control_flow",
        "Loop(If) and Scan bodies, a local function call, a sparse initializer.");
    graph_input(g, "x", DT_FLOAT, 1, (int64_t[]){ 4 });
    graph_input(g, "trip_count", DT_INT64, 0, NULL);
    graph_input(g, "cond_in", DT_BOOL, 0, NULL);
    graph_input(g, "seq", DT_FLOAT, 2, (int64_t[]){ 3, 4 });

    Onnx__SparseTensorProto *sp = make_sparse();
    APPEND(g->sparse_initializer, g->n_sparse_initializer, sp);

    Onnx__NodeProto *nd;
    /* TENSOR attribute. */
    Onnx__TensorProto *scale_value = tensor_new("scale_value", DT_FLOAT, 1, (int64_t[]){ 4 });
    static const float scale[4] = { 0.5f, 1.5f, -1.0f, 2.0f };
    for (size_t i = 0; i < 4; i++)
        APPEND(scale_value->float_data, scale_value->n_float_data, scale[i]);
    nd = graph_node(g, "const_scale", "Constant", NULL, "scale");
    attr_t(nd, "value", scale_value);
    /* FLOATS, INTS and STRINGS attributes. */
    nd = graph_node(g, "const_bias", "Constant", NULL, "bias");
    attr_floats(nd, "value_floats", 4, (float[]){ 0.1f, 0.2f, 0.3f, 0.4f });
    nd = graph_node(g, "const_pads", "Constant", NULL, "pads");
    attr_ints(nd, "value_ints", 2, (int64_t[]){ 1, 1 });
    nd = graph_node(g, "const_labels", "Constant", NULL, "labels");
    attr_strings(nd, "value_strings", 4, (const char *const[]){ "the", "Quick", "brown", "fox" });

    /* GRAPH attributes. */
    nd = graph_node(g, "loop", "Loop", "trip_count,cond_in,x", "loop_x");
    attr_g(nd, "body", make_loop_body());
    nd = graph_node(g, "scan", "Scan", "loop_x,seq", "scan_acc,scan_rows");
    attr_g(nd, "body", make_scan_body());
    attr_i(nd, "num_scan_inputs", 1);
    attr_ints(nd, "scan_input_directions", 1, (int64_t[]){ 0 });

    /* Model-local function, called without alpha so its default applies. */
    nd = graph_node(g, "call_addleaky", "AddLeakyRelu", "scan_acc,loop_x", "fn_out");
    nd->domain = xstrdup("local.fn");
    graph_node(g, "add_bias", "Add", "fn_out,bias", "y");
    graph_node(g, "add_sparse", "Add", "scan_rows,sparse_w", "rows_plus");
    /* STRING attribute. */
    nd = graph_node(g, "pad", "Pad", "x,pads", "x_padded");
    attr_s(nd, "mode", "reflect");
    nd = graph_node(g, "normalize", "StringNormalizer", "labels", "labels_norm");
    attr_s(nd, "case_change_action", "UPPER");
    attr_i(nd, "is_case_sensitive", 0);
    attr_strings(nd, "stopwords", 1, (const char *const[]){ "the" });

    graph_output(g, "y", DT_FLOAT, 1, (int64_t[]){ 4 });
    graph_output(g, "rows_plus", DT_FLOAT, 2, (int64_t[]){ 3, 4 });
    graph_output(g, "x_padded", DT_FLOAT, 1, (int64_t[]){ 6 });
    Onnx__ValueInfoProto *ln = graph_output(g, "labels_norm", DT_STRING, 1, (int64_t[]){ -1 });
    dim_param(ln, 0, "n_labels");

    graph_value_info(g, "scale", DT_FLOAT, 1, (int64_t[]){ 4 });
    graph_value_info(g, "loop_x", DT_FLOAT, 1, (int64_t[]){ 4 });
    graph_value_info(g, "scan_acc", DT_FLOAT, 1, (int64_t[]){ 4 });
    graph_value_info(g, "scan_rows", DT_FLOAT, 2, (int64_t[]){ 3, 4 });

    Onnx__ModelProto *m = model_new(g,
        "Control-flow sample for nnav: nested subgraphs, outer-scope references, "
        "a model-local function with an attribute default, sparse data.");
    Onnx__OperatorSetIdProto *local = opset("local.fn", 1);
    APPEND(m->opset_import, m->n_opset_import, local);
    Onnx__FunctionProto *fn = make_function();
    APPEND(m->functions, m->n_functions, fn);
    model_meta(m, "author", "nnav");
    model_meta(m, "purpose", "control-flow sample");
    write_model(m, "control_flow.onnx");
}

/* -------------------------------------------------------- external.onnx -- */

static void external_entry(Onnx__TensorProto *t, const char *k, const char *v)
{
    Onnx__StringStringEntryProto *e = kv(k, v);
    APPEND(t->external_data, t->n_external_data, e);
}

static void make_external(void)
{
    static const char data_file[] = "external.onnx.data";
    Onnx__GraphProto *g = graph_new("mlp", "64-128-10 MLP; weights in external.onnx.data.");
    graph_input(g, "x", DT_FLOAT, 2, (int64_t[]){ 1, 64 });
    graph_output(g, "y", DT_FLOAT, 2, (int64_t[]){ 1, 10 });

    struct {
        const char *name;
        size_t rank;
        int64_t dims[2];
        float bound;
    } ext[] = {
        { "fc1.weight", 2, { 64, 128 }, 0.125f },
        { "fc1.bias", 1, { 128 }, 0.05f },
        { "fc2.weight", 2, { 128, 10 }, 0.088f },
    };
    const size_t n_ext = sizeof ext / sizeof ext[0];

    /* Lay the tensors out one after another, each starting on a 4096-byte
     * boundary so a reader may mmap them; the gaps are zero bytes. */
    size_t total = 0;
    size_t offs[sizeof ext / sizeof ext[0]], lens[sizeof ext / sizeof ext[0]];
    for (size_t i = 0; i < n_ext; i++) {
        offs[i] = (total + EXTERNAL_ALIGN - 1) / EXTERNAL_ALIGN * EXTERNAL_ALIGN;
        lens[i] = numel(ext[i].rank, ext[i].dims) * 4;
        total = offs[i] + lens[i];
    }
    uint8_t *blob = xalloc(total);
    for (size_t i = 0; i < n_ext; i++) {
        Onnx__TensorProto *t = tensor_new(ext[i].name, DT_FLOAT, ext[i].rank, ext[i].dims);
        size_t n = lens[i] / 4;
        memcpy(blob + offs[i],
               f32_le_bytes(random_floats(ext[i].name, n, -ext[i].bound, ext[i].bound), n),
               lens[i]);
        char num[32];
        t->has_data_location = 1;
        t->data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
        external_entry(t, "location", data_file);
        snprintf(num, sizeof num, "%zu", offs[i]);
        external_entry(t, "offset", num);
        snprintf(num, sizeof num, "%zu", lens[i]);
        external_entry(t, "length", num);
        graph_init(g, t);
    }
    /* Small enough to stay in the model file. */
    graph_init(g, weights_raw("fc2.bias", 1, (int64_t[]){ 10 }, -0.05f, 0.05f));

    graph_node(g, "fc1", "MatMul", "x,fc1.weight", "h1");
    graph_node(g, "fc1_bias", "Add", "h1,fc1.bias", "h1b");
    graph_node(g, "relu", "Relu", "h1b", "h1r");
    graph_node(g, "fc2", "MatMul", "h1r,fc2.weight", "h2");
    graph_node(g, "fc2_bias", "Add", "h2,fc2.bias", "y");
    graph_value_info(g, "h1r", DT_FLOAT, 2, (int64_t[]){ 1, 128 });

    Onnx__ModelProto *m = model_new(g,
        "MLP whose three larger initializers are stored in external.onnx.data "
        "(data_location EXTERNAL, 4096-aligned offsets).");
    model_meta(m, "author", "nnav");
    write_file(data_file, blob, total);
    write_model(m, "external.onnx");
}

/* ------------------------------------------------------------------ main -- */

void nnav_gen_tf(const char *outdir); /* gen_tf.c */

int main(int argc, char **argv)
{
    if (argc != 2 || !argv[1][0]) {
        fprintf(stderr, "usage: nnav-samples OUTDIR\n");
        return 1;
    }
    outdir = argv[1];

    make_cnn();
    arena_free_all();
    make_control_flow();
    arena_free_all();
    make_external();
    arena_free_all();
    nnav_gen_tf(outdir);

    if (fflush(stdout) != 0) {
        fprintf(stderr, "nnav-samples: cannot write to stdout: %s\n", strerror(errno));
        return 1;
    }
    return 0;
}
