/* ptinfo.c - what a PyTorch checkpoint adds to `nnav info` and the
 * explorer's model details (its entries besides the tensors, a TorchScript
 * archive's code files, what loading it would run), and the table and
 * verdict `nnav scan` prints: text and YAML, written here once. */
#include "report.h"

#include <stdio.h>
#include <string.h>

#include "ptscan.h"

static const char *esc(nnav_span s, char *buf, size_t n)
{
    nnav_text_escape(s.p, s.n, buf, n);
    return buf;
}

static void gname(const nnav_pt_global *g, char *buf, size_t n)
{
    char a[200], b[200];
    snprintf(buf, n, "%s.%s", esc(g->module, a, sizeof a), esc(g->name, b, sizeof b));
}

/* The human table: every global, then the verdict. */
void nnav_pt_scan_text(const nnav_pt_scan *s, FILE *f, const char *indent)
{
    char nm[420];
    fprintf(f, "%s%-10s %-44s %-8s %s\n", indent, "offset", "global", "allowed", "on load");
    for (uint32_t i = 0; i < s->count; i++) {
        const nnav_pt_global *g = &s->g[i];
        gname(g, nm, sizeof nm);
        fprintf(f, "%s%-10llu %-44s %-8s ", indent, (unsigned long long)g->offset, nm,
                g->allowed ? "yes" : "NO");
        if (g->call && !g->allowed)
            fprintf(f, "WOULD RUN %s (%s @%llu in %s)\n", g->call, nnav_pt_call_op_name(g->op),
                    (unsigned long long)g->call_offset, g->entry ? g->entry : "?");
        else if (g->op)
            fprintf(f, "builds data (%s @%llu)\n", nnav_pt_call_op_name(g->op),
                    (unsigned long long)g->call_offset);
        else
            fprintf(f, "%s\n", g->allowed ? "-" : "referenced, not called");
    }
    if (s->failed) {
        char e[1200];
        nnav_error_format(&s->err, "", e, sizeof e);
        fprintf(f, "%sthe pickle stopped at a fault, past which nothing is known: %s\n", indent,
                e[0] == ':' ? e + 2 : e);
    }
    if (s->would_run) {
        fprintf(f, "%sDANGER: loading this file with torch.load (without weights_only=True) or "
                   "pickle would run %u call%s outside torch's weights_only allowlist:\n",
                indent, s->would_run, s->would_run == 1 ? "" : "s");
        for (uint32_t i = 0; i < s->count; i++)
            if (s->g[i].op && !s->g[i].allowed)
                fprintf(f, "%s  %s\n", indent, s->g[i].call ? s->g[i].call : "?");
        fprintf(f, "%snnav ran none of them.\n", indent);
    } else if (!s->failed) {
        fprintf(f, "%sclean: every call is in torch's weights_only allowlist%s (nothing else "
                   "would run on load)\n", indent,
                s->torchscript ? " or one torch.jit.load's unpickler makes itself (a TorchScript "
                                 "archive)" : "");
    }
}

void nnav_pt_scan_yaml(nnav_yw *w, const nnav_pt_scan *s)
{
    nnav_yw_key(w, "pickles"), nnav_yw_uint(w, s->pickles);
    nnav_yw_key(w, "would_run"), nnav_yw_uint(w, s->would_run);
    nnav_yw_key(w, "torchscript"), nnav_yw_bool(w, s->torchscript);
    nnav_yw_key(w, "complete"), nnav_yw_bool(w, !s->failed);
    if (s->failed) {
        char e[1200];
        nnav_error_format(&s->err, "", e, sizeof e);
        nnav_yw_key(w, "fault"), nnav_yw_cstr(w, e[0] == ':' ? e + 2 : e);
        nnav_yw_key(w, "fault_offset"), nnav_yw_uint(w, s->err.offset);
    }
    nnav_yw_key(w, "globals");
    nnav_yw_seq(w);
    for (uint32_t i = 0; i < s->count; i++) {
        const nnav_pt_global *g = &s->g[i];
        nnav_yw_map_flow(w);
        nnav_yw_key(w, "module"), nnav_yw_span(w, g->module);
        nnav_yw_key(w, "name"), nnav_yw_span(w, g->name);
        nnav_yw_key(w, "offset"), nnav_yw_uint(w, g->offset);
        nnav_yw_key(w, "allowed"), nnav_yw_bool(w, g->allowed);
        nnav_yw_key(w, "entry"), nnav_yw_cstr(w, g->entry ? g->entry : "");
        nnav_yw_key(w, "called_by");
        g->op ? nnav_yw_cstr(w, nnav_pt_call_op_name(g->op)) : nnav_yw_null(w);
        nnav_yw_key(w, "call");
        g->call ? nnav_yw_cstr(w, g->call) : nnav_yw_null(w);
        nnav_yw_map_end(w);
    }
    nnav_yw_seq_end(w);
}

void nnav_pt_info_yaml(nnav_yw *w, const nnav_model *m)
{
    const nnav_pt_scan *s = nnav_model_pt_scan(m);
    if (!s)
        return;
    uint32_t nd = nnav_pt_data_count(m);
    nnav_yw_key(w, "checkpoint_entries");
    nnav_yw_seq(w);
    for (uint32_t i = 0; i < nd; i++) {
        const char *v = NULL, *k = nnav_pt_data_get(m, i, &v);
        if (!k)
            break;
        nnav_yw_map_flow(w);
        nnav_yw_key(w, "key"), nnav_yw_cstr(w, k);
        nnav_yw_key(w, "value"), nnav_yw_cstr(w, v ? v : "");
        nnav_yw_map_end(w);
    }
    nnav_yw_seq_end(w);
    nnav_yw_key(w, "code_files");
    nnav_yw_seq(w);
    for (uint32_t i = 0; i < nnav_pt_code_count(m); i++) {
        uint64_t bytes;
        int stored;
        nnav_span nm = nnav_pt_code_get(m, i, &bytes, &stored);
        nnav_yw_map_flow(w);
        nnav_yw_key(w, "name"), nnav_yw_span(w, nm);
        nnav_yw_key(w, "bytes"), nnav_yw_uint(w, bytes);
        nnav_yw_key(w, "stored"), nnav_yw_bool(w, stored);
        nnav_yw_map_end(w);
    }
    nnav_yw_seq_end(w);
    nnav_yw_key(w, "pickle");
    nnav_yw_map(w);
    nnav_pt_scan_yaml(w, s);
    nnav_yw_map_end(w);
}

void nnav_pt_info_text(const nnav_model *m, FILE *f)
{
    const nnav_pt_scan *s = nnav_model_pt_scan(m);
    if (!s)
        return;
    uint32_t nd = nnav_pt_data_count(m);
    if (nd)
        fprintf(f, "\ncheckpoint     %u entr%s besides the tensors\n", nd, nd == 1 ? "y" : "ies");
    for (uint32_t i = 0; i < nd && i < 40; i++) {
        const char *v, *k = nnav_pt_data_get(m, i, &v);
        char e[600];
        nnav_text_escape_cstr(k, e, sizeof e);
        fprintf(f, "  %-30s %s\n", e, v);
    }
    if (nd > 40)
        fprintf(f, "  ... %u more\n", nd - 40);
    uint32_t nc = nnav_pt_code_count(m);
    if (nc)
        fprintf(f, "\ncode           %u TorchScript file%s (listed; nnav compiles and runs none)\n",
                nc, nc == 1 ? "" : "s");
    for (uint32_t i = 0; i < nc && i < 40; i++) {
        uint64_t bytes;
        int stored;
        nnav_span nm = nnav_pt_code_get(m, i, &bytes, &stored);
        char e[600], b[32];
        nnav_text_escape(nm.p, nm.n, e, sizeof e);
        nnav_text_commas(bytes, b, sizeof b);
        fprintf(f, "  %-50s %s bytes%s\n", e, b, stored ? "" : " (compressed)");
    }
    if (nc > 40)
        fprintf(f, "  ... %u more\n", nc - 40);
    fprintf(f, "\npickle         %u global%s referenced%s\n", s->count, s->count == 1 ? "" : "s",
            s->would_run ? " -- DANGER: loading this file would run code" : "");
    nnav_pt_scan_text(s, f, "  ");
}
