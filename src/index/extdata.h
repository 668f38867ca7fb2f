/* extdata.h - external tensor data, resolved inside the model's folder only. */
#ifndef NNAV_EXTDATA_H
#define NNAV_EXTDATA_H

#include "nnav.h"

/* Map the bytes of an external tensor. Refuses absolute paths, `..`, symlinks
 * anywhere on the way, hard-linked and non-regular files, and offset/length
 * outside the data file. Two exceptions to the links: a Hugging Face cache
 * snapshot's data file that links into the blobs/ of the same cache
 * repository as the model (told by device and inode) is followed; and with
 * the model opened with follow_links, any link is, and hard links pass.
 * The data file is opened here, never at model open. */
int nnav_ext_map(const nnav_model *m, uint32_t t, nnav_span *out, void **cookie, nnav_error *err);
/* The same for a tensor described by `t` though not one of the index's: the
 * exporter meets TensorProtos the index does not keep (in sparse_tensor
 * attributes). Only t's ext_location, ext_offset, ext_length and warn are read. */
int nnav_ext_map_tensor(const nnav_model *m, const nnav_tensor *t, nnav_span *out,
                        void **cookie, nnav_error *err);
void nnav_ext_release(void *cookie);
/* The bytes the data file holds for t, without reading or mapping it: the
 * declared length, or the rest of the file, cut to what the file has past
 * the offset. -1 with err set when the file is refused or cannot be opened
 * (the same checks as nnav_ext_map). *via: how the file was reached. */
int nnav_ext_avail(const nnav_model *m, const nnav_tensor *t, uint64_t *avail, int *via,
                   nnav_error *err);
/* How tensor t's data file is reached (nnav_ext_via; PLAIN when refused or
 * missing): looked at on the first ask (opened and closed, not read), then
 * remembered in the index. */
int nnav_ext_via_of(const nnav_model *m, uint32_t t);
/* Nonzero when the data file behind a mapping lost bytes of the mapped range
 * since it was mapped (what was read there is zeros, not the file's): check
 * after reading, before release. Sets err, naming the file and the tensor. */
int nnav_ext_shrank(const void *cookie, nnav_error *err);

/* A file beside the model that is no tensor's data (a weights shard an
 * index names, a config), opened by the same rules as external data: inside
 * the model's folder, links refused but a Hugging Face snapshot's into its
 * own blobs/ (or any, on follow_links). A descriptor (the caller closes it)
 * with *via how it was reached, or -1 with err set ("WHAT \"NAME\"
 * refused: ...", or why it cannot be opened). */
int nnav_side_open(const nnav_model *m, nnav_span name, const char *what, int *via,
                   nnav_error *err);

#endif
