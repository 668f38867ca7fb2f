/* sigs.c - a model's signatures (its entry points) and the warnings found at
 * open, as nnav.h gives them: each asked of the model's reader (reader.h),
 * which keeps them; a reader that names none answers none. */
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "sbuf.h"

uint32_t nnav_sig_group_count(const nnav_model *m)
{
    return m->reader->sig_group_count ? m->reader->sig_group_count(m) : 0;
}

const nnav_sig_group *nnav_sig_group_get(const nnav_model *m, uint32_t i)
{
    return m->reader->sig_group_get(m, i);
}

const char *nnav_sig_group_word(const nnav_model *m)
{
    return m->reader->sig_group_word;
}

int nnav_sig_group_fact(const nnav_model *m, uint32_t g, uint32_t k, nnav_sig_fact *out)
{
    memset(out, 0, sizeof *out);
    return m->reader->sig_group_fact ? m->reader->sig_group_fact(m, g, k, out) : 0;
}

nnav_span nnav_sig_tag_get(const nnav_model *m, uint32_t i)
{
    return m->reader->sig_tag_get(m, i);
}

uint32_t nnav_signature_count(const nnav_model *m)
{
    return m->reader->signature_count ? m->reader->signature_count(m) : 0;
}

const nnav_signature *nnav_signature_get(const nnav_model *m, uint32_t i)
{
    return m->reader->signature_get(m, i);
}

const nnav_sig_tensor *nnav_sig_tensor_get(const nnav_model *m, uint32_t i)
{
    return m->reader->sig_tensor_get(m, i);
}

void nnav_sig_tensor_field(const nnav_model *m, uint32_t s, uint32_t k, int part, char *buf,
                           size_t n)
{
    if (n)
        buf[0] = 0;
    if (m->reader->sig_tensor_field)
        m->reader->sig_tensor_field(m, s, k, part, buf, n);
}

void nnav_sig_tensor_format(const nnav_model *m, uint32_t i, char *buf, size_t n)
{
    const nnav_sig_tensor *st = nnav_sig_tensor_get(m, i);
    nnav_sbuf b = {buf, n, 0};
    if (n)
        buf[0] = 0;
    nnav_sb_put(&b, st->dtype ? nnav_dtype_name(st->dtype) : "?");
    if (st->rank < 0) {
        nnav_sb_put(&b, "[...]");
    } else {
        nnav_sb_put(&b, "[");
        for (int32_t d = 0; d < st->rank; d++) {
            int64_t v = m->dims.v[st->dims_first + d];
            if (v < 0)
                nnav_sb_put(&b, d ? ",?" : "?");
            else
                nnav_sb_printf(&b, d ? ",%lld" : "%lld", (long long)v);
        }
        nnav_sb_put(&b, "]");
    }
    if (st->encoding == NNAV_SIG_SPARSE)
        nnav_sb_put(&b, " (sparse)");
    else if (st->encoding == NNAV_SIG_COMPOSITE)
        nnav_sb_put(&b, " (composite)");
}

uint32_t nnav_warning_count(const nnav_model *m)
{
    return m->reader->warning_count ? m->reader->warning_count(m) : 0;
}

const char *nnav_warning_get(const nnav_model *m, uint32_t i)
{
    return m->reader->warning_get(m, i);
}
