/* fuzz_json.c - the JSON reader (json.h) on any bytes, then the same bytes
 * as a safetensors header (an 8-byte length before them) opened as a model
 * and touched all over. Invariants: an accepted document walks whole with
 * the iterator, each container's members as many as its count, every
 * value's bytes inside the input, no decoded text longer than its bytes;
 * a refused one names an offset inside the input. */
#include "fuzz_common.h"
#include "json.h"

static void walk(const nnav_json *j, const nnav_jval *v, const nnav_jiter *parent,
                 const uint8_t *lo, const uint8_t *hi)
{
    if (v->s.n && (v->s.p < lo || v->s.p + v->s.n > hi))
        abort();
    if (v->kind == NNAV_JSON_STRING) {
        char buf[64];
        size_t n = nnav_json_text(v, buf, sizeof buf);
        if (n > v->s.n || (!v->escaped && n != v->s.n))
            abort();
        return;
    }
    if (v->kind != NNAV_JSON_ARRAY && v->kind != NNAV_JSON_OBJECT)
        return;
    nnav_jiter it;
    nnav_jval k, m;
    nnav_error err;
    uint64_t count = 0;
    int r;
    nnav_json_iter(&it, j, v, parent);
    while ((r = nnav_json_next(&it, &k, &m, &err)) == 1) {
        count++;
        if (it.obj)
            walk(j, &k, &it, lo, hi);
        walk(j, &m, &it, lo, hi);
    }
    if (r != 0 || count != v->count)
        abort(); /* a checked document walks whole */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    nnav_json j = {.base = data};
    nnav_jval root;
    nnav_error err;
    memset(&err, 0, sizeof err);
    if (nnav_json_parse(&j, (nnav_span){data, size}, &root, &err) == 0)
        walk(&j, &root, NULL, data, data + size);
    else if (err.offset > size || !err.has_offset)
        abort();
    /* As a safetensors header, the data after it zeros enough for small
     * tensors. */
    size_t n = 8 + size + 256;
    uint8_t *f = calloc(1, n);
    if (!f)
        return 0;
    for (int k = 0; k < 8; k++)
        f[k] = (uint8_t)((uint64_t)size >> (8 * k));
    memcpy(f + 8, data, size);
    char path[64];
    int fd = fuzz_file(f, n, path, sizeof path);
    free(f);
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
