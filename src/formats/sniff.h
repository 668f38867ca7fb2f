/* sniff.h - what a file is when it is plainly not a model nnav reads.
 *
 * Calling rules:
 *  - nnav_sniff_other() looks at the first bytes of a mapped file (at most
 *    the first 4 KiB, and 512 bytes into a tar header) and never reads past
 *    n. It recognises files people open by mistake: text, JSON, YAML, HTML,
 *    a git-LFS pointer, compressed files (gzip, xz, zstd, bzip2), archives
 *    (zip, tar), and other model and array formats (TFLite,
 *    NumPy .npy/.npz, HDF5, a PyTorch checkpoint, a Python pickle).
 *  - It returns 0 when the file may be protobuf (then the readers decide),
 *    or -1 with err set: what the file is and what to do, with a byte
 *    offset only where one means something.
 */
#ifndef NNAV_SNIFF_H
#define NNAV_SNIFF_H

#include <stdint.h>

#include "nnav.h"

int nnav_sniff_other(const uint8_t *p, uint64_t n, nnav_error *err);

#endif
