/* fuzz_common.h - what every fuzz target does with an input: put the bytes in
 * a memory file (nnav maps files), open it, and touch everything the index
 * offers, decoding every attribute, type and tensor value on demand. */
#ifndef NNAV_FUZZ_COMMON_H
#define NNAV_FUZZ_COMMON_H

#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "diff.h"
#include "nnav.h"
#include "opcheck.h"
#include "opref.h"
#include "opschema.h"
#include "shape.h"

/* The input as a file nnav can open by path; -1 on failure. */
static inline int fuzz_file(const uint8_t *data, size_t size, char *path, size_t n)
{
    int fd = memfd_create("nnav-fuzz", 0);
    if (fd < 0)
        return -1;
    size_t off = 0;
    while (off < size) {
        ssize_t w = write(fd, data + off, size - off);
        if (w <= 0) {
            close(fd);
            return -1;
        }
        off += (size_t)w;
    }
    snprintf(path, n, "/proc/self/fd/%d", fd);
    return fd;
}

static inline void fuzz_touch(const nnav_model *m)
{
    char buf[4096];
    uint32_t ng = nnav_graph_count(m);
    for (uint32_t g = 0; g < ng; g++) {
        nnav_graph_path(m, g, buf, sizeof buf);
        if (nnav_graph_by_path(m, buf) == NNAV_NONE && strlen(buf) < sizeof buf - 1)
            abort(); /* every path the index prints must lead back to a graph */
        nnav_graph_total_nodes(m, g);
    }
    for (uint32_t a = 0; a < nnav_attr_count(m); a++)
        nnav_attr_format(m, a, 8, buf, sizeof buf);
    for (uint32_t v = 0; v < nnav_value_count(m); v++) {
        uint32_t nc;
        nnav_value_consumers(m, v, &nc);
        nnav_value_type_format(m, v, buf, sizeof buf);
    }
    for (uint32_t t = 0; t < nnav_tensor_count(m); t++) {
        double vals[8];
        nnav_span strs[8];
        nnav_values out = {.v = vals, .s = strs};
        nnav_error err;
        nnav_tensor_shape_format(m, t, buf, sizeof buf);
        nnav_tensor_storage_format(m, t, buf, sizeof buf);
        nnav_tensor_values(m, t, 8, 1, &out, &err);
    }
    /* Each node against its operator's schema, as node, the detail pane
     * and the reference view read it. */
    FILE *sink = fopen("/dev/null", "w");
    for (uint32_t n = 0; n < nnav_node_count(m) && n < 1000; n++) {
        const nnav_node *nd = nnav_node_get(m, n);
        nnav_node_by_name(m, nd->graph, (const char *)nd->name.p, (size_t)nd->name.n);
        nnav_op_use u;
        if (nnav_op_resolve(m, n, &u) != 0)
            continue;
        nnav_node_schema_line(m, n, &u, buf, sizeof buf);
        for (uint32_t i = 0; i < nd->in_count + 2; i++)
            nnav_node_formal(m, n, &u, 0, i, buf, sizeof buf);
        for (uint32_t i = 0; i < nd->out_count + 2; i++)
            nnav_node_formal(m, n, &u, 1, i, buf, sizeof buf);
        nnav_node_attr_row rows[64];
        size_t nr = nnav_node_attr_rows(m, n, &u, rows, 64);
        for (size_t k = 0; k < nr && k < 64; k++)
            nnav_node_attr_row_value(m, &rows[k], 8, buf, sizeof buf);
        nnav_opref r;
        if (sink && nnav_opref_for_node(m, n, &r) == NNAV_OPREF_OK) {
            nnav_opref_write(&r, 0, sink);
            nnav_opref_write(&r, 1, sink);
        }
    }
    if (sink)
        fclose(sink);
    /* The typed view: every rule and every fact's rendering. */
    nnav_shapes *sh = nnav_shapes_infer(m, NULL);
    if (sh) {
        for (uint32_t v = 0; v < nnav_value_count(m); v++) {
            nnav_fact ff;
            nnav_dim fd[32];
            nnav_shapes_value_format(sh, v, buf, sizeof buf);
            nnav_shapes_file_fact(sh, v, &ff, fd, 32);
            nnav_shapes_why(sh, nnav_shapes_fact(sh, v)->why);
        }
        for (uint32_t g = 0; g < ng; g++) {
            nnav_cost c;
            nnav_shapes_graph_cost(sh, g, &c);
        }
        nnav_shapes_assumed(sh, buf, sizeof buf);
        nnav_opcheck_free(nnav_opcheck_run(m, sh, 0, ng));
        nnav_shapes_free(sh);
    }
    /* The model against itself, decluttered too: matching, every pair's
     * comparison, the values over the map, the summary. A match is
     * mutual whatever the file repeats. */
    for (int decl = 0; decl < 2; decl++) {
        nnav_diff_opts o = {.declutter = decl};
        nnav_diff *d = NULL;
        nnav_error err;
        if (nnav_diff_run(m, m, &o, &d, &err) != 0)
            continue;
        for (uint32_t n = 0; n < nnav_node_count(m); n++) {
            uint32_t p = nnav_diff_node_peer(d, 0, n);
            if (p != NNAV_NONE && nnav_diff_node_peer(d, 1, p) != n)
                abort();
        }
        for (size_t i = 0; i < nnav_diff_node_count(d); i++) {
            const nnav_diff_node *dn = nnav_diff_node_get(d, i);
            for (uint32_t k = 0; k < 4; k++)
                nnav_diff_input_same(d, dn, k);
        }
        nnav_diff_summary(d, buf, sizeof buf);
        nnav_diff_free(d);
    }
    nnav_search *s = nnav_search_new(m, "a");
    if (s) {
        while (nnav_search_step(s, 4096) == 0)
            ;
        nnav_search_free(s);
    }
}

#endif
