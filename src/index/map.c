/* map.c - mmap'd files and the truncation guard.
 *
 * If another process truncates a mapped file, touching a page past the new end
 * raises SIGBUS. A viewer must not die for that: the handler below finds the
 * map that faulted, puts a zero-filled private page over the lost range and
 * records the fact. Readers then see zeros (a stale view) and every command
 * checks nnav_map_truncated() before it reports, turning it into an error. */
#include "map.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* One slot a live map: a model of many files (weights shards) maps each.
 * The handler looks only below the highest slot ever used. */
#define GUARD_SLOTS 16384

static struct {
    volatile uintptr_t lo, hi;
    volatile sig_atomic_t truncated;
} guard[GUARD_SLOTS];
static volatile sig_atomic_t guard_top;
static int guard_installed;
static struct sigaction guard_prev;

static void guard_handler(int sig, siginfo_t *si, void *uc)
{
    uintptr_t a = (uintptr_t)si->si_addr;
    for (int i = 0; i < guard_top; i++) {
        if (guard[i].lo && a >= guard[i].lo && a < guard[i].hi) {
            long pg = sysconf(_SC_PAGESIZE);
            uintptr_t page = a & ~(uintptr_t)(pg - 1);
            /* Cover the rest of the map at once: one fault, not one per page. */
            void *r = mmap((void *)page, guard[i].hi - page, PROT_READ,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
            if (r != MAP_FAILED) {
                guard[i].truncated = 1;
                return;
            }
        }
    }
    /* Not ours: behave as if we were never here. */
    sigaction(SIGBUS, &guard_prev, NULL);
    (void)sig;
    (void)uc;
}

static int guard_add(const uint8_t *base, uint64_t size)
{
    /* (Re)install when someone else took SIGBUS since: a test harness or a
     * front end may set its own handlers after we did. */
    struct sigaction cur;
    if (sigaction(SIGBUS, NULL, &cur) == 0 && (!(cur.sa_flags & SA_SIGINFO) ||
                                               cur.sa_sigaction != guard_handler))
        guard_installed = 0;
    if (!guard_installed) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = guard_handler;
        sa.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGBUS, &sa, &guard_prev) != 0)
            return -1;
        guard_installed = 1;
    }
    long pg = sysconf(_SC_PAGESIZE);
    uint64_t len = (size + (uint64_t)pg - 1) & ~(uint64_t)(pg - 1);
    for (int i = 0; i < GUARD_SLOTS; i++) {
        if (!guard[i].lo) {
            guard[i].truncated = 0;
            guard[i].hi = (uintptr_t)base + len;
            guard[i].lo = (uintptr_t)base;
            if (i >= guard_top)
                guard_top = i + 1;
            return i;
        }
    }
    return -1;
}

static int not_regular(const struct stat *st, const char *what, nnav_error *err)
{
    snprintf(err->msg, sizeof err->msg, "%s is not a regular file (%s)", what,
             S_ISFIFO(st->st_mode) ? "a named pipe"
             : S_ISDIR(st->st_mode) ? "a folder"
             : S_ISSOCK(st->st_mode) ? "a socket"
             : S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode) ? "a device" : "not a file");
    err->kind = NNAV_ERR_INPUT;
    return -1;
}

int nnav_map_fd(int fd, const char *what, nnav_map *m, nnav_error *err)
{
    memset(m, 0, sizeof *m);
    m->slot = -1;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        snprintf(err->msg, sizeof err->msg, "cannot stat %s: %s", what, strerror(errno));
        err->kind = NNAV_ERR_INPUT;
        return -1;
    }
    if (!S_ISREG(st.st_mode))
        return not_regular(&st, what, err);
    /* Opened with O_NONBLOCK so that a FIFO or a device could not hold
     * open() forever; a regular file gets its ordinary blocking reads back. */
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0 && (fl & O_NONBLOCK))
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    m->dev = st.st_dev;
    m->ino = st.st_ino;
    m->mtime = st.st_mtim;
    m->ctime = st.st_ctim;
    m->size = (uint64_t)st.st_size;
    if (m->size == 0)
        return 0;
    if (m->size > (uint64_t)SIZE_MAX) {
        snprintf(err->msg, sizeof err->msg, "%s is too large to map", what);
        err->kind = NNAV_ERR_INPUT;
        return -1;
    }
    void *p = mmap(NULL, (size_t)m->size, PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        snprintf(err->msg, sizeof err->msg, "cannot map %s: %s", what, strerror(errno));
        err->kind = NNAV_ERR_INPUT;
        return -1;
    }
    /* Structure is read front to back once, payloads on demand. */
    madvise(p, (size_t)m->size, MADV_RANDOM);
    m->base = p;
    m->slot = guard_add(m->base, m->size);
    return 0;
}

int nnav_map_open(const char *path, nnav_map *m, nnav_error *err)
{
    memset(m, 0, sizeof *m);
    m->slot = -1;
    /* Not a regular file: said without opening it (opening a device can do
     * things, opening a FIFO waits for a writer). The descriptor is checked
     * again below: the name may change hands in between. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return not_regular(&st, "the model", err);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) {
        snprintf(err->msg, sizeof err->msg, "cannot open: %s", strerror(errno));
        err->kind = NNAV_ERR_INPUT;
        return -1;
    }
    int r = nnav_map_fd(fd, "the model", m, err);
    close(fd);
    return r;
}

void nnav_map_close(nnav_map *m)
{
    if (m->slot >= 0) {
        guard[m->slot].lo = 0;
        guard[m->slot].hi = 0;
    }
    if (m->base)
        munmap((void *)m->base, (size_t)m->size);
    m->base = NULL;
    m->size = 0;
    m->slot = -1;
}

int nnav_map_truncated(const nnav_map *m)
{
    return m->slot >= 0 && guard[m->slot].truncated;
}
