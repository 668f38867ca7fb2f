/* pt.h - the PyTorch checkpoint reader's private parts: the zip directory
 * (zip.c), the pickle interpreter that runs nothing (pickle.c) and the
 * reader's state (pt.c). Nothing outside src/formats/pt/ includes this.
 *
 * Calling rules:
 *  - Every span points into the caller's bytes (the map) or into memory the
 *    structure owns; nothing is copied out of the file but decoded numbers.
 *  - Errors are data: -1 with err set to the byte offset in the file and a
 *    field path ("data.pkl@1234", "zip entry 'archive/data/0'").
 */
#ifndef NNAV_PT_H
#define NNAV_PT_H

#include <stdint.h>

#include "model.h"
#include "loadscan.h"

/* ---- zip.c ---- */

typedef struct pt_zip_entry {
    nnav_span name;    /* into the map (central directory) */
    uint64_t hdr_off;  /* local file header */
    uint64_t data_off; /* first byte of the entry's data */
    uint64_t csize, usize;
    uint16_t method;   /* 0 stored; 8 deflate; anything else named by number */
} pt_zip_entry;

typedef struct pt_zip_named { nnav_span name; uint32_t k; } pt_zip_named;

typedef struct pt_zip {
    NNAV_VEC(pt_zip_entry) e;
    uint64_t cd_off, cd_size;
    pt_zip_named *by_name; /* the entries sorted by name, for pt_zip_find */
} pt_zip;

/* The zip's central directory read from the map: every entry bounds-checked
 * against the file and against each other (no entry past the end, none
 * overlapping another or the directory). Entries are not read. */
int pt_zip_read(const uint8_t *base, uint64_t n, pt_zip *z, nnav_error *err);
void pt_zip_free(pt_zip *z);
/* (Re)sort the entries by name: after entries are added by hand. -1: out of memory. */
int pt_zip_index(pt_zip *z);
/* The entry named exactly so (the first of several); NULL when none. */
const pt_zip_entry *pt_zip_find(const pt_zip *z, const char *name, size_t len);
/* A stored entry's bytes in the map; -1 with err set for a compressed one. */
int pt_zip_data(const uint8_t *base, const pt_zip_entry *e, nnav_span *out, nnav_error *err);

/* ---- pickle.c ---- */

enum pk_kind {
    PK_NONE = 1, PK_BOOL, PK_INT, PK_FLOAT, PK_STR, PK_BYTES, PK_TUPLE, PK_LIST, PK_DICT,
    PK_SET, PK_GLOBAL, PK_OBJ, PK_STORAGE, PK_TENSOR, PK_MARK,
};

typedef struct pk_obj {
    uint8_t kind;
    uint8_t big;       /* PK_INT: did not fit 64 bits (PK_BIG_LE, PK_BIG_TEXT: s its encoding) */
    uint32_t head, tail; /* containers: first and last link (NNAV_NONE: empty) */
    uint32_t count;
    uint32_t a, b;     /* GLOBAL: its global entry; OBJ: callable, args; TENSOR: storage */
    int64_t i;         /* INT, BOOL; STORAGE: numel; TENSOR: storage offset */
    double f;
    nnav_span s;       /* STR, BYTES (STR from protocol 0 text as written); STORAGE: key;
                          a big INT's bytes or text */
    int32_t dtype;     /* STORAGE, TENSOR */
    uint32_t size, stride; /* TENSOR: tuple objects */
    uint32_t state;    /* OBJ: what BUILD gave it (NNAV_NONE: nothing) */
    uint64_t off;      /* where it was made, in the file */
} pk_obj;

enum { PK_BIG_LE = 1, PK_BIG_TEXT = 2 };

typedef struct pk_link { uint32_t obj, next; } pk_link;

typedef struct pk_state {
    const uint8_t *base; /* the map: offsets are reported against it */
    const char *what;    /* "data.pkl": the field path's first part */
    NNAV_VEC(pk_obj) objs;
    NNAV_VEC(pk_link) links;
    NNAV_VEC(nnav_load_ref) globals;
    NNAV_VEC(char) text;       /* call texts, NUL-separated; globals point in by offset */
    NNAV_VEC(uint64_t) call_at; /* per global: offset into text + 1, 0 for none */
    uint32_t root;
    uint64_t ops;
    uint8_t torchscript; /* a TorchScript archive's pickle: torch.jit._pickle's builders are
                            allowed, as torch.jit.load's unpickler makes them itself */
} pk_state;

enum {
    PK_MAX_STACK = 1u << 20, PK_MAX_MARKS = 1u << 12, PK_MAX_OBJS = 1u << 26,
    PK_MAX_MEMO_AHEAD = 1u << 16, PK_MAX_DEPTH = 256,
};

/* Interpret the pickle in s (a span of the map) to its STOP: plain data,
 * tensors and storages by the allowlist, every other global an opaque
 * object, never called; each global referenced and each call it would make
 * is listed in st->globals. -1 with err set (offset and "WHAT@OFF: ...");
 * the globals met before the fault stay listed. *end gets the offset after
 * STOP. */
int pk_run(pk_state *st, nnav_span s, uint64_t *end, nnav_error *err);
void pk_free(pk_state *st);
/* Point each global's call at its text: once all pickles are run (the text
 * buffer moves as it grows). */
void pk_calls_fix(pk_state *st);
/* Whether object id is torch's legacy magic number, however pickled. */
int pk_is_magic(const pk_state *st, uint32_t id);
/* Object id as Python would write it (escaped, cut at about 300 bytes). */
void pk_render(const pk_state *st, uint32_t id, char *buf, size_t n);
/* The call text of global i (escaped), or NULL. */
const char *pk_call_text(const pk_state *st, uint32_t i);
/* The dtype a typed storage class names (torch.FloatStorage...), 0: none. */
int32_t pk_storage_dtype(nnav_span name);

/* ---- pickles.c ---- */

enum { PT_FILE_ZIP = 1, PT_FILE_LEGACY, PT_FILE_TAR, PT_FILE_STREAM };

typedef struct pt_pickle {
    const char *what;  /* its name in errors and the scan: "archive/data.pkl" (escaped),
                          "legacy object pickle", "pickle", "pickle 2", "tar pickle" */
    nnav_span bytes;   /* from its first opcode to after its STOP (or to its fault) */
    uint32_t root;     /* what it makes; NNAV_NONE: it stopped at a fault */
    uint32_t entry;    /* its zip entry, NNAV_NONE for none */
    uint32_t g0;       /* its globals: from this one of st's on */
    nnav_error *err;   /* its fault (owned), NULL */
} pt_pickle;

typedef struct pt_pickles {
    uint8_t kind;      /* PT_FILE_* */
    NNAV_VEC(pt_pickle) v;
    NNAV_VEC(char *) names;
    uint64_t end;      /* pickles in a row: the offset after the last (a legacy
                          checkpoint's storages start there) */
    nnav_load_scan scan; /* every global of every pickle; failed, err: the first fault */
} pt_pickles;

/* Find and run every pickle of the file p, n (the map) into st, as
 * pickles.c's header says; z gets a zip's directory. A pickle's fault is no
 * error: it is kept on the pickle and in ps->scan, and the others are still
 * read. -1 with err set only when a zip's directory cannot be read or
 * memory runs out. */
int pt_pickles_read(const uint8_t *p, uint64_t n, pt_zip *z, pk_state *st, pt_pickles *ps,
                    nnav_error *err);
/* The pickle read from zip entry k; NULL. */
const pt_pickle *pt_pickles_find(const pt_pickles *ps, uint32_t entry);
void pt_pickles_free(pt_pickles *ps);

#endif
