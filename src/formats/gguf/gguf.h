/* gguf.h - the GGUF reader's private parts: ggml's tensor types (types.c)
 * and their dequantisation (dequant.c). Nothing outside src/formats/gguf/
 * includes this.
 *
 * Calling rules: a type number is any uint32 from a file; gg_type() answers
 * NULL for one the table does not know (it is then shown by its number and
 * its size is unknown, never guessed). */
#ifndef NNAV_GGUF_H
#define NNAV_GGUF_H

#include <stdint.h>

#include "reader.h"

extern const nnav_reader nnav_reader_gguf; /* gguf.c: the table's row (readers.c) */

typedef struct gg_type {
    const char *name;   /* ggml's type_name: "f32", "q4_K" */
    uint32_t block;     /* elements a block holds */
    uint32_t bytes;     /* bytes a block takes */
    int32_t dtype;      /* the nnav element type, or NNAV_DT_QBLOCKS */
    uint8_t dequant;    /* gg_dequant decodes it */
} gg_type;

/* ggml type number t's entry, or NULL. */
const gg_type *gg_type_get(uint32_t t);

/* llama.cpp's file type (general.file_type) number's name ("MOSTLY_Q4_K_M"), or NULL. */
const char *gg_file_type_name(uint32_t ft);

/* One block of type t (gg_type_get(t)->dequant set) at p, little-endian,
 * into out (block elements), as ggml's reference dequantize_row_* does. */
void gg_dequant(uint32_t t, const uint8_t *p, float *out);

#endif
