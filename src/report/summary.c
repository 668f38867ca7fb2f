/* summary.c - `nnav summary` (see summary.h). */
#include "summary.h"

#include <stdlib.h>
#include <string.h>

#include "scope.h"
#include "utf8.h"
#include "yamlout.h"

/* The class's last dotted part: "torch.nn.modules.linear.Linear" is Linear. */
static nnav_span short_class(nnav_span c)
{
    uint64_t i = c.n;
    while (i > 0 && c.p[i - 1] != '.')
        i--;
    return i < c.n ? (nnav_span){c.p + i, c.n - i} : c;
}

/* What a scope is: its class, else its own nodes' op types (first two and
 * how many more), "-" when it has no nodes of its own. */
static void what_text(const nnav_model *m, const nnav_scopes *t, const nnav_declutter *d,
                      const nnav_scope *sc, char *buf, size_t n)
{
    if (sc->cls.n) {
        nnav_span c = short_class(sc->cls);
        nnav_text_escape(c.p, c.n, buf, n);
        return;
    }
    if (!sc->node_count) {
        snprintf(buf, n, "-");
        return;
    }
    const uint32_t *nodes = nnav_scope_nodes(t) + sc->node_first;
    nnav_span seen[2] = {{0}};
    uint32_t ns = 0, more = 0;
    for (uint32_t i = 0; i < sc->node_count; i++) {
        if (d && nnav_declutter_hidden(d, nodes[i]))
            continue;
        nnav_span op = nnav_node_get(m, nodes[i])->op;
        uint32_t k = 0;
        while (k < ns && !nnav_span_same(seen[k], op))
            k++;
        if (k < ns)
            continue;
        if (ns < 2)
            seen[ns++] = op;
        else
            more++;
    }
    if (!ns) { /* every own node hidden by --declutter */
        snprintf(buf, n, "-");
        return;
    }
    /* "more" counts nodes past two distinct ops, not distinct ops: say nodes. */
    char a[200], b[200];
    nnav_text_escape(seen[0].p, seen[0].n, a, sizeof a);
    if (ns == 1)
        snprintf(buf, n, "%s", a);
    else if (!more)
        snprintf(buf, n, "%s,%s", a, (nnav_text_escape(seen[1].p, seen[1].n, b, sizeof b), b));
    else
        snprintf(buf, n, "%s,%s,…", a, (nnav_text_escape(seen[1].p, seen[1].n, b, sizeof b), b));
}

static void out_text(const nnav_shapes *s, const nnav_scopes *t, const nnav_scope *sc, char *buf,
                     size_t n)
{
    if (!sc->out_count) {
        snprintf(buf, n, "-");
        return;
    }
    char ty[400];
    nnav_shapes_value_format(s, nnav_scope_values(t)[sc->out_first], ty, sizeof ty);
    if (sc->out_count > 1)
        snprintf(buf, n, "%s +%u", ty[0] ? ty : "?", sc->out_count - 1);
    else
        snprintf(buf, n, "%s", ty[0] ? ty : "?");
}

/* Columns are counted in characters, not bytes ("…" and "×" are one each):
 * the cells are escaped text, valid UTF-8. */
static size_t width(const char *s)
{
    return nnav_utf8_chars(s, strlen(s));
}

static void cell(FILE *out, const char *s, size_t w, const char *after)
{
    size_t n = width(s);
    fputs(s, out);
    for (; n < w; n++)
        fputc(' ', out);
    fputs(after, out);
}

static void name_text(const nnav_scope *sc, char *buf, size_t n)
{
    nnav_text_escape(sc->name.p, sc->name.n, buf, n);
}

/* The run of siblings from c identical to c: how many, and its last. */
static uint32_t run_of(const nnav_scopes *t, uint32_t c, uint32_t *last)
{
    const nnav_scope *sc = nnav_scope_get(t, c);
    uint32_t end = sc->parent + nnav_scope_get(t, sc->parent)->subtree, k = 1;
    *last = c;
    for (uint32_t x = c + sc->subtree; x < end; x += nnav_scope_get(t, x)->subtree) {
        if (nnav_scope_get(t, x)->same_as != c)
            break;
        *last = x, k++;
    }
    return k;
}

/* Nodes of a scope's subtree the decluttered view hides. */
static uint32_t hidden_in(const nnav_scopes *t, const nnav_declutter *d, const nnav_scope *sc)
{
    uint32_t h = 0;
    const uint32_t *nodes = nnav_scope_nodes(t) + sc->node_first;
    for (uint32_t i = 0; d && i < sc->nodes_total; i++)
        h += nnav_declutter_hidden(d, nodes[i]) != 0;
    return h;
}

static int write_text(const nnav_model *m, uint32_t graph, const nnav_shapes *s,
                      const nnav_scopes *t, const nnav_declutter *d, const nnav_whole *wh,
                      long depth, FILE *out)
{
    uint32_t ns = nnav_scopes_count(t);
    char gpath[2048], name[1400], nm2[700], what[600], ty[600], pa[40], ma[40];
    nnav_graph_path(m, graph, gpath, sizeof gpath);
    /* Widths from the rows that will be shown (capped: a wild name overflows its column). */
    size_t wname = strlen(gpath) > 5 ? strlen(gpath) : 5, wwhat = 8, wout = 6;
    for (int pass = 0; pass < 2; pass++) {
        if (pass) {
            cell(out, "scope", wname, "  ");
            cell(out, "class/op", wwhat, "  ");
            cell(out, "output", wout, "");
            fprintf(out, "  %15s  %9s\n", "params", "MACs");
        }
        /* Preorder; a folded run shows its first's subtree, then resumes after its last. */
        struct { uint32_t end, resume; } jump[NNAV_SCOPE_DEPTH_MAX + 2];
        uint32_t jn = 0;
        for (uint32_t i = 0;;) {
            while (jn && i == jump[jn - 1].end)
                i = jump[--jn].resume;
            if (i >= ns)
                break;
            const nnav_scope *sc = nnav_scope_get(t, i);
            if (depth >= 0 && sc->depth > (uint64_t)depth) {
                i += sc->subtree;
                continue;
            }
            uint32_t last = i, k = i ? run_of(t, i, &last) : 1;
            size_t o = (size_t)snprintf(name, sizeof name, "%*s", (int)(2 * sc->depth), "");
            if (!i) {
                snprintf(name + o, sizeof name - o, "%s", gpath);
            } else {
                name_text(sc, name + o, sizeof name - o);
                if (k > 1) {
                    name_text(nnav_scope_get(t, last), nm2, sizeof nm2);
                    o = strlen(name);
                    snprintf(name + o, sizeof name - o, " … %s  ×%u identical", nm2, k);
                }
            }
            what_text(m, t, d, sc, what, sizeof what);
            out_text(s, t, sc, ty, sizeof ty);
            if (!pass) {
                size_t a = width(name), b = width(what), c = width(ty);
                wname = a > wname ? (a < 72 ? a : 72) : wname;
                wwhat = b > wwhat ? (b < 28 ? b : 28) : wwhat;
                wout = c > wout ? (c < 36 ? c : 36) : wout;
            } else {
                nnav_text_commas(sc->params, pa, sizeof pa);
                nnav_text_si(sc->macs, ma, sizeof ma);
                cell(out, name, wname, "  ");
                cell(out, what, wwhat, "  ");
                cell(out, ty, wout, "");
                fprintf(out, "  %15s  %9s\n", pa, ma);
            }
            if (k > 1 && jn < sizeof jump / sizeof *jump) {
                jump[jn].end = i + sc->subtree;
                jump[jn++].resume = last + nnav_scope_get(t, last)->subtree;
            }
            i++;
        }
    }
    const nnav_scope *root = nnav_scope_get(t, 0);
    char p[40], a[40], b[40], nn[40];
    nnav_text_commas(root->params, p, sizeof p);
    nnav_text_si(root->macs, a, sizeof a);
    nnav_text_si(root->flops, b, sizeof b);
    char nsc[40];
    nnav_text_commas(root->nodes_total, nn, sizeof nn);
    nnav_text_commas(ns, nsc, sizeof nsc);
    char dc[64] = "";
    if (d) {
        char h[40];
        nnav_text_commas(nnav_declutter_hidden_count(d), h, sizeof h);
        snprintf(dc, sizeof dc, ", %s decluttered,", h);
    }
    if (wh->overflow)
        snprintf(a, sizeof a, "over 9.2 E"), snprintf(b, sizeof b, "over 9.2 E");
    fprintf(out, "total: %s node%s%s in %s scope%s, %s param%s (%llu name%s), %s MACs, %s FLOPs", nn,
            root->nodes_total == 1 ? "" : "s", dc, nsc, ns == 1 ? "" : "s", p, root->params == 1 ? "" : "s",
            (unsigned long long)root->param_names, root->param_names == 1 ? "" : "s", a, b);
    if (nnav_scopes_buffers(t)) { /* a checkpoint's BatchNorm statistics (scope.h) */
        char bu[40];
        nnav_text_commas(nnav_scopes_buffers(t), bu, sizeof bu);
        fprintf(out, ", %s buffer elements not counted (module buffers)", bu);
    }
    if (wh->per_iter)
        fprintf(out, " (a loop of unknown trip count counted once: per iteration)");
    if (!wh->known)
        fprintf(out, " (partial: %s)", s ? nnav_whole_why(wh) : "no shapes");
    fprintf(out, "\n");
    return 0;
}

static void yaml_values(nnav_yw *w, const nnav_model *m, const nnav_shapes *s, const uint32_t *v,
                        uint32_t n)
{
    char ty[600];
    nnav_yw_seq(w);
    for (uint32_t i = 0; i < n; i++) {
        nnav_yw_map_flow(w);
        nnav_yw_key(w, "name"), nnav_yw_span(w, nnav_value_get(m, v[i])->name);
        nnav_shapes_value_format(s, v[i], ty, sizeof ty);
        nnav_yw_key(w, "type"), ty[0] ? nnav_yw_cstr(w, ty) : nnav_yw_null(w);
        nnav_yw_map_end(w);
    }
    nnav_yw_seq_end(w);
}

static void yaml_count(nnav_yw *w, double v)
{
    if (v >= 0 && v < 1.8e19 && v == (double)(uint64_t)v)
        nnav_yw_uint(w, (uint64_t)v);
    else
        nnav_yw_double(w, v);
}

static int yaml_path(nnav_yw *w, const nnav_scopes *t, uint32_t id)
{
    uint8_t small[512];
    size_t len = nnav_scope_path(t, id, small, sizeof small);
    if (len <= sizeof small) {
        nnav_yw_span(w, (nnav_span){small, len});
        return 0;
    }
    uint8_t *big = malloc(len);
    if (!big)
        return -1;
    nnav_scope_path(t, id, big, len);
    nnav_yw_span(w, (nnav_span){big, len});
    free(big);
    return 0;
}

static int write_yaml(const nnav_model *m, uint32_t graph, const nnav_shapes *s,
                      const nnav_scopes *t, const nnav_declutter *d, const nnav_whole *wh,
                      long depth, FILE *out)
{
    nnav_yw w;
    char gpath[2048];
    if (nnav_yw_open(&w, out) < 0)
        return -1;
    nnav_graph_path(m, graph, gpath, sizeof gpath);
    const nnav_scope *root = nnav_scope_get(t, 0);
    nnav_yw_map(&w);
    nnav_yw_key(&w, "graph"), nnav_yw_cstr(&w, gpath);
    nnav_yw_key(&w, "nodes"), nnav_yw_uint(&w, root->nodes_total);
    if (d)
        nnav_yw_key(&w, "decluttered"), nnav_yw_uint(&w, nnav_declutter_hidden_count(d));
    nnav_yw_key(&w, "params"), nnav_yw_uint(&w, root->params);
    nnav_yw_key(&w, "param_names"), nnav_yw_uint(&w, root->param_names);
    if (nnav_scopes_buffers(t)) /* a checkpoint's (scope.h); never in another format */
        nnav_yw_key(&w, "buffer_elements"), nnav_yw_uint(&w, nnav_scopes_buffers(t));
    nnav_yw_key(&w, "macs"), wh->overflow ? nnav_yw_null(&w) : yaml_count(&w, root->macs);
    nnav_yw_key(&w, "flops"), wh->overflow ? nnav_yw_null(&w) : yaml_count(&w, root->flops);
    nnav_yw_key(&w, "known"), nnav_yw_bool(&w, wh->known && !wh->overflow);
    nnav_yw_key(&w, "per_iteration"), nnav_yw_bool(&w, wh->per_iter);
    nnav_yw_key(&w, "overflow"), nnav_yw_bool(&w, wh->overflow);
    nnav_yw_key(&w, "scopes");
    nnav_yw_seq(&w);
    int rc = 0;
    for (uint32_t i = 0; i < nnav_scopes_count(t) && rc == 0; i++) {
        const nnav_scope *sc = nnav_scope_get(t, i);
        if (depth >= 0 && sc->depth > (uint64_t)depth)
            continue;
        nnav_yw_map(&w);
        nnav_yw_key(&w, "path");
        rc = yaml_path(&w, t, i);
        nnav_yw_key(&w, "name"), nnav_yw_span(&w, sc->name);
        nnav_yw_key(&w, "depth"), nnav_yw_uint(&w, sc->depth);
        nnav_yw_key(&w, "class");
        sc->cls.n ? nnav_yw_span(&w, sc->cls) : nnav_yw_null(&w);
        nnav_yw_key(&w, "nodes"), nnav_yw_uint(&w, sc->nodes_total);
        nnav_yw_key(&w, "own_nodes"), nnav_yw_uint(&w, sc->node_count);
        if (d)
            nnav_yw_key(&w, "decluttered"), nnav_yw_uint(&w, hidden_in(t, d, sc));
        nnav_yw_key(&w, "children"), nnav_yw_uint(&w, sc->child_count);
        nnav_yw_key(&w, "params"), nnav_yw_uint(&w, sc->params);
        nnav_yw_key(&w, "param_names"), nnav_yw_uint(&w, sc->param_names);
        nnav_yw_key(&w, "macs"), yaml_count(&w, sc->macs);
        nnav_yw_key(&w, "flops"), yaml_count(&w, sc->flops);
        nnav_yw_key(&w, "identical_to");
        if (sc->same_as != NNAV_NONE && rc == 0)
            rc = yaml_path(&w, t, sc->same_as);
        else
            nnav_yw_null(&w);
        nnav_yw_key(&w, "repeats"), nnav_yw_uint(&w, sc->same_as == NNAV_NONE ? sc->repeats : 0);
        nnav_yw_key(&w, "inputs");
        yaml_values(&w, m, s, nnav_scope_values(t) + sc->in_first, sc->in_count);
        nnav_yw_key(&w, "outputs");
        yaml_values(&w, m, s, nnav_scope_values(t) + sc->out_first, sc->out_count);
        nnav_yw_map_end(&w);
    }
    nnav_yw_seq_end(&w);
    nnav_yw_map_end(&w);
    return nnav_yw_close(&w) < 0 || rc ? -1 : 0;
}

int nnav_summary_write(const nnav_model *m, uint32_t graph, const nnav_shapes *s, int yaml,
                       long depth, FILE *out)
{
    return nnav_summary_write_view(m, graph, s, NULL, yaml, depth, out);
}

int nnav_summary_write_view(const nnav_model *m, uint32_t graph, const nnav_shapes *s,
                            const nnav_declutter *d, int yaml, long depth, FILE *out)
{
    nnav_scopes *t = nnav_scopes_build(m, graph, s);
    if (!t) {
        fprintf(stderr, "nnav summary: out of memory\n");
        return 2;
    }
    /* Whether the totals are whole: partial, per iteration or past 2^63. */
    nnav_whole wh = {0};
    nnav_wcost *wc = s ? nnav_wcost_new(s) : NULL;
    if (wc)
        wh = *nnav_wcost_graph(wc, graph);
    nnav_wcost_free(wc);
    int rc = yaml ? write_yaml(m, graph, s, t, d, &wh, depth, out)
                  : write_text(m, graph, s, t, d, &wh, depth, out);
    nnav_scopes_free(t);
    if (rc) {
        fprintf(stderr, "nnav summary: out of memory or the output could not be written\n");
        return 2;
    }
    return 0;
}
