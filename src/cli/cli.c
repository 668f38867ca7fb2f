/* cli.c - the scriptable face: info, meta, tree, nodes, node, tensors,
 * find, shapes, cost, summary, check, export, op, diff, scan, completions.
 * Human tables by default, the same facts as YAML with --yaml. Every string
 * from the file goes through nnav_text_escape (tables) or nnav_yw_span (YAML).
 *
 * This file parses the command line and dispatches; each command lives in
 * its own file (cli_int.h lists them), their shared helpers in cli_common.c. */
#include "cli.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_int.h"
#include "nnav.h"

/* ---- commands and their options ---- */

/* The commands, in the order help lists them; a bit each in an option's cmds. */
enum { K_INFO, K_META, K_TREE, K_NODES, K_NODE, K_TENSORS, K_SHAPES, K_COST, K_SUMMARY,
       K_CHECK, K_EXPORT, K_FIND, K_OP, K_DIFF, K_SCAN, K_COMPLETIONS, K_COUNT };
#define C(k) (1u << K_##k)
#define C_ALL ((1u << K_COUNT) - 1)

typedef struct command {
    const char *name;
    int (*run)(const nnav_model *, const opts *);
    const char *args;   /* after MODEL */
    const char *help;
    int col;            /* where its options' help starts, after two spaces */
    int no_model;       /* takes no MODEL (op: a model only with --model) */
    int two_models;     /* takes two (args names them); run gets no model and opens them */
    int usage_status;   /* its usage errors' exit status when not EXIT_USAGE (diff: 2) */
    int arg_optional;   /* its one argument after MODEL may be left out (meta's KEY) */
} command;

static int cmd_completions(const nnav_model *m, const opts *o);

static const command commands[K_COUNT] = {
    [K_INFO] = {"info", cmd_info, "", "Model facts: format (and why), IR, producer, opsets, "
     "metadata, TensorFlow signatures, counts, weight "
     "bytes, MACs and params of the whole model, op-type histogram.", 17, 0, 0, 0},
    [K_META] = {"meta", cmd_meta, " [KEY]", "A model's own metadata (a weights file's key-value "
     "pairs, metadata_props, a checkpoint's entries): every key with its value "
     "shortened as info shows it; with KEY the whole value (a string every byte of it, escaped; "
     "a list one item a line). KEY may be SECTION.KEY; an unknown KEY is bad input naming close "
     "ones.", 17, 0, 0, 0, 1},
    [K_TREE] = {"tree", cmd_tree, "", "Every graph (main, If/Loop/Scan bodies, functions) with "
     "its path, owner and node count.", 17, 0, 0, 0},
    [K_NODES] = {"nodes", cmd_nodes, "", "The nodes of one graph: index, op type, name, inputs -> "
     "outputs.", 17, 0, 0, 0},
    [K_NODE] = {"node", cmd_node, " NAME", "One node: op and domain, the operator's schema in force, "
     "every attribute (and the schema's defaults), each input's schema name, source and type, "
     "each output's consumers, its cost. NAME may be #INDEX.", 17, 0, 0, 0},
    [K_TENSORS] = {"tensors", cmd_tensors, "", "Initializers: name, dtype, shape, storage, bytes; "
     "totals.", 17, 0, 0, 0},
    [K_SHAPES] = {"shapes", cmd_shapes, "", "Every value of a graph with its element type and "
     "shape, inferred through the operators and checked against the file: inputs, initializers, "
     "then node outputs; where each type comes from, and why one is unknown.", 17, 0, 0, 0},
    [K_COST] = {"cost", cmd_cost, "", "MACs, FLOPs, parameters and output bytes of a graph, in all "
     "and by op type (heaviest first), from the inferred shapes.", 17, 0, 0, 0},
    [K_SUMMARY] = {"summary", cmd_summary, "", "The module hierarchy of a graph, from node names "
     "(PyTorch, TensorFlow) or the exporter's node metadata: each scope's class or ops, output "
     "type, parameters (as the framework counts them) and MACs; identical sibling layers folded.",
     17, 0, 0, 0},
    [K_CHECK] = {"check", cmd_check, "", "Values whose type in the file contradicts what their "
     "producer gives, TensorFlow signature tensors whose type contradicts the graph's, and every "
     "node held to its operator's schema as onnx.checker holds it (unknown operator or "
     "attribute, wrong attribute type, missing required attribute, argument counts, input "
     "types); exit status 2 when there is any.", 17, 0, 0, 0},
    [K_EXPORT] = {"export", cmd_export, "", "Write a graph, the region between value names, or a "
     "node's neighbourhood as YAML (to stdout) or as a new ONNX model.", 19, 0, 0, 0},
    [K_FIND] = {"find", cmd_find, " PATTERN", "Case-insensitive substring search over node names, "
     "op types, value and initializer names in all graphs; 'op:Conv' matches an op type "
     "exactly; exit status 1 when nothing matches, as grep.", 17, 0, 0, 0},
    [K_OP] = {"op", cmd_op, " NAME", "The schema of an operator from the table (ai.onnx, "
     "ai.onnx.ml, ai.onnx.preview, ai.onnx.preview.training, com.microsoft): inputs and outputs with their types, attributes "
     "with types and defaults, type constraints, and every version, marking the one in force. "
     "An unknown NAME is a usage error naming close ones.", 17, 1, 0, 0},
    [K_DIFF] = {"diff", cmd_diff, " A B", "What changed from model A to model B: a summary line, "
     "totals, then by graph the inputs and outputs, nodes added (+), removed (-) or changed (~: "
     "renamed, op, attributes with old and new values, inputs rewired, the slots that differ in "
     "[ ]) and initializers added, removed, renamed, retyped, reshaped or changed in value (how "
     "many elements, the largest absolute difference and where, the largest relative one). "
     "A store of tensors (a checkpoint, a weights file) against any model: its "
     "tensors alone, by name, the common renames, bytes or a transpose. "
     "On a terminal it opens the explorer's compare mode. Exit status as diff(1): 0 no "
     "differences, 1 differences, 2 trouble (a file that cannot be read, two graph formats, or a "
     "usage error).", 17, 1, 1, EXIT_BADINPUT},
    [K_SCAN] = {"scan", cmd_scan, " FILE", "What loading a PyTorch checkpoint or a pickle would "
     "run, read without running anything: every global its pickles reference, whether torch's "
     "weights_only loader allows it, and each call outside that list with its arguments; exit "
     "status 2 when the file would run code.", 17, 1, 0, 0},
    [K_COMPLETIONS] = {"completions", cmd_completions, " bash|zsh", "A shell completion script "
     "for bash or zsh, from this table of commands and options: commands, options, their "
     "choices, and node and initializer names (asked of 'nnav find' on the model word). "
     "Load it with: source <(nnav completions bash).", 17, 1, 0, 0},
};

/* Every option, once per wording of its help: the commands in cmds take it
 * and list it with that help, in this order ("\n" continues the help on a
 * line of its own). A command not in any row of an option does not take it:
 * giving it is a usage error. Rows for C_ALL are the common options, listed
 * last at the common column. `key` is getopt's value; a short option is
 * `key` itself when `short_opt` is set. */
typedef struct option_row {
    const char *name;
    int key, short_opt;
    const char *arg;    /* its value's name; NULL when it takes none */
    unsigned cmds;
    const char *help;   /* NULL: taken but not listed */
} option_row;

static const option_row options[] = {
    {"graph", 'g', 0, "PATH", C(NODES), "the graph to list (default /; see 'nnav tree')"},
    {"graph", 'g', 0, "PATH", C(NODE), "look in this graph only"},
    {"graph", 'g', 0, "PATH", C(TENSORS), "the graph whose initializers to list (default /)"},
    {"graph", 'g', 0, "PATH", C(SHAPES), "the graph to list (default /)"},
    {"graph", 'g', 0, "PATH", C(COST), "the graph to cost (default /)"},
    {"graph", 'g', 0, "PATH", C(SUMMARY), "the graph to summarise (default /)"},
    {"graph", 'g', 0, "PATH", C(CHECK), "the graph to check (default /)"},
    {"graph", 'g', 0, "PATH", C(EXPORT), "the graph to export (default /), or to take a region "
     "from"},
    {"inputs", 'I', 0, "A,B", C(EXPORT), "region: start from these values..."},
    {"outputs", 'O', 0, "C,D", C(EXPORT), "...and compute these (every node needed is taken)"},
    {"node", 'N', 0, "NAME", C(EXPORT), "a node and its neighbours..."},
    {"op", 'P', 0, "TYPE", C(NODES), "only nodes of this op type (Conv, or DOMAIN:TYPE)"},
    {"depth", 'd', 0, "N", C(EXPORT), "...N steps up and down (default 1)"},
    {"format", 'f', 0, "yaml|onnx", C(EXPORT), "output format; by default the one -o FILE's "
     "extension names\n(.onnx, .yaml or .yml), else yaml; a contradiction is an error"},
    {"output", 'o', 1, "FILE", C(EXPORT), "write FILE (safely: temporary file, then rename)"},
    {"max-values", 'M', 0, "N", C(EXPORT), "YAML: write values of tensors of at most N elements "
     "(default 16)"},
    {"binary", 'b', 0, NULL, C(EXPORT), "YAML: also raw bytes as !!binary base64"},
    {"all", 'a', 0, NULL, C(TENSORS), "initializers of every graph"},
    {"all", 'a', 0, NULL, C(SHAPES), "every graph: bodies and functions too"},
    {"all", 'a', 0, NULL, C(COST), "every graph, each on its own (bodies are not multiplied by "
     "trip counts)"},
    {"all", 'a', 0, NULL, C(CHECK), "every graph"},
    {"constants", 'c', 0, NULL, C(TENSORS), "also tensors held in attributes (Constant nodes)"},
    {"sort", 's', 0, "size|name", C(TENSORS), "order by size (largest first) or name; default "
     "file order"},
    {"name", 'n', 0, "NAME", C(TENSORS), "only the tensor of this name"},
    {"values", 'v', 0, "N", C(TENSORS), "also the first N values and min/max/mean (reads the "
     "data)"},
    {"nodes", 'L', 0, NULL, C(COST), "also one line per node"},
    {"shapes", 'S', 0, NULL, C(NODES), "also each output's type, inferred (see 'nnav shapes')"},
    {"depth", 'd', 0, "N", C(SUMMARY), "scopes down to N levels below the graph (default all)"},
    {"declutter", 'K', 0, NULL, C(NODES), "leave out Constant and Identity nodes and shape "
     "arithmetic that\nfolds to a constant; its value shows on the input it feeds"},
    {"declutter", 'K', 0, NULL, C(SUMMARY), "ops of the decluttered view (see nodes --declutter); "
     "counts\nsay how many nodes it hides; params and MACs stay exact"},
    {"declutter", 'K', 0, NULL, C(EXPORT), "YAML: leave out the nodes nodes --declutter hides; "
     "a node's\nfolded inputs' values in its 'folded' list"},
    {"declutter", 'K', 0, NULL, C(DIFF), "compare the decluttered views (see nodes --declutter): "
     "the nodes\nit hides on either side are not compared"},
    {"no-values", 'W', 0, NULL, C(DIFF), "compare structure only: initializers by dtype and "
     "shape, not values"},
    {"tolerance", 'T', 0, "X", C(DIFF), "elements whose absolute difference is at most X count "
     "as equal\n(X a finite number, at least 0; default 0)"},
    {"external", 'E', 0, "inline|keep", C(EXPORT), "ONNX: external data inline (default) or in "
     "FILE.data"},
    {"dim", 'D', 0, "NAME=N", C(NODE), "take the named dimension NAME as N in the cost "
     "(repeatable; NAME=N,NAME=N)"},
    {"dim", 'D', 0, "NAME=N", C(SHAPES), "take the named dimension NAME as N (repeatable; "
     "NAME=N,NAME=N)"},
    {"dim", 'D', 0, "NAME=N", C(COST) | C(SUMMARY), "take the named dimension NAME as N in costs "
     "(default 1; repeatable; NAME=N,NAME=N)"},
    {"opset", 'q', 0, "N", C(OP), "the version in force at opset N (default: the newest; "
     "with --model,\nthe model's)"},
    {"domain", 'r', 0, "D", C(OP), "the operator's domain (default: ai.onnx, then the others)"},
    {"model", 'u', 0, "FILE", C(OP), "also mark the version the model FILE uses"},
    {"list", 'l', 0, NULL, C(OP), "list the operators (of --domain D) and their versions"},
    {"yaml", 'y', 0, NULL, C_ALL & ~(C(COST) | C(SUMMARY) | C(EXPORT) | C(DIFF) | C(META) |
                                    C(COMPLETIONS)),
     "the same facts as YAML"},
    {"yaml", 'y', 0, NULL, C(META), "the same facts as YAML (with KEY: section, key and the "
     "value exactly,\nan array's type, count and every item)"},
    {"yaml", 'y', 0, NULL, C(DIFF), "the same facts as YAML, with exact numbers (never the "
     "explorer)"},
    {"yaml", 'y', 0, NULL, C(COST), "the same facts as YAML, with exact numbers"},
    {"yaml", 'y', 0, NULL, C(SUMMARY), "every scope as YAML, each repeat naming the scope it is "
     "identical to"},
    {"yaml", 'y', 0, NULL, C(EXPORT), NULL}, /* taken, and without effect: export writes YAML */
    {"verbose", 'V', 0, NULL, C(INFO), "also why the file was read as its format (what in\nits content told)"},
    {"follow-links", 'F', 0, NULL, C_ALL, "follow any symbolic link to external data (default: "
     "only\na Hugging Face cache snapshot's link to its own blobs/)"},
    {"help", 'h', 1, NULL, C_ALL, NULL},
};
#define N_OPTIONS (sizeof options / sizeof *options)

/* Whether command k takes the option whose getopt value is key. */
static int takes(int k, int key)
{
    for (size_t i = 0; i < N_OPTIONS; i++)
        if (options[i].key == key && (options[i].cmds & (1u << k)))
            return 1;
    return 0;
}

/* One row of a command's --help: "  --graph PATH", padded to col (two
 * spaces when longer), then the help, its further lines under the first. */
static void print_option(FILE *f, const option_row *r, int col)
{
    char head[64];
    int len = r->short_opt ? snprintf(head, sizeof head, "-%c, ", r->key) : 0;
    len += snprintf(head + len, sizeof head - (size_t)len, "--%s%s%s", r->name,
                    r->arg ? " " : "", r->arg ? r->arg : "");
    fprintf(f, "  %s%*s", head, len < col ? col - len : 2, "");
    for (const char *p = r->help; *p; p++) {
        fputc(*p, f);
        if (*p == '\n')
            fprintf(f, "%*s", col + 2, "");
    }
    fputc('\n', f);
}

/* nnav COMMAND --help (and nnav help COMMAND). */
static void command_help(FILE *f, int k)
{
    const command *cmd = &commands[k];
    fprintf(f, "Usage: nnav %s%s%s [OPTIONS]\n%s\n\nOptions:\n", cmd->name,
            cmd->no_model ? "" : " MODEL", cmd->args, cmd->help);
    for (size_t i = 0; i < N_OPTIONS; i++)
        if (options[i].help && options[i].cmds != C_ALL && (options[i].cmds & (1u << k)))
            print_option(f, &options[i], cmd->col);
    for (size_t i = 0; i < N_OPTIONS; i++)
        if (options[i].help && options[i].cmds == C_ALL)
            print_option(f, &options[i], 17);
}

void nnav_cli_usage(FILE *f)
{
    fprintf(f, "Usage: nnav MODEL                 open the interactive explorer\n"
               "       nnav COMMAND MODEL [ARGS]  print facts about a model\n\n"
               "Commands:\n");
    for (size_t i = 0; i < K_COUNT; i++) {
        char head[64];
        snprintf(head, sizeof head, "%s%s%s", commands[i].name,
                 commands[i].no_model ? "" : " MODEL", commands[i].args);
        fprintf(f, "  %-22s %s\n", head, commands[i].help);
    }
    fprintf(f, "  %-22s %s\n", "help [COMMAND]", "This help, or a command's options.");
    /* What MODEL may be: the one list of readable formats (the readers'). */
    char list[400], text[700];
    nnav_readable_formats(list, sizeof list);
    snprintf(text, sizeof text, "MODEL is a model file or folder nnav reads: %s. The format is "
             "told by content; a checkpoint's pickles are never run.", list);
    fputc('\n', f);
    for (const char *p = text; *p;) {
        /* wrapped at 78 columns, between words */
        size_t n = strlen(p), cut = n;
        if (n > 78) {
            cut = 78;
            while (cut > 0 && p[cut] != ' ')
                cut--;
            if (cut == 0)
                cut = 78;
        }
        fprintf(f, "%.*s\n", (int)cut, p);
        p += cut;
        while (*p == ' ')
            p++;
    }
    fprintf(f, "Exit status: 0 ok, 1 usage error, 2 bad input (a file that cannot be read,\n"
               "a node or initializer name the model does not have; for check: a file whose\n"
               "recorded types contradict its operators). diff: as diff(1), 0 no differences,\n"
               "1 differences, 2 trouble.\n"
               "'nnav help COMMAND' (or 'nnav COMMAND --help') shows a command's options;\n"
               "see also nnav(1).\n"
               "  -h, --help       this help\n"
               "  -V, --version    print the version\n"
               "  --follow-links   (before MODEL or COMMAND) follow every symbolic link to\n"
               "                   external data, not only a Hugging Face cache's own\n"
               "  --no-declutter   (the explorer) open showing every node as the file has\n"
               "                   them, Constant and Identity too (D toggles)\n"
               "  --dim NAME=N     (the explorer, cost, shapes...) a named dim's value for\n"
               "                   shapes and costs; unset ones count as 1 (the explorer's d)\n");
}

int nnav_cli_suggest_command(const char *word, char *buf, size_t n)
{
    const char *names[K_COUNT + 1], *best;
    for (int k = 0; k < K_COUNT; k++)
        names[k] = commands[k].name;
    names[K_COUNT] = "help";
    if (!n || nnav_suggest(word, names, K_COUNT + 1, &best, 1) == 0)
        return 0;
    snprintf(buf, n, "%s", best);
    return 1;
}

/* "unknown command 'summry'; did you mean 'summary'?" (with "help: " for
 * help's argument), status 1. */
static int unknown_command(const char *what, const char *word)
{
    char near[64], fmt[200];
    if (nnav_cli_suggest_command(word, near, sizeof near)) {
        snprintf(fmt, sizeof fmt, "%s '%%s'; did you mean '%s'?", what, near);
        return usage_error(NULL, fmt, word);
    }
    snprintf(fmt, sizeof fmt, "%s '%%s'", what);
    return usage_error(NULL, fmt, word);
}

/* ---- completions ---- */

/* An option's value that names something of the model: which kind of
 * `nnav find` hit completes it ("node", "initializer"), else NULL. */
static const char *names_of(const option_row *r)
{
    if (!r->arg || strcmp(r->arg, "NAME"))
        return NULL;
    return !strcmp(r->name, "name") ? "initializer" : "node";
}

/* The bash script (zsh runs it through bashcompinit). Everything in it is
 * from the tables above, so it cannot name a command or option nnav lacks:
 * _nnav_opts gives a command's options, _nnav_choices an option's values
 * (its "a|b" argument, or names asked of `nnav find` on the model word),
 * and _nnav_argopts the options that take a value (whose value is no model). */
static void completion_script(FILE *f)
{
    fprintf(f, "# nnav completion for bash (and zsh through bashcompinit), written by\n"
               "# 'nnav completions': load it with  source <(nnav completions bash)\n");
    fprintf(f, "_nnav_commands=\"");
    for (int k = 0; k < K_COUNT; k++)
        fprintf(f, "%s ", commands[k].name);
    fprintf(f, "help\"\n_nnav_argopts=\"");
    for (size_t i = 0, first = 1; i < N_OPTIONS; i++) {
        size_t j = 0;
        while (j < i && strcmp(options[j].name, options[i].name))
            j++;
        if (j == i && options[i].arg)
            fprintf(f, "%s--%s", first ? "" : " ", options[i].name), first = 0;
    }
    for (size_t i = 0; i < N_OPTIONS; i++)
        if (options[i].short_opt && options[i].arg)
            fprintf(f, " -%c", options[i].key);
    fprintf(f, "\"\n_nnav_opts() {\n    case $1 in\n");
    for (int k = 0; k < K_COUNT; k++) {
        fprintf(f, "    %s) echo \"", commands[k].name);
        for (size_t i = 0, first = 1; i < N_OPTIONS; i++) {
            size_t j = 0;
            while (j < i && !(strcmp(options[j].name, options[i].name) == 0 &&
                              (options[j].cmds & (1u << k))))
                j++;
            if (j == i && (options[i].cmds & (1u << k)))
                fprintf(f, "%s--%s", first ? "" : " ", options[i].name), first = 0;
        }
        fprintf(f, "\" ;;\n");
    }
    fprintf(f, "    *) echo \"--follow-links --no-declutter --dim --help --version\" ;;\n"
               "    esac\n}\n");
    /* An option's values, by command and option: its "a|b" choices
     * (_nnav_choices), or the kind of name it takes (_nnav_nameopt: --name
     * of tensors an initializer, --node of export a node). */
    for (int pass = 0; pass < 2; pass++) {
        fprintf(f, "%s() { # COMMAND OPTION\n    case $1:$2 in\n",
                pass ? "_nnav_nameopt" : "_nnav_choices");
        for (size_t i = 0; i < N_OPTIONS; i++) {
            const option_row *r = &options[i];
            const char *kind = names_of(r);
            if (!r->arg || (pass ? !kind : !strchr(r->arg, '|')))
                continue;
            for (int k = 0; k < K_COUNT; k++) {
                if (!(r->cmds & (1u << k)))
                    continue;
                fprintf(f, "    %s:--%s) echo \"", commands[k].name, r->name);
                for (const char *p = pass ? kind : r->arg; *p; p++)
                    fputc(*p == '|' ? ' ' : *p, f);
                fprintf(f, "\" ;;\n");
            }
        }
        fprintf(f, "    esac\n}\n");
    }
    fprintf(f,
        "# The model's names of a kind starting with WORD, into COMPREPLY as they\n"
        "# are: a name is never expanded by the shell (compgen -W would run a\n"
        "# hostile model's $(...)), so it is compared in awk and read line by line.\n"
        "# The names are read from find's YAML rows, {kind: K, name: N, ...}: N\n"
        "# plain (up to ', '), 'single' or \"double\" quoted (a name needing\n"
        "# escapes other than \\\" and \\\\ is not offered).\n"
        "_nnav_names() { # KIND MODEL WORD\n"
        "    local m=$2 l\n"
        "    [ -n \"$m\" ] || return 0\n"
        "    case $m in \"~/\"*) m=$HOME/${m#\"~/\"} ;; esac\n"
        "    while IFS= read -r l; do COMPREPLY+=(\"$l\"); done < <(command nnav find --yaml \"$m\" \"$3\" 2> /dev/null |\n"
        "        K=$1 W=$3 awk '\n"
        "        { p = \"- {kind: \" ENVIRON[\"K\"] \", name: \"; if (index($0, p) != 1) next\n"
        "          s = substr($0, length(p) + 1); q = substr(s, 1, 1); v = \"\"; ok = 1\n"
        "          if (q == \"\\\"\" || q == \"'\\''\") {\n"
        "              for (i = 2; i <= length(s); i++) {\n"
        "                  c = substr(s, i, 1)\n"
        "                  if (q == \"\\\"\" && c == \"\\\\\") { i++; c = substr(s, i, 1); if (c != \"\\\"\" && c != \"\\\\\") ok = 0 }\n"
        "                  else if (c == q && q == \"'\\''\" && substr(s, i + 1, 1) == q) i++\n"
        "                  else if (c == q) break\n"
        "                  v = v c\n"
        "              }\n"
        "          } else { e = index(s, \", \"); if (!e) e = index(s, \"}\"); v = substr(s, 1, e - 1) }\n"
        "          if (ok && v != \"\" && index(v, ENVIRON[\"W\"]) == 1) print v }')\n"
        "}\n"
        "_nnav() {\n"
        "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
        "    local cmd=\"\" model=\"\" npos=0 i w skip=0 ch\n"
        "    COMPREPLY=()\n"
        "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
        "        w=${COMP_WORDS[i]}\n"
        "        if [ $skip = 1 ]; then skip=0; continue; fi\n"
        "        case \" $_nnav_argopts \" in *\" $w \"*) skip=1; continue ;; esac\n"
        "        case $w in -*) continue ;; esac\n"
        "        if [ -z \"$cmd\" ]; then cmd=$w; continue; fi\n"
        "        npos=$((npos + 1))\n"
        "        [ $npos = 1 ] && model=$w\n"
        "    done\n"
        "    case \" $_nnav_commands \" in *\" $cmd \"*) ;; *) model=$cmd; cmd=\"\" ;; esac\n"
        "    case \" $_nnav_argopts \" in\n"
        "    *\" $prev \"*)\n"
        "        [ -n \"$cmd\" ] || return 0\n"
        "        ch=$(_nnav_nameopt \"$cmd\" \"$prev\")\n"
        "        if [ -n \"$ch\" ]; then _nnav_names \"$ch\" \"$model\" \"$cur\"\n"
        "        else COMPREPLY=($(compgen -W \"$(_nnav_choices \"$cmd\" \"$prev\")\" -- \"$cur\")); fi\n"
        "        return 0 ;;\n"
        "    esac\n"
        "    case $cur in\n"
        "    -*) COMPREPLY=($(compgen -W \"$(_nnav_opts \"$cmd\")\" -- \"$cur\")); return 0 ;;\n"
        "    esac\n"
        "    if [ -z \"$cmd\" ] && [ -z \"$model\" ]; then\n"
        "        COMPREPLY=($(compgen -W \"$_nnav_commands\" -- \"$cur\"))\n"
        "        while IFS= read -r w; do COMPREPLY+=(\"$w\"); done < <(compgen -f -- \"$cur\")\n"
        "    elif [ \"$cmd\" = help ]; then\n"
        "        COMPREPLY=($(compgen -W \"$_nnav_commands\" -- \"$cur\"))\n"
        "    elif [ \"$cmd\" = completions ]; then\n"
        "        COMPREPLY=($(compgen -W \"bash zsh\" -- \"$cur\"))\n"
        "    elif [ \"$cmd\" = node ] && [ $npos = 1 ]; then\n"
        "        _nnav_names node \"$model\" \"$cur\"\n"
        "    fi\n"
        "    return 0\n"
        "}\n"
        "complete -o default -F _nnav nnav\n");
}

static int cmd_completions(const nnav_model *m, const opts *o)
{
    (void)m;
    if (!strcmp(o->arg, "zsh"))
        printf("#compdef nnav\n# zsh runs the bash completion through bashcompinit.\n"
               "autoload -U +X bashcompinit && bashcompinit\n");
    else if (strcmp(o->arg, "bash"))
        return usage_error("completions", "a shell name was expected, bash or zsh, not '%s'",
                           o->arg);
    completion_script(stdout);
    return fflush(stdout) || ferror(stdout) ? EXIT_BADINPUT : 0;
}

/* nnav help [COMMAND]: the same as nnav --help and nnav COMMAND --help. */
static int help_command(int argc, char **argv)
{
    if (argc == 2) {
        nnav_cli_usage(stdout);
        return 0;
    }
    if (argc > 3)
        return usage_error(NULL, "help takes at most one command name%s", NULL);
    for (int k = 0; k < K_COUNT; k++)
        if (!strcmp(argv[2], commands[k].name)) {
            command_help(stdout, k);
            return 0;
        }
    return unknown_command("help: no command named", argv[2]);
}

static nnav_cli_compare_fn compare_fn;
void nnav_cli_set_compare(nnav_cli_compare_fn fn) { compare_fn = fn; }
nnav_cli_compare_fn nnav_cli_compare(void) { return compare_fn; }

int nnav_cli_is_command(const char *s)
{
    if (!strcmp(s, "help"))
        return 1;
    for (size_t i = 0; i < K_COUNT; i++)
        if (!strcmp(s, commands[i].name))
            return 1;
    return 0;
}

static int run_command(int k, int argc, char **argv, int *ran);

int nnav_cli_run(int argc, char **argv)
{
    int k = 0;
    if (!strcmp(argv[1], "help"))
        return help_command(argc, argv);
    while (k < K_COUNT && strcmp(argv[1], commands[k].name))
        k++;
    if (k == K_COUNT)
        return unknown_command("unknown command", argv[1]);
    int ran = 0;
    int rc = run_command(k, argc, argv, &ran);
    /* diff's 1 means "differences": its usage errors say trouble (2). */
    if (!ran && rc == EXIT_USAGE && commands[k].usage_status)
        rc = commands[k].usage_status;
    return rc;
}

/* Parses command k's options and runs it; *ran is set once the command
 * itself runs (a status from before is the command line's). */
/* --dim names the model does not have (no value's type holds the symbol):
 * an error naming the model's dims (status 2, as any name the model
 * lacks), 0 when every one is there. */
static int unknown_dims(const nnav_model *m, const opts *o, const char *cmd)
{
    nnav_span seen[12];
    size_t nseen = 0, more = 0;
    uint8_t *found = calloc(o->n_bind + 1, 1);
    if (!found)
        return 0;
    for (uint32_t i = 0; i < nnav_vinfo_count(m); i++) {
        const nnav_vinfo *vi = nnav_vinfo_get(m, i);
        nnav_type t;
        if (!vi->type.p || nnav_type_decode(m, vi->type, &t) < 0)
            continue;
        for (int64_t a = 0; a < t.rank && a < NNAV_TYPE_DIMS_MAX; a++) {
            nnav_span sy = t.syms[a];
            if (!sy.p || !sy.n)
                continue;
            for (size_t b = 0; b < o->n_bind; b++)
                found[b] |= nnav_span_eq(sy, o->bind[b].name, strlen(o->bind[b].name));
            size_t k = 0;
            while (k < nseen && !nnav_span_eq(seen[k], (const char *)sy.p, (size_t)sy.n))
                k++;
            if (k == nseen && nseen < sizeof seen / sizeof *seen)
                seen[nseen++] = sy;
            else if (k == nseen)
                more = 1;
        }
    }
    int rc = 0;
    for (size_t b = 0; b < o->n_bind && !rc; b++) {
        if (found[b])
            continue;
        char hint[1200], e[200];
        size_t h = (size_t)snprintf(hint, sizeof hint, "%s", nseen ? "the model's named dims are "
                                                                   : "the model has no named dims");
        for (size_t k = 0; k < nseen && h < sizeof hint; k++) {
            nnav_text_escape(seen[k].p, seen[k].n > 60 ? 60 : (size_t)seen[k].n, e, sizeof e);
            h += (size_t)snprintf(hint + h, sizeof hint - h, "%s%s", k ? ", " : "", e);
        }
        if (more && h < sizeof hint)
            snprintf(hint + h, sizeof hint - h, " and more");
        rc = not_found(cmd, m, "dim", o->bind[b].name, hint);
    }
    free(found);
    return rc;
}

/* An option command k does not know: "unknown option '--grph'; did you
 * mean '--graph'?" among the options it takes. */
static int unknown_option(int k, const char *arg)
{
    const char *names[N_OPTIONS], *best;
    char word[128], fmt[200];
    size_t nn = 0;
    snprintf(word, sizeof word, "%s", arg);
    char *eq = strchr(word, '=');
    if (eq)
        *eq = 0;
    const char *w = word;
    while (*w == '-')
        w++;
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const option_row *r = &options[i];
        if (!(r->cmds & (1u << k)))
            continue;
        size_t j = 0;
        while (j < nn && strcmp(names[j], r->name))
            j++;
        if (j == nn)
            names[nn++] = r->name;
    }
    if (*w && nnav_suggest(w, names, nn, &best, 1)) {
        snprintf(fmt, sizeof fmt, "unknown option '%%s'; did you mean '--%s'?", best);
        return usage_error(commands[k].name, fmt, arg);
    }
    return usage_error(commands[k].name, "unknown option '%s'", arg);
}

static int run_command(int k, int argc, char **argv, int *ran)
{
    const command *cmd = &commands[k];
    /* getopt's tables from the options table: each name once. */
    struct option lo[N_OPTIONS + 1];
    char shorts[2 * N_OPTIONS + 2] = ":";
    size_t nlo = 0, ns = 1;
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const option_row *r = &options[i];
        size_t j = 0;
        while (j < nlo && strcmp(lo[j].name, r->name))
            j++;
        if (j < nlo)
            continue;
        lo[nlo++] = (struct option){r->name, r->arg ? required_argument : no_argument, 0, r->key};
        if (r->short_opt) {
            shorts[ns++] = (char)r->key;
            if (r->arg)
                shorts[ns++] = ':';
        }
    }
    lo[nlo] = (struct option){0, 0, 0, 0};
    shorts[ns] = 0;
    unsigned char given[128] = {0}; /* by getopt value: the options on the command line */
    opts o = {0};
    int follow_links = 0; /* --follow-links: external data through any symbolic link */
    o.values = -1;
    o.depth = -1;
    o.max_values = -1;
    o.opset = -1;
    int c;
    char *end;
    optind = 2;
    opterr = 0;
    while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        if (c > 0 && c < 128)
            given[c] = 1;
        switch (c) {
        case 'y': o.yaml = 1; break;
        case 'V': o.verbose = 1; break;
        case 'g': o.graph = optarg; break;
        case 'P': o.op = optarg; break;
        case 's': o.sort = optarg; break;
        case 'a': o.all = 1; break;
        case 'c': o.constants = 1; break;
        case 'n': o.name = optarg; break;
        case 'I': o.inputs = optarg; break;
        case 'O': o.outputs = optarg; break;
        case 'N': o.node = optarg; break;
        case 'f': o.format = optarg; break;
        case 'o': o.out = optarg; break;
        case 'E': o.external = optarg; break;
        case 'b': o.binary = 1; break;
        case 'L': o.list_nodes = 1; break;
        case 'S': o.shapes = 1; break;
        case 'F': follow_links = 1; break;
        case 'K': o.declutter = 1; break;
        case 'r': o.domain = optarg; break;
        case 'u': o.model = optarg; break;
        case 'l': o.list = 1; break;
        case 'W': o.no_values = 1; break;
        case 'T':
            o.tolerance = strtod(optarg, &end);
            if (*end || end == optarg || !isfinite(o.tolerance) || !(o.tolerance >= 0))
                return usage_error(cmd->name, "--tolerance takes a finite number of at least 0, "
                                   "not '%s'", optarg);
            break;
        case 'q':
            o.opset = strtol(optarg, &end, 10);
            if (*end || end == optarg || o.opset < 1 || o.opset > 100000)
                return usage_error(cmd->name, "--opset takes a version from 1 to 100000, not '%s'",
                                   optarg);
            break;
        case 'D': {
            /* argv outlives the run: cut in place. */
            char why[300];
            if (nnav_bind_parse(optarg, o.bind, sizeof o.bind / sizeof *o.bind, &o.n_bind, why,
                                sizeof why) < 0)
                return usage_error(cmd->name, "--dim takes %s", why);
            break;
        }
        case 'd': case 'M': {
            long v = strtol(optarg, &end, 10);
            if (*end || end == optarg || v < 0 || v > 100000000)
                return usage_error(cmd->name, "a count from 0 to 100000000 was expected, not '%s'",
                                   optarg);
            if (c == 'd')
                o.depth = v;
            else
                o.max_values = v;
            break;
        }
        case 'v':
            o.values = strtol(optarg, &end, 10);
            if (*end || end == optarg || o.values < 0 || o.values > 1000000)
                return usage_error(cmd->name, "--values takes a count from 0 to 1000000, not '%s'",
                                   optarg);
            break;
        case 'h':
            command_help(stdout, k);
            return 0;
        case ':': return usage_error(cmd->name, "option '%s' needs a value", argv[optind - 1]);
        default: return unknown_option(k, argv[optind - 1]);
        }
    }
    /* Options that do not apply to this command are usage errors, not ignored. */
    for (int c2 = 1; c2 < 128; c2++)
        if (given[c2] && !takes(k, c2))
            return usage_error(cmd->name, "an option given does not apply to this command%s", NULL);
    int want = cmd->two_models ? 2 : cmd->no_model ? !o.list : cmd->args[0] ? 2 : 1;
    if (cmd->arg_optional && argc - optind == 1)
        want = 1;
    if (argc - optind != want)
        return usage_error(cmd->name, argc - optind < want ? "missing argument%s" :
                                                             "too many arguments%s", NULL);
    if (cmd->two_models) {
        o.model = argv[optind];
        o.arg = argv[optind + 1];
        o.follow_links = follow_links;
        *ran = 1;
        return cmd->run(NULL, &o);
    }
    if (cmd->no_model) {
        o.arg = want ? argv[optind] : NULL;
        if (!o.model) { /* op: the table only */
            *ran = 1;
            return finish(NULL, cmd->run(NULL, &o));
        }
    } else {
        o.model = argv[optind];
        o.arg = want == 2 ? argv[optind + 1] : NULL;
    }
    nnav_model *m;
    nnav_error err;
    nnav_open_opts oo = {.follow_links = follow_links};
    if (nnav_model_open(o.model, &oo, &m, &err) < 0)
        return fail_model(o.model, &err);
    *ran = 1;
    if (o.n_bind) {
        int bad = unknown_dims(m, &o, cmd->name);
        if (bad) {
            nnav_model_close(m);
            return bad;
        }
    }
    int rc = cmd->run(m, &o);
    if (nnav_model_links_refused(m))
        fprintf(stderr, "nnav %s: a data file was refused for a symbolic link on its way; "
                        "'nnav --follow-links %s ...' follows links\n", cmd->name, cmd->name);
    rc = finish(m, rc);
    nnav_model_close(m);
    return rc;
}

