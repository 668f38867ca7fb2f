/* sizebar.h - ncdu-style size columns for the initializer pane (no curses). */
#ifndef NNAV_UI_SIZEBAR_H
#define NNAV_UI_SIZEBAR_H

#include <stddef.h>
#include <stdint.h>

/* "512 B", "1.5 KiB", "12.3 MiB"... into buf (at most 9 columns + NUL). */
const char *sizebar_human(uint64_t bytes, char *buf, size_t n);
/* Share of total as "45.1%" (or "-" when total is 0). */
const char *sizebar_percent(uint64_t part, uint64_t total, char *buf, size_t n);
/* The filled length of a bar `width` cells wide for value/max, in eighths of
 * a cell (0..width*8); a nonzero value always shows at least one eighth. */
unsigned sizebar_eighths(uint64_t value, uint64_t max, unsigned width);
/* The bar as text: UTF-8 block elements (utf8) or '#' and ' ' (ASCII), exactly
 * width cells. */
const char *sizebar_render(uint64_t value, uint64_t max, unsigned width, int utf8,
                           char *buf, size_t n);

#endif
