/* report.h - facts both faces show, written once.
 *
 * `nnav info` and the explorer's model details (i) are one function,
 * nnav_info_write. The pieces below it are shared with the CLI's other
 * commands (cost's op table, check's sparse problems), so a fact reads the
 * same wherever it is shown. Strings from the file are escaped for a
 * terminal in text (nnav_text_escape) and written as YAML scalars through
 * yamlout.h. Nothing here prints to stderr or exits: a face decides what a
 * failure means to its user. */
#ifndef NNAV_REPORT_H
#define NNAV_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "nnav.h"
#include "shape.h"
#include "yamlout.h"

/* What `nnav info MODEL` prints: text into out, or with NNAV_INFO_YAML the
 * same facts as one YAML document. The text says why the file was read as
 * its format (the content that told: facts.format_reason) only with
 * NNAV_INFO_VERBOSE; YAML always has it. Returns 0, or -1 when out could not
 * be written (its error flag is set) or, for YAML, memory ran out. Text is
 * not flushed. */
enum { NNAV_INFO_YAML = 1, NNAV_INFO_VERBOSE = 2 };
int nnav_info_write(const nnav_model *m, int flags, FILE *out);

/* Bytes for eyes: "512 B", "1.5 KiB", "109.6 MiB". */
void nnav_report_bytes(uint64_t b, char *buf, size_t n);
/* A domain's name, "ai.onnx" for the default (empty) one; escaped. */
const char *nnav_report_domain(nnav_span d, char *buf, size_t n);
/* "Conv" or "com.microsoft:FusedConv": an op qualified when not in the
 * default domain; escaped. Returns buf. */
const char *nnav_report_op(nnav_span op_type, nnav_span domain, char *buf, size_t n);

/* Exact counts in YAML: an integer when the double holds one, else the double. */
void nnav_report_yaml_count(nnav_yw *w, double v);
/* How many of a graph's nodes have partial costs: their shapes are not all known. */
uint64_t nnav_report_partial_nodes(const nnav_shapes *s, const nnav_graph *gr);
/* When a shape is negative at the dims costs assumed (shape.h,
 * nnav_shapes_negative): 1, the sentence that says so and what to set into
 * buf, and the working binding ("sequence=64", "" when none found) into
 * dim; else 0 and both "". */
int nnav_report_negative(const nnav_shapes *s, char *dim, size_t dn, char *buf, size_t n);

/* One op type of a histogram. */
typedef struct nnav_op_count {
    nnav_span op, domain; /* of the first node of this op */
    uint64_t count;
    double macs, flops;    /* with costs: sums over the op's nodes */
    uint64_t params;
} nnav_op_count;
/* Op-type histogram over nodes [first, first + nn), keyed by (domain, op).
 * With sh, each op also sums its nodes' costs and the list is sorted by
 * MACs (then FLOPs, count, name); without, by count then name. A malloc'd
 * array of *count ops, or NULL when out of memory. */
nnav_op_count *nnav_op_histogram(const nnav_model *m, uint32_t first, uint32_t nn,
                                 const nnav_shapes *sh, size_t *count);

/* Sparse initializers of graphs [first, end) whose indices are wrong
 * (negative, out of range, out of order, repeated, miscounted), through the
 * record writer w (record.h) into its open map: the YAML key
 * sparse_warnings, a map each; in text a line each, as info's "warning"
 * rows or (check) as "PATH  sparse initializer NAME: why". Reads the
 * indices. Returns how many. */
struct nnav_rw;
uint32_t nnav_sparse_warnings(const nnav_model *m, uint32_t first, uint32_t end, struct nnav_rw *w,
                              int check);

/* What loading the model would run (loadscan.h; nothing for a format whose
 * loader runs nothing), as part of nnav_info_write: through the record
 * writer w (record.h) into its open map, under the scan's unit as YAML key
 * and as the text's section ("pickle"). */
struct nnav_rw;
void nnav_load_info_write(struct nnav_rw *w, const nnav_model *m);
/* A load scan (loadscan.h) into w's open map: the YAML keys of its units
 * ("pickles"), would_run, its lenient flag ("torchscript"), complete,
 * fault, fault_offset and globals (`nnav scan --yaml`, and info's map); in
 * text every global referenced, each line after indent, then the verdict
 * (what would run, or clean), in the reader's words. */
struct nnav_load_scan;
void nnav_load_scan_write(struct nnav_rw *w, const struct nnav_load_scan *s, const char *indent);

/* A format's own facts (nnav_detail_get) into w's open map: each section
 * a map under its YAML key (an ARRAY as {type, count, items: the first 16});
 * in text the section's title, then "  KEY  VALUE" a line (the first 60). */
void nnav_details_write(struct nnav_rw *w, const nnav_model *m);
/* Detail i whole (`nnav meta FILE KEY`): in YAML a map of its section,
 * key and value, an ARRAY's type, count and every item; in text the value
 * alone, every byte of a string (escaped), an ARRAY's items one a line.
 * -1 with err set when an item cannot be read (what was written stays). */
int nnav_detail_write_one(struct nnav_rw *w, const nnav_model *m, uint32_t i, nnav_error *err);
/* The same for a detail that is no ARRAY, given whole (a fact a reader
 * keeps outside its details, such as a model's metadata_props). */
void nnav_detail_write_single(struct nnav_rw *w, const nnav_detail *d);

/* The candidates closest to a mistyped word, closest first, at most max
 * into out: within 1 edit of a name of up to 4 bytes, 2 up to 8, 3 past
 * (an insertion, a deletion, a change or a swap of two neighbours, case
 * folded), or the word a prefix of 3 bytes or more. How many. */
size_t nnav_suggest(const char *word, const char *const *cand, size_t n, const char **out,
                    size_t max);

/* The same over names offered one at a time (a model's million node
 * names): the closest NNAV_NEAR_MAX kept, ties to the first offered. Each
 * offer costs time linear in the name (a letter-count bound rejects most
 * before the edit distance is computed), and at most NNAV_NEAR_LIMIT
 * names are looked at: suggesting stays bounded on any model. */
enum { NNAV_NEAR_MAX = 3, NNAV_NEAR_LIMIT = 4000000 };
typedef struct nnav_near {
    const char *word;
    size_t wn, cap, seen;
    uint16_t hist[64];
    nnav_span best[NNAV_NEAR_MAX];
    size_t dist[NNAV_NEAR_MAX], got;
} nnav_near;
void nnav_near_init(nnav_near *s, const char *word);
void nnav_near_offer(nnav_near *s, nnav_span name);
/* " (did you mean 'a' or 'b'?)" (escaped), or "" when nothing is close. */
void nnav_near_text(const nnav_near *s, char *buf, size_t n);

#endif
