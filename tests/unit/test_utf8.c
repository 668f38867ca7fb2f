/* test_utf8.c - the one UTF-8 decoder (utf8.h).
 *
 * Fixed cases at each boundary (the last and first code point of each
 * length, overlong forms, surrogates, past U+10FFFF, cut sequences, bad
 * continuations), then every sequence of one, two and three bytes and every
 * four-byte sequence under each lead byte's legal second bytes checked
 * against an encoder written here from the definition: a sequence is valid
 * exactly when it is the encoding of a scalar value, and decodes to it. */
#include "testutil.h"

#include "utf8.h"

/* The shortest encoding of c (not a surrogate, at most U+10FFFF). */
static int enc(uint32_t c, uint8_t *o)
{
    if (c < 0x80) {
        o[0] = (uint8_t)c;
        return 1;
    }
    if (c < 0x800) {
        o[0] = (uint8_t)(0xc0 | c >> 6), o[1] = (uint8_t)(0x80 | (c & 0x3f));
        return 2;
    }
    if (c < 0x10000) {
        o[0] = (uint8_t)(0xe0 | c >> 12), o[1] = (uint8_t)(0x80 | (c >> 6 & 0x3f));
        o[2] = (uint8_t)(0x80 | (c & 0x3f));
        return 3;
    }
    o[0] = (uint8_t)(0xf0 | c >> 18), o[1] = (uint8_t)(0x80 | (c >> 12 & 0x3f));
    o[2] = (uint8_t)(0x80 | (c >> 6 & 0x3f)), o[3] = (uint8_t)(0x80 | (c & 0x3f));
    return 4;
}

static int dec(const char *bytes, size_t n, uint32_t *cp)
{
    *cp = 0xdeadbeef;
    return nnav_utf8_decode((const uint8_t *)bytes, n, cp);
}

static void ok(const char *b, size_t n, uint32_t want)
{
    uint32_t cp;
    assert_int_equal(dec(b, n, &cp), (int)n);
    assert_int_equal(cp, want);
    assert_int_equal(nnav_utf8_valid((const uint8_t *)b, n), 1);
}

static void bad(const char *b, size_t n)
{
    uint32_t cp;
    assert_int_equal(dec(b, n, &cp), 0);
    assert_int_equal(cp, 0xdeadbeef); /* untouched */
    assert_int_equal(nnav_utf8_valid((const uint8_t *)b, n), 0);
}

static void boundaries(void **state)
{
    (void)state;
    ok("\x00", 1, 0);
    ok("\x7f", 1, 0x7f);
    ok("\xc2\x80", 2, 0x80);
    ok("\xdf\xbf", 2, 0x7ff);
    ok("\xe0\xa0\x80", 3, 0x800);
    ok("\xed\x9f\xbf", 3, 0xd7ff);  /* just below the surrogates */
    ok("\xee\x80\x80", 3, 0xe000);  /* just above */
    ok("\xef\xbf\xbf", 3, 0xffff);
    ok("\xf0\x90\x80\x80", 4, 0x10000);
    ok("\xf4\x8f\xbf\xbf", 4, 0x10ffff);
}

static void overlongs(void **state)
{
    (void)state;
    bad("\xc0\x80", 2);              /* NUL in two bytes */
    bad("\xc1\xbf", 2);              /* U+7F */
    bad("\xe0\x80\x80", 3);
    bad("\xe0\x9f\xbf", 3);          /* U+7FF */
    bad("\xf0\x80\x80\x80", 4);
    bad("\xf0\x8f\xbf\xbf", 4);      /* U+FFFF */
}

static void surrogates(void **state)
{
    (void)state;
    bad("\xed\xa0\x80", 3);          /* U+D800 */
    bad("\xed\xb0\x80", 3);          /* U+DC00 */
    bad("\xed\xbf\xbf", 3);          /* U+DFFF */
    bad("\xed\xa0\xbd\xed\xb2\xa9", 6); /* a CESU-8 pair */
}

static void past_max(void **state)
{
    (void)state;
    bad("\xf4\x90\x80\x80", 4);      /* U+110000 */
    bad("\xf7\xbf\xbf\xbf", 4);      /* U+1FFFFF */
    bad("\xf8\x88\x80\x80\x80", 5);  /* five-byte form */
    bad("\xfc\x84\x80\x80\x80\x80", 6);
    bad("\xfe", 1);
    bad("\xff", 1);
}

static void cut_and_broken(void **state)
{
    (void)state;
    uint32_t cp;
    /* Every proper prefix of a valid sequence is invalid, however long the
     * buffer holding it says it is. */
    const char *full[] = { "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80" };
    for (size_t i = 0; i < 3; i++)
        for (size_t n = 1; n < strlen(full[i]); n++)
            bad(full[i], n);
    assert_int_equal(dec("", 0, &cp), 0);
    bad("\x80", 1);                  /* a lone continuation */
    bad("\xbf", 1);
    bad("\xe2\x28\xa1", 3);          /* second byte not 10xxxxxx */
    bad("\xe2\x82\x28", 3);          /* third */
    bad("\xf0\x9f\x98\xc0", 4);      /* fourth */
    bad("\xc3\xc3\xa9", 3);          /* a lead where a continuation belongs */
    /* decode reads one sequence; valid reads them all. */
    assert_int_equal(dec("\xc3\xa9\xff", 3, &cp), 2);
    assert_int_equal(nnav_utf8_valid((const uint8_t *)"a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80z", 11), 1);
    assert_int_equal(nnav_utf8_valid((const uint8_t *)"a\xc3\xa9\xe2\x82", 5), 0);
    assert_int_equal(nnav_utf8_valid(NULL, 0), 1);
}

/* Valid exactly when the bytes are the encoding of a scalar value, checked
 * for every 1-, 2- and 3-byte string and every 4-byte string under each lead
 * F0..F7 with any second byte (the last two bytes from a sample). */
static void exhaustive(void **state)
{
    (void)state;
    uint8_t b[4], e[4];
    uint64_t valid[5] = { 0 };
    for (uint32_t x = 0; x < (1u << 24); x++) {
        b[0] = (uint8_t)(x >> 16), b[1] = (uint8_t)(x >> 8), b[2] = (uint8_t)x;
        for (size_t n = 1; n <= 3; n++) {
            if (n < 3 && (x & ((1u << (8 * (3 - n))) - 1)))
                continue; /* shorter strings once each */
            uint32_t cp = 0;
            int k = nnav_utf8_decode(b, n, &cp);
            if (k == (int)n) {
                assert_false(cp >= 0xd800 && cp <= 0xdfff);
                assert_int_equal(enc(cp, e), (int)n);
                assert_memory_equal(e, b, n);
                valid[n]++;
            } else if (k != 0) {
                assert_true(k < (int)n); /* a shorter sequence at the front */
                assert_int_equal(enc(cp, e), k);
                assert_memory_equal(e, b, (size_t)k);
            }
        }
    }
    assert_int_equal(valid[1], 0x80);
    assert_int_equal(valid[2], 0x800 - 0x80);
    assert_int_equal(valid[3], 0x10000 - 0x800 - 0x800);
    static const uint8_t tails[][2] = { { 0x80, 0x80 }, { 0xbf, 0xbf }, { 0x80, 0xbf },
                                        { 0xa5, 0x9c }, { 0x7f, 0x80 }, { 0x80, 0xc0 } };
    for (uint32_t x = 0; x < 0x10000; x++) {
        b[0] = (uint8_t)(x >> 8), b[1] = (uint8_t)x;
        for (size_t t = 0; t < sizeof tails / sizeof *tails; t++) {
            b[2] = tails[t][0], b[3] = tails[t][1];
            uint32_t cp = 0;
            int k = nnav_utf8_decode(b, 4, &cp);
            int want = b[0] >= 0xf0 && b[0] <= 0xf4 && (b[1] & 0xc0) == 0x80 &&
                       (b[2] & 0xc0) == 0x80 && (b[3] & 0xc0) == 0x80;
            uint32_t c = want ? (uint32_t)(b[0] & 7) << 18 | (uint32_t)(b[1] & 0x3f) << 12 |
                                    (uint32_t)(b[2] & 0x3f) << 6 | (b[3] & 0x3f)
                              : 0;
            want = want && c >= 0x10000 && c <= 0x10ffff;
            if (b[0] >= 0xf0) {
                assert_int_equal(k, want ? 4 : 0);
                if (want)
                    assert_int_equal(cp, c);
            }
        }
    }
    /* Every scalar value round-trips. */
    for (uint32_t c = 0; c <= 0x10ffff; c++) {
        if (c >= 0xd800 && c <= 0xdfff)
            continue;
        uint32_t cp = 0;
        int n = enc(c, e);
        assert_int_equal(nnav_utf8_decode(e, 4, &cp), n);
        assert_int_equal(cp, c);
    }
}

static void chars_and_continuations(void **state)
{
    (void)state;
    const char *s = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
    assert_int_equal(nnav_utf8_chars(s, strlen(s)), 4);
    assert_int_equal(nnav_utf8_chars(s, 0), 0);
    for (unsigned b = 0; b < 256; b++)
        assert_int_equal(nnav_utf8_cont((unsigned char)b), b >= 0x80 && b <= 0xbf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(boundaries),
        cmocka_unit_test(overlongs),
        cmocka_unit_test(surrogates),
        cmocka_unit_test(past_max),
        cmocka_unit_test(cut_and_broken),
        cmocka_unit_test(exhaustive),
        cmocka_unit_test(chars_and_continuations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
