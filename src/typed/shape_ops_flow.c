/* shape_ops_flow.c - the type and shape rules of the ONNX operators that run
 * bodies or carry sequences: If, Loop, Scan, SequenceMap and the sequence
 * operators. The rules' common ground is in shape_ops.c's head comment and
 * shape_ops_int.h; their table is shape_ops.c's nnav_shape_rules. */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "dtype.h"
#include "shape_ops_int.h"

/* ---- control flow ---- */

static int is_seq(const nnav_fact *f)
{
    return f->not_tensor == NNAV_NT_SEQ || f->not_tensor == NNAV_NT_SEQ_EMPTY;
}

/* Two facts merged: what holds of both (two branches, or a loop-carried
 * value on entry and after an iteration). A sequence with no element yet
 * merged with one that has them takes their fact. */
static nnav_fact merge2(IX, const nnav_fact *a, const nnav_fact *b)
{
    if (!a || !b)
        return nnav_ix_make(ix, 0, -1, NULL);
    if (is_seq(a) || is_seq(b)) {
        nnav_fact f = nnav_ix_make(ix, a->dtype == b->dtype ? a->dtype : 0, -1, NULL);
        if (!is_seq(a) || !is_seq(b))
            return f;
        if (a->not_tensor == NNAV_NT_SEQ_EMPTY && b->not_tensor == NNAV_NT_SEQ_EMPTY) {
            f.not_tensor = NNAV_NT_SEQ_EMPTY;
            return f;
        }
        if (a->not_tensor == NNAV_NT_SEQ_EMPTY || b->not_tensor == NNAV_NT_SEQ_EMPTY) {
            f = a->not_tensor == NNAV_NT_SEQ ? *a : *b;
            if (a->dtype != b->dtype)
                f.dtype = 0;
            return f;
        }
        nnav_fact ea = *a, eb = *b;
        ea.not_tensor = eb.not_tensor = 0;
        f = merge2(ix, &ea, &eb);
        f.not_tensor = NNAV_NT_SEQ;
        return f;
    }
    if (a->not_tensor || b->not_tensor)
        return nnav_ix_make(ix, 0, -1, NULL);
    int32_t dt = a->dtype == b->dtype ? a->dtype : 0;
    if (a->rank < 0 || a->rank != b->rank)
        return nnav_ix_make(ix, dt, -1, NULL);
    nnav_dim d[NNAV_RANK_MAX];
    const nnav_dim *da = nnav_shapes_dims(ix->S, a->dims), *db = nnav_shapes_dims(ix->S, b->dims);
    for (int32_t i = 0; i < a->rank; i++)
        d[i] = nnav_dim_eq(da[i], db[i]) ? da[i] : NNAV_DIM_UNKNOWN;
    return nnav_ix_make(ix, dt, a->rank, d);
}

/* 1 when a and b say the same (type, kind, shape). */
static int fact_same(IX, const nnav_fact *a, const nnav_fact *b)
{
    if (!a || !b)
        return a == b;
    if (a->dtype != b->dtype || a->rank != b->rank || a->not_tensor != b->not_tensor)
        return 0;
    if (a->rank <= 0)
        return 1;
    const nnav_dim *da = nnav_shapes_dims(ix->S, a->dims), *db = nnav_shapes_dims(ix->S, b->dims);
    return memcmp(da, db, (size_t)a->rank * sizeof *da) == 0;
}

static void out_fact(IX, uint32_t o, const nnav_fact *f)
{
    if (!f || f->not_tensor == NNAV_NT_OTHER)
        return;
    if (f->not_tensor == NNAV_NT_SEQ) {
        nnav_fact el = *f;
        el.not_tensor = 0;
        nnav_ix_out_seq(ix, o, &el, 0);
    } else if (f->not_tensor == NNAV_NT_SEQ_EMPTY) {
        nnav_ix_out_seq(ix, o, NULL, f->dtype);
    } else {
        nnav_ix_out(ix, o, f->dtype, f->rank, f->rank >= 0 ? nnav_shapes_dims(ix->S, f->dims) : NULL);
    }
}

int nnav_rule_if(IX)
{
    uint32_t gt = nnav_ix_body(ix, "then_branch", NULL, 0);
    uint32_t ge = nnav_ix_body(ix, "else_branch", NULL, 0);
    if (gt == NNAV_NONE || ge == NNAV_NONE)
        return nnav_ix_fail(ix, "a branch could not be inferred");
    /* A condition folded from shapes (a rank test in a scripted model)
     * says which branch runs; otherwise what both branches say. */
    nnav_dim c = fold_one(ix, 0);
    int taken = nnav_dim_is_num(c) ? dval(c) != 0 : -1;
    for (uint32_t o = 0; o < nnav_ix_nout(ix); o++) {
        const nnav_fact *ft = nnav_ix_body_out(ix, gt, o, NULL), *fe = nnav_ix_body_out(ix, ge, o, NULL);
        nnav_fact f = taken < 0 ? merge2(ix, ft, fe) : taken ? (ft ? *ft : merge2(ix, NULL, NULL))
                                                             : (fe ? *fe : merge2(ix, NULL, NULL));
        out_fact(ix, o, &f);
    }
    return 0;
}

#define CARRY_MAX 64

/* The per-call arrays of the rules that infer a body (Loop, Scan,
 * SequenceMap). They live on the heap, not in the rule's frame: bodies nest
 * (up to SHAPE_DEPTH levels), each level is a rule's frame plus the pass's,
 * and a few KB of arrays per level overflowed a small stack (256 KB: 42
 * nested Loops). */
typedef struct {
    const nnav_fact *seed[2 + CARRY_MAX];
    nnav_fact a[CARRY_MAX], b[CARRY_MAX];
    int64_t in_axes[CARRY_MAX], out_axes[CARRY_MAX];
} body_scratch;

/* Runs rule(ix, scratch) with zeroed scratch from the heap. */
static int with_scratch(IX, int (*rule)(nnav_ictx *, body_scratch *))
{
    body_scratch *sc = calloc(1, sizeof *sc);
    if (!sc)
        return nnav_ix_fail(ix, "out of memory");
    int rc = rule(ix, sc);
    free(sc);
    return rc;
}

/* A body whose state is carried from one iteration to the next (Loop, Scan):
 * inferred from the states on entry, then again from the states merged with
 * what one iteration makes of them, until nothing changes, so that a state
 * that grows or changes shape is not taken to keep its first shape. Seeds
 * seed[first .. first+n) are the states; their final facts land in merged[]. */
static uint32_t carried_body(IX, const nnav_fact **seed, size_t nseed, uint32_t first, uint32_t n,
                             uint32_t out_first, nnav_fact *merged)
{
    uint32_t g = NNAV_NONE;
    for (uint32_t k = 0; k < n; k++)
        merged[k] = seed[first + k] ? *seed[first + k] : nnav_ix_make(ix, 0, -1, NULL);
    /* Each level of nesting multiplies the passes: deep bodies get one
     * pass, on the types alone. */
    int rounds = ix->depth < 3 ? 4 : 0;
    for (int round = 0; round < rounds; round++) {
        for (uint32_t k = 0; k < n; k++)
            seed[first + k] = &merged[k];
        g = nnav_ix_body(ix, "body", seed, nseed);
        if (g == NNAV_NONE)
            return g;
        int changed = 0;
        for (uint32_t k = 0; k < n; k++) {
            nnav_fact m = merge2(ix, &merged[k], nnav_ix_body_out(ix, g, out_first + k, NULL));
            if (!fact_same(ix, &m, &merged[k]))
                changed = 1;
            merged[k] = m;
        }
        if (!changed)
            return g;
    }
    /* Still changing (or nested too deep to iterate): only the types are
     * carried, and one more pass. */
    for (uint32_t k = 0; k < n; k++) {
        nnav_fact t = nnav_ix_make(ix, merged[k].dtype, -1, NULL);
        t.not_tensor = is_seq(&merged[k]) ? NNAV_NT_SEQ : merged[k].not_tensor;
        merged[k] = t;
        seed[first + k] = &merged[k];
    }
    return nnav_ix_body(ix, "body", seed, nseed);
}

/* Output o: body output f with the dims `pre` (n of them) inserted at axis at. */
static void out_stacked(IX, uint32_t o, const nnav_fact *f, int32_t at, const nnav_dim *pre, int n)
{
    if (!f || f->not_tensor)
        return;
    if (f->rank < 0 || f->rank + n > NNAV_RANK_MAX) {
        nnav_ix_out(ix, o, f->dtype, -1, NULL);
        return;
    }
    const nnav_dim *d = nnav_shapes_dims(ix->S, f->dims);
    nnav_dim s[NNAV_RANK_MAX];
    for (int32_t j = 0, k = 0; j < f->rank + n; j++)
        s[j] = j >= at && j < at + n ? pre[j - at] : d[k++];
    nnav_ix_out(ix, o, f->dtype, f->rank + n, s);
}

static int loop_in(IX, body_scratch *sc)
{
    uint32_t nin = nnav_ix_nin(ix), ncarried = nin > 2 ? nin - 2 : 0;
    const nnav_fact **seed = sc->seed;
    nnav_fact *merged = sc->a;
    if (ncarried > CARRY_MAX)
        return nnav_ix_fail(ix, "over %d loop-carried values", CARRY_MAX);
    nnav_fact it = nnav_ix_make(ix, NNAV_DT_INT64, 0, NULL);
    nnav_fact cond = nnav_ix_make(ix, NNAV_DT_BOOL, 0, NULL);
    seed[0] = &it, seed[1] = &cond;
    for (uint32_t i = 0; i < ncarried; i++)
        seed[2 + i] = nnav_ix_in(ix, 2 + i);
    uint32_t g = carried_body(ix, seed, 2 + ncarried, 2, ncarried, 1, merged);
    if (g == NNAV_NONE)
        return nnav_ix_fail(ix, "its body could not be inferred");
    /* Carried values: what holds on entry and after every iteration. */
    for (uint32_t k = 0; k < ncarried; k++)
        out_fact(ix, k, &merged[k]);
    /* Scan outputs: one slice per iteration, stacked on a new first axis. */
    nnav_dim count = nnav_ix_present(ix, 1) ? NNAV_DIM_UNKNOWN : fold_one(ix, 0);
    for (uint32_t k = ncarried; k < nnav_ix_nout(ix); k++)
        out_stacked(ix, k, nnav_ix_body_out(ix, g, 1 + k, NULL), 0, &count, 1);
    return 0;
}

int nnav_rule_loop(IX)
{
    return with_scratch(ix, loop_in);
}

/* Input f without its axes a and b (b < 0: only a). */
static nnav_fact drop_axes(IX, const nnav_fact *f, int32_t a, int32_t b)
{
    const nnav_dim *d = nnav_shapes_dims(ix->S, f->dims);
    nnav_dim s[NNAV_RANK_MAX];
    int32_t k = 0;
    for (int32_t j = 0; j < f->rank; j++)
        if (j != a && j != b)
            s[k++] = d[j];
    return nnav_ix_make(ix, f->dtype, k, s);
}

/* Scan of opset 8: a batch axis in front of everything, the optional
 * sequence_lens first, scan inputs' axis 1 scanned. */
static int scan8_in(IX, body_scratch *sc)
{
    int64_t nscan = nnav_ix_attr_i(ix, "num_scan_inputs", -1);
    uint32_t nin = nnav_ix_nin(ix);
    if (nin < 1 || nin > CARRY_MAX || nscan < 0 || (uint64_t)nscan > nin - 1)
        return nnav_ix_fail(ix, "num_scan_inputs missing or out of range");
    uint32_t nstate = nin - 1 - (uint32_t)nscan;
    nnav_fact *parts = sc->a, *merged = sc->b;
    const nnav_fact **seed = sc->seed;
    nnav_dim batch = NNAV_DIM_UNKNOWN, len = NNAV_DIM_UNKNOWN;
    for (uint32_t i = 1; i < nin; i++) {
        const nnav_fact *f = nnav_ix_in(ix, i);
        seed[i - 1] = f;
        int32_t need = i <= nstate ? 1 : 2;
        if (f && f->rank >= 0 && f->rank < need)
            seed[i - 1] = NULL;
        if (!f || f->rank < need)
            continue;
        const nnav_dim *d = nnav_shapes_dims(ix->S, f->dims);
        if (nnav_dim_is_unknown(batch))
            batch = d[0];
        if (i > nstate && nnav_dim_is_unknown(len))
            len = d[1];
        parts[i - 1] = drop_axes(ix, f, 0, i <= nstate ? -1 : 1);
        seed[i - 1] = &parts[i - 1];
    }
    uint32_t g = carried_body(ix, seed, nin - 1, 0, nstate, 0, merged);
    if (g == NNAV_NONE)
        return nnav_ix_fail(ix, "its body could not be inferred");
    nnav_dim pre[2] = {batch, len};
    for (uint32_t o = 0; o < nnav_ix_nout(ix); o++)
        out_stacked(ix, o, o < nstate ? &merged[o] : nnav_ix_body_out(ix, g, o, NULL), 0, pre,
                    o < nstate ? 1 : 2);
    return 0;
}

static int scan_in(IX, body_scratch *sc)
{
    if (nnav_ix_opset(ix) > 0 && nnav_ix_opset(ix) < 9)
        return scan8_in(ix, sc);
    int64_t nscan = nnav_ix_attr_i(ix, "num_scan_inputs", -1);
    uint32_t nin = nnav_ix_nin(ix);
    if (nscan < 0 || (uint64_t)nscan > nin || nin > CARRY_MAX)
        return nnav_ix_fail(ix, "num_scan_inputs missing or out of range");
    uint32_t nstate = nin - (uint32_t)nscan;
    int64_t *in_axes = sc->in_axes, *out_axes = sc->out_axes;
    nnav_ix_attr_ints(ix, "scan_input_axes", in_axes, CARRY_MAX);
    nnav_ix_attr_ints(ix, "scan_output_axes", out_axes, CARRY_MAX);
    nnav_fact *slices = sc->a, *merged = sc->b;
    const nnav_fact **seed = sc->seed;
    nnav_dim len = NNAV_DIM_UNKNOWN;
    for (uint32_t i = 0; i < nin; i++) {
        seed[i] = nnav_ix_in(ix, i);
        if (i < nstate)
            continue;
        const nnav_fact *f = seed[i];
        if (!f || f->rank < 1)
            continue;
        int64_t ax = in_axes[i - nstate];
        if (ax < 0)
            ax += f->rank;
        if (ax < 0 || ax >= f->rank)
            return nnav_ix_fail(ix, "scan_input_axes out of range");
        if (nnav_dim_is_unknown(len))
            len = nnav_shapes_dims(ix->S, f->dims)[ax];
        slices[i] = drop_axes(ix, f, (int32_t)ax, -1);
        seed[i] = &slices[i];
    }
    uint32_t g = carried_body(ix, seed, nin, 0, nstate, 0, merged);
    if (g == NNAV_NONE)
        return nnav_ix_fail(ix, "its body could not be inferred");
    for (uint32_t o = 0; o < nnav_ix_nout(ix); o++) {
        if (o < nstate) {
            out_fact(ix, o, &merged[o]);
            continue;
        }
        const nnav_fact *f = nnav_ix_body_out(ix, g, o, NULL);
        int64_t ax = o - nstate < CARRY_MAX ? out_axes[o - nstate] : 0;
        if (f && f->rank >= 0 && ax < 0)
            ax += f->rank + 1;
        if (f && f->rank >= 0 && (ax < 0 || ax > f->rank))
            return nnav_ix_fail(ix, "scan_output_axes out of range");
        out_stacked(ix, o, f, (int32_t)ax, &len, 1);
    }
    return 0;
}

int nnav_rule_scan(IX)
{
    return with_scratch(ix, scan_in);
}

/* SequenceMap: the body on each element (sequence inputs give their
 * elements, tensors themselves); each output a sequence of its results. */
static int sequence_map_in(IX, body_scratch *sc)
{
    uint32_t nin = nnav_ix_nin(ix);
    if (nin == 0 || nin > CARRY_MAX)
        return nnav_ix_fail(ix, "%u inputs", nin);
    nnav_fact *el = sc->a;
    const nnav_fact **seed = sc->seed;
    for (uint32_t i = 0; i < nin; i++) {
        int k = nnav_ix_seq(ix, i, &el[i]);
        if (k == 2)
            el[i] = nnav_ix_make(ix, el[i].dtype, -1, NULL);
        seed[i] = k ? &el[i] : nnav_ix_in(ix, i);
    }
    uint32_t g = nnav_ix_body(ix, "body", seed, nin);
    if (g == NNAV_NONE)
        return nnav_ix_fail(ix, "its body could not be inferred");
    for (uint32_t o = 0; o < nnav_ix_nout(ix); o++) {
        const nnav_fact *f = nnav_ix_body_out(ix, g, o, NULL);
        if (f && !f->not_tensor)
            nnav_ix_out_seq(ix, o, f, 0);
    }
    return 0;
}

int nnav_rule_sequence_map(IX)
{
    return with_scratch(ix, sequence_map_in);
}

/* ---- sequences ---- */

int nnav_rule_seq_empty(IX)
{
    nnav_ix_out_seq(ix, 0, NULL, (int32_t)nnav_ix_attr_i(ix, "dtype", NNAV_DT_FLOAT));
    return 0;
}

int nnav_rule_seq_construct(IX)
{
    uint32_t n = nnav_ix_nin(ix);
    if (n == 0)
        return nnav_ix_fail(ix, "no inputs");
    for (uint32_t i = 0; i < n; i++)
        if (!nnav_ix_present(ix, i))
            return nnav_ix_fail(ix, "input %u is missing", i);
    nnav_fact m = *nnav_ix_in(ix, 0);
    for (uint32_t i = 1; i < n; i++)
        m = merge2(ix, &m, nnav_ix_in(ix, i));
    nnav_ix_out_seq(ix, 0, &m, 0);
    return 0;
}

int nnav_rule_seq_insert(IX)
{
    nnav_fact el;
    int k = nnav_ix_seq(ix, 0, &el);
    const nnav_fact *t = nnav_ix_in(ix, 1);
    if (!k || !t)
        return nnav_ix_fail(ix, "input 0 is not a known sequence");
    nnav_fact m = k == 2 ? *t : merge2(ix, &el, t);
    nnav_ix_out_seq(ix, 0, &m, 0);
    return 0;
}

int nnav_rule_seq_erase(IX)
{
    nnav_fact el;
    int k = nnav_ix_seq(ix, 0, &el);
    if (!k)
        return nnav_ix_fail(ix, "input 0 is not a known sequence");
    nnav_ix_out_seq(ix, 0, k == 1 ? &el : NULL, el.dtype);
    return 0;
}

int nnav_rule_seq_at(IX)
{
    nnav_fact el;
    int k = nnav_ix_seq(ix, 0, &el);
    if (!k)
        return nnav_ix_fail(ix, "input 0 is not a known sequence");
    nnav_ix_out(ix, 0, el.dtype, k == 1 ? el.rank : -1,
                k == 1 && el.rank >= 0 ? nnav_shapes_dims(ix->S, el.dims) : NULL);
    return 0;
}

int nnav_rule_seq_length(IX)
{
    nnav_ix_out(ix, 0, NNAV_DT_INT64, 0, NULL);
    return 0;
}

int nnav_rule_split_to_seq(IX)
{
    if (need_rank(ix, 0) < 0)
        return typed_only(ix);
    int32_t r = nnav_ix_rank(ix, 0);
    int64_t axis = 0;
    if (norm_axis(ix, nnav_ix_attr_i(ix, "axis", 0), r, &axis) < 0)
        return -1;
    nnav_dim d[NNAV_RANK_MAX];
    memcpy(d, nnav_ix_dims(ix, 0), (size_t)r * sizeof *d);
    int32_t out = r;
    if (!nnav_ix_present(ix, 1)) {
        /* pieces of 1, the axis dropped unless keepdims */
        if (nnav_ix_attr_i(ix, "keepdims", 1)) {
            d[axis] = dnum(1);
        } else {
            memmove(d + axis, d + axis + 1, (size_t)(r - axis - 1) * sizeof *d);
            out = r - 1;
        }
    } else {
        const nnav_dim *v;
        int n = nnav_ix_fold(ix, 1, &v);
        nnav_dim piece = NNAV_DIM_UNKNOWN;
        if (n > 0) {
            piece = v[0];
            for (int i = 1; i < n; i++)
                if (!nnav_dim_eq(v[i], piece))
                    piece = NNAV_DIM_UNKNOWN;
            /* a scalar split leaves a shorter last piece unless it divides */
            if (nnav_ix_rank(ix, 1) == 0 &&
                !(nnav_dim_is_num(piece) && nnav_dim_is_num(d[axis]) && dval(piece) > 0 &&
                  dval(d[axis]) % dval(piece) == 0))
                piece = NNAV_DIM_UNKNOWN;
            if (nnav_dim_is_num(piece) && dval(piece) < 0)
                piece = NNAV_DIM_UNKNOWN;
        }
        d[axis] = piece;
    }
    nnav_fact el = nnav_ix_make(ix, nnav_ix_dtype(ix, 0), out, d);
    nnav_ix_out_seq(ix, 0, &el, 0);
    return 0;
}

int nnav_rule_concat_from_seq(IX)
{
    nnav_fact el;
    int k = nnav_ix_seq(ix, 0, &el);
    if (!k)
        return nnav_ix_fail(ix, "input 0 is not a known sequence");
    if (k != 1 || el.rank < 0) {
        nnav_ix_out(ix, 0, el.dtype, -1, NULL);
        return 0;
    }
    int newaxis = nnav_ix_attr_i(ix, "new_axis", 0) != 0;
    int32_t r = el.rank + newaxis;
    if (r > NNAV_RANK_MAX)
        return nnav_ix_fail(ix, "rank over %d", NNAV_RANK_MAX);
    int64_t axis = 0;
    if (norm_axis(ix, nnav_ix_attr_i(ix, "axis", 0), r, &axis) < 0)
        return -1;
    const nnav_dim *ed = nnav_shapes_dims(ix->S, el.dims);
    nnav_dim d[NNAV_RANK_MAX];
    for (int32_t i = 0, j = 0; i < r; i++) {
        if (newaxis && i == axis) {
            d[i] = NNAV_DIM_UNKNOWN;
            continue;
        }
        d[i] = i == axis ? NNAV_DIM_UNKNOWN : ed[j];
        j++;
    }
    nnav_ix_out(ix, 0, el.dtype, r, d);
    return 0;
}
