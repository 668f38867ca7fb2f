/* Names with combining marks and wide characters on screen: draw_escape
 * takes enough of a long name to fill its width and show the cut, however
 * many bytes a column takes, so a long name is never shown short and uncut
 * (two names that differ past the cut must not look complete and equal). */
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

/* The name as a pane shows it in `width` columns: escaped, then cut. */
static size_t shown(const uint8_t *name, size_t len, int width, wchar_t *w, size_t wn, int *cols)
{
    char buf[4096];
    nnav_span s = {name, len};
    size_t k = draw_escape(s, (size_t)width, buf, sizeof buf);
    return draw_prepare(buf, k, width, 1, w, wn, cols);
}

static void expect_cut(const uint8_t *name, size_t len, int width, const char *what)
{
    wchar_t w[512];
    int cols;
    size_t n = shown(name, len, width, w, 512, &cols);
    if (n == 0 || w[n - 1] != 0x2026)
        fail_msg("%s in %d columns: shown in %d columns with no cut mark", what, width, cols);
    /* (A wide character that does not fit leaves one column.) */
    if (cols < width - 1)
        fail_msg("%s in %d columns: only %d columns filled", what, width, cols);
}

static void test_marks_fill_the_width(void **state)
{
    (void)state;
    if (!utf8_locale())
        skip();
    uint8_t name[2000];
    size_t n = 0;
    /* 100 columns: each 'a' with two 4-byte marks (U+1D167 COMBINING
     * TREMOLO-1, kept: two a character), 9 bytes a column. */
    for (int i = 0; i < 100; i++) {
        name[n++] = 'a';
        for (int k = 0; k < 2; k++) {
            memcpy(name + n, "\xf0\x9d\x85\xa7", 4);
            n += 4;
        }
    }
    expect_cut(name, n, 20, "a name of a, two marks, each");
    expect_cut(name, n, 1, "the same");
    /* Each with a third mark (escaped: eight columns of text of its own). */
    n = 0;
    for (int i = 0; i < 100; i++) {
        name[n++] = 'e';
        memcpy(name + n, "\xcc\x81\xcc\x82\xcc\x83", 6);
        n += 6;
    }
    expect_cut(name, n, 30, "e with three marks, each");
    /* Wide characters: two columns for three bytes. */
    n = 0;
    for (int i = 0; i < 100; i++) {
        memcpy(name + n, "\xe6\xa8\xa1", 3);
        n += 3;
    }
    expect_cut(name, n, 40, "CJK");
    /* A short name is shown whole. */
    wchar_t w[64];
    int cols;
    size_t k = shown((const uint8_t *)"e\xcc\x81x", 4, 20, w, 64, &cols);
    assert_int_equal(cols, 2);
    assert_int_equal(k, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_marks_fill_the_width),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
