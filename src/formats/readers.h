/* readers.h - the table of format readers (readers.c) and the readers in it.
 *
 * Each reader lives in its own folder (onnx/, tf/) with its own private
 * header; what the rest of the core may know of one is its nnav_reader
 * (reader.h), declared here. */
#ifndef NNAV_READERS_H
#define NNAV_READERS_H

#include "model.h"

extern const nnav_reader nnav_reader_onnx; /* onnx/onnx.c */
extern const nnav_reader nnav_reader_tf;   /* tf/tf.c */
extern const nnav_reader nnav_reader_pt;   /* pt/pt.c */
extern const nnav_reader nnav_reader_safetensors; /* safetensors/safetensors.c */
extern const nnav_reader nnav_reader_gguf;        /* gguf/gguf.c */

/* A zip whose first entry is a PyTorch checkpoint's (ARCHIVE/data.pkl...):
 * the PyTorch reader reads it (and says what is wrong with it). */
int nnav_pt_sniff(const uint8_t *p, uint64_t n);

/* The reader of format f; NULL when none reads it. */
const nnav_reader *nnav_reader_for(nnav_format f);

/* Which protobuf format the mapped bytes hold, decided by their content
 * (ONNX ModelProto, TensorFlow SavedModel, MetaGraphDef or GraphDef); why,
 * in reason. Never fails: a file no rule fits is read as ONNX, whose reader
 * says what is wrong. */
nnav_format nnav_sniff_proto(const nnav_model *m, char *reason, size_t n);

/* A folder given as the model: *file gets the file in it a reader opens
 * as the whole model (malloc'd; a Hugging Face cache repository's snapshot
 * of refs/main first) and 1 is returned; 0 for anything not a folder
 * (opening it says what is wrong); -1 with err set for a folder that is no
 * one model (its model files listed). */
int nnav_model_folder(const char *path, char **file, nnav_error *err);

#endif
