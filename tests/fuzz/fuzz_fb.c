/* fuzz_fb.c - the FlatBuffers reader (src/formats/tflite/fb.h) on any bytes,
 * with no schema: from the root, every field 0..15 of a table is read as
 * each kind it could be (a scalar of 1, 2, 4, 8 bytes, a table, a vector of
 * tables, strings or scalars, a string), down the tables found, a bounded
 * number of steps. Invariants: every span and element read lies inside the
 * input; a refused read names an offset inside it (or its end). */
#include "fuzz_common.h"
#include "fb.h"

static unsigned steps;

static void inside(const nnav_fb *b, const uint8_t *p, uint64_t n)
{
    if (n && (p < b->p || p + n > b->p + b->n))
        abort();
}

static void walk(const nnav_fb *b, const nnav_fbt *t)
{
    nnav_error err;
    for (unsigned f = 0; f < 16 && steps < 4000; f++, steps++) {
        uint64_t v;
        for (unsigned sz = 1; sz <= 8; sz *= 2)
            (void)nnav_fb_scalar(b, t, f, sz, 0, &v, "x", &err);
        nnav_span s;
        if (nnav_fb_string(b, t, f, &s, "x", &err) == 0)
            inside(b, s.p, s.n + 1);
        nnav_fbv vec;
        for (unsigned e = 1; e <= 8; e *= 2)
            if (nnav_fb_vector(b, t, f, e, &vec, "x", &err) == 0) {
                inside(b, b->p + vec.pos, (uint64_t)vec.count * e);
                for (uint32_t i = 0; i < vec.count && i < 8; i++)
                    (void)nnav_fb_vec_scalar(b, &vec, i, e);
            }
        if (nnav_fb_vector(b, t, f, 4, &vec, "x", &err) == 0)
            for (uint32_t i = 0; i < vec.count && i < 8 && steps < 4000; i++) {
                nnav_fbt k;
                if (nnav_fb_vec_string(b, &vec, i, &s, "x", &err) == 0)
                    inside(b, s.p, s.n + 1);
                if (nnav_fb_vec_table(b, &vec, i, &k, "x", &err) == 0) {
                    inside(b, b->p + k.pos, k.tsize);
                    walk(b, &k);
                }
            }
        nnav_fbt c;
        int r = nnav_fb_table(b, t, f, &c, "x", &err);
        if (r == 0) {
            inside(b, b->p + c.pos, c.tsize);
            inside(b, b->p + c.vt, c.vtsize);
            walk(b, &c);
        } else if (r < 0 && (!err.has_offset || err.offset > b->n)) {
            abort(); /* a refusal names a byte of the buffer (or its end) */
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t *p = malloc(size ? size : 1);
    if (!p)
        return 0;
    memcpy(p, data, size);
    nnav_fb b = {p, size};
    nnav_fbt root;
    nnav_error err;
    steps = 0;
    if (nnav_fb_root(&b, &root, NULL, &err) == 0)
        walk(&b, &root);
    free(p);
    return 0;
}
