/* summary.h - `nnav summary`: a graph's module hierarchy as a table (the
 * torchinfo / Keras summary of a model file) or as YAML.
 *
 * The tree comes from scope.h; costs from the typed view the caller infers
 * (so totals are those of `nnav cost` for the same graph and --dim
 * bindings). Text: one row per scope down to `depth` (-1: all), indented by
 * level, with its class or ops, output type, parameters and MACs; a run of
 * siblings identical to the first of the run is one row, "name_0 … name_23
 * ×24 identical", with the figures of one of them, and its subtree shown
 * once. YAML: every scope down to `depth`, none folded, each repeat naming
 * the scope it is identical to. Names are escaped (text) or written so any
 * bytes survive (YAML). Returns 0, or 2 when out of memory or the output
 * could not be written (said on stderr).
 *
 * nnav_summary_write_view() takes a decluttered view d of the graph
 * (declutter.h; NULL for none, as nnav_summary_write()): then the
 * class/op column names only the ops of shown nodes, and the counts say how
 * many nodes the view hides: "total: 2,020 nodes, 962 decluttered, in ..."
 * and, in YAML, "decluttered" at the top and on each scope (its subtree).
 * Parameters and MACs stay exact: hiding a node changes neither (a hidden
 * Constant's weights are still parameters, hidden nodes have no MACs). */
#ifndef NNAV_SUMMARY_H
#define NNAV_SUMMARY_H

#include <stdio.h>

#include "declutter.h"
#include "nnav.h"
#include "shape.h"

int nnav_summary_write(const nnav_model *m, uint32_t graph, const nnav_shapes *s, int yaml,
                       long depth, FILE *out);
int nnav_summary_write_view(const nnav_model *m, uint32_t graph, const nnav_shapes *s,
                            const nnav_declutter *d, int yaml, long depth, FILE *out);

#endif
