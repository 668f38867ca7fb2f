/* utf8.c - the one UTF-8 decoder (utf8.h). */
#include "utf8.h"

int nnav_utf8_decode(const uint8_t *p, size_t len, uint32_t *cp)
{
    if (len == 0)
        return 0;
    uint8_t b = p[0];
    int n;
    uint32_t c, min;
    if (b < 0x80) {
        *cp = b;
        return 1;
    } else if ((b & 0xe0) == 0xc0) {
        n = 2, c = b & 0x1f, min = 0x80;
    } else if ((b & 0xf0) == 0xe0) {
        n = 3, c = b & 0x0f, min = 0x800;
    } else if ((b & 0xf8) == 0xf0) {
        n = 4, c = b & 0x07, min = 0x10000;
    } else {
        return 0; /* a continuation byte, or F8..FF */
    }
    if ((size_t)n > len)
        return 0;
    for (int i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        c = (c << 6) | (p[i] & 0x3f);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *cp = c;
    return n;
}

int nnav_utf8_valid(const uint8_t *p, uint64_t n)
{
    for (uint64_t i = 0; i < n;) {
        if (p[i] < 0x80) {
            i++;
            continue;
        }
        uint32_t c;
        uint64_t left = n - i;
        int k = nnav_utf8_decode(p + i, left < 4 ? (size_t)left : 4, &c);
        if (k == 0)
            return 0;
        i += (uint64_t)k;
    }
    return 1;
}

size_t nnav_utf8_chars(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += !nnav_utf8_cont((unsigned char)s[i]);
    return c;
}
