/* exporter.h - `e` and `E`: write the marked nodes, the graph in the node
 * list, or the region between value names to a file, through the prompt line.
 *
 * The flow: the selection is made first (so a region that cannot be computed
 * is reported before a file name is asked for); then the file name, with the
 * plain name MODEL-GRAPH.yaml typed in (Tab flips .yaml/.onnx; the extension
 * picks the format; a TensorFlow model is offered YAML only, Tab keeps it and
 * a .onnx name is refused at once); then, for an existing file, "overwrite?
 * y/n" (n goes back to the name), unless the name is refused at once (a
 * symlink, a folder, a missing folder, or any file the model reads: the
 * model, a SavedModel's index and shards, external data); then
 * nnav_export_file, which checks the same again
 * and never leaves a partial file. What was written, or why not, ends up in
 * the status line, escaped.
 */
#ifndef NNAV_UI_EXPORTER_H
#define NNAV_UI_EXPORTER_H

#include <stddef.h>

#include "ui.h"

void exporter_begin(ui *u);        /* e: the marked nodes, else the graph shown */
void exporter_region_begin(ui *u); /* E: asks for inputs, then outputs */
/* One of the export prompts closed: Enter, or y at the overwrite question
 * (accept = 1); Esc (0) cancels the export. May open the next prompt. */
void exporter_prompt_done(ui *u, int kind, int accept);
/* n at the overwrite question: back to the file name, to change it. */
void exporter_other_name(ui *u);
void exporter_tab(ui *u);          /* Tab in the file name prompt */
/* The right-hand hint while an export prompt is open, into buf; short
 * when the line is crowded. */
const char *exporter_hint(ui *u, int brief, char *buf, size_t n);
/* Space: flips the mark on a node, with a message. 1 when it changed. */
int exporter_mark(ui *u, uint32_t node);
void exporter_unmark_all(ui *u);
void exporter_free(ui *u);

/* ---- curses-free pieces (tests/unit/test_ui_export.c) ---- */

/* "MODEL-GRAPH[-WHAT][-NUMBER]EXT" from the model path and the graph's label,
 * each reduced to [A-Za-z0-9._+-] so no name from the file can make a path
 * (no '/', no leading '.' or '-'). number 0 adds none. Returns the length. */
size_t exporter_default_name(const char *model_path, const char *graph_label, const char *what,
                             unsigned number, const char *ext, char *buf, size_t n);
/* ONNX for a name ending in .onnx (any case), YAML for anything else. */
nnav_export_format exporter_format_of(const char *path);
/* Swaps a final .yaml/.yml and .onnx, or adds .onnx; returns the new format.
 * Leaves buf alone when the result would not fit in cap. */
nnav_export_format exporter_toggle_ext(char *buf, size_t cap);
/* "a, b,,c " -> {"a", "b", "c"}: blanks around names trimmed, empty items
 * dropped. One allocation (free() it); NULL when out of memory. */
char **exporter_split(const char *s, size_t *n);
/* Where the file name typed leads: -1 refused (err says why, naming the file
 * of the model it would replace), 1 an ordinary file that exists (asked
 * about before it is replaced), 0 a new file. */
int exporter_target(const nnav_model *m, const char *path, nnav_error *err);
/* "~/x" -> "$HOME/x"; anything else copied. 0, or -1 when it does not fit. */
int exporter_expand_home(const char *in, char *out, size_t n);

#endif
