#include "extdata.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model.h"

typedef struct ext_cookie {
    nnav_map map;
    const char *dir;     /* the model's folder, where the name is walked again */
    nnav_span loc, name; /* the location and the tensor's name, in the model's map */
    uint64_t end;        /* offset + length: the file must hold this many bytes */
} ext_cookie;

static int refuse(nnav_error *err, const nnav_tensor *t, const char *why)
{
    char loc[512];
    nnav_text_escape(t->ext_location.p, t->ext_location.n, loc, sizeof loc);
    nnav_err_set(err, 0, 0, "external data \"%s\" refused: %s", loc, why);
    return -1;
}

/* Walk the location one component at a time from the model's folder, with
 * O_NOFOLLOW at every step: a symlink anywhere is refused, not followed. */
static int open_inside(const char *dir, nnav_span loc, const nnav_tensor *t, nnav_error *err)
{
    char comp[256];
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        nnav_err_set(err, 0, 0, "cannot open the model's folder: %s", strerror(errno));
        return -1;
    }
    uint64_t i = 0;
    while (i < loc.n) {
        uint64_t j = i;
        while (j < loc.n && loc.p[j] != '/')
            j++;
        uint64_t len = j - i;
        int last = j >= loc.n;
        if (len == 0 || (len == 1 && loc.p[i] == '.')) {
            i = j + 1;
            continue;
        }
        if (len >= sizeof comp) {
            close(fd);
            return refuse(err, t, "a path component is too long");
        }
        memcpy(comp, loc.p + i, len);
        comp[len] = 0;
        /* The data file is looked at before it is opened: opening a FIFO
         * with a writer waiting would feed the writer, a device may act on
         * open. O_NONBLOCK still covers what changes in between. */
        struct stat pre;
        if (last && fstatat(fd, comp, &pre, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(pre.st_mode) &&
            !S_ISLNK(pre.st_mode)) {
            close(fd);
            return refuse(err, t, "not a regular file");
        }
        int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK | O_NOCTTY : O_DIRECTORY);
        int nfd = openat(fd, comp, flags);
        int e = errno;
        close(fd);
        if (nfd < 0) {
            if (e == ELOOP || e == EMLINK)
                return refuse(err, t, "it is, or passes through, a symbolic link");
            if (e == ENOTDIR)
                return refuse(err, t, "a folder on its path is a symbolic link or not a folder");
            char msg[300];
            snprintf(msg, sizeof msg, "cannot open it: %s", strerror(e));
            return refuse(err, t, msg);
        }
        fd = nfd;
        i = j + 1;
        if (last)
            return fd;
    }
    close(fd);
    return refuse(err, t, "it names a folder, not a file");
}

/* The data file of t, opened after every check on its name and with its
 * stat in *st: a descriptor, or -1 with err set (refused, or not there). */
static int open_data(const nnav_model *m, const nnav_tensor *t, struct stat *st, nnav_error *err)
{
    nnav_span loc = t->ext_location;
    if (!loc.p || loc.n == 0)
        return refuse(err, t, "no location key");
    if (memchr(loc.p, 0, loc.n))
        return refuse(err, t, "the location holds a NUL byte");
    if (loc.p[0] == '/')
        return refuse(err, t, "absolute paths are not allowed; data must sit beside the model");
    for (uint64_t i = 0; i < loc.n;) {
        uint64_t j = i;
        while (j < loc.n && loc.p[j] != '/' && loc.p[j] != '\\')
            j++;
        if (j - i == 2 && loc.p[i] == '.' && loc.p[i + 1] == '.')
            return refuse(err, t, "`..` would leave the model's folder");
        i = j + 1;
    }
    if (t->warn & NNAV_TW_BAD_EXTERNAL)
        return refuse(err, t,
                      "its external_data keys are malformed (duplicate keys, a basepath or "
                      "unknown key, or an offset/length that is not a non-negative decimal)");
    int fd = open_inside(m->dir, loc, t, err);
    if (fd < 0)
        return -1;
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
        close(fd);
        return refuse(err, t, "not a regular file");
    }
    if (st->st_nlink > 1) {
        close(fd);
        return refuse(err, t, "it has several hard links (it may be a file from elsewhere)");
    }
    return fd;
}

int nnav_ext_avail(const nnav_model *m, const nnav_tensor *t, uint64_t *avail, nnav_error *err)
{
    struct stat st;
    int fd = open_data(m, t, &st, err);
    if (fd < 0)
        return -1;
    close(fd);
    uint64_t size = (uint64_t)st.st_size;
    uint64_t off = t->ext_offset >= 0 ? (uint64_t)t->ext_offset : 0;
    uint64_t rest = off < size ? size - off : 0;
    *avail = t->ext_length >= 0 && (uint64_t)t->ext_length < rest ? (uint64_t)t->ext_length : rest;
    return 0;
}

int nnav_ext_map_tensor(const nnav_model *m, const nnav_tensor *t, nnav_span *out,
                        void **cookie, nnav_error *err)
{
    nnav_span loc = t->ext_location;
    *cookie = NULL;
    struct stat st;
    int fd = open_data(m, t, &st, err);
    if (fd < 0)
        return -1;
    uint64_t size = (uint64_t)st.st_size;
    uint64_t off = t->ext_offset >= 0 ? (uint64_t)t->ext_offset : 0;
    if (off > size) {
        close(fd);
        return refuse(err, t, "offset lies past the end of the data file");
    }
    uint64_t len = t->ext_length >= 0 ? (uint64_t)t->ext_length : size - off;
    if (len > size - off) {
        close(fd);
        return refuse(err, t, "offset + length runs past the end of the data file");
    }
    ext_cookie *c = calloc(1, sizeof *c);
    if (!c) {
        close(fd);
        nnav_err_set(err, 0, 0, "out of memory");
        return -1;
    }
    int r = nnav_map_fd(fd, "the external data file", &c->map, err);
    close(fd);
    if (r < 0) {
        free(c);
        return -1;
    }
    if (c->map.size < off + len) { /* shrank between fstat and mmap */
        nnav_map_close(&c->map);
        free(c);
        return refuse(err, t, "the data file changed while it was opened");
    }
    out->p = c->map.base ? c->map.base + off : (const uint8_t *)"";
    out->n = len;
    c->dir = m->dir;
    c->loc = loc;
    c->name = t->name;
    c->end = off + len;
    *cookie = c;
    return 0;
}

int nnav_ext_shrank(const void *cookie, nnav_error *err)
{
    const ext_cookie *c = cookie;
    if (!c)
        return 0;
    int gone = nnav_map_truncated(&c->map);
    if (!gone) {
        /* Cut inside the last page, the rest of that page reads as zeros
         * without a fault: only the file's size now tells. The name is
         * walked again as at open; if it leads to another file (replaced,
         * removed), the mapped one is intact unless the guard saw a fault. */
        nnav_error e;
        nnav_tensor t = {.ext_location = c->loc};
        int fd = open_inside(c->dir, c->loc, &t, &e);
        struct stat st;
        if (fd >= 0) {
            gone = fstat(fd, &st) == 0 && st.st_dev == c->map.dev && st.st_ino == c->map.ino &&
                   (uint64_t)st.st_size < c->end;
            close(fd);
        }
    }
    if (gone && err) {
        char loc[200], name[200];
        nnav_text_escape(c->loc.p, c->loc.n, loc, sizeof loc);
        nnav_text_escape(c->name.p, c->name.n, name, sizeof name);
        nnav_err_set(err, 0, 0,
                     "external data file \"%s\" of tensor \"%s\" shrank while it was read: "
                     "its values are not the file's",
                     loc, name);
    }
    return gone;
}

void nnav_ext_release(void *cookie)
{
    ext_cookie *c = cookie;
    if (!c)
        return;
    nnav_map_close(&c->map);
    free(c);
}

int nnav_ext_map(const nnav_model *m, uint32_t tid, nnav_span *out, void **cookie,
                 nnav_error *err)
{
    return nnav_ext_map_tensor(m, &m->tensors.v[tid], out, cookie, err);
}
