/* loadscan.h - what loading a file with its framework's own loader would
 * run: every global (class, function) the file's serialised objects
 * reference, read by a reader that builds plain data and never calls
 * anything. A format whose loader can run code (a pickle-based checkpoint)
 * gives this through its reader (reader.h's load_scan, scan_open); the
 * faces print it in the reader's words, never naming a format themselves.
 *
 * Calling rules:
 *  - nnav_load_scan_open() maps a file read-only and scans it with the first
 *    reader that can (a file no reader could open as a model too: a stream
 *    of pickles); nnav_load_scan_free() releases it. An opened model has the
 *    same list through nnav_model_load_scan(), NULL when its format's
 *    loader runs nothing.
 *  - module and name are bytes from the file (escape them before they reach
 *    a terminal); call is escaped text already, NULL when the global is only
 *    referenced, not called.
 *  - would_run counts the calls of callables outside the loader's
 *    allowlist: what loading the file without its safe mode would run. A
 *    scan that stopped at a fault (err set) still lists what it met.
 *  - The words are the reader's, static text, safe for a terminal.
 */
#ifndef NNAV_LOADSCAN_H
#define NNAV_LOADSCAN_H

#include "nnav.h"

typedef struct nnav_load_ref {
    nnav_span module, name;
    uint64_t offset;   /* of the opcode that names it, in the file */
    uint8_t allowed;   /* in the loader's allowlist */
    uint8_t op;        /* the reader's opcode that calls it; 0: referenced only */
    uint64_t call_offset; /* of that opcode */
    const char *call;  /* "posix.system('touch /tmp/x')", escaped; NULL when not called */
    const char *entry; /* the part of the file it is in ("archive/data.pkl") */
} nnav_load_ref;

/* How the faces speak of one format's scan. */
typedef struct nnav_load_words {
    const char *loader;       /* "torch.load (without weights_only=True) or pickle" */
    const char *loader_short; /* "torch.load": the explorer's banner */
    const char *allowlist;    /* "torch's weights_only allowlist" */
    const char *unit;         /* one serialised stream: "pickle" (YAML key and text) */
    const char *units_key;    /* YAML: how many were read ("pickles") */
    const char *lenient_key;  /* YAML: the flag below ("torchscript") */
    const char *lenient_why;  /* text after "every call is in the allowlist" when lenient */
    const char *(*op_name)(uint8_t op); /* a calling opcode's name ("REDUCE"); "" for 0 */
} nnav_load_words;

typedef struct nnav_load_scan {
    uint32_t count;
    const nnav_load_ref *g;
    uint32_t would_run;  /* calls outside the allowlist */
    uint32_t units;      /* streams read */
    int failed;          /* a stream stopped at a fault: err below says where */
    int lenient;         /* the loader itself makes some callables (a TorchScript archive's
                            list builders): those count as allowed */
    nnav_error err;
    const nnav_load_words *words;
    void (*release)(struct nnav_load_scan *s); /* the reader's: nnav_load_scan_free calls it */
} nnav_load_scan;

int nnav_load_scan_open(const char *path, nnav_load_scan **out, nnav_error *err);
void nnav_load_scan_free(nnav_load_scan *s);
/* NULL unless the model's format has a loader that can run code. */
const nnav_load_scan *nnav_model_load_scan(const nnav_model *m);

#endif
