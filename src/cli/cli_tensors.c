/* cli_tensors.c - nnav tensors: initializers and attribute tensors. */
#include "cli_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dims.h"
#include "dtype.h"
#include "nnav.h"
#include "quant.h"
#include "record.h"
#include "scope.h"
#include "shape.h"
#include "tfacts.h"
#include "yamlout.h"

/* ---- tensors ---- */

/* One row: the tensor's facts as the explorer shows them too (tfacts.h). */
typedef nnav_tfacts trow;

static const nnav_model *sort_model;

static int trow_size(const void *a, const void *b)
{
    const trow *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes < y->bytes ? 1 : -1;
    return (x->tensor > y->tensor) - (x->tensor < y->tensor);
}

static int trow_name(const void *a, const void *b)
{
    const trow *x = a, *y = b;
    nnav_span p = nnav_tensor_get(sort_model, x->tensor)->name;
    nnav_span q = nnav_tensor_get(sort_model, y->tensor)->name;
    uint64_t n = p.n < q.n ? p.n : q.n;
    int c = n ? memcmp(p.p, q.p, n) : 0;
    if (c)
        return c;
    if (p.n != q.n)
        return p.n < q.n ? -1 : 1;
    return (x->tensor > y->tensor) - (x->tensor < y->tensor);
}

static void warn_text(const nnav_model *m, uint32_t t, uint32_t w, char *buf, size_t n)
{
    buf[0] = 0;
    if (w & NNAV_TW_SIZE_MISMATCH)
        strncat(buf, " stored-size-differs-from-dims", n - strlen(buf) - 1);
    if (w & NNAV_TW_BAD_DIMS) {
        /* Which: "bad-dims (negative dimension -1 at dims[0])" */
        char why[256];
        strncat(buf, " bad-dims", n - strlen(buf) - 1);
        if (nnav_tensor_dims_problem(m, t, why, sizeof why)) {
            strncat(buf, " (", n - strlen(buf) - 1);
            strncat(buf, why, n - strlen(buf) - 1);
            strncat(buf, ")", n - strlen(buf) - 1);
        }
    }
    if (w & NNAV_TW_BAD_DTYPE)
        strncat(buf, " unknown-dtype", n - strlen(buf) - 1);
    if (w & NNAV_TW_BAD_EXTERNAL)
        strncat(buf, " unsafe-or-malformed-external-data", n - strlen(buf) - 1);
    if (w & NNAV_TW_MANY_FIELDS)
        strncat(buf, " data-in-several-fields", n - strlen(buf) - 1);
    if (w & NNAV_TW_WRONG_FIELD)
        strncat(buf, " data-in-the-wrong-field-for-its-type", n - strlen(buf) - 1);
}

/* "(NODE.ATTR)" for a tensor an attribute holds (NODE as node_label shows
 * it: the escaped name, or #INDEX when it has none), "" for any other: how
 * the table names an unnamed one, and what --name accepts for it. */
static const char *held_label(const nnav_model *m, uint32_t t, char *buf, size_t n)
{
    const nnav_tensor *tt = nnav_tensor_get(m, t);
    char ab[512], an[256];
    buf[0] = 0;
    if (tt->owner != NNAV_TOWN_ATTRIBUTE)
        return buf;
    const nnav_attr *at = nnav_attr_get(m, tt->owner_id);
    if (at->node != NNAV_NONE)
        snprintf(buf, n, "(%s.%s)", node_label(m, at->node, ab, sizeof ab),
                 esc(at->name, an, sizeof an));
    return buf;
}

/* The table: YAML keys in the columns' order; in text NAME SHAPE BYTES
 * STORAGE [GRAPH] [WARNING: ...], as the lines have always been, and the
 * values (on request) on lines under their row. */
enum { C_NAME, C_SHAPE, C_DTYPE, C_DIMS, C_STORAGE, C_BYTES, C_QTYPE, C_BPW, C_LOGICAL, C_ROLE,
       C_GRAPH, C_CONST, C_NODE, C_NODE_INDEX, C_ATTR, C_SHOWN, C_WARN, C_CONSUMER, C_VERR, C_VALUES,
       C_MIN, C_MAX, C_MEAN, C_NAN };
static const nnav_rw_col tensors_cols[] = {
    [C_NAME] = {"name", 36, 0, NULL, 0, NULL},
    [C_SHAPE] = {NULL, 24, 0, NULL, 0, NULL},
    [C_DTYPE] = {"data_type", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_DIMS] = {"dims", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_STORAGE] = {"storage", 0, 0, "  ", 0, NULL},
    [C_BYTES] = {"bytes", 12, NNAV_RW_RIGHT, " ", 0, NULL},
    /* What it stores as quant.h says ("int4 (GPTQ, group 128)"; text: a
     * packed weight's or its data's only), its bits per weight and the
     * weights it stands for. */
    [C_QTYPE] = {"type", 0, NNAV_RW_SKIP_EMPTY, "  = ", 0, NULL},
    [C_BPW] = {"bpw", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_LOGICAL] = {"logical_elements", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_ROLE] = {"role", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_GRAPH] = {"graph", 0, 0, "  ", 0, NULL},
    /* Where an attribute's tensor is held: the node's raw name and its
     * index (an unnamed node has only the index), the attribute's name. */
    [C_CONST] = {"constant", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_NODE] = {"node", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_NODE_INDEX] = {"node_index", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_ATTR] = {"attribute", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_SHOWN] = {"shown_as", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_WARN] = {"warnings", 0, 0, "  WARNING: ", 0, NULL},
    /* The node that reads it first, whose name says where it is used; in
     * text only for a name of no scope of its own (tfacts.h): "onnx::MatMul_3182
     * ... used by /encoder/layer.0/attention/MatMul". */
    [C_CONSUMER] = {"consumer_scope", 0, NNAV_RW_SKIP_EMPTY, "  used by ", 0, NULL},
    /* The values (--values N): the text's lines are the row's note. */
    [C_VERR] = {"values_error", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_VALUES] = {"values", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_MIN] = {"min", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_MAX] = {"max", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_MEAN] = {"mean", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [C_NAN] = {"nan_count", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
};
static const uint8_t tensors_text_order[] = {C_NAME, C_SHAPE, C_BYTES, C_STORAGE, C_QTYPE,
                                             C_CONSUMER, C_GRAPH, C_WARN};
static const nnav_rw_table tensors_table = {
    .cols = tensors_cols, .ncols = sizeof tensors_cols / sizeof *tensors_cols, .sep = " ",
    .text_order = tensors_text_order, .ntext = sizeof tensors_text_order};

/* Values on request, as the open row's last cells: the first n and
 * min/max/mean over all elements; in text the lines under the row,
 * "    values: 0.1, 0.2, ... (1728 in all)". Reads the payload (and opens
 * external data) only here. -1 when they cannot be read, what went wrong
 * in fault (for stderr, after the row). */
static int tensor_values(nnav_rw *w, const nnav_model *m, uint32_t t, long n, char *fault,
                         size_t fn)
{
    const nnav_tensor *tt = nnav_tensor_get(m, t);
    size_t want = (size_t)n;
    double *v = calloc(want + 1, sizeof *v);
    int64_t *iv = calloc(want + 1, sizeof *iv);
    nnav_span *sv = calloc(want + 1, sizeof *sv);
    nnav_values vals = {.v = v, .s = sv, .i = iv};
    nnav_error err;
    char buf[1100], why[256], num[3][64], line[400];
    int rc = 0;
    if (!nnav_tensor_dims_problem(m, t, why, sizeof why))
        snprintf(why, sizeof why, "the dims are malformed");
    if (!v || !sv || !iv) {
        free(v);
        free(iv);
        free(sv);
        return -1;
    }
    if (nnav_tensor_values(m, t, want, 1, &vals, &err) < 0) {
        char msg[2048];
        nnav_error_format(&err, nnav_model_facts_get(m)->path, fault, fn);
        nnav_rw_cell_cstr(w, C_VERR, err.msg, NULL);
        snprintf(msg, sizeof msg, "    values: (%s)\n", err.msg);
        nnav_rw_row_note(w, msg);
        free(v);
        free(iv);
        free(sv);
        return -1;
    }
    /* Integer types as integers, exactly (a uint64 unsigned); text as
     * nnav_values_format writes them, floats with 9 digits. */
    nnav_rw_row_note(w, "    values:");
    if (vals.count == 0) {
        snprintf(line, sizeof line, " none%s%s%s", tt->nelems == UINT64_MAX ? " (" : vals.total ? " stored" :
                 " (no elements)", tt->nelems == UINT64_MAX ? why : "", tt->nelems == UINT64_MAX ? ")" : "");
        nnav_rw_row_note(w, line);
    }
    nnav_rw_cell_list(w, C_VALUES, NULL);
    for (size_t i = 0; i < vals.count; i++) {
        if (tt->dtype == 8) {
            snprintf(line, sizeof line, "%s \"", i ? "," : "");
            nnav_rw_row_note(w, line);
            nnav_rw_row_note(w, esc(sv[i], buf, sizeof buf));
            nnav_rw_row_note(w, "\"");
            nnav_rw_span(w, sv[i], NULL);
        } else if (vals.is_int) {
            snprintf(line, sizeof line, "%s %s", i ? "," : "", (nnav_values_format(&vals, 0, i, num[0], 64), num[0]));
            nnav_rw_row_note(w, line);
            vals.is_unsigned ? nnav_rw_uint(w, (uint64_t)iv[i], NULL) : nnav_rw_int(w, iv[i], NULL);
        } else {
            snprintf(line, sizeof line, "%s %.9g", i ? "," : "", v[i]);
            nnav_rw_row_note(w, line);
            nnav_rw_double(w, v[i], NULL);
        }
    }
    nnav_rw_cell_list_end(w);
    if (vals.total > vals.count) {
        snprintf(line, sizeof line, "%s (%llu in all)", vals.count ? ", ..." : "", (unsigned long long)vals.total);
        nnav_rw_row_note(w, line);
    }
    nnav_rw_row_note(w, "\n");
    if (vals.has_stats && vals.is_int) {
        nnav_values_format(&vals, 1, 0, num[0], sizeof num[0]);
        nnav_values_format(&vals, 2, 0, num[1], sizeof num[1]);
        nnav_values_format(&vals, 3, 0, num[2], sizeof num[2]);
        snprintf(line, sizeof line, "    min %s  max %s  mean %s\n", num[0], num[1], num[2]);
        nnav_rw_row_note(w, line);
        if (vals.is_unsigned) {
            nnav_rw_cell_uint(w, C_MIN, (uint64_t)vals.imin, NULL);
            nnav_rw_cell_uint(w, C_MAX, (uint64_t)vals.imax, NULL);
        } else {
            nnav_rw_cell_int(w, C_MIN, vals.imin, NULL);
            nnav_rw_cell_int(w, C_MAX, vals.imax, NULL);
        }
        nnav_rw_cell_double(w, C_MEAN, vals.mean, NULL);
    } else if (vals.has_stats) {
        snprintf(line, sizeof line, "    min %.9g  max %.9g  mean %.9g\n", vals.min, vals.max, vals.mean);
        nnav_rw_row_note(w, line);
        nnav_rw_cell_double(w, C_MIN, vals.min, NULL);
        nnav_rw_cell_double(w, C_MAX, vals.max, NULL);
        nnav_rw_cell_double(w, C_MEAN, vals.mean, NULL);
    }
    if (vals.stats_refused)
        nnav_rw_row_note(w, "    stats: not computed: a view whose elements repeat far past "
                            "the elements its storage holds\n");
    if (vals.nan_count) {
        snprintf(line, sizeof line, "    %llu NaN\n", (unsigned long long)vals.nan_count);
        nnav_rw_row_note(w, line);
        nnav_rw_cell_uint(w, C_NAN, vals.nan_count, NULL);
    }
    free(v);
    free(iv);
    free(sv);
    return rc;
}

int cmd_tensors(const nnav_model *m, const opts *o)
{
    uint32_t g = 0;
    int rc;
    char hl[2048];
    if (o->sort && strcmp(o->sort, "size") && strcmp(o->sort, "name"))
        return usage_error("tensors", "--sort takes size or name, not '%s'", o->sort);
    if ((rc = pick_graph(m, o, "tensors", &g)) != 0)
        return rc;
    nnav_tensors_measure(m); /* external data as stored, not as dims say */
    uint32_t nt = nnav_tensor_count(m);
    trow *rows = malloc(sizeof *rows * (nt + 1));
    size_t nr = 0;
    if (!rows)
        return EXIT_BADINPUT;
    for (uint32_t i = 0; i < nt; i++) {
        const nnav_tensor *t = nnav_tensor_get(m, i);
        if (!o->all && t->graph != g)
            continue;
        if (t->owner == NNAV_TOWN_SPARSE_INDICES)
            continue;
        /* The shown "(NODE.ATTR)" names an attribute's tensor, --constants or not. */
        int shown = o->name && !strcmp(held_label(m, i, hl, sizeof hl), o->name);
        if (t->owner == NNAV_TOWN_ATTRIBUTE && !o->constants && !shown)
            continue;
        if (o->name && !nnav_span_eqs(t->name, o->name) && !shown)
            continue;
        /* A sparse one: its dense shape, its values plus indices as bytes. */
        nnav_tfacts_get(m, i, &rows[nr++]);
    }
    sort_model = m;
    if (o->sort && !strcmp(o->sort, "size"))
        qsort(rows, nr, sizeof *rows, trow_size);
    else if (o->sort)
        qsort(rows, nr, sizeof *rows, trow_name);
    uint64_t total = 0, params = 0, buffers = 0, consts = 0;
    int vrc = 0;
    uint8_t *roles = nnav_tensor_roles(m);
    if (!roles) {
        free(rows);
        fprintf(stderr, "nnav tensors: out of memory\n");
        return EXIT_BADINPUT;
    }
    if (o->name && nr == 0) {
        free(rows);
        free(roles);
        return not_found_near("tensors", m, "initializer", o->name, NEAR_TENSORS,
                         "--all looks in every graph, --constants at Constant nodes too, "
                         "'nnav find MODEL NAME' everywhere");
    }
    for (size_t i = 0; i < nr; i++) {
        total += rows[i].bytes == UINT64_MAX ? 0 : rows[i].bytes;
        const nnav_tensor *t = nnav_tensor_get(m, rows[i].tensor);
        /* Parameters as info and summary count them (scope.h): weights,
         * not shapes, indices or strings; buffers and constants apart. */
        uint8_t r = roles[rows[i].tensor];
        nnav_tquant q;
        uint64_t ne = !r ? 0
                      : nnav_tensor_quant(m, rows[i].tensor, &q) == 0 && q.kind == NNAV_Q_PACKED
                          ? q.logical /* GPTQ's qweight: the K x N it packs */
                          : t->nelems,
                 *to = r == 1 ? &params : r == 2 ? &buffers : &consts;
        *to = ne > UINT64_MAX - *to ? UINT64_MAX : *to + ne;
    }
    char nm[2048], sh[1024], st[2048], by[64], wt[256], gp[2048];
    nnav_rw w;
    if (nnav_rw_open(&w, stdout, o->yaml ? NNAV_RW_YAML : NNAV_RW_TEXT) < 0) {
        free(rows), free(roles);
        return EXIT_BADINPUT;
    }
    nnav_rw_map(&w, 0);
    nnav_rw_table_begin(&w, "tensors", &tensors_table);
    for (size_t i = 0; i < nr; i++) {
        const nnav_tensor *t = nnav_tensor_get(m, rows[i].tensor);
        nnav_tfacts_shape(&rows[i], sh, sizeof sh);
        nnav_tfacts_storage(m, &rows[i], st, sizeof st);
        warn_text(m, rows[i].tensor, t->warn, wt, sizeof wt);
        esc(t->name, nm, sizeof nm);
        if (!t->name.n && held_label(m, rows[i].tensor, hl, sizeof hl)[0])
            snprintf(nm, sizeof nm, "%s", hl);
        nnav_rw_row(&w);
        nnav_rw_cell_span(&w, C_NAME, t->name, nm);
        nnav_rw_cell_cstr(&w, C_SHAPE, sh, NULL);
        nnav_rw_cell_cstr(&w, C_DTYPE, nnav_tensor_type_name(m, rows[i].tensor), NULL);
        nnav_rw_cell_list(&w, C_DIMS, NULL);
        for (uint32_t d = 0; d < rows[i].ndims; d++)
            nnav_rw_int(&w, rows[i].dims[d], NULL);
        nnav_rw_cell_list_end(&w);
        nnav_rw_cell_cstr(&w, C_STORAGE, st, NULL);
        if (rows[i].bytes == UINT64_MAX) {
            nnav_rw_cell_null(&w, C_BYTES, "?");
        } else {
            print_bytes(rows[i].bytes, by, sizeof by);
            nnav_rw_cell_uint(&w, C_BYTES, rows[i].bytes, by);
        }
        nnav_tquant q;
        char qt[160], qd[200];
        nnav_tensor_quant(m, rows[i].tensor, &q);
        nnav_tensor_qtype(m, rows[i].tensor, qt, sizeof qt);
        double bpw = nnav_tensor_bpw(m, rows[i].tensor);
        qd[0] = 0;
        if (q.kind == NNAV_Q_PACKED)
            snprintf(qd, sizeof qd, "%s, %.2f bpw, %llu x %llu", qt, bpw, (unsigned long long)q.k,
                     (unsigned long long)q.n);
        else if (q.kind == NNAV_Q_DATA)
            snprintf(qd, sizeof qd, "%s", qt);
        if (q.kind == NNAV_Q_PACKED && !q.k) /* QDQ: its own elements */
            snprintf(qd, sizeof qd, "%s, %.2f bpw", qt, bpw);
        nnav_rw_cell_cstr(&w, C_QTYPE, qt, qd);
        if (bpw < 0)
            nnav_rw_cell_null(&w, C_BPW, NULL);
        else
            nnav_rw_cell_double(&w, C_BPW, bpw, NULL);
        if (q.kind == NNAV_Q_DATA || q.logical == UINT64_MAX)
            nnav_rw_cell_null(&w, C_LOGICAL, NULL);
        else
            nnav_rw_cell_uint(&w, C_LOGICAL, q.logical, NULL);
        static const char *const ROLE[] = {NULL, "parameter", "buffer", "constant"};
        uint8_t r = roles[rows[i].tensor];
        if (r >= 1 && r <= 3)
            nnav_rw_cell_cstr(&w, C_ROLE, ROLE[r], NULL);
        else
            nnav_rw_cell_null(&w, C_ROLE, NULL);
        if (o->all) {
            nnav_graph_path(m, t->graph, gp, sizeof gp);
            nnav_rw_cell_cstr(&w, C_GRAPH, gp, NULL);
        }
        if (t->owner == NNAV_TOWN_ATTRIBUTE) {
            const nnav_attr *at = nnav_attr_get(m, t->owner_id);
            nnav_rw_cell_bool(&w, C_CONST, 1, NULL);
            if (at->node != NNAV_NONE) {
                nnav_rw_cell_span(&w, C_NODE, nnav_node_get(m, at->node)->name, NULL);
                nnav_rw_cell_uint(&w, C_NODE_INDEX, nnav_node_index(m, at->node), NULL);
                nnav_rw_cell_span(&w, C_ATTR, at->name, NULL);
                nnav_rw_cell_cstr(&w, C_SHOWN, held_label(m, rows[i].tensor, hl, sizeof hl), NULL);
            }
        }
        if (wt[0])
            nnav_rw_cell_cstr(&w, C_WARN, wt + 1, NULL);
        uint32_t cn = nnav_tfacts_consumer(m, &rows[i]);
        if (cn == NNAV_NONE) {
            nnav_rw_cell_null(&w, C_CONSUMER, "");
        } else {
            char cb[2048];
            cb[0] = 0;
            if (nnav_tfacts_unscoped(m, &rows[i], cn))
                esc(nnav_node_get(m, cn)->name, cb, sizeof cb);
            nnav_rw_cell_span(&w, C_CONSUMER, nnav_node_get(m, cn)->name, cb);
        }
        char fault[2048] = "";
        if (o->values >= 0 && tensor_values(&w, m, rows[i].tensor, o->values, fault, sizeof fault) < 0)
            vrc = EXIT_BADINPUT;
        nnav_rw_row_end(&w);
        if (fault[0]) /* after the row, as before its values were cells */
            fprintf(stderr, "nnav tensors: %s\n", fault);
    }
    nnav_rw_table_end(&w);
    /* The totals: "12 tensors, 1,234 bytes (1.2 KiB), 300 parameters". */
    print_bytes(total, by, sizeof by);
    nnav_report_bytes(total, sh, sizeof sh);
    print_bytes(params, st, sizeof st);
    char line[512];
    nnav_rw_sentence(&w);
    snprintf(line, sizeof line, "%zu tensor%s, ", nr, pl(nr));
    nnav_rw_key(&w, "count"), nnav_rw_uint(&w, nr, line);
    snprintf(line, sizeof line, "%s byte%s (%s), ", by, pl(total), sh);
    nnav_rw_key(&w, "total_bytes"), nnav_rw_uint(&w, total, line);
    snprintf(line, sizeof line, "%s parameter%s", st, pl(params));
    nnav_rw_key(&w, "parameters"), nnav_rw_uint(&w, params, line);
    print_bytes(buffers, st, sizeof st);
    snprintf(line, sizeof line, ", %s buffer element%s", st, pl(buffers));
    nnav_rw_key_as(&w, "buffers", buffers ? "" : NULL), nnav_rw_uint(&w, buffers, line);
    print_bytes(consts, st, sizeof st);
    snprintf(line, sizeof line, ", %s constant element%s (neither)", st, pl(consts));
    nnav_rw_key_as(&w, "constant_weights", consts ? "" : NULL), nnav_rw_uint(&w, consts, line);
    nnav_rw_sentence_end(&w);
    /* The model's count (info, summary) is by name: a listing of whole
     * graphs says why the two differ, when they do. */
    if (!o->name && !o->constants && !o->yaml) {
        uint64_t pm, pa, ph, mn = 0, k, b;
        nnav_params_by_graph(m, &pm, &pa, &ph);
        for (uint32_t gi = o->all ? 0 : g; gi < nnav_graph_count(m) && (o->all || gi == g); gi++) {
            nnav_scopes_merged(m, gi, &k, &b);
            mn += k;
        }
        uint64_t want = o->all ? pa : g == 0 ? pm : params;
        uint64_t held = 0;
        for (uint32_t gi = o->all ? 0 : g; gi < nnav_graph_count(m) && (o->all || gi == g); gi++) {
            uint64_t ke = 0;
            nnav_tfacts_constant_weights(m, gi, NULL, &ke);
            held += ke;
        }
        if (want != params + held && mn) {
            print_bytes(want, st, sizeof st);
            snprintf(line, sizeof line, "%s parameters by name (info, summary): %llu name%s share%s a "
                     "stored tensor with an equal one, merged by the exporter\n", st,
                     (unsigned long long)mn, mn == 1 ? "" : "s", mn == 1 ? "s" : "");
            nnav_rw_text(&w, line);
        }
    }
    /* Weights a Constant node holds are parameters too (summary, info and
     * the explorer's pane count them): the text says where they are. */
    uint64_t ce = 0, ke = 0;
    uint32_t cn = 0;
    for (uint32_t gi = o->all ? 0 : g; !o->yaml && !o->constants && !o->name &&
                                       gi < nnav_graph_count(m) && (o->all || gi == g); gi++) {
        cn += nnav_tfacts_constant_weights(m, gi, NULL, &ke);
        ce = ke > UINT64_MAX - ce ? UINT64_MAX : ce + ke;
    }
    if (cn) {
        print_bytes(ce, st, sizeof st);
        snprintf(line, sizeof line, "%u weight%s held by %s (%s parameter%s): --constants lists %s\n",
                 cn, pl(cn), cn == 1 ? "a Constant node" : "Constant nodes", st, pl(ce),
                 cn == 1 ? "it" : "them");
        nnav_rw_text(&w, line);
    }
    nnav_rw_map_end(&w);
    if (nnav_rw_close(&w) < 0)
        vrc = EXIT_BADINPUT;
    free(roles);
    free(rows);
    return vrc;
}

