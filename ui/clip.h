/* clip.h - yanking to the terminal's clipboard with OSC 52.
 *
 * OSC 52 travels through the terminal itself, so it works over ssh and inside
 * tmux (with set-clipboard on, tmux takes the plain sequence and keeps it as a
 * paste buffer). No X11 or helper program is involved.
 */
#ifndef NNAV_UI_CLIP_H
#define NNAV_UI_CLIP_H

#include <stddef.h>

/* Base64 of len bytes into out (NUL-terminated); returns the length written,
 * or 0 when out (n bytes) is too small. */
size_t clip_base64(const unsigned char *p, size_t len, char *out, size_t n);
/* The whole escape sequence "ESC ] 52 ; c ; BASE64 BEL" into out; 0 if too small.
 * tmux_wrap wraps it for tmux passthrough (DCS tmux; ... ST, ESCs doubled). */
size_t clip_osc52(const unsigned char *p, size_t len, int tmux_wrap, char *out, size_t n);
/* Writes the sequence to fd; returns 0 on success. */
int clip_yank(int fd, const char *text, size_t len);

#endif
