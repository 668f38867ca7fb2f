/* test_json.c - the JSON reader (json.h) on hand-written text.
 *
 * Every input lives in a heap buffer of exactly its own size, so under
 * AddressSanitizer a read one byte past the span is a reported overflow.
 * Numbers are held to what the C compiler makes of the same literal (the
 * oracle for doubles) and to the integer limits; errors to their offset
 * and path, to the byte. */
#include "testutil.h"

#include "json.h"

static uint8_t *heap(const char *s, size_t n)
{
    uint8_t *p = malloc(n ? n : 1);
    assert_non_null(p);
    memcpy(p, s, n);
    return p;
}

/* Parse text (its bytes from offset 0); rc, and *v. */
static int parse(const char *text, nnav_jval *v, nnav_error *err, uint8_t **keep)
{
    size_t n = strlen(text);
    uint8_t *p = heap(text, n);
    nnav_json j = {.base = p};
    memset(err, 0, sizeof *err);
    int rc = nnav_json_parse(&j, (nnav_span){p, n}, v, err);
    if (keep)
        *keep = p;
    else
        free(p);
    return rc;
}

static void expect_error(const char *text, uint64_t off, const char *path, const char *phrase)
{
    nnav_jval v;
    nnav_error err;
    if (parse(text, &v, &err, NULL) == 0)
        fail_msg("accepted: %s", text);
    if (err.offset != off || strcmp(err.path, path) || !strstr(err.msg, phrase))
        fail_msg("%s: got '%s: %s' at %llu, wanted '%s: ...%s...' at %llu", text, err.path,
                 err.msg, (unsigned long long)err.offset, path, phrase, (unsigned long long)off);
}

static void test_scalars(void **state)
{
    (void)state;
    nnav_jval v;
    nnav_error e;
    assert_int_equal(parse(" true ", &v, &e, NULL), 0);
    assert_int_equal(v.kind, NNAV_JSON_TRUE);
    assert_int_equal(parse("null", &v, &e, NULL), 0);
    assert_int_equal(v.kind, NNAV_JSON_NULL);
    assert_int_equal(parse("\"\"", &v, &e, NULL), 0);
    assert_int_equal(v.kind, NNAV_JSON_STRING);
    assert_int_equal(v.s.n, 0);
}

static void test_integers_exact(void **state)
{
    (void)state;
    nnav_jval v;
    nnav_error e;
    int64_t i;
    uint64_t u;
    assert_int_equal(parse("9007199254740993", &v, &e, NULL), 0); /* 2^53 + 1: no double holds it */
    assert_int_equal(v.num, NNAV_JNUM_INT);
    assert_int_equal(nnav_json_int(&v, &i, "$", &e), 0);
    assert_true(i == 9007199254740993LL);
    assert_int_equal(parse("-9223372036854775808", &v, &e, NULL), 0);
    assert_int_equal(nnav_json_int(&v, &i, "$", &e), 0);
    assert_true(i == INT64_MIN);
    assert_int_equal(parse("18446744073709551615", &v, &e, NULL), 0);
    assert_int_equal(v.num, NNAV_JNUM_UINT);
    assert_int_equal(nnav_json_uint(&v, &u, "$", &e), 0);
    assert_true(u == UINT64_MAX);
    assert_int_equal(nnav_json_int(&v, &i, "$.x", &e), -1); /* no wrap into int64 */
    assert_string_equal(e.path, "$.x");
    /* past 64 bits: still a number (its double), never an integer */
    assert_int_equal(parse("18446744073709551616", &v, &e, NULL), 0);
    assert_int_equal(v.num, NNAV_JNUM_BIG);
    assert_true(v.f == 18446744073709551616.0);
    assert_int_equal(nnav_json_uint(&v, &u, "$", &e), -1);
    assert_non_null(strstr(e.msg, "past 64 bits"));
    assert_int_equal(parse("-9223372036854775809", &v, &e, NULL), 0);
    assert_int_equal(v.num, NNAV_JNUM_BIG);
    assert_int_equal(parse("-1", &v, &e, NULL), 0);
    assert_int_equal(nnav_json_uint(&v, &u, "$", &e), -1);
    assert_int_equal(parse("2.0", &v, &e, NULL), 0);
    assert_int_equal(v.num, NNAV_JNUM_REAL);
    assert_int_equal(nnav_json_int(&v, &i, "$", &e), -1);
}

static void test_doubles(void **state)
{
    (void)state;
    static const struct { const char *text; double want; } cases[] = {
        {"0.1", 0.1}, {"-0.0", -0.0}, {"1e-320", 1e-320}, {"2.2250738585072011e-308",
        2.2250738585072011e-308}, {"1.7976931348623157e308", 1.7976931348623157e308},
        {"123456789012345678901234567890", 123456789012345678901234567890.0},
        {"3.14159265358979323846264338327950288", 3.14159265358979323846264338327950288},
        {"1E+2", 1e2},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        nnav_jval v;
        nnav_error e;
        assert_int_equal(parse(cases[k].text, &v, &e, NULL), 0);
        assert_memory_equal(&v.f, &cases[k].want, sizeof v.f);
    }
    expect_error("1e999", 0, "$", "past the range of a double");
    expect_error("[1,-1e400]", 3, "$[1]", "past the range of a double");
}

static void test_grammar_errors(void **state)
{
    (void)state;
    expect_error("", 0, "$", "expected a value, found the end");
    expect_error("01", 0, "$", "leading zero");
    expect_error("1.", 2, "$", "no digit after its decimal point");
    expect_error("1e", 2, "$", "no digit in its exponent");
    expect_error("-", 0, "$", "no digit after its sign");
    expect_error("+1", 0, "$", "expected a value, found '+'");
    expect_error("tru", 0, "$", "did you mean true");
    expect_error("[1,]", 3, "$[1]", "expected a value, found ']'");
    expect_error("[1 2]", 3, "$", "expected ',' or ']'");
    expect_error("{\"a\" 1}", 5, "$", "expected ':'");
    expect_error("{1:2}", 1, "$", "a member's key");
    expect_error("{\"a\":1} x", 8, "$", "1 trailing bytes");
    expect_error("\"abc", 0, "$", "no closing quote");
    expect_error("\"a\tb\"", 2, "$", "raw control byte 0x09");
    expect_error("\"\\x\"", 1, "$", "invalid escape \\x");
    expect_error("\"\\u12\"", 1, "$", "four hex digits");
    expect_error("\"\\udc00\"", 1, "$", "lone low surrogate");
    expect_error("\"\\ud800x\"", 1, "$", "no low surrogate");
    expect_error("\"\xc0\x80\"", 1, "$", "not UTF-8");   /* overlong NUL */
    expect_error("\"\xed\xa0\x80\"", 1, "$", "not UTF-8"); /* a surrogate in UTF-8 */
}

static void test_paths(void **state)
{
    (void)state;
    expect_error("{\"model.embed.weight\":{\"shape\":[1,x]}}", 34,
                 "$.[\"model.embed.weight\"].shape[1]", "expected a value, found 'x'");
    expect_error("{\"a\":[{\"b_1\":[0,{\"c\":tru}]}]}", 21, "$.a[0].b_1[1].c", "did you mean true");
    /* a key with an escape is shown decoded, then escaped for the terminal */
    expect_error("{\"\\u001b]\":[-]}", 12, "$.[\"\\x1B]\"][0]", "no digit after its sign");
}

static void test_depth(void **state)
{
    (void)state;
    char deep[2 * NNAV_JSON_DEPTH + 8];
    size_t n = 0;
    for (int k = 0; k < NNAV_JSON_DEPTH; k++)
        deep[n++] = '[';
    for (int k = 0; k < NNAV_JSON_DEPTH; k++)
        deep[n++] = ']';
    deep[n] = 0;
    nnav_jval v;
    nnav_error e;
    assert_int_equal(parse(deep, &v, &e, NULL), 0); /* 128 levels: allowed */
    memmove(deep + 1, deep, n + 1);
    deep[0] = '[';
    deep[n + 1] = ']';
    deep[n + 2] = 0;
    assert_int_equal(parse(deep, &v, &e, NULL), -1); /* 129: refused */
    assert_non_null(strstr(e.msg, "nesting deeper than 128"));
    assert_int_equal(e.offset, NNAV_JSON_DEPTH);
    /* a million levels: refused at the bound, in bounded stack */
    size_t big = 1000000;
    char *b = malloc(big + 1);
    assert_non_null(b);
    memset(b, '[', big);
    b[big] = 0;
    assert_int_equal(parse(b, &v, &e, NULL), -1);
    assert_int_equal(e.offset, NNAV_JSON_DEPTH);
    free(b);
}

static void test_iterate_and_text(void **state)
{
    (void)state;
    const char *text = "{\"a\\u00e9\\ud83d\\ude00\\n\": [1, 2, 3], \"plain\": \"x\\\"y\", \"e\": {}}";
    nnav_jval root, k, v, item;
    nnav_error e;
    uint8_t *keep;
    assert_int_equal(parse(text, &root, &e, &keep), 0);
    assert_int_equal(root.kind, NNAV_JSON_OBJECT);
    assert_int_equal(root.count, 3);
    nnav_json j = {.base = keep};
    nnav_jiter it, in;
    nnav_json_iter(&it, &j, &root, NULL);
    assert_int_equal(nnav_json_next(&it, &k, &v, &e), 1);
    char buf[64];
    size_t n = nnav_json_text(&k, buf, sizeof buf);
    assert_int_equal(n, 8);
    assert_string_equal(buf, "a\xc3\xa9\xf0\x9f\x98\x80\n");
    assert_true(k.escaped);
    assert_int_equal(v.kind, NNAV_JSON_ARRAY);
    assert_int_equal(v.count, 3);
    nnav_json_iter(&in, &j, &v, &it);
    int64_t sum = 0, x;
    while (nnav_json_next(&in, NULL, &item, &e) == 1) {
        assert_int_equal(nnav_json_int(&item, &x, "", &e), 0);
        sum += x;
    }
    assert_int_equal(sum, 6);
    nnav_json_path(&in, buf, sizeof buf);
    assert_string_equal(buf, "$.[\"a\xc3\xa9\xf0\x9f\x98\x80\\n\"][2]");
    assert_int_equal(nnav_json_next(&it, &k, &v, &e), 1);
    assert_true(nnav_json_eq(&k, "plain"));
    assert_false(k.escaped);
    assert_true(nnav_json_eq(&v, "x\"y"));
    assert_false(nnav_json_eq(&v, "x\"yz"));
    assert_int_equal(nnav_json_text(&v, buf, 3), 3); /* cut to fit, full length told */
    assert_string_equal(buf, "x\"");
    assert_int_equal(nnav_json_next(&it, &k, &v, &e), 1);
    assert_int_equal(v.count, 0);
    assert_int_equal(nnav_json_next(&it, &k, &v, &e), 0);
    free(keep);
}

/* Every prefix of a document that uses every construct: refused (or, for
 * a prefix that is whole, accepted), never a read past its end (ASan). */
static void test_never_past_the_span(void **state)
{
    (void)state;
    const char *doc = "{\"k\\u00e9\":[1.5e-3,-0,true,false,null,\"\\ud83d\\ude00\xc3\xa9\"],\"n\":{}}";
    size_t n = strlen(doc);
    for (size_t cut = 0; cut < n; cut++) {
        char *t = malloc(cut + 1);
        assert_non_null(t);
        memcpy(t, doc, cut);
        t[cut] = 0;
        nnav_jval v;
        nnav_error e;
        assert_int_equal(parse(t, &v, &e, NULL), -1);
        assert_true(e.offset <= cut);
        free(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalars),
        cmocka_unit_test(test_integers_exact),
        cmocka_unit_test(test_doubles),
        cmocka_unit_test(test_grammar_errors),
        cmocka_unit_test(test_paths),
        cmocka_unit_test(test_depth),
        cmocka_unit_test(test_iterate_and_text),
        cmocka_unit_test(test_never_past_the_span),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
