/* test_record.c - the record writer (record.h, issue 16 item 3): the same
 * calls give the YAML form and the aligned text form. A table's text pads
 * each cell to its column in display columns (a wide character counts two,
 * a combining mark none), a measured column grows to its widest cell over
 * the first of two passes, an empty skip-empty cell takes its separator
 * with it, text-only and YAML-only columns show in their form alone, and a
 * name the text shows in another form (#3) stays exact in YAML; the text may
 * order the columns its own way. Maps write
 * "KEY  VALUE" lines and lists join their items on the key's line. A
 * right-aligned column pads on the left, a column's own separator replaces
 * the table's, a list cell joins its items with ", " in text and is a flow
 * sequence in YAML, a relabelled or hidden key, a sequence of maps (an
 * empty line between them in text) and a line of prose whose parts are
 * facts (a flow map in YAML) show in both forms from the same calls. */
#include "testutil.h"

#include "record.h"

static const nnav_rw_col cols[] = {
    {"kind", 6, 0, NULL, 0, NULL},
    {"name", 4, NNAV_RW_MEASURE, NULL, 0, NULL},
    {"index", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    {NULL, 0, NNAV_RW_SKIP_EMPTY, NULL, 0, NULL},
    {"graph", 0, 0, NULL, 0, NULL},
};
static const nnav_rw_table table = {.cols = cols, .ncols = 5, .sep = " ", .flow = 1};

static nnav_span sp(const char *s)
{
    return (nnav_span){(const uint8_t *)s, strlen(s)};
}

/* Three rows: a wide name, an unnamed node shown as #3, a combining mark. */
static char *write_table(int form)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    nnav_rw w;
    assert_int_equal(nnav_rw_open(&w, f, form), 0);
    nnav_rw_table_begin(&w, NULL, &table);
    for (int pass = 0; pass < nnav_rw_table_passes(&w); pass++) {
        nnav_rw_table_pass(&w, pass);
        nnav_rw_row(&w);
        nnav_rw_cell_cstr(&w, 0, "node", NULL);
        nnav_rw_cell_span(&w, 1, sp("\xe5\x8d\xb7\xe7\xa7\xaf\xe5\xb1\x82"), NULL); /* 3 wide */
        nnav_rw_cell_uint(&w, 2, 0, NULL);
        nnav_rw_cell_cstr(&w, 3, "Conv", NULL);
        nnav_rw_cell_cstr(&w, 4, "/", NULL);
        nnav_rw_row_end(&w);
        nnav_rw_row(&w);
        nnav_rw_cell_cstr(&w, 0, "node", NULL);
        nnav_rw_cell_span(&w, 1, sp(""), "#3");
        nnav_rw_cell_uint(&w, 2, 3, NULL);
        nnav_rw_cell_cstr(&w, 3, "", NULL);
        nnav_rw_cell_cstr(&w, 4, "/", NULL);
        nnav_rw_row_end(&w);
        nnav_rw_row(&w);
        nnav_rw_cell_cstr(&w, 0, "value", NULL);
        nnav_rw_cell_span(&w, 1, sp("e\xcc\x81"), NULL); /* e + combining acute: 1 column */
        nnav_rw_cell_cstr(&w, 4, "@f", NULL);
        nnav_rw_row_end(&w);
    }
    nnav_rw_table_end(&w);
    assert_int_equal(nnav_rw_close(&w), 0);
    fclose(f);
    return buf;
}

static void test_table_text(void **state)
{
    (void)state;
    char *t = write_table(NNAV_RW_TEXT);
    /* name is 6 columns wide (the wide name); "#3" and "é" pad to it. */
    assert_string_equal(t, "node   \xe5\x8d\xb7\xe7\xa7\xaf\xe5\xb1\x82 Conv /\n"
                           "node   #3     /\n"
                           "value  e\xcc\x81      @f\n");
    free(t);
}

static void test_table_yaml(void **state)
{
    (void)state;
    char *t = write_table(NNAV_RW_YAML);
    assert_string_equal(t, "- {kind: node, name: \xe5\x8d\xb7\xe7\xa7\xaf\xe5\xb1\x82, index: 0, graph: /}\n"
                           "- {kind: node, name: \"\", index: 3, graph: /}\n"
                           "- {kind: value, name: e\xcc\x81, graph: '@f'}\n");
    free(t);
}

static char *write_map(int form)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    nnav_rw w;
    assert_int_equal(nnav_rw_open(&w, f, form), 0);
    nnav_rw_map(&w, 8);
    nnav_rw_key(&w, "file");
    nnav_rw_cstr(&w, "m.onnx", NULL);
    nnav_rw_key(&w, "bytes");
    nnav_rw_uint(&w, 1234567, "1,234,567");
    nnav_rw_key(&w, "tags");
    nnav_rw_list(&w);
    nnav_rw_span(&w, sp("serve"), NULL);
    nnav_rw_span(&w, sp("a\tb"), NULL);
    nnav_rw_int(&w, -1, NULL);
    nnav_rw_list_end(&w);
    nnav_rw_map_end(&w);
    assert_int_equal(nnav_rw_close(&w), 0);
    fclose(f);
    return buf;
}

static void test_map(void **state)
{
    (void)state;
    char *t = write_map(NNAV_RW_TEXT);
    assert_string_equal(t, "file     m.onnx\n"
                           "bytes    1,234,567\n"
                           "tags     serve, a\\tb, -1\n");
    free(t);
    t = write_map(NNAV_RW_YAML);
    assert_string_equal(t, "file: m.onnx\nbytes: 1234567\ntags: [serve, \"a\\tb\", -1]\n");
    free(t);
}

/* The text's own order of columns: YAML keeps the columns' order. */
static void test_text_order(void **state)
{
    (void)state;
    static const nnav_rw_col c2[] = {{"a", 3, 0, NULL, 0, NULL}, {"b", 0, 0, NULL, 0, NULL}, {"c", NNAV_RW_NOTEXT, 0, NULL, 0, NULL}};
    static const uint8_t order[] = {1, 0};
    static const nnav_rw_table t2 = {.cols = c2, .ncols = 3, .sep = "|", .flow = 1,
                                     .text_order = order, .ntext = 2};
    for (int form = NNAV_RW_TEXT; form <= NNAV_RW_YAML; form++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        assert_non_null(f);
        nnav_rw w;
        assert_int_equal(nnav_rw_open(&w, f, form), 0);
        nnav_rw_table_begin(&w, NULL, &t2);
        nnav_rw_row(&w);
        nnav_rw_cell_uint(&w, 0, 1, NULL);
        nnav_rw_cell_uint(&w, 1, 2, "two");
        nnav_rw_cell_uint(&w, 2, 3, NULL);
        nnav_rw_row_end(&w);
        nnav_rw_table_end(&w);
        assert_int_equal(nnav_rw_close(&w), 0);
        fclose(f);
        assert_string_equal(buf, form == NNAV_RW_TEXT ? "two|1\n" : "- {a: 1, b: 2, c: 3}\n");
        free(buf);
    }
}

/* A cell out of column order is a mistake of the caller: close says so. */
static void test_misuse(void **state)
{
    (void)state;
    FILE *f = fopen("/dev/null", "w");
    assert_non_null(f);
    nnav_rw w;
    assert_int_equal(nnav_rw_open(&w, f, NNAV_RW_TEXT), 0);
    nnav_rw_table_begin(&w, NULL, &table);
    nnav_rw_row(&w);
    nnav_rw_cell_cstr(&w, 4, "/", NULL);
    nnav_rw_cell_cstr(&w, 0, "node", NULL);
    nnav_rw_row_end(&w);
    nnav_rw_table_end(&w);
    assert_int_equal(nnav_rw_close(&w), -1);
    /* More columns than a writer keeps widths for: refused, said at close. */
    static nnav_rw_col many[25];
    static const nnav_rw_table wide = {.cols = many, .ncols = 25, .sep = " "};
    assert_int_equal(nnav_rw_open(&w, f, NNAV_RW_TEXT), 0);
    nnav_rw_table_begin(&w, NULL, &wide);
    nnav_rw_row(&w);
    nnav_rw_cell_cstr(&w, 0, "a", NULL);
    nnav_rw_row_end(&w);
    nnav_rw_table_end(&w);
    assert_int_equal(nnav_rw_close(&w), -1);
    fclose(f);
}

/* A document shaped as shapes writes one: a sequence of graphs, each a map
 * with a relabelled key, a table with a right-aligned column, a list cell, a
 * YAML-only null cell and a column with its own separator, then a line of
 * prose whose parts are facts; the second graph's path and tags are kept
 * out of the text (key_as NULL). */
enum { D_NAME, D_N, D_DIMS, D_ELEM, D_NOTE };
static const nnav_rw_col dcols[] = {
    [D_NAME] = {"name", 4, 0, NULL, 0, NULL},
    [D_N] = {"n", 4, NNAV_RW_RIGHT, NULL, 0, NULL},
    [D_DIMS] = {"dims", 0, 0, NULL, 0, NULL},
    [D_ELEM] = {"elem", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [D_NOTE] = {"note", 0, 0, "  ", 0, NULL},
};
static const nnav_rw_table dtable = {.cols = dcols, .ncols = 5, .sep = " "};

static char *write_doc(int form)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    nnav_rw w;
    assert_int_equal(nnav_rw_open(&w, f, form), 0);
    nnav_rw_map(&w, 0);
    nnav_rw_key_as(&w, "graphs", "");
    nnav_rw_seq(&w);
    nnav_rw_map(&w, 0);
    nnav_rw_key_as(&w, "path", "graph");
    nnav_rw_cstr(&w, "/", NULL);
    nnav_rw_table_begin(&w, "values", &dtable);
    nnav_rw_row(&w);
    nnav_rw_cell_cstr(&w, D_NAME, "a", NULL);
    nnav_rw_cell_uint(&w, D_N, 1, NULL);
    nnav_rw_cell_list(&w, D_DIMS, NULL);
    nnav_rw_int(&w, 2, NULL);
    nnav_rw_int(&w, -3, NULL);
    nnav_rw_cell_list_end(&w);
    nnav_rw_cell_null(&w, D_ELEM, NULL);
    nnav_rw_cell_cstr(&w, D_NOTE, "odd", "(odd)");
    nnav_rw_row_end(&w);
    nnav_rw_row(&w);
    nnav_rw_cell_cstr(&w, D_NAME, "bb", NULL);
    nnav_rw_cell_uint(&w, D_N, 10, NULL);
    nnav_rw_cell_list(&w, D_DIMS, NULL);
    nnav_rw_null(&w, "?");
    nnav_rw_cell_list_end(&w);
    nnav_rw_cell_cstr(&w, D_ELEM, "int8", NULL);
    nnav_rw_row_end(&w);
    nnav_rw_table_end(&w);
    nnav_rw_key_as(&w, "summary", "");
    nnav_rw_line(&w);
    nnav_rw_key(&w, "values");
    nnav_rw_uint(&w, 2, "2 values:");
    nnav_rw_key(&w, "typed");
    nnav_rw_uint(&w, 1, " 1 typed");
    nnav_rw_line_end(&w);
    nnav_rw_map_end(&w);
    nnav_rw_map(&w, 0);
    nnav_rw_key_as(&w, "path", NULL);
    nnav_rw_cstr(&w, "/f", NULL);
    nnav_rw_key_as(&w, "tags", NULL);
    nnav_rw_list(&w);
    nnav_rw_cstr(&w, "x", NULL);
    nnav_rw_list_end(&w);
    nnav_rw_key(&w, "k");
    nnav_rw_uint(&w, 5, NULL);
    nnav_rw_map_end(&w);
    nnav_rw_seq_end(&w);
    nnav_rw_map_end(&w);
    assert_int_equal(nnav_rw_close(&w), 0);
    fclose(f);
    return buf;
}

static void test_doc(void **state)
{
    (void)state;
    char *t = write_doc(NNAV_RW_TEXT);
    assert_string_equal(t, "graph /\n"
                           "a       1 2, -3  (odd)\n"
                           "bb     10 ?\n"
                           "2 values: 1 typed\n"
                           "\n"
                           "k 5\n");
    free(t);
    t = write_doc(NNAV_RW_YAML);
    assert_string_equal(t, "graphs:\n"
                           "- path: /\n"
                           "  values:\n"
                           "  - name: a\n"
                           "    n: 1\n"
                           "    dims: [2, -3]\n"
                           "    elem: null\n"
                           "    note: odd\n"
                           "  - name: bb\n"
                           "    n: 10\n"
                           "    dims: [null]\n"
                           "    elem: int8\n"
                           "  summary: {values: 2, typed: 1}\n"
                           "- path: /f\n"
                           "  tags: [x]\n"
                           "  k: 5\n");
    free(t);
}

/* A measured column with a limit: a cell past it pushes its own row only.
 * A list cell with a display form of its own shows that in text, its
 * items in YAML. A row longer than any fixed buffer is kept whole. */
static void test_most_and_list_text(void **state)
{
    (void)state;
    static const nnav_rw_col c3[] = {{"op", 2, NNAV_RW_MEASURE, NULL, 4, NULL},
                                     {"in", 0, 0, NULL, 0, NULL}};
    static const nnav_rw_table t3 = {.cols = c3, .ncols = 2, .sep = " ", .flow = 1};
    static char big[40001];
    memset(big, 'x', sizeof big - 1);
    for (int form = NNAV_RW_TEXT; form <= NNAV_RW_YAML; form++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        assert_non_null(f);
        nnav_rw w;
        assert_int_equal(nnav_rw_open(&w, f, form), 0);
        nnav_rw_table_begin(&w, NULL, &t3);
        for (int pass = 0; pass < nnav_rw_table_passes(&w); pass++) {
            nnav_rw_table_pass(&w, pass);
            static const char *ops[] = {"Add", "LongName", "Mul"};
            for (int r = 0; r < 3; r++) {
                nnav_rw_row(&w);
                nnav_rw_cell_cstr(&w, 0, ops[r], NULL);
                nnav_rw_cell_list(&w, 1, r == 1 ? "a, \"\"" : r == 2 ? big : NULL);
                nnav_rw_cstr(&w, "a", NULL);
                if (r == 1)
                    nnav_rw_cstr(&w, "", NULL);
                nnav_rw_cell_list_end(&w);
                nnav_rw_row_end(&w);
            }
        }
        nnav_rw_table_end(&w);
        assert_int_equal(nnav_rw_close(&w), 0);
        fclose(f);
        if (form == NNAV_RW_TEXT) {
            /* op is 3 wide (Add, Mul): LongName, past 4, pushes its row only */
            assert_int_equal(len, 6 + 15 + 4 + sizeof big - 1 + 1);
            assert_memory_equal(buf, "Add a\nLongName a, \"\"\nMul xxx", 28);
            assert_int_equal(buf[len - 1], '\n');
            assert_int_equal(buf[len - 2], 'x');
        } else {
            assert_string_equal(buf, "- {op: Add, in: [a]}\n"
                                     "- {op: LongName, in: [a, \"\"]}\n"
                                     "- {op: Mul, in: [a]}\n");
        }
        free(buf);
    }
}

/* A sentence: keys of the open map in YAML, one line of prose in text (a
 * key without a label is YAML's only; a line that shows nothing is no
 * line). A remark is text's only; a hidden table is YAML's only; headings
 * align as the rows do, after the indent; counts are exact in YAML. */
static char *write_sentences(int form)
{
    static const nnav_rw_col c4[] = {
        {"op_type", 4, NNAV_RW_MEASURE, NULL, 0, "op type"},
        {"domain", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
        {"macs", 6, NNAV_RW_RIGHT, NULL, 0, "MACs"},
        {"known", 0, NNAV_RW_SKIP_EMPTY, "  ", 0, NULL},
    };
    static const nnav_rw_table t4 = {.cols = c4, .ncols = 4, .sep = " ", .flow = 1, .indent = "  "};
    static const nnav_rw_col c5[] = {{"n", 0, 0, NULL, 0, NULL}};
    static const nnav_rw_table t5 = {.cols = c5, .ncols = 1, .sep = " ", .flow = 1};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    nnav_rw w;
    assert_int_equal(nnav_rw_open(&w, f, form), 0);
    nnav_rw_map(&w, 0);
    nnav_rw_sentence(&w);
    nnav_rw_key(&w, "path"), nnav_rw_cstr(&w, "/", "graph /: ");
    nnav_rw_key(&w, "nodes"), nnav_rw_uint(&w, 2, "2 nodes");
    nnav_rw_key_as(&w, "own", NULL), nnav_rw_count(&w, 1.5, NULL);
    nnav_rw_key(&w, "loop"), nnav_rw_bool(&w, 1, " (per iteration)");
    nnav_rw_sentence_end(&w);
    nnav_rw_sentence(&w);
    nnav_rw_key_as(&w, "partial", NULL), nnav_rw_uint(&w, 0, "never shown");
    nnav_rw_sentence_end(&w);
    nnav_rw_text(&w, "  words for eyes\n");
    nnav_rw_key(&w, "cost"); /* a line as a key's value: one space after the label */
    nnav_rw_line(&w);
    nnav_rw_key(&w, "macs"), nnav_rw_count(&w, 7, "7 MACs");
    nnav_rw_line_end(&w);
    nnav_rw_table_begin(&w, "ops", &t4);
    for (int pass = 0; pass < nnav_rw_table_passes(&w); pass++) {
        nnav_rw_table_pass(&w, pass);
        nnav_rw_table_head(&w);
        nnav_rw_row(&w);
        nnav_rw_cell_cstr(&w, 0, "Conv", "ai:Conv");
        nnav_rw_cell_cstr(&w, 1, "ai", NULL);
        nnav_rw_cell_count(&w, 2, 4096, "4.1 K");
        nnav_rw_cell_bool(&w, 3, 1, "");
        nnav_rw_row_end(&w);
        nnav_rw_row(&w);
        nnav_rw_cell_cstr(&w, 0, "Add", NULL);
        nnav_rw_cell_cstr(&w, 1, "", NULL);
        nnav_rw_cell_count(&w, 2, 0.5, "0.5");
        nnav_rw_cell_bool(&w, 3, 0, "partial");
        nnav_rw_row_end(&w);
    }
    nnav_rw_table_end(&w);
    nnav_rw_table_begin(&w, "hidden", &t5);
    nnav_rw_table_hide_text(&w);
    nnav_rw_table_head(&w);
    nnav_rw_row(&w);
    nnav_rw_cell_int(&w, 0, -7, NULL);
    nnav_rw_row_end(&w);
    nnav_rw_table_end(&w);
    nnav_rw_map_end(&w);
    assert_int_equal(nnav_rw_close(&w), 0);
    fclose(f);
    return buf;
}

static void test_sentence_head_hidden(void **state)
{
    (void)state;
    char *t = write_sentences(NNAV_RW_TEXT);
    assert_string_equal(t, "graph /: 2 nodes (per iteration)\n"
                           "  words for eyes\n"
                           "cost 7 MACs\n"
                           "  op type   MACs\n"
                           "  ai:Conv  4.1 K\n"
                           "  Add        0.5  partial\n");
    free(t);
    t = write_sentences(NNAV_RW_YAML);
    assert_string_equal(t, "path: /\nnodes: 2\nown: 1.5\nloop: true\npartial: 0\ncost: {macs: 7}\n"
                           "ops:\n"
                           "- {op_type: Conv, domain: ai, macs: 4096, known: true}\n"
                           "- {op_type: Add, domain: \"\", macs: 0.5, known: false}\n"
                           "hidden:\n"
                           "- {n: -7}\n");
    free(t);
}

/* A capped measure: a wider cell widens the column to the cap (and
 * overflows it); a least width set when the table starts; a row hidden in
 * text is neither shown nor measured, and is still YAML's. */
static void test_cap_least_hidden_row(void **state)
{
    (void)state;
    static const nnav_rw_col c6[] = {{"name", 2, NNAV_RW_MEASURE | NNAV_RW_CAP, NULL, 5, NULL},
                                     {"n", 0, 0, NULL, 0, NULL}};
    static const nnav_rw_table t6 = {.cols = c6, .ncols = 2, .sep = "|", .flow = 1};
    for (int form = NNAV_RW_TEXT; form <= NNAV_RW_YAML; form++) {
        for (int least = 0; least <= 7; least += 7) {
            char *buf = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&buf, &len);
            assert_non_null(f);
            nnav_rw w;
            assert_int_equal(nnav_rw_open(&w, f, form), 0);
            nnav_rw_table_begin(&w, NULL, &t6);
            nnav_rw_table_least(&w, 0, least);
            for (int pass = 0; pass < nnav_rw_table_passes(&w); pass++) {
                nnav_rw_table_pass(&w, pass);
                const char *names[] = {"ab", "abcdefgh", "wider-than-all"};
                for (int i = 0; i < 3; i++) {
                    nnav_rw_row(&w);
                    if (i == 2)
                        nnav_rw_row_hide_text(&w);
                    nnav_rw_cell_cstr(&w, 0, names[i], NULL);
                    nnav_rw_cell_uint(&w, 1, (uint64_t)i, NULL);
                    nnav_rw_row_end(&w);
                }
            }
            nnav_rw_table_end(&w);
            assert_int_equal(nnav_rw_close(&w), 0);
            fclose(f);
            if (form == NNAV_RW_YAML)
                assert_string_equal(buf, "- {name: ab, n: 0}\n- {name: abcdefgh, n: 1}\n"
                                         "- {name: wider-than-all, n: 2}\n");
            else if (least)
                assert_string_equal(buf, "ab     |0\nabcdefgh|1\n");
            else
                assert_string_equal(buf, "ab   |0\nabcdefgh|1\n");
            free(buf);
        }
    }
}

/* Lists cut short in text and lists shown as words, doubles, a tight
 * sequence, a nested map's key column given back at its end, and a writer
 * nested in another's YAML document. */
static char *write_lists(int form, nnav_yw *outer, FILE *f)
{
    nnav_rw w;
    if (outer)
        nnav_rw_nest(&w, outer);
    else
        assert_int_equal(nnav_rw_open(&w, f, form), 0);
    nnav_rw_map(&w, 6);
    nnav_rw_key(&w, "in");
    nnav_rw_list(&w);
    nnav_rw_cstr(&w, "a", NULL);
    nnav_rw_list_cut(&w, ", ... (3 in all)");
    nnav_rw_cstr(&w, "b", NULL);
    nnav_rw_cstr(&w, "c", NULL);
    nnav_rw_list_end(&w);
    nnav_rw_key(&w, "what");
    nnav_rw_list_as(&w, "+ node");
    nnav_rw_cstr(&w, "added", NULL);
    nnav_rw_list_end(&w);
    nnav_rw_key(&w, "x"), nnav_rw_double(&w, 0.25, "a quarter");
    nnav_rw_key_as(&w, "seq", NULL);
    nnav_rw_seq_tight(&w);
    for (int i = 0; i < 2; i++) {
        nnav_rw_map(&w, 2);
        nnav_rw_key(&w, "n"), nnav_rw_int(&w, i, NULL);
        nnav_rw_map_end(&w);
    }
    nnav_rw_seq_end(&w);
    nnav_rw_key(&w, "end"), nnav_rw_cstr(&w, "z", NULL);
    nnav_rw_map_end(&w);
    assert_int_equal(nnav_rw_close(&w), 0);
    return NULL;
}

static void test_lists_nest(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    write_lists(NNAV_RW_TEXT, NULL, f);
    fclose(f);
    assert_string_equal(buf, "in     a, ... (3 in all)\n"
                             "what   + node\n"
                             "x      a quarter\n"
                             "n  0\n"
                             "n  1\n"
                             "end    z\n");
    free(buf);
    buf = NULL;
    f = open_memstream(&buf, &len);
    assert_non_null(f);
    write_lists(NNAV_RW_YAML, NULL, f);
    fclose(f);
    const char *yaml = "in: [a, b, c]\nwhat: [added]\nx: 0.25\nseq:\n- n: 0\n- n: 1\nend: z\n";
    assert_string_equal(buf, yaml);
    free(buf);
    /* Nested: the same keys inside another writer's map. */
    buf = NULL;
    f = open_memstream(&buf, &len);
    assert_non_null(f);
    nnav_yw y;
    assert_int_equal(nnav_yw_open(&y, f), 0);
    nnav_yw_map(&y);
    nnav_yw_key(&y, "outer");
    write_lists(NNAV_RW_YAML, &y, NULL);
    nnav_yw_map_end(&y);
    assert_int_equal(nnav_yw_close(&y), 0);
    fclose(f);
    assert_non_null(strstr(buf, "in: [a, b, c]"));
    assert_non_null(strstr(buf, "end: z"));
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_text),
        cmocka_unit_test(test_table_yaml),
        cmocka_unit_test(test_map),
        cmocka_unit_test(test_text_order),
        cmocka_unit_test(test_misuse),
        cmocka_unit_test(test_doc),
        cmocka_unit_test(test_most_and_list_text),
        cmocka_unit_test(test_sentence_head_hidden),
        cmocka_unit_test(test_cap_least_hidden_row),
        cmocka_unit_test(test_lists_nest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
