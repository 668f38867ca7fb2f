/* utf8.h - the one UTF-8 decoder of the core and the explorer.
 *
 * Strict, as the sanitiser (nnav_text_escape) and libyaml's emitter want it:
 * a sequence is valid only in its shortest form (no overlongs such as
 * C0 80 for NUL), never a UTF-16 surrogate (U+D800..U+DFFF), never past
 * U+10FFFF, and whole (a lead byte whose continuation bytes are missing or
 * are not 10xxxxxx is invalid). What is invalid is the caller's to show
 * (the sanitiser writes \xNN for its first byte and goes on at the next).
 */
#ifndef NNAV_UTF8_H
#define NNAV_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The length (1..4) of the valid sequence at p, at most len bytes, with its
 * code point in *cp; 0 when it is invalid or len is 0 (*cp unchanged).
 * Inline: the sanitiser calls it for every byte it shows, and a caller that
 * knows the length is at most 4 copies the sequence without a call. */
static inline int nnav_utf8_decode(const uint8_t *p, size_t len, uint32_t *cp)
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

/* 1 when all n bytes at p are valid sequences, else 0 (a sequence cut by
 * the end included). */
int nnav_utf8_valid(const uint8_t *p, uint64_t n);

/* A continuation byte (10xxxxxx): not the first byte of a character. Moving
 * by characters through text known to be valid (escaped text) steps over
 * these. */
static inline int nnav_utf8_cont(unsigned char b)
{
    return (b & 0xc0) == 0x80;
}

/* Characters in n bytes of valid UTF-8 (bytes that are not continuations). */
size_t nnav_utf8_chars(const char *s, size_t n);

#endif
