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
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dtype.h"
#include "extdata.h"
#include "hashtab.h"
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
    uint64_t off;        /* its entry's value in its file */
    uint32_t shard;      /* the file holding it, into st_rd.shards */
    uint8_t type;        /* into st_types */
} st_tinfo;

typedef struct st_kv { nnav_span key, value; uint64_t off; } st_kv;

/* A file of tensors: the model's own, or one of the shards an index names
 * (each mapped, its header read, its data not touched). */
typedef struct st_shard {
    nnav_map map;         /* a shard's own; the model's map for a single file */
    nnav_span name;       /* as the index names it (decoded); empty for a single file */
    uint64_t header_len, data_start;
    uint32_t first, count; /* its tensors, as read (before the model's order) */
    uint8_t owned;         /* map is the shard's, closed at free */
    uint8_t via;           /* nnav_ext_via: how its file was reached */
} st_shard;

/* An index's weight_map entry: a tensor's name and the shard that holds it. */
typedef struct st_wm { nnav_span name; uint32_t shard; uint64_t off; } st_wm;

typedef struct st_rd {
    NNAV_VEC(st_tinfo) ti;
    NNAV_VEC(st_kv) meta;  /* __metadata__, in the file's order (the first shard's) */
    NNAV_VEC(char *) owned; /* names and texts that held escapes, decoded */
    NNAV_VEC(st_shard) shards;
    /* An index file (model.safetensors.index.json): */
    int is_index;
    NNAV_VEC(st_wm) wm;
    nnav_hashtab shard_tab; /* shard name -> shard */
    NNAV_VEC(st_kv) imeta;  /* its "metadata" object's scalars */
    uint64_t shard_bytes;   /* the shards' sizes together */
    uint32_t unmapped;      /* tensors of a shard the weight_map does not name */
    nnav_span unmapped_first;
    NNAV_VEC(char *) strays; /* *.safetensors files beside the index it does not name */
    /* config.json beside the weights: */
    nnav_map cfg;
    NNAV_VEC(st_kv) config;
    nnav_span arch;          /* architectures[0]: the model's class */
    char cfg_note[600];      /* why config.json was not read, when it was not */
    char title[64];  /* the metadata section's heading */
    char ctitle[64]; /* the config section's */
    char stitle[64]; /* the shards section's */
    char dtypes[sizeof st_types / sizeof *st_types * 32]; /* "F32 65, F16 32" */
    char unmapped_text[400]; /* "2, the first 'x.bias'" */
    char stray_text[600];    /* "model-00004-of-00004.safetensors, ..." */
} st_rd;

#define st_err nnav_err_at /* bad input at an offset and a JSON path */

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
static int read_entry(nnav_model *m, st_rd *rd, uint32_t shard, const nnav_json *j,
                      const nnav_jiter *top, const nnav_jval *key, const nnav_jval *val,
                      nnav_error *err)
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
    ti->shard = shard;
    *tp = t;
    return 0;
}

static int read_metadata(st_rd *rd, int keep, const nnav_json *j, const nnav_jiter *top,
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
        if (!keep)
            continue;
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

/* The shard's name for a message about it: "" for a single file, else
 * "shard 'NAME': ". */
static const char *sname(const st_rd *rd, uint32_t s, char *buf, size_t n)
{
    if (!rd->is_index) {
        buf[0] = 0;
        return buf;
    }
    char e[300];
    nnav_span nm = rd->shards.v[s].name;
    nnav_text_escape(nm.p, nm.n > 200 ? 200 : (size_t)nm.n, e, sizeof e);
    snprintf(buf, n, "shard '%s': ", e);
    return buf;
}

/* An error about shard s: its message led by the shard's name. */
static int in_shard(const st_rd *rd, uint32_t s, nnav_error *err)
{
    char pre[340], msg[sizeof err->msg];
    sname(rd, s, pre, sizeof pre);
    if (pre[0]) {
        snprintf(msg, sizeof msg, "%s%s", pre, err->msg);
        memcpy(err->msg, msg, sizeof msg);
    }
    return -1;
}

/* The rules over every tensor of the model: names once (across shards
 * too); __metadata__'s keys once. */
static int check_names(nnav_model *m, st_rd *rd, uint32_t **sorted, nnav_error *err)
{
    uint32_t n = m->tensors.n;
    uint32_t *ord = malloc(((size_t)n + 1) * sizeof *ord);
    char a[300], sa[340], sb[340];
    *sorted = NULL;
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
            const st_tinfo *x = &rd->ti.v[first], *y = &rd->ti.v[again];
            if (x->shard != y->shard)
                return st_err(err, y->off, NULL, "%stensor name '%s' is also in %s(offset %llu): "
                                                 "a name must be in one shard",
                              sname(rd, y->shard, sa, sizeof sa), a,
                              sname(rd, x->shard, sb, sizeof sb), (unsigned long long)x->off);
            return in_shard(rd, y->shard,
                            (st_err(err, y->off, NULL, "tensor name '%s' is in the header twice "
                                                       "(first at offset %llu)",
                                    a, (unsigned long long)x->off),
                             err));
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
            return in_shard(rd, 0, (st_err(err, kv->off, "$.__metadata__", "metadata key '%s' "
                                                                          "is there twice", a),
                                    err));
        }
    free(mo);
    *sorted = ord;
    return 0;
}

/* The rules over one file's tensors: offsets from 0, end to end, to the
 * end of the file. */
static int check_layout(nnav_model *m, st_rd *rd, uint32_t s, nnav_error *err)
{
    const st_shard *sh = &rd->shards.v[s];
    uint32_t n = sh->count;
    uint32_t *ord = malloc(((size_t)n + 1) * sizeof *ord);
    char a[300], b[300];
    if (!ord)
        return oom(err);
    for (uint32_t i = 0; i < n; i++)
        ord[i] = sh->first + i;
    sort_m = m, sort_rd = rd;
    qsort(ord, n, sizeof *ord, by_offsets);
    uint64_t at = 0, room = sh->map.size - sh->data_start;
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
        rc = st_err(err, sh->data_start + at, NULL, "%llu bytes after the last tensor's data: "
                                                    "the tensors must end where the file does",
                    (unsigned long long)(room - at));
    return rc;
}

/* One file of tensors (the model, or shard s): its header length, its
 * header, each entry, their layout; then each tensor's data span. */
static int read_shard(nnav_model *m, st_rd *rd, uint32_t s, nnav_error *err)
{
    st_shard *sh = &rd->shards.v[s];
    const uint8_t *base = sh->map.base;
    uint64_t n = sh->map.size;
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
    sh->header_len = hl;
    sh->data_start = 8 + hl;
    sh->first = m->tensors.n;
    nnav_json j = {.base = base, .max_depth = 0};
    nnav_jval root;
    nnav_span hdr = {base + 8, hl};
    if (nnav_json_parse(&j, hdr, &root, err) < 0)
        return -1;
    if (root.kind != NNAV_JSON_OBJECT)
        return st_err(err, root.off, "$", "the header is %s, not an object",
                      nnav_json_kind_name(root.kind));
    nnav_jiter it;
    nnav_jval k, v;
    int r, metas = 0;
    nnav_json_iter(&it, &j, &root, NULL);
    while ((r = nnav_json_next(&it, &k, &v, err)) == 1) {
        if (nnav_json_eq(&k, "__metadata__")) {
            if (metas++)
                return st_err(err, k.off, "$.__metadata__", "the header holds __metadata__ "
                                                            "twice");
            if (read_metadata(rd, s == 0, &j, &it, &v, err) < 0)
                return -1;
        } else if (read_entry(m, rd, s, &j, &it, &k, &v, err) < 0) {
            return -1;
        }
    }
    sh = &rd->shards.v[s];
    sh->count = m->tensors.n - sh->first;
    if (r < 0 || check_layout(m, rd, s, err) < 0)
        return -1;
    for (uint32_t i = sh->first; i < m->tensors.n; i++) {
        const st_tinfo *ti = &rd->ti.v[i];
        m->tensors.v[i].data = (nnav_span){base + sh->data_start + ti->begin, ti->end - ti->begin};
    }
    return 0;
}

/* ---- an index of shards (model.safetensors.index.json) ----
 * {"metadata": {"total_size": N, ...}, "weight_map": {TENSOR: SHARD, ...}}:
 * every shard it names is opened by the rules of data beside a model
 * (extdata.h: inside its folder, a Hugging Face snapshot's links into its
 * blobs/), mapped, its header read; a shard missing is an error naming it.
 * Each tensor the map names must be in its shard; a shard's tensor the map
 * leaves out, and a *.safetensors file beside the index it does not name,
 * are reported in the details. */

/* Sure: white space, '{', and "weight_map" as a key within the first 16 KB
 * (Hugging Face writes it after a short "metadata" object). */
static int index_sniff(const uint8_t *p, uint64_t n, char *reason, size_t rn)
{
    uint64_t i = 0, lim = n < 16384 ? n : 16384;
    while (i < lim && i < 64 && (p[i] == ' ' || p[i] == '\n' || p[i] == '\r' || p[i] == '\t'))
        i++;
    if (i >= lim || p[i] != '{')
        return 0;
    static const char key[] = "\"weight_map\"";
    for (uint64_t k = i; k + sizeof key - 1 <= lim; k++)
        if (p[k] == '"' && !memcmp(p + k, key, sizeof key - 1)) {
            snprintf(reason, rn, "read as a safetensors index: a JSON object with a weight_map "
                                 "of tensors to shards");
            return 1;
        }
    return 0;
}

static int shard_eq(const void *ctx, uint32_t id)
{
    const void *const *c = ctx;
    const st_rd *rd = c[0];
    return nnav_span_same(rd->shards.v[id].name, *(const nnav_span *)c[1]);
}

static uint64_t shard_hash(const void *ctx, uint32_t id)
{
    const st_rd *rd = ctx;
    nnav_span s = rd->shards.v[id].name;
    return nnav_hash_bytes(s.p, s.n, 0);
}

/* The shard named `name` (a decoded span), added when new: its id, or
 * NNAV_NONE when out of memory. */
static uint32_t shard_of(st_rd *rd, nnav_span name)
{
    uint64_t h = nnav_hash_bytes(name.p, name.n, 0), at = 0;
    const void *ctx[2] = {rd, &name};
    uint32_t id = nnav_hashtab_find(&rd->shard_tab, h, shard_eq, ctx, &at);
    if (id != NNAV_HASHTAB_NONE)
        return id;
    if (rd->shards.n >= 16000)
        return NNAV_NONE - 1; /* more shards than files can be mapped at once */
    st_shard *sh = nnav_vec_push(rd->shards);
    if (!sh)
        return NNAV_NONE;
    memset(sh, 0, sizeof *sh);
    sh->map.slot = -1;
    sh->name = name;
    id = rd->shards.n - 1;
    if (nnav_hashtab_put(&rd->shard_tab, at, h, id, shard_hash, rd) != 0)
        return NNAV_NONE;
    return id;
}

static int name_cmp(nnav_span x, nnav_span y)
{
    int c = memcmp(x.p, y.p, x.n < y.n ? (size_t)x.n : (size_t)y.n);
    return c ? c : x.n < y.n ? -1 : x.n > y.n;
}

/* The index's weight_map against the shards' tensors (ord: the tensors by
 * name). */
static int check_weight_map(nnav_model *m, st_rd *rd, const uint32_t *ord, nnav_error *err)
{
    uint32_t n = m->tensors.n;
    uint8_t *named = calloc((size_t)n + 1, 1);
    if (!named)
        return oom(err);
    for (uint32_t w = 0; w < rd->wm.n; w++) {
        const st_wm *e = &rd->wm.v[w];
        uint32_t lo = 0, hi = n;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo) / 2;
            if (name_cmp(m->tensors.v[ord[mid]].name, e->name) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        char a[300], sa[340];
        nnav_text_escape(e->name.p, e->name.n > 200 ? 200 : (size_t)e->name.n, a, sizeof a);
        if (lo == n || !nnav_span_same(m->tensors.v[ord[lo]].name, e->name)) {
            free(named);
            sname(rd, e->shard, sa, sizeof sa);
            sa[strlen(sa) - 2] = 0; /* no ": " */
            return st_err(err, e->off, "$.weight_map", "the index maps tensor '%s' to %s, which "
                                                       "does not hold it (nor does any shard)",
                          a, sa);
        }
        uint32_t t = ord[lo];
        if (rd->ti.v[t].shard != e->shard) {
            char sb[340];
            free(named);
            sname(rd, e->shard, sa, sizeof sa);
            sa[strlen(sa) - 2] = 0;
            sname(rd, rd->ti.v[t].shard, sb, sizeof sb);
            sb[strlen(sb) - 2] = 0;
            return st_err(err, e->off, "$.weight_map", "the index maps tensor '%s' to %s, but "
                                                       "%s holds it", a, sa, sb);
        }
        named[t] = 1;
    }
    for (uint32_t i = 0; i < n; i++)
        if (!named[ord[i]] && !rd->unmapped++)
            rd->unmapped_first = m->tensors.v[ord[i]].name;
    free(named);
    return 0;
}

/* *.safetensors files beside the index that it does not name. */
static void find_strays(const nnav_model *m, st_rd *rd)
{
    DIR *d = opendir(m->dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d)) && rd->strays.n < 1000) {
        size_t k = strlen(de->d_name);
        if (k <= 12 || strcmp(de->d_name + k - 12, ".safetensors"))
            continue;
        nnav_span nm = {(const uint8_t *)de->d_name, k};
        uint64_t h = nnav_hash_bytes(nm.p, nm.n, 0);
        const void *ctx[2] = {rd, &nm};
        if (nnav_hashtab_find(&rd->shard_tab, h, shard_eq, ctx, NULL) != NNAV_HASHTAB_NONE)
            continue;
        char *c = strdup(de->d_name);
        char **slot = c ? nnav_vec_push(rd->strays) : NULL;
        if (!slot) {
            free(c);
            break;
        }
        *slot = c;
    }
    closedir(d);
}

static int by_cstr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int read_index(nnav_model *m, st_rd *rd, nnav_error *err)
{
    rd->is_index = 1;
    nnav_json j = {.base = m->map.base, .max_depth = 0};
    nnav_jval root, k, v;
    nnav_span all = {m->map.base, m->map.size};
    if (nnav_json_parse(&j, all, &root, err) < 0)
        return -1;
    if (root.kind != NNAV_JSON_OBJECT)
        return st_err(err, root.off, "$", "the index is %s, not an object",
                      nnav_json_kind_name(root.kind));
    nnav_jiter it, at_map, at_meta;
    nnav_jval map = {0}, meta = {0};
    int r;
    nnav_json_iter(&it, &j, &root, NULL);
    while ((r = nnav_json_next(&it, &k, &v, err)) == 1) {
        nnav_jval *slot = nnav_json_eq(&k, "weight_map") ? &map
                          : nnav_json_eq(&k, "metadata") ? &meta
                                                         : NULL;
        if (slot && slot->kind)
            return st_err(err, k.off, "$", "the index names \"%s\" twice",
                          slot == &map ? "weight_map" : "metadata");
        if (slot == &map)
            map = v, at_map = it;
        else if (slot == &meta)
            meta = v, at_meta = it;
    }
    if (r < 0)
        return -1;
    if (map.kind != NNAV_JSON_OBJECT)
        return st_err(err, map.kind ? map.off : root.off, "$.weight_map",
                      map.kind ? "weight_map is %s, not an object of tensor names to shard files"
                               : "the index has no weight_map%s",
                      map.kind ? nnav_json_kind_name(map.kind) : "");
    char path[NNAV_JSON_PATH + 64];
    if (meta.kind == NNAV_JSON_OBJECT) {
        nnav_jiter mi;
        nnav_json_iter(&mi, &j, &meta, &at_meta);
        while ((r = nnav_json_next(&mi, &k, &v, err)) == 1) {
            if (v.kind == NNAV_JSON_OBJECT || v.kind == NNAV_JSON_ARRAY)
                continue;
            st_kv *kv = nnav_vec_push(rd->imeta);
            if (!kv || st_text(rd, &k, &kv->key) < 0)
                return oom(err);
            if (v.kind == NNAV_JSON_STRING ? st_text(rd, &v, &kv->value) < 0 : 0)
                return oom(err);
            if (v.kind != NNAV_JSON_STRING)
                kv->value = v.s;
            kv->off = v.off;
        }
        if (r < 0)
            return -1;
    } else if (meta.kind) {
        return st_err(err, meta.off, "$.metadata", "metadata is %s, not an object",
                      nnav_json_kind_name(meta.kind));
    }
    nnav_jiter wi;
    nnav_json_iter(&wi, &j, &map, &at_map);
    while ((r = nnav_json_next(&wi, &k, &v, err)) == 1) {
        if (v.kind != NNAV_JSON_STRING || v.s.n == 0)
            return st_err(err, v.off, mpath(&wi, "", path, sizeof path),
                          "a weight_map value is %s, not the name of a shard file",
                          v.kind == NNAV_JSON_STRING ? "an empty string"
                                                     : nnav_json_kind_name(v.kind));
        st_wm *e = nnav_vec_push(rd->wm);
        nnav_span sn;
        if (!e || st_text(rd, &k, &e->name) < 0 || st_text(rd, &v, &sn) < 0)
            return oom(err);
        e->off = k.off;
        e->shard = shard_of(rd, sn);
        if (e->shard == NNAV_NONE)
            return oom(err);
        if (e->shard == NNAV_NONE - 1)
            return st_err(err, v.off, mpath(&wi, "", path, sizeof path),
                          "the index names more than 16000 shards");
    }
    if (r < 0)
        return -1;
    if (!rd->wm.n)
        return st_err(err, map.off, "$.weight_map", "weight_map names no tensor");
    /* Each shard: opened by the rules of data beside the model, mapped,
     * its header read. */
    for (uint32_t s = 0; s < rd->shards.n; s++) {
        st_shard *sh = &rd->shards.v[s];
        int via = 0;
        int fd = nnav_side_open(m, sh->name, "shard", &via, err);
        if (fd < 0) {
            snprintf(err->path, sizeof err->path, "$.weight_map");
            return -1;
        }
        char what[300];
        nnav_text_escape(sh->name.p, sh->name.n > 200 ? 200 : (size_t)sh->name.n, what,
                         sizeof what);
        int mr = nnav_map_fd(fd, what, &sh->map, err);
        close(fd);
        if (mr < 0)
            return in_shard(rd, s, err);
        sh->owned = 1;
        sh->via = (uint8_t)via;
        if (!sh->map.size)
            return in_shard(rd, s, (st_err(err, 0, NULL, "the shard is empty"), err));
        if (sh->map.size > UINT64_MAX - rd->shard_bytes)
            rd->shard_bytes = UINT64_MAX;
        else
            rd->shard_bytes += sh->map.size;
        if (read_shard(m, rd, s, err) < 0)
            return in_shard(rd, s, err);
    }
    find_strays(m, rd);
    if (rd->strays.n)
        qsort(rd->strays.v, rd->strays.n, sizeof *rd->strays.v, by_cstr);
    size_t tk = 0;
    for (uint32_t i = 0; i < rd->strays.n && tk < sizeof rd->stray_text - 1; i++) {
        char e[300];
        nnav_text_escape((const uint8_t *)rd->strays.v[i], strlen(rd->strays.v[i]), e, sizeof e);
        tk += (size_t)snprintf(rd->stray_text + tk, sizeof rd->stray_text - tk, "%s%s",
                               i ? ", " : "", e);
    }
    return 0;
}

/* ---- config.json beside the weights ----
 * transformers' configuration: its scalars (and a nested object's, as
 * "quantization_config.bits"), each a detail; architectures[0] is the
 * model's class. A config that cannot be read is said, never fatal: the
 * weights are the model. */

enum { ST_MAX_CONFIG = 400 };

static int config_add(st_rd *rd, nnav_span key, const nnav_jval *v)
{
    st_kv *kv = nnav_vec_push(rd->config);
    if (!kv)
        return -1;
    kv->key = key;
    kv->off = v->off;
    if (v->kind == NNAV_JSON_STRING)
        return st_text(rd, v, &kv->value);
    kv->value = v->s;
    return 0;
}

/* A key "PARENT.CHILD", owned. */
static int config_key(st_rd *rd, nnav_span parent, const nnav_jval *k, nnav_span *out)
{
    nnav_span c;
    if (st_text(rd, k, &c) < 0)
        return -1;
    if (!parent.n) {
        *out = c;
        return 0;
    }
    char *t = malloc(parent.n + c.n + 2);
    char **slot = t ? nnav_vec_push(rd->owned) : NULL;
    if (!slot) {
        free(t);
        return -1;
    }
    *slot = t;
    memcpy(t, parent.p, parent.n);
    t[parent.n] = '.';
    memcpy(t + parent.n + 1, c.p, c.n);
    *out = (nnav_span){(const uint8_t *)t, parent.n + 1 + c.n};
    return 0;
}

/* An array of scalars as one text: "LlamaForCausalLM", "[1, 2]". */
static int config_array(st_rd *rd, const nnav_json *j, const nnav_jiter *parent,
                        nnav_span key, const nnav_jval *arr, nnav_error *err)
{
    char buf[512];
    size_t n = 0;
    nnav_jiter ai;
    nnav_jval v;
    int r, first = 1;
    nnav_json_iter(&ai, j, arr, parent);
    if (arr->count != 1)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "[");
    while ((r = nnav_json_next(&ai, NULL, &v, err)) == 1 && n < sizeof buf - 8) {
        char t[256];
        size_t k;
        if (v.kind == NNAV_JSON_STRING)
            k = nnav_json_text(&v, t, sizeof t);
        else if (v.kind == NNAV_JSON_OBJECT || v.kind == NNAV_JSON_ARRAY)
            k = (size_t)snprintf(t, sizeof t, "%s", v.kind == NNAV_JSON_OBJECT ? "{...}" : "[...]");
        else
            k = (size_t)snprintf(t, sizeof t, "%.*s", (int)(v.s.n < 200 ? v.s.n : 200),
                                 (const char *)v.s.p);
        if (k >= sizeof t)
            k = sizeof t - 1;
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%.*s", first ? "" : ", ", (int)k, t);
        first = 0;
    }
    if (r < 0)
        return -1;
    if (r == 1)
        n += (size_t)snprintf(buf + n, sizeof buf - n, ", ...");
    if (arr->count != 1 && n < sizeof buf - 1)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "]");
    if (n >= sizeof buf)
        n = sizeof buf - 1;
    char *t = malloc(n + 1);
    char **slot = t ? nnav_vec_push(rd->owned) : NULL;
    st_kv *kv = slot ? nnav_vec_push(rd->config) : NULL;
    if (!kv) {
        if (!slot)
            free(t);
        return -1;
    }
    *slot = t;
    memcpy(t, buf, n + 1);
    kv->key = key;
    kv->value = (nnav_span){(const uint8_t *)t, n};
    kv->off = arr->off;
    return 0;
}

static int config_walk(st_rd *rd, const nnav_json *j, const nnav_jiter *parent,
                       const nnav_jval *obj, nnav_span prefix, int depth, nnav_error *err)
{
    nnav_jiter it;
    nnav_jval k, v;
    int r;
    nnav_json_iter(&it, j, obj, parent);
    while ((r = nnav_json_next(&it, &k, &v, err)) == 1 && rd->config.n < ST_MAX_CONFIG) {
        nnav_span key;
        if (config_key(rd, prefix, &k, &key) < 0)
            return oom(err);
        if (v.kind == NNAV_JSON_OBJECT) {
            if (depth < 2 && config_walk(rd, j, &it, &v, key, depth + 1, err) < 0)
                return -1;
            continue;
        }
        if (v.kind == NNAV_JSON_ARRAY) {
            if (config_array(rd, j, &it, key, &v, err) < 0)
                return err->msg[0] ? -1 : oom(err);
            if (!depth && nnav_json_eq(&k, "architectures") && v.count) {
                nnav_jiter ai;
                nnav_jval a;
                nnav_json_iter(&ai, j, &v, &it);
                if (nnav_json_next(&ai, NULL, &a, err) == 1 && a.kind == NNAV_JSON_STRING &&
                    st_text(rd, &a, &rd->arch) < 0)
                    return oom(err);
            }
            continue;
        }
        if (config_add(rd, key, &v) < 0)
            return oom(err);
    }
    return r < 0 ? -1 : 0;
}

static void read_config(nnav_model *m, st_rd *rd)
{
    nnav_error e;
    memset(&e, 0, sizeof e);
    int via = 0;
    static const char name[] = "config.json";
    nnav_span nm = {(const uint8_t *)name, sizeof name - 1};
    /* Not there: nothing to say (most single files have none beside them). */
    char *p = malloc(strlen(m->dir) + sizeof name + 1);
    struct stat st;
    int there = p && (sprintf(p, "%s/%s", m->dir, name), lstat(p, &st) == 0);
    free(p);
    if (!there)
        return;
    int fd = nnav_side_open(m, nm, "config", &via, &e);
    if (fd >= 0) {
        int r = nnav_map_fd(fd, name, &rd->cfg, &e);
        close(fd);
        if (r == 0 && rd->cfg.size > ST_MAX_HEADER) {
            snprintf(e.msg, sizeof e.msg, "it is over %d bytes", ST_MAX_HEADER);
            fd = -1;
        } else if (r == 0) {
            nnav_json j = {.base = rd->cfg.base, .max_depth = 0};
            nnav_jval root;
            nnav_span all = {rd->cfg.base, rd->cfg.size};
            if (nnav_json_parse(&j, all, &root, &e) == 0 && root.kind != NNAV_JSON_OBJECT) {
                snprintf(e.msg, sizeof e.msg, "it is %s, not an object",
                         nnav_json_kind_name(root.kind));
                e.has_offset = 1, e.offset = root.off;
                fd = -1;
            } else if (e.msg[0] || config_walk(rd, &j, NULL, &root, (nnav_span){0}, 0, &e) < 0) {
                fd = -1;
            }
        } else {
            fd = -1;
        }
    }
    if (fd < 0) {
        rd->config.n = 0;
        rd->arch = (nnav_span){0};
        if (e.has_offset)
            snprintf(rd->cfg_note, sizeof rd->cfg_note, "not read: %s (offset %llu%s%s)", e.msg,
                     (unsigned long long)e.offset, e.path[0] ? ", " : "", e.path);
        else
            snprintf(rd->cfg_note, sizeof rd->cfg_note, "not read: %s", e.msg);
    }
}

static int st_sniff_any(const uint8_t *p, uint64_t n, const char *path, char *reason, size_t rn)
{
    return st_sniff(p, n, path, reason, rn) || index_sniff(p, n, reason, rn);
}

static int st_index(nnav_model *m, const nnav_open_opts *o, nnav_error *err)
{
    (void)o;
    st_rd *rd = calloc(1, sizeof *rd);
    if (!rd)
        return oom(err);
    m->rd = rd;
    rd->cfg.slot = -1;
    nnav_graph *g = nnav_vec_push(m->graphs);
    nnav_span *gs = g ? nnav_vec_push(m->gspan) : NULL;
    if (!gs)
        return oom(err);
    memset(g, 0, sizeof *g);
    g->kind = NNAV_GRAPH_MAIN;
    g->parent = g->owner_node = g->owner_attr = g->list_index = NNAV_NONE;
    g->function = g->training = NNAV_NONE;
    g->offset = 0;
    *gs = (nnav_span){m->map.base, m->map.size};
    char r0[8];
    if (!st_sniff(m->map.base, m->map.size, m->path, r0, sizeof r0) &&
        index_sniff(m->map.base, m->map.size, r0, sizeof r0)) {
        if (read_index(m, rd, err) < 0)
            return -1;
    } else {
        st_shard *sh = nnav_vec_push(rd->shards);
        if (!sh)
            return oom(err);
        memset(sh, 0, sizeof *sh);
        sh->map = m->map; /* borrowed: the model closes it */
        sh->map.slot = -1;
        if (read_shard(m, rd, 0, err) < 0)
            return -1;
        g = &m->graphs.v[0];
        g->offset = 8;
        m->gspan.v[0] = (nnav_span){m->map.base + 8, rd->shards.v[0].header_len};
    }
    uint32_t *ord = NULL;
    if (check_names(m, rd, &ord, err) < 0)
        return -1;
    if (rd->is_index && check_weight_map(m, rd, ord, err) < 0) {
        free(ord);
        return -1;
    }
    free(ord);
    if (rd->unmapped) {
        char a[300];
        nnav_text_escape(rd->unmapped_first.p,
                         rd->unmapped_first.n > 200 ? 200 : (size_t)rd->unmapped_first.n, a,
                         sizeof a);
        snprintf(rd->unmapped_text, sizeof rd->unmapped_text, "%u (the first '%s')", rd->unmapped,
                 a);
    }
    if (order_tensors(m, rd, err) < 0)
        return -1;
    read_config(m, rd);
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
    snprintf(rd->ctitle, sizeof rd->ctitle, "config.json (%u key%s)", rd->config.n,
             rd->config.n == 1 ? "" : "s");
    snprintf(rd->stitle, sizeof rd->stitle, "shards (%u)", rd->shards.n);
    return 0;
}

static void st_free(nnav_model *m)
{
    st_rd *rd = m->rd;
    if (!rd)
        return;
    for (uint32_t i = 0; i < rd->owned.n; i++)
        free(rd->owned.v[i]);
    for (uint32_t i = 0; i < rd->shards.n; i++)
        if (rd->shards.v[i].owned)
            nnav_map_close(&rd->shards.v[i].map);
    for (uint32_t i = 0; i < rd->strays.n; i++)
        free(rd->strays.v[i]);
    nnav_map_close(&rd->cfg);
    nnav_hashtab_free(&rd->shard_tab);
    nnav_vec_free(rd->owned);
    nnav_vec_free(rd->ti);
    nnav_vec_free(rd->meta);
    nnav_vec_free(rd->shards);
    nnav_vec_free(rd->wm);
    nnav_vec_free(rd->imeta);
    nnav_vec_free(rd->strays);
    nnav_vec_free(rd->config);
    free(rd);
    m->rd = NULL;
}

static int st_values(const nnav_model *m, uint32_t t, size_t want, int stats, nnav_values *out,
                     nnav_error *err)
{
    const st_rd *rd = m->rd;
    const nnav_tensor *tt = &m->tensors.v[t];
    const st_tinfo *ti = &rd->ti.v[t];
    const st_shard *sh = &rd->shards.v[ti->shard];
    nnav_acc a;
    memset(err, 0, sizeof *err);
    nnav_acc_init(&a, out, tt->dtype, tt->nelems, want, stats, nnav_dtype_components(tt->dtype));
    if (!nnav_dtype_valid(tt->dtype))
        return st_err(err, ti->off, NULL, "%s values are not decoded (no element type of nnav's "
                                          "is theirs)", st_types[ti->type].name);
    nnav_acc_raw(tt, tt->data, &a);
    if (nnav_map_truncated(sh->owned ? &sh->map : &m->map)) {
        char pre[340];
        return st_err(err, 0, NULL, "%sthe file shrank while its values were read",
                      sname(rd, ti->shard, pre, sizeof pre));
    }
    nnav_acc_end(&a);
    return 0;
}

static void st_storage_format(const nnav_model *m, uint32_t t, char *buf, size_t n)
{
    const st_rd *rd = m->rd;
    const st_tinfo *ti = &rd->ti.v[t];
    const st_shard *sh = &rd->shards.v[ti->shard];
    char where[300] = "";
    if (rd->is_index) {
        char e[260];
        nnav_text_escape(sh->name.p, sh->name.n > 200 ? 200 : (size_t)sh->name.n, e, sizeof e);
        snprintf(where, sizeof where, "%s%s, ", e, sh->via == NNAV_EXT_HF_BLOB ? " (HF blob)"
                                                   : sh->via == NNAV_EXT_LINK  ? " (link)"
                                                                               : "");
    }
    snprintf(buf, n, "%s%s, data bytes %llu..%llu (file offset %llu)", where,
             st_types[ti->type].name, (unsigned long long)ti->begin, (unsigned long long)ti->end,
             (unsigned long long)(sh->data_start + ti->begin));
}

static nnav_span st_module_class(const nnav_model *m, nnav_span path)
{
    const st_rd *rd = m->rd;
    return path.n == 0 ? rd->arch : (nnav_span){0};
}

/* Details: the header's size, where the data starts, the tensors of each
 * dtype (an index: its shards, their bytes, what it leaves out); then
 * __metadata__'s strings; then config.json's. */
enum { ST_HEADER_DETAILS = 3, ST_INDEX_DETAILS = 5 };

static uint32_t st_fixed(const st_rd *rd)
{
    return rd->is_index ? ST_INDEX_DETAILS + rd->imeta.n : ST_HEADER_DETAILS;
}

static uint32_t st_detail_count(const nnav_model *m)
{
    const st_rd *rd = m->rd;
    return st_fixed(rd) + rd->meta.n + (rd->cfg_note[0] ? 1 : rd->config.n);
}

static nnav_span lit(const char *s)
{
    return (nnav_span){(const uint8_t *)s, strlen(s)};
}

static int st_detail_get(const nnav_model *m, uint32_t i, nnav_detail *out)
{
    const st_rd *rd = m->rd;
    memset(out, 0, sizeof *out);
    if (i < st_fixed(rd)) {
        out->section = "safetensors";
        out->own = 1;
        out->kind = NNAV_DV_UINT;
        if (!rd->is_index) {
            if (i == 0) {
                out->key = lit("header_bytes");
                out->u = rd->shards.v[0].header_len;
            } else if (i == 1) {
                out->key = lit("data_start");
                out->u = rd->shards.v[0].data_start;
            } else {
                out->key = lit("dtypes");
                out->kind = NNAV_DV_TEXT;
                out->s = lit(rd->dtypes);
            }
            return 0;
        }
        if (i == 0) {
            out->key = lit("shards");
            out->u = rd->shards.n;
        } else if (i == 1) {
            out->key = lit("shard_bytes");
            out->u = rd->shard_bytes;
        } else if (i == 2) {
            out->key = lit("dtypes");
            out->kind = NNAV_DV_TEXT;
            out->s = lit(rd->dtypes);
        } else if (i == 3) {
            out->key = lit("tensors_not_in_index");
            if (rd->unmapped) {
                out->kind = NNAV_DV_TEXT;
                out->s = lit(rd->unmapped_text);
            }
        } else if (i == 4) {
            out->key = lit("shards_not_in_index");
            if (rd->strays.n) {
                out->kind = NNAV_DV_TEXT;
                out->s = lit(rd->stray_text);
            }
        } else {
            const st_kv *kv = &rd->imeta.v[i - ST_INDEX_DETAILS];
            out->section = "index_metadata";
            out->own = 0;
            out->kind = NNAV_DV_TEXT;
            out->key = kv->key;
            out->s = kv->value;
            out->offset = kv->off;
        }
        return 0;
    }
    i -= st_fixed(rd);
    if (i < rd->meta.n) {
        const st_kv *kv = &rd->meta.v[i];
        out->section = "metadata";
        out->title = rd->title;
        out->key = kv->key;
        out->kind = NNAV_DV_TEXT;
        out->s = kv->value;
        out->offset = kv->off;
        return 0;
    }
    i -= rd->meta.n;
    out->section = "config";
    out->kind = NNAV_DV_TEXT;
    if (rd->cfg_note[0]) {
        out->own = 1;
        out->key = lit("config.json");
        out->s = lit(rd->cfg_note);
        return 0;
    }
    const st_kv *kv = &rd->config.v[i];
    out->title = rd->ctitle;
    out->key = kv->key;
    out->s = kv->value;
    out->offset = kv->off;
    return 0;
}

/* A folder of weights (a Hugging Face repository's, or its snapshot): the
 * index model.safetensors.index.json, else the one *.safetensors.index.json
 * in it, else model.safetensors, else its one *.safetensors file. */
static int st_folder(int dirfd, char *name, size_t n)
{
    static const char *const first[] = {"model.safetensors.index.json", "model.safetensors"};
    static const char *const ends[] = {".safetensors.index.json", ".safetensors"};
    struct stat st;
    for (int k = 0; k < 2; k++) {
        if (fstatat(dirfd, first[k], &st, 0) == 0 && S_ISREG(st.st_mode)) {
            snprintf(name, n, "%s", first[k]);
            return 1;
        }
        int fd = dup(dirfd);
        DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
        if (!d) {
            if (fd >= 0)
                close(fd);
            continue;
        }
        rewinddir(d);
        struct dirent *de;
        unsigned found = 0, seen = 0;
        size_t el = strlen(ends[k]);
        while ((de = readdir(d)) && seen++ < 100000) {
            size_t l = strlen(de->d_name);
            if (l <= el || strcmp(de->d_name + l - el, ends[k]) || de->d_name[0] == '.' ||
                fstatat(dirfd, de->d_name, &st, 0) != 0 || !S_ISREG(st.st_mode))
                continue;
            if (!found++)
                snprintf(name, n, "%s", de->d_name);
        }
        closedir(d);
        if (found == 1 && strlen(name) < n - 1)
            return 1;
        if (found > 1)
            return 0; /* several: no one model (the folder's listing names them) */
    }
    return 0;
}

const nnav_reader nnav_reader_safetensors = {
    .name = "safetensors",
    .folder = st_folder,
    .exts = "safetensors",
    .formats = 1u << NNAV_FMT_OTHER,
    .reads = ".safetensors, sharded folders",
    .suffix = ".safetensors",
    .sniff = st_sniff_any,
    .index = st_index,
    .free = st_free,
    .tensor_values = st_values,
    .storage_format = st_storage_format,
    .module_class = st_module_class,
    .detail_count = st_detail_count,
    .detail_get = st_detail_get,
};
