/* suggest.c - the names closest to one mistyped: what "did you mean" says
 * wherever a name is looked up (commands, options, tensor names, dims). */
#include "report.h"

#include <stdio.h>
#include <string.h>

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

/* The optimal string alignment distance of a and b, case folded (an
 * adjacent swap is one edit), or cap + 1 once it passes cap. Names longer
 * than 64 bytes are not compared (too long to be a typo of). */
static size_t distance(const char *a, size_t an, const char *b, size_t bn, size_t cap)
{
    enum { MAXN = 64 };
    if (an > MAXN || bn > MAXN)
        return cap + 1;
    if ((an > bn ? an - bn : bn - an) > cap)
        return cap + 1;
    size_t d[MAXN + 1][MAXN + 1];
    for (size_t i = 0; i <= an; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= bn; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= an; i++) {
        size_t best = (size_t)-1;
        for (size_t j = 1; j <= bn; j++) {
            size_t cost = lower(a[i - 1]) != lower(b[j - 1]);
            size_t v = d[i - 1][j - 1] + cost;
            if (d[i - 1][j] + 1 < v)
                v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
                lower(a[i - 2]) == lower(b[j - 1]) && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
            if (v < best)
                best = v;
        }
        if (best > cap)
            return cap + 1;
    }
    return d[an][bn];
}

/* Letters folded into 64 bins: two names whose bins differ by more than
 * 2 x cap letters are more than cap edits apart (each edit changes at most
 * two bins by one). */
static unsigned bin(int c) { return (unsigned)lower(c) & 63; }

void nnav_near_init(nnav_near *s, const char *word)
{
    memset(s, 0, sizeof *s);
    s->word = word;
    s->wn = strlen(word);
    s->cap = s->wn <= 4 ? 1 : s->wn <= 8 ? 2 : 3;
    for (size_t i = 0; i < s->wn && i < 64; i++)
        s->hist[bin((unsigned char)word[i])]++;
}

void nnav_near_offer(nnav_near *s, nnav_span name)
{
    if (s->seen >= NNAV_NEAR_LIMIT || s->wn > 64 || !name.n)
        return;
    s->seen++;
    size_t cn = (size_t)name.n, cap = s->cap, d;
    const char *c = (const char *)name.p;
    int prefix = s->wn >= 3 && s->wn < cn && !strncmp(c, s->word, s->wn);
    if (prefix) {
        d = cap + 1;
    } else {
        if (cn > 64 || (cn > s->wn ? cn - s->wn : s->wn - cn) > cap)
            return;
        uint16_t h[64];
        memcpy(h, s->hist, sizeof h);
        size_t diff = 0;
        for (size_t i = 0; i < cn; i++) {
            unsigned b = bin((unsigned char)c[i]);
            if (h[b])
                h[b]--;
            else
                diff++;
        }
        for (size_t b = 0; b < 64; b++)
            diff += h[b];
        if (diff > 2 * cap)
            return;
        d = distance(s->word, s->wn, c, cn, cap);
        if (d > cap)
            return;
    }
    for (size_t k = 0; k < s->got; k++)
        if (nnav_span_same(s->best[k], name))
            return;
    size_t at = s->got;
    while (at > 0 && s->dist[at - 1] > d)
        at--;
    if (at >= NNAV_NEAR_MAX)
        return;
    size_t last = s->got < NNAV_NEAR_MAX ? s->got : NNAV_NEAR_MAX - 1;
    for (size_t k = last; k > at; k--)
        s->best[k] = s->best[k - 1], s->dist[k] = s->dist[k - 1];
    s->best[at] = name;
    s->dist[at] = d;
    if (s->got < NNAV_NEAR_MAX)
        s->got++;
}

void nnav_near_text(const nnav_near *s, char *buf, size_t n)
{
    size_t k = 0;
    if (n)
        buf[0] = 0;
    for (size_t i = 0; i < s->got && k < n; i++) {
        char e[300];
        nnav_text_escape(s->best[i].p, s->best[i].n > 200 ? 200 : (size_t)s->best[i].n, e, sizeof e);
        k += (size_t)snprintf(buf + k, n - k, "%s'%s'", i == 0 ? " (did you mean " :
                              i + 1 == s->got ? " or " : ", ", e);
    }
    if (s->got && k < n)
        snprintf(buf + k, n - k, "?)");
}

size_t nnav_suggest(const char *word, const char *const *cand, size_t n, const char **out,
                    size_t max)
{
    size_t wn = strlen(word), got = 0;
    /* A typo's edits: 1 in a short name, 2 up to 8 bytes, 3 past. */
    size_t cap = wn <= 4 ? 1 : wn <= 8 ? 2 : 3;
    for (size_t want = 0; want <= cap + 1 && got < max; want++) {
        for (size_t i = 0; i < n && got < max; i++) {
            size_t cn = strlen(cand[i]);
            size_t d = distance(word, wn, cand[i], cn, cap);
            /* A prefix of 3 bytes or more ("summ" for summary) is as close
             * as the farthest typo. */
            if (d > cap && wn >= 3 && wn < cn && !strncmp(cand[i], word, wn))
                d = cap + 1;
            else if (d > cap)
                continue;
            if (d != want)
                continue;
            size_t k = 0;
            while (k < got && strcmp(out[k], cand[i]))
                k++;
            if (k == got)
                out[got++] = cand[i];
        }
    }
    return got;
}
