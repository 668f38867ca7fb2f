/* Size columns and the ncdu-like bar; the OSC 52 encoding. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "clip.h"
#include "sizebar.h"

static void test_human(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(sizebar_human(0, b, sizeof b), "0 B");
    assert_string_equal(sizebar_human(1023, b, sizeof b), "1023 B");
    assert_string_equal(sizebar_human(1024, b, sizeof b), "1.0 KiB");
    assert_string_equal(sizebar_human(1536, b, sizeof b), "1.5 KiB");
    assert_string_equal(sizebar_human(200u * 1024 * 1024, b, sizeof b), "200 MiB");
    assert_string_equal(sizebar_human(1024u * 1024 - 1, b, sizeof b), "1.0 MiB");
    assert_string_equal(sizebar_human(UINT64_MAX, b, sizeof b), "?");
}

static void test_percent(void **state)
{
    (void)state;
    char b[16];
    assert_string_equal(sizebar_percent(1, 4, b, sizeof b), "25.0%");
    assert_string_equal(sizebar_percent(1, 0, b, sizeof b), "-");
}

static void test_eighths(void **state)
{
    (void)state;
    assert_int_equal(sizebar_eighths(0, 100, 10), 0);
    assert_int_equal(sizebar_eighths(100, 100, 10), 80);
    assert_int_equal(sizebar_eighths(50, 100, 10), 40);
    assert_int_equal(sizebar_eighths(1, 1000000, 10), 1); /* never invisible */
    assert_int_equal(sizebar_eighths(5, 0, 10), 0);
    assert_int_equal(sizebar_eighths(200, 100, 10), 80);
}

static void test_render(void **state)
{
    (void)state;
    char b[128];
    assert_string_equal(sizebar_render(50, 100, 4, 0, b, sizeof b), "##  ");
    assert_string_equal(sizebar_render(1, 1000, 4, 0, b, sizeof b), "#   ");
    assert_string_equal(sizebar_render(0, 1000, 4, 0, b, sizeof b), "    ");
    /* UTF-8: two full blocks, a half block, a space */
    assert_string_equal(sizebar_render(5, 8, 4, 1, b, sizeof b), "\u2588\u2588\u258c ");
}

static void test_base64(void **state)
{
    (void)state;
    char b[64];
    assert_int_equal(clip_base64((const unsigned char *)"", 0, b, sizeof b), 0);
    assert_string_equal(b, "");
    clip_base64((const unsigned char *)"f", 1, b, sizeof b);
    assert_string_equal(b, "Zg==");
    clip_base64((const unsigned char *)"fo", 2, b, sizeof b);
    assert_string_equal(b, "Zm8=");
    clip_base64((const unsigned char *)"foobar", 6, b, sizeof b);
    assert_string_equal(b, "Zm9vYmFy");
    assert_int_equal(clip_base64((const unsigned char *)"foobar", 6, b, 8), 0);
}

static void test_osc52(void **state)
{
    (void)state;
    char b[64];
    size_t n = clip_osc52((const unsigned char *)"conv1", 5, 0, b, sizeof b);
    assert_string_equal(b, "\033]52;c;Y29udjE=\a");
    assert_int_equal(n, strlen(b));
    clip_osc52((const unsigned char *)"conv1", 5, 1, b, sizeof b);
    assert_string_equal(b, "\033Ptmux;\033\033]52;c;Y29udjE=\a\033\\");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_human),
        cmocka_unit_test(test_percent),
        cmocka_unit_test(test_eighths),
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_base64),
        cmocka_unit_test(test_osc52),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
