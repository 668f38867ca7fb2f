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
    const nnav_model *m; /* the model, whose folder the name is walked again from */
    nnav_span loc, name; /* the location and the tensor's name, in the model's map */
    uint64_t end;        /* offset + length: the file must hold this many bytes */
} ext_cookie;

enum { SIDE_OWNER = 0xff }; /* nnav_side_open's stand-in tensor: no tensor's */

/* What a file opened here is, for its refusal: external data, unless the
 * stand-in tensor of nnav_side_open says otherwise (its stype). */
static int refuse(nnav_error *err, const nnav_tensor *t, const char *why)
{
    char loc[512];
    nnav_text_escape(t->ext_location.p, t->ext_location.n, loc, sizeof loc);
    nnav_err_set(err, 0, 0, "%s \"%s\" refused: %s",
                 t->owner == SIDE_OWNER && t->stype ? t->stype : "external data", loc, why);
    err->kind = NNAV_ERR_INPUT;
    return -1;
}

/* open_inside's *via when a link not followed is why the file is refused. */
enum { EXT_LINK_REFUSED = 100 };

static int same_inode(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* ---- the Hugging Face cache ----
 * huggingface_hub keeps a repository as REPO/blobs/HASH (the files) and
 * REPO/snapshots/REV/PATH (symbolic links, relative `../../blobs/HASH`, to
 * them), REPO named models--ORG--NAME (datasets--, spaces--). A model opened
 * in a snapshot reads its data file through such a link: that one link is
 * followed, when it leads to a regular file of the same REPO/blobs/, told by
 * device and inode, not by the link's text. */

/* REPO/blobs/ opened, when `real` (a canonical path) is REPO/snapshots/REV[/..]
 * and the folder those names lead to without following a link is `dirfd`'s
 * (then *in_repo is set); -1 otherwise. */
static int hf_blobs(const char *real, int dirfd, int *in_repo)
{
    static const char *const kinds[] = {"models--", "datasets--", "spaces--"};
    const char *snap = NULL;
    for (const char *p = strstr(real, "/snapshots/"); p; p = strstr(p + 1, "/snapshots/")) {
        const char *rev = p + sizeof "/snapshots/" - 1;
        if (!*rev || *rev == '/')
            continue;
        const char *repo = p;
        while (repo > real && repo[-1] != '/')
            repo--;
        for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
            if (!strncmp(repo, kinds[k], strlen(kinds[k])) && p - repo > (ptrdiff_t)strlen(kinds[k]))
                snap = p;
    }
    if (!snap)
        return -1;
    size_t rn = (size_t)(snap - real); /* > 0: the repository's name is before */
    char *repo = malloc(rn + 1);
    if (!repo)
        return -1;
    memcpy(repo, real, rn);
    repo[rn] = 0;
    int rfd = open(repo, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(repo);
    if (rfd < 0)
        return -1;
    /* Down from REPO, one name at a time, never through a link: the folder
     * reached must be the one holding the data file's link. */
    int cur = dup(rfd);
    const char *p = snap + 1;
    while (cur >= 0 && *p) {
        const char *q = strchr(p, '/');
        size_t len = q ? (size_t)(q - p) : strlen(p);
        char comp[256];
        if (len == 0 || (len == 1 && *p == '.')) {
            p = q ? q + 1 : p + len;
            continue;
        }
        if (len >= sizeof comp) {
            close(cur);
            cur = -1;
            break;
        }
        memcpy(comp, p, len);
        comp[len] = 0;
        int nfd = openat(cur, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        close(cur);
        cur = nfd;
        p = q ? q + 1 : p + len;
    }
    struct stat a, b;
    int blobs = -1;
    if (cur >= 0 && fstat(cur, &a) == 0 && fstat(dirfd, &b) == 0 && same_inode(&a, &b)) {
        *in_repo = 1;
        blobs = openat(rfd, "blobs", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    }
    if (cur >= 0)
        close(cur);
    close(rfd);
    return blobs;
}

/* The data file `comp` in dirfd (the folder `sub` below the model's, sub
 * walked without links) is a symbolic link: the file of the Hugging Face
 * repository's blobs/ it leads to, opened (O_NOFOLLOW there: a blob that is
 * itself a link is not one); -2 when it leads elsewhere or the model is not
 * in a cache repository (*in_repo says which), -1 with err set when the
 * blob cannot be opened. */
static int hf_blob(const nnav_model *m, int dirfd, nnav_span sub, const char *comp,
                   const nnav_tensor *t, int *in_repo, nnav_error *err)
{
    char *real = realpath(m->dir, NULL);
    if (!real)
        return -2;
    char *where = malloc(strlen(real) + (size_t)sub.n + 2);
    if (!where) {
        free(real);
        return -2;
    }
    sprintf(where, "%s%s%.*s", real, sub.n ? "/" : "", (int)sub.n, (const char *)sub.p);
    free(real);
    int blobs = hf_blobs(where, dirfd, in_repo);
    free(where);
    if (blobs < 0)
        return -2;
    /* The link's text names .../blobs/NAME; which blobs/ is told by inode. */
    char target[4096];
    ssize_t n = readlinkat(dirfd, comp, target, sizeof target - 1);
    char *name = n > 0 ? (target[n] = 0, strrchr(target, '/')) : NULL;
    if (!name || name - target < 5 || strncmp(name - 5, "blobs", 5) ||
        (name - target > 5 && name[-6] != '/') || !name[1] || !strcmp(name + 1, "..")) {
        close(blobs);
        return -2;
    }
    name++;
    struct stat pre, linked;
    int fd = -2;
    if (fstatat(blobs, name, &pre, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(pre.st_mode) &&
        fstatat(dirfd, comp, &linked, 0) == 0 && same_inode(&pre, &linked)) {
        fd = openat(blobs, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        struct stat got;
        if (fd < 0) {
            char msg[300];
            snprintf(msg, sizeof msg, "cannot open its Hugging Face blob: %s", strerror(errno));
            fd = refuse(err, t, msg);
        } else if (fstat(fd, &got) != 0 || !same_inode(&got, &pre)) {
            close(fd);
            fd = refuse(err, t, "its Hugging Face blob changed while it was opened");
        }
    }
    close(blobs);
    return fd;
}

/* Walk the location one component at a time from the model's folder, with
 * O_NOFOLLOW at every step: a symlink anywhere is refused, not followed, but
 * for a Hugging Face snapshot's link into its own repository's blobs/ and,
 * on follow_links, any. *via says how the file was reached. */
static int open_inside(const nnav_model *m, nnav_span loc, const nnav_tensor *t, int *via,
                       nnav_error *err)
{
    char comp[256];
    int follow = m->follow_links;
    *via = NNAV_EXT_PLAIN;
    int fd = open(m->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
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
        int seen = fstatat(fd, comp, &pre, AT_SYMLINK_NOFOLLOW) == 0;
        int is_link = seen && S_ISLNK(pre.st_mode);
        int in_repo = 0;
        if (last && is_link) {
            nnav_span sub = {loc.p, i ? i - 1 : 0};
            int b = hf_blob(m, fd, sub, comp, t, &in_repo, err);
            if (b != -2) {
                close(fd);
                if (b >= 0)
                    *via = NNAV_EXT_HF_BLOB;
                return b;
            }
        }
        if (is_link && follow)
            *via = NNAV_EXT_LINK;
        if (is_link && !follow && in_repo) {
            close(fd);
            *via = EXT_LINK_REFUSED;
            return refuse(err, t, "a symbolic link out of its Hugging Face repository's blobs/ "
                                  "(--follow-links follows it)");
        }
        if (last && (follow ? fstatat(fd, comp, &pre, 0) == 0 : seen && !is_link) &&
            !S_ISREG(pre.st_mode)) {
            close(fd);
            return refuse(err, t, "not a regular file");
        }
        int flags = O_RDONLY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW) |
                    (last ? O_NONBLOCK | O_NOCTTY : O_DIRECTORY);
        int nfd = openat(fd, comp, flags);
        int e = errno;
        close(fd);
        if (nfd < 0) {
            if (!follow && (e == ELOOP || e == EMLINK || (e == ENOTDIR && is_link)))
                *via = EXT_LINK_REFUSED;
            if (!follow && (e == ELOOP || e == EMLINK))
                return refuse(err, t, "it is, or passes through, a symbolic link (--follow-links follows it)");
            if (e == ENOTDIR)
                return refuse(err, t, "a folder on its path is a symbolic link or not a folder "
                                      "(--follow-links follows a link)");
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
 * stat in *st: a descriptor, or -1 with err set (refused, or not there).
 * *via: how it was reached (nnav_ext_via, or EXT_LINK_REFUSED). */
static int open_data(const nnav_model *m, const nnav_tensor *t, struct stat *st, int *via,
                     nnav_error *err)
{
    *via = NNAV_EXT_PLAIN;
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
    int fd = open_inside(m, loc, t, via, err);
    if (fd < 0)
        return -1;
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
        close(fd);
        return refuse(err, t, "not a regular file");
    }
    if (st->st_nlink > 1 && !m->follow_links) {
        close(fd);
        return refuse(err, t, "it has several hard links (it may be a file from elsewhere; "
                              "--follow-links accepts it)");
    }
    return fd;
}

int nnav_ext_avail(const nnav_model *m, const nnav_tensor *t, uint64_t *avail, int *via,
                   nnav_error *err)
{
    struct stat st;
    int fd = open_data(m, t, &st, via, err);
    if (*via == EXT_LINK_REFUSED)
        *via = NNAV_EXT_PLAIN;
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
    int via;
    int fd = open_data(m, t, &st, &via, err);
    if (fd < 0) {
        if (via == EXT_LINK_REFUSED)
            ((nnav_model *)m)->links_refused = 1;
        return -1;
    }
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
    c->m = m;
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
        int via;
        int fd = open_inside(c->m, c->loc, &t, &via, &e);
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

int nnav_ext_via_of(const nnav_model *m, uint32_t tid)
{
    nnav_tensor *t = &((nnav_model *)m)->tensors.v[tid];
    if (t->storage != NNAV_STORE_EXTERNAL)
        return NNAV_EXT_PLAIN;
    if (t->ext_via == NNAV_EXT_UNSEEN) {
        /* Looked at once and remembered in the index, as measuring does. */
        uint64_t avail;
        int via = NNAV_EXT_PLAIN;
        nnav_error e;
        if (t->warn & NNAV_TW_BAD_EXTERNAL || nnav_ext_avail(m, t, &avail, &via, &e) < 0)
            via = NNAV_EXT_PLAIN;
        t->ext_via = (uint8_t)via;
    }
    return t->ext_via;
}

int nnav_side_open(const nnav_model *m, nnav_span name, const char *what, int *via,
                   nnav_error *err)
{
    /* A stand-in tensor: open_data reads only its location and warnings
     * (and refuse the word for what the file is). */
    nnav_tensor t;
    memset(&t, 0, sizeof t);
    t.ext_location = name;
    t.owner = SIDE_OWNER;
    t.stype = what;
    t.ext_offset = t.ext_length = -1;
    struct stat st;
    int fd = open_data(m, &t, &st, via, err);
    if (*via == EXT_LINK_REFUSED) {
        ((nnav_model *)m)->links_refused = 1;
        *via = NNAV_EXT_PLAIN;
    }
    if (fd < 0 && strstr(err->msg, strerror(ENOENT))) {
        char loc[512];
        nnav_text_escape(name.p, name.n, loc, sizeof loc);
        nnav_err_set(err, 0, 0, "%s \"%s\" is missing: the model's folder holds no such file",
                     what, loc);
        err->kind = NNAV_ERR_INPUT;
    }
    return fd;
}

int nnav_model_links_refused(const nnav_model *m) { return m->links_refused; }
