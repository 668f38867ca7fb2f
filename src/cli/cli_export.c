/* cli_export.c - nnav export: a graph, a region or a neighbourhood as YAML or ONNX. */
#include "cli_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nnav.h"

/* ---- export ---- */

/* "a,b,c" -> a list of names (pointers into one copy). */
typedef struct name_list {
    char **v;
    char *copy;
    size_t n;
} name_list;

static int split_list(const char *s, name_list *l)
{
    size_t cap = 1;
    for (const char *p = s; *p; p++)
        cap += *p == ',';
    l->n = 0;
    l->v = calloc(cap, sizeof *l->v);
    l->copy = strdup(s);
    if (!l->v || !l->copy)
        return -1;
    for (char *tok = l->copy, *next; tok; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = 0;
        if (*tok)
            l->v[l->n++] = tok;
    }
    return 0;
}

static void free_list(name_list *l)
{
    free(l->v);
    free(l->copy);
}

/* The format a file name asks for by its extension (any case): .onnx, or
 * .yaml/.yml; -1 for any other name. */
static int format_of_name(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/'))
        return -1;
    if (!strcasecmp(dot, ".onnx"))
        return NNAV_EXPORT_ONNX;
    if (!strcasecmp(dot, ".yaml") || !strcasecmp(dot, ".yml"))
        return NNAV_EXPORT_YAML;
    return -1;
}

int cmd_export(const nnav_model *m, const opts *o)
{
    nnav_selection sel;
    nnav_error err;
    int rc;
    uint32_t g = 0;
    nnav_export_opts eo = {NNAV_EXPORT_YAML, 16, o->binary, 0, NULL, 0};
    if (o->format && strcmp(o->format, "yaml") && strcmp(o->format, "onnx"))
        return usage_error("export", "--format takes yaml or onnx, not '%s'", o->format);
    /* The output file's extension names its format; --format, when given,
     * must agree with it (a .onnx file holding YAML is worse than an error). */
    int by_name = o->out ? format_of_name(o->out) : -1;
    int asked = !o->format ? -1 : strcmp(o->format, "onnx") ? NNAV_EXPORT_YAML : NNAV_EXPORT_ONNX;
    if (asked >= 0 && by_name >= 0 && asked != by_name)
        return usage_error("export", by_name == NNAV_EXPORT_ONNX ?
                           "--format yaml contradicts the .onnx name of '%s' (drop --format, "
                           "or name a .yaml file)" : "--format onnx contradicts the .yaml name "
                           "of '%s' (drop --format, or name a .onnx file)", o->out);
    eo.format = asked >= 0 ? asked : by_name >= 0 ? by_name : NNAV_EXPORT_YAML;
    if (o->max_values >= 0)
        eo.max_values = (uint64_t)o->max_values;
    if (o->external && strcmp(o->external, "inline") && strcmp(o->external, "keep"))
        return usage_error("export", "--external takes inline or keep, not '%s'", o->external);
    eo.keep_external = o->external && !strcmp(o->external, "keep");
    eo.declutter = o->declutter;
    if (o->declutter && eo.format == NNAV_EXPORT_ONNX)
        return usage_error("export", "--declutter is a view for YAML export: an ONNX file "
                           "keeps every node%s", NULL);
    if (eo.format == NNAV_EXPORT_ONNX && !o->out)
        return usage_error("export", "ONNX output needs -o FILE%s", NULL);
    if ((o->inputs || o->outputs) && o->node)
        return usage_error("export", "choose one selection: --inputs/--outputs or --node%s", NULL);
    if (o->graph && (rc = pick_graph(m, o, "export", &g)) != 0)
        return rc;
    if (o->node) {
        opts q = *o;
        uint32_t id;
        q.arg = o->node;
        if ((rc = find_node(m, &q, &id)) != 0)
            return rc;
        rc = nnav_select_neighbours(m, id, o->depth >= 0 ? (uint32_t)o->depth : 1, &sel, &err);
    } else if (o->inputs || o->outputs) {
        name_list il = {0}, ol = {0};
        if ((o->inputs && split_list(o->inputs, &il) < 0) ||
            (o->outputs && split_list(o->outputs, &ol) < 0)) {
            free_list(&il);
            free_list(&ol);
            fprintf(stderr, "nnav export: out of memory\n");
            return EXIT_BADINPUT;
        }
        rc = nnav_select_region(m, g, (const char *const *)il.v, il.n, (const char *const *)ol.v,
                                ol.n, &sel, &err);
        free_list(&il);
        free_list(&ol);
    } else {
        rc = nnav_select_graph(m, g, &sel, &err);
    }
    if (rc < 0) {
        char msg[2048];
        nnav_error_format(&err, nnav_model_facts_get(m)->path, msg, sizeof msg);
        fprintf(stderr, "nnav export: %s\n", msg);
        return exit_status(&err);
    }
    uint64_t bytes = 0;
    if (o->out)
        rc = nnav_export_file(m, &sel, &eo, o->out, &bytes, &err);
    else
        rc = nnav_export_stream(m, &sel, &eo, stdout, &err);
    if (rc < 0) {
        char msg[2048];
        /* An error with a field path or an offset is the model's (a tensor
         * refused, data cut short); others are about the output file. */
        int of_model = !o->out || err.path[0] || err.has_offset;
        nnav_error_format(&err, of_model ? nnav_model_facts_get(m)->path : o->out, msg, sizeof msg);
        fprintf(stderr, "nnav export: %s\n", msg);
        nnav_selection_free(&sel);
        return exit_status(&err);
    }
    if (o->out) {
        char p[2048], b[64];
        nnav_text_escape_cstr(o->out, p, sizeof p);
        print_bytes(bytes, b, sizeof b);
        fprintf(stderr, "nnav export: wrote %s to %s (%s byte%s, %zu node%s)\n",
                eo.format == NNAV_EXPORT_ONNX ? "ONNX" : "YAML", p, b, pl(bytes), sel.n_nodes,
                pl(sel.n_nodes));
    }
    nnav_selection_free(&sel);
    return 0;
}

