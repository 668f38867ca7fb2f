/* ptscan.h - what loading a pickle would run: every global a PyTorch
 * checkpoint's pickles (or a file that is one pickle stream) reference, read
 * by an interpreter that builds plain data and never calls anything.
 *
 * Calling rules:
 *  - nnav_pt_scan_open() maps the file read-only, reads a zip checkpoint's
 *    stored .pkl entries (or the file's pickle streams one after another),
 *    and keeps the list; nnav_pt_scan_free() releases it. An opened model of
 *    format NNAV_FMT_PYTORCH has the same list through nnav_model_pt_scan().
 *  - module and name are bytes from the file (escape them before they reach
 *    a terminal); call is escaped text already, NULL when the global is only
 *    referenced, not called.
 *  - would_run is the number of calls of callables outside torch's
 *    weights_only allowlist: what torch.load without weights_only=True would
 *    run. A scan that stopped at a fault (err set) still lists what it met.
 */
#ifndef NNAV_PTSCAN_H
#define NNAV_PTSCAN_H

#include "nnav.h"

typedef struct nnav_pt_global {
    nnav_span module, name;
    uint64_t offset;   /* of the GLOBAL/STACK_GLOBAL/INST opcode, in the file */
    uint8_t allowed;   /* in the allowlist */
    uint8_t op;        /* the opcode that calls it (REDUCE 'R', BUILD 'b', NEWOBJ 0x81,
                          NEWOBJ_EX 0x92, INST 'i', OBJ 'o'), 0: referenced only */
    uint64_t call_offset; /* of that opcode */
    const char *call;  /* "posix.system('touch /tmp/x')", escaped; NULL when not called */
    const char *entry; /* the zip entry ("archive/data.pkl") or "pickle" */
} nnav_pt_global;

typedef struct nnav_pt_scan {
    uint32_t count;
    const nnav_pt_global *g;
    uint32_t would_run;  /* calls outside the allowlist */
    uint32_t pickles;    /* pickle streams read */
    int failed;          /* a pickle stopped at a fault: err below says where */
    int torchscript;     /* a TorchScript archive (code/, constants.pkl): torch.jit.load
                            reads it, whose unpickler makes torch.jit._pickle's list
                            builders itself; those count as allowed */
    nnav_error err;
} nnav_pt_scan;

/* A checkpoint's entries that are not tensors (epoch, hyper-parameters, an
 * optimizer's param_groups), in file order: key path and value as Python
 * would print it (escaped, cut at about 300 bytes). A list or dict holding
 * no tensor is one entry. NULL past the end or for another format. */
uint32_t nnav_pt_data_count(const nnav_model *m);
const char *nnav_pt_data_get(const nnav_model *m, uint32_t i, const char **value);

/* A TorchScript archive's code files (ARCHIVE/code/..., the .debug_pkl
 * ones left out), in zip order: the name after ARCHIVE/ (bytes from the
 * file: escape them), *bytes its uncompressed size, *stored 1 when it is
 * stored uncompressed. The code is TorchScript source, listed and never
 * compiled or run. 0 / an empty span for another file. */
uint32_t nnav_pt_code_count(const nnav_model *m);
nnav_span nnav_pt_code_get(const nnav_model *m, uint32_t i, uint64_t *bytes, int *stored);

int nnav_pt_scan_open(const char *path, nnav_pt_scan **out, nnav_error *err);
void nnav_pt_scan_free(nnav_pt_scan *s);
/* NULL unless the model is a PyTorch checkpoint. */
const nnav_pt_scan *nnav_model_pt_scan(const nnav_model *m);
/* The name of a global's calling opcode (nnav_pt_global.op): "REDUCE",
 * "BUILD", "NEWOBJ", "NEWOBJ_EX", "INST", "OBJ"; "" for 0 or another. */
const char *nnav_pt_call_op_name(uint8_t op);

#endif
