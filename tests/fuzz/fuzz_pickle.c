/* fuzz_pickle.c - the pickle interpreter and the PyTorch reader on any
 * bytes: scanned as a pickle stream (or a zip of pickles), then, wrapped in a
 * stored zip as a checkpoint's ARCHIVE/data.pkl, opened as a model and
 * touched all over. Nothing in a pickle is ever called. */
#include "fuzz_common.h"
#include "ptscan.h"

static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8); }
static void put32(uint8_t *p, uint32_t v) { put16(p, v), put16(p + 2, v >> 16); }

/* A stored zip of one entry, archive/data.pkl, holding data. */
static uint8_t *zip_of(const uint8_t *data, size_t size, size_t *n)
{
    static const char name[] = "archive/data.pkl";
    size_t nl = sizeof name - 1, lh = 30 + nl, ch = 46 + nl;
    *n = lh + size + ch + 22;
    uint8_t *z = calloc(1, *n);
    if (!z)
        return NULL;
    memcpy(z, "PK\3\4", 4);
    put32(z + 18, (uint32_t)size), put32(z + 22, (uint32_t)size), put16(z + 26, (uint32_t)nl);
    memcpy(z + 30, name, nl);
    memcpy(z + lh, data, size);
    uint8_t *c = z + lh + size;
    memcpy(c, "PK\1\2", 4);
    put32(c + 20, (uint32_t)size), put32(c + 24, (uint32_t)size), put16(c + 28, (uint32_t)nl);
    memcpy(c + 46, name, nl);
    uint8_t *e = c + ch;
    memcpy(e, "PK\5\6", 4);
    put16(e + 8, 1), put16(e + 10, 1), put32(e + 12, (uint32_t)ch);
    put32(e + 16, (uint32_t)(lh + size));
    return z;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    nnav_pt_scan *s;
    nnav_error err;
    if (nnav_pt_scan_open(path, &s, &err) == 0) {
        for (uint32_t i = 0; i < s->count; i++)
            if (s->g[i].call && strlen(s->g[i].call) > 400)
                abort(); /* a call's text is bounded */
        nnav_pt_scan_free(s);
    }
    close(fd);
    size_t zn;
    uint8_t *z = zip_of(data, size, &zn);
    if (!z)
        return 0;
    fd = fuzz_file(z, zn, path, sizeof path);
    free(z);
    if (fd < 0)
        return 0;
    nnav_model *m;
    if (nnav_model_open(path, NULL, &m, &err) == 0) {
        fuzz_touch(m);
        nnav_model_close(m);
    }
    close(fd);
    return 0;
}
