/* types.c - the index's type encoding, whatever the format: ONNX TypeProto
 * bytes (model.h). Formatted through protobuf-c after our own walker has
 * checked the nesting depth; read structurally with the wire reader. */
#include <string.h>

#include "dtype.h"
#include "model.h"
#include "sbuf.h"
#include "onnx.pb-c.h"
#include "onnx_fields.h"
#include "wire.h"

#define TYPE_MAX_DEPTH 32

/* nnav_type_tensor reads TypeProto.Tensor and TypeProto.SparseTensor alike. */
_Static_assert(NNAV_ONNX_TYPEPROTO_SPARSETENSOR_ELEM_TYPE == NNAV_ONNX_TYPEPROTO_TENSOR_ELEM_TYPE &&
                   NNAV_ONNX_TYPEPROTO_SPARSETENSOR_SHAPE == NNAV_ONNX_TYPEPROTO_TENSOR_SHAPE,
               "Tensor and SparseTensor types number their fields alike");

/* ---- types ---- */

/* Nesting depth of a message, walking LEN fields the descriptor says are
 * messages. protobuf-c's unpack has no depth limit; this is ours. */
static int depth_ok(const uint8_t *base, nnav_span s, const ProtobufCMessageDescriptor *d,
                    int depth)
{
    if (depth > TYPE_MAX_DEPTH)
        return 0;
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    int k;
    nnav_wire_init(&r, base, s);
    while ((k = nnav_wire_next(&r, &f, &e)) == 1) {
        const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field(d, f.num);
        if (fd && fd->type == PROTOBUF_C_TYPE_MESSAGE && f.wt == NNAV_WT_LEN &&
            !depth_ok(base, f.s, fd->descriptor, depth + 1))
            return 0;
    }
    return k == 0;
}

static void shape_fmt(nnav_sbuf *b, const Onnx__TensorShapeProto *sh)
{
    if (!sh) {
        nnav_sb_put(b, "[...]");
        return;
    }
    nnav_sb_put(b, "[");
    for (size_t i = 0; i < sh->n_dim; i++) {
        const Onnx__TensorShapeProto__Dimension *d = sh->dim[i];
        if (i)
            nnav_sb_put(b, ",");
        if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE)
            nnav_sb_printf(b, "%lld", (long long)d->dim_value);
        else if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM &&
                 d->dim_param)
            nnav_sb_span(b, (nnav_span){(const uint8_t *)d->dim_param, strlen(d->dim_param)});
        else
            nnav_sb_put(b, "?");
    }
    nnav_sb_put(b, "]");
}

static void type_fmt(nnav_sbuf *b, const Onnx__TypeProto *t, int depth)
{
    if (!t || depth > TYPE_MAX_DEPTH) {
        nnav_sb_put(b, "?");
        return;
    }
    switch (t->value_case) {
    case ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE:
        nnav_sb_put(b, nnav_dtype_name(t->tensor_type->has_elem_type ? t->tensor_type->elem_type : 0));
        shape_fmt(b, t->tensor_type->shape);
        break;
    case ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE:
        nnav_sb_put(b, "sparse ");
        nnav_sb_put(b, nnav_dtype_name(t->sparse_tensor_type->has_elem_type
                                      ? t->sparse_tensor_type->elem_type : 0));
        shape_fmt(b, t->sparse_tensor_type->shape);
        break;
    case ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE:
        nnav_sb_put(b, "seq(");
        type_fmt(b, t->sequence_type->elem_type, depth + 1);
        nnav_sb_put(b, ")");
        break;
    case ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE:
        nnav_sb_put(b, "optional(");
        type_fmt(b, t->optional_type->elem_type, depth + 1);
        nnav_sb_put(b, ")");
        break;
    case ONNX__TYPE_PROTO__VALUE_MAP_TYPE:
        nnav_sb_put(b, "map(");
        nnav_sb_put(b, nnav_dtype_name(t->map_type->has_key_type ? t->map_type->key_type : 0));
        nnav_sb_put(b, ",");
        type_fmt(b, t->map_type->value_type, depth + 1);
        nnav_sb_put(b, ")");
        break;
    case ONNX__TYPE_PROTO__VALUE_OPAQUE_TYPE:
        nnav_sb_put(b, "opaque(");
        if (t->opaque_type->domain)
            nnav_sb_span(b, (nnav_span){(const uint8_t *)t->opaque_type->domain,
                                   strlen(t->opaque_type->domain)});
        nnav_sb_put(b, ":");
        if (t->opaque_type->name)
            nnav_sb_span(b, (nnav_span){(const uint8_t *)t->opaque_type->name,
                                   strlen(t->opaque_type->name)});
        nnav_sb_put(b, ")");
        break;
    default:
        nnav_sb_put(b, "?");
    }
}

void nnav_type_format(nnav_span type, char *buf, size_t n)
{
    nnav_sbuf b = {buf, n, 0};
    buf[0] = 0;
    if (!type.p || n == 0)
        return;
    if (!depth_ok(type.p, type, &onnx__type_proto__descriptor, 0)) {
        nnav_sb_put(&b, "(malformed or too deeply nested type)");
        return;
    }
    Onnx__TypeProto *t = onnx__type_proto__unpack(NULL, (size_t)type.n, type.p);
    if (!t) {
        nnav_sb_put(&b, "(malformed type)");
        return;
    }
    type_fmt(&b, t, 0);
    onnx__type_proto__free_unpacked(t, NULL);
}


/* ---- structured types ---- */

int nnav_type_tensor(nnav_span type, int32_t *elem_type, int *has_shape, size_t *rank,
                     int64_t *dims, nnav_span *params, size_t max)
{
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    int k;
    nnav_span tt = {0}, shape = {0};
    *elem_type = 0;
    *has_shape = 0;
    *rank = 0;
    if (!type.p)
        return 0;
    nnav_wire_init(&r, type.p, type);
    while ((k = nnav_wire_next(&r, &f, &e)) == 1)
        if ((f.num == NNAV_ONNX_TYPEPROTO_TENSOR_TYPE ||
             f.num == NNAV_ONNX_TYPEPROTO_SPARSE_TENSOR_TYPE) && f.wt == NNAV_WT_LEN)
            tt = f.s;
        else if ((f.num == NNAV_ONNX_TYPEPROTO_SEQUENCE_TYPE ||
                  f.num == NNAV_ONNX_TYPEPROTO_MAP_TYPE ||
                  f.num == NNAV_ONNX_TYPEPROTO_OPAQUE_TYPE ||
                  f.num == NNAV_ONNX_TYPEPROTO_OPTIONAL_TYPE) && !tt.p)
            return 0;
    if (k < 0)
        return -1;
    if (!tt.p)
        return 0;
    nnav_wire_init(&r, type.p, tt);
    while ((k = nnav_wire_next(&r, &f, &e)) == 1) {
        /* Tensor and SparseTensor number their fields alike. */
        if (f.num == NNAV_ONNX_TYPEPROTO_TENSOR_ELEM_TYPE && f.wt == NNAV_WT_VARINT)
            *elem_type = (int32_t)f.v;
        else if (f.num == NNAV_ONNX_TYPEPROTO_TENSOR_SHAPE && f.wt == NNAV_WT_LEN)
            shape = f.s, *has_shape = 1;
    }
    if (k < 0)
        return -1;
    if (!shape.p)
        return 1;
    nnav_wire_init(&r, type.p, shape);
    while ((k = nnav_wire_next(&r, &f, &e)) == 1) {
        if (f.num != NNAV_ONNX_TENSORSHAPEPROTO_DIM || f.wt != NNAV_WT_LEN)
            continue;
        nnav_wire d;
        nnav_field g;
        int64_t v = -1;
        nnav_span pm = {0};
        nnav_wire_init(&d, type.p, f.s);
        while ((k = nnav_wire_next(&d, &g, &e)) == 1) {
            if (g.num == NNAV_ONNX_TENSORSHAPEPROTO_DIMENSION_DIM_VALUE && g.wt == NNAV_WT_VARINT)
                v = (int64_t)g.v, pm = (nnav_span){0};
            else if (g.num == NNAV_ONNX_TENSORSHAPEPROTO_DIMENSION_DIM_PARAM && g.wt == NNAV_WT_LEN)
                pm = g.s, v = -1;
        }
        if (k < 0)
            return -1;
        if (*rank < max) {
            dims[*rank] = v;
            if (params)
                params[*rank] = pm;
        }
        (*rank)++;
    }
    return k < 0 ? -1 : 1;
}

