/* typeproto.c - ONNX TypeProto bytes to an nnav_type (typeproto.h).
 *
 * One pass over the message tree in file order, applying each field to the
 * decoded type as it comes, with no tree built. The reading is protobuf-c's
 * (which gave the type's text before, and still gives the explorer's and the
 * export's protobuf view), field by field:
 *  - a oneof member (TypeProto's kinds, a Dimension's value) replaces
 *    whatever member came before, the same member too;
 *  - a singular message outside a oneof met again (Tensor.shape,
 *    Sequence/Optional.elem_type, Map.value_type) is merged: a shape's dims
 *    append; of two TypeProtos the later one's member wins, or the earlier
 *    one's when the later sets none, and two that set none make protobuf-c
 *    refuse the whole type (MALFORMED);
 *  - a scalar or string met again: the last one.
 * Every sub-message is entered (also one a later field replaces), so damage
 * or nesting anywhere is seen; depth counts every message level as protobuf
 * nests them (TypeProto, Sequence, TypeProto, ..., Tensor, TensorShapeProto,
 * Dimension), bounded by TYPE_MAX_DEPTH. test_types holds this to protobuf-c
 * on hand-made and random types. */
#include <string.h>

#include "onnx_fields.h"
#include "typeproto.h"
#include "wire.h"

/* Message levels a type may nest, the outermost TypeProto at 0. A container
 * holds its TypeProto two levels down, so TypeProtos sit at 0, 2, ..., 32
 * and at most 16 containers fit (NNAV_TYPE_NEST_MAX). */
#define TYPE_MAX_DEPTH 32
_Static_assert(TYPE_MAX_DEPTH / 2 == NNAV_TYPE_NEST_MAX, "a container takes two levels");
/* nnav_type reads TypeProto.Tensor and TypeProto.SparseTensor alike. */
_Static_assert(NNAV_ONNX_TYPEPROTO_SPARSETENSOR_ELEM_TYPE == NNAV_ONNX_TYPEPROTO_TENSOR_ELEM_TYPE &&
                   NNAV_ONNX_TYPEPROTO_SPARSETENSOR_SHAPE == NNAV_ONNX_TYPEPROTO_TENSOR_SHAPE,
               "Tensor and SparseTensor types number their fields alike");
/* M_ELEM reads Sequence and Optional alike. */
_Static_assert(NNAV_ONNX_TYPEPROTO_OPTIONAL_ELEM_TYPE == NNAV_ONNX_TYPEPROTO_SEQUENCE_ELEM_TYPE,
               "Sequence and Optional number elem_type alike");

typedef struct dec {
    const uint8_t *base;
    nnav_type *t;
    uint64_t first; /* the first axis kept */
    uint64_t kinds; /* oneof members met so far */
} dec;

enum { M_TYPE, M_TENSOR, M_SHAPE, M_DIM, M_ELEM, M_MAP, M_OPAQUE };

static void broken(dec *d)
{
    d->t->status = NNAV_TYPE_BROKEN;
}

/* Nested past the bound: the sub-message is not entered (the walk goes on,
 * so damage further on still reads BROKEN). */
static void too_deep(dec *d)
{
    if (d->t->status != NNAV_TYPE_BROKEN)
        d->t->status = NNAV_TYPE_DEEP;
}

/* Bytes protobuf-c would refuse though they read. */
static void refused(dec *d)
{
    if (d->t->status == NNAV_TYPE_OK)
        d->t->status = NNAV_TYPE_MALFORMED;
}

/* A known field of the wrong wire type: protobuf refuses the message. */
static int wrong(dec *d, const nnav_field *f, uint8_t wt)
{
    if (f->wt == wt)
        return 0;
    refused(d);
    return 1;
}

static void clear_leaf(nnav_type *t, uint8_t kind)
{
    t->leaf = kind;
    t->elem = 0;
    t->rank = -1;
    t->domain = t->name = (nnav_span){0};
}

/* The TypeProto at container level `lvl` takes member `kind`, replacing
 * what was there and below. */
static void set_kind(dec *d, unsigned lvl, uint8_t kind)
{
    nnav_type *t = d->t;
    d->kinds++;
    if (kind >= NNAV_TYPE_SEQUENCE) {
        t->nest = (uint8_t)(lvl + 1);
        t->outer[lvl] = kind;
        t->key[lvl] = 0;
        clear_leaf(t, NNAV_TYPE_UNSET); /* an absent inner type reads "?" */
    } else {
        t->nest = (uint8_t)lvl;
        clear_leaf(t, kind);
    }
}

static void walk(dec *d, nnav_span s, int msg, int depth, unsigned lvl, uint64_t axis);

/* A container's TypeProto (elem_type, value_type), the `seen`-th met in
 * this container: merged into the ones before as protobuf-c merges. */
static void inner_type(dec *d, nnav_span s, int depth, unsigned lvl, unsigned *seen,
                       int *has_kind)
{
    uint64_t before = d->kinds;
    if (depth + 1 > TYPE_MAX_DEPTH) {
        too_deep(d);
        return;
    }
    walk(d, s, M_TYPE, depth + 1, lvl, 0);
    int has = d->kinds != before;
    if ((*seen)++ && !has && !*has_kind)
        refused(d); /* merging two TypeProtos that set no member fails */
    *has_kind |= has;
}

/* Enter a sub-message: one level down, or DEEP past the bound. */
static void enter(dec *d, nnav_span s, int msg, int depth, unsigned lvl, uint64_t axis)
{
    if (depth + 1 > TYPE_MAX_DEPTH) {
        too_deep(d);
        return;
    }
    walk(d, s, msg, depth + 1, lvl, axis);
}

static void walk(dec *d, nnav_span s, int msg, int depth, unsigned lvl, uint64_t axis)
{
    nnav_type *t = d->t;
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    int k = 0;
    unsigned seen = 0; /* a container's TypeProtos met */
    int has_kind = 0;  /* one of them set a member */
    nnav_wire_init(&r, d->base, s);
    while (t->status != NNAV_TYPE_BROKEN && (k = nnav_wire_next(&r, &f, &e)) == 1) {
        switch (msg) {
        case M_TYPE: {
            uint8_t kind = 0;
            int sub = 0;
            switch (f.num) {
            case NNAV_ONNX_TYPEPROTO_TENSOR_TYPE: kind = NNAV_TYPE_TENSOR, sub = M_TENSOR; break;
            case NNAV_ONNX_TYPEPROTO_SPARSE_TENSOR_TYPE:
                kind = NNAV_TYPE_SPARSE_TENSOR, sub = M_TENSOR;
                break;
            case NNAV_ONNX_TYPEPROTO_OPAQUE_TYPE: kind = NNAV_TYPE_OPAQUE, sub = M_OPAQUE; break;
            case NNAV_ONNX_TYPEPROTO_SEQUENCE_TYPE: kind = NNAV_TYPE_SEQUENCE, sub = M_ELEM; break;
            case NNAV_ONNX_TYPEPROTO_OPTIONAL_TYPE: kind = NNAV_TYPE_OPTIONAL, sub = M_ELEM; break;
            case NNAV_ONNX_TYPEPROTO_MAP_TYPE: kind = NNAV_TYPE_MAP, sub = M_MAP; break;
            case NNAV_ONNX_TYPEPROTO_DENOTATION: wrong(d, &f, NNAV_WT_LEN); break;
            }
            if (!kind || wrong(d, &f, NNAV_WT_LEN))
                break;
            if (depth + 1 > TYPE_MAX_DEPTH) { /* lvl stays below NNAV_TYPE_NEST_MAX */
                too_deep(d);
                break;
            }
            set_kind(d, lvl, kind);
            enter(d, f.s, sub, depth, lvl, 0);
            break;
        }
        case M_ELEM: /* Sequence, Optional: elem_type */
            if (f.num == NNAV_ONNX_TYPEPROTO_SEQUENCE_ELEM_TYPE && !wrong(d, &f, NNAV_WT_LEN))
                inner_type(d, f.s, depth, lvl + 1, &seen, &has_kind);
            break;
        case M_MAP:
            if (f.num == NNAV_ONNX_TYPEPROTO_MAP_KEY_TYPE && !wrong(d, &f, NNAV_WT_VARINT))
                t->key[lvl] = (int32_t)f.v;
            else if (f.num == NNAV_ONNX_TYPEPROTO_MAP_VALUE_TYPE && !wrong(d, &f, NNAV_WT_LEN))
                inner_type(d, f.s, depth, lvl + 1, &seen, &has_kind);
            break;
        case M_OPAQUE:
            if (f.num == NNAV_ONNX_TYPEPROTO_OPAQUE_DOMAIN && !wrong(d, &f, NNAV_WT_LEN))
                t->domain = f.s;
            else if (f.num == NNAV_ONNX_TYPEPROTO_OPAQUE_NAME && !wrong(d, &f, NNAV_WT_LEN))
                t->name = f.s;
            break;
        case M_TENSOR: /* Tensor, SparseTensor */
            if (f.num == NNAV_ONNX_TYPEPROTO_TENSOR_ELEM_TYPE && !wrong(d, &f, NNAV_WT_VARINT))
                t->elem = (int32_t)f.v;
            else if (f.num == NNAV_ONNX_TYPEPROTO_TENSOR_SHAPE && !wrong(d, &f, NNAV_WT_LEN)) {
                if (t->rank < 0)
                    t->rank = 0;
                enter(d, f.s, M_SHAPE, depth, lvl, 0);
            }
            break;
        case M_SHAPE:
            if (f.num == NNAV_ONNX_TENSORSHAPEPROTO_DIM && !wrong(d, &f, NNAV_WT_LEN)) {
                uint64_t i = (uint64_t)t->rank++ - d->first; /* wraps below first */
                if (i < NNAV_TYPE_DIMS_MAX) {
                    t->axis[i] = NNAV_AXIS_UNKNOWN;
                    t->dims[i] = -1;
                    t->syms[i] = (nnav_span){0};
                }
                enter(d, f.s, M_DIM, depth, lvl, i);
            }
            break;
        case M_DIM: /* oneof value { dim_value, dim_param }: the last one wins */
            if (f.num == NNAV_ONNX_TENSORSHAPEPROTO_DIMENSION_DIM_VALUE &&
                !wrong(d, &f, NNAV_WT_VARINT)) {
                if (axis < NNAV_TYPE_DIMS_MAX) {
                    t->axis[axis] = NNAV_AXIS_SIZE;
                    t->dims[axis] = (int64_t)f.v;
                    t->syms[axis] = (nnav_span){0};
                }
            } else if (f.num == NNAV_ONNX_TENSORSHAPEPROTO_DIMENSION_DIM_PARAM &&
                       !wrong(d, &f, NNAV_WT_LEN)) {
                if (axis < NNAV_TYPE_DIMS_MAX) {
                    t->axis[axis] = NNAV_AXIS_SYMBOL;
                    t->dims[axis] = -1;
                    t->syms[axis] = f.s;
                }
            } else if (f.num == NNAV_ONNX_TENSORSHAPEPROTO_DIMENSION_DENOTATION) {
                wrong(d, &f, NNAV_WT_LEN);
            }
            break;
        }
    }
    if (t->status != NNAV_TYPE_BROKEN && k < 0)
        broken(d);
}

int nnav_typeproto_decode(const nnav_model *m, nnav_span type, uint64_t first, nnav_type *t)
{
    (void)m;
    t->status = NNAV_TYPE_OK;
    t->nest = 0;
    t->axis0 = first;
    clear_leaf(t, type.p ? NNAV_TYPE_UNSET : NNAV_TYPE_ABSENT);
    if (!type.p)
        return 0;
    dec d = {type.p, t, first, 0};
    walk(&d, type, M_TYPE, 0, 0, 0);
    if (t->status == NNAV_TYPE_BROKEN)
        return -1;
    return t->nest == 0 && (t->leaf == NNAV_TYPE_TENSOR || t->leaf == NNAV_TYPE_SPARSE_TENSOR);
}
