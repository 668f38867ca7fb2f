/* keys.h - every request the explorer understands, in one list.
 *
 * NNAV_REQUESTS is the single source for the key map, the request names, the
 * `?` help screen and the key table in ui/KEYS.md (and from there the README
 * and the man page): a key cannot be bound without showing up in the help.
 *
 * REQ(ID, "name", "group", "help", key1, key2, key3, key4) - unused keys are 0.
 * Keys are curses key codes; CTL('x') is the control character for x.
 */
#ifndef NNAV_UI_KEYS_H
#define NNAV_UI_KEYS_H

#include <stddef.h>
#include <stdio.h>
#include <curses.h>

#define CTL(c) ((c) & 0x1f)
/* A two-key sequence (compare mode's ]c and [c): a code above every curses
 * key and every character, so keys_lookup() of one key never returns it. */
#define KEY_SEQ_BASE 0x200000
#define KEY_SEQ(a, b) (KEY_SEQ_BASE + ((a) << 8) + (b))

#define NNAV_REQUESTS(REQ) \
    REQ(MOVE_UP,     "move-up",      "Move", "Up a line; graph view: to a producer", KEY_UP, 'k', 0, 0) \
    REQ(MOVE_DOWN,   "move-down",    "Move", "Down a line; graph view: to a consumer", KEY_DOWN, 'j', 0, 0) \
    REQ(MOVE_LEFT,   "move-left",    "Move", "Tree: collapse or go to parent; graph view: previous in layer", KEY_LEFT, 'h', 0, 0) \
    REQ(MOVE_RIGHT,  "move-right",   "Move", "Tree: expand; graph view: next in layer", KEY_RIGHT, 'l', 0, 0) \
    REQ(PAGE_UP,     "page-up",      "Move", "Up a page", KEY_PPAGE, CTL('b'), 0, 0) \
    REQ(PAGE_DOWN,   "page-down",    "Move", "Down a page", KEY_NPAGE, CTL('f'), 0, 0) \
    REQ(HALF_UP,     "half-page-up", "Move", "Up half a page", CTL('u'), 0, 0, 0) \
    REQ(HALF_DOWN,   "half-page-down", "Move", "Down half a page", CTL('d'), 0, 0, 0) \
    REQ(MOVE_FIRST,  "move-first",   "Move", "To the first line", 'g', KEY_HOME, 0, 0) \
    REQ(MOVE_LAST,   "move-last",    "Move", "To the last line", 'G', KEY_END, 0, 0) \
    REQ(FOCUS_NEXT,  "focus-next",   "Panes", "Focus the next pane", '\t', 0, 0, 0) \
    REQ(FOCUS_PREV,  "focus-prev",   "Panes", "Focus the previous pane", KEY_BTAB, 0, 0, 0) \
    REQ(ZOOM,        "zoom",         "Panes", "Zoom the focused pane to the whole screen, or back; while zoomed, Tab and S-Tab zoom the next or previous pane", 'z', 0, 0, 0) \
    REQ(ENTER,       "enter",        "Jump", "Follow: input to its producer, output to its consumers, graph attribute into its body; tree: expand/collapse; graph view: re-centre", '\n', '\r', KEY_ENTER, 0) \
    REQ(BACK,        "back",         "Jump", "Back to the previous place", KEY_BACKSPACE, 127, CTL('h'), CTL('o')) \
    REQ(FORWARD,     "forward",      "Jump", "Forward again", ']', 0, 0, 0) \
    REQ(GOTO,        "goto",         "Jump", "Go to a node by #INDEX (from 0) or name in any graph, or a graph by path or label", ':', 0, 0, 0) \
    REQ(SEARCH,      "search",       "Search", "Search names, op types, values and initializers in all graphs (op:TYPE for an op type)", '/', 0, 0, 0) \
    REQ(SEARCH_NEXT, "search-next",  "Search", "Next search hit", 'n', 0, 0, 0) \
    REQ(SEARCH_PREV, "search-prev",  "Search", "Previous search hit", 'N', 0, 0, 0) \
    REQ(FILTER,      "filter",       "Nodes", "Show only nodes of one op type (empty clears)", 'f', 0, 0, 0) \
    REQ(SCOPES,      "scopes",       "Nodes", "Show each graph's scopes (its module hierarchy, from the node names) in the tree or only the graphs: each scope with its node count, params (p) and MACs (while types are shown), xN on the first of N identical siblings and =NAME on the others (=NAME: the same as sibling NAME, the first's name past what they share, so layer1.2 =1 is the same as layer1.1; ~NAME, drawn as an almost-equal sign where the terminal has it: the same shapes in other types); the tree's cursor on a scope narrows the node list to its nodes, named relative to it; a jump to a node puts the tree's cursor on its scope (the list keeps the whole graph). On at start for graphs of up to 65,536 nodes in all; a bigger graph's scopes are built when asked for: Right on its row, a jump into it, or S", 'S', 0, 0, 0) \
    REQ(DECLUTTER,   "declutter",    "Nodes", "Declutter: hide Constant and Identity nodes and the shape arithmetic that folds to a constant (Shape, Gather, Unsqueeze, Concat... into a Reshape) from the node list and the graph view (edges walk through hidden Identity nodes); a folded input shows its value (folded) in the list and the detail, Enter on an input goes to its real producer through hidden Identity nodes, the header counts the nodes hidden. The file and the other listings stay exact", 'D', 0, 0, 0) \
    REQ(DIMS,        "dims",         "Nodes", "Set the named dims (batch, sequence...) that shapes and costs count as 1 while unset: a prompt lists each with its value (NAME=N, comma-separated; --dim NAME=N sets them at start); Enter infers the shapes and costs again, the header says which dims are still unset", 'd', 0, 0, 0) \
    REQ(TYPES,       "types",        "Nodes", "Show or hide inferred types: the first output's type and shape in the node list, each input's and output's type and where it comes from (file, inferred, agree, DISAGREE, unknown and why) and the node's cost in the detail, the graph's MACs and params in the header. On at start; a model over 200,000 nodes opens without them and infers them at the first T", 'T', 0, 0, 0) \
    REQ(OP_REF,      "op-reference", "Nodes", "Show the selected node's operator as nnav op prints it: its signature (each input and output with its type), attributes with their types and defaults, type constraints, and every version of it, the one the node is held to marked; a node with no schema says why in the status line", 'o', 0, 0, 0) \
    REQ(SORT,        "sort",         "Initializers", "Sort initializers by size (largest first) or by name; in compare mode also by largest difference (elements differing, largest absolute difference)", 's', 0, 0, 0) \
    REQ(STATS,       "stats",        "Initializers", "Compute min/max/mean of the selected tensor", 'm', 0, 0, 0) \
    REQ(GRAPH_VIEW,  "graph-view",   "Graph view", "Draw the selected node's neighbourhood instead of the node list", 'v', 0, 0, 0) \
    REQ(DEPTH_MORE,  "depth-more",   "Graph view", "Show one more level of producers and consumers", '+', '=', 0, 0) \
    REQ(DEPTH_LESS,  "depth-less",   "Graph view", "Show one level less", '-', 0, 0, 0) \
    REQ(MARK,        "mark",         "Export", "Node list, graph view: mark or unmark the node for export (the list moves down)", ' ', 0, 0, 0) \
    REQ(UNMARK_ALL,  "unmark-all",   "Export", "Unmark every node", 'U', 0, 0, 0) \
    REQ(EXPORT,      "export",       "Export", "Write the marked nodes, or else the graph in the node list, to a file: a name ending in .onnx writes ONNX, any other YAML", 'e', 0, 0, 0) \
    REQ(EXPORT_REGION, "export-region", "Export", "Write the region between value names: asks for inputs, then outputs (comma-separated), then the file", 'E', 0, 0, 0) \
    REQ(DIFF_NEXT,   "next-difference", "Compare", "Compare mode (nnav A B): to the next difference, across graphs: a node changed (~), added (+) or removed (-; a row of the node list where the other side has it), then the graph's changed initializers; past the last, back to the first with a message. ] followed by another key, or alone for a second, is forward as always", KEY_SEQ(']', 'c'), 0, 0, 0) \
    REQ(DIFF_PREV,   "previous-difference", "Compare", "Compare mode: to the previous difference", KEY_SEQ('[', 'c'), 0, 0, 0) \
    REQ(SWAP_SIDES,  "swap-sides",   "Compare", "Compare mode: show the other model, A (the old) or B (the new; shown first), as the header says; the cursor goes to the same node or initializer there. Marks keep their sense: + only on B, - only on A, ~ changed", 'X', 0, 0, 0) \
    REQ(YANK,        "yank",         "Other", "Copy the selected name or graph path to the clipboard (OSC 52)", 'y', 0, 0, 0) \
    REQ(HELP,        "help",         "Other", "Show this help", '?', KEY_F(1), 0, 0) \
    REQ(MODEL_INFO,  "model-info",   "Other", "Show the model's details as nnav info prints them: the whole path, format, IR version, producer, every opset import, metadata, counts, weights, compute, op types", 'i', 0, 0, 0) \
    REQ(MESSAGES,    "messages",     "Other", "Show the last 100 status-line messages in full (a long one also wraps onto the row above the status line until the next key)", 'M', 0, 0, 0) \
    REQ(REDRAW,      "redraw",       "Other", "Redraw the screen", CTL('l'), 0, 0, 0) \
    REQ(QUIT,        "quit",         "Other", "Quit", 'q', 0, 0, 0)

enum request {
    REQ_NONE = 0,
#define REQ_ENUM(id, name, group, help, k1, k2, k3, k4) REQ_##id,
    NNAV_REQUESTS(REQ_ENUM)
#undef REQ_ENUM
    REQ_COUNT
};

#define KEYS_PER_REQUEST 4

struct request_info {
    enum request req;
    const char *name, *group, *help;
    int keys[KEYS_PER_REQUEST];
};

/* All requests, in list order (REQ_NONE excluded). */
const struct request_info *keys_table(size_t *count);
/* The request bound to a key, REQ_NONE when unbound. */
enum request keys_lookup(int key);
const char *keys_request_name(enum request r);
/* A key's printable name ("j", "Up", "C-d", "Tab"...) into buf. */
const char *keys_name(int key, char *buf, size_t n);
/* "j, Down" - all keys of a request, into buf. */
const char *keys_list(enum request r, char *buf, size_t n);

/* Help as lines of text no wider than `width` columns: group headings and
 * "  keys  help" rows, the help text wrapped. keys_help_lines() counts them;
 * keys_help_line() puts line i into buf (NUL-terminated, "" past the end). */
size_t keys_help_lines(int width);
const char *keys_help_line(size_t i, int width, char *buf, size_t n);
/* The markdown table used for ui/KEYS.md, the README and the man page. */
void keys_write_markdown(FILE *f);

#endif
