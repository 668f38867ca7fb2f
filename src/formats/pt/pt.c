/* pt.c - the PyTorch checkpoint reader (torch.save's zip format, torch >=
 * 1.6): ARCHIVE/data.pkl, the pickle of what was saved, and ARCHIVE/data/N,
 * the storages its tensors view, stored uncompressed in place.
 *
 * Opening reads the zip's directory and interprets data.pkl (pickle.c: it
 * builds plain data and runs nothing); each tensor found in the nested
 * dicts, lists and tuples becomes an initializer of one main graph (no
 * nodes), named by its key path ("model.layer1.0.conv1.weight"), its data a
 * span of its storage's zip entry. No payload byte is read at open: the cost
 * grows with the entries and the pickle's opcodes, not with the weights.
 * Values are read on request, a non-contiguous view element by element
 * through its strides. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "hashtab.h"
#include "pt.h"
#include "readers.h"
#include "values_acc.h"

typedef struct pt_tinfo {
    uint32_t entry;        /* zip entry of its storage, NNAV_NONE: none found */
    uint32_t stride_first; /* into rd->strides, ndims of them */
    uint32_t shared;       /* tensors viewing the same storage, itself included */
    uint32_t alias;        /* the first tensor that is the same object (tied weights), or NNAV_NONE */
    int64_t offset;        /* storage offset, in elements */
    uint8_t contiguous;
    uint8_t fits;          /* every element it views lies inside the storage entry */
} pt_tinfo;

/* A module object met in the walk: its key path (owned) and class name. */
typedef struct pt_modcls {
    char *path;
    size_t n;
    nnav_span cls;
} pt_modcls;

typedef struct pt_rd {
    pt_zip zip;
    pk_state pk;
    NNAV_VEC(char *) names;
    NNAV_VEC(pt_tinfo) ti;
    NNAV_VEC(int64_t) strides;
    NNAV_VEC(uint32_t) storage_of; /* per tensor: its storage object */
    NNAV_VEC(uint32_t) obj_of;     /* per tensor: its tensor object in the pickle */
    pt_pickles pks;  /* every pickle of the file, run (pickles.c): what the scan lists */
    char entry[300]; /* the object pickle's name: "archive/data.pkl" */
    NNAV_VEC(char *) data; /* key path, NUL, value text: entries not tensors */
    nnav_span archive; /* "archive": the folder data.pkl is in; "legacy" for the legacy format */
    int legacy;        /* torch < 1.6: rd->zip holds one made-up entry per storage */
    int torchscript;   /* torch.jit.save: ARCHIVE/code/ and constants.pkl */
    NNAV_VEC(uint32_t) code; /* zip entries of ARCHIVE/code/ but the .debug_pkl ones */
    NNAV_VEC(pt_modcls) mods; /* each module object's key path and class, in walk order */
    uint32_t *mods_by_path;   /* mods' indices sorted by path, for the lookup */
} pt_rd;

static int perr(nnav_error *err, uint64_t off, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int perr(nnav_error *err, uint64_t off, const char *path, const char *fmt, ...)
{
    char m[480];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    nnav_err_set(err, off, 1, "%s", m);
    snprintf(err->path, sizeof err->path, "%s", path);
    err->kind = NNAV_ERR_INPUT;
    return -1;
}

/* ---- sniffing ---- */

static int name_has(const uint8_t *p, uint64_t n, const char *w)
{
    size_t k = strlen(w);
    for (uint64_t i = 0; i + k <= n; i++)
        if (!memcmp(p + i, w, k))
            return 1;
    return 0;
}

/* torch.save before 1.6: its first pickle is the magic number (torch
 * writes it as a LONG1 under PROTO 2; a pickle of any protocol that makes
 * the number is read by torch.load alike). Only a prefix is run. */
static int legacy_first(const uint8_t *p, uint64_t n)
{
    pk_state st;
    memset(&st, 0, sizeof st);
    st.base = p;
    st.what = "pickle";
    nnav_error e;
    int is = pk_run(&st, (nnav_span){p, n < 65536 ? n : 65536}, NULL, &e) == 0 &&
             pk_is_magic(&st, st.root);
    pk_free(&st);
    return is;
}

int nnav_pt_sniff(const uint8_t *p, uint64_t n)
{
    if (n && p[0] != 'P' && legacy_first(p, n))
        return 1;
    if (n < 30 || memcmp(p, "PK\3\4", 4))
        return 0;
    uint64_t len = (uint64_t)p[26] | (uint64_t)p[27] << 8;
    if (len > n - 30)
        len = n - 30;
    /* torch.save writes data.pkl first; torch.jit.save the storages first. */
    return name_has(p + 30, len, "data.pkl") || name_has(p + 30, len, "constants.pkl") ||
           name_has(p + 30, len, "/code/") || name_has(p + 30, len, "/version") ||
           name_has(p + 30, len, "/data/");
}

/* ---- the key paths ---- */

typedef struct walkctx {
    nnav_model *m;
    pt_rd *rd;
    const char *dir; /* the storages' folder in the archive: "data", "constants" */
    uint8_t role;    /* nnav_tensor_role: under a module's _parameters or _buffers */
    char path[1024];
    size_t n;
    nnav_error *err;
    /* What the walk may cost (issue 29): shared objects are walked once per
     * key path that reaches them, so a pickle of a few KB can reach one
     * tensor 2^200 ways; the steps and the bytes of names it makes are held
     * to a multiple of the pickles' size, and a cycle is named once. */
    uint64_t steps, step_budget, bytes, byte_budget;
    uint8_t *onpath;  /* per object: a container on the current key path */
    uint32_t *at_n;   /* per object on it: the path's length where it was entered */
} walkctx;

/* The walk is past its budget: the pickle is refused, at the object it was
 * walking. */
static __attribute__((noinline)) int bomb(walkctx *w, uint32_t id)
{
    const pk_state *st = &w->rd->pk;
    uint64_t off = id < st->objs.n ? st->objs.v[id].off : 0;
    char path[400], what[120];
    snprintf(path, sizeof path, "%s@%llu", w->rd->entry, (unsigned long long)off);
    if (w->steps > w->step_budget)
        snprintf(what, sizeof what, "more than %llu steps", (unsigned long long)w->step_budget);
    else
        snprintf(what, sizeof what, "more than %llu bytes of key paths",
                 (unsigned long long)w->byte_budget);
    return perr(w->err, off, path,
                "its %u objects are reached over and over through shared references (%s to "
                "name them): refused as a reference bomb", st->objs.n, what);
}

static int spend(walkctx *w, uint64_t steps, uint64_t bytes, uint32_t id)
{
    w->steps += steps;
    w->bytes += bytes;
    return w->steps > w->step_budget || w->bytes > w->byte_budget ? bomb(w, id) : 0;
}

static int is_contiguous(const int64_t *dims, const int64_t *st, uint32_t nd)
{
    int64_t want = 1;
    for (uint32_t k = nd; k-- > 0;) {
        if (dims[k] != 1 && st[k] != want)
            return 0;
        if (dims[k] < 0 || (dims[k] && want > INT64_MAX / (dims[k] ? dims[k] : 1)))
            return 0;
        want *= dims[k];
    }
    return 1;
}

static int add_tensor(walkctx *w, uint32_t id)
{
    nnav_model *m = w->m;
    pt_rd *rd = w->rd;
    const pk_state *st = &rd->pk;
    const pk_obj *o = &st->objs.v[id];
    if (spend(w, 1, w->n + 64, id) < 0)
        return -1;
    char *name = malloc(w->n + 1);
    char **slot = name ? nnav_vec_push(rd->names) : NULL;
    if (!slot) {
        free(name);
        return perr(w->err, 0, "pt", "out of memory");
    }
    memcpy(name, w->path, w->n);
    name[w->n] = 0;
    *slot = name;
    nnav_tensor t;
    memset(&t, 0, sizeof t);
    t.name = (nnav_span){(const uint8_t *)name, w->n};
    t.dtype = o->dtype ? o->dtype : NNAV_DT_UNDEFINED;
    t.owner = NNAV_TOWN_INITIALIZER;
    t.owner_id = NNAV_NONE;
    t.role = w->role;
    t.graph = 0;
    t.ext_offset = t.ext_length = -1;
    t.msg = (nnav_span){st->base + o->off, 1};
    t.dims_first = m->dims.n;
    pt_tinfo *ti = nnav_vec_push(rd->ti);
    uint32_t *so = ti ? nnav_vec_push(rd->storage_of) : NULL;
    uint32_t *oo = so ? nnav_vec_push(rd->obj_of) : NULL;
    if (!oo)
        return perr(w->err, 0, "pt", "out of memory");
    *oo = id;
    ti->entry = NNAV_NONE;
    ti->stride_first = rd->strides.n;
    ti->offset = o->big ? -1 : o->i;
    const pk_obj *sz = &st->objs.v[o->size], *sd = &st->objs.v[o->stride];
    int bad = sz->count != sd->count || o->big || o->i < 0;
    for (int side = 0; side < 2; side++)
        for (uint32_t l = (side ? sd : sz)->head; l != NNAV_NONE; l = st->links.v[l].next) {
            const pk_obj *d = &st->objs.v[st->links.v[l].obj];
            int64_t v = d->kind == PK_INT && !d->big ? d->i : -1;
            bad |= v < 0;
            int64_t *p = side ? nnav_vec_push(rd->strides) : nnav_vec_push(m->dims);
            if (!p)
                return perr(w->err, 0, "pt", "out of memory");
            *p = v;
        }
    t.ndims = m->dims.n - t.dims_first;
    nnav_tensor_sizes(m, &t, 0);
    if (bad)
        t.warn |= NNAV_TW_BAD_DIMS;
    ti->contiguous = !bad && t.ndims == rd->strides.n - ti->stride_first &&
                     is_contiguous(m->dims.v + t.dims_first, rd->strides.v + ti->stride_first,
                                   t.ndims);
    /* Its storage: ARCHIVE/data/KEY. */
    const pk_obj *sto = &st->objs.v[o->a];
    char key[512];
    int kn = snprintf(key, sizeof key, "%.*s/%s/%.*s", (int)rd->archive.n,
                      (const char *)rd->archive.p, w->dir,
                      (int)(sto->s.n > 200 ? 200 : sto->s.n),
                      (const char *)sto->s.p);
    const pt_zip_entry *e = kn > 0 && (size_t)kn < sizeof key
                                ? pt_zip_find(&rd->zip, key, (size_t)kn) : NULL;
    t.storage = NNAV_STORE_RAW;
    unsigned bits = nnav_dtype_bits(t.dtype);
    /* Views of one storage share its entry (torch loads a key once). */
    *so = e ? (uint32_t)(e - rd->zip.e.v) : NNAV_NONE - rd->ti.n;
    if (e) {
        ti->entry = (uint32_t)(e - rd->zip.e.v);
        nnav_span ed = {0};
        if (e->method == 0 && bits && !bad) {
            ed = (nnav_span){m->map.base + e->data_off, e->csize};
            uint64_t item = bits / 8, start = (uint64_t)ti->offset;
            /* The last element it views: offset + sum (dim-1) x stride. */
            uint64_t last = start;
            int empty = t.nelems == 0, over = start > UINT64_MAX / item;
            for (uint32_t k = 0; k < t.ndims && !empty; k++) {
                uint64_t d = (uint64_t)m->dims.v[t.dims_first + k],
                         s = (uint64_t)rd->strides.v[ti->stride_first + k];
                if (d > 1 && s && (d - 1 > UINT64_MAX / s || last > UINT64_MAX - (d - 1) * s))
                    over = 1;
                else if (d > 1)
                    last += (d - 1) * s;
            }
            ti->fits = !over && (empty || (last < UINT64_MAX / item &&
                                           (last + 1) * item <= ed.n));
            if (!over && start * item <= ed.n) {
                t.data = (nnav_span){ed.p + start * item, ed.n - start * item};
                if (ti->contiguous && t.nbytes != UINT64_MAX && t.data.n > t.nbytes)
                    t.data.n = t.nbytes;
            }
        }
        t.stored = ti->contiguous ? t.data.n : ti->fits ? t.nbytes : 0;
    }
    if (t.nbytes != UINT64_MAX && t.stored != t.nbytes)
        t.warn |= NNAV_TW_SIZE_MISMATCH;
    nnav_tensor *tp = nnav_vec_push(m->tensors);
    if (!tp)
        return perr(w->err, 0, "pt", "out of memory");
    *tp = t;
    return 0;
}

/* What to walk in an object: a dict, list or tuple itself; an object's
 * state as BUILD gave it, when that is a dict (or a (dict, slots) tuple's
 * dict): a pickled nn.Module's __dict__, a TorchScript object's attributes.
 * *module: the dict is a module's (it has _parameters or _modules, or the
 * class is a TorchScript one), whose bookkeeping is not named. NNAV_NONE:
 * nothing to walk. */
static uint32_t fields_of(const pk_state *st, uint32_t id, int *module, uint64_t *steps)
{
    const pk_obj *o = &st->objs.v[id];
    *module = 0;
    if (o->kind == PK_DICT || o->kind == PK_LIST || o->kind == PK_TUPLE)
        return id;
    if (o->kind != PK_OBJ || o->state == NNAV_NONE)
        return NNAV_NONE;
    uint32_t d = o->state;
    if (st->objs.v[d].kind == PK_TUPLE && st->objs.v[d].head != NNAV_NONE)
        d = st->links.v[st->objs.v[d].head].obj;
    if (st->objs.v[d].kind != PK_DICT)
        return NNAV_NONE;
    const pk_obj *c = o->a != NNAV_NONE ? &st->objs.v[o->a] : NULL;
    if (c && c->kind == PK_GLOBAL) {
        nnav_span mod = st->globals.v[c->a].module;
        *module = mod.n >= 9 && !memcmp(mod.p, "__torch__", 9);
    }
    for (uint32_t l = st->objs.v[d].head; l != NNAV_NONE && !*module;
         l = st->links.v[l].next) {
        const pk_obj *k = &st->objs.v[st->links.v[l].obj];
        ++*steps;
        *module = k->kind == PK_STR &&
                  (nnav_span_eqs(k->s, "_parameters") || nnav_span_eqs(k->s, "_modules"));
        if ((l = st->links.v[l].next) == NNAV_NONE)
            break;
    }
    return d;
}

/* Whether a container holds a tensor, a list, a dict, a tuple or an object
 * with state. */
static int holds_more(const pk_state *st, const pk_obj *o, uint64_t *steps)
{
    for (uint32_t l = o->head; l != NNAV_NONE; l = st->links.v[l].next) {
        const pk_obj *v = &st->objs.v[st->links.v[l].obj];
        ++*steps;
        if (v->kind == PK_TENSOR || v->kind == PK_DICT || v->kind == PK_LIST ||
            v->kind == PK_TUPLE || (v->kind == PK_OBJ && v->state != NNAV_NONE))
            return 1;
    }
    return 0;
}

/* An entry that is no tensor, kept as text under its key path. */
static int add_text(walkctx *w, const char *v)
{
    pt_rd *rd = w->rd;
    if (rd->data.n >= 1000)
        return 0;
    size_t vn = strlen(v);
    char *e = malloc(w->n + 1 + vn + 1);
    char **slot = e ? nnav_vec_push(rd->data) : NULL;
    if (!slot) {
        free(e);
        return perr(w->err, 0, "pt", "out of memory");
    }
    memcpy(e, w->path, w->n);
    e[w->n] = 0;
    memcpy(e + w->n + 1, v, vn + 1);
    *slot = e;
    return 0;
}

static int add_data(walkctx *w, uint32_t id)
{
    if (w->rd->data.n >= 1000)
        return 0;
    char v[400];
    pk_render(&w->rd->pk, id, v, sizeof v);
    return add_text(w, v);
}

/* A module object at the walk's key path: its class (the global its
 * object was made from) kept for nnav_module_class. */
static int add_module(walkctx *w, uint32_t obj)
{
    const pk_state *st = &w->rd->pk;
    const pk_obj *o = &st->objs.v[obj];
    const pk_obj *c = o->a != NNAV_NONE ? &st->objs.v[o->a] : NULL;
    if (!c || c->kind != PK_GLOBAL || w->rd->mods.n >= (1u << 22))
        return 0;
    if (spend(w, 1, w->n + 32, obj) < 0)
        return -1;
    char *p = malloc(w->n + 1);
    pt_modcls *e = p ? nnav_vec_push(w->rd->mods) : NULL;
    if (!e) {
        free(p);
        return perr(w->err, 0, "pt", "out of memory");
    }
    memcpy(p, w->path, w->n);
    p[w->n] = 0;
    *e = (pt_modcls){p, w->n, st->globals.v[c->a].name};
    return 0;
}

static int modcls_cmp(const void *a, const void *b)
{
    const pt_modcls *x = a, *y = b;
    size_t n = x->n < y->n ? x->n : y->n;
    int c = memcmp(x->path, y->path, n);
    return c ? c : (x->n > y->n) - (x->n < y->n);
}

static const pt_rd *sort_rd;

static int modidx_cmp(const void *a, const void *b)
{
    const pt_modcls *v = sort_rd->mods.v;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int c = modcls_cmp(&v[x], &v[y]);
    return c ? c : (x > y) - (x < y); /* the first met first: a shared module keeps it */
}

/* mods_by_path: the modules' indices sorted by key path. -1 out of memory. */
static int sort_modules(pt_rd *rd)
{
    if (!rd->mods.n)
        return 0;
    rd->mods_by_path = malloc((size_t)rd->mods.n * sizeof *rd->mods_by_path);
    if (!rd->mods_by_path)
        return -1;
    for (uint32_t i = 0; i < rd->mods.n; i++)
        rd->mods_by_path[i] = i;
    sort_rd = rd;
    qsort(rd->mods_by_path, rd->mods.n, sizeof *rd->mods_by_path, modidx_cmp);
    return 0;
}

static nnav_span pt_module_class(const nnav_model *m, nnav_span path)
{
    const pt_rd *rd = m->rd;
    if (!rd || !rd->mods_by_path)
        return (nnav_span){0};
    pt_modcls want = {path.p ? (char *)path.p : "", (size_t)path.n, {0}};
    size_t lo = 0, hi = rd->mods.n;
    while (lo < hi) { /* the first of equal paths */
        size_t mid = lo + (hi - lo) / 2;
        if (modcls_cmp(&rd->mods.v[rd->mods_by_path[mid]], &want) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < rd->mods.n && !modcls_cmp(&rd->mods.v[rd->mods_by_path[lo]], &want))
        return rd->mods.v[rd->mods_by_path[lo]].cls;
    return (nnav_span){0};
}

static uint32_t pt_tensor_alias(const nnav_model *m, uint32_t t)
{
    const pt_rd *rd = m->rd;
    return rd && t < rd->ti.n ? rd->ti.v[t].alias : NNAV_NONE;
}

static nnav_span pt_module_at(const nnav_model *m, uint32_t i, nnav_span *cls)
{
    const pt_rd *rd = m->rd;
    if (!rd || i >= rd->mods.n)
        return (nnav_span){0};
    *cls = rd->mods.v[i].cls;
    return (nnav_span){(const uint8_t *)rd->mods.v[i].path, rd->mods.v[i].n};
}

static int walk_in(walkctx *w, uint32_t id, int depth, int module);

/* A container inside itself: named once, as where it points back to (out
 * of walk's frame: the walk recurses, its frames stay small). */
static __attribute__((noinline)) int back_ref(walkctx *w, uint32_t c)
{
    char v[400], p[300];
    nnav_text_escape((const uint8_t *)w->path, w->at_n[c] > 200 ? 200 : w->at_n[c], p, sizeof p);
    snprintf(v, sizeof v, "<a reference back to %s%s>", w->at_n[c] ? "" : "the top", p);
    return add_text(w, v);
}

static int walk(walkctx *w, uint32_t id, int depth)
{
    pt_rd *rd = w->rd;
    const pk_state *st = &rd->pk;
    if (depth > PK_MAX_DEPTH)
        return 0; /* nested past any model's modules: the rest is not named */
    if (spend(w, 1, 0, id) < 0)
        return -1;
    if (st->objs.v[id].kind == PK_TENSOR)
        return w->m->tensors.n < (1u << 24) ? add_tensor(w, id) : 0;
    int module;
    uint32_t obj = id;
    uint64_t looked = 0;
    uint32_t c = fields_of(st, id, &module, &looked);
    if (spend(w, looked, 0, id) < 0)
        return -1;
    if (c == NNAV_NONE)
        return 0;
    if (w->onpath[c])
        return back_ref(w, c);
    if (module && add_module(w, obj) < 0)
        return -1;
    w->onpath[c] = 1;
    w->at_n[c] = (uint32_t)w->n;
    int rc = walk_in(w, c, depth, module);
    w->onpath[c] = 0;
    return rc;
}

static int walk_in(walkctx *w, uint32_t id, int depth, int module)
{
    pt_rd *rd = w->rd;
    const pk_state *st = &rd->pk;
    const pk_obj *o = &st->objs.v[id];
    size_t keep = w->n;
    uint32_t k = 0;
    for (uint32_t l = o->head; l != NNAV_NONE; l = st->links.v[l].next, k++) {
        uint32_t v = st->links.v[l].obj;
        char part[64];
        nnav_span key = {0};
        if (o->kind == PK_DICT) {
            const pk_obj *ko = &st->objs.v[v];
            l = st->links.v[l].next;
            if (l == NNAV_NONE)
                break;
            v = st->links.v[l].obj;
            if (ko->kind == PK_STR || ko->kind == PK_BYTES)
                key = ko->s;
            else if (ko->kind == PK_INT && !ko->big)
                snprintf(part, sizeof part, "%lld", (long long)ko->i),
                    key = (nnav_span){(const uint8_t *)part, strlen(part)};
            else
                key = (nnav_span){(const uint8_t *)"?", 1};
        } else {
            snprintf(part, sizeof part, "%u", k);
            key = (nnav_span){(const uint8_t *)part, strlen(part)};
        }
        if (module) {
            /* A module's parameters, buffers and submodules are named as
             * its state_dict names them, without the dicts that hold them;
             * its hooks, flags and training mode are not entries. */
            if (nnav_span_eqs(key, "_parameters") || nnav_span_eqs(key, "_buffers") ||
                nnav_span_eqs(key, "_modules")) {
                uint8_t keep_role = w->role;
                w->role = key.p[1] == 'p' ? NNAV_TROLE_PARAMETER
                          : key.p[1] == 'b' ? NNAV_TROLE_BUFFER : NNAV_TROLE_UNSAID;
                int rc = walk(w, v, depth + 1);
                w->role = keep_role;
                if (rc)
                    return rc;
                continue;
            }
            if ((key.n && key.p[0] == '_') || nnav_span_eqs(key, "training"))
                continue;
        }
        int sub;
        uint8_t vk = st->objs.v[v].kind;
        uint64_t looked = 1;
        uint32_t vf = vk == PK_TENSOR ? NNAV_NONE : fields_of(st, v, &sub, &looked);
        int leaf = vk != PK_TENSOR &&
                   (vf == NNAV_NONE || (vk != PK_OBJ && !holds_more(st, &st->objs.v[vf], &looked)));
        if (spend(w, looked, 0, v) < 0)
            return -1;
        if (leaf && depth > 8)
            continue;
        size_t need = (w->n ? 1 : 0) + key.n;
        if (need >= sizeof w->path - w->n)
            continue; /* a key path past 1 KiB: not named */
        if (w->n)
            w->path[w->n++] = '.';
        memcpy(w->path + w->n, key.p, (size_t)key.n);
        w->n += (size_t)key.n;
        int rc = leaf ? add_data(w, v) : walk(w, v, depth + 1);
        w->n = keep;
        if (rc)
            return rc;
    }
    return 0;
}

/* ---- the reader ---- */

static int by_storage(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The tensors in runs of one key (key[t] << 32 | t, sorted): fn gets each
 * run [i, j) of ord. -1 out of memory. */
static int runs(pt_rd *rd, const uint32_t *key,
                void (*fn)(pt_rd *rd, const uint64_t *ord, uint32_t i, uint32_t j))
{
    uint32_t n = rd->ti.n;
    uint64_t *ord = malloc(((size_t)n + 1) * sizeof *ord);
    if (!ord)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        ord[i] = (uint64_t)key[i] << 32 | i;
    qsort(ord, n, sizeof *ord, by_storage);
    for (uint32_t i = 0; i < n;) {
        uint32_t j = i;
        while (j < n && ord[j] >> 32 == ord[i] >> 32)
            j++;
        fn(rd, ord, i, j);
        i = j;
    }
    free(ord);
    return 0;
}

/* How many tensors view each storage. */
static void set_shared(pt_rd *rd, const uint64_t *ord, uint32_t i, uint32_t j)
{
    for (uint32_t k = i; k < j; k++)
        rd->ti.v[(uint32_t)ord[k]].shared = j - i;
}

/* Whether tensors a and b view the same elements of the same storage the
 * same way: one tensor under two key paths. */
static int same_view(const nnav_model *m, const pt_rd *rd, uint32_t a, uint32_t b)
{
    const pt_tinfo *x = &rd->ti.v[a], *y = &rd->ti.v[b];
    const nnav_tensor *s = &m->tensors.v[a], *t = &m->tensors.v[b];
    if (rd->storage_of.v[a] != rd->storage_of.v[b] || x->offset != y->offset ||
        s->dtype != t->dtype || s->ndims != t->ndims || (s->warn | t->warn) & NNAV_TW_BAD_DIMS)
        return 0;
    for (uint32_t k = 0; k < s->ndims; k++)
        if (m->dims.v[s->dims_first + k] != m->dims.v[t->dims_first + k] ||
            rd->strides.v[x->stride_first + k] != rd->strides.v[y->stride_first + k])
            return 0;
    return 1;
}

static const nnav_model *alias_model;

/* One tensor under several key paths (tied weights): the same object again
 * through the pickle's memo (a module saved whole), or, in a state_dict,
 * which holds a detached copy per name, the same view of the same storage.
 * The first met is the tensor, the others its aliases. A run shares a hash
 * of the view; each member is checked against up to 8 earlier ones. */
static void set_alias(pt_rd *rd, const uint64_t *ord, uint32_t i, uint32_t j)
{
    for (uint32_t k = i; k < j; k++) {
        uint32_t t = (uint32_t)ord[k];
        rd->ti.v[t].alias = NNAV_NONE;
        for (uint32_t l = i, seen = 0; l < k && seen < 8; l++) {
            uint32_t u = (uint32_t)ord[l];
            if (rd->ti.v[u].alias != NNAV_NONE)
                continue;
            seen++;
            if (rd->obj_of.v[u] == rd->obj_of.v[t] || same_view(alias_model, rd, u, t)) {
                rd->ti.v[t].alias = u;
                break;
            }
        }
    }
}

/* The run key of a tensor's view: its storage, offset, dtype, dims and
 * strides hashed. */
static uint32_t view_key(const nnav_model *m, const pt_rd *rd, uint32_t t)
{
    const pt_tinfo *x = &rd->ti.v[t];
    const nnav_tensor *s = &m->tensors.v[t];
    uint64_t h = nnav_hashtab_mix64((uint64_t)rd->storage_of.v[t] << 32 ^ (uint64_t)x->offset);
    h = nnav_hashtab_mix64(h ^ (uint64_t)(uint32_t)s->dtype << 8 ^ s->ndims);
    for (uint32_t k = 0; k < s->ndims && x->stride_first + k < rd->strides.n; k++)
        h = nnav_hashtab_mix64(h ^ (uint64_t)m->dims.v[s->dims_first + k] * 31 ^
                               (uint64_t)rd->strides.v[x->stride_first + k]);
    return (uint32_t)(h >> 32);
}

/* The storages of a legacy checkpoint, sorted by key for the lookup. */
typedef struct keyed { nnav_span key; int32_t dtype; } keyed;

static int keyed_cmp(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    uint64_t n = x->key.n < y->key.n ? x->key.n : y->key.n;
    int c = n ? memcmp(x->key.p, y->key.p, (size_t)n) : 0;
    return c ? c : (x->key.n > y->key.n) - (x->key.n < y->key.n);
}

/* The legacy format (torch.save(..., _use_new_zipfile_serialization=False),
 * torch < 1.6): pickles of the magic number, the protocol version (1001)
 * and sys_info (a dict: little_endian must be True), the object pickle
 * whose persistent ids name storages by key, a pickled list of the keys,
 * then each storage in that order: an 8-byte little-endian element count
 * and its raw bytes (count x the element size its storage type says). Each
 * storage becomes an entry of rd->zip named "legacy/data/KEY", so tensors
 * find their bytes as in the zip format, in place. *obj gets the object
 * pickle's span. */
static int legacy_read(nnav_model *m, pt_rd *rd, nnav_span *obj, nnav_error *err)
{
    const uint8_t *base = m->map.base;
    uint64_t n = m->map.size, at = rd->pks.end;
    uint32_t roots[5];
    nnav_span spans[5];
    pk_state *st = &rd->pk;
    for (uint32_t k = 0; k < 5; k++) {
        const pt_pickle *pk = k < rd->pks.v.n ? &rd->pks.v.v[k] : NULL;
        if (!pk || pk->root == NNAV_NONE) {
            if (pk && pk->err)
                *err = *pk->err;
            else if (rd->pks.scan.failed)
                *err = rd->pks.scan.err;
            else
                perr(err, at, "legacy checkpoint", "fewer than its five pickles");
            return -1;
        }
        roots[k] = pk->root;
        spans[k] = pk->bytes;
    }
    snprintf(rd->entry, sizeof rd->entry, "legacy object pickle");
    const pk_obj *ver = roots[1] < st->objs.n ? &st->objs.v[roots[1]] : NULL;
    if (!ver || ver->kind != PK_INT || ver->big || ver->i != 1001)
        return perr(err, (uint64_t)(spans[1].p - base), "legacy version pickle",
                    "protocol version %lld, not 1001: not a legacy checkpoint nnav knows",
                    ver && ver->kind == PK_INT ? (long long)ver->i : -1ll);
    /* sys_info's little_endian. */
    const pk_obj *si = roots[2] < st->objs.n ? &st->objs.v[roots[2]] : NULL;
    int le = -1;
    for (uint32_t l = si && si->kind == PK_DICT ? si->head : NNAV_NONE; l != NNAV_NONE;
         l = st->links.v[l].next) {
        const pk_obj *ko = &st->objs.v[st->links.v[l].obj];
        if ((l = st->links.v[l].next) == NNAV_NONE)
            break;
        const pk_obj *vo = &st->objs.v[st->links.v[l].obj];
        if (ko->kind == PK_STR && nnav_span_eqs(ko->s, "little_endian") && vo->kind == PK_BOOL)
            le = vo->i != 0;
    }
    if (le != 1)
        return perr(err, (uint64_t)(spans[2].p - base), "legacy sys_info pickle",
                    le == 0 ? "a big-endian legacy checkpoint, which nnav does not read"
                            : "sys_info does not say little_endian: True");
    /* The storages the object pickle names, by key. */
    NNAV_VEC(keyed) ks = {0};
    for (uint32_t i = 0; i < st->objs.n; i++)
        if (st->objs.v[i].kind == PK_STORAGE) {
            keyed *q = nnav_vec_push(ks);
            if (!q) {
                nnav_vec_free(ks);
                return perr(err, 0, "pt", "out of memory");
            }
            *q = (keyed){st->objs.v[i].s, st->objs.v[i].dtype};
        }
    if (ks.n)
        qsort(ks.v, ks.n, sizeof *ks.v, keyed_cmp);
    const pk_obj *kl = roots[4] < st->objs.n ? &st->objs.v[roots[4]] : NULL;
    int rc = 0;
    if (!kl || kl->kind != PK_LIST) {
        rc = perr(err, (uint64_t)(spans[4].p - base), "legacy storage-key pickle",
                  "not a list of storage keys");
        goto out;
    }
    uint32_t idx = 0;
    for (uint32_t l = kl->head; l != NNAV_NONE; l = st->links.v[l].next, idx++) {
        const pk_obj *ko = &st->objs.v[st->links.v[l].obj];
        if (ko->kind != PK_STR) {
            rc = perr(err, ko->off, "legacy storage-key pickle", "storage key %u is not a string",
                      idx);
            goto out;
        }
        keyed want = {ko->s, 0};
        const keyed *hit = ks.n ? bsearch(&want, ks.v, ks.n, sizeof *ks.v, keyed_cmp) : NULL;
        char kesc[120];
        nnav_text_escape(ko->s.p, ko->s.n > 60 ? 60 : ko->s.n, kesc, sizeof kesc);
        unsigned bits = hit ? nnav_dtype_bits(hit->dtype) : 0;
        if (!bits || bits % 8) {
            rc = perr(err, at, "legacy storages",
                      "storage '%s' (%u of the list): %s, so where the next one starts is "
                      "not known", kesc, idx,
                      hit ? "a storage type of unknown element size" : "no tensor names it");
            goto out;
        }
        if (n - at < 8) {
            rc = perr(err, at, "legacy storages", "storage '%s' (%u of the list): the file ends "
                      "inside its 8-byte element count", kesc, idx);
            goto out;
        }
        uint64_t cnt = 0;
        for (int b = 7; b >= 0; b--)
            cnt = cnt << 8 | base[at + (uint64_t)b];
        uint64_t item = bits / 8;
        if (cnt > (n - at - 8) / item) {
            rc = perr(err, at, "legacy storages", "storage '%s' (%u of the list): %llu elements "
                      "of %llu bytes run past the end of the file", kesc, idx,
                      (unsigned long long)cnt, (unsigned long long)item);
            goto out;
        }
        /* Its made-up entry, named like a zip checkpoint's storage. */
        size_t nl = 12 + (size_t)ko->s.n;
        char *name = malloc(nl + 1);
        char **slot = name ? nnav_vec_push(rd->names) : NULL;
        pt_zip_entry *e = slot ? nnav_vec_push(rd->zip.e) : NULL;
        if (!e) {
            if (!slot)
                free(name);
            rc = perr(err, 0, "pt", "out of memory");
            goto out;
        }
        *slot = name;
        memcpy(name, "legacy/data/", 12);
        memcpy(name + 12, ko->s.p, (size_t)ko->s.n);
        name[nl] = 0;
        memset(e, 0, sizeof *e);
        e->name = (nnav_span){(const uint8_t *)name, nl};
        e->hdr_off = at;
        e->data_off = at + 8;
        e->csize = e->usize = cnt * item;
        e->method = 0;
        at += 8 + cnt * item;
    }
    if (pt_zip_index(&rd->zip) < 0) {
        rc = perr(err, 0, "pt", "out of memory");
        goto out;
    }
    rd->archive = (nnav_span){(const uint8_t *)"legacy", 6};
    rd->legacy = 1;
    st->root = roots[3];
    *obj = spans[3];
out:
    nnav_vec_free(ks);
    return rc;
}

static int pt_index(nnav_model *m, const nnav_open_opts *o, nnav_error *err)
{
    (void)o;
    pt_rd *rd = calloc(1, sizeof *rd);
    if (!rd)
        return perr(err, 0, "pt", "out of memory");
    m->rd = rd;
    const uint8_t *base = m->map.base;
    nnav_span ps;
    uint64_t g_off = 0;
    uint32_t data_root, const_root = NNAV_NONE;
    /* Every pickle first, as the scan reads them: what the model's scan
     * lists is what `nnav scan` lists. */
    if (pt_pickles_read(base, m->map.size, &rd->zip, &rd->pk, &rd->pks, err) < 0)
        return -1;
    if (rd->pks.kind == PT_FILE_TAR)
        return perr(err, 0, "tar", "a tar checkpoint (torch before 0.4), which nnav does not "
                                   "open: `nnav scan FILE` lists what loading it would run");
    if (rd->pks.kind == PT_FILE_STREAM)
        return perr(err, 0, "pickle", "a pickle whose first value is not torch's legacy magic "
                                      "number: not a checkpoint");
    if (rd->pks.kind == PT_FILE_LEGACY) {
        if (legacy_read(m, rd, &ps, err) < 0)
            return -1;
        snprintf(m->format_reason, sizeof m->format_reason,
                 "read as a legacy PyTorch checkpoint (torch < 1.6): pickles, then the storages");
        g_off = (uint64_t)(ps.p - base);
        goto graph;
    }
    /* ARCHIVE/data.pkl: the first entry named data.pkl one folder deep. */
    const pt_zip_entry *pkl = NULL, *cpkl = NULL;
    int old_ts = 0;
    for (uint32_t k = 0; k < rd->zip.e.n && !pkl; k++) {
        nnav_span nm = rd->zip.e.v[k].name;
        const uint8_t *sl = memchr(nm.p, '/', (size_t)nm.n);
        if (sl && nnav_span_eqs((nnav_span){sl + 1, nm.n - (uint64_t)(sl + 1 - nm.p)}, "data.pkl")) {
            pkl = &rd->zip.e.v[k];
            rd->archive = (nnav_span){nm.p, (uint64_t)(sl - nm.p)};
        }
    }
    /* A TorchScript archive (torch.jit.save) beside it: ARCHIVE/code/ and
     * ARCHIVE/constants.pkl, whose tensors' storages are ARCHIVE/constants/N. */
    for (uint32_t k = 0; k < rd->zip.e.n; k++) {
        nnav_span nm = rd->zip.e.v[k].name;
        const uint8_t *sl = memchr(nm.p, '/', (size_t)nm.n);
        if (!sl || (pkl && (uint64_t)(sl - nm.p) != rd->archive.n) ||
            (pkl && memcmp(nm.p, rd->archive.p, (size_t)rd->archive.n)))
            continue;
        nnav_span rest = {sl + 1, nm.n - (uint64_t)(sl + 1 - nm.p)};
        old_ts |= nnav_span_eqs(rest, "model.json");
        if (nnav_span_eqs(rest, "constants.pkl"))
            cpkl = &rd->zip.e.v[k];
        if (rest.n > 5 && !memcmp(rest.p, "code/", 5)) {
            rd->torchscript = 1;
            uint32_t *c = rest.n >= 10 && !memcmp(rest.p + rest.n - 10, ".debug_pkl", 10)
                              ? NULL : nnav_vec_push(rd->code);
            if (c)
                *c = k;
        }
    }
    if (!pkl && old_ts)
        return perr(err, 0, "zip", "a TorchScript archive of torch before 1.4 (model.json, "
                                   "attributes.pkl), which nnav does not read");
    if (!pkl)
        return perr(err, 0, "zip", "a zip with no ARCHIVE/data.pkl entry: not a PyTorch "
                                   "checkpoint");
    rd->torchscript |= cpkl != NULL;
    nnav_text_escape(pkl->name.p, pkl->name.n > 200 ? 200 : pkl->name.n, rd->entry,
                     sizeof rd->entry);
    if (pt_zip_data(base, pkl, &ps, err) < 0)
        return -1;
    /* The pickles torch.load (and torch.jit.load) read must be whole. */
    const pt_pickle *dp = pt_pickles_find(&rd->pks, (uint32_t)(pkl - rd->zip.e.v));
    const pt_pickle *cp = cpkl ? pt_pickles_find(&rd->pks, (uint32_t)(cpkl - rd->zip.e.v)) : NULL;
    for (int k = 0; k < 2; k++) {
        const pt_pickle *q = k ? cp : dp;
        if ((k == 0 || cpkl) && (!q || q->root == NNAV_NONE)) {
            nnav_span tmp;
            if (q && q->err)
                *err = *q->err;
            else if (q || pt_zip_data(base, k ? cpkl : pkl, &tmp, err) == 0)
                perr(err, 0, "pt", "a pickle that was not read");
            return -1;
        }
    }
    data_root = dp->root;
    rd->pk.root = data_root;
    if (cp) {
        const_root = cp->root;
        snprintf(m->format_reason, sizeof m->format_reason,
                 "read as a TorchScript archive (torch.jit.save): its tensors; its code "
                 "files are listed, not run");
    }
    g_off = pkl->data_off;
graph:;
    /* One main graph; its initializers are the tensors. */
    nnav_graph *g = nnav_vec_push(m->graphs);
    nnav_span *gs = g ? nnav_vec_push(m->gspan) : NULL;
    if (!gs)
        return perr(err, 0, "pt", "out of memory");
    g->kind = NNAV_GRAPH_MAIN;
    g->parent = g->owner_node = g->owner_attr = g->list_index = NNAV_NONE;
    g->function = g->training = NNAV_NONE;
    g->offset = g_off;
    *gs = ps;
    walkctx w = {.m = m, .rd = rd, .dir = "data", .err = err};
    /* Its budget: a few steps per object and link, names a multiple of the
     * pickles' bytes (a checkpoint's names are shorter than its pickle). */
    uint64_t pbytes = 0;
    for (uint32_t i = 0; i < rd->pks.v.n; i++)
        pbytes += rd->pks.v.v[i].bytes.n;
    w.step_budget = 4 * ((uint64_t)rd->pk.objs.n + rd->pk.links.n) + 65536;
    w.byte_budget = 16 * pbytes + (1u << 20);
    w.onpath = calloc((size_t)rd->pk.objs.n + 1, 1);
    w.at_n = malloc(((size_t)rd->pk.objs.n + 1) * sizeof *w.at_n);
    if (!w.onpath || !w.at_n) {
        free(w.onpath);
        free(w.at_n);
        return perr(err, 0, "pt", "out of memory");
    }
    if (rd->pk.objs.v[rd->pk.root].kind == PK_TENSOR) /* torch.save(tensor) */
        w.n = (size_t)snprintf(w.path, sizeof w.path, "tensor");
    int wrc = walk(&w, rd->pk.root, 0);
    if (wrc == 0 && sort_modules(rd) < 0)
        wrc = perr(err, 0, "pt", "out of memory");
    /* The constants, named as the code names them: CONSTANTS.c0, c1... */
    const pk_obj *ct = const_root != NNAV_NONE ? &rd->pk.objs.v[const_root] : NULL;
    w.dir = "constants";
    w.role = NNAV_TROLE_CONSTANT;
    uint32_t ci = 0;
    for (uint32_t l = ct && ct->kind == PK_TUPLE ? ct->head : NNAV_NONE; l != NNAV_NONE;
         l = rd->pk.links.v[l].next, ci++) {
        uint32_t v = rd->pk.links.v[l].obj;
        w.n = (size_t)snprintf(w.path, sizeof w.path, "CONSTANTS.c%u", ci);
        wrc = wrc < 0 ? wrc : rd->pk.objs.v[v].kind == PK_TENSOR ? walk(&w, v, 0) : add_data(&w, v);
    }
    free(w.onpath);
    free(w.at_n);
    if (wrc < 0)
        return -1;
    g = &m->graphs.v[0];
    g->init_first = 0;
    g->init_count = m->tensors.n;
    m->facts.tensor_store = 1;
    uint32_t *vk = malloc(((size_t)rd->ti.n + 1) * sizeof *vk);
    for (uint32_t i = 0; vk && i < rd->ti.n; i++)
        vk[i] = view_key(m, rd, i);
    alias_model = m;
    int bad = !vk || runs(rd, rd->storage_of.v, set_shared) < 0 || runs(rd, vk, set_alias) < 0;
    free(vk);
    if (bad)
        return perr(err, 0, "pt", "out of memory");
    const pt_zip_entry *ver = NULL;
    char vn[300];
    int k = snprintf(vn, sizeof vn, "%.*s/version", (int)rd->archive.n,
                     (const char *)rd->archive.p);
    if (k > 0 && (size_t)k < sizeof vn)
        ver = pt_zip_find(&rd->zip, vn, (size_t)k);
    m->facts.producer_name = rd->torchscript
                                 ? (nnav_span){(const uint8_t *)"torch.jit.save", 14}
                                 : (nnav_span){(const uint8_t *)"torch.save", 10};
    if (rd->legacy)
        m->facts.producer_version = (nnav_span){(const uint8_t *)"legacy 1001", 11};
    else if (ver && ver->method == 0 && ver->csize <= 16) {
        nnav_span v = {base + ver->data_off, ver->csize};
        while (v.n && (v.p[v.n - 1] == '\n' || v.p[v.n - 1] == '\r'))
            v.n--;
        m->facts.producer_version = v;
    }
    return 0;
}

static void pt_free(nnav_model *m)
{
    pt_rd *rd = m->rd;
    if (!rd)
        return;
    for (uint32_t i = 0; i < rd->names.n; i++)
        free(rd->names.v[i]);
    nnav_vec_free(rd->names);
    for (uint32_t i = 0; i < rd->data.n; i++)
        free(rd->data.v[i]);
    nnav_vec_free(rd->data);
    nnav_vec_free(rd->ti);
    nnav_vec_free(rd->strides);
    nnav_vec_free(rd->storage_of);
    nnav_vec_free(rd->obj_of);
    nnav_vec_free(rd->code);
    for (uint32_t i = 0; i < rd->mods.n; i++)
        free(rd->mods.v[i].path);
    nnav_vec_free(rd->mods);
    free(rd->mods_by_path);
    pt_zip_free(&rd->zip);
    pk_free(&rd->pk);
    pt_pickles_free(&rd->pks);
    free(rd);
    m->rd = NULL;
}

static const nnav_load_scan *pt_load_scan(const nnav_model *m)
{
    return m->rd ? &((const pt_rd *)m->rd)->pks.scan : NULL;
}

/* The format's own facts (nnav.h's nnav_detail): the checkpoint's entries
 * besides the tensors (key path: the value as Python prints it), then a
 * TorchScript archive's code files (name: uncompressed bytes), listed and
 * never compiled or run. */
static uint32_t pt_detail_count(const nnav_model *m)
{
    const pt_rd *rd = m->rd;
    return rd ? rd->data.n + rd->code.n : 0;
}

static int pt_detail_get(const nnav_model *m, uint32_t i, nnav_detail *out)
{
    const pt_rd *rd = m->rd;
    static char title_data[80], title_code[120]; /* counts of one model at a time */
    memset(out, 0, sizeof *out);
    if (!rd || i >= rd->data.n + rd->code.n)
        return -1;
    if (i < rd->data.n) {
        const char *e = rd->data.v[i], *v = e + strlen(e) + 1;
        snprintf(title_data, sizeof title_data, "checkpoint (%u entr%s besides the tensors)",
                 rd->data.n, rd->data.n == 1 ? "y" : "ies");
        out->section = "checkpoint";
        out->title = title_data;
        out->key = (nnav_span){(const uint8_t *)e, strlen(e)};
        out->kind = NNAV_DV_TEXT;
        out->s = (nnav_span){(const uint8_t *)v, strlen(v)};
        out->s_safe = 1; /* pk_render's text is escaped already */
        return 0;
    }
    const pt_zip_entry *e = &rd->zip.e.v[rd->code.v[i - rd->data.n]];
    snprintf(title_code, sizeof title_code, "code (%u TorchScript file%s: listed; nnav compiles and "
             "runs none)", rd->code.n, rd->code.n == 1 ? "" : "s");
    out->section = "code";
    out->title = title_code;
    out->key = (nnav_span){e->name.p + rd->archive.n + 1, e->name.n - rd->archive.n - 1};
    out->kind = NNAV_DV_UINT;
    out->u = e->usize;
    out->offset = (uint64_t)(e->name.p - m->map.base);
    return 0;
}

/* ---- values ---- */

/* The elements of a view (offset, dims, strides, all checked to lie in the
 * storage d) row-major into a, until it is done. */
static void pt_view_walk(const nnav_tensor *tt, nnav_span d, int64_t offset, const int64_t *dims,
                         const int64_t *sd, uint64_t item, nnav_acc *a)
{
    uint32_t nd = tt->ndims;
    uint64_t idx[64] = {0}, n = 1;
    for (uint32_t k = 0; k < nd; k++)
        n *= (uint64_t)dims[k]; /* at most the view's element count */
    nnav_tensor one = *tt;
    one.nelems = 1;
    for (uint64_t i = 0; i < n && !nnav_acc_done(a); i++) {
        uint64_t el = (uint64_t)offset;
        for (uint32_t k = 0; k < nd; k++)
            el += idx[k] * (uint64_t)sd[k];
        nnav_acc_raw(&one, (nnav_span){d.p + el * item, item}, a);
        for (uint32_t k = nd; k-- > 0;) {
            if (++idx[k] < (uint64_t)dims[k])
                break;
            idx[k] = 0;
        }
    }
}

static int pt_values(const nnav_model *m, uint32_t t, size_t want, int stats, nnav_values *out,
                     nnav_error *err)
{
    const pt_rd *rd = m->rd;
    const nnav_tensor *tt = &m->tensors.v[t];
    const pt_tinfo *ti = &rd->ti.v[t];
    uint64_t off = (uint64_t)(tt->msg.p - m->map.base);
    nnav_acc a;
    memset(err, 0, sizeof *err);
    nnav_acc_init(&a, out, tt->dtype, tt->nelems, want, stats, nnav_dtype_components(tt->dtype));
    if (!nnav_dtype_valid(tt->dtype))
        return perr(err, off, rd->entry, "a tensor whose storage type is not known");
    if (ti->entry == NNAV_NONE)
        return perr(err, off, rd->entry, "its storage has no zip entry");
    const pt_zip_entry *e = &rd->zip.e.v[ti->entry];
    nnav_span d;
    if (pt_zip_data(m->map.base, e, &d, err) < 0)
        return -1;
    if (tt->warn & NNAV_TW_BAD_DIMS)
        return perr(err, off, rd->entry, "a tensor with a negative or overflowing size, "
                                         "stride or offset");
    if (ti->contiguous) {
        nnav_acc_raw(tt, tt->data, &a);
    } else {
        if (!ti->fits)
            return perr(err, off, rd->entry, "a view whose strides reach past its storage");
        /* Element by element, row-major over its dims, through its
         * strides: the first `want` only. A view may reach its storage's
         * elements many times (a stride of 0, windows that overlap), so
         * its logical count can pass any storage's: the stats walk the
         * view without its stride-0 dims, each element of which the full
         * view holds equally often (the same min, max and mean; NaNs
         * counted that many times), and are refused when even that walk
         * would pass the storage's elements several times over. */
        uint32_t nd = tt->ndims;
        const int64_t *dims = m->dims.v + tt->dims_first, *sd = rd->strides.v + ti->stride_first;
        uint64_t item = nnav_dtype_bits(tt->dtype) / 8;
        if (nd > 64)
            return perr(err, off, rd->entry, "a view of more than 64 dimensions");
        uint64_t rep = 1, stored = item ? d.n / item : 0;
        int64_t rdims[64];
        for (uint32_t k = 0; k < nd; k++) {
            rdims[k] = dims[k];
            if (sd[k] == 0 && dims[k] > 1)
                rep *= (uint64_t)dims[k], rdims[k] = 1; /* <= nelems: no overflow */
        }
        uint64_t red = rep ? tt->nelems / rep : 0;
        nnav_acc_init(&a, out, tt->dtype, tt->nelems, want, 0, nnav_dtype_components(tt->dtype));
        pt_view_walk(tt, d, ti->offset, dims, sd, item, &a);
        if (stats && red > 4 * stored + 4096) {
            out->stats_refused = 1;
        } else if (stats) {
            nnav_values sv;
            memset(&sv, 0, sizeof sv);
            nnav_acc sa;
            nnav_acc_init(&sa, &sv, tt->dtype, tt->nelems, 0, 1, nnav_dtype_components(tt->dtype));
            pt_view_walk(tt, d, ti->offset, rdims, sd, item, &sa);
            nnav_acc_end(&sa);
            out->has_stats = sv.has_stats;
            out->min = sv.min, out->max = sv.max, out->mean = sv.mean;
            out->imin = sv.imin, out->imax = sv.imax;
            out->nan_count = sv.nan_count * rep;
        }
        if (nnav_map_truncated(&m->map))
            return perr(err, 0, "", "the model file shrank while its values were read");
        return 0;
    }
    if (nnav_map_truncated(&m->map))
        return perr(err, 0, "", "the model file shrank while its values were read");
    nnav_acc_end(&a);
    return 0;
}

static void pt_storage_format(const nnav_model *m, uint32_t t, char *buf, size_t n)
{
    const pt_rd *rd = m->rd;
    const pt_tinfo *ti = &rd->ti.v[t];
    const nnav_tensor *tt = &m->tensors.v[t];
    char nm[256] = "?";
    size_t o = 0;
    if (ti->entry != NNAV_NONE) {
        const pt_zip_entry *e = &rd->zip.e.v[ti->entry];
        nnav_text_escape(e->name.p, e->name.n > 200 ? 200 : e->name.n, nm, sizeof nm);
        if (rd->legacy) /* a made-up entry (legacy_read): its key after "legacy/data/" */
            o = (size_t)snprintf(buf, n, "legacy storage %s @byte %llu", nm + 12,
                                 (unsigned long long)e->data_off);
        else
            o = (size_t)snprintf(buf, n, "%s zip entry %s", e->method ? "compressed" : "raw", nm);
    } else {
        o = (size_t)snprintf(buf, n, "no zip entry for its storage");
    }
    if (o < n && ti->offset)
        o += (size_t)snprintf(buf + o, n - o, " @element %lld", (long long)ti->offset);
    if (o < n && !ti->contiguous) {
        o += (size_t)snprintf(buf + o, n - o, ", a non-contiguous view, strides [");
        for (uint32_t k = 0; k < tt->ndims && o < n; k++)
            o += (size_t)snprintf(buf + o, n - o, k ? ",%lld" : "%lld",
                                  (long long)rd->strides.v[ti->stride_first + k]);
        if (o < n)
            o += (size_t)snprintf(buf + o, n - o, "]");
    }
    if (o < n && ti->alias != NNAV_NONE) {
        char an[256];
        nnav_span a = m->tensors.v[ti->alias].name;
        nnav_text_escape(a.p, a.n > 200 ? 200 : a.n, an, sizeof an);
        o += (size_t)snprintf(buf + o, n - o, ", the same tensor as %s", an);
    }
    if (o < n && ti->shared > 1)
        snprintf(buf + o, n - o, ", its storage shared with %u other tensor%s",
                 ti->shared - 1, ti->shared > 2 ? "s" : "");
}

static int pt_scan_open(const char *path, nnav_load_scan **out, nnav_error *err);

const nnav_reader nnav_reader_pt = {
    .name = "PyTorch",
    .exts = "pt pth bin ckpt",
    .formats = 1u << NNAV_FMT_PYTORCH,
    .reads = ".pt, .pth, .bin checkpoints",
    .format_names = {[NNAV_FMT_PYTORCH] = "PyTorch checkpoint"},
    .index = pt_index,
    .free = pt_free,
    .tensor_values = pt_values,
    .storage_format = pt_storage_format,
    .module_class = pt_module_class,
    .module_at = pt_module_at,
    .tensor_alias = pt_tensor_alias,
    .detail_count = pt_detail_count,
    .detail_get = pt_detail_get,
    .load_scan = pt_load_scan,
    .scan_open = pt_scan_open,
};

/* ---- scanning a file without opening it as a model ---- */

typedef struct scan_owned {
    nnav_load_scan pub; /* first: the public pointer is this one */
    nnav_map map;
    pt_zip zip;
    pk_state pk;
    pt_pickles pks;
} scan_owned;

static void pt_scan_release(nnav_load_scan *pub);

static int pt_scan_open(const char *path, nnav_load_scan **out, nnav_error *err)
{
    memset(err, 0, sizeof *err);
    *out = NULL;
    scan_owned *s = calloc(1, sizeof *s);
    if (!s)
        return perr(err, 0, "", "out of memory");
    s->map.slot = -1;
    if (nnav_map_open(path, &s->map, err) < 0) {
        free(s);
        return -1;
    }
    const uint8_t *p = s->map.base;
    uint64_t n = s->map.size;
    if (n == 0 || !p) {
        perr(err, 0, "", "the file is empty: nothing to scan");
        err->has_offset = 0;
        goto fail;
    }
    /* The same reading of the same pickles as opening the checkpoint. */
    if (pt_pickles_read(p, n, &s->zip, &s->pk, &s->pks, err) < 0)
        goto fail;
    const pt_pickles *ps = &s->pks;
    if (ps->kind == PT_FILE_ZIP && !ps->scan.units && !ps->scan.failed) {
        perr(err, 0, "zip", "a zip holding no .pkl entry: no pickle to scan");
        err->has_offset = 0;
        goto fail;
    }
    if (ps->kind == PT_FILE_STREAM && ps->scan.failed && ps->scan.units == 1 &&
        !s->pk.globals.n && ps->scan.err.offset == 0) {
        perr(err, 0, "", "neither a zip holding pickles nor a pickle: nothing to scan");
        err->has_offset = 0;
        goto fail;
    }
    s->pub = ps->scan;
    s->pub.release = pt_scan_release;
    *out = &s->pub;
    return 0;
fail:
    pt_scan_release(&s->pub);
    return -1;
}

static void pt_scan_release(nnav_load_scan *pub)
{
    scan_owned *s = (scan_owned *)pub;
    if (!s)
        return;
    pt_pickles_free(&s->pks);
    pt_zip_free(&s->zip);
    pk_free(&s->pk);
    nnav_map_close(&s->map);
    free(s);
}
