/* fuzz_pickle.c - the pickle interpreter and the PyTorch reader on any
 * bytes: scanned as a pickle stream (or a zip of pickles), then, wrapped in a
 * stored zip as a checkpoint's ARCHIVE/data.pkl, as a TorchScript archive's
 * two pickles, and after a legacy checkpoint's magic number, opened as a
 * model and touched all over. Nothing in a pickle is ever called. */
#include "fuzz_common.h"
#include "loadscan.h"

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v), put16(p + 2, v >> 16); }

/* A stored zip of n entries, names[k] holding data (the same bytes each). */
static uint8_t *zip_of(const char *const *names, int k, const uint8_t *data, size_t size, size_t *n)
{
    size_t local = 0, central = 0;
    for (int i = 0; i < k; i++)
        local += 30 + strlen(names[i]) + size, central += 46 + strlen(names[i]);
    *n = local + central + 22;
    uint8_t *z = calloc(1, *n);
    if (!z)
        return NULL;
    uint8_t *l = z, *c = z + local;
    for (int i = 0; i < k; i++) {
        size_t nl = strlen(names[i]);
        memcpy(l, "PK\3\4", 4);
        put32(l + 18, (uint32_t)size), put32(l + 22, (uint32_t)size), put16(l + 26, (uint32_t)nl);
        memcpy(l + 30, names[i], nl);
        memcpy(l + 30 + nl, data, size);
        memcpy(c, "PK\1\2", 4);
        put32(c + 20, (uint32_t)size), put32(c + 24, (uint32_t)size), put16(c + 28, (uint32_t)nl);
        put32(c + 42, (uint32_t)(l - z));
        memcpy(c + 46, names[i], nl);
        l += 30 + nl + size;
        c += 46 + nl;
    }
    memcpy(c, "PK\5\6", 4);
    put16(c + 8, (uint32_t)k), put16(c + 10, (uint32_t)k), put32(c + 12, (uint32_t)central);
    put32(c + 16, (uint32_t)local);
    return z;
}

/* Open the bytes as a model and touch it all. */
static void open_touch(const uint8_t *b, size_t n)
{
    char path[64];
    int fd = fuzz_file(b, n, path, sizeof path);
    if (fd < 0)
        return;
    nnav_model *m;
    nnav_error err;
    if (nnav_model_open(path, NULL, &m, &err) == 0) {
        fuzz_touch(m);
        for (uint32_t i = 0; i < nnav_detail_count(m); i++) {
            nnav_detail d;
            if (nnav_detail_get(m, i, &d) < 0 || (d.key.n && !d.key.p) || d.key.n > n)
                abort();
        }
        nnav_model_close(m);
    }
    close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    nnav_load_scan *s;
    nnav_error err;
    if (nnav_load_scan_open(path, &s, &err) == 0) {
        for (uint32_t i = 0; i < s->count; i++)
            if (s->g[i].call && strlen(s->g[i].call) > 400)
                abort(); /* a call's text is bounded */
        nnav_load_scan_free(s);
    }
    close(fd);
    /* As a checkpoint's data.pkl; as both pickles of a TorchScript archive
     * (the same bytes as data.pkl and constants.pkl, beside a code file). */
    static const char *const ckpt[] = {"archive/data.pkl"};
    static const char *const jit[] = {"archive/data.pkl", "archive/constants.pkl",
                                      "archive/code/__torch__.py"};
    size_t zn;
    uint8_t *z = zip_of(ckpt, 1, data, size, &zn);
    if (z)
        open_touch(z, zn);
    free(z);
    z = zip_of(jit, 3, data, size, &zn);
    if (z)
        open_touch(z, zn);
    free(z);
    /* As what follows a legacy checkpoint's magic-number pickle: its
     * version and sys_info pickles, the object pickle, the storage keys and
     * the storages. */
    static const uint8_t magic[15] = {0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c, 0x46,
                                      0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19, '.'};
    uint8_t *lg = malloc(sizeof magic + size);
    if (lg) {
        memcpy(lg, magic, sizeof magic);
        if (size)
            memcpy(lg + sizeof magic, data, size);
        open_touch(lg, sizeof magic + size);
        free(lg);
    }
    return 0;
}
