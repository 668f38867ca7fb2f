/* Cutting a name at its start: a long machine-made name keeps its end, the
 * part that tells it from its neighbours, and escaping still holds. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <locale.h>
#include <string.h>
#include <wchar.h>
#include <cmocka.h>

#include "draw.h"

static int utf8_locale(void)
{
    return setlocale(LC_ALL, "C.UTF-8") != NULL || setlocale(LC_ALL, "en_US.UTF-8") != NULL;
}

/* The prepared characters back as UTF-8, for comparing with a literal. */
static const char *narrow(const wchar_t *w, size_t n, char *buf, size_t cap)
{
    size_t o = 0;
    mbstate_t st;
    memset(&st, 0, sizeof st);
    for (size_t i = 0; i < n; i++) {
        char mb[8];
        size_t k = wcrtomb(mb, w[i], &st);
        if (k == (size_t)-1 || k > sizeof mb || o + k >= cap)
            fail_msg("character %zu does not convert", i);
        memcpy(buf + o, mb, k);
        o += k;
    }
    buf[o] = '\0';
    return buf;
}

static const char *NAME = "/encoder/layers/encoder_layer_5/self_attention/Transpose";

static void test_fits_unchanged(void **state)
{
    (void)state;
    if (!utf8_locale())
        skip();
    wchar_t w[128];
    char b[256];
    int cols;
    size_t n = draw_prepare_tail(NAME, strlen(NAME), 80, 1, w, 128, &cols);
    assert_int_equal(cols, (int)strlen(NAME));
    assert_string_equal(narrow(w, n, b, sizeof b), NAME);
    /* exactly as wide as the room: no ellipsis either */
    n = draw_prepare_tail(NAME, strlen(NAME), (int)strlen(NAME), 1, w, 128, &cols);
    assert_string_equal(narrow(w, n, b, sizeof b), NAME);
}

static void test_cut_keeps_the_end(void **state)
{
    (void)state;
    if (!utf8_locale())
        skip();
    wchar_t w[128];
    char b[256];
    int cols;
    size_t n = draw_prepare_tail(NAME, strlen(NAME), 30, 1, w, 128, &cols);
    assert_int_equal(cols, 30);
    assert_string_equal(narrow(w, n, b, sizeof b), "\xe2\x80\xa6" "er_5/self_attention/Transpose");
    /* an ASCII terminal gets '~' */
    n = draw_prepare_tail(NAME, strlen(NAME), 10, 0, w, 128, &cols);
    assert_int_equal(cols, 10);
    assert_string_equal(narrow(w, n, b, sizeof b), "~Transpose");
    /* one column holds the ellipsis alone; none holds nothing */
    n = draw_prepare_tail(NAME, strlen(NAME), 1, 1, w, 128, &cols);
    assert_int_equal(n, 1);
    assert_int_equal(cols, 1);
    n = draw_prepare_tail(NAME, strlen(NAME), 0, 1, w, 128, &cols);
    assert_int_equal(n, 0);
    assert_int_equal(cols, 0);
}

static void test_wide_characters_whole(void **state)
{
    (void)state;
    if (!utf8_locale())
        skip();
    wchar_t w[64];
    char b[128];
    int cols;
    /* "a/" then three CJK characters (two columns each): 8 columns */
    const char *s = "a/\xe5\x8d\xb7\xe7\xa7\xaf\xe5\xb1\x82";
    size_t n = draw_prepare_tail(s, strlen(s), 6, 1, w, 64, &cols);
    /* the ellipsis and two whole characters; half of one never shows */
    assert_int_equal(cols, 5);
    assert_string_equal(narrow(w, n, b, sizeof b), "\xe2\x80\xa6\xe7\xa7\xaf\xe5\xb1\x82");
    n = draw_prepare_tail(s, strlen(s), 8, 1, w, 64, &cols);
    assert_int_equal(cols, 8);
    assert_string_equal(narrow(w, n, b, sizeof b), s);
    /* a combining mark whose base was cut does not sit on the ellipsis */
    const char *m = "abcde\xcc\x81" "fg"; /* e + combining acute */
    n = draw_prepare_tail(m, strlen(m), 3, 1, w, 64, &cols);
    assert_string_equal(narrow(w, n, b, sizeof b), "\xe2\x80\xa6" "fg");
    n = draw_prepare_tail(m, strlen(m), 4, 1, w, 64, &cols);
    assert_string_equal(narrow(w, n, b, sizeof b), "\xe2\x80\xa6" "e\xcc\x81" "fg");
}

static void test_small_output_buffer_keeps_end(void **state)
{
    (void)state;
    if (!utf8_locale())
        skip();
    wchar_t w[6];
    char b[64];
    int cols;
    size_t n = draw_prepare_tail(NAME, strlen(NAME), 200, 1, w, 6, &cols);
    assert_int_equal(n, 5);
    assert_string_equal(narrow(w, n, b, sizeof b), "\xe2\x80\xa6" "pose");
}

static void test_escape_tail_escapes(void **state)
{
    (void)state;
    if (!utf8_locale())
        skip();
    /* a control character and an escape sequence near the end stay visible escapes */
    const char raw[] = "/very/long/prefix/that/will/be/cut/away/\x1b[31mRed\x07";
    nnav_span s = { (const uint8_t *)raw, sizeof raw - 1 };
    char *e = draw_escape_tail(s, 12);
    assert_non_null(e);
    assert_non_null(strstr(e, "\\x1B[31mRed\\x07"));
    for (const char *q = e; *q; q++)
        assert_true((unsigned char)*q >= 0x20 && *q != 0x7f);
    wchar_t w[64];
    char b[128];
    int cols;
    size_t n = draw_prepare_tail(e, strlen(e), 12, 1, w, 64, &cols);
    assert_string_equal(narrow(w, n, b, sizeof b), "\xe2\x80\xa6" "[31mRed\\x07");
    free(e);
}

static void test_escape_tail_of_a_huge_name(void **state)
{
    (void)state;
    if (!utf8_locale())
        skip();
    /* four megabytes of 'a' then the distinctive end: only a piece is escaped */
    size_t len = (size_t)4 << 20;
    uint8_t *p = malloc(len);
    assert_non_null(p);
    memset(p, 'a', len);
    memcpy(p + len - 12, "/layer_7/Add", 12);
    nnav_span s = { p, len };
    char *e = draw_escape_tail(s, 40);
    assert_non_null(e);
    assert_true(strlen(e) < 4096);
    size_t k = strlen(e);
    assert_true(k >= 12 && memcmp(e + k - 12, "/layer_7/Add", 12) == 0);
    free(e);
    /* starting inside a multi-byte character: the piece starts on a boundary */
    for (size_t i = 0; i + 2 <= len; i += 2)
        memcpy(p + i, "\xc3\xa9", 2); /* é */
    s.n = len - 1;                     /* ends on a lone first byte */
    e = draw_escape_tail(s, 10);
    assert_non_null(e);
    assert_int_equal((unsigned char)e[0], 0xc3);
    assert_non_null(strstr(e, "\\xC3"));
    free(e);
    free(p);
}

static void test_wrap_pieces(void **state)
{
    (void)state;
    if (!utf8_locale())
        skip();
    wchar_t w[64];
    char b[128];
    int pieces;
    /* 56 columns at 39: two pieces, the second the rest */
    size_t n = draw_wrap_piece(NAME, strlen(NAME), 39, 1, 1, w, 64, &pieces);
    assert_int_equal(pieces, 2);
    assert_string_equal(narrow(w, n, b, sizeof b), "tention/Transpose");
    n = draw_wrap_piece(NAME, strlen(NAME), 39, 0, 1, w, 64, &pieces);
    assert_string_equal(narrow(w, n, b, sizeof b), "/encoder/layers/encoder_layer_5/self_at");
    /* a wide character that would straddle the edge starts the next piece */
    const char *s = "abc\xe5\x8d\xb7" "d"; /* 3 + 2 + 1 columns */
    n = draw_wrap_piece(s, strlen(s), 4, 0, 1, w, 64, &pieces);
    assert_int_equal(pieces, 2);
    assert_string_equal(narrow(w, n, b, sizeof b), "abc");
    n = draw_wrap_piece(s, strlen(s), 4, 1, 1, w, 64, &pieces);
    assert_string_equal(narrow(w, n, b, sizeof b), "\xe5\x8d\xb7" "d");
    /* nothing: no pieces */
    draw_wrap_piece("", 0, 10, 0, 1, w, 64, &pieces);
    assert_int_equal(pieces, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fits_unchanged),
        cmocka_unit_test(test_cut_keeps_the_end),
        cmocka_unit_test(test_wide_characters_whole),
        cmocka_unit_test(test_small_output_buffer_keeps_end),
        cmocka_unit_test(test_escape_tail_escapes),
        cmocka_unit_test(test_escape_tail_of_a_huge_name),
        cmocka_unit_test(test_wrap_pieces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
