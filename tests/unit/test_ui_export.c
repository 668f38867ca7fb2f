/* The curses-free pieces of the explorer's export: the suggested file name,
 * the format from the extension and Tab's switch, the comma lists of the
 * region prompts, the set of marked nodes, and which file names are refused
 * before the overwrite question. */
#include "testutil.h"

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

static void copy_file(const char *from, const char *to)
{
    size_t n;
    uint8_t *p = tu_read(from, &n);
    tu_write(to, p, n);
    free(p);
}

/* Every file a SavedModel reads is refused at the file name prompt, by
 * device and inode: its index under its own name, a hard link, a symbolic
 * link, a path through a linked folder; its shard and saved_model.pb too.
 * An ordinary file gets the question, a new name none. */
static void test_target_inputs(void **state)
{
    (void)state;
    char sm[4096], vars[4096], index[4096], p[4096];
    const char *d = tu_tmpdir("ui_export_target");
    snprintf(sm, sizeof sm, "%s/sm", d);
    snprintf(vars, sizeof vars, "%s/variables", sm);
    snprintf(index, sizeof index, "%s/variables.index", vars);
    assert_int_equal(mkdir(sm, 0755), 0);
    assert_int_equal(mkdir(vars, 0755), 0);
    static const char *files[] = {"saved_model.pb", "variables/variables.index",
                                  "variables/variables.data-00000-of-00001"};
    for (size_t i = 0; i < 3; i++) {
        char from[4096];
        snprintf(from, sizeof from, "tf_saved_model/%s", files[i]);
        snprintf(p, sizeof p, "%s/%s", sm, files[i]);
        copy_file(tu_sample(from), p);
    }
    size_t n0, n1;
    uint8_t *before = tu_read(index, &n0);
    nnav_model *m = tu_open(sm);
    nnav_error err;

    snprintf(p, sizeof p, "%s/hard.yaml", d);
    assert_int_equal(link(index, p), 0);
    char sym[4096], vdir[4096];
    snprintf(sym, sizeof sym, "%s/sym.yaml", d);
    assert_int_equal(symlink(index, sym), 0);
    snprintf(vdir, sizeof vdir, "%s/vdir", d);
    assert_int_equal(symlink(vars, vdir), 0);
    char via_dir[4096];
    snprintf(via_dir, sizeof via_dir, "%s/variables.index", vdir);
    const char *index_names[] = {index, p, sym, via_dir};
    for (size_t i = 0; i < 4; i++) {
        memset(&err, 0, sizeof err);
        assert_int_equal(exporter_target(m, index_names[i], &err), -1);
        assert_int_equal(err.kind, NNAV_ERR_INPUT);
        if (!strstr(err.msg, "model being read (or its data): its variables/variables.index"))
            fail_msg("%s: %s", index_names[i], err.msg);
    }
    snprintf(p, sizeof p, "%s/variables.data-00000-of-00001", vars);
    assert_int_equal(exporter_target(m, p, &err), -1);
    assert_non_null(strstr(err.msg, "its external data file variables/variables.data-00000-of-00001"));
    snprintf(p, sizeof p, "%s/saved_model.pb", sm);
    assert_int_equal(exporter_target(m, p, &err), -1);
    assert_non_null(strstr(err.msg, "the model file"));

    snprintf(p, sizeof p, "%s/other.yaml", d);
    tu_write(p, "old\n", 4);
    assert_int_equal(exporter_target(m, p, &err), 1);
    snprintf(p, sizeof p, "%s/new.yaml", d);
    assert_int_equal(exporter_target(m, p, &err), 0);

    uint8_t *after = tu_read(index, &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, n0);
    free(before);
    free(after);
    nnav_model_close(m);
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
        cmocka_unit_test(test_target_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
