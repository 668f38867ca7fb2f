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
    nnav_shapes_opts o = { 0 };
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
