/* history.c - the back/forward stack. */
#include "history.h"

#include <string.h>

void history_init(history *h)
{
    memset(h, 0, sizeof *h);
}

int place_eq(place a, place b)
{
    return a.kind == b.kind && a.graph == b.graph && a.id == b.id;
}

static void push(history *h, place p)
{
    if (h->len == HISTORY_MAX) {
        memmove(h->at, h->at + 1, (HISTORY_MAX - 1) * sizeof h->at[0]);
        h->len--;
    }
    h->at[h->len++] = p;
    h->cur = h->len - 1;
}

void history_jump(history *h, place from, place to)
{
    if (h->len == 0) {
        push(h, from);
    } else {
        h->len = h->cur + 1; /* forward entries die with a new jump */
        h->at[h->cur] = from;
    }
    if (place_eq(from, to)) {
        h->at[h->cur] = to;
        return;
    }
    push(h, to);
}

int history_back(history *h, place here, place *out)
{
    if (h->len == 0 || h->cur == 0)
        return 0;
    h->at[h->cur] = here;
    h->cur--;
    *out = h->at[h->cur];
    return 1;
}

int history_forward(history *h, place here, place *out)
{
    if (h->len == 0 || h->cur + 1 >= h->len)
        return 0;
    h->at[h->cur] = here;
    h->cur++;
    *out = h->at[h->cur];
    return 1;
}
