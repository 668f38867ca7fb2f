/* readers.c - the table of format readers, the content sniffing that picks
 * one, and the open path: find the model file, map it, say what it is when
 * it is no model (sniff.c), choose the reader, let it index the file, then
 * run the index-wide passes. The index (src/index/) never names a reader:
 * it calls one only through m->reader (reader.h). */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loadscan.h"
#include "readers.h"
#include "sniff.h"
#include "wire.h"

/* ---- the table ---- */

static const nnav_reader *const readers[] = {&nnav_reader_onnx, &nnav_reader_tf,
                                              &nnav_reader_pt, &nnav_reader_safetensors,
                                              &nnav_reader_gguf};

const nnav_reader *nnav_reader_for(nnav_format f)
{
    for (size_t i = 0; i < sizeof readers / sizeof *readers; i++)
        if (readers[i]->formats >> f & 1)
            return readers[i];
    return NULL;
}

const char *nnav_format_name(nnav_format f)
{
    if (f == NNAV_FMT_OTHER)
        return "another format";
    const nnav_reader *r = (unsigned)f < NNAV_FMT_OTHER ? nnav_reader_for(f) : NULL;
    return r && r->format_names[f] ? r->format_names[f] : "unknown";
}

void nnav_readable_formats(char *buf, size_t n)
{
    size_t o = 0, k = sizeof readers / sizeof *readers;
    if (!n)
        return;
    buf[0] = 0;
    for (size_t i = 0; i < k && o < n; i++) {
        const nnav_reader *r = readers[i];
        int w = snprintf(buf + o, n - o, "%s%s%s%s%s", i == 0 ? "" : i + 1 < k ? ", " : " and ",
                         r->name, r->reads ? " (" : "", r->reads ? r->reads : "",
                         r->reads ? ")" : "");
        o += w > 0 ? (size_t)w : 0;
    }
}

/* The file's name is as the reader's files are named (its suffix). */
static int named_as(const nnav_reader *r, const char *path)
{
    size_t pn = strlen(path), xn = r->suffix ? strlen(r->suffix) : 0;
    return xn && pn > xn && !strcmp(path + pn - xn, r->suffix);
}

/* Whether any reader's files are named as this one is. */
static int reader_named(const char *path)
{
    for (size_t i = 0; i < sizeof readers / sizeof *readers; i++)
        if (named_as(readers[i], path))
            return 1;
    return 0;
}

/* The reader of a sniff whose files are named so, for a file no reader's
 * content sniffing claimed: it says what is wrong in its words. */
static const nnav_reader *reader_by_name(const char *path)
{
    for (size_t i = 0; i < sizeof readers / sizeof *readers; i++)
        if (readers[i]->sniff && named_as(readers[i], path))
            return readers[i];
    return NULL;
}

int nnav_load_scan_open(const char *path, nnav_load_scan **out, nnav_error *err)
{
    /* The readers whose loaders can run code; a file none can scan says so. */
    for (size_t i = 0; i < sizeof readers / sizeof *readers; i++)
        if (readers[i]->scan_open)
            return readers[i]->scan_open(path, out, err);
    *out = NULL;
    memset(err, 0, sizeof *err);
    snprintf(err->msg, sizeof err->msg, "no reader scans what loading a file would run");
    err->kind = NNAV_ERR_INPUT;
    return -1;
}

/* Top-level field numbers the sniffing tells formats apart by: SavedModel's
 * meta_graphs, MetaGraphDef's meta_info_def and graph_def, GraphDef's node,
 * MetaInfoDef's stripped_op_list and tags. */
enum { SM_META = 2 };
enum { MG_INFO = 1, MG_GRAPH = 2 };
enum { GD_NODE = 1 };
enum { MI_OPS = 2, MI_TAGS = 4 };

/* ---- a folder given as the model ----
 * A reader's folder op names the file that is the whole model (a
 * SavedModel's saved_model.pb, a weights index); a Hugging Face cache
 * repository (models--ORG--NAME, with refs/main and snapshots/) is its
 * snapshot of refs/main; any other folder is no one model, and the error
 * lists the model files it holds, by their names' endings. */

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    char *p = malloc(n + strlen(name) + 2);
    if (p)
        sprintf(p, "%.*s/%s", (int)n, dir, name);
    return p;
}

/* The reader whose files end in `name`'s ending; NULL: none. */
static const nnav_reader *by_ending(const char *name)
{
    const char *dot = strrchr(name, '.');
    if (!dot || dot == name || !dot[1])
        return NULL;
    size_t dn = strlen(dot + 1);
    for (size_t i = 0; i < sizeof readers / sizeof *readers; i++)
        for (const char *e = readers[i]->exts; e && *e;) {
            size_t k = strcspn(e, " ");
            if (k == dn && !strncasecmp(e, dot + 1, k))
                return readers[i];
            e += k + (e[k] == ' ');
        }
    return NULL;
}

void nnav_size_text(uint64_t b, char *buf, size_t n)
{
    static const char *const u[] = {"B", "KB", "MB", "GB", "TB"};
    double v = (double)b;
    int k = 0;
    while (v >= 1000 && k < 4)
        v /= 1000, k++;
    snprintf(buf, n, k ? "%.1f %s" : "%.0f %s", v, u[k]);
}

static int by_found(const void *a, const void *b)
{
    return strcmp(((const nnav_folder_entry *)a)->name, ((const nnav_folder_entry *)b)->name);
}

static void found_add(nnav_folder_entry *f, unsigned *nf, unsigned max, const char *dir, const char *name,
                      const char *kind)
{
    char *p = join(dir, name);
    struct stat st;
    if (*nf < max && p && stat(p, &st) == 0 && S_ISREG(st.st_mode) && strlen(name) < 256) {
        snprintf(f[*nf].name, sizeof f[*nf].name, "%s", name);
        f[*nf].kind = kind;
        f[*nf].size = (uint64_t)st.st_size;
        (*nf)++;
    }
    free(p);
}

/* The file a reader opens as the whole model in folder `path`, as
 * "SUB/NAME" into name; its reader, or NULL. */
static const nnav_reader *folder_model(const char *path, const char *sub, char *name, size_t n)
{
    char *p = join(path, sub);
    int fd = p ? open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
    free(p);
    const nnav_reader *r = NULL;
    char nm[256];
    for (size_t i = 0; fd >= 0 && !r && i < sizeof readers / sizeof *readers; i++)
        if (readers[i]->folder && readers[i]->folder(fd, nm, sizeof nm) == 1 &&
            strlen(sub) + strlen(nm) + 2 <= n) {
            snprintf(name, n, "%s/%s", sub, nm);
            r = readers[i];
        }
    if (fd >= 0)
        close(fd);
    return r;
}

/* The model files of folder `path` (and of its folders, one level down:
 * a folder that is one model is one file), listed into buf by name:
 * "a.onnx (ONNX, 1.2 MB), onnx/model.onnx (ONNX, 3 KB)"; how many in
 * *count. */
size_t nnav_folder_models(const char *path, nnav_folder_entry **out)
{
    enum { MAX_FOUND = 256 };
    nnav_folder_entry *f = calloc(MAX_FOUND, sizeof *f);
    unsigned nf = 0, seen = 0;
    *out = NULL;
    DIR *d = f ? opendir(path) : NULL;
    if (!d) {
        free(f);
        return 0;
    }
    struct dirent *de;
    while ((de = readdir(d)) && seen++ < 10000) {
        if (de->d_name[0] == '.')
            continue;
        char *p = join(path, de->d_name);
        struct stat st;
        int isdir = p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
        if (!isdir) {
            free(p);
            if (by_ending(de->d_name))
                found_add(f, &nf, MAX_FOUND, path, de->d_name, by_ending(de->d_name)->name);
            continue;
        }
        char one[256];
        const nnav_reader *r = folder_model(path, de->d_name, one, sizeof one);
        if (r) {
            found_add(f, &nf, MAX_FOUND, path, one, r->name);
            free(p);
            continue;
        }
        DIR *d2 = opendir(p);
        struct dirent *e2;
        unsigned seen2 = 0;
        while (d2 && (e2 = readdir(d2)) && seen2++ < 10000) {
            char sub[256];
            if (e2->d_name[0] == '.' || !by_ending(e2->d_name) ||
                strlen(de->d_name) + strlen(e2->d_name) + 2 > sizeof sub)
                continue;
            snprintf(sub, sizeof sub, "%s/%s", de->d_name, e2->d_name);
            found_add(f, &nf, MAX_FOUND, path, sub, by_ending(e2->d_name)->name);
        }
        if (d2)
            closedir(d2);
        free(p);
    }
    closedir(d);
    qsort(f, nf, sizeof *f, by_found);
    if (!nf) {
        free(f);
        return 0;
    }
    *out = f;
    return nf;
}

static void list_models(const char *path, char *buf, size_t n, unsigned *count)
{
    nnav_folder_entry *f;
    size_t nf = nnav_folder_models(path, &f), k = 0;
    buf[0] = 0;
    for (size_t i = 0; i < nf && k < n - 1; i++) {
        char sz[32], e[300];
        nnav_size_text(f[i].size, sz, sizeof sz);
        nnav_text_escape((const uint8_t *)f[i].name, strlen(f[i].name), e, sizeof e);
        k += (size_t)snprintf(buf + k, n - k, "%s%s (%s, %s)", k ? ", " : "", e, f[i].kind, sz);
        if (k >= n)
            k = n - 1;
    }
    *count = (unsigned)nf;
    free(f);
}

/* A Hugging Face cache repository: its snapshot of refs/main, malloc'd;
 * NULL when path is none. */
static char *hf_snapshot(const char *path)
{
    char *ref = join(path, "refs/main"), *snaps = join(path, "snapshots");
    struct stat st;
    char rev[128];
    char *out = NULL;
    FILE *f = NULL;
    if (ref && snaps && stat(snaps, &st) == 0 && S_ISDIR(st.st_mode) && (f = fopen(ref, "r"))) {
        size_t k = fread(rev, 1, sizeof rev - 1, f);
        rev[k] = 0;
        while (k && (rev[k - 1] == '\n' || rev[k - 1] == ' '))
            rev[--k] = 0;
        int ok = k > 0 && k < 100;
        for (size_t i = 0; i < k; i++)
            ok &= (rev[i] >= '0' && rev[i] <= '9') || (rev[i] >= 'a' && rev[i] <= 'z') ||
                  (rev[i] >= 'A' && rev[i] <= 'Z');
        if (ok)
            out = join(snaps, rev);
        fclose(f);
    }
    free(ref);
    free(snaps);
    return out;
}

int nnav_folder_is_one(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return 1;
    char *file = NULL;
    nnav_error e;
    int r = nnav_model_folder(path, &file, &e);
    free(file);
    return r != -1;
}

int nnav_model_folder(const char *path, char **file, nnav_error *err)
{
    struct stat st;
    *file = NULL;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return 0; /* not a folder: opening the file says what is wrong */
    char *snap = hf_snapshot(path);
    const char *dir = snap ? snap : path;
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    char name[256];
    for (size_t i = 0; fd >= 0 && i < sizeof readers / sizeof *readers; i++)
        if (readers[i]->folder && readers[i]->folder(fd, name, sizeof name) == 1) {
            close(fd);
            *file = join(dir, name);
            free(snap);
            if (!*file) {
                nnav_err_set(err, 0, 0, "out of memory");
                return -1;
            }
            return 1;
        }
    if (fd >= 0)
        close(fd);
    char list[400];
    unsigned count;
    list_models(dir, list, sizeof list, &count);
    if (count)
        nnav_err_set(err, 0, 0, "a folder of %u model file%s, not one model: give one of them "
                                "(%s%s)",
                     count, count == 1 ? "" : "s", list, strlen(list) >= sizeof list - 1 ? "..." : "");
    else
    {
        char fmts[300];
        nnav_readable_formats(fmts, sizeof fmts);
        nnav_err_set(err, 0, 0, "a folder with no model file in it (no saved_model.pb, "
                                "no weights index, no file named as a model file is); nnav "
                                "reads %s", fmts);
    }
    err->kind = NNAV_ERR_INPUT;
    free(snap);
    return -1;
}

/* ---- which reading: decided by content ----
 *
 * The four candidates differ in their top-level fields: ModelProto has a
 * varint ir_version (1) and a graph (7); SavedModel a varint version (1) and
 * MetaGraphDefs (2); MetaGraphDef only messages in 1..7; GraphDef NodeDefs
 * (1), a library (2), a varint version (3), versions (4). Where the numbers
 * alone could fit two readings, the first payloads are looked into: a
 * NodeDef holds text in fields 1 and 2, a MetaInfoDef an OpList and tags. */

typedef struct rule { uint8_t num, wt; } rule;

static const rule r_onnx[] = {{1, 0}, {2, 2}, {3, 2}, {4, 2}, {5, 0}, {6, 2}, {7, 2},
                              {8, 2}, {14, 2}, {20, 2}, {25, 2}, {26, 2}, {0, 0}};
static const rule r_saved[] = {{1, 0}, {2, 2}, {0, 0}};
static const rule r_meta[] = {{1, 2}, {2, 2}, {3, 2}, {4, 2}, {5, 2}, {6, 2}, {7, 2}, {0, 0}};
static const rule r_graph[] = {{1, 2}, {2, 2}, {3, 0}, {4, 2}, {5, 2}, {0, 0}};
static const rule r_info[] = {{1, 2}, {2, 2}, {3, 2}, {4, 2}, {5, 2}, {6, 2}, {7, 0}, {8, 2},
                              {0, 0}};
static const rule r_node[] = {{1, 2}, {2, 2}, {3, 2}, {4, 2}, {5, 2}, {6, 2}, {7, 2}, {0, 0}};
static const rule r_oplist[] = {{1, 2}, {0, 0}};
static const rule r_opdef[] = {{1, 2}, {2, 2}, {3, 2}, {4, 2}, {5, 2}, {6, 2}, {8, 2},
                               {16, 0}, {17, 0}, {18, 0}, {19, 0}, {20, 2}, {21, 0}, {0, 0}};

static int rule_ok(const rule *r, uint32_t num, uint8_t wt)
{
    for (; r->num; r++)
        if (r->num == num)
            return r->wt == wt;
    return 0;
}

/* Every field of the message fits the rules (and there is at least one);
 * `first` gets the payload of the first LEN field numbered `want`. */
static int fits(nnav_span s, const rule *r, uint32_t want, nnav_span *first)
{
    nnav_wire w;
    nnav_field f;
    nnav_error e;
    int k, n = 0;
    if (first)
        *first = (nnav_span){0};
    nnav_wire_init(&w, s.p, s);
    while ((k = nnav_wire_next(&w, &f, &e)) == 1) {
        if (!rule_ok(r, f.num, f.wt))
            return 0;
        if (first && !first->p && f.num == want && f.wt == NNAV_WT_LEN)
            *first = f.s;
        n++;
    }
    return k == 0 && n > 0;
}

static int is_text(nnav_span s)
{
    if (s.n == 0 || s.n > 4096)
        return 0;
    for (uint64_t i = 0; i < s.n; i++)
        if (s.p[i] < 0x20 || s.p[i] > 0x7e)
            return 0;
    return 1;
}

static int looks_nodedef(nnav_span s)
{
    nnav_span name, op;
    return fits(s, r_node, 1, &name) && fits(s, r_node, 2, &op) && is_text(op) &&
           (!name.p || is_text(name));
}

static int looks_graphdef(nnav_span s)
{
    nnav_span node;
    if (!fits(s, r_graph, GD_NODE, &node))
        return 0;
    return node.p ? looks_nodedef(node) : 1;
}

static int looks_metainfo(nnav_span s)
{
    nnav_span ops, tag;
    if (!fits(s, r_info, MI_OPS, &ops) || !fits(s, r_info, MI_TAGS, &tag))
        return 0;
    if (ops.p) {
        nnav_span op;
        if (!fits(ops, r_oplist, 1, &op) || (op.p && !fits(op, r_opdef, 0, NULL)))
            return 0;
    }
    return !tag.p || is_text(tag);
}

static int looks_metagraph(nnav_span s)
{
    nnav_span info, graph;
    if (!fits(s, r_meta, MG_INFO, &info) || !fits(s, r_meta, MG_GRAPH, &graph))
        return 0;
    if (!info.p && !graph.p)
        return 0;
    return (!info.p || looks_metainfo(info)) && (!graph.p || looks_graphdef(graph));
}

/* A message cut by the end of the file: do the fields it still holds (the
 * last one may be cut) fit the rules? */
static int prefix_fits(const uint8_t *p, const uint8_t *end, const rule *r)
{
    int n = 0;
    while (p < end) {
        uint64_t tag, len;
        if (nnav_wire_varint(&p, end, &tag) != 0)
            return n > 0;
        if (!rule_ok(r, (uint32_t)(tag >> 3), tag & 7))
            return 0;
        n++;
        if ((tag & 7) == NNAV_WT_VARINT) {
            if (nnav_wire_varint(&p, end, &len) != 0)
                return 1;
        } else if ((tag & 7) == NNAV_WT_LEN) {
            if (nnav_wire_varint(&p, end, &len) != 0 || len > (uint64_t)(end - p))
                return 1;
            p += len;
        } else {
            return 0;
        }
    }
    return n > 0;
}

/* The field the top-level scan stopped at, when the file ends inside it:
 * its number and the bytes of its payload that are there. */
static int cut_field(const uint8_t *p, const uint8_t *end, uint32_t *num, const uint8_t **payload)
{
    uint64_t tag, len;
    if (nnav_wire_varint(&p, end, &tag) != 0 || (tag & 7) != NNAV_WT_LEN ||
        nnav_wire_varint(&p, end, &len) != 0 || len <= (uint64_t)(end - p) || p == end)
        return 0;
    *num = (uint32_t)(tag >> 3);
    *payload = p;
    return 1;
}

nnav_format nnav_sniff_proto(const nnav_model *m, char *reason, size_t rn)
{
    nnav_span file = {m->map.base, m->map.size};
    /* Top level: which numbers with which wire types, up to the first fault
     * (a file cut short is judged by what it still holds). */
    uint32_t fields = 0, onnx_ok = 1, saved_ok = 1, meta_ok = 1, graph_ok = 1, high = 0;
    int has[32] = {0};
    nnav_span first2 = {0}, first1 = {0};
    nnav_wire w;
    nnav_field f;
    nnav_error e;
    nnav_wire_init(&w, file.p, file);
    int k;
    while ((k = nnav_wire_next(&w, &f, &e)) == 1 && fields < 100000) {
        fields++;
        onnx_ok &= rule_ok(r_onnx, f.num, f.wt);
        saved_ok &= rule_ok(r_saved, f.num, f.wt);
        meta_ok &= rule_ok(r_meta, f.num, f.wt);
        graph_ok &= rule_ok(r_graph, f.num, f.wt) || f.num > 5;
        if (f.num < 32)
            has[f.num] = 1;
        high |= f.num > 5;
        if (f.num == SM_META && f.wt == NNAV_WT_LEN && !first2.p)
            first2 = f.s;
        if (f.num == GD_NODE /* and MG_INFO */ && f.wt == NNAV_WT_LEN && !first1.p)
            first1 = f.s;
    }
    /* A file cut short inside a message: what its payload starts with. */
    uint32_t cut_num = 0;
    const uint8_t *cut_payload = NULL, *fend = file.p + file.n;
    if (k < 0 && w.p < fend && cut_field(w.p, fend, &cut_num, &cut_payload)) {
        if (cut_num == SM_META && saved_ok && prefix_fits(cut_payload, fend, r_meta)) {
            snprintf(reason, rn, "read as a TensorFlow SavedModel: the file ends inside field 2, "
                                 "which starts like a MetaGraphDef");
            return NNAV_FMT_TF_SAVEDMODEL;
        }
        if (cut_num == GD_NODE && graph_ok && !onnx_ok) {
            if (prefix_fits(cut_payload, fend, r_node) && !prefix_fits(cut_payload, fend, r_info)) {
                snprintf(reason, rn, "read as a TensorFlow GraphDef: the file ends inside field "
                                     "1, which starts like a NodeDef");
                return NNAV_FMT_TF_GRAPHDEF;
            }
        }
        if (cut_num == GD_NODE && meta_ok && fields == 0 && prefix_fits(cut_payload, fend, r_info)) {
            snprintf(reason, rn, "read as a TensorFlow MetaGraphDef: the file ends inside field "
                                 "1, which starts like a MetaInfoDef");
            return NNAV_FMT_TF_METAGRAPH;
        }
    }
    if (fields == 0) {
        snprintf(reason, rn, "read as an ONNX ModelProto (no complete protobuf field to tell "
                             "formats apart)");
        return NNAV_FMT_ONNX;
    }
    if (saved_ok && has[2] && looks_metagraph(first2)) {
        if (onnx_ok)
            snprintf(reason, rn, "read as a TensorFlow SavedModel: field 2 holds a MetaGraphDef "
                                 "(an ONNX ModelProto would have a producer name there, and a "
                                 "graph in field 7)");
        else
            snprintf(reason, rn, "read as a TensorFlow SavedModel: a schema version and "
                                 "MetaGraphDefs");
        return NNAV_FMT_TF_SAVEDMODEL;
    }
    if (onnx_ok) {
        snprintf(reason, rn, "read as an ONNX ModelProto");
        return NNAV_FMT_ONNX;
    }
    int graph_like = graph_ok && !has[5] && (first1.p ? looks_nodedef(first1) : has[4] || has[2]);
    int meta_like = meta_ok && looks_metagraph(file);
    if (graph_like && graph_ok && has[3])
        meta_like = 0;
    if (meta_like && graph_like) {
        /* Both fit: field 1 decides, NodeDef text or a MetaInfoDef. */
        if (looks_metainfo(first1) && !looks_nodedef(first1))
            graph_like = 0;
        else
            meta_like = 0;
        snprintf(reason, rn, meta_like ? "read as a TensorFlow MetaGraphDef: its fields also fit "
                                         "a GraphDef, but field 1 holds a MetaInfoDef (tags, "
                                         "op list), not a node"
                                       : "read as a TensorFlow GraphDef: its fields also fit a "
                                         "MetaGraphDef, but field 1 holds a node (name and op "
                                         "text), not a MetaInfoDef");
        return meta_like ? NNAV_FMT_TF_METAGRAPH : NNAV_FMT_TF_GRAPHDEF;
    }
    if (meta_like) {
        snprintf(reason, rn, "read as a TensorFlow MetaGraphDef: meta info and a GraphDef, "
                             "no SavedModel around them");
        return NNAV_FMT_TF_METAGRAPH;
    }
    if (graph_like || (graph_ok && first1.p && looks_nodedef(first1))) {
        snprintf(reason, rn, "read as a TensorFlow GraphDef: NodeDefs at the top level%s",
                 has[5] ? " (and a debug_info field 5)" : "");
        return NNAV_FMT_TF_GRAPHDEF;
    }
    /* Top-level fields that all fit a GraphDef (nodes, versions, library;
     * none of ONNX's graph, opsets...) and not a ModelProto: a GraphDef whose
     * first node is damaged is still a GraphDef, and its own reader names
     * the damage better than ONNX's would. */
    if (graph_ok && has[1] && !high) {
        snprintf(reason, rn, "read as a TensorFlow GraphDef: its top-level fields fit a GraphDef "
                             "and not an ONNX ModelProto (its first node does not read cleanly)");
        return NNAV_FMT_TF_GRAPHDEF;
    }
    snprintf(reason, rn, "read as an ONNX ModelProto (its fields fit no TensorFlow message "
                         "either)");
    return NNAV_FMT_ONNX;
}

/* ---- open ---- */

/* Whether the file starts with one whole protobuf field. */
static int first_field(const nnav_model *m)
{
    nnav_wire w;
    nnav_field f;
    nnav_error e;
    nnav_span file = {m->map.base, m->map.size};
    nnav_wire_init(&w, file.p, file);
    return nnav_wire_next(&w, &f, &e) == 1;
}

/* A file that no reader's magic claimed, whose first bytes are no protobuf
 * field either: no file of a format nnav reads, said as every refusal is. */
static void no_format(nnav_error *err)
{
    char list[400];
    nnav_readable_formats(list, sizeof list);
    memset(err, 0, sizeof *err);
    nnav_err_set(err, 0, 0, "this is no model file nnav reads: it starts with no magic number "
                            "of a format nnav knows, and not as protobuf; nnav reads %s", list);
    err->kind = NNAV_ERR_INPUT;
}

static char *dup_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return strdup(".");
    if (slash == path)
        return strdup("/");
    size_t n = (size_t)(slash - path);
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, path, n);
        d[n] = 0;
    }
    return d;
}

int nnav_model_open(const char *path, const nnav_open_opts *opts, nnav_model **out,
                    nnav_error *err)
{
    memset(err, 0, sizeof *err);
    *out = NULL;
    nnav_model *m = calloc(1, sizeof *m);
    if (!m) {
        nnav_err_set(err, 0, 0, "out of memory");
        return -1;
    }
    m->map.slot = -1;
    m->facts.ir_version = m->facts.model_version = -1;
    int sniffed_proto = 0; /* read as protobuf for want of a magic number */
    /* A SavedModel folder opens its saved_model.pb; the folder is where the
     * variables are found. */
    char *inner = NULL;
    int folder = nnav_model_folder(path, &inner, err);
    if (folder < 0)
        goto fail;
    m->path = folder ? inner : strdup(path);
    m->dir = dup_dir(m->path ? m->path : path);
    if (!m->path || !m->dir) {
        nnav_err_set(err, 0, 0, "out of memory");
        goto fail;
    }
    m->facts.path = m->path;
    m->follow_links = opts && opts->follow_links;
    if (nnav_map_open(m->path, &m->map, err) < 0)
        goto fail;
    m->facts.file_size = m->map.size;
    if (m->map.size == 0) {
        nnav_err_set(err, 0, 0, "the file is empty: not a model");
        goto fail;
    }
    for (size_t i = 0; i < sizeof readers / sizeof *readers && !m->reader; i++)
        if (readers[i]->sniff && readers[i]->sniff(m->map.base, m->map.size, m->path,
                                                   m->format_reason, sizeof m->format_reason)) {
            m->reader = readers[i];
            m->facts.format = NNAV_FMT_OTHER;
        }
    if (m->reader) {
        /* the reader's own format: its sniff said why */
    } else if (nnav_pt_sniff(m->map.base, m->map.size)) {
        m->facts.format = NNAV_FMT_PYTORCH;
        snprintf(m->format_reason, sizeof m->format_reason,
                 "read as a PyTorch checkpoint: a zip whose entries are a torch.save archive's");
    } else if (nnav_sniff_other(m->map.base, m->map.size, err) < 0) {
        goto fail;
    } else if (!(opts && opts->force > 0) && (m->reader = reader_by_name(m->path)) != NULL) {
        /* Named as the reader's files, but its content is not what the
         * reader's sniffing knows: the reader names the fault. */
        m->facts.format = NNAV_FMT_OTHER;
        snprintf(m->format_reason, sizeof m->format_reason,
                 "read as %s, as the file's name says (its content does not start as one)",
                 m->reader->name);
    } else if (opts && opts->force > 0 && opts->force <= NNAV_FMT_TF_GRAPHDEF + 1) {
        m->facts.format = (nnav_format)(opts->force - 1);
        snprintf(m->format_reason, sizeof m->format_reason, "read as %s, as asked",
                 nnav_format_name(m->facts.format));
    } else {
        m->facts.format = nnav_sniff_proto(m, m->format_reason, sizeof m->format_reason);
        sniffed_proto = 1;
    }
    m->facts.format_reason = m->format_reason;
    if (!m->reader)
        m->reader = nnav_reader_for(m->facts.format);
    if (!m->reader) {
        nnav_err_set(err, 0, 0, "no reader for %s", nnav_format_name(m->facts.format));
        goto fail;
    }
    m->facts.format_name = m->facts.format == NNAV_FMT_OTHER ? m->reader->name
                                                             : nnav_format_name(m->facts.format);
    m->facts.reader_name = m->reader->name;
    m->facts.traits = m->reader->traits;
    m->facts.op_family = m->reader->op_family;
    if (m->reader->index(m, opts, err) < 0) {
        if (sniffed_proto && !reader_named(m->path) && !first_field(m))
            no_format(err);
        goto fail;
    }
    if (nnav_index_link(m, err) < 0)
        goto fail;
    if (nnav_map_truncated(&m->map)) {
        nnav_err_set(err, 0, 0, "the file shrank while it was being read");
        goto fail;
    }
    *out = m;
    return 0;
fail:
    if (!err->kind)
        err->kind = NNAV_ERR_INPUT;
    nnav_model_close(m);
    return -1;
}

