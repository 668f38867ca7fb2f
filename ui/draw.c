/* draw.c - sanitised, clipped text output; glyphs and colours. */
#define _XOPEN_SOURCE 700 /* wcwidth */
#include "draw.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

static int utf8_mode, colour_mode;
static attr_t role_attr[R_COUNT];
static struct { int y, x, h, w; } clip = { 0, 0, 1 << 15, 1 << 15 };

static const char *const glyph_utf8[G_COUNT] = {
    [G_H] = "\u2500", [G_V] = "\u2502", [G_TL] = "\u250c", [G_TR] = "\u2510",
    [G_BL] = "\u2514", [G_BR] = "\u2518", [G_TEE_DOWN] = "\u252c", [G_TEE_UP] = "\u2534",
    [G_TEE_RIGHT] = "\u251c", [G_TEE_LEFT] = "\u2524", [G_CROSS] = "\u253c",
    [G_ARROW_DOWN] = "\u25bc", [G_OPEN] = "\u25be", [G_CLOSED] = "\u25b8", [G_LEAF] = "\u00b7",
    [G_CRUMB] = " \u203a ", [G_ELLIPSIS] = "\u2026", [G_FROM] = "\u2190", [G_TO] = "\u2192",
    [G_MARK] = "\u2713", /* neutral width: one column in every locale */
};
static const char *const glyph_ascii[G_COUNT] = {
    [G_H] = "-", [G_V] = "|", [G_TL] = "+", [G_TR] = "+", [G_BL] = "+", [G_BR] = "+",
    [G_TEE_DOWN] = "+", [G_TEE_UP] = "+", [G_TEE_RIGHT] = "+", [G_TEE_LEFT] = "+",
    [G_CROSS] = "+", [G_ARROW_DOWN] = "v", [G_OPEN] = "-", [G_CLOSED] = "+", [G_LEAF] = " ",
    [G_CRUMB] = " > ", [G_ELLIPSIS] = "~", [G_FROM] = "<-", [G_TO] = "->",
    [G_MARK] = "*",
};

void draw_setup(int utf8, int colour)
{
    utf8_mode = utf8;
    colour_mode = colour;
    /* Monochrome: attributes alone must tell the roles apart. */
    attr_t mono[R_COUNT] = {
        [R_NORMAL] = A_NORMAL, [R_HEADER] = A_REVERSE, [R_STATUS] = A_REVERSE,
        [R_TITLE] = A_UNDERLINE, [R_TITLE_FOCUS] = A_REVERSE | A_BOLD,
        [R_CURSOR] = A_REVERSE, [R_CURSOR_BLUR] = A_BOLD | A_UNDERLINE, [R_OP] = A_BOLD,
        [R_DIM] = A_DIM, [R_LINK] = A_UNDERLINE, [R_ERROR] = A_BOLD, [R_BAR] = A_NORMAL,
        [R_SECTION] = A_BOLD, [R_BOX] = A_NORMAL, [R_BOX_CENTRE] = A_BOLD,
        [R_PROMPT] = A_BOLD, [R_ADDED] = A_BOLD, [R_REMOVED] = A_BOLD,
        [R_CHANGED] = A_BOLD | A_UNDERLINE,
    };
    memcpy(role_attr, mono, sizeof mono);
    if (!colour)
        return;
    start_color();
    use_default_colors();
    enum { P_HEADER = 1, P_TITLE, P_TITLE_FOCUS, P_OP, P_LINK, P_ERROR, P_BAR, P_SECTION,
           P_BOX, P_CURSOR_BLUR, P_ADDED, P_REMOVED };
    init_pair(P_HEADER, COLOR_WHITE, COLOR_BLUE);
    init_pair(P_TITLE, COLOR_BLACK, COLOR_WHITE);
    init_pair(P_TITLE_FOCUS, COLOR_BLACK, COLOR_CYAN);
    init_pair(P_OP, COLOR_YELLOW, -1);
    init_pair(P_LINK, COLOR_CYAN, -1);
    init_pair(P_ERROR, COLOR_RED, -1);
    init_pair(P_BAR, COLOR_GREEN, -1);
    init_pair(P_SECTION, COLOR_MAGENTA, -1);
    init_pair(P_BOX, COLOR_BLUE, -1);
    init_pair(P_CURSOR_BLUR, COLOR_CYAN, -1);
    init_pair(P_ADDED, COLOR_GREEN, -1);
    init_pair(P_REMOVED, COLOR_RED, -1);
    role_attr[R_HEADER] = COLOR_PAIR(P_HEADER) | A_BOLD;
    role_attr[R_STATUS] = COLOR_PAIR(P_HEADER);
    role_attr[R_TITLE] = COLOR_PAIR(P_TITLE);
    role_attr[R_TITLE_FOCUS] = COLOR_PAIR(P_TITLE_FOCUS) | A_BOLD;
    role_attr[R_CURSOR_BLUR] = COLOR_PAIR(P_CURSOR_BLUR) | A_BOLD | A_UNDERLINE;
    role_attr[R_OP] = COLOR_PAIR(P_OP);
    role_attr[R_LINK] = COLOR_PAIR(P_LINK);
    role_attr[R_ERROR] = COLOR_PAIR(P_ERROR) | A_BOLD;
    role_attr[R_BAR] = COLOR_PAIR(P_BAR);
    role_attr[R_SECTION] = COLOR_PAIR(P_SECTION) | A_BOLD;
    role_attr[R_BOX] = COLOR_PAIR(P_BOX);
    role_attr[R_BOX_CENTRE] = COLOR_PAIR(P_OP) | A_BOLD;
    role_attr[R_ADDED] = COLOR_PAIR(P_ADDED) | A_BOLD;
    role_attr[R_REMOVED] = COLOR_PAIR(P_REMOVED) | A_BOLD;
    role_attr[R_CHANGED] = COLOR_PAIR(P_OP) | A_BOLD;
}

int draw_is_utf8(void) { return utf8_mode; }
int draw_has_colour(void) { return colour_mode; }

attr_t draw_attr(enum draw_role r)
{
    return r < R_COUNT ? role_attr[r] : A_NORMAL;
}

const char *draw_glyph(enum glyph g)
{
    return (utf8_mode ? glyph_utf8 : glyph_ascii)[g];
}

const char *draw_junction(unsigned bits)
{
    int v = bits & (J_UP | J_DOWN), h = bits & (J_LEFT | J_RIGHT);
    if (!h)
        return draw_glyph(G_V);
    if (!v)
        return draw_glyph(G_H);
    switch (bits & 15) {
    case J_DOWN | J_RIGHT: return draw_glyph(G_TL);
    case J_DOWN | J_LEFT: return draw_glyph(G_TR);
    case J_UP | J_RIGHT: return draw_glyph(G_BL);
    case J_UP | J_LEFT: return draw_glyph(G_BR);
    case J_UP | J_DOWN | J_RIGHT: return draw_glyph(G_TEE_RIGHT);
    case J_UP | J_DOWN | J_LEFT: return draw_glyph(G_TEE_LEFT);
    case J_LEFT | J_RIGHT | J_DOWN: return draw_glyph(G_TEE_DOWN);
    case J_LEFT | J_RIGHT | J_UP: return draw_glyph(G_TEE_UP);
    default: return draw_glyph(G_CROSS);
    }
}

void draw_clip(int y, int x, int h, int w)
{
    clip.y = y;
    clip.x = x;
    clip.h = h;
    clip.w = w;
}

void draw_clip_screen(void)
{
    draw_clip(0, 0, LINES, COLS);
}

static int char_width(wchar_t wc, int utf8)
{
    if (wc < 0x20 || wc == 0x7f || (wc >= 0x80 && wc < 0xa0))
        return -1;
    if (!utf8)
        return wc < 0x80 ? 1 : -1;
    return wcwidth(wc);
}

/* The character at s[i] (i < len): its wide character in *wc and display
 * width in *cw, what cannot be shown (an invalid sequence, a control, a
 * character of no width outside UTF-8) read as '?' of width 1; returns the
 * bytes it takes, 0 at an embedded NUL (the end of the text). */
static size_t next_char(const char *s, size_t len, size_t i, mbstate_t *st, int utf8,
                        wchar_t *wc, int *cw)
{
    size_t k = 1;
    if (utf8) {
        k = mbrtowc(wc, s + i, len - i, st);
        if (k == (size_t)-1 || k == (size_t)-2) {
            memset(st, 0, sizeof *st);
            *wc = '?';
            k = 1;
        } else if (k == 0) {
            return 0;
        }
    } else {
        *wc = (unsigned char)s[i];
    }
    *cw = char_width(*wc, utf8);
    if (*cw < 0) {
        *wc = '?';
        *cw = 1;
    }
    return k;
}

size_t draw_prepare(const char *s, size_t len, int maxw, int utf8, wchar_t *out, size_t outn,
                    int *cols)
{
    size_t o = 0, i = 0;
    int col = 0, cut = 0;
    int ell_w = 1;
    wchar_t ell = utf8 ? 0x2026 : '~';
    mbstate_t st;
    memset(&st, 0, sizeof st);
    while (i < len && o + 1 < outn) {
        wchar_t wc;
        int w;
        size_t k = next_char(s, len, i, &st, utf8, &wc, &w);
        if (k == 0)
            break;
        if (col + w > maxw) {
            cut = 1;
            break;
        }
        out[o++] = wc;
        col += w;
        i += k;
    }
    if (i < len && !cut && o + 1 >= outn)
        cut = 1;
    if (cut && maxw > 0) {
        /* Make room for the ellipsis in the last column. */
        while (o > 0 && col + ell_w > maxw) {
            int w = char_width(out[o - 1], utf8);
            col -= w < 0 ? 1 : w;
            o--;
        }
        if (col + ell_w <= maxw && o + 1 < outn) {
            out[o++] = ell;
            col += ell_w;
        }
    }
    out[o] = 0;
    *cols = col;
    return o;
}

static void put_wide(int y, int x, const wchar_t *w, size_t n, attr_t a);

size_t draw_prepare_tail(const char *s, size_t len, int maxw, int utf8, wchar_t *out,
                         size_t outn, int *cols)
{
    *cols = 0;
    if (outn == 0)
        return 0;
    out[0] = 0;
    if (maxw <= 0 || outn < 2)
        return 0;
    /* Every character first (at most one per byte), then keep the end. */
    enum { STACK = 512 };
    wchar_t wst[STACK];
    signed char cst[STACK];
    wchar_t *w = len <= STACK ? wst : malloc(len * sizeof *w);
    signed char *cw = len <= STACK ? cst : malloc(len);
    size_t n = 0, i = 0;
    if (!w || !cw)
        goto done;
    mbstate_t st;
    memset(&st, 0, sizeof st);
    int64_t total = 0;
    while (i < len) {
        wchar_t wc;
        int cwid;
        size_t k = next_char(s, len, i, &st, utf8, &wc, &cwid);
        if (k == 0)
            break;
        w[n] = wc;
        cw[n++] = (signed char)cwid;
        total += cwid;
        i += k;
    }
    size_t from = 0;
    int col = 0, cut = total > maxw || n + 1 > outn;
    if (!cut) {
        col = (int)total;
    } else {
        /* The ellipsis, then as many characters from the end as fit. */
        from = n;
        while (from > 0 && col + cw[from - 1] <= maxw - 1 && n - from + 2 < outn) {
            col += cw[from - 1];
            from--;
        }
        while (from < n && cw[from] == 0) /* a mark never sits on the ellipsis */
            from++;
    }
    size_t o = 0;
    if (cut) {
        out[o++] = utf8 ? 0x2026 : '~';
        col += 1;
    }
    for (size_t j = from; j < n && o + 1 < outn; j++)
        out[o++] = w[j];
    out[o] = 0;
    *cols = col;
    n = o;
done:
    if (w != wst)
        free(w);
    if (cw != cst)
        free(cw);
    return w && cw ? n : 0;
}

size_t draw_wrap_piece(const char *s, size_t len, int w, int k, int utf8, wchar_t *out,
                       size_t outn, int *pieces)
{
    size_t o = 0, i = 0;
    int piece = 0, col = 0, any = 0;
    mbstate_t st;
    memset(&st, 0, sizeof st);
    if (w < 2)
        w = 2; /* a wide character must fit a piece */
    while (i < len) {
        wchar_t wc;
        int cw;
        size_t n = next_char(s, len, i, &st, utf8, &wc, &cw);
        if (n == 0)
            break;
        if (col + cw > w) {
            piece++;
            col = 0;
        }
        if (piece == k && o + 1 < outn)
            out[o++] = wc;
        col += cw;
        any = 1;
        i += n;
    }
    if (outn)
        out[o < outn ? o : outn - 1] = 0;
    *pieces = any ? piece + 1 : 0;
    return o;
}

int draw_text_piece(int y, int x, int w, int k, const char *s, attr_t a)
{
    enum { N = 1024 };
    wchar_t wb[N];
    int pieces;
    if (w <= 0 || !s)
        return 0;
    size_t n = draw_wrap_piece(s, strlen(s), w, k, utf8_mode, wb, N, &pieces);
    put_wide(y, x, wb, n, a);
    return pieces;
}

int draw_width(const char *s)
{
    wchar_t w[512];
    int cols;
    draw_prepare(s, strlen(s), 1 << 14, utf8_mode, w, 512, &cols);
    return cols;
}

/* Puts prepared characters on screen, dropping what falls outside the clip. */
static void put_wide(int y, int x, const wchar_t *w, size_t n, attr_t a)
{
    if (y < clip.y || y >= clip.y + clip.h || y < 0 || y >= LINES)
        return;
    int lo = clip.x > 0 ? clip.x : 0;
    int hi = clip.x + clip.w < COLS ? clip.x + clip.w : COLS;
    size_t first = 0, last = 0;
    int col = x, start = -1;
    for (size_t i = 0; i < n; i++) {
        int cw = char_width(w[i], utf8_mode);
        if (cw < 0)
            cw = 1;
        if (col >= lo && col + cw <= hi) {
            if (start < 0) {
                start = col;
                first = i;
            }
            last = i + 1;
        } else if (start >= 0) {
            break;
        }
        col += cw;
    }
    if (start < 0)
        return;
    attrset(a);
    mvaddnwstr(y, start, w + first, (int)(last - first));
    attrset(A_NORMAL);
}

int draw_text(int y, int x, int maxw, const char *s, attr_t a)
{
    if (maxw <= 0 || !s)
        return 0;
    enum { N = 1024 };
    wchar_t w[N];
    int cols;
    size_t n = draw_prepare(s, strlen(s), maxw, utf8_mode, w, N, &cols);
    put_wide(y, x, w, n, a);
    return cols;
}

size_t draw_escape(nnav_span s, size_t maxw, char *buf, size_t n)
{
    /* Only as much input as maxw columns and one more need (the one more
     * shows the cut). A column is most often one character of at most 4
     * bytes, but a character with the two combining marks the sanitiser
     * keeps on it takes up to 12 bytes, and a wide one two columns: when
     * the first try may hold too few columns (under three characters a
     * column), take more. */
    size_t take = maxw * 4 + 8, k;
    if (!s.p)
        return nnav_text_escape(s.p, 0, buf, n);
    for (;;) {
        if (take >= s.n)
            return nnav_text_escape(s.p, (size_t)s.n, buf, n);
        k = nnav_text_escape(s.p, take, buf, n);
        if (k + 16 >= n || nnav_utf8_chars(buf, k) >= 3 * (maxw + 1) || take > SIZE_MAX / 2)
            return k;
        take *= 2;
    }
}

int draw_span(int y, int x, int maxw, nnav_span s, attr_t a)
{
    if (maxw <= 0)
        return 0;
    size_t cap = (size_t)maxw * 16 + 64;
    char stackbuf[4096];
    char *buf = cap <= sizeof stackbuf ? stackbuf : malloc(cap);
    if (!buf)
        return 0;
    draw_escape(s, (size_t)maxw, buf, cap);
    int w = draw_text(y, x, maxw, buf, a);
    if (buf != stackbuf)
        free(buf);
    return w;
}

char *draw_escape_tail(nnav_span s, int maxw)
{
    /* As draw_escape, from the other end: a short piece of the end first
     * (most names are short; a hostile one of megabytes costs only the
     * piece), longer while it may hold too few columns. */
    size_t want = (size_t)(maxw > 0 ? maxw : 0) + 8;
    size_t take = want * 4 + 8;
    for (;;) {
        size_t start = 0, len = s.p ? (size_t)s.n : 0;
        if (take < len) {
            start = len - take;
            for (int k = 0; k < 3 && nnav_utf8_cont(s.p[start]); k++)
                start++; /* a character's first byte */
        }
        size_t cap = (len - start) * 5 + 64; /* \xNN for a byte, \u{..} for 2-4 */
        char *buf = malloc(cap);
        if (!buf)
            return NULL;
        size_t k = nnav_text_escape(len ? s.p + start : NULL, len - start, buf, cap);
        if (start == 0 || nnav_utf8_chars(buf, k) >= 3 * want || take > SIZE_MAX / 4)
            return buf;
        free(buf);
        take *= 2;
    }
}

int draw_text_tail(int y, int x, int maxw, const char *s, attr_t a)
{
    if (maxw <= 0 || !s)
        return 0;
    enum { N = 1024 };
    wchar_t w[N];
    int cols;
    size_t n = draw_prepare_tail(s, strlen(s), maxw, utf8_mode, w, N, &cols);
    put_wide(y, x, w, n, a);
    return cols;
}

int draw_span_tail(int y, int x, int maxw, nnav_span s, attr_t a)
{
    if (maxw <= 0)
        return 0;
    char *buf = draw_escape_tail(s, maxw);
    if (!buf)
        return 0;
    int w = draw_text_tail(y, x, maxw, buf, a);
    free(buf);
    return w;
}

int draw_span_mid(int y, int x, int maxw, nnav_span s, attr_t a)
{
    char buf[4096];
    if (maxw <= 0)
        return 0;
    draw_escape(s, (size_t)maxw, buf, sizeof buf);
    if (maxw < 8 || draw_width(buf) <= maxw)
        return draw_span_tail(y, x, maxw, s, a);
    /* A third for the start with its ellipsis, then the end (what tells
     * machine-made names apart) drawn over that ellipsis with its own. */
    int head = draw_span(y, x, (maxw - 1) / 3 + 1, s, a) - 1;
    return head + draw_span_tail(y, x + head, maxw - head, s, a);
}

int draw_fmt(int y, int x, int maxw, attr_t a, const char *fmt, ...)
{
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return draw_text(y, x, maxw, buf, a);
}

void draw_fill(int y, int x, int w, attr_t a)
{
    if (w <= 0 || y < clip.y || y >= clip.y + clip.h)
        return;
    int lo = x < clip.x ? clip.x : x;
    int hi = x + w > clip.x + clip.w ? clip.x + clip.w : x + w;
    if (hi > COLS)
        hi = COLS;
    if (lo < 0)
        lo = 0;
    if (hi <= lo)
        return;
    attrset(a);
    mvhline(y, lo, ' ', hi - lo);
    attrset(A_NORMAL);
}
