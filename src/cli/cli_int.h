/* cli_int.h - what the command files of the CLI share (private to src/cli/):
 * the parsed options, exit statuses, and the printing and lookup helpers
 * of cli_common.c. Each command is `int cmd_NAME(m, o)` returning the exit
 * status; cli.c parses the command line and dispatches. */
#ifndef NNAV_CLI_INT_H
#define NNAV_CLI_INT_H

#include <stdint.h>
#include <stdio.h>

#include "nnav.h"
#include "record.h"
#include "report.h"
#include "shape.h"
#include "yamlout.h"

/* Exit statuses live only in the face: nnav_error.kind maps to them. */
enum { EXIT_USAGE = 1, EXIT_BADINPUT = 2, EXIT_NOMATCH = 1 /* find: as grep */ };

typedef struct opts {
    int yaml, all, constants;
    int verbose; /* info --verbose: also why the file was read as its format */
    long values; /* --values N: first N values and min/max/mean; -1 = not asked */
    const char *name;
    /* export */
    const char *inputs, *outputs, *node, *format, *out, *external;
    long depth, max_values;
    int binary;
    const char *graph, *op, *sort;
    int list_nodes, shapes; /* cost --nodes, nodes --shapes */
    int declutter;          /* --declutter: nodes, summary, export --format yaml */
    nnav_bind bind[64];     /* --dim NAME=N, names pointing into argv */
    size_t n_bind;
    const char *model;
    const char *arg; /* NAME or PATTERN */
    /* op: --domain D, --opset N (-1 not given), --list; --model FILE is model */
    const char *domain;
    long opset;
    int list;
    /* diff: --no-values, --tolerance X, --follow-links (it opens its two models itself) */
    int no_values;
    double tolerance;
    int follow_links;
} opts;

/* The commands (cli_info.c, cli_graph.c, cli_tensors.c, cli_typed.c,
 * cli_find.c, cli_export.c, cli_op.c). */
int cmd_info(const nnav_model *m, const opts *o);
/* cli_meta.c: o->arg is KEY, or NULL for every key. */
int cmd_meta(const nnav_model *m, const opts *o);
int cmd_tree(const nnav_model *m, const opts *o);
int cmd_nodes(const nnav_model *m, const opts *o);
int cmd_node(const nnav_model *m, const opts *o);
int cmd_tensors(const nnav_model *m, const opts *o);
int cmd_shapes(const nnav_model *m, const opts *o);
int cmd_cost(const nnav_model *m, const opts *o);
int cmd_check(const nnav_model *m, const opts *o);
int cmd_summary(const nnav_model *m, const opts *o);
int cmd_find(const nnav_model *m, const opts *o);
int cmd_export(const nnav_model *m, const opts *o);
/* cli_op.c: m is NULL unless --model FILE was given. */
int cmd_op(const nnav_model *m, const opts *o);
/* cli_diff.c: m is NULL; o->model is A, o->arg is B. Exit status as diff(1). */
int cmd_diff(const nnav_model *m, const opts *o);
/* cli_scan.c: m is NULL; o->arg is the file. */
int cmd_scan(const nnav_model *m, const opts *o);

/* ---- cli_common.c: errors and exit statuses ---- */
int exit_status(const nnav_error *e);
int fail_model(const char *path, const nnav_error *e);
/* "nnav CMD: " fmt (with arg escaped for %s), then where to get help: EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, const char *arg);
int not_found(const char *cmd, const nnav_model *m, const char *what, const char *name,
              const char *hint);
/* The same, with the closest names of a kind (NEAR_NODES, NEAR_TENSORS;
 * 0: none) said after the name: "did you mean 'fc.weight'?". */
enum { NEAR_NODES = 1, NEAR_TENSORS = 2 };
int not_found_near(const char *cmd, const nnav_model *m, const char *what, const char *name,
                   int near, const char *hint);
/* rc, or EXIT_BADINPUT when the file shrank or stdout could not be written. */
int finish(const nnav_model *m, int rc);

/* ---- cli_common.c: text ---- */
const char *esc(nnav_span s, char *buf, size_t n);
const char *pl(uint64_t n);
void print_bytes(uint64_t b, char *buf, size_t n);
const char *op_name(const nnav_model *m, uint32_t id, char *buf, size_t n);
const char *node_label(const nnav_model *m, uint32_t id, char *buf, size_t n);
const char *graph_kind_name(uint8_t k);
const char *kind_word(uint8_t k);
void source_text(const nnav_model *m, uint32_t v, uint32_t from_graph, char *buf, size_t n);

/* ---- cli_common.c: types, shapes and cost ---- */
nnav_shapes *shapes_of(const nnav_model *m, const opts *o);
const char *src_word(uint8_t src);
void cost_text(const nnav_cost *c, const char *why, char *buf, size_t n);
void rw_cost(nnav_rw *w, const nnav_cost *c, const char *why, const char *over);
const char *value_type(const nnav_shapes *s, uint32_t v, char *buf, size_t n);

/* ---- cli_common.c: picking a graph or a node ---- */
int pick_graph(const nnav_model *m, const opts *o, const char *cmd, uint32_t *g);
int graph_range(const nnav_model *m, const opts *o, const char *cmd, uint32_t *first,
                uint32_t *end);
int find_node(const nnav_model *m, const opts *o, uint32_t *out);

#endif
