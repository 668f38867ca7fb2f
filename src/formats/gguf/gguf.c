/* gguf.c - the GGUF reader (llama.cpp's and ggml's model files, versions 1
 * to 3): the header, the metadata key-value pairs, the tensor infos, then
 * the tensor data, aligned (general.alignment, default 32).
 *
 * Opening reads the header and every metadata value and tensor info once,
 * each length and count checked against the bytes left before it is used
 * (nothing is allocated by a count from the file before that), and no
 * tensor byte. The tensors become the initializers of one main graph with
 * no nodes, named as the file names them; their dims are shown outermost
 * first (row-major, as the other formats' are: the file lists ne[0], the
 * innermost, first). The metadata are the model's details (nnav_detail),
 * each value read from the map when asked; an array's items one at a time.
 *
 * Byte order: a file whose version field reads byte-swapped (1 to 3 in its
 * high bytes) is a big-endian file (gguf-py writes them so): every number of
 * its header, metadata and tensor infos is read big-endian, and its plain
 * tensors' values too; its quantised blocks are not decoded (no writer
 * says which of their fields it swapped). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "gguf.h"
#include "readers.h"
#include "values_acc.h"

/* GGUF metadata value types. */
enum {
    V_U8, V_I8, V_U16, V_I16, V_U32, V_I32, V_F32, V_BOOL, V_STR, V_ARR, V_U64, V_I64, V_F64,
    V_COUNT
};
static const char *const vnames[V_COUNT] = {"uint8", "int8", "uint16", "int16", "uint32",
                                            "int32", "float32", "bool", "string", "array",
                                            "uint64", "int64", "float64"};
static const uint8_t vsize[V_COUNT] = {1, 1, 2, 2, 4, 4, 4, 1, 0, 0, 8, 8, 8};

enum { MAX_NEST = 8, MAX_DIMS = 4, DEFAULT_ALIGN = 32 };

typedef struct gg_kv {
    nnav_span key;
    uint32_t type;   /* V_* */
    uint32_t elem;   /* V_ARR: its items' type */
    uint64_t count;  /* V_ARR: its items */
    uint64_t off;    /* the value (V_ARR: its first item) */
    uint64_t at;     /* the pair (its key's length) */
} gg_kv;

typedef struct gg_ti {
    uint32_t type;   /* ggml type number */
    uint64_t off;    /* offset in the data section */
    uint64_t at;     /* where its info starts */
} gg_ti;

/* What the "gguf" section says, in the reader's words. */
enum { OWN_VERSION, OWN_ORDER, OWN_TENSORS, OWN_KV, OWN_ALIGN, OWN_DATA, OWN_ARCH, OWN_FTYPE,
       OWN_VOCAB, OWN_BPW, OWN_COUNT };

typedef struct gg_rd {
    uint32_t version;
    int be;
    uint64_t alignment, data_start, n_tensors, n_kv;
    NNAV_VEC(gg_kv) kv;
    NNAV_VEC(gg_ti) ti;
    NNAV_VEC(char *) names;     /* the types' words of tensors of unknown types */
    uint32_t ftype_kv;          /* general.file_type's pair, NNAV_NONE */
    uint64_t total_elems, total_bytes;
    char own[OWN_COUNT][96];
    uint64_t own_u[OWN_COUNT]; /* an OWN_* that is a number: its value */
    uint8_t own_num[OWN_COUNT]; /* 1: own_u; 2: bpw */
    double bpw;
    uint8_t shown[OWN_COUNT]; /* the OWN_* the file has something to say for, in order */
    uint32_t nshown;
    /* The last array item read (detail, item, its offset): the next is
     * found from it, so reading all items in order costs their bytes once. */
    uint32_t c_kv;
    uint64_t c_k, c_off;
} gg_rd;

static int perr(nnav_error *err, uint64_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int perr(nnav_error *err, uint64_t off, const char *fmt, ...)
{
    char m[480];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    nnav_err_set(err, off, 1, "%s", m);
    err->kind = NNAV_ERR_INPUT;
    return -1;
}

/* ---- the cursor: bounds-checked numbers in the file's byte order ---- */

typedef struct cur {
    const uint8_t *p;
    uint64_t n, pos;
    int be, v1;
    nnav_error *err;
    char path[128]; /* the field being read: "kv[3].value" */
} cur;

static int cfail(cur *c, uint64_t at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int cfail(cur *c, uint64_t at, const char *fmt, ...)
{
    char m[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m, sizeof m, fmt, ap);
    va_end(ap);
    perr(c->err, at, "%s", m);
    snprintf(c->err->path, sizeof c->err->path, "%s", c->path);
    return -1;
}

static uint64_t num(const uint8_t *p, unsigned k, int be)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < k; i++)
        v |= (uint64_t)p[be ? k - 1 - i : i] << (8 * i);
    return v;
}

static int get(cur *c, unsigned k, uint64_t *v)
{
    if (c->n - c->pos < k)
        return cfail(c, c->pos, "the file ends inside it (%u bytes wanted, %llu left)", k,
                     (unsigned long long)(c->n - c->pos));
    *v = num(c->p + c->pos, k, c->be);
    c->pos += k;
    return 0;
}

/* A count or length: 32 bits in version 1, 64 after. */
static int get_len(cur *c, uint64_t *v)
{
    return get(c, c->v1 ? 4 : 8, v);
}

static int get_str(cur *c, nnav_span *s)
{
    uint64_t at = c->pos, len;
    if (get_len(c, &len) < 0)
        return -1;
    if (len > c->n - c->pos)
        return cfail(c, at, "a string of %llu bytes, past the end of the file (%llu left)",
                     (unsigned long long)len, (unsigned long long)(c->n - c->pos));
    *s = (nnav_span){c->p + c->pos, len};
    c->pos += len;
    return 0;
}

/* The least bytes a value of type t takes (an array: its type and count). */
static uint64_t least(const cur *c, uint32_t t)
{
    return t == V_STR ? (c->v1 ? 4 : 8) : t == V_ARR ? 4 + (c->v1 ? 4 : 8) : vsize[t];
}

/* An array's header: its items' type and count, the count checked against
 * the bytes left for items of that type. */
static int arr_head(cur *c, int depth, uint32_t *elem, uint64_t *count)
{
    uint64_t at = c->pos, t;
    if (depth >= MAX_NEST)
        return cfail(c, at, "arrays nested more than %d deep", MAX_NEST);
    if (get(c, 4, &t) < 0)
        return -1;
    if (t >= V_COUNT)
        return cfail(c, at, "an array of value type %llu, which GGUF does not define (0 to 12)",
                     (unsigned long long)t);
    if (get_len(c, count) < 0)
        return -1;
    uint64_t each = least(c, (uint32_t)t);
    if (*count > (c->n - c->pos) / each)
        return cfail(c, at + 4, "an array of %llu %s items, which cannot fit in the %llu bytes "
                                "left", (unsigned long long)*count, vnames[t],
                     (unsigned long long)(c->n - c->pos));
    *elem = (uint32_t)t;
    return 0;
}

/* Past one value of type t, checking it whole. */
static int skip(cur *c, uint32_t t, int depth)
{
    if (t == V_STR) {
        nnav_span s;
        return get_str(c, &s);
    }
    if (t != V_ARR) {
        if (c->n - c->pos < vsize[t])
            return cfail(c, c->pos, "the file ends inside a %s", vnames[t]);
        c->pos += vsize[t];
        return 0;
    }
    uint32_t elem;
    uint64_t count;
    if (arr_head(c, depth, &elem, &count) < 0)
        return -1;
    if (elem != V_STR && elem != V_ARR) {
        c->pos += count * vsize[elem]; /* arr_head checked it fits */
        return 0;
    }
    for (uint64_t k = 0; k < count; k++)
        if (skip(c, elem, depth + 1) < 0)
            return -1;
    return 0;
}

/* ---- sniffing ---- */

static int gguf_sniff(const uint8_t *p, uint64_t n, const char *path, char *reason, size_t rn)
{
    (void)path;
    if (n < 4 || memcmp(p, "GGUF", 4))
        return 0;
    snprintf(reason, rn, "read as GGUF: the file starts with the magic \"GGUF\"");
    return 1;
}

/* ---- the index ---- */

/* A name or an offset with its owner, for finding a repeat or an overlap. */
typedef struct keyed {
    nnav_span s;
    uint64_t off;
    uint32_t i;
} keyed;

static int span_cmp(nnav_span x, nnav_span y)
{
    int c = memcmp(x.p, y.p, (size_t)(x.n < y.n ? x.n : y.n));
    return c ? c : (x.n > y.n) - (x.n < y.n);
}

static int by_span(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    int c = span_cmp(x->s, y->s);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

static int by_off(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    return x->off != y->off ? (x->off > y->off) - (x->off < y->off) : (x->i > y->i) - (x->i < y->i);
}

static uint32_t find_key(const gg_rd *rd, const char *k)
{
    for (uint32_t i = 0; i < rd->kv.n; i++)
        if (nnav_span_eqs(rd->kv.v[i].key, k))
            return i;
    return NNAV_NONE;
}

/* The metadata: n_kv pairs, each a key, a value type and a value. */
static int read_kv(nnav_model *m, gg_rd *rd, cur *c)
{
    for (uint64_t i = 0; i < rd->n_kv; i++) {
        gg_kv kv = {.at = c->pos};
        uint64_t t;
        snprintf(c->path, sizeof c->path, "kv[%llu].key", (unsigned long long)i);
        if (get_str(c, &kv.key) < 0)
            return -1;
        snprintf(c->path, sizeof c->path, "kv[%llu].type", (unsigned long long)i);
        uint64_t tat = c->pos;
        if (get(c, 4, &t) < 0)
            return -1;
        if (t >= V_COUNT)
            return cfail(c, tat, "value type %llu, which GGUF does not define (0 to 12)",
                         (unsigned long long)t);
        kv.type = (uint32_t)t;
        snprintf(c->path, sizeof c->path, "kv[%llu].value", (unsigned long long)i);
        kv.off = c->pos;
        if (t == V_ARR) {
            if (arr_head(c, 0, &kv.elem, &kv.count) < 0)
                return -1;
            kv.off = c->pos;
            c->pos = kv.off - 4 - (c->v1 ? 4 : 8); /* back to the array's header */
        }
        if (skip(c, kv.type, 0) < 0)
            return -1;
        gg_kv *slot = nnav_vec_push(rd->kv);
        if (!slot)
            return perr(c->err, 0, "out of memory");
        *slot = kv;
    }
    /* No key twice (ggml refuses such a file). */
    keyed *ord = malloc(((size_t)rd->kv.n + 1) * sizeof *ord);
    if (!ord)
        return perr(c->err, 0, "out of memory");
    for (uint32_t i = 0; i < rd->kv.n; i++)
        ord[i] = (keyed){rd->kv.v[i].key, 0, i};
    qsort(ord, rd->kv.n, sizeof *ord, by_span);
    for (uint32_t i = 1; i < rd->kv.n; i++)
        if (span_cmp(ord[i - 1].s, ord[i].s) == 0) {
            uint32_t a = ord[i - 1].i, b = ord[i].i;
            char k[200];
            nnav_text_escape(rd->kv.v[b].key.p, rd->kv.v[b].key.n > 120 ? 120 : rd->kv.v[b].key.n,
                             k, sizeof k);
            free(ord);
            snprintf(c->path, sizeof c->path, "kv[%u].key", b);
            return cfail(c, rd->kv.v[b].at, "the key '%s' again (kv[%u] has it)", k, a);
        }
    free(ord);
    (void)m;
    return 0;
}

static int read_alignment(gg_rd *rd, cur *c)
{
    rd->alignment = DEFAULT_ALIGN;
    uint32_t a = find_key(rd, "general.alignment");
    if (a == NNAV_NONE)
        return 0;
    const gg_kv *kv = &rd->kv.v[a];
    snprintf(c->path, sizeof c->path, "kv[%u].value", a);
    if (kv->type != V_U32)
        return cfail(c, kv->off, "general.alignment is a %s, not a uint32", vnames[kv->type]);
    uint64_t v = num(c->p + kv->off, 4, c->be);
    if (v == 0 || (v & (v - 1)))
        return cfail(c, kv->off, "general.alignment %llu is not a power of two",
                     (unsigned long long)v);
    rd->alignment = v;
    return 0;
}

/* The tensor infos, then the data section's start; each tensor's extent
 * checked against the data and the others. */
static int read_tensors(nnav_model *m, gg_rd *rd, cur *c)
{
    for (uint64_t i = 0; i < rd->n_tensors; i++) {
        gg_ti ti = {.at = c->pos};
        nnav_tensor t;
        memset(&t, 0, sizeof t);
        uint64_t nd, v;
        snprintf(c->path, sizeof c->path, "tensor_infos[%llu].name", (unsigned long long)i);
        if (get_str(c, &t.name) < 0)
            return -1;
        snprintf(c->path, sizeof c->path, "tensor_infos[%llu].n_dims", (unsigned long long)i);
        uint64_t at = c->pos;
        if (get(c, 4, &nd) < 0)
            return -1;
        if (nd > MAX_DIMS)
            return cfail(c, at, "%llu dims, more than ggml's %d", (unsigned long long)nd,
                         MAX_DIMS);
        uint64_t dims[MAX_DIMS], ne = 1;
        int over = 0;
        for (uint64_t k = 0; k < nd; k++) {
            snprintf(c->path, sizeof c->path, "tensor_infos[%llu].dims[%llu]",
                     (unsigned long long)i, (unsigned long long)k);
            at = c->pos;
            if (get(c, c->v1 ? 4 : 8, &dims[k]) < 0)
                return -1;
            if (dims[k] > (uint64_t)INT64_MAX)
                return cfail(c, at, "dim %llu, past int64", (unsigned long long)dims[k]);
            over |= __builtin_mul_overflow(ne, dims[k], &ne) || ne > (uint64_t)INT64_MAX;
            if (over)
                return cfail(c, at, "the dims' product overflows 63 bits");
        }
        snprintf(c->path, sizeof c->path, "tensor_infos[%llu].type", (unsigned long long)i);
        at = c->pos;
        if (get(c, 4, &v) < 0)
            return -1;
        ti.type = (uint32_t)v;
        const gg_type *gt = gg_type_get(ti.type);
        /* ggml's missing dims are 1: a scalar's first dim too */
        uint64_t d0 = nd ? dims[0] : 1;
        if (gt && d0 % gt->block)
            return cfail(c, at, "a %s tensor whose first dim %llu is not a multiple of its "
                                "block of %u", gt->name, (unsigned long long)d0, gt->block);
        snprintf(c->path, sizeof c->path, "tensor_infos[%llu].offset", (unsigned long long)i);
        at = c->pos;
        if (get(c, 8, &ti.off) < 0)
            return -1;
        if (ti.off % rd->alignment)
            return cfail(c, at, "offset %llu is not a multiple of the alignment %llu",
                         (unsigned long long)ti.off, (unsigned long long)rd->alignment);
        /* The index's record: dims outermost first. */
        t.owner = NNAV_TOWN_INITIALIZER;
        t.owner_id = NNAV_NONE;
        t.ext_offset = t.ext_length = -1;
        t.storage = NNAV_STORE_RAW;
        t.msg = (nnav_span){c->p + ti.at, c->pos - ti.at};
        t.dims_first = m->dims.n;
        t.ndims = (uint32_t)nd;
        for (uint64_t k = nd; k-- > 0;) {
            int64_t *d = nnav_vec_push(m->dims);
            if (!d)
                return perr(c->err, 0, "out of memory");
            *d = (int64_t)dims[k];
        }
        t.nelems = ne;
        t.nbytes = UINT64_MAX;
        if (gt) {
            t.dtype = gt->dtype;
            t.nbytes = ne / gt->block * gt->bytes; /* ne < 2^63, bytes <= 292 x block: fits? */
            if (ne / gt->block > UINT64_MAX / gt->bytes)
                return cfail(c, at, "its bytes pass 64 bits");
            if (gt->dtype == NNAV_DT_QBLOCKS)
                t.stype = gt->name;
        } else {
            char *w = malloc(24);
            char **slot = w ? nnav_vec_push(rd->names) : NULL;
            if (!slot) {
                free(w);
                return perr(c->err, 0, "out of memory");
            }
            snprintf(w, 24, "type %u", ti.type);
            *slot = w;
            t.dtype = NNAV_DT_QBLOCKS;
            t.stype = w;
            t.warn |= NNAV_TW_BAD_DTYPE;
        }
        nnav_tensor *tp = nnav_vec_push(m->tensors);
        gg_ti *tip = tp ? nnav_vec_push(rd->ti) : NULL;
        if (!tip)
            return perr(c->err, 0, "out of memory");
        *tp = t;
        *tip = ti;
    }
    /* The data: aligned after the infos. */
    uint64_t end = c->pos, pad = (rd->alignment - end % rd->alignment) % rd->alignment;
    rd->data_start = end + pad;
    snprintf(c->path, sizeof c->path, "tensor_data");
    if (rd->data_start > c->n) {
        if (rd->n_tensors)
            return cfail(c, end, "the data section would start at %llu, past the end of the "
                                 "file (%llu bytes)", (unsigned long long)rd->data_start,
                         (unsigned long long)c->n);
        rd->data_start = c->n;
    }
    uint64_t data_n = c->n - rd->data_start;
    for (uint32_t i = 0; i < m->tensors.n; i++) {
        nnav_tensor *t = &m->tensors.v[i];
        const gg_ti *ti = &rd->ti.v[i];
        snprintf(c->path, sizeof c->path, "tensor_infos[%u].offset", i);
        uint64_t need = t->nbytes == UINT64_MAX ? 0 : t->nbytes;
        if (ti->off > data_n || need > data_n - ti->off)
            return cfail(c, (uint64_t)(t->msg.p + t->msg.n - 8 - c->p),
                         "%llu bytes at %llu of the data section, which holds %llu (the file "
                         "ends at %llu)", (unsigned long long)need, (unsigned long long)ti->off,
                         (unsigned long long)data_n, (unsigned long long)c->n);
        t->data = (nnav_span){c->p + rd->data_start + ti->off,
                              t->nbytes == UINT64_MAX ? 0 : t->nbytes};
        t->stored = t->data.n;
        if (t->nbytes != UINT64_MAX) {
            rd->total_elems += t->nelems;
            rd->total_bytes += t->nbytes;
        }
    }
    /* No two tensors share bytes, nor two a name. */
    keyed *ord = malloc(((size_t)m->tensors.n + 1) * sizeof *ord);
    if (!ord)
        return perr(c->err, 0, "out of memory");
    for (uint32_t i = 0; i < m->tensors.n; i++)
        ord[i] = (keyed){m->tensors.v[i].name, rd->ti.v[i].off, i};
    qsort(ord, m->tensors.n, sizeof *ord, by_off);
    for (uint32_t k = 1; k < m->tensors.n; k++) {
        uint32_t a = ord[k - 1].i, b = ord[k].i;
        uint64_t aend = ord[k - 1].off + m->tensors.v[a].data.n;
        if (aend > ord[k].off && m->tensors.v[b].data.n) {
            const nnav_tensor *tb = &m->tensors.v[b];
            uint64_t boff = ord[k].off;
            free(ord);
            snprintf(c->path, sizeof c->path, "tensor_infos[%u].offset", b);
            return cfail(c, (uint64_t)(tb->msg.p + tb->msg.n - 8 - c->p),
                         "its bytes from %llu overlap tensor_infos[%u]'s, which end at %llu",
                         (unsigned long long)boff, a, (unsigned long long)aend);
        }
    }
    qsort(ord, m->tensors.n, sizeof *ord, by_span);
    for (uint32_t k = 1; k < m->tensors.n; k++)
        if (span_cmp(ord[k - 1].s, ord[k].s) == 0) {
            uint32_t a = ord[k - 1].i, b = ord[k].i;
            char nm[200];
            nnav_span s = m->tensors.v[b].name;
            nnav_text_escape(s.p, s.n > 120 ? 120 : s.n, nm, sizeof nm);
            free(ord);
            snprintf(c->path, sizeof c->path, "tensor_infos[%u].name", b);
            return cfail(c, rd->ti.v[b].at, "the name '%s' again (tensor_infos[%u] has it)", nm,
                         a);
        }
    free(ord);
    return 0;
}

static void own_words(nnav_model *m, gg_rd *rd)
{
    uint64_t nums[][2] = {{OWN_VERSION, rd->version}, {OWN_TENSORS, rd->n_tensors},
                          {OWN_KV, rd->n_kv}, {OWN_ALIGN, rd->alignment},
                          {OWN_DATA, rd->data_start}};
    for (size_t i = 0; i < sizeof nums / sizeof *nums; i++) {
        rd->own_num[nums[i][0]] = 1;
        rd->own_u[nums[i][0]] = nums[i][1];
        snprintf(rd->own[nums[i][0]], 96, "-");
    }
    snprintf(rd->own[OWN_ORDER], 96, "%s", rd->be ? "big-endian" : "little-endian");
    rd->own[OWN_FTYPE][0] = 0;
    uint32_t f = rd->ftype_kv = find_key(rd, "general.file_type");
    if (f != NNAV_NONE && rd->kv.v[f].type == V_U32) {
        uint32_t v = (uint32_t)num(m->map.base + rd->kv.v[f].off, 4, rd->be);
        const char *nm = gg_file_type_name(v);
        if (nm)
            snprintf(rd->own[OWN_FTYPE], 96, "%s (%u)", nm, v);
        else
            snprintf(rd->own[OWN_FTYPE], 96, "%u (a number nnav does not know)", v);
    }
    rd->own[OWN_VOCAB][0] = 0;
    uint32_t tk = find_key(rd, "tokenizer.ggml.tokens");
    if (tk != NNAV_NONE && rd->kv.v[tk].type == V_ARR) {
        rd->own_num[OWN_VOCAB] = 1;
        rd->own_u[OWN_VOCAB] = rd->kv.v[tk].count;
        snprintf(rd->own[OWN_VOCAB], 96, "-");
    }
    uint32_t a = find_key(rd, "general.architecture");
    snprintf(rd->own[OWN_ARCH], 96, "%s", a != NNAV_NONE && rd->kv.v[a].type == V_STR ? "-" : "");
    if (rd->total_elems) {
        rd->own_num[OWN_BPW] = 2;
        rd->bpw = (double)rd->total_bytes * 8 / (double)rd->total_elems;
        snprintf(rd->own[OWN_BPW], 96, "-");
    }
    for (uint32_t i = 0; i < OWN_COUNT; i++)
        if (rd->own[i][0])
            rd->shown[rd->nshown++] = (uint8_t)i;
}

static int gguf_index(nnav_model *m, const nnav_open_opts *o, nnav_error *err)
{
    (void)o;
    gg_rd *rd = calloc(1, sizeof *rd);
    if (!rd)
        return perr(err, 0, "out of memory");
    m->rd = rd;
    rd->c_kv = NNAV_NONE;
    cur c = {.p = m->map.base, .n = m->map.size, .pos = 4, .err = err};
    uint64_t v;
    /* A file named .gguf comes here unsniffed (reader.h's suffix): its
     * magic says whether it is one at all. */
    snprintf(c.path, sizeof c.path, "header.magic");
    if (c.n < 4 || memcmp(c.p, "GGUF", 4)) {
        char got[40];
        nnav_text_escape(c.p, c.n < 4 ? (size_t)c.n : 4, got, sizeof got);
        return cfail(&c, 0, "the file starts with \"%s\", not GGUF's magic \"GGUF\"", got);
    }
    snprintf(c.path, sizeof c.path, "header.version");
    if (get(&c, 4, &v) < 0)
        return -1;
    if (v < 1 || v > 3) {
        uint64_t s = num(c.p + 4, 4, 1);
        if (s >= 1 && s <= 3) {
            c.be = rd->be = 1;
            v = s;
        } else {
            return cfail(&c, 4, "version %llu (nnav reads GGUF versions 1 to 3)",
                         (unsigned long long)v);
        }
    }
    rd->version = (uint32_t)v;
    c.v1 = v == 1;
    snprintf(c.path, sizeof c.path, "header.n_tensors");
    uint64_t at = c.pos;
    if (get_len(&c, &rd->n_tensors) < 0)
        return -1;
    /* Each info takes at least a name's length, n_dims, a type and an offset. */
    uint64_t least_ti = (c.v1 ? 4 : 8) + 4 + 4 + 8;
    if (rd->n_tensors > (c.n - c.pos) / least_ti)
        return cfail(&c, at, "%llu tensors, whose infos cannot fit in the %llu bytes left",
                     (unsigned long long)rd->n_tensors, (unsigned long long)(c.n - c.pos));
    snprintf(c.path, sizeof c.path, "header.n_kv");
    at = c.pos;
    if (get_len(&c, &rd->n_kv) < 0)
        return -1;
    uint64_t least_kv = (c.v1 ? 4 : 8) + 4 + 1;
    if (rd->n_kv > (c.n - c.pos) / least_kv)
        return cfail(&c, at, "%llu key-value pairs, which cannot fit in the %llu bytes left",
                     (unsigned long long)rd->n_kv, (unsigned long long)(c.n - c.pos));
    if (rd->n_tensors >= NNAV_NONE / 2 || rd->n_kv >= NNAV_NONE / 2)
        return cfail(&c, at, "more than 2^31 tensors or pairs");
    if (read_kv(m, rd, &c) < 0 || read_alignment(rd, &c) < 0)
        return -1;
    /* One main graph; its initializers are the tensors. */
    nnav_graph *g = nnav_vec_push(m->graphs);
    nnav_span *gs = g ? nnav_vec_push(m->gspan) : NULL;
    if (!gs)
        return perr(err, 0, "out of memory");
    memset(g, 0, sizeof *g);
    g->kind = NNAV_GRAPH_MAIN;
    g->parent = g->owner_node = g->owner_attr = g->list_index = NNAV_NONE;
    g->function = g->training = NNAV_NONE;
    g->offset = c.pos;
    *gs = (nnav_span){m->map.base, m->map.size};
    if (read_tensors(m, rd, &c) < 0)
        return -1;
    g = &m->graphs.v[0];
    g->init_first = 0;
    g->init_count = m->tensors.n;
    m->facts.tensor_store = 1; /* named tensors, no graph: scopes from their names */
    own_words(m, rd);
    uint32_t nm = find_key(rd, "general.name");
    if (nm != NNAV_NONE && rd->kv.v[nm].type == V_STR)
        m->facts.graph_name = (nnav_span){m->map.base + rd->kv.v[nm].off + (c.v1 ? 4 : 8),
                                          num(m->map.base + rd->kv.v[nm].off, c.v1 ? 4 : 8,
                                              rd->be)};
    return 0;
}

static void gguf_free(nnav_model *m)
{
    gg_rd *rd = m->rd;
    if (!rd)
        return;
    for (uint32_t i = 0; i < rd->names.n; i++)
        free(rd->names.v[i]);
    nnav_vec_free(rd->names);
    nnav_vec_free(rd->kv);
    nnav_vec_free(rd->ti);
    free(rd);
    m->rd = NULL;
}

/* ---- details: the "gguf" section in nnav's words, then the metadata ---- */

static const char *const own_keys[OWN_COUNT] = {
    "version", "byte order", "tensors", "metadata pairs", "alignment", "data offset",
    "architecture", "file type", "vocabulary size", "bits per weight"};

static uint32_t gguf_detail_count(const nnav_model *m)
{
    const gg_rd *rd = m->rd;
    return rd->nshown + rd->kv.n;
}

/* A scalar of value type t at off into *out. */
static void scalar_at(const nnav_model *m, uint32_t t, uint64_t off, nnav_detail *out)
{
    const gg_rd *rd = m->rd;
    const uint8_t *p = m->map.base + off;
    int v1 = rd->version == 1;
    out->offset = off;
    switch (t) {
    case V_U8: case V_U16: case V_U32: case V_U64:
        out->kind = NNAV_DV_UINT;
        out->u = num(p, vsize[t], rd->be);
        break;
    case V_I8: case V_I16: case V_I32: case V_I64: {
        unsigned k = vsize[t];
        uint64_t u = num(p, k, rd->be);
        if (k < 8 && (u >> (8 * k - 1) & 1))
            u |= ~0ull << (8 * k);
        out->kind = NNAV_DV_INT;
        out->i = (int64_t)u;
        break;
    }
    case V_F32: {
        uint32_t b = (uint32_t)num(p, 4, rd->be);
        float f;
        memcpy(&f, &b, 4);
        out->kind = NNAV_DV_FLOAT;
        out->f = f;
        break;
    }
    case V_F64: {
        uint64_t b = num(p, 8, rd->be);
        memcpy(&out->f, &b, 8);
        out->kind = NNAV_DV_FLOAT;
        break;
    }
    case V_BOOL:
        out->kind = NNAV_DV_BOOL;
        out->i = p[0] != 0;
        break;
    case V_STR:
        out->kind = NNAV_DV_TEXT;
        out->s = (nnav_span){p + (v1 ? 4 : 8), num(p, v1 ? 4 : 8, rd->be)};
        break;
    }
}

static int gguf_detail_get(const nnav_model *m, uint32_t i, nnav_detail *out)
{
    const gg_rd *rd = m->rd;
    if (i < rd->nshown) {
        i = rd->shown[i];
        out->section = "gguf";
        out->title = "GGUF";
        out->key = (nnav_span){(const uint8_t *)own_keys[i], strlen(own_keys[i])};
        out->own = 1;
        out->kind = NNAV_DV_TEXT;
        if (rd->own_num[i] == 1) {
            out->kind = NNAV_DV_UINT;
            out->u = rd->own_u[i];
            return 0;
        }
        if (rd->own_num[i] == 2) {
            out->kind = NNAV_DV_FLOAT;
            out->f = rd->bpw;
            return 0;
        }
        if (i == OWN_ARCH) {
            uint32_t a = find_key(rd, "general.architecture");
            scalar_at(m, V_STR, rd->kv.v[a].off, out); /* own_words: it is a string */
            out->own = 0;
            return 0;
        }
        out->s = (nnav_span){(const uint8_t *)rd->own[i], strlen(rd->own[i])};
        return 0;
    }
    const gg_kv *kv = &rd->kv.v[i - rd->nshown];
    out->section = "metadata";
    out->title = "metadata (GGUF key-value pairs)";
    out->key = kv->key;
    if (kv->type == V_ARR) {
        out->kind = NNAV_DV_ARRAY;
        out->count = kv->count;
        out->elem = vnames[kv->elem];
        out->offset = kv->off;
        return 0;
    }
    scalar_at(m, kv->type, kv->off, out);
    return 0;
}

static int gguf_detail_item(const nnav_model *m, uint32_t i, uint64_t k, nnav_detail *out,
                            nnav_error *err)
{
    gg_rd *rd = m->rd; /* the cursor cache only */
    const gg_kv *kv = &rd->kv.v[i - rd->nshown];
    cur c = {.p = m->map.base, .n = m->map.size, .be = rd->be, .v1 = rd->version == 1,
             .err = err};
    snprintf(c.path, sizeof c.path, "kv[%u].value[%llu]", i - rd->nshown, (unsigned long long)k);
    uint64_t off;
    if (kv->elem != V_STR && kv->elem != V_ARR) {
        off = kv->off + k * vsize[kv->elem]; /* checked at open */
    } else {
        uint64_t from = 0;
        c.pos = kv->off;
        if (rd->c_kv == i && rd->c_k <= k)
            from = rd->c_k, c.pos = rd->c_off;
        for (uint64_t j = from; j < k; j++)
            if (skip(&c, kv->elem, 1) < 0)
                return -1;
        off = c.pos;
        rd->c_kv = i, rd->c_k = k, rd->c_off = off;
    }
    if (kv->elem == V_ARR) {
        c.pos = off;
        uint32_t elem;
        uint64_t count;
        if (arr_head(&c, 1, &elem, &count) < 0)
            return -1;
        out->kind = NNAV_DV_ARRAY;
        out->count = count;
        out->elem = vnames[elem];
        out->offset = off;
        return 0;
    }
    scalar_at(m, kv->elem, off, out);
    return 0;
}

/* ---- values ---- */

static int gguf_values(const nnav_model *m, uint32_t t, size_t want, int stats, nnav_values *out,
                       nnav_error *err)
{
    const gg_rd *rd = m->rd;
    const nnav_tensor *tt = &m->tensors.v[t];
    const gg_ti *ti = &rd->ti.v[t];
    const gg_type *gt = gg_type_get(ti->type);
    nnav_acc a;
    memset(err, 0, sizeof *err);
    nnav_acc_init(&a, out, tt->dtype, tt->nelems, want, stats, 1);
    char path[64];
    snprintf(path, sizeof path, "tensor_infos[%u]", t);
    if (!gt) {
        perr(err, ti->at, "a tensor of ggml type %u, which nnav does not know", ti->type);
        snprintf(err->path, sizeof err->path, "%s.type", path);
        return -1;
    }
    if (gt->dtype != NNAV_DT_QBLOCKS && !rd->be) {
        nnav_acc_raw(tt, tt->data, &a);
    } else if (gt->dtype != NNAV_DT_QBLOCKS) {
        /* big-endian plain numbers */
        unsigned k = gt->bytes;
        for (uint64_t e = 0; e < tt->nelems && !nnav_acc_done(&a); e++) {
            uint8_t b[8];
            for (unsigned j = 0; j < k; j++)
                b[j] = tt->data.p[e * k + k - 1 - j];
            double d;
            nnav_dtype_decode_raw(tt->dtype, b, k, 0, &d);
            nnav_acc_put_num(&a, d);
        }
    } else if (!gt->dequant || rd->be) {
        perr(err, ti->at, "%s blocks are not decoded by nnav%s", gt->name,
             rd->be ? " in a big-endian file" : " (it decodes q4_0, q4_1, q5_0, q5_1, q8_0 "
                                                 "and q2_K to q8_K)");
        snprintf(err->path, sizeof err->path, "%s.type", path);
        return -1;
    } else {
        float y[256];
        uint64_t blocks = tt->nelems / gt->block;
        for (uint64_t b = 0; b < blocks && !nnav_acc_done(&a); b++) {
            gg_dequant(ti->type, tt->data.p + b * gt->bytes, y);
            for (uint32_t j = 0; j < gt->block; j++)
                nnav_acc_put(&a, y[j]);
        }
    }
    if (nnav_map_truncated(&m->map))
        return perr(err, 0, "the model file shrank while its values were read");
    nnav_acc_end(&a);
    return 0;
}

static void gguf_storage_format(const nnav_model *m, uint32_t t, char *buf, size_t n)
{
    const gg_rd *rd = m->rd;
    const gg_ti *ti = &rd->ti.v[t];
    const gg_type *gt = gg_type_get(ti->type);
    const nnav_tensor *tt = &m->tensors.v[t];
    if (!gt) {
        snprintf(buf, n, "ggml type %u (not known: its size is unknown) @byte %llu", ti->type,
                 (unsigned long long)(rd->data_start + ti->off));
        return;
    }
    double bpw = tt->nelems ? (double)tt->nbytes * 8 / (double)tt->nelems : 0;
    if (gt->block > 1)
        snprintf(buf, n, "%s, blocks of %u in %u bytes, %.4g bpw @byte %llu", gt->name,
                 gt->block, gt->bytes, bpw, (unsigned long long)(rd->data_start + ti->off));
    else
        snprintf(buf, n, "%s @byte %llu", gt->name,
                 (unsigned long long)(rd->data_start + ti->off));
}

const nnav_reader nnav_reader_gguf = {
    .name = "GGUF",
    .exts = "gguf",
    .formats = 0,
    .reads = ".gguf",
    .suffix = ".gguf",
    .sniff = gguf_sniff,
    .index = gguf_index,
    .free = gguf_free,
    .tensor_values = gguf_values,
    .storage_format = gguf_storage_format,
    .detail_count = gguf_detail_count,
    .detail_get = gguf_detail_get,
    .detail_item = gguf_detail_item,
};
