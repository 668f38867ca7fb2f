/* select.c - choosing a piece of a graph to export: a whole graph, the region
 * between value names (as the ONNX tools' extraction does), a node's
 * neighbourhood, or a set of marked nodes. All walks are iterative. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

typedef NNAV_VEC(uint32_t) idvec;

static int push_id(idvec *v, uint32_t id)
{
    uint32_t *p = nnav_vec_push(*v);
    if (!p)
        return -1;
    *p = id;
    return 0;
}

static int oom(nnav_error *err)
{
    nnav_err_set(err, 0, 0, "out of memory while selecting");
    return -1;
}

/* Is graph `a` the graph `g` itself or one of its ancestors? */
static int is_ancestor_or_self(const nnav_model *m, uint32_t a, uint32_t g)
{
    for (uint32_t x = g; x != NNAV_NONE; x = m->graphs.v[x].parent)
        if (x == a)
            return 1;
    return 0;
}

/* Values a node reads: its explicit inputs, then the names its bodies take
 * from outside (ONNX scoping), which the node needs just as much. */
static int node_reads(const nnav_model *m, uint32_t node, idvec *out)
{
    const nnav_node *nd = &m->nodes.v[node];
    out->n = 0;
    for (uint32_t i = 0; i < nd->in_count; i++) {
        uint32_t v = m->refs.v[nd->in_first + i].value;
        if (v != NNAV_NONE && push_id(out, v))
            return -1;
    }
    idvec stack = {0};
    int rc = 0;
    for (uint32_t a = 0; a < nd->attr_count && rc == 0; a++) {
        const nnav_attr *at = &m->attrs.v[nd->attr_first + a];
        for (uint32_t k = 0; k < at->graph_count && rc == 0; k++)
            rc = push_id(&stack, at->graph_first + k);
    }
    while (rc == 0 && stack.n) {
        uint32_t g = stack.v[--stack.n];
        const nnav_graph *gr = &m->graphs.v[g];
        for (uint32_t n = gr->node_first; n < gr->node_first + gr->node_count && rc == 0; n++) {
            const nnav_node *sn = &m->nodes.v[n];
            for (uint32_t i = 0; i < sn->in_count && rc == 0; i++) {
                uint32_t v = m->refs.v[sn->in_first + i].value;
                if (v != NNAV_NONE && is_ancestor_or_self(m, m->values.v[v].graph, nd->graph))
                    rc = push_id(out, v);
            }
        }
        for (uint32_t c = 0; c < gr->child_count && rc == 0; c++)
            rc = push_id(&stack, m->children.v[gr->child_first + c]);
    }
    nnav_vec_free(stack);
    return rc;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static int take(idvec *v, uint32_t **out, size_t *n)
{
    *out = v->v;
    *n = v->n;
    v->v = NULL;
    v->n = v->cap = 0;
    return 0;
}

void nnav_selection_free(nnav_selection *sel)
{
    free(sel->nodes);
    free(sel->inputs);
    free(sel->outputs);
    free(sel->inits);
    free(sel->sparse);
    memset(sel, 0, sizeof *sel);
}

/* Given the chosen nodes (marked in `in_sel`), fill inputs (values read but
 * not produced inside, initializers aside), initializers, and outputs (values
 * produced inside and read outside or listed as graph outputs). */
static int boundary(const nnav_model *m, uint32_t graph, const uint8_t *in_sel,
                    nnav_selection *sel, int keep_inputs, int keep_outputs, nnav_error *err)
{
    uint8_t *seen = calloc((size_t)m->values.n + 1, 1);
    idvec reads = {0}, ins = {0}, outs = {0}, inits = {0}, sparse = {0};
    int rc = -1;
    if (!seen)
        return oom(err);
    if (keep_inputs)
        for (size_t i = 0; i < sel->n_inputs; i++)
            seen[sel->inputs[i]] = 1;
    for (size_t i = 0; i < sel->n_nodes; i++) {
        if (node_reads(m, sel->nodes[i], &reads))
            goto fail;
        for (uint32_t k = 0; k < reads.n; k++) {
            uint32_t v = reads.v[k];
            const nnav_value *val = &m->values.v[v];
            if (seen[v])
                continue;
            seen[v] = 1;
            if (val->kind == NNAV_VAL_NODE && in_sel[val->producer])
                continue;
            if (val->kind == NNAV_VAL_INITIALIZER) {
                if (push_id(&inits, val->producer))
                    goto fail;
            } else if (val->kind == NNAV_VAL_SPARSE) {
                if (push_id(&sparse, val->producer))
                    goto fail;
            } else if (!keep_inputs && push_id(&ins, v)) {
                goto fail;
            }
        }
    }
    if (!keep_outputs) {
        for (size_t i = 0; i < sel->n_nodes; i++) {
            const nnav_node *nd = &m->nodes.v[sel->nodes[i]];
            for (uint32_t o = 0; o < nd->out_count; o++) {
                uint32_t v = m->refs.v[nd->out_first + o].value;
                if (v == NNAV_NONE)
                    continue;
                const nnav_value *val = &m->values.v[v];
                int outside = val->is_output || val->cons_count == 0;
                for (uint32_t c = 0; c < val->cons_count && !outside; c++) {
                    uint32_t cn = m->consumers.v[val->cons_first + c];
                    /* A consumer inside a body of a chosen node counts as inside. */
                    uint32_t top = cn;
                    while (m->nodes.v[top].graph != graph &&
                           m->graphs.v[m->nodes.v[top].graph].owner_node != NNAV_NONE)
                        top = m->graphs.v[m->nodes.v[top].graph].owner_node;
                    outside = m->nodes.v[top].graph != graph || !in_sel[top];
                }
                if (outside && push_id(&outs, v))
                    goto fail;
            }
        }
    }
    if (inits.n > 1)
        qsort(inits.v, inits.n, sizeof *inits.v, cmp_u32);
    if (sparse.n > 1)
        qsort(sparse.v, sparse.n, sizeof *sparse.v, cmp_u32);
    take(&inits, &sel->inits, &sel->n_inits);
    take(&sparse, &sel->sparse, &sel->n_sparse);
    if (!keep_inputs)
        take(&ins, &sel->inputs, &sel->n_inputs);
    if (!keep_outputs)
        take(&outs, &sel->outputs, &sel->n_outputs);
    rc = 0;
fail:
    if (rc)
        oom(err);
    free(seen);
    nnav_vec_free(reads);
    nnav_vec_free(ins);
    nnav_vec_free(outs);
    nnav_vec_free(inits);
    nnav_vec_free(sparse);
    return rc;
}

int nnav_select_graph(const nnav_model *m, uint32_t graph, nnav_selection *sel, nnav_error *err)
{
    const nnav_graph *g = &m->graphs.v[graph];
    memset(sel, 0, sizeof *sel);
    memset(err, 0, sizeof *err);
    sel->graph = graph;
    sel->whole = 1;
    uint8_t *in_sel = calloc((size_t)m->nodes.n + 1, 1);
    idvec nodes = {0}, ins = {0}, outs = {0};
    if (!in_sel)
        return oom(err);
    for (uint32_t n = g->node_first; n < g->node_first + g->node_count; n++) {
        in_sel[n] = 1;
        if (push_id(&nodes, n))
            goto fail;
    }
    for (uint32_t i = 0; i < g->input_count; i++) {
        uint32_t v = m->vinfos.v[g->input_first + i].value;
        if (v != NNAV_NONE && push_id(&ins, v))
            goto fail;
    }
    for (uint32_t i = 0; i < g->output_count; i++) {
        uint32_t v = m->vinfos.v[g->output_first + i].value;
        if (v != NNAV_NONE && push_id(&outs, v))
            goto fail;
    }
    take(&nodes, &sel->nodes, &sel->n_nodes);
    take(&ins, &sel->inputs, &sel->n_inputs);
    take(&outs, &sel->outputs, &sel->n_outputs);
    /* Inputs are the graph's own, plus (for a body) what it takes from the
     * enclosing graphs that is not an initializer there. */
    int rc = boundary(m, graph, in_sel, sel, 1, 1, err);
    /* A whole graph keeps all its initializers, in file order, used or not;
     * from enclosing graphs only those it reads. */
    if (rc == 0) {
        size_t n = g->init_count;
        for (size_t i = 0; i < sel->n_inits; i++)
            n += m->tensors.v[sel->inits[i]].graph != graph;
        uint32_t *all = malloc((n + 1) * sizeof *all);
        if (!all) {
            rc = oom(err);
        } else {
            size_t k = 0;
            for (uint32_t t = 0; t < g->init_count; t++)
                all[k++] = g->init_first + t;
            for (size_t i = 0; i < sel->n_inits; i++)
                if (m->tensors.v[sel->inits[i]].graph != graph)
                    all[k++] = sel->inits[i];
            free(sel->inits);
            sel->inits = all;
            sel->n_inits = k;
        }
    }
    if (rc == 0) {
        size_t n = g->sparse_count;
        for (size_t i = 0; i < sel->n_sparse; i++)
            n += m->sparse.v[sel->sparse[i]].graph != graph;
        uint32_t *all = malloc((n + 1) * sizeof *all);
        if (!all) {
            rc = oom(err);
        } else {
            size_t k = 0;
            for (uint32_t s2 = 0; s2 < g->sparse_count; s2++)
                all[k++] = g->sparse_first + s2;
            for (size_t i = 0; i < sel->n_sparse; i++)
                if (m->sparse.v[sel->sparse[i]].graph != graph)
                    all[k++] = sel->sparse[i];
            free(sel->sparse);
            sel->sparse = all;
            sel->n_sparse = k;
        }
    }
    if (rc == 0 && g->parent != NNAV_NONE) {
        idvec reads = {0}, extra = {0};
        uint8_t *seen = calloc((size_t)m->values.n + 1, 1);
        if (!seen)
            rc = oom(err);
        for (size_t i = 0; rc == 0 && i < sel->n_inputs; i++)
            seen[sel->inputs[i]] = 1;
        for (size_t i = 0; rc == 0 && i < sel->n_nodes; i++) {
            if (node_reads(m, sel->nodes[i], &reads)) {
                rc = oom(err);
                break;
            }
            for (uint32_t k = 0; k < reads.n; k++) {
                const nnav_value *val = &m->values.v[reads.v[k]];
                if (val->graph == graph || seen[reads.v[k]] || val->kind == NNAV_VAL_INITIALIZER ||
                    val->kind == NNAV_VAL_SPARSE)
                    continue;
                seen[reads.v[k]] = 1;
                if (push_id(&extra, reads.v[k])) {
                    rc = oom(err);
                    break;
                }
            }
        }
        if (rc == 0 && extra.n) {
            uint32_t *all = realloc(sel->inputs, (sel->n_inputs + extra.n) * sizeof *all);
            if (!all) {
                rc = oom(err);
            } else {
                memcpy(all + sel->n_inputs, extra.v, extra.n * sizeof *all);
                sel->inputs = all;
                sel->n_inputs += extra.n;
            }
        }
        free(seen);
        nnav_vec_free(reads);
        nnav_vec_free(extra);
    }
    free(in_sel);
    if (rc)
        nnav_selection_free(sel);
    return rc;
fail:
    free(in_sel);
    nnav_vec_free(nodes);
    nnav_vec_free(ins);
    nnav_vec_free(outs);
    nnav_selection_free(sel);
    return oom(err);
}

static uint32_t value_in_graph(const nnav_model *m, uint32_t graph, const char *name,
                               nnav_error *err, const char *role)
{
    uint32_t v = nnav_value_lookup(m, graph, name, strlen(name));
    if (v == NNAV_NONE) {
        char esc[512];
        nnav_text_escape_cstr(name, esc, sizeof esc);
        nnav_err_set(err, 0, 0, "no value named '%s' in this graph (%s)", esc, role);
        err->kind = NNAV_ERR_USAGE;
    }
    return v;
}

int nnav_select_region(const nnav_model *m, uint32_t graph, const char *const *inputs,
                       size_t n_inputs, const char *const *outputs, size_t n_outputs,
                       nnav_selection *sel, nnav_error *err)
{
    memset(sel, 0, sizeof *sel);
    memset(err, 0, sizeof *err);
    sel->graph = graph;
    if (n_outputs == 0) {
        nnav_err_set(err, 0, 0, "a region needs at least one output");
        err->kind = NNAV_ERR_USAGE;
        return -1;
    }
    uint8_t *is_in = calloc((size_t)m->values.n + 1, 1);
    uint8_t *visited = calloc((size_t)m->values.n + 1, 1);
    uint8_t *in_sel = calloc((size_t)m->nodes.n + 1, 1);
    idvec ins = {0}, outs = {0}, stack = {0}, reads = {0}, nodes = {0};
    int rc = -1;
    if (!is_in || !visited || !in_sel) {
        oom(err);
        goto out;
    }
    for (size_t i = 0; i < n_inputs; i++) {
        uint32_t v = value_in_graph(m, graph, inputs[i], err, "a chosen input");
        if (v == NNAV_NONE)
            goto out;
        if (!is_in[v] && push_id(&ins, v)) {
            oom(err);
            goto out;
        }
        is_in[v] = 1;
    }
    for (size_t i = 0; i < n_outputs; i++) {
        uint32_t v = value_in_graph(m, graph, outputs[i], err, "a chosen output");
        if (v == NNAV_NONE)
            goto out;
        if (push_id(&outs, v) || push_id(&stack, v)) {
            oom(err);
            goto out;
        }
    }
    /* Backwards from the outputs, stopping at the chosen inputs. */
    while (stack.n) {
        uint32_t v = stack.v[--stack.n];
        if (visited[v] || is_in[v])
            continue;
        visited[v] = 1;
        const nnav_value *val = &m->values.v[v];
        if (val->kind == NNAV_VAL_INITIALIZER || val->kind == NNAV_VAL_SPARSE)
            continue; /* constants come along */
        if (val->kind != NNAV_VAL_NODE || m->nodes.v[val->producer].graph != graph) {
            char name[512];
            nnav_text_escape(val->name.p, val->name.n, name, sizeof name);
            nnav_err_set(err, 0, 0,
                         "value '%s' is needed but is neither a chosen input nor computable "
                         "from them (it is %s)",
                         name,
                         val->kind == NNAV_VAL_INPUT ? "a graph input"
                         : val->kind == NNAV_VAL_UNDEFINED ? "undefined"
                                                           : "computed in an enclosing graph");
            err->kind = NNAV_ERR_USAGE;
            goto out;
        }
        if (in_sel[val->producer])
            continue;
        in_sel[val->producer] = 1;
        if (push_id(&nodes, val->producer) || node_reads(m, val->producer, &reads)) {
            oom(err);
            goto out;
        }
        for (uint32_t k = 0; k < reads.n; k++)
            if (!visited[reads.v[k]] && push_id(&stack, reads.v[k])) {
                oom(err);
                goto out;
            }
    }
    /* Graph order is topological order. */
    if (nodes.n > 1)
        qsort(nodes.v, nodes.n, sizeof *nodes.v, cmp_u32);
    take(&nodes, &sel->nodes, &sel->n_nodes);
    take(&ins, &sel->inputs, &sel->n_inputs);
    take(&outs, &sel->outputs, &sel->n_outputs);
    rc = boundary(m, graph, in_sel, sel, 1, 1, err);
out:
    free(is_in);
    free(visited);
    free(in_sel);
    nnav_vec_free(ins);
    nnav_vec_free(outs);
    nnav_vec_free(stack);
    nnav_vec_free(reads);
    nnav_vec_free(nodes);
    if (rc)
        nnav_selection_free(sel);
    return rc;
}

static int select_marked(const nnav_model *m, uint32_t graph, uint8_t *in_sel,
                         nnav_selection *sel, nnav_error *err)
{
    idvec nodes = {0};
    const nnav_graph *g = &m->graphs.v[graph];
    for (uint32_t n = g->node_first; n < g->node_first + g->node_count; n++)
        if (in_sel[n] && push_id(&nodes, n)) {
            nnav_vec_free(nodes);
            return oom(err);
        }
    take(&nodes, &sel->nodes, &sel->n_nodes);
    return boundary(m, graph, in_sel, sel, 0, 0, err);
}

int nnav_select_neighbours(const nnav_model *m, uint32_t node, uint32_t depth,
                           nnav_selection *sel, nnav_error *err)
{
    memset(sel, 0, sizeof *sel);
    memset(err, 0, sizeof *err);
    uint32_t graph = m->nodes.v[node].graph;
    sel->graph = graph;
    uint8_t *in_sel = calloc((size_t)m->nodes.n + 1, 1);
    idvec layer = {0}, next = {0}, reads = {0};
    int rc = -1;
    if (!in_sel)
        return oom(err);
    in_sel[node] = 1;
    /* Up: producers, one layer at a time. */
    for (int dir = 0; dir < 2; dir++) {
        layer.n = 0;
        if (push_id(&layer, node))
            goto out;
        for (uint32_t d = 0; d < depth && layer.n; d++) {
            next.n = 0;
            for (uint32_t i = 0; i < layer.n; i++) {
                uint32_t n = layer.v[i];
                if (dir == 0) {
                    if (node_reads(m, n, &reads))
                        goto out;
                    for (uint32_t k = 0; k < reads.n; k++) {
                        const nnav_value *val = &m->values.v[reads.v[k]];
                        if (val->kind != NNAV_VAL_NODE || m->nodes.v[val->producer].graph != graph ||
                            in_sel[val->producer])
                            continue;
                        in_sel[val->producer] = 1;
                        if (push_id(&next, val->producer))
                            goto out;
                    }
                } else {
                    const nnav_node *nd = &m->nodes.v[n];
                    for (uint32_t o = 0; o < nd->out_count; o++) {
                        uint32_t v = m->refs.v[nd->out_first + o].value;
                        if (v == NNAV_NONE)
                            continue;
                        const nnav_value *val = &m->values.v[v];
                        for (uint32_t c = 0; c < val->cons_count; c++) {
                            uint32_t cn = m->consumers.v[val->cons_first + c];
                            if (m->nodes.v[cn].graph != graph || in_sel[cn])
                                continue;
                            in_sel[cn] = 1;
                            if (push_id(&next, cn))
                                goto out;
                        }
                    }
                }
            }
            idvec t = layer;
            layer = next;
            next = t;
        }
    }
    rc = select_marked(m, graph, in_sel, sel, err);
    in_sel = (free(in_sel), NULL);
out:
    if (rc && !err->msg[0])
        oom(err);
    free(in_sel);
    nnav_vec_free(layer);
    nnav_vec_free(next);
    nnav_vec_free(reads);
    if (rc)
        nnav_selection_free(sel);
    return rc;
}

int nnav_select_nodes(const nnav_model *m, const uint32_t *nodes, size_t n, nnav_selection *sel,
                      nnav_error *err)
{
    memset(sel, 0, sizeof *sel);
    memset(err, 0, sizeof *err);
    if (n == 0) {
        nnav_err_set(err, 0, 0, "no nodes marked");
        err->kind = NNAV_ERR_USAGE;
        return -1;
    }
    uint32_t graph = m->nodes.v[nodes[0]].graph;
    for (size_t i = 1; i < n; i++)
        if (m->nodes.v[nodes[i]].graph != graph) {
            nnav_err_set(err, 0, 0, "marked nodes lie in different graphs");
            err->kind = NNAV_ERR_USAGE;
            return -1;
        }
    sel->graph = graph;
    uint8_t *in_sel = calloc((size_t)m->nodes.n + 1, 1);
    if (!in_sel)
        return oom(err);
    for (size_t i = 0; i < n; i++)
        in_sel[nodes[i]] = 1;
    int rc = select_marked(m, graph, in_sel, sel, err);
    free(in_sel);
    if (rc)
        nnav_selection_free(sel);
    return rc;
}
