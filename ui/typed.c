/* typed.c - the typed view's state: when nnav_shapes_infer() runs, the toggle,
 * the cached graph totals, and the text helpers the panes share. */
#include "typed.h"

#include <stdio.h>
#include <string.h>

#include "sizebar.h"
#include "ui.h"

static int infer(ui *u)
{
    ui_typed *t = &u->types;
    if (t->s)
        return 0;
    if (t->failed)
        return -1;
    nnav_shapes_opts o = { .bind = u->bind, .n_bind = u->n_bind };
    t->s = nnav_shapes_infer(u->m, &o);
    if (!t->s) {
        t->failed = 1;
        return -1;
    }
    t->cost_graph = NNAV_NONE;
    return 0;
}

void typed_open(ui *u)
{
    ui_typed *t = &u->types;
    memset(t, 0, sizeof *t);
    t->cost_graph = NNAV_NONE;
    /* Above the limit the first screen must not wait for the pass: T runs it. */
    if (nnav_node_count(u->m) <= NNAV_SHAPES_EAGER_MAX && infer(u) == 0)
        t->on = 1;
}

void typed_close(ui *u)
{
    nnav_shapes_free(u->types.s);
    u->types.s = NULL;
    u->types.on = 0;
}

void typed_toggle(ui *u)
{
    ui_typed *t = &u->types;
    if (t->on) {
        t->on = 0;
        ui_message(u, 0, "types hidden (T shows them)");
    } else {
        if (!t->s) {
            char msg[120];
            snprintf(msg, sizeof msg, "inferring types and shapes of %u nodes...",
                     nnav_node_count(u->m));
            ui_status_now(u, msg);
        }
        if (infer(u) != 0) {
            ui_message(u, R_ERROR, "types: out of memory while inferring");
            return;
        }
        t->on = 1;
        nnav_shapes_stats st;
        memset(&st, 0, sizeof st);
        if (u->graph != NNAV_NONE)
            nnav_shapes_stats_get(t->s, u->graph, &st);
        ui_message(u, 0, "types shown: %llu of %llu values typed here, %llu disagree with the file",
                   (unsigned long long)st.typed, (unsigned long long)st.values,
                   (unsigned long long)st.disagree);
    }
    detail_refresh(u, &u->pane[PANE_DETAIL]);
}

/* Bindings kept as "a=1,b=2" text in u->bind_text, cut into names. */
static int bind_from(ui *u, const char *text, char *why, size_t wn)
{
    char buf[sizeof u->bind_text];
    nnav_bind b[sizeof u->bind / sizeof *u->bind];
    size_t n = 0;
    if (strlen(text) >= sizeof buf) {
        snprintf(why, wn, "too long");
        return -1;
    }
    memcpy(buf, text, strlen(text) + 1);
    if (nnav_bind_parse(buf, b, sizeof b / sizeof *b, &n, why, wn) < 0)
        return -1;
    /* The names move into u->bind_text, one after another. */
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = strlen(b[i].name);
        memmove(u->bind_text + at, b[i].name, k + 1);
        u->bind[i] = (nnav_bind){u->bind_text + at, b[i].value};
        at += k + 1;
    }
    u->n_bind = n;
    return 0;
}

void typed_bind(ui *u, const nnav_bind *b, size_t n)
{
    char text[sizeof u->bind_text], why[300];
    size_t k = 0;
    text[0] = 0;
    for (size_t i = 0; i < n && k < sizeof text; i++)
        k += (size_t)snprintf(text + k, sizeof text - k, "%s%s=%lld", i ? "," : "", b[i].name,
                              (long long)b[i].value);
    if (k < sizeof text && bind_from(u, text, why, sizeof why) < 0)
        u->n_bind = 0;
}

void typed_dims_prompt(ui *u)
{
    ui_typed *t = &u->types;
    if (!t->s && infer(u) != 0) {
        ui_message(u, R_ERROR, "dims: out of memory while inferring");
        return;
    }
    /* Every named dim at the value it is taken at, the set ones first. */
    char init[sizeof u->pbuf];
    nnav_shapes_assumed(t->s, init, sizeof init);
    size_t w = 0;
    for (size_t r = 0; init[r]; r++)
        if (init[r] != ' ')
            init[w++] = init[r];
    init[w] = 0;
    if (!init[0]) {
        ui_message(u, 0, "this model has no named dims: every shape is as the file gives it");
        return;
    }
    ui_prompt_open(u, PROMPT_DIMS, "dims (NAME=N, comma-separated): ", init);
}

void typed_dims_set(ui *u, const char *text)
{
    char why[300];
    nnav_bind keep[sizeof u->bind / sizeof *u->bind];
    char keep_text[sizeof u->bind_text];
    size_t keep_n = u->n_bind;
    memcpy(keep, u->bind, sizeof keep);
    memcpy(keep_text, u->bind_text, sizeof keep_text);
    if (bind_from(u, text, why, sizeof why) < 0) {
        ui_message(u, R_ERROR, "dims: %s", why);
        return;
    }
    ui_typed *t = &u->types;
    nnav_shapes_free(t->s);
    t->s = NULL;
    t->failed = 0;
    if (infer(u) != 0) {
        memcpy(u->bind, keep, sizeof keep);
        memcpy(u->bind_text, keep_text, sizeof keep_text);
        u->n_bind = keep_n;
        ui_message(u, R_ERROR, "dims: out of memory while inferring");
        return;
    }
    t->on = 1; /* setting dims asks for the shapes they give */
    detail_refresh(u, &u->pane[PANE_DETAIL]);
    char unset[200], cost[160] = "";
    uint32_t k = nnav_shapes_unset(t->s, unset, sizeof unset);
    const nnav_cost *gc = typed_graph_cost(u, u->graph);
    if (gc)
        typed_cost_text(gc, TYPED_BRIEF, cost, sizeof cost);
    if (k)
        ui_message(u, 0, "dims set; %s still unset (counted as 1)%s%s", unset, cost[0] ? ": " : "",
                   cost);
    else
        ui_message(u, 0, "dims set%s%s", cost[0] ? ": " : "", cost);
}

const nnav_shapes *typed_shapes(ui *u)
{
    return u->types.on ? u->types.s : NULL;
}

void typed_value_text(ui *u, uint32_t value, char *buf, size_t n)
{
    if (n)
        buf[0] = '\0';
    if (value == NNAV_NONE || n == 0)
        return;
    if (typed_shapes(u))
        nnav_shapes_value_format(u->types.s, value, buf, n);
    else
        nnav_value_type_format(u->m, value, buf, n);
}

const nnav_cost *typed_graph_cost(ui *u, uint32_t g)
{
    ui_typed *t = &u->types;
    if (!t->on || !t->s || g == NNAV_NONE)
        return NULL;
    /* A sum over the graph's nodes: once per graph shown, not once per frame. */
    if (t->cost_graph != g) {
        nnav_shapes_whole_cost(t->s, g, &t->cost, NULL); /* with its bodies */
        t->cost_graph = g;
    }
    return &t->cost;
}

const char *typed_count(double v, int tight, char *buf, size_t n)
{
    static const char *const unit[] = { "", "k", "M", "G", "T", "P", "E" };
    int k = 0;
    if (!(v >= 0))
        v = 0;
    /* 999.5 would print as "1e+03" with three digits: it is the next unit. */
    while (v >= 999.5 && k < 6) {
        v /= 1000;
        k++;
    }
    if (k == 0)
        snprintf(buf, n, "%.0f", v);
    else
        snprintf(buf, n, "%.3g%s%s", v, tight ? "" : " ", unit[k]);
    return buf;
}

const char *typed_cost_text(const nnav_cost *c, enum typed_form form, char *buf, size_t n)
{
    char macs[32], flops[32], params[32], bytes[32];
    int tight = form == TYPED_TIGHT;
    typed_count(c->macs, tight, macs, sizeof macs);
    typed_count((double)c->params, tight, params, sizeof params);
    const char *least = c->known ? "" : tight ? ">=" : "at least ";
    if (form != TYPED_FULL) {
        snprintf(buf, n, "%s%s MACs%s%s params", least, macs, tight ? " " : "  ", params);
        return buf;
    }
    typed_count(c->flops, 0, flops, sizeof flops);
    double ob = c->out_bytes;
    sizebar_human(ob >= 0 && ob < 1.8e19 ? (uint64_t)ob : 0, bytes, sizeof bytes);
    char buffers[48] = ""; /* BatchNorm statistics, beside the params (scope.h) */
    if (c->buffers) {
        char b[32];
        typed_count((double)c->buffers, 0, b, sizeof b);
        snprintf(buffers, sizeof buffers, "  %s buffers", b);
    }
    snprintf(buf, n, "%s%s MACs  %s FLOPs  %s params%s  %s out", least, macs, flops, params,
             buffers, bytes);
    return buf;
}

attr_t typed_attr(const nnav_shapes *s, uint32_t value)
{
    const nnav_fact *f = value != NNAV_NONE ? nnav_shapes_fact(s, value) : NULL;
    if (!f || f->src == NNAV_SRC_NONE)
        return draw_attr(R_DIM);
    if (f->src == NNAV_SRC_DISAGREE)
        return draw_attr(R_ERROR);
    return 0;
}
