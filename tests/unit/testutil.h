/* testutil.h - what the core's unit tests share: where the samples and the
 * scratch folder are, writing and opening model files, a tiny protobuf writer
 * for hand-made (and deliberately broken) messages, and the sample
 * generator's LCG so expected weights are computed, not copied from the code
 * under test.
 *
 * Every helper is static and marked unused: each test program takes what it
 * needs. Include after <cmocka.h>'s prerequisites, like any cmocka test. */
#ifndef NNAV_TESTUTIL_H
#define NNAV_TESTUTIL_H

/* nftw() and friends; must come before the first system header. */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <ftw.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nnav.h"

#define TU_UNUSED __attribute__((unused)) static

/* ---- environment ---- */

/* A file of the bundled samples (NNAV_SAMPLES). */
TU_UNUSED const char *tu_sample(const char *name)
{
    static char buf[4][4096];
    static int next;
    const char *dir = getenv("NNAV_SAMPLES");
    if (!dir || !dir[0])
        fail_msg("NNAV_SAMPLES is not set: run the tests through ctest");
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], "%s/%s", dir, name);
    return b;
}

/* A file of the shared corpus, or NULL (after a visible SKIP line) when the
 * corpus is absent; the caller then calls skip(). */
TU_UNUSED const char *tu_corpus(const char *name)
{
    static char buf[4][4096];
    static int next;
    struct stat st;
    const char *dir = getenv("NNAV_CORPUS");
    if (!dir || !dir[0] || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        printf("SKIP: corpus absent (NNAV_CORPUS=%s)\n", dir ? dir : "(unset)");
        return NULL;
    }
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], "%s/%s", dir, name);
    return b;
}

static int tu_rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st, (void)flag, (void)ftw;
    return remove(p) == 0 || errno == ENOENT ? 0 : -1;
}

/* A fresh, empty folder NNAV_TMP/sub (what a previous run left is removed,
 * without following symbolic links). Returns a static buffer. */
TU_UNUSED const char *tu_tmpdir(const char *sub)
{
    static char buf[4][4096];
    static int next;
    const char *dir = getenv("NNAV_TMP");
    if (!dir || !dir[0])
        fail_msg("NNAV_TMP is not set: run the tests through ctest");
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], "%s/%s", dir, sub);
    nftw(b, tu_rm_one, 16, FTW_DEPTH | FTW_PHYS);
    if (mkdir(b, 0755) != 0)
        fail_msg("cannot create %s: %s", b, strerror(errno));
    return b;
}

/* dir + "/" + name into a static buffer (a few in rotation). */
TU_UNUSED const char *tu_join(const char *dir, const char *name)
{
    static char buf[8][4096];
    static int next;
    char *b = buf[next++ % 8];
    snprintf(b, sizeof buf[0], "%s/%s", dir, name);
    return b;
}

TU_UNUSED void tu_write(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot create %s: %s", path, strerror(errno));
    if (n && fwrite(p, 1, n, f) != n)
        fail_msg("cannot write %s", path);
    if (fclose(f) != 0)
        fail_msg("cannot write %s", path);
}

/* The whole file, malloc'd; *n gets its size. */
TU_UNUSED uint8_t *tu_read(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("cannot open %s: %s", path, strerror(errno));
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(len > 0 ? (size_t)len : 1);
    assert_non_null(p);
    if (len > 0 && fread(p, 1, (size_t)len, f) != (size_t)len)
        fail_msg("cannot read %s", path);
    fclose(f);
    *n = (size_t)len;
    return p;
}

/* ---- opening ---- */

TU_UNUSED nnav_model *tu_open(const char *path)
{
    nnav_model *m = NULL;
    nnav_error err;
    if (nnav_model_open(path, NULL, &m, &err) != 0) {
        char line[2048];
        nnav_error_format(&err, path, line, sizeof line);
        fail_msg("open failed: %s", line);
    }
    assert_non_null(m);
    return m;
}

/* Expect the open to fail cleanly: status 2, no model, a message. */
TU_UNUSED void tu_open_fails(const char *path, const nnav_open_opts *o, nnav_error *err)
{
    nnav_model *m = (nnav_model *)1;
    int r = nnav_model_open(path, o, &m, err);
    if (r == 0) {
        nnav_model_close(m);
        fail_msg("%s opened, but should have been refused", path);
    }
    assert_int_equal(r, -1);
    assert_null(m);
    assert_int_equal(err->kind, NNAV_ERR_INPUT);
    assert_true(err->msg[0] != 0);
}

/* Assert that s contains phrase, showing s when it does not. */
#define tu_assert_contains(s, phrase)                                                 \
    do {                                                                              \
        const char *s_ = (s), *ph_ = (phrase);                                        \
        if (!strstr(s_, ph_))                                                         \
            fail_msg("\"%s\" does not contain \"%s\"", s_, ph_);                      \
    } while (0)

TU_UNUSED int tu_span_is(nnav_span s, const char *c)
{
    return nnav_span_eqs(s, c);
}

#define tu_assert_span(s, c)                                                          \
    do {                                                                              \
        nnav_span sp_ = (s);                                                          \
        const char *c_ = (c);                                                         \
        if (!nnav_span_eqs(sp_, c_))                                                  \
            fail_msg("span \"%.*s\" != \"%s\"", (int)sp_.n, (const char *)sp_.p, c_); \
    } while (0)

TU_UNUSED uint32_t tu_graph(const nnav_model *m, const char *path)
{
    uint32_t g = nnav_graph_by_path(m, path);
    if (g == NNAV_NONE)
        fail_msg("no graph at path %s", path);
    return g;
}

TU_UNUSED uint32_t tu_node(const nnav_model *m, uint32_t graph, const char *name)
{
    uint32_t n = nnav_node_by_name(m, graph, name, strlen(name));
    if (n == NNAV_NONE)
        fail_msg("no node %s in graph %u", name, graph);
    return n;
}

/* An initializer (or any tensor) by name, anywhere in the model. */
TU_UNUSED uint32_t tu_tensor(const nnav_model *m, const char *name)
{
    for (uint32_t t = 0; t < nnav_tensor_count(m); t++)
        if (nnav_span_eqs(nnav_tensor_get(m, t)->name, name))
            return t;
    fail_msg("no tensor %s", name);
    return NNAV_NONE;
}

/* ---- a protobuf writer for hand-made messages ----
 * Messages are built inside out: fill the inner one, then append it to the
 * outer one as a LEN field. Every byte is known, so offsets can be asserted. */

typedef struct tu_pb {
    uint8_t *p;
    size_t n, cap;
} tu_pb;

TU_UNUSED void tu_pb_raw(tu_pb *b, const void *p, size_t n)
{
    if (b->n + n > b->cap) {
        size_t c = b->cap ? b->cap : 64;
        while (c < b->n + n)
            c *= 2;
        b->p = realloc(b->p, c);
        assert_non_null(b->p);
        b->cap = c;
    }
    if (n)
        memcpy(b->p + b->n, p, n);
    b->n += n;
}

TU_UNUSED void tu_pb_varint(tu_pb *b, uint64_t v)
{
    uint8_t t[10];
    size_t k = 0;
    do {
        t[k] = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (v)
            t[k] |= 0x80;
        k++;
    } while (v);
    tu_pb_raw(b, t, k);
}

TU_UNUSED void tu_pb_tag(tu_pb *b, uint32_t num, unsigned wt)
{
    tu_pb_varint(b, ((uint64_t)num << 3) | wt);
}

/* VARINT field. */
TU_UNUSED void tu_pb_int(tu_pb *b, uint32_t num, uint64_t v)
{
    tu_pb_tag(b, num, 0);
    tu_pb_varint(b, v);
}

/* LEN field with the given payload. */
TU_UNUSED void tu_pb_bytes(tu_pb *b, uint32_t num, const void *p, size_t n)
{
    tu_pb_tag(b, num, 2);
    tu_pb_varint(b, n);
    tu_pb_raw(b, p, n);
}

TU_UNUSED void tu_pb_str(tu_pb *b, uint32_t num, const char *s)
{
    tu_pb_bytes(b, num, s, strlen(s));
}

/* Append inner as a LEN field, then free inner. */
TU_UNUSED void tu_pb_msg(tu_pb *b, uint32_t num, tu_pb *inner)
{
    tu_pb_bytes(b, num, inner->p, inner->n);
    free(inner->p);
    memset(inner, 0, sizeof *inner);
}

TU_UNUSED void tu_pb_f32(tu_pb *b, uint32_t num, float f)
{
    uint32_t x;
    memcpy(&x, &f, 4);
    uint8_t le[4] = {(uint8_t)x, (uint8_t)(x >> 8), (uint8_t)(x >> 16), (uint8_t)(x >> 24)};
    tu_pb_tag(b, num, 5);
    tu_pb_raw(b, le, 4);
}

TU_UNUSED void tu_pb_free(tu_pb *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

/* A minimal ModelProto around a GraphProto: ir_version 8, opset 17. */
TU_UNUSED void tu_pb_model(tu_pb *model, tu_pb *graph)
{
    tu_pb op = {0};
    tu_pb_int(model, 1, 8); /* ir_version */
    tu_pb_str(&op, 1, "");
    tu_pb_int(&op, 2, 17);
    tu_pb_msg(model, 8, &op);
    tu_pb_msg(model, 7, graph);
}

/* A NodeProto: op, name, comma-separated inputs and outputs ("" allowed). */
TU_UNUSED void tu_pb_node(tu_pb *node, const char *name, const char *op, const char *ins,
                          const char *outs)
{
    for (int k = 0; k < 2; k++) {
        const char *csv = k ? outs : ins;
        if (!csv)
            continue;
        for (const char *p = csv;;) {
            const char *c = strchr(p, ',');
            size_t len = c ? (size_t)(c - p) : strlen(p);
            tu_pb_bytes(node, k ? 2 : 1, p, len);
            if (!c)
                break;
            p = c + 1;
        }
    }
    if (name)
        tu_pb_str(node, 3, name);
    tu_pb_str(node, 4, op);
}

/* ValueInfoProto with a name and a float tensor type of unknown shape. */
TU_UNUSED void tu_pb_vinfo(tu_pb *graph, uint32_t field, const char *name)
{
    tu_pb vi = {0}, tp = {0}, tt = {0};
    tu_pb_int(&tt, 1, 1); /* elem_type FLOAT */
    tu_pb_msg(&tp, 1, &tt);
    tu_pb_str(&vi, 1, name);
    tu_pb_msg(&vi, 2, &tp);
    tu_pb_msg(graph, field, &vi);
}

/* ---- the sample generator's numbers ---- */

/* Numerical Recipes' LCG seeded with FNV-1a of the tensor name, exactly as
 * samples/gen_samples.c draws its weights. */
typedef struct tu_lcg {
    uint32_t s;
} tu_lcg;

TU_UNUSED tu_lcg tu_lcg_for(const char *name)
{
    uint32_t h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        h = (h ^ *p) * 16777619u;
    tu_lcg g = {h};
    return g;
}

TU_UNUSED float tu_lcg_next(tu_lcg *g, float lo, float hi)
{
    g->s = g->s * 1664525u + 1013904223u;
    float u = (float)(g->s >> 8) * (1.0f / 16777216.0f);
    return lo + (hi - lo) * u;
}

/* IEEE half to double, written from the format definition. */
TU_UNUSED double tu_half(uint16_t h)
{
    int sign = h >> 15, e = (h >> 10) & 0x1f, f = h & 0x3ff;
    double v;
    if (e == 0)
        v = f / 1024.0 / 16384.0; /* f * 2^-24 */
    else if (e == 31)
        v = f ? NAN : INFINITY;
    else {
        v = 1.0 + f / 1024.0;
        for (int i = 15; i < e; i++)
            v *= 2;
        for (int i = e; i < 15; i++)
            v /= 2;
    }
    return sign ? -v : v;
}

#endif
