/* opref.c - the operator reference and a node read against its schema
 * (opref.h): what `nnav op`, `nnav node` and the explorer's detail pane and
 * reference view show, written once over opschema.h. */
#include "opref.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "nnav.h"
#include "opschema.h"
#include "record.h"
#include "yamlout.h"

static nnav_span span_of(const char *s)
{
    return (nnav_span){(const uint8_t *)s, s ? strlen(s) : 0};
}

/* A string of the table or of a model's op definitions, safe for a terminal. */
static const char *tesc(const char *s, char *buf, size_t n)
{
    nnav_text_escape_cstr(s ? s : "", buf, n);
    return buf;
}

static const char *sesc(nnav_span s, char *buf, size_t n)
{
    nnav_text_escape(s.p, s.n, buf, n);
    return buf;
}

/* Exact bytes in YAML: a valid UTF-8 string, else !!binary. */
static void ystr(nnav_yw *w, const char *s)
{
    nnav_yw_span(w, span_of(s));
}

static int is_tf(const nnav_op_schema *s)
{
    return nnav_op_schema_is_models(s);
}

const char *nnav_op_status_word(nnav_op_status st)
{
    switch (st) {
    case NNAV_OPS_FOUND: return "found";
    case NNAV_OPS_NONSTANDARD: return "nonstandard";
    case NNAV_OPS_FUNCTION: return "function";
    case NNAV_OPS_UNKNOWN: return "unknown";
    case NNAV_OPS_NOT_YET: return "not_yet";
    case NNAV_OPS_NO_OPSET: return "no_opset";
    case NNAV_OPS_NO_SCHEMAS: return "no_schemas";
    }
    return "unknown";
}

/* ---- the reference of one operator ---- */

/* The model's opset of canonical domain dom, or -1 when it imports none. */
static int64_t model_opset(const nnav_model *m, const char *dom)
{
    if (!m || !(nnav_model_facts_get(m)->traits & NNAV_TRAIT_OPSETS))
        return -1;
    for (uint32_t i = 0; i < nnav_opset_count(m); i++) {
        const nnav_opset *o = nnav_opset_get(m, i);
        const char *c = nnav_op_domain_canon(o->domain);
        if (c && !strcmp(c, dom))
            return o->version;
    }
    return -1;
}

static void fill_history(nnav_opref *r, const char *dom, nnav_span name)
{
    size_t n = nnav_op_history(dom, name, r->hist, NNAV_OPREF_MAX_HISTORY);
    r->n_hist = n < NNAV_OPREF_MAX_HISTORY ? n : NNAV_OPREF_MAX_HISTORY;
}

int nnav_opref_find(const char *domain, nnav_span name, int64_t opset, const nnav_model *m,
                    nnav_opref *r)
{
    memset(r, 0, sizeof *r);
    r->opset = opset < 0 ? -1 : opset;
    r->model_opset = -1;
    const char *dom = nnav_op_domain_canon(span_of(domain ? domain : ""));
    if (!dom)
        return NNAV_OPREF_NO_DOMAIN;
    r->domain = dom;
    fill_history(r, dom, name);
    if (!r->n_hist)
        return NNAV_OPREF_NO_OP;
    r->model_opset = model_opset(m, dom);
    if (r->model_opset >= 0) {
        const nnav_op_schema *ms = nnav_op_lookup(dom, name, r->model_opset);
        r->model_since = ms ? ms->since : 0;
    }
    if (opset < 0) {
        r->s = r->hist[r->n_hist - 1];
        return NNAV_OPREF_OK;
    }
    r->s = nnav_op_lookup(dom, name, opset);
    if (!r->s) {
        r->s = r->hist[0];
        return NNAV_OPREF_NOT_YET;
    }
    return NNAV_OPREF_OK;
}

/* A model's own op definition: one version, no history in a table. */
static void fill_model_op(nnav_opref *r, const nnav_op_schema *s)
{
    r->domain = NNAV_OP_DOMAIN_MODEL;
    r->s = s;
    r->hist[0] = s;
    r->n_hist = 1;
}

int nnav_opref_model_op(const nnav_model *m, nnav_span name, nnav_opref *r)
{
    uint32_t n = 0;
    const nnav_op_schema *s = nnav_model_op_schemas(m, &n);
    memset(r, 0, sizeof *r);
    r->opset = -1;
    r->model_opset = -1;
    for (uint32_t i = 0; s && i < n; i++)
        if (nnav_span_eqs(name, s[i].name)) {
            fill_model_op(r, &s[i]);
            return NNAV_OPREF_OK;
        }
    return NNAV_OPREF_NO_OP;
}

int nnav_opref_for_node(const nnav_model *m, uint32_t node, nnav_opref *r)
{
    nnav_op_use u;
    memset(r, 0, sizeof *r);
    r->opset = -1;
    r->model_opset = -1;
    if (nnav_op_resolve(m, node, &u) < 0)
        return -1;
    if (u.status != NNAV_OPS_FOUND && u.status != NNAV_OPS_NOT_YET)
        return (int)u.status;
    if (!u.s)
        return (int)NNAV_OPS_UNKNOWN;
    r->s = u.s;
    if (is_tf(u.s)) {
        fill_model_op(r, u.s);
        return NNAV_OPREF_OK;
    }
    r->domain = u.domain ? u.domain : u.s->domain;
    fill_history(r, r->domain, nnav_node_get(m, node)->op);
    if (!r->n_hist) { /* the table always holds the schema it resolved to */
        r->hist[0] = u.s;
        r->n_hist = 1;
    }
    r->opset = u.opset;
    r->model_opset = u.opset;
    r->model_since = u.status == NNAV_OPS_FOUND ? u.s->since : 0;
    return u.status == NNAV_OPS_FOUND ? NNAV_OPREF_OK : (int)NNAV_OPS_NOT_YET;
}

static const char *option_word(uint8_t o)
{
    return o == NNAV_OPF_OPTIONAL ? "optional" : o == NNAV_OPF_VARIADIC ? "variadic" : "single";
}

/* "1", "2 to 3", "1 or more" */
static void range_text(int32_t lo, int32_t hi, char *buf, size_t n)
{
    if (hi == NNAV_OP_UNBOUNDED)
        snprintf(buf, n, "%d or more", (int)lo);
    else if (lo == hi)
        snprintf(buf, n, "%d", (int)lo);
    else
        snprintf(buf, n, "%d to %d", (int)lo, (int)hi);
}

void nnav_op_default_yaml(nnav_yw *w, const nnav_op_default *d)
{
    switch (d->kind) {
    case NNAV_ATTR_INT: nnav_yw_int(w, d->i); return;
    case NNAV_ATTR_FLOAT: nnav_yw_double(w, d->f); return;
    case NNAV_ATTR_STRING: ystr(w, d->s ? d->s : ""); return;
    case NNAV_ATTR_INTS:
    case NNAV_ATTR_FLOATS:
    case NNAV_ATTR_STRINGS:
        nnav_yw_seq_flow(w);
        for (uint32_t k = 0; k < d->count; k++) {
            if (d->kind == NNAV_ATTR_INTS && d->ints)
                nnav_yw_int(w, d->ints[k]);
            else if (d->kind == NNAV_ATTR_FLOATS && d->floats)
                nnav_yw_double(w, d->floats[k]);
            else if (d->kind == NNAV_ATTR_STRINGS && d->strings)
                ystr(w, d->strings[k] ? d->strings[k] : "");
        }
        nnav_yw_seq_end(w);
        return;
    default:
        if (d->text)
            ystr(w, d->text);
        else
            nnav_yw_null(w);
    }
}

/* What a version of the history is to the reader: in force at the opset
 * asked, the model's. */
static void history_note(const nnav_opref *r, const nnav_op_schema *h, char *buf, size_t n)
{
    const char *parts[3];
    char at[64] = "", mod[64] = "";
    size_t np = 0;
    if (h->deprecated)
        parts[np++] = "deprecated";
    if (h == r->s) {
        if (r->opset < 0)
            snprintf(at, sizeof at, "the newest");
        else if (r->opset < h->since)
            snprintf(at, sizeof at, "the first; none at opset %lld", (long long)r->opset);
        else
            snprintf(at, sizeof at, "in force at opset %lld", (long long)r->opset);
        parts[np++] = at;
    }
    if (r->model_since && h->since == r->model_since) {
        snprintf(mod, sizeof mod, "the model's (opset %lld)", (long long)r->model_opset);
        parts[np++] = mod;
    }
    size_t l = 0;
    buf[0] = 0;
    for (size_t i = 0; i < np && l < n; i++)
        l += (size_t)snprintf(buf + l, n - l, "%s%s", i ? "; " : "", parts[i]);
}

/* The schema's tables. Formals: text "  NAME TYPE optional", the name
 * column as wide as the widest (8 at least), a single formal's type last. */
enum { FM_NAME, FM_TYPE, FM_OPTION, FM_HOMOG };
static const nnav_rw_col formal_cols[] = {
    [FM_NAME] = {"name", 8, NNAV_RW_MEASURE, NULL, 0, NULL},
    [FM_TYPE] = {"type", 24, 0, NULL, 0, NULL},
    [FM_OPTION] = {"option", 0, NNAV_RW_SKIP_EMPTY, NULL, 0, NULL},
    [FM_HOMOG] = {"homogeneous", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
};
static const nnav_rw_table formal_table = {
    .cols = formal_cols, .ncols = sizeof formal_cols / sizeof *formal_cols, .sep = " ",
    .flow = 1, .indent = "  "};

/* Attributes: text "  NAME TYPE required|default V|optional". */
enum { AT_NAME, AT_TYPE, AT_REQUIRED };
static const nnav_rw_col oattr_cols[] = {
    [AT_NAME] = {"name", 20, NNAV_RW_MEASURE, NULL, 0, NULL},
    [AT_TYPE] = {"type", 8, 0, NULL, 0, NULL},
    [AT_REQUIRED] = {"required", 0, 0, NULL, 0, NULL}, /* YAML's default follows it */
};
static const nnav_rw_table oattr_table = {
    .cols = oattr_cols, .ncols = sizeof oattr_cols / sizeof *oattr_cols, .sep = " ", .flow = 1,
    .indent = "  "};

/* Type constraints: text "  T        tensor(float), ..." or "any type". */
enum { TC_PARAM, TC_ALLOWED };
static const nnav_rw_col tc_cols[] = {
    [TC_PARAM] = {"param", 8, 0, NULL, 0, NULL},
    [TC_ALLOWED] = {"allowed", 0, 0, NULL, 0, NULL},
};
static const nnav_rw_table tc_table = {
    .cols = tc_cols, .ncols = sizeof tc_cols / sizeof *tc_cols, .sep = " ", .flow = 1,
    .indent = "  "};

/* History: text "  v11      in force at opset 17; the model's (opset 17)". */
enum { H_SINCE, H_DEPRECATED, H_SHOWN, H_MODEL, H_NOTE };
static const nnav_rw_col hist_cols[] = {
    [H_SINCE] = {"since_version", 8, 0, NULL, 0, NULL},
    [H_DEPRECATED] = {"deprecated", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [H_SHOWN] = {"shown", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [H_MODEL] = {"model", NNAV_RW_NOTEXT, 0, NULL, 0, NULL},
    [H_NOTE] = {NULL, 0, NNAV_RW_SKIP_EMPTY, NULL, 0, NULL},
};
static const nnav_rw_table hist_table = {
    .cols = hist_cols, .ncols = sizeof hist_cols / sizeof *hist_cols, .sep = " ", .flow = 1,
    .indent = "  "};

static void write_formals(nnav_rw *w, const char *key, const nnav_op_formal *f, uint32_t nf,
                          int32_t lo, int32_t hi)
{
    char range[64], a[512], b[512], line[600];
    range_text(lo, hi, range, sizeof range);
    snprintf(line, sizeof line, "%s (%s):\n", key, range);
    nnav_rw_text(w, line);
    nnav_rw_table_begin(w, key, &formal_table);
    for (int pass = 0; pass < nnav_rw_table_passes(w); pass++) {
        nnav_rw_table_pass(w, pass);
        for (uint32_t i = 0; i < nf; i++) {
            nnav_rw_row(w);
            nnav_rw_cell_span(w, FM_NAME, span_of(f[i].name), tesc(f[i].name, a, sizeof a));
            nnav_rw_cell_span(w, FM_TYPE, span_of(f[i].type), tesc(f[i].type, b, sizeof b));
            const char *opt = f[i].option == NNAV_OPF_OPTIONAL ? "optional"
                              : f[i].option != NNAV_OPF_VARIADIC ? ""
                              : f[i].homogeneous                 ? "variadic"
                                                                 : "variadic, heterogeneous";
            nnav_rw_cell_cstr(w, FM_OPTION, option_word(f[i].option), opt);
            if (f[i].option == NNAV_OPF_VARIADIC)
                nnav_rw_cell_bool(w, FM_HOMOG, f[i].homogeneous, NULL);
            nnav_rw_row_end(w);
        }
    }
    nnav_rw_table_end(w);
}

/* A schema as the explorer's o and `nnav op` show it, in either form: the
 * YAML keys in the text's order, the text's headings words of its own. */
static int write_ref(const nnav_opref *r, int yaml, FILE *out)
{
    const nnav_op_schema *s = r->s;
    char a[1024], b[1024], c[1024], line[1200];
    nnav_rw w;
    if (nnav_rw_open(&w, out, yaml ? NNAV_RW_YAML : NNAV_RW_TEXT) < 0)
        return -1;
    int tf = is_tf(s);
    nnav_rw_map(&w, 10);
    nnav_rw_key(&w, "op"), nnav_rw_span(&w, span_of(s->name), tesc(s->name, a, sizeof a));
    nnav_rw_key(&w, "domain");
    nnav_rw_span(&w, span_of(s->domain), tf ? "tf (an op definition the model carries)"
                                            : tesc(s->domain, a, sizeof a));
    /* "11 (in force at opset 17), deprecated" */
    if (r->opset >= 0 && r->opset < s->since)
        snprintf(a, sizeof a, " (the first; not yet at opset %lld)", (long long)r->opset);
    else if (r->opset >= 0 && r->opset > nnav_op_table_max(r->domain))
        snprintf(a, sizeof a, " (in force at opset %lld; the table knows up to %d)",
                 (long long)r->opset, (int)nnav_op_table_max(r->domain));
    else if (r->opset >= 0)
        snprintf(a, sizeof a, " (in force at opset %lld)", (long long)r->opset);
    else
        snprintf(a, sizeof a, " (the newest in the table)");
    snprintf(line, sizeof line, "%d%s%s", (int)s->since, a, s->deprecated ? ", deprecated" : "");
    nnav_rw_key_as(&w, "since_version", tf ? NULL : "version"), nnav_rw_int(&w, s->since, line);
    nnav_rw_key_as(&w, "deprecated", NULL), nnav_rw_bool(&w, s->deprecated, NULL);
    nnav_rw_key_as(&w, "opset", NULL);
    r->opset >= 0 ? nnav_rw_int(&w, r->opset, NULL) : nnav_rw_null(&w, NULL);
    nnav_rw_key_as(&w, "in_force", NULL), nnav_rw_bool(&w, r->opset < 0 || r->opset >= s->since, NULL);
    if (!tf)
        nnav_rw_key_as(&w, "table", NULL), nnav_rw_cstr(&w, nnav_op_table_origin(), NULL);
    nnav_rw_key_as(&w, "min_input", NULL), nnav_rw_int(&w, s->min_in, NULL);
    nnav_rw_key_as(&w, "max_input", NULL), nnav_rw_int(&w, s->max_in, NULL);
    nnav_rw_key_as(&w, "min_output", NULL), nnav_rw_int(&w, s->min_out, NULL);
    nnav_rw_key_as(&w, "max_output", NULL), nnav_rw_int(&w, s->max_out, NULL);
    write_formals(&w, "inputs", s->in, s->n_in, s->min_in, s->max_in);
    write_formals(&w, "outputs", s->out, s->n_out, s->min_out, s->max_out);
    snprintf(line, sizeof line, "attributes (%u):\n", s->n_attrs);
    nnav_rw_text(&w, line);
    nnav_rw_table_begin(&w, "attributes", &oattr_table);
    nnav_yw *y = nnav_rw_yw(&w); /* a default's typed value: written by hand, YAML only */
    for (int pass = 0; pass < nnav_rw_table_passes(&w); pass++) {
        nnav_rw_table_pass(&w, pass);
        for (uint32_t i = 0; i < s->n_attrs; i++) {
            const nnav_op_attr *at = &s->attrs[i];
            nnav_rw_row(&w);
            nnav_rw_cell_span(&w, AT_NAME, span_of(at->name), tesc(at->name, a, sizeof a));
            nnav_rw_cell_cstr(&w, AT_TYPE, nnav_attr_type_name(at->type), NULL);
            if (at->required) {
                snprintf(line, sizeof line, "required");
            } else if (at->has_default) {
                nnav_op_default_format(&at->def, b, sizeof b);
                snprintf(line, sizeof line, "default %s", tesc(b, c, sizeof c));
            } else {
                snprintf(line, sizeof line, "optional");
            }
            nnav_rw_cell_bool(&w, AT_REQUIRED, at->required, line);
            if (y && at->has_default)
                nnav_yw_key(y, "default"), nnav_op_default_yaml(y, &at->def);
            nnav_rw_row_end(&w);
        }
    }
    nnav_rw_table_end(&w);
    snprintf(line, sizeof line, "type constraints (%u):\n", s->n_tcs);
    nnav_rw_text(&w, line);
    nnav_rw_table_begin(&w, "type_constraints", &tc_table);
    for (uint32_t i = 0; i < s->n_tcs; i++) {
        const nnav_op_tc *tc = &s->tcs[i];
        nnav_rw_row(&w);
        nnav_rw_cell_span(&w, TC_PARAM, span_of(tc->param), tesc(tc->param, a, sizeof a));
        /* An OpDef's type attr without allowed_values takes any type (YAML:
         * an empty allowed list). */
        nnav_rw_cell_list(&w, TC_ALLOWED, tc->n_allowed ? NULL : "any type");
        for (uint32_t k = 0; k < tc->n_allowed; k++)
            nnav_rw_span(&w, span_of(tc->allowed[k]), tesc(tc->allowed[k], a, sizeof a));
        nnav_rw_cell_list_end(&w);
        nnav_rw_row_end(&w);
    }
    nnav_rw_table_end(&w);
    if (!tf) {
        snprintf(line, sizeof line, "history (%zu version%s):\n", r->n_hist, r->n_hist == 1 ? "" : "s");
        nnav_rw_text(&w, line);
    }
    nnav_rw_table_begin(&w, "history", &hist_table);
    if (tf)
        nnav_rw_table_hide_text(&w);
    for (size_t i = 0; i < r->n_hist; i++) {
        const nnav_op_schema *h = r->hist[i];
        history_note(r, h, a, sizeof a);
        snprintf(b, sizeof b, "v%d", (int)h->since);
        nnav_rw_row(&w);
        nnav_rw_cell_int(&w, H_SINCE, h->since, b);
        nnav_rw_cell_bool(&w, H_DEPRECATED, h->deprecated, NULL);
        nnav_rw_cell_bool(&w, H_SHOWN, h == s, NULL);
        nnav_rw_cell_bool(&w, H_MODEL, r->model_since && h->since == r->model_since, NULL);
        nnav_rw_cell_null(&w, H_NOTE, a);
        nnav_rw_row_end(&w);
    }
    nnav_rw_table_end(&w);
    if (r->model_opset >= 0) {
        snprintf(line, sizeof line, "opset %lld: the operator does not exist yet", (long long)r->model_opset);
        nnav_rw_key_as(&w, "model_opset", !tf && !r->model_since ? "model" : NULL);
        nnav_rw_int(&w, r->model_opset, line);
        nnav_rw_key_as(&w, "model_since_version", NULL);
        r->model_since ? nnav_rw_int(&w, r->model_since, NULL) : nnav_rw_null(&w, NULL);
    }
    nnav_rw_map_end(&w);
    return nnav_rw_close(&w);
}

int nnav_opref_write(const nnav_opref *r, int yaml, FILE *out)
{
    if (!r->s)
        return -1;
    return write_ref(r, yaml, out);
}

/* ---- close names ---- */

static int lower(int ch)
{
    return tolower((unsigned char)ch);
}

/* How close a table name is to the one asked: 3 same but for case, 2 a
 * shared prefix (4 bytes, or all of the shorter), 1 containing it; 0 not. */
static int closeness(const char *cand, nnav_span name)
{
    size_t cn = strlen(cand), k = 0;
    while (k < cn && k < name.n && lower(cand[k]) == lower(name.p[k]))
        k++;
    if (k == cn && k == name.n)
        return 3;
    size_t shorter = cn < name.n ? cn : (size_t)name.n;
    if (k >= 4 || (k && k == shorter))
        return 2;
    if (name.n >= 3 && name.n <= cn) {
        for (size_t i = 0; i + name.n <= cn; i++) {
            size_t j = 0;
            while (j < name.n && lower(cand[i + j]) == lower(name.p[j]))
                j++;
            if (j == name.n)
                return 1;
        }
    }
    return 0;
}

size_t nnav_opref_suggest(const char *domain, nnav_span name, const char **out, size_t max)
{
    size_t got = 0;
    for (int want = 3; want >= 1; want--) {
        const char *last = NULL;
        for (size_t i = 0; i < nnav_op_table_count() && got < max; i++) {
            const nnav_op_schema *s = nnav_op_table_at(i);
            if (domain && strcmp(s->domain, domain))
                continue;
            if (last && !strcmp(last, s->name))
                continue;
            last = s->name;
            if (closeness(s->name, name) != want)
                continue;
            size_t k = 0;
            while (k < got && strcmp(out[k], s->name))
                k++;
            if (k == got)
                out[got++] = s->name;
        }
    }
    return got;
}

/* ---- a node read against its schema ---- */

const char *nnav_node_schema_line(const nnav_model *m, uint32_t node, const nnav_op_use *u,
                                  char *buf, size_t n)
{
    const nnav_node *nd = nnav_node_get(m, node);
    char op[512], dom[512], path[1024];
    sesc(nd->op, op, sizeof op);
    const char *d = u->domain ? u->domain : sesc(nnav_node_domain(m, node), dom, sizeof dom);
    switch (u->status) {
    case NNAV_OPS_FOUND:
        if (is_tf(u->s)) {
            snprintf(buf, n, "%s (an op definition the model carries)", op);
            break;
        }
        if (u->past_table)
            snprintf(buf, n, "%s v%d (%s, opset %lld in force; the table knows up to %d)%s", op,
                     (int)u->s->since, d, (long long)u->opset, (int)u->table_max,
                     u->s->deprecated ? ", deprecated" : "");
        else
            snprintf(buf, n, "%s v%d (%s, opset %lld in force)%s", op, (int)u->s->since, d,
                     (long long)u->opset, u->s->deprecated ? ", deprecated" : "");
        break;
    case NNAV_OPS_NONSTANDARD:
        snprintf(buf, n, "not in the table: domain %s", d);
        break;
    case NNAV_OPS_FUNCTION:
        if (nd->function != NNAV_NONE) {
            nnav_graph_path(m, nnav_function_get(m, nd->function)->graph, path, sizeof path);
            snprintf(buf, n, "calls local function %s", path);
        } else
            snprintf(buf, n, "calls a function of the model");
        break;
    case NNAV_OPS_UNKNOWN:
        if (u->opset >= 0)
            snprintf(buf, n, "no operator %s in %s (opset %lld in force)", op, d,
                     (long long)u->opset);
        else
            snprintf(buf, n, "no operator %s in the model's op definitions", op);
        break;
    case NNAV_OPS_NOT_YET:
        snprintf(buf, n, "%s exists from %s v%d (opset %lld in force)", op, d,
                 u->s ? (int)u->s->since : 0, (long long)u->opset);
        break;
    case NNAV_OPS_NO_OPSET:
        snprintf(buf, n, "domain %s not imported", d);
        break;
    case NNAV_OPS_NO_SCHEMAS:
        snprintf(buf, n, "the model carries no op definitions");
        break;
    default:
        snprintf(buf, n, "?");
    }
    return buf;
}

const char *nnav_node_formal(const nnav_model *m, uint32_t node, const nnav_op_use *u, int output,
                             uint32_t i, char *buf, size_t n)
{
    if (n)
        buf[0] = 0;
    if (u->status != NNAV_OPS_FOUND || !u->s || !n)
        return buf;
    char raw[512];
    nnav_op_node_arg_name(m, node, u->s, output, i, raw, sizeof raw);
    nnav_text_escape_cstr(raw, buf, n);
    return buf;
}

/* Whether the node sets attribute `name` (a reference to the caller's
 * attribute, in a function body, counts). */
static int node_sets(const nnav_model *m, const nnav_node *nd, const char *name)
{
    for (uint32_t i = 0; i < nd->attr_count; i++)
        if (nnav_span_eqs(nnav_attr_get(m, nd->attr_first + i)->name, name))
            return 1;
    return 0;
}

size_t nnav_node_attr_rows(const nnav_model *m, uint32_t node, const nnav_op_use *u,
                           nnav_node_attr_row *out, size_t max)
{
    const nnav_node *nd = nnav_node_get(m, node);
    const nnav_op_schema *s = u->status == NNAV_OPS_FOUND ? u->s : NULL;
    size_t k = 0;
    for (uint32_t i = 0; i < nd->attr_count; i++, k++) {
        const nnav_attr *at = nnav_attr_get(m, nd->attr_first + i);
        const nnav_op_attr *sa = s ? nnav_op_attr_find(s, at->name) : NULL;
        /* TensorFlow's own attributes (_output_shapes, _class...) are
         * declared by no OpDef and allowed on any node, as check allows them. */
        int framework = nnav_op_schema_is_models(s) && at->name.n && at->name.p[0] == '_';
        if (k < max)
            out[k] = (nnav_node_attr_row){s && !sa && !framework ? NNAV_NA_UNKNOWN : NNAV_NA_FILE,
                                          nd->attr_first + i, sa};
    }
    for (uint32_t j = 0; s && j < s->n_attrs; j++) {
        const nnav_op_attr *sa = &s->attrs[j];
        if (node_sets(m, nd, sa->name))
            continue;
        if (k < max)
            out[k] = (nnav_node_attr_row){sa->has_default ? NNAV_NA_DEFAULT : NNAV_NA_UNSET,
                                          NNAV_NONE, sa};
        k++;
    }
    return k;
}

const char *nnav_node_attr_row_value(const nnav_model *m, const nnav_node_attr_row *r,
                                     size_t max_items, char *buf, size_t n)
{
    if (!n)
        return buf;
    buf[0] = 0;
    if (r->attr != NNAV_NONE) {
        nnav_attr_format(m, r->attr, max_items, buf, n);
    } else if (r->state == NNAV_NA_DEFAULT && r->sa) {
        char raw[2048];
        nnav_op_default_format(&r->sa->def, raw, sizeof raw);
        nnav_text_escape_cstr(raw, buf, n);
    }
    return buf;
}

void nnav_node_schema_yaml(nnav_yw *w, const nnav_model *m, uint32_t node, const nnav_op_use *u)
{
    nnav_yw_map_flow(w);
    nnav_yw_key(w, "status"), nnav_yw_cstr(w, nnav_op_status_word(u->status));
    nnav_yw_key(w, "domain");
    if (u->domain)
        nnav_yw_cstr(w, u->domain);
    else if (u->s && is_tf(u->s))
        nnav_yw_cstr(w, NNAV_OP_DOMAIN_MODEL);
    else
        nnav_yw_span(w, nnav_node_domain(m, node));
    if (u->s && (u->status == NNAV_OPS_FOUND || u->status == NNAV_OPS_NOT_YET)) {
        nnav_yw_key(w, "since_version"), nnav_yw_int(w, u->s->since);
        nnav_yw_key(w, "deprecated"), nnav_yw_bool(w, u->s->deprecated);
    }
    if (u->opset >= 0) /* none for a domain the table does not hold */
        nnav_yw_key(w, "opset"), nnav_yw_int(w, u->opset);
    if (u->past_table) {
        nnav_yw_key(w, "past_table"), nnav_yw_bool(w, 1);
        nnav_yw_key(w, "table_max"), nnav_yw_int(w, u->table_max);
    }
    if (u->status == NNAV_OPS_FUNCTION && nnav_node_get(m, node)->function != NNAV_NONE) {
        char path[1024];
        nnav_graph_path(m, nnav_function_get(m, nnav_node_get(m, node)->function)->graph, path,
                        sizeof path);
        nnav_yw_key(w, "function"), nnav_yw_cstr(w, path);
    }
    if (u->status == NNAV_OPS_FOUND && u->s) {
        /* The names only: the file's attributes stay as they are in the
         * node's attribute list; defaults are added there. */
        const nnav_node *nd = nnav_node_get(m, node);
        int any = 0;
        for (uint32_t i = 0; i < nd->attr_count; i++) {
            const nnav_attr *at = nnav_attr_get(m, nd->attr_first + i);
            if (nnav_op_attr_find(u->s, at->name))
                continue;
            if (!any++)
                nnav_yw_key(w, "unknown_attributes"), nnav_yw_seq_flow(w);
            nnav_yw_span(w, at->name);
        }
        if (any)
            nnav_yw_seq_end(w);
        any = 0;
        for (uint32_t j = 0; j < u->s->n_attrs; j++) {
            const nnav_op_attr *sa = &u->s->attrs[j];
            if (sa->has_default || node_sets(m, nd, sa->name))
                continue;
            if (!any++)
                nnav_yw_key(w, "unset_attributes"), nnav_yw_seq_flow(w);
            ystr(w, sa->name);
        }
        if (any)
            nnav_yw_seq_end(w);
    }
    nnav_yw_map_end(w);
}
