/* sniff.c - name the files people open by mistake (sniff.h). Each kind is
 * told by its magic bytes; text is told by having no control bytes in its
 * first 4 KiB, which protobuf cannot avoid (every message starts with a
 * field tag, and tags of the fields a model begins with are below 0x20). */
#include "sniff.h"

#include <string.h>

#include "model.h"
#include "utf8.h"

static int at(const uint8_t *p, uint64_t n, uint64_t off, const char *magic, size_t k)
{
    return off <= n && n - off >= k && memcmp(p + off, magic, k) == 0;
}
#define AT(off, lit) at(p, n, (off), (lit), sizeof(lit) - 1)

static uint64_t skip_space(const uint8_t *p, uint64_t n, uint64_t i, uint64_t lim)
{
    while (i < n && i < lim && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
        i++;
    return i;
}

/* Text: valid UTF-8 with no NUL and no control byte but tab, CR, LF, FF in
 * the first 4 KiB (a character cut by that limit counts as whole), and not
 * white space alone. */
/* A protocol 0 pickle whose first opcode is GLOBAL: "c", a dotted Python
 * name, a newline, a name, a newline; its last byte STOP. */
static int pickle0_global(const uint8_t *p, uint64_t n)
{
    if (n < 6 || p[0] != 'c' || p[n - 1] != '.')
        return 0;
    uint64_t i = 1, lines = 0;
    for (; i < n && i < 256 && lines < 2; i++) {
        uint8_t c = p[i];
        if (c == '\n') {
            if (p[i - 1] == '\n' || p[i - 1] == 'c')
                return 0; /* an empty name */
            lines++;
        } else if (!(c == '_' || c == '.' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
                     (c >= 'A' && c <= 'Z'))) {
            return 0;
        }
    }
    return lines == 2;
}

static int is_text(const uint8_t *p, uint64_t n)
{
    /* 0x0a is also the tag a GraphDef, MetaGraphDef and SavedModel start
     * with (field 1, length-delimited), and a length after it may well be
     * printable: a file starting with a newline is left to the readers. */
    if (n && p[0] == '\n')
        return 0;
    uint64_t lim = n < 4096 ? n : 4096;
    int visible = 0; /* only white space: a protobuf tag 0x0a cut short, say */
    for (uint64_t i = 0; i < lim; i++) {
        uint8_t c = p[i];
        visible |= c > 0x20;
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f') || c == 0x7f)
            return 0;
        if (c < 0x80)
            continue;
        uint32_t cp;
        int k = nnav_utf8_decode(p + i, n - i < 4 ? (size_t)(n - i) : 4, &cp);
        if (!k)
            return 0;
        i += (uint64_t)k - 1;
    }
    return visible;
}

/* Whether `w` occurs in the first 4 KiB. */
static int has_word(const uint8_t *p, uint64_t n, const char *w)
{
    size_t k = strlen(w);
    uint64_t lim = n < 4096 ? n : 4096;
    for (uint64_t i = 0; i + k <= lim; i++)
        if (!memcmp(p + i, w, k))
            return 1;
    return 0;
}

/* YAML: a document marker, or a first line of the form `key: ...`. */
static int looks_yaml(const uint8_t *p, uint64_t n, uint64_t i)
{
    if (AT(i, "---") || AT(i, "%YAML"))
        return 1;
    uint64_t j = i;
    while (j < n && j < i + 128 &&
           ((p[j] >= 'a' && p[j] <= 'z') || (p[j] >= 'A' && p[j] <= 'Z') ||
            (p[j] >= '0' && p[j] <= '9') || p[j] == '_' || p[j] == '-' || p[j] == '.'))
        j++;
    return j > i && j + 1 < n && p[j] == ':' && (p[j + 1] == ' ' || p[j + 1] == '\n');
}

/* A zip archive: what its first entry says it holds. */
static const char *zip_kind(const uint8_t *p, uint64_t n)
{
    /* local file header: 30 bytes, name length at 26, name at 30 */
    if (n < 30)
        return "a zip archive: unzip it first";
    uint64_t len = (uint64_t)p[26] | (uint64_t)p[27] << 8;
    if (len > n - 30)
        len = n - 30;
    const uint8_t *name = p + 30;
    for (uint64_t i = 0; i + 8 <= len; i++)
        if (!memcmp(name + i, "data.pkl", 8))
            return "a zip archive naming a data.pkl that is not laid out as torch.save writes "
                   "a checkpoint (ARCHIVE/data.pkl first)";
    if (len >= 4 && !memcmp(name + len - 4, ".npy", 4))
        return "a NumPy .npz archive of arrays, not a model";
    for (uint64_t i = 0; i + 5 <= len; i++)
        if (!memcmp(name + i, ".onnx", 5) ||
            (i + 11 <= len && !memcmp(name + i, "saved_model", 11)))
            return "a zip archive holding a model: unzip it and open the model inside";
    return "a zip archive, not a model: unzip it first";
}

/* "this is WHAT; nnav reads ONNX (.onnx), ...": a file of no format nnav
 * reads, with the one list of those it does (the reader table's). */
static int refuse(nnav_error *err, const char *what)
{
    char list[400];
    nnav_readable_formats(list, sizeof list);
    nnav_err_set(err, 0, 0, "this is %s; nnav reads %s", what, list);
    return -1;
}

int nnav_sniff_other(const uint8_t *p, uint64_t n, nnav_error *err)
{
    if (AT(0, "version https://git-lfs")) {
        nnav_err_set(err, 0, 0,
                     "this is a git-LFS pointer, not a model: run `git lfs pull` to fetch the "
                     "real file");
        return -1;
    }
    uint64_t i = skip_space(p, n, 0, 64);
    if (i < n && p[i] == '<') {
        char head[16] = {0};
        for (int j = 0; j < 15 && i + (uint64_t)j < n; j++)
            head[j] = (char)(p[i + j] >= 'A' && p[i + j] <= 'Z' ? p[i + j] + 32 : p[i + j]);
        if (!strncmp(head, "<!doctype html", 14) || !strncmp(head, "<html", 5) ||
            !strncmp(head, "<?xml", 5) || !strncmp(head, "<head", 5)) {
            nnav_err_set(err, i, 1,
                         "this is an HTML/XML page, not a model (a download saved the web page "
                         "instead of the file?)");
            return -1;
        }
    }
    static const struct {
        const char *magic;
        size_t len, off;
        const char *what;
        int model; /* a model format nnav does not read: the refusal lists those it does */
    } kinds[] = {
        {"\x1f\x8b", 2, 0, "a gzip-compressed file: gunzip it first (gunzip -k FILE)", 0},
        {"\xfd" "7zXZ\0", 6, 0, "an xz-compressed file: unxz it first (unxz -k FILE)", 0},
        {"\x28\xb5\x2f\xfd", 4, 0, "a zstd-compressed file: decompress it first (zstd -d FILE)", 0},
        {"ustar", 5, 257, "a tar archive: extract it first (tar xf FILE); a PyTorch checkpoint of torch before 0.4 is one: `nnav scan FILE` lists what loading it would run", 0},
        {"TFL3", 4, 4, "a TensorFlow Lite model (FlatBuffers), which nnav does not read", 1},
        {"\x93NUMPY", 6, 0, "a NumPy .npy array, not a model", 0},
        {"\x89HDF\r\n\x1a\n", 8, 0, "an HDF5 file (Keras?), which nnav does not read", 1},
        {"7z\xbc\xaf\x27\x1c", 6, 0, "a 7-Zip archive: extract it first", 0},
    };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
        if (at(p, n, kinds[k].off, kinds[k].magic, kinds[k].len)) {
            /* Another model format: say what nnav does read. */
            if (kinds[k].model)
                return refuse(err, kinds[k].what);
            nnav_err_set(err, 0, 0, "this is %s", kinds[k].what);
            return -1;
        }
    if (AT(0, "BZh") && n > 3 && p[3] >= '1' && p[3] <= '9') {
        nnav_err_set(err, 0, 0, "this is a bzip2-compressed file: bunzip2 it first (bunzip2 -k FILE)");
        return -1;
    }
    if (AT(0, "PK\x03\x04") || AT(0, "PK\x05\x06")) {
        nnav_err_set(err, 0, 0, "this is %s", zip_kind(p, n));
        return -1;
    }
    /* A pickle of protocol 2 to 5 (PROTO opcode), or of protocol 0 calling a
     * global first ("cMODULE\nNAME\n" ... "."). (torch.save's checkpoints,
     * zip and legacy, are the PyTorch reader's: they never come here.) */
    if ((n >= 3 && p[0] == 0x80 && p[1] >= 2 && p[1] <= 5) || pickle0_global(p, n)) {
        nnav_err_set(err, 0, 0,
                     "this is a Python pickle, not a checkpoint nnav opens: `nnav scan FILE` "
                     "lists what unpickling it would run");
        return -1;
    }
    if (is_text(p, n)) {
        uint64_t j = skip_space(p, n, 0, 4096);
        const char *what = "a text file, not a model";
        if (j < n && (p[j] == '{' || p[j] == '['))
            what = "a JSON file, not a model";
        else if (has_word(p, n, "node {") || has_word(p, n, "graph {") ||
                 has_word(p, n, "meta_graphs {"))
            what = "a model in protobuf text format (.pbtxt/.prototxt), which nnav does not "
                   "read: write it in binary form first";
        else if (looks_yaml(p, n, j))
            what = "a YAML file, not a model (`nnav export` writes YAML, it does not read it)";
        return refuse(err, what);
    }
    return 0;
}
