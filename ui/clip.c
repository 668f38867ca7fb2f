/* clip.c - OSC 52 yank. */
#include "clip.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

size_t clip_base64(const unsigned char *p, size_t len, char *out, size_t n)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t need = (len + 2) / 3 * 4;
    if (n < need + 1)
        return 0;
    size_t o = 0;
    for (size_t i = 0; i < len; i += 3) {
        unsigned v = (unsigned)p[i] << 16;
        if (i + 1 < len)
            v |= (unsigned)p[i + 1] << 8;
        if (i + 2 < len)
            v |= p[i + 2];
        out[o++] = tab[(v >> 18) & 63];
        out[o++] = tab[(v >> 12) & 63];
        out[o++] = i + 1 < len ? tab[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < len ? tab[v & 63] : '=';
    }
    out[o] = '\0';
    return o;
}

size_t clip_osc52(const unsigned char *p, size_t len, int tmux_wrap, char *out, size_t n)
{
    const char *pre = tmux_wrap ? "\033Ptmux;\033\033]52;c;" : "\033]52;c;";
    const char *post = tmux_wrap ? "\a\033\\" : "\a";
    size_t lp = strlen(pre), lq = strlen(post);
    if (n < lp + lq + 1)
        return 0;
    memcpy(out, pre, lp);
    size_t b = clip_base64(p, len, out + lp, n - lp - lq);
    if (b == 0 && len > 0)
        return 0;
    memcpy(out + lp + b, post, lq + 1);
    return lp + b + lq;
}

int clip_yank(int fd, const char *text, size_t len)
{
    /* Terminals cap OSC 52 payloads (xterm ~100 KB); a name never needs more. */
    if (len > 65536)
        len = 65536;
    size_t n = (len + 2) / 3 * 4 + 32;
    char *buf = malloc(n);
    if (!buf)
        return -1;
    const char *w = getenv("NNAV_OSC52_TMUX");
    size_t k = clip_osc52((const unsigned char *)text, len, w && *w == '1', buf, n);
    int rc = -1;
    if (k) {
        size_t off = 0;
        while (off < k) {
            ssize_t r = write(fd, buf + off, k - off);
            if (r <= 0)
                break;
            off += (size_t)r;
        }
        rc = off == k ? 0 : -1;
    }
    free(buf);
    return rc;
}
