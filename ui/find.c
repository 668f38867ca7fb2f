/* find.c - the search line over nnav_search_*. */
#include "find.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

struct find {
    nnav_search *s;
    int done;
    size_t cur;        /* current hit */
    place base;        /* where the search began: Esc comes back here */
    int previewing;    /* the prompt is open and shows hits as they come */
    int previewed;     /* the first hit of this pattern has been shown */
    int jump_pending;  /* Enter came before any hit: jump when one arrives */
};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static struct find *F(ui *u)
{
    if (!u->find)
        u->find = calloc(1, sizeof(struct find));
    return u->find;
}

void find_free(ui *u)
{
    if (!u->find)
        return;
    nnav_search_free(u->find->s);
    free(u->find);
    u->find = NULL;
}

static place hit_place(ui *u, const nnav_hit *h)
{
    switch (h->kind) {
    case NNAV_HIT_VALUE: return ui_place_value(u, h->id);
    case NNAV_HIT_INITIALIZER: return ui_place_tensor(u, h->id);
    default: return ui_place_node(u, h->id);
    }
}

static const nnav_hit *hit(ui *u, size_t i)
{
    size_t n = 0;
    const nnav_hit *hs = u->find && u->find->s ? nnav_search_hits(u->find->s, &n) : NULL;
    return i < n ? &hs[i] : NULL;
}

void find_begin(ui *u)
{
    struct find *f = F(u);
    if (!f)
        return;
    f->base = ui_here(u);
    f->previewing = 1;
    f->previewed = 0;
    f->jump_pending = 0;
}

void find_update(ui *u)
{
    struct find *f = F(u);
    if (!f)
        return;
    nnav_search_free(f->s);
    f->s = NULL;
    f->done = 1;
    f->cur = 0;
    f->previewed = 0;
    if (u->plen == 0) {
        ui_go(u, f->base);
        return;
    }
    f->s = nnav_search_new(u->m, u->pbuf);
    f->done = f->s == NULL;
    if (!f->s)
        ui_message(u, R_ERROR, "search: out of memory");
    find_work(u, 15); /* small models answer before the next keystroke */
}

int find_pending(ui *u)
{
    return u->find && u->find->s && !u->find->done;
}

static void show_first(ui *u)
{
    struct find *f = u->find;
    const nnav_hit *h = hit(u, f->cur);
    if (!h)
        return;
    if (f->jump_pending) {
        f->jump_pending = 0;
        ui_go(u, f->base);
        ui_jump(u, hit_place(u, h));
    } else if (f->previewing && !f->previewed) {
        ui_go(u, hit_place(u, h));
    }
    f->previewed = 1;
}

void find_work(ui *u, unsigned ms)
{
    struct find *f = u->find;
    if (!f || !f->s || f->done)
        return;
    double end = now_ms() + ms;
    do {
        f->done = nnav_search_step(f->s, 20000);
    } while (!f->done && now_ms() < end);
    if (!f->previewed || f->jump_pending)
        show_first(u);
    if (f->done && !hit(u, 0) && f->jump_pending) {
        f->jump_pending = 0;
        ui_message(u, R_ERROR, "no hits");
    }
}

void find_commit(ui *u)
{
    struct find *f = F(u);
    if (!f)
        return;
    f->previewing = 0;
    const nnav_hit *h = hit(u, f->cur);
    if (h) {
        /* The preview moved us already: record the jump from the start. */
        ui_go(u, f->base);
        ui_jump(u, hit_place(u, h));
    } else if (find_pending(u)) {
        f->jump_pending = 1;
    } else if (u->plen) {
        ui_go(u, f->base);
        ui_message(u, R_ERROR, "no hits");
    }
}

void find_cancel(ui *u)
{
    struct find *f = F(u);
    if (!f)
        return;
    f->previewing = 0;
    ui_go(u, f->base);
    nnav_search_free(f->s);
    f->s = NULL;
}

void find_next(ui *u, int dir)
{
    struct find *f = u->find;
    size_t n = 0;
    if (!f || !f->s) {
        ui_message(u, 0, "no search yet: press / first");
        return;
    }
    nnav_search_hits(f->s, &n);
    if (n == 0) {
        ui_message(u, 0, find_pending(u) ? "still searching" : "no hits");
        return;
    }
    if (dir > 0)
        f->cur = f->cur + 1 < n ? f->cur + 1 : 0;
    else
        f->cur = f->cur > 0 ? f->cur - 1 : n - 1;
    ui_jump(u, hit_place(u, hit(u, f->cur)));
}

const char *find_status(ui *u, char *buf, size_t n)
{
    struct find *f = u->find;
    buf[0] = '\0';
    if (!f || !f->s)
        return buf;
    size_t hits = 0;
    nnav_search_hits(f->s, &hits);
    if (!f->done) {
        uint64_t total = 0, done = nnav_search_progress(f->s, &total);
        snprintf(buf, n, "searching %u%%, %zu hit%s",
                 total ? (unsigned)(done * 100 / total) : 0, hits, hits == 1 ? "" : "s");
    } else if (hits == 0) {
        snprintf(buf, n, "no hits");
    } else {
        snprintf(buf, n, "hit %zu/%zu", f->cur + 1, hits);
    }
    return buf;
}
