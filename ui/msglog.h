/* msglog.h - the status line's messages kept for reading later (M), and the
 * text overlay that shows them or the model's details (i).
 *
 * The log holds the last MSGLOG_MAX messages, oldest first, as the escaped
 * text the status line showed; a message equal to the newest is not kept
 * twice (the main loop sets a standing warning again after every key).
 *
 * A text view owns a copy of its lines (escaped text, no newlines); it wraps
 * them to the width at each draw, so a resize needs nothing. No curses here
 * but the column counting of draw.h.
 */
#ifndef NNAV_UI_MSGLOG_H
#define NNAV_UI_MSGLOG_H

#include <stddef.h>
#include <stdint.h>

#define MSGLOG_MAX 100
#define MSGLOG_TEXT 512

typedef struct msglog {
    char text[MSGLOG_MAX][MSGLOG_TEXT];
    int role[MSGLOG_MAX];  /* draw_role: R_ERROR or 0 */
    uint32_t count;        /* held, at most MSGLOG_MAX */
    uint32_t next;         /* slot the next message goes to */
} msglog;

void msglog_add(msglog *l, int role, const char *text);
uint32_t msglog_count(const msglog *l);
/* Message i, 0 the oldest held; NULL past the end. */
const char *msglog_get(const msglog *l, uint32_t i, int *role);

/* One row of text at most `width` columns wide: the number of bytes of s that
 * go on it, broken after a space when one is in reach (else inside a word);
 * *next gets the offset where the following row starts (spaces at the break
 * skipped). At least one character goes on a row, so a caller always moves. */
size_t text_wrap(const char *s, int width, size_t *next);
/* How many rows text_wrap cuts s into at `width` (1 for ""). */
uint32_t text_rows(const char *s, int width);

typedef struct text_view {
    int on;
    char title[200];      /* escaped text */
    char **line;
    int *role;            /* per line: R_ERROR, R_SECTION or 0 */
    uint32_t n;
    uint32_t top;         /* first row shown, in wrapped rows */
} text_view;

/* Opens the view with no lines (frees what it held). */
void text_view_open(text_view *v, const char *title);
/* Appends a line; returns -1 when out of memory. */
int text_view_add(text_view *v, int role, const char *text);
/* Appends each line of text (split at '\n'). */
int text_view_add_lines(text_view *v, int role, const char *text, size_t len);
void text_view_close(text_view *v);

#endif
