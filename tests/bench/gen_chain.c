/* gen_chain.c - synthetic ONNX models for the benchmarks:
 *   gen_chain chain N OUT        N Relu nodes in a chain (names n0..nN-1, values v0..vN)
 *   gen_chain chainop N OUT      the same chain with one node changed: n<N/2> is a Tanh
 *                                (the same name, the same length), for `nnav diff`
 *   gen_chain weights BYTES OUT  a small graph whose one initializer holds BYTES of raw
 *                                data, written sparse (a hole) so a 5 GB file costs no disk
 *   gen_chain tfchain N OUT      a TensorFlow GraphDef of N nodes: a Placeholder n0, then
 *                                Relu nodes n1..nN-1, each reading the one before
 *   gen_chain bert LAYERS OUT    a transformer encoder shaped like a BERT-large export
 *                                (hidden 1024, 16 heads, FFN 4096, vocabulary 30522):
 *                                24 layers hold 1.34 GB of float32 weights, written sparse
 * Written with the wire format directly, streaming, so that 10 million nodes need
 * no protobuf-c message tree in memory. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t varint(uint8_t *b, uint64_t v)
{
    size_t n = 0;
    do {
        b[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    return n;
}

static size_t varint_len(uint64_t v)
{
    uint8_t b[10];
    return varint(b, v);
}

static void put_tag_len(FILE *f, unsigned field, uint64_t len)
{
    uint8_t b[20];
    size_t n = varint(b, (uint64_t)field << 3 | 2);
    n += varint(b + n, len);
    fwrite(b, 1, n, f);
}

static void put_str(FILE *f, unsigned field, const char *s)
{
    put_tag_len(f, field, strlen(s));
    fwrite(s, 1, strlen(s), f);
}

static void put_varint_field(FILE *f, unsigned field, uint64_t v)
{
    uint8_t b[20];
    size_t n = varint(b, (uint64_t)field << 3);
    n += varint(b + n, v);
    fwrite(b, 1, n, f);
}

static uint64_t str_field_len(unsigned field, size_t n)
{
    return varint_len((uint64_t)field << 3 | 2) + varint_len(n) + n;
}

/* "scoped": node names as PyTorch's exporter writes them, a path of scopes
 * (/b12/l34/Relu_56: 100 nodes a layer, 100 layers a block), so summary and
 * the explorer's scope tree have a real tree to build. */
static int scoped_names;

/* "chainop": the index of the one node whose op is Tanh instead of Relu. */
static uint64_t odd_node = UINT64_MAX;

static void names(uint64_t i, char *node, char *in, char *out)
{
    if (scoped_names)
        sprintf(node, "/b%" PRIu64 "/l%" PRIu64 "/Relu_%" PRIu64, i / 10000, i / 100 % 100, i % 100);
    else
        sprintf(node, "n%" PRIu64, i);
    sprintf(in, "v%" PRIu64, i);
    sprintf(out, "v%" PRIu64, i + 1);
}

static uint64_t node_len(uint64_t i)
{
    char a[32], b[32], c[32];
    names(i, a, b, c);
    return str_field_len(1, strlen(b)) + str_field_len(2, strlen(c)) + str_field_len(3, strlen(a)) +
           str_field_len(4, 4);
}

static void header(FILE *f)
{
    put_varint_field(f, 1, 8);
    put_str(f, 2, "nnav-bench");
    put_tag_len(f, 8, 2 + 2); /* opset_import { version: 17 } */
    fputc(0x10, f), fputc(17, f), fputc(0x0a, f), fputc(0, f);
}

static uint64_t vinfo_len(const char *name)
{
    /* ValueInfo{name, type{tensor_type{elem_type FLOAT}}} */
    return str_field_len(1, strlen(name)) + 2 + 2 + 2;
}

static void vinfo(FILE *f, unsigned field, const char *name)
{
    put_tag_len(f, field, vinfo_len(name));
    put_str(f, 1, name);
    put_tag_len(f, 2, 4);
    put_tag_len(f, 1, 2);
    fputc(0x08, f), fputc(1, f);
}

/* ---- bert: a BERT-large-shaped encoder ----
 * Each node, initializer header and value info is built in a small buffer;
 * the graph body is produced twice, once to count its length (GraphProto is
 * length-delimited inside ModelProto) and once to write it. Weights are raw_data
 * left as holes, so the file reads as zeros and costs no disk; the small
 * int64 and float constants (shapes, axes, scales) hold real values. Names
 * follow a PyTorch export: initializers "bert.encoder.layer.3.attention.self.
 * query.weight", nodes "/bert/encoder/layer.3/attention/self/query/MatMul" and
 * their outputs "..._output_0". The opset is 14, so LayerNorm is the
 * ReduceMean/Sub/Pow/Sqrt/Div pattern and Gelu the Erf pattern, as such
 * exports write them. */
enum { T_FLOAT = 1, T_INT64 = 7 };
enum { HIDDEN = 1024, HEADS = 16, HEAD_DIM = 64, FFN = 4096, VOCAB = 30522, MAX_POS = 512 };

struct buf {
    uint8_t *p;
    size_t n, cap;
};

static void b_raw(struct buf *b, const void *p, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 256;
        b->p = realloc(b->p, b->cap);
        if (!b->p) {
            perror("realloc");
            exit(1);
        }
    }
    memcpy(b->p + b->n, p, n);
    b->n += n;
}

static void b_varint(struct buf *b, uint64_t v)
{
    uint8_t t[10];
    b_raw(b, t, varint(t, v));
}

static void b_int(struct buf *b, unsigned field, uint64_t v)
{
    b_varint(b, (uint64_t)field << 3);
    b_varint(b, v);
}

static void b_len(struct buf *b, unsigned field, uint64_t len)
{
    b_varint(b, (uint64_t)field << 3 | 2);
    b_varint(b, len);
}

static void b_str(struct buf *b, unsigned field, const char *s)
{
    b_len(b, field, strlen(s));
    b_raw(b, s, strlen(s));
}

static void b_msg(struct buf *b, unsigned field, struct buf *sub)
{
    b_len(b, field, sub->n);
    b_raw(b, sub->p, sub->n);
    sub->n = 0;
}

/* The graph body goes to a counter (f NULL) or to the file. */
struct em {
    FILE *f;
    uint64_t n;
    int err;
};

static void em_raw(struct em *e, const void *p, size_t n)
{
    e->n += n;
    if (e->f && fwrite(p, 1, n, e->f) != n)
        e->err = 1;
}

static void em_msg(struct em *e, unsigned field, struct buf *b)
{
    struct buf h = {0};
    b_len(&h, field, b->n);
    em_raw(e, h.p, h.n);
    em_raw(e, b->p, b->n);
    free(h.p);
    b->n = 0;
}

/* The emitter's state while the graph is produced. */
struct bert {
    struct em *e;
    struct buf node, attr, tmp;
};

/* Strings live for the whole run (a few thousand of them). */
static const char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static const char *fmt(const char *f, ...)
{
    char t[256];
    va_list ap;
    va_start(ap, f);
    vsnprintf(t, sizeof t, f, ap);
    va_end(ap);
    char *s = strdup(t);
    if (!s)
        exit(1);
    return s;
}

/* AttributeProto{1 name, 2 f, 3 i, 8 ints, 20 type}, appended to the node's attributes. */
static void attr_int(struct bert *g, const char *name, int64_t v)
{
    b_str(&g->tmp, 1, name);
    b_int(&g->tmp, 3, (uint64_t)v);
    b_int(&g->tmp, 20, 2);
    b_msg(&g->attr, 5, &g->tmp);
}

static void attr_ints(struct bert *g, const char *name, int n, const int64_t *v)
{
    b_str(&g->tmp, 1, name);
    for (int i = 0; i < n; i++)
        b_int(&g->tmp, 8, (uint64_t)v[i]);
    b_int(&g->tmp, 20, 7);
    b_msg(&g->attr, 5, &g->tmp);
}

/* NodeProto{1 input, 2 output, 3 name, 4 op_type, 5 attribute} with the
 * attributes gathered since the last node; the output is the node's name with
 * "_output_0" unless OUT names it. */
static const char *node(struct bert *g, const char *name, const char *op, const char *out,
                        const char *const *in)
{
    if (!out)
        out = fmt("%s_output_0", name);
    for (; *in; in++)
        b_str(&g->node, 1, *in);
    b_str(&g->node, 2, out);
    b_str(&g->node, 3, name);
    b_str(&g->node, 4, op);
    b_raw(&g->node, g->attr.p, g->attr.n);
    g->attr.n = 0;
    em_msg(g->e, 1, &g->node);
    return out;
}
#define NODE(g, name, op, out, ...) node(g, name, op, out, (const char *const[]){__VA_ARGS__, NULL})

/* TensorProto{1 dims, 2 data_type, 8 name, 9 raw_data}: DATA's bytes, or a
 * hole of NBYTES when DATA is NULL. */
static void init(struct bert *g, const char *name, int dtype, int nd, const int64_t *dims,
                 const void *data, uint64_t nbytes)
{
    struct em *e = g->e;
    struct buf *t = &g->tmp, h = {0};
    for (int i = 0; i < nd; i++)
        b_int(t, 1, (uint64_t)dims[i]);
    b_int(t, 2, (uint64_t)dtype);
    b_str(t, 8, name);
    b_len(t, 9, nbytes);
    b_len(&h, 5, t->n + nbytes);
    em_raw(e, h.p, h.n);
    em_raw(e, t->p, t->n);
    free(h.p);
    t->n = 0;
    if (data) {
        em_raw(e, data, nbytes);
    } else {
        e->n += nbytes;
        if (e->f && fseeko(e->f, (off_t)nbytes, SEEK_CUR) != 0)
            e->err = 1;
    }
}

static void weight(struct bert *g, const char *name, int64_t d0, int64_t d1)
{
    int64_t dims[2] = {d0, d1};
    init(g, name, T_FLOAT, d1 ? 2 : 1, dims, NULL, (uint64_t)d0 * (uint64_t)(d1 ? d1 : 1) * 4);
}

static void const_f(struct bert *g, const char *name, float v)
{
    init(g, name, T_FLOAT, 0, NULL, &v, 4);
}

static void const_i64(struct bert *g, const char *name, int nd, int n, const int64_t *v)
{
    int64_t dims[1] = {n};
    init(g, name, T_INT64, nd, dims, v, (uint64_t)n * 8);
}

/* ValueInfoProto{1 name, 2 type{1 tensor_type{1 elem_type, 2 shape{1 dim{1 value | 2 param}}}}}. */
static void io(struct bert *g, unsigned field, const char *name, int dtype, int nd,
               const char *const *dims)
{
    struct buf shape = {0}, dim = {0}, tt = {0}, ty = {0}, vi = {0};
    for (int i = 0; i < nd; i++) {
        if (dims[i][0] >= '0' && dims[i][0] <= '9')
            b_int(&dim, 1, strtoull(dims[i], NULL, 10));
        else
            b_str(&dim, 2, dims[i]);
        b_msg(&shape, 1, &dim);
    }
    b_int(&tt, 1, (uint64_t)dtype);
    b_msg(&tt, 2, &shape);
    b_msg(&ty, 1, &tt);
    b_str(&vi, 1, name);
    b_msg(&vi, 2, &ty);
    em_msg(g->e, field, &vi);
    free(shape.p), free(dim.p), free(tt.p), free(ty.p), free(vi.p);
}

/* x*w + b under PATH (".../MatMul", ".../Add"), weights under PREFIX. */
static const char *dense(struct bert *g, const char *path, const char *prefix, const char *x,
                         const char *out)
{
    const char *m = NODE(g, fmt("%s/MatMul", path), "MatMul", NULL, x, fmt("%s.weight", prefix));
    return NODE(g, fmt("%s/Add", path), "Add", out, m, fmt("%s.bias", prefix));
}

/* LayerNorm as PyTorch exports it before opset 17. */
static const char *layernorm(struct bert *g, const char *path, const char *prefix, const char *x,
                             const char *out)
{
    static const int64_t last[1] = {-1};
    attr_ints(g, "axes", 1, last);
    const char *mean = NODE(g, fmt("%s/ReduceMean", path), "ReduceMean", NULL, x);
    const char *d = NODE(g, fmt("%s/Sub", path), "Sub", NULL, x, mean);
    const char *p = NODE(g, fmt("%s/Pow", path), "Pow", NULL, d, "/bert/Constant_two");
    attr_ints(g, "axes", 1, last);
    const char *var = NODE(g, fmt("%s/ReduceMean_1", path), "ReduceMean", NULL, p);
    const char *ve = NODE(g, fmt("%s/Add", path), "Add", NULL, var, "/bert/Constant_eps");
    const char *sd = NODE(g, fmt("%s/Sqrt", path), "Sqrt", NULL, ve);
    const char *n = NODE(g, fmt("%s/Div", path), "Div", NULL, d, sd);
    const char *s = NODE(g, fmt("%s/Mul", path), "Mul", NULL, n, fmt("%s.weight", prefix));
    return NODE(g, fmt("%s/Add_1", path), "Add", out, s, fmt("%s.bias", prefix));
}

static void bert_graph(struct bert *g, int layers)
{
    static const char *const bs[2] = {"batch", "seq"}, *const bsh[3] = {"batch", "seq", "1024"},
                             *const bh[2] = {"batch", "1024"};
    static const int64_t perm_q[4] = {0, 2, 1, 3}, perm_k[4] = {0, 2, 3, 1}, zero[1] = {0},
                         one[1] = {1}, two[1] = {2}, heads[4] = {0, 0, HEADS, HEAD_DIM},
                         merged[3] = {0, 0, HIDDEN};
    /* Embeddings: word + position + token type, then LayerNorm. */
    const char *w = NODE(g, "/bert/embeddings/word_embeddings/Gather", "Gather", NULL,
                         "bert.embeddings.word_embeddings.weight", "input_ids");
    const char *sh = NODE(g, "/bert/embeddings/Shape", "Shape", NULL, "input_ids");
    const char *sl = NODE(g, "/bert/embeddings/Gather", "Gather", NULL, sh, "/bert/Constant_one");
    const char *sl1 = NODE(g, "/bert/embeddings/Unsqueeze", "Unsqueeze", NULL, sl, "/bert/Constant_axes0");
    const char *pid = NODE(g, "/bert/embeddings/Slice", "Slice", NULL, "bert.embeddings.position_ids",
                           "/bert/Constant_axes0", sl1, "/bert/Constant_axes1");
    const char *tt = NODE(g, "/bert/embeddings/token_type_embeddings/Gather", "Gather", NULL,
                          "bert.embeddings.token_type_embeddings.weight", "token_type_ids");
    const char *a = NODE(g, "/bert/embeddings/Add", "Add", NULL, w, tt);
    const char *pe = NODE(g, "/bert/embeddings/position_embeddings/Gather", "Gather", NULL,
                          "bert.embeddings.position_embeddings.weight", pid);
    a = NODE(g, "/bert/embeddings/Add_1", "Add", NULL, a, pe);
    const char *h = layernorm(g, "/bert/embeddings/LayerNorm", "bert.embeddings.LayerNorm", a, NULL);
    /* The extended attention mask: (1 - mask[:, None, None, :]) * -10000. */
    const char *m = NODE(g, "/bert/Unsqueeze", "Unsqueeze", NULL, "attention_mask", "/bert/Constant_axes1");
    m = NODE(g, "/bert/Unsqueeze_1", "Unsqueeze", NULL, m, "/bert/Constant_axes2");
    attr_int(g, "to", T_FLOAT);
    m = NODE(g, "/bert/Cast", "Cast", NULL, m);
    m = NODE(g, "/bert/Sub", "Sub", NULL, "/bert/Constant_onef", m);
    const char *mask = NODE(g, "/bert/Mul", "Mul", NULL, m, "/bert/Constant_mask_min");

    for (int l = 0; l < layers; l++) {
        const char *P = fmt("bert.encoder.layer.%d", l), *Q = fmt("/bert/encoder/layer.%d", l);
        const char *qkv[3];
        static const char *const which[3] = {"query", "key", "value"};
        for (int i = 0; i < 3; i++) {
            const char *x = dense(g, fmt("%s/attention/self/%s", Q, which[i]),
                                  fmt("%s.attention.self.%s", P, which[i]), h, NULL);
            x = NODE(g, fmt("%s/attention/self/Reshape%s", Q, i ? fmt("_%d", i) : ""), "Reshape", NULL,
                     x, "/bert/Constant_heads_shape");
            attr_ints(g, "perm", 4, i == 1 ? perm_k : perm_q);
            qkv[i] = NODE(g, fmt("%s/attention/self/Transpose%s", Q, i ? fmt("_%d", i) : ""),
                          "Transpose", NULL, x);
        }
        const char *s = NODE(g, fmt("%s/attention/self/MatMul", Q), "MatMul", NULL, qkv[0], qkv[1]);
        s = NODE(g, fmt("%s/attention/self/Div", Q), "Div", NULL, s, "/bert/Constant_sqrt_head_dim");
        s = NODE(g, fmt("%s/attention/self/Add", Q), "Add", NULL, s, mask);
        attr_int(g, "axis", -1);
        s = NODE(g, fmt("%s/attention/self/Softmax", Q), "Softmax", NULL, s);
        s = NODE(g, fmt("%s/attention/self/MatMul_1", Q), "MatMul", NULL, s, qkv[2]);
        attr_ints(g, "perm", 4, perm_q);
        s = NODE(g, fmt("%s/attention/self/Transpose_3", Q), "Transpose", NULL, s);
        s = NODE(g, fmt("%s/attention/self/Reshape_3", Q), "Reshape", NULL, s, "/bert/Constant_merged_shape");
        s = dense(g, fmt("%s/attention/output/dense", Q), fmt("%s.attention.output.dense", P), s, NULL);
        s = NODE(g, fmt("%s/attention/output/Add", Q), "Add", NULL, s, h);
        const char *att = layernorm(g, fmt("%s/attention/output/LayerNorm", Q),
                                    fmt("%s.attention.output.LayerNorm", P), s, NULL);
        /* FFN with Gelu as x * 0.5 * (1 + erf(x / sqrt 2)). */
        const char *f = dense(g, fmt("%s/intermediate/dense", Q), fmt("%s.intermediate.dense", P), att, NULL);
        const char *e = NODE(g, fmt("%s/intermediate/intermediate_act_fn/Div", Q), "Div", NULL, f,
                             "/bert/Constant_sqrt2");
        e = NODE(g, fmt("%s/intermediate/intermediate_act_fn/Erf", Q), "Erf", NULL, e);
        e = NODE(g, fmt("%s/intermediate/intermediate_act_fn/Add", Q), "Add", NULL, e, "/bert/Constant_onef");
        e = NODE(g, fmt("%s/intermediate/intermediate_act_fn/Mul", Q), "Mul", NULL, f, e);
        e = NODE(g, fmt("%s/intermediate/intermediate_act_fn/Mul_1", Q), "Mul", NULL, e, "/bert/Constant_half");
        e = dense(g, fmt("%s/output/dense", Q), fmt("%s.output.dense", P), e, NULL);
        e = NODE(g, fmt("%s/output/Add", Q), "Add", NULL, e, att);
        h = layernorm(g, fmt("%s/output/LayerNorm", Q), fmt("%s.output.LayerNorm", P), e,
                      l == layers - 1 ? "last_hidden_state" : NULL);
    }
    /* Pooler: tanh(dense(h[:, 0])). */
    attr_int(g, "axis", 1);
    const char *p = NODE(g, "/bert/pooler/Gather", "Gather", NULL, h, "/bert/Constant_zero");
    p = dense(g, "/bert/pooler/dense", "bert.pooler.dense", p, NULL);
    NODE(g, "/bert/pooler/activation/Tanh", "Tanh", "pooler_output", p);

    struct buf *t = &g->tmp;
    b_str(t, 2, "main_graph");
    em_raw(g->e, t->p, t->n);
    t->n = 0;

    /* Initializers in the module's parameter order, then the constants. */
    weight(g, "bert.embeddings.word_embeddings.weight", VOCAB, HIDDEN);
    weight(g, "bert.embeddings.position_embeddings.weight", MAX_POS, HIDDEN);
    weight(g, "bert.embeddings.token_type_embeddings.weight", 2, HIDDEN);
    weight(g, "bert.embeddings.LayerNorm.weight", HIDDEN, 0);
    weight(g, "bert.embeddings.LayerNorm.bias", HIDDEN, 0);
    for (int l = 0; l < layers; l++) {
        static const char *const sq[] = {"attention.self.query", "attention.self.key",
                                         "attention.self.value", "attention.output.dense"};
        for (int i = 0; i < 4; i++) {
            weight(g, fmt("bert.encoder.layer.%d.%s.weight", l, sq[i]), HIDDEN, HIDDEN);
            weight(g, fmt("bert.encoder.layer.%d.%s.bias", l, sq[i]), HIDDEN, 0);
        }
        weight(g, fmt("bert.encoder.layer.%d.attention.output.LayerNorm.weight", l), HIDDEN, 0);
        weight(g, fmt("bert.encoder.layer.%d.attention.output.LayerNorm.bias", l), HIDDEN, 0);
        weight(g, fmt("bert.encoder.layer.%d.intermediate.dense.weight", l), HIDDEN, FFN);
        weight(g, fmt("bert.encoder.layer.%d.intermediate.dense.bias", l), FFN, 0);
        weight(g, fmt("bert.encoder.layer.%d.output.dense.weight", l), FFN, HIDDEN);
        weight(g, fmt("bert.encoder.layer.%d.output.dense.bias", l), HIDDEN, 0);
        weight(g, fmt("bert.encoder.layer.%d.output.LayerNorm.weight", l), HIDDEN, 0);
        weight(g, fmt("bert.encoder.layer.%d.output.LayerNorm.bias", l), HIDDEN, 0);
    }
    weight(g, "bert.pooler.dense.weight", HIDDEN, HIDDEN);
    weight(g, "bert.pooler.dense.bias", HIDDEN, 0);
    int64_t pos[MAX_POS], pdims[2] = {1, MAX_POS};
    for (int i = 0; i < MAX_POS; i++)
        pos[i] = i;
    init(g, "bert.embeddings.position_ids", T_INT64, 2, pdims, pos, sizeof pos);
    const_i64(g, "/bert/Constant_zero", 0, 1, zero);
    const_i64(g, "/bert/Constant_one", 0, 1, one);
    const_i64(g, "/bert/Constant_axes0", 1, 1, zero);
    const_i64(g, "/bert/Constant_axes1", 1, 1, one);
    const_i64(g, "/bert/Constant_axes2", 1, 1, two);
    const_i64(g, "/bert/Constant_heads_shape", 1, 4, heads);
    const_i64(g, "/bert/Constant_merged_shape", 1, 3, merged);
    const_f(g, "/bert/Constant_onef", 1.0f);
    const_f(g, "/bert/Constant_mask_min", -10000.0f);
    const_f(g, "/bert/Constant_sqrt_head_dim", 8.0f);
    const_f(g, "/bert/Constant_two", 2.0f);
    const_f(g, "/bert/Constant_eps", 1e-12f);
    const_f(g, "/bert/Constant_sqrt2", 1.4142135f);
    const_f(g, "/bert/Constant_half", 0.5f);

    io(g, 11, "input_ids", T_INT64, 2, bs);
    io(g, 11, "attention_mask", T_INT64, 2, bs);
    io(g, 11, "token_type_ids", T_INT64, 2, bs);
    io(g, 12, "last_hidden_state", T_FLOAT, 3, bsh);
    io(g, 12, "pooler_output", T_FLOAT, 2, bh);
}

static int bert(uint64_t layers, FILE *f)
{
    struct em count = {0}, out = {f, 0, 0};
    struct bert g = {&count, {0}, {0}, {0}};
    if (layers < 1 || layers > 1000)
        return -1;
    bert_graph(&g, (int)layers);
    put_varint_field(f, 1, 8); /* ir_version 8: what onnx 1.12 reads */
    put_str(f, 2, "nnav-bench gen_chain bert");
    put_tag_len(f, 8, 2 + 2); /* opset_import { version: 14, domain: "" } */
    fputc(0x10, f), fputc(14, f), fputc(0x0a, f), fputc(0, f);
    put_tag_len(f, 7, count.n);
    g.e = &out;
    bert_graph(&g, (int)layers);
    free(g.node.p), free(g.attr.p), free(g.tmp.p);
    return out.err || out.n != count.n ? -1 : 0;
}
static int chain(uint64_t n, FILE *f)
{
    char a[32], b[32], c[32], last[32];
    sprintf(last, "v%" PRIu64, n);
    uint64_t glen = str_field_len(2, 5) + varint_len(11 << 3 | 2) + varint_len(vinfo_len("v0")) +
                    vinfo_len("v0") + varint_len(12 << 3 | 2) + varint_len(vinfo_len(last)) +
                    vinfo_len(last);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t l = node_len(i);
        glen += 1 + varint_len(l) + l;
    }
    header(f);
    put_tag_len(f, 7, glen);
    put_str(f, 2, "chain");
    vinfo(f, 11, "v0");
    for (uint64_t i = 0; i < n; i++) {
        names(i, a, b, c);
        put_tag_len(f, 1, node_len(i));
        put_str(f, 1, b);
        put_str(f, 2, c);
        put_str(f, 3, a);
        put_str(f, 4, i == odd_node ? "Tanh" : "Relu"); /* node_len counts 4 bytes */
    }
    vinfo(f, 12, last);
    return 0;
}

static int weights(uint64_t bytes, FILE *f, const char *path)
{
    uint64_t elems = bytes / 4;
    uint8_t hdr[64];
    /* TensorProto{dims elems, data_type FLOAT, name "w", raw_data <bytes>} */
    uint64_t tlen = 1 + varint_len(elems) + 2 + str_field_len(8, 1) + 1 + varint_len(elems * 4) +
                    elems * 4;
    uint64_t nlen = str_field_len(1, 1) + str_field_len(1, 1) + str_field_len(2, 1) +
                    str_field_len(3, 3) + str_field_len(4, 3);
    uint64_t glen = (1 + varint_len(nlen) + nlen) + str_field_len(2, 7) +
                    (1 + varint_len(tlen) + tlen) + 1 + varint_len(vinfo_len("x")) +
                    vinfo_len("x") + 1 + varint_len(vinfo_len("y")) + vinfo_len("y");
    header(f);
    put_tag_len(f, 7, glen);
    put_tag_len(f, 1, nlen);
    put_str(f, 1, "x");
    put_str(f, 1, "w");
    put_str(f, 2, "y");
    put_str(f, 3, "add");
    put_str(f, 4, "Add");
    put_str(f, 2, "weights");
    vinfo(f, 11, "x");
    put_tag_len(f, 5, tlen);
    size_t n = varint(hdr, 1 << 3);
    n += varint(hdr + n, elems);
    fwrite(hdr, 1, n, f);
    put_varint_field(f, 2, 1);
    put_str(f, 8, "w");
    put_tag_len(f, 9, elems * 4);
    fflush(f);
    /* The payload is a hole: the file is sparse, reads of it return zeros. */
    if (fseeko(f, (off_t)(elems * 4), SEEK_CUR) != 0)
        return -1;
    vinfo(f, 12, "y");
    (void)path;
    return 0;
}

/* A map<string, AttrValue> entry of NodeDef.attr whose value is a type
 * (AttrValue.type, field 6): {key, value {type: dtype}}. */
static uint64_t type_attr_len(const char *key)
{
    return str_field_len(1, strlen(key)) + 1 + 1 + 2;
}

static void type_attr(FILE *f, const char *key, unsigned dtype)
{
    put_tag_len(f, 5, type_attr_len(key));
    put_str(f, 1, key);
    put_tag_len(f, 2, 2);
    put_varint_field(f, 6, dtype);
}

/* GraphDef: field 1 NodeDef{1 name, 2 op, 3 input, 5 attr}, field 4 versions.
 * The GraphDef is the whole file, so nodes stream out with no outer length. */
static int tfchain(uint64_t n, FILE *f)
{
    enum { DT_FLOAT = 1 };
    char name[32], in[32];
    for (uint64_t i = 0; i < n; i++) {
        sprintf(name, "n%" PRIu64, i);
        const char *op = i ? "Relu" : "Placeholder", *key = i ? "T" : "dtype";
        uint64_t len = str_field_len(1, strlen(name)) + str_field_len(2, strlen(op)) +
                       1 + varint_len(type_attr_len(key)) + type_attr_len(key);
        if (i) {
            sprintf(in, "n%" PRIu64, i - 1);
            len += str_field_len(3, strlen(in));
        }
        put_tag_len(f, 1, len);
        put_str(f, 1, name);
        put_str(f, 2, op);
        if (i)
            put_str(f, 3, in);
        type_attr(f, key, DT_FLOAT);
    }
    put_tag_len(f, 4, 2); /* versions { producer: 27 } */
    put_varint_field(f, 1, 27);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: gen_chain chain|scoped|chainop N OUT | weights BYTES OUT | tfchain N OUT | "
                        "bert LAYERS OUT\n");
        return 1;
    }
    uint64_t n = strtoull(argv[2], NULL, 10);
    FILE *f = fopen(argv[3], "wb");
    if (!f) {
        perror(argv[3]);
        return 1;
    }
    scoped_names = !strcmp(argv[1], "scoped");
    if (!strcmp(argv[1], "chainop"))
        odd_node = n / 2;
    int rc = !strcmp(argv[1], "chain") || scoped_names || odd_node != UINT64_MAX ? chain(n, f)
             : !strcmp(argv[1], "tfchain") ? tfchain(n, f)
             : !strcmp(argv[1], "bert")    ? bert(n, f)
                                           : weights(n, f, argv[3]);
    if (fclose(f) != 0 || rc != 0) {
        perror(argv[3]);
        return 1;
    }
    return 0;
}
