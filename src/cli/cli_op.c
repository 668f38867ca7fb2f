/* cli_op.c - nnav op NAME: the schema of an operator from the table
 * (opref.h's nnav_opref_write, which the explorer's reference view shows
 * too), at an opset, and with --model FILE the version that model uses;
 * nnav op --list: the operators the table holds. No model is needed. */
#include "cli_int.h"

#include <stdio.h>
#include <string.h>

#include "nnav.h"
#include "opref.h"
#include "opschema.h"

static nnav_span span_of(const char *s)
{
    return (nnav_span){(const uint8_t *)s, strlen(s)};
}

/* op --list: a row per operator, its domain, name and versions (YAML a
 * sequence of maps). */
enum { L_DOMAIN, L_OP, L_VERSIONS, L_DEPRECATED };
static const nnav_rw_col list_cols[] = {
    [L_DOMAIN] = {"domain", 26, 0, NULL, 0, NULL},
    [L_OP] = {"op", 32, 0, NULL, 0, NULL},
    [L_VERSIONS] = {"versions", 0, 0, "", 0, NULL},
    [L_DEPRECATED] = {"deprecated", 0, NNAV_RW_SKIP_EMPTY, "", 0, NULL},
};
static const nnav_rw_table list_table = {
    .cols = list_cols, .ncols = sizeof list_cols / sizeof *list_cols, .sep = " ", .flow = 1};

static int list_ops(const char *dom, const opts *o)
{
    nnav_rw w;
    if (nnav_rw_open(&w, stdout, o->yaml ? NNAV_RW_YAML : NNAV_RW_TEXT) < 0)
        return EXIT_BADINPUT;
    nnav_rw_table_begin(&w, NULL, &list_table);
    size_t n = nnav_op_table_count();
    for (size_t i = 0; i < n;) {
        const nnav_op_schema *s = nnav_op_table_at(i);
        size_t j = i;
        while (j < n && !strcmp(nnav_op_table_at(j)->domain, s->domain) &&
               !strcmp(nnav_op_table_at(j)->name, s->name))
            j++;
        if (!dom || !strcmp(dom, s->domain)) {
            const nnav_op_schema *last = nnav_op_table_at(j - 1);
            nnav_rw_row(&w);
            nnav_rw_cell_cstr(&w, L_DOMAIN, s->domain, NULL);
            nnav_rw_cell_cstr(&w, L_OP, s->name, NULL);
            nnav_rw_cell_list(&w, L_VERSIONS, NULL);
            for (size_t k = i; k < j; k++)
                nnav_rw_int(&w, nnav_op_table_at(k)->since, NULL);
            nnav_rw_cell_list_end(&w);
            nnav_rw_cell_bool(&w, L_DEPRECATED, last->deprecated, last->deprecated ? "  (deprecated)" : "");
            nnav_rw_row_end(&w);
        }
        i = j;
    }
    nnav_rw_table_end(&w);
    return nnav_rw_close(&w) < 0 ? EXIT_BADINPUT : 0;
}

int cmd_op(const nnav_model *m, const opts *o)
{
    const char *dom = NULL;
    uint32_t n_own = 0;
    if (m)
        nnav_model_op_schemas(m, &n_own);
    /* A model that carries its op definitions (a TensorFlow SavedModel):
     * NAME is one of them, as the explorer's o shows a node's. */
    if (n_own && !o->list && (!o->domain || !strcmp(o->domain, NNAV_OP_DOMAIN_MODEL))) {
        nnav_opref r;
        if (nnav_opref_model_op(m, span_of(o->arg), &r) == NNAV_OPREF_OK)
            return nnav_opref_write(&r, o->yaml, stdout) < 0 ? EXIT_BADINPUT : 0;
        if (o->domain) {
            char a[512];
            nnav_text_escape_cstr(o->arg, a, sizeof a);
            fprintf(stderr, "nnav op: the model carries no op definition '%s'\n", a);
            return EXIT_USAGE;
        }
    }
    if (o->domain) {
        dom = nnav_op_domain_canon(span_of(o->domain));
        if (!dom) {
            /* The table's domains (no '%' in them) in the format's text. */
            char fmt[320] = "the table holds no domain '%s' (";
            size_t at = strlen(fmt);
            for (size_t i = 0; i < nnav_op_domain_count() && at < sizeof fmt; i++) {
                int w = snprintf(fmt + at, sizeof fmt - at, "%s%s", i ? ", " : "",
                                 nnav_op_domain_at(i));
                at = w < 0 ? sizeof fmt : at + (size_t)w;
            }
            if (at + 2 <= sizeof fmt)
                memcpy(fmt + at, ")", 2);
            return usage_error("op", fmt, o->domain);
        }
    }
    if (o->list)
        return list_ops(dom, o);
    nnav_span name = span_of(o->arg);
    /* A qualified name: "ai.onnx.ml:LinearClassifier", as nodes --op takes it. */
    const char *colon = strrchr(o->arg, ':');
    if (!dom && colon) {
        dom = nnav_op_domain_canon((nnav_span){(const uint8_t *)o->arg, (size_t)(colon - o->arg)});
        if (dom)
            name = span_of(colon + 1);
    }
    /* Or dotted, as ONNX's and ONNX Runtime's operator docs name them:
     * "com.microsoft.MatMulNBits". An operator's name has no dot, so the
     * domain is all before the last one. */
    const char *dot = strrchr(o->arg, '.');
    if (!dom && !colon && dot) {
        dom = nnav_op_domain_canon((nnav_span){(const uint8_t *)o->arg, (size_t)(dot - o->arg)});
        if (dom)
            name = span_of(dot + 1);
    }
    nnav_opref r;
    int rc = NNAV_OPREF_NO_OP;
    if (dom) {
        rc = nnav_opref_find(dom, name, o->opset, m, &r);
    } else {
        /* The default domain first, then the others in the table's order:
         * LinearClassifier and MatMulNBits are found without --domain;
         * Attention is ai.onnx's (com.microsoft.Attention names the other). */
        for (size_t i = 0; i < nnav_op_domain_count() && rc == NNAV_OPREF_NO_OP; i++)
            rc = nnav_opref_find(nnav_op_domain_at(i), name, o->opset, m, &r);
    }
    /* With a model and no --opset: the version that model uses. */
    if (rc == NNAV_OPREF_OK && o->opset < 0 && r.model_opset >= 0)
        rc = nnav_opref_find(r.domain, name, r.model_opset, m, &r);
    if (rc == NNAV_OPREF_NO_OP || rc == NNAV_OPREF_NO_DOMAIN) {
        const char *close[8];
        size_t nc = nnav_opref_suggest(dom, name, close, sizeof close / sizeof *close);
        char a[512];
        nnav_text_escape(name.p, name.n, a, sizeof a);
        fprintf(stderr, "nnav op: no operator '%s' in %s", a, dom ? dom : "the table");
        for (size_t i = 0; i < nc; i++)
            fprintf(stderr, "%s%s", i ? ", " : "; close names: ", close[i]);
        fprintf(stderr, "\nTry 'nnav op --list%s%s'.\n", dom ? " --domain " : "", dom ? dom : "");
        return EXIT_USAGE;
    }
    if (rc == NNAV_OPREF_NOT_YET)
        fprintf(stderr, "nnav op: %s does not exist at %s opset %lld: its first version is "
                        "shown\n", r.s->name, r.domain, (long long)r.opset);
    return nnav_opref_write(&r, o->yaml, stdout) < 0 ? EXIT_BADINPUT : 0;
}
