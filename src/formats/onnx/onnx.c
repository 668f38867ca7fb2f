/* onnx.c - ONNX ModelProto -> index, walking the map with the wire reader.
 *
 * Structure only: payloads (raw_data, typed data, external data) are located by
 * their spans and never read here. Graph bodies are walked breadth first with
 * the graph array as the queue, so nesting costs no stack and every graph's
 * nodes are contiguous. Errors name the byte offset; the field path is built
 * bottom-up as the error returns through each level (nnav_err_prepend). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "onnx.pb-c.h"
#include "onnx_fields.h"
#include "onnx_reader.h"
#include "readers.h"
#include "typeproto.h"
#include "walk.h"
#include "wire.h"

/* Short names for the field numbers generated from proto/onnx.proto
 * (onnx_fields.h, which tests check against protoc-c's descriptors). */
enum {
    MODEL_IR = NNAV_ONNX_MODELPROTO_IR_VERSION,
    MODEL_PRODUCER = NNAV_ONNX_MODELPROTO_PRODUCER_NAME,
    MODEL_PRODUCER_VERSION = NNAV_ONNX_MODELPROTO_PRODUCER_VERSION,
    MODEL_DOMAIN = NNAV_ONNX_MODELPROTO_DOMAIN,
    MODEL_VERSION = NNAV_ONNX_MODELPROTO_MODEL_VERSION,
    MODEL_DOC = NNAV_ONNX_MODELPROTO_DOC_STRING,
    MODEL_GRAPH = NNAV_ONNX_MODELPROTO_GRAPH,
    MODEL_OPSET = NNAV_ONNX_MODELPROTO_OPSET_IMPORT,
    MODEL_METADATA = NNAV_ONNX_MODELPROTO_METADATA_PROPS,
    MODEL_TRAINING = NNAV_ONNX_MODELPROTO_TRAINING_INFO,
    MODEL_FUNCTIONS = NNAV_ONNX_MODELPROTO_FUNCTIONS,
    MODEL_CONFIGURATION = NNAV_ONNX_MODELPROTO_CONFIGURATION,
};
enum {
    GRAPH_NODE = NNAV_ONNX_GRAPHPROTO_NODE,
    GRAPH_NAME = NNAV_ONNX_GRAPHPROTO_NAME,
    GRAPH_INIT = NNAV_ONNX_GRAPHPROTO_INITIALIZER,
    GRAPH_DOC = NNAV_ONNX_GRAPHPROTO_DOC_STRING,
    GRAPH_INPUT = NNAV_ONNX_GRAPHPROTO_INPUT,
    GRAPH_OUTPUT = NNAV_ONNX_GRAPHPROTO_OUTPUT,
    GRAPH_VALUE_INFO = NNAV_ONNX_GRAPHPROTO_VALUE_INFO,
    GRAPH_QUANT = NNAV_ONNX_GRAPHPROTO_QUANTIZATION_ANNOTATION,
    GRAPH_SPARSE = NNAV_ONNX_GRAPHPROTO_SPARSE_INITIALIZER,
    GRAPH_METADATA = NNAV_ONNX_GRAPHPROTO_METADATA_PROPS,
};
enum {
    FN_NAME = NNAV_ONNX_FUNCTIONPROTO_NAME,
    FN_INPUT = NNAV_ONNX_FUNCTIONPROTO_INPUT,
    FN_OUTPUT = NNAV_ONNX_FUNCTIONPROTO_OUTPUT,
    FN_ATTRIBUTE = NNAV_ONNX_FUNCTIONPROTO_ATTRIBUTE,
    FN_NODE = NNAV_ONNX_FUNCTIONPROTO_NODE,
    FN_DOC = NNAV_ONNX_FUNCTIONPROTO_DOC_STRING,
    FN_OPSET = NNAV_ONNX_FUNCTIONPROTO_OPSET_IMPORT,
    FN_DOMAIN = NNAV_ONNX_FUNCTIONPROTO_DOMAIN,
    FN_ATTRIBUTE_PROTO = NNAV_ONNX_FUNCTIONPROTO_ATTRIBUTE_PROTO,
    FN_VALUE_INFO = NNAV_ONNX_FUNCTIONPROTO_VALUE_INFO,
    FN_OVERLOAD = NNAV_ONNX_FUNCTIONPROTO_OVERLOAD,
    FN_METADATA = NNAV_ONNX_FUNCTIONPROTO_METADATA_PROPS,
};
enum {
    NODE_INPUT = NNAV_ONNX_NODEPROTO_INPUT,
    NODE_OUTPUT = NNAV_ONNX_NODEPROTO_OUTPUT,
    NODE_NAME = NNAV_ONNX_NODEPROTO_NAME,
    NODE_OP = NNAV_ONNX_NODEPROTO_OP_TYPE,
    NODE_ATTR = NNAV_ONNX_NODEPROTO_ATTRIBUTE,
    NODE_DOC = NNAV_ONNX_NODEPROTO_DOC_STRING,
    NODE_DOMAIN = NNAV_ONNX_NODEPROTO_DOMAIN,
    NODE_OVERLOAD = NNAV_ONNX_NODEPROTO_OVERLOAD,
    NODE_METADATA = NNAV_ONNX_NODEPROTO_METADATA_PROPS,
    NODE_DEVICE_CONF = NNAV_ONNX_NODEPROTO_DEVICE_CONFIGURATIONS,
};
enum {
    ATTR_NAME = NNAV_ONNX_ATTRIBUTEPROTO_NAME,
    ATTR_F = NNAV_ONNX_ATTRIBUTEPROTO_F,
    ATTR_I = NNAV_ONNX_ATTRIBUTEPROTO_I,
    ATTR_S = NNAV_ONNX_ATTRIBUTEPROTO_S,
    ATTR_T = NNAV_ONNX_ATTRIBUTEPROTO_T,
    ATTR_G = NNAV_ONNX_ATTRIBUTEPROTO_G,
    ATTR_FLOATS = NNAV_ONNX_ATTRIBUTEPROTO_FLOATS,
    ATTR_INTS = NNAV_ONNX_ATTRIBUTEPROTO_INTS,
    ATTR_STRINGS = NNAV_ONNX_ATTRIBUTEPROTO_STRINGS,
    ATTR_TENSORS = NNAV_ONNX_ATTRIBUTEPROTO_TENSORS,
    ATTR_GRAPHS = NNAV_ONNX_ATTRIBUTEPROTO_GRAPHS,
    ATTR_DOC = NNAV_ONNX_ATTRIBUTEPROTO_DOC_STRING,
    ATTR_TP = NNAV_ONNX_ATTRIBUTEPROTO_TP,
    ATTR_TYPE_PROTOS = NNAV_ONNX_ATTRIBUTEPROTO_TYPE_PROTOS,
    ATTR_TYPE = NNAV_ONNX_ATTRIBUTEPROTO_TYPE,
    ATTR_REF = NNAV_ONNX_ATTRIBUTEPROTO_REF_ATTR_NAME,
    ATTR_SPARSE = NNAV_ONNX_ATTRIBUTEPROTO_SPARSE_TENSOR,
    ATTR_SPARSES = NNAV_ONNX_ATTRIBUTEPROTO_SPARSE_TENSORS,
};
enum {
    T_DIMS = NNAV_ONNX_TENSORPROTO_DIMS,
    T_DTYPE = NNAV_ONNX_TENSORPROTO_DATA_TYPE,
    T_SEGMENT = NNAV_ONNX_TENSORPROTO_SEGMENT,
    T_FLOAT = NNAV_ONNX_TENSORPROTO_FLOAT_DATA,
    T_INT32 = NNAV_ONNX_TENSORPROTO_INT32_DATA,
    T_STRING = NNAV_ONNX_TENSORPROTO_STRING_DATA,
    T_INT64 = NNAV_ONNX_TENSORPROTO_INT64_DATA,
    T_NAME = NNAV_ONNX_TENSORPROTO_NAME,
    T_RAW = NNAV_ONNX_TENSORPROTO_RAW_DATA,
    T_DOUBLE = NNAV_ONNX_TENSORPROTO_DOUBLE_DATA,
    T_UINT64 = NNAV_ONNX_TENSORPROTO_UINT64_DATA,
    T_DOC = NNAV_ONNX_TENSORPROTO_DOC_STRING,
    T_EXTERNAL = NNAV_ONNX_TENSORPROTO_EXTERNAL_DATA,
    T_LOCATION = NNAV_ONNX_TENSORPROTO_DATA_LOCATION,
    T_METADATA = NNAV_ONNX_TENSORPROTO_METADATA_PROPS,
};
enum {
    VI_NAME = NNAV_ONNX_VALUEINFOPROTO_NAME,
    VI_TYPE = NNAV_ONNX_VALUEINFOPROTO_TYPE,
    VI_DOC = NNAV_ONNX_VALUEINFOPROTO_DOC_STRING,
    VI_METADATA = NNAV_ONNX_VALUEINFOPROTO_METADATA_PROPS,
};
enum {
    SP_VALUES = NNAV_ONNX_SPARSETENSORPROTO_VALUES,
    SP_INDICES = NNAV_ONNX_SPARSETENSORPROTO_INDICES,
    SP_DIMS = NNAV_ONNX_SPARSETENSORPROTO_DIMS,
};
enum {
    TI_INIT = NNAV_ONNX_TRAININGINFOPROTO_INITIALIZATION,
    TI_ALGO = NNAV_ONNX_TRAININGINFOPROTO_ALGORITHM,
    TI_INIT_BIND = NNAV_ONNX_TRAININGINFOPROTO_INITIALIZATION_BINDING,
    TI_UPDATE_BIND = NNAV_ONNX_TRAININGINFOPROTO_UPDATE_BINDING,
};

#define err_prepend nnav_err_prepend

static int oom(nnav_error *err) { return nnav_err_oom(err); }

typedef struct walker {
    nnav_model *m;
    const uint8_t *base;
    nnav_error *err;
    const nnav_open_opts *opts;
    uint32_t max_depth;
    uint64_t since_progress;
} walker;

static int expect_wt(walker *w, const nnav_field *f, uint8_t wt, const char *name)
{
    return nnav_walk_expect(w->err, f, wt, name);
}

/* expect_wt for a field the schema names: message and path say which field
 * ("op_type"), where a shared branch would only say "string". */
static int expect_field(walker *w, const nnav_field *f, uint8_t wt,
                        const ProtobufCMessageDescriptor *d)
{
    if (f->wt == wt)
        return 0;
    const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field(d, f->num);
    const char *name = fd ? fd->name : "?";
    expect_wt(w, f, wt, name);
    return err_prepend(w->err, "%s", name);
}

static int keep_unknown(walker *w, const nnav_field *f, const char *where, uint32_t owner)
{
    return nnav_walk_unknown(w->m, w->err, f, where, owner);
}

static void winit(walker *w, nnav_wire *r, nnav_span s) { nnav_walk_init(w->m, r, s); }

/* A wire error inside a message: name the field it was reading. */
static int wire_fail(walker *w, const nnav_wire *r, const ProtobufCMessageDescriptor *d)
{
    return nnav_walk_fail(w->err, r, d);
}

static int walk_kv(walker *w, nnav_span s, nnav_kv *kv)
{
    nnav_wire r;
    nnav_field f;
    int k;
    memset(kv, 0, sizeof *kv);
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        if (f.num == NNAV_ONNX_STRINGSTRINGENTRYPROTO_KEY ||
            f.num == NNAV_ONNX_STRINGSTRINGENTRYPROTO_VALUE) {
            if (expect_field(w, &f, NNAV_WT_LEN, &onnx__string_string_entry_proto__descriptor))
                return -1;
            if (f.num == NNAV_ONNX_STRINGSTRINGENTRYPROTO_KEY)
                kv->key = f.s;
            else
                kv->value = f.s;
        }
    }
    return k < 0 ? wire_fail(w, &r, &onnx__string_string_entry_proto__descriptor) : k;
}

static int walk_opset(walker *w, nnav_span s, nnav_opset *o)
{
    nnav_wire r;
    nnav_field f;
    int k;
    memset(o, 0, sizeof *o);
    o->version = -1;
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        if (f.num == NNAV_ONNX_OPERATORSETIDPROTO_DOMAIN) {
            if (expect_wt(w, &f, NNAV_WT_LEN, "domain"))
                return err_prepend(w->err, "domain");
            o->domain = f.s;
        } else if (f.num == NNAV_ONNX_OPERATORSETIDPROTO_VERSION) {
            if (expect_wt(w, &f, NNAV_WT_VARINT, "version"))
                return err_prepend(w->err, "version");
            o->version = (int64_t)f.v;
        }
    }
    return k < 0 ? wire_fail(w, &r, &onnx__operator_set_id_proto__descriptor) : k;
}

/* ---- tensors ---- */

static int push_dim(void *ctx, uint64_t v)
{
    nnav_model *m = ctx;
    int64_t *d = nnav_vec_push(m->dims);
    if (!d)
        return -1;
    *d = (int64_t)v;
    return 0;
}

/* A decimal number from external_data: digits only, no sign, no overflow. */
static int parse_decimal(nnav_span s, int64_t *out)
{
    if (s.n == 0 || s.n > 19)
        return -1;
    int64_t v = 0;
    for (uint64_t i = 0; i < s.n; i++) {
        if (s.p[i] < '0' || s.p[i] > '9')
            return -1;
        if (v > (INT64_MAX - (s.p[i] - '0')) / 10)
            return -1;
        v = v * 10 + (s.p[i] - '0');
    }
    *out = v;
    return 0;
}

/* Structural checks of an external location; the file system is consulted
 * only when values are asked for (extdata.c). */
static int location_unsafe(nnav_span s)
{
    if (s.n == 0 || s.p[0] == '/' || memchr(s.p, 0, s.n))
        return 1;
    for (uint64_t i = 0; i < s.n;) {
        uint64_t j = i;
        while (j < s.n && s.p[j] != '/' && s.p[j] != '\\')
            j++;
        if (j - i == 2 && s.p[i] == '.' && s.p[i + 1] == '.')
            return 1;
        i = j + 1;
    }
    return 0;
}

static int walk_tensor(walker *w, uint32_t graph, nnav_span s, uint8_t owner, uint32_t owner_id,
                       uint32_t *out_id)
{
    nnav_model *m = w->m;
    nnav_tensor t;
    memset(&t, 0, sizeof t);
    t.graph = graph;
    t.owner = owner;
    t.owner_id = owner_id;
    t.msg = s;
    t.ext_offset = t.ext_length = -1;
    t.dims_first = m->dims.n;
    t.dtype = 0;
    int has_raw = 0, external = 0, typed_fields = 0, seen_ext_keys = 0;
    uint64_t typed_count = 0, typed_bytes = 0, string_bytes = 0;
    uint64_t tid = m->tensors.n;
    nnav_wire r;
    nnav_field f;
    int k;
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        switch (f.num) {
        case T_DIMS:
            if (nnav_wire_scalars(&f, NNAV_WT_VARINT, push_dim, m, w->err, w->base) != 0) {
                if (!w->err->msg[0])
                    return oom(w->err);
                return err_prepend(w->err, "dims");
            }
            break;
        case T_DTYPE:
            if (expect_wt(w, &f, NNAV_WT_VARINT, "data_type"))
                return err_prepend(w->err, "data_type");
            t.dtype = f.v > INT32_MAX ? -1 : (int32_t)f.v;
            break;
        case T_NAME:
            if (expect_wt(w, &f, NNAV_WT_LEN, "name"))
                return err_prepend(w->err, "name");
            t.name = f.s;
            break;
        case T_RAW:
            if (expect_wt(w, &f, NNAV_WT_LEN, "raw_data"))
                return err_prepend(w->err, "raw_data");
            has_raw = 1;
            t.data = f.s;
            break;
        case T_FLOAT: case T_DOUBLE: case T_INT32: case T_INT64: case T_UINT64: case T_STRING: {
            static const char *nm[] = {[T_FLOAT] = "float_data", [T_DOUBLE] = "double_data",
                                       [T_INT32] = "int32_data", [T_INT64] = "int64_data",
                                       [T_UINT64] = "uint64_data", [T_STRING] = "string_data"};
            uint8_t ewt = f.num == T_FLOAT ? NNAV_WT_I32
                          : f.num == T_DOUBLE ? NNAV_WT_I64
                          : f.num == T_STRING ? NNAV_WT_LEN : NNAV_WT_VARINT;
            unsigned esz = f.num == T_FLOAT ? 4 : f.num == T_DOUBLE ? 8 : 0;
            if (f.wt == NNAV_WT_LEN && ewt != NNAV_WT_LEN) {
                if (esz && f.s.n % esz) {
                    nnav_err_set(w->err, (uint64_t)(f.s.p - w->base), 1,
                                 "packed field holds %llu bytes, not a multiple of its %u-byte "
                                 "element",
                                 (unsigned long long)f.s.n, esz);
                    return err_prepend(w->err, "%s", nm[f.num]);
                }
                /* Fixed-width counts come from the length; varint counts would
                 * need the payload read, so they wait for values on demand. */
                if (esz)
                    typed_count += f.s.n / esz;
            } else if (f.wt != ewt) {
                expect_wt(w, &f, ewt, nm[f.num]);
                return err_prepend(w->err, "%s", nm[f.num]);
            } else {
                typed_count++;
                if (f.num == T_STRING)
                    string_bytes += f.s.n;
            }
            if (t.typed_field && t.typed_field != f.num)
                typed_fields |= 2;
            if (!t.typed_field) {
                t.typed_field = (uint8_t)f.num;
                if (!has_raw)
                    t.data = f.s;
            }
            typed_fields |= 1;
            typed_bytes += f.s.n;
            break;
        }
        case T_EXTERNAL: {
            nnav_kv kv;
            if (expect_wt(w, &f, NNAV_WT_LEN, "external_data") || walk_kv(w, f.s, &kv) < 0)
                return err_prepend(w->err, "external_data");
            int bit = nnav_span_eqs(kv.key, "location") ? 1
                      : nnav_span_eqs(kv.key, "offset") ? 2
                      : nnav_span_eqs(kv.key, "length") ? 4
                      : nnav_span_eqs(kv.key, "checksum") ? 8 : 16;
            if ((seen_ext_keys & bit) && bit != 16)
                t.warn |= NNAV_TW_BAD_EXTERNAL; /* duplicate key */
            seen_ext_keys |= bit;
            if (bit == 1) {
                t.ext_location = kv.value;
                if (location_unsafe(kv.value))
                    t.warn |= NNAV_TW_BAD_EXTERNAL;
            } else if (bit == 2 || bit == 4) {
                int64_t v;
                if (parse_decimal(kv.value, &v) != 0)
                    t.warn |= NNAV_TW_BAD_EXTERNAL;
                else if (bit == 2)
                    t.ext_offset = v;
                else
                    t.ext_length = v;
            } else if (bit == 16) {
                /* basepath and friends are loader state, never file content. */
                t.warn |= NNAV_TW_BAD_EXTERNAL;
            }
            break;
        }
        case T_LOCATION:
            if (expect_wt(w, &f, NNAV_WT_VARINT, "data_location"))
                return err_prepend(w->err, "data_location");
            external = f.v == 1;
            break;
        case T_SEGMENT: case T_DOC: case T_METADATA:
            if (expect_field(w, &f, NNAV_WT_LEN, &onnx__tensor_proto__descriptor))
                return -1;
            break;
        default:
            if (keep_unknown(w, &f, "TensorProto", (uint32_t)tid))
                return -1;
        }
    }
    if (k < 0)
        return wire_fail(w, &r, &onnx__tensor_proto__descriptor);
    t.ndims = m->dims.n - t.dims_first;
    nnav_tensor_sizes(m, &t, string_bytes);
    uint64_t ne = t.nelems;
    if (external) {
        t.storage = NNAV_STORE_EXTERNAL;
        if (!(seen_ext_keys & 1))
            t.warn |= NNAV_TW_BAD_EXTERNAL;
        t.stored = t.ext_length >= 0 ? (uint64_t)t.ext_length : UINT64_MAX;
    } else if (has_raw) {
        t.storage = NNAV_STORE_RAW;
        t.stored = t.data.n;
        if (typed_fields)
            t.warn |= NNAV_TW_MANY_FIELDS;
    } else if (typed_fields) {
        t.storage = NNAV_STORE_TYPED;
        t.stored = typed_bytes;
        if (typed_fields & 2)
            t.warn |= NNAV_TW_MANY_FIELDS;
    } else {
        t.storage = NNAV_STORE_NONE;
        t.stored = 0;
    }
    /* Compare what dims x dtype call for with what is stored, where that is
     * known without reading the payload. */
    if (t.nbytes != UINT64_MAX && t.dtype != NNAV_DT_STRING) {
        if ((t.storage == NNAV_STORE_RAW || (t.storage == NNAV_STORE_EXTERNAL && t.ext_length >= 0)) &&
            t.stored != t.nbytes)
            t.warn |= NNAV_TW_SIZE_MISMATCH;
        if (t.storage == NNAV_STORE_TYPED &&
            (t.typed_field == T_FLOAT || t.typed_field == T_DOUBLE)) {
            uint64_t want = ne * nnav_dtype_components(t.dtype);
            if (typed_count != want)
                t.warn |= NNAV_TW_SIZE_MISMATCH;
        }
        if (t.storage == NNAV_STORE_NONE && ne != 0)
            t.warn |= NNAV_TW_SIZE_MISMATCH;
    }
    if (t.dtype == NNAV_DT_STRING && t.storage == NNAV_STORE_TYPED && typed_count != ne)
        t.warn |= NNAV_TW_SIZE_MISMATCH;
    /* An int64 tensor's numbers in double_data (a NaN among them), floats in
     * int64_data...: no reader takes them as the tensor's values. */
    if (t.storage == NNAV_STORE_TYPED && nnav_dtype_valid(t.dtype) &&
        t.typed_field != nnav_dtype_typed_field(t.dtype))
        t.warn |= NNAV_TW_WRONG_FIELD;
    nnav_tensor *slot = nnav_vec_push(m->tensors);
    if (!slot)
        return oom(w->err);
    *slot = t;
    if (out_id)
        *out_id = (uint32_t)tid;
    return 0;
}

static int walk_sparse(walker *w, uint32_t graph, nnav_span s)
{
    nnav_model *m = w->m;
    uint32_t sid = m->sparse.n;
    nnav_sparse sp = {NNAV_NONE, NNAV_NONE, 0, 0, graph, 0};
    nnav_span vals = {0}, idx = {0};
    uint32_t dims_first = m->dims.n;
    nnav_wire r;
    nnav_field f;
    int k;
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        if (f.num == SP_VALUES || f.num == SP_INDICES) {
            if (expect_field(w, &f, NNAV_WT_LEN, &onnx__sparse_tensor_proto__descriptor))
                return -1;
            if (f.num == SP_VALUES)
                vals = f.s;
            else
                idx = f.s;
        } else if (f.num == SP_DIMS) {
            if (nnav_wire_scalars(&f, NNAV_WT_VARINT, push_dim, m, w->err, w->base) != 0)
                return w->err->msg[0] ? err_prepend(w->err, "dims") : oom(w->err);
        } else if (keep_unknown(w, &f, "SparseTensorProto", sid)) {
            return -1;
        }
    }
    if (k < 0)
        return wire_fail(w, &r, &onnx__sparse_tensor_proto__descriptor);
    /* Dims first and contiguous, then the two tensors (which push their own dims). */
    sp.dims_first = dims_first;
    sp.ndims = m->dims.n - dims_first;
    uint64_t ne = 1;
    for (uint32_t i = 0; i < sp.ndims; i++) {
        int64_t d = m->dims.v[dims_first + i];
        if (d < 0 || __builtin_mul_overflow(ne, (uint64_t)d, &ne)) {
            ne = UINT64_MAX;
            break;
        }
    }
    if (vals.p && walk_tensor(w, graph, vals, NNAV_TOWN_SPARSE_VALUES, sid, &sp.values) < 0)
        return err_prepend(w->err, "values");
    if (idx.p && walk_tensor(w, graph, idx, NNAV_TOWN_SPARSE_INDICES, sid, &sp.indices) < 0)
        return err_prepend(w->err, "indices");
    if (sp.values != NNAV_NONE) {
        const nnav_tensor *vt = &m->tensors.v[sp.values];
        uint64_t nb;
        sp.nbytes_dense =
            ne != UINT64_MAX && nnav_dtype_raw_bytes(vt->dtype, ne, &nb) == 0 ? nb : UINT64_MAX;
    }
    nnav_sparse *slot = nnav_vec_push(m->sparse);
    if (!slot)
        return oom(w->err);
    *slot = sp;
    return 0;
}

/* ---- value infos ---- */

static int add_vinfo(walker *w, uint32_t graph, nnav_span name, nnav_span type)
{
    nnav_vinfo *v = nnav_vec_push(w->m->vinfos);
    if (!v)
        return oom(w->err);
    v->name = name;
    v->type = type;
    v->graph = graph;
    v->value = NNAV_NONE;
    return 0;
}

static int walk_vinfo(walker *w, uint32_t graph, nnav_span s)
{
    nnav_span name = {0}, type = {0};
    nnav_wire r;
    nnav_field f;
    int k;
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        if (f.num == VI_NAME || f.num == VI_TYPE) {
            if (expect_field(w, &f, NNAV_WT_LEN, &onnx__value_info_proto__descriptor))
                return -1;
            if (f.num == VI_NAME)
                name = f.s;
            else
                type = f.s;
        } else if (f.num != VI_DOC && f.num != VI_METADATA) {
            if (keep_unknown(w, &f, "ValueInfoProto", w->m->vinfos.n))
                return -1;
        }
    }
    if (k < 0)
        return wire_fail(w, &r, &onnx__value_info_proto__descriptor);
    return add_vinfo(w, graph, name, type);
}

/* ---- graphs, nodes, attributes ---- */

static int new_graph(walker *w, uint8_t kind, uint32_t parent, nnav_span s, uint32_t *id)
{
    nnav_model *m = w->m;
    uint32_t depth = parent == NNAV_NONE ? 0 : m->graphs.v[parent].depth + 1;
    if (depth > w->max_depth) {
        nnav_err_set(w->err, (uint64_t)(s.p - w->base), 1,
                     "graphs nested deeper than %u levels", w->max_depth);
        return -1;
    }
    nnav_graph *g = nnav_vec_push(m->graphs);
    nnav_span *gs = g ? nnav_vec_push(m->gspan) : NULL;
    if (!g || !gs)
        return oom(w->err);
    g->kind = kind;
    g->parent = parent;
    g->owner_node = g->owner_attr = g->list_index = NNAV_NONE;
    g->function = g->training = NNAV_NONE;
    g->depth = depth;
    g->offset = s.p ? (uint64_t)(s.p - w->base) : 0;
    *gs = s;
    *id = m->graphs.n - 1;
    return 0;
}

static int walk_attr(walker *w, uint32_t graph, uint32_t node, nnav_span s)
{
    nnav_model *m = w->m;
    uint32_t aid = m->attrs.n;
    nnav_attr a;
    memset(&a, 0, sizeof a);
    a.node = node;
    a.msg = s;
    a.graph_first = a.tensor_first = NNAV_NONE;
    int type = -1, seen = 0;
    uint32_t ngraphs = 0;
    nnav_wire r;
    nnav_field f;
    int k;
    /* Push the attribute first so bodies and tensors can name it by id. */
    if (!nnav_vec_push(m->attrs))
        return oom(w->err);
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        switch (f.num) {
        case ATTR_NAME:
            if (expect_wt(w, &f, NNAV_WT_LEN, "name"))
                return err_prepend(w->err, "name");
            a.name = f.s;
            break;
        case ATTR_REF:
            if (expect_wt(w, &f, NNAV_WT_LEN, "ref_attr_name"))
                return err_prepend(w->err, "ref_attr_name");
            a.ref_attr_name = f.s;
            break;
        case ATTR_TYPE:
            if (expect_wt(w, &f, NNAV_WT_VARINT, "type"))
                return err_prepend(w->err, "type");
            type = f.v <= NNAV_ATTR_TYPE_PROTOS ? (int)f.v : 0;
            break;
        case ATTR_F:
            if (expect_wt(w, &f, NNAV_WT_I32, "f"))
                return err_prepend(w->err, "f");
            seen = seen ? seen : NNAV_ATTR_FLOAT;
            break;
        case ATTR_I:
            if (expect_wt(w, &f, NNAV_WT_VARINT, "i"))
                return err_prepend(w->err, "i");
            seen = seen ? seen : NNAV_ATTR_INT;
            break;
        case ATTR_S: case ATTR_STRINGS: case ATTR_TP: case ATTR_TYPE_PROTOS:
        case ATTR_SPARSE: case ATTR_SPARSES: case ATTR_DOC:
            if (expect_field(w, &f, NNAV_WT_LEN, &onnx__attribute_proto__descriptor))
                return -1;
            if (!seen && f.num != ATTR_DOC)
                seen = f.num == ATTR_S ? NNAV_ATTR_STRING
                       : f.num == ATTR_STRINGS ? NNAV_ATTR_STRINGS
                       : f.num == ATTR_TP ? NNAV_ATTR_TYPE_PROTO
                       : f.num == ATTR_TYPE_PROTOS ? NNAV_ATTR_TYPE_PROTOS
                       : f.num == ATTR_SPARSE ? NNAV_ATTR_SPARSE_TENSOR : NNAV_ATTR_SPARSE_TENSORS;
            break;
        case ATTR_FLOATS:
            if (f.wt != NNAV_WT_I32 && f.wt != NNAV_WT_LEN) {
                expect_wt(w, &f, NNAV_WT_I32, "floats");
                return err_prepend(w->err, "floats");
            }
            if (f.wt == NNAV_WT_LEN && f.s.n % 4) {
                nnav_err_set(w->err, (uint64_t)(f.s.p - w->base), 1,
                             "packed field holds %llu bytes, not a multiple of its 4-byte element",
                             (unsigned long long)f.s.n);
                return err_prepend(w->err, "floats");
            }
            seen = seen ? seen : NNAV_ATTR_FLOATS;
            break;
        case ATTR_INTS:
            if (f.wt != NNAV_WT_VARINT && f.wt != NNAV_WT_LEN) {
                expect_wt(w, &f, NNAV_WT_VARINT, "ints");
                return err_prepend(w->err, "ints");
            }
            seen = seen ? seen : NNAV_ATTR_INTS;
            break;
        case ATTR_T: case ATTR_TENSORS: {
            uint32_t tid;
            if (expect_wt(w, &f, NNAV_WT_LEN, f.num == ATTR_T ? "t" : "tensors"))
                return -1;
            if (walk_tensor(w, graph, f.s, NNAV_TOWN_ATTRIBUTE, aid, &tid) < 0)
                return f.num == ATTR_T ? err_prepend(w->err, "t")
                                       : err_prepend(w->err, "tensors[%u]", a.tensor_count);
            if (a.tensor_first == NNAV_NONE)
                a.tensor_first = tid;
            a.tensor_count++;
            seen = seen ? seen : f.num == ATTR_T ? NNAV_ATTR_TENSOR : NNAV_ATTR_TENSORS;
            break;
        }
        case ATTR_G: case ATTR_GRAPHS: {
            uint32_t gid;
            if (expect_wt(w, &f, NNAV_WT_LEN, f.num == ATTR_G ? "g" : "graphs"))
                return -1;
            if (new_graph(w, NNAV_GRAPH_BODY, graph, f.s, &gid) < 0)
                return f.num == ATTR_G ? err_prepend(w->err, "g")
                                       : err_prepend(w->err, "graphs[%u]", ngraphs);
            nnav_graph *g = &m->graphs.v[gid];
            g->owner_node = node;
            g->owner_attr = aid;
            g->list_index = f.num == ATTR_GRAPHS ? ngraphs : NNAV_NONE;
            if (a.graph_first == NNAV_NONE)
                a.graph_first = gid;
            a.graph_count++;
            ngraphs++;
            uint32_t *c = nnav_vec_push(m->children);
            if (!c)
                return oom(w->err);
            *c = gid;
            seen = seen ? seen : f.num == ATTR_G ? NNAV_ATTR_GRAPH : NNAV_ATTR_GRAPHS;
            break;
        }
        default:
            if (keep_unknown(w, &f, "AttributeProto", aid))
                return -1;
        }
    }
    if (k < 0)
        return wire_fail(w, &r, &onnx__attribute_proto__descriptor);
    a.type = (uint8_t)(type > 0 ? type : seen);
    m->attrs.v[aid] = a;
    return 0;
}

static int walk_node(walker *w, uint32_t graph, nnav_span s)
{
    nnav_model *m = w->m;
    uint32_t nid = m->nodes.n;
    nnav_node n;
    memset(&n, 0, sizeof n);
    n.graph = graph;
    n.msg = s;
    n.function = NNAV_NONE;
    n.in_first = m->refs.n;
    n.attr_first = m->attrs.n;
    uint32_t nattr = 0;
    nnav_span domain = {0};
    nnav_wire r;
    nnav_field f;
    int k;
    /* Pass 1: everything but outputs, so a node's inputs and outputs each sit
     * contiguously in refs even if a writer interleaves them. */
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        switch (f.num) {
        case NODE_INPUT: {
            if (expect_wt(w, &f, NNAV_WT_LEN, "input"))
                return err_prepend(w->err, "input[%u]", n.in_count);
            if (nnav_ref_push(m, f.s, 0))
                return oom(w->err);
            n.in_count++;
            break;
        }
        case NODE_OUTPUT:
            if (expect_wt(w, &f, NNAV_WT_LEN, "output"))
                return err_prepend(w->err, "output");
            break;
        case NODE_NAME: case NODE_OP: case NODE_DOMAIN: case NODE_OVERLOAD: case NODE_DOC:
        case NODE_METADATA: case NODE_DEVICE_CONF:
            if (expect_field(w, &f, NNAV_WT_LEN, &onnx__node_proto__descriptor))
                return -1;
            if (f.num == NODE_NAME)
                n.name = f.s;
            else if (f.num == NODE_OP)
                n.op = f.s;
            else if (f.num == NODE_DOMAIN)
                domain = f.s;
            break;
        case NODE_ATTR:
            if (expect_wt(w, &f, NNAV_WT_LEN, "attribute"))
                return err_prepend(w->err, "attribute[%u]", nattr);
            if (walk_attr(w, graph, nid, f.s) < 0)
                return err_prepend(w->err, "attribute[%u]", nattr);
            nattr++;
            break;
        default:
            if (keep_unknown(w, &f, "NodeProto", nid))
                return -1;
        }
    }
    if (k < 0)
        return wire_fail(w, &r, &onnx__node_proto__descriptor);
    n.attr_count = nattr;
    n.out_first = m->refs.n;
    winit(w, &r, s);
    while (nnav_wire_next(&r, &f, w->err) == 1) {
        if (f.num != NODE_OUTPUT)
            continue;
        if (nnav_ref_push(m, f.s, 0))
            return oom(w->err);
        n.out_count++;
    }
    nnav_node *slot = nnav_vec_push(m->nodes);
    if (!slot)
        return oom(w->err);
    *slot = n;
    /* Most nodes name no domain: a bit says which to read it again for. */
    if (domain.n) {
        uint32_t need = (nid >> 3) + 1;
        if (m->node_dom.n < need) {
            if (nnav_vec_reserve(m->node_dom, need))
                return oom(w->err);
            memset(m->node_dom.v + m->node_dom.n, 0, need - m->node_dom.n);
            m->node_dom.n = need;
        }
        m->node_dom.v[nid >> 3] |= (uint8_t)(1u << (nid & 7));
    }
    return 0;
}

nnav_span nnav_onnx_node_domain(const nnav_model *m, uint32_t node)
{
    nnav_span domain = {0};
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    nnav_walk_init(m, &r, m->nodes.v[node].msg);
    while (nnav_wire_next(&r, &f, &e) == 1)
        if (f.num == NODE_DOMAIN && f.wt == NNAV_WT_LEN)
            domain = f.s;
    return domain;
}

static int progress(walker *w, uint64_t at)
{
    if (!w->opts || !w->opts->progress)
        return 0;
    if (++w->since_progress < 65536)
        return 0;
    w->since_progress = 0;
    if (w->opts->progress(w->opts->ctx, at, w->m->map.size)) {
        nnav_err_set(w->err, 0, 0, "cancelled");
        return -1;
    }
    return 0;
}

/* A GraphProto, or a FunctionProto's body: the two share nodes and value infos
 * and differ only in field numbers and in how inputs are named. */
static int walk_graph(walker *w, uint32_t gid)
{
    nnav_model *m = w->m;
    nnav_span s = m->gspan.v[gid];
    int is_fn = m->graphs.v[gid].kind == NNAV_GRAPH_FUNCTION;
    uint32_t fid = m->graphs.v[gid].function;
    uint32_t node_first = m->nodes.n, child_first = m->children.n;
    uint32_t nnodes = 0, ninit = 0, nsparse = 0, nattrp = 0;
    int pass;
    nnav_wire r;
    nnav_field f;
    int k;
    /* Value infos are grouped by role, so walk the message once per role for
     * inputs, outputs and value_info; nodes and tensors go in pass 0. */
    uint32_t role_first[3], role_count[3];
    const uint32_t role_field[3] = {is_fn ? FN_INPUT : GRAPH_INPUT,
                                    is_fn ? FN_OUTPUT : GRAPH_OUTPUT,
                                    is_fn ? FN_VALUE_INFO : GRAPH_VALUE_INFO};
    m->graphs.v[gid].init_first = m->tensors.n;
    m->graphs.v[gid].sparse_first = m->sparse.n;
    uint32_t nparts = gid == 0 ? 1 + m->main_parts.n : 1;
    /* Pass -1 takes the initializers alone, so they form one range of tensor
     * ids (attribute tensors and sparse parts come in pass 0). */
    for (pass = -1; pass < 4; pass++) {
        if (pass > 0)
            role_first[pass - 1] = m->vinfos.n;
        uint32_t idx = 0;
        /* A graph field given twice is one merged message (protobuf's rule):
         * walk its parts in order. */
        for (uint32_t part = 0; part < nparts; part++) {
            winit(w, &r, part ? m->main_parts.v[part - 1] : s);
            while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
                if (pass < 0) {
                    if (is_fn || f.num != GRAPH_INIT)
                        continue;
                    if (expect_wt(w, &f, NNAV_WT_LEN, "initializer") ||
                        walk_tensor(w, gid, f.s, NNAV_TOWN_INITIALIZER, NNAV_NONE, NULL) < 0)
                        return err_prepend(w->err, "initializer[%u]", ninit);
                    ninit++;
                    continue;
                }
                if (pass > 0) {
                    if (f.num != role_field[pass - 1])
                        continue;
                    if (f.wt != NNAV_WT_LEN)
                        continue; /* reported in pass 0 */
                    int rc = (is_fn && pass < 3) ? add_vinfo(w, gid, f.s, (nnav_span){0})
                                                 : walk_vinfo(w, gid, f.s);
                    if (rc < 0)
                        return err_prepend(w->err, "%s[%u]",
                                           pass == 1 ? "input" : pass == 2 ? "output" : "value_info",
                                           idx);
                    idx++;
                    continue;
                }
                uint32_t want = is_fn ? FN_NODE : GRAPH_NODE;
                if (f.num == want) {
                    if (expect_wt(w, &f, NNAV_WT_LEN, "node") ||
                        walk_node(w, gid, f.s) < 0)
                        return err_prepend(w->err, "node[%u]", nnodes);
                    nnodes++;
                    if (progress(w, (uint64_t)(f.s.p - w->base)))
                        return -1;
                } else if (!is_fn && f.num == GRAPH_INIT) {
                    continue;
                } else if (!is_fn && f.num == GRAPH_NAME) {
                    if (expect_wt(w, &f, NNAV_WT_LEN, "name"))
                        return err_prepend(w->err, "name");
                    m->graphs.v[gid].name = f.s;
                } else if (is_fn && f.num == FN_NAME) {
                    if (expect_wt(w, &f, NNAV_WT_LEN, "name"))
                        return err_prepend(w->err, "name");
                    m->graphs.v[gid].name = f.s;
                } else if (f.num == role_field[0] || f.num == role_field[1] ||
                           f.num == role_field[2]) {
                    if (expect_field(w, &f, NNAV_WT_LEN, is_fn ? &onnx__function_proto__descriptor
                                                                 : &onnx__graph_proto__descriptor))
                        return -1;
                } else if (!is_fn && f.num == GRAPH_SPARSE) {
                    if (expect_wt(w, &f, NNAV_WT_LEN, "sparse_initializer") ||
                        walk_sparse(w, gid, f.s) < 0)
                        return err_prepend(w->err, "sparse_initializer[%u]", nsparse);
                    nsparse++;
                } else if (!is_fn && (f.num == GRAPH_DOC || f.num == GRAPH_QUANT ||
                                      f.num == GRAPH_METADATA)) {
                    if (expect_field(w, &f, NNAV_WT_LEN, &onnx__graph_proto__descriptor))
                        return -1;
                } else if (is_fn && f.num == FN_ATTRIBUTE) {
                    if (expect_wt(w, &f, NNAV_WT_LEN, "attribute"))
                        return err_prepend(w->err, "attribute");
                    if (nnav_ref_push(m, f.s, 0))
                        return oom(w->err);
                    if (m->functions.v[fid].attr_name_count++ == 0)
                        m->functions.v[fid].attr_name_first = m->refs.n - 1;
                } else if (is_fn && f.num == FN_ATTRIBUTE_PROTO) {
                    if (expect_wt(w, &f, NNAV_WT_LEN, "attribute_proto"))
                        return -1;
                    if (m->functions.v[fid].attr_count == 0)
                        m->functions.v[fid].attr_first = m->attrs.n;
                    if (walk_attr(w, gid, NNAV_NONE, f.s) < 0)
                        return err_prepend(w->err, "attribute_proto[%u]", nattrp);
                    m->functions.v[fid].attr_count++;
                    nattrp++;
                } else if (is_fn && f.num == FN_OPSET) {
                    nnav_opset *o = nnav_vec_push(m->opsets);
                    if (!o)
                        return oom(w->err);
                    if (expect_wt(w, &f, NNAV_WT_LEN, "opset_import") || walk_opset(w, f.s, o) < 0)
                        return err_prepend(w->err, "opset_import");
                    if (m->functions.v[fid].opset_count++ == 0)
                        m->functions.v[fid].opset_first = m->opsets.n - 1;
                } else if (is_fn && (f.num == FN_DOMAIN || f.num == FN_OVERLOAD)) {
                    if (expect_field(w, &f, NNAV_WT_LEN, &onnx__function_proto__descriptor))
                        return -1;
                    if (f.num == FN_DOMAIN)
                        m->functions.v[fid].domain = f.s;
                    else
                        m->functions.v[fid].overload = f.s;
                } else if (is_fn && (f.num == FN_DOC || f.num == FN_METADATA)) {
                    if (expect_field(w, &f, NNAV_WT_LEN, &onnx__function_proto__descriptor))
                        return -1;
                } else {
                    if (keep_unknown(w, &f, is_fn ? "FunctionProto" : "GraphProto", gid))
                        return -1;
                }
            }
            if (k < 0)
                return wire_fail(w, &r, is_fn ? &onnx__function_proto__descriptor : &onnx__graph_proto__descriptor);
        }
        if (pass < 0)
            m->graphs.v[gid].init_count = ninit;
        if (pass > 0)
            role_count[pass - 1] = m->vinfos.n - role_first[pass - 1];
    }
    nnav_graph *g = &m->graphs.v[gid];
    g->node_first = node_first;
    g->node_count = nnodes;
    g->sparse_count = nsparse;
    g->input_first = role_first[0], g->input_count = role_count[0];
    g->output_first = role_first[1], g->output_count = role_count[1];
    g->vi_first = role_first[2], g->vi_count = role_count[2];
    g->child_first = child_first;
    g->child_count = m->children.n - child_first;
    if (is_fn)
        m->functions.v[fid].name = g->name;
    return 0;
}

/* "graph", "functions[2]", "graph.node[3].attribute[0].g" ... for errors.
 * Iterative: a chain of bodies thousands deep must not cost stack. The head
 * of the path is kept when it does not fit. */
/* One graph's part of the origin: "graph", ".node[3].attribute[0].g", ... */
static int origin_piece(const nnav_model *m, const nnav_graph *g, char *buf, size_t n)
{
    if (g->kind == NNAV_GRAPH_MAIN)
        return snprintf(buf, n, "graph");
    if (g->kind == NNAV_GRAPH_FUNCTION)
        return snprintf(buf, n, "functions[%u]", g->function);
    if (g->kind == NNAV_GRAPH_TRAINING_INIT || g->kind == NNAV_GRAPH_TRAINING_ALGO)
        return snprintf(buf, n, "training_info[%u].%s", g->training,
                        g->kind == NNAV_GRAPH_TRAINING_INIT ? "initialization" : "algorithm");
    if (g->owner_node == NNAV_NONE) {
        /* a graph-valued default of a function attribute */
        uint32_t ai = g->owner_attr - m->functions.v[m->graphs.v[g->parent].function].attr_first;
        return snprintf(buf, n, ".attribute_proto[%u].%s", ai,
                        g->list_index == NNAV_NONE ? "g" : "graphs");
    }
    const nnav_node *nd = &m->nodes.v[g->owner_node];
    uint32_t ai = g->owner_attr - nd->attr_first;
    if (g->list_index == NNAV_NONE)
        return snprintf(buf, n, ".node[%u].attribute[%u].g", nnav_node_index(m, g->owner_node), ai);
    return snprintf(buf, n, ".node[%u].attribute[%u].graphs[%u]", nnav_node_index(m, g->owner_node), ai, g->list_index);
}

static void graph_origin(const nnav_model *m, uint32_t gid, char *buf, size_t n)
{
    uint32_t depth = m->graphs.v[gid].depth;
    uint32_t *chain = malloc(((size_t)depth + 1) * sizeof *chain);
    size_t o = 0;
    /* Two thirds of the room at most: the path inside the graph follows. */
    size_t limit = n / 3 * 2;
    buf[0] = 0;
    if (!chain)
        return;
    uint32_t k = 0;
    for (uint32_t g = gid; g != NNAV_NONE && k <= depth; g = m->graphs.v[g].parent)
        chain[k++] = g;
    while (k-- > 0) {
        char piece[160];
        int w = origin_piece(m, &m->graphs.v[chain[k]], piece, sizeof piece);
        if (w < 0)
            break;
        if (k > 0 && o + (size_t)w + sizeof piece + 8 > limit) {
            /* Too deep to name every level: the middle is elided, and the
             * graph itself still ends the origin. */
            o += (size_t)snprintf(buf + o, n - o, ".(...)");
            k = 1;
            continue;
        }
        if (o + (size_t)w >= n)
            break;
        memcpy(buf + o, piece, (size_t)w + 1);
        o += (size_t)w;
    }
    free(chain);
}

static int walk_training(walker *w, nnav_span s, uint32_t ti, nnav_span *init, nnav_span *algo)
{
    nnav_wire r;
    nnav_field f;
    int k;
    winit(w, &r, s);
    while ((k = nnav_wire_next(&r, &f, w->err)) == 1) {
        if (f.num >= TI_INIT && f.num <= TI_UPDATE_BIND) {
            if (expect_field(w, &f, NNAV_WT_LEN, &onnx__training_info_proto__descriptor))
                return -1;
            if (f.num == TI_INIT)
                *init = f.s;
            else if (f.num == TI_ALGO)
                *algo = f.s;
        } else if (keep_unknown(w, &f, "TrainingInfoProto", ti)) {
            return -1;
        }
    }
    return k < 0 ? wire_fail(w, &r, &onnx__training_info_proto__descriptor) : k;
}

int nnav_onnx_index(nnav_model *m, const nnav_open_opts *o, nnav_error *err)
{
    walker w = {m, m->map.base, err, o, o && o->max_depth ? o->max_depth : NNAV_MAX_DEPTH, 0};
    nnav_model_facts *fa = &m->facts;
    nnav_span graph = {0};
    NNAV_VEC(nnav_span) train = {0};
    NNAV_VEC(nnav_span) fns = {0};
    nnav_wire r;
    nnav_field f;
    int k, rc = -1;
    uint32_t nopset = 0;
    winit(&w, &r, (nnav_span){m->map.base, m->map.size});
    while ((k = nnav_wire_next(&r, &f, err)) == 1) {
        switch (f.num) {
        case MODEL_IR: case MODEL_VERSION:
            if (expect_wt(&w, &f, NNAV_WT_VARINT, f.num == MODEL_IR ? "ir_version" : "model_version")) {
                err_prepend(err, f.num == MODEL_IR ? "ir_version" : "model_version");
                goto out;
            }
            if (f.num == MODEL_IR)
                fa->ir_version = (int64_t)f.v;
            else
                fa->model_version = (int64_t)f.v;
            break;
        case MODEL_PRODUCER: case MODEL_PRODUCER_VERSION: case MODEL_DOMAIN: case MODEL_DOC:
            if (expect_field(&w, &f, NNAV_WT_LEN, &onnx__model_proto__descriptor))
                goto out;
            if (f.num == MODEL_PRODUCER)
                fa->producer_name = f.s;
            else if (f.num == MODEL_PRODUCER_VERSION)
                fa->producer_version = f.s;
            else if (f.num == MODEL_DOMAIN)
                fa->domain = f.s;
            else
                fa->doc_string = f.s;
            break;
        case MODEL_GRAPH:
            if (expect_wt(&w, &f, NNAV_WT_LEN, "graph")) {
                err_prepend(err, "graph");
                goto out;
            }
            if (graph.p) {
                nnav_span *part = nnav_vec_push(m->main_parts);
                if (!part) {
                    oom(err);
                    goto out;
                }
                *part = f.s;
            } else {
                graph = f.s;
            }
            break;
        case MODEL_OPSET: {
            nnav_opset *op = nnav_vec_push(m->opsets);
            if (!op) {
                oom(err);
                goto out;
            }
            if (expect_wt(&w, &f, NNAV_WT_LEN, "opset_import") || walk_opset(&w, f.s, op) < 0) {
                err_prepend(err, "opset_import[%u]", nopset);
                goto out;
            }
            nopset++;
            break;
        }
        case MODEL_METADATA: {
            nnav_kv *kv = nnav_vec_push(m->metadata);
            if (!kv) {
                oom(err);
                goto out;
            }
            if (expect_wt(&w, &f, NNAV_WT_LEN, "metadata_props") || walk_kv(&w, f.s, kv) < 0) {
                err_prepend(err, "metadata_props[%u]", m->metadata.n - 1);
                goto out;
            }
            break;
        }
        case MODEL_TRAINING: case MODEL_FUNCTIONS: {
            if (expect_field(&w, &f, NNAV_WT_LEN, &onnx__model_proto__descriptor))
                goto out;
            nnav_span *sp = f.num == MODEL_TRAINING ? nnav_vec_push(train) : nnav_vec_push(fns);
            if (!sp) {
                oom(err);
                goto out;
            }
            *sp = f.s;
            break;
        }
        case MODEL_CONFIGURATION:
            if (expect_field(&w, &f, NNAV_WT_LEN, &onnx__model_proto__descriptor))
                goto out;
            m->config_count++;
            break;
        default:
            if (keep_unknown(&w, &f, "ModelProto", NNAV_NONE))
                goto out;
        }
    }
    if (k < 0)
        {
        wire_fail(&w, &r, &onnx__model_proto__descriptor);
        goto out;
    }
    m->model_opset_count = m->opsets.n;
    m->training_count = train.n;
    /* Roots first: the main graph is always id 0 (an empty one if absent). */
    uint32_t gid;
    if (new_graph(&w, NNAV_GRAPH_MAIN, NNAV_NONE, graph, &gid) < 0)
        goto out;
    for (uint32_t i = 0; i < train.n; i++) {
        nnav_span init = {0}, algo = {0};
        if (walk_training(&w, train.v[i], i, &init, &algo) < 0) {
            err_prepend(err, "training_info[%u]", i);
            goto out;
        }
        for (int j = 0; j < 2; j++) {
            nnav_span gs = j ? algo : init;
            if (!gs.p)
                continue;
            if (new_graph(&w, j ? NNAV_GRAPH_TRAINING_ALGO : NNAV_GRAPH_TRAINING_INIT, NNAV_NONE,
                          gs, &gid) < 0)
                goto out;
            m->graphs.v[gid].training = i;
        }
    }
    for (uint32_t i = 0; i < fns.n; i++) {
        nnav_function *fn = nnav_vec_push(m->functions);
        if (!fn) {
            oom(err);
            goto out;
        }
        fn->msg = fns.v[i];
        fn->graph = m->graphs.n;
        fn->attr_name_first = fn->attr_first = fn->opset_first = NNAV_NONE;
        if (new_graph(&w, NNAV_GRAPH_FUNCTION, NNAV_NONE, fns.v[i], &gid) < 0)
            goto out;
        m->graphs.v[gid].function = i;
    }
    /* Breadth first: the graph array is the queue. */
    for (gid = 0; gid < m->graphs.n; gid++) {
        if (!m->gspan.v[gid].p) {
            m->graphs.v[gid].node_first = m->nodes.n;
            m->graphs.v[gid].input_first = m->graphs.v[gid].output_first =
                m->graphs.v[gid].vi_first = m->vinfos.n;
            m->graphs.v[gid].init_first = m->tensors.n;
            m->graphs.v[gid].sparse_first = m->sparse.n;
            m->graphs.v[gid].child_first = m->children.n;
            continue;
        }
        if (walk_graph(&w, gid) < 0) {
            char origin[sizeof err->path];
            graph_origin(m, gid, origin, sizeof origin);
            err_prepend(err, "%s", origin);
            goto out;
        }
    }
    m->facts.graph_name = m->graphs.v[0].name;
    rc = 0;
out:
    nnav_vec_free(train);
    nnav_vec_free(fns);
    return rc;
}

/* ---- the reader ---- */

static void onnx_free(nnav_model *m) { (void)m; } /* everything is in the index */

const nnav_reader nnav_reader_onnx = {
    .name = "ONNX",
    .exts = "onnx",
    .formats = 1u << NNAV_FMT_ONNX,
    .reads = ".onnx",
    .suffix = ".onnx",
    .format_names = {[NNAV_FMT_ONNX] = "ONNX"},
    .traits = NNAV_TRAIT_OPSETS | NNAV_TRAIT_ONNX_MESSAGES,
    .op_family = NNAV_OPS_ONNX,
    .index = nnav_onnx_index,
    .free = onnx_free,
    .attr_scalar = nnav_onnx_attr_scalar,
    .attr_list = nnav_onnx_attr_list,
    .attr_types = nnav_onnx_attr_types,
    .attr_sparse = nnav_onnx_attr_sparse,
    .type = nnav_typeproto_decode, /* the file's own TypeProto bytes */
    .tensor_values = nnav_onnx_tensor_values,
    .part_values = nnav_onnx_part_values,
    .typed_ints = nnav_onnx_typed_ints,
    .node_domain = nnav_onnx_node_domain,
};
