/* fuzz_struct.c - structure-aware fuzzing of the typed view and export.
 *
 * The input is not a file: its bytes are the choices of a generator that
 * writes a VALID ONNX ModelProto (names defined before use, one producer per
 * name, bodies and functions well formed), so that every input gets past the
 * reader and into the shape rules, costs, checks and exports, where the
 * mutations of a file-level fuzzer rarely arrive. What the bytes choose:
 *  - operators by index into nnav_shape_rules (so a new rule is fuzzed with
 *    no change here), a few ops without a rule (other domains, unknown names,
 *    an empty op type), If/Loop/Scan/SequenceMap with small bodies that read
 *    outer values, and calls of up to two model-local functions (the second
 *    may call the first) whose bodies take attributes by ref_attr_name;
 *  - attribute names from those the rules read (FUZZ_RULE_ATTRS, collected
 *    from src/shape*.c at configure time) and values from dictionaries of
 *    edge integers (INT64_MIN/MAX, +-2^62, the old in-band symbol range
 *    INT64_MIN+1 .. INT64_MIN+1+2^32 and values just inside it, 2^31, 2^32,
 *    0, -1, 1, 2, 3...), floats (NaN, inf, -0), strings and lists of them;
 *    a "flood" node carries every rule attribute at once, from one list of
 *    such values, so an op meets the ones it reads together;
 *  - input types: fixed dims, dim_param names (some hostile), unknown dims,
 *    unknown rank, rank 0..6, sequences and optionals, most sharing one
 *    rank and per-axis sizes so that ops find operands that fit; omitted
 *    inputs (""); a third of the operands are graph inputs or initializers,
 *    whose types are known;
 *  - INT64 initializers and Constant nodes, preferred as later operands, so
 *    that shape computations fold; the odd sparse initializer.
 * Sizes are bounded (at most MAX_NODES nodes in all, rank <= 6, lists <= 12
 * items). Once the bytes run out, the choices go on from a xorshift stream
 * seeded with a hash of all of them: a short input still makes a model of
 * some size, and a mutation anywhere changes its tail (breadth: random
 * models find more than small edits of a few), while the leading bytes stay
 * the fuzzer's to steer (depth). The same bytes always give the same model.
 *
 * Each model is opened (it must open: a refusal is a bug in the generator or
 * the reader, and aborts), touched as every target does (fuzz_common.h),
 * inferred again with --dim bindings, every fact, dim, reason, node and
 * graph cost rendered (no control byte may come out), every graph exported
 * to ONNX and some to YAML (the main graph's ONNX export must open again),
 * run through one CLI command in-process (cost --nodes --dim, check,
 * shapes, info, nodes --shapes, node, or a YAML form; their output goes to
 * /dev/null, sanitizer reports still reach stderr), and last its folded
 * values are rendered as dims.
 *
 * FUZZ_STRUCT_OUT=FILE writes the model of each input run to FILE: that is
 * how a crash input becomes a regression model for tests/fuzz/regressions:
 *   FUZZ_STRUCT_OUT=model.onnx build-fz/tests/fuzz_struct CRASH_INPUT
 * FUZZ_STRUCT_OUT=DIR/ (a trailing slash) only converts: each input's model
 * is written as DIR/HASH.onnx and nothing is run (-runs=0 over a corpus
 * gives models to check with other tools or to seed the file-level targets). */
#include "fuzz_common.h"

#include <fcntl.h>
#include <math.h>
#include <sanitizer/common_interface_defs.h>

#include "cli.h"
#include "export.h"
#include "fuzz_rule_attrs.h"
#include "shape_int.h"

/* FN_NODES of the MAX_NODES go to function bodies at most, so the main
 * graph always gets some. */
enum { MAX_NODES = 64, FN_NODES = 24, MAX_VALUES = 1024, MAX_SCOPE = 256, MAX_DEPTH = 3,
       MAX_LIST = 12, MAX_FN = 2 };

/* ---- the bytes, read front to back, then a stream they seed ---- */
typedef struct src {
    const uint8_t *p;
    size_t n, i;
    uint64_t x;         /* xorshift state, from a hash of all the bytes */
} src;

static src src_of(const uint8_t *p, size_t n)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211u;
    return (src){p, n, 0, h | 1};
}

static unsigned u8(src *s)
{
    if (s->i < s->n)
        return s->p[s->i++];
    s->x ^= s->x << 13, s->x ^= s->x >> 7, s->x ^= s->x << 17;
    return (unsigned)(s->x >> 56);
}
static unsigned pick(src *s, unsigned n) { return n ? u8(s) % n : 0; }
static unsigned pick16(src *s, unsigned n)
{
    unsigned v = u8(s);
    v = v << 8 | u8(s);
    return n ? v % n : 0;
}

/* ---- a protobuf writer: varints, fixed32/64, length-delimited ---- */
typedef struct pb {
    uint8_t *p;
    size_t n, cap;
    int oom;
} pb;

static void pb_raw(pb *b, const void *d, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + n)
            cap *= 2;
        uint8_t *q = realloc(b->p, cap);
        if (!q) {
            b->oom = 1;
            return;
        }
        b->p = q, b->cap = cap;
    }
    if (n)
        memcpy(b->p + b->n, d, n);
    b->n += n;
}

static size_t varint(uint8_t *out, uint64_t v)
{
    size_t k = 0;
    do {
        out[k++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    return k;
}

static void pb_varint(pb *b, uint64_t v)
{
    uint8_t t[10];
    pb_raw(b, t, varint(t, v));
}

static void pb_tag(pb *b, unsigned field, unsigned wire) { pb_varint(b, (uint64_t)field << 3 | wire); }
static void pb_int(pb *b, unsigned f, int64_t v) { pb_tag(b, f, 0), pb_varint(b, (uint64_t)v); }
static void pb_bytes(pb *b, unsigned f, const void *d, size_t n)
{
    pb_tag(b, f, 2), pb_varint(b, n), pb_raw(b, d, n);
}
static void pb_str(pb *b, unsigned f, const char *s) { pb_bytes(b, f, s, strlen(s)); }
static void pb_f32(pb *b, unsigned f, float v)
{
    uint8_t t[4];
    uint32_t u;
    memcpy(&u, &v, 4);
    for (int i = 0; i < 4; i++)
        t[i] = (uint8_t)(u >> (8 * i));
    pb_tag(b, f, 5), pb_raw(b, t, 4);
}

/* A nested message (or packed list): open writes the tag, close inserts the
 * length in front of what was written since. */
static size_t pb_open(pb *b, unsigned f)
{
    pb_tag(b, f, 2);
    return b->n;
}

static void pb_close(pb *b, size_t at)
{
    if (b->oom)
        return;
    uint8_t t[10];
    size_t len = b->n - at, k = varint(t, len);
    pb_raw(b, t, k); /* grow by k */
    if (b->oom)
        return;
    memmove(b->p + at + k, b->p + at, len);
    memcpy(b->p + at, t, k);
}

static void le(uint8_t *out, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = (uint8_t)(v >> (8 * i));
}

/* ---- dictionaries ---- */
#define SYM0 (INT64_MIN + 1)
static const int64_t EDGE[] = {
    INT64_MIN, SYM0, SYM0 + 1, INT64_MIN + 5, SYM0 + ((int64_t)1 << 31),
    SYM0 + ((int64_t)1 << 32) - 1, SYM0 + ((int64_t)1 << 32), SYM0 + ((int64_t)1 << 32) + 1,
    INT64_MAX, INT64_MAX - 1, (int64_t)1 << 62, -((int64_t)1 << 62), ((int64_t)1 << 62) + 1,
    -INT64_MAX, (int64_t)1 << 32, ((int64_t)1 << 32) - 1, (int64_t)1 << 31,
    ((int64_t)1 << 31) - 1, -((int64_t)1 << 31), -((int64_t)1 << 32), (int64_t)1 << 40,
    (int64_t)1 << 53, INT32_MAX, INT32_MIN, 0, -1, 1, 2, 3, -2, -3, 4, 5, 7, 8, 16, 64, 1000,
};
static const int64_t DIMS[] = {1, 2, 3, 4, 5, 7, 8, 16, 32, 64, 224, 0};
static const float FLOATS[] = {0.0f, 1.0f, -1.0f, 0.5f, 2.0f, 3.0f, 1e-5f, -0.0f, 1e30f,
                               4.0f, 100.0f, 0.25f, 3.4e38f, 1e-45f, 1.5f, -2.5f};
static const char *const STRINGS[] = {
    "", "SAME_UPPER", "SAME_LOWER", "VALID", "NOTSET", "forward", "reverse", "bidirectional",
    "none", "mean", "sum", "stretch", "not_larger", "not_smaller", "nearest", "linear", "cubic",
    "NCHW", "NHWC", "constant", "reflect", "edge", "ij,jk->ik", "...ij,...jk->...ik",
    "bij,bjk->bik", "i,i->", "ii->i", "abc->cba", "a...,b...->ab...", "->", ",", "ij->",
    "i->ii", "...", "a,b,c,d,e,f,g->", "LOWER", "UPPER", "\x1b[31mred", "a\342\200\213b",
    "half_pixel", "asymmetric", "round_prefer_floor"};
/* dim_param names, the last ones hostile to a terminal or to a formatter
 * that spells sizes as expressions. */
static const char *const DIM_NAMES[] = {"N", "batch", "seq", "h", "w", "C", "seq*4",
                                        "(h-3)/2+1", "?", "", "\x1b[2J", "n\xcc\x81"};
static const char *const EXTRA_ATTRS[] = {"alpha", "beta", "gamma", "epsilon", "mode",
                                          "seed", "ratio", "training_mode", "a", "b"};
static const char *const RULE_ATTRS[] = {FUZZ_RULE_ATTRS};
enum { N_RULE_ATTRS = sizeof RULE_ATTRS / sizeof *RULE_ATTRS,
       N_EXTRA = sizeof EXTRA_ATTRS / sizeof *EXTRA_ATTRS };
static const int32_t DTYPES[] = {1, 7, 9, 6, 11, 10, 16, 2, 3, 8, 4, 5, 12, 13, 14, 15,
                                 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 0, 99};
/* Ops without a rule: other domains, unknown names, an empty op type. */
static const struct { const char *dom, *op; } NORULE[] = {
    {"", "NoSuchOp"}, {"com.microsoft", "FusedConv"}, {"com.microsoft", "Attention"},
    {"ai.onnx.ml", "LinearRegressor"}, {"ai.onnx", "NotAnOp"}, {"local", "NotAFunction"},
    {"", ""}, {"com.microsoft", "Conv"}};
/* Ops whose outputs are integer tensors (preferred as shape operands). */
static const char *const INT_OPS[] = {"Shape", "Size", "NonZero", "ArgMax", "ArgMin",
                                      "Range", "TopK", "Unique", "SequenceLength", NULL};

static int64_t edge_int(src *s)
{
    unsigned c = u8(s);
    if (c < 128)
        return EDGE[c % (sizeof EDGE / sizeof *EDGE)];
    if (c < 208)
        return (int64_t)(c & 15) - 4;
    if (c < 216) { /* eight bytes of the input as they are */
        uint64_t v = 0;
        for (int i = 0; i < 8; i++)
            v = v << 8 | u8(s);
        return (int64_t)v;
    }
    return (int64_t)(c - 216); /* 0..39 */
}

static float edge_float(src *s)
{
    unsigned c = u8(s);
    if (c < 16)
        return FLOATS[c];
    if (c < 20)
        return c == 16 ? NAN : c == 17 ? INFINITY : c == 18 ? -INFINITY : -NAN;
    return (float)((int)(c % 32) - 8) / 4.0f;
}

/* ---- the generator ---- */
typedef struct fn_sig {
    char name[8];
    unsigned nin, nout;
} fn_sig;

typedef struct gen {
    src s;
    pb b;
    unsigned nodes;     /* nodes written, all graphs */
    unsigned limit;     /* gen_nodes stops at this many */
    unsigned nvals;
    char names[MAX_VALUES][12];
    int64_t opset;
    /* Most tensor types share one rank and, axis by axis, one size (a number
     * or a dim_param), as the values of a real model do: ops that need equal
     * ranks or matching sizes (Conv's input and weight, MatMul) meet them. */
    int rank;
    int64_t base[6];    /* a number, or -1 - k for DIM_NAMES[k] */
    fn_sig fn[MAX_FN];
    unsigned nfn;
    unsigned nrules;
} gen;

enum { K_ANY = 0, K_INT, K_BOOL };
typedef struct scope {
    const char *name[MAX_SCOPE];
    uint8_t kind[MAX_SCOPE];
    unsigned n;
    unsigned roots;     /* the first ones: graph (or function) inputs and initializers,
                           whose types the file gives */
} scope;

/* A fresh value name, unique in the model; NULL when the table is full. */
static const char *fresh(gen *g, char prefix)
{
    if (g->nvals == MAX_VALUES)
        return NULL;
    char *nm = g->names[g->nvals];
    snprintf(nm, sizeof g->names[0], "%c%u", prefix, g->nvals);
    g->nvals++;
    return nm;
}

static void add(scope *sc, const char *name, uint8_t kind)
{
    if (name && name[0] && sc->n < MAX_SCOPE) {
        sc->name[sc->n] = name;
        sc->kind[sc->n++] = kind;
    }
}

/* An input: a value in scope (integer ones when `want_int` and the bytes
 * agree), or "" (omitted). Many are roots: after a few random ops a
 * value's type is mostly unknown, and a rule with no shapes to work on
 * stops early. */
static const char *pick_input(gen *g, const scope *sc, int want_int, int data)
{
    unsigned c = u8(&g->s);
    if (sc->n == 0 || c < 12)
        return "";
    /* Operand 0 (data) is a root two times in three. */
    unsigned roots = data ? 180 : 96;
    unsigned i = u8(&g->s) % (c < roots && sc->roots ? sc->roots : sc->n);
    if (want_int || (!data && (c & 1))) {
        for (unsigned k = 0; k < sc->n; k++)
            if (sc->kind[(i + k) % sc->n] == K_INT)
                return sc->name[(i + k) % sc->n];
    }
    return sc->name[i];
}

static void gen_dims(gen *g, pb *b, unsigned field, int rank)
{
    for (int i = 0; i < rank; i++) {
        size_t d = pb_open(b, field);
        unsigned c = u8(&g->s) % 12;
        int64_t v = i < 6 ? g->base[i] : 1;
        if (c < 6 && v >= 0)
            pb_int(b, 1, v);
        else if (c < 6)
            pb_str(b, 2, DIM_NAMES[-1 - v]);
        else if (c < 9)
            pb_int(b, 1, DIMS[pick(&g->s, sizeof DIMS / sizeof *DIMS)]);
        else if (c == 9)
            pb_int(b, 1, edge_int(&g->s));
        else if (c == 10)
            pb_str(b, 2, DIM_NAMES[pick(&g->s, sizeof DIM_NAMES / sizeof *DIM_NAMES)]);
        /* else: a Dimension with neither, an unknown size */
        pb_close(b, d);
    }
}

static int32_t pick_dtype(gen *g, int kind)
{
    unsigned c = u8(&g->s);
    if (kind == K_INT && c < 224)
        return 7;
    if (kind == K_BOOL && c < 224)
        return 9;
    if (c < 128)
        return 1;
    return DTYPES[c % (sizeof DTYPES / sizeof *DTYPES)];
}

/* A tensor type (or, now and then, a sequence or optional of one). */
static void gen_tensor_type(gen *g, pb *b, int kind)
{
    size_t t = pb_open(b, 1);
    pb_int(b, 1, pick_dtype(g, kind));
    unsigned c = u8(&g->s);
    if (c >= 24) { /* else the rank is unknown */
        size_t sh = pb_open(b, 2);
        gen_dims(g, b, 1, c < 160 ? g->rank : (int)(c % 7));
        pb_close(b, sh);
    }
    pb_close(b, t);
}

static void gen_type(gen *g, pb *b, unsigned field, int kind)
{
    size_t t = pb_open(b, field);
    unsigned c = u8(&g->s);
    if (c == 1 || c == 2) { /* sequence (4) or optional (9) of a tensor */
        size_t w = pb_open(b, c == 1 ? 4 : 9);
        size_t e = pb_open(b, 1);
        gen_tensor_type(g, b, kind);
        pb_close(b, e);
        pb_close(b, w);
    } else {
        gen_tensor_type(g, b, kind);
    }
    pb_close(b, t);
}

static void gen_value_info(gen *g, pb *b, unsigned field, const char *name, int kind,
                           int typed)
{
    size_t v = pb_open(b, field);
    pb_str(b, 1, name);
    if (typed)
        gen_type(g, b, 2, kind);
    pb_close(b, v);
}

/* A small tensor whose element count matches its dims: INT64 for K_INT
 * (shape operands, folded), else mostly FLOAT, in typed fields or raw. */
static void gen_tensor(gen *g, pb *b, unsigned field, const char *name, int kind)
{
    size_t t = pb_open(b, field);
    int32_t dt = pick_dtype(g, kind);
    unsigned shape = u8(&g->s) % 8, d0 = 0, d1 = 1;
    if (shape == 0) {
        d0 = 1; /* a scalar: one element, no dims */
    } else {
        d0 = pick(&g->s, 9);
        pb_int(b, 1, d0);
        if (shape == 7) {
            d1 = 1 + pick(&g->s, 3);
            pb_int(b, 1, d1);
        }
    }
    unsigned n = d0 * d1, raw = u8(&g->s) & 1;
    pb_int(b, 2, dt);
    if (dt == 8) { /* STRING */
        for (unsigned i = 0; i < n; i++)
            pb_str(b, 6, STRINGS[pick(&g->s, sizeof STRINGS / sizeof *STRINGS)]);
    } else if (dt == 7 || dt == 13 || dt == 6 || dt == 12 || dt == 5 || dt == 4 || dt == 3 ||
               dt == 2 || dt == 9) {
        unsigned size = dt == 7 || dt == 13 ? 8 : dt == 6 || dt == 12 ? 4 : dt == 5 || dt == 4 ? 2 : 1;
        unsigned f = dt == 7 ? 7 : dt == 13 || dt == 12 ? 11 : 5;
        if (raw) {
            uint8_t buf[8 * 24];
            for (unsigned i = 0; i < n; i++)
                le(buf + i * size, (uint64_t)edge_int(&g->s), (int)size);
            pb_bytes(b, 9, buf, (size_t)n * size);
        } else {
            size_t l = pb_open(b, f);
            for (unsigned i = 0; i < n; i++) {
                int64_t v = edge_int(&g->s);
                /* The typed field holds the value as the type does. */
                if (size == 4)
                    v = dt == 6 ? (int32_t)v : (int64_t)(uint32_t)v;
                else if (size == 2)
                    v = dt == 5 ? (int16_t)v : (int64_t)(uint16_t)v;
                else if (size == 1)
                    v = dt == 3 ? (int8_t)v : dt == 9 ? (v & 1) : (int64_t)(uint8_t)v;
                pb_varint(b, (uint64_t)v);
            }
            pb_close(b, l);
        }
    } else if (dt == 1 || dt == 11) {
        unsigned size = dt == 1 ? 4 : 8;
        uint8_t buf[8 * 24];
        for (unsigned i = 0; i < n; i++) {
            float f = edge_float(&g->s);
            uint64_t u;
            if (size == 4) {
                uint32_t w;
                memcpy(&w, &f, 4);
                u = w;
            } else {
                double dbl = f;
                memcpy(&u, &dbl, 8);
            }
            le(buf + i * size, u, (int)size);
        }
        if (raw) {
            pb_bytes(b, 9, buf, (size_t)n * size);
        } else {
            size_t l = pb_open(b, dt == 1 ? 4 : 10);
            pb_raw(b, buf, (size_t)n * size);
            pb_close(b, l);
        }
    } else {
        /* Everything else as raw bytes of the type's width (sub-byte types
         * rounded up), which a reader checks against the dims. */
        unsigned bits = dt == 10 || dt == 16 ? 16 : dt == 14 ? 64 : dt == 15 ? 128 :
                        dt == 21 || dt == 22 || dt == 23 ? 4 : dt == 25 || dt == 26 ? 2 : 8;
        size_t len = ((size_t)n * bits + 7) / 8;
        uint8_t buf[16 * 24];
        for (size_t i = 0; i < len; i++)
            buf[i] = (uint8_t)u8(&g->s);
        pb_bytes(b, 9, buf, len);
    }
    if (name)
        pb_str(b, 8, name);
    pb_close(b, t);
}

static void gen_nodes(gen *g, pb *b, unsigned field, scope *sc, unsigned count, int depth,
                      int fn);

/* A body attribute: a graph with `nin` inputs (their names into `in`, added
 * to its own copy of the outer scope) and `nout` outputs. */
static void gen_body(gen *g, pb *b, const char *attr, const scope *outer, unsigned nin,
                     unsigned nout, int depth, int fn)
{
    size_t a = pb_open(b, 5);
    pb_str(b, 1, attr);
    pb_int(b, 20, 5); /* GRAPH */
    size_t gr = pb_open(b, 6);
    char gname[32];
    snprintf(gname, sizeof gname, "%s_%u", attr, g->nodes);
    pb_str(b, 2, gname);
    scope *sub = malloc(sizeof *sub);
    if (!sub) {
        g->b.oom = 1;
        return;
    }
    *sub = *outer;
    unsigned local = sub->n;
    for (unsigned i = 0; i < nin; i++) {
        const char *nm = fresh(g, 'b');
        if (!nm)
            nm = "";
        unsigned c = u8(&g->s);
        int kind = (c & 3) == 1 ? K_INT : K_ANY;
        gen_value_info(g, b, 11, nm, kind, c >= 64);
        add(sub, nm, (uint8_t)kind);
    }
    if (depth + 1 < MAX_DEPTH)
        gen_nodes(g, b, 1, sub, pick(&g->s, 6), depth + 1, fn);
    for (unsigned i = 0; i < nout; i++) {
        /* Mostly a value of the body's own, else one from outside. */
        unsigned c = u8(&g->s);
        const char *nm = "";
        if (sub->n > local && c >= 48)
            nm = sub->name[local + u8(&g->s) % (sub->n - local)];
        else if (sub->n)
            nm = sub->name[u8(&g->s) % sub->n];
        gen_value_info(g, b, 12, nm, K_ANY, c & 1);
    }
    free(sub);
    pb_close(b, gr);
    pb_close(b, a);
}

/* One attribute with a value chosen by the bytes; inside a function, some
 * refer to the caller's attributes instead. */
static void gen_attr(gen *g, pb *b, const char *name, int fn)
{
    size_t a = pb_open(b, 5);
    pb_str(b, 1, name);
    unsigned c = u8(&g->s);
    unsigned type = c % 10, typed = (c & 0xf0) != 0xf0;
    if (fn >= 0 && c >= 0xe0 && c < 0xf0) { /* a reference to the caller's "a" or "b" */
        pb_str(b, 21, c & 1 ? "b" : "a");
        pb_int(b, 20, c & 2 ? 7 : 2);
        pb_close(b, a);
        return;
    }
    switch (type) {
    case 0: case 1: case 2:
        if (typed)
            pb_int(b, 20, 2);
        pb_int(b, 3, edge_int(&g->s));
        break;
    case 3: case 4: case 5: {
        unsigned n = pick(&g->s, MAX_LIST + 1);
        if (typed || n == 0)
            pb_int(b, 20, 7);
        if (c & 0x10) { /* packed */
            size_t l = pb_open(b, 8);
            for (unsigned i = 0; i < n; i++)
                pb_varint(b, (uint64_t)edge_int(&g->s));
            pb_close(b, l);
        } else {
            for (unsigned i = 0; i < n; i++)
                pb_int(b, 8, edge_int(&g->s));
        }
        break;
    }
    case 6:
        if (typed)
            pb_int(b, 20, 1);
        pb_f32(b, 2, edge_float(&g->s));
        break;
    case 7: {
        unsigned n = pick(&g->s, MAX_LIST + 1);
        if (typed || n == 0)
            pb_int(b, 20, 6);
        for (unsigned i = 0; i < n; i++)
            pb_f32(b, 7, edge_float(&g->s));
        break;
    }
    case 8:
        if (c & 0x10) {
            unsigned n = pick(&g->s, 5);
            pb_int(b, 20, 8);
            for (unsigned i = 0; i < n; i++)
                pb_str(b, 9, STRINGS[pick(&g->s, sizeof STRINGS / sizeof *STRINGS)]);
        } else {
            if (typed)
                pb_int(b, 20, 3);
            if (u8(&g->s) < 32) { /* an equation or mode spelled by the bytes */
                char eq[16];
                unsigned n = pick(&g->s, sizeof eq);
                for (unsigned i = 0; i < n; i++)
                    eq[i] = "abij.,->"[u8(&g->s) & 7];
                pb_bytes(b, 4, eq, n);
            } else {
                pb_str(b, 4, STRINGS[pick(&g->s, sizeof STRINGS / sizeof *STRINGS)]);
            }
        }
        break;
    default:
        if (typed)
            pb_int(b, 20, 4);
        gen_tensor(g, b, 5, NULL, c & 0x10 ? K_INT : K_ANY);
        break;
    }
    pb_close(b, a);
}

static const char *attr_name(gen *g)
{
    unsigned i = pick16(&g->s, N_RULE_ATTRS + N_EXTRA);
    return i < N_RULE_ATTRS ? RULE_ATTRS[i] : EXTRA_ATTRS[i - N_RULE_ATTRS];
}

static int op_is(const char *op, const char *name) { return strcmp(op, name) == 0; }

/* Output kind: integer producers give K_INT; others follow their first input. */
static uint8_t out_kind(const char *op, uint8_t in0)
{
    for (const char *const *p = INT_OPS; *p; p++)
        if (op_is(op, *p))
            return K_INT;
    if (op_is(op, "Equal") || op_is(op, "Less") || op_is(op, "Greater") || op_is(op, "Not"))
        return K_BOOL;
    return in0;
}

static uint8_t kind_of(const scope *sc, const char *name)
{
    for (unsigned i = 0; i < sc->n; i++)
        if (sc->name[i] == name)
            return sc->kind[i];
    return K_ANY;
}

static void gen_node(gen *g, pb *b, unsigned field, scope *sc, int depth, int fn)
{
    const char *op, *dom = "";
    unsigned c = u8(&g->s), call = MAX_FN;
    /* Functions a node here may call: all at top level, earlier ones in a body. */
    unsigned callable = fn < 0 ? g->nfn : (unsigned)fn;
    if (c < 176) {
        op = nnav_shape_rules[pick16(&g->s, g->nrules)].op;
        if (c < 8)
            dom = "ai.onnx";
    } else if (c < 200) {
        op = "Constant";
    } else if (c < 216) {
        op = (const char *[]){"If", "Loop", "Scan", "SequenceMap"}[c & 3];
    } else if (c < 240 && callable) {
        call = pick(&g->s, callable);
        op = g->fn[call].name;
        dom = "local";
    } else {
        unsigned k = pick(&g->s, sizeof NORULE / sizeof *NORULE);
        op = NORULE[k].op, dom = NORULE[k].dom;
    }
    g->nodes++;
    size_t nd = pb_open(b, field);
    const char *ins[12];
    unsigned nin = 0, nout = 1 + pick(&g->s, 3), scans = 0;
    /* An ONNX-domain If/Loop/Scan/SequenceMap always has its bodies (empty
     * ones past MAX_DEPTH): a model without them would not be valid. */
    int bodies = !dom[0] || !strcmp(dom, "ai.onnx");
    if (call < MAX_FN) {
        nin = g->fn[call].nin - (u8(&g->s) < 16); /* now and then one short */
        nout = g->fn[call].nout;
        for (unsigned i = 0; i < nin; i++)
            ins[i] = pick_input(g, sc, 0, 0);
    } else if (bodies && op_is(op, "If")) {
        ins[nin++] = pick_input(g, sc, 0, 0);
    } else if (bodies && op_is(op, "Loop")) {
        unsigned carried = pick(&g->s, 4);
        ins[nin++] = pick_input(g, sc, 1, 0); /* trip count */
        ins[nin++] = pick_input(g, sc, 0, 0); /* condition */
        for (unsigned i = 0; i < carried; i++)
            ins[nin++] = pick_input(g, sc, 0, 0);
        nout = carried + pick(&g->s, 3);
    } else if (bodies && op_is(op, "Scan")) {
        unsigned state = pick(&g->s, 3);
        scans = 1 + pick(&g->s, 3);
        for (unsigned i = 0; i < state + scans; i++)
            ins[nin++] = pick_input(g, sc, 0, 0);
        nout = state + pick(&g->s, 3);
    } else if (bodies && op_is(op, "SequenceMap")) {
        nin = 1 + pick(&g->s, 3);
        for (unsigned i = 0; i < nin; i++)
            ins[i] = pick_input(g, sc, 0, 0);
    } else if (op_is(op, "Constant")) {
        nout = 1;
    } else {
        /* Operand 0 is data; later ones are often shapes, axes, pads: integers. */
        nin = u8(&g->s) < 16 ? 0 : 1 + pick(&g->s, 6);
        for (unsigned i = 0; i < nin; i++)
            ins[i] = pick_input(g, sc, i > 0 && (u8(&g->s) & 1), i == 0);
    }
    for (unsigned i = 0; i < nin; i++)
        pb_str(b, 1, ins[i]);

    /* Attributes: the ones an op needs to be itself, then free choices. */
    if (call < MAX_FN) {
        if (u8(&g->s) & 1) {
            size_t a = pb_open(b, 5);
            unsigned k = u8(&g->s) & 1;
            pb_str(b, 1, "a");
            pb_int(b, 20, k ? 7 : 2);
            unsigned n = k ? pick(&g->s, MAX_LIST + 1) : 1;
            for (unsigned i = 0; i < n; i++)
                pb_int(b, k ? 8 : 3, edge_int(&g->s));
            pb_close(b, a);
        }
    } else if (op_is(op, "Constant")) {
        unsigned k = u8(&g->s) % 4;
        if (k < 2) {
            size_t a = pb_open(b, 5);
            pb_str(b, 1, "value");
            pb_int(b, 20, 4);
            gen_tensor(g, b, 5, NULL, k == 0 ? K_INT : K_ANY);
            pb_close(b, a);
        } else {
            size_t a = pb_open(b, 5);
            pb_str(b, 1, k == 2 ? "value_ints" : "value_int");
            pb_int(b, 20, k == 2 ? 7 : 2);
            unsigned n = k == 2 ? pick(&g->s, MAX_LIST + 1) : 1;
            for (unsigned i = 0; i < n; i++)
                pb_int(b, k == 2 ? 8 : 3, edge_int(&g->s));
            pb_close(b, a);
        }
    } else if (bodies && op_is(op, "If")) {
        unsigned k = 1 + pick(&g->s, 3);
        gen_body(g, b, "then_branch", sc, 0, nout, depth, fn);
        gen_body(g, b, "else_branch", sc, 0, u8(&g->s) < 16 ? k : nout, depth, fn);
    } else if (bodies && op_is(op, "Loop")) {
        unsigned carried = nin - 2;
        gen_body(g, b, "body", sc, 2 + carried, 1 + nout, depth, fn);
    } else if (bodies && op_is(op, "Scan")) {
        size_t a = pb_open(b, 5);
        pb_str(b, 1, "num_scan_inputs");
        pb_int(b, 20, 2);
        pb_int(b, 3, u8(&g->s) < 16 ? edge_int(&g->s) : (int64_t)scans);
        pb_close(b, a);
        gen_body(g, b, "body", sc, nin, nout, depth, fn);
    } else if (bodies && op_is(op, "SequenceMap")) {
        gen_body(g, b, "body", sc, nin, nout, depth, fn);
    }
    /* Names written already: a node has each attribute once. */
    const char *used[N_RULE_ATTRS + N_EXTRA + 4];
    unsigned nused = 0;
    used[nused++] = call < MAX_FN ? "a" : op_is(op, "If") ? "then_branch" : "value";
    used[nused++] = op_is(op, "If") ? "else_branch" : "body";
    used[nused++] = op_is(op, "Constant") ? "value_ints" : "num_scan_inputs";
    used[nused++] = "value_int";
    unsigned flood = u8(&g->s);
    if (call == MAX_FN && flood < 48) {
        /* Every name the rules read, with values from one shared list, so
         * an op meets the attributes it reads (pads with kernel_shape and
         * strides...) together without knowing which ones those are. Each
         * takes r values (one per spatial axis), 2r (begin and end), one,
         * or a count of its own, from a place in the list of its own. */
        int64_t v[MAX_LIST];
        unsigned r = u8(&g->s);
        r = g->rank > 2 && r < 192 ? (unsigned)g->rank - 2 : 1 + r % 4;
        for (unsigned i = 0; i < MAX_LIST; i++)
            v[i] = i < 2 * r || u8(&g->s) < 128 ? edge_int(&g->s) : v[i % (2 * r)];
        for (unsigned k = 0; k < N_RULE_ATTRS; k++) {
            /* Where in the list this one starts: pads may hold an edge value
             * while kernel_shape, from elsewhere, holds small sizes. */
            unsigned lc = u8(&g->s), off = u8(&g->s) % MAX_LIST;
            unsigned n = lc < 96 ? r : lc < 160 ? 2 * r : lc < 224 ? 1 : lc % (MAX_LIST + 1);
            int dup = 0;
            for (unsigned j = 0; j < nused; j++)
                dup |= !strcmp(used[j], RULE_ATTRS[k]);
            if (dup)
                continue;
            size_t a = pb_open(b, 5);
            pb_str(b, 1, RULE_ATTRS[k]);
            if (lc >= 192 && lc < 224) { /* INT */
                pb_int(b, 20, 2);
                pb_int(b, 3, v[off]);
            } else {
                pb_int(b, 20, 7);
                for (unsigned i = 0; i < n; i++)
                    pb_int(b, 8, v[(off + i) % MAX_LIST]);
            }
            pb_close(b, a);
        }
    } else if (call == MAX_FN || (flood & 1)) {
        unsigned na = pick(&g->s, 5);
        for (unsigned i = 0; i < na; i++) {
            const char *an = attr_name(g);
            int dup = 0;
            for (unsigned j = 0; j < nused; j++)
                dup |= !strcmp(used[j], an);
            if (dup)
                continue;
            used[nused++] = an;
            gen_attr(g, b, an, fn);
        }
    }

    uint8_t kind = out_kind(op, nin ? kind_of(sc, ins[0]) : K_ANY);
    if (op_is(op, "Constant"))
        kind = K_INT; /* mostly; a float one does no harm as an operand */
    for (unsigned i = 0; i < nout; i++) {
        const char *nm = fresh(g, 'v');
        if (!nm || (i > 0 && u8(&g->s) < 16))
            nm = ""; /* an optional output left unused */
        pb_str(b, 2, nm);
        add(sc, nm, i == 0 ? kind : K_ANY);
    }
    char nname[16];
    snprintf(nname, sizeof nname, "n%u", g->nodes);
    pb_str(b, 3, nname);
    pb_str(b, 4, op);
    if (dom[0])
        pb_str(b, 7, dom);
    pb_close(b, nd);
}

static void gen_nodes(gen *g, pb *b, unsigned field, scope *sc, unsigned count, int depth,
                      int fn)
{
    for (unsigned i = 0; i < count && g->nodes < g->limit && !g->b.oom; i++)
        gen_node(g, b, field, sc, depth, fn);
}

/* The ONNX domain at the chosen version, the other domains NORULE's ops
 * use, and "local" (the functions) where they are called. */
static void gen_opsets(gen *g, pb *b, unsigned field, int local)
{
    static const char *const doms[] = {"", "com.microsoft", "ai.onnx.ml", "local"};
    for (unsigned i = 0; i < (local ? 4u : 3u); i++) {
        size_t o = pb_open(b, field);
        pb_str(b, 1, doms[i]);
        pb_int(b, 2, i == 0 ? g->opset : 1);
        pb_close(b, o);
    }
}

/* Function k: "F<k>" in domain "local", attributes "a" (no default) and "b"
 * (default 1); its body may call the functions before it. */
static void gen_function(gen *g, unsigned k)
{
    pb *b = &g->b;
    fn_sig *f = &g->fn[k];
    snprintf(f->name, sizeof f->name, "F%u", k);
    f->nin = 1 + pick(&g->s, 3);
    f->nout = 1 + pick(&g->s, 2);
    size_t at = pb_open(b, 25);
    pb_str(b, 1, f->name);
    pb_str(b, 10, "local");
    scope *sc = calloc(1, sizeof *sc);
    if (!sc) {
        b->oom = 1;
        return;
    }
    for (unsigned i = 0; i < f->nin; i++) {
        const char *nm = fresh(g, 'x');
        if (!nm)
            nm = "";
        pb_str(b, 4, nm);
        add(sc, nm, (uint8_t)(u8(&g->s) & 1 ? K_INT : K_ANY));
    }
    sc->roots = sc->n;
    pb_str(b, 6, "a");
    size_t d = pb_open(b, 11);
    pb_str(b, 1, "b");
    pb_int(b, 20, 2);
    pb_int(b, 3, 1);
    pb_close(b, d);
    gen_opsets(g, b, 9, k > 0);
    gen_nodes(g, b, 7, sc, 1 + pick(&g->s, 8), 0, (int)k);
    for (unsigned i = 0; i < f->nout; i++) {
        /* A function's outputs are values its nodes make (its inputs when none). */
        const char *nm = sc->n > f->nin ? sc->name[f->nin + u8(&g->s) % (sc->n - f->nin)]
                                        : sc->name[u8(&g->s) % sc->n];
        pb_str(b, 5, nm);
    }
    free(sc);
    pb_close(b, at);
    g->nfn = k + 1;
}

static const int64_t OPSETS[] = {18, 13, 17, 11, 21, 7, 9, 10, 12, 14, 15, 16, 19, 20, 22, 23,
                                 1, 6, 8, 5};

/* The whole model into g->b. */
static void gen_model(gen *g)
{
    pb *b = &g->b;
    g->opset = OPSETS[pick(&g->s, sizeof OPSETS / sizeof *OPSETS)];
    g->rank = (int[]){4, 3, 4, 2, 5, 1, 3, 6, 0, 4}[pick(&g->s, 10)];
    for (int i = 0; i < 6; i++) {
        unsigned c = u8(&g->s);
        g->base[i] = c < 192 ? DIMS[c % (sizeof DIMS / sizeof *DIMS)]
                             : -1 - (int64_t)(c % (sizeof DIM_NAMES / sizeof *DIM_NAMES));
    }
    pb_int(b, 1, 3 + (int64_t)pick(&g->s, 12)); /* ir_version 3..14 */
    unsigned nfn = pick(&g->s, 4);
    nfn = nfn > MAX_FN ? MAX_FN : nfn;
    gen_opsets(g, b, 8, 1);
    pb_str(b, 2, "fuzz_struct");
    g->limit = FN_NODES;
    for (unsigned k = 0; k < nfn; k++)
        gen_function(g, k);
    g->limit = MAX_NODES;

    size_t gr = pb_open(b, 7);
    pb_str(b, 2, "main");
    scope *sc = calloc(1, sizeof *sc);
    if (!sc) {
        b->oom = 1;
        return;
    }
    unsigned nin = 1 + pick(&g->s, 4);
    for (unsigned i = 0; i < nin; i++) {
        const char *nm = fresh(g, 'i');
        unsigned c = u8(&g->s);
        int kind = c < 32 ? K_INT : c < 40 ? K_BOOL : K_ANY;
        gen_value_info(g, b, 11, nm, kind, 1);
        add(sc, nm, (uint8_t)kind);
    }
    unsigned ninit = pick(&g->s, 6);
    for (unsigned i = 0; i < ninit; i++) {
        const char *nm = fresh(g, 'w');
        int kind = u8(&g->s) < 160 ? K_INT : K_ANY;
        gen_tensor(g, b, 5, nm, kind);
        add(sc, nm, (uint8_t)kind);
    }
    if (u8(&g->s) < 24) { /* a sparse initializer: FLOAT values, INT64 indices */
        const char *nm = fresh(g, 's');
        unsigned nnz = pick(&g->s, 4), dense = 1 + pick(&g->s, 8), rank2 = u8(&g->s) & 1;
        size_t sp = pb_open(b, 15);
        size_t t = pb_open(b, 1);
        pb_int(b, 1, nnz);
        pb_int(b, 2, 1);
        size_t l = pb_open(b, 4);
        for (unsigned i = 0; i < nnz; i++) {
            float f = edge_float(&g->s);
            uint8_t w[4];
            uint32_t u;
            memcpy(&u, &f, 4);
            le(w, u, 4);
            pb_raw(b, w, 4);
        }
        pb_close(b, l);
        pb_str(b, 8, nm);
        pb_close(b, t);
        t = pb_open(b, 2);
        pb_int(b, 1, nnz);
        if (rank2)
            pb_int(b, 1, 2);
        pb_int(b, 2, 7);
        l = pb_open(b, 7);
        for (unsigned i = 0; i < nnz * (rank2 ? 2 : 1); i++)
            pb_varint(b, (uint64_t)(u8(&g->s) < 16 ? edge_int(&g->s) : (int64_t)pick(&g->s, dense)));
        pb_close(b, l);
        pb_close(b, t);
        if (rank2)
            pb_int(b, 3, 1);
        pb_int(b, 3, dense);
        pb_close(b, sp);
        add(sc, nm, K_ANY);
    }
    unsigned first = sc->roots = sc->n;
    gen_nodes(g, b, 1, sc, 1 + pick(&g->s, 48), 0, -1);
    /* Outputs: values the nodes made, mostly typed as the file would say. */
    unsigned nout = 1 + pick(&g->s, 3);
    for (unsigned i = 0; i < nout; i++) {
        unsigned c = u8(&g->s);
        const char *nm = sc->n > first && c >= 32 ? sc->name[first + u8(&g->s) % (sc->n - first)]
                                                 : sc->name[u8(&g->s) % sc->n];
        gen_value_info(g, b, 12, nm, K_ANY, c < 224);
    }
    /* value_info: what the file claims of inner values, for `check`. */
    unsigned nvi = sc->n > first ? pick(&g->s, 5) : 0;
    for (unsigned i = 0; i < nvi; i++)
        gen_value_info(g, b, 13, sc->name[first + u8(&g->s) % (sc->n - first)], K_ANY, 1);
    free(sc);
    pb_close(b, gr);
}

/* ---- what is run on each model ---- */
static int err_fd = -1, null_fd = -1;
static const char *out_path;

/* No control byte may reach a terminal through what the typed view renders. */
static void printable(const char *what, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; p && *p; p++)
        if (*p < 0x20 || *p == 0x7f) {
            fprintf(stderr, "fuzz_struct: a control byte 0x%02x in %s: \"%s\"\n", *p, what, s);
            abort();
        }
}

/* The view inferred with bindings, kept for the exports and folded values. */
static nnav_shapes *walk_typed(const nnav_model *m, src *s)
{
    static const int64_t BIND[] = {0, 1, 2, 3, 7, 64, (int64_t)1 << 31, (int64_t)1 << 32,
                                   (int64_t)1 << 40};
    nnav_bind bind[4];
    size_t nb = pick(s, 5);
    for (size_t i = 0; i < nb; i++)
        bind[i] = (nnav_bind){DIM_NAMES[pick(s, sizeof DIM_NAMES / sizeof *DIM_NAMES)],
                              BIND[pick(s, sizeof BIND / sizeof *BIND)]};
    nnav_shapes_opts so = {bind, nb};
    nnav_shapes *sh = nnav_shapes_infer(m, &so);
    if (!sh)
        return NULL;
    char buf[4096];
    for (uint32_t v = 0; v < nnav_value_count(m); v++) {
        const nnav_fact *f = nnav_shapes_fact(sh, v);
        nnav_shapes_value_format(sh, v, buf, sizeof buf);
        printable("a value's type", buf);
        if (!f)
            continue;
        nnav_fact_format(sh, f, buf, sizeof buf);
        printable("a fact", buf);
        printable("a reason", nnav_shapes_why(sh, f->why));
        if (f->rank > 0 && !f->not_tensor) {
            const nnav_dim *d = nnav_shapes_dims(sh, f->dims);
            for (int32_t i = 0; i < f->rank; i++) {
                nnav_dim_format(sh, d[i], buf, sizeof buf);
                printable("a dim", buf);
                nnav_dim_eval(sh, d[i]);
            }
        }
    }
    for (uint32_t n = 0; n <= nnav_node_count(m); n++)
        (void)nnav_shapes_node_cost(sh, n)->macs;
    for (uint32_t gi = 0; gi < nnav_graph_count(m); gi++) {
        nnav_cost c;
        nnav_shapes_stats st;
        nnav_shapes_graph_cost(sh, gi, &c);
        nnav_shapes_stats_get(sh, gi, &st);
    }
    nnav_shapes_assumed(sh, buf, sizeof buf);
    printable("the assumed bindings", buf);
    return sh;
}

/* Folded values as dims (nnav_shapes_folded has no caller in nnav itself:
 * run last, so what the CLI and the explorer reach is tried first). */
static void walk_folded(const nnav_model *m, const nnav_shapes *sh)
{
    if (!sh)
        return;
    char buf[256];
    for (uint32_t v = 0; v < nnav_value_count(m); v++) {
        const nnav_dim *fv;
        size_t nf = nnav_shapes_folded(sh, v, &fv);
        for (size_t i = 0; i < nf; i++) {
            nnav_dim_format(sh, fv[i], buf, sizeof buf);
            printable("a folded value", buf);
            nnav_dim_eval(sh, fv[i]);
        }
    }
}

/* A model nnav wrote must open again. */
static void reopen(const char *bytes, size_t len, const char *what)
{
    char path[64];
    int fd = fuzz_file((const uint8_t *)bytes, len, path, sizeof path);
    if (fd < 0)
        return;
    nnav_open_opts oo = {0};
    oo.force = 1 + NNAV_FMT_ONNX;
    nnav_model *m;
    nnav_error err;
    if (nnav_model_open(path, &oo, &m, &err) != 0) {
        char msg[512];
        nnav_error_format(&err, what, msg, sizeof msg);
        fprintf(stderr, "fuzz_struct: an export does not open again: %s\n", msg);
        abort();
    }
    nnav_shapes *sh = nnav_shapes_infer(m, NULL);
    nnav_shapes_free(sh);
    nnav_model_close(m);
    close(fd);
}

static void export_one(const nnav_model *m, const nnav_selection *sel, const nnav_shapes *sh,
                       int check_open, int yaml)
{
    nnav_export_opts o = {NNAV_EXPORT_YAML, 64, 1, 0, sh, 0};
    nnav_error err;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = yaml ? open_memstream(&buf, &len) : NULL;
    if (f) {
        nnav_export_yaml(m, sel, &o, f, &err);
        fclose(f);
        free(buf);
    }
    buf = NULL;
    f = open_memstream(&buf, &len);
    if (f) {
        o.format = NNAV_EXPORT_ONNX;
        int rc = nnav_export_onnx(m, sel, &o, f, NULL, NULL, &err);
        fclose(f);
        if (rc == 0 && check_open)
            reopen(buf, len, "exported model");
        free(buf);
    }
}

/* The main graph's exports infer the types themselves (the CLI's way);
 * the others borrow sh (the explorer's way), which also keeps a model of
 * many bodies from being inferred once per body. */
static void exports(const nnav_model *m, const nnav_shapes *sh, src *s)
{
    nnav_error err;
    uint32_t ng = nnav_graph_count(m);
    /* YAML is the slow writer: one selection of the ones below gets it. */
    unsigned yaml = pick(s, 4);
    uint32_t yaml_graph = pick(s, ng < 64 ? ng : 64);
    for (uint32_t g = 0; g < ng && g < 64; g++) {
        nnav_selection sel;
        if (nnav_select_graph(m, g, &sel, &err) != 0)
            continue;
        export_one(m, &sel, g == 0 ? NULL : sh, g == 0,
                   (yaml == 0 && g == 0) || (yaml == 1 && g == yaml_graph));
        nnav_selection_free(&sel);
    }
    uint32_t nn = nnav_node_count(m);
    if (nn) {
        nnav_selection sel;
        if (nnav_select_neighbours(m, pick(s, nn), 1 + pick(s, 3), &sel, &err) == 0) {
            export_one(m, &sel, sh, 0, yaml == 2);
            nnav_selection_free(&sel);
        }
        /* A few nodes of one graph, as marked in the explorer. */
        uint32_t pickd[8], np = 0, first = pick(s, nn);
        uint32_t gr = nnav_node_get(m, first)->graph;
        for (uint32_t i = first; i < nn && np < 8; i++)
            if (nnav_node_get(m, i)->graph == gr && (u8(s) & 1))
                pickd[np++] = i;
        if (np && nnav_select_nodes(m, pickd, np, &sel, &err) == 0) {
            export_one(m, &sel, sh, 0, yaml == 3);
            nnav_selection_free(&sel);
        }
    }
}

/* The CLI in-process, its output to /dev/null. Usage errors are ours. */
static void cli(const char *path, const char *const *args)
{
    char store[16][96];
    char *argv[18];
    int argc = 0;
    argv[argc++] = "nnav";
    for (int i = 0; args[i] && argc < 17; i++) {
        const char *a = strcmp(args[i], "@") == 0 ? path : args[i];
        snprintf(store[argc - 1], sizeof store[0], "%s", a);
        argv[argc] = store[argc - 1];
        argc++;
    }
    argv[argc] = NULL;
    fflush(stdout);
    fflush(stderr);
    if (null_fd >= 0)
        dup2(null_fd, 2);
    int rc = nnav_cli_run(argc, argv);
    fflush(stdout);
    fflush(stderr);
    if (err_fd >= 0)
        dup2(err_fd, 2);
    if (rc == 1) {
        fprintf(stderr, "fuzz_struct: usage error from nnav %s\n", args[0]);
        abort();
    }
}

/* One command per model (each opens and infers anew: the cost of two inputs
 * run through the API); main_nodes: the main graph's node count, for
 * `node #K`. */
static void run_cli(const char *path, src *s, uint32_t main_nodes)
{
    static const char *const one[][8] = {
        {"cost", "@", "--all", "--nodes", "--dim", "N=3", "--dim", "seq=1099511627776"},
        {"check", "@", "--all", NULL},
        {"shapes", "@", "--all", NULL},
        {"shapes", "@", "--all", "--yaml", NULL},
        {"cost", "@", "--all", "--yaml", "--nodes", NULL},
        {"check", "@", "--all", "--yaml", NULL},
        {"info", "@", NULL},
        {"nodes", "@", "--shapes", NULL},
        {"node", "@", "#K", "--yaml", NULL},
        {"node", "@", "#K", NULL},
    };
    const char *a[9] = {0};
    memcpy(a, one[pick(s, sizeof one / sizeof *one)], sizeof one[0]);
    char node[16];
    snprintf(node, sizeof node, "#%u", pick(s, main_nodes));
    if (a[2] && !strcmp(a[2], "#K")) {
        if (!main_nodes)
            return;
        a[2] = node;
    }
    cli(path, a);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    /* The CLI writes to stdout and, for check's findings, stderr: both go
     * to /dev/null during a run, while sanitizer reports keep the real stderr. */
    if (!freopen("/dev/null", "w", stdout))
        return 0;
    err_fd = dup(2);
    null_fd = open("/dev/null", O_WRONLY);
    if (err_fd >= 0)
        __sanitizer_set_report_fd((void *)(intptr_t)err_fd);
    out_path = getenv("FUZZ_STRUCT_OUT");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gen *g = calloc(1, sizeof *g);
    if (!g)
        return 0;
    g->s = src_of(data, size);
    while (nnav_shape_rules[g->nrules].op)
        g->nrules++;
    gen_model(g);
    if (g->b.oom) {
        free(g->b.p);
        free(g);
        return 0;
    }
    if (out_path) {
        size_t ol = strlen(out_path);
        int dir = ol && out_path[ol - 1] == '/';
        char name[4096];
        uint64_t h = 1469598103934665603u; /* FNV-1a of the input */
        for (size_t i = 0; i < size; i++)
            h = (h ^ data[i]) * 1099511628211u;
        snprintf(name, sizeof name, dir ? "%s%016llx.onnx" : "%s", out_path, (unsigned long long)h);
        FILE *f = fopen(name, "wb");
        if (f) {
            fwrite(g->b.p, 1, g->b.n, f);
            fclose(f);
        }
        if (dir) {
            free(g->b.p);
            free(g);
            return 0;
        }
    }
    char path[64];
    int fd = fuzz_file(g->b.p, g->b.n, path, sizeof path);
    if (fd >= 0) {
        nnav_open_opts oo = {0};
        oo.force = 1 + NNAV_FMT_ONNX;
        nnav_model *m;
        nnav_error err;
        if (nnav_model_open(path, &oo, &m, &err) != 0) {
            char msg[512];
            nnav_error_format(&err, "generated model", msg, sizeof msg);
            fprintf(stderr, "fuzz_struct: the generated model does not open: %s\n", msg);
            abort(); /* the generator writes valid models */
        }
        fuzz_touch(m);
        nnav_shapes *sh = walk_typed(m, &g->s);
        exports(m, sh, &g->s);
        run_cli(path, &g->s, nnav_graph_count(m) ? nnav_graph_get(m, 0)->node_count : 0);
        walk_folded(m, sh);
        nnav_shapes_free(sh);
        nnav_model_close(m);
        close(fd);
    }
    free(g->b.p);
    free(g);
    return 0;
}
