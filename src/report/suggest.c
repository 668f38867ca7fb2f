/* suggest.c - the names closest to one mistyped: what "did you mean" says
 * wherever a name is looked up (commands, options, tensor names, dims). */
#include "report.h"

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
