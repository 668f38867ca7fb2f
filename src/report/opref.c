/* opref.c - the operator reference and a node read against its schema
 * (opref.h): what `nnav op`, `nnav node` and the explorer's detail pane and
 * reference view show, written once over opschema.h. */
#include "opref.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "nnav.h"
#include "opschema.h"
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
    if (!m || nnav_model_facts_get(m)->format != NNAV_FMT_ONNX)
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

static void write_formals_text(FILE *out, const char *what, const nnav_op_formal *f, uint32_t nf,
                               int32_t lo, int32_t hi)
{
    char range[64], a[512], b[512];
    range_text(lo, hi, range, sizeof range);
    fprintf(out, "%s (%s):\n", what, range);
    int wn = 8;
    for (uint32_t i = 0; i < nf; i++) {
        int l = (int)strlen(tesc(f[i].name, a, sizeof a));
        if (l > wn)
            wn = l;
    }
    for (uint32_t i = 0; i < nf; i++) {
        tesc(f[i].name, a, sizeof a);
        tesc(f[i].type, b, sizeof b);
        if (f[i].option == NNAV_OPF_OPTIONAL)
            fprintf(out, "  %-*s %-24s optional\n", wn, a, b);
        else if (f[i].option == NNAV_OPF_VARIADIC)
            fprintf(out, "  %-*s %-24s variadic%s\n", wn, a, b,
                    f[i].homogeneous ? "" : ", heterogeneous");
        else
            fprintf(out, "  %-*s %s\n", wn, a, b);
    }
}

static void write_formals_yaml(nnav_yw *w, const char *key, const nnav_op_formal *f, uint32_t nf)
{
    nnav_yw_key(w, key);
    nnav_yw_seq(w);
    for (uint32_t i = 0; i < nf; i++) {
        nnav_yw_map_flow(w);
        nnav_yw_key(w, "name"), ystr(w, f[i].name);
        nnav_yw_key(w, "type"), ystr(w, f[i].type);
        nnav_yw_key(w, "option"), nnav_yw_cstr(w, option_word(f[i].option));
        if (f[i].option == NNAV_OPF_VARIADIC)
            nnav_yw_key(w, "homogeneous"), nnav_yw_bool(w, f[i].homogeneous);
        nnav_yw_map_end(w);
    }
    nnav_yw_seq_end(w);
}

static int write_yaml(const nnav_opref *r, FILE *out)
{
    const nnav_op_schema *s = r->s;
    nnav_yw yw, *w = &yw;
    if (nnav_yw_open(w, out) < 0)
        return -1;
    nnav_yw_map(w);
    nnav_yw_key(w, "op"), ystr(w, s->name);
    nnav_yw_key(w, "domain"), ystr(w, s->domain);
    nnav_yw_key(w, "since_version"), nnav_yw_int(w, s->since);
    nnav_yw_key(w, "deprecated"), nnav_yw_bool(w, s->deprecated);
    nnav_yw_key(w, "opset");
    r->opset >= 0 ? nnav_yw_int(w, r->opset) : nnav_yw_null(w);
    nnav_yw_key(w, "in_force");
    nnav_yw_bool(w, r->opset < 0 || r->opset >= s->since);
    if (!is_tf(s))
        nnav_yw_key(w, "table"), nnav_yw_cstr(w, nnav_op_table_origin());
    nnav_yw_key(w, "min_input"), nnav_yw_int(w, s->min_in);
    nnav_yw_key(w, "max_input"), nnav_yw_int(w, s->max_in);
    nnav_yw_key(w, "min_output"), nnav_yw_int(w, s->min_out);
    nnav_yw_key(w, "max_output"), nnav_yw_int(w, s->max_out);
    write_formals_yaml(w, "inputs", s->in, s->n_in);
    write_formals_yaml(w, "outputs", s->out, s->n_out);
    nnav_yw_key(w, "attributes");
    nnav_yw_seq(w);
    for (uint32_t i = 0; i < s->n_attrs; i++) {
        const nnav_op_attr *a = &s->attrs[i];
        nnav_yw_map_flow(w);
        nnav_yw_key(w, "name"), ystr(w, a->name);
        nnav_yw_key(w, "type"), nnav_yw_cstr(w, nnav_attr_type_name(a->type));
        nnav_yw_key(w, "required"), nnav_yw_bool(w, a->required);
        if (a->has_default)
            nnav_yw_key(w, "default"), nnav_op_default_yaml(w, &a->def);
        nnav_yw_map_end(w);
    }
    nnav_yw_seq_end(w);
    nnav_yw_key(w, "type_constraints");
    nnav_yw_seq(w);
    for (uint32_t i = 0; i < s->n_tcs; i++) {
        nnav_yw_map_flow(w);
        nnav_yw_key(w, "param"), ystr(w, s->tcs[i].param);
        nnav_yw_key(w, "allowed");
        nnav_yw_seq_flow(w);
        for (uint32_t k = 0; k < s->tcs[i].n_allowed; k++)
            ystr(w, s->tcs[i].allowed[k]);
        nnav_yw_seq_end(w);
        nnav_yw_map_end(w);
    }
    nnav_yw_seq_end(w);
    nnav_yw_key(w, "history");
    nnav_yw_seq(w);
    for (size_t i = 0; i < r->n_hist; i++) {
        const nnav_op_schema *h = r->hist[i];
        nnav_yw_map_flow(w);
        nnav_yw_key(w, "since_version"), nnav_yw_int(w, h->since);
        nnav_yw_key(w, "deprecated"), nnav_yw_bool(w, h->deprecated);
        nnav_yw_key(w, "shown"), nnav_yw_bool(w, h == s);
        nnav_yw_key(w, "model"), nnav_yw_bool(w, r->model_since && h->since == r->model_since);
        nnav_yw_map_end(w);
    }
    nnav_yw_seq_end(w);
    if (r->model_opset >= 0) {
        nnav_yw_key(w, "model_opset"), nnav_yw_int(w, r->model_opset);
        nnav_yw_key(w, "model_since_version");
        r->model_since ? nnav_yw_int(w, r->model_since) : nnav_yw_null(w);
    }
    nnav_yw_map_end(w);
    return nnav_yw_close(w);
}

int nnav_opref_write(const nnav_opref *r, int yaml, FILE *out)
{
    const nnav_op_schema *s = r->s;
    if (!s)
        return -1;
    if (yaml)
        return write_yaml(r, out);
    char a[1024], b[1024], c[1024];
    fprintf(out, "%-10s %s\n", "op", tesc(s->name, a, sizeof a));
    fprintf(out, "%-10s %s\n", "domain", is_tf(s) ? "tf (an op definition the model carries)" :
                                                   tesc(s->domain, a, sizeof a));
    if (!is_tf(s)) {
        fprintf(out, "%-10s %d", "version", (int)s->since);
        if (r->opset >= 0 && r->opset < s->since)
            fprintf(out, " (the first; not yet at opset %lld)", (long long)r->opset);
        else if (r->opset >= 0 && r->opset > nnav_op_table_max(r->domain))
            fprintf(out, " (in force at opset %lld; the table knows up to %d)",
                    (long long)r->opset, (int)nnav_op_table_max(r->domain));
        else if (r->opset >= 0)
            fprintf(out, " (in force at opset %lld)", (long long)r->opset);
        else
            fprintf(out, " (the newest in the table)");
        fprintf(out, "%s\n", s->deprecated ? ", deprecated" : "");
    }
    write_formals_text(out, "inputs", s->in, s->n_in, s->min_in, s->max_in);
    write_formals_text(out, "outputs", s->out, s->n_out, s->min_out, s->max_out);
    fprintf(out, "attributes (%u):\n", s->n_attrs);
    int wn = 20;
    for (uint32_t i = 0; i < s->n_attrs; i++) {
        int l = (int)strlen(tesc(s->attrs[i].name, a, sizeof a));
        if (l > wn)
            wn = l;
    }
    for (uint32_t i = 0; i < s->n_attrs; i++) {
        const nnav_op_attr *at = &s->attrs[i];
        fprintf(out, "  %-*s %-8s ", wn, tesc(at->name, a, sizeof a), nnav_attr_type_name(at->type));
        if (at->required)
            fprintf(out, "required\n");
        else if (at->has_default) {
            nnav_op_default_format(&at->def, b, sizeof b);
            fprintf(out, "default %s\n", tesc(b, c, sizeof c));
        } else
            fprintf(out, "optional\n");
    }
    fprintf(out, "type constraints (%u):\n", s->n_tcs);
    for (uint32_t i = 0; i < s->n_tcs; i++) {
        const nnav_op_tc *tc = &s->tcs[i];
        fprintf(out, "  %-8s ", tesc(tc->param, a, sizeof a));
        for (uint32_t k = 0; k < tc->n_allowed; k++)
            fprintf(out, "%s%s", k ? ", " : "", tesc(tc->allowed[k], a, sizeof a));
        /* An OpDef's type attr without allowed_values takes any type (YAML:
         * an empty allowed list). */
        fprintf(out, "%s\n", tc->n_allowed ? "" : "any type");
    }
    if (!is_tf(s)) {
        fprintf(out, "history (%zu version%s):\n", r->n_hist, r->n_hist == 1 ? "" : "s");
        for (size_t i = 0; i < r->n_hist; i++) {
            history_note(r, r->hist[i], a, sizeof a);
            if (a[0])
                fprintf(out, "  v%-7d %s\n", (int)r->hist[i]->since, a);
            else
                fprintf(out, "  v%d\n", (int)r->hist[i]->since);
        }
        if (r->model_opset >= 0 && !r->model_since)
            fprintf(out, "%-10s opset %lld: the operator does not exist yet\n", "model",
                    (long long)r->model_opset);
    }
    return ferror(out) ? -1 : 0;
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
