/* pickle.c - a pickle interpreter that runs nothing (pt.h).
 *
 * It knows the opcodes of protocols 0 to 5 and builds plain data in an arena
 * of objects (pk_obj): None, bools, ints, floats, str and bytes as spans of
 * the map, tuples, lists, dicts and sets as linked item lists. A global is a
 * name, never imported; a call of one is never made. Calls of the globals
 * torch's weights_only loader allows (the tensor rebuilders, typed storages,
 * OrderedDict, torch.Size) are understood for what they build; a call of any
 * other global gives an opaque object and is written down, with its
 * arguments as text, as what loading the file would run.
 *
 * Bounds: the stack, the marks, the objects and how far ahead a memo index
 * may jump are capped (pt.h); every length read from the stream is checked
 * against the bytes left; every fault is an error with its byte offset. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "pt.h"

typedef struct run {
    pk_state *st;
    const uint8_t *p, *end, *start;
    NNAV_VEC(uint32_t) stack;
    NNAV_VEC(uint32_t) marks;
    NNAV_VEC(uint32_t) memo;
    nnav_error *err;
    uint64_t op_off;
} run;

static uint64_t off_of(const run *r, const uint8_t *p) { return (uint64_t)(p - r->st->base); }

static int fail(run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(run *r, const char *fmt, ...)
{
    char m[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    nnav_err_set(r->err, r->op_off, 1, "%s", m);
    snprintf(r->err->path, sizeof r->err->path, "%s@%llu", r->st->what,
             (unsigned long long)r->op_off);
    r->err->kind = NNAV_ERR_INPUT;
    return -1;
}

static uint32_t new_obj(run *r, int kind)
{
    pk_state *st = r->st;
    if (st->objs.n >= PK_MAX_OBJS) {
        fail(r, "more than %u objects: refused", (unsigned)PK_MAX_OBJS);
        return NNAV_NONE;
    }
    pk_obj *o = nnav_vec_push(st->objs);
    if (!o) {
        fail(r, "out of memory");
        return NNAV_NONE;
    }
    o->kind = (uint8_t)kind;
    o->head = o->tail = o->a = o->b = o->size = o->stride = o->state = NNAV_NONE;
    o->off = r->op_off;
    return st->objs.n - 1;
}

static int add_item(run *r, uint32_t c, uint32_t item)
{
    pk_state *st = r->st;
    pk_link *l = nnav_vec_push(st->links);
    if (!l)
        return fail(r, "out of memory");
    l->obj = item;
    l->next = NNAV_NONE;
    uint32_t id = st->links.n - 1;
    pk_obj *o = &st->objs.v[c];
    if (o->tail == NNAV_NONE)
        o->head = id;
    else
        st->links.v[o->tail].next = id;
    o->tail = id;
    o->count++;
    return 0;
}

static int push(run *r, uint32_t id)
{
    if (id == NNAV_NONE)
        return -1;
    if (r->stack.n >= PK_MAX_STACK)
        return fail(r, "the stack holds more than %u items: refused", (unsigned)PK_MAX_STACK);
    uint32_t *s = nnav_vec_push(r->stack);
    if (!s)
        return fail(r, "out of memory");
    *s = id;
    return 0;
}

static uint32_t floor_(const run *r) { return r->marks.n ? r->marks.v[r->marks.n - 1] : 0; }

static int pop(run *r, uint32_t *id, const char *op)
{
    if (r->stack.n <= floor_(r))
        return fail(r, "%s on an empty stack (or past a MARK)", op);
    *id = r->stack.v[--r->stack.n];
    return 0;
}

static int top(run *r, uint32_t *id, const char *op)
{
    if (r->stack.n <= floor_(r))
        return fail(r, "%s on an empty stack (or past a MARK)", op);
    *id = r->stack.v[r->stack.n - 1];
    return 0;
}

/* The items above the last mark: first index and count; the mark is popped. */
static int pop_mark(run *r, uint32_t *first, uint32_t *count, const char *op)
{
    if (!r->marks.n)
        return fail(r, "%s with no MARK before it", op);
    *first = r->marks.v[--r->marks.n];
    *count = r->stack.n - *first;
    return 0;
}

static int need(run *r, uint64_t k, const char *op)
{
    if ((uint64_t)(r->end - r->p) < k)
        return fail(r, "%s needs %llu bytes, %llu are left: the pickle is cut short", op,
                    (unsigned long long)k, (unsigned long long)(r->end - r->p));
    return 0;
}

static uint64_t leu(const uint8_t *p, int k)
{
    uint64_t v = 0;
    for (int i = k; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

/* A protocol-0 text line: the bytes before the newline, which is consumed. */
static int line(run *r, nnav_span *s, const char *op)
{
    const uint8_t *nl = memchr(r->p, '\n', (size_t)(r->end - r->p));
    if (!nl)
        return fail(r, "%s: no newline ends its argument (the pickle is cut short)", op);
    *s = (nnav_span){r->p, (uint64_t)(nl - r->p)};
    r->p = nl + 1;
    return 0;
}

static int parse_int(nnav_span s, int64_t *v)
{
    uint64_t i = 0, u = 0;
    int neg = 0;
    if (i < s.n && (s.p[i] == '-' || s.p[i] == '+'))
        neg = s.p[i++] == '-';
    if (s.n && s.p[s.n - 1] == 'L')
        s.n--;
    if (i >= s.n)
        return -1;
    for (; i < s.n; i++) {
        if (s.p[i] < '0' || s.p[i] > '9' || u > (UINT64_MAX - 9) / 10)
            return -1;
        u = u * 10 + (uint64_t)(s.p[i] - '0');
    }
    if (u > (uint64_t)INT64_MAX + neg)
        return -1;
    *v = neg ? (int64_t)(0 - u) : (int64_t)u;
    return 0;
}

static int memo_get(run *r, uint64_t idx, const char *op)
{
    if (idx >= r->memo.n || r->memo.v[idx] == NNAV_NONE)
        return fail(r, "%s memo index %llu not set", op, (unsigned long long)idx);
    return push(r, r->memo.v[idx]);
}

static int memo_put(run *r, uint64_t idx, const char *op)
{
    uint32_t id = 0;
    if (top(r, &id, op))
        return -1;
    if (idx > (uint64_t)r->memo.n + PK_MAX_MEMO_AHEAD)
        return fail(r, "%s memo index %llu jumps far past the %u entries so far: refused", op,
                    (unsigned long long)idx, r->memo.n);
    while (r->memo.n <= idx) {
        uint32_t *s = nnav_vec_push(r->memo);
        if (!s)
            return fail(r, "out of memory");
        *s = NNAV_NONE;
    }
    r->memo.v[idx] = id;
    return 0;
}

/* ---- globals and the allowlist ---- */

/* torch's weights_only loader's globals (torch/_weights_only_unpickler.py,
 * 1.13 and the 2.x additions), but the typed storages, tensor classes and
 * dtypes, which allowed() tells by name. */
static const struct { const char *mod, *name; } allow[] = {
    {"torch._utils", "_rebuild_tensor_v2"}, {"torch._utils", "_rebuild_parameter"},
    {"torch._utils", "_rebuild_parameter_with_state"}, {"torch._utils", "_rebuild_tensor"},
    {"torch._utils", "_rebuild_sparse_tensor"}, {"torch._utils", "_rebuild_sparse_csr_tensor"},
    {"torch._utils", "_rebuild_meta_tensor_no_storage"}, {"torch._utils", "_rebuild_qtensor"},
    {"torch._utils", "_rebuild_nested_tensor"},
    {"torch._utils", "_rebuild_device_tensor_from_numpy"},
    {"torch._tensor", "_rebuild_from_type_v2"}, {"torch.nn.parameter", "Parameter"},
    {"torch.serialization", "_get_layout"}, {"torch", "Tensor"}, {"_codecs", "encode"},
    {"collections", "OrderedDict"},
    {"torch", "Size"}, {"torch", "device"}, {"torch.storage", "UntypedStorage"},
    {"torch.storage", "_TypedStorage"}, {"torch.storage", "TypedStorage"},
};

/* torch.FloatTensor and its kin (torch._tensor_classes), on the CPU or CUDA. */
static int tensor_class(nnav_span mod, nnav_span name)
{
    static const char *const kinds[] = {"Float", "Double", "Half", "BFloat16", "Long", "Int",
                                        "Short", "Char", "Byte", "Bool"};
    if (!nnav_span_eqs(mod, "torch") && !nnav_span_eqs(mod, "torch.cuda"))
        return 0;
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        size_t n = strlen(kinds[k]);
        if (name.n == n + 6 && !memcmp(name.p, kinds[k], n) && !memcmp(name.p + n, "Tensor", 6))
            return 1;
    }
    return 0;
}

static const struct { const char *name; int32_t dt; } storages[] = {
    {"FloatStorage", NNAV_DT_FLOAT}, {"DoubleStorage", NNAV_DT_DOUBLE},
    {"HalfStorage", NNAV_DT_FLOAT16}, {"BFloat16Storage", NNAV_DT_BFLOAT16},
    {"LongStorage", NNAV_DT_INT64}, {"IntStorage", NNAV_DT_INT32},
    {"ShortStorage", NNAV_DT_INT16}, {"CharStorage", NNAV_DT_INT8},
    {"ByteStorage", NNAV_DT_UINT8}, {"BoolStorage", NNAV_DT_BOOL},
    {"ComplexFloatStorage", NNAV_DT_COMPLEX64}, {"ComplexDoubleStorage", NNAV_DT_COMPLEX128},
    {"UntypedStorage", NNAV_DT_UINT8},
};

static const char *const dtypes[] = {"float32", "float", "float64", "double", "float16",
                                     "half", "bfloat16", "int64", "long", "int32", "int",
                                     "int16", "int8", "uint8", "bool", "complex64",
                                     "complex128"};

int32_t pk_storage_dtype(nnav_span name)
{
    for (size_t k = 0; k < sizeof storages / sizeof *storages; k++)
        if (nnav_span_eqs(name, storages[k].name))
            return storages[k].dt;
    return 0;
}

/* The builders of torch.jit._pickle that a TorchScript archive's pickles
 * call: torch.jit.load's own unpickler (C++, no Python) makes the list or
 * tag itself; it resolves no other module's globals. */
static const char *const jit_builders[] = {"build_intlist", "build_doublelist",
                                           "build_boollist", "build_tensorlist",
                                           "build_tensor_from_id", "restore_type_tag"};

static int allowed(nnav_span mod, nnav_span name, int torchscript)
{
    for (size_t k = 0; k < sizeof allow / sizeof *allow; k++)
        if (nnav_span_eqs(mod, allow[k].mod) && nnav_span_eqs(name, allow[k].name))
            return 1;
    if (tensor_class(mod, name))
        return 1;
    if (torchscript && nnav_span_eqs(mod, "torch.jit._pickle"))
        for (size_t k = 0; k < sizeof jit_builders / sizeof *jit_builders; k++)
            if (nnav_span_eqs(name, jit_builders[k]))
                return 1;
    /* A TorchScript archive's own classes: torch.jit.load compiles them from
     * its code/ folder; no Python module is imported. */
    if (nnav_span_eqs(mod, "__torch__") || (mod.n > 10 && !memcmp(mod.p, "__torch__.", 10)))
        return 1;
    if (nnav_span_eqs(mod, "torch")) {
        if (pk_storage_dtype(name))
            return 1;
        for (size_t k = 0; k < sizeof dtypes / sizeof *dtypes; k++)
            if (nnav_span_eqs(name, dtypes[k]))
                return 1;
    }
    return 0;
}

static int is_global(const pk_state *st, uint32_t id, const char *mod, const char *name)
{
    const pk_obj *o = &st->objs.v[id];
    if (o->kind != PK_GLOBAL)
        return 0;
    const nnav_load_ref *g = &st->globals.v[o->a];
    return nnav_span_eqs(g->module, mod) && nnav_span_eqs(g->name, name);
}

static int add_global(run *r, nnav_span mod, nnav_span name)
{
    pk_state *st = r->st;
    nnav_load_ref *g = nnav_vec_push(st->globals);
    uint64_t *c = g ? nnav_vec_push(st->call_at) : NULL;
    if (!g || !c)
        return fail(r, "out of memory");
    g->module = mod;
    g->name = name;
    g->offset = r->op_off;
    g->allowed = (uint8_t)allowed(mod, name, st->torchscript);
    uint32_t id = new_obj(r, PK_GLOBAL);
    if (id == NNAV_NONE)
        return -1;
    st->objs.v[id].a = st->globals.n - 1;
    return push(r, id);
}

/* ---- rendering a call's arguments ---- */

typedef struct tbuf { char b[320]; size_t n; } tbuf;

static void tput(tbuf *t, const char *s, size_t k)
{
    if (t->n + k >= sizeof t->b - 4) {
        k = t->n < sizeof t->b - 4 ? sizeof t->b - 4 - t->n : 0;
        memcpy(t->b + t->n, s, k);
        t->n += k;
        if (t->n == sizeof t->b - 4)
            memcpy(t->b + t->n, "...", 4), t->n += 3;
        return;
    }
    memcpy(t->b + t->n, s, k);
    t->n += k;
    t->b[t->n] = 0;
}
static void tputs(tbuf *t, const char *s) { tput(t, s, strlen(s)); }
static int tfull(const tbuf *t) { return t->n >= sizeof t->b - 4; }

static void tspan(tbuf *t, nnav_span s)
{
    char e[256];
    nnav_text_escape(s.p, s.n > 200 ? 200 : (size_t)s.n, e, sizeof e);
    /* Quotes as Python writes them inside '...'. */
    for (const char *q = e, *k; *q; q = k + 1) {
        k = strchr(q, '\'');
        if (!k) {
            tputs(t, q);
            break;
        }
        tput(t, q, (size_t)(k - q));
        tputs(t, "\\'");
    }
    if (s.n > 200)
        tputs(t, "...");
}

static void render(const pk_state *st, uint32_t id, tbuf *t, int depth);

static void render_items(const pk_state *st, const pk_obj *o, tbuf *t, int depth, int pairs)
{
    int k = 0;
    for (uint32_t l = o->head; l != NNAV_NONE && !tfull(t); l = st->links.v[l].next, k++) {
        if (k)
            tputs(t, pairs && (k & 1) ? ": " : ", ");
        render(st, st->links.v[l].obj, t, depth + 1);
    }
}

static void render_name(const pk_state *st, uint32_t gi, tbuf *t)
{
    tspan(t, st->globals.v[gi].module);
    tputs(t, ".");
    tspan(t, st->globals.v[gi].name);
}

static void render(const pk_state *st, uint32_t id, tbuf *t, int depth)
{
    const pk_obj *o = &st->objs.v[id];
    char num[64];
    if (depth > 6 || tfull(t)) {
        tputs(t, "...");
        return;
    }
    switch (o->kind) {
    case PK_NONE: tputs(t, "None"); break;
    case PK_BOOL: tputs(t, o->i ? "True" : "False"); break;
    case PK_INT:
        if (o->big)
            tputs(t, "<big int>");
        else
            snprintf(num, sizeof num, "%lld", (long long)o->i), tputs(t, num);
        break;
    case PK_FLOAT: /* the shortest text that reads back the same, as Python's repr */
        for (int prec = 1; prec <= 17; prec++) {
            snprintf(num, sizeof num, "%.*g", prec, o->f);
            if (strtod(num, NULL) == o->f || isnan(o->f))
                break;
        }
        if (!strpbrk(num, ".eni"))
            strcat(num, ".0");
        tputs(t, num);
        break;
    case PK_STR: tputs(t, "'"), tspan(t, o->s), tputs(t, "'"); break;
    case PK_BYTES: tputs(t, "b'"), tspan(t, o->s), tputs(t, "'"); break;
    case PK_TUPLE:
        tputs(t, "("), render_items(st, o, t, depth, 0);
        tputs(t, o->count == 1 ? ",)" : ")");
        break;
    case PK_LIST: tputs(t, "["), render_items(st, o, t, depth, 0), tputs(t, "]"); break;
    case PK_SET: tputs(t, "{"), render_items(st, o, t, depth, 0), tputs(t, "}"); break;
    case PK_DICT: tputs(t, "{"), render_items(st, o, t, depth, 1), tputs(t, "}"); break;
    case PK_GLOBAL: render_name(st, o->a, t); break;
    case PK_OBJ:
        if (o->a == NNAV_NONE) {
            tputs(t, "<object>");
            break;
        }
        render(st, o->a, t, depth + 1);
        tputs(t, "(");
        if (o->b != NNAV_NONE && st->objs.v[o->b].kind == PK_TUPLE)
            render_items(st, &st->objs.v[o->b], t, depth, 0);
        else if (o->b != NNAV_NONE)
            tputs(t, "*"), render(st, o->b, t, depth + 1);
        tputs(t, ")");
        break;
    case PK_STORAGE: tputs(t, "<storage>"); break;
    case PK_TENSOR: tputs(t, "<tensor>"); break;
    default: tputs(t, "?");
    }
}

void pk_render(const pk_state *st, uint32_t id, char *buf, size_t n)
{
    tbuf t = {.n = 0};
    t.b[0] = 0;
    render(st, id, &t, 0);
    snprintf(buf, n, "%s", t.b);
}

/* The global a callee comes from: itself, or what a call chain started at. */
static uint32_t callee_global(const pk_state *st, uint32_t id)
{
    for (int k = 0; k < 64 && id != NNAV_NONE; k++) {
        const pk_obj *o = &st->objs.v[id];
        if (o->kind == PK_GLOBAL)
            return o->a;
        if (o->kind != PK_OBJ)
            return NNAV_NONE;
        id = o->a;
    }
    return NNAV_NONE;
}

/* Write down a call of callee with args (a tuple, or NNAV_NONE), made by
 * opcode op: the call text goes on the callee's global entry (a second call
 * of one global gets an entry of its own). */
static int note_call(run *r, uint32_t callee, uint32_t args, uint8_t op, const char *suffix)
{
    pk_state *st = r->st;
    uint32_t gi = callee_global(st, callee);
    tbuf t = {.n = 0};
    t.b[0] = 0;
    render(st, callee, &t, 0);
    if (suffix)
        tputs(&t, suffix);
    tputs(&t, "(");
    if (args != NNAV_NONE && st->objs.v[args].kind == PK_TUPLE)
        render_items(st, &st->objs.v[args], &t, 0, 0);
    else if (args != NNAV_NONE)
        tputs(&t, "*"), render(st, args, &t, 1);
    tputs(&t, ")");
    if (gi == NNAV_NONE) {
        /* A call of something no global names (a constant): it fails on load. */
        nnav_load_ref *g = nnav_vec_push(st->globals);
        uint64_t *c = g ? nnav_vec_push(st->call_at) : NULL;
        if (!g || !c)
            return fail(r, "out of memory");
        g->module = (nnav_span){(const uint8_t *)"?", 1};
        g->name = (nnav_span){(const uint8_t *)"?", 1};
        g->offset = r->op_off;
        gi = st->globals.n - 1;
    } else if (st->globals.v[gi].op) {
        nnav_load_ref *g = nnav_vec_push(st->globals);
        uint64_t *c = g ? nnav_vec_push(st->call_at) : NULL;
        if (!g || !c)
            return fail(r, "out of memory");
        *g = st->globals.v[gi];
        gi = st->globals.n - 1;
    }
    nnav_load_ref *g = &st->globals.v[gi];
    g->op = op;
    g->call_offset = r->op_off;
    g->call = NULL;
    size_t at = st->text.n;
    for (size_t k = 0; k <= t.n; k++) {
        char *ch = nnav_vec_push(st->text);
        if (!ch)
            return fail(r, "out of memory");
        *ch = k < t.n ? t.b[k] : 0;
    }
    st->call_at.v[gi] = (uint64_t)at + 1;
    return 0;
}

const char *pk_call_text(const pk_state *st, uint32_t i)
{
    return st->call_at.v[i] ? st->text.v + st->call_at.v[i] - 1 : NULL;
}

/* ---- calls: allowlisted ones built, every other one only written down ---- */

static uint32_t item(const pk_state *st, uint32_t tuple, uint32_t k)
{
    const pk_obj *o = &st->objs.v[tuple];
    if (o->kind != PK_TUPLE && o->kind != PK_LIST)
        return NNAV_NONE;
    uint32_t l = o->head;
    for (uint32_t i = 0; i < k && l != NNAV_NONE; i++)
        l = st->links.v[l].next;
    return l == NNAV_NONE ? NNAV_NONE : st->links.v[l].obj;
}

static int opaque(run *r, uint32_t callee, uint32_t args)
{
    uint32_t id = new_obj(r, PK_OBJ);
    if (id == NNAV_NONE)
        return -1;
    r->st->objs.v[id].a = callee;
    r->st->objs.v[id].b = args;
    return push(r, id);
}

static int call(run *r, uint32_t callee, uint32_t args, uint8_t op)
{
    pk_state *st = r->st;
    const pk_obj *c = &st->objs.v[callee];
    if (c->kind == PK_GLOBAL && st->globals.v[c->a].allowed) {
        if (is_global(st, callee, "torch._utils", "_rebuild_tensor_v2")) {
            uint32_t s = item(st, args, 0), o = item(st, args, 1), sz = item(st, args, 2),
                     sd = item(st, args, 3);
            if (s != NNAV_NONE && o != NNAV_NONE && sz != NNAV_NONE && sd != NNAV_NONE &&
                st->objs.v[s].kind == PK_STORAGE && st->objs.v[o].kind == PK_INT &&
                st->objs.v[sz].kind == PK_TUPLE && st->objs.v[sd].kind == PK_TUPLE) {
                uint32_t id = new_obj(r, PK_TENSOR);
                if (id == NNAV_NONE)
                    return -1;
                pk_obj *t = &st->objs.v[id];
                t->a = s;
                t->i = st->objs.v[o].i;
                t->big = st->objs.v[o].big;
                t->size = sz;
                t->stride = sd;
                t->dtype = st->objs.v[s].dtype;
                return push(r, id);
            }
        } else if (is_global(st, callee, "torch._utils", "_rebuild_parameter") ||
                   is_global(st, callee, "torch._utils", "_rebuild_parameter_with_state")) {
            uint32_t t = item(st, args, 0);
            if (t != NNAV_NONE && st->objs.v[t].kind == PK_TENSOR)
                return push(r, t);
        } else if (is_global(st, callee, "torch._tensor", "_rebuild_from_type_v2")) {
            /* (func, type, args, state): what func(*args) makes, a tensor
             * subclass's data; func one more allowed rebuild, never this. */
            uint32_t f = item(st, args, 0), fa = item(st, args, 2);
            if (f != NNAV_NONE && fa != NNAV_NONE &&
                !is_global(st, f, "torch._tensor", "_rebuild_from_type_v2"))
                return call(r, f, fa, op);
        } else if (is_global(st, callee, "collections", "OrderedDict")) {
            return push(r, new_obj(r, PK_DICT));
        } else if (st->torchscript && (is_global(st, callee, "torch.jit._pickle", "build_intlist") ||
                                       is_global(st, callee, "torch.jit._pickle", "build_doublelist") ||
                                       is_global(st, callee, "torch.jit._pickle", "build_boollist") ||
                                       is_global(st, callee, "torch.jit._pickle", "build_tensorlist") ||
                                       is_global(st, callee, "torch.jit._pickle", "restore_type_tag"))) {
            /* The list (or tagged value) it is given is what it makes. */
            uint32_t t = item(st, args, 0);
            if (t != NNAV_NONE)
                return push(r, t);
        } else if (is_global(st, callee, "torch", "Size")) {
            uint32_t t = item(st, args, 0);
            if (t != NNAV_NONE && st->objs.v[t].kind == PK_TUPLE)
                return push(r, t);
        }
        return opaque(r, callee, args);
    }
    if (note_call(r, callee, args, op, NULL))
        return -1;
    return opaque(r, callee, args);
}

/* A persistent id: ('storage', torch.XStorage, key, location, numel). */
static int persistent(run *r, uint32_t pid)
{
    pk_state *st = r->st;
    uint32_t tag = item(st, pid, 0), ty = item(st, pid, 1), key = item(st, pid, 2),
             numel = item(st, pid, 4);
    if (tag != NNAV_NONE && ty != NNAV_NONE && key != NNAV_NONE && numel != NNAV_NONE &&
        st->objs.v[tag].kind == PK_STR && nnav_span_eqs(st->objs.v[tag].s, "storage") &&
        st->objs.v[ty].kind == PK_GLOBAL && st->objs.v[key].kind == PK_STR &&
        st->objs.v[numel].kind == PK_INT && !st->objs.v[numel].big) {
        const nnav_load_ref *g = &st->globals.v[st->objs.v[ty].a];
        int32_t dt = g->allowed ? pk_storage_dtype(g->name) : 0;
        uint32_t id = new_obj(r, PK_STORAGE);
        if (id == NNAV_NONE)
            return -1;
        pk_obj *s = &st->objs.v[id];
        s->dtype = dt;
        s->s = st->objs.v[key].s;
        s->i = st->objs.v[numel].i;
        return push(r, id);
    }
    return opaque(r, NNAV_NONE, pid);
}

/* ---- the opcodes ---- */

static int text_obj(run *r, int kind, nnav_span s)
{
    uint32_t id = new_obj(r, kind);
    if (id == NNAV_NONE)
        return -1;
    r->st->objs.v[id].s = s;
    return push(r, id);
}

static int int_obj(run *r, int kind, int64_t v, int big)
{
    uint32_t id = new_obj(r, kind);
    if (id == NNAV_NONE)
        return -1;
    r->st->objs.v[id].i = v;
    r->st->objs.v[id].big = (uint8_t)big;
    return push(r, id);
}

/* An int past 64 bits: its encoding kept (how: PK_BIG_LE, PK_BIG_TEXT). */
static int big_obj(run *r, nnav_span enc, int how)
{
    uint32_t id = new_obj(r, PK_INT);
    if (id == NNAV_NONE)
        return -1;
    r->st->objs.v[id].big = (uint8_t)how;
    r->st->objs.v[id].s = enc;
    return push(r, id);
}

static int bytes_op(run *r, int kind, int lenbytes, const char *op)
{
    if (need(r, (uint64_t)lenbytes, op))
        return -1;
    uint64_t n = leu(r->p, lenbytes);
    r->p += lenbytes;
    if (need(r, n, op))
        return -1;
    nnav_span s = {r->p, n};
    r->p += n;
    return text_obj(r, kind, s);
}

/* A little-endian two's complement integer of k bytes. */
static int long_op(run *r, uint64_t k)
{
    if (need(r, k, "LONG"))
        return -1;
    const uint8_t *p = r->p;
    r->p += k;
    if (k == 0)
        return int_obj(r, PK_INT, 0, 0);
    if (k > 8)
        return big_obj(r, (nnav_span){p, k}, PK_BIG_LE);
    uint64_t u = leu(p, (int)k);
    if (k < 8 && (p[k - 1] & 0x80))
        u |= UINT64_MAX << (8 * k);
    return int_obj(r, PK_INT, (int64_t)u, 0);
}

static int container(run *r, int kind, uint32_t first, uint32_t count)
{
    uint32_t id = new_obj(r, kind);
    if (id == NNAV_NONE)
        return -1;
    for (uint32_t k = 0; k < count; k++)
        if (add_item(r, id, r->stack.v[first + k]))
            return -1;
    r->stack.n = first;
    return push(r, id);
}

static int set_items(run *r, uint32_t first, uint32_t count, const char *op)
{
    pk_state *st = r->st;
    if (count & 1)
        return fail(r, "%s with an odd number of items (%u)", op, count);
    if (r->stack.n - count <= floor_(r) || first == 0)
        return fail(r, "%s with no dict below its items", op);
    uint32_t d = r->stack.v[first - 1];
    if (st->objs.v[d].kind == PK_DICT)
        for (uint32_t k = 0; k < count; k++)
            if (add_item(r, d, r->stack.v[first + k]))
                return -1;
    if (st->objs.v[d].kind != PK_DICT && st->objs.v[d].kind != PK_OBJ)
        return fail(r, "%s on something not a dict", op);
    r->stack.n = first;
    return 0;
}

static const char *opname(uint8_t c)
{
    switch (c) {
    case 'h': return "BINGET";
    case 'j': return "LONG_BINGET";
    case 'g': return "GET";
    case 'q': return "BINPUT";
    case 'r': return "LONG_BINPUT";
    case 'p': return "PUT";
    default: return "?";
    }
}

static int step(run *r, uint8_t c, int *stop)
{
    pk_state *st = r->st;
    uint32_t a = 0, b = 0, first = 0, count = 0;
    nnav_span s, s2;
    int64_t v;
    switch (c) {
    case 0x80: /* PROTO */
        if (need(r, 1, "PROTO"))
            return -1;
        if (*r->p > 5)
            return fail(r, "pickle protocol %u: only 0 to 5 exist", *r->p);
        r->p++;
        return 0;
    case 0x95: /* FRAME: a length, then opcodes as usual */
        if (need(r, 8, "FRAME"))
            return -1;
        if (leu(r->p, 8) > (uint64_t)(r->end - r->p - 8))
            return fail(r, "FRAME of %llu bytes, past the end of the pickle",
                        (unsigned long long)leu(r->p, 8));
        r->p += 8;
        return 0;
    case '.': *stop = 1; return 0;
    case '(':
        if (r->marks.n >= PK_MAX_MARKS)
            return fail(r, "more than %u MARKs open: refused", (unsigned)PK_MAX_MARKS);
        {
            uint32_t *m = nnav_vec_push(r->marks);
            if (!m)
                return fail(r, "out of memory");
            *m = r->stack.n;
        }
        return 0;
    case '0':
        if (r->stack.n > floor_(r))
            return r->stack.n--, 0;
        if (r->marks.n)
            return r->marks.n--, 0;
        return fail(r, "POP on an empty stack");
    case '1': return pop_mark(r, &first, &count, "POP_MARK") ? -1 : (r->stack.n = first, 0);
    case '2': return top(r, &a, "DUP") || push(r, a);
    case 'N': return push(r, new_obj(r, PK_NONE));
    case 0x88: return int_obj(r, PK_BOOL, 1, 0);
    case 0x89: return int_obj(r, PK_BOOL, 0, 0);
    case 'J':
        if (need(r, 4, "BININT"))
            return -1;
        v = (int32_t)(uint32_t)leu(r->p, 4);
        r->p += 4;
        return int_obj(r, PK_INT, v, 0);
    case 'K':
        if (need(r, 1, "BININT1"))
            return -1;
        return int_obj(r, PK_INT, *r->p++, 0);
    case 'M':
        if (need(r, 2, "BININT2"))
            return -1;
        v = (int64_t)leu(r->p, 2);
        r->p += 2;
        return int_obj(r, PK_INT, v, 0);
    case 0x8a:
        if (need(r, 1, "LONG1"))
            return -1;
        return long_op(r, *r->p++);
    case 0x8b:
        if (need(r, 4, "LONG4"))
            return -1;
        v = (int64_t)leu(r->p, 4);
        r->p += 4;
        if (v & 0x80000000)
            return fail(r, "LONG4 with a negative length");
        return long_op(r, (uint64_t)v);
    case 'I':
        if (line(r, &s, "INT"))
            return -1;
        if (nnav_span_eqs(s, "01") || nnav_span_eqs(s, "00"))
            return int_obj(r, PK_BOOL, s.p[1] == '1', 0);
        if (parse_int(s, &v))
            return big_obj(r, s, PK_BIG_TEXT);
        return int_obj(r, PK_INT, v, 0);
    case 'L':
        if (line(r, &s, "LONG"))
            return -1;
        if (parse_int(s, &v))
            return big_obj(r, s, PK_BIG_TEXT);
        return int_obj(r, PK_INT, v, 0);
    case 'F': {
        char buf[64];
        if (line(r, &s, "FLOAT"))
            return -1;
        if (s.n >= sizeof buf)
            return fail(r, "FLOAT text of %llu bytes", (unsigned long long)s.n);
        memcpy(buf, s.p, (size_t)s.n);
        buf[s.n] = 0;
        uint32_t id = new_obj(r, PK_FLOAT);
        if (id == NNAV_NONE)
            return -1;
        st->objs.v[id].f = strtod(buf, NULL);
        return push(r, id);
    }
    case 'G': {
        if (need(r, 8, "BINFLOAT"))
            return -1;
        uint64_t u = 0;
        for (int k = 0; k < 8; k++)
            u = u << 8 | r->p[k]; /* big-endian */
        r->p += 8;
        uint32_t id = new_obj(r, PK_FLOAT);
        if (id == NNAV_NONE)
            return -1;
        memcpy(&st->objs.v[id].f, &u, 8);
        return push(r, id);
    }
    case 'S':
        if (line(r, &s, "STRING"))
            return -1;
        if (s.n >= 2 && (s.p[0] == '\'' || s.p[0] == '"') && s.p[s.n - 1] == s.p[0])
            s.p++, s.n -= 2;
        return text_obj(r, PK_STR, s);
    case 'V': return line(r, &s, "UNICODE") || text_obj(r, PK_STR, s);
    case 'T': return bytes_op(r, PK_STR, 4, "BINSTRING");
    case 'U': return bytes_op(r, PK_STR, 1, "SHORT_BINSTRING");
    case 'X': return bytes_op(r, PK_STR, 4, "BINUNICODE");
    case 0x8c: return bytes_op(r, PK_STR, 1, "SHORT_BINUNICODE");
    case 0x8d: return bytes_op(r, PK_STR, 8, "BINUNICODE8");
    case 'B': return bytes_op(r, PK_BYTES, 4, "BINBYTES");
    case 'C': return bytes_op(r, PK_BYTES, 1, "SHORT_BINBYTES");
    case 0x8e: return bytes_op(r, PK_BYTES, 8, "BINBYTES8");
    case 0x96: return bytes_op(r, PK_BYTES, 8, "BYTEARRAY8");
    case 0x97: return fail(r, "NEXT_BUFFER: an out-of-band buffer, which a file cannot hold");
    case 0x98: return 0; /* READONLY_BUFFER: the top stays as it is */
    case ')': return push(r, new_obj(r, PK_TUPLE));
    case ']': return push(r, new_obj(r, PK_LIST));
    case '}': return push(r, new_obj(r, PK_DICT));
    case 0x8f: return push(r, new_obj(r, PK_SET));
    case 't': return pop_mark(r, &first, &count, "TUPLE") || container(r, PK_TUPLE, first, count);
    case 'l': return pop_mark(r, &first, &count, "LIST") || container(r, PK_LIST, first, count);
    case 0x91:
        return pop_mark(r, &first, &count, "FROZENSET") || container(r, PK_SET, first, count);
    case 'd':
        if (pop_mark(r, &first, &count, "DICT"))
            return -1;
        if (count & 1)
            return fail(r, "DICT with an odd number of items (%u)", count);
        return container(r, PK_DICT, first, count);
    case 0x85: case 0x86: case 0x87: {
        uint32_t k = (uint32_t)(c - 0x84);
        if (r->stack.n - floor_(r) < k)
            return fail(r, "TUPLE%u with fewer than %u items on the stack", k, k);
        return container(r, PK_TUPLE, r->stack.n - k, k);
    }
    case 'a':
        if (pop(r, &a, "APPEND") || top(r, &b, "APPEND"))
            return -1;
        if (st->objs.v[b].kind == PK_LIST)
            return add_item(r, b, a);
        if (st->objs.v[b].kind == PK_OBJ)
            return 0;
        return fail(r, "APPEND to something not a list");
    case 'e':
    case 0x90:
        if (pop_mark(r, &first, &count, c == 'e' ? "APPENDS" : "ADDITEMS"))
            return -1;
        if (first <= floor_(r))
            return fail(r, "%s with nothing below its items", c == 'e' ? "APPENDS" : "ADDITEMS");
        b = r->stack.v[first - 1];
        if (st->objs.v[b].kind == (c == 'e' ? PK_LIST : PK_SET)) {
            for (uint32_t k = 0; k < count; k++)
                if (add_item(r, b, r->stack.v[first + k]))
                    return -1;
        } else if (st->objs.v[b].kind != PK_OBJ) {
            return fail(r, "%s to something not a %s", c == 'e' ? "APPENDS" : "ADDITEMS",
                        c == 'e' ? "list" : "set");
        }
        r->stack.n = first;
        return 0;
    case 's':
        if (r->stack.n - floor_(r) < 3)
            return fail(r, "SETITEM with fewer than 3 items on the stack");
        return set_items(r, r->stack.n - 2, 2, "SETITEM");
    case 'u': return pop_mark(r, &first, &count, "SETITEMS") || set_items(r, first, count, "SETITEMS");
    case 'g':
        if (line(r, &s, "GET") || parse_int(s, &v) || v < 0)
            return r->err->msg[0] ? -1 : fail(r, "GET with a bad memo index");
        return memo_get(r, (uint64_t)v, "GET");
    case 'h':
    case 'j':
        if (need(r, c == 'h' ? 1 : 4, opname(c)))
            return -1;
        v = (int64_t)leu(r->p, c == 'h' ? 1 : 4);
        r->p += c == 'h' ? 1 : 4;
        return memo_get(r, (uint64_t)v, opname(c));
    case 'p':
        if (line(r, &s, "PUT") || parse_int(s, &v) || v < 0)
            return r->err->msg[0] ? -1 : fail(r, "PUT with a bad memo index");
        return memo_put(r, (uint64_t)v, "PUT");
    case 'q':
    case 'r':
        if (need(r, c == 'q' ? 1 : 4, opname(c)))
            return -1;
        v = (int64_t)leu(r->p, c == 'q' ? 1 : 4);
        r->p += c == 'q' ? 1 : 4;
        return memo_put(r, (uint64_t)v, opname(c));
    case 0x94: return memo_put(r, r->memo.n, "MEMOIZE");
    case 'c':
        if (line(r, &s, "GLOBAL") || line(r, &s2, "GLOBAL"))
            return -1;
        return add_global(r, s, s2);
    case 0x93:
        if (pop(r, &b, "STACK_GLOBAL") || pop(r, &a, "STACK_GLOBAL"))
            return -1;
        if (st->objs.v[a].kind != PK_STR || st->objs.v[b].kind != PK_STR)
            return fail(r, "STACK_GLOBAL of something not two strings");
        return add_global(r, st->objs.v[a].s, st->objs.v[b].s);
    case 0x82: case 0x83: case 0x84: {
        int k = c == 0x82 ? 1 : c == 0x83 ? 2 : 4;
        if (need(r, (uint64_t)k, "EXT"))
            return -1;
        r->p += k;
        /* A code from copyreg's extension registry: whatever the loading
         * process registered; never allowlisted. */
        return add_global(r, (nnav_span){(const uint8_t *)"copyreg", 7},
                          (nnav_span){(const uint8_t *)"extension", 9});
    }
    case 'R':
        if (pop(r, &b, "REDUCE") || pop(r, &a, "REDUCE"))
            return -1;
        return call(r, a, b, 'R');
    case 0x81:
        if (pop(r, &b, "NEWOBJ") || pop(r, &a, "NEWOBJ"))
            return -1;
        return call(r, a, b, 0x81);
    case 0x92: {
        uint32_t kw = 0;
        if (pop(r, &kw, "NEWOBJ_EX") || pop(r, &b, "NEWOBJ_EX") || pop(r, &a, "NEWOBJ_EX"))
            return -1;
        return call(r, a, b, 0x92);
    }
    case 'i': {
        if (line(r, &s, "INST") || line(r, &s2, "INST"))
            return -1;
        if (pop_mark(r, &first, &count, "INST"))
            return -1;
        uint32_t args = 0;
        if (container(r, PK_TUPLE, first, count) || pop(r, &args, "INST"))
            return -1;
        if (add_global(r, s, s2) || pop(r, &a, "INST"))
            return -1;
        return call(r, a, args, 'i');
    }
    case 'o': {
        if (pop_mark(r, &first, &count, "OBJ"))
            return -1;
        if (count < 1)
            return fail(r, "OBJ with no class after its MARK");
        a = r->stack.v[first];
        uint32_t args = 0;
        if (container(r, PK_TUPLE, first + 1, count - 1) || pop(r, &args, "OBJ"))
            return -1;
        r->stack.n = first;
        return call(r, a, args, 'o');
    }
    case 'b':
        if (pop(r, &b, "BUILD") || top(r, &a, "BUILD"))
            return -1;
        {
            pk_obj *o = &st->objs.v[a];
            /* The state is kept (the first one given): a pickled module's
             * attributes, where its tensors are. */
            if (o->kind == PK_OBJ && o->state == NNAV_NONE)
                o->state = b;
            /* __setstate__ or attribute setting on an object made by a call
             * outside the allowlist is one more call of its class. */
            if (o->kind == PK_OBJ && o->a != NNAV_NONE) {
                uint32_t gi = callee_global(st, o->a);
                if (gi == NNAV_NONE || !st->globals.v[gi].allowed)
                    return note_call(r, o->a, b, 'b', "(...).__setstate__");
            }
        }
        return 0;
    case 'P':
        if (line(r, &s, "PERSID") || text_obj(r, PK_STR, s) || pop(r, &a, "PERSID"))
            return -1;
        return persistent(r, a);
    case 'Q':
        if (pop(r, &a, "BINPERSID"))
            return -1;
        return persistent(r, a);
    default:
        return fail(r, "opcode 0x%02x is no pickle opcode", c);
    }
}

int pk_run(pk_state *st, nnav_span s, uint64_t *end, nnav_error *err)
{
    run r = {.st = st, .p = s.p, .end = s.p + s.n, .start = s.p, .err = err};
    int stop = 0, rc = 0;
    st->root = NNAV_NONE;
    while (!stop) {
        r.op_off = off_of(&r, r.p);
        if (r.p >= r.end) {
            rc = fail(&r, "the pickle ends before its STOP (cut short)");
            break;
        }
        uint8_t c = *r.p++;
        st->ops++;
        if (step(&r, c, &stop)) {
            rc = -1;
            break;
        }
    }
    if (rc == 0) {
        if (r.stack.n != 1 || r.marks.n)
            rc = fail(&r, "STOP with %u items on the stack and %u MARKs open (one item expected)",
                      r.stack.n, r.marks.n);
        else
            st->root = r.stack.v[0];
    }
    if (end)
        *end = off_of(&r, r.p);
    nnav_vec_free(r.stack);
    nnav_vec_free(r.marks);
    nnav_vec_free(r.memo);
    return rc;
}

void pk_calls_fix(pk_state *st)
{
    for (uint32_t i = 0; i < st->globals.n; i++)
        st->globals.v[i].call = pk_call_text(st, i);
}

/* torch's legacy MAGIC_NUMBER, 0x1950a86a20f9469cfc6c, in either spelling:
 * LONG1/LONG4's little-endian bytes (a sign byte of 0 may follow), or
 * protocol 0's decimal text (a sign and the L suffix may be there; leading
 * zeros, which Python refuses, are taken too: a scan errs on the side of
 * reading more pickles). */
int pk_is_magic(const pk_state *st, uint32_t id)
{
    static const uint8_t le[10] = {0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19};
    static const char dec[] = "119547037146038801333356";
    if (id >= st->objs.n || st->objs.v[id].kind != PK_INT)
        return 0;
    const pk_obj *o = &st->objs.v[id];
    nnav_span s = o->s;
    if (o->big == PK_BIG_LE) {
        while (s.n > sizeof le && s.p[s.n - 1] == 0)
            s.n--;
        return s.n == sizeof le && !memcmp(s.p, le, sizeof le);
    }
    if (o->big != PK_BIG_TEXT)
        return 0;
    if (s.n && s.p[s.n - 1] == 'L')
        s.n--;
    if (s.n && s.p[0] == '+')
        s.p++, s.n--;
    while (s.n > 1 && s.p[0] == '0')
        s.p++, s.n--;
    return s.n == sizeof dec - 1 && !memcmp(s.p, dec, s.n);
}

void pk_free(pk_state *st)
{
    nnav_vec_free(st->objs);
    nnav_vec_free(st->links);
    nnav_vec_free(st->globals);
    nnav_vec_free(st->text);
    nnav_vec_free(st->call_at);
}
