/* export.c - writing a selection out: which functions come along, and the
 * safe file dance (no symlinks, never the input, never a partial file). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export.h"
#include "model.h"

int nnav_export_functions(const nnav_model *m, const nnav_selection *sel, uint32_t **out,
                          size_t *n)
{
    *out = NULL;
    *n = 0;
    if (m->functions.n == 0)
        return 0;
    uint8_t *used = calloc(m->functions.n, 1);
    uint8_t *gseen = calloc((size_t)m->graphs.n + 1, 1);
    NNAV_VEC(uint32_t) stack = {0};
    int rc = -1;
    if (!used || !gseen)
        goto out;
    /* Nodes of the selection, then every graph below them, then function
     * bodies as they are found: all iterative. */
    for (size_t i = 0; i < sel->n_nodes; i++) {
        const nnav_node *nd = &m->nodes.v[sel->nodes[i]];
        if (nd->function != NNAV_NONE && !used[nd->function]) {
            used[nd->function] = 1;
            uint32_t *p = nnav_vec_push(stack);
            if (!p)
                goto out;
            *p = m->functions.v[nd->function].graph;
        }
        for (uint32_t a = 0; a < nd->attr_count; a++) {
            const nnav_attr *at = &m->attrs.v[nd->attr_first + a];
            for (uint32_t k = 0; k < at->graph_count; k++) {
                uint32_t *p = nnav_vec_push(stack);
                if (!p)
                    goto out;
                *p = at->graph_first + k;
            }
        }
    }
    while (stack.n) {
        uint32_t g = stack.v[--stack.n];
        if (gseen[g])
            continue;
        gseen[g] = 1;
        const nnav_graph *gr = &m->graphs.v[g];
        for (uint32_t nn = gr->node_first; nn < gr->node_first + gr->node_count; nn++) {
            const nnav_node *nd = &m->nodes.v[nn];
            if (nd->function != NNAV_NONE && !used[nd->function]) {
                used[nd->function] = 1;
                uint32_t *p = nnav_vec_push(stack);
                if (!p)
                    goto out;
                *p = m->functions.v[nd->function].graph;
            }
        }
        for (uint32_t c = 0; c < gr->child_count; c++) {
            uint32_t *p = nnav_vec_push(stack);
            if (!p)
                goto out;
            *p = m->children.v[gr->child_first + c];
        }
    }
    *out = malloc(((size_t)m->functions.n + 1) * sizeof **out);
    if (!*out)
        goto out;
    for (uint32_t f = 0; f < m->functions.n; f++)
        if (used[f])
            (*out)[(*n)++] = f;
    rc = 0;
out:
    free(used);
    free(gseen);
    nnav_vec_free(stack);
    return rc;
}

static nnav_export_opts defaults(const nnav_export_opts *o)
{
    nnav_export_opts d = {NNAV_EXPORT_YAML, 16, 0, 0, NULL, 0};
    return o ? *o : d;
}

int nnav_export_stream(const nnav_model *m, const nnav_selection *sel,
                       const nnav_export_opts *o, FILE *out, nnav_error *err)
{
    nnav_export_opts d = defaults(o);
    memset(err, 0, sizeof *err);
    if (d.format != NNAV_EXPORT_YAML) {
        nnav_err_set(err, 0, 0, "ONNX output needs a file name (-o FILE)");
        err->kind = NNAV_ERR_USAGE;
        return -1;
    }
    int rc = nnav_export_yaml(m, sel, &d, out, err);
    if (rc == 0 && nnav_map_truncated(&m->map)) {
        nnav_err_set(err, 0, 0, "the model file shrank while it was exported");
        rc = -1;
    }
    return rc;
}

/* ---- the safe file dance ---- */

static int refuse(nnav_error *err, const char *path, const char *why, nnav_err_kind kind)
{
    char p[1024];
    nnav_text_escape_cstr(path, p, sizeof p);
    /* The reason first: a long path must not push it off a status line. */
    nnav_err_set(err, 0, 0, "refused to write: %s: %s", why, p);
    err->kind = kind;
    return -1;
}

/* Files the export must never replace: every file the model reads, told
 * by device and inode (a hard link, a symbolic link or another spelling of
 * the path is the same file): the model, a SavedModel's
 * variables/variables.index, and every external data file a tensor names
 * (a TensorFlow variables shard, an ONNX data file, wherever the tensor sits).
 * The file's name goes into what, for the refusal. */
typedef struct input_probe {
    const nnav_model *m;
    struct stat st;      /* the target */
    char what[300];      /* the input it is, when found */
} input_probe;

static int same_file(const input_probe *pr, const char *rel, size_t n)
{
    char p[4096];
    struct stat ds;
    if (n > 2000)
        return 0; /* no such path can be opened; the model never read it */
    snprintf(p, sizeof p, "%s/%.*s", pr->m->dir, (int)n, rel);
    return stat(p, &ds) == 0 && ds.st_dev == pr->st.st_dev && ds.st_ino == pr->st.st_ino;
}

static int probe_location(void *cx, nnav_span loc)
{
    input_probe *pr = cx;
    if (!same_file(pr, (const char *)loc.p, (size_t)loc.n))
        return 0;
    char esc[256];
    nnav_text_escape(loc.p, (size_t)loc.n, esc, sizeof esc);
    snprintf(pr->what, sizeof pr->what, "its external data file %s", esc);
    return 1;
}

/* A file the reader opens beside the model (reader.h's side_files). */
static int probe_side_file(void *cx, const char *rel)
{
    input_probe *pr = cx;
    if (!same_file(pr, rel, strlen(rel)))
        return 0;
    snprintf(pr->what, sizeof pr->what, "its %s", rel);
    return 1;
}

static int is_input(const nnav_model *m, const struct stat *st, char *what, size_t n)
{
    input_probe pr;
    pr.m = m;
    pr.st = *st;
    pr.what[0] = 0;
    if (st->st_dev == m->map.dev && st->st_ino == m->map.ino)
        snprintf(pr.what, sizeof pr.what, "the model file");
    else if (!m->reader->side_files || !m->reader->side_files(m, probe_side_file, &pr))
        nnav_export_locations(m, probe_location, &pr);
    snprintf(what, n, "%s", pr.what);
    return pr.what[0] != 0;
}

static int check_target(const nnav_model *m, const char *path, nnav_error *err)
{
    struct stat st, to;
    char what[300], why[400];
    if (lstat(path, &st) == 0) {
        if (S_ISLNK(st.st_mode)) {
            if (stat(path, &to) == 0 && is_input(m, &to, what, sizeof what)) {
                snprintf(why, sizeof why, "it is a symbolic link to the model being read (or "
                         "its data): %s", what);
                return refuse(err, path, why, NNAV_ERR_INPUT);
            }
            return refuse(err, path, "it is a symbolic link (nnav never writes through one)", NNAV_ERR_INPUT);
        }
        if (!S_ISREG(st.st_mode))
            return refuse(err, path, "it exists and is not a regular file", NNAV_ERR_INPUT);
        if (is_input(m, &st, what, sizeof what)) {
            snprintf(why, sizeof why, "it is the model being read (or its data): %s", what);
            return refuse(err, path, why, NNAV_ERR_INPUT);
        }
    } else if (errno != ENOENT) {
        return refuse(err, path, strerror(errno), NNAV_ERR_INPUT);
    }
    char *copy = strdup(path);
    if (!copy)
        return refuse(err, path, "out of memory", NNAV_ERR_INPUT);
    const char *dir = dirname(copy);
    struct stat ds;
    int rc = 0;
    if (stat(dir, &ds) != 0)
        rc = refuse(err, path, errno == ENOENT ? "its folder does not exist" : strerror(errno), NNAV_ERR_INPUT);
    else if (!S_ISDIR(ds.st_mode))
        rc = refuse(err, path, "its folder is not a folder", NNAV_ERR_INPUT);
    free(copy);
    return rc;
}

int nnav_export_check(const nnav_model *m, const char *path, nnav_error *err)
{
    memset(err, 0, sizeof *err);
    return check_target(m, path, err);
}

typedef struct tmpfile_ {
    char *tmp;   /* temporary name, in the target's folder */
    FILE *f;
} tmpfile_;

static int tmp_open(const char *path, tmpfile_ *t, nnav_error *err)
{
    char *copy = strdup(path), *copy2 = strdup(path);
    t->tmp = NULL;
    t->f = NULL;
    if (!copy || !copy2) {
        free(copy);
        free(copy2);
        return refuse(err, path, "out of memory", NNAV_ERR_INPUT);
    }
    const char *dir = dirname(copy), *base = basename(copy2);
    size_t n = strlen(dir) + strlen(base) + 32;
    t->tmp = malloc(n);
    if (t->tmp)
        snprintf(t->tmp, n, "%s/.%s.nnav-XXXXXX", dir, base);
    free(copy);
    free(copy2);
    if (!t->tmp)
        return refuse(err, path, "out of memory", NNAV_ERR_INPUT);
    int fd = mkstemp(t->tmp);
    if (fd < 0) {
        int e = errno;
        free(t->tmp);
        t->tmp = NULL;
        return refuse(err, path, strerror(e), NNAV_ERR_INPUT);
    }
    /* mkstemp makes 0600; a model is an ordinary file: honour the umask. */
    mode_t um = umask(0);
    umask(um);
    fchmod(fd, 0666 & ~um);
    t->f = fdopen(fd, "wb");
    if (!t->f) {
        close(fd);
        unlink(t->tmp);
        free(t->tmp);
        t->tmp = NULL;
        return refuse(err, path, "cannot open a temporary file", NNAV_ERR_INPUT);
    }
    return 0;
}

static void tmp_abort(tmpfile_ *t)
{
    if (t->f)
        fclose(t->f);
    if (t->tmp) {
        unlink(t->tmp);
        free(t->tmp);
    }
    t->f = NULL;
    t->tmp = NULL;
}

/* Flush, sync and rename into place; on any failure the temporary goes. */
static int tmp_commit(tmpfile_ *t, const char *path, uint64_t *size, nnav_error *err)
{
    int e = 0;
    if (fflush(t->f) != 0 || ferror(t->f))
        e = errno ? errno : EIO;
    if (!e && fsync(fileno(t->f)) != 0)
        e = errno;
    struct stat st;
    if (!e && fstat(fileno(t->f), &st) == 0 && size)
        *size = (uint64_t)st.st_size;
    if (fclose(t->f) != 0 && !e)
        e = errno ? errno : EIO;
    t->f = NULL;
    if (!e && rename(t->tmp, path) != 0)
        e = errno;
    if (e) {
        unlink(t->tmp);
        free(t->tmp);
        t->tmp = NULL;
        return refuse(err, path, e == ENOSPC ? "the disk is full (nothing was written)" : strerror(e),
                      2);
    }
    free(t->tmp);
    t->tmp = NULL;
    return 0;
}

int nnav_export_file(const nnav_model *m, const nnav_selection *sel, const nnav_export_opts *o,
                     const char *path, uint64_t *bytes, nnav_error *err)
{
    nnav_export_opts d = defaults(o);
    memset(err, 0, sizeof *err);
    if (bytes)
        *bytes = 0;
    if (check_target(m, path, err) < 0)
        return -1;
    char *data_path = NULL;
    const char *data_name = NULL;
    if (d.format == NNAV_EXPORT_ONNX && d.keep_external) {
        size_t n = strlen(path) + 8;
        data_path = malloc(n);
        if (!data_path)
            return refuse(err, path, "out of memory", NNAV_ERR_INPUT);
        snprintf(data_path, n, "%s.data", path);
        if (check_target(m, data_path, err) < 0) {
            free(data_path);
            return -1;
        }
        data_name = strrchr(data_path, '/') ? strrchr(data_path, '/') + 1 : data_path;
    }
    tmpfile_ t, td = {0};
    if (tmp_open(path, &t, err) < 0) {
        free(data_path);
        return -1;
    }
    if (data_path && tmp_open(data_path, &td, err) < 0) {
        tmp_abort(&t);
        free(data_path);
        return -1;
    }
    int rc = d.format == NNAV_EXPORT_YAML
                 ? nnav_export_yaml(m, sel, &d, t.f, err)
                 : nnav_export_onnx(m, sel, &d, t.f, data_path ? td.f : NULL, data_name, err);
    if (rc == 0 && nnav_map_truncated(&m->map)) {
        nnav_err_set(err, 0, 0, "the model file shrank while it was exported");
        rc = -1;
    }
    if (rc < 0) {
        /* A write error surfaces here as a failed emitter: say which. */
        if (ferror(t.f) || (td.f && ferror(td.f)))
            refuse(err, path, errno == ENOSPC ? "the disk is full (nothing was written)"
                                              : "a write failed (nothing was written)", 2);
        tmp_abort(&t);
        tmp_abort(&td);
        free(data_path);
        return -1;
    }
    if (data_path) {
        uint64_t dsize = 0;
        if (tmp_commit(&td, data_path, &dsize, err) < 0) {
            tmp_abort(&t);
            free(data_path);
            return -1;
        }
        if (bytes)
            *bytes += dsize;
    }
    uint64_t msize = 0;
    rc = tmp_commit(&t, path, &msize, err);
    if (bytes)
        *bytes += msize;
    free(data_path);
    return rc;
}
