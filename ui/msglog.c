/* msglog.c - the message log and the text overlay's lines (see msglog.h). */
#include "msglog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "draw.h"
#include "utf8.h"

void msglog_add(msglog *l, int role, const char *text)
{
    if (!text || !*text)
        return;
    if (l->count) {
        uint32_t last = (l->next + MSGLOG_MAX - 1) % MSGLOG_MAX;
        if (!strcmp(l->text[last], text) && l->role[last] == role)
            return;
    }
    snprintf(l->text[l->next], MSGLOG_TEXT, "%s", text);
    l->role[l->next] = role;
    l->next = (l->next + 1) % MSGLOG_MAX;
    if (l->count < MSGLOG_MAX)
        l->count++;
}

uint32_t msglog_count(const msglog *l)
{
    return l->count;
}

const char *msglog_get(const msglog *l, uint32_t i, int *role)
{
    if (i >= l->count)
        return NULL;
    uint32_t k = (l->next + MSGLOG_MAX - l->count + i) % MSGLOG_MAX;
    if (role)
        *role = l->role[k];
    return l->text[k];
}

/* Bytes of the UTF-8 character at s (1 for a stray byte) and its columns. */
static size_t char_at(const char *s, int *cols)
{
    size_t k = 1;
    if (draw_is_utf8())
        while (nnav_utf8_cont((unsigned char)s[k]) && k < 4)
            k++;
    wchar_t w[8];
    draw_prepare(s, k, 8, draw_is_utf8(), w, 8, cols);
    return k;
}

size_t text_wrap(const char *s, int width, size_t *next)
{
    size_t i = 0, brk = 0;
    int col = 0;
    if (width < 1)
        width = 1;
    while (s[i]) {
        int cw;
        size_t k = char_at(s + i, &cw);
        if (col + cw > width && i > 0)
            break;
        col += cw;
        i += k;
        if (s[i - 1] == ' ')
            brk = i;
    }
    size_t end = i;
    if (s[i] && brk && s[i] != ' ')
        end = brk; /* break after the last space in reach */
    size_t n = end;
    while (s[n] == ' ')
        n++;
    *next = n;
    /* Spaces at the row's end are not shown. */
    while (end > 0 && s[end - 1] == ' ')
        end--;
    return end;
}

uint32_t text_rows(const char *s, int width)
{
    uint32_t rows = 1;
    size_t at = 0, next;
    for (;;) {
        text_wrap(s + at, width, &next);
        at += next;
        if (!s[at] || next == 0)
            return rows;
        rows++;
    }
}

void text_view_open(text_view *v, const char *title)
{
    text_view_close(v);
    v->on = 1;
    v->top = 0;
    snprintf(v->title, sizeof v->title, "%s", title);
}

int text_view_add(text_view *v, int role, const char *text)
{
    return text_view_add_lines(v, role, text, strlen(text));
}

int text_view_add_lines(text_view *v, int role, const char *text, size_t len)
{
    size_t at = 0;
    while (at < len) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t k = nl ? (size_t)(nl - (text + at)) : len - at;
        char **line = realloc(v->line, (v->n + 1) * sizeof *line);
        if (!line)
            return -1;
        v->line = line;
        int *r = realloc(v->role, (v->n + 1) * sizeof *r);
        if (!r)
            return -1;
        v->role = r;
        char *copy = malloc(k + 1);
        if (!copy)
            return -1;
        memcpy(copy, text + at, k);
        copy[k] = '\0';
        /* Tabs would not line up with the wrap: one space each. */
        for (char *c = copy; *c; c++)
            if (*c == '\t')
                *c = ' ';
        v->line[v->n] = copy;
        v->role[v->n] = role;
        v->n++;
        at += k + (nl != NULL);
    }
    return 0;
}

void text_view_close(text_view *v)
{
    for (uint32_t i = 0; i < v->n; i++)
        free(v->line[i]);
    free(v->line);
    free(v->role);
    v->line = NULL;
    v->role = NULL;
    v->n = 0;
    v->on = 0;
    v->top = 0;
}
