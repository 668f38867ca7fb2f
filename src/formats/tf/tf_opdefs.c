/* tf_opdefs.c - the OpDefs a SavedModel or MetaGraphDef carries
 * (meta_info_def.stripped_op_list) as operator schemas (opschema.h), handed
 * to the model (m->op_schemas) so that a TensorFlow node is read against its
 * op's definition as an ONNX node is against the compiled table.
 *
 * What an OpDef becomes (domain "tf", since 0):
 *  - each input_arg / output_arg a formal. A fixed `type` gives a type
 *    string ("tensor(float)"; a TensorFlow-only type by the name the reader
 *    gives it: "tensor(resource)"); a `type_attr` gives that type parameter.
 *    A `number_attr` makes it VARIADIC homogeneous, a `type_list_attr`
 *    VARIADIC heterogeneous (its type is then the list attr's name). min_in
 *    counts 1 for each single arg and the attr's `minimum` for each list;
 *    max_in is NNAV_OP_UNBOUNDED when any arg is a list (outputs alike).
 *  - each attr: its name, the kind the reader gives a node's AttrValue of
 *    that type ("int" NNAV_ATTR_INT, "list(type)" NNAV_ATTR_TF_TYPES, ...),
 *    required when it has no default_value, the default as nnav_op_default.
 *    Sorted by name.
 *  - each "type" or "list(type)" attr a type constraint: its allowed_values
 *    as type strings; n_allowed 0 when it lists none (any type).
 *  - deprecation present: deprecated.
 * An OpDef TensorFlow would refuse (a DataType or attr type it does not know,
 * an arg naming an attr that is absent or of the wrong kind, a default of
 * another kind than its attr, malformed bytes in a default, allowed_values
 * or deprecation, two attrs of one name, an empty name) is left out with a
 * warning naming its byte offset and field path; the file opens as before.
 * Nothing here recurses: a default is read one level deep (a func by its
 * name, a tensor by its dtype and shape, a shape by its dims).
 * All that is converted lives in the reader's arena until close. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "opschema.h"
#include "sbuf.h"
#include "tf_walk.h"

enum {
    AD_NAME = NNAV_TF_OPDEF_ATTRDEF_NAME,
    AD_TYPE = NNAV_TF_OPDEF_ATTRDEF_TYPE,
    AD_DEFAULT = NNAV_TF_OPDEF_ATTRDEF_DEFAULT_VALUE,
    AD_DESC = NNAV_TF_OPDEF_ATTRDEF_DESCRIPTION,
    AD_HAS_MIN = NNAV_TF_OPDEF_ATTRDEF_HAS_MINIMUM,
    AD_MIN = NNAV_TF_OPDEF_ATTRDEF_MINIMUM,
    AD_ALLOWED = NNAV_TF_OPDEF_ATTRDEF_ALLOWED_VALUES,
    DEP_VERSION = NNAV_TF_OPDEPRECATION_VERSION,
    DEP_EXPLANATION = NNAV_TF_OPDEPRECATION_EXPLANATION,
};

/* Beyond this many OpDefs in one model the rest are not converted (TensorFlow
 * registers about 1500 ops; a list longer than this is a crafted file). */
#define TF_MAX_OPDEFS 100000u
/* Items of a list default shown in its text before "... (N in all)". */
#define TEXT_ITEMS 64

/* ---- type strings ---- */

static const char *const onnx_types[NNAV_DT_MAX + 1] = {
    [NNAV_DT_FLOAT] = "tensor(float)", [NNAV_DT_UINT8] = "tensor(uint8)",
    [NNAV_DT_INT8] = "tensor(int8)", [NNAV_DT_UINT16] = "tensor(uint16)",
    [NNAV_DT_INT16] = "tensor(int16)", [NNAV_DT_INT32] = "tensor(int32)",
    [NNAV_DT_INT64] = "tensor(int64)", [NNAV_DT_STRING] = "tensor(string)",
    [NNAV_DT_BOOL] = "tensor(bool)", [NNAV_DT_FLOAT16] = "tensor(float16)",
    [NNAV_DT_DOUBLE] = "tensor(double)", [NNAV_DT_UINT32] = "tensor(uint32)",
    [NNAV_DT_UINT64] = "tensor(uint64)", [NNAV_DT_COMPLEX64] = "tensor(complex64)",
    [NNAV_DT_COMPLEX128] = "tensor(complex128)", [NNAV_DT_BFLOAT16] = "tensor(bfloat16)",
    [NNAV_DT_FLOAT8E4M3FN] = "tensor(float8e4m3fn)",
    [NNAV_DT_FLOAT8E4M3FNUZ] = "tensor(float8e4m3fnuz)",
    [NNAV_DT_FLOAT8E5M2] = "tensor(float8e5m2)",
    [NNAV_DT_FLOAT8E5M2FNUZ] = "tensor(float8e5m2fnuz)", [NNAV_DT_UINT4] = "tensor(uint4)",
    [NNAV_DT_INT4] = "tensor(int4)", [NNAV_DT_FLOAT4E2M1] = "tensor(float4e2m1)",
    [NNAV_DT_FLOAT8E8M0] = "tensor(float8e8m0)", [NNAV_DT_UINT2] = "tensor(uint2)",
    [NNAV_DT_INT2] = "tensor(int2)",
};

/* The type string of an nnav element type: ONNX's for the types ONNX has
 * (nnav_op_tensor_type_str's), "tensor(NAME)" with the reader's name for a
 * TensorFlow-only type; NULL for none. */
static const char *type_str(int32_t dt)
{
    if (dt > 0 && dt <= NNAV_DT_MAX)
        return onnx_types[dt];
    switch (dt) {
    case NNAV_DT_TF_QINT8: return "tensor(qint8)";
    case NNAV_DT_TF_QUINT8: return "tensor(quint8)";
    case NNAV_DT_TF_QINT32: return "tensor(qint32)";
    case NNAV_DT_TF_QINT16: return "tensor(qint16)";
    case NNAV_DT_TF_QUINT16: return "tensor(quint16)";
    case NNAV_DT_TF_RESOURCE: return "tensor(resource)";
    case NNAV_DT_TF_VARIANT: return "tensor(variant)";
    case NNAV_DT_TF_FLOAT8E4M3B11FNUZ: return "tensor(float8e4m3b11fnuz)";
    case NNAV_DT_TF_INT4: return "tensor(int4)";
    case NNAV_DT_TF_UINT4: return "tensor(uint4)";
    case NNAV_DT_TF_INT2: return "tensor(int2)";
    case NNAV_DT_TF_UINT2: return "tensor(uint2)";
    case NNAV_DT_TF_FLOAT4E2M1FN: return "tensor(float4e2m1fn)";
    }
    return NULL;
}

/* A type as the reader names it in an attribute's text (values.c). */
static const char *type_word(int32_t dt)
{
    if (dt == 0)
        return "invalid";
    return nnav_dtype_valid(dt) ? nnav_dtype_name(dt) : "unknown";
}

/* ---- attr kinds ---- */

static const struct {
    const char *word;
    uint8_t kind;
} kinds[] = {
    {"string", NNAV_ATTR_STRING},        {"int", NNAV_ATTR_INT},
    {"float", NNAV_ATTR_FLOAT},          {"bool", NNAV_ATTR_TF_BOOL},
    {"type", NNAV_ATTR_TF_TYPE},         {"shape", NNAV_ATTR_TF_SHAPE},
    {"tensor", NNAV_ATTR_TENSOR},        {"func", NNAV_ATTR_TF_FUNC},
    {"list(string)", NNAV_ATTR_STRINGS}, {"list(int)", NNAV_ATTR_INTS},
    {"list(float)", NNAV_ATTR_FLOATS},   {"list(bool)", NNAV_ATTR_TF_BOOLS},
    {"list(type)", NNAV_ATTR_TF_TYPES},  {"list(shape)", NNAV_ATTR_TF_SHAPES},
    {"list(tensor)", NNAV_ATTR_TENSORS}, {"list(func)", NNAV_ATTR_TF_FUNCS},
};

static uint8_t kind_of(nnav_span word)
{
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (nnav_span_eqs(word, kinds[i].word))
            return kinds[i].kind;
    return 0;
}

static const char *word_of(uint8_t kind)
{
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
        if (kinds[i].kind == kind)
            return kinds[i].word;
    return "none";
}

static int is_list_kind(uint8_t k)
{
    return k == NNAV_ATTR_STRINGS || k == NNAV_ATTR_INTS || k == NNAV_ATTR_FLOATS ||
           k == NNAV_ATTR_TF_BOOLS || k == NNAV_ATTR_TF_TYPES || k == NNAV_ATTR_TF_SHAPES ||
           k == NNAV_ATTR_TENSORS || k == NNAV_ATTR_TF_FUNCS;
}

/* ---- one OpDef being converted ---- */

typedef struct od_arg {
    nnav_span name, type_attr, number_attr, type_list_attr;
    uint64_t type;  /* DataType as written, 0 none */
    uint64_t off;
} od_arg;

typedef struct od_attr {
    nnav_span name, type, def, allowed;
    uint64_t off;
    int64_t minimum;
    uint8_t has_def, has_allowed, has_min, kind;
    uint32_t index; /* position in the OpDef */
    const char *cname;
} od_attr;

/* An AttrValue as read: its member, and a list's items. */
typedef struct od_value {
    uint8_t kind;  /* NNAV_ATTR_* of the member; NNAV_ATTR_TF_LIST: an empty list */
    uint64_t v;    /* a scalar member's varint or float bits */
    nnav_span s;   /* a scalar member's bytes (string, shape, tensor, func) */
    NNAV_VEC(uint64_t) nums;   /* a list's ints, bools, types or float bits */
    NNAV_VEC(nnav_span) items; /* a list's strings, shapes, tensors or funcs */
    int oom;
} od_value;

typedef struct odc {
    tfw *w;
    NNAV_VEC(od_arg) args; /* inputs, then outputs */
    NNAV_VEC(od_attr) attrs;
    uint32_t n_in;
    int oom;
    /* The first problem found: where and what. */
    char path[160], why[240];
    uint64_t off;
} odc;

/* Note a problem (the first one stays); returns 1, "malformed". */
static int bad(odc *c, uint64_t off, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int bad(odc *c, uint64_t off, const char *path, const char *fmt, ...)
{
    va_list ap;
    c->off = off;
    snprintf(c->path, sizeof c->path, "%s", path);
    va_start(ap, fmt);
    vsnprintf(c->why, sizeof c->why, fmt, ap);
    va_end(ap);
    return 1;
}

static uint64_t offs(odc *c, nnav_span s) { return off_of(c->w, s); }

/* A span's bytes as a NUL-terminated string in the arena; NULL when out of
 * memory. A NUL inside ends the string early (only a default's string value
 * may hold one; names with one are refused before). */
static const char *cstr(odc *c, nnav_span s)
{
    if (s.n > (uint64_t)SIZE_MAX - 32) {
        c->oom = 1;
        return NULL;
    }
    char *p = nnav_tf_alloc(c->w->tf, (size_t)s.n + 1);
    if (!p) {
        c->oom = 1;
        return NULL;
    }
    if (s.n)
        memcpy(p, s.p, (size_t)s.n);
    p[s.n] = 0;
    return p;
}

static int name_ok(nnav_span s) { return s.n && !memchr(s.p, 0, (size_t)s.n); }

static int span_cmp(nnav_span a, nnav_span b)
{
    uint64_t n = a.n < b.n ? a.n : b.n;
    int k = n ? memcmp(a.p, b.p, (size_t)n) : 0;
    return k ? k : (a.n > b.n) - (a.n < b.n);
}

static int attr_cmp(const void *x, const void *y)
{
    const od_attr *a = x, *b = y;
    int k = span_cmp(a->name, b->name);
    return k ? k : (a->index > b->index) - (a->index < b->index);
}

static od_attr *find_attr(odc *c, nnav_span name)
{
    uint32_t lo = 0, hi = c->attrs.n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int k = span_cmp(c->attrs.v[mid].name, name);
        if (!k)
            return &c->attrs.v[mid];
        if (k < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* ---- reading the bytes ---- */

static int read_arg(odc *c, nnav_span s, const char *path)
{
    od_arg *a = nnav_vec_push(c->args);
    if (!a)
        return c->oom = 1, -1;
    a->off = offs(c, s);
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    int k;
    winit(c->w, &r, s);
    while ((k = nnav_wire_next(&r, &f, &e)) == 1) {
        int len = f.num == ARG_NAME || f.num == ARG_TYPE_ATTR || f.num == ARG_NUMBER_ATTR ||
                  f.num == ARG_TYPE_LIST_ATTR || f.num == ARG_DESC || f.num == ARG_HANDLE ||
                  f.num == ARG_FULL_TYPE;
        int var = f.num == ARG_TYPE || f.num == ARG_IS_REF;
        if ((len && f.wt != NNAV_WT_LEN) || (var && f.wt != NNAV_WT_VARINT))
            return bad(c, f.off, path, "field %u has wire type %u", f.num, f.wt);
        switch (f.num) {
        case ARG_NAME: a->name = f.s; break;
        case ARG_TYPE_ATTR: a->type_attr = f.s; break;
        case ARG_NUMBER_ATTR: a->number_attr = f.s; break;
        case ARG_TYPE_LIST_ATTR: a->type_list_attr = f.s; break;
        case ARG_TYPE:
            a->type = f.v;
            if (f.v && nnav_tf_dtype(f.v) == -1)
                return bad(c, f.off, path, "type %llu is not a DataType", (unsigned long long)f.v);
            break;
        }
    }
    if (k < 0)
        return bad(c, e.offset, path, "%s", e.msg);
    return 0;
}

static int read_attr(odc *c, nnav_span s, uint32_t index, const char *path)
{
    od_attr *a = nnav_vec_push(c->attrs);
    if (!a)
        return c->oom = 1, -1;
    a->off = offs(c, s);
    a->index = index;
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    int k;
    winit(c->w, &r, s);
    while ((k = nnav_wire_next(&r, &f, &e)) == 1) {
        int len = f.num == AD_NAME || f.num == AD_TYPE || f.num == AD_DEFAULT ||
                  f.num == AD_DESC || f.num == AD_ALLOWED;
        int var = f.num == AD_HAS_MIN || f.num == AD_MIN;
        if ((len && f.wt != NNAV_WT_LEN) || (var && f.wt != NNAV_WT_VARINT))
            return bad(c, f.off, path, "field %u has wire type %u", f.num, f.wt);
        switch (f.num) {
        case AD_NAME: a->name = f.s; break;
        case AD_TYPE: a->type = f.s; break;
        case AD_DEFAULT: a->def = f.s, a->has_def = 1; break;
        case AD_ALLOWED: a->allowed = f.s, a->has_allowed = 1; break;
        case AD_HAS_MIN: a->has_min = f.v != 0; break;
        case AD_MIN: a->minimum = (int64_t)f.v; break;
        }
    }
    if (k < 0)
        return bad(c, e.offset, path, "%s", e.msg);
    return 0;
}

/* A message's fields are well formed, each LEN field's too when `deep`
 * (a TensorShapeProto's dims): 0, or 1 with the problem noted. */
static int check_msg(odc *c, nnav_span s, int deep, const char *path)
{
    nnav_wire r, d;
    nnav_field f, g;
    nnav_error e;
    int k;
    winit(c->w, &r, s);
    while ((k = nnav_wire_next(&r, &f, &e)) == 1) {
        if (!deep || f.wt != NNAV_WT_LEN)
            continue;
        winit(c->w, &d, f.s);
        while ((k = nnav_wire_next(&d, &g, &e)) == 1)
            ;
        if (k < 0)
            return bad(c, e.offset, path, "%s", e.msg);
    }
    return k < 0 ? bad(c, e.offset, path, "%s", e.msg) : 0;
}

static const uint8_t list_kinds[NNAV_TF_ATTRVALUE_LISTVALUE_FUNC + 1] = {
    [NNAV_TF_ATTRVALUE_LISTVALUE_S] = NNAV_ATTR_STRINGS,
    [NNAV_TF_ATTRVALUE_LISTVALUE_I] = NNAV_ATTR_INTS,
    [NNAV_TF_ATTRVALUE_LISTVALUE_F] = NNAV_ATTR_FLOATS,
    [NNAV_TF_ATTRVALUE_LISTVALUE_B] = NNAV_ATTR_TF_BOOLS,
    [NNAV_TF_ATTRVALUE_LISTVALUE_TYPE] = NNAV_ATTR_TF_TYPES,
    [NNAV_TF_ATTRVALUE_LISTVALUE_SHAPE] = NNAV_ATTR_TF_SHAPES,
    [NNAV_TF_ATTRVALUE_LISTVALUE_TENSOR] = NNAV_ATTR_TENSORS,
    [NNAV_TF_ATTRVALUE_LISTVALUE_FUNC] = NNAV_ATTR_TF_FUNCS};

static int push_num(void *ctx, uint64_t v)
{
    od_value *val = ctx;
    uint64_t *slot = nnav_vec_push(val->nums);
    if (!slot)
        return val->oom = 1, -1;
    *slot = v;
    return 0;
}

/* A ListValue: one kind of item (a second kind is malformed). */
static int read_list(odc *c, nnav_span s, od_value *val, const char *path)
{
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    int k;
    char p[200];
    val->kind = NNAV_ATTR_TF_LIST;
    winit(c->w, &r, s);
    while ((k = nnav_wire_next(&r, &f, &e)) == 1) {
        if (f.num < NNAV_TF_ATTRVALUE_LISTVALUE_S || f.num > NNAV_TF_ATTRVALUE_LISTVALUE_FUNC)
            continue; /* unknown to the schema: as protobuf, skipped */
        uint8_t kind = list_kinds[f.num];
        snprintf(p, sizeof p, "%s.%s", path, word_of(kind));
        if (val->kind != NNAV_ATTR_TF_LIST && val->kind != kind)
            return bad(c, f.off, p, "a list of %s after a list of %s", word_of(kind),
                       word_of(val->kind));
        val->kind = kind;
        if (f.num >= NNAV_TF_ATTRVALUE_LISTVALUE_I && f.num <= NNAV_TF_ATTRVALUE_LISTVALUE_TYPE) {
            uint8_t ewt = f.num == NNAV_TF_ATTRVALUE_LISTVALUE_F ? NNAV_WT_I32 : NNAV_WT_VARINT;
            uint32_t before = val->nums.n;
            if (nnav_wire_scalars(&f, ewt, push_num, val, &e, c->w->base) < 0)
                return val->oom ? (c->oom = 1, -1) : bad(c, f.off, p, "%s", e.msg);
            if (f.num == NNAV_TF_ATTRVALUE_LISTVALUE_TYPE)
                for (uint32_t i = before; i < val->nums.n; i++)
                    if (nnav_tf_dtype(val->nums.v[i]) == -1)
                        return bad(c, f.off, p, "item %u: %llu is not a DataType", i,
                                   (unsigned long long)val->nums.v[i]);
            continue;
        }
        if (f.wt != NNAV_WT_LEN)
            return bad(c, f.off, p, "field %u has wire type %u", f.num, f.wt);
        if (f.num >= NNAV_TF_ATTRVALUE_LISTVALUE_SHAPE &&
            check_msg(c, f.s, f.num == NNAV_TF_ATTRVALUE_LISTVALUE_SHAPE, p))
            return 1;
        nnav_span *slot = nnav_vec_push(val->items);
        if (!slot)
            return c->oom = 1, -1;
        *slot = f.s;
    }
    return k < 0 ? bad(c, e.offset, path, "%s", e.msg) : 0;
}

/* An AttrValue: its member (the last written, as a oneof reads). */
static int read_value(odc *c, nnav_span s, od_value *val, const char *path)
{
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    int k;
    char p[200];
    static const uint8_t scalar[11] = {
        [2] = NNAV_ATTR_STRING, [3] = NNAV_ATTR_INT, [4] = NNAV_ATTR_FLOAT,
        [5] = NNAV_ATTR_TF_BOOL, [6] = NNAV_ATTR_TF_TYPE, [7] = NNAV_ATTR_TF_SHAPE,
        [8] = NNAV_ATTR_TENSOR, [9] = NNAV_ATTR_TF_PLACEHOLDER, [10] = NNAV_ATTR_TF_FUNC};
    static const char *const names[11] = {"", "list", "s", "i", "f", "b", "type", "shape",
                                          "tensor", "placeholder", "func"};
    winit(c->w, &r, s);
    while ((k = nnav_wire_next(&r, &f, &e)) == 1) {
        if (f.num < 1 || f.num > 10)
            continue;
        snprintf(p, sizeof p, "%s.%s", path, names[f.num]);
        uint8_t ewt = f.num == TF_AV_F ? NNAV_WT_I32
                      : (f.num == TF_AV_I || f.num == TF_AV_B || f.num == TF_AV_TYPE)
                          ? NNAV_WT_VARINT : NNAV_WT_LEN;
        if (f.wt != ewt)
            return bad(c, f.off, p, "wire type %u where %u was expected", f.wt, ewt);
        val->nums.n = val->items.n = 0;
        val->v = 0;
        val->s = (nnav_span){0};
        if (f.num == TF_AV_LIST) {
            int rc = read_list(c, f.s, val, p);
            if (rc)
                return rc;
            continue;
        }
        val->kind = scalar[f.num];
        val->v = f.v;
        val->s = f.s;
        if (f.num == TF_AV_TYPE && nnav_tf_dtype(f.v) == -1)
            return bad(c, f.off, p, "%llu is not a DataType", (unsigned long long)f.v);
        if ((f.num == TF_AV_SHAPE || f.num == TF_AV_TENSOR || f.num == TF_AV_FUNC) &&
            check_msg(c, f.s, f.num == TF_AV_SHAPE, p))
            return 1;
    }
    return k < 0 ? bad(c, e.offset, path, "%s", e.msg) : 0;
}

/* ---- rendering a default ---- */

/* A NameAttrList's name, or a TensorProto's dtype and shape, as text. */
static void func_text(odc *c, nnav_span s, nnav_sbuf *b)
{
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    nnav_span name = {0};
    char raw[256];
    winit(c->w, &r, s);
    while (nnav_wire_next(&r, &f, &e) == 1)
        if (f.num == NNAV_TF_NAMEATTRLIST_NAME && f.wt == NNAV_WT_LEN)
            name = f.s;
    /* As written: the text is escaped where it is shown. */
    size_t k = name.n < sizeof raw - 1 ? (size_t)name.n : sizeof raw - 1;
    if (k)
        memcpy(raw, name.p, k);
    raw[k] = 0;
    nnav_sb_put(b, raw);
}

static void tensor_text(odc *c, nnav_span s, nnav_sbuf *b)
{
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    nnav_span shape = {0};
    int32_t dt = 0;
    char sh[256];
    winit(c->w, &r, s);
    while (nnav_wire_next(&r, &f, &e) == 1) {
        if (f.num == TF_T_DTYPE && f.wt == NNAV_WT_VARINT)
            dt = nnav_tf_dtype(f.v);
        else if (f.num == TF_T_SHAPE && f.wt == NNAV_WT_LEN)
            shape = f.s;
    }
    nnav_tf_shape_format(c->w->base, shape, sh, sizeof sh);
    nnav_sb_printf(b, "tensor %s%s", type_word(dt), shape.p ? sh : "[]");
}

static void item_text(odc *c, uint8_t kind, const od_value *val, uint32_t i, nnav_sbuf *b)
{
    char sh[256];
    switch (kind) {
    case NNAV_ATTR_TF_BOOL: case NNAV_ATTR_TF_BOOLS:
        nnav_sb_put(b, (kind == NNAV_ATTR_TF_BOOL ? val->v : val->nums.v[i]) ? "true" : "false");
        break;
    case NNAV_ATTR_TF_TYPE: case NNAV_ATTR_TF_TYPES:
        nnav_sb_put(b, type_word(nnav_tf_dtype(kind == NNAV_ATTR_TF_TYPE ? val->v : val->nums.v[i])));
        break;
    case NNAV_ATTR_TF_SHAPE: case NNAV_ATTR_TF_SHAPES:
        nnav_tf_shape_format(c->w->base, kind == NNAV_ATTR_TF_SHAPE ? val->s : val->items.v[i], sh,
                             sizeof sh);
        nnav_sb_put(b, sh);
        break;
    case NNAV_ATTR_TENSOR: case NNAV_ATTR_TENSORS:
        tensor_text(c, kind == NNAV_ATTR_TENSOR ? val->s : val->items.v[i], b);
        break;
    case NNAV_ATTR_TF_FUNC: case NNAV_ATTR_TF_FUNCS:
        func_text(c, kind == NNAV_ATTR_TF_FUNC ? val->s : val->items.v[i], b);
        break;
    }
}

/* The default of attr a, whose value val has been read. 0, 1 malformed,
 * -1 out of memory. */
static int make_default(odc *c, const od_attr *a, od_value *val, nnav_op_default *d,
                        const char *path)
{
    uint8_t kind = val->kind;
    if (!kind)
        return bad(c, offs(c, a->def), path, "holds no value");
    if (kind == NNAV_ATTR_TF_LIST && is_list_kind(a->kind))
        kind = a->kind; /* an empty list of the attr's kind */
    if (kind != a->kind)
        return bad(c, offs(c, a->def), path, "a %s where the attr's type is %s",
                   kind == NNAV_ATTR_TF_PLACEHOLDER ? "placeholder"
                   : kind == NNAV_ATTR_TF_LIST      ? "empty list"
                                                    : word_of(kind),
                   word_of(a->kind));
    memset(d, 0, sizeof *d);
    d->kind = kind;
    int list = is_list_kind(kind);
    uint32_t count = list ? (val->items.n ? val->items.n : val->nums.n) : 1;
    d->count = list ? count : 0;
    switch (kind) {
    case NNAV_ATTR_INT: d->i = (int64_t)val->v; return 0;
    case NNAV_ATTR_FLOAT: {
        float fl;
        uint32_t bits = (uint32_t)val->v;
        memcpy(&fl, &bits, 4);
        d->f = fl;
        return 0;
    }
    case NNAV_ATTR_STRING: return (d->s = cstr(c, val->s)) ? 0 : -1;
    case NNAV_ATTR_INTS: case NNAV_ATTR_FLOATS: case NNAV_ATTR_TF_BOOLS: case NNAV_ATTR_TF_TYPES: {
        if (!count && (kind == NNAV_ATTR_INTS || kind == NNAV_ATTR_FLOATS))
            return 0;
        if (!count)
            break;
        if (kind == NNAV_ATTR_FLOATS) {
            double *v = nnav_tf_alloc(c->w->tf, (size_t)count * sizeof *v);
            if (!v)
                return c->oom = 1, -1;
            for (uint32_t i = 0; i < count; i++) {
                float fl;
                uint32_t bits = (uint32_t)val->nums.v[i];
                memcpy(&fl, &bits, 4);
                v[i] = fl;
            }
            d->floats = v;
            return 0;
        }
        int64_t *v = nnav_tf_alloc(c->w->tf, (size_t)count * sizeof *v);
        if (!v)
            return c->oom = 1, -1;
        for (uint32_t i = 0; i < count; i++)
            v[i] = kind == NNAV_ATTR_TF_TYPES ? nnav_tf_dtype(val->nums.v[i])
                   : kind == NNAV_ATTR_TF_BOOLS ? val->nums.v[i] != 0
                                                : (int64_t)val->nums.v[i];
        d->ints = v;
        if (kind == NNAV_ATTR_INTS)
            return 0;
        break;
    }
    case NNAV_ATTR_STRINGS: {
        if (!count)
            return 0;
        const char **v = nnav_tf_alloc(c->w->tf, (size_t)count * sizeof *v);
        if (!v)
            return c->oom = 1, -1;
        for (uint32_t i = 0; i < count; i++)
            if (!(v[i] = cstr(c, val->items.v[i])))
                return -1;
        d->strings = v;
        return 0;
    }
    case NNAV_ATTR_TF_BOOL: case NNAV_ATTR_TF_TYPE:
        d->i = kind == NNAV_ATTR_TF_BOOL ? val->v != 0 : nnav_tf_dtype(val->v);
        break;
    }
    /* Kinds ONNX lacks (and lists whose items are not numbers): text. */
    char buf[1024];
    nnav_sbuf b = {buf, sizeof buf, 0};
    buf[0] = 0;
    if (!list) {
        item_text(c, kind, val, 0, &b);
    } else {
        nnav_sb_put(&b, "[");
        for (uint32_t i = 0; i < count; i++) {
            if (i)
                nnav_sb_put(&b, ", ");
            if (i == TEXT_ITEMS) {
                nnav_sb_printf(&b, "... (%u in all)", count);
                break;
            }
            item_text(c, kind, val, i, &b);
        }
        nnav_sb_put(&b, "]");
    }
    return (d->text = cstr(c, (nnav_span){(const uint8_t *)buf, strlen(buf)})) ? 0 : -1;
}

/* ---- one OpDef ---- */

static void value_free(od_value *v)
{
    nnav_vec_free(v->nums);
    nnav_vec_free(v->items);
}

/* Formals of args [first, first + n). */
static int make_formals(odc *c, uint32_t first, uint32_t n, int output, nnav_op_formal **out,
                        int32_t *min, int32_t *max, const char **counts)
{
    nnav_op_formal *fm = n ? nnav_tf_alloc(c->w->tf, (size_t)n * sizeof *fm) : NULL;
    if (n && !fm)
        return c->oom = 1, -1;
    int64_t lo = 0;
    int variadic = 0;
    char p[64];
    for (uint32_t i = 0; i < n; i++) {
        const od_arg *a = &c->args.v[first + i];
        snprintf(p, sizeof p, "%s[%u]", output ? "output_arg" : "input_arg", i);
        if (!name_ok(a->name))
            return bad(c, a->off, p, "no name");
        memset(&fm[i], 0, sizeof fm[i]);
        if (!(fm[i].name = cstr(c, a->name)))
            return -1;
        int kinds_set = (a->type != 0) + (a->type_attr.n != 0) + (a->type_list_attr.n != 0);
        if (kinds_set != 1)
            return bad(c, a->off, p, "%s of type, type_attr and type_list_attr set",
                       kinds_set ? "more than one" : "none");
        if (a->type_list_attr.n && a->number_attr.n)
            return bad(c, a->off, p, "both number_attr and type_list_attr set");
        if (a->type) {
            fm[i].type = type_str(nnav_tf_dtype(a->type));
            if (!fm[i].type)
                return bad(c, a->off, p, "type %llu has no type string",
                           (unsigned long long)a->type);
        } else {
            nnav_span ref = a->type_attr.n ? a->type_attr : a->type_list_attr;
            uint8_t want = a->type_attr.n ? NNAV_ATTR_TF_TYPE : NNAV_ATTR_TF_TYPES;
            const od_attr *t = find_attr(c, ref);
            char nb[80];
            if (!t || t->kind != want)
                return bad(c, a->off, p, "%s \"%s\" is %s", a->type_attr.n ? "type_attr"
                                                                           : "type_list_attr",
                           q(ref, nb, 64), t ? "not of its kind" : "no attr of the op");
            fm[i].type = t->cname;
        }
        if (a->number_attr.n || a->type_list_attr.n) {
            nnav_span ref = a->number_attr.n ? a->number_attr : a->type_list_attr;
            const od_attr *t = find_attr(c, ref);
            char nb[80];
            if (a->number_attr.n && (!t || t->kind != NNAV_ATTR_INT))
                return bad(c, a->off, p, "number_attr \"%s\" is %s", q(ref, nb, 64),
                           t ? "not an int attr" : "no attr of the op");
            fm[i].option = NNAV_OPF_VARIADIC;
            fm[i].homogeneous = a->number_attr.n != 0;
            counts[first + i] = t->cname;
            variadic = 1;
            lo += t->has_min && t->minimum > 0 ? (t->minimum > INT32_MAX ? INT32_MAX : t->minimum)
                                                : 0;
        } else {
            lo += 1;
        }
        if (lo > INT32_MAX)
            lo = INT32_MAX;
    }
    *out = fm;
    *min = (int32_t)lo;
    *max = variadic ? NNAV_OP_UNBOUNDED : (int32_t)(n > INT32_MAX ? INT32_MAX : n);
    return 0;
}

static int tc_cmp(const void *x, const void *y)
{
    return strcmp(((const nnav_op_tc *)x)->param, ((const nnav_op_tc *)y)->param);
}

/* Convert the OpDef in s into *sc: 0 done, 1 malformed (c->path, c->why),
 * -1 out of memory. */
static int convert(odc *c, nnav_span s, nnav_op_schema *sc, const char ***counts)
{
    nnav_wire r;
    nnav_field f;
    nnav_error e;
    int k, rc;
    nnav_span name = {0};
    uint8_t deprecated = 0;
    uint32_t idx[3] = {0}, nattr = 0;
    char p[64];
    memset(sc, 0, sizeof *sc);
    /* inputs first, then outputs: two passes keep each in its order */
    for (int pass = 0; pass < 2; pass++) {
        winit(c->w, &r, s);
        while ((k = nnav_wire_next(&r, &f, &e)) == 1) {
            if (f.num == (pass ? OP_OUTPUT : OP_INPUT)) {
                snprintf(p, sizeof p, "%s[%u]", pass ? "output_arg" : "input_arg", idx[pass]++);
                if (f.wt != NNAV_WT_LEN)
                    return bad(c, f.off, p, "wire type %u", f.wt);
                if ((rc = read_arg(c, f.s, p)))
                    return rc;
                continue;
            }
            if (pass)
                continue;
            if ((f.num == OP_NAME || f.num == OP_ATTR || f.num == OP_DEPRECATION) &&
                f.wt != NNAV_WT_LEN)
                return bad(c, f.off, f.num == OP_NAME ? "name" : f.num == OP_ATTR ? "attr"
                                                                                   : "deprecation",
                           "wire type %u", f.wt);
            if (f.num == OP_NAME) {
                name = f.s;
            } else if (f.num == OP_ATTR) {
                snprintf(p, sizeof p, "attr[%u]", nattr);
                if ((rc = read_attr(c, f.s, nattr++, p)))
                    return rc;
            } else if (f.num == OP_DEPRECATION) {
                deprecated = 1;
                nnav_wire d;
                nnav_field g;
                winit(c->w, &d, f.s);
                while ((k = nnav_wire_next(&d, &g, &e)) == 1)
                    if ((g.num == DEP_VERSION && g.wt != NNAV_WT_VARINT) ||
                        (g.num == DEP_EXPLANATION && g.wt != NNAV_WT_LEN))
                        return bad(c, g.off, "deprecation", "field %u has wire type %u", g.num,
                                   g.wt);
                if (k < 0)
                    return bad(c, e.offset, "deprecation", "%s", e.msg);
            }
        }
        if (k < 0)
            return bad(c, e.offset, "", "%s", e.msg);
        if (!pass)
            c->n_in = c->args.n;
    }
    if (!name_ok(name))
        return bad(c, offs(c, s), "name", name.n ? "holds a NUL byte" : "is empty");
    sc->domain = NNAV_OP_DOMAIN_MODEL;
    if (!(sc->name = cstr(c, name)))
        return -1;
    sc->deprecated = deprecated;

    /* attrs: by name, each of a known type, no name twice */
    if (c->attrs.n > 1)
        qsort(c->attrs.v, c->attrs.n, sizeof *c->attrs.v, attr_cmp);
    for (uint32_t i = 0; i < c->attrs.n; i++) {
        od_attr *a = &c->attrs.v[i];
        char nb[80];
        snprintf(p, sizeof p, "attr[%u]", a->index);
        if (!name_ok(a->name))
            return bad(c, a->off, p, "name %s", a->name.n ? "holds a NUL byte" : "is empty");
        if (i && !span_cmp(a->name, c->attrs.v[i - 1].name))
            return bad(c, a->off, p, "a second attr \"%s\"", q(a->name, nb, 64));
        if (!(a->kind = kind_of(a->type)))
            return bad(c, a->off, p, "type \"%s\" is none TensorFlow knows", q(a->type, nb, 64));
        if (!(a->cname = cstr(c, a->name)))
            return -1;
    }
    nnav_op_attr *at = c->attrs.n ? nnav_tf_alloc(c->w->tf, (size_t)c->attrs.n * sizeof *at) : NULL;
    if (c->attrs.n && !at)
        return c->oom = 1, -1;
    uint32_t ntc = 0;
    for (uint32_t i = 0; i < c->attrs.n; i++) {
        od_attr *a = &c->attrs.v[i];
        memset(&at[i], 0, sizeof at[i]);
        at[i].name = a->cname;
        at[i].type = a->kind;
        at[i].required = !a->has_def;
        at[i].has_default = a->has_def;
        ntc += a->kind == NNAV_ATTR_TF_TYPE || a->kind == NNAV_ATTR_TF_TYPES;
        if (a->has_def) {
            od_value val;
            memset(&val, 0, sizeof val);
            snprintf(p, sizeof p, "attr[%u].default_value", a->index);
            rc = read_value(c, a->def, &val, p);
            if (!rc)
                rc = make_default(c, a, &val, &at[i].def, p);
            value_free(&val);
            if (rc)
                return rc;
        }
    }
    sc->attrs = at;
    sc->n_attrs = c->attrs.n;

    /* type constraints: every type attr, with its allowed types */
    nnav_op_tc *tc = ntc ? nnav_tf_alloc(c->w->tf, (size_t)ntc * sizeof *tc) : NULL;
    if (ntc && !tc)
        return c->oom = 1, -1;
    ntc = 0;
    for (uint32_t i = 0; i < c->attrs.n; i++) {
        od_attr *a = &c->attrs.v[i];
        if (a->kind != NNAV_ATTR_TF_TYPE && a->kind != NNAV_ATTR_TF_TYPES) {
            /* Other allowed values (a string attr's "SAME", "VALID") have no
             * place in a schema; they must still be well formed. */
            if (a->has_allowed) {
                od_value val;
                memset(&val, 0, sizeof val);
                snprintf(p, sizeof p, "attr[%u].allowed_values", a->index);
                rc = read_value(c, a->allowed, &val, p);
                value_free(&val);
                if (rc)
                    return rc;
            }
            continue;
        }
        nnav_op_tc *t = &tc[ntc++];
        memset(t, 0, sizeof *t);
        t->param = a->cname;
        if (!a->has_allowed)
            continue;
        od_value val;
        memset(&val, 0, sizeof val);
        snprintf(p, sizeof p, "attr[%u].allowed_values", a->index);
        rc = read_value(c, a->allowed, &val, p);
        if (!rc && val.kind != NNAV_ATTR_TF_TYPES && val.kind != NNAV_ATTR_TF_LIST)
            rc = bad(c, offs(c, a->allowed), p, "a %s where a list of types was expected",
                     word_of(val.kind));
        if (!rc && val.nums.n) {
            const char **al = nnav_tf_alloc(c->w->tf, (size_t)val.nums.n * sizeof *al);
            if (!al)
                rc = -1, c->oom = 1;
            for (uint32_t j = 0; !rc && j < val.nums.n; j++)
                if (!(al[j] = type_str(nnav_tf_dtype(val.nums.v[j]))))
                    rc = bad(c, offs(c, a->allowed), p, "item %u: type %llu has no type string",
                             j, (unsigned long long)val.nums.v[j]);
            t->allowed = al;
            t->n_allowed = val.nums.n;
        }
        value_free(&val);
        if (rc)
            return rc;
    }
    if (ntc > 1)
        qsort(tc, ntc, sizeof *tc, tc_cmp);
    sc->tcs = tc;
    sc->n_tcs = ntc;

    nnav_op_formal *in, *out;
    const char **cnt = c->args.n ? nnav_tf_alloc(c->w->tf, (size_t)c->args.n * sizeof *cnt) : NULL;
    if (c->args.n && !cnt)
        return c->oom = 1, -1;
    for (uint32_t i = 0; i < c->args.n; i++)
        cnt[i] = NULL;
    if ((rc = make_formals(c, 0, c->n_in, 0, &in, &sc->min_in, &sc->max_in, cnt)) ||
        (rc = make_formals(c, c->n_in, c->args.n - c->n_in, 1, &out, &sc->min_out, &sc->max_out,
                           cnt)))
        return rc;
    *counts = cnt;
    sc->in = in;
    sc->n_in = c->n_in;
    sc->out = out;
    sc->n_out = c->args.n - c->n_in;
    return 0;
}

/* The field path of stripped_op_list in this file's words. */
void tf_opdefs_where(const tfw *w, uint32_t meta, char *buf, size_t n)
{
    if (w->m->facts.format == NNAV_FMT_TF_SAVEDMODEL)
        snprintf(buf, n, "meta_graphs[%u].meta_info_def.stripped_op_list", meta);
    else
        snprintf(buf, n, "meta_info_def.stripped_op_list");
}

int tf_opdefs_add(tfw *w)
{
    odc c;
    memset(&c, 0, sizeof c);
    c.w = w;
    char where[96], nb[80];
    tf_opdefs_where(w, w->cur_meta, where, sizeof where);
    int rc = 0;
    for (uint32_t i = 0; i < w->ops.n && rc == 0; i++) {
        if (w->opdefs.n >= TF_MAX_OPDEFS) {
            if (nnav_tf_warn(w->m, "%s: more than %u op definitions; the rest are not read", where,
                             TF_MAX_OPDEFS))
                rc = oom(w);
            break;
        }
        const tf_op *op = &w->ops.v[i];
        c.args.n = c.attrs.n = 0;
        c.n_in = 0;
        c.path[0] = c.why[0] = 0;
        nnav_op_schema sc;
        const char **counts = NULL;
        int k = convert(&c, op->msg, &sc, &counts);
        if (k < 0 || c.oom) {
            rc = oom(w);
        } else if (k > 0) {
            if (nnav_tf_warn(w->m, "%s.op[%u] (\"%s\") at byte %llu: %s%s%s; the op's definition "
                                   "is not used",
                             where, op->pos, q(op->name, nb, 64), (unsigned long long)c.off, c.path,
                             c.path[0] ? ": " : "", c.why))
                rc = oom(w);
        } else {
            tf_opdef *d = nnav_vec_push(w->opdefs);
            if (!d) {
                rc = oom(w);
                break;
            }
            d->s = sc;
            d->counts = counts;
            d->meta = w->cur_meta;
            d->pos = op->pos;
            d->msg = op->msg;
        }
    }
    nnav_vec_free(c.args);
    nnav_vec_free(c.attrs);
    return rc;
}

static int opdef_cmp(const void *x, const void *y)
{
    const tf_opdef *a = x, *b = y;
    int k = strcmp(a->s.name, b->s.name);
    if (k)
        return k;
    if (a->meta != b->meta)
        return a->meta < b->meta ? -1 : 1;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

int tf_opdefs_finish(tfw *w)
{
    if (!w->opdefs.n)
        return 0;
    qsort(w->opdefs.v, w->opdefs.n, sizeof *w->opdefs.v, opdef_cmp);
    nnav_op_schema *all = nnav_tf_alloc(w->tf, (size_t)w->opdefs.n * sizeof *all);
    const char *const **counts = nnav_tf_alloc(w->tf, (size_t)w->opdefs.n * sizeof *counts);
    if (!all || !counts)
        return oom(w);
    uint32_t n = 0, f = 0;
    char a[96], b[96], nb[80];
    for (uint32_t i = 0; i < w->opdefs.n; i++) {
        const tf_opdef *d = &w->opdefs.v[i];
        if (n && !strcmp(all[n - 1].name, d->s.name)) {
            /* The first stays; one the same in another meta graph is no news. */
            const tf_opdef *first = &w->opdefs.v[f];
            if (first->meta == d->meta || !nnav_span_same(first->msg, d->msg)) {
                tf_opdefs_where(w, first->meta, a, sizeof a);
                tf_opdefs_where(w, d->meta, b, sizeof b);
                if (nnav_tf_warn(w->m, "%s.op[%u] (\"%s\") at byte %llu: defined again (first: "
                                       "%s.op[%u]); the first is used",
                                 b, d->pos, q((nnav_span){(const uint8_t *)d->s.name,
                                                           strlen(d->s.name)}, nb, 64),
                                 (unsigned long long)off_of(w, d->msg), a, first->pos))
                    return oom(w);
            }
            continue;
        }
        f = i;
        counts[n] = d->counts;
        all[n++] = d->s;
    }
    w->m->op_schemas = all;
    w->m->op_schema_count = n;
    w->m->op_count_attrs = counts;
    return 0;
}
