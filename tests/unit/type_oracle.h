/* type_oracle.h - the text of a TypeProto as nnav gave it before the
 * readers decoded types themselves (a depth walk over the wire, then
 * protobuf-c's unpack, then the renderer of the time), kept only as the
 * oracle test_types and fuzz_types hold the decoded type's text to
 * (nnav_type_format). bn > 0. Its text is "(no oracle)" for bytes on which
 * protobuf-c departs from the wire format (oracle_depth_ok). */
#ifndef NNAV_TYPE_ORACLE_H
#define NNAV_TYPE_ORACLE_H

#include <string.h>

#include "nnav.h"
#include "onnx.pb-c.h"
#include "sbuf.h"
#include "wire.h"

#define ORACLE_MAX_DEPTH 32

/* Bytes of the varint at p (its continuation bits only; the wire reader has
 * already bounded it). */
static inline size_t oracle_varint_len(const uint8_t *p)
{
    size_t k = 1;
    while (p[k - 1] & 0x80)
        k++;
    return k;
}

/* 1: the bytes parse and nest at most ORACLE_MAX_DEPTH deep; 0: they do not;
 * -1: the oracle has no say. protobuf-c reads a field's tag and a length as
 * 32-bit varints of at most 5 bytes, where the wire format (and nnav's
 * reader, like Google's) takes up to 10: no encoder writes such a padded
 * varint, and for one protobuf-c's answer is not the format's. */
static inline int oracle_depth_ok(const uint8_t *base, nnav_span s, const ProtobufCMessageDescriptor *d,
                    int depth)
{
    if (depth > ORACLE_MAX_DEPTH)
        return 0;
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    int k, say = 1;
    nnav_wire_init(&r, base, s);
    while ((k = nnav_wire_next(&r, &f, &e)) == 1) {
        const uint8_t *tag = base + f.off;
        size_t tn = oracle_varint_len(tag);
        if (tn > 5 || (f.wt == NNAV_WT_LEN && oracle_varint_len(tag + tn) > 5))
            say = -1;
        const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field(d, f.num);
        if (fd && fd->type == PROTOBUF_C_TYPE_MESSAGE && f.wt == NNAV_WT_LEN) {
            int sub = oracle_depth_ok(base, f.s, fd->descriptor, depth + 1);
            if (sub == 0)
                return 0;
            if (sub < 0)
                say = -1;
        }
    }
    return k == 0 ? say : 0;
}

static inline void o_str(nnav_sbuf *b, const char *s)
{
    nnav_sb_span(b, (nnav_span){(const uint8_t *)s, strlen(s)});
}

static inline void o_shape(nnav_sbuf *b, const Onnx__TensorShapeProto *sh)
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
            o_str(b, d->dim_param);
        else
            nnav_sb_put(b, "?");
    }
    nnav_sb_put(b, "]");
}

static inline void o_type(nnav_sbuf *b, const Onnx__TypeProto *t)
{
    if (!t) {
        nnav_sb_put(b, "?");
        return;
    }
    switch (t->value_case) {
    case ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE:
        nnav_sb_put(b, nnav_dtype_name(t->tensor_type->has_elem_type ? t->tensor_type->elem_type : 0));
        o_shape(b, t->tensor_type->shape);
        break;
    case ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE:
        nnav_sb_put(b, "sparse ");
        nnav_sb_put(b, nnav_dtype_name(t->sparse_tensor_type->has_elem_type
                                           ? t->sparse_tensor_type->elem_type : 0));
        o_shape(b, t->sparse_tensor_type->shape);
        break;
    case ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE:
        nnav_sb_put(b, "seq(");
        o_type(b, t->sequence_type->elem_type);
        nnav_sb_put(b, ")");
        break;
    case ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE:
        nnav_sb_put(b, "optional(");
        o_type(b, t->optional_type->elem_type);
        nnav_sb_put(b, ")");
        break;
    case ONNX__TYPE_PROTO__VALUE_MAP_TYPE:
        nnav_sb_put(b, "map(");
        nnav_sb_put(b, nnav_dtype_name(t->map_type->has_key_type ? t->map_type->key_type : 0));
        nnav_sb_put(b, ",");
        o_type(b, t->map_type->value_type);
        nnav_sb_put(b, ")");
        break;
    case ONNX__TYPE_PROTO__VALUE_OPAQUE_TYPE:
        nnav_sb_put(b, "opaque(");
        if (t->opaque_type->domain)
            o_str(b, t->opaque_type->domain);
        nnav_sb_put(b, ":");
        if (t->opaque_type->name)
            o_str(b, t->opaque_type->name);
        nnav_sb_put(b, ")");
        break;
    default:
        nnav_sb_put(b, "?");
    }
}

/* Returns 0, or -1 where the oracle has no say. */
static inline int type_oracle(const uint8_t *p, size_t n, char *buf, size_t bn)
{
    nnav_sbuf b = {buf, bn, 0};
    buf[0] = 0;
    nnav_span s = {p, n};
    int ok = oracle_depth_ok(p, s, &onnx__type_proto__descriptor, 0);
    if (ok < 0) {
        nnav_sb_put(&b, "(no oracle)");
        return -1;
    }
    if (!ok) {
        nnav_sb_put(&b, "(malformed or too deeply nested type)");
        return 0;
    }
    Onnx__TypeProto *t = onnx__type_proto__unpack(NULL, n, p);
    if (!t) {
        nnav_sb_put(&b, "(malformed type)");
        return 0;
    }
    o_type(&b, t);
    onnx__type_proto__free_unpacked(t, NULL);
    return 0;
}

#endif
