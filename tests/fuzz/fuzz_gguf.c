/* fuzz_gguf.c - the GGUF reader on any bytes: the input's first byte picks
 * the header (versions 1 to 3, little- or big-endian, or none: the input is
 * the whole file), the rest follows "GGUF" and the version. Opened, touched
 * all over (fuzz_common.h), then every detail read and of each array its
 * first items and its last. Invariants: every tensor's data lies inside the
 * file, and a block-quantised tensor names its storage type. */
#include "fuzz_common.h"

static void details(const nnav_model *m)
{
    uint32_t n = nnav_detail_count(m);
    for (uint32_t i = 0; i < n; i++) {
        nnav_detail d;
        if (nnav_detail_get(m, i, &d) < 0)
            abort(); /* every detail below the count is there */
        if (d.kind != NNAV_DV_ARRAY)
            continue;
        nnav_error e;
        nnav_detail it;
        for (uint64_t k = 0; k < d.count && k < 64; k++)
            nnav_detail_item(m, i, k, &it, &e);
        if (d.count)
            nnav_detail_item(m, i, d.count - 1, &it, &e);
        if (nnav_detail_item(m, i, d.count, &it, &e) == 0)
            abort(); /* past the last item is an error */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint8_t pick = data[0] % 8;
    size_t head = pick < 6 ? 8 : 0, n = size - 1 + head;
    uint8_t *b = malloc(n + 1);
    if (!b)
        return 0;
    if (head) {
        uint32_t v = pick % 3 + 1;
        memcpy(b, "GGUF", 4);
        if (pick < 3)
            b[4] = (uint8_t)v, b[5] = b[6] = b[7] = 0;
        else
            b[4] = b[5] = b[6] = 0, b[7] = (uint8_t)v;
    }
    memcpy(b + head, data + 1, size - 1);
    char path[64];
    int fd = fuzz_file(b, n, path, sizeof path);
    if (fd >= 0) {
        nnav_model *m;
        nnav_error err;
        if (nnav_model_open(path, NULL, &m, &err) == 0) {
            fuzz_touch(m);
            details(m);
            for (uint32_t t = 0; t < nnav_tensor_count(m); t++) {
                const nnav_tensor *tt = nnav_tensor_get(m, t);
                if (tt->data.n && tt->data.n > n)
                    abort();
                if (tt->dtype == -2000 /* NNAV_DT_QBLOCKS */ && !tt->stype)
                    abort();
                char buf[512];
                nnav_tensor_shape_format(m, t, buf, sizeof buf);
            }
            nnav_model_close(m);
        }
        close(fd);
    }
    free(b);
    return 0;
}
