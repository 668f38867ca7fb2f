#include "yamlout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dtype.h"
#include "utf8.h"

static void emit(nnav_yw *w, yaml_event_t *ev, int ok)
{
    if (!ok || w->failed) {
        if (ok)
            yaml_event_delete(ev);
        w->failed = 1;
        return;
    }
    if (!yaml_emitter_emit(&w->em, ev))
        w->failed = 1;
}

int nnav_yw_open(nnav_yw *w, FILE *out)
{
    yaml_event_t ev;
    memset(w, 0, sizeof *w);
    if (!yaml_emitter_initialize(&w->em))
        return -1;
    yaml_emitter_set_output_file(&w->em, out);
    /* To a terminal, everything past ASCII is escaped (\uXXXX): libyaml
     * counts bidi overrides as printable, and they would reorder what the
     * user sees. Files and pipes get plain UTF-8; both read back the same. */
    yaml_emitter_set_unicode(&w->em, !isatty(fileno(out)));
    yaml_emitter_set_width(&w->em, 120);
    emit(w, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING));
    emit(w, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1));
    return w->failed ? -1 : 0;
}

int nnav_yw_close(nnav_yw *w)
{
    yaml_event_t ev;
    emit(w, &ev, yaml_document_end_event_initialize(&ev, 1));
    emit(w, &ev, yaml_stream_end_event_initialize(&ev));
    if (!w->failed && !yaml_emitter_flush(&w->em))
        w->failed = 1;
    yaml_emitter_delete(&w->em);
    return w->failed ? -1 : 0;
}

void nnav_yw_map(nnav_yw *w)
{
    yaml_event_t ev;
    emit(w, &ev, yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE));
}
void nnav_yw_map_flow(nnav_yw *w)
{
    yaml_event_t ev;
    emit(w, &ev, yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_FLOW_MAPPING_STYLE));
}
void nnav_yw_map_end(nnav_yw *w)
{
    yaml_event_t ev;
    emit(w, &ev, yaml_mapping_end_event_initialize(&ev));
}
void nnav_yw_seq(nnav_yw *w)
{
    yaml_event_t ev;
    emit(w, &ev, yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE));
}
void nnav_yw_seq_flow(nnav_yw *w)
{
    yaml_event_t ev;
    emit(w, &ev, yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_FLOW_SEQUENCE_STYLE));
}
void nnav_yw_seq_end(nnav_yw *w)
{
    yaml_event_t ev;
    emit(w, &ev, yaml_sequence_end_event_initialize(&ev));
}

/* The implicit flags say when the tag may be left out: an untagged scalar
 * is a string whenever libyaml quotes it (so no stray "!" is written), and a
 * tagged one (!!binary) always shows its tag, or it would read back as text. */
static void scalar(nnav_yw *w, const char *tag, const uint8_t *p, size_t n, int plain_ok,
                   yaml_scalar_style_t style)
{
    yaml_event_t ev;
    emit(w, &ev, yaml_scalar_event_initialize(&ev, NULL, (yaml_char_t *)tag,
                                              (yaml_char_t *)(p ? p : (const uint8_t *)""),
                                              (int)n, tag ? 0 : plain_ok, tag ? 0 : 1, style));
}

void nnav_yw_key(nnav_yw *w, const char *k)
{
    scalar(w, NULL, (const uint8_t *)k, strlen(k), 1, YAML_PLAIN_SCALAR_STYLE);
}

void nnav_yw_span(nnav_yw *w, nnav_span s)
{
    if (s.n > INT32_MAX) {
        w->failed = 1;
        return;
    }
    /* What libyaml's emitter accepts: strict UTF-8 (utf8.h). */
    if (!nnav_utf8_valid(s.p, s.n)) {
        nnav_yw_binary(w, s.p, s.n);
        return;
    }
    /* Plain when libyaml finds it safe; it quotes and escapes otherwise. A
     * string that would read back as another type is quoted explicitly. */
    int plain = 1;
    static const char *typed[] = {"null", "Null", "NULL", "~", "true", "True", "TRUE",
                                  "false", "False", "FALSE", "yes", "Yes", "YES", "no",
                                  "No", "NO", "on", "On", "ON", "off", "Off", "OFF",
                                  "y", "Y", "n", "N", ".nan", ".NaN", ".NAN", ".inf",
                                  "-.inf", "+.inf", ".Inf", "-.Inf", "+.Inf", ".INF", "-.INF", "+.INF",
                                  "=", "<<"}; /* "<<" is YAML 1.1's merge key: PyYAML fails on it */
    for (size_t i = 0; i < sizeof typed / sizeof *typed; i++)
        if (nnav_span_eqs(s, typed[i]))
            plain = 0;
    if (s.n == 0)
        plain = 0;
    else {
        /* numbers, octal-ish, sexagesimal, dates: anything starting with a digit or sign */
        uint8_t c = s.p[0];
        if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.')
            plain = 0;
    }
    scalar(w, NULL, s.p, (size_t)s.n, plain,
           plain ? YAML_ANY_SCALAR_STYLE : YAML_DOUBLE_QUOTED_SCALAR_STYLE);
}

void nnav_yw_cstr(nnav_yw *w, const char *s)
{
    nnav_yw_span(w, (nnav_span){(const uint8_t *)s, strlen(s)});
}

void nnav_yw_int(nnav_yw *w, int64_t v)
{
    char b[32];
    int n = snprintf(b, sizeof b, "%lld", (long long)v);
    scalar(w, NULL, (const uint8_t *)b, (size_t)n, 1, YAML_PLAIN_SCALAR_STYLE);
}

void nnav_yw_uint(nnav_yw *w, uint64_t v)
{
    char b[32];
    int n = snprintf(b, sizeof b, "%llu", (unsigned long long)v);
    scalar(w, NULL, (const uint8_t *)b, (size_t)n, 1, YAML_PLAIN_SCALAR_STYLE);
}

void nnav_yw_double(nnav_yw *w, double v)
{
    char b[64];
    int n;
    if (isnan(v))
        n = snprintf(b, sizeof b, ".nan");
    else if (isinf(v))
        n = snprintf(b, sizeof b, v < 0 ? "-.inf" : ".inf");
    else {
        n = snprintf(b, sizeof b, "%.17g", v);
        for (int prec = 6; prec <= 17; prec++) {
            n = snprintf(b, sizeof b, "%.*g", prec, v);
            if (strtod(b, NULL) == v)
                break;
        }
        /* Keep it a float for YAML 1.1 loaders too, whose float has a dot
         * in the mantissa and a signed exponent: 1 -> 1.0, 1e-310 ->
         * 1.0e-310, 1e+20 -> 1.0e+20 (printf always signs the exponent). */
        char *e = strpbrk(b, "eE");
        if (!memchr(b, '.', e ? (size_t)(e - b) : (size_t)n) && n + 2 < (int)sizeof b) {
            size_t at = e ? (size_t)(e - b) : (size_t)n;
            memmove(b + at + 2, b + at, (size_t)n - at + 1);
            b[at] = '.';
            b[at + 1] = '0';
            n += 2;
        }
    }
    scalar(w, NULL, (const uint8_t *)b, (size_t)n, 1, YAML_PLAIN_SCALAR_STYLE);
}

void nnav_yw_bool(nnav_yw *w, int v)
{
    scalar(w, NULL, (const uint8_t *)(v ? "true" : "false"), v ? 4 : 5, 1,
           YAML_PLAIN_SCALAR_STYLE);
}

void nnav_yw_null(nnav_yw *w)
{
    scalar(w, NULL, (const uint8_t *)"null", 4, 1, YAML_PLAIN_SCALAR_STYLE);
}

void nnav_yw_binary(nnav_yw *w, const uint8_t *p, uint64_t n)
{
    static const char tb[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    if (n > (uint64_t)INT32_MAX / 2) {
        w->failed = 1;
        return;
    }
    size_t out = (size_t)((n + 2) / 3 * 4);
    char *b = malloc(out + 1);
    if (!b) {
        w->failed = 1;
        return;
    }
    size_t o = 0;
    for (uint64_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < n)
            v |= p[i + 2];
        b[o++] = tb[(v >> 18) & 63];
        b[o++] = tb[(v >> 12) & 63];
        b[o++] = i + 1 < n ? tb[(v >> 6) & 63] : '=';
        b[o++] = i + 2 < n ? tb[v & 63] : '=';
    }
    b[o] = 0;
    scalar(w, "tag:yaml.org,2002:binary", (const uint8_t *)b, o, 0, YAML_ANY_SCALAR_STYLE);
    free(b);
}

void nnav_yw_values(nnav_yw *w, const nnav_values *v, int is_string)
{
    nnav_yw_seq_flow(w);
    for (size_t i = 0; i < v->count; i++) {
        if (is_string)
            nnav_yw_span(w, v->s ? v->s[i] : (nnav_span){0});
        else if (v->is_int && v->i)
            v->is_unsigned ? nnav_yw_uint(w, (uint64_t)v->i[i]) : nnav_yw_int(w, v->i[i]);
        else
            nnav_yw_double(w, v->v ? v->v[i] : 0);
    }
    nnav_yw_seq_end(w);
}

/* The elements, data_type and values keys of one tensor's values. */
static void values_keys(nnav_yw *w, int32_t dtype, uint64_t total, const nnav_values *v, int ok,
                        const nnav_error *err)
{
    nnav_yw_key(w, "elements"), nnav_yw_uint(w, total);
    if (!ok) {
        nnav_yw_key(w, "values_error"), nnav_yw_cstr(w, err->msg);
        return;
    }
    nnav_yw_key(w, "values");
    nnav_yw_values(w, v, dtype == NNAV_DT_STRING);
}

typedef struct vbufs {
    double *v;
    int64_t *i;
    nnav_span *s;
} vbufs;

static int vbufs_get(vbufs *b, size_t want, nnav_values *v)
{
    b->v = calloc(want + 1, sizeof *b->v);
    b->i = calloc(want + 1, sizeof *b->i);
    b->s = calloc(want + 1, sizeof *b->s);
    memset(v, 0, sizeof *v);
    v->v = b->v, v->i = b->i, v->s = b->s;
    return b->v && b->i && b->s ? 0 : -1;
}

static void vbufs_free(vbufs *b)
{
    free(b->v);
    free(b->i);
    free(b->s);
}

void nnav_yw_tensor_brief(nnav_yw *w, const nnav_model *m, uint32_t t, size_t max_values)
{
    const nnav_tensor *tt = nnav_tensor_get(m, t);
    const int64_t *d = nnav_dims(m, tt->dims_first);
    nnav_values v;
    nnav_error err;
    vbufs b;
    nnav_yw_map(w);
    nnav_yw_key(w, "name"), nnav_yw_span(w, tt->name);
    nnav_yw_key(w, "data_type"), nnav_yw_cstr(w, nnav_dtype_onnx_name(tt->dtype));
    nnav_yw_key(w, "dims");
    nnav_yw_seq_flow(w);
    for (uint32_t i = 0; i < tt->ndims; i++)
        nnav_yw_int(w, d[i]);
    nnav_yw_seq_end(w);
    size_t want = max_values * nnav_dtype_components(tt->dtype);
    int ok = vbufs_get(&b, want, &v) == 0 && nnav_tensor_values(m, t, want, 0, &v, &err) == 0;
    if (!b.v || !b.i || !b.s)
        snprintf(err.msg, sizeof err.msg, "out of memory");
    values_keys(w, tt->dtype, v.total, &v, ok, &err);
    vbufs_free(&b);
    nnav_yw_map_end(w);
}

/* A TensorProto the index does not hold, as nnav_yw_tensor_brief writes one. */
static void loose_tensor(nnav_yw *w, const nnav_model *m, nnav_span msg, size_t max_values)
{
    int64_t dims[64];
    size_t nd = 0;
    int32_t dt = 0;
    nnav_values v;
    nnav_error err;
    vbufs b;
    size_t want = max_values * 2; /* complex types give two numbers an element */
    int ok = vbufs_get(&b, want, &v) == 0 &&
             nnav_tensorproto_values(m, msg, &dt, dims, 64, &nd, want, &v, &err) == 0;
    if (!b.v || !b.i || !b.s)
        snprintf(err.msg, sizeof err.msg, "out of memory");
    nnav_yw_map(w);
    nnav_yw_key(w, "data_type"), nnav_yw_cstr(w, nnav_dtype_onnx_name(dt));
    nnav_yw_key(w, "dims");
    nnav_yw_seq_flow(w);
    for (size_t i = 0; i < nd && i < 64; i++)
        nnav_yw_int(w, dims[i]);
    nnav_yw_seq_end(w);
    if (v.count > max_values * nnav_dtype_components(dt))
        v.count = max_values * nnav_dtype_components(dt);
    values_keys(w, dt, v.total, &v, ok, &err);
    vbufs_free(&b);
    nnav_yw_map_end(w);
}

void nnav_yw_attr_sparse(nnav_yw *w, const nnav_model *m, uint32_t a, size_t k,
                         size_t max_values)
{
    int64_t dims[64];
    size_t nd = 0, total = 0;
    nnav_span vals, idx;
    nnav_error err;
    nnav_yw_map(w);
    if (nnav_attr_sparse(m, a, k, dims, 64, &nd, &vals, &idx, &total, &err) < 0) {
        nnav_yw_key(w, "error"), nnav_yw_cstr(w, err.msg);
        nnav_yw_map_end(w);
        return;
    }
    nnav_yw_key(w, "dims");
    nnav_yw_seq_flow(w);
    for (size_t i = 0; i < nd && i < 64; i++)
        nnav_yw_int(w, dims[i]);
    nnav_yw_seq_end(w);
    if (vals.p)
        nnav_yw_key(w, "values"), loose_tensor(w, m, vals, max_values);
    if (idx.p)
        nnav_yw_key(w, "indices"), loose_tensor(w, m, idx, max_values);
    nnav_yw_map_end(w);
}
