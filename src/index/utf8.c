/* utf8.c - what is built on the one UTF-8 decoder (utf8.h). */
#include "utf8.h"

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
