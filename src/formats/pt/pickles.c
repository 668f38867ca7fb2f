/* pickles.c - every pickle a loader of the file would read (pt.h), found
 * and run (pickle.c: nothing is called) in the order the loader reads them,
 * whatever their protocol:
 *
 *  - a zip (torch.save >= 1.6, torch.jit.save): every entry whose name ends
 *    in .pkl (data.pkl, constants.pkl, any other), stored or not; the
 *    entries that may hold one (.debug_pkl, extra/) when they parse as one;
 *  - a tar (torch.save before 0.4): its storages member (a count, then per
 *    storage a pickle and its raw bytes, then the views), its tensors member
 *    (a count, then per tensor a pickle and its binary dims) and its pickle;
 *  - anything else: pickles one after another. When the first is torch's
 *    legacy magic number, the file is a legacy checkpoint (torch < 1.6):
 *    exactly five pickles (magic, protocol, sys_info, the object, the
 *    storage keys), then the storages' bytes. Otherwise up to 64 pickles,
 *    as long as the next bytes parse as one.
 *
 * One function, so `nnav scan`, `nnav info` and the explorer read the same
 * pickles and can never disagree about what loading the file would run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "pt.h"

enum { MAX_STREAM = 64, TAR_BLOCK = 512 };

static const char *const legacy_what[5] = {"legacy magic pickle", "legacy version pickle",
                                           "legacy sys_info pickle", "legacy object pickle",
                                           "legacy storage-key pickle"};

static const char *pt_call_op_name(uint8_t op)
{
    switch (op) {
    case 'R': return "REDUCE";
    case 'b': return "BUILD";
    case 0x81: return "NEWOBJ";
    case 0x92: return "NEWOBJ_EX";
    case 'i': return "INST";
    case 'o': return "OBJ";
    default: return "";
    }
}

/* How the faces speak of a checkpoint's scan (loadscan.h). */
static const nnav_load_words pt_words = {
    .loader = "torch.load (without weights_only=True) or pickle",
    .loader_short = "torch.load",
    .allowlist = "torch's weights_only allowlist",
    .unit = "pickle",
    .units_key = "pickles",
    .lenient_key = "torchscript",
    .lenient_why = " or one torch.jit.load's unpickler makes itself (a TorchScript archive)",
    .op_name = pt_call_op_name,
};

static const char *keep_name(pt_pickles *ps, const char *what)
{
    char *nm = strdup(what);
    char **slot = nm ? nnav_vec_push(ps->names) : NULL;
    if (!slot) {
        free(nm);
        return NULL;
    }
    *slot = nm;
    return nm;
}

static int oom(nnav_error *err)
{
    nnav_err_set(err, 0, 0, "out of memory");
    snprintf(err->path, sizeof err->path, "pt");
    err->kind = NNAV_ERR_INPUT;
    return -1;
}

/* A fault that is no pickle's (a tar member's layout): the scan's first. */
static void fault(pt_pickles *ps, uint64_t off, const char *what, const char *msg)
{
    if (ps->scan.failed)
        return;
    ps->scan.failed = 1;
    nnav_err_set(&ps->scan.err, off, 1, "%s", msg);
    snprintf(ps->scan.err.path, sizeof ps->scan.err.path, "%s", what);
    ps->scan.err.kind = NNAV_ERR_INPUT;
}

/* Run one pickle from the bytes b. quiet: bytes that may not be a pickle at
 * all; a fault before any global is then no pickle, dropped (1). 0: read to
 * its STOP (*end after it); -1: a fault, kept; -2 out of memory. */
static int run_one(pt_pickles *ps, pk_state *st, nnav_span b, const char *what, uint32_t entry,
                   int quiet, uint64_t *end, nnav_error *err)
{
    const char *nm = keep_name(ps, what);
    pt_pickle *pk = nm ? nnav_vec_push(ps->v) : NULL;
    if (!pk)
        return oom(err) - 1;
    memset(pk, 0, sizeof *pk);
    pk->what = nm;
    pk->entry = entry;
    pk->g0 = st->globals.n;
    st->what = nm;
    nnav_error e;
    memset(&e, 0, sizeof e);
    uint64_t stop = 0;
    int rc = pk_run(st, b, &stop, &e);
    uint64_t at = (uint64_t)(b.p - st->base);
    pk->bytes = (nnav_span){b.p, stop > at ? stop - at : 0};
    pk->root = rc < 0 ? NNAV_NONE : st->root;
    if (rc < 0 && quiet && st->globals.n == pk->g0) {
        ps->v.n--;
        return 1;
    }
    for (uint32_t i = pk->g0; i < st->globals.n; i++)
        st->globals.v[i].entry = nm;
    ps->scan.units++;
    if (end)
        *end = stop;
    if (rc < 0) {
        pk->err = malloc(sizeof *pk->err);
        if (!pk->err)
            return oom(err) - 1;
        *pk->err = e;
        if (!ps->scan.failed)
            ps->scan.failed = 1, ps->scan.err = e;
        return -1;
    }
    return 0;
}

/* ---- a zip ---- */

static int ends_with(nnav_span s, const char *w)
{
    size_t k = strlen(w);
    return s.n >= k && !memcmp(s.p + s.n - k, w, k);
}

/* An entry under extra/ (torch.jit.save's extra files), at the top or in
 * the archive's folder. */
static int in_extra(nnav_span nm)
{
    for (uint64_t i = 0; i + 6 <= nm.n; i++)
        if ((i == 0 || nm.p[i - 1] == '/') && !memcmp(nm.p + i, "extra/", 6))
            return 1;
    return 0;
}

static int read_zip(const uint8_t *p, pt_zip *z, pk_state *st, pt_pickles *ps, nnav_error *err)
{
    /* A TorchScript archive: torch.jit.load's unpickler makes
     * torch.jit._pickle's builders itself; set before any pickle runs. */
    for (uint32_t k = 0; k < z->e.n; k++) {
        nnav_span nm = z->e.v[k].name;
        const uint8_t *sl = memchr(nm.p, '/', (size_t)nm.n);
        nnav_span rest = sl ? (nnav_span){sl + 1, nm.n - (uint64_t)(sl + 1 - nm.p)}
                            : (nnav_span){0};
        if (nnav_span_eqs(rest, "constants.pkl") || (rest.n > 5 && !memcmp(rest.p, "code/", 5)))
            st->torchscript = 1;
    }
    for (uint32_t k = 0; k < z->e.n; k++) {
        const pt_zip_entry *e = &z->e.v[k];
        int must = ends_with(e->name, ".pkl");
        int may = ends_with(e->name, ".debug_pkl") || in_extra(e->name);
        if (!must && !may)
            continue;
        char what[300];
        nnav_text_escape(e->name.p, e->name.n > 200 ? 200 : e->name.n, what, sizeof what);
        nnav_span d;
        nnav_error e2;
        if (pt_zip_data(p, e, &d, &e2) < 0) {
            if (must && !ps->scan.failed)
                ps->scan.failed = 1, ps->scan.err = e2;
            continue;
        }
        if (run_one(ps, st, d, what, k, !must, NULL, err) == -2)
            return -1;
    }
    return 0;
}

/* ---- a tar ---- */

static uint64_t tar_num(const uint8_t *f, int n, int *ok)
{
    uint64_t v = 0;
    int i = 0;
    *ok = 1;
    if (f[0] & 0x80) { /* base-256 */
        for (i = 1; i < n; i++) {
            if (v >> 55)
                return *ok = 0, 0;
            v = v << 8 | f[i];
        }
        return f[0] == 0x80 ? v : (*ok = 0, 0);
    }
    while (i < n && f[i] == ' ')
        i++;
    for (; i < n && f[i] >= '0' && f[i] <= '7'; i++) {
        if (v >> 60)
            return *ok = 0, 0;
        v = v << 3 | (uint64_t)(f[i] - '0');
    }
    for (; i < n; i++)
        if (f[i] != ' ' && f[i] != 0)
            return *ok = 0, 0;
    return v;
}

/* Whether the 512 bytes at h are a tar header: its checksum holds. */
static int tar_header(const uint8_t *h)
{
    uint64_t sum = 0;
    int ok;
    for (int i = 0; i < TAR_BLOCK; i++)
        sum += i >= 148 && i < 156 ? ' ' : h[i];
    uint64_t want = tar_num(h + 148, 8, &ok);
    return ok && h[148] != 0 && want == sum;
}

/* The item k of a tuple or list object, NNAV_NONE. */
static uint32_t item_of(const pk_state *st, uint32_t id, uint32_t k)
{
    if (id >= st->objs.n || (st->objs.v[id].kind != PK_TUPLE && st->objs.v[id].kind != PK_LIST))
        return NNAV_NONE;
    uint32_t l = st->objs.v[id].head;
    for (uint32_t i = 0; i < k && l != NNAV_NONE; i++)
        l = st->links.v[l].next;
    return l == NNAV_NONE ? NNAV_NONE : st->links.v[l].obj;
}

/* A count pickle's value: a non-negative int, else -1. */
static int64_t count_of(const pk_state *st, uint32_t id)
{
    const pk_obj *o = id < st->objs.n ? &st->objs.v[id] : NULL;
    return o && o->kind == PK_INT && !o->big && o->i >= 0 ? o->i : -1;
}

/* A tar member's pickle at *at, read into st: its count when cnt is not
 * NULL, else its item k (0: the member's one pickle); *at moves past it.
 * 0: read; 1: a fault (kept in the scan), the member's walk stops there;
 * -1 out of memory. */
static int member_pickle(pt_pickles *ps, pk_state *st, uint64_t *at, uint64_t end,
                         const char *member, int64_t k, int64_t *cnt, nnav_error *err)
{
    char what[64];
    if (k)
        snprintf(what, sizeof what, "tar %s pickle %lld", member, (long long)k);
    else
        snprintf(what, sizeof what, "tar %s pickle", member);
    if (*at >= end) {
        fault(ps, *at, what, "the member ends before this pickle");
        return 1;
    }
    uint64_t stop = 0;
    int rc = run_one(ps, st, (nnav_span){st->base + *at, end - *at}, what, NNAV_NONE, 0, &stop,
                     err);
    if (rc)
        return rc == -2 ? -1 : 1;
    if (cnt && (*cnt = count_of(st, st->root)) < 0) {
        fault(ps, *at, what, "the count is not a non-negative int");
        return 1;
    }
    *at = stop;
    return 0;
}

/* The tar's storages member: count, per storage (key, location, type) and
 * its 8-byte element count and bytes, then the views. */
static int tar_storages(pt_pickles *ps, pk_state *st, nnav_span m, nnav_error *err)
{
    const uint8_t *base = st->base;
    uint64_t at = (uint64_t)(m.p - base), end = at + m.n;
    int64_t cnt = 0;
    int rc = member_pickle(ps, st, &at, end, "storages", 0, &cnt, err);
    for (int64_t i = 0; rc == 0 && i < cnt; i++) {
        if ((rc = member_pickle(ps, st, &at, end, "storages", i + 1, NULL, err)) != 0)
            break;
        uint32_t ty = item_of(st, st->root, 2);
        int32_t dt = ty != NNAV_NONE && st->objs.v[ty].kind == PK_GLOBAL
                         ? pk_storage_dtype(st->globals.v[st->objs.v[ty].a].name) : 0;
        unsigned bits = dt ? nnav_dtype_bits(dt) : 0;
        uint64_t k = 0;
        if (bits && bits % 8 == 0 && end - at >= 8)
            for (int b = 7; b >= 0; b--)
                k = k << 8 | base[at + (uint64_t)b];
        if (!bits || bits % 8) {
            fault(ps, at, "tar storages", "a storage type of unknown element size: where the "
                                          "next pickle starts is not known");
            return 0;
        }
        if (end - at < 8 || k > (end - at - 8) / (bits / 8)) {
            fault(ps, at, "tar storages", "a storage's elements run past the end of the member");
            return 0;
        }
        at += 8 + k * (bits / 8);
    }
    if (rc == 0)
        rc = member_pickle(ps, st, &at, end, "storages views", 0, NULL, err);
    return rc < 0 ? -1 : 0;
}

/* The tar's tensors member: count, per tensor (key, storage id, type) and
 * its dims: int32 ndim, 4 bytes, ndim sizes, ndim strides, an offset. */
static int tar_tensors(pt_pickles *ps, pk_state *st, nnav_span m, nnav_error *err)
{
    const uint8_t *base = st->base;
    uint64_t at = (uint64_t)(m.p - base), end = at + m.n;
    int64_t cnt = 0;
    int rc = member_pickle(ps, st, &at, end, "tensors", 0, &cnt, err);
    for (int64_t i = 0; rc == 0 && i < cnt; i++) {
        if ((rc = member_pickle(ps, st, &at, end, "tensors", i + 1, NULL, err)) != 0)
            break;
        uint32_t nd = end - at >= 8 ? (uint32_t)base[at] | (uint32_t)base[at + 1] << 8 |
                                          (uint32_t)base[at + 2] << 16 |
                                          (uint32_t)base[at + 3] << 24
                                    : UINT32_MAX;
        if (nd > 64 || end - at - 8 < 16ull * nd + 8) {
            fault(ps, at, "tar tensors", "a tensor's dims run past the end of the member");
            return 0;
        }
        at += 8 + 16ull * nd + 8;
    }
    return rc < 0 ? -1 : 0;
}

/* Whether the file is a tar (torch.load tries it first), and if so its
 * members read. 0: not a tar. */
static int read_tar(const uint8_t *p, uint64_t n, pk_state *st, pt_pickles *ps, nnav_error *err,
                    int *is_tar)
{
    *is_tar = n >= TAR_BLOCK && tar_header(p);
    if (!*is_tar)
        return 0;
    for (uint64_t at = 0; n - at >= TAR_BLOCK;) {
        const uint8_t *h = p + at;
        int zero = 1;
        for (int i = 0; i < TAR_BLOCK && zero; i++)
            zero = !h[i];
        if (zero)
            break;
        if (!tar_header(h)) {
            fault(ps, at, "tar", "a tar header whose checksum does not hold");
            break;
        }
        int ok;
        uint64_t size = tar_num(h + 124, 12, &ok);
        if (!ok || size > n - at - TAR_BLOCK) {
            fault(ps, at + 124, "tar", "a tar member that runs past the end of the file");
            break;
        }
        nnav_span name = {h, (uint64_t)(memchr(h, 0, 100) ? (const uint8_t *)memchr(h, 0, 100) - h
                                                          : 100)};
        nnav_span data = {h + TAR_BLOCK, size};
        uint8_t type = h[156];
        int rc = 0;
        if (type == '0' || type == 0) {
            if (nnav_span_eqs(name, "storages"))
                rc = tar_storages(ps, st, data, err);
            else if (nnav_span_eqs(name, "tensors"))
                rc = tar_tensors(ps, st, data, err);
            else if (nnav_span_eqs(name, "pickle"))
                rc = run_one(ps, st, data, "tar pickle", NNAV_NONE, 0, NULL, err) == -2 ? -1 : 0;
        }
        if (rc < 0)
            return -1;
        uint64_t adv = TAR_BLOCK + (size + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK;
        if (adv > n - at)
            break;
        at += adv;
    }
    return 0;
}

/* ---- pickles in a row ---- */

static int read_stream(const uint8_t *p, uint64_t n, pk_state *st, pt_pickles *ps,
                       nnav_error *err)
{
    uint64_t at = 0;
    for (uint32_t k = 0; at < n; k++) {
        int legacy = ps->kind == PT_FILE_LEGACY;
        if (k >= (legacy ? 5u : (unsigned)MAX_STREAM))
            break;
        char what[64];
        if (legacy)
            snprintf(what, sizeof what, "%s", legacy_what[k]);
        else
            snprintf(what, sizeof what, k ? "pickle %u" : "pickle", k + 1);
        uint64_t end = 0;
        int rc = run_one(ps, st, (nnav_span){p + at, n - at}, what, NNAV_NONE, k > 0 && !legacy,
                         &end, err);
        if (rc == -2)
            return -1;
        if (rc)
            break;
        if (k == 0 && pk_is_magic(st, st->root)) {
            /* torch's legacy format: the four pickles after it are read too */
            ps->kind = PT_FILE_LEGACY;
            const char *nm = keep_name(ps, legacy_what[0]);
            if (!nm)
                return oom(err);
            ps->v.v[0].what = nm;
            for (uint32_t i = ps->v.v[0].g0; i < st->globals.n; i++)
                st->globals.v[i].entry = nm;
        }
        if (end <= at)
            break;
        at = end;
    }
    if (ps->kind == PT_FILE_LEGACY && ps->v.n < 5 && !ps->scan.failed && at >= n) {
        char m[120];
        snprintf(m, sizeof m, "the file ends before this pickle");
        fault(ps, at, legacy_what[ps->v.n], m);
    }
    ps->end = at;
    return 0;
}

int pt_pickles_read(const uint8_t *p, uint64_t n, pt_zip *z, pk_state *st, pt_pickles *ps,
                    nnav_error *err)
{
    memset(err, 0, sizeof *err);
    st->base = p;
    int rc, tar = 0;
    if (n >= 4 && (!memcmp(p, "PK\3\4", 4) || !memcmp(p, "PK\5\6", 4))) {
        ps->kind = PT_FILE_ZIP;
        if (pt_zip_read(p, n, z, err) < 0)
            return -1;
        rc = read_zip(p, z, st, ps, err);
    } else {
        rc = read_tar(p, n, st, ps, err, &tar);
        if (tar)
            ps->kind = PT_FILE_TAR;
        else
            ps->kind = PT_FILE_STREAM, rc = read_stream(p, n, st, ps, err);
    }
    pk_calls_fix(st);
    ps->scan.lenient = st->torchscript;
    ps->scan.words = &pt_words;
    ps->scan.g = st->globals.v;
    ps->scan.count = st->globals.n;
    ps->scan.would_run = 0;
    for (uint32_t i = 0; i < ps->scan.count; i++)
        ps->scan.would_run += st->globals.v[i].op && !st->globals.v[i].allowed;
    return rc;
}

const pt_pickle *pt_pickles_find(const pt_pickles *ps, uint32_t entry)
{
    for (uint32_t i = 0; i < ps->v.n; i++)
        if (ps->v.v[i].entry == entry)
            return &ps->v.v[i];
    return NULL;
}

void pt_pickles_free(pt_pickles *ps)
{
    for (uint32_t i = 0; i < ps->v.n; i++)
        free(ps->v.v[i].err);
    nnav_vec_free(ps->v);
    for (uint32_t i = 0; i < ps->names.n; i++)
        free(ps->names.v[i]);
    nnav_vec_free(ps->names);
}
