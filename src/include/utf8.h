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
 * code point in *cp; 0 when it is invalid or len is 0 (*cp unchanged). */
int nnav_utf8_decode(const uint8_t *p, size_t len, uint32_t *cp);

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
