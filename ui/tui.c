/* tui.c - the explorer's core: terminal set-up and restore, the main loop,
 * layout, focus, scrolling, the prompt line, help and pick-list overlays.
 *
 * Panes are driven through their ops tables; only what is on screen is drawn.
 * Long work (search) runs in slices between keystrokes; the loop wakes at
 * least four times a second so a signal is acted on at once.
 */
#define _XOPEN_SOURCE 700 /* nl_langinfo, sigaction */
#include "tui.h"

#include <limits.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clip.h"
#include "exporter.h"
#include "find.h"
#include "opref.h"
#include "place.h"
#include "loadscan.h"
#include "report.h"
#include "ui.h"
#include "utf8.h"

static volatile sig_atomic_t got_signal;
static int curses_on;

static void restore_terminal(void)
{
    if (curses_on) {
        curses_on = 0;
        endwin();
    }
}

static void on_signal(int sig)
{
    got_signal = sig;
}

static void catch_signals(void)
{
    static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* ---- opening, with progress on stderr for a slow open ---- */

typedef struct open_progress {
    double start, last;
    int shown;
} open_progress;

static int on_progress(void *ctx, uint64_t done, uint64_t total)
{
    open_progress *p = ctx;
    double t = now_ms();
    if (t - p->start > 250 && t - p->last > 100 && isatty(2)) {
        fprintf(stderr, "\rnnav: indexing %3u%%", total ? (unsigned)(done * 100 / total) : 0);
        fflush(stderr);
        p->last = t;
        p->shown = 1;
    }
    return got_signal != 0;
}

/* ---- small services for the panes ---- */

pane *ui_pane(ui *u, int id)
{
    return id == PANE_NODES && u->graph_view ? &u->pane[PANE_GRAPH] : &u->pane[id];
}

void ui_message(ui *u, int role, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(u->msg, sizeof u->msg, fmt, ap);
    va_end(ap);
    u->msg_role = role;
    msglog_add(&u->log, role, u->msg);
}

void ui_status_now(ui *u, const char *text)
{
    (void)u;
    if (!curses_on)
        return;
    draw_clip_screen();
    draw_fill(LINES - 1, 0, COLS, draw_attr(R_STATUS));
    draw_text(LINES - 1, 1, COLS - 1, text, draw_attr(R_STATUS));
    refresh();
}

int pane_body_rows(const pane *p)
{
    return p->r.h > 1 ? p->r.h - 1 : 1;
}

void pane_set_cursor(pane *p, uint32_t line, uint32_t lines)
{
    if (lines == 0) {
        p->cur = p->top = 0;
        return;
    }
    if (line >= lines)
        line = lines - 1;
    uint32_t rows = (uint32_t)pane_body_rows(p);
    p->cur = line;
    if (p->cur < p->top)
        p->top = p->cur;
    if (p->cur >= p->top + rows)
        p->top = p->cur - rows + 1;
    if (p->top + rows > lines)
        p->top = lines > rows ? lines - rows : 0;
}

int ui_nodes_hidden(const ui *u)
{
    return u->m && nnav_node_count(u->m) == 0 && !u->graph_view && !u->cmp;
}

void ui_set_focus(ui *u, int id)
{
    if (id == PANE_NODES && ui_nodes_hidden(u))
        id = PANE_TREE;
    u->focus = id;
    pane *p = ui_pane(u, id);
    if (p->ops->select)
        p->ops->select(u, p);
}

static void relayout(ui *u)
{
    int detail_w = u->pane[PANE_DETAIL].r.w;
    if (ui_nodes_hidden(u))
        layout_compute_store(LINES, COLS, tree_fit_width(u), u->focus == PANE_TREE, &u->lay);
    else
        layout_compute_fit(LINES, COLS, u->graph_view, tree_fit_width(u), u->focus == PANE_TREE,
                           &u->lay);
    if (u->zoom)
        layout_zoom(&u->lay, u->focus);
    for (int i = 0; i < PANE_COUNT; i++) {
        u->pane[i].r = u->lay.pane[i];
        pane_set_cursor(&u->pane[i], u->pane[i].cur, u->pane[i].ops->lines(u, &u->pane[i]));
    }
    for (int i = PANE_COUNT; i < PANE_KINDS; i++)
        u->pane[i].r = u->lay.pane[u->pane[i].id]; /* shown in another's room */
    if (u->pane[PANE_DETAIL].r.w != detail_w && u->pane[PANE_DETAIL].r.w > 0)
        detail_refresh(u, &u->pane[PANE_DETAIL]); /* a name wraps at the width */
}

void ui_relayout(ui *u)
{
    relayout(u);
}

/* ---- drawing ---- */

/* The shown graph's totals (or, on a model too big to infer at open, how to
 * get them) for the header, in the given form; 0 when there is nothing. */
static int header_cost_text(ui *u, enum typed_form form, char *buf, size_t n)
{
    const nnav_cost *cost = typed_graph_cost(u, u->graph);
    if (cost)
        typed_cost_text(cost, form, buf, n);
    else if (!u->types.s && !u->types.failed)
        snprintf(buf, n, "%s", form == TYPED_TIGHT ? "T: types" : "T: types and costs");
    else
        return 0;
    return 1;
}

/* The opset imports: "opset 17, ai.onnx.ml 3, com.microsoft 1" in full, or
 * "opset 17 +2 domains" (the default domain's and how many more) short. */
static void opset_text(ui *u, int full, char *buf, size_t n)
{
    uint32_t k = nnav_opset_count(u->m);
    size_t o = 0;
    buf[0] = '\0';
    if (!k)
        return;
    if (!full) {
        int64_t dflt = -1;
        for (uint32_t i = 0; i < k; i++) {
            const nnav_opset *op = nnav_opset_get(u->m, i);
            if (!op->domain.n || nnav_span_eqs(op->domain, "ai.onnx"))
                dflt = op->version;
        }
        if (dflt >= 0 && k == 1)
            snprintf(buf, n, "opset %lld", (long long)dflt);
        else if (dflt >= 0)
            snprintf(buf, n, "opset %lld +%u domain%s", (long long)dflt, k - 1, k == 2 ? "" : "s");
        else
            snprintf(buf, n, "opsets of %u domain%s", k, k == 1 ? "" : "s");
        return;
    }
    for (uint32_t i = 0; i < k && o + 1 < n; i++) {
        const nnav_opset *op = nnav_opset_get(u->m, i);
        o += (size_t)snprintf(buf + o, n - o, "%s", i ? ", " : "opset ");
        if (o + 1 >= n)
            break;
        if (op->domain.n) {
            o += nnav_text_escape(op->domain.p, (size_t)op->domain.n, buf + o, n - o);
            if (o + 1 >= n)
                break;
            o += (size_t)snprintf(buf + o, n - o, " ");
            if (o + 1 >= n)
                break;
        }
        o += (size_t)snprintf(buf + o, n - o, "%lld", (long long)op->version);
    }
    if (o >= n)
        buf[n - 1] = '\0';
}

void ui_base_name(const char *path, char *buf, size_t n)
{
    size_t len = strlen(path);
    while (len > 1 && path[len - 1] == '/')
        len--;
    size_t start = len;
    while (start > 0 && path[start - 1] != '/')
        start--;
    nnav_text_escape((const uint8_t *)path + start, len - start, buf, n);
}

/* A model whose loader would run code (loadscan.h), or whose serialised
 * objects could not be read to their end: what the header says in the
 * error colour instead of counts and producer, and the first message. 0:
 * nothing to say. */
static int load_banner(const nnav_model *m, char *buf, size_t n)
{
    const nnav_load_scan *s = nnav_model_load_scan(m);
    if (!s || (!s->would_run && !s->failed))
        return 0;
    const char *first = "?";
    for (uint32_t i = 0; i < s->count; i++)
        if (s->g[i].op && !s->g[i].allowed) {
            first = s->g[i].call ? s->g[i].call : "?";
            break;
        }
    if (s->would_run)
        snprintf(buf, n, "DANGER: %s would run %u call%s: %s  (i: all; nnav ran none)",
                 s->words->loader_short, s->would_run, s->would_run == 1 ? "" : "s", first);
    else
        snprintf(buf, n, "WARNING: a %s stops at a fault; what loading would run past it "
                         "is not known (i)", s->words->unit);
    return 1;
}

/* The file's name, format and counts come first; then the graph's totals
 * (MACs and params), at the right edge: tighter when room is short, and
 * kept before all but the graph and node counts: the IR version gives way
 * to them, then "(decluttered: N hidden)" becomes "(N hidden)" and goes,
 * then the tensor count, then the file's name is cut (to no fewer than 8
 * columns, else the totals are left out). The unset dims (in full, else "dims unset (d)"), the opset
 * imports (in full, or as "opset 17 +8 domains") and the producer take
 * what is left, each left out rather than cut to under 6 columns. The whole
 * path and every opset are in the model's detail and in `nnav info`, the IR
 * version in `nnav info`. */
static void draw_header(ui *u)
{
    const nnav_model_facts *f = nnav_model_facts_get(u->m);
    attr_t a = draw_attr(R_HEADER);
    int w = COLS, c = 0;
    draw_fill(0, 0, w, a);
    if (u->cmp) { /* compare mode: the side shown and the summary instead */
        cmp_draw_header(u, 0, w, a);
        return;
    }
    char name[512], fmt[128], counts[256], warn[600];
    ui_base_name(u->path, name, sizeof name);
    snprintf(fmt, sizeof fmt, "  %s", f->format_name);
    if (load_banner(u->m, warn, sizeof warn)) {
        c += draw_fmt(0, c, w - c, a, " nnav  %s%s", name, fmt);
        attr_t e = draw_attr(R_ERROR) | A_BOLD;
        draw_fill(0, c, w - c, e);
        draw_text(0, c + 2, w - c - 2, warn, e);
        return;
    }
    char ir[32] = "", decl[64] = "", tensors[40];
    if (f->ir_version >= 0)
        snprintf(ir, sizeof ir, "  IR %lld", (long long)f->ir_version);
    uint32_t ng = nnav_graph_count(u->m), nn = nnav_node_count(u->m), nt = nnav_tensor_count(u->m);
    snprintf(counts, sizeof counts, "  %u graph%s  %u node%s", ng, ng == 1 ? "" : "s", nn,
             nn == 1 ? "" : "s");
    const nnav_declutter *dc = decl_view(u, u->graph);
    if (dc) /* D: how many of the graph in view the view hides */
        snprintf(decl, sizeof decl, " (decluttered: %u hidden)", nnav_declutter_hidden_count(dc));
    snprintf(tensors, sizeof tensors, "  %u tensor%s", nt, nt == 1 ? "" : "s");
    /* " nnav  ", the format, the IR version and the counts */
    int fixed = 7 + draw_width(fmt) + draw_width(ir) + draw_width(counts) + draw_width(decl) +
                draw_width(tensors);
    char cost[160];
    int tw = 0, name_w = w;
    if (header_cost_text(u, TYPED_BRIEF, cost, sizeof cost)) {
        tw = draw_width(cost);
        if (fixed + draw_width(name) + 3 + tw > COLS) {
            header_cost_text(u, TYPED_TIGHT, cost, sizeof cost);
            tw = draw_width(cost);
        }
        /* What gives way, in turn, while the row is too long: the IR
         * version, the declutter's words, its count (the status line says
         * "N/M shown"), the tensor count (the initializer pane's title
         * counts them). */
        char keep_ir[sizeof ir], keep_decl[sizeof decl], keep_tensors[sizeof tensors];
        int keep_fixed = fixed;
        memcpy(keep_ir, ir, sizeof ir);
        memcpy(keep_decl, decl, sizeof decl);
        memcpy(keep_tensors, tensors, sizeof tensors);
        for (int step = 0; step < 4 && fixed + draw_width(name) + 2 + tw > COLS; step++) {
            char *part = step == 0 ? ir : step == 3 ? tensors : decl;
            fixed -= draw_width(part);
            part[0] = 0;
            if (step == 1 && dc)
                snprintf(decl, sizeof decl, " (%u hidden)", nnav_declutter_hidden_count(dc));
            fixed += draw_width(part);
        }
        int room = COLS - fixed - 2 - tw; /* what the name may take */
        if (room < 8 && room < draw_width(name)) { /* no room even so: left out */
            tw = 0;
            fixed = keep_fixed;
            memcpy(ir, keep_ir, sizeof ir);
            memcpy(decl, keep_decl, sizeof decl);
            memcpy(tensors, keep_tensors, sizeof tensors);
        } else if (draw_width(name) > room) {
            name_w = room;
        }
    }
    if (tw) {
        int margin = fixed + draw_width(name) + 3 + tw <= COLS ? 1 : 0;
        draw_text(0, COLS - tw - margin, tw, cost, a | A_BOLD);
        w = COLS - tw - margin - 1;
    }
    c += draw_text(0, c, w - c, " nnav  ", a);
    c += draw_text(0, c, name_w < w - c ? name_w : w - c, name, a);
    c += draw_text(0, c, w - c, fmt, a);
    c += draw_text(0, c, w - c, ir, a);
    c += draw_text(0, c, w - c, counts, a);
    c += draw_text(0, c, w - c, decl, a);
    c += draw_text(0, c, w - c, tensors, a);
    const nnav_shapes *ts = typed_shapes(u);
    char unset[200], dims[260];
    if (ts && nnav_shapes_unset(ts, unset, sizeof unset)) { /* d sets them */
        snprintf(dims, sizeof dims, "  dims %s unset (=1, d sets)", unset);
        if (c + draw_width(dims) > w)
            snprintf(dims, sizeof dims, "  dims unset (d)");
        if (w - c >= 6)
            c += draw_text(0, c, w - c, dims, a | A_BOLD);
    }
    char ops[1024];
    opset_text(u, 1, ops, sizeof ops);
    if (c + 2 + draw_width(ops) > w)
        opset_text(u, 0, ops, sizeof ops);
    if (ops[0] && w - c >= 6)
        c += draw_fmt(0, c, w - c, a, "  %s", ops);
    if (f->producer_name.n && w - c >= 6) {
        c += draw_text(0, c, w - c, "  ", a);
        c += draw_span(0, c, w - c, f->producer_name, a);
        if (f->producer_version.n) {
            c += draw_text(0, c, w - c, " ", a);
            c += draw_span(0, c, w - c, f->producer_version, a);
        }
    }
}

static void draw_pane(ui *u, int id)
{
    pane *p = ui_pane(u, id);
    rect r = p->r;
    if (r.h <= 0 || r.w <= 0)
        return;
    int focused = u->focus == id;
    attr_t ta = draw_attr(focused ? R_TITLE_FOCUS : R_TITLE);
    draw_clip(r.y, r.x, r.h, r.w);
    draw_fill(r.y, r.x, r.w, ta);
    int c = draw_fmt(r.y, r.x, r.w, ta, " %s ", p->name);
    if (p->ops->title)
        p->ops->title(u, p, r.y, r.x + c + 1, r.w - c - 1, ta);
    if (p->ops->draw) {
        p->ops->draw(u, p, r.y + 1, r.x, r.h - 1, r.w);
        draw_clip_screen();
        return;
    }
    uint32_t lines = p->ops->lines(u, p);
    for (int row = 0; row < r.h - 1; row++) {
        uint32_t line = p->top + (uint32_t)row;
        if (line >= lines)
            break;
        int sel = line == p->cur ? (focused ? R_CURSOR : R_CURSOR_BLUR) : 0;
        if (sel == R_CURSOR)
            draw_fill(r.y + 1 + row, r.x, r.w, draw_attr(R_CURSOR));
        p->ops->draw_line(u, p, line, r.y + 1 + row, r.x, r.w, sel);
    }
    if (lines == 0)
        draw_text(r.y + 1, r.x + 1, r.w - 1, "(empty)", draw_attr(R_DIM));
    draw_clip_screen();
}

static void draw_separators(ui *u)
{
    const ui_layout *l = &u->lay;
    const rect *t = &l->pane[PANE_TREE], *d = &l->pane[PANE_DETAIL];
    for (int y = t->y; y < t->y + t->h; y++)
        draw_text(y, l->sep_top_x, 1, y == t->y ? " " : draw_glyph(G_V),
                  y == t->y ? draw_attr(R_TITLE) : draw_attr(R_DIM));
    for (int y = d->y; l->sep_bottom_x >= 0 && y < d->y + d->h; y++)
        draw_text(y, l->sep_bottom_x, 1, y == d->y ? " " : draw_glyph(G_V),
                  y == d->y ? draw_attr(R_TITLE) : draw_attr(R_DIM));
}

static const char *prompt_label(ui *u)
{
    switch (u->prompt) {
    case PROMPT_SEARCH: return "/";
    case PROMPT_GOTO: return ":";
    case PROMPT_FILTER: return "filter op: ";
    default: return u->plabel;
    }
}

/* A message too long for the status line takes the row above it too, until
 * the next key (it covers the panes' last row for that moment); what does
 * not fit in two rows is cut, with the key that shows the whole log. */
static void draw_long_message(ui *u, attr_t a)
{
    int w = COLS, y = LINES - 2;
    attr_t ma = u->msg_role == R_ERROR ? a | A_BOLD : a;
    draw_fill(y, 0, w, a);
    draw_fill(y + 1, 0, w, a);
    size_t next, k = text_wrap(u->msg, w - 2, &next);
    char row[sizeof u->msg];
    memcpy(row, u->msg, k);
    row[k] = '\0';
    draw_text(y, 1, w - 2, row, ma);
    const char *rest = u->msg + next;
    if (text_rows(rest, w - 2) <= 1) {
        draw_text(y + 1, 1, w - 2, rest, ma);
        return;
    }
    char keys[32], hint[48];
    keys_list(REQ_MESSAGES, keys, sizeof keys);
    snprintf(hint, sizeof hint, "  %s: all", keys);
    int hw = draw_width(hint);
    draw_text(y + 1, 1, w - 2 - hw, rest, ma);
    draw_text(y + 1, w - 1 - hw, hw, hint, a);
}

static void draw_status(ui *u)
{
    int y = LINES - 1, w = COLS;
    attr_t a = draw_attr(R_STATUS);
    draw_fill(y, 0, w, a);
    char st[128];
    if (u->prompt) {
        int c = draw_text(y, 0, w, prompt_label(u), a | A_BOLD);
        /* The text before the cursor and after it, escaped apart. */
        char pre[4200], post[4200];
        size_t cur = u->pcur <= u->plen ? u->pcur : u->plen;
        nnav_text_escape((const uint8_t *)u->pbuf, cur, pre, sizeof pre);
        nnav_text_escape((const uint8_t *)u->pbuf + cur, u->plen - cur, post, sizeof post);
        int right = 0, typed = draw_width(pre) + draw_width(post);
        if (u->prompt == PROMPT_SEARCH) {
            find_status(u, st, sizeof st);
        } else {
            /* The name typed matters more than the hint: shorten it, then drop it. */
            exporter_hint(u, 0, st, sizeof st);
            if (draw_width(st) + 2 > w - c - typed - 1)
                exporter_hint(u, 1, st, sizeof st);
            if (draw_width(st) + 2 > w - c - typed - 1)
                st[0] = '\0';
        }
        if (st[0] && draw_width(st) + 2 < w - c - 10) {
            right = draw_width(st) + 2;
            draw_text(y, w - right + 1, right - 1, st, a);
        }
        /* A long line shows the part around the cursor, where the typing happens. */
        const char *shown = pre;
        int room = w - c - right - 1;
        if (room > 2 && typed > room) {
            /* Not the ASCII ellipsis "~": in a file name it would read as home. */
            const char *cut = draw_is_utf8() ? draw_glyph(G_ELLIPSIS) : "<";
            int ell = draw_width(cut);
            if (draw_width(pre) > room - ell - 1) {
                while (*shown && draw_width(shown) > room - ell - 1) {
                    shown++;
                    while (nnav_utf8_cont((unsigned char)*shown))
                        shown++;
                }
                c += draw_text(y, c, ell, cut, a);
                room -= ell;
            }
        }
        /* A suggestion is selected: drawn reversed against the line and underlined. */
        attr_t ta = u->psel ? (a ^ A_REVERSE) | A_UNDERLINE : a;
        int k = draw_text(y, c, room, shown, ta);
        int at = c + k;
        draw_text(y, at, room - k, post, ta);
        if (curs_set(1) != ERR)
            move(y, at < w ? at : w - 1);
        return;
    }
    curs_set(0);
    if (u->msg[0] && draw_width(u->msg) + 2 > w - 10 && LINES >= 3) {
        draw_long_message(u, a);
        return;
    }
    /* Right: message, or search hit, position and key hints. */
    char right[600];
    attr_t ra = a;
    if (u->msg[0]) {
        snprintf(right, sizeof right, "%s", u->msg);
        if (u->msg_role == R_ERROR)
            ra = a | A_BOLD;
    } else {
        pane *p = ui_pane(u, u->focus);
        uint32_t lines = p->ops->lines(u, p);
        char pos[64] = "";
        uint32_t node = u->focus == PANE_NODES && lines ? nodes_current(u, p) : NNAV_NONE;
        if (node != NNAV_NONE) {
            /* The node's index, as the list, paths, `nnav nodes` and `:#N`
             * number it (from 0); a filter adds the place among those shown. */
            uint32_t all = nnav_graph_get(u->m, nnav_node_get(u->m, node)->graph)->node_count;
            int k = snprintf(pos, sizeof pos, "node #%u of %u", nnav_node_index(u->m, node), all);
            if (lines != all && k > 0)
                snprintf(pos + k, sizeof pos - (size_t)k, " (%u/%u shown)", p->cur + 1, lines);
            strncat(pos, "  ", sizeof pos - strlen(pos) - 1);
        } else if (lines) {
            snprintf(pos, sizeof pos, "%s %u/%u  ",
                     u->focus == PANE_NODES ? "node" : u->focus == PANE_TENSORS ? "tensor"
                                                     : u->focus == PANE_TREE ? "graph" : "line",
                     p->cur + 1, lines);
        }
        find_status(u, st, sizeof st);
        char marks[360] = "";
        if (u->marks.count) {
            char glabel[300] = "";
            if (u->marks.graph != u->graph)
                ui_graph_label(u, u->marks.graph, glabel, sizeof glabel);
            snprintf(marks, sizeof marks, "%u marked%s%s  ", u->marks.count,
                     glabel[0] ? " in " : "", glabel);
        }
        snprintf(right, sizeof right, "%s%s%s%s%s ", st, st[0] ? "  " : "", marks, pos,
                 w >= 110 ? "?:help /:search v:graph q:quit" : "?:help q:quit");
    }
    int rw = draw_width(right);
    if (rw > w - 10)
        rw = w - 10;
    int left = w - rw - 1;
    int c = draw_text(y, 0, left, " ", a);
    ui_draw_breadcrumbs(u, u->graph, y, c, left - c, a);
    draw_text(y, w - rw, rw, right, ra);
}

static rect overlay_rect(int want_h, int want_w)
{
    int h = want_h < LINES - 2 ? want_h : LINES - 2;
    int w = want_w < COLS - 4 ? want_w : COLS - 4;
    return (rect){ (LINES - h) / 2, (COLS - w) / 2, h, w };
}

static void draw_frame(rect r, const char *title)
{
    attr_t a = draw_attr(R_TITLE_FOCUS);
    for (int y = r.y; y < r.y + r.h; y++)
        draw_fill(y, r.x, r.w, A_NORMAL);
    draw_fill(r.y, r.x, r.w, a);
    draw_text(r.y, r.x + 1, r.w - 2, title, a);
}

static void draw_menu(ui *u)
{
    ui_menu *m = &u->menu;
    rect r = overlay_rect((int)(m->n < 1000 ? m->n : 1000) + 2, 70);
    draw_frame(r, m->title);
    int rows = r.h - 2;
    if (m->cur < m->top)
        m->top = m->cur;
    if (m->cur >= m->top + (uint32_t)rows)
        m->top = m->cur - (uint32_t)rows + 1;
    draw_clip(r.y, r.x, r.h, r.w);
    for (int i = 0; i < rows && m->top + (uint32_t)i < m->n; i++) {
        uint32_t k = m->top + (uint32_t)i;
        attr_t sel = k == m->cur ? draw_attr(R_CURSOR) : 0;
        if (sel)
            draw_fill(r.y + 1 + i, r.x, r.w, sel);
        int c = draw_fmt(r.y + 1 + i, r.x + 1, r.w - 2, sel, "%3u ", k + 1);
        c += ui_draw_node_label(u, m->nodes[k], r.y + 1 + i, r.x + 1 + c, r.w - 2 - c, sel);
        uint32_t g = nnav_node_get(u->m, m->nodes[k])->graph;
        if (g != u->graph) {
            c += draw_text(r.y + 1 + i, r.x + 1 + c, r.w - 2 - c, "  in ", sel | draw_attr(R_DIM));
            ui_draw_graph_label(u, g, r.y + 1 + i, r.x + 1 + c, r.w - 2 - c, sel | draw_attr(R_DIM));
        }
    }
    draw_fill(r.y + r.h - 1, r.x, r.w, draw_attr(R_TITLE));
    draw_fmt(r.y + r.h - 1, r.x + 1, r.w - 2, draw_attr(R_TITLE),
             "%u/%u  Enter: go  Esc: close", m->cur + 1, m->n);
    draw_clip_screen();
}

/* The rows a text overlay line takes at width: its first row, then rows
 * indented by two. */
static uint32_t view_rows(const char *t, int width)
{
    uint32_t rows = 0;
    int indent = 0;
    do {
        size_t next;
        text_wrap(t, width - indent, &next);
        rows++;
        t += next;
        indent = 2;
    } while (*t);
    return rows;
}

static void draw_help(ui *u)
{
    rect r = overlay_rect(LINES - 2, 100);
    int width = r.w - 2;
    uint32_t lines = (uint32_t)keys_help_lines(width);
    int rows = r.h - 2;
    if (u->help_top + (uint32_t)rows > lines)
        u->help_top = lines > (uint32_t)rows ? lines - (uint32_t)rows : 0;
    draw_frame(r, "nnav help: keys");
    draw_clip(r.y, r.x, r.h, r.w);
    for (int i = 0; i < rows; i++) {
        char line[512];
        uint32_t k = u->help_top + (uint32_t)i;
        if (k >= lines)
            break;
        keys_help_line(k, width, line, sizeof line);
        draw_text(r.y + 1 + i, r.x + 1, width, line, line[0] && line[0] != ' ' ? draw_attr(R_SECTION) : 0);
    }
    draw_fill(r.y + r.h - 1, r.x, r.w, draw_attr(R_TITLE));
    draw_fmt(r.y + r.h - 1, r.x + 1, r.w - 2, draw_attr(R_TITLE),
             "lines %u-%u of %u  j/k scroll  q, Esc or ? close", u->help_top + 1,
             u->help_top + (uint32_t)rows < lines ? u->help_top + (uint32_t)rows : lines, lines);
    draw_clip_screen();
}

/* The text overlay (M, i): each line wrapped to the width, its following
 * rows indented by two; scrolled by rows. */
static void draw_text_view(ui *u)
{
    text_view *v = &u->text;
    rect r = overlay_rect(LINES - 2, 110);
    int width = r.w - 2;
    if (width < 4 || r.h < 3)
        return;
    uint32_t total = 0;
    for (uint32_t i = 0; i < v->n; i++)
        total += view_rows(v->line[i], width);
    /* No taller than the text needs. */
    r = overlay_rect(total + 2 < (uint32_t)LINES ? (int)total + 2 : LINES, 110);
    int rows = r.h - 2;
    if (v->top + (uint32_t)rows > total)
        v->top = total > (uint32_t)rows ? total - (uint32_t)rows : 0;
    draw_frame(r, v->title);
    draw_clip(r.y, r.x, r.h, r.w);
    uint32_t row = 0;
    for (uint32_t i = 0; i < v->n && row < v->top + (uint32_t)rows; i++) {
        attr_t la = v->role[i] ? draw_attr(v->role[i]) : 0;
        const char *t = v->line[i];
        int indent = 0;
        do {
            size_t next, k = text_wrap(t, width - indent, &next);
            if (row >= v->top) {
                char buf[1024];
                size_t c = k < sizeof buf - 1 ? k : sizeof buf - 1;
                memcpy(buf, t, c);
                buf[c] = '\0';
                draw_text(r.y + 1 + (int)(row - v->top), r.x + 1 + indent, width - indent, buf, la);
            }
            row++;
            t += next;
            indent = 2;
        } while (*t && row < v->top + (uint32_t)rows);
    }
    draw_fill(r.y + r.h - 1, r.x, r.w, draw_attr(R_TITLE));
    draw_fmt(r.y + r.h - 1, r.x + 1, r.w - 2, draw_attr(R_TITLE),
             "rows %u-%u of %u  j/k scroll  q or Esc close", total ? v->top + 1 : 0,
             v->top + (uint32_t)rows < total ? v->top + (uint32_t)rows : total, total);
    draw_clip_screen();
}

static void draw_screen(ui *u)
{
    erase();
    draw_clip_screen();
    if (u->lay.too_small) {
        draw_fmt(0, 0, COLS, A_BOLD, "nnav: too small (%dx%d)", COLS, LINES);
        draw_fmt(1, 0, COLS, 0, "needs %dx%d; q quits", LAYOUT_MIN_COLS, LAYOUT_MIN_LINES);
        curs_set(0);
        refresh();
        return;
    }
    if (u->focus == PANE_NODES && ui_nodes_hidden(u))
        u->focus = PANE_TREE; /* a jump or a command chose the list that has no room */
    if ((u->zoom && u->lay.zoom != u->focus + 1) || u->lay.tree_wide != (u->focus == PANE_TREE))
        relayout(u); /* the zoom follows the focus; the tree widens while it has it */
    draw_header(u);
    for (int i = 0; i < PANE_COUNT; i++)
        draw_pane(u, i);
    draw_separators(u);
    if (u->menu.on)
        draw_menu(u);
    if (u->help)
        draw_help(u);
    if (u->text.on)
        draw_text_view(u);
    draw_status(u); /* last: it places the cursor for the prompt */
    refresh();
}

/* ---- requests the core handles ---- */

static void move_cursor(ui *u, pane *p, enum request r)
{
    uint32_t lines = p->ops->lines(u, p);
    if (lines == 0)
        return;
    int64_t cur = p->cur, rows = pane_body_rows(p);
    switch (r) {
    case REQ_MOVE_UP: cur--; break;
    case REQ_MOVE_DOWN: cur++; break;
    case REQ_PAGE_UP: cur -= rows; break;
    case REQ_PAGE_DOWN: cur += rows; break;
    case REQ_HALF_UP: cur -= rows / 2 ? rows / 2 : 1; break;
    case REQ_HALF_DOWN: cur += rows / 2 ? rows / 2 : 1; break;
    case REQ_MOVE_FIRST: cur = 0; break;
    case REQ_MOVE_LAST: cur = (int64_t)lines - 1; break;
    default: return;
    }
    if (cur < 0)
        cur = 0;
    if (cur >= lines)
        cur = (int64_t)lines - 1;
    if ((uint32_t)cur == p->cur)
        return;
    if (r == REQ_PAGE_DOWN || r == REQ_PAGE_UP || r == REQ_HALF_DOWN || r == REQ_HALF_UP) {
        /* Pages scroll the view with the cursor, like less. */
        int64_t top = (int64_t)p->top + (cur - (int64_t)p->cur);
        p->top = top < 0 ? 0 : (uint32_t)top;
    }
    pane_set_cursor(p, (uint32_t)cur, lines);
    if (p->ops->select)
        p->ops->select(u, p);
}

void ui_prompt_open(ui *u, int kind, const char *label, const char *init)
{
    u->prompt = kind;
    snprintf(u->plabel, sizeof u->plabel, "%s", label ? label : "");
    snprintf(u->pbuf, sizeof u->pbuf, "%s", init ? init : "");
    u->plen = strlen(u->pbuf);
    u->pcur = u->plen;
    u->psel = u->plen > 0;
    u->msg[0] = '\0';
    if (kind == PROMPT_SEARCH)
        find_begin(u);
}

static void toggle_graph_view(ui *u)
{
    uint32_t node = NNAV_NONE;
    if (!u->graph_view) {
        node = nodes_current(u, &u->pane[PANE_NODES]);
        place here = ui_here(u);
        if (here.kind == PLACE_NODE)
            node = here.id;
        u->graph_view = 1;
        relayout(u);
        graph_centre(u, &u->pane[PANE_GRAPH], node);
        if (node != NNAV_NONE)
            nodes_reveal(u, &u->pane[PANE_NODES], node);
        u->focus = PANE_NODES;
        ui_message(u, 0, "graph view: arrows follow edges, Enter re-centres, +/- depth, v back");
    } else {
        node = graph_cursor_node(u, &u->pane[PANE_GRAPH]);
        u->graph_view = 0;
        relayout(u);
        if (node != NNAV_NONE)
            nodes_reveal(u, &u->pane[PANE_NODES], node);
        u->focus = PANE_NODES;
    }
}

static void yank(ui *u)
{
    pane *p = ui_pane(u, u->focus);
    nnav_span s = { 0 };
    char buf[1100];
    if (!p->ops->yank || !p->ops->yank(u, p, &s, buf, sizeof buf) || !s.p || s.n == 0) {
        ui_message(u, 0, "nothing to copy here");
        return;
    }
    if (clip_yank(STDOUT_FILENO, (const char *)s.p, (size_t)s.n) != 0) {
        ui_message(u, R_ERROR, "could not write to the terminal");
        return;
    }
    char esc[200];
    draw_escape(s, 60, esc, sizeof esc);
    ui_message(u, 0, "copied %s", esc);
}

/* `:` takes whatever nnav prints for a place (src/place.h): #N, a node name
 * anywhere (crossing into the body that holds it, as `/` does), a graph path
 * with or without its leading slash, the tree's NODE.ATTR label, @FUNC. */
static void goto_target(ui *u, const char *s)
{
    if (!*s || u->graph == NNAV_NONE)
        return;
    nnav_place_ref r;
    nnav_error e;
    if (nnav_place_resolve(u->m, u->graph, s, 0, &r, &e) < 0) {
        /* A mistyped node name: the closest names in the model. */
        char close[1100] = "";
        if (s[0] != '#' && s[0] != '@') {
            nnav_near nr;
            nnav_near_init(&nr, s);
            for (uint32_t i = 0; i < nnav_node_count(u->m); i++)
                nnav_near_offer(&nr, nnav_node_get(u->m, i)->name);
            nnav_near_text(&nr, close, sizeof close);
        }
        ui_message(u, R_ERROR, "%s%s", e.msg, close);
        return;
    }
    switch (r.kind) {
    case NNAV_PLACE_GRAPH:
        ui_jump(u, ui_place_graph(u, r.id));
        u->focus = PANE_NODES;
        break;
    case NNAV_PLACE_VALUE:
        ui_jump(u, ui_place_value(u, r.id));
        break;
    default:
        ui_jump(u, ui_place_node(u, r.id));
        u->focus = PANE_NODES;
        /* The breadcrumbs say where it is; only a choice made is told. */
        if (r.how == NNAV_PLACE_BY_NAME_ELSEWHERE && r.others) {
            char label[300];
            ui_graph_label(u, r.graph, label, sizeof label);
            ui_message(u, 0, "in %s, the first of %u graphs with a node of that name "
                             "(/ and n visit the others)", label, r.others + 1);
        }
        break;
    }
}

/* The model file was changed on disk since it was opened (written in place,
 * replaced, removed): the index no longer says where its bytes are, so what
 * would be read now is not what is shown. Says so on the status line and
 * returns 1; the caller refuses to read the file (values, statistics,
 * export). Moving about goes on, on what was read at open. */
static int model_changed(ui *u)
{
    char why[128], name[300];
    if (!nnav_model_changed(u->m, why, sizeof why))
        return 0;
    const char *slash = strrchr(u->path, '/');
    nnav_text_escape_cstr(slash && slash[1] ? slash + 1 : u->path, name, sizeof name);
    ui_message(u, R_ERROR, "%s changed on disk (%s): not read again; reopen it", name, why);
    return 1;
}

static void prompt_done(ui *u, int accept)
{
    int kind = u->prompt;
    u->prompt = PROMPT_NONE;
    switch (kind) {
    case PROMPT_SEARCH:
        if (accept)
            find_commit(u);
        else
            find_cancel(u);
        break;
    case PROMPT_GOTO:
        if (accept)
            goto_target(u, u->pbuf);
        break;
    case PROMPT_DIMS:
        if (accept)
            typed_dims_set(u, u->pbuf);
        break;
    case PROMPT_FILTER:
        if (accept) {
            if (u->graph_view)
                toggle_graph_view(u);
            int n = nodes_filter(u, &u->pane[PANE_NODES], u->pbuf);
            u->focus = PANE_NODES;
            ui_set_focus(u, PANE_NODES);
            if (u->plen)
                ui_message(u, n > 0 ? 0 : R_ERROR, "%d node%s of op type %s", n, n == 1 ? "" : "s",
                           u->pbuf);
            else
                ui_message(u, 0, "filter cleared");
        }
        break;
    case PROMPT_EXPORT_PATH:
    case PROMPT_REGION_IN:
    case PROMPT_REGION_OUT:
    case PROMPT_OVERWRITE:
        /* The file may have changed while the name was typed. */
        if (accept && model_changed(u)) {
            char msg[sizeof u->msg];
            memcpy(msg, u->msg, sizeof msg);
            exporter_prompt_done(u, kind, 0);
            u->prompt = PROMPT_NONE;
            memcpy(u->msg, msg, sizeof msg);
            u->msg_role = R_ERROR;
            break;
        }
        exporter_prompt_done(u, kind, accept);
        break;
    default:
        break;
    }
}

/* The start of the UTF-8 character before byte offset i, and the end of the
 * one at i. */
static size_t prompt_char_before(const ui *u, size_t i)
{
    while (i > 0 && nnav_utf8_cont((unsigned char)u->pbuf[--i]))
        ;
    return i;
}

static size_t prompt_char_after(const ui *u, size_t i)
{
    if (i < u->plen)
        i++;
    while (i < u->plen && nnav_utf8_cont((unsigned char)u->pbuf[i]))
        i++;
    return i;
}

/* Removes bytes [a, b) of the prompt; the cursor stays on the same text. */
static void prompt_cut(ui *u, size_t a, size_t b)
{
    memmove(u->pbuf + a, u->pbuf + b, u->plen - b + 1);
    u->plen -= b - a;
    if (u->pcur >= b)
        u->pcur -= b - a;
    else if (u->pcur > a)
        u->pcur = a;
}

static void prompt_key(ui *u, int code, wint_t wc)
{
    if (u->prompt == PROMPT_OVERWRITE) {
        /* One key answers, and only y writes: Enter or a stray key does not. */
        if (!code && wc == 27) {
            prompt_done(u, 0);
        } else if (!code && (wc == 'y' || wc == 'Y')) {
            prompt_done(u, 1);
        } else if (!code && (wc == 'n' || wc == 'N')) {
            u->prompt = PROMPT_NONE;
            exporter_other_name(u);
        }
        return;
    }
    if (!code && (wc == '\n' || wc == '\r')) {
        prompt_done(u, 1);
        return;
    }
    if ((code && wc == KEY_ENTER)) {
        prompt_done(u, 1);
        return;
    }
    if (!code && wc == 27) {
        prompt_done(u, 0);
        return;
    }
    if (!code && wc == '\t') {
        exporter_tab(u);
        u->pcur = u->plen;
        return;
    }
    if (u->pcur > u->plen)
        u->pcur = u->plen;
    int changed = 0, sel = u->psel;
    u->psel = 0;
    if ((code && wc == KEY_BACKSPACE) || (!code && (wc == 127 || wc == CTL('h')))) {
        if (u->plen == 0) {
            prompt_done(u, 0);
            return;
        }
        if (sel) {
            prompt_cut(u, 0, u->plen);
            changed = 1;
        } else if (u->pcur > 0) {
            prompt_cut(u, prompt_char_before(u, u->pcur), u->pcur);
            changed = 1;
        }
    } else if (code && wc == KEY_DC) {
        if (sel)
            prompt_cut(u, 0, u->plen);
        else if (u->pcur < u->plen)
            prompt_cut(u, u->pcur, prompt_char_after(u, u->pcur));
        changed = 1;
    } else if (code && wc == KEY_LEFT) {
        /* On a selection, to its start (as GUIs do); else a character back. */
        u->pcur = sel ? 0 : prompt_char_before(u, u->pcur);
    } else if (code && wc == KEY_RIGHT) {
        u->pcur = sel ? u->plen : prompt_char_after(u, u->pcur);
    } else if ((code && wc == KEY_HOME) || (!code && wc == CTL('a'))) {
        u->pcur = 0;
    } else if ((code && wc == KEY_END) || (!code && wc == CTL('e'))) {
        u->pcur = u->plen;
    } else if (!code && wc == CTL('u')) {
        /* Everything before the cursor (readline's C-u); a selection whole. */
        prompt_cut(u, 0, sel ? u->plen : u->pcur);
        changed = 1;
    } else if (!code && wc >= 32 && wc != 127) {
        char mb[MB_LEN_MAX];
        mbstate_t st;
        memset(&st, 0, sizeof st);
        size_t k = wcrtomb(mb, (wchar_t)wc, &st);
        if (sel)
            prompt_cut(u, 0, u->plen);
        if (k != (size_t)-1 && u->plen + k < sizeof u->pbuf) {
            memmove(u->pbuf + u->pcur + k, u->pbuf + u->pcur, u->plen - u->pcur + 1);
            memcpy(u->pbuf + u->pcur, mb, k);
            u->plen += k;
            u->pcur += k;
        }
        changed = 1;
    } else {
        u->psel = sel; /* a key that does nothing here keeps the selection */
    }
    if (changed && u->prompt == PROMPT_SEARCH)
        find_update(u);
}

static void menu_key(ui *u, enum request r, int code, wint_t wc)
{
    ui_menu *m = &u->menu;
    if ((!code && (wc == 27 || wc == 'q')) || r == REQ_BACK) {
        ui_menu_close(u);
        return;
    }
    int rows = overlay_rect((int)m->n + 2, 70).h - 2;
    int64_t cur = m->cur;
    switch (r) {
    case REQ_MOVE_UP: cur--; break;
    case REQ_MOVE_DOWN: cur++; break;
    case REQ_PAGE_UP: case REQ_HALF_UP: cur -= rows; break;
    case REQ_PAGE_DOWN: case REQ_HALF_DOWN: cur += rows; break;
    case REQ_MOVE_FIRST: cur = 0; break;
    case REQ_MOVE_LAST: cur = (int64_t)m->n - 1; break;
    case REQ_ENTER: {
        uint32_t node = m->nodes[m->cur];
        ui_menu_close(u);
        ui_jump(u, ui_place_node(u, node));
        u->focus = PANE_NODES;
        return;
    }
    default: return;
    }
    if (cur < 0)
        cur = 0;
    if (cur >= (int64_t)m->n)
        cur = (int64_t)m->n - 1;
    m->cur = (uint32_t)cur;
}

static void help_key(ui *u, enum request r, int code, wint_t wc)
{
    int rows = LINES - 4;
    switch (r) {
    case REQ_MOVE_UP: if (u->help_top) u->help_top--; return;
    case REQ_MOVE_DOWN: u->help_top++; return;
    case REQ_PAGE_UP: case REQ_HALF_UP: u->help_top = u->help_top > (uint32_t)rows ? u->help_top - (uint32_t)rows : 0; return;
    case REQ_PAGE_DOWN: case REQ_HALF_DOWN: u->help_top += (uint32_t)rows; return;
    case REQ_MOVE_FIRST: u->help_top = 0; return;
    case REQ_MOVE_LAST: u->help_top = UINT32_MAX / 2; return;
    default: break;
    }
    if (r == REQ_HELP || r == REQ_QUIT || r == REQ_BACK || r == REQ_ENTER || (!code && wc == 27))
        u->help = 0;
}

static void text_key(ui *u, enum request r, int code, wint_t wc)
{
    text_view *v = &u->text;
    int rows = LINES - 4;
    switch (r) {
    case REQ_MOVE_UP: if (v->top) v->top--; return;
    case REQ_MOVE_DOWN: v->top++; return;
    case REQ_PAGE_UP: case REQ_HALF_UP: v->top = v->top > (uint32_t)rows ? v->top - (uint32_t)rows : 0; return;
    case REQ_PAGE_DOWN: case REQ_HALF_DOWN: v->top += (uint32_t)rows; return;
    case REQ_MOVE_FIRST: v->top = 0; return;
    case REQ_MOVE_LAST: v->top = UINT32_MAX / 2; return;
    default: break;
    }
    if (r == REQ_MESSAGES || r == REQ_MODEL_INFO || r == REQ_OP_REF || r == REQ_QUIT ||
        r == REQ_BACK || r == REQ_ENTER || r == REQ_HELP || (!code && wc == 27))
        text_view_close(v);
}

/* M: the message log, newest at the bottom and in view. */
static void show_messages(ui *u)
{
    uint32_t n = msglog_count(&u->log);
    char title[200];
    snprintf(title, sizeof title, "messages: the last %u (of at most %d), newest last", n, MSGLOG_MAX);
    text_view_open(&u->text, title);
    if (!n)
        text_view_add(&u->text, R_DIM, "(no messages yet)");
    for (uint32_t i = 0; i < n; i++) {
        int role = 0;
        const char *t = msglog_get(&u->log, i, &role);
        if (text_view_add(&u->text, role == R_ERROR ? R_ERROR : 0, t) != 0)
            break;
    }
    u->text.top = UINT32_MAX / 2;
}

/* i: what `nnav info MODEL` prints, from the same function. */
static void show_model_info(ui *u)
{
    char *buf = NULL;
    size_t len = 0;
    ui_status_now(u, " reading the model's details...");
    FILE *f = open_memstream(&buf, &len);
    int rc = f ? nnav_info_write(u->m, 0, f) : -1;
    if (f && fclose(f) != 0)
        rc = -1;
    text_view_open(&u->text, "model details (as nnav info prints them)");
    if (rc != 0 || !buf || text_view_add_lines(&u->text, 0, buf, len) != 0) {
        text_view_close(&u->text);
        ui_message(u, R_ERROR, "model details: out of memory");
    }
    free(buf);
}

/* o: the selected node's operator as `nnav op` prints it, from the same
 * function, at the version the node is held to; a node with no schema says
 * why in the status line (the words `nnav node` uses), an unknown operator
 * of a standard domain with the close names `nnav op` offers. */
static void show_op_reference(ui *u)
{
    uint32_t node = detail_node(&u->pane[PANE_DETAIL]);
    if (node == NNAV_NONE) {
        ui_message(u, R_ERROR, "operator reference: select a node first");
        return;
    }
    nnav_opref r;
    memset(&r, 0, sizeof r);
    int rc = nnav_opref_for_node(u->m, node, &r);
    if (rc != NNAV_OPREF_OK && rc != NNAV_OPS_NOT_YET) {
        nnav_op_use use;
        memset(&use, 0, sizeof use);
        char why[600] = "node out of range";
        if (nnav_op_resolve(u->m, node, &use) == 0)
            nnav_node_schema_line(u->m, node, &use, why, sizeof why);
        nnav_span opname = nnav_node_get(u->m, node)->op;
        char op[120], near[200] = "";
        draw_escape(opname, 40, op, sizeof op);
        const char *names[4];
        size_t k = rc == NNAV_OPS_UNKNOWN && use.domain
                       ? nnav_opref_suggest(use.domain, opname, names, 4) : 0;
        for (size_t i = 0, o = 0; i < k && o + 1 < sizeof near; i++) {
            int w = snprintf(near + o, sizeof near - o, "%s%s", i ? ", " : "; close: ", names[i]);
            if (w < 0)
                break;
            o += (size_t)w;
        }
        ui_message(u, R_ERROR, "operator reference: no schema for %s (%s)%s", op, why, near);
        return;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    int wrc = f ? nnav_opref_write(&r, 0, f) : -1;
    if (f && fclose(f) != 0)
        wrc = -1;
    /* A TensorFlow OpDef's name and domain come from the file. */
    char title[200], name[96], dom[96] = "";
    nnav_text_escape_cstr(r.s ? r.s->name : "?", name, sizeof name);
    if (r.domain && strcmp(r.domain, "ai.onnx") != 0) {
        nnav_text_escape_cstr(r.domain, dom, sizeof dom - 1);
        strcat(dom, " ");
    }
    snprintf(title, sizeof title, "operator %s%s (as nnav op prints it)", dom, name);
    text_view_open(&u->text, title);
    if (wrc != 0 || !buf || text_view_add_lines(&u->text, 0, buf, len) != 0) {
        text_view_close(&u->text);
        ui_message(u, R_ERROR, "operator reference: out of memory");
    }
    free(buf);
}

/* X in compare mode: the explorer ends and opens on the other side, its
 * cursor on the counterpart of what it was on (its graph when there is none). */
static void swap_sides(ui *u)
{
    compare *c = u->cmp;
    int side = c->side;
    place here = ui_here(u);
    uint32_t peer = NNAV_NONE;
    c->keep_kind = PLACE_GRAPH;
    c->keep_focus = u->focus;
    uint32_t other = u->focus == PANE_NODES && !u->graph_view
                         ? nodes_current_other(u, &u->pane[PANE_NODES]) : NNAV_NONE;
    if (other != NNAV_NONE) { /* a row of the other side's node: that node there */
        here.kind = PLACE_NODE;
        peer = other;
    } else if (here.kind == PLACE_NODE)
        peer = nnav_diff_node_peer(c->d, side, here.id);
    else if (here.kind == PLACE_TENSOR)
        peer = nnav_diff_tensor_peer(c->d, side, here.id);
    if (peer != NNAV_NONE) {
        c->keep_kind = here.kind;
        c->keep_id = peer;
    } else {
        uint32_t e = here.graph != NNAV_NONE ? nnav_diff_graph_of(c->d, side, here.graph) : NNAV_NONE;
        const nnav_diff_graph *g = e != NNAV_NONE ? nnav_diff_graph_get(c->d, e) : NULL;
        c->keep_id = g ? (side ? g->a : g->b) : NNAV_NONE;
    }
    c->swap = 1;
    u->quit = 1;
}

static void request(ui *u, enum request r)
{
    pane *p = ui_pane(u, u->focus);
    if ((r == REQ_STATS || r == REQ_EXPORT || r == REQ_EXPORT_REGION) && model_changed(u))
        return;
    if (r != REQ_NONE && p->ops->request && p->ops->request(u, p, r))
        return;
    switch (r) {
    case REQ_MOVE_UP: case REQ_MOVE_DOWN: case REQ_PAGE_UP: case REQ_PAGE_DOWN:
    case REQ_HALF_UP: case REQ_HALF_DOWN: case REQ_MOVE_FIRST: case REQ_MOVE_LAST:
        move_cursor(u, p, r);
        break;
    case REQ_ZOOM:
        u->zoom = !u->zoom;
        relayout(u);
        if (u->zoom)
            ui_message(u, 0, "zoomed: z shows every pane again, Tab zooms the next");
        else
            u->msg[0] = '\0';
        break;
    case REQ_FOCUS_NEXT: { /* the node list skipped while it has no room */
        int f = (u->focus + 1) % PANE_COUNT;
        ui_set_focus(u, f == PANE_NODES && ui_nodes_hidden(u) ? (f + 1) % PANE_COUNT : f);
        break;
    }
    case REQ_FOCUS_PREV: {
        int f = (u->focus + PANE_COUNT - 1) % PANE_COUNT;
        ui_set_focus(u, f == PANE_NODES && ui_nodes_hidden(u) ? (f + PANE_COUNT - 1) % PANE_COUNT : f);
        break;
    }
    case REQ_BACK:
        ui_back(u);
        break;
    case REQ_FORWARD:
        ui_forward(u);
        break;
    case REQ_GOTO:
        ui_prompt_open(u, PROMPT_GOTO, NULL, "");
        break;
    case REQ_SEARCH:
        ui_prompt_open(u, PROMPT_SEARCH, NULL, "");
        break;
    case REQ_SEARCH_NEXT:
        find_next(u, 1);
        break;
    case REQ_SEARCH_PREV:
        find_next(u, -1);
        break;
    case REQ_FILTER: {
        const char *cur = nodes_filter_text(&u->pane[PANE_NODES]);
        char init[64] = "";
        if (!*cur) {
            uint32_t n = nodes_current(u, &u->pane[PANE_NODES]);
            if (n != NNAV_NONE)
                draw_escape(nnav_node_get(u->m, n)->op, 40, init, sizeof init);
        }
        ui_prompt_open(u, PROMPT_FILTER, NULL, *cur ? cur : init);
        break;
    }
    case REQ_SORT:
        u->pane[PANE_TENSORS].ops->request(u, &u->pane[PANE_TENSORS], REQ_SORT);
        break;
    case REQ_STATS:
        detail_stats(u, &u->pane[PANE_DETAIL]);
        break;
    case REQ_GRAPH_VIEW:
        toggle_graph_view(u);
        break;
    case REQ_TYPES:
        typed_toggle(u);
        break;
    case REQ_DECLUTTER:
        decl_toggle(u);
        break;
    case REQ_DIMS:
        typed_dims_prompt(u);
        break;
    case REQ_SCOPES:
        tree_toggle_scopes(u, &u->pane[PANE_TREE]);
        break;
    case REQ_DEPTH_MORE:
    case REQ_DEPTH_LESS:
        ui_message(u, 0, "+ and - set the depth of the graph view (v)");
        break;
    case REQ_YANK:
        yank(u);
        break;
    case REQ_MARK:
        ui_message(u, 0, "Space marks nodes in the node list or the graph view");
        break;
    case REQ_UNMARK_ALL:
        exporter_unmark_all(u);
        break;
    case REQ_EXPORT:
        exporter_begin(u);
        break;
    case REQ_EXPORT_REGION:
        exporter_region_begin(u);
        break;
    case REQ_HELP:
        u->help = 1;
        u->help_top = 0;
        break;
    case REQ_MESSAGES:
        show_messages(u);
        break;
    case REQ_MODEL_INFO:
        show_model_info(u);
        break;
    case REQ_OP_REF:
        show_op_reference(u);
        break;
    case REQ_DIFF_NEXT:
    case REQ_DIFF_PREV:
    case REQ_SWAP_SIDES:
        if (!u->cmp)
            ui_message(u, 0, "%s works in compare mode: nnav A B", keys_request_name(r));
        else if (r == REQ_SWAP_SIDES)
            swap_sides(u);
        else
            cmp_jump(u, r == REQ_DIFF_NEXT ? 1 : -1);
        break;
    case REQ_REDRAW:
        clearok(curscr, TRUE);
        break;
    case REQ_QUIT:
        u->quit = 1;
        break;
    default:
        break;
    }
}

static void mouse(ui *u)
{
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return;
    enum request wheel = REQ_NONE;
#ifdef BUTTON5_PRESSED
    if (ev.bstate & BUTTON5_PRESSED)
        wheel = REQ_MOVE_DOWN;
#endif
    if (ev.bstate & BUTTON4_PRESSED)
        wheel = REQ_MOVE_UP;
    if (u->help) {
        if (wheel != REQ_NONE)
            help_key(u, wheel, 0, 0);
        return;
    }
    if (u->text.on) {
        if (wheel != REQ_NONE)
            text_key(u, wheel, 0, 0);
        return;
    }
    if (u->menu.on) {
        if (wheel != REQ_NONE)
            menu_key(u, wheel, 0, 0);
        return;
    }
    if (u->prompt)
        return;
    int id = layout_hit(&u->lay, ev.y, ev.x);
    if (id < 0)
        return;
    pane *p = ui_pane(u, id);
    if (wheel != REQ_NONE) {
        for (int i = 0; i < 3; i++)
            if (!(p->ops->request && p->ops->request(u, p, wheel)))
                move_cursor(u, p, wheel);
        return;
    }
    if (!(ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED)))
        return;
    u->focus = id;
    int row = ev.y - p->r.y - 1, col = ev.x - p->r.x;
    if (row < 0) {
        ui_set_focus(u, id);
        return;
    }
    if (p->ops->click) {
        p->ops->click(u, p, row, col);
    } else {
        uint32_t lines = p->ops->lines(u, p);
        if (p->top + (uint32_t)row < lines)
            pane_set_cursor(p, p->top + (uint32_t)row, lines);
        if (p->ops->select)
            p->ops->select(u, p);
    }
    if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
        request(u, REQ_ENTER);
}

static void key(ui *u, int code, wint_t wc)
{
    if (code && wc == KEY_RESIZE) {
        relayout(u);
        return;
    }
    if (code && wc == KEY_MOUSE) {
        mouse(u);
        return;
    }
    if (u->prompt) {
        prompt_key(u, code, wc);
        return;
    }
    /* Compare mode: ] and [ begin ]c and [c (vimdiff's keys); ] followed by
     * anything else, or alone for a second, is forward as always. */
    if (u->cmp && !u->help && !u->text.on && !u->menu.on) {
        compare *c = u->cmp;
        if (c->prefix) {
            int pre = c->prefix;
            c->prefix = 0;
            u->msg[0] = '\0';
            if (!code && wc == 'c') {
                request(u, pre == ']' ? REQ_DIFF_NEXT : REQ_DIFF_PREV);
                return;
            }
            if (pre == ']')
                request(u, REQ_FORWARD);
        } else if (!code && (wc == ']' || wc == '[')) {
            c->prefix = (int)wc;
            c->prefix_at = now_ms();
            snprintf(u->msg, sizeof u->msg, "%c  (c: %s difference)", (int)wc,
                     wc == ']' ? "next" : "previous");
            u->msg_role = 0;
            return;
        }
    }
    /* Wide characters never name a request: only ASCII and curses keys do. */
    enum request r = code || wc < 128 ? keys_lookup((int)wc) : REQ_NONE;
    u->msg[0] = '\0';
    if (u->help) {
        help_key(u, r, code, wc);
        return;
    }
    if (u->text.on) {
        text_key(u, r, code, wc);
        return;
    }
    if (u->menu.on) {
        menu_key(u, r, code, wc);
        return;
    }
    if (r == REQ_NONE) {
        if (!code && wc == 27 && u->graph_view)
            toggle_graph_view(u);
        return;
    }
    request(u, r);
}

/* ---- set-up and the loop ---- */

/* The panes with a room of their own come first in NNAV_PANES (panes.h). */
#define PANE_ORDER(id, prefix, title, place) \
    _Static_assert(PANE_##id != PANE_##place || (int)PANE_##id < (int)PANE_COUNT, \
                   "NNAV_PANES: a pane with its own room after one shown in another's");
NNAV_PANES(PANE_ORDER)
#undef PANE_ORDER

static const struct pane_info {
    const pane_ops *ops;
    const char *name;
    int place;
} pane_info[PANE_KINDS] = {
#define PANE_INFO(id, prefix, title, place) \
    [PANE_##id] = { &pane_##prefix##_ops, title, PANE_##place },
    NNAV_PANES(PANE_INFO)
#undef PANE_INFO
};

static int ui_start(ui *u)
{
    for (int i = 0; i < PANE_KINDS; i++) {
        pane *p = &u->pane[i];
        p->ops = pane_info[i].ops;
        p->name = pane_info[i].name;
        p->id = pane_info[i].place;
        p->priv = calloc(1, p->ops->size ? p->ops->size : 1);
        if (!p->priv || (p->ops->open && p->ops->open(u, p) != 0))
            return -1;
    }
    history_init(&u->hist);
    marks_init(&u->marks, nnav_node_count(u->m));
    typed_open(u);
    u->graph = NNAV_NONE;
    u->focus = PANE_NODES;
    return 0;
}

static void ui_stop(ui *u)
{
    for (int i = 0; i < PANE_KINDS; i++) {
        pane *p = &u->pane[i];
        if (p->priv && p->ops->close)
            p->ops->close(u, p);
        free(p->priv);
        p->priv = NULL;
    }
    ui_menu_close(u);
    text_view_close(&u->text);
    typed_close(u);
    decl_close(u);
    find_free(u);
    exporter_free(u);
    marks_free(&u->marks);
}

static int locale_is_utf8(void)
{
    const char *cs = nl_langinfo(CODESET);
    const char *force = getenv("NNAV_ASCII");
    if (force && *force && *force != '0')
        return 0;
    return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
}

/* try: what to suggest instead ("nnav info MODEL"). */
static int start_curses(const char *try)
{
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
        fprintf(stderr, "nnav: the explorer needs a terminal; try '%s'\n", try);
        return -1;
    }
    static int inited;
    if (inited) { /* after endwin (the folder's picker): a refresh resumes */
        curses_on = 1;
        refresh();
        return 0;
    }
    if (!initscr())
        return -1;
    inited = 1;
    /* A terminal that cannot address the cursor (TERM=dumb) would show a
     * blank screen: say so instead. */
    const char *cup = tigetstr("cup");
    if (!cup || cup == (const char *)-1) {
        endwin();
        const char *term = getenv("TERM");
        char t[64];
        nnav_text_escape_cstr(term ? term : "", t, sizeof t);
        fprintf(stderr,
                "nnav: the explorer needs a terminal that can move its cursor, and TERM=%s "
                "cannot; set TERM (e.g. xterm-256color) or try '%s'\n", t, try);
        return -1;
    }
    curses_on = 1;
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    mouseinterval(0);
    mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
                  | BUTTON5_PRESSED
#endif
              ,
              NULL);
    const char *nc = getenv("NO_COLOR");
    draw_setup(locale_is_utf8(), has_colors() && !(nc && *nc));
    return 0;
}

/* The loop: keys, slices of search work, redraws, until quit or a signal. */
static void explore(ui *u)
{
    nnav_model *m = u->m;
    while (!u->quit && !got_signal) {
        if (nnav_model_truncated(m) && !u->msg[0])
            ui_message(u, R_ERROR, "the file shrank while open: what is shown may be stale");
        else if (!u->msg[0] && !u->prompt)
            model_changed(u);
        if (u->cmp && u->cmp->prefix && now_ms() - u->cmp->prefix_at > 1000) {
            /* ] alone for a second: forward, as outside compare mode. */
            int pre = u->cmp->prefix;
            u->cmp->prefix = 0;
            u->msg[0] = '\0';
            if (pre == ']')
                request(u, REQ_FORWARD);
        }
        draw_screen(u);
        /* Busy with a search: poll for keys between slices; idle: wake for signals. */
        timeout(find_pending(u) ? 0 : 250);
        wint_t wc;
        int got = get_wch(&wc);
        if (got == ERR) {
            if (find_pending(u))
                find_work(u, 30);
            continue;
        }
        key(u, got == KEY_CODE_YES, wc);
        /* Type-ahead: handle every queued key before the next full redraw. */
        timeout(0);
        while (!u->quit && (got = get_wch(&wc)) != ERR)
            key(u, got == KEY_CODE_YES, wc);
        if (find_pending(u))
            find_work(u, 30);
    }
}

/* Opens one model with progress on stderr; prints the error and returns
 * NULL on failure (*rc the exit status). `label` names the side, or NULL. */
static nnav_model *open_model(const char *path, int follow_links, const char *label, int *rc)
{
    nnav_error err;
    memset(&err, 0, sizeof err);
    open_progress prog = { now_ms(), 0, 0 };
    nnav_open_opts opts = { .progress = on_progress, .ctx = &prog, .follow_links = follow_links };
    nnav_model *m = NULL;
    int orc = nnav_model_open(path, &opts, &m, &err);
    if (prog.shown)
        fprintf(stderr, "\r\033[K");
    if (orc != 0) {
        if (got_signal) {
            *rc = 128 + got_signal;
            return NULL;
        }
        char msg[2048];
        nnav_error_format(&err, path, msg, sizeof msg);
        fprintf(stderr, "nnav: %s%s\n", label ? label : "", msg);
        *rc = 2;
        return NULL;
    }
    (void)label;
    return m;
}

static void setup_process(void)
{
    static int registered;
    setlocale(LC_ALL, "");
    got_signal = 0;
    catch_signals();
    if (!registered) {
        atexit(restore_terminal);
        registered = 1;
    }
}

/* A folder that is no one model: its model files listed, one chosen with
 * the move keys and Enter (q or Esc quits). The chosen file's path
 * (malloc'd); NULL with *rc set when the user quit (0) or there is no
 * terminal (1). */
static char *pick_model(const char *dir, nnav_folder_entry *f, size_t n, int *rc)
{
    if (start_curses("nnav info FOLDER") != 0) {
        *rc = 1;
        return NULL;
    }
    size_t cur = 0, top = 0;
    char d[512];
    nnav_text_escape_cstr(dir, d, sizeof d);
    for (;;) {
        erase();
        int h = LINES, w = COLS;
        char line[1024];
        snprintf(line, sizeof line, " nnav  a folder of %zu model files, not one model: %s", n, d);
        draw_fill(0, 0, w, draw_attr(R_TITLE));
        draw_text(0, 0, w, line, draw_attr(R_TITLE));
        int rows = h - 2 > 1 ? h - 2 : 1;
        if (cur < top)
            top = cur;
        if (cur >= top + (size_t)rows)
            top = cur - (size_t)rows + 1;
        for (int r = 0; r < rows && top + (size_t)r < n; r++) {
            const nnav_folder_entry *e = &f[top + (size_t)r];
            char nm[600], sz[32];
            nnav_text_escape_cstr(e->name, nm, sizeof nm);
            nnav_size_text(e->size, sz, sizeof sz);
            snprintf(line, sizeof line, " %-12s %10s  %s", e->kind, sz, nm);
            attr_t a = top + (size_t)r == cur ? A_REVERSE : A_NORMAL;
            if (a != A_NORMAL)
                draw_fill(1 + r, 0, w, a);
            draw_text(1 + r, 0, w, line, a);
        }
        draw_fill(h - 1, 0, w, draw_attr(R_TITLE));
        draw_text(h - 1, 0, w, " choose the model to open: Up/Down, Enter opens, q quits",
                  draw_attr(R_TITLE));
        refresh();
        int k = getch();
        if (got_signal || k == 'q' || k == 27) {
            restore_terminal();
            *rc = got_signal ? 128 + got_signal : 0;
            return NULL;
        }
        if ((k == KEY_DOWN || k == 'j') && cur + 1 < n)
            cur++;
        else if ((k == KEY_UP || k == 'k') && cur > 0)
            cur--;
        else if (k == KEY_HOME || k == 'g')
            cur = 0;
        else if (k == KEY_END || k == 'G')
            cur = n - 1;
        else if (k == '\n' || k == '\r' || k == KEY_ENTER) {
            restore_terminal();
            size_t dn = strlen(dir);
            char *p = malloc(dn + strlen(f[cur].name) + 2);
            if (p)
                sprintf(p, "%s%s%s", dir, dn && dir[dn - 1] == '/' ? "" : "/", f[cur].name);
            *rc = p ? 0 : 1;
            return p;
        }
    }
}

int nnav_tui_run(const char *path, const nnav_tui_opts *o)
{
    setup_process();
    int rc = 0;
    char *chosen = NULL;
    if (!nnav_folder_is_one(path)) {
        nnav_folder_entry *f;
        size_t n = nnav_folder_models(path, &f);
        if (n) {
            chosen = pick_model(path, f, n, &rc);
            free(f);
            if (!chosen)
                return rc;
            path = chosen;
        }
    }
    nnav_model *m = open_model(path, o && o->follow_links, NULL, &rc);
    if (!m) {
        free(chosen);
        return rc;
    }

    ui *u = calloc(1, sizeof *u);
    if (u && o)
        typed_bind(u, o->bind, o->n_bind);
    if (!u || (u->m = m, u->path = path, ui_start(u) != 0) || start_curses("nnav info MODEL") != 0) {
        if (u)
            ui_stop(u);
        free(u);
        nnav_model_close(m);
        free(chosen);
        return 1;
    }
    relayout(u);
    if (nnav_graph_count(m) > 0) {
        ui_go(u, ui_place_graph(u, 0));
        if (nnav_graph_get(m, 0)->node_count)
            ui_go(u, ui_place_node(u, nnav_graph_get(m, 0)->node_first));
    }
    u->focus = PANE_NODES;
    /* Decluttered from the start (--no-declutter, or D, shows the file as
     * written), but for a graph so big that the pass would hold up the
     * first screen: D builds it when asked. */
    if (!(o && o->no_declutter) && u->graph != NNAV_NONE &&
        nnav_graph_get(m, u->graph)->node_count &&
        nnav_graph_get(m, u->graph)->node_count <= NNAV_SHAPES_EAGER_MAX)
        decl_start(u);
    char warn[600];
    if (nnav_model_truncated(m))
        ui_message(u, R_ERROR, "the file shrank while open: what is shown may be stale");
    else if (load_banner(m, warn, sizeof warn))
        ui_message(u, R_ERROR, "%s", warn);
    explore(u);
    int sig = got_signal;
    restore_terminal();
    ui_stop(u);
    free(u);
    nnav_model_close(m);
    free(chosen);
    return sig ? 128 + sig : 0;
}

/* Compare mode: both models open, their diff, then the explorer on side B
 * (the new); X ends one explorer and opens the other side's, the terminal
 * staying in curses between them. */
int nnav_tui_compare(const char *a, const char *b, const nnav_diff_opts *o, int follow_links)
{
    setup_process();
    int rc = 0;
    compare c;
    memset(&c, 0, sizeof c);
    c.path[0] = a;
    c.path[1] = b;
    nnav_diff_opts dflt;
    memset(&dflt, 0, sizeof dflt);
    c.m[0] = open_model(a, follow_links, NULL, &rc);
    if (!c.m[0])
        return rc;
    c.m[1] = open_model(b, follow_links, NULL, &rc);
    if (!c.m[1]) {
        nnav_model_close(c.m[0]);
        return rc;
    }
    if (isatty(2))
        fprintf(stderr, "nnav: comparing...");
    nnav_error err;
    memset(&err, 0, sizeof err);
    int drc = nnav_diff_run(c.m[0], c.m[1], o ? o : &dflt, &c.d, &err);
    if (isatty(2))
        fprintf(stderr, "\r\033[K");
    if (drc != 0) {
        char msg[2048];
        /* A usage error (two formats) is about the pair, not one file. */
        if (err.kind == NNAV_ERR_USAGE && !err.has_offset && !err.path[0])
            nnav_text_escape_cstr(err.msg, msg, sizeof msg);
        else
            nnav_error_format(&err, b, msg, sizeof msg);
        fprintf(stderr, "nnav: %s\n", msg);
        nnav_model_close(c.m[0]);
        nnav_model_close(c.m[1]);
        return got_signal ? 128 + got_signal : 2;
    }
    int any = nnav_diff_any(c.d);
    c.side = 1;
    c.declutter = o && o->declutter; /* the diff hid what D hides: show it so */
    int curses = 0, fail = 0;
    c.keep_kind = PLACE_NONE;
    for (;;) {
        c.swap = 0;
        ui *u = calloc(1, sizeof *u);
        if (!u || cmp_prepare(&c) != 0) {
            free(u);
            fail = 1;
            break;
        }
        u->m = c.m[c.side];
        u->path = c.path[c.side];
        u->cmp = &c;
        if (ui_start(u) != 0) {
            ui_stop(u);
            free(u);
            fail = 1;
            break;
        }
        if (!curses && start_curses("nnav diff A B") != 0) { /* it said why */
            ui_stop(u);
            free(u);
            fail = 2;
            break;
        }
        curses = 1;
        relayout(u);
        nnav_model *m = u->m;
        if (nnav_graph_count(m) > 0) {
            ui_go(u, ui_place_graph(u, 0));
            if (nnav_graph_get(m, 0)->node_count)
                ui_go(u, ui_place_node(u, nnav_graph_get(m, 0)->node_first));
        }
        u->focus = PANE_NODES;
        if (c.keep_kind == PLACE_NODE && c.keep_id < nnav_node_count(m))
            ui_go(u, ui_place_node(u, c.keep_id));
        else if (c.keep_kind == PLACE_TENSOR && c.keep_id < nnav_tensor_count(m))
            ui_go(u, ui_place_tensor(u, c.keep_id));
        else if (c.keep_kind == PLACE_GRAPH && c.keep_id < nnav_graph_count(m))
            ui_go(u, ui_place_graph(u, c.keep_id));
        if (c.declutter)
            decl_toggle(u);
        if (c.keep_kind != PLACE_NONE) {
            if (c.keep_focus >= 0 && c.keep_focus < PANE_COUNT)
                ui_set_focus(u, c.keep_focus);
            ui_message(u, 0, "showing side %s (%s)%s", c.side ? "B" : "A",
                       c.side ? "new" : "old",
                       c.side ? ": + marks what A lacks" : ": - marks what B lacks");
        } else {
            ui_message(u, 0, "%s: ]c next difference, [c previous, X the other side",
                       any ? "compare" : "no differences");
        }
        if (nnav_model_truncated(m))
            ui_message(u, R_ERROR, "the file shrank while open: what is shown may be stale");
        explore(u);
        c.declutter = u->decl.on;
        int swap = c.swap && !got_signal;
        ui_stop(u);
        free(u);
        if (!swap)
            break;
        c.side = !c.side;
    }
    int sig = got_signal;
    restore_terminal();
    cmp_release(&c);
    nnav_diff_free(c.d);
    nnav_model_close(c.m[0]);
    nnav_model_close(c.m[1]);
    if (fail) {
        if (fail == 1)
            fprintf(stderr, "nnav: compare: out of memory\n");
        return 2;
    }
    return sig ? 128 + sig : any ? 1 : 0;
}
