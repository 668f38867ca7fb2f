/* export.h - the pieces behind nnav_export_stream / nnav_export_file. */
#ifndef NNAV_EXPORT_H
#define NNAV_EXPORT_H

#include <stdio.h>

#include "nnav.h"

/* Local functions the selection calls, directly, from nested bodies, or from
 * other functions' bodies; ids in a malloc'd array. */
int nnav_export_functions(const nnav_model *m, const nnav_selection *sel, uint32_t **out,
                          size_t *n);
int nnav_export_yaml(const nnav_model *m, const nnav_selection *sel, const nnav_export_opts *o,
                     FILE *out, nnav_error *err);
/* Every external data location a tensor of the model names (the index's
 * tensors, and those in sparse_tensor attributes, which it does not keep),
 * each at least once; stops when fn returns nonzero, and returns that. */
typedef int (*nnav_location_fn)(void *ctx, nnav_span location);
int nnav_export_locations(const nnav_model *m, nnav_location_fn fn, void *ctx);
/* What nnav_export_file checks before it writes `path` (the ONNX data file
 * beside it aside): 0 when it may write there; -1 with err (status 2) when
 * it would refuse: a symbolic link, not a regular file, no such folder, or a
 * file the model reads (named in the message). The explorer asks this before
 * its overwrite question. */
int nnav_export_check(const nnav_model *m, const char *path, nnav_error *err);
/* data_path: where external data goes with keep_external (NULL otherwise);
 * data_name: the location written into the model for it. */
int nnav_export_onnx(const nnav_model *m, const nnav_selection *sel, const nnav_export_opts *o,
                     FILE *out, FILE *data, const char *data_name, nnav_error *err);

#endif
