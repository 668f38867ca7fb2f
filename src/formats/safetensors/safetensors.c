/* safetensors.c - the safetensors reader (Hugging Face's weights format, as
 * huggingface/safetensors' safetensors/src/tensor.rs reads it): an 8-byte
 * little-endian header length N, N bytes of a JSON object, then the data.
 * The object maps each tensor's name to {"dtype", "shape", "data_offsets":
 * [begin, end]} (offsets into the data, which starts after the header), and
 * may hold "__metadata__", an object of strings.
 *
 * Opening reads the header only (json.h: spans into the map, a name decoded
 * only when it holds an escape) and checks every rule the format has, each
 * breach an error naming its byte offset and the rule: the header's length
 * (past the file, over 100 MB), its JSON (an object, members that are
 * tensors), each tensor's dtype, shape (integers >= 0) and offsets
 * (numbers >= 0, [begin, end] with begin <= end, end - begin what dtype x
 * shape take), the tensors together (sorted by offsets they start at 0, each
 * where the one before ends: no hole, no overlap; the last ends where the
 * file does), and no name twice. Each tensor becomes an initializer of one
 * main graph with no nodes, its data a span of the map: no payload byte is
 * read until its values are asked for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "json.h"
#include "readers.h"
#include "values_acc.h"

enum { ST_MAX_HEADER = 100000000 }; /* tensor.rs's MAX_HEADER_SIZE */

/* The format's dtypes (tensor.rs's Dtype) and nnav's for each; F6 has
 * none (its values are not decoded, its sizes are still checked). */
static const struct st_type {
    const char *name;
    int32_t dt;
    uint8_t bits;
} st_types[] = {
    {"BOOL", NNAV_DT_BOOL, 8},
    {"F4", NNAV_DT_FLOAT4E2M1, 4},
    {"F6_E2M3", NNAV_DT_UNDEFINED, 6},
    {"F6_E3M2", NNAV_DT_UNDEFINED, 6},
    {"U8", NNAV_DT_UINT8, 8},
    {"I8", NNAV_DT_INT8, 8},
    {"F8_E5M2", NNAV_DT_FLOAT8E5M2, 8},
    {"F8_E4M3", NNAV_DT_FLOAT8E4M3FN, 8},
    {"F8_E8M0", NNAV_DT_FLOAT8E8M0, 8},
    {"F8_E4M3FNUZ", NNAV_DT_FLOAT8E4M3FNUZ, 8},
    {"F8_E5M2FNUZ", NNAV_DT_FLOAT8E5M2FNUZ, 8},
    {"I16", NNAV_DT_INT16, 16},
    {"U16", NNAV_DT_UINT16, 16},
    {"F16", NNAV_DT_FLOAT16, 16},
    {"BF16", NNAV_DT_BFLOAT16, 16},
    {"I32", NNAV_DT_INT32, 32},
    {"U32", NNAV_DT_UINT32, 32},
    {"F32", NNAV_DT_FLOAT, 32},
    {"C64", NNAV_DT_COMPLEX64, 64},
    {"F64", NNAV_DT_DOUBLE, 64},
    {"I64", NNAV_DT_INT64, 64},
    {"U64", NNAV_DT_UINT64, 64},
};

typedef struct st_tinfo {
    uint64_t begin, end; /* data_offsets, into the data */
    uint64_t off;        /* its entry's value in the file */
    uint8_t type;        /* into st_types */
} st_tinfo;

typedef struct st_kv { nnav_span key, value; uint64_t off; } st_kv;

typedef struct st_rd {
    NNAV_VEC(st_tinfo) ti;
    NNAV_VEC(st_kv) meta;  /* __metadata__, in the file's order */
    NNAV_VEC(char *) owned; /* names and texts that held escapes, decoded */
    uint64_t header_len, data_start;
    char title[64]; /* the metadata section's heading */
    char dtypes[sizeof st_types / sizeof *st_types * 32]; /* "F32 65, F16 32" */
} st_rd;

static int st_err(nnav_error *err, uint64_t off, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
#include <stdarg.h>
static int st_err(nnav_error *err, uint64_t off, const char *path, const char *fmt, ...)
{
    va_list ap;
    memset(err, 0, sizeof *err);
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    snprintf(err->path, sizeof err->path, "%s", path ? path : "");
    err->offset = off;
    err->has_offset = 1;
    err->kind = NNAV_ERR_INPUT;
    return -1;
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int k = 7; k >= 0; k--)
        v = v << 8 | p[k];
    return v;
}

/* Sure enough to claim the file: a header length that fits the file or is
 * below 2^40 (its top three bytes zero, which no protobuf model's first
 * fields make), then '{' and the start of a key or the end of the object
 * (white space between). Whether the length is right is index()'s to say,
 * as an error naming the rule. */
static int st_sniff(const uint8_t *p, uint64_t n, const char *path, char *reason, size_t rn)
{
    (void)path;
    if (n < 10)
        return 0;
    uint64_t hl = le64(p);
    if (p[8] == '[' && hl >= 2 && hl <= n - 8) {
        /* a header that is JSON but no object: index() says so */
        uint64_t e = 8 + hl;
        while (e > 9 && p[e - 1] == ' ')
            e--;
        if (p[e - 1] != ']')
            return 0;
        snprintf(reason, rn, "read as safetensors: an 8-byte header length (%llu), then JSON",
                 (unsigned long long)hl);
        return 1;
    }
    if (p[8] != '{')
        return 0;
    uint64_t i = 9;
    while (i < n && i < 64 && (p[i] == ' ' || p[i] == '\n' || p[i] == '\r' || p[i] == '\t'))
        i++;
    if (i >= n || (p[i] != '"' && p[i] != '}'))
        return 0;
    if (hl < 2 || (hl > n - 8 && (p[5] | p[6] | p[7])))
        return 0;
    snprintf(reason, rn, "read as safetensors: an 8-byte header length (%llu), then a JSON "
                         "object", (unsigned long long)hl);
    return 1;
}

/* A string's text as a span that lives as long as the model: its bytes in
 * the map, or (when it holds an escape) its decoded text, owned. */
static int st_text(st_rd *rd, const nnav_jval *v, nnav_span *out)
{
    if (!v->escaped) {
        *out = v->s;
        return 0;
    }
    size_t n = v->s.n; /* a decoded text is never longer than its escaped bytes */
    char *t = malloc(n + 1);
    char **slot = t ? nnav_vec_push(rd->owned) : NULL;
    if (!slot) {
        free(t);
        return -1;
    }
    *slot = t;
    size_t k = nnav_json_text(v, t, n + 1);
    *out = (nnav_span){(const uint8_t *)t, k};
    return 0;
}

static int oom(nnav_error *err)
{
    return st_err(err, 0, NULL, "out of memory");
}

/* The path of the member `it` last read, then `more`: written only for an
 * error (a header of 10^5 tensors pays for no path text). */
static const char *mpath(const nnav_jiter *it, const char *more, char *buf, size_t n)
{
    nnav_json_path(it, buf, n);
    size_t k = strlen(buf);
    snprintf(buf + k, n - k, "%s", more);
    return buf;
}

/* An integer >= 0 at the member `it` last read: 0, or -1 with err set. */
static int st_uint(const nnav_jiter *it, const nnav_jval *v, uint64_t *out, const char *what,
                   nnav_error *err)
{
    char path[NNAV_JSON_PATH + 64];
    if (v->kind == NNAV_JSON_NUMBER && v->num == NNAV_JNUM_INT && v->i < 0)
        return st_err(err, v->off, mpath(it, "", path, sizeof path), "%s %lld is negative", what,
                      (long long)v->i);
    if (nnav_json_uint(v, out, NULL, err) < 0) {
        mpath(it, "", err->path, sizeof err->path);
        return -1;
    }
    return 0;
}

/* One tensor entry: dtype, shape, data_offsets. */
static int read_entry(nnav_model *m, st_rd *rd, const nnav_json *j, const nnav_jiter *top,
                      const nnav_jval *key, const nnav_jval *val, nnav_error *err)
{
    char path[NNAV_JSON_PATH + 64];
    if (val->kind != NNAV_JSON_OBJECT)
        return st_err(err, val->off, mpath(top, "", path, sizeof path),
                      "a tensor's entry is %s, not an object of dtype, shape and data_offsets",
                      nnav_json_kind_name(val->kind));
    nnav_jiter it, at_shape, at_offs;
    nnav_jval k, v, dtype = {0}, shape = {0}, offs = {0};
    nnav_json_iter(&it, j, val, top);
    int r;
    while ((r = nnav_json_next(&it, &k, &v, err)) == 1) {
        nnav_jval *slot = nnav_json_eq(&k, "dtype")        ? &dtype
                          : nnav_json_eq(&k, "shape")        ? &shape
                          : nnav_json_eq(&k, "data_offsets") ? &offs
                                                             : NULL;
        if (slot && slot->kind)
            return st_err(err, k.off, mpath(&it, "", path, sizeof path),
                          "a tensor's entry names this key twice");
        if (slot)
            *slot = v; /* other keys: ignored, as tensor.rs ignores them */
        /* where shape and data_offsets are, for their members' paths */
        if (slot == &shape)
            at_shape = it;
        else if (slot == &offs)
            at_offs = it;
    }
    if (r < 0)
        return -1;
    const char *miss = !dtype.kind ? "dtype" : !shape.kind ? "shape" : !offs.kind ? "data_offsets"
                                                                                  : NULL;
    if (miss)
        return st_err(err, val->off, mpath(top, "", path, sizeof path),
                      "a tensor's entry has no \"%s\"", miss);
    size_t ti_k = sizeof st_types / sizeof *st_types;
    for (size_t q = 0; q < sizeof st_types / sizeof *st_types && dtype.kind == NNAV_JSON_STRING;
         q++)
        if (nnav_json_eq(&dtype, st_types[q].name))
            ti_k = q;
    if (ti_k == sizeof st_types / sizeof *st_types) {
        char t[64], e[200];
        size_t n = nnav_json_text(&dtype, t, sizeof t);
        nnav_text_escape((const uint8_t *)t, n < sizeof t ? n : sizeof t - 1, e, sizeof e);
        mpath(top, ".dtype", path, sizeof path);
        return dtype.kind == NNAV_JSON_STRING
                   ? st_err(err, dtype.off, path, "dtype \"%s\" is not one of safetensors' "
                                                  "(F64 F32 F16 BF16 I64 I32 I16 I8 U64 U32 U16 "
                                                  "U8 BOOL F8_E4M3 F8_E5M2 F8_E8M0 ... F4 F6)", e)
                   : st_err(err, dtype.off, path, "dtype is %s, not a string",
                            nnav_json_kind_name(dtype.kind));
    }
    nnav_tensor t;
    memset(&t, 0, sizeof t);
    if (st_text(rd, key, &t.name) < 0)
        return oom(err);
    t.dtype = st_types[ti_k].dt;
    t.owner = NNAV_TOWN_INITIALIZER;
    t.owner_id = NNAV_NONE;
    t.graph = 0;
    t.ext_offset = t.ext_length = -1;
    t.storage = NNAV_STORE_RAW;
    t.msg = val->s;
    t.dims_first = m->dims.n;
    /* shape: integers >= 0; their product x bits, exactly, or an error. */
    if (shape.kind != NNAV_JSON_ARRAY)
        return st_err(err, shape.off, mpath(top, ".shape", path, sizeof path),
                      "shape is %s, not an array of dims", nnav_json_kind_name(shape.kind));
    nnav_jiter si;
    nnav_json_iter(&si, j, &shape, &at_shape);
    uint64_t nel = 1;
    int over = 0, zero = 0;
    while ((r = nnav_json_next(&si, NULL, &v, err)) == 1) {
        uint64_t d;
        if (st_uint(&si, &v, &d, "dim", err) < 0)
            return -1;
        if (d > INT64_MAX)
            return st_err(err, v.off, mpath(&si, "", path, sizeof path),
                          "dim %llu is past what a signed 64-bit dim holds",
                          (unsigned long long)d);
        int64_t *dd = nnav_vec_push(m->dims);
        if (!dd)
            return oom(err);
        *dd = (int64_t)d;
        zero |= d == 0; /* zero elements whatever the rest: tensor.rs's product is 0 */
        if (d && nel > UINT64_MAX / d)
            over = 1;
        else
            nel *= d ? d : 1;
    }
    if (r < 0)
        return -1;
    if (zero)
        nel = 0, over = 0;
    t.ndims = m->dims.n - t.dims_first;
    /* data_offsets: exactly two integers >= 0, begin <= end. */
    if (offs.kind != NNAV_JSON_ARRAY || offs.count != 2)
        return st_err(err, offs.off, mpath(top, ".data_offsets", path, sizeof path),
                      "data_offsets is %s%s, not [begin, end]", nnav_json_kind_name(offs.kind),
                      offs.kind == NNAV_JSON_ARRAY ? (offs.count < 2 ? " of fewer than 2 numbers"
                                                                     : " of more than 2 numbers")
                                                   : "");
    nnav_jiter oi;
    nnav_json_iter(&oi, j, &offs, &at_offs);
    uint64_t be[2] = {0, 0};
    for (int q = 0; q < 2; q++)
        if (nnav_json_next(&oi, NULL, &v, err) != 1 || st_uint(&oi, &v, &be[q], "offset", err) < 0)
            return -1;
    if (be[1] < be[0])
        return st_err(err, offs.off, mpath(top, ".data_offsets", path, sizeof path),
                      "data_offsets [%llu, %llu] end before they begin",
                      (unsigned long long)be[0], (unsigned long long)be[1]);
    unsigned bits = st_types[ti_k].bits;
    if (over || nel > UINT64_MAX / bits)
        return st_err(err, shape.off, mpath(top, ".shape", path, sizeof path),
                      "shape's element count times %u bits is past 64 bits", bits);
    uint64_t nbits = nel * bits;
    if (nbits % 8)
        return st_err(err, shape.off, mpath(top, ".shape", path, sizeof path),
                      "%llu %s elements take %llu bits, not whole bytes", (unsigned long long)nel,
                      st_types[ti_k].name, (unsigned long long)nbits);
    if (be[1] - be[0] != nbits / 8)
        return st_err(err, offs.off, mpath(top, ".data_offsets", path, sizeof path),
                      "data_offsets [%llu, %llu] hold %llu bytes, but dtype %s x shape take %llu",
                      (unsigned long long)be[0], (unsigned long long)be[1],
                      (unsigned long long)(be[1] - be[0]), st_types[ti_k].name,
                      (unsigned long long)(nbits / 8));
    nnav_tensor_sizes(m, &t, 0);
    if (t.dtype == NNAV_DT_UNDEFINED) {
        /* F6: sizes as the format says; its values are not decoded. */
        t.nelems = nel, t.nbytes = nbits / 8;
        t.warn &= ~(uint32_t)NNAV_TW_BAD_DTYPE;
    }
    t.stored = be[1] - be[0];
    /* The data span is set once every tensor is known to lie in the file. */
    st_tinfo *ti = nnav_vec_push(rd->ti);
    nnav_tensor *tp = ti ? nnav_vec_push(m->tensors) : NULL;
    if (!tp)
        return oom(err);
    ti->begin = be[0], ti->end = be[1], ti->off = val->off, ti->type = (uint8_t)ti_k;
    *tp = t;
    return 0;
}

static int read_metadata(st_rd *rd, const nnav_json *j, const nnav_jiter *top,
                         const nnav_jval *val, nnav_error *err)
{
    char path[NNAV_JSON_PATH + 64];
    if (val->kind != NNAV_JSON_OBJECT)
        return st_err(err, val->off, mpath(top, "", path, sizeof path), "__metadata__ is %s, not an object of strings",
                      nnav_json_kind_name(val->kind));
    nnav_jiter it;
    nnav_jval k, v;
    int r;
    nnav_json_iter(&it, j, val, top);
    while ((r = nnav_json_next(&it, &k, &v, err)) == 1) {
        if (v.kind != NNAV_JSON_STRING) {
            mpath(&it, "", path, sizeof path);
            return st_err(err, v.off, path, "a __metadata__ value is %s, not a string",
                          nnav_json_kind_name(v.kind));
        }
        st_kv *kv = nnav_vec_push(rd->meta);
        if (!kv || st_text(rd, &k, &kv->key) < 0 || st_text(rd, &v, &kv->value) < 0)
            return oom(err);
        kv->off = v.off;
    }
    return r;
}

static const st_rd *sort_rd;
static const nnav_model *sort_m;

static int by_offsets(const void *a, const void *b)
{
    const st_tinfo *x = &sort_rd->ti.v[*(const uint32_t *)a], *y = &sort_rd->ti.v[*(const uint32_t *)b];
    if (x->begin != y->begin)
        return x->begin < y->begin ? -1 : 1;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off;
}

static int by_key(const void *a, const void *b)
{
    uint32_t i = *(const uint32_t *)a, k = *(const uint32_t *)b;
    nnav_span x = sort_rd->meta.v[i].key, y = sort_rd->meta.v[k].key;
    int c = memcmp(x.p, y.p, x.n < y.n ? (size_t)x.n : (size_t)y.n);
    if (c || x.n != y.n)
        return c ? c : x.n < y.n ? -1 : 1;
    return i < k ? -1 : i > k;
}

static int by_name(const void *a, const void *b)
{
    uint32_t i = *(const uint32_t *)a, k = *(const uint32_t *)b;
    nnav_span x = sort_m->tensors.v[i].name, y = sort_m->tensors.v[k].name;
    int c = memcmp(x.p, y.p, x.n < y.n ? (size_t)x.n : (size_t)y.n);
    if (c || x.n != y.n)
        return c ? c : x.n < y.n ? -1 : 1;
    return i < k ? -1 : i > k;
}

/* Names in natural order: runs of digits compared as numbers, so that
 * layers.2 comes before layers.10 (a writer sorts them as bytes). */
static int natural(nnav_span x, nnav_span y)
{
    uint64_t i = 0, k = 0;
    while (i < x.n && k < y.n) {
        uint8_t a = x.p[i], b = y.p[k];
        if (a >= '0' && a <= '9' && b >= '0' && b <= '9') {
            uint64_t i0 = i, k0 = k;
            while (i0 < x.n && x.p[i0] == '0')
                i0++;
            while (k0 < y.n && y.p[k0] == '0')
                k0++;
            uint64_t i1 = i0, k1 = k0;
            while (i1 < x.n && x.p[i1] >= '0' && x.p[i1] <= '9')
                i1++;
            while (k1 < y.n && y.p[k1] >= '0' && y.p[k1] <= '9')
                k1++;
            if (i1 - i0 != k1 - k0)
                return i1 - i0 < k1 - k0 ? -1 : 1;
            int c = memcmp(x.p + i0, y.p + k0, (size_t)(i1 - i0));
            if (c)
                return c;
            i = i1, k = k1;
            continue;
        }
        if (a != b)
            return a < b ? -1 : 1;
        i++, k++;
    }
    if (i < x.n || k < y.n)
        return i < x.n ? 1 : -1;
    /* equal as numbers ("01" and "1"): as bytes */
    int c = memcmp(x.p, y.p, x.n < y.n ? (size_t)x.n : (size_t)y.n);
    return c ? c : x.n < y.n ? -1 : x.n > y.n;
}

static int by_natural(const void *a, const void *b)
{
    uint32_t i = *(const uint32_t *)a, k = *(const uint32_t *)b;
    int c = natural(sort_m->tensors.v[i].name, sort_m->tensors.v[k].name);
    return c ? c : i < k ? -1 : i > k;
}

/* The tensors (and their infos) in natural name order. */
static int order_tensors(nnav_model *m, st_rd *rd, nnav_error *err)
{
    uint32_t n = m->tensors.n;
    if (n < 2)
        return 0; /* nothing to order (and no array to copy into) */
    uint32_t *ord = malloc(((size_t)n + 1) * sizeof *ord);
    nnav_tensor *t = malloc(((size_t)n + 1) * sizeof *t);
    st_tinfo *ti = malloc(((size_t)n + 1) * sizeof *ti);
    if (!ord || !t || !ti) {
        free(ord), free(t), free(ti);
        return oom(err);
    }
    for (uint32_t i = 0; i < n; i++)
        ord[i] = i;
    sort_m = m, sort_rd = rd;
    qsort(ord, n, sizeof *ord, by_natural);
    for (uint32_t i = 0; i < n; i++)
        t[i] = m->tensors.v[ord[i]], ti[i] = rd->ti.v[ord[i]];
    memcpy(m->tensors.v, t, (size_t)n * sizeof *t);
    memcpy(rd->ti.v, ti, (size_t)n * sizeof *ti);
    free(ord), free(t), free(ti);
    return 0;
}

static void tname(const nnav_model *m, uint32_t t, char *buf, size_t n)
{
    nnav_span s = m->tensors.v[t].name;
    nnav_text_escape(s.p, s.n > 200 ? 200 : (size_t)s.n, buf, n);
}

/* The rules over all tensors: names once; offsets from 0, end to end, to
 * the end of the file. */
static int check_layout(nnav_model *m, st_rd *rd, nnav_error *err)
{
    uint32_t n = m->tensors.n;
    uint32_t *ord = malloc(((size_t)n + 1) * sizeof *ord);
    char a[300], b[300];
    if (!ord)
        return oom(err);
    for (uint32_t i = 0; i < n; i++)
        ord[i] = i;
    sort_m = m, sort_rd = rd;
    qsort(ord, n, sizeof *ord, by_name);
    for (uint32_t i = 1; i < n; i++)
        if (nnav_span_same(m->tensors.v[ord[i - 1]].name, m->tensors.v[ord[i]].name)) {
            uint32_t first = ord[i - 1], again = ord[i];
            free(ord);
            tname(m, again, a, sizeof a);
            return st_err(err, rd->ti.v[again].off, NULL, "tensor name '%s' is in the header "
                                                          "twice (first at offset %llu)",
                          a, (unsigned long long)rd->ti.v[first].off);
        }
    /* __metadata__'s keys once each, too (serde's map would keep the last). */
    uint32_t nm = rd->meta.n;
    uint32_t *mo = nm ? malloc((size_t)nm * sizeof *mo) : NULL;
    if (nm && !mo) {
        free(ord);
        return oom(err);
    }
    for (uint32_t i = 0; i < nm; i++)
        mo[i] = i;
    if (nm)
        qsort(mo, nm, sizeof *mo, by_key);
    for (uint32_t i = 1; i < nm; i++)
        if (nnav_span_same(rd->meta.v[mo[i - 1]].key, rd->meta.v[mo[i]].key)) {
            const st_kv *kv = &rd->meta.v[mo[i]];
            nnav_text_escape(kv->key.p, kv->key.n > 200 ? 200 : (size_t)kv->key.n, a, sizeof a);
            free(ord);
            free(mo);
            return st_err(err, kv->off, "$.__metadata__", "metadata key '%s' is there twice", a);
        }
    free(mo);
    qsort(ord, n, sizeof *ord, by_offsets);
    uint64_t at = 0, room = m->map.size - rd->data_start;
    int rc = 0;
    for (uint32_t i = 0; i < n && !rc; i++) {
        const st_tinfo *ti = &rd->ti.v[ord[i]];
        tname(m, ord[i], a, sizeof a);
        if (ti->begin > at && i == 0)
            rc = st_err(err, ti->off, NULL, "the first tensor's data ('%s') begins at %llu, "
                                            "not 0: a hole of %llu bytes at the data's start",
                        a, (unsigned long long)ti->begin, (unsigned long long)ti->begin);
        else if (ti->begin > at) {
            tname(m, ord[i - 1], b, sizeof b);
            rc = st_err(err, ti->off, NULL, "tensor '%s' begins at %llu, but '%s' before it ends "
                                            "at %llu: a hole of %llu bytes",
                        a, (unsigned long long)ti->begin, b, (unsigned long long)at,
                        (unsigned long long)(ti->begin - at));
        } else if (ti->begin < at) {
            tname(m, ord[i - 1], b, sizeof b);
            rc = st_err(err, ti->off, NULL, "tensor '%s' [%llu, %llu] overlaps '%s', which ends "
                                            "at %llu",
                        a, (unsigned long long)ti->begin, (unsigned long long)ti->end, b,
                        (unsigned long long)at);
        } else if (ti->end > room) {
            rc = st_err(err, ti->off, NULL, "tensor '%s' ends at data offset %llu, past the end "
                                            "of the file (%llu bytes of data)",
                        a, (unsigned long long)ti->end, (unsigned long long)room);
        }
        at = ti->end;
    }
    free(ord);
    if (!rc && at != room)
        rc = st_err(err, rd->data_start + at, NULL, "%llu bytes after the last tensor's data: "
                                                    "the tensors must end where the file does",
                    (unsigned long long)(room - at));
    return rc;
}

static int st_index(nnav_model *m, const nnav_open_opts *o, nnav_error *err)
{
    (void)o;
    st_rd *rd = calloc(1, sizeof *rd);
    if (!rd)
        return oom(err);
    m->rd = rd;
    const uint8_t *base = m->map.base;
    uint64_t n = m->map.size;
    if (n < 8)
        return st_err(err, 0, NULL, "the file is %llu bytes, shorter than safetensors' 8-byte "
                                    "header length", (unsigned long long)n);
    uint64_t hl = le64(base);
    if (hl > ST_MAX_HEADER)
        return st_err(err, 0, NULL, "header length %llu is over safetensors' limit of %d bytes",
                      (unsigned long long)hl, ST_MAX_HEADER);
    if (hl > n - 8)
        return st_err(err, 0, NULL, "header length %llu runs past the end of the file (%llu "
                                    "bytes after the length)",
                      (unsigned long long)hl, (unsigned long long)(n - 8));
    rd->header_len = hl;
    rd->data_start = 8 + hl;
    nnav_json j = {.base = base, .max_depth = 0};
    nnav_jval root;
    nnav_span hdr = {base + 8, hl};
    if (nnav_json_parse(&j, hdr, &root, err) < 0)
        return -1;
    if (root.kind != NNAV_JSON_OBJECT)
        return st_err(err, root.off, "$", "the header is %s, not an object",
                      nnav_json_kind_name(root.kind));
    nnav_graph *g = nnav_vec_push(m->graphs);
    nnav_span *gs = g ? nnav_vec_push(m->gspan) : NULL;
    if (!gs)
        return oom(err);
    memset(g, 0, sizeof *g);
    g->kind = NNAV_GRAPH_MAIN;
    g->parent = g->owner_node = g->owner_attr = g->list_index = NNAV_NONE;
    g->function = g->training = NNAV_NONE;
    g->offset = 8;
    *gs = hdr;
    nnav_jiter it;
    nnav_jval k, v;
    int r, metas = 0;
    nnav_json_iter(&it, &j, &root, NULL);
    while ((r = nnav_json_next(&it, &k, &v, err)) == 1) {
        if (nnav_json_eq(&k, "__metadata__")) {
            if (metas++)
                return st_err(err, k.off, "$.__metadata__", "the header holds __metadata__ "
                                                            "twice");
            if (read_metadata(rd, &j, &it, &v, err) < 0)
                return -1;
        } else if (read_entry(m, rd, &j, &it, &k, &v, err) < 0) {
            return -1;
        }
    }
    if (r < 0 || check_layout(m, rd, err) < 0 || order_tensors(m, rd, err) < 0)
        return -1;
    for (uint32_t i = 0; i < m->tensors.n; i++) {
        const st_tinfo *ti = &rd->ti.v[i];
        m->tensors.v[i].data = (nnav_span){base + rd->data_start + ti->begin, ti->end - ti->begin};
    }
    g = &m->graphs.v[0];
    g->init_first = 0;
    g->init_count = m->tensors.n;
    m->facts.tensor_store = 1;
    /* How many tensors of each dtype, most first. */
    uint32_t cnt[sizeof st_types / sizeof *st_types] = {0};
    for (uint32_t i = 0; i < rd->ti.n; i++)
        cnt[rd->ti.v[i].type]++;
    size_t dn = 0;
    for (;;) {
        size_t best = sizeof st_types / sizeof *st_types;
        for (size_t q = 0; q < sizeof st_types / sizeof *st_types; q++)
            if (cnt[q] && (best == sizeof st_types / sizeof *st_types || cnt[q] > cnt[best]))
                best = q;
        if (best == sizeof st_types / sizeof *st_types)
            break;
        dn += (size_t)snprintf(rd->dtypes + dn, sizeof rd->dtypes - dn, "%s%s %u", dn ? ", " : "",
                              st_types[best].name, cnt[best]);
        cnt[best] = 0;
    }
    if (!dn)
        snprintf(rd->dtypes, sizeof rd->dtypes, "none");
    snprintf(rd->title, sizeof rd->title, "metadata (%u key%s)", rd->meta.n,
             rd->meta.n == 1 ? "" : "s");
    return 0;
}

static void st_free(nnav_model *m)
{
    st_rd *rd = m->rd;
    if (!rd)
        return;
    for (uint32_t i = 0; i < rd->owned.n; i++)
        free(rd->owned.v[i]);
    nnav_vec_free(rd->owned);
    nnav_vec_free(rd->ti);
    nnav_vec_free(rd->meta);
    free(rd);
    m->rd = NULL;
}

static int st_values(const nnav_model *m, uint32_t t, size_t want, int stats, nnav_values *out,
                     nnav_error *err)
{
    const st_rd *rd = m->rd;
    const nnav_tensor *tt = &m->tensors.v[t];
    const st_tinfo *ti = &rd->ti.v[t];
    nnav_acc a;
    memset(err, 0, sizeof *err);
    nnav_acc_init(&a, out, tt->dtype, tt->nelems, want, stats, nnav_dtype_components(tt->dtype));
    if (!nnav_dtype_valid(tt->dtype))
        return st_err(err, ti->off, NULL, "%s values are not decoded (no element type of nnav's "
                                          "is theirs)", st_types[ti->type].name);
    nnav_acc_raw(tt, tt->data, &a);
    if (nnav_map_truncated(&m->map))
        return st_err(err, 0, NULL, "the model file shrank while its values were read");
    nnav_acc_end(&a);
    return 0;
}

static void st_storage_format(const nnav_model *m, uint32_t t, char *buf, size_t n)
{
    const st_rd *rd = m->rd;
    const st_tinfo *ti = &rd->ti.v[t];
    snprintf(buf, n, "%s, data bytes %llu..%llu (file offset %llu)", st_types[ti->type].name,
             (unsigned long long)ti->begin, (unsigned long long)ti->end,
             (unsigned long long)(rd->data_start + ti->begin));
}

/* Details: the header's size, where the data starts, the tensors of each
 * dtype; then __metadata__'s strings. */
enum { ST_HEADER_DETAILS = 3 };

static uint32_t st_detail_count(const nnav_model *m)
{
    const st_rd *rd = m->rd;
    return ST_HEADER_DETAILS + rd->meta.n;
}

static int st_detail_get(const nnav_model *m, uint32_t i, nnav_detail *out)
{
    const st_rd *rd = m->rd;
    memset(out, 0, sizeof *out);
    if (i < ST_HEADER_DETAILS) {
        out->section = "safetensors";
        out->own = 1;
        out->kind = NNAV_DV_UINT;
        if (i == 0) {
            out->key = (nnav_span){(const uint8_t *)"header_bytes", 12};
            out->u = rd->header_len;
        } else if (i == 1) {
            out->key = (nnav_span){(const uint8_t *)"data_start", 10};
            out->u = rd->data_start;
        } else {
            out->key = (nnav_span){(const uint8_t *)"dtypes", 6};
            out->kind = NNAV_DV_TEXT;
            out->s = (nnav_span){(const uint8_t *)rd->dtypes, strlen(rd->dtypes)};
        }
        return 0;
    }
    const st_kv *kv = &rd->meta.v[i - ST_HEADER_DETAILS];
    out->section = "metadata";
    out->title = rd->title;
    out->key = kv->key;
    out->kind = NNAV_DV_TEXT;
    out->s = kv->value;
    out->offset = kv->off;
    return 0;
}

const nnav_reader nnav_reader_safetensors = {
    .name = "safetensors",
    .formats = 1u << NNAV_FMT_OTHER,
    .reads = ".safetensors",
    .suffix = ".safetensors",
    .sniff = st_sniff,
    .index = st_index,
    .free = st_free,
    .tensor_values = st_values,
    .storage_format = st_storage_format,
    .detail_count = st_detail_count,
    .detail_get = st_detail_get,
};
