/* test_fb.c - the FlatBuffers reader (src/formats/tflite/fb.h) on buffers
 * flatc writes from a schema (the oracle: the values the JSON gave it) and
 * on hand-broken ones: a vtable past the end, an offset of 0, a vector
 * longer than the buffer, a string without its NUL, a misaligned table,
 * tables nested past the bound. Every buffer lives in a heap block of
 * exactly its size, so an over-read is an ASan report. Without flatc the
 * flatc part is skipped, said so. */
#include "testutil.h"

#include "fb.h"

/* schema: Node { name: string; v: int; kids: [Node]; child: Node;
 *                small: [short]; tags: [string]; } root Node, id "TST1". */
static const char *schema =
    "file_identifier \"TST1\";\n"
    "table Node { name: string; v: int = 7; kids: [Node]; child: Node; small: [short];"
    " tags: [string]; big: long; }\n"
    "root_type Node;\n";

static uint8_t *flatc(const char *json, size_t *n)
{
    *n = 0;
    const char *d = tu_tmpdir("fb");
    char cmd[4096];
    tu_write(tu_join(d, "t.fbs"), schema, strlen(schema));
    tu_write(tu_join(d, "t.json"), json, strlen(json));
    snprintf(cmd, sizeof cmd, "cd '%s' && flatc -b t.fbs t.json 2>&1", d);
    if (system(cmd) != 0)
        return NULL;
    return tu_read(tu_join(d, "t.bin"), n);
}

static int have_flatc(void)
{
    return system("command -v flatc > /dev/null 2>&1") == 0;
}

static void test_flatc_values(void **state)
{
    (void)state;
    if (!have_flatc()) {
        print_message("SKIP: no flatc: the reader is not checked against flatc's buffers\n");
        skip();
    }
    size_t n = 0;
    uint8_t *p = flatc("{\"name\": \"root\", \"v\": -5, \"big\": 1234567890123,"
                       " \"kids\": [{\"name\": \"a\"}, {\"name\": \"bb\", \"v\": 9}],"
                       " \"child\": {\"name\": \"c\", \"small\": [1, -2, 300]},"
                       " \"tags\": [\"x\", \"yz\"]}", &n);
    assert_non_null(p);
    uint8_t *q = malloc(n);
    memcpy(q, p, n);
    free(p);
    nnav_fb b = {q, n};
    nnav_fbt root, kid, child;
    nnav_error err;
    char id[5];
    assert_int_equal(nnav_fb_root(&b, &root, id, &err), 0);
    assert_string_equal(id, "TST1");
    nnav_span s;
    assert_int_equal(nnav_fb_string(&b, &root, 0, &s, "name", &err), 0);
    assert_true(tu_span_is(s, "root"));
    uint64_t v;
    assert_int_equal(nnav_fb_scalar(&b, &root, 1, 4, 7, &v, "v", &err), 0);
    assert_int_equal((int32_t)(uint32_t)v, -5);
    assert_int_equal(nnav_fb_scalar(&b, &root, 6, 8, 0, &v, "big", &err), 0);
    assert_int_equal(v, 1234567890123ull);
    nnav_fbv kids;
    assert_int_equal(nnav_fb_vector(&b, &root, 2, 4, &kids, "kids", &err), 0);
    assert_int_equal(kids.count, 2);
    assert_int_equal(nnav_fb_vec_table(&b, &kids, 1, &kid, "kids[1]", &err), 0);
    assert_int_equal(nnav_fb_string(&b, &kid, 0, &s, "kids[1].name", &err), 0);
    assert_true(tu_span_is(s, "bb"));
    assert_int_equal(nnav_fb_scalar(&b, &kid, 1, 4, 7, &v, "v", &err), 0);
    assert_int_equal(v, 9);
    assert_int_equal(nnav_fb_vec_table(&b, &kids, 0, &kid, "kids[0]", &err), 0);
    assert_int_equal(nnav_fb_scalar(&b, &kid, 1, 4, 7, &v, "v", &err), 0);
    assert_int_equal(v, 7); /* absent: the schema's default */
    assert_int_equal(nnav_fb_table(&b, &kid, 3, &child, "kids[0].child", &err), 1);
    assert_int_equal(nnav_fb_table(&b, &root, 3, &child, "child", &err), 0);
    nnav_fbv sm;
    assert_int_equal(nnav_fb_vector(&b, &child, 4, 2, &sm, "child.small", &err), 0);
    assert_int_equal(sm.count, 3);
    assert_int_equal((int16_t)nnav_fb_vec_scalar(&b, &sm, 1, 2), -2);
    assert_int_equal((int16_t)nnav_fb_vec_scalar(&b, &sm, 2, 2), 300);
    nnav_fbv tags;
    assert_int_equal(nnav_fb_vector(&b, &root, 5, 4, &tags, "tags", &err), 0);
    assert_int_equal(nnav_fb_vec_string(&b, &tags, 1, &s, "tags[1]", &err), 0);
    assert_true(tu_span_is(s, "yz"));
    assert_int_equal(nnav_fb_vec_table(&b, &tags, 2, &kid, "tags[2]", &err), -1);
    /* Every cut of the buffer: an error or a clean read, never past it. */
    for (size_t k = 0; k < n; k++) {
        uint8_t *c = malloc(k ? k : 1);
        memcpy(c, q, k);
        nnav_fb cb = {c, k};
        if (nnav_fb_root(&cb, &root, NULL, &err) == 0 &&
            nnav_fb_vector(&cb, &root, 2, 4, &kids, "kids", &err) == 0)
            for (uint32_t i = 0; i < kids.count; i++)
                if (nnav_fb_vec_table(&cb, &kids, i, &kid, "kids[i]", &err) == 0)
                    (void)nnav_fb_string(&cb, &kid, 0, &s, "kids[i].name", &err);
        free(c);
    }
    /* flatc itself stops at 64 levels: the bound is tested by hand below. */
    free(q);
}

/* A hand-made buffer: root offset 8; a vtable at 4 of 4 + 2 fields; the
 * table at 8 (its i32 back to the vtable), field 0 a u32 offset at 12. */
static uint8_t *hand(size_t n)
{
    uint8_t *p = calloc(1, n);
    p[0] = 8;                    /* root -> 8 */
    p[4] = 8, p[6] = 8;          /* vtable: 8 bytes, table 8 bytes */
    p[8] = 4;                    /* soffset 4: vtable at 4 */
    return p;
}

/* 70 tables, each a field 0 offset to the next (one shared vtable): the
 * walk stops at the bound, naming it. */
static void test_deep(void **state)
{
    (void)state;
    enum { N = 70 };
    size_t n = 12 + 8 * N;
    uint8_t *p = calloc(1, n);
    p[0] = 12;                          /* root -> 12 */
    p[4] = 8, p[6] = 8, p[8] = 4;       /* vtable at 4: 8 bytes, table 8 bytes, field 0 at +4 */
    for (int i = 0; i < N; i++) {
        size_t t = 12 + 8 * (size_t)i;
        uint32_t back = (uint32_t)(t - 4);
        memcpy(p + t, &back, 4);       /* little-endian host */
        p[t + 4] = 4;                  /* -> t + 8, the next table */
    }
    nnav_fb b = {p, n};
    nnav_fbt root, child;
    nnav_error err;
    assert_int_equal(nnav_fb_root(&b, &root, NULL, &err), 0);
    int r, depth = 0;
    while ((r = nnav_fb_table(&b, &root, 0, &child, "child", &err)) == 0)
        root = child, depth++;
    assert_int_equal(r, -1);
    assert_int_equal(depth, NNAV_FB_DEPTH);
    assert_non_null(strstr(err.msg, "nested more than 64 deep"));
    free(p);
}

static void test_hostile(void **state)
{
    (void)state;
    nnav_error err;
    nnav_fbt root, t;
    nnav_fbv v;
    nnav_span s;
    /* too short */
    uint8_t *p = malloc(6);
    memset(p, 0, 6);
    nnav_fb b = {p, 6};
    assert_int_equal(nnav_fb_root(&b, &root, NULL, &err), -1);
    free(p);
    /* root offset past the end */
    p = calloc(1, 16);
    p[0] = 200;
    b = (nnav_fb){p, 16};
    assert_int_equal(nnav_fb_root(&b, &root, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "past the end"));
    free(p);
    /* vtable past the end: soffset -1000 */
    p = hand(16);
    p[8] = 0x18, p[9] = 0xfc, p[10] = 0xff, p[11] = 0xff; /* -1000 */
    b = (nnav_fb){p, 16};
    assert_int_equal(nnav_fb_root(&b, &root, NULL, &err), -1);
    assert_int_equal(err.offset, 8);
    free(p);
    /* an odd vtable size */
    p = hand(16);
    p[4] = 5;
    b = (nnav_fb){p, 16};
    assert_int_equal(nnav_fb_root(&b, &root, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "odd"));
    free(p);
    /* field 0 an offset of 0 */
    p = hand(20);
    p[8 + 0] = 4, p[4 + 4] = 4; /* field 0 at table+4 */
    b = (nnav_fb){p, 20};
    assert_int_equal(nnav_fb_root(&b, &root, NULL, &err), 0);
    assert_int_equal(nnav_fb_table(&b, &root, 0, &t, "x.child", &err), -1);
    assert_non_null(strstr(err.msg, "offset of 0"));
    assert_string_equal(err.path, "x.child");
    assert_int_equal(err.offset, 12);
    /* the same field as a vector whose length passes the buffer */
    p[12] = 4;                                     /* -> 16 */
    p[16] = 0xff, p[17] = 0xff, p[18] = 0xff, p[19] = 0x7f;
    assert_int_equal(nnav_fb_vector(&b, &root, 0, 8, &v, "x.v", &err), -1);
    assert_non_null(strstr(err.msg, "runs past the end"));
    /* a string of length 0 whose NUL is past the end */
    p[16] = 0, p[17] = 0, p[18] = 0, p[19] = 0;
    assert_int_equal(nnav_fb_string(&b, &root, 0, &s, "x.s", &err), -1);
    assert_non_null(strstr(err.msg, "no NUL"));
    /* a field whose bytes pass the table's size */
    p[6] = 4; /* table size 4: field 0 at +4 is outside */
    assert_int_equal(nnav_fb_root(&b, &root, NULL, &err), 0);
    assert_int_equal(nnav_fb_table(&b, &root, 0, &t, "x.child", &err), -1);
    assert_non_null(strstr(err.msg, "pass the table's size"));
    free(p);
    /* a misaligned root table */
    p = calloc(1, 24);
    p[0] = 9;
    b = (nnav_fb){p, 24};
    assert_int_equal(nnav_fb_root(&b, &root, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "aligned"));
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_flatc_values),
        cmocka_unit_test(test_hostile),
        cmocka_unit_test(test_deep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
