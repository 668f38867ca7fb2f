/* test_yamlout.c - the YAML writer's scalars read back as what they are
 * (issue 15, item 6), checked against YAML 1.1's own rules written here (not
 * taken from yamlout.c): a float must match PyYAML's float pattern (a dot in
 * the mantissa, a signed exponent) and strtod back to the same bits; a string
 * that a YAML 1.1 loader would resolve to another type ('<<' the merge key,
 * 'yes', '1e3', '~') must be quoted; integers at the int64 and uint64 ends
 * are written whole. */
#include "testutil.h"

#include <regex.h>

#include "yamlout.h"

/* Everything written between nnav_yw_open and nnav_yw_close, as one string. */
typedef struct capture {
    char *buf;
    size_t len;
    FILE *f;
    nnav_yw w;
} capture;

static void cap_open(capture *c)
{
    c->buf = NULL;
    c->f = open_memstream(&c->buf, &c->len);
    assert_non_null(c->f);
    assert_int_equal(nnav_yw_open(&c->w, c->f), 0);
    nnav_yw_seq_flow(&c->w);
}

/* The flow list's items, split at ", " (the items written here hold none). */
static size_t cap_close(capture *c, char items[][64], size_t max)
{
    nnav_yw_seq_end(&c->w);
    assert_int_equal(nnav_yw_close(&c->w), 0);
    fclose(c->f);
    char *s = strchr(c->buf, '[');
    assert_non_null(s);
    char *e = strrchr(s, ']');
    assert_non_null(e);
    *e = 0;
    /* The emitter wraps a long flow list: a line break and its indent read as one space. */
    char *o = s;
    for (char *p = s; *p; p++) {
        if (*p == '\n') {
            while (p[1] == ' ')
                p++;
            if (o > s && o[-1] != ' ')
                *o++ = ' ';
            continue;
        }
        *o++ = *p;
    }
    *o = 0;
    size_t n = 0;
    for (char *tok = s + 1; tok && n < max;) {
        char *next = strstr(tok, ", ");
        if (next)
            *next = 0;
        snprintf(items[n++], 64, "%s", tok);
        tok = next ? next + 2 : NULL;
    }
    free(c->buf);
    return n;
}

/* PyYAML's implicit float (yaml/resolver.py), without the sexagesimal form. */
static int yaml11_float(const char *s)
{
    regex_t re;
    int ok;
    assert_int_equal(regcomp(&re,
                             "^([-+]?([0-9][0-9_]*)\\.[0-9_]*([eE][-+][0-9]+)?"
                             "|\\.[0-9_]+([eE][-+][0-9]+)?"
                             "|[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN))$",
                             REG_EXTENDED | REG_NOSUB),
                     0);
    ok = regexec(&re, s, 0, NULL, 0) == 0;
    regfree(&re);
    return ok;
}

static double back(const char *s)
{
    if (!strcmp(s, ".inf"))
        return INFINITY;
    if (!strcmp(s, "-.inf"))
        return -INFINITY;
    if (!strcmp(s, ".nan"))
        return NAN;
    return strtod(s, NULL);
}

static void test_floats(void **state)
{
    (void)state;
    const double xs[] = {1e-310, 1e+20, -0.0, 0.0, 1.0, -2.0, 0.1, 5e-324, 1.7976931348623157e308,
                         -2.5e-8, 1e100, 123456789.0, 3.4028234663852886e+38, INFINITY,
                         -INFINITY, NAN, 2.2250738585072014e-308, 1e-7, 1e16, 9007199254740993.0};
    size_t n = sizeof xs / sizeof *xs;
    char items[32][64];
    capture c;
    cap_open(&c);
    for (size_t i = 0; i < n; i++)
        nnav_yw_double(&c.w, xs[i]);
    assert_int_equal(cap_close(&c, items, 32), n);
    for (size_t i = 0; i < n; i++) {
        if (!yaml11_float(items[i]))
            fail_msg("%.17g written as '%s': not a float to a YAML 1.1 loader", xs[i], items[i]);
        double b = back(items[i]);
        if (isnan(xs[i]) ? !isnan(b) : memcmp(&b, &xs[i], sizeof b) != 0)
            fail_msg("%.17g written as '%s' reads back as %.17g", xs[i], items[i], b);
    }
    assert_string_equal(items[0], "1.0e-310");
    assert_string_equal(items[1], "1.0e+20");
    assert_string_equal(items[2], "-0.0");
}

static void test_typed_words_quoted(void **state)
{
    (void)state;
    /* Each would read back as something other than this string unquoted. */
    const char *words[] = {"<<", "=", "yes", "No", "on", "~", "null", "", "1e3", "0x1F", "-",
                           ".5", "+1", "1:30", "2001-12-14", ".inf", "-.inf", ".nan", "true"};
    size_t n = sizeof words / sizeof *words;
    char items[32][64];
    capture c;
    cap_open(&c);
    for (size_t i = 0; i < n; i++)
        nnav_yw_cstr(&c.w, words[i]);
    assert_int_equal(cap_close(&c, items, 32), n);
    for (size_t i = 0; i < n; i++) {
        char want[64];
        snprintf(want, sizeof want, "\"%s\"", words[i]);
        if (strcmp(items[i], want) && !(items[i][0] == '\'' && strlen(items[i]) >= 2))
            fail_msg("'%s' written as %s, not quoted", words[i], items[i]);
    }
}

static void test_integer_ends(void **state)
{
    (void)state;
    char items[8][64];
    capture c;
    cap_open(&c);
    nnav_yw_int(&c.w, INT64_MAX);
    nnav_yw_int(&c.w, INT64_MIN);
    nnav_yw_int(&c.w, (1LL << 53) + 1);
    nnav_yw_uint(&c.w, UINT64_MAX);
    assert_int_equal(cap_close(&c, items, 8), 4);
    assert_string_equal(items[0], "9223372036854775807");
    assert_string_equal(items[1], "-9223372036854775808");
    assert_string_equal(items[2], "9007199254740993");
    assert_string_equal(items[3], "18446744073709551615");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_floats),
        cmocka_unit_test(test_typed_words_quoted),
        cmocka_unit_test(test_integer_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
