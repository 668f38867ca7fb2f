/* The curses-free pieces of the explorer's export: the suggested file name,
 * the format from the extension and Tab's switch, the comma lists of the
 * region prompts, and the set of marked nodes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "exporter.h"
#include "marks.h"

static void test_default_name(void **state)
{
    (void)state;
    char b[256];
    exporter_default_name("models/cnn.onnx", "main", "", 0, ".yaml", b, sizeof b);
    assert_string_equal(b, "cnn-main.yaml");
    exporter_default_name("cnn.ONNX", "loop.body", "marked", 0, ".onnx", b, sizeof b);
    assert_string_equal(b, "cnn-loop.body-marked.onnx");
    exporter_default_name("/m/cnn.onnx", "main", "region", 3, ".yaml", b, sizeof b);
    assert_string_equal(b, "cnn-main-region-3.yaml");
    /* A SavedModel: the folder names it, with or without the .pb or a slash. */
    exporter_default_name("zoo/resnet/saved_model.pb", "main", "", 0, ".yaml", b, sizeof b);
    assert_string_equal(b, "resnet-main.yaml");
    exporter_default_name("zoo/resnet//", "main", "", 0, ".yaml", b, sizeof b);
    assert_string_equal(b, "resnet-main.yaml");
    exporter_default_name("frozen.pb", "main", "", 0, ".yaml", b, sizeof b);
    assert_string_equal(b, "frozen-main.yaml");
    /* Dots inside a folder's name are not an extension. */
    exporter_default_name("mobilenet_v2_1.0", "main", "", 0, ".yaml", b, sizeof b);
    assert_string_equal(b, "mobilenet_v2_1.0-main.yaml");
    /* A function's label loses its @. */
    exporter_default_name("m.onnx", "@AddLeakyRelu", "", 0, ".yaml", b, sizeof b);
    assert_string_equal(b, "m-AddLeakyRelu.yaml");
}

/* Names come from the file: none may steer the path or hide the file. */
static void test_default_name_hostile(void **state)
{
    (void)state;
    char b[256];
    exporter_default_name("m.onnx", "../../etc/passwd", "", 0, ".yaml", b, sizeof b);
    assert_null(strchr(b, '/'));
    assert_string_equal(b, "m-etc_passwd.yaml");
    exporter_default_name("m.onnx", "evil\\x1b]0;PWNED\\x07", "", 0, ".yaml", b, sizeof b);
    for (const char *p = b; *p; p++)
        assert_true(strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-", *p));
    exporter_default_name("-rf.onnx", "---", "", 0, ".yaml", b, sizeof b);
    assert_string_equal(b, "rf-graph.yaml");
    exporter_default_name(".hidden.onnx", "\xe2\x80\xae", "", 0, ".yaml", b, sizeof b);
    assert_string_equal(b, "hidden-graph.yaml");
    exporter_default_name("", "", "", 0, ".yaml", b, sizeof b);
    assert_string_equal(b, "model-graph.yaml");
    /* Long names are cut, and a small buffer is never overrun. */
    char longname[3000];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    size_t n = exporter_default_name(longname, longname, "", 0, ".yaml", b, sizeof b);
    assert_true(n < 160);
    assert_string_equal(b + n - 5, ".yaml");
    char tiny[8];
    n = exporter_default_name("cnn.onnx", "main", "", 0, ".yaml", tiny, sizeof tiny);
    assert_int_equal(n, 7);
    assert_string_equal(tiny, "cnn-mai");
}

static void test_format_and_toggle(void **state)
{
    (void)state;
    assert_int_equal(exporter_format_of("a.onnx"), NNAV_EXPORT_ONNX);
    assert_int_equal(exporter_format_of("dir/a.ONNX"), NNAV_EXPORT_ONNX);
    assert_int_equal(exporter_format_of("a.yaml"), NNAV_EXPORT_YAML);
    assert_int_equal(exporter_format_of("a.txt"), NNAV_EXPORT_YAML);
    assert_int_equal(exporter_format_of("a"), NNAV_EXPORT_YAML);
    assert_int_equal(exporter_format_of("x.onnx/a"), NNAV_EXPORT_YAML);
    assert_int_equal(exporter_format_of(".onnx"), NNAV_EXPORT_YAML); /* a hidden file */

    char b[32] = "out/cnn-main.yaml";
    assert_int_equal(exporter_toggle_ext(b, sizeof b), NNAV_EXPORT_ONNX);
    assert_string_equal(b, "out/cnn-main.onnx");
    assert_int_equal(exporter_toggle_ext(b, sizeof b), NNAV_EXPORT_YAML);
    assert_string_equal(b, "out/cnn-main.yaml");
    strcpy(b, "a.yml");
    exporter_toggle_ext(b, sizeof b);
    assert_string_equal(b, "a.onnx");
    strcpy(b, "a.txt");
    exporter_toggle_ext(b, sizeof b);
    assert_string_equal(b, "a.txt.onnx");
    strcpy(b, "");
    assert_int_equal(exporter_toggle_ext(b, sizeof b), NNAV_EXPORT_YAML);
    assert_string_equal(b, ""); /* no name yet: nothing to switch */
    strcpy(b, "out/");
    exporter_toggle_ext(b, sizeof b);
    assert_string_equal(b, "out/");
    strcpy(b, "x.onnx.d/a");
    exporter_toggle_ext(b, sizeof b);
    assert_string_equal(b, "x.onnx.d/a.onnx");
    /* No room: left alone. */
    char small[8] = "abc.yml";
    assert_int_equal(exporter_toggle_ext(small, sizeof small), NNAV_EXPORT_YAML);
    assert_string_equal(small, "abc.yml");
}

static void test_split(void **state)
{
    (void)state;
    size_t n;
    char **v = exporter_split(" a, b ,,c\t", &n);
    assert_non_null(v);
    assert_int_equal(n, 3);
    assert_string_equal(v[0], "a");
    assert_string_equal(v[1], "b");
    assert_string_equal(v[2], "c");
    assert_null(v[3]);
    free(v);
    v = exporter_split("", &n);
    assert_non_null(v);
    assert_int_equal(n, 0);
    free(v);
    v = exporter_split(" , ,", &n);
    assert_int_equal(n, 0);
    free(v);
    v = exporter_split("with space:0", &n);
    assert_int_equal(n, 1);
    assert_string_equal(v[0], "with space:0");
    free(v);
}

static void test_expand_home(void **state)
{
    (void)state;
    char b[64];
    setenv("HOME", "/home/me", 1);
    assert_int_equal(exporter_expand_home("~/x.yaml", b, sizeof b), 0);
    assert_string_equal(b, "/home/me/x.yaml");
    assert_int_equal(exporter_expand_home("~", b, sizeof b), 0);
    assert_string_equal(b, "/home/me");
    assert_int_equal(exporter_expand_home("~bob/x", b, sizeof b), 0);
    assert_string_equal(b, "~bob/x");
    assert_int_equal(exporter_expand_home("a/~/x", b, sizeof b), 0);
    assert_string_equal(b, "a/~/x");
    char tiny[4];
    assert_int_equal(exporter_expand_home("~/x", tiny, sizeof tiny), -1);
}

static void test_marks(void **state)
{
    (void)state;
    mark_set s;
    uint32_t out[8];
    marks_init(&s, 20);
    assert_int_equal(s.count, 0);
    assert_false(marks_has(&s, 3));
    assert_int_equal(marks_list(&s, 0, 20, out), 0);
    /* graph 1 holds nodes 10..19 */
    assert_int_equal(marks_toggle(&s, 17, 1), MARK_ON);
    assert_int_equal(marks_toggle(&s, 11, 1), MARK_ON);
    assert_int_equal(marks_toggle(&s, 12, 1), MARK_ON);
    assert_int_equal(s.count, 3);
    assert_int_equal(s.graph, 1);
    assert_true(marks_has(&s, 17));
    assert_false(marks_has(&s, 16));
    /* Another graph is refused while marks are held. */
    assert_int_equal(marks_toggle(&s, 2, 0), MARK_OTHER_GRAPH);
    assert_false(marks_has(&s, 2));
    assert_int_equal(marks_toggle(&s, 12, 1), MARK_OFF);
    assert_int_equal(marks_list(&s, 10, 10, out), 2);
    assert_int_equal(out[0], 11); /* graph order */
    assert_int_equal(out[1], 17);
    assert_int_equal(marks_toggle(&s, 11, 1), MARK_OFF);
    assert_int_equal(marks_toggle(&s, 17, 1), MARK_OFF);
    /* Empty again: any graph may be marked. */
    assert_int_equal(marks_toggle(&s, 2, 0), MARK_ON);
    assert_int_equal(s.graph, 0);
    marks_clear(&s);
    assert_int_equal(s.count, 0);
    assert_false(marks_has(&s, 2));
    /* Out of range ids are not marks. */
    assert_int_equal(marks_toggle(&s, 20, 0), MARK_OFF);
    assert_false(marks_has(&s, 20));
    assert_false(marks_has(&s, UINT32_MAX));
    marks_free(&s);
    assert_false(marks_has(&s, 2));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_name),
        cmocka_unit_test(test_default_name_hostile),
        cmocka_unit_test(test_format_and_toggle),
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_expand_home),
        cmocka_unit_test(test_marks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
