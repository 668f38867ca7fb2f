/* sizebar.c - human sizes and the ncdu-like bar. */
#include "sizebar.h"

#include <stdio.h>
#include <string.h>

const char *sizebar_human(uint64_t bytes, char *buf, size_t n)
{
    static const char *unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    if (bytes == UINT64_MAX) {
        snprintf(buf, n, "?");
        return buf;
    }
    if (bytes < 1024) {
        snprintf(buf, n, "%u B", (unsigned)bytes);
        return buf;
    }
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024.0 && u < 6) {
        v /= 1024.0;
        u++;
    }
    /* 1023.95 would print as "1024.0": show it in the next unit instead. */
    if (v >= 1023.95 && u < 6) {
        v /= 1024.0;
        u++;
    }
    snprintf(buf, n, v < 100.0 ? "%.1f %s" : "%.0f %s", v, unit[u]);
    return buf;
}

const char *sizebar_percent(uint64_t part, uint64_t total, char *buf, size_t n)
{
    if (total == 0 || total == UINT64_MAX || part == UINT64_MAX)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%.1f%%", 100.0 * (double)part / (double)total);
    return buf;
}

unsigned sizebar_eighths(uint64_t value, uint64_t max, unsigned width)
{
    if (max == 0 || value == 0 || value == UINT64_MAX || max == UINT64_MAX)
        return 0;
    if (value >= max)
        return width * 8;
    double f = (double)value / (double)max * (double)(width * 8);
    unsigned e = (unsigned)(f + 0.5);
    if (e == 0)
        e = 1;
    if (e > width * 8)
        e = width * 8;
    return e;
}

const char *sizebar_render(uint64_t value, uint64_t max, unsigned width, int utf8,
                           char *buf, size_t n)
{
    /* Left blocks, one to eight eighths: U+258F .. U+2588. */
    static const char *part[9] = { "", "\u258f", "\u258e", "\u258d", "\u258c",
                                   "\u258b", "\u258a", "\u2589", "\u2588" };
    unsigned e = sizebar_eighths(value, max, width);
    size_t o = 0;
    if (n == 0)
        return buf;
    for (unsigned c = 0; c < width; c++) {
        unsigned fill = e >= (c + 1) * 8 ? 8 : (e > c * 8 ? e - c * 8 : 0);
        const char *s;
        if (utf8)
            s = fill ? part[fill] : " ";
        else
            s = fill >= 4 || (fill && c * 8 + fill == e && c == 0) ? "#" : " ";
        size_t l = strlen(s);
        if (o + l + 1 > n)
            break;
        memcpy(buf + o, s, l);
        o += l;
    }
    buf[o] = '\0';
    return buf;
}
