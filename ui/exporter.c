/* exporter.c - the export flow of the explorer: marks, the prompts, the
 * write, and the one-line report. The selection and the safe write are the
 * core's (nnav_select_*, nnav_export_file); this file only asks and tells. */
#include "exporter.h"

#include "export.h"
#include "utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

typedef struct exporter {
    nnav_selection sel;
    int have;                 /* sel holds a selection waiting for its file */
    uint32_t graph;           /* the graph being exported (or a region's graph) */
    char what[300];           /* "graph main (11 nodes)", escaped, for the prompt */
    const char *suffix;       /* "" / "marked" / "region", for the suggested name */
    char region_in[1024];     /* the inputs typed, while the outputs are asked */
    char path[1024];          /* the file waiting for the overwrite answer */
    char typed[1024];         /* the name typed, to offer again after an 'n' */
    nnav_export_format last;  /* the format written last, for the next suggestion */
} exporter;

/* ---- curses-free pieces ---- */

/* Keeps [A-Za-z0-9._+-]; any run of other bytes becomes one '_'. No leading
 * '.', '-' or '_' (no hidden file, nothing that reads as an option). */
static size_t clean_name(const char *s, size_t len, char *out, size_t n, size_t max)
{
    size_t o = 0;
    if (n == 0)
        return 0;
    for (size_t i = 0; i < len && o + 1 < n && o < max; i++) {
        unsigned char c = (unsigned char)s[i];
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 c == '.' || c == '_' || c == '+' || c == '-';
        if (!ok)
            c = '_';
        if (o == 0 && (c == '.' || c == '-' || c == '_'))
            continue;
        if (c == '_' && o > 0 && out[o - 1] == '_')
            continue;
        out[o++] = (char)c;
    }
    while (o > 0 && (out[o - 1] == '_' || out[o - 1] == '.'))
        o--;
    out[o] = '\0';
    return o;
}

static const char *ext_of(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    return dot && dot != base ? dot : NULL;
}

/* The model's name: the file without .onnx/.pb, or the SavedModel's folder. */
static void model_stem(const char *path, char *out, size_t n)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path ? path : "");
    size_t len = strlen(buf);
    while (len > 1 && buf[len - 1] == '/')
        buf[--len] = '\0';
    char *base = strrchr(buf, '/');
    if (base && (!strcmp(base + 1, "saved_model.pb") || !strcmp(base + 1, "saved_model.pbtxt"))) {
        *base = '\0';
        base = strrchr(buf, '/');
    }
    base = base ? base + 1 : buf;
    char *dot = strrchr(base, '.');
    if (dot && dot != base &&
        (!strcasecmp(dot, ".onnx") || !strcasecmp(dot, ".pb") || !strcasecmp(dot, ".pbtxt")))
        *dot = '\0';
    if (!clean_name(base, strlen(base), out, n, 80))
        snprintf(out, n, "model");
}

size_t exporter_default_name(const char *model_path, const char *graph_label, const char *what,
                             unsigned number, const char *ext, char *buf, size_t n)
{
    char model[96], graph[96], num[16] = "";
    if (n == 0)
        return 0;
    model_stem(model_path, model, sizeof model);
    if (!clean_name(graph_label, strlen(graph_label), graph, sizeof graph, 60))
        snprintf(graph, sizeof graph, "graph");
    if (number)
        snprintf(num, sizeof num, "-%u", number);
    int w = snprintf(buf, n, "%s-%s%s%s%s%s", model, graph, what && *what ? "-" : "",
                     what ? what : "", num, ext ? ext : "");
    return w < 0 ? 0 : (size_t)w < n ? (size_t)w : n - 1;
}

nnav_export_format exporter_format_of(const char *path)
{
    const char *e = ext_of(path);
    return e && !strcasecmp(e, ".onnx") ? NNAV_EXPORT_ONNX : NNAV_EXPORT_YAML;
}

nnav_export_format exporter_toggle_ext(char *buf, size_t cap)
{
    char *e = (char *)ext_of(buf);
    size_t len = strlen(buf);
    if (len == 0 || buf[len - 1] == '/')
        return exporter_format_of(buf); /* no name to give an extension to */
    const char *to = ".onnx";
    size_t keep = len;
    if (e && (!strcasecmp(e, ".yaml") || !strcasecmp(e, ".yml"))) {
        keep = (size_t)(e - buf);
    } else if (e && !strcasecmp(e, ".onnx")) {
        keep = (size_t)(e - buf);
        to = ".yaml";
    }
    if (keep + strlen(to) < cap) {
        memcpy(buf + keep, to, strlen(to) + 1);
    }
    return exporter_format_of(buf);
}

char **exporter_split(const char *s, size_t *n)
{
    size_t items = 1, len = strlen(s);
    *n = 0;
    for (const char *p = s; *p; p++)
        items += *p == ',';
    char **v = malloc((items + 1) * sizeof *v + len + 1);
    if (!v)
        return NULL;
    char *text = (char *)(v + items + 1);
    memcpy(text, s, len + 1);
    char *p = text;
    for (;;) {
        char *end = strchr(p, ',');
        if (end)
            *end = '\0';
        char *a = p, *b = p + strlen(p);
        while (*a == ' ' || *a == '\t')
            a++;
        while (b > a && (b[-1] == ' ' || b[-1] == '\t'))
            *--b = '\0';
        if (*a)
            v[(*n)++] = a;
        if (!end)
            break;
        p = end + 1;
    }
    v[*n] = NULL;
    return v;
}

int exporter_expand_home(const char *in, char *out, size_t n)
{
    const char *home = getenv("HOME");
    int w;
    if (in[0] == '~' && (in[1] == '/' || in[1] == '\0') && home && *home)
        w = snprintf(out, n, "%s%s", home, in + 1);
    else
        w = snprintf(out, n, "%s", in);
    return w < 0 || (size_t)w >= n ? -1 : 0;
}

/* ---- the flow ---- */

static exporter *get(ui *u)
{
    if (!u->exp)
        u->exp = calloc(1, sizeof *u->exp);
    if (!u->exp)
        ui_message(u, R_ERROR, "export: out of memory");
    return u->exp;
}

static void drop(exporter *x)
{
    if (x->have)
        nnav_selection_free(&x->sel);
    x->have = 0;
}

void exporter_free(ui *u)
{
    if (u->exp)
        drop(u->exp);
    free(u->exp);
    u->exp = NULL;
}

static void report(ui *u, const char *what, const nnav_error *err)
{
    char msg[600];
    nnav_error_format(err, what, msg, sizeof msg);
    ui_message(u, R_ERROR, "%s", msg);
}

/* ONNX is written from models whose messages are ONNX's only
 * (nnav_export_onnx refuses the rest): any other is offered YAML alone. */
static int can_onnx(ui *u)
{
    return (nnav_model_facts_get(u->m)->traits & NNAV_TRAIT_ONNX_MESSAGES) != 0;
}

/* The file name prompt, with the plain name MODEL-GRAPH[-WHAT].yaml (or
 * .onnx after an ONNX export); a name that exists is asked about on Enter. */
static void ask_path(ui *u, exporter *x, const char *typed)
{
    char label[600], name[1024];
    if (typed) {
        snprintf(name, sizeof name, "%s", typed);
    } else {
        char glabel[300];
        ui_graph_label(u, x->graph, glabel, sizeof glabel);
        const char *ext = x->last == NNAV_EXPORT_ONNX && can_onnx(u) ? ".onnx" : ".yaml";
        exporter_default_name(u->path, glabel, x->suffix, 0, ext, name, sizeof name);
    }
    snprintf(label, sizeof label, "export %s to: ", x->what);
    ui_prompt_open(u, PROMPT_EXPORT_PATH, label, name);
}

void exporter_begin(ui *u)
{
    exporter *x = get(u);
    nnav_error err;
    char glabel[300];
    if (!x)
        return;
    drop(x);
    if (u->marks.count) {
        const nnav_graph *g = nnav_graph_get(u->m, u->marks.graph);
        uint32_t *ids = malloc(u->marks.count * sizeof *ids);
        if (!ids) {
            ui_message(u, R_ERROR, "export: out of memory");
            return;
        }
        size_t n = marks_list(&u->marks, g->node_first, g->node_count, ids);
        int rc = nnav_select_nodes(u->m, ids, n, &x->sel, &err);
        free(ids);
        if (rc < 0) {
            report(u, "export", &err);
            return;
        }
        x->graph = u->marks.graph;
        x->suffix = "marked";
        ui_graph_label(u, x->graph, glabel, sizeof glabel);
        snprintf(x->what, sizeof x->what, "%zu marked node%s of %s", x->sel.n_nodes,
                 x->sel.n_nodes == 1 ? "" : "s", glabel);
    } else {
        if (u->graph == NNAV_NONE) {
            ui_message(u, 0, "no graph to export");
            return;
        }
        if (nnav_select_graph(u->m, u->graph, &x->sel, &err) < 0) {
            report(u, "export", &err);
            return;
        }
        x->graph = u->graph;
        x->suffix = "";
        ui_graph_label(u, x->graph, glabel, sizeof glabel);
        snprintf(x->what, sizeof x->what, "graph %s (%zu node%s)", glabel, x->sel.n_nodes,
                 x->sel.n_nodes == 1 ? "" : "s");
    }
    x->have = 1;
    ask_path(u, x, NULL);
}

/* Appends a name for a comma-separated prompt line; names holding a comma
 * could not be read back, so they are left for the user to type. */
static void add_name(char *buf, size_t cap, nnav_span s)
{
    size_t len = strlen(buf);
    if (!s.n || memchr(s.p, ',', (size_t)s.n) || memchr(s.p, '\0', (size_t)s.n))
        return;
    if (len + (len ? 2 : 0) + s.n + 1 > cap)
        return;
    if (len) {
        memcpy(buf + len, ", ", 2);
        len += 2;
    }
    memcpy(buf + len, s.p, (size_t)s.n);
    buf[len + s.n] = '\0';
}

void exporter_region_begin(ui *u)
{
    exporter *x = get(u);
    if (!x)
        return;
    drop(x);
    if (u->graph == NNAV_NONE) {
        ui_message(u, 0, "no graph to take a region from");
        return;
    }
    x->graph = u->graph;
    /* Suggest the graph's own inputs: with the selected node's outputs below,
     * the region is everything that node needs. */
    const nnav_graph *g = nnav_graph_get(u->m, x->graph);
    char init[sizeof u->pbuf] = "", glabel[300], label[600];
    for (uint32_t i = 0; i < g->input_count; i++) {
        const nnav_vinfo *vi = nnav_vinfo_get(u->m, g->input_first + i);
        if (vi->value != NNAV_NONE) {
            uint8_t k = nnav_value_get(u->m, vi->value)->kind;
            if (k == NNAV_VAL_INITIALIZER || k == NNAV_VAL_SPARSE)
                continue;
        }
        add_name(init, sizeof init, vi->name);
    }
    ui_graph_label(u, x->graph, glabel, sizeof glabel);
    snprintf(label, sizeof label, "region of %s, inputs: ", glabel);
    ui_prompt_open(u, PROMPT_REGION_IN, label, init);
}

static void ask_outputs(ui *u, exporter *x)
{
    char init[sizeof u->pbuf] = "", glabel[300], label[600];
    uint32_t node = nodes_current(u, &u->pane[PANE_NODES]);
    if (u->graph_view && graph_cursor_node(u, &u->pane[PANE_GRAPH]) != NNAV_NONE)
        node = graph_cursor_node(u, &u->pane[PANE_GRAPH]);
    if (node != NNAV_NONE && nnav_node_get(u->m, node)->graph == x->graph) {
        const nnav_node *n = nnav_node_get(u->m, node);
        for (uint32_t o = 0; o < n->out_count; o++) {
            const nnav_ref r = nnav_ref_get(u->m, n->out_first + o);
            if (!r.control)
                add_name(init, sizeof init, r.name);
        }
    }
    ui_graph_label(u, x->graph, glabel, sizeof glabel);
    snprintf(label, sizeof label, "region of %s, outputs: ", glabel);
    ui_prompt_open(u, PROMPT_REGION_OUT, label, init);
}

static void select_region(ui *u, exporter *x, const char *outs_text)
{
    size_t nin = 0, nout = 0;
    char **ins = exporter_split(x->region_in, &nin);
    char **outs = exporter_split(outs_text, &nout);
    nnav_error err;
    int rc = -1;
    if (!ins || !outs) {
        ui_message(u, R_ERROR, "export: out of memory");
    } else if (nout == 0) {
        ui_message(u, R_ERROR, "a region needs at least one output");
    } else {
        rc = nnav_select_region(u->m, x->graph, (const char *const *)ins, nin,
                                (const char *const *)outs, nout, &x->sel, &err);
        if (rc < 0)
            report(u, "region", &err);
    }
    free(ins);
    free(outs);
    if (rc < 0)
        return;
    char glabel[300];
    x->have = 1;
    x->suffix = "region";
    ui_graph_label(u, x->graph, glabel, sizeof glabel);
    snprintf(x->what, sizeof x->what, "region of %s (%zu node%s)", glabel, x->sel.n_nodes,
             x->sel.n_nodes == 1 ? "" : "s");
    ask_path(u, x, NULL);
}

/* The end of a long path, where its file name is, for a one-line message. */
static void path_tail(const char *path, size_t max, char *out, size_t n)
{
    char esc[1100];
    nnav_text_escape_cstr(path, esc, sizeof esc);
    const char *t = esc;
    size_t len = strlen(esc);
    if (len <= max) {
        snprintf(out, n, "%s", esc);
        return;
    }
    t = esc + len - max;
    while (nnav_utf8_cont((unsigned char)*t))
        t++;
    snprintf(out, n, "%s%s", draw_is_utf8() ? "\u2026" : "...", t);
}

static void human_size(uint64_t b, char *buf, size_t n)
{
    if (b < 1024)
        snprintf(buf, n, "%llu bytes", (unsigned long long)b);
    else if (b < 1024ull * 1024)
        snprintf(buf, n, "%llu bytes, %.1f KiB", (unsigned long long)b, b / 1024.0);
    else if (b < 1024ull * 1024 * 1024)
        snprintf(buf, n, "%llu bytes, %.1f MiB", (unsigned long long)b, b / 1048576.0);
    else
        snprintf(buf, n, "%llu bytes, %.2f GiB", (unsigned long long)b, b / 1073741824.0);
}

static void write_file(ui *u, exporter *x, const char *path)
{
    char esc[600], status[700];
    nnav_export_format fmt = exporter_format_of(path);
    /* The types the explorer inferred (shown or not) serve the export too. */
    nnav_export_opts o = { fmt, 16, 0, 0, u->types.s, 0 };
    nnav_error err;
    uint64_t bytes = 0;
    path_tail(path, 60, esc, sizeof esc);
    snprintf(status, sizeof status, "writing %s ...", esc);
    ui_status_now(u, status);
    if (nnav_export_file(u->m, &x->sel, &o, path, &bytes, &err) < 0) {
        report(u, "export failed", &err);
    } else {
        char size[64];
        human_size(bytes, size, sizeof size);
        ui_message(u, 0, "wrote %s (%s, %zu node%s, %s)", esc, size, x->sel.n_nodes,
                   x->sel.n_nodes == 1 ? "" : "s", fmt == NNAV_EXPORT_ONNX ? "ONNX" : "YAML");
        x->last = fmt;
    }
    drop(x);
}

int exporter_target(const nnav_model *m, const char *path, nnav_error *err)
{
    struct stat st;
    if (nnav_export_check(m, path, err) < 0)
        return -1;
    return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static void path_given(ui *u, exporter *x, const char *typed)
{
    char esc[600], label[700];
    if (!*typed) {
        drop(x);
        ui_message(u, 0, "export cancelled: no file name");
        return;
    }
    if (exporter_expand_home(typed, x->path, sizeof x->path) != 0) {
        drop(x);
        ui_message(u, R_ERROR, "export: the file name is too long");
        return;
    }
    /* Only an ordinary file is worth the question: a symlink, a folder, a
     * missing folder or a file the model reads is refused at once, with the
     * reason (the write would refuse it all the same). */
    if (exporter_format_of(x->path) == NNAV_EXPORT_ONNX && !can_onnx(u)) {
        drop(x);
        ui_message(u, R_ERROR, "export refused: ONNX is written from ONNX models only; "
                               "this %s model exports as YAML (name a .yaml file)",
                   nnav_model_facts_get(u->m)->reader_name);
        return;
    }
    nnav_error err;
    int target = exporter_target(u->m, x->path, &err);
    if (target < 0) {
        report(u, "export failed", &err);
        drop(x);
        return;
    }
    if (target == 1) {
        snprintf(x->typed, sizeof x->typed, "%s", typed);
        path_tail(x->path, 40, esc, sizeof esc);
        snprintf(label, sizeof label, "%s exists: overwrite? y/n ", esc);
        ui_prompt_open(u, PROMPT_OVERWRITE, label, "");
        return;
    }
    write_file(u, x, x->path);
}

void exporter_prompt_done(ui *u, int kind, int accept)
{
    exporter *x = u->exp;
    if (!x)
        return;
    if (!accept) {
        drop(x);
        ui_message(u, 0, "export cancelled");
        return;
    }
    switch (kind) {
    case PROMPT_REGION_IN:
        snprintf(x->region_in, sizeof x->region_in, "%s", u->pbuf);
        ask_outputs(u, x);
        break;
    case PROMPT_REGION_OUT:
        select_region(u, x, u->pbuf);
        break;
    case PROMPT_EXPORT_PATH:
        path_given(u, x, u->pbuf);
        break;
    case PROMPT_OVERWRITE:
        write_file(u, x, x->path);
        break;
    default:
        break;
    }
}

void exporter_other_name(ui *u)
{
    /* The selection stays: only the name was wrong. */
    if (u->exp && u->exp->have)
        ask_path(u, u->exp, u->exp->typed);
}

void exporter_tab(ui *u)
{
    if (u->prompt != PROMPT_EXPORT_PATH || !can_onnx(u))
        return; /* YAML is all such a model can be written as */
    exporter_toggle_ext(u->pbuf, sizeof u->pbuf);
    u->plen = strlen(u->pbuf);
}

const char *exporter_hint(ui *u, int brief, char *buf, size_t n)
{
    int onnx = exporter_format_of(u->pbuf) == NNAV_EXPORT_ONNX;
    const char *h = "";
    char not_onnx[160];
    switch (u->prompt) {
    case PROMPT_EXPORT_PATH:
        snprintf(not_onnx, sizeof not_onnx, "not .onnx: a %s model exports as YAML  Esc: cancel",
                 nnav_model_facts_get(u->m)->reader_name);
        if (!can_onnx(u))
            h = brief ? "YAML only"
                : onnx ? not_onnx
                : "as YAML (ONNX only from ONNX models)  Esc: cancel";
        else if (brief)
            h = onnx ? "ONNX  Tab: .yaml" : "YAML  Tab: .onnx";
        else
            h = onnx ? "as ONNX  Tab: .yaml  Esc: cancel" : "as YAML  Tab: .onnx  Esc: cancel";
        break;
    case PROMPT_REGION_IN:
    case PROMPT_REGION_OUT:
        h = brief ? "a,b" : "value names, comma-separated  Esc: cancel";
        break;
    case PROMPT_OVERWRITE:
        h = brief ? "" : "y: write  n: another name  Esc: cancel";
        break;
    default:
        break;
    }
    snprintf(buf, n, "%s", h);
    return buf;
}

/* ---- marks ---- */

int exporter_mark(ui *u, uint32_t node)
{
    const nnav_node *n = nnav_node_get(u->m, node);
    char glabel[300], name[120];
    int rc = marks_toggle(&u->marks, node, n->graph);
    if (rc == MARK_NOMEM) {
        ui_message(u, R_ERROR, "mark: out of memory");
        return 0;
    }
    if (rc == MARK_OTHER_GRAPH) {
        ui_graph_label(u, u->marks.graph, glabel, sizeof glabel);
        ui_message(u, R_ERROR, "marks stay in one graph: %u marked in %s (U unmarks them)",
                   u->marks.count, glabel);
        return 0;
    }
    if (n->name.n)
        draw_escape(n->name, 40, name, sizeof name);
    else
        snprintf(name, sizeof name, "#%u", nnav_node_index(u->m, node));
    ui_message(u, 0, "%s %s: %u marked  e: export them  U: unmark all",
               rc == MARK_ON ? "marked" : "unmarked", name, u->marks.count);
    return 1;
}

void exporter_unmark_all(ui *u)
{
    uint32_t n = u->marks.count;
    marks_clear(&u->marks);
    if (n)
        ui_message(u, 0, "unmarked %u node%s", n, n == 1 ? "" : "s");
    else
        ui_message(u, 0, "no nodes are marked");
}
