/* tnames.c - the canonical spelling of a transformer weight's name (contract
 * in tnames.h). The table is llama.cpp's tensor mapping for the Llama family
 * (Llama, Mistral, Qwen2/3 share it), written from the two naming schemes;
 * a name outside it keeps its own spelling. */
#include "tnames.h"

#include <string.h>

typedef struct rename {
    const char *ours, *theirs; /* llama.cpp's part, transformers' part */
} rename;

/* Per block: "blk.N.<ours>.<rest>" is "layers.N.<theirs>.<rest>". Longer
 * parts first where one begins another (attn_q_norm before attn_q). */
static const rename block[] = {
    {"attn_q_norm", "self_attn.q_norm"},
    {"attn_k_norm", "self_attn.k_norm"},
    {"attn_output", "self_attn.o_proj"},
    {"attn_norm", "input_layernorm"},
    {"attn_q", "self_attn.q_proj"},
    {"attn_k", "self_attn.k_proj"},
    {"attn_v", "self_attn.v_proj"},
    {"ffn_norm", "post_attention_layernorm"},
    {"ffn_gate", "mlp.gate_proj"},
    {"ffn_up", "mlp.up_proj"},
    {"ffn_down", "mlp.down_proj"},
};

/* The model's ends: "<ours>.<rest>" is "<theirs>.<rest>". */
static const rename ends[] = {
    {"token_embd", "embed_tokens"},
    {"output_norm", "norm"},
    {"output", "lm_head"},
};

static int starts(const uint8_t *p, size_t n, const char *w, size_t *len)
{
    size_t k = strlen(w);
    if (n < k || memcmp(p, w, k))
        return 0;
    *len = k;
    return 1;
}

/* Appends n bytes; 0 when they do not fit (with the NUL). */
static int put(char *buf, size_t cap, size_t *at, const void *s, size_t n)
{
    if (*at + n + 1 > cap)
        return 0;
    memcpy(buf + *at, s, n);
    *at += n;
    buf[*at] = 0;
    return 1;
}

/* A part followed by the end of the name or a dot: the rest from there. */
static int part(const uint8_t *p, size_t n, const char *w, size_t *len)
{
    return starts(p, n, w, len) && (*len == n || p[*len] == '.');
}

size_t nnav_tname_canon(const uint8_t *p, size_t n, char *buf, size_t cap)
{
    size_t k, at = 0;
    if (!cap)
        return 0;
    buf[0] = 0;
    while (starts(p, n, "module.", &k))
        p += k, n -= k;
    if (starts(p, n, "model.", &k))
        p += k, n -= k;
    if (starts(p, n, "blk.", &k)) {
        size_t d = k;
        while (d < n && p[d] >= '0' && p[d] <= '9')
            d++;
        if (d > k && d < n && p[d] == '.') {
            const uint8_t *r = p + d + 1;
            size_t rn = n - d - 1;
            for (size_t i = 0; i < sizeof block / sizeof *block; i++) {
                size_t w;
                if (!part(r, rn, block[i].ours, &w))
                    continue;
                if (!put(buf, cap, &at, "layers.", 7) || !put(buf, cap, &at, p + k, d - k) ||
                    !put(buf, cap, &at, ".", 1) ||
                    !put(buf, cap, &at, block[i].theirs, strlen(block[i].theirs)) ||
                    !put(buf, cap, &at, r + w, rn - w))
                    return 0;
                return at;
            }
        }
    } else {
        for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
            size_t w;
            if (!part(p, n, ends[i].ours, &w))
                continue;
            if (!put(buf, cap, &at, ends[i].theirs, strlen(ends[i].theirs)) ||
                !put(buf, cap, &at, p + w, n - w))
                return 0;
            return at;
        }
    }
    return put(buf, cap, &at, p, n) ? at : 0;
}
