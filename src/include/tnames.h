/* tnames.h - one spelling for the names the common writers give one
 * transformer's weights, so that `nnav diff` pairs them across files.
 *
 * Hugging Face transformers saves a Llama-shaped model as
 * "model.layers.17.self_attn.q_proj.weight", llama.cpp's converter as
 * "blk.17.attn_q.weight"; a model saved bare or through DataParallel adds
 * or drops "model." / "module.". nnav_tname_canon() writes the name both
 * come to: the transformers spelling without its leading "model." (and any
 * "module."), llama.cpp's per-block and top-level names mapped to it. Two
 * tensors whose names differ but whose canonical names agree are the same
 * weight under a rename.
 *
 * Calling rules: p, n is a name as the file spells it (not NUL-terminated);
 * buf gets the canonical name, NUL-terminated. Returns its length, or 0
 * when it does not fit in cap (then no pairing by this rule is attempted).
 * A name no rule touches comes back as it was. Pure; no allocation.
 */
#ifndef NNAV_TNAMES_H
#define NNAV_TNAMES_H

#include <stddef.h>
#include <stdint.h>

size_t nnav_tname_canon(const uint8_t *p, size_t n, char *buf, size_t cap);

#endif
