/* The key map, the help screen and ui/KEYS.md come from one list and agree. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "keys.h"
#include "layout.h"

static void test_every_request_has_a_key(void **state)
{
    (void)state;
    size_t n;
    const struct request_info *t = keys_table(&n);
    assert_int_equal(n, REQ_COUNT - 1);
    for (size_t i = 0; i < n; i++) {
        assert_int_not_equal(t[i].keys[0], 0);
        assert_int_equal(keys_lookup(t[i].keys[0]), t[i].req);
    }
}

static void test_no_key_bound_twice(void **state)
{
    (void)state;
    size_t n;
    const struct request_info *t = keys_table(&n);
    for (size_t i = 0; i < n; i++)
        for (int a = 0; a < KEYS_PER_REQUEST && t[i].keys[a]; a++)
            for (size_t j = 0; j < n; j++)
                for (int b = 0; b < KEYS_PER_REQUEST && t[j].keys[b]; b++)
                    if ((i != j || a != b) && t[i].keys[a] == t[j].keys[b])
                        fail_msg("key %d bound to %s and %s", t[i].keys[a], t[i].name, t[j].name);
}

static void test_issue_keys(void **state)
{
    (void)state;
    assert_int_equal(keys_lookup('j'), REQ_MOVE_DOWN);
    assert_int_equal(keys_lookup('k'), REQ_MOVE_UP);
    assert_int_equal(keys_lookup('g'), REQ_MOVE_FIRST);
    assert_int_equal(keys_lookup('G'), REQ_MOVE_LAST);
    assert_int_equal(keys_lookup(CTL('d')), REQ_HALF_DOWN);
    assert_int_equal(keys_lookup(CTL('u')), REQ_HALF_UP);
    assert_int_equal(keys_lookup('\t'), REQ_FOCUS_NEXT);
    assert_int_equal(keys_lookup(KEY_BTAB), REQ_FOCUS_PREV);
    assert_int_equal(keys_lookup(KEY_BACKSPACE), REQ_BACK);
    assert_int_equal(keys_lookup(CTL('o')), REQ_BACK);
    assert_int_equal(keys_lookup(']'), REQ_FORWARD);
    assert_int_equal(keys_lookup('/'), REQ_SEARCH);
    assert_int_equal(keys_lookup(':'), REQ_GOTO);
    assert_int_equal(keys_lookup('v'), REQ_GRAPH_VIEW);
    assert_int_equal(keys_lookup('y'), REQ_YANK);
    assert_int_equal(keys_lookup(' '), REQ_MARK);
    assert_int_equal(keys_lookup('U'), REQ_UNMARK_ALL);
    assert_int_equal(keys_lookup('e'), REQ_EXPORT);
    assert_int_equal(keys_lookup('E'), REQ_EXPORT_REGION);
    assert_int_equal(keys_lookup('?'), REQ_HELP);
    assert_int_equal(keys_lookup('q'), REQ_QUIT);
    assert_int_equal(keys_lookup('x'), REQ_NONE);
    assert_int_equal(keys_lookup(0), REQ_NONE);
}

static void test_names(void **state)
{
    (void)state;
    char b[32];
    assert_string_equal(keys_name('j', b, sizeof b), "j");
    assert_string_equal(keys_name(KEY_DOWN, b, sizeof b), "Down");
    assert_string_equal(keys_name(CTL('d'), b, sizeof b), "C-d");
    assert_string_equal(keys_name('\t', b, sizeof b), "Tab");
    assert_string_equal(keys_name(KEY_F(1), b, sizeof b), "F1");
    assert_string_equal(keys_list(REQ_MOVE_DOWN, b, sizeof b), "Down, j");
    assert_string_equal(keys_list(REQ_MARK, b, sizeof b), "Space");
    assert_string_equal(keys_request_name(REQ_QUIT), "quit");
}

/* Every request appears in the help with its keys, at any width, and no help
 * line is wider than asked. */
static void test_help_covers_the_table(void **state)
{
    (void)state;
    static const int widths[] = { 40, 80, 200 };
    size_t n;
    const struct request_info *t = keys_table(&n);
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
        int width = widths[w];
        size_t lines = keys_help_lines(width);
        assert_true(lines > n);
        char *all = calloc(lines, 256);
        for (size_t i = 0; i < lines; i++) {
            char line[256];
            keys_help_line(i, width, line, sizeof line);
            if (width >= 80)
                assert_true(strlen(line) <= (size_t)width);
            strcat(all, line);
            strcat(all, "\n");
        }
        for (size_t i = 0; i < n; i++) {
            char keys[64], row[96];
            keys_list(t[i].req, keys, sizeof keys);
            snprintf(row, sizeof row, "  %-22s ", keys);
            if (!strstr(all, row))
                fail_msg("help at width %d lacks keys of %s", width, t[i].name);
            if (!strstr(all, t[i].group))
                fail_msg("help lacks group %s", t[i].group);
        }
        /* The mouse is listed with the keys. */
        if (!strstr(all, "\nMouse\n") || !strstr(all, "  click ") || !strstr(all, "  wheel "))
            fail_msg("help at width %d lacks the mouse", width);
        char last[256];
        assert_string_equal(keys_help_line(lines, width, last, sizeof last), "");
        free(all);
    }
}

/* ui/KEYS.md holds the generated table; NNAV_WRITE_KEYS=FILE regenerates it. */
static void test_keys_md_is_current(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    keys_write_markdown(f);
    fclose(f);
    const char *out = getenv("NNAV_WRITE_KEYS");
    if (out && *out) {
        FILE *w = fopen(out, "w");
        assert_non_null(w);
        fprintf(w, "# nnav explorer keys\n\nGenerated from `NNAV_REQUESTS` in ui/keys.h "
                   "(regenerate: `NNAV_WRITE_KEYS=ui/KEYS.md build/tests/test_ui_keys`).\n\n%s",
                buf);
        fclose(w);
    }
    const char *src = getenv("NNAV_SRC");
    if (!src) {
        free(buf);
        skip();
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/ui/KEYS.md", src);
    FILE *k = fopen(path, "r");
    assert_non_null(k);
    char *md = calloc(1, 1 << 16);
    size_t got = fread(md, 1, (1 << 16) - 1, k);
    fclose(k);
    md[got] = '\0';
    if (!strstr(md, buf))
        fail_msg("ui/KEYS.md is out of date with ui/keys.h: regenerate it");
    free(md);
    free(buf);
}

static void test_layout_80x24(void **state)
{
    (void)state;
    ui_layout l;
    layout_compute(24, 80, 0, &l);
    assert_false(l.too_small);
    for (int i = 0; i < PANE_COUNT; i++) {
        assert_true(l.pane[i].h >= 5);
        assert_true(l.pane[i].w >= 18);
        assert_true(l.pane[i].y >= 1 && l.pane[i].y + l.pane[i].h <= 23);
        assert_true(l.pane[i].x + l.pane[i].w <= 80);
    }
    /* no overlap: every body cell belongs to at most one pane */
    for (int y = 1; y < 23; y++)
        for (int x = 0; x < 80; x++) {
            int n = 0;
            for (int i = 0; i < PANE_COUNT; i++) {
                const rect *r = &l.pane[i];
                n += y >= r->y && y < r->y + r->h && x >= r->x && x < r->x + r->w;
            }
            assert_true(n <= 1);
        }
    assert_int_equal(layout_hit(&l, 2, 1), PANE_TREE);
    assert_int_equal(layout_hit(&l, 22, 79), PANE_TENSORS);
    ui_layout big;
    layout_compute(60, 200, 0, &big);
    assert_true(big.pane[PANE_NODES].w > l.pane[PANE_NODES].w);
    assert_true(big.pane[PANE_DETAIL].h > l.pane[PANE_DETAIL].h);
    ui_layout gv;
    layout_compute(24, 80, 1, &gv);
    assert_true(gv.pane[PANE_NODES].h > l.pane[PANE_NODES].h);
    layout_compute(10, 30, 0, &l);
    assert_true(l.too_small);
}

/* A store of tensors: no room for the node list, the tree the whole left
 * column, the initializers over the detail on the right; every body cell
 * in exactly one pane. */
static void test_layout_store(void **state)
{
    (void)state;
    ui_layout l;
    layout_compute_store(24, 80, 30, 0, &l);
    assert_false(l.too_small);
    assert_int_equal(l.pane[PANE_NODES].w, 0);
    assert_int_equal(l.pane[PANE_NODES].h, 0);
    assert_int_equal(l.pane[PANE_TREE].h, 22);
    assert_int_equal(l.pane[PANE_TENSORS].x, l.pane[PANE_TREE].w + 1);
    assert_int_equal(l.pane[PANE_DETAIL].x, l.pane[PANE_TENSORS].x);
    assert_int_equal(l.pane[PANE_DETAIL].y, l.pane[PANE_TENSORS].y + l.pane[PANE_TENSORS].h);
    assert_true(l.pane[PANE_TENSORS].h >= l.pane[PANE_DETAIL].h);
    for (int y = 1; y < 23; y++)
        for (int x = 0; x < 80; x++) {
            int n = 0;
            for (int i = 0; i < PANE_COUNT; i++) {
                const rect *r = &l.pane[i];
                n += y >= r->y && y < r->y + r->h && x >= r->x && x < r->x + r->w;
            }
            assert_int_equal(n, x == l.sep_top_x ? 0 : 1);
        }
    assert_int_equal(layout_hit(&l, 22, 0), PANE_TREE);
    assert_int_equal(layout_hit(&l, 2, 79), PANE_TENSORS);
    assert_int_equal(layout_hit(&l, 22, 79), PANE_DETAIL);
    layout_compute_store(10, 30, 0, 0, &l);
    assert_true(l.too_small);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_request_has_a_key),
        cmocka_unit_test(test_no_key_bound_twice),
        cmocka_unit_test(test_issue_keys),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_help_covers_the_table),
        cmocka_unit_test(test_keys_md_is_current),
        cmocka_unit_test(test_layout_80x24),
        cmocka_unit_test(test_layout_store),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
