/* draw.h - the only way text reaches the screen.
 *
 * Every string from the model file goes through draw_span(), which runs it
 * through nnav_text_escape() (control characters, escape sequences, bidi
 * overrides and invalid UTF-8 become visible escapes). Our own text, and text
 * the core already escaped, goes through draw_text(), which still drops any
 * control character as a second line of defence. Both clip to the current clip
 * rectangle and to a width in columns, counting wide characters as two.
 *
 * Glyphs are UTF-8 box drawing when the locale is UTF-8, ASCII otherwise.
 * Roles become colours, or plain attributes without colour (or with NO_COLOR).
 */
#ifndef NNAV_UI_DRAW_H
#define NNAV_UI_DRAW_H

#include <stddef.h>
#include <wchar.h>
#include <curses.h>

#include "nnav.h"

enum draw_role {
    R_NORMAL = 0, R_HEADER, R_STATUS, R_TITLE, R_TITLE_FOCUS, R_CURSOR, R_CURSOR_BLUR,
    R_OP, R_DIM, R_LINK, R_ERROR, R_BAR, R_SECTION, R_BOX, R_BOX_CENTRE, R_PROMPT,
    R_ADDED, R_REMOVED, R_CHANGED, /* compare mode: the +, - and ~ marks, a changed line */
    R_COUNT
};

enum glyph {
    G_H = 0, G_V, G_TL, G_TR, G_BL, G_BR, G_TEE_DOWN, G_TEE_UP, G_TEE_RIGHT, G_TEE_LEFT,
    G_CROSS, G_ARROW_DOWN, G_OPEN, G_CLOSED, G_LEAF, G_CRUMB, G_ELLIPSIS, G_FROM, G_TO,
    G_MARK, G_COUNT
};

/* Junction bits for edge cells. */
enum { J_UP = 1, J_DOWN = 2, J_LEFT = 4, J_RIGHT = 8 };

/* Chooses glyphs and colours; call after initscr (colour set-up needs it). */
void draw_setup(int utf8, int colour);
int draw_is_utf8(void);
int draw_has_colour(void);
attr_t draw_attr(enum draw_role r);
const char *draw_glyph(enum glyph g);
/* The glyph for an edge cell joining the J_* directions in bits. */
const char *draw_junction(unsigned bits);

/* Drawing is dropped outside this rectangle (the whole screen by default). */
void draw_clip(int y, int x, int h, int w);
void draw_clip_screen(void);

/* Each returns the columns the text takes (at most maxw), even where clipped,
 * so callers can lay out a row left to right. A cut string ends in an ellipsis. */
int draw_span(int y, int x, int maxw, nnav_span s, attr_t a);
int draw_text(int y, int x, int maxw, const char *s, attr_t a);
int draw_fmt(int y, int x, int maxw, attr_t a, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void draw_fill(int y, int x, int w, attr_t a);

/* Curses-free core of the above, for tests: turns len bytes of UTF-8 text
 * into at most outn wide characters that fill no more than maxw columns,
 * control characters replaced by '?', a cut marked by the ellipsis. Returns
 * the characters written; *cols gets the columns they take. */
size_t draw_prepare(const char *s, size_t len, int maxw, int utf8, wchar_t *out, size_t outn,
                    int *cols);
/* The same, cut at the START instead: when the text is wider than maxw it
 * becomes the ellipsis and then the last characters that fill the rest, so a
 * long machine-made name keeps its distinctive end
 * ("\u2026layer_5/self_attention/MatMul"). Width-aware like draw_prepare
 * (a wide character is never split; a zero-width one never leads). */
size_t draw_prepare_tail(const char *s, size_t len, int maxw, int utf8, wchar_t *out,
                         size_t outn, int *cols);
/* The escaped form of the end of file bytes: all of s when it is short,
 * else enough of its last bytes to fill more than maxw columns (escaping
 * starts on a character boundary; what the start of the piece looks like is
 * cut anyway). Returns a malloc'd NUL-terminated string, NULL without memory. */
char *draw_escape_tail(nnav_span s, int maxw);
/* draw_text and draw_span cutting at the start: the names of nodes, values
 * and initializers, whose end is what tells them apart. */
int draw_text_tail(int y, int x, int maxw, const char *s, attr_t a);
int draw_span_tail(int y, int x, int maxw, nnav_span s, attr_t a);
/* draw_span cutting in the middle: "encod\u2026ention.in_proj_weight", a
 * third of the columns for the start, the rest for the end, for a name that
 * shares its row with what must stay (the tensor pane's shape). Under 8
 * columns as draw_span_tail. */
int draw_span_mid(int y, int x, int maxw, nnav_span s, attr_t a);
/* Wrapping: text broken into pieces of at most w columns (a wide character
 * is never split; it starts the next piece). Puts piece k's characters into
 * out, returns their count; *pieces gets how many pieces the text makes. */
size_t draw_wrap_piece(const char *s, size_t len, int w, int k, int utf8, wchar_t *out,
                       size_t outn, int *pieces);
/* Draws piece k of (escaped) text s wrapped at w columns; returns the count
 * of pieces. */
int draw_text_piece(int y, int x, int w, int k, const char *s, attr_t a);
/* The escaped form of file bytes, as draw_span shows it, into buf. */
size_t draw_escape(nnav_span s, size_t maxw, char *buf, size_t n);
/* Columns a UTF-8 string takes on screen. */
int draw_width(const char *s);

#endif
