/* The text path to the screen: file bytes are escaped by the core's
 * sanitiser, then cut to a width in columns; no control character survives. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <locale.h>
#include <string.h>
#include <wchar.h>
#include <cmocka.h>

#include "draw.h"

static int utf8_locale(void)
{
    return setlocale(LC_ALL, "C.UTF-8") != NULL || setlocale(LC_ALL, "en_US.UTF-8") != NULL;
}

static void no_controls(const wchar_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (w[i] < 0x20 || w[i] == 0x7f || (w[i] >= 0x80 && w[i] < 0xa0))
            fail_msg("control character U+%04X at %zu", (unsigned)w[i], i);
}

static void test_prepare_fits_and_cuts(void **state)
{
    (void)state;
    if (!utf8_locale())
        skip();
    wchar_t w[64];
    int cols;
    size_t n = draw_prepare("conv1", 5, 10, 1, w, 64, &cols);
    assert_int_equal(n, 5);
    assert_int_equal(cols, 5);
    n = draw_prepare("abcdefghij", 10, 6, 1, w, 64, &cols);
    assert_int_equal(cols, 6);
    assert_int_equal(w[5], 0x2026); /* the cut shows */
    assert_int_equal(w[4], 'e');
    /* ASCII terminals get '~' and no UTF-8 */
    n = draw_prepare("abcdefghij", 10, 6, 0, w, 64, &cols);
    assert_int_equal(w[5], '~');
}

static void test_prepare_wide_characters(void **state)
{
    (void)state;
    if (!utf8_locale())
        skip();
    wchar_t w[64];
    int cols;
    /* three CJK characters take six columns; five columns hold two and the ellipsis */
    const char *s = "\xe5\x8d\xb7\xe7\xa7\xaf\xe5\xb1\x82";
    size_t n = draw_prepare(s, strlen(s), 6, 1, w, 64, &cols);
    assert_int_equal(n, 3);
    assert_int_equal(cols, 6);
    n = draw_prepare(s, strlen(s), 5, 1, w, 64, &cols);
    assert_int_equal(n, 3);
    assert_int_equal(cols, 5);
    assert_int_equal(w[2], 0x2026);
    /* on an ASCII terminal each byte of them is a '?' */
    n = draw_prepare(s, strlen(s), 40, 0, w, 64, &cols);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(w[i], '?');
}

/* Even text that skipped the sanitiser cannot carry control characters. */
static void test_prepare_drops_controls(void **state)
{
    (void)state;
    if (!utf8_locale())
        skip();
    wchar_t w[64];
    int cols;
    const char *s = "a\033]0;x\007b\xc2\x9b" "c\x7f";
    size_t n = draw_prepare(s, strlen(s), 40, 1, w, 64, &cols);
    no_controls(w, n);
    assert_int_equal(w[0], 'a');
    assert_int_equal(w[1], '?');
    /* invalid UTF-8 is a '?' too */
    n = draw_prepare("x\xff\xfey", 4, 40, 1, w, 64, &cols);
    no_controls(w, n);
    assert_int_equal(n, 4);
    assert_int_equal(w[1], '?');
}

/* File bytes: an OSC title sequence and a colour escape come out as visible text. */
static void test_escape_file_bytes(void **state)
{
    (void)state;
    if (!utf8_locale())
        skip();
    const char raw[] = "evil\033]0;PWNED\007\033[31mred";
    nnav_span s = { (const uint8_t *)raw, sizeof raw - 1 };
    char buf[256];
    draw_escape(s, 80, buf, sizeof buf);
    assert_null(strchr(buf, '\033'));
    assert_null(strchr(buf, '\007'));
    assert_non_null(strstr(buf, "evil"));
    assert_non_null(strstr(buf, "red"));
    wchar_t w[256];
    int cols;
    size_t n = draw_prepare(buf, strlen(buf), 200, 1, w, 256, &cols);
    no_controls(w, n);
    /* a long name is only escaped as far as the width needs */
    char big[5000];
    memset(big, 'x', sizeof big);
    nnav_span b = { (const uint8_t *)big, sizeof big };
    size_t k = draw_escape(b, 10, buf, sizeof buf);
    assert_true(k > 10 && k < 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prepare_fits_and_cuts),
        cmocka_unit_test(test_prepare_wide_characters),
        cmocka_unit_test(test_prepare_drops_controls),
        cmocka_unit_test(test_escape_file_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
