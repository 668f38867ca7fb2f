/* test_wire.c - the bounds-checked protobuf wire reader on hand-written bytes.
 *
 * Every input lives in a heap buffer of exactly its own size, so under
 * AddressSanitizer a read one byte past the span is a reported overflow, not
 * a silent peek at whatever follows. Offsets in errors are asserted to the
 * byte: they are what a user is told to look at. */
#include "testutil.h"

#include "wire.h"

/* An exactly sized heap copy of the bytes; release with free(). */
static uint8_t *heap(const void *bytes, size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    assert_non_null(p);
    if (n)
        memcpy(p, bytes, n);
    return p;
}

/* One varint read from an exact buffer: rc, value and bytes consumed. */
static int varint(const void *bytes, size_t n, uint64_t *v, size_t *used)
{
    uint8_t *p = heap(bytes, n);
    const uint8_t *q = p;
    *v = 0xDEADBEEF;
    int r = nnav_wire_varint(&q, p + n, v);
    *used = (size_t)(q - p);
    free(p);
    return r;
}

/* The first error nnav_wire_next reports over bytes (a whole message), after
 * `ok` good fields. Fails the test when the reader accepts it. */
static void expect_error(const void *bytes, size_t n, int ok, uint64_t off, const char *phrase)
{
    uint8_t *p = heap(bytes, n);
    nnav_wire w;
    nnav_field f;
    nnav_error err;
    memset(&err, 0, sizeof err);
    nnav_wire_init(&w, p, (nnav_span){p, n});
    int good = 0, r;
    while ((r = nnav_wire_next(&w, &f, &err)) == 1)
        good++;
    free(p);
    if (r != -1)
        fail_msg("reader returned %d after %d fields; expected an error (%s)", r, good, phrase);
    assert_int_equal(good, ok);
    assert_int_equal(err.has_offset, 1);
    assert_int_equal(err.kind, NNAV_ERR_INPUT);
    if (err.offset != off)
        fail_msg("error \"%s\" at offset %llu, expected %llu", err.msg,
                 (unsigned long long)err.offset, (unsigned long long)off);
    tu_assert_contains(err.msg, phrase);
}

/* ---- varints ---- */

static void test_varint_values(void **state)
{
    (void)state;
    static const struct {
        uint8_t b[10];
        size_t n;
        uint64_t v;
    } cases[] = {
        {{0x00}, 1, 0},
        {{0x01}, 1, 1},
        {{0x7f}, 1, 127},
        {{0x80, 0x01}, 2, 128},
        {{0xac, 0x02}, 2, 300},
        {{0x96, 0x01}, 2, 150},
        {{0xff, 0xff, 0xff, 0xff, 0x0f}, 5, 0xffffffffu},
        /* Non-canonical padding is still valid protobuf. */
        {{0x80, 0x80, 0x00}, 3, 0},
        {{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}, 10, 0},
        /* The tenth byte may carry bit 63 and nothing else. */
        {{0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01}, 10, 1ull << 63},
        {{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 10, UINT64_MAX},
        /* -1 as int64 is ten bytes on the wire. */
        {{0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 10, UINT64_MAX - 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        uint64_t v;
        size_t used;
        assert_int_equal(varint(cases[i].b, cases[i].n, &v, &used), 0);
        assert_int_equal(used, cases[i].n);
        if (v != cases[i].v)
            fail_msg("case %zu: %llu, want %llu", i, (unsigned long long)v,
                     (unsigned long long)cases[i].v);
    }
    /* A varint followed by more bytes stops after its own. */
    uint64_t v;
    size_t used;
    assert_int_equal(varint("\xac\x02\x05", 3, &v, &used), 0);
    assert_int_equal(used, 2);
    assert_int_equal(v, 300);
}

static void test_varint_truncated(void **state)
{
    (void)state;
    uint64_t v;
    size_t used;
    /* Nothing at all, one continuation byte, nine of them. */
    assert_int_equal(varint("", 0, &v, &used), -1);
    assert_int_equal(used, 0);
    assert_int_equal(varint("\x80", 1, &v, &used), -1);
    assert_int_equal(used, 0); /* the cursor does not move on failure */
    assert_int_equal(v, 0xDEADBEEF);
    assert_int_equal(varint("\xff\xff", 2, &v, &used), -1);
    assert_int_equal(varint("\x80\x80\x80\x80\x80\x80\x80\x80\x80", 9, &v, &used), -1);
    assert_int_equal(used, 0);
}

static void test_varint_too_long(void **state)
{
    (void)state;
    uint64_t v;
    size_t used;
    /* Eleven bytes: ten continuations then a stop. */
    assert_int_equal(
        varint("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11, &v, &used), -2);
    assert_int_equal(used, 0);
    /* Tenth byte 0x02: bit 64 does not exist. */
    assert_int_equal(varint("\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 10, &v, &used), -2);
    assert_int_equal(varint("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x7f", 10, &v, &used), -2);
    /* Tenth byte with its continuation bit: longer than ten bytes. */
    assert_int_equal(varint("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x81\x00", 11, &v, &used), -2);
    /* ...even when the span ends right there. */
    assert_int_equal(varint("\x80\x80\x80\x80\x80\x80\x80\x80\x80\x80", 10, &v, &used), -2);
}

/* ---- fields ---- */

static void test_next_every_wire_type(void **state)
{
    (void)state;
    /* Five junk bytes first: base is the buffer, the span starts at 5, so every
     * offset is absolute, as in a file. */
    static const uint8_t msg[] = {
        0xEE, 0xEE, 0xEE, 0xEE, 0xEE,
        /* 5: field 1 VARINT 150 */
        0x08, 0x96, 0x01,
        /* 8: field 2 I64 0x0807060504030201 */
        0x11, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
        /* 17: field 3 LEN "abc" */
        0x1A, 0x03, 'a', 'b', 'c',
        /* 22: field 4 I32 0xDDCCBBAA */
        0x25, 0xAA, 0xBB, 0xCC, 0xDD,
        /* 27: field 5 LEN empty */
        0x2A, 0x00,
        /* 29: field 536870911 (the largest) VARINT 7; tag is 5 bytes */
        0xF8, 0xFF, 0xFF, 0xFF, 0x0F, 0x07,
        /* 35: field 16 (two-byte tag) VARINT 1 */
        0x80, 0x01, 0x01,
    };
    uint8_t *p = heap(msg, sizeof msg);
    nnav_wire w;
    nnav_field f;
    nnav_error err;
    memset(&err, 0, sizeof err);
    nnav_wire_init(&w, p, (nnav_span){p + 5, sizeof msg - 5});

    assert_int_equal(nnav_wire_next(&w, &f, &err), 1);
    assert_int_equal(f.num, 1);
    assert_int_equal(f.wt, NNAV_WT_VARINT);
    assert_int_equal(f.v, 150);
    assert_int_equal(f.off, 5);
    assert_ptr_equal(f.s.p, p + 6); /* the value's raw bytes */
    assert_int_equal(f.s.n, 2);

    assert_int_equal(nnav_wire_next(&w, &f, &err), 1);
    assert_int_equal(f.num, 2);
    assert_int_equal(f.wt, NNAV_WT_I64);
    assert_true(f.v == 0x0807060504030201ull);
    assert_int_equal(f.off, 8);
    assert_ptr_equal(f.s.p, p + 9);
    assert_int_equal(f.s.n, 8);

    assert_int_equal(nnav_wire_next(&w, &f, &err), 1);
    assert_int_equal(f.num, 3);
    assert_int_equal(f.wt, NNAV_WT_LEN);
    assert_int_equal(f.off, 17);
    assert_ptr_equal(f.s.p, p + 19);
    assert_int_equal(f.s.n, 3);
    assert_memory_equal(f.s.p, "abc", 3);

    assert_int_equal(nnav_wire_next(&w, &f, &err), 1);
    assert_int_equal(f.num, 4);
    assert_int_equal(f.wt, NNAV_WT_I32);
    assert_true(f.v == 0xDDCCBBAAu);
    assert_int_equal(f.off, 22);
    assert_int_equal(f.s.n, 4);

    assert_int_equal(nnav_wire_next(&w, &f, &err), 1);
    assert_int_equal(f.num, 5);
    assert_int_equal(f.wt, NNAV_WT_LEN);
    assert_int_equal(f.off, 27);
    assert_int_equal(f.s.n, 0);

    assert_int_equal(nnav_wire_next(&w, &f, &err), 1);
    assert_int_equal(f.num, 536870911u);
    assert_int_equal(f.wt, NNAV_WT_VARINT);
    assert_int_equal(f.v, 7);
    assert_int_equal(f.off, 29);

    assert_int_equal(nnav_wire_next(&w, &f, &err), 1);
    assert_int_equal(f.num, 16);
    assert_int_equal(f.v, 1);
    assert_int_equal(f.off, 35);

    /* End of span, and it stays the end. */
    assert_int_equal(nnav_wire_next(&w, &f, &err), 0);
    assert_int_equal(nnav_wire_next(&w, &f, &err), 0);
    assert_int_equal(err.msg[0], 0);
    free(p);
}

static void test_next_empty_span(void **state)
{
    (void)state;
    nnav_wire w;
    nnav_field f;
    nnav_error err;
    memset(&err, 0, sizeof err);
    nnav_wire_init(&w, NULL, (nnav_span){NULL, 0});
    assert_int_equal(nnav_wire_next(&w, &f, &err), 0);
    uint8_t *p = heap("x", 1);
    nnav_wire_init(&w, p, (nnav_span){p, 0});
    assert_int_equal(nnav_wire_next(&w, &f, &err), 0);
    free(p);
}

static void test_next_truncated(void **state)
{
    (void)state;
    /* Tag cut mid-varint, alone and after a good field. */
    expect_error("\x88", 1, 0, 0, "tag cut short");
    expect_error("\x08\x01\x88", 3, 1, 2, "tag cut short");
    expect_error("\x08\x01\xff\xff\xff", 5, 1, 2, "tag cut short");
    /* VARINT value cut: the offset is the value's, not the tag's. */
    expect_error("\x08", 1, 0, 1, "cut short");
    expect_error("\x08\x96", 2, 0, 1, "varint of field 1 cut short");
    expect_error("\x08\x01\x10\xff\xff", 5, 1, 3, "varint of field 2 cut short");
    /* Fixed-size values cut. */
    expect_error("\x11\x01\x02\x03\x04\x05\x06\x07", 8, 0, 1, "8-byte value of field 2");
    expect_error("\x25\x01\x02\x03", 4, 0, 1, "4-byte value of field 4");
    expect_error("\x25", 1, 0, 1, "runs past");
    /* LEN: the length varint cut, then the payload cut. */
    expect_error("\x1a", 1, 0, 1, "length of field 3 cut short");
    expect_error("\x1a\x80", 2, 0, 1, "length of field 3 cut short");
    expect_error("\x1a\x05\x61\x62", 4, 0, 1, "runs past the end");
    expect_error("\x08\x01\x1a\x03\x61\x62", 6, 1, 3, "length 3 (field 3) runs past");
}

/* The reader remembers which field it was reading when it failed (0 when the
 * tag itself was bad), and says "the file" when the span is the whole file. */
static void test_next_error_context(void **state)
{
    (void)state;
    uint8_t *p = heap("\x08\x01\x1a\x09\x61", 5);
    nnav_wire w;
    nnav_field f;
    nnav_error err;
    memset(&err, 0, sizeof err);
    nnav_wire_init(&w, p, (nnav_span){p, 5});
    assert_int_equal(nnav_wire_next(&w, &f, &err), 1);
    assert_int_equal(nnav_wire_next(&w, &f, &err), -1);
    assert_int_equal(w.num, 3);
    tu_assert_contains(err.msg, "its message");
    memset(&err, 0, sizeof err);
    nnav_wire_init(&w, p, (nnav_span){p, 5});
    w.file_end = p + 5;
    assert_int_equal(nnav_wire_next(&w, &f, &err), 1);
    assert_int_equal(nnav_wire_next(&w, &f, &err), -1);
    tu_assert_contains(err.msg, "end of the file");
    free(p);
    /* A bad tag: no field number to blame. */
    p = heap("\x08\x01\x0f", 3);
    memset(&err, 0, sizeof err);
    nnav_wire_init(&w, p, (nnav_span){p, 3});
    assert_int_equal(nnav_wire_next(&w, &f, &err), 1);
    assert_int_equal(nnav_wire_next(&w, &f, &err), -1);
    assert_int_equal(err.offset, 2);
    free(p);
    p = heap("\x08\x01\x80", 3);
    memset(&err, 0, sizeof err);
    nnav_wire_init(&w, p, (nnav_span){p, 3});
    assert_int_equal(nnav_wire_next(&w, &f, &err), 1);
    assert_int_equal(nnav_wire_next(&w, &f, &err), -1);
    assert_int_equal(w.num, 0);
    free(p);
}

static void test_next_long_varints(void **state)
{
    (void)state;
    /* Tags longer than 10 bytes, or with a tenth byte above 1. */
    expect_error("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11, 0, 0, "longer than 10");
    expect_error("\x88\x80\x80\x80\x80\x80\x80\x80\x80\x02", 10, 0, 0, "longer than 10");
    /* Values: 11 bytes; tenth byte 2; tenth byte 0x7f. */
    expect_error("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 12, 0, 1,
                 "varint of field 1 is longer than 10 bytes");
    expect_error("\x08\x01\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 13, 1, 3,
                 "longer than 10 bytes");
    expect_error("\x08\x80\x80\x80\x80\x80\x80\x80\x80\x80\x7f", 11, 0, 1, "longer than 10");
    /* A LEN whose length varint is over-long. */
    expect_error("\x1a\xff\xff\xff\xff\xff\xff\xff\xff\xff\x03", 11, 0, 1,
                 "length of field 3 is a varint longer than 10 bytes");
    /* The largest valid value still reads. */
    uint8_t *p = heap("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11);
    nnav_wire w;
    nnav_field f;
    nnav_error err;
    memset(&err, 0, sizeof err);
    nnav_wire_init(&w, p, (nnav_span){p, 11});
    assert_int_equal(nnav_wire_next(&w, &f, &err), 1);
    assert_true(f.v == UINT64_MAX);
    assert_int_equal(nnav_wire_next(&w, &f, &err), 0);
    free(p);
}

static void test_next_huge_lengths(void **state)
{
    (void)state;
    /* Lengths that would wrap a pointer if added before being checked. */
    static const uint64_t lens[] = {UINT64_MAX,        UINT64_MAX - 1, UINT64_MAX - 2,
                                    1ull << 63,        (1ull << 63) - 1, 1ull << 32,
                                    (uint64_t)SIZE_MAX, 3};
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
        tu_pb b = {0};
        tu_pb_int(&b, 1, 1);      /* 0: 08 01 */
        tu_pb_tag(&b, 3, 2);      /* 2 */
        tu_pb_varint(&b, lens[i]); /* 3 */
        tu_pb_raw(&b, "ab", 2);    /* two bytes only */
        expect_error(b.p, b.n, 1, 3, "runs past the end");
        tu_pb_free(&b);
    }
    /* A length of exactly what is left is fine; one more is not. */
    uint8_t *p = heap("\x1a\x02\x61\x62", 4);
    nnav_wire w;
    nnav_field f;
    nnav_error err;
    memset(&err, 0, sizeof err);
    nnav_wire_init(&w, p, (nnav_span){p, 4});
    assert_int_equal(nnav_wire_next(&w, &f, &err), 1);
    assert_int_equal(f.s.n, 2);
    assert_int_equal(nnav_wire_next(&w, &f, &err), 0);
    free(p);
    /* The message ends before the buffer does: the length is checked against
     * the span, not the buffer. */
    p = heap("\x1a\x03\x61\x62\x63", 5);
    memset(&err, 0, sizeof err);
    nnav_wire_init(&w, p, (nnav_span){p, 4});
    assert_int_equal(nnav_wire_next(&w, &f, &err), -1);
    assert_int_equal(err.offset, 1);
    free(p);
}

static void test_next_bad_field_numbers(void **state)
{
    (void)state;
    expect_error("\x00", 1, 0, 0, "field number 0");
    expect_error("\x08\x01\x02\x00", 4, 1, 2, "field number 0");
    /* Field 0 with a two-byte tag of a valid wire type. */
    expect_error("\x80\x00\x01", 3, 0, 0, "field number 0");
    /* 2^29 is one past the largest field number. */
    expect_error("\x80\x80\x80\x80\x10\x01", 6, 0, 0, "out of range");
    /* A tag that uses all 64 bits. */
    expect_error("\xf8\xff\xff\xff\xff\xff\xff\xff\xff\x01\x00", 11, 0, 0, "out of range");
}

static void test_next_bad_wire_types(void **state)
{
    (void)state;
    /* Groups (3, 4) and the unused 6 and 7, each after a good two-byte field,
     * with bytes after them that would parse: the reader must stop. */
    static const uint8_t wts[] = {3, 4, 6, 7};
    for (size_t i = 0; i < sizeof wts; i++) {
        uint8_t msg[] = {0x08, 0x01, (uint8_t)((9u << 3) | wts[i]), 0x08, 0x01};
        expect_error(msg, sizeof msg, 1, 2, "wire type");
    }
    expect_error("\x0b", 1, 0, 0, "group wire type 3");
    expect_error("\x0c", 1, 0, 0, "group wire type 4");
    expect_error("\x0e", 1, 0, 0, "invalid wire type 6");
    expect_error("\x0f", 1, 0, 0, "invalid wire type 7");
    /* With a two-byte tag, the offset is still the tag's first byte. */
    expect_error("\x08\x01\x87\x01", 4, 1, 2, "field 16 has invalid wire type 7");
}

/* ---- packed ---- */

static void test_packed_varints(void **state)
{
    (void)state;
    static const uint8_t payload[] = {0x01, 0xac, 0x02, 0xff, 0xff, 0xff, 0xff, 0xff,
                                      0xff, 0xff, 0xff, 0xff, 0x01, 0x00};
    uint8_t *p = heap(payload, sizeof payload);
    nnav_packed pk = {p, p + sizeof payload, NNAV_WT_VARINT};
    uint64_t v;
    assert_int_equal(nnav_packed_next(&pk, &v), 1);
    assert_int_equal(v, 1);
    assert_int_equal(nnav_packed_next(&pk, &v), 1);
    assert_int_equal(v, 300);
    assert_int_equal(nnav_packed_next(&pk, &v), 1);
    assert_true(v == UINT64_MAX);
    assert_int_equal(nnav_packed_next(&pk, &v), 1);
    assert_int_equal(v, 0);
    assert_int_equal(nnav_packed_next(&pk, &v), 0);
    free(p);

    /* A varint cut by the end of the payload. */
    p = heap("\x05\x80", 2);
    pk = (nnav_packed){p, p + 2, NNAV_WT_VARINT};
    assert_int_equal(nnav_packed_next(&pk, &v), 1);
    assert_int_equal(v, 5);
    assert_int_equal(nnav_packed_next(&pk, &v), -1);
    free(p);

    /* An over-long one. */
    p = heap("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", 11);
    pk = (nnav_packed){p, p + 11, NNAV_WT_VARINT};
    assert_int_equal(nnav_packed_next(&pk, &v), -1);
    free(p);
}

static void test_packed_fixed(void **state)
{
    (void)state;
    uint64_t v;
    /* fixed32: two whole values. */
    uint8_t *p = heap("\x01\x00\x00\x00\xff\xff\xff\xff", 8);
    nnav_packed pk = {p, p + 8, NNAV_WT_I32};
    assert_int_equal(nnav_packed_next(&pk, &v), 1);
    assert_int_equal(v, 1);
    assert_int_equal(nnav_packed_next(&pk, &v), 1);
    assert_int_equal(v, 0xffffffffu);
    assert_int_equal(nnav_packed_next(&pk, &v), 0);
    free(p);
    /* fixed32 over 6 bytes: one value, then malformed (never a partial read). */
    p = heap("\x02\x00\x00\x00\x03\x00", 6);
    pk = (nnav_packed){p, p + 6, NNAV_WT_I32};
    assert_int_equal(nnav_packed_next(&pk, &v), 1);
    assert_int_equal(v, 2);
    assert_int_equal(nnav_packed_next(&pk, &v), -1);
    free(p);
    /* 3 bytes: malformed at once. */
    p = heap("\x02\x00\x00", 3);
    pk = (nnav_packed){p, p + 3, NNAV_WT_I32};
    assert_int_equal(nnav_packed_next(&pk, &v), -1);
    free(p);
    /* fixed64 over 12 bytes. */
    p = heap("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c", 12);
    pk = (nnav_packed){p, p + 12, NNAV_WT_I64};
    assert_int_equal(nnav_packed_next(&pk, &v), 1);
    assert_true(v == 0x0807060504030201ull);
    assert_int_equal(nnav_packed_next(&pk, &v), -1);
    free(p);
}

/* ---- nnav_wire_scalars ---- */

typedef struct collect {
    uint64_t v[16];
    int n;
    int stop_after; /* return nonzero from the callback after this many, 0 = never */
} collect;

static int collect_fn(void *ctx, uint64_t v)
{
    collect *c = ctx;
    if (c->n < 16)
        c->v[c->n] = v;
    c->n++;
    return c->stop_after && c->n >= c->stop_after ? 1 : 0;
}

/* Read the single field of msg and hand it to nnav_wire_scalars. */
static int scalars(const void *msg, size_t n, uint8_t elem, collect *c, nnav_error *err)
{
    uint8_t *p = heap(msg, n);
    nnav_wire w;
    nnav_field f;
    memset(err, 0, sizeof *err);
    nnav_wire_init(&w, p, (nnav_span){p, n});
    assert_int_equal(nnav_wire_next(&w, &f, err), 1);
    int r = nnav_wire_scalars(&f, elem, collect_fn, c, err, p);
    free(p);
    return r;
}

static void test_scalars(void **state)
{
    (void)state;
    nnav_error err;
    collect c = {{0}, 0, 0};
    /* Unpacked: one value. */
    assert_int_equal(scalars("\x08\x96\x01", 3, NNAV_WT_VARINT, &c, &err), 0);
    assert_int_equal(c.n, 1);
    assert_int_equal(c.v[0], 150);
    /* Packed varints. */
    memset(&c, 0, sizeof c);
    assert_int_equal(scalars("\x0a\x04\x03\x8e\x02\x00", 6, NNAV_WT_VARINT, &c, &err), 0);
    assert_int_equal(c.n, 3);
    assert_int_equal(c.v[0], 3);
    assert_int_equal(c.v[1], 270);
    assert_int_equal(c.v[2], 0);
    /* Packed fixed32 and fixed64. */
    memset(&c, 0, sizeof c);
    assert_int_equal(scalars("\x0a\x08\x00\x00\x80\x3f\x00\x00\x00\x40", 10, NNAV_WT_I32, &c,
                             &err), 0);
    assert_int_equal(c.n, 2);
    assert_int_equal(c.v[0], 0x3f800000u); /* 1.0f */
    assert_int_equal(c.v[1], 0x40000000u); /* 2.0f */
    memset(&c, 0, sizeof c);
    assert_int_equal(scalars("\x0a\x08\x00\x00\x00\x00\x00\x00\xf0\x3f", 10, NNAV_WT_I64, &c,
                             &err), 0);
    assert_int_equal(c.n, 1);
    assert_true(c.v[0] == 0x3ff0000000000000ull); /* 1.0 */
    /* An empty packed list is no values, not an error. */
    memset(&c, 0, sizeof c);
    assert_int_equal(scalars("\x0a\x00", 2, NNAV_WT_I32, &c, &err), 0);
    assert_int_equal(c.n, 0);
}

static void test_scalars_malformed(void **state)
{
    (void)state;
    nnav_error err;
    collect c = {{0}, 0, 0};
    /* Packed fixed32 of 6 bytes: refused before any value, at the payload. */
    assert_int_equal(scalars("\x0a\x06\x01\x00\x00\x00\x02\x00", 8, NNAV_WT_I32, &c,
                             &err), -1);
    assert_int_equal(c.n, 0);
    assert_int_equal(err.offset, 2);
    assert_int_equal(err.has_offset, 1);
    assert_int_equal(err.kind, NNAV_ERR_INPUT);
    tu_assert_contains(err.msg, "not a multiple of its 4-byte element");
    /* fixed64 of 12 bytes. */
    memset(&c, 0, sizeof c);
    assert_int_equal(scalars("\x0a\x0c\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c", 14,
                             NNAV_WT_I64, &c, &err), -1);
    assert_int_equal(c.n, 0);
    assert_int_equal(err.offset, 2);
    tu_assert_contains(err.msg, "8-byte element");
    /* A bad varint inside a packed list: the offset is that varint's. */
    memset(&c, 0, sizeof c);
    assert_int_equal(scalars("\x0a\x04\x01\x02\x80\x80", 6, NNAV_WT_VARINT, &c, &err), -1);
    assert_int_equal(c.n, 2);
    assert_int_equal(err.offset, 4);
    tu_assert_contains(err.msg, "malformed varint");
    /* The wrong wire type for the element: refused at the tag. */
    memset(&c, 0, sizeof c);
    assert_int_equal(scalars("\x0d\x01\x02\x03\x04", 5, NNAV_WT_VARINT, &c, &err), -1);
    assert_int_equal(c.n, 0);
    assert_int_equal(err.offset, 0);
    tu_assert_contains(err.msg, "wire type 5");
    memset(&c, 0, sizeof c);
    assert_int_equal(scalars("\x08\x01", 2, NNAV_WT_I32, &c, &err), -1);
    assert_int_equal(c.n, 0);
    /* The callback can stop the walk. */
    memset(&c, 0, sizeof c);
    c.stop_after = 2;
    assert_int_not_equal(scalars("\x0a\x04\x01\x02\x03\x04", 6, NNAV_WT_VARINT, &c, &err), 0);
    assert_int_equal(c.n, 2);
}

/* ---- never outside the span ---- */

/* Walk a message to its end or first error, checking every field lies in the
 * span, and push each LEN payload through the packed readers too. */
static void walk_checked(const uint8_t *p, size_t n)
{
    nnav_wire w;
    nnav_field f;
    nnav_error err;
    memset(&err, 0, sizeof err);
    nnav_wire_init(&w, p, (nnav_span){p, n});
    int r, guard = 0;
    while ((r = nnav_wire_next(&w, &f, &err)) == 1) {
        assert_true(f.off < n);
        assert_true(f.s.p >= p && f.s.p + f.s.n <= p + n);
        assert_true(f.num >= 1 && f.num <= 536870911u);
        if (f.wt == NNAV_WT_LEN) {
            static const uint8_t elems[] = {NNAV_WT_VARINT, NNAV_WT_I32, NNAV_WT_I64};
            for (int e = 0; e < 3; e++) {
                collect c = {{0}, 0, 0};
                nnav_error e2;
                memset(&e2, 0, sizeof e2);
                if (nnav_wire_scalars(&f, elems[e], collect_fn, &c, &e2, p) < 0)
                    assert_true(e2.offset <= n);
            }
            /* A LEN payload is also a message to walk. */
            if (f.s.n)
                walk_checked(f.s.p, (size_t)f.s.n);
        }
        assert_true(++guard <= (int)n);
    }
    if (r < 0)
        assert_true(err.offset <= n);
}

static void test_never_past_the_span(void **state)
{
    (void)state;
    /* Every prefix of a message with all wire types, in an exact buffer. */
    static const uint8_t msg[] = {0x08, 0x96, 0x01, 0x11, 1, 2, 3, 4, 5, 6, 7, 8, 0x1a, 0x05,
                                  0x08, 0x01, 0x12, 0x01, 0x7f, 0x25, 1, 2, 3, 4, 0x08, 0xff,
                                  0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
    for (size_t cut = 0; cut <= sizeof msg; cut++) {
        uint8_t *p = heap(msg, cut);
        walk_checked(p, cut);
        free(p);
    }
    /* Deterministic random bytes, biased to tags and continuation bytes. */
    uint32_t s = 12345;
    static const uint8_t pool[] = {0x08, 0x0a, 0x11, 0x12, 0x1a, 0x25, 0x0b, 0x0f, 0x80,
                                   0xff, 0x01, 0x02, 0x03, 0x00, 0x7f, 0x10};
    for (int iter = 0; iter < 20000; iter++) {
        s = s * 1664525u + 1013904223u;
        size_t n = (s >> 24) % 40;
        uint8_t buf[40];
        for (size_t i = 0; i < n; i++) {
            s = s * 1664525u + 1013904223u;
            buf[i] = (s >> 28) < 12 ? pool[(s >> 16) % sizeof pool] : (uint8_t)(s >> 8);
        }
        uint8_t *p = heap(buf, n);
        walk_checked(p, n);
        free(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_varint_values),
        cmocka_unit_test(test_varint_truncated),
        cmocka_unit_test(test_varint_too_long),
        cmocka_unit_test(test_next_every_wire_type),
        cmocka_unit_test(test_next_empty_span),
        cmocka_unit_test(test_next_truncated),
        cmocka_unit_test(test_next_error_context),
        cmocka_unit_test(test_next_long_varints),
        cmocka_unit_test(test_next_huge_lengths),
        cmocka_unit_test(test_next_bad_field_numbers),
        cmocka_unit_test(test_next_bad_wire_types),
        cmocka_unit_test(test_packed_varints),
        cmocka_unit_test(test_packed_fixed),
        cmocka_unit_test(test_scalars),
        cmocka_unit_test(test_scalars_malformed),
        cmocka_unit_test(test_never_past_the_span),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
