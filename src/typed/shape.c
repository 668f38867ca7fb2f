/* shape.c - the inference engine of the typed model view: symbolic dims,
 * facts per value, one forward pass per graph in node order, bodies and
 * local functions inferred where they are called, and the cost of each node.
 *
 * The operators' rules live in shape_ops*.c (ONNX) and rules_tf.c
 * (TensorFlow), chosen by the format's table (opset_rules.h), and see only
 * shape_int.h. What
 * the file says (inputs, initializers, value_info, TensorFlow's
 * `_output_shapes`) seeds the pass; a node's inferred outputs are then
 * compared with what the file says of them, so that disagreements can be
 * listed, and where a rule is missing the file's word is carried on. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "hashtab.h"
#include "opset_rules.h"
#include "sbuf.h"
#include "scope.h"
#include "shape_int.h"

/* Bodies nested deeper than this below the graph being inferred are left
 * to the final sweep, which starts again at depth 0: the C stack stays small
 * on hostile nesting. */
#define SHAPE_DEPTH 48

/* How an expression binds, loosest last: it is written in parentheses
 * where it stands as an operand of an operator that binds tighter. Division
 * is floor division, so a*(b/c) is not a*b/c, and a/(b*c) is not a/b*c:
 * the right operand of * is parenthesised when it divides, that of / when
 * it is any product. Left operands need parentheses only for sums (*, /
 * group to the left). */
enum {
    P_ATOM = 0, /* a name, a number, "min(a,b)", anything in parentheses */
    P_MUL,      /* a product with no top-level /: "a*b*4" */
    P_DIV,      /* a product with a top-level /: "a/2", "a*b/c" */
    P_SUM,      /* a top-level + or - (or a leading -) */
};

/* A base expression: an atom ("batch") or an expression of atoms that
 * linear arithmetic could not absorb ("(h-3)/2", "a*b"). */
typedef struct sd_str {
    uint32_t off, len;
    uint8_t prec;  /* P_*: how the text binds */
    uint8_t atom;  /* a named dim from the file */
    uint8_t min;   /* "min(a,b)": its operands are arg_a and arg_b */
    uint8_t mul;   /* "a*b": a product of arg_a and arg_b */
    int64_t eval;  /* its number with named dims at their bound values */
    nnav_dim arg_a, arg_b;
} sd_str;

/* A symbolic dim: coef * base + add, coef and add of magnitude at most
 * NNAV_DIM_MAX (so that negating them or adding two never overflows). Its
 * nnav_dim encodes its index in S->syms: SYM0 + index, below -NNAV_DIM_MAX
 * and above INT64_MIN (unknown), which no number reaches. */
#define SYM0 (INT64_MIN + 1)
typedef struct sd_sym {
    uint32_t base;
    int64_t coef, add;
} sd_sym;

struct nnav_shapes {
    const nnav_model *m;
    const nnav_opset_rules *R; /* its format's operators */
    nnav_fact *facts;
    nnav_cost *costs;
    uint8_t *node_failed;
    uint32_t *conflict; /* per node: nnav_ix_conflict's reason (a why id); NULL until one */
    uint8_t *gstate; /* 0 not yet, 1 in progress, 2 done */
    NNAV_VEC(nnav_dim) dims;
    NNAV_VEC(char) text;
    NNAV_VEC(sd_str) strs;
    NNAV_VEC(sd_sym) syms;
    NNAV_VEC(uint32_t) whys; /* offsets into text */
    nnav_hashtab strtab, symtab; /* ids into strs, syms */
    const nnav_rule **rules;
    size_t n_rules;
    nnav_bind *bind;
    size_t n_bind;
    /* Work done, in units of about one input, output, dim or folded value
     * looked at (bodies count each time they are inferred), and its bound,
     * proportional to the model (work_budget()). Past it, `over` is set and
     * every node left gets `why_budget`. */
    uint64_t work, work_max;
    uint8_t over;
    uint32_t why_budget;
    /* Bumped whenever a result depends on where it was computed (a call
     * nested too deep, a function reached from itself, the budget): a body
     * inferred while it moved is not memoised. */
    uint64_t impure;
    /* Function calls memoised by their input facts (call_body). */
    NNAV_VEC(struct call_memo) memo;
    NNAV_VEC(nnav_fact) memo_facts;
    nnav_hashtab memotab; /* ids into memo */
    uint8_t *uses_refs; /* per graph: a node in it or below reads a caller's attribute */
    /* Per graph: its root (the main graph or a function's), and the root's
     * ONNX opset version (INT64_MIN: not yet looked up): rules ask for it at every
     * node, and a file may import thousands of opsets. */
    uint32_t *root;
    int64_t *onnx_opset;
    /* Per node: its domain, read from its bytes once (dom_of). */
    uint8_t *dom_kind;
    struct op_cache {
        char op[40];
        uint8_t len, cls, dom;
        const nnav_rule *rule;
    } ops[256]; /* (domain, op type) -> rule and cost class; models repeat a few ops */
    int oom;
};

static const nnav_fact UNKNOWN = {0, -1, 0, NNAV_NONE, 0, NNAV_SRC_NONE, 0, 0, 0, NNAV_NONE};

/* A call's body as inferred for one set of input facts: the seeds and the
 * outputs, copied (their dims stay in S->dims, which only grows). */
typedef struct call_memo {
    uint64_t h;
    uint32_t graph, depth, caller; /* caller: NNAV_NONE when the body reads no caller attribute */
    uint32_t first, n_in, n_out;   /* n_in seeds then n_out outputs from memo_facts[first] */
} call_memo;

/* ---- small tables ---- */

static int text_add(nnav_shapes *S, const char *p, size_t n, uint32_t *off)
{
    if (S->text.n + n + 1 < S->text.n || S->text.n + n + 1 > UINT32_MAX - 1 ||
        nnav_vec_reserve(S->text, S->text.n + (uint32_t)n + 1) < 0) {
        S->oom = 1;
        return -1;
    }
    *off = S->text.n;
    memcpy(S->text.v + S->text.n, p, n);
    S->text.v[S->text.n + n] = 0;
    S->text.n += (uint32_t)n + 1;
    return 0;
}

/* Stores id at the slot the last find gave; out of memory sets S->oom (the
 * id may or may not be stored: what it keys stays valid either way). */
static int tab_put(nnav_shapes *S, nnav_hashtab *t, uint64_t at, uint64_t h, uint32_t id,
                   nnav_hashtab_hash rehash)
{
    if (nnav_hashtab_put(t, at, h, id, rehash, S) != 0) {
        S->oom = 1;
        return -1;
    }
    return 0;
}

typedef struct str_key {
    const nnav_shapes *S;
    const char *p;
    size_t n;
    int atom; /* a file's name "a*b" is not the product a*b */
} str_key;

static uint64_t str_hash_p(const char *p, size_t n)
{
    return nnav_hash_bytes((const uint8_t *)p, n, 0x5eed);
}
static uint64_t str_rehash(const void *ctx, uint32_t id)
{
    const nnav_shapes *S = ctx;
    return str_hash_p(S->text.v + S->strs.v[id].off, S->strs.v[id].len);
}
static int str_eq(const void *key, uint32_t id)
{
    const str_key *k = key;
    const sd_str *s = &k->S->strs.v[id];
    return s->len == k->n && s->atom == k->atom && memcmp(k->S->text.v + s->off, k->p, k->n) == 0;
}

/* Intern a base expression (already safe for a terminal). */
static uint32_t str_get(nnav_shapes *S, const char *p, size_t n, int prec, int64_t eval, int atom)
{
    str_key k = {S, p, n, !!atom};
    uint64_t h = str_hash_p(p, n), at = 0;
    uint32_t id = nnav_hashtab_find(&S->strtab, h, str_eq, &k, &at);
    if (id != NNAV_HASHTAB_NONE)
        return id;
    uint32_t off;
    if (text_add(S, p, n, &off) < 0)
        return NNAV_NONE;
    sd_str *s = nnav_vec_push(S->strs);
    if (!s) {
        S->oom = 1;
        return NNAV_NONE;
    }
    *s = (sd_str){off, (uint32_t)n, (uint8_t)prec, (uint8_t)atom, 0, 0, eval, NNAV_DIM_UNKNOWN,
                  NNAV_DIM_UNKNOWN};
    id = S->strs.n - 1;
    if (tab_put(S, &S->strtab, at, h, id, str_rehash) < 0)
        return NNAV_NONE;
    return id;
}

static uint64_t sym_hash(const sd_sym *y)
{
    return nnav_hash_bytes((const uint8_t *)y, sizeof *y, 0x5111);
}
static uint64_t sym_rehash(const void *ctx, uint32_t id)
{
    return sym_hash(&((const nnav_shapes *)ctx)->syms.v[id]);
}
typedef struct sym_key {
    const nnav_shapes *S;
    sd_sym y;
} sym_key;
static int sym_eq(const void *key, uint32_t id)
{
    const sym_key *k = key;
    const sd_sym *a = &k->S->syms.v[id], *b = &k->y;
    return a->base == b->base && a->coef == b->coef && a->add == b->add;
}

/* The only place a symbolic dim is made. */
static nnav_dim sym_dim(uint32_t id)
{
    nnav_dim d;
    d.enc_ = SYM0 + (int64_t)id;
    return d;
}

static int in_range(int64_t v)
{
    return v >= -NNAV_DIM_MAX && v <= NNAV_DIM_MAX;
}

static nnav_dim sym_get(nnav_shapes *S, uint32_t base, int64_t coef, int64_t add)
{
    if (base == NNAV_NONE || !in_range(coef) || !in_range(add))
        return NNAV_DIM_UNKNOWN;
    if (coef == 0)
        return nnav_dim_num(add);
    sd_sym key;
    memset(&key, 0, sizeof key); /* padding takes part in the hash */
    key.base = base, key.coef = coef, key.add = add;
    uint64_t h = sym_hash(&key), at = 0;
    sym_key k = {S, key};
    uint32_t id = nnav_hashtab_find(&S->symtab, h, sym_eq, &k, &at);
    if (id != NNAV_HASHTAB_NONE)
        return sym_dim(id);
    sd_sym *y = nnav_vec_push(S->syms);
    if (!y) {
        S->oom = 1;
        return NNAV_DIM_UNKNOWN;
    }
    *y = key;
    id = S->syms.n - 1;
    if (tab_put(S, &S->symtab, at, h, id, sym_rehash) < 0)
        return NNAV_DIM_UNKNOWN;
    return sym_dim(id);
}

/* The symbol d stands for, copied (making symbols moves the table), or 0
 * when d is not a symbol of this table. */
static int sym_of(const nnav_shapes *S, nnav_dim d, sd_sym *out)
{
    if (!nnav_dim_is_sym(d))
        return 0;
    uint64_t k = (uint64_t)(d.enc_ - SYM0);
    if (k >= S->syms.n)
        return 0;
    *out = S->syms.v[k];
    return 1;
}

/* A named dim from the file. */
static nnav_dim sd_atom(nnav_shapes *S, nnav_span name)
{
    char buf[128];
    size_t n = nnav_text_escape(name.p, (size_t)name.n, buf, sizeof buf);
    int64_t v = 1;
    for (size_t i = 0; i < S->n_bind; i++)
        if (nnav_span_eqs(name, S->bind[i].name))
            v = S->bind[i].value;
    /* A name that reads as an expression ("2*s0", "h-1") is parenthesised
     * as an operand, like a sum: one name, not the arithmetic it spells. */
    int prec = P_ATOM;
    for (size_t i = 0; i < n; i++)
        if (strchr("+-*/%() ,", buf[i]))
            prec = P_SUM;
    return sym_get(S, str_get(S, buf, n, prec, v, 1), 1, 0);
}

/* ---- dim arithmetic ---- */

int64_t nnav_dim_eval(const nnav_shapes *S, nnav_dim d)
{
    if (nnav_dim_is_num(d))
        return nnav_dim_val(d) >= 0 ? nnav_dim_val(d) : -1;
    sd_sym y;
    if (!sym_of(S, d, &y))
        return -1;
    int64_t b = S->strs.v[y.base].eval, r;
    if (b < 0 || __builtin_mul_overflow(b, y.coef, &r) || __builtin_add_overflow(r, y.add, &r) ||
        r < 0)
        return -1;
    return r;
}

/* How coef * base + add binds as written by sym_put. */
static int sym_prec(const nnav_shapes *S, const sd_sym *y)
{
    int p = S->strs.v[y->base].prec;
    if (y->add != 0 || y->coef < 0)
        return P_SUM;
    if (y->coef == 1)
        return p;
    return p == P_DIV ? P_DIV : P_MUL; /* "base*3", a sum base in parentheses */
}

/* Symbol y, in parentheses when it binds looser than `loosest` allows. */
static void sym_put(const nnav_shapes *S, nnav_sbuf *b, const sd_sym *y, int loosest)
{
    const sd_str *s = &S->strs.v[y->base];
    int paren = sym_prec(S, y) > loosest;
    if (paren)
        nnav_sb_put(b, "(");
    if (y->coef < 0)
        nnav_sb_put(b, "-");
    int64_t c = y->coef < 0 ? -y->coef : y->coef;
    /* "-(a/2)" is not "-a/2" in floor division; "(a+1)*2" */
    int inner = (s->prec == P_SUM && (c != 1 || y->coef < 0)) || (s->prec == P_DIV && y->coef < 0);
    if (inner)
        nnav_sb_put(b, "(");
    nnav_sb_printf(b, "%.*s", (int)s->len, S->text.v + s->off);
    if (inner)
        nnav_sb_put(b, ")");
    if (c != 1)
        nnav_sb_printf(b, "*%lld", (long long)c);
    if (y->add > 0)
        nnav_sb_printf(b, "+%lld", (long long)y->add);
    else if (y->add < 0)
        nnav_sb_printf(b, "-%llu", (unsigned long long)-(uint64_t)y->add);
    if (paren)
        nnav_sb_put(b, ")");
}

static void dim_put(const nnav_shapes *S, nnav_sbuf *b, nnav_dim d, int loosest)
{
    sd_sym y;
    if (nnav_dim_is_num(d)) {
        int neg = nnav_dim_val(d) < 0 && loosest < P_SUM;
        nnav_sb_printf(b, neg ? "(%lld)" : "%lld", (long long)nnav_dim_val(d));
    } else if (sym_of(S, d, &y))
        sym_put(S, b, &y, loosest);
    else
        nnav_sb_put(b, "?");
}

size_t nnav_dim_format(const nnav_shapes *S, nnav_dim d, char *buf, size_t n)
{
    nnav_sbuf b = {buf, n, 0};
    if (n)
        buf[0] = 0;
    dim_put(S, &b, d, P_SUM);
    return b.o < n ? b.o : (n ? n - 1 : 0);
}

/* How dim d binds as dim_put writes it. */
static int dim_prec(const nnav_shapes *S, nnav_dim d)
{
    sd_sym y;
    if (nnav_dim_is_num(d))
        return nnav_dim_val(d) < 0 ? P_SUM : P_ATOM;
    return sym_of(S, d, &y) ? sym_prec(S, &y) : P_ATOM;
}

/* A new base from an expression of two dims that linear forms cannot hold:
 * a op b, each operand in parentheses where it binds looser than op's
 * place allows (see P_*). */
static nnav_dim sd_combine(nnav_shapes *S, nnav_dim a, const char *op, nnav_dim b, int64_t eval)
{
    char buf[256];
    nnav_sbuf sb = {buf, sizeof buf, 0};
    int is_sum = op[0] == '+' || op[0] == '-';
    int prec = is_sum ? P_SUM : op[0] == '/' || dim_prec(S, a) == P_DIV ? P_DIV : P_MUL;
    dim_put(S, &sb, a, is_sum ? P_SUM : P_DIV);
    size_t mark = sb.o;
    dim_put(S, &sb, b, is_sum ? P_DIV : op[0] == '*' ? P_MUL : P_ATOM);
    /* "a+-b" reads better as "a-b" */
    if (!(op[0] == '+' && buf[mark] == '-')) {
        char tail[256];
        snprintf(tail, sizeof tail, "%s", buf + mark);
        sb.o = mark;
        buf[mark] = 0;
        nnav_sb_put(&sb, op);
        nnav_sb_put(&sb, tail);
    }
    if (sb.o >= sizeof buf - 1)
        return NNAV_DIM_UNKNOWN; /* too long to be useful */
    uint32_t base = str_get(S, buf, sb.o, prec, eval, 0);
    if (base != NNAV_NONE && op[0] == '*' && !S->strs.v[base].mul && !S->strs.v[base].min) {
        S->strs.v[base].mul = 1;
        S->strs.v[base].arg_a = a, S->strs.v[base].arg_b = b;
    }
    return sym_get(S, base, 1, 0);
}

static int64_t eval2(const nnav_shapes *S, nnav_dim a, nnav_dim b, char op)
{
    int64_t x = nnav_dim_eval(S, a), y = nnav_dim_eval(S, b), r;
    if (x < 0 || y < 0)
        return -1;
    switch (op) {
    case '+': return __builtin_add_overflow(x, y, &r) ? -1 : r;
    case '*': return __builtin_mul_overflow(x, y, &r) ? -1 : r;
    case '/': return y ? x / y : -1;
    }
    return -1;
}

#define NUM(d) nnav_dim_is_num(d)
#define UNK(d) nnav_dim_is_unknown(d)
#define VAL(d) nnav_dim_val(d)

/* Every result below is made by nnav_dim_num() or sym_get(), both of which
 * give unknown past the dim range, and every int64_t operation on the
 * numbers is checked: an overflow gives unknown. Symbols are copied out of
 * the table (sym_of) before any call that may add to it. */

nnav_dim nnav_sd_add(nnav_shapes *S, nnav_dim a, nnav_dim b)
{
    if (UNK(a) || UNK(b))
        return NNAV_DIM_UNKNOWN;
    int64_t r;
    if (NUM(a) && NUM(b))
        return __builtin_add_overflow(VAL(a), VAL(b), &r) ? NNAV_DIM_UNKNOWN : nnav_dim_num(r);
    if (NUM(a)) {
        nnav_dim t = a;
        a = b, b = t;
    }
    sd_sym x, y;
    if (!sym_of(S, a, &x))
        return NNAV_DIM_UNKNOWN;
    if (NUM(b))
        return __builtin_add_overflow(x.add, VAL(b), &r) ? NNAV_DIM_UNKNOWN
                                                        : sym_get(S, x.base, x.coef, r);
    if (!sym_of(S, b, &y))
        return NNAV_DIM_UNKNOWN;
    int64_t c;
    if (x.base == y.base) {
        if (__builtin_add_overflow(x.coef, y.coef, &c) || __builtin_add_overflow(x.add, y.add, &r))
            return NNAV_DIM_UNKNOWN;
        return sym_get(S, x.base, c, r);
    }
    return sd_combine(S, a, "+", b, eval2(S, a, b, '+'));
}

static nnav_dim sd_scale(nnav_shapes *S, nnav_dim a, int64_t k)
{
    sd_sym x;
    int64_t c, r;
    if (!sym_of(S, a, &x) || __builtin_mul_overflow(x.coef, k, &c) ||
        __builtin_mul_overflow(x.add, k, &r))
        return NNAV_DIM_UNKNOWN;
    return sym_get(S, x.base, c, r);
}

nnav_dim nnav_sd_sub(nnav_shapes *S, nnav_dim a, nnav_dim b)
{
    if (UNK(a) || UNK(b))
        return NNAV_DIM_UNKNOWN;
    int64_t r;
    if (NUM(a) && NUM(b))
        return __builtin_sub_overflow(VAL(a), VAL(b), &r) ? NNAV_DIM_UNKNOWN : nnav_dim_num(r);
    sd_sym x, y;
    if (NUM(b)) {
        if (!sym_of(S, a, &x) || __builtin_sub_overflow(x.add, VAL(b), &r))
            return NNAV_DIM_UNKNOWN;
        return sym_get(S, x.base, x.coef, r);
    }
    nnav_dim nb = sd_scale(S, b, -1);
    if (UNK(nb) || NUM(a))
        return nnav_sd_add(S, a, nb);
    if (!sym_of(S, a, &x) || !sym_of(S, nb, &y))
        return NNAV_DIM_UNKNOWN;
    if (x.base == y.base)
        return nnav_sd_add(S, a, nb);
    int64_t ea = nnav_dim_eval(S, a), eb = nnav_dim_eval(S, b);
    return sd_combine(S, a, "-", b, ea >= 0 && eb >= 0 && ea >= eb ? ea - eb : -1);
}

nnav_dim nnav_sd_mul(nnav_shapes *S, nnav_dim a, nnav_dim b)
{
    if (nnav_dim_is(a, 0) || nnav_dim_is(b, 0))
        return nnav_dim_num(0);
    if (UNK(a) || UNK(b))
        return NNAV_DIM_UNKNOWN;
    int64_t r;
    if (NUM(a) && NUM(b))
        return __builtin_mul_overflow(VAL(a), VAL(b), &r) ? NNAV_DIM_UNKNOWN : nnav_dim_num(r);
    if (NUM(a))
        return sd_scale(S, b, VAL(a));
    if (NUM(b))
        return sd_scale(S, a, VAL(b));
    sd_sym x, y;
    if (!sym_of(S, a, &x) || !sym_of(S, b, &y))
        return NNAV_DIM_UNKNOWN;
    if (!x.add && !y.add) {
        /* (2*h)*(3*w) is h*w*6: numbers out, bases in a fixed order, so
         * that the same product is the same symbol however it was built. */
        int64_t k;
        if (__builtin_mul_overflow(x.coef, y.coef, &k))
            return NNAV_DIM_UNKNOWN;
        nnav_dim p = sym_get(S, x.base, 1, 0), q = sym_get(S, y.base, 1, 0);
        if (UNK(p) || UNK(q))
            return NNAV_DIM_UNKNOWN;
        const sd_str *ps = &S->strs.v[x.base], *qs = &S->strs.v[y.base];
        size_t n = ps->len < qs->len ? ps->len : qs->len;
        int c = memcmp(S->text.v + ps->off, S->text.v + qs->off, n);
        if (c > 0 || (c == 0 && ps->len > qs->len)) {
            nnav_dim t = p;
            p = q, q = t;
        }
        nnav_dim base = sd_combine(S, p, "*", q, eval2(S, p, q, '*'));
        return UNK(base) ? base : sd_scale(S, base, k);
    }
    return sd_combine(S, a, "*", b, eval2(S, a, b, '*'));
}

/* Floor of a / k for k > 0 (callers check; then neither / nor % overflows). */
static int64_t floor_div(int64_t a, int64_t k)
{
    int64_t q = a / k;
    return (a % k != 0 && a < 0) ? q - 1 : q;
}

/* A product as a number times factors: d = *k * f[0] * ... * f[*nf-1],
 * each factor a symbol that is no product of ours (a name, "h+1", "a/2").
 * 0 when d is unknown, has more than max factors, or *k overflows. */
#define SD_FACTORS 16
static int sd_factors(nnav_shapes *S, nnav_dim d, int64_t *k, nnav_dim *f, size_t *nf, int depth)
{
    sd_sym y;
    if (NUM(d))
        return !__builtin_mul_overflow(*k, VAL(d), k);
    if (depth > 32 || !sym_of(S, d, &y))
        return 0;
    if (y.add) {
        if (*nf >= SD_FACTORS)
            return 0;
        f[(*nf)++] = d;
        return 1;
    }
    if (__builtin_mul_overflow(*k, y.coef, k))
        return 0;
    const sd_str *s = &S->strs.v[y.base];
    if (s->mul) {
        nnav_dim x = s->arg_a, z = s->arg_b;
        return sd_factors(S, x, k, f, nf, depth + 1) && sd_factors(S, z, k, f, nf, depth + 1);
    }
    if (*nf >= SD_FACTORS)
        return 0;
    f[(*nf)++] = y.coef == 1 ? d : sym_get(S, y.base, 1, 0);
    return !UNK(f[*nf - 1]);
}

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b, b = t;
    }
    return a;
}

/* a / b with the factors they share cancelled: (n*120*(s+1)) / (n*120) is
 * s+1, (a*b)/(a*c) is b/c. Exact for sizes: a shared factor is a size
 * (>= 1 wherever the division is defined), and floor(x*f / (y*f)) is
 * floor(x / y). Unknown when nothing cancels. */
static nnav_dim sd_div_cancel(nnav_shapes *S, nnav_dim a, nnav_dim b)
{
    nnav_dim fa[SD_FACTORS], fb[SD_FACTORS];
    size_t na = 0, nb = 0;
    int64_t ka = 1, kb = 1;
    if (!sd_factors(S, a, &ka, fa, &na, 0) || !sd_factors(S, b, &kb, fb, &nb, 0) || ka <= 0 ||
        kb <= 0)
        return NNAV_DIM_UNKNOWN;
    int cancelled = 0;
    for (size_t i = 0; i < nb;) {
        size_t j = 0;
        while (j < na && !nnav_dim_eq(fa[j], fb[i]))
            j++;
        if (j == na) {
            i++;
            continue;
        }
        fa[j] = fa[--na];
        fb[i] = fb[--nb];
        cancelled = 1;
    }
    int64_t g = gcd64(ka, kb);
    if (!cancelled && g == 1)
        return NNAV_DIM_UNKNOWN;
    nnav_dim x = nnav_dim_num(ka / g), y = nnav_dim_num(kb / g);
    for (size_t i = 0; i < na && !UNK(x); i++)
        x = nnav_sd_mul(S, x, fa[i]);
    for (size_t i = 0; i < nb && !UNK(y); i++)
        y = nnav_sd_mul(S, y, fb[i]);
    return nnav_sd_div(S, x, y);
}

nnav_dim nnav_sd_div(nnav_shapes *S, nnav_dim a, nnav_dim b)
{
    if (nnav_dim_is(a, 0))
        return a;
    if (UNK(a) || UNK(b) || (NUM(b) && VAL(b) <= 0))
        return NNAV_DIM_UNKNOWN; /* no division by 0, by a negative, or of INT64_MIN by -1 */
    if (nnav_dim_is(b, 1))
        return a;
    if (NUM(a) && NUM(b))
        return nnav_dim_num(floor_div(VAL(a), VAL(b)));
    sd_sym x, y;
    if (NUM(b)) {
        if (!sym_of(S, a, &x))
            return NNAV_DIM_UNKNOWN;
        if (x.coef % VAL(b) == 0)
            return sym_get(S, x.base, x.coef / VAL(b), floor_div(x.add, VAL(b)));
        nnav_dim c = sd_div_cancel(S, a, b);
        if (!UNK(c))
            return c;
        int64_t e = nnav_dim_eval(S, a);
        return sd_combine(S, a, "/", b, e >= 0 ? e / VAL(b) : -1);
    }
    if (nnav_dim_eq(a, b))
        return nnav_dim_num(1);
    /* batch*seq*768 / (batch*seq*12); coefficients are within the dim range
     * and never 0, so neither % nor / overflows */
    if (sym_of(S, a, &x) && sym_of(S, b, &y) && x.base == y.base && !x.add && !y.add &&
        y.coef != 0 && x.coef % y.coef == 0)
        return nnav_dim_num(x.coef / y.coef);
    nnav_dim c = sd_div_cancel(S, a, b);
    if (!UNK(c))
        return c;
    return sd_combine(S, a, "/", b, eval2(S, a, b, '/'));
}

nnav_dim nnav_sd_cdiv(nnav_shapes *S, nnav_dim a, nnav_dim b)
{
    if (NUM(b) && VAL(b) >= 1)
        return nnav_sd_div(S, nnav_sd_add(S, a, nnav_dim_num(VAL(b) - 1)), b);
    if (nnav_dim_eq(a, b) && !UNK(a))
        return nnav_dim_num(1);
    return NNAV_DIM_UNKNOWN;
}

int nnav_sd_sign(const nnav_shapes *S, nnav_dim d)
{
    sd_sym y;
    if (NUM(d))
        return VAL(d) > 0 ? 1 : VAL(d) < 0 ? -1 : 1;
    if (!sym_of(S, d, &y) || !S->strs.v[y.base].atom)
        return 0; /* a combined base may be a difference */
    if (y.coef > 0 && y.add >= 0)
        return 1;
    if (y.coef < 0 && y.add <= 0)
        return -1;
    return 0;
}

int nnav_sd_same(nnav_dim a, nnav_dim b)
{
    return nnav_dim_eq(a, b) && !UNK(a);
}

/* The operands of a "min(x,y)" dim, or 0. */
static int min_args(const nnav_shapes *S, nnav_dim d, nnav_dim *x, nnav_dim *y)
{
    sd_sym s;
    if (!sym_of(S, d, &s) || s.coef != 1 || s.add || !S->strs.v[s.base].min)
        return 0;
    *x = S->strs.v[s.base].arg_a, *y = S->strs.v[s.base].arg_b;
    return 1;
}

nnav_dim nnav_sd_min(nnav_shapes *S, nnav_dim a, nnav_dim b)
{
    if (UNK(a) || UNK(b))
        return NNAV_DIM_UNKNOWN;
    if (NUM(a) && NUM(b))
        return VAL(a) < VAL(b) ? a : b;
    if (nnav_dim_eq(a, b))
        return a;
    if (NUM(a)) { /* "min(seq,512)": the symbol first, one spelling per pair */
        nnav_dim t = a;
        a = b, b = t;
    }
    char buf[256];
    nnav_sbuf sb = {buf, sizeof buf, 0};
    nnav_sb_put(&sb, "min(");
    dim_put(S, &sb, a, P_SUM);
    nnav_sb_put(&sb, ",");
    dim_put(S, &sb, b, P_SUM);
    nnav_sb_put(&sb, ")");
    if (sb.o >= sizeof buf - 1)
        return NNAV_DIM_UNKNOWN;
    int64_t x = nnav_dim_eval(S, a), y = nnav_dim_eval(S, b);
    uint32_t base = str_get(S, buf, sb.o, P_ATOM, x < 0 || y < 0 ? -1 : x < y ? x : y, 0);
    if (base == NNAV_NONE)
        return NNAV_DIM_UNKNOWN;
    S->strs.v[base].min = 1, S->strs.v[base].arg_a = a, S->strs.v[base].arg_b = b;
    return sym_get(S, base, 1, 0);
}

nnav_dim nnav_sd_broadcast(nnav_shapes *S, nnav_dim a, nnav_dim b, int *bad)
{
    if (nnav_dim_is(a, 1))
        return b;
    if (nnav_dim_is(b, 1) || nnav_dim_eq(a, b))
        return a;
    if (NUM(a) && NUM(b)) {
        *bad = 1;
        return NNAV_DIM_UNKNOWN;
    }
    /* x against min(x,c) (a sequence cut to a table's length, as position
     * ids are): min(x,c) is 1 only when x is, and otherwise the two must be
     * equal, so the result is x. */
    nnav_dim x, y;
    if (min_args(S, b, &x, &y) && (nnav_dim_eq(x, a) || nnav_dim_eq(y, a)))
        return a;
    if (min_args(S, a, &x, &y) && (nnav_dim_eq(x, b) || nnav_dim_eq(y, b)))
        return b;
    /* A size other than 1 wins over what is not known: the other must be
     * that size or 1, and either way the result is that size. */
    if (NUM(a))
        return a;
    if (NUM(b))
        return b;
    return NNAV_DIM_UNKNOWN;
}

/* ---- facts ---- */

static uint32_t dims_put(nnav_shapes *S, const nnav_dim *d, size_t n)
{
    if (S->dims.n + n > UINT32_MAX - 2 ||
        nnav_vec_reserve(S->dims, S->dims.n + (uint32_t)n + 1) < 0) {
        S->oom = 1;
        return NNAV_NONE;
    }
    uint32_t first = S->dims.n;
    if (n)
        memcpy(S->dims.v + first, d, n * sizeof *d);
    S->dims.n += (uint32_t)n;
    return first;
}

const nnav_fact *nnav_shapes_fact(const nnav_shapes *S, uint32_t v)
{
    return v < S->m->values.n ? &S->facts[v] : &UNKNOWN;
}

const nnav_dim *nnav_shapes_dims(const nnav_shapes *S, uint32_t first)
{
    return first < S->dims.n ? S->dims.v + first : S->dims.v;
}

static uint32_t why_add(nnav_shapes *S, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static uint32_t why_add(nnav_shapes *S, const char *fmt, ...)
{
    char buf[320];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NNAV_NONE;
    if ((size_t)n >= sizeof buf)
        n = sizeof buf - 1;
    uint32_t off, *w;
    if (text_add(S, buf, (size_t)n, &off) < 0 || !(w = nnav_vec_push(S->whys))) {
        S->oom = 1;
        return NNAV_NONE;
    }
    *w = off;
    return S->whys.n - 1;
}

const char *nnav_shapes_why(const nnav_shapes *S, uint32_t why)
{
    return why < S->whys.n ? S->text.v + S->whys.v[why] : "";
}

_Static_assert(NNAV_RANK_MAX <= NNAV_TYPE_DIMS_MAX, "a file type keeps every axis inference does");

/* What the file says of v, dims into d (max NNAV_RANK_MAX). */
static int file_fact(nnav_shapes *S, uint32_t v, nnav_fact *f, nnav_dim *d)
{
    const nnav_model *m = S->m;
    const nnav_value *val = &m->values.v[v];
    *f = UNKNOWN;
    if (val->kind == NNAV_VAL_INITIALIZER || val->kind == NNAV_VAL_SPARSE) {
        const nnav_tensor *t;
        uint32_t nd, first;
        if (val->kind == NNAV_VAL_INITIALIZER) {
            t = &m->tensors.v[val->producer];
            nd = t->ndims, first = t->dims_first;
        } else {
            const nnav_sparse *sp = &m->sparse.v[val->producer];
            if (sp->values == NNAV_NONE)
                return 0;
            t = &m->tensors.v[sp->values];
            nd = sp->ndims, first = sp->dims_first;
        }
        f->dtype = t->dtype;
        if (nd <= NNAV_RANK_MAX) {
            f->rank = (int32_t)nd;
            for (uint32_t i = 0; i < nd; i++)
                d[i] = m->dims.v[first + i] >= 0 ? nnav_dim_num(m->dims.v[first + i])
                                                 : NNAV_DIM_UNKNOWN;
        }
        f->src = NNAV_SRC_FILE;
        return 1;
    }
    if (val->vinfo == NNAV_NONE)
        return 0;
    nnav_span type = m->vinfos.v[val->vinfo].type;
    if (!type.p)
        return 0;
    S->work += type.n / 64; /* the type is read again at each inference of its graph */
    nnav_type t;
    int k = nnav_type_decode(m, type, &t);
    if (k < 0)
        return 0;
    f->src = NNAV_SRC_FILE;
    if (k == 0) {
        /* A sequence of tensors: its elements' type, as inference keeps it. */
        f->not_tensor = NNAV_NT_OTHER;
        if (t.nest == 1 && t.outer[0] == NNAV_TYPE_SEQUENCE &&
            (t.leaf == NNAV_TYPE_TENSOR || t.leaf == NNAV_TYPE_SPARSE_TENSOR))
            f->not_tensor = NNAV_NT_SEQ;
        else
            return 1;
    }
    f->dtype = t.elem;
    if (t.rank >= 0 && t.rank <= NNAV_RANK_MAX) {
        f->rank = (int32_t)t.rank;
        for (int64_t i = 0; i < t.rank; i++)
            d[i] = t.axis[i] == NNAV_AXIS_SIZE && t.dims[i] >= 0 ? nnav_dim_num(t.dims[i])
                   : t.axis[i] == NNAV_AXIS_SYMBOL && t.syms[i].n ? sd_atom(S, t.syms[i])
                                                                   : NNAV_DIM_UNKNOWN;
    }
    return 1;
}

int nnav_shapes_file_fact(const nnav_shapes *s, uint32_t v, nnav_fact *out, nnav_dim *dims,
                          size_t max)
{
    /* Atoms met here are already interned by the pass, which read every
     * value's file type; the cast only lets the lookup share file_fact. */
    nnav_shapes *S = (nnav_shapes *)s;
    nnav_dim d[NNAV_RANK_MAX];
    if (v >= S->m->values.n || !file_fact(S, v, out, d))
        return 0;
    if (out->rank > 0)
        memcpy(dims, d, (size_t)(out->rank < (int32_t)max ? out->rank : (int32_t)max) * sizeof *d);
    out->dims = NNAV_NONE;
    return 1;
}

static int fact_empty(const nnav_fact *f)
{
    return f->dtype == 0 && f->rank < 0 && !f->not_tensor;
}

/* A size: a number >= 0 (not a symbol, an unknown or a folded -1). */
static int is_size(nnav_dim d)
{
    return nnav_dim_is_num(d) && nnav_dim_val(d) >= 0;
}

/* Settle value v: its inferred fact (already in facts[v], src INFERRED or
 * NONE) against what the file says. */
static void settle(nnav_shapes *S, uint32_t v)
{
    nnav_fact F;
    nnav_dim fd[NNAV_RANK_MAX];
    nnav_fact *I = &S->facts[v];
    if (!file_fact(S, v, &F, fd)) {
        if (!fact_empty(I))
            I->src = NNAV_SRC_INFERRED;
        return;
    }
    if (fact_empty(I)) {
        uint32_t why = I->why;
        *I = F;
        I->why = why;
        if (F.rank >= 0)
            I->dims = dims_put(S, fd, (size_t)F.rank);
        return;
    }
    int clash = 0;
    if (F.dtype && I->dtype && F.dtype != I->dtype)
        clash = 1;
    if (F.rank >= 0 && I->rank >= 0 && F.rank != I->rank)
        clash = 1;
    if (!clash && F.rank >= 0 && I->rank >= 0) {
        const nnav_dim *id = S->dims.v + I->dims;
        for (int32_t i = 0; i < F.rank; i++)
            if (is_size(fd[i]) && is_size(id[i]) && !nnav_dim_eq(fd[i], id[i]))
                clash = 1;
    }
    if (clash) {
        I->src = NNAV_SRC_DISAGREE;
        return;
    }
    /* Agreeing: the file may know more (a size where inference has a
     * symbol or nothing, a name where it has nothing). */
    I->src = NNAV_SRC_AGREE;
    if (!I->dtype)
        I->dtype = F.dtype;
    if (F.rank >= 0 && I->rank < 0) {
        I->rank = F.rank;
        I->dims = dims_put(S, fd, (size_t)F.rank);
    } else if (F.rank >= 0) {
        nnav_dim d[NNAV_RANK_MAX];
        int better = 0;
        memcpy(d, S->dims.v + I->dims, (size_t)I->rank * sizeof *d);
        for (int32_t i = 0; i < F.rank; i++)
            if ((is_size(fd[i]) && !is_size(d[i])) ||
                (!nnav_dim_is_unknown(fd[i]) && nnav_dim_is_unknown(d[i])))
                d[i] = fd[i], better = 1;
        if (better)
            I->dims = dims_put(S, d, (size_t)F.rank);
    }
}

/* ---- the rules' view ---- */

static uint32_t in_value(const nnav_ictx *ix, uint32_t i)
{
    return i < ix->nd->in_count ? ix->m->refs.v[ix->nd->in_first + i].value : NNAV_NONE;
}

static uint32_t out_value(const nnav_ictx *ix, uint32_t o)
{
    return o < ix->nd->out_count ? ix->m->refs.v[ix->nd->out_first + o].value : NNAV_NONE;
}

uint32_t nnav_ix_nin(const nnav_ictx *ix)
{
    return ix->nin;
}

/* The view of node n that rules get; its input count found once (rules
 * ask for it in loops, and trailing control inputs take a walk back). */
static void ix_init(nnav_ictx *ix, nnav_shapes *S, uint32_t n, int depth, uint32_t caller)
{
    const nnav_model *m = S->m;
    const nnav_node *nd = &m->nodes.v[n];
    uint32_t k = nd->in_count;
    while (k && nnav_ref_control(m, nd->in_first + k - 1))
        k--;
    ix->S = S, ix->m = m, ix->nd = nd, ix->node = n, ix->depth = depth, ix->caller = caller;
    ix->nin = k;
    ix->why[0] = 0; /* a reason is written whole by nnav_ix_fail */
    ix->conflict = 0;
}

/* A node's domain as the rules see it: ONNX's default one (none written,
 * or "ai.onnx"), ONNX Runtime's contrib ops (com.microsoft, whose rules are
 * nnav_shape_rules_ms: its Attention and RotaryEmbedding are not ONNX's),
 * or another, which has no rules. */
enum { DOM_NONE = 1, DOM_AI_ONNX, DOM_MS, DOM_OTHER };

/* Node n's domain. Reading it walks the node's bytes, so it is read once. */
static int dom_of(nnav_shapes *S, uint32_t n)
{
    if (!S->dom_kind[n]) {
        nnav_span d = nnav_node_domain(S->m, n);
        S->dom_kind[n] = !d.n                            ? DOM_NONE
                         : nnav_span_eqs(d, "ai.onnx")       ? DOM_AI_ONNX
                         : nnav_span_eqs(d, "com.microsoft") ? DOM_MS
                                                             : DOM_OTHER;
    }
    return S->dom_kind[n];
}

static int dom_onnx(nnav_shapes *S, uint32_t n)
{
    int k = dom_of(S, n);
    return k == DOM_NONE || k == DOM_AI_ONNX;
}

uint32_t nnav_ix_nout(const nnav_ictx *ix)
{
    return ix->nd->out_count;
}

const nnav_fact *nnav_ix_in(const nnav_ictx *ix, uint32_t i)
{
    uint32_t v = in_value(ix, i);
    return v == NNAV_NONE ? NULL : &ix->S->facts[v];
}

int nnav_ix_present(const nnav_ictx *ix, uint32_t i)
{
    return in_value(ix, i) != NNAV_NONE;
}

int32_t nnav_ix_rank(const nnav_ictx *ix, uint32_t i)
{
    const nnav_fact *f = nnav_ix_in(ix, i);
    return f ? f->rank : -1;
}

int32_t nnav_ix_dtype(const nnav_ictx *ix, uint32_t i)
{
    const nnav_fact *f = nnav_ix_in(ix, i);
    return f ? f->dtype : 0;
}

const nnav_dim *nnav_ix_dims(const nnav_ictx *ix, uint32_t i)
{
    const nnav_fact *f = nnav_ix_in(ix, i);
    return f && f->rank >= 0 ? ix->S->dims.v + f->dims : NULL;
}

int nnav_ix_fold(const nnav_ictx *ix, uint32_t i, const nnav_dim **vals)
{
    const nnav_fact *f = nnav_ix_in(ix, i);
    if (!f || f->fold == NNAV_NONE)
        return -1;
    *vals = ix->S->dims.v + f->fold;
    return (int)f->fold_n;
}

int nnav_ix_ints(const nnav_ictx *ix, uint32_t i, int64_t *buf, size_t max)
{
    const nnav_dim *v;
    int n = nnav_ix_fold(ix, i, &v);
    if (n < 0 || (size_t)n > max)
        return -1;
    for (int k = 0; k < n; k++) {
        /* Folded integers may be negative (a Reshape's -1); a symbolic
         * element is not a number. */
        if (!nnav_dim_is_num(v[k]))
            return -1;
        buf[k] = nnav_dim_val(v[k]);
    }
    return n;
}

/* The tensor that holds a constant value: an initializer or a Constant's. */
static uint32_t const_tensor(nnav_shapes *S, uint32_t v)
{
    const nnav_model *m = S->m;
    if (v == NNAV_NONE)
        return NNAV_NONE;
    const nnav_value *val = &m->values.v[v];
    if (val->kind == NNAV_VAL_INITIALIZER)
        return val->producer;
    if (val->kind != NNAV_VAL_NODE)
        return NNAV_NONE;
    const nnav_node *nd = &m->nodes.v[val->producer];
    if (!nnav_span_eqs(nd->op, "Constant") || dom_of(S, val->producer) != DOM_NONE)
        return NNAV_NONE;
    for (uint32_t a = 0; a < nd->attr_count; a++) {
        const nnav_attr *at = &m->attrs.v[nd->attr_first + a];
        if (at->type == NNAV_ATTR_TENSOR && at->tensor_count && !at->ref_attr_name.n)
            return at->tensor_first;
    }
    return NNAV_NONE;
}

static int tensor_small(const nnav_model *m, uint32_t t, double *buf, size_t max)
{
    const nnav_tensor *tt = &m->tensors.v[t];
    if (tt->nelems > max || tt->warn || tt->storage == NNAV_STORE_SPARSE)
        return -1;
    nnav_values vals = {0};
    vals.v = buf;
    nnav_error e;
    if (nnav_tensor_values(m, t, max, 0, &vals, &e) < 0 || vals.count != tt->nelems)
        return -1;
    return (int)vals.count;
}

int nnav_ix_floats(const nnav_ictx *ix, uint32_t i, double *buf, size_t max)
{
    uint32_t t = const_tensor(ix->S, in_value(ix, i));
    return t == NNAV_NONE ? -1 : tensor_small(ix->m, t, buf, max);
}

/* Looking an attribute up, and reading it after, cost the budget its
 * scan and its bytes (a node may carry many, or big ones). */
uint32_t nnav_ix_attr(const nnav_ictx *ix, const char *name)
{
    const nnav_model *m = ix->m;
    const nnav_node *nd = ix->nd;
    ix->S->work += nd->attr_count;
    for (uint32_t a = 0; a < nd->attr_count; a++) {
        const nnav_attr *at = &m->attrs.v[nd->attr_first + a];
        if (!nnav_span_eqs(at->name, name))
            continue;
        if (!at->ref_attr_name.n) {
            ix->S->work += at->msg.n / 64;
            return nd->attr_first + a;
        }
        /* Inside a function: the value is the caller's attribute. */
        if (ix->caller == NNAV_NONE)
            return NNAV_NONE;
        const nnav_node *c = &m->nodes.v[ix->caller];
        ix->S->work += c->attr_count;
        for (uint32_t b = 0; b < c->attr_count; b++) {
            const nnav_attr *cb = &m->attrs.v[c->attr_first + b];
            if (nnav_span_same(cb->name, at->ref_attr_name) && !cb->ref_attr_name.n) {
                ix->S->work += cb->msg.n / 64;
                return c->attr_first + b;
            }
        }
        return NNAV_NONE;
    }
    return NNAV_NONE;
}

int nnav_ix_attr_has(const nnav_ictx *ix, const char *name)
{
    return nnav_ix_attr(ix, name) != NNAV_NONE;
}

int64_t nnav_ix_attr_i(const nnav_ictx *ix, const char *name, int64_t dflt)
{
    uint32_t a = nnav_ix_attr(ix, name);
    int64_t v;
    nnav_error e;
    return a != NNAV_NONE && nnav_attr_int(ix->m, a, &v, &e) == 0 ? v : dflt;
}

int nnav_ix_attr_ints(const nnav_ictx *ix, const char *name, int64_t *buf, size_t max)
{
    uint32_t a = nnav_ix_attr(ix, name);
    size_t total = 0;
    nnav_error e;
    if (a == NNAV_NONE || nnav_attr_ints(ix->m, a, buf, max, &total, &e) < 0 || total > max)
        return -1;
    return (int)total;
}

int nnav_ix_attr_floats(const nnav_ictx *ix, const char *name, double *buf, size_t max)
{
    uint32_t a = nnav_ix_attr(ix, name);
    size_t total = 0;
    nnav_error e;
    if (a == NNAV_NONE || nnav_attr_floats(ix->m, a, buf, max, &total, &e) < 0 || total > max)
        return -1;
    return (int)total;
}

int nnav_ix_attr_s(const nnav_ictx *ix, const char *name, const char *eq)
{
    uint32_t a = nnav_ix_attr(ix, name);
    nnav_span s;
    nnav_error e;
    return a != NNAV_NONE && nnav_attr_string(ix->m, a, &s, &e) == 0 && nnav_span_eqs(s, eq);
}

/* The root above graph g, found once per graph: each walk stops at a graph
 * whose root is known and fills in the ones it passed. */
static uint32_t root_of(nnav_shapes *S, uint32_t g)
{
    const nnav_model *m = S->m;
    uint32_t r = g, steps = 0;
    while (S->root[r] == NNAV_NONE && m->graphs.v[r].parent != NNAV_NONE && steps++ < m->graphs.n)
        r = m->graphs.v[r].parent;
    uint32_t top = S->root[r] != NNAV_NONE ? S->root[r] : r;
    for (uint32_t x = g, k = 0; S->root[x] == NNAV_NONE && k <= steps; k++) {
        S->root[x] = top;
        if (m->graphs.v[x].parent == NNAV_NONE)
            break;
        x = m->graphs.v[x].parent;
    }
    return top;
}

int64_t nnav_ix_opset(const nnav_ictx *ix)
{
    const nnav_model *m = ix->m;
    uint32_t g = root_of(ix->S, ix->nd->graph);
    int onnx = dom_onnx(ix->S, ix->node);
    if (onnx && ix->S->onnx_opset[g] != INT64_MIN)
        return ix->S->onnx_opset[g];
    nnav_span dom = onnx ? (nnav_span){0} : nnav_node_domain(m, ix->node);
    int64_t v = 0;
    uint32_t first = 0, count = m->model_opset_count;
    const nnav_graph *root = &m->graphs.v[g];
    if (root->kind == NNAV_GRAPH_FUNCTION && root->function != NNAV_NONE &&
        m->functions.v[root->function].opset_first != NNAV_NONE) {
        first = m->functions.v[root->function].opset_first;
        count = m->functions.v[root->function].opset_count;
    }
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = first; i < first + count && i < m->opsets.n; i++) {
            nnav_span d = m->opsets.v[i].domain;
            if (d.n == 0 || nnav_span_eqs(d, "ai.onnx")) {
                if (onnx) {
                    v = m->opsets.v[i].version;
                    goto found;
                }
            } else if (nnav_span_same(d, dom)) {
                v = m->opsets.v[i].version;
                goto found;
            }
        }
        first = 0, count = m->model_opset_count; /* a function without its own: the model's */
    }
found:
    if (onnx)
        ix->S->onnx_opset[g] = v;
    return v;
}

nnav_fact nnav_ix_make(nnav_ictx *ix, int32_t dtype, int32_t rank, const nnav_dim *dims)
{
    nnav_fact f = UNKNOWN;
    f.dtype = dtype;
    if (rank >= 0 && rank <= NNAV_RANK_MAX) {
        nnav_dim tmp[NNAV_RANK_MAX];
        if (rank)
            memcpy(tmp, dims, (size_t)rank * sizeof *tmp);
        f.rank = rank;
        f.dims = dims_put(ix->S, tmp, (size_t)rank);
        if (f.dims == NNAV_NONE)
            f.rank = -1;
    }
    f.src = fact_empty(&f) ? NNAV_SRC_NONE : NNAV_SRC_INFERRED;
    return f;
}

void nnav_ix_out(nnav_ictx *ix, uint32_t o, int32_t dtype, int32_t rank, const nnav_dim *dims)
{
    uint32_t v = out_value(ix, o);
    if (v == NNAV_NONE)
        return;
    nnav_fact f = nnav_ix_make(ix, dtype, rank, dims);
    f.why = ix->S->facts[v].why;
    ix->S->facts[v] = f;
}

void nnav_ix_out_same(nnav_ictx *ix, uint32_t o, uint32_t i)
{
    uint32_t v = out_value(ix, o);
    const nnav_fact *f = nnav_ix_in(ix, i);
    if (v == NNAV_NONE || !f)
        return;
    nnav_fact c = *f;
    c.src = fact_empty(&c) ? NNAV_SRC_NONE : NNAV_SRC_INFERRED;
    ix->S->facts[v] = c;
}

void nnav_ix_out_fold(nnav_ictx *ix, uint32_t o, int32_t dtype, int scalar, const nnav_dim *vals,
                      size_t n)
{
    uint32_t v = out_value(ix, o);
    if (v == NNAV_NONE || n > NNAV_FOLD_MAX || (scalar && n != 1))
        return;
    nnav_dim tmp[NNAV_FOLD_MAX];
    memcpy(tmp, vals, n * sizeof *tmp);
    nnav_dim len = nnav_dim_num((int64_t)n);
    nnav_ix_out(ix, o, dtype, scalar ? 0 : 1, &len);
    nnav_fact *f = &ix->S->facts[v];
    f->fold = dims_put(ix->S, tmp, n);
    f->fold_n = f->fold == NNAV_NONE ? 0 : (uint32_t)n;
}

void nnav_ix_out_seq(nnav_ictx *ix, uint32_t o, const nnav_fact *elem, int32_t dtype)
{
    uint32_t v = out_value(ix, o);
    if (v == NNAV_NONE)
        return;
    nnav_fact f = elem ? *elem : UNKNOWN;
    if (!elem)
        f.dtype = dtype;
    f.fold = NNAV_NONE, f.fold_n = 0, f.why = NNAV_NONE;
    f.not_tensor = elem ? NNAV_NT_SEQ : NNAV_NT_SEQ_EMPTY;
    f.src = NNAV_SRC_INFERRED;
    ix->S->facts[v] = f;
}

int nnav_ix_seq(const nnav_ictx *ix, uint32_t i, nnav_fact *elem)
{
    const nnav_fact *f = nnav_ix_in(ix, i);
    if (!f || (f->not_tensor != NNAV_NT_SEQ && f->not_tensor != NNAV_NT_SEQ_EMPTY))
        return 0;
    *elem = *f;
    elem->not_tensor = 0;
    return f->not_tensor == NNAV_NT_SEQ ? 1 : 2;
}

int nnav_ix_fail(nnav_ictx *ix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ix->why, sizeof ix->why, fmt, ap);
    va_end(ap);
    return -1;
}

int nnav_ix_conflict(nnav_ictx *ix, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ix->why, sizeof ix->why, fmt, ap);
    va_end(ap);
    ix->conflict = 1;
    return -1;
}

/* Node n's inputs contradict its operator: its reason kept (the first
 * inference of it that said so). */
static void conflict_note(nnav_shapes *S, uint32_t n, const char *why)
{
    if (!S->conflict) {
        size_t nn = S->m->nodes.n ? S->m->nodes.n : 1;
        if (!(S->conflict = malloc(nn * sizeof *S->conflict))) {
            S->oom = 1;
            return;
        }
        for (size_t i = 0; i < nn; i++)
            S->conflict[i] = NNAV_NONE;
    }
    if (S->conflict[n] == NNAV_NONE)
        S->conflict[n] = why_add(S, "%s", why);
}

const char *nnav_shapes_conflict(const nnav_shapes *S, uint32_t node)
{
    if (!S || !S->conflict || node >= S->m->nodes.n || S->conflict[node] == NNAV_NONE)
        return NULL;
    return nnav_shapes_why(S, S->conflict[node]);
}

/* ---- the pass ---- */

static void infer_graph(nnav_shapes *S, uint32_t g, const nnav_fact *const *seed, size_t n_seed,
                        int depth, uint32_t caller);

/* The budget: work proportional to the model's graphs as the file holds
 * them (nodes, inputs and outputs, values, attributes, and the bytes of
 * nodes and attributes, each of which costs the file at least a byte): 64
 * passes over all of it, and a floor for small models. A linear pass
 * costs a few units a node; bodies inferred again (Loop and Scan until
 * their states settle, functions called with new facts) spend the rest. */
static uint64_t work_budget(const nnav_model *m)
{
    uint64_t u = (uint64_t)m->nodes.n + m->refs.n + m->values.n + m->attrs.n;
    for (uint32_t a = 0; a < m->attrs.n; a++)
        u += m->attrs.v[a].msg.n / 64;
    for (uint32_t n = 0; n < m->nodes.n; n++)
        u += m->nodes.v[n].msg.n / 64;
    return 64 * u + ((uint64_t)1 << 22);
}

/* Spend n units; 1 when the budget is exhausted (now or before). */
static int spend(nnav_shapes *S, uint64_t n)
{
    S->work += n;
    if (!S->over && S->work > S->work_max) {
        S->over = 1;
        S->impure++;
        S->why_budget = why_add(S, "inference budget exhausted: %llu units of work, 64 times "
                                   "the model's size, spent on bodies inferred again and again",
                                (unsigned long long)S->work_max);
    }
    return S->over;
}

uint32_t nnav_ix_body(nnav_ictx *ix, const char *name, const nnav_fact *const *in, size_t n)
{
    uint32_t a = nnav_ix_attr(ix, name);
    if (a == NNAV_NONE)
        return NNAV_NONE;
    const nnav_attr *at = &ix->m->attrs.v[a];
    if ((at->type != NNAV_ATTR_GRAPH && at->type != NNAV_ATTR_TF_FUNC) || at->graph_count != 1)
        return NNAV_NONE;
    uint32_t g = at->graph_first;
    if (ix->S->gstate[g] == 1 || ix->depth + 1 >= SHAPE_DEPTH) {
        ix->S->impure++;
        return NNAV_NONE;
    }
    /* If, Loop, Scan and SequenceMap bodies read the enclosing scope: not
     * memoised, but Loop's and Scan's rounds are bounded (carried_body) and
     * so is the whole by the budget. */
    if (ix->S->over)
        return NNAV_NONE;
    infer_graph(ix->S, g, in, n, ix->depth + 1, ix->caller);
    return g;
}

const nnav_fact *nnav_ix_body_out(const nnav_ictx *ix, uint32_t g, uint32_t k, uint32_t *count)
{
    const nnav_graph *gr = &ix->m->graphs.v[g];
    if (count)
        *count = gr->output_count;
    if (k >= gr->output_count)
        return NULL;
    uint32_t v = ix->m->vinfos.v[gr->output_first + k].value;
    return v == NNAV_NONE ? NULL : &ix->S->facts[v];
}

static int rule_cmp(const void *a, const void *b)
{
    return strcmp((*(const nnav_rule *const *)a)->op, (*(const nnav_rule *const *)b)->op);
}

static const nnav_rule *rule_find(const nnav_shapes *S, nnav_span op)
{
    size_t lo = 0, hi = S->n_rules;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const char *r = S->rules[mid]->op;
        size_t rn = strlen(r), k = rn < op.n ? rn : (size_t)op.n;
        int c = memcmp(r, op.p, k);
        if (c == 0)
            c = rn < op.n ? -1 : rn > op.n ? 1 : 0;
        if (c == 0)
            return S->rules[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const nnav_rule *nnav_ix_onnx_rule(const nnav_ictx *ix, const char *op)
{
    return rule_find(ix->S, (nnav_span){(const uint8_t *)op, strlen(op)});
}

/* ---- calls, memoised ---- */

/* A function body (ONNX model-local, or a TensorFlow library function)
 * sees only its inputs and its caller's attributes, so what it makes of
 * them is the same at every call with the same input facts: it is inferred
 * once per distinct (body, input facts, caller attributes it reads,
 * nesting depth), and other calls reuse the outputs. The body's own values
 * show the facts of the last call that inferred it. */

/* Every graph whose nodes, or whose bodies' nodes, read a caller's
 * attribute (ref_attr_name): only for those do the caller's attributes
 * take part in the memo key. */
static int refs_mark(nnav_shapes *S)
{
    const nnav_model *m = S->m;
    S->uses_refs = calloc(m->graphs.n ? m->graphs.n : 1, 1);
    if (!S->uses_refs)
        return -1;
    for (uint32_t a = 0; a < m->attrs.n; a++) {
        if (!m->attrs.v[a].ref_attr_name.n || m->attrs.v[a].node >= m->nodes.n)
            continue;
        /* up to the root, stopping at a graph already marked (its
         * ancestors are): each graph is marked once */
        for (uint32_t g = m->nodes.v[m->attrs.v[a].node].graph; g < m->graphs.n && !S->uses_refs[g];
             g = m->graphs.v[g].parent)
            S->uses_refs[g] = 1;
    }
    return 0;
}

static uint64_t fact_hash(const nnav_shapes *S, const nnav_fact *f, uint64_t h)
{
    int64_t k[6] = {f->dtype, f->rank, f->not_tensor, f->control, f->why,
                    f->fold == NNAV_NONE ? -1 : (int64_t)f->fold_n};
    h = nnav_hash_bytes((const uint8_t *)k, sizeof k, h);
    if (f->rank > 0)
        h = nnav_hash_bytes((const uint8_t *)(S->dims.v + f->dims), (uint64_t)f->rank * sizeof(nnav_dim), h);
    if (f->fold != NNAV_NONE && f->fold_n)
        h = nnav_hash_bytes((const uint8_t *)(S->dims.v + f->fold), (uint64_t)f->fold_n * sizeof(nnav_dim), h);
    return h;
}

/* The same facts as far as a body can tell (its seeding reads no more). */
static int fact_key_eq(const nnav_shapes *S, const nnav_fact *a, const nnav_fact *b)
{
    if (a->dtype != b->dtype || a->rank != b->rank || a->not_tensor != b->not_tensor ||
        a->control != b->control || a->why != b->why || (a->fold == NNAV_NONE) != (b->fold == NNAV_NONE))
        return 0;
    if (a->rank > 0 && memcmp(S->dims.v + a->dims, S->dims.v + b->dims, (size_t)a->rank * sizeof(nnav_dim)))
        return 0;
    if (a->fold != NNAV_NONE &&
        (a->fold_n != b->fold_n ||
         (a->fold_n && memcmp(S->dims.v + a->fold, S->dims.v + b->fold, (size_t)a->fold_n * sizeof(nnav_dim)))))
        return 0;
    return 1;
}

/* Two callers whose attributes are the same bytes, in the same order. */
static int attrs_same(const nnav_model *m, uint32_t x, uint32_t y)
{
    if (x == y)
        return 1;
    if (x == NNAV_NONE || y == NNAV_NONE)
        return 0;
    const nnav_node *a = &m->nodes.v[x], *b = &m->nodes.v[y];
    if (a->attr_count != b->attr_count)
        return 0;
    for (uint32_t i = 0; i < a->attr_count; i++) {
        nnav_span p = m->attrs.v[a->attr_first + i].msg, q = m->attrs.v[b->attr_first + i].msg;
        if (p.n != q.n || (p.n && memcmp(p.p, q.p, (size_t)p.n)))
            return 0;
    }
    return 1;
}

typedef struct memo_key {
    const nnav_shapes *S;
    uint32_t graph, depth, caller;
    const nnav_fact *const *seed;
    size_t n;
} memo_key;

static uint64_t memo_rehash(const void *ctx, uint32_t id)
{
    return ((const nnav_shapes *)ctx)->memo.v[id].h;
}

static int memo_eq(const void *key, uint32_t id)
{
    const memo_key *k = key;
    const nnav_shapes *S = k->S;
    const call_memo *e = &S->memo.v[id];
    if (e->graph != k->graph || e->depth != k->depth || e->n_in != k->n ||
        !attrs_same(S->m, e->caller, k->caller))
        return 0;
    for (size_t i = 0; i < k->n; i++)
        if (!fact_key_eq(S, &S->memo_facts.v[e->first + i], k->seed[i] ? k->seed[i] : &UNKNOWN))
            return 0;
    return 1;
}

/* Keep what body g made of the seeds: n seeds, then its outputs. Not when
 * the memo has grown past a bound of its own, a sixteenth of the budget in
 * entries and in facts (the budget still bounds the work). */
static void memo_put(nnav_shapes *S, const memo_key *k, uint64_t h)
{
    const nnav_graph *gr = &S->m->graphs.v[k->graph];
    uint64_t need = (uint64_t)S->memo_facts.n + k->n + gr->output_count;
    if (need > S->work_max / 16 || S->memo.n >= S->work_max / 16 || need > UINT32_MAX / 2 ||
        nnav_vec_reserve(S->memo_facts, (uint32_t)need) < 0)
        return;
    /* Inferring the body may have memoised other calls: find the slot now. */
    uint64_t at = 0;
    if (nnav_hashtab_find(&S->memotab, h, memo_eq, k, &at) != NNAV_HASHTAB_NONE)
        return;
    call_memo *e = nnav_vec_push(S->memo);
    if (!e)
        return;
    *e = (call_memo){h, k->graph, k->depth, k->caller, S->memo_facts.n, (uint32_t)k->n,
                     gr->output_count};
    for (size_t i = 0; i < k->n; i++)
        S->memo_facts.v[S->memo_facts.n++] = k->seed[i] ? *k->seed[i] : UNKNOWN;
    for (uint32_t o = 0; o < gr->output_count; o++) {
        uint32_t v = S->m->vinfos.v[gr->output_first + o].value;
        S->memo_facts.v[S->memo_facts.n++] = v == NNAV_NONE ? UNKNOWN : S->facts[v];
    }
    tab_put(S, &S->memotab, at, h, S->memo.n - 1, memo_rehash); /* S->oom says a failure */
}

/* Infer body g for a call from ix with seeds seed[0..n) (NULL: unknown),
 * its caller attributes read from node `caller`. Returns its output facts
 * (count in *nout; valid until the next call), or NULL with the reason in
 * ix->why. */
static const nnav_fact *call_body(nnav_ictx *ix, uint32_t g, const nnav_fact *const *seed,
                                  size_t n, uint32_t caller, uint32_t *nout)
{
    nnav_shapes *S = ix->S;
    const nnav_graph *gr = &S->m->graphs.v[g];
    if (S->gstate[g] == 1) {
        S->impure++;
        nnav_ix_fail(ix, "the function calls itself");
        return NULL;
    }
    if (ix->depth + 1 >= SHAPE_DEPTH) {
        S->impure++;
        nnav_ix_fail(ix, "calls nested deeper than %d", SHAPE_DEPTH);
        return NULL;
    }
    memo_key k = {S, g, (uint32_t)ix->depth + 1, S->uses_refs[g] ? caller : NNAV_NONE, seed, n};
    uint32_t hk[3] = {k.graph, k.depth, k.caller};
    uint64_t h = nnav_hash_bytes((const uint8_t *)hk, sizeof hk, 0xca11);
    uint64_t cost = 1 + gr->output_count;
    for (size_t i = 0; i < n; i++) {
        const nnav_fact *f = seed[i] ? seed[i] : &UNKNOWN;
        h = fact_hash(S, f, h);
        cost += 1 + (f->rank > 0 ? (uint64_t)f->rank : 0) + (f->fold != NNAV_NONE ? f->fold_n : 0);
    }
    if (k.caller != NNAV_NONE) {
        const nnav_node *c = &S->m->nodes.v[caller];
        for (uint32_t i = 0; i < c->attr_count; i++) {
            nnav_span p = S->m->attrs.v[c->attr_first + i].msg;
            h = nnav_hash_bytes(p.p, p.n, h);
            cost += 1 + p.n / 64;
        }
    }
    if (spend(S, cost)) {
        nnav_ix_fail(ix, "%s", nnav_shapes_why(S, S->why_budget));
        return NULL;
    }
    uint32_t id = nnav_hashtab_find(&S->memotab, h, memo_eq, &k, NULL);
    if (id == NNAV_HASHTAB_NONE) {
        uint64_t impure = S->impure;
        infer_graph(S, g, seed, n, ix->depth + 1, caller);
        if (S->impure == impure)
            memo_put(S, &k, h);
        else if (S->over) {
            nnav_ix_fail(ix, "%s", nnav_shapes_why(S, S->why_budget));
            return NULL;
        }
        id = nnav_hashtab_find(&S->memotab, h, memo_eq, &k, NULL);
    }
    *nout = gr->output_count;
    if (id != NNAV_HASHTAB_NONE)
        return S->memo_facts.v + S->memo.v[id].first + S->memo.v[id].n_in;
    /* not memoised: the body's outputs as they stand */
    if (nnav_vec_reserve(S->memo_facts, S->memo_facts.n + gr->output_count) < 0) {
        S->oom = 1;
        return NULL;
    }
    nnav_fact *out = S->memo_facts.v + S->memo_facts.n; /* scratch past the end */
    for (uint32_t o = 0; o < gr->output_count; o++) {
        uint32_t v = S->m->vinfos.v[gr->output_first + o].value;
        out[o] = v == NNAV_NONE ? UNKNOWN : S->facts[v];
    }
    return out;
}

const nnav_fact *nnav_ix_call(nnav_ictx *ix, uint32_t graph, const nnav_fact *const *seed,
                              size_t n, uint32_t *nout)
{
    return call_body(ix, graph, seed, n, ix->caller, nout);
}

/* A call of a model-local function: its body with the caller's facts. */
static int call_function(nnav_ictx *ix)
{
    const nnav_model *m = ix->m;
    const nnav_function *fn = &m->functions.v[ix->nd->function];
    uint32_t g = fn->graph;
    if (g == NNAV_NONE)
        return nnav_ix_fail(ix, "its function has no body");
    const nnav_fact *seed[NNAV_RANK_MAX * 4];
    size_t n = nnav_ix_nin(ix);
    if (n > sizeof seed / sizeof *seed)
        n = sizeof seed / sizeof *seed;
    for (size_t i = 0; i < n; i++)
        seed[i] = nnav_ix_in(ix, (uint32_t)i);
    uint32_t nout = 0;
    const nnav_fact *out = call_body(ix, g, seed, n, ix->node, &nout);
    if (!out)
        return -1;
    for (uint32_t o = 0; o < ix->nd->out_count && o < nout; o++) {
        uint32_t v = out_value(ix, o);
        if (v != NNAV_NONE) {
            nnav_fact c = out[o];
            c.src = fact_empty(&c) ? NNAV_SRC_NONE : NNAV_SRC_INFERRED;
            ix->S->facts[v] = c;
        }
    }
    return 0;
}

/* The rule and the cost class of a node's op: in the default domain ONNX's
 * (the cost class by the model's format), in com.microsoft ONNX Runtime's
 * contrib rules; NULL for another domain, and for a com.microsoft op with
 * no rule (it is as unknown as another domain's). Looked up once per
 * (domain, op name), then from a small cache. */
static const struct op_cache *op_info(nnav_shapes *S, uint32_t n)
{
    const nnav_node *nd = &S->m->nodes.v[n];
    int dom = dom_of(S, n);
    if (dom == DOM_OTHER)
        return NULL;
    uint8_t ms = dom == DOM_MS;
    static const struct op_cache none;
    if (nd->op.n == 0 || nd->op.n >= sizeof none.op)
        return ms ? NULL : &none; /* no op has an empty or so long a name */
    uint32_t h = (uint32_t)nnav_hash_bytes(nd->op.p, nd->op.n, 3 + ms) & 255;
    struct op_cache *c = &S->ops[h];
    if (c->len != nd->op.n || c->dom != ms || memcmp(c->op, nd->op.p, (size_t)nd->op.n) != 0 ||
        !c->len) {
        memcpy(c->op, nd->op.p, (size_t)nd->op.n);
        c->len = (uint8_t)nd->op.n;
        c->dom = ms;
        c->rule = ms ? nnav_ms_rule(nd->op) : rule_find(S, nd->op);
        c->cls = ms ? nnav_ms_cost_class(nd->op) : S->R->cost_class(nd->op);
    }
    return ms && !c->rule ? NULL : c;
}

static void cost_node(nnav_shapes *S, uint32_t n, uint8_t cls);

static int fact_complete(const nnav_shapes *S, const nnav_fact *f)
{
    if (!f->dtype || f->rank < 0)
        return 0;
    for (int32_t i = 0; i < f->rank; i++)
        if (nnav_dim_is_unknown(S->dims.v[f->dims + i]))
            return 0;
    return 1;
}

static void infer_node(nnav_shapes *S, uint32_t n, int depth, uint32_t caller)
{
    const nnav_model *m = S->m;
    const nnav_node *nd = &m->nodes.v[n];
    nnav_ictx ix;
    ix_init(&ix, S, n, depth, caller);
    /* What a rule looks at: the inputs and their dims, the outputs, the
     * node's bytes when its domain is read from them. */
    uint64_t cost = 1 + (uint64_t)nd->in_count + nd->out_count;
    if (dom_of(S, n) != DOM_NONE)
        cost += nd->msg.n / 64;
    for (uint32_t i = 0; i < nd->in_count; i++) {
        uint32_t v = in_value(&ix, i);
        if (v != NNAV_NONE && S->facts[v].rank > 0)
            cost += (uint64_t)S->facts[v].rank;
    }
    int budget = spend(S, cost);
    for (uint32_t o = 0; o < nd->out_count; o++) {
        uint32_t v = out_value(&ix, o);
        if (v != NNAV_NONE && m->values.v[v].kind == NNAV_VAL_NODE && m->values.v[v].producer == n)
            S->facts[v] = UNKNOWN;
    }
    int rc;
    char ob[96], db[64];
    const struct op_cache *oc = op_info(S, n);
    if (budget) {
        rc = -1; /* past the budget: no rule runs */
    } else if (nd->function != NNAV_NONE) {
        rc = call_function(&ix);
    } else if (S->R->rule) {
        rc = S->R->rule(&ix);
    } else if (!oc) {
        nnav_span dom = nnav_node_domain(m, n);
        nnav_text_escape(dom.p, (size_t)dom.n, db, sizeof db);
        nnav_text_escape(nd->op.p, (size_t)nd->op.n, ob, sizeof ob);
        rc = nnav_ix_fail(&ix, "no rule for %s:%s", db, ob);
    } else {
        rc = oc->rule ? oc->rule->fn(&ix) : nnav_ix_fail(&ix, "no rule for this op");
    }
    if (!budget && S->over) {
        /* a body it inferred ran out of budget: what it made is partial */
        budget = 1;
        rc = -1;
    }
    uint32_t why = budget ? S->why_budget : NNAV_NONE;
    int conflict = rc < 0 && !budget && ix.conflict;
    if (conflict)
        conflict_note(S, n, ix.why);
    if (rc < 0) {
        nnav_text_escape(nd->op.p, (size_t)nd->op.n, ob, sizeof ob);
        S->node_failed[n] = 1;
        /* The root cause: an input that was already unknown (one with a
         * type but no shape does not stop a rule; this op's reason counts;
         * a conflict is its own cause). */
        for (uint32_t i = 0; i < nnav_ix_nin(&ix) && why == NNAV_NONE && !conflict; i++) {
            const nnav_fact *f = nnav_ix_in(&ix, i);
            if (f && f->rank < 0 && !f->dtype && f->why != NNAV_NONE)
                why = f->why;
        }
        if (why == NNAV_NONE) {
            char nb[96];
            nnav_text_escape(nd->name.p, (size_t)nd->name.n, nb, sizeof nb);
            why = why_add(S, "%s (node \"%s\"): %s", ob, nb, ix.why);
        }
    }
    for (uint32_t o = 0; o < nd->out_count; o++) {
        uint32_t v = out_value(&ix, o);
        if (v == NNAV_NONE || m->values.v[v].producer != n ||
            m->values.v[v].kind != NNAV_VAL_NODE)
            continue;
        nnav_fact *f = &S->facts[v];
        if (nnav_ref_control(m, nd->out_first + o)) {
            *f = UNKNOWN;
            f->control = 1;
            continue;
        }
        if (rc < 0) {
            *f = UNKNOWN;
            f->why = why;
        } else if ((fact_empty(f) || (f->rank < 0 && ix.why[0])) && f->why == NNAV_NONE) {
            /* Nothing, or only the element type: a rule that gives the type
             * without the shape leaves its reason in ix.why; an input that
             * was already unknown is the root cause. */
            for (uint32_t i = 0; i < nnav_ix_nin(&ix) && ix.why[0] && f->why == NNAV_NONE; i++) {
                const nnav_fact *fi = nnav_ix_in(&ix, i);
                if (fi && fi->rank < 0 && fi->why != NNAV_NONE)
                    f->why = fi->why;
            }
            char nb[96];
            nnav_text_escape(nd->op.p, (size_t)nd->op.n, ob, sizeof ob);
            nnav_text_escape(nd->name.p, (size_t)nd->name.n, nb, sizeof nb);
            if (f->why == NNAV_NONE && ix.why[0])
                f->why = why_add(S, "%s (node \"%s\"): %s", ob, nb, ix.why);
            else if (f->why == NNAV_NONE)
                f->why = why_add(S, "%s (node \"%s\"): output %u not inferred", ob, nb, o);
        }
        settle(S, v);
        if (conflict) {
            /* Whatever the file says, the operator cannot give it. */
            f->src = NNAV_SRC_DISAGREE;
            f->conflict = 1;
            f->why = why;
        } else if (f->why != NNAV_NONE && fact_complete(S, f)) {
            f->why = NNAV_NONE; /* the file filled in what the rule could not */
        }
    }
    cost_node(S, n, oc ? oc->cls : COST_ELEM);
}

static void seed_value(nnav_shapes *S, uint32_t v, const nnav_fact *seed)
{
    if (v == NNAV_NONE)
        return;
    S->facts[v] = seed ? *seed : UNKNOWN;
    if (seed)
        S->facts[v].src = fact_empty(seed) ? NNAV_SRC_NONE : NNAV_SRC_INFERRED;
    settle(S, v);
}

/* Small integer initializers are folded, so shape arithmetic on them works. */
static void fold_tensor(nnav_shapes *S, uint32_t v, uint32_t t)
{
    const nnav_tensor *tt = &S->m->tensors.v[t];
    nnav_fact *f = &S->facts[v];
    if (tt->ndims > 1 || tt->nelems > NNAV_FOLD_MAX || !nnav_dtype_valid(tt->dtype) ||
        tt->dtype == NNAV_DT_STRING || tt->dtype == NNAV_DT_BOOL ||
        (tt->dtype != NNAV_DT_INT64 && tt->dtype != NNAV_DT_INT32 && tt->dtype != NNAV_DT_INT8 &&
         tt->dtype != NNAV_DT_UINT8 && tt->dtype != NNAV_DT_INT16 && tt->dtype != NNAV_DT_UINT16 &&
         tt->dtype != NNAV_DT_UINT32))
        return;
    double buf[NNAV_FOLD_MAX];
    int n = tensor_small(S->m, t, buf, NNAV_FOLD_MAX);
    if (n < 0)
        return;
    nnav_dim d[NNAV_FOLD_MAX];
    for (int i = 0; i < n; i++) {
        /* Written so that a NaN fails too (its data in double_data, say):
         * casting it, an infinity or a number past int64_t is undefined. */
        if (!(buf[i] >= -9.0e15 && buf[i] <= 9.0e15) || buf[i] != floor(buf[i]))
            return;
        d[i] = nnav_dim_num((int64_t)buf[i]);
    }
    f->fold = dims_put(S, d, (size_t)n);
    f->fold_n = f->fold == NNAV_NONE ? 0 : (uint32_t)n;
}

static void infer_graph(nnav_shapes *S, uint32_t g, const nnav_fact *const *seed, size_t n_seed,
                        int depth, uint32_t caller)
{
    const nnav_model *m = S->m;
    const nnav_graph *gr = &m->graphs.v[g];
    S->gstate[g] = 1;
    spend(S, 1 + (uint64_t)gr->input_count + gr->init_count + gr->sparse_count);
    for (uint32_t k = 0; k < gr->input_count; k++) {
        uint32_t v = m->vinfos.v[gr->input_first + k].value;
        if (v != NNAV_NONE && m->values.v[v].graph == g)
            seed_value(S, v, k < n_seed ? seed[k] : NULL);
    }
    for (uint32_t t = gr->init_first; t < gr->init_first + gr->init_count; t++) {
        nnav_span nm = m->tensors.v[t].name;
        uint32_t v = nnav_value_lookup(m, g, (const char *)nm.p, (size_t)nm.n);
        if (v == NNAV_NONE || m->values.v[v].graph != g)
            continue;
        seed_value(S, v, NULL);
        if (m->values.v[v].kind == NNAV_VAL_INITIALIZER && m->values.v[v].producer == t)
            fold_tensor(S, v, t);
    }
    for (uint32_t sp = gr->sparse_first; sp < gr->sparse_first + gr->sparse_count; sp++) {
        if (m->sparse.v[sp].values == NNAV_NONE)
            continue; /* no values tensor, so no name: no value was defined */
        nnav_span nm = m->tensors.v[m->sparse.v[sp].values].name;
        uint32_t v = nnav_value_lookup(m, g, (const char *)nm.p, (size_t)nm.n);
        if (v != NNAV_NONE && m->values.v[v].graph == g)
            seed_value(S, v, NULL);
    }
    for (uint32_t n = gr->node_first; n < gr->node_first + gr->node_count; n++)
        infer_node(S, n, depth, caller);
    S->gstate[g] = 2;
}

/* ---- cost ---- */

/* Elements of a fact, with named dims at their bound values; -1 unknown. */
static double fact_elems(const nnav_shapes *S, const nnav_fact *f, int *sym)
{
    if (!f || f->rank < 0)
        return -1;
    double e = 1;
    for (int32_t i = 0; i < f->rank; i++) {
        nnav_dim d = S->dims.v[f->dims + i];
        int64_t x = nnav_dim_eval(S, d);
        if (x < 0)
            return -1;
        if (nnav_dim_is_sym(d))
            *sym = 1;
        e *= (double)x;
    }
    return e;
}

static double dim_num(const nnav_shapes *S, const nnav_fact *f, int32_t axis, int *sym)
{
    if (!f || f->rank < 0 || axis < 0 || axis >= f->rank)
        return -1;
    nnav_dim d = S->dims.v[f->dims + axis];
    if (nnav_dim_is_sym(d))
        *sym = 1;
    int64_t x = nnav_dim_eval(S, d);
    return x < 0 ? -1 : (double)x;
}


/* A size from an attribute, as a count for costs; -1 when not one. */
static double attr_size(const nnav_ictx *ix, const char *name, int64_t dflt)
{
    int64_t v = nnav_ix_attr_i(ix, name, dflt);
    return v >= 0 && v <= NNAV_DIM_MAX ? (double)v : -1;
}

/* Input i's one folded value at the binding; -1 when not known. */
static double fold_num(const nnav_shapes *S, const nnav_ictx *ix, uint32_t i, int *sym)
{
    const nnav_dim *v;
    if (nnav_ix_fold(ix, i, &v) != 1)
        return -1;
    if (nnav_dim_is_sym(v[0]))
        *sym = 1;
    int64_t x = nnav_dim_eval(S, v[0]);
    return x < 0 ? -1 : (double)x;
}

/* The classes of attention and of ONNX Runtime's products (COST_ATTN to
 * COST_QMOE). MACs as MatMul counts them, output elements times the
 * shared dim, for every product the op holds; FLOPs twice the MACs, plus
 * one per output element for a bias (MatMulNBits). An attention counts its
 * whole score matrix (a causal mask's skipped half is not taken off, as no
 * MatMul takes it off either); its softmax is not counted.
 *   ONNX Attention: Q K^T is (elements of Q) * T MACs, the scores times V
 *     (elements of Y) * T, T the keys attended (past + this step's K,
 *     whichever layout: 3-D [B, S, heads * head] or 4-D [B, heads, S, head]).
 *   MultiHeadAttention: the same, Q's elements a third of a packed QKV's,
 *     T the key's length plus past_key's.
 *   GroupQueryAttention: 2 * (elements of output) * T (each query head
 *     meets its group's keys: Q and V share head_size), T the
 *     total_sequence_length input folded, else present_key's length.
 *   Attention, QAttention: the QKV projection (elements of input) * (the
 *     weights' columns), then B * S * (hidden + v_hidden) * T, T this
 *     step's S plus the past's length (the past's own with
 *     past_present_share_buffer).
 *   FusedMatMul: (elements of Y) * K, K the last dim of A as transposed.
 *   MatMulNBits: (elements of Y) * K, K its attribute.
 *   QMoE: each token through its k experts (attribute k): hidden * F1
 *     (fc1, F1 its rows: inter, or 2 * inter fused for SwiGLU) + inter *
 *     hidden (fc2) + inter * hidden (fc3, when given); the router's
 *     probabilities are an input, not counted. */
static void cost_llm(nnav_shapes *S, const nnav_ictx *ix, uint8_t cls, double oe, nnav_cost *c,
                     int *sym)
{
    const nnav_fact *x = nnav_ix_in(ix, 0), *k = nnav_ix_in(ix, 1);
    double macs = -1, bias = 0;
    if (cls == COST_ATTN) {
        double qe = fact_elems(S, x, sym), t = -1;
        if (k && (k->rank == 3 || k->rank == 4))
            t = dim_num(S, k, k->rank == 4 ? 2 : 1, sym);
        if (nnav_ix_present(ix, 4)) {
            double p = dim_num(S, nnav_ix_in(ix, 4), 2, sym);
            t = p < 0 || t < 0 ? -1 : t + p;
        }
        if (qe >= 0 && oe >= 0 && t >= 0)
            macs = (qe + oe) * t;
    } else if (cls == COST_MHA) {
        double qe = fact_elems(S, x, sym), t = -1;
        if (x && x->rank == 5)
            qe /= 3, t = dim_num(S, x, 1, sym);
        else if (k && (k->rank == 3 || k->rank == 5))
            t = dim_num(S, k, 1, sym);
        else if (k && k->rank == 4)
            t = dim_num(S, k, 2, sym);
        if (nnav_ix_present(ix, 6) && !(k && k->rank == 4)) {
            double p = dim_num(S, nnav_ix_in(ix, 6), 2, sym);
            t = p < 0 || t < 0 ? -1 : t + p;
        }
        if (qe >= 0 && oe >= 0 && t >= 0)
            macs = (qe + oe) * t;
    } else if (cls == COST_GQA) {
        double t = fold_num(S, ix, 6, sym);
        if (t < 0 && nnav_ix_nout(ix) > 1)
            t = dim_num(S, nnav_shapes_fact(S, out_value(ix, 1)), 2, sym);
        if (oe >= 0 && t >= 0)
            macs = 2 * oe * t;
    } else if (cls == COST_MS_ATTN) {
        const nnav_fact *p = nnav_ix_in(ix, nnav_span_eqs(ix->nd->op, "QAttention") ? 8 : 4);
        double ie = fact_elems(S, x, sym), cols = dim_num(S, k, 1, sym);
        double b = dim_num(S, x, 0, sym), s = dim_num(S, x, 1, sym), t = s;
        int64_t qkv[3];
        double hid = cols < 0 ? -1 : cols / 3, vh = hid;
        if (nnav_ix_attr_ints(ix, "qkv_hidden_sizes", qkv, 3) == 3 && qkv[0] >= 0 && qkv[2] >= 0 &&
            qkv[0] <= NNAV_DIM_MAX && qkv[2] <= NNAV_DIM_MAX)
            hid = (double)qkv[0], vh = (double)qkv[2];
        if (p) {
            double ps = dim_num(S, p, 3, sym);
            int shared = nnav_ix_attr_i(ix, "past_present_share_buffer", 0) != 0;
            t = ps < 0 || s < 0 ? -1 : shared ? ps : ps + s;
        }
        if (ie >= 0 && cols >= 0 && b >= 0 && s >= 0 && t >= 0 && hid >= 0 && vh >= 0)
            macs = ie * cols + b * s * (hid + vh) * t;
    } else if (cls == COST_FUSED_MATMUL) {
        int ta = nnav_ix_attr_i(ix, "transA", 0) != 0;
        int tb = nnav_ix_attr_i(ix, "transBatchA", 0) != 0;
        double kd = -1;
        if (x && x->rank >= 2)
            kd = dim_num(S, x, ta ? (tb && x->rank >= 3 ? 0 : x->rank - 2) : x->rank - 1, sym);
        else if (x && x->rank == 1 && !ta && !tb)
            kd = dim_num(S, x, 0, sym);
        if (kd >= 0 && oe >= 0)
            macs = oe * kd;
    } else if (cls == COST_NBITS) {
        double kd = attr_size(ix, "K", -1);
        if (kd >= 0 && oe >= 0)
            macs = oe * kd;
        bias = nnav_ix_present(ix, 5) && oe > 0 ? oe : 0;
    } else if (cls == COST_QMOE) {
        const nnav_fact *f1 = nnav_ix_in(ix, 2), *f2 = nnav_ix_in(ix, 5);
        double hid = x ? dim_num(S, x, x->rank - 1, sym) : -1, ie = fact_elems(S, x, sym);
        double rows = f1 && f1->rank == 3 ? dim_num(S, f1, 1, sym) : -1;
        double topk = attr_size(ix, "k", 1);
        double inter = rows < 0 ? -1 : nnav_ix_attr_i(ix, "swiglu_fusion", 0) ? rows / 2 : rows;
        if (!f2 || f2->rank != 3)
            inter = -1;
        if (hid > 0 && ie >= 0 && inter >= 0 && topk >= 0)
            macs = ie / hid * topk *
                   (hid * rows + inter * hid + (nnav_ix_present(ix, 8) ? inter * hid : 0));
    }
    if (macs < 0 || macs > 9.2e18) {
        c->known = 0;
        return;
    }
    c->macs = macs;
    c->flops = 2 * macs + bias;
}

static void cost_node(nnav_shapes *S, uint32_t n, uint8_t cls)
{
    const nnav_model *m = S->m;
    const nnav_node *nd = &m->nodes.v[n];
    nnav_cost *c = &S->costs[n];
    nnav_ictx ix;
    ix_init(&ix, S, n, 0, NNAV_NONE);
    int sym = 0;
    memset(c, 0, sizeof *c);
    c->known = 1;
    for (uint32_t i = 0; i < nnav_ix_nin(&ix); i++) {
        uint32_t v = in_value(&ix, i);
        if (v == NNAV_NONE)
            continue;
        /* Weights by scope.h's rule: not a trip count, a shape or an index;
         * through the Identity or Cast that forwards one; a buffer apart. */
        int role;
        uint64_t ne;
        uint32_t t = nnav_read_weight(m, n, i, v, &role, &ne);
        if (t != NNAV_NONE && role == NNAV_WROLE_PARAM)
            c->params += ne;
        else if (t != NNAV_NONE && role == NNAV_WROLE_BUFFER)
            c->buffers += ne;
    }
    for (uint32_t o = 0; o < nd->out_count; o++) {
        uint32_t v = out_value(&ix, o);
        if (v == NNAV_NONE)
            continue;
        const nnav_fact *f = &S->facts[v];
        double e = fact_elems(S, f, &sym);
        unsigned bits = nnav_dtype_bits(f->dtype);
        if (e < 0 || !bits)
            c->known = 0;
        else
            c->out_bytes += e * bits / 8;
    }
    const nnav_fact *out0 = nd->out_count ? nnav_shapes_fact(S, out_value(&ix, 0)) : NULL;
    double oe = fact_elems(S, out0, &sym);
    const nnav_fact *x = nnav_ix_in(&ix, 0), *w = nnav_ix_in(&ix, 1);
    if (cls == COST_CONV || cls == COST_QCONV || cls == COST_CONVT) {
        if (cls == COST_QCONV)
            w = nnav_ix_in(&ix, 3);
        double k = 1;
        for (int32_t i = 1; w && i < w->rank; i++) {
            double d = dim_num(S, w, i, &sym);
            k = d < 0 || k < 0 ? -1 : k * d;
        }
        /* A transposed conv spreads each input element over the kernel. */
        double base = cls == COST_CONVT ? fact_elems(S, x, &sym) : oe;
        if (!w || w->rank < 3 || k < 0 || base < 0)
            c->known = 0;
        else
            c->macs = base * k;
        /* the bias: DeformConv's is input 3 (2 holds its offsets) */
        uint32_t bias = nnav_span_eqs(nd->op, "DeformConv") ? 3 : 2;
        c->flops = 2 * c->macs + (nnav_ix_present(&ix, bias) && oe > 0 ? oe : 0);
    } else if (cls == COST_MATMUL || cls == COST_GEMM) {
        double kdim;
        if (cls == COST_GEMM)
            kdim = dim_num(S, x, nnav_ix_attr_i(&ix, "transA", 0) ? 0 : 1, &sym);
        else
            kdim = x ? dim_num(S, x, x->rank - 1, &sym) : -1;
        if (kdim < 0 || oe < 0)
            c->known = 0;
        else
            c->macs = oe * kdim;
        c->flops = 2 * c->macs + (cls == COST_GEMM && nnav_ix_present(&ix, 2) && oe > 0 ? oe : 0);
    } else if (cls == COST_RNN || cls == COST_GRU || cls == COST_LSTM) {
        /* Per time step and batch row, each direction multiplies the input
         * by W (gates*hidden x input) and the state by R (gates*hidden x
         * hidden): MACs = seq_len * batch * directions * gates * hidden *
         * (input + hidden), gates 1 (RNN), 3 (GRU), 4 (LSTM). W's and R's
         * dims give directions, gates*hidden, input and hidden; FLOPs add
         * one operation per gate value (bias and activation). */
        const nnav_fact *r = nnav_ix_in(&ix, 2);
        int layout = (int)nnav_ix_attr_i(&ix, "layout", 0);
        double seq = dim_num(S, x, layout ? 1 : 0, &sym), batch = dim_num(S, x, layout ? 0 : 1, &sym);
        double dirs = w && w->rank == 3 ? dim_num(S, w, 0, &sym) : -1;
        double gh = w && w->rank == 3 ? dim_num(S, w, 1, &sym) : -1;
        double in = w && w->rank == 3 ? dim_num(S, w, 2, &sym) : -1;
        double hid = r && r->rank == 3 ? dim_num(S, r, 2, &sym) : -1;
        if (hid < 0) {
            int64_t h = nnav_ix_attr_i(&ix, "hidden_size", -1);
            hid = h >= 0 && h <= NNAV_DIM_MAX ? (double)h : -1;
        }
        if (seq < 0 || batch < 0 || dirs < 0 || gh < 0 || in < 0 || hid < 0) {
            c->known = 0;
        } else {
            c->macs = seq * batch * dirs * gh * (in + hid);
            c->flops = 2 * c->macs + seq * batch * dirs * gh;
        }
    } else if (cls == COST_TF_CONV || cls == COST_TF_DWCONV) {
        /* The filter is [kh, kw, (kd,) in, out] (depthwise: [kh, kw, in,
         * multiplier]): each output element takes kh*kw*in MACs (depthwise:
         * kh*kw). */
        double k = 1;
        int32_t kr = w ? w->rank - (cls == COST_TF_CONV ? 1 : 2) : 0;
        for (int32_t i = 0; w && i < kr; i++) {
            double d = dim_num(S, w, i, &sym);
            k = d < 0 || k < 0 ? -1 : k * d;
        }
        if (!w || w->rank < 3 || k < 0 || oe < 0)
            c->known = 0;
        else
            c->macs = oe * k;
        c->flops = 2 * c->macs;
    } else if (cls == COST_TF_MATMUL || cls == COST_TF_BMM) {
        /* out elements times the shared dim: a's columns (its rows when
         * transposed: transpose_a; adj_x for BatchMatMul). */
        int tr = (int)nnav_ix_attr_i(&ix, cls == COST_TF_MATMUL ? "transpose_a" : "adj_x", 0);
        double kdim = x && x->rank >= 2 ? dim_num(S, x, x->rank - (tr ? 2 : 1), &sym) : -1;
        if (kdim < 0 || oe < 0)
            c->known = 0;
        else
            c->macs = oe * kdim;
        c->flops = 2 * c->macs;
    } else if (cls == COST_TF_BN || cls == COST_TF_BIAS) {
        /* Inference batch norm (ONNX BatchNormalization, TensorFlow
         * FusedBatchNorm) is a scale and a shift per element (one MAC);
         * BiasAdd one addition per element (no MAC). */
        if (oe < 0) {
            c->known = 0;
        } else {
            c->macs = cls == COST_TF_BN ? oe : 0;
            c->flops = cls == COST_TF_BN ? 2 * oe : oe;
        }
    } else if (cls >= COST_ATTN && cls <= COST_QMOE) {
        cost_llm(S, &ix, cls, oe, c, &sym);
    } else if (cls == COST_ELEM) {
        /* Pools and reductions read every input element; the rest do
         * about one operation per output element. */
        double ie = fact_elems(S, x, &sym);
        double e = ie > oe ? ie : oe;
        if (e < 0)
            c->known = 0;
        else
            c->flops = e;
    }
    c->symbolic = (uint8_t)sym;
}

const nnav_cost *nnav_shapes_node_cost(const nnav_shapes *S, uint32_t node)
{
    static const nnav_cost none;
    return node < S->m->nodes.n ? &S->costs[node] : &none;
}

void nnav_shapes_graph_cost(const nnav_shapes *S, uint32_t graph, nnav_cost *out)
{
    memset(out, 0, sizeof *out);
    out->known = 1;
    if (graph >= S->m->graphs.n)
        return;
    const nnav_graph *g = &S->m->graphs.v[graph];
    for (uint32_t n = g->node_first; n < g->node_first + g->node_count; n++) {
        const nnav_cost *c = &S->costs[n];
        out->macs += c->macs;
        out->flops += c->flops;
        out->params += c->params;
        out->buffers += c->buffers;
        out->out_bytes += c->out_bytes;
        out->known &= c->known;
        out->symbolic |= c->symbolic;
    }
}

uint64_t nnav_shapes_work(const nnav_shapes *S, int *exhausted)
{
    if (exhausted)
        *exhausted = S->over;
    return S->work;
}

void nnav_shapes_assumed(const nnav_shapes *S, char *buf, size_t n)
{
    nnav_sbuf b = {buf, n, 0};
    if (n)
        buf[0] = 0;
    for (uint32_t i = 0; i < S->strs.n; i++) {
        const sd_str *s = &S->strs.v[i];
        if (s->atom)
            nnav_sb_printf(&b, "%s%.*s=%lld", b.o ? ", " : "", (int)s->len, S->text.v + s->off,
                           (long long)s->eval);
    }
}

uint64_t nnav_shapes_negative(const nnav_shapes *S, uint32_t *value)
{
    uint64_t k = 0;
    *value = NNAV_NONE;
    for (uint32_t v = 0; v < S->m->values.n; v++) {
        const nnav_fact *f = &S->facts[v];
        /* Every named dim has a number (bound, or 1), so a symbolic size
         * without one went below zero (or past int64) on the way. */
        for (int32_t i = 0; f->rank > 0 && i < f->rank; i++) {
            nnav_dim d = S->dims.v[f->dims + i];
            if (nnav_dim_is_sym(d) && nnav_dim_eval(S, d) < 0) {
                if (!k++)
                    *value = v;
                break;
            }
        }
    }
    return k;
}

/* Whether identifier `name` occurs in text t as a whole word. */
static int word_in(const char *t, const char *name, size_t n)
{
    for (const char *p = t; (p = strstr(p, name)) != NULL; p++) {
        int before = p > t && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
        int after = isalnum((unsigned char)p[n]) || p[n] == '_';
        if (!before && !after)
            return 1;
    }
    return 0;
}

int nnav_shapes_suggest(const nnav_shapes *S, char *name, size_t n, int64_t *value)
{
    uint32_t v;
    if (!n || !nnav_shapes_negative(S, &v) || S->m->nodes.n > NNAV_SUGGEST_MAX)
        return 0;
    char ty[1024];
    nnav_fact_format(S, &S->facts[v], ty, sizeof ty);
    nnav_bind *b = calloc(S->n_bind + 1, sizeof *b);
    if (!b)
        return 0;
    for (size_t i = 0; i < S->n_bind; i++)
        b[i] = S->bind[i];
    int found = 0;
    for (uint32_t i = 0; i < S->strs.n && !found; i++) {
        const sd_str *a = &S->strs.v[i];
        if (!a->atom || a->len >= n)
            continue;
        memcpy(name, S->text.v + a->off, a->len);
        name[a->len] = 0;
        int given = 0;
        for (size_t j = 0; j < S->n_bind; j++)
            given |= strcmp(S->bind[j].name, name) == 0;
        if (given || !word_in(ty, name, a->len))
            continue;
        /* The least power of two that leaves no size below zero. */
        b[S->n_bind].name = name;
        for (int64_t x = 2; x <= 65536 && !found; x *= 2) {
            b[S->n_bind].value = x;
            nnav_shapes_opts o = {b, S->n_bind + 1};
            nnav_shapes *T = nnav_shapes_infer(S->m, &o);
            uint32_t w;
            if (!T)
                break;
            if (!nnav_shapes_negative(T, &w))
                found = 1, *value = x;
            nnav_shapes_free(T);
        }
    }
    free(b);
    if (!found)
        name[0] = 0;
    return found;
}

/* A name a person gave a dim ("batch", "seq_len", "N"), as opposed to an
 * exporter's generated one ("unk__2207", "Addoutput_dim_0", "dim_1"): no
 * digit, not too long. */
static int dim_name_given(const char *p, uint32_t len)
{
    if (len == 0 || len > 24)
        return 0;
    for (uint32_t i = 0; i < len; i++)
        if (p[i] >= '0' && p[i] <= '9')
            return 0;
    return 1;
}

void nnav_shapes_assumed_short(const nnav_shapes *S, char *buf, size_t n)
{
    nnav_sbuf b = {buf, n, 0};
    if (n)
        buf[0] = 0;
    uint64_t listed = 0, gen = 0, gen_not1 = 0;
    for (uint32_t i = 0; i < S->strs.n; i++) {
        const sd_str *s = &S->strs.v[i];
        if (!s->atom)
            continue;
        const char *p = S->text.v + s->off;
        if (listed < 4 && (s->eval != 1 || dim_name_given(p, s->len))) {
            nnav_sb_printf(&b, "%s%.*s=%lld", listed ? ", " : "", (int)s->len, p, (long long)s->eval);
            listed++;
        } else {
            gen++;
            gen_not1 += s->eval != 1;
        }
    }
    if (gen)
        nnav_sb_printf(&b, "%s%llu %s dim%s %s", listed ? " and " : "", (unsigned long long)gen,
                       listed >= 4 ? "other" : "generated", gen == 1 ? "" : "s",
                       gen_not1 ? "at their --dim values" : "= 1");
}

int nnav_bind_parse(char *text, nnav_bind *out, size_t max, size_t *n, char *why, size_t wn)
{
    for (char *one = text, *next; one; one = next) {
        next = strchr(one, ',');
        if (next)
            *next++ = 0;
        while (*one == ' ')
            one++;
        size_t k = strlen(one);
        while (k && one[k - 1] == ' ')
            one[--k] = 0;
        if (!*one && next)
            continue;
        if (!*one)
            break;
        char *eq = strrchr(one, '='), *end = NULL;
        long long v = eq ? strtoll(eq + 1, &end, 10) : -1;
        if (!eq || eq == one || !eq[1] || *end || v < 0 || v > (1ll << 40)) {
            snprintf(why, wn, "NAME=N (or NAME=N,NAME=N) with N from 0 to 2^40, not '%.200s'", one);
            return -1;
        }
        *eq = 0;
        size_t j = 0;
        while (j < *n && strcmp(out[j].name, one))
            j++;
        if (j == *n && *n == max) {
            snprintf(why, wn, "at most %zu bindings", max);
            return -1;
        }
        out[j] = (nnav_bind){one, v};
        if (j == *n)
            (*n)++;
    }
    return 0;
}

uint32_t nnav_shapes_unset(const nnav_shapes *S, char *buf, size_t n)
{
    nnav_sbuf b = {buf, n, 0};
    if (n)
        buf[0] = 0;
    uint32_t k = 0, listed = 0;
    for (uint32_t i = 0; i < S->strs.n; i++) {
        const sd_str *s = &S->strs.v[i];
        if (!s->atom)
            continue;
        nnav_span name = {(const uint8_t *)S->text.v + s->off, s->len};
        int bound = 0;
        for (size_t j = 0; j < S->n_bind && !bound; j++)
            bound = nnav_span_eqs(name, S->bind[j].name);
        if (bound)
            continue;
        k++;
        if (listed < 4) {
            nnav_sb_printf(&b, "%s%.*s", listed ? ", " : "", (int)s->len, S->text.v + s->off);
            listed++;
        }
    }
    if (k > listed)
        nnav_sb_printf(&b, " and %u more", k - listed);
    return k;
}

const nnav_model *nnav_shapes_model(const nnav_shapes *S)
{
    return S->m;
}

/* ---- rendering and counts ---- */

void nnav_fact_format(const nnav_shapes *S, const nnav_fact *f, char *buf, size_t n)
{
    nnav_sbuf b = {buf, n, 0};
    if (n)
        buf[0] = 0;
    if (fact_empty(f)) {
        nnav_sb_put(&b, f->src == NNAV_SRC_NONE ? "?" : "");
        return;
    }
    int seq = f->not_tensor == NNAV_NT_SEQ || f->not_tensor == NNAV_NT_SEQ_EMPTY;
    if (seq)
        nnav_sb_put(&b, "seq(");
    nnav_sb_put(&b, f->dtype ? nnav_dtype_name(f->dtype) : "?");
    if (f->not_tensor == NNAV_NT_SEQ_EMPTY) {
        nnav_sb_put(&b, ")");
        return;
    }
    if (f->rank < 0) {
        nnav_sb_put(&b, seq ? "[...])" : "[...]");
        return;
    }
    nnav_sb_put(&b, "[");
    for (int32_t i = 0; i < f->rank; i++) {
        if (i)
            nnav_sb_put(&b, ",");
        dim_put(S, &b, S->dims.v[f->dims + i], P_SUM);
    }
    nnav_sb_put(&b, seq ? "])" : "]");
}

void nnav_shapes_value_format(const nnav_shapes *S, uint32_t v, char *buf, size_t n)
{
    if (v >= S->m->values.n) {
        if (n)
            buf[0] = 0;
        return;
    }
    const nnav_fact *f = &S->facts[v];
    if (f->control) {
        snprintf(buf, n, "control");
        return;
    }
    if (f->not_tensor == NNAV_NT_OTHER || fact_empty(f)) {
        nnav_value_type_format(S->m, v, buf, n);
        if (n && !buf[0])
            nnav_fact_format(S, f, buf, n);
        return;
    }
    nnav_fact_format(S, f, buf, n);
}

size_t nnav_shapes_folded(const nnav_shapes *S, uint32_t v, const nnav_dim **vals)
{
    if (v >= S->m->values.n || S->facts[v].fold == NNAV_NONE)
        return 0;
    *vals = S->dims.v + S->facts[v].fold;
    return S->facts[v].fold_n;
}

void nnav_shapes_stats_get(const nnav_shapes *S, uint32_t graph, nnav_shapes_stats *st)
{
    const nnav_model *m = S->m;
    memset(st, 0, sizeof *st);
    for (uint32_t v = 0; v < m->values.n; v++) {
        const nnav_value *val = &m->values.v[v];
        if (graph != NNAV_NONE && val->graph != graph)
            continue;
        const nnav_fact *f = &S->facts[v];
        if (f->control)
            continue;
        st->values++;
        if (f->dtype)
            st->typed++;
        if (f->rank >= 0) {
            st->shaped++;
            int full = 1;
            for (int32_t i = 0; i < f->rank; i++)
                if (nnav_dim_is_unknown(S->dims.v[f->dims + i]))
                    full = 0;
            st->full += (uint64_t)full;
        }
        switch (f->src) {
        case NNAV_SRC_FILE: st->file++; break;
        case NNAV_SRC_INFERRED: st->inferred++; break;
        case NNAV_SRC_AGREE: st->agree++; break;
        case NNAV_SRC_DISAGREE: st->disagree++; break;
        default: st->unknown++; break;
        }
    }
    for (uint32_t n = 0; n < m->nodes.n; n++)
        if (S->node_failed[n] && (graph == NNAV_NONE || m->nodes.v[n].graph == graph))
            st->ops_unknown++;
}

/* ---- the whole model ---- */

void nnav_shapes_free(nnav_shapes *S)
{
    if (!S)
        return;
    free(S->facts);
    free(S->costs);
    free(S->node_failed);
    free(S->conflict);
    free(S->gstate);
    nnav_vec_free(S->dims);
    nnav_vec_free(S->text);
    nnav_vec_free(S->strs);
    nnav_vec_free(S->syms);
    nnav_vec_free(S->whys);
    nnav_hashtab_free(&S->strtab);
    nnav_hashtab_free(&S->symtab);
    nnav_vec_free(S->memo);
    nnav_vec_free(S->memo_facts);
    free(S->root);
    free(S->onnx_opset);
    free(S->dom_kind);
    nnav_hashtab_free(&S->memotab);
    free(S->uses_refs);
    free(S->rules);
    if (S->bind)
        for (size_t i = 0; i < S->n_bind; i++)
            free((char *)S->bind[i].name);
    free(S->bind);
    free(S);
}

nnav_shapes *nnav_shapes_infer(const nnav_model *m, const nnav_shapes_opts *o)
{
    nnav_shapes *S = calloc(1, sizeof *S);
    if (!S)
        return NULL;
    S->m = m;
    S->R = nnav_opset_rules_of(m);
    size_t nv = m->values.n ? m->values.n : 1, nn = m->nodes.n ? m->nodes.n : 1;
    S->facts = malloc(nv * sizeof *S->facts);
    S->costs = calloc(nn, sizeof *S->costs);
    S->node_failed = calloc(nn, 1);
    S->gstate = calloc(m->graphs.n ? m->graphs.n : 1, 1);
    for (const nnav_rule *r = nnav_shape_rules; r->op; r++)
        S->n_rules++;
    S->rules = malloc((S->n_rules ? S->n_rules : 1) * sizeof *S->rules);
    if (!S->facts || !S->costs || !S->node_failed || !S->gstate || !S->rules)
        goto oom;
    S->work_max = work_budget(m);
    S->why_budget = NNAV_NONE;
    if (refs_mark(S) < 0)
        goto oom;
    S->root = malloc((m->graphs.n ? m->graphs.n : 1) * sizeof *S->root);
    S->onnx_opset = malloc((m->graphs.n ? m->graphs.n : 1) * sizeof *S->onnx_opset);
    S->dom_kind = calloc(m->nodes.n ? m->nodes.n : 1, 1);
    if (!S->root || !S->onnx_opset || !S->dom_kind)
        goto oom;
    for (uint32_t g = 0; g < m->graphs.n; g++)
        S->root[g] = NNAV_NONE, S->onnx_opset[g] = INT64_MIN;
    for (size_t i = 0; i < S->n_rules; i++)
        S->rules[i] = &nnav_shape_rules[i];
    qsort(S->rules, S->n_rules, sizeof *S->rules, rule_cmp);
    if (o && o->n_bind) {
        S->bind = calloc(o->n_bind, sizeof *S->bind);
        if (!S->bind)
            goto oom;
        for (size_t i = 0; i < o->n_bind; i++, S->n_bind++) {
            S->bind[i].name = strdup(o->bind[i].name);
            S->bind[i].value = o->bind[i].value;
            if (!S->bind[i].name)
                goto oom;
        }
    }
    for (uint32_t v = 0; v < m->values.n; v++)
        S->facts[v] = UNKNOWN;
    /* Every root first, then whatever no pass reached (bodies of ops
     * without a rule, functions nobody calls, bodies nested past the
     * depth bound), each on its own. */
    for (uint32_t g = 0; g < m->graphs.n; g++)
        if (m->graphs.v[g].parent == NNAV_NONE && m->graphs.v[g].kind != NNAV_GRAPH_FUNCTION)
            infer_graph(S, g, NULL, 0, 0, NNAV_NONE);
    for (uint32_t g = 0; g < m->graphs.n; g++)
        if (!S->gstate[g])
            infer_graph(S, g, NULL, 0, 0, NNAV_NONE);
    for (uint32_t v = 0; v < m->values.n; v++)
        if (m->values.v[v].kind == NNAV_VAL_UNDEFINED && S->facts[v].why == NNAV_NONE)
            S->facts[v].why = why_add(S, "defined nowhere in scope");
    if (S->oom)
        goto oom;
    return S;
oom:
    nnav_shapes_free(S);
    return NULL;
}
