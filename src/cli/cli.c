/* cli.c - the scriptable face: info, tree, nodes, node, tensors, find,
 * shapes, cost, check, export.
 * Human tables by default, the same facts as YAML with --yaml. Every string
 * from the file goes through nnav_text_escape (tables) or nnav_yw_span (YAML).
 *
 * This file parses the command line and dispatches; each command lives in
 * its own file (cli_int.h lists them), their shared helpers in cli_common.c. */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_int.h"
#include "nnav.h"

/* ---- dispatch ---- */

typedef struct command {
    const char *name;
    int (*run)(const nnav_model *, const opts *);
    const char *args;   /* after MODEL */
    const char *help;
    const char *options;
} command;

static const command commands[] = {
    {"info", cmd_info, "", "Model facts: format (and why), IR, producer, opsets, metadata, "
     "TensorFlow signatures, counts, weight "
     "bytes, MACs and params of the whole model, op-type histogram.", "  --yaml           the same facts as YAML\n"},
    {"tree", cmd_tree, "", "Every graph (main, If/Loop/Scan bodies, functions) with its path, "
     "owner and node count.", "  --yaml           the same facts as YAML\n"},
    {"nodes", cmd_nodes, "", "The nodes of one graph: index, op type, name, inputs -> outputs.",
     "  --graph PATH     the graph to list (default /; see 'nnav tree')\n"
     "  --op TYPE        only nodes of this op type (Conv, or DOMAIN:TYPE)\n"
     "  --shapes         also each output's type, inferred (see 'nnav shapes')\n"
     "  --declutter      leave out Constant and Identity nodes and shape arithmetic that\n"
     "                   folds to a constant; its value shows on the input it feeds\n"
     "  --yaml           the same facts as YAML\n"},
    {"node", cmd_node, " NAME", "One node: op and domain, every attribute, each input's source "
     "and type, each output's consumers, its cost. NAME may be #INDEX.",
     "  --graph PATH     look in this graph only\n"
     "  --dim NAME=N     take the named dimension NAME as N in the cost (repeatable)\n"
     "  --yaml           the same facts as YAML\n"},
    {"tensors", cmd_tensors, "", "Initializers: name, dtype, shape, storage, bytes; totals.",
     "  --graph PATH     the graph whose initializers to list (default /)\n"
     "  --all            initializers of every graph\n"
     "  --constants      also tensors held in attributes (Constant nodes)\n"
     "  --sort size|name order by size (largest first) or name; default file order\n"
     "  --name NAME      only the tensor of this name\n"
     "  --values N       also the first N values and min/max/mean (reads the data)\n"
     "  --yaml           the same facts as YAML\n"},
    {"shapes", cmd_shapes, "", "Every value of a graph with its element type and shape, "
     "inferred through the operators and checked against the file: inputs, initializers, then "
     "node outputs; where each type comes from, and why one is unknown.",
     "  --graph PATH     the graph to list (default /)\n"
     "  --all            every graph: bodies and functions too\n"
     "  --dim NAME=N     take the named dimension NAME as N (repeatable)\n"
     "  --yaml           the same facts as YAML\n"},
    {"cost", cmd_cost, "", "MACs, FLOPs, parameters and output bytes of a graph, in all and by op "
     "type (heaviest first), from the inferred shapes.",
     "  --graph PATH     the graph to cost (default /)\n"
     "  --all            every graph, each on its own (bodies are not multiplied by trip counts)\n"
     "  --nodes          also one line per node\n"
     "  --dim NAME=N     take the named dimension NAME as N in costs (default 1; repeatable)\n"
     "  --yaml           the same facts as YAML, with exact numbers\n"},
    {"summary", cmd_summary, "", "The module hierarchy of a graph, from node names (PyTorch, "
     "TensorFlow) or the exporter's node metadata: each scope's class or ops, output type, "
     "parameters (as the framework counts them) and MACs; identical sibling layers folded.",
     "  --graph PATH     the graph to summarise (default /)\n"
     "  --depth N        scopes down to N levels below the graph (default all)\n"
     "  --declutter      ops of the decluttered view (see nodes --declutter); counts\n"
     "                   say how many nodes it hides; params and MACs stay exact\n"
     "  --dim NAME=N     take the named dimension NAME as N in costs (default 1; repeatable)\n"
     "  --yaml           every scope as YAML, each repeat naming the scope it is identical to\n"},
    {"check", cmd_check, "", "Values whose type in the file contradicts what their producer gives, "
     "and TensorFlow signature tensors whose type contradicts the graph's; exit status 2 when "
     "there is any.",
     "  --graph PATH     the graph to check (default /)\n"
     "  --all            every graph\n"
     "  --yaml           the same facts as YAML\n"},
    {"export", cmd_export, "", "Write a graph, the region between value names, or a node's "
     "neighbourhood as YAML (to stdout) or as a new ONNX model.",
     "  --graph PATH       the graph to export (default /), or to take a region from\n"
     "  --inputs A,B       region: start from these values...\n"
     "  --outputs C,D      ...and compute these (every node needed is taken)\n"
     "  --node NAME        a node and its neighbours...\n"
     "  --depth N          ...N steps up and down (default 1)\n"
     "  --format yaml|onnx output format; by default the one -o FILE's extension names\n"
     "                     (.onnx, .yaml or .yml), else yaml; a contradiction is an error\n"
     "  -o, --output FILE  write FILE (safely: temporary file, then rename)\n"
     "  --max-values N     YAML: write values of tensors of at most N elements (default 16)\n"
     "  --binary           YAML: also raw bytes as !!binary base64\n"
     "  --declutter        YAML: leave out the nodes nodes --declutter hides; a node's\n"
     "                     folded inputs' values in its 'folded' list\n"
     "  --external inline|keep  ONNX: external data inline (default) or in FILE.data\n"},
    {"find", cmd_find, " PATTERN", "Case-insensitive substring search over node names, op types, "
     "value and initializer names in all graphs; 'op:Conv' matches an op type exactly.",
     "  --yaml           the same facts as YAML\n"},
};

void nnav_cli_usage(FILE *f)
{
    fprintf(f, "Usage: nnav MODEL                 open the interactive explorer\n"
               "       nnav COMMAND MODEL [ARGS]  print facts about a model\n\n"
               "Commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        char head[64];
        snprintf(head, sizeof head, "%s MODEL%s", commands[i].name, commands[i].args);
        fprintf(f, "  %-22s %s\n", head, commands[i].help);
    }
    fprintf(f, "  %-22s %s\n", "help [COMMAND]", "This help, or a command's options.");
    fprintf(f, "\nMODEL is an ONNX file, a TensorFlow SavedModel folder, or a TensorFlow .pb\n"
               "(SavedModel, MetaGraphDef or GraphDef; told apart by content).\n"
               "Exit status: 0 ok, 1 usage error, 2 bad input (a file that cannot be read,\n"
               "a node or initializer name the model does not have; for check: a file whose\n"
               "recorded types contradict its operators).\n"
               "'nnav help COMMAND' (or 'nnav COMMAND --help') shows a command's options;\n"
               "see also nnav(1).\n"
               "  -h, --help       this help\n"
               "  -V, --version    print the version\n"
               "  --follow-links   (before MODEL or COMMAND) follow every symbolic link to\n"
               "                   external data, not only a Hugging Face cache's own\n");
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
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(argv[2], commands[i].name)) {
            char *args[] = {argv[0], argv[2], "--help", NULL};
            return nnav_cli_run(3, args);
        }
    return usage_error(NULL, "help: no command named '%s'", argv[2]);
}

int nnav_cli_is_command(const char *s)
{
    if (!strcmp(s, "help"))
        return 1;
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(s, commands[i].name))
            return 1;
    return 0;
}

int nnav_cli_run(int argc, char **argv)
{
    const command *cmd = NULL;
    if (!strcmp(argv[1], "help"))
        return help_command(argc, argv);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(argv[1], commands[i].name))
            cmd = &commands[i];
    if (!cmd)
        return usage_error(NULL, "unknown command '%s'", argv[1]);
    static const struct option lo[] = {
        {"yaml", no_argument, 0, 'y'},       {"graph", required_argument, 0, 'g'},
        {"op", required_argument, 0, 'P'},   {"sort", required_argument, 0, 's'},
        {"all", no_argument, 0, 'a'},        {"constants", no_argument, 0, 'c'},
        {"values", required_argument, 0, 'v'}, {"name", required_argument, 0, 'n'},
        {"inputs", required_argument, 0, 'I'}, {"outputs", required_argument, 0, 'O'},
        {"node", required_argument, 0, 'N'},   {"depth", required_argument, 0, 'd'},
        {"format", required_argument, 0, 'f'}, {"output", required_argument, 0, 'w'},
        {"max-values", required_argument, 0, 'M'}, {"binary", no_argument, 0, 'b'},
        {"external", required_argument, 0, 'E'},
        {"nodes", no_argument, 0, 'L'},      {"shapes", no_argument, 0, 'S'},
        {"dim", required_argument, 0, 'D'},  {"follow-links", no_argument, 0, 'F'},
        {"declutter", no_argument, 0, 'K'},
        {"help", no_argument, 0, 'h'},       {0, 0, 0, 0}};
    opts o = {0};
    int follow_links = 0; /* --follow-links: external data through any symbolic link */
    o.values = -1;
    o.depth = -1;
    o.max_values = -1;
    int c;
    char *end;
    optind = 2;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:", lo, NULL)) != -1) {
        switch (c) {
        case 'y': o.yaml = 1; break;
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
        case 'w': case 'o': o.out = optarg; break;
        case 'E': o.external = optarg; break;
        case 'b': o.binary = 1; break;
        case 'L': o.list_nodes = 1; break;
        case 'S': o.shapes = 1; break;
        case 'F': follow_links = 1; break;
        case 'K': o.declutter = 1; break;
        case 'D': {
            /* NAME=N: the name as the file spells it (up to the last '='). */
            const char *eq = strrchr(optarg, '=');
            long long v = eq ? strtoll(eq + 1, &end, 10) : -1;
            if (!eq || eq == optarg || !eq[1] || *end || v < 0 || v > (1ll << 40))
                return usage_error(cmd->name, "--dim takes NAME=N with N from 0 to 2^40, not '%s'",
                                   optarg);
            if (o.n_bind == sizeof o.bind / sizeof *o.bind)
                return usage_error(cmd->name, "at most 64 --dim options%s", NULL);
            /* argv outlives the run: cut the name in place. */
            optarg[eq - optarg] = 0;
            o.bind[o.n_bind++] = (nnav_bind){optarg, v};
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
            printf("Usage: nnav %s MODEL%s [OPTIONS]\n%s\n\nOptions:\n%s"
                   "  --follow-links   follow any symbolic link to external data (default: only\n"
                   "                   a Hugging Face cache snapshot's link to its own blobs/)\n",
                   cmd->name, cmd->args, cmd->help, cmd->options);
            return 0;
        case ':': return usage_error(cmd->name, "option '%s' needs a value", argv[optind - 1]);
        default: return usage_error(cmd->name, "unknown option '%s'", argv[optind - 1]);
        }
    }
    /* Options that do not apply to this command are usage errors, not ignored. */
    int typed = cmd->run == cmd_shapes || cmd->run == cmd_cost || cmd->run == cmd_check;
    int takes_graph = cmd->run == cmd_nodes || cmd->run == cmd_node || cmd->run == cmd_tensors ||
                      cmd->run == cmd_export || cmd->run == cmd_summary || typed;
    if ((o.inputs || o.outputs || o.node || o.format || o.out || o.external || o.binary ||
         (o.depth >= 0 && cmd->run != cmd_summary) || o.max_values >= 0) && cmd->run != cmd_export)
        return usage_error(cmd->name, "an option given does not apply to this command%s", NULL);
    if ((o.graph && !takes_graph) || (o.op && cmd->run != cmd_nodes) ||
        (o.all && cmd->run != cmd_tensors && !typed) ||
        ((o.sort || o.constants || o.name || o.values >= 0) && cmd->run != cmd_tensors) ||
        (o.list_nodes && cmd->run != cmd_cost) || (o.shapes && cmd->run != cmd_nodes) ||
        (o.declutter && cmd->run != cmd_nodes && cmd->run != cmd_summary &&
         cmd->run != cmd_export) ||
        (o.n_bind && cmd->run != cmd_shapes && cmd->run != cmd_cost && cmd->run != cmd_node &&
         cmd->run != cmd_summary))
        return usage_error(cmd->name, "an option given does not apply to this command%s", NULL);
    int want = cmd->args[0] ? 2 : 1;
    if (argc - optind != want)
        return usage_error(cmd->name, argc - optind < want ? "missing argument%s" :
                                                             "too many arguments%s", NULL);
    o.model = argv[optind];
    o.arg = want == 2 ? argv[optind + 1] : NULL;
    nnav_model *m;
    nnav_error err;
    nnav_open_opts oo = {.follow_links = follow_links};
    if (nnav_model_open(o.model, &oo, &m, &err) < 0)
        return fail_model(o.model, &err);
    int rc = cmd->run(m, &o);
    if (nnav_model_links_refused(m))
        fprintf(stderr, "nnav %s: a data file was refused for a symbolic link on its way; "
                        "'nnav --follow-links %s ...' follows links\n", cmd->name, cmd->name);
    rc = finish(m, rc);
    nnav_model_close(m);
    return rc;
}

