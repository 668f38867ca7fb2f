/* export_onnx.c - a selection written as a new, standalone .onnx model.
 *
 * Nodes, initializers and functions are copied from the map byte for byte
 * (their messages are already valid protobuf: nothing is decoded, attributes
 * and nested bodies come along untouched, fields we do not know included).
 * Small messages the new model needs fresh (opset imports, metadata, value
 * infos for new inputs and outputs) are packed by protobuf-c. The enclosing
 * ModelProto and GraphProto are planned as a list of byte ranges first, so
 * their lengths are known, then streamed: weights are never held in memory. */
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "export.h"
#include "extdata.h"
#include "model.h"
#include "onnx.pb-c.h"
#include "onnx_fields.h"
#include "shape.h"
#include "walk.h"
#include "wire.h"

typedef struct chunk {
    const uint8_t *p;
    uint64_t n;
} chunk;

typedef struct plan {
    NNAV_VEC(chunk) c;
    NNAV_VEC(uint8_t *) owned;  /* buffers the chunks point into */
    NNAV_VEC(void *) cookies;   /* external data mappings to release */
    int failed;
} plan;

static void add(plan *pl, const uint8_t *p, uint64_t n)
{
    chunk *c = nnav_vec_push(pl->c);
    if (!c) {
        pl->failed = 1;
        return;
    }
    c->p = p;
    c->n = n;
}

/* A small owned buffer (tags, lengths, packed messages). */
static uint8_t *own(plan *pl, size_t n)
{
    uint8_t *b = malloc(n ? n : 1);
    uint8_t **slot = b ? nnav_vec_push(pl->owned) : NULL;
    if (!slot) {
        free(b);
        pl->failed = 1;
        return NULL;
    }
    *slot = b;
    return b;
}

static size_t varint(uint8_t *b, uint64_t v)
{
    size_t n = 0;
    do {
        b[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    return n;
}

/* Tag and length of a LEN field holding n bytes. */
static void add_len_head(plan *pl, uint32_t field, uint64_t n)
{
    uint8_t *b = own(pl, 20);
    if (!b)
        return;
    size_t k = varint(b, (uint64_t)field << 3 | NNAV_WT_LEN);
    k += varint(b + k, n);
    add(pl, b, k);
}

static void add_varint_field(plan *pl, uint32_t field, uint64_t v)
{
    uint8_t *b = own(pl, 20);
    if (!b)
        return;
    size_t k = varint(b, (uint64_t)field << 3);
    k += varint(b + k, v);
    add(pl, b, k);
}

static void add_bytes_field(plan *pl, uint32_t field, const uint8_t *p, uint64_t n)
{
    add_len_head(pl, field, n);
    add(pl, p, n);
}

static void add_packed(plan *pl, uint32_t field, const ProtobufCMessage *msg)
{
    size_t n = protobuf_c_message_get_packed_size(msg);
    uint8_t *b = own(pl, n);
    if (!b)
        return;
    protobuf_c_message_pack(msg, b);
    add_bytes_field(pl, field, b, n);
}

static uint64_t plan_size(const plan *pl, uint32_t from)
{
    uint64_t s = 0;
    for (uint32_t i = from; i < pl->c.n; i++)
        s += pl->c.v[i].n;
    return s;
}

/* Move chunks [from, end) behind a new LEN head for `field`. */
static void wrap(plan *pl, uint32_t from, uint32_t field)
{
    uint64_t n = plan_size(pl, from);
    uint32_t end = pl->c.n;
    add_len_head(pl, field, n);
    if (pl->failed)
        return;
    chunk head = pl->c.v[end];
    memmove(&pl->c.v[from + 1], &pl->c.v[from], (size_t)(end - from) * sizeof(chunk));
    pl->c.v[from] = head;
}

static void plan_free(plan *pl)
{
    for (uint32_t i = 0; i < pl->owned.n; i++)
        free(pl->owned.v[i]);
    for (uint32_t i = 0; i < pl->cookies.n; i++)
        nnav_tensor_bytes_release(pl->cookies.v[i]);
    nnav_vec_free(pl->c);
    nnav_vec_free(pl->owned);
    nnav_vec_free(pl->cookies);
}

/* An external tensor of the index, by where its TensorProto starts. */
typedef struct ext_ref {
    const uint8_t *p;
    uint32_t id;
} ext_ref;

typedef struct ctx {
    const nnav_model *m;
    const nnav_export_opts *o;
    FILE *data;
    const char *data_name;
    uint64_t data_off;
    nnav_error *err;
    uint32_t graph;
    const nnav_shapes *shapes; /* the typed view: the caller's, or likewise */
    nnav_shapes *own_shapes;   /* the one inferred here, freed at the end */
    int shapes_tried;
    NNAV_VEC(ext_ref) ext; /* the index's external tensors, sorted, built on first need */
    int ext_built;
} ctx;

/* ---- external data, wherever a TensorProto sits ----
 *
 * A node, body or function is copied as its bytes unless a TensorProto inside
 * it, at any depth, keeps its data in a file: that tensor is rewritten (its
 * bytes inline, or appended to OUT.data) and every message enclosing it is
 * re-emitted field by field under a new length. A location is never copied:
 * the old one is relative to the input's folder, not the output's, and one
 * that leaves the folder is refused here as it is at top level. Each message
 * is walked once; one with nothing to rewrite is then copied as it was. */

enum { K_TENSOR, K_NODE, K_ATTR, K_GRAPH, K_SPARSE, K_FUNCTION, K_TRAINING };

/* The message kind field `num` of a `kind` message holds, -1 for none; and
 * the field's name for error paths. */
static int sub_kind(int kind, uint32_t num, const char **name)
{
    static const struct { uint8_t kind; uint8_t num; uint8_t sub; const char *name; } t[] = {
        {K_NODE, NNAV_ONNX_NODEPROTO_ATTRIBUTE, K_ATTR, "attribute"},
        {K_ATTR, NNAV_ONNX_ATTRIBUTEPROTO_T, K_TENSOR, "t"},
        {K_ATTR, NNAV_ONNX_ATTRIBUTEPROTO_TENSORS, K_TENSOR, "tensors"},
        {K_ATTR, NNAV_ONNX_ATTRIBUTEPROTO_G, K_GRAPH, "g"},
        {K_ATTR, NNAV_ONNX_ATTRIBUTEPROTO_GRAPHS, K_GRAPH, "graphs"},
        {K_ATTR, NNAV_ONNX_ATTRIBUTEPROTO_SPARSE_TENSOR, K_SPARSE, "sparse_tensor"},
        {K_ATTR, NNAV_ONNX_ATTRIBUTEPROTO_SPARSE_TENSORS, K_SPARSE, "sparse_tensors"},
        {K_GRAPH, NNAV_ONNX_GRAPHPROTO_NODE, K_NODE, "node"},
        {K_GRAPH, NNAV_ONNX_GRAPHPROTO_INITIALIZER, K_TENSOR, "initializer"},
        {K_GRAPH, NNAV_ONNX_GRAPHPROTO_SPARSE_INITIALIZER, K_SPARSE, "sparse_initializer"},
        {K_SPARSE, NNAV_ONNX_SPARSETENSORPROTO_VALUES, K_TENSOR, "values"},
        {K_SPARSE, NNAV_ONNX_SPARSETENSORPROTO_INDICES, K_TENSOR, "indices"},
        {K_FUNCTION, NNAV_ONNX_FUNCTIONPROTO_NODE, K_NODE, "node"},
        {K_FUNCTION, NNAV_ONNX_FUNCTIONPROTO_ATTRIBUTE_PROTO, K_ATTR, "attribute_proto"},
        {K_TRAINING, NNAV_ONNX_TRAININGINFOPROTO_INITIALIZATION, K_GRAPH, "initialization"},
        {K_TRAINING, NNAV_ONNX_TRAININGINFOPROTO_ALGORITHM, K_GRAPH, "algorithm"},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].kind == kind && t[i].num == num) {
            *name = t[i].name;
            return t[i].sub;
        }
    return -1;
}

/* Repeated fields get an index in error paths, singular ones do not. */
static int repeated(int kind, uint32_t num)
{
    int singular_attr = num == NNAV_ONNX_ATTRIBUTEPROTO_T || num == NNAV_ONNX_ATTRIBUTEPROTO_G ||
                        num == NNAV_ONNX_ATTRIBUTEPROTO_SPARSE_TENSOR;
    return !(kind == K_ATTR && singular_attr) && kind != K_SPARSE && kind != K_TRAINING;
}

static int cmp_ext(const void *a, const void *b)
{
    const uint8_t *pa = ((const ext_ref *)a)->p, *pb = ((const ext_ref *)b)->p;
    return pa < pb ? -1 : pa > pb;
}

/* The index's tensor whose TensorProto starts at p, among its external ones;
 * NNAV_NONE when the index does not keep it. */
static uint32_t ext_lookup(ctx *x, const uint8_t *p)
{
    if (!x->ext_built) {
        const nnav_model *m = x->m;
        x->ext_built = 1;
        for (uint32_t t = 0; t < m->tensors.n; t++) {
            if (m->tensors.v[t].storage != NNAV_STORE_EXTERNAL || !m->tensors.v[t].msg.p)
                continue;
            ext_ref *slot = nnav_vec_push(x->ext);
            if (!slot) {
                nnav_vec_free(x->ext); /* the local reading of each tensor stands in */
                return NNAV_NONE;
            }
            slot->p = m->tensors.v[t].msg.p;
            slot->id = t;
        }
        if (x->ext.n)
            qsort(x->ext.v, x->ext.n, sizeof *x->ext.v, cmp_ext);
    }
    size_t lo = 0, hi = x->ext.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const uint8_t *q = x->ext.v[mid].p;
        if (q == p)
            return x->ext.v[mid].id;
        if (q < p)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NNAV_NONE;
}

/* A non-negative decimal with no sign and no overflow, as the reader wants. */
static int decimal(nnav_span s, int64_t *out)
{
    int64_t v = 0;
    if (s.n == 0 || s.n > 19)
        return -1;
    for (uint64_t i = 0; i < s.n; i++) {
        if (s.p[i] < '0' || s.p[i] > '9' || v > (INT64_MAX - (s.p[i] - '0')) / 10)
            return -1;
        v = v * 10 + (s.p[i] - '0');
    }
    *out = v;
    return 0;
}

/* The external_data of a TensorProto the index does not keep (in a
 * sparse_tensor attribute), read by the reader's rules: a duplicate, unknown
 * or malformed key marks it, and extdata.c refuses a marked tensor. */
static int read_external(const nnav_model *m, nnav_span s, nnav_tensor *t, nnav_error *err)
{
    nnav_wire r, kr;
    nnav_field f, kf;
    int k, seen = 0;
    memset(t, 0, sizeof *t);
    t->msg = s;
    t->ext_offset = t->ext_length = -1;
    t->graph = NNAV_NONE;
    nnav_wire_init(&r, m->map.base, s);
    while ((k = nnav_wire_next(&r, &f, err)) == 1) {
        if (f.num == NNAV_ONNX_TENSORPROTO_NAME && f.wt == NNAV_WT_LEN)
            t->name = f.s;
        if (f.num != NNAV_ONNX_TENSORPROTO_EXTERNAL_DATA)
            continue;
        nnav_span key = {0}, val = {0};
        int kk = -1;
        if (f.wt == NNAV_WT_LEN) {
            nnav_wire_init(&kr, m->map.base, f.s);
            while ((kk = nnav_wire_next(&kr, &kf, err)) == 1) {
                if ((kf.num == NNAV_ONNX_STRINGSTRINGENTRYPROTO_KEY ||
                     kf.num == NNAV_ONNX_STRINGSTRINGENTRYPROTO_VALUE) && kf.wt != NNAV_WT_LEN)
                    break;
                if (kf.num == NNAV_ONNX_STRINGSTRINGENTRYPROTO_KEY)
                    key = kf.s;
                else if (kf.num == NNAV_ONNX_STRINGSTRINGENTRYPROTO_VALUE)
                    val = kf.s;
            }
        }
        if (kk != 0) {
            t->warn |= NNAV_TW_BAD_EXTERNAL;
            continue;
        }
        int bit = nnav_span_eqs(key, "location") ? 1
                  : nnav_span_eqs(key, "offset") ? 2
                  : nnav_span_eqs(key, "length") ? 4
                  : nnav_span_eqs(key, "checksum") ? 8 : 16;
        if ((seen & bit) || bit == 16)
            t->warn |= NNAV_TW_BAD_EXTERNAL;
        seen |= bit;
        if (bit == 1)
            t->ext_location = val;
        else if ((bit == 2 && decimal(val, &t->ext_offset) < 0) ||
                 (bit == 4 && decimal(val, &t->ext_length) < 0))
            t->warn |= NNAV_TW_BAD_EXTERNAL;
    }
    if (k < 0)
        return -1;
    if (!(seen & 1))
        t->warn |= NNAV_TW_BAD_EXTERNAL;
    t->storage = NNAV_STORE_EXTERNAL;
    return 0;
}

int nnav_export_locations(const nnav_model *m, nnav_location_fn fn, void *cx)
{
    nnav_span last = {0};
    for (uint32_t t = 0; t < m->tensors.n; t++) {
        nnav_span loc = m->tensors.v[t].ext_location;
        if (!loc.n || nnav_span_same(loc, last))
            continue; /* tensors in a row mostly share one file: asked once */
        last = loc;
        if (fn(cx, loc))
            return 1;
    }
    /* TensorProtos the index does not keep: in sparse_tensor(s) attributes. */
    for (uint32_t a = 0; (m->facts.traits & NNAV_TRAIT_ONNX_MESSAGES) && a < m->attrs.n; a++) {
        nnav_wire ra, rs;
        nnav_field fa, fs;
        nnav_error e;
        nnav_wire_init(&ra, m->map.base, m->attrs.v[a].msg);
        while (nnav_wire_next(&ra, &fa, &e) == 1) {
            if ((fa.num != NNAV_ONNX_ATTRIBUTEPROTO_SPARSE_TENSOR &&
                 fa.num != NNAV_ONNX_ATTRIBUTEPROTO_SPARSE_TENSORS) || fa.wt != NNAV_WT_LEN)
                continue;
            nnav_wire_init(&rs, m->map.base, fa.s);
            while (nnav_wire_next(&rs, &fs, &e) == 1) {
                nnav_tensor t;
                if ((fs.num != NNAV_ONNX_SPARSETENSORPROTO_VALUES &&
                     fs.num != NNAV_ONNX_SPARSETENSORPROTO_INDICES) || fs.wt != NNAV_WT_LEN ||
                    read_external(m, fs.s, &t, &e) < 0 || !t.ext_location.n)
                    continue;
                if (fn(cx, t.ext_location))
                    return 1;
            }
        }
    }
    return 0;
}

/* Say which tensor was refused and where it sits, in front of extdata's why. */
static int refused(ctx *x, const nnav_tensor *t)
{
    const nnav_model *m = x->m;
    char why[sizeof x->err->msg], name[160], gp[256] = "";
    memcpy(why, x->err->msg, sizeof why);
    nnav_text_escape(t->name.p, t->name.n, name, sizeof name);
    if (t->graph != NNAV_NONE && t->graph < m->graphs.n)
        nnav_graph_path(m, t->graph, gp, sizeof gp);
    /* The offset goes inside: the reason stays the end of the line. */
    nnav_err_set(x->err, 0, 0, "tensor '%s' (%s%s%sTensorProto at offset %llu): %s", name,
                 gp[0] ? "in graph " : "", gp[0] ? gp : "", gp[0] ? ", " : "",
                 (unsigned long long)(t->msg.p - m->map.base), why);
    return -1;
}

/* Append a field's bytes as they are (tag, length, payload). */
static void add_field(const nnav_model *m, plan *pl, const nnav_field *f)
{
    const uint8_t *start = m->map.base + f->off;
    add(pl, start, (uint64_t)(f->s.p + f->s.n - start));
}

static int has_word(nnav_span s, const char *w)
{
    size_t n = strlen(w);
    for (uint64_t i = 0; s.n >= n && i <= s.n - n; i++)
        if (!memcmp(s.p + i, w, n))
            return 1;
    return 0;
}

/* A message nnav's wire reader cannot read (the reader checks no deeper than
 * what it indexes: a sparse_tensor attribute's bytes, say) is copied as it
 * is, as it always was: unless its bytes spell "location", which every
 * external tensor needs and which a more lenient parser might honour. */
static int unreadable(ctx *x, nnav_span s)
{
    if (!has_word(s, "location"))
        return 0;
    char why[sizeof x->err->msg];
    memcpy(why, x->err->msg, sizeof why);
    nnav_err_set(x->err, (uint64_t)(s.p - x->m->map.base), 1,
                 "a message that cannot be read names an external data location (%s)", why);
    return -1;
}

/* The body of TensorProto s, rewritten when it has external data (bytes
 * inline or in OUT.data) or stray external_data/data_location fields (dropped:
 * they mean nothing without EXTERNAL, and a location must not pass). 1 when
 * chunks were added, 0 when the tensor stays as it is (nothing added), -1. */
static int emit_tensor(ctx *x, plan *pl, nnav_span s, uint32_t tid)
{
    const nnav_model *m = x->m;
    nnav_wire r;
    nnav_field f;
    int k, external = 0, stray = 0;
    nnav_wire_init(&r, m->map.base, s);
    while ((k = nnav_wire_next(&r, &f, x->err)) == 1)
        if (f.num == NNAV_ONNX_TENSORPROTO_EXTERNAL_DATA ||
            f.num == NNAV_ONNX_TENSORPROTO_DATA_LOCATION) {
            stray = 1;
            if (f.num == NNAV_ONNX_TENSORPROTO_DATA_LOCATION)
                external = f.wt == NNAV_WT_VARINT && f.v == 1; /* the last one counts */
        }
    if (k < 0)
        return unreadable(x, s);
    if (!stray)
        return 0;
    nnav_span bytes = {0};
    if (external) {
        nnav_tensor local;
        const nnav_tensor *t;
        if (tid == NNAV_NONE)
            tid = ext_lookup(x, s.p);
        if (tid != NNAV_NONE) {
            t = &m->tensors.v[tid];
        } else {
            if (read_external(m, s, &local, x->err) < 0)
                return -1;
            t = &local;
        }
        void *cookie = NULL;
        if (nnav_ext_map_tensor(m, t, &bytes, &cookie, x->err) < 0)
            return refused(x, t);
        void **slot = nnav_vec_push(pl->cookies);
        if (!slot) {
            nnav_ext_release(cookie);
            pl->failed = 1;
            return -1;
        }
        *slot = cookie;
    }
    nnav_wire_init(&r, m->map.base, s);
    while (nnav_wire_next(&r, &f, x->err) == 1)
        if (f.num != NNAV_ONNX_TENSORPROTO_EXTERNAL_DATA &&
            f.num != NNAV_ONNX_TENSORPROTO_DATA_LOCATION &&
            !(external && f.num == NNAV_ONNX_TENSORPROTO_RAW_DATA))
            add_field(m, pl, &f); /* a stray raw_data goes: the file's bytes are the data */
    if (!external)
        return pl->failed ? -1 : 1;
    if (!x->data) {
        add_bytes_field(pl, NNAV_ONNX_TENSORPROTO_RAW_DATA, bytes.p, bytes.n);
        return pl->failed ? -1 : 1;
    }
    /* Page-aligned, as the ONNX tools write it, so the data can be mapped. */
    static const uint8_t zeros[4096];
    uint64_t pad = (4096 - x->data_off % 4096) % 4096;
    if ((pad && fwrite(zeros, 1, (size_t)pad, x->data) != pad) ||
        (bytes.n && fwrite(bytes.p, 1, (size_t)bytes.n, x->data) != bytes.n)) {
        nnav_err_set(x->err, 0, 0, "writing the external data file failed");
        return -1;
    }
    x->data_off += pad;
    char num[2][32];
    snprintf(num[0], sizeof num[0], "%llu", (unsigned long long)x->data_off);
    snprintf(num[1], sizeof num[1], "%llu", (unsigned long long)bytes.n);
    x->data_off += bytes.n;
    const char *keys[3] = {"location", "offset", "length"};
    const char *vals[3] = {x->data_name, num[0], num[1]};
    for (int i = 0; i < 3; i++) {
        Onnx__StringStringEntryProto kv = ONNX__STRING_STRING_ENTRY_PROTO__INIT;
        kv.key = (char *)keys[i];
        kv.value = (char *)vals[i];
        add_packed(pl, NNAV_ONNX_TENSORPROTO_EXTERNAL_DATA, &kv.base);
    }
    add_varint_field(pl, NNAV_ONNX_TENSORPROTO_DATA_LOCATION, 1); /* EXTERNAL */
    return pl->failed ? -1 : 1;
}

/* One message being walked: the emitter keeps its own stack on the heap, so
 * bodies nested as deep as the reader allows cost no C stack. */
typedef struct frame {
    nnav_wire r;
    uint8_t kind, changed;
    uint32_t head;       /* the chunk kept for this message's tag and length */
    uint32_t field;      /* its field number in the enclosing message */
    uint32_t index;      /* which occurrence of that field, for error paths */
    const char *name;    /* that field's name, likewise */
    nnav_span whole;     /* the field as it is in the file: tag to end */
    uint64_t bytes;      /* body bytes planned so far */
    uint32_t count[24];  /* occurrences of each field that holds a message */
} frame;

#define MAX_FRAMES 200000 /* above the reader's 20,000 levels of bodies, 3 frames each */

static void set_head(plan *pl, uint32_t at, uint32_t field, uint64_t n)
{
    uint8_t *b = own(pl, 20);
    if (!b)
        return;
    size_t k = varint(b, (uint64_t)field << 3 | NNAV_WT_LEN);
    k += varint(b + k, n);
    pl->c.v[at].p = b;
    pl->c.v[at].n = k;
}

/* Message s of kind `kind` as field `field`: re-emitted when a TensorProto
 * inside it changes, else copied as it is. -1 with the field path below s. */
static int add_msg_walk(ctx *x, plan *pl, uint32_t field, int kind, nnav_span s)
{
    const nnav_model *m = x->m;
    NNAV_VEC(frame) st = {0};
    nnav_field f;
    int rc = -1;
    frame *fr = nnav_vec_push(st);
    if (!fr)
        goto oom;
    memset(fr, 0, sizeof *fr);
    nnav_wire_init(&fr->r, m->map.base, s);
    fr->kind = (uint8_t)kind;
    fr->field = field;
    fr->head = pl->c.n;
    add(pl, NULL, 0);
    while (st.n && !pl->failed) {
        fr = &st.v[st.n - 1];
        int k = nnav_wire_next(&fr->r, &f, x->err);
        if (k < 0 && st.n > 1 && unreadable(x, fr->whole) == 0)
            k = 2; /* copied as it is */
        else if (k < 0)
            goto fail;
        if (k == 1) {
            const char *name = NULL;
            int sub = f.wt == NNAV_WT_LEN ? sub_kind(fr->kind, f.num, &name) : -1;
            nnav_span whole = {m->map.base + f.off, (uint64_t)(f.s.p + f.s.n - (m->map.base + f.off))};
            if (sub == K_TENSOR) {
                uint32_t at = pl->c.n, i = fr->count[f.num]++;
                int t = emit_tensor(x, pl, f.s, NNAV_NONE);
                if (t < 0) {
                    if (repeated(fr->kind, f.num))
                        nnav_err_prepend(x->err, "%s[%u]", name, i);
                    else
                        nnav_err_prepend(x->err, "%s", name);
                    goto fail;
                }
                if (t == 1) {
                    wrap(pl, at, f.num);
                    fr->bytes += plan_size(pl, at);
                    fr->changed = 1;
                    continue;
                }
            } else if (sub >= 0) {
                if (st.n >= MAX_FRAMES) {
                    nnav_err_set(x->err, f.off, 1, "messages nested deeper than %u levels",
                                 MAX_FRAMES);
                    goto fail;
                }
                uint32_t i = fr->count[f.num]++;
                uint8_t parent_kind = fr->kind;
                frame *ch = nnav_vec_push(st);
                if (!ch)
                    goto oom;
                memset(ch, 0, sizeof *ch);
                nnav_wire_init(&ch->r, m->map.base, f.s);
                ch->kind = (uint8_t)sub;
                ch->field = f.num;
                ch->index = repeated(parent_kind, f.num) ? i : UINT32_MAX;
                ch->name = name;
                ch->whole = whole;
                ch->head = pl->c.n;
                add(pl, NULL, 0);
                continue;
            }
            add(pl, whole.p, whole.n);
            fr->bytes += whole.n;
            continue;
        }
        /* The end of this message (k == 0), or one copied as it is (k == 2). */
        frame done = *fr;
        st.n--;
        if (done.changed && k == 0) {
            set_head(pl, done.head, done.field, done.bytes);
            if (st.n) {
                st.v[st.n - 1].bytes += pl->c.v[done.head].n + done.bytes;
                st.v[st.n - 1].changed = 1;
            }
        } else {
            pl->c.n = done.head;
            if (st.n) {
                add(pl, done.whole.p, done.whole.n);
                st.v[st.n - 1].bytes += done.whole.n;
            } else {
                add_bytes_field(pl, field, s.p, s.n);
            }
        }
    }
    if (pl->failed)
        goto oom;
    rc = 0;
    goto out;
oom:
    nnav_err_set(x->err, 0, 0, "out of memory while planning the ONNX output");
fail:
    /* The path from s down to where it failed. */
    for (uint32_t i = st.n; i-- > 1;) {
        if (st.v[i].index != UINT32_MAX)
            nnav_err_prepend(x->err, "%s[%u]", st.v[i].name, st.v[i].index);
        else
            nnav_err_prepend(x->err, "%s", st.v[i].name);
    }
out:
    nnav_vec_free(st);
    return rc;
}

/* A top-level message: re-emitted or copied, behind the head of `field`. */
static int add_msg(ctx *x, plan *pl, uint32_t field, int kind, nnav_span s, uint32_t tid)
{
    if (kind != K_TENSOR)
        return add_msg_walk(x, pl, field, kind, s);
    uint32_t at = pl->c.n;
    int rc = emit_tensor(x, pl, s, tid);
    if (rc < 0)
        return -1;
    if (rc == 1)
        wrap(pl, at, field);
    else
        add_bytes_field(pl, field, s.p, s.n);
    return pl->failed ? -1 : 0;
}

/* The inferred type of a value the file leaves untyped, from the typed view
 * (computed on first need): a tensor's, or a sequence's elements' (not_tensor
 * NNAV_NT_SEQ or NNAV_NT_SEQ_EMPTY); NULL when inference has no element type. */
static const nnav_fact *inferred_fact(ctx *x, uint32_t v)
{
    if (!x->shapes_tried) {
        x->shapes_tried = 1;
        x->shapes = x->own_shapes = nnav_shapes_infer(x->m, NULL);
    }
    const nnav_fact *f = x->shapes ? nnav_shapes_fact(x->shapes, v) : NULL;
    if (!f || f->src != NNAV_SRC_INFERRED || f->not_tensor == NNAV_NT_OTHER || !f->dtype)
        return NULL;
    return f;
}

/* What inference knows of a tensor value (the file's facts merged in), or
 * NULL: nothing, or not a tensor. */
static const nnav_fact *known_fact(ctx *x, uint32_t v)
{
    if (!x->shapes_tried) {
        x->shapes_tried = 1;
        x->shapes = x->own_shapes = nnav_shapes_infer(x->m, NULL);
    }
    const nnav_fact *f = x->shapes ? nnav_shapes_fact(x->shapes, v) : NULL;
    if (!f || f->src == NNAV_SRC_NONE || f->src == NNAV_SRC_FILE || f->not_tensor || f->conflict)
        return NULL;
    return f;
}

/* One inferred axis as a TensorShapeProto.Dimension's value field: a size
 * as dim_value, a symbolic size as dim_param; nothing for an unknown one. */
static void add_dim_value(ctx *x, plan *pl, nnav_dim d)
{
    if (nnav_dim_is_num(d) && nnav_dim_val(d) >= 0) {
        add_varint_field(pl, NNAV_ONNX_TENSORSHAPEPROTO_DIMENSION_DIM_VALUE,
                         (uint64_t)nnav_dim_val(d));
    } else if (nnav_dim_is_sym(d)) {
        char text[256];
        size_t n = nnav_dim_format(x->shapes, d, text, sizeof text);
        if (n + 1 >= sizeof text)
            return; /* maybe cut: no name rather than a wrong one */
        uint8_t *b = own(pl, n);
        if (!b)
            return;
        memcpy(b, text, n);
        add_bytes_field(pl, NNAV_ONNX_TENSORSHAPEPROTO_DIMENSION_DIM_PARAM, b, n);
    }
}

static int dim_known(nnav_dim d)
{
    return (nnav_dim_is_num(d) && nnav_dim_val(d) >= 0) || nnav_dim_is_sym(d);
}

/* How many times each field number below 16 occurs in message s (in lens,
 * those with a length-delimited value); 0, or -1 when s is malformed. */
static int count_fields(const nnav_model *m, nnav_span s, uint32_t *all, uint32_t *lens)
{
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    int k;
    memset(all, 0, 16 * sizeof *all);
    memset(lens, 0, 16 * sizeof *lens);
    nnav_wire_init(&r, m->map.base, s);
    while ((k = nnav_wire_next(&r, &f, &e)) == 1)
        if (f.num < 16) {
            all[f.num]++;
            lens[f.num] += f.wt == NNAV_WT_LEN;
        }
    return k;
}

/* A well-formed TensorShapeProto.Dimension with neither dim_value nor
 * dim_param: an axis the file gives no size. */
static int dim_empty(const nnav_model *m, nnav_span s)
{
    uint32_t all[16], lens[16];
    return count_fields(m, s, all, lens) == 0 &&
           all[NNAV_ONNX_TENSORSHAPEPROTO_DIMENSION_DIM_VALUE] == 0 &&
           all[NNAV_ONNX_TENSORSHAPEPROTO_DIMENSION_DIM_PARAM] == 0;
}

/* The TypeProto of an input or output: the file's (`type`), as it is when it
 * is complete; where it is a tensor type that lacks its element type, its
 * shape, or the size of an axis, what inference knows fills exactly those
 * gaps (onnx's own shape inference writes an element type alone for a value
 * it cannot shape, and onnx.checker wants a shape on every input and
 * output). The file is never contradicted: its element type and every axis
 * it gives stay; a shape of another rank than the inferred one stays as it
 * is. Every other field is copied as it is. Only a plain form is rebuilt:
 * one tensor (or sparse tensor) type, at most one shape in it, each field a
 * message where it should be; anything else is copied as it is. */
/* A tensor type and a sparse tensor type number their fields alike. */
_Static_assert(NNAV_ONNX_TYPEPROTO_TENSOR_ELEM_TYPE == NNAV_ONNX_TYPEPROTO_SPARSETENSOR_ELEM_TYPE &&
                   NNAV_ONNX_TYPEPROTO_TENSOR_SHAPE == NNAV_ONNX_TYPEPROTO_SPARSETENSOR_SHAPE,
               "TypeProto.Tensor and TypeProto.SparseTensor fields");
enum { TT_ELEM = NNAV_ONNX_TYPEPROTO_TENSOR_ELEM_TYPE, TT_SHAPE = NNAV_ONNX_TYPEPROTO_TENSOR_SHAPE,
       SHAPE_DIM = NNAV_ONNX_TENSORSHAPEPROTO_DIM, VI_TYPE = NNAV_ONNX_VALUEINFOPROTO_TYPE };

static void add_type(ctx *x, plan *pl, nnav_span type, uint32_t v)
{
    const nnav_model *m = x->m;
    uint32_t all[16], lens[16], tall[16], tlens[16];
    nnav_type t;
    int tensor = nnav_type_decode(m, type, &t);
    int32_t et = t.elem;
    int hs = t.rank >= 0;
    uint64_t rank = hs ? (uint64_t)t.rank : 0;
    if (tensor != 1 ||
        count_fields(m, type, all, lens) != 0 ||
        all[NNAV_ONNX_TYPEPROTO_TENSOR_TYPE] + all[NNAV_ONNX_TYPEPROTO_SPARSE_TENSOR_TYPE] != 1 ||
        lens[NNAV_ONNX_TYPEPROTO_TENSOR_TYPE] + lens[NNAV_ONNX_TYPEPROTO_SPARSE_TENSOR_TYPE] != 1 ||
        all[NNAV_ONNX_TYPEPROTO_SEQUENCE_TYPE] || all[NNAV_ONNX_TYPEPROTO_MAP_TYPE] ||
        all[NNAV_ONNX_TYPEPROTO_OPAQUE_TYPE] || all[NNAV_ONNX_TYPEPROTO_OPTIONAL_TYPE]) {
        add_bytes_field(pl, VI_TYPE, type.p, type.n);
        return;
    }
    nnav_wire r, rs, rd;
    nnav_field fd, fs, fdd;
    nnav_error e;
    nnav_span tt = {0}, shape = {0};
    uint32_t tt_num = 0;
    nnav_wire_init(&r, m->map.base, type);
    while (nnav_wire_next(&r, &fd, &e) == 1)
        if (fd.num == NNAV_ONNX_TYPEPROTO_TENSOR_TYPE ||
            fd.num == NNAV_ONNX_TYPEPROTO_SPARSE_TENSOR_TYPE)
            tt = fd.s, tt_num = fd.num;
    if (count_fields(m, tt, tall, tlens) != 0 || tall[TT_SHAPE] > 1 ||
        tall[TT_SHAPE] != tlens[TT_SHAPE]) {
        add_bytes_field(pl, VI_TYPE, type.p, type.n);
        return;
    }
    nnav_wire_init(&r, m->map.base, tt);
    while (nnav_wire_next(&r, &fd, &e) == 1)
        if (fd.num == TT_SHAPE)
            shape = fd.s;
    /* A malformed shape, or a dim that is no message, stays as it is. */
    int shape_ok =
        hs && count_fields(m, shape, all, lens) == 0 && all[SHAPE_DIM] == lens[SHAPE_DIM];
    /* The file's gaps first: a complete type asks nothing of inference. */
    int gaps = et == 0 || !hs;
    nnav_wire_init(&rs, m->map.base, shape);
    while (shape_ok && !gaps && nnav_wire_next(&rs, &fs, &e) == 1)
        gaps = fs.num == SHAPE_DIM && dim_empty(m, fs.s);
    const nnav_fact *f = gaps ? known_fact(x, v) : NULL;
    if (!f) {
        add_bytes_field(pl, VI_TYPE, type.p, type.n);
        return;
    }
    const nnav_dim *id = f->rank >= 0 ? nnav_shapes_dims(x->shapes, f->dims) : NULL;
    int same_rank = shape_ok && f->rank >= 0 && rank == (uint64_t)f->rank;
    /* What is missing that inference has. */
    int need = (et == 0 && f->dtype) || (!hs && f->rank >= 0);
    if (same_rank && !need) {
        uint32_t i = 0;
        nnav_wire_init(&rs, m->map.base, shape);
        while (!need && nnav_wire_next(&rs, &fs, &e) == 1)
            if (fs.num == SHAPE_DIM) {
                need = dim_empty(m, fs.s) && dim_known(id[i]);
                i++;
            }
    }
    if (!need) {
        add_bytes_field(pl, VI_TYPE, type.p, type.n);
        return;
    }
    /* Rebuilt: the TypeProto's other fields, then its tensor type. */
    uint32_t from = pl->c.n;
    nnav_wire_init(&r, m->map.base, type);
    while (nnav_wire_next(&r, &fd, &e) == 1)
        if (fd.num != tt_num)
            add_field(m, pl, &fd);
    uint32_t tfrom = pl->c.n;
    nnav_wire_init(&r, m->map.base, tt);
    while (nnav_wire_next(&r, &fd, &e) == 1)
        if (fd.num != TT_ELEM && fd.num != TT_SHAPE)
            add_field(m, pl, &fd);
    if (et || f->dtype)
        add_varint_field(pl, TT_ELEM, (uint64_t)(uint32_t)(et ? et : f->dtype));
    uint32_t sfrom = pl->c.n;
    if (hs) {
        uint32_t i = 0;
        nnav_wire_init(&rs, m->map.base, shape);
        while (nnav_wire_next(&rs, &fs, &e) == 1) {
            if (fs.num != SHAPE_DIM || !same_rank) {
                add_field(m, pl, &fs);
                continue;
            }
            if (!dim_empty(m, fs.s) || !dim_known(id[i])) {
                add_field(m, pl, &fs); /* the file's axis, or nothing better */
            } else {
                uint32_t dfrom = pl->c.n;
                nnav_wire_init(&rd, m->map.base, fs.s);
                while (nnav_wire_next(&rd, &fdd, &e) == 1)
                    add_field(m, pl, &fdd); /* a denotation, say */
                add_dim_value(x, pl, id[i]);
                wrap(pl, dfrom, SHAPE_DIM);
            }
            i++;
        }
        wrap(pl, sfrom, TT_SHAPE);
    } else if (f->rank >= 0) {
        for (int32_t i = 0; i < f->rank; i++) {
            uint32_t dfrom = pl->c.n;
            add_dim_value(x, pl, id[i]);
            wrap(pl, dfrom, SHAPE_DIM);
        }
        wrap(pl, sfrom, TT_SHAPE);
    }
    wrap(pl, tfrom, tt_num);
    wrap(pl, from, VI_TYPE);
}

/* A value info for a value: its own type when known (with the gaps inference
 * can fill filled: add_type), else its inferred type, else the element type
 * followed back through its producers and a rank (so onnx.checker finds a
 * type). A type whose bytes cannot be read counts as none: copied, it would
 * make the whole output unreadable. */
static void add_value_info(ctx *x, plan *pl, uint32_t field, uint32_t v)
{
    const nnav_model *m = x->m;
    const nnav_value *val = &m->values.v[v];
    nnav_type t0;
    if (val->vinfo != NNAV_NONE && m->vinfos.v[val->vinfo].type.p &&
        nnav_type_decode(m, m->vinfos.v[val->vinfo].type, &t0) >= 0) {
        uint32_t from = pl->c.n;
        add_bytes_field(pl, NNAV_ONNX_VALUEINFOPROTO_NAME, val->name.p, val->name.n);
        add_type(x, pl, m->vinfos.v[val->vinfo].type, v);
        wrap(pl, from, field);
        return;
    }
    char *name = malloc(val->name.n + 1);
    if (!name) {
        pl->failed = 1;
        return;
    }
    if (val->name.n) /* an unnamed value has no bytes to copy (p is NULL) */
        memcpy(name, val->name.p, val->name.n);
    name[val->name.n] = 0;
    Onnx__ValueInfoProto vi = ONNX__VALUE_INFO_PROTO__INIT;
    Onnx__TypeProto tp = ONNX__TYPE_PROTO__INIT;
    Onnx__TypeProto__Tensor tt = ONNX__TYPE_PROTO__TENSOR__INIT;
    Onnx__TensorShapeProto shape = ONNX__TENSOR_SHAPE_PROTO__INIT;
    Onnx__TensorShapeProto__Dimension dims[64], *dp[64];
    char params[64][96];
    Onnx__TypeProto seq_tp = ONNX__TYPE_PROTO__INIT;
    Onnx__TypeProto__Sequence seq = ONNX__TYPE_PROTO__SEQUENCE__INIT;
    const nnav_fact *f;
    vi.name = name;
    int32_t et = 0;
    int is_seq = 0;
    if (val->kind == NNAV_VAL_INITIALIZER) {
        const nnav_tensor *t = &m->tensors.v[val->producer];
        et = t->dtype;
        uint32_t nd = t->ndims < 64 ? t->ndims : 0;
        for (uint32_t i = 0; i < nd; i++) {
            Onnx__TensorShapeProto__Dimension d0 = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__INIT;
            dims[i] = d0;
            dims[i].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
            dims[i].dim_value = m->dims.v[t->dims_first + i];
            dp[i] = &dims[i];
        }
        shape.n_dim = nd;
        shape.dim = dp;
        tt.shape = &shape;
    } else if ((f = inferred_fact(x, v)) != NULL) {
        /* Inferred: sizes as numbers, symbolic sizes as dim_param; for a
         * sequence, those of its elements. */
        et = f->dtype;
        is_seq = f->not_tensor != 0;
        const nnav_dim *d = nnav_shapes_dims(x->shapes, f->dims);
        int32_t rank = f->rank <= 64 ? f->rank : -1;
        for (int32_t i = 0; i < rank; i++) {
            Onnx__TensorShapeProto__Dimension d0 = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__INIT;
            dims[i] = d0;
            if (nnav_dim_is_num(d[i]) && nnav_dim_val(d[i]) >= 0) {
                dims[i].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
                dims[i].dim_value = nnav_dim_val(d[i]);
            } else if (nnav_dim_is_sym(d[i])) {
                nnav_dim_format(x->shapes, d[i], params[i], sizeof params[i]);
                dims[i].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
                dims[i].dim_param = params[i];
            }
            dp[i] = &dims[i];
        }
        if (rank >= 0) {
            shape.n_dim = (size_t)rank;
            shape.dim = dp;
            tt.shape = &shape;
        }
    }
    if (et) {
        tt.has_elem_type = 1;
        tt.elem_type = et;
        tp.value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
        tp.tensor_type = &tt;
        vi.type = &tp;
        if (is_seq) {
            seq.elem_type = &tp;
            seq_tp.value_case = ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE;
            seq_tp.sequence_type = &seq;
            vi.type = &seq_tp;
        }
    }
    add_packed(pl, field, &vi.base);
    free(name);
}

static int plan_graph(ctx *x, plan *pl, const nnav_selection *sel)
{
    const nnav_model *m = x->m;
    const nnav_graph *g = &m->graphs.v[sel->graph];
    for (size_t i = 0; i < sel->n_nodes; i++) {
        const nnav_node *nd = &m->nodes.v[sel->nodes[i]];
        if (nd->attr_count == 0) { /* no attribute, no tensor: as it is, unwalked */
            add_bytes_field(pl, NNAV_ONNX_GRAPHPROTO_NODE, nd->msg.p, nd->msg.n);
            continue;
        }
        if (add_msg(x, pl, NNAV_ONNX_GRAPHPROTO_NODE, K_NODE, nd->msg, NNAV_NONE) < 0)
            return nnav_err_prepend(x->err, "graph.node[%u]", sel->nodes[i] - g->node_first);
    }
    if (g->name.n)
        add_bytes_field(pl, NNAV_ONNX_GRAPHPROTO_NAME, g->name.p, g->name.n);
    else
        add_bytes_field(pl, NNAV_ONNX_GRAPHPROTO_NAME, (const uint8_t *)"extracted", 9);
    for (size_t i = 0; i < sel->n_inits; i++) {
        uint32_t t = sel->inits[i];
        if (add_msg(x, pl, NNAV_ONNX_GRAPHPROTO_INITIALIZER, K_TENSOR, m->tensors.v[t].msg, t) < 0)
            return t - g->init_first < g->init_count
                       ? nnav_err_prepend(x->err, "graph.initializer[%u]", t - g->init_first)
                       : -1;
    }
    for (size_t i = 0; i < sel->n_sparse; i++) {
        const nnav_sparse *sp = &m->sparse.v[sel->sparse[i]];
        uint32_t from = pl->c.n;
        if ((sp->values != NNAV_NONE &&
             add_msg(x, pl, NNAV_ONNX_SPARSETENSORPROTO_VALUES, K_TENSOR,
                     m->tensors.v[sp->values].msg, sp->values) < 0) ||
            (sp->indices != NNAV_NONE &&
             add_msg(x, pl, NNAV_ONNX_SPARSETENSORPROTO_INDICES, K_TENSOR,
                     m->tensors.v[sp->indices].msg, sp->indices) < 0))
            return sel->sparse[i] - g->sparse_first < g->sparse_count
                       ? nnav_err_prepend(x->err, "graph.sparse_initializer[%u]",
                                          sel->sparse[i] - g->sparse_first)
                       : -1;
        for (uint32_t d = 0; d < sp->ndims; d++)
            add_varint_field(pl, NNAV_ONNX_SPARSETENSORPROTO_DIMS,
                             (uint64_t)m->dims.v[sp->dims_first + d]);
        wrap(pl, from, NNAV_ONNX_GRAPHPROTO_SPARSE_INITIALIZER);
    }
    for (size_t i = 0; i < sel->n_inputs; i++)
        add_value_info(x, pl, NNAV_ONNX_GRAPHPROTO_INPUT, sel->inputs[i]);
    /* Before IR 4 every initializer must also be a graph input. */
    if (m->facts.ir_version >= 0 && m->facts.ir_version < 4) {
        uint8_t *listed = calloc((size_t)m->values.n + 1, 1);
        if (!listed)
            return pl->failed = 1, -1;
        for (size_t i = 0; i < sel->n_inputs; i++)
            listed[sel->inputs[i]] = 1;
        for (size_t i = 0; i < sel->n_inits; i++) {
            const nnav_tensor *t = &m->tensors.v[sel->inits[i]];
            uint32_t v = nnav_value_lookup(m, t->graph, (const char *)t->name.p, t->name.n);
            if (v != NNAV_NONE && !listed[v]) {
                listed[v] = 1;
                add_value_info(x, pl, NNAV_ONNX_GRAPHPROTO_INPUT, v);
            }
        }
        free(listed);
    }
    for (size_t i = 0; i < sel->n_outputs; i++)
        add_value_info(x, pl, NNAV_ONNX_GRAPHPROTO_OUTPUT, sel->outputs[i]);
    /* value_info: the graph's own entries for values the piece touches. */
    uint8_t *touched = calloc((size_t)m->values.n + 1, 1);
    if (!touched)
        return pl->failed = 1, -1;
    for (size_t i = 0; i < sel->n_nodes; i++) {
        const nnav_node *nd = &m->nodes.v[sel->nodes[i]];
        for (uint32_t k = 0; k < nd->in_count; k++)
            if (m->refs.v[nd->in_first + k].value != NNAV_NONE)
                touched[m->refs.v[nd->in_first + k].value] = 1;
        for (uint32_t k = 0; k < nd->out_count; k++)
            if (m->refs.v[nd->out_first + k].value != NNAV_NONE)
                touched[m->refs.v[nd->out_first + k].value] = 1;
    }
    for (size_t i = 0; i < sel->n_inputs; i++)
        touched[sel->inputs[i]] = 0;
    for (size_t i = 0; i < sel->n_outputs; i++)
        touched[sel->outputs[i]] = 0;
    for (uint32_t i = 0; i < g->vi_count; i++) {
        const nnav_vinfo *vi = &m->vinfos.v[g->vi_first + i];
        if (vi->value == NNAV_NONE || !touched[vi->value])
            continue;
        touched[vi->value] = 0;
        uint32_t from = pl->c.n;
        add_bytes_field(pl, NNAV_ONNX_VALUEINFOPROTO_NAME, vi->name.p, vi->name.n);
        if (vi->type.p)
            add_bytes_field(pl, NNAV_ONNX_VALUEINFOPROTO_TYPE, vi->type.p, vi->type.n);
        wrap(pl, from, NNAV_ONNX_GRAPHPROTO_VALUE_INFO);
    }
    free(touched);
    return pl->failed ? -1 : 0;
}

/* A whole main graph keeps the model's training_info: each TrainingInfoProto
 * (initialization and algorithm graphs, bindings that name the main graph's
 * initializers) as it is, unless a tensor in it keeps its data in a file
 * (add_msg). Read again from the ModelProto's top level, a few fields: the
 * index keeps the training graphs, not the messages around them. */
static int add_training(ctx *x, plan *pl)
{
    const nnav_model *m = x->m;
    nnav_wire r;
    nnav_field f;
    uint32_t i = 0;
    int k;
    if (m->training_count == 0)
        return 0;
    nnav_wire_init(&r, m->map.base, (nnav_span){m->map.base, m->map.size});
    while ((k = nnav_wire_next(&r, &f, x->err)) == 1) {
        if (f.num != NNAV_ONNX_MODELPROTO_TRAINING_INFO || f.wt != NNAV_WT_LEN)
            continue;
        if (add_msg(x, pl, NNAV_ONNX_MODELPROTO_TRAINING_INFO, K_TRAINING, f.s, NNAV_NONE) < 0)
            return nnav_err_prepend(x->err, "training_info[%u]", i);
        i++;
    }
    return k < 0 ? -1 : 0;
}

int nnav_export_onnx(const nnav_model *m, const nnav_selection *sel, const nnav_export_opts *o,
                     FILE *out, FILE *data, const char *data_name, nnav_error *err)
{
    if (!(m->facts.traits & NNAV_TRAIT_ONNX_MESSAGES)) {
        nnav_err_set(err, 0, 0, "ONNX output is only written from ONNX models");
        err->kind = NNAV_ERR_USAGE;
        return -1;
    }
    ctx x = {.m = m, .o = o, .data = data, .data_name = data_name, .err = err,
             .graph = sel->graph, .shapes = o->shapes, .shapes_tried = o->shapes != NULL};
    plan pl = {0};
    uint32_t *fns = NULL;
    size_t nf = 0;
    int rc = -1;
    if (nnav_export_functions(m, sel, &fns, &nf) < 0)
        goto oom;
    const nnav_model_facts *fa = &m->facts;
    if (fa->ir_version >= 0)
        add_varint_field(&pl, NNAV_ONNX_MODELPROTO_IR_VERSION, (uint64_t)fa->ir_version);
    if (fa->producer_name.n)
        add_bytes_field(&pl, NNAV_ONNX_MODELPROTO_PRODUCER_NAME, fa->producer_name.p,
                        fa->producer_name.n);
    if (fa->producer_version.n)
        add_bytes_field(&pl, NNAV_ONNX_MODELPROTO_PRODUCER_VERSION, fa->producer_version.p,
                        fa->producer_version.n);
    if (fa->domain.n)
        add_bytes_field(&pl, NNAV_ONNX_MODELPROTO_DOMAIN, fa->domain.p, fa->domain.n);
    if (fa->model_version >= 0)
        add_varint_field(&pl, NNAV_ONNX_MODELPROTO_MODEL_VERSION, (uint64_t)fa->model_version);
    /* The main graph whole is the model itself: its own doc_string, if any. */
    int whole_main = sel->whole && sel->graph == 0;
    static const char doc[] = "Extracted by nnav";
    if (!whole_main)
        add_bytes_field(&pl, NNAV_ONNX_MODELPROTO_DOC_STRING, (const uint8_t *)doc, sizeof doc - 1);
    else if (fa->doc_string.p)
        add_bytes_field(&pl, NNAV_ONNX_MODELPROTO_DOC_STRING, fa->doc_string.p, fa->doc_string.n);
    uint32_t from = pl.c.n;
    if (plan_graph(&x, &pl, sel) < 0)
        goto fail;
    wrap(&pl, from, NNAV_ONNX_MODELPROTO_GRAPH);
    for (uint32_t i = 0; i < m->model_opset_count; i++) {
        const nnav_opset *op = &m->opsets.v[i];
        char *dom = malloc(op->domain.n + 1);
        if (!dom)
            goto oom;
        memcpy(dom, op->domain.p ? (const char *)op->domain.p : "", op->domain.n);
        dom[op->domain.n] = 0;
        Onnx__OperatorSetIdProto os = ONNX__OPERATOR_SET_ID_PROTO__INIT;
        os.domain = dom;
        os.has_version = op->version >= 0;
        os.version = op->version;
        add_packed(&pl, NNAV_ONNX_MODELPROTO_OPSET_IMPORT, &os.base);
        free(dom);
    }
    for (uint32_t i = 0; i < m->metadata.n; i++) {
        const nnav_kv *kv = &m->metadata.v[i];
        uint32_t f0 = pl.c.n;
        add_bytes_field(&pl, NNAV_ONNX_STRINGSTRINGENTRYPROTO_KEY, kv->key.p, kv->key.n);
        add_bytes_field(&pl, NNAV_ONNX_STRINGSTRINGENTRYPROTO_VALUE, kv->value.p, kv->value.n);
        wrap(&pl, f0, NNAV_ONNX_MODELPROTO_METADATA_PROPS);
    }
    if (whole_main && add_training(&x, &pl) < 0)
        goto fail;
    for (size_t i = 0; i < nf; i++) {
        const nnav_function *fn = &m->functions.v[fns[i]];
        if (add_msg(&x, &pl, NNAV_ONNX_MODELPROTO_FUNCTIONS, K_FUNCTION, fn->msg, NNAV_NONE) < 0) {
            nnav_err_prepend(err, "functions[%u]", fns[i]);
            goto fail;
        }
    }
    if (pl.failed)
        goto oom;
    for (uint32_t i = 0; i < pl.c.n; i++) {
        if (pl.c.v[i].n && fwrite(pl.c.v[i].p, 1, (size_t)pl.c.v[i].n, out) != pl.c.v[i].n) {
            nnav_err_set(err, 0, 0, "a write failed");
            goto fail;
        }
    }
    /* Bytes read from a data file that shrank meanwhile are zeros, not its. */
    for (uint32_t i = 0; i < pl.cookies.n; i++)
        if (nnav_ext_shrank(pl.cookies.v[i], err))
            goto fail;
    rc = 0;
    goto fail;
oom:
    nnav_err_set(err, 0, 0, "out of memory while planning the ONNX output");
fail:
    if (rc < 0 && !err->msg[0])
        nnav_err_set(err, 0, 0, "out of memory while planning the ONNX output");
    nnav_vec_free(x.ext);
    free(fns);
    nnav_shapes_free(x.own_shapes);
    plan_free(&pl);
    return rc;
}
