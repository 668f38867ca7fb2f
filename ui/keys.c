/* keys.c - the key map, request names and help text, all from NNAV_REQUESTS. */
#include "keys.h"

#include <string.h>

static const struct request_info table[] = {
#define REQ_INFO(id, name, group, help, k1, k2, k3, k4) \
    { REQ_##id, name, group, help, { k1, k2, k3, k4 } },
    NNAV_REQUESTS(REQ_INFO)
#undef REQ_INFO
};
#define NREQ (sizeof table / sizeof table[0])

/* The mouse binds no key but is listed with them, in the help and in
 * KEYS.md (and from there the man page), after the requests. */
static const char *const mouse[][2] = {
    {"click", "Focus the pane under the pointer and select the row (a node box in the graph view)"},
    {"double-click", "Act as Enter on the row clicked"},
    {"wheel", "Scroll the pane under the pointer a line at a time"},
};
#define NMOUSE (sizeof mouse / sizeof mouse[0])

const struct request_info *keys_table(size_t *count)
{
    *count = NREQ;
    return table;
}

enum request keys_lookup(int key)
{
    if (key == 0)
        return REQ_NONE;
    for (size_t i = 0; i < NREQ; i++)
        for (int k = 0; k < KEYS_PER_REQUEST; k++)
            if (table[i].keys[k] == key)
                return table[i].req;
    return REQ_NONE;
}

const char *keys_request_name(enum request r)
{
    for (size_t i = 0; i < NREQ; i++)
        if (table[i].req == r)
            return table[i].name;
    return "none";
}

const char *keys_name(int key, char *buf, size_t n)
{
    static const struct { int key; const char *name; } named[] = {
        { KEY_UP, "Up" }, { KEY_DOWN, "Down" }, { KEY_LEFT, "Left" }, { KEY_RIGHT, "Right" },
        { KEY_PPAGE, "PgUp" }, { KEY_NPAGE, "PgDn" }, { KEY_HOME, "Home" }, { KEY_END, "End" },
        { KEY_BTAB, "S-Tab" }, { '\t', "Tab" }, { '\n', "Enter" }, { '\r', "C-m" },
        { KEY_ENTER, "KP-Enter" }, { KEY_BACKSPACE, "Backspace" }, { 127, "DEL" },
        { ' ', "Space" }, { 27, "Esc" },
    };
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (named[i].key == key) {
            snprintf(buf, n, "%s", named[i].name);
            return buf;
        }
    if (key >= KEY_SEQ_BASE && key < KEY_SEQ_BASE + 0x8000)
        snprintf(buf, n, "%c%c", (key - KEY_SEQ_BASE) >> 8, (key - KEY_SEQ_BASE) & 0xff);
    else if (key >= KEY_F(1) && key <= KEY_F(24))
        snprintf(buf, n, "F%d", key - KEY_F0);
    else if (key > 0 && key < 32)
        snprintf(buf, n, "C-%c", key + 'a' - 1);
    else if (key > 32 && key < 127)
        snprintf(buf, n, "%c", key);
    else
        snprintf(buf, n, "key-%d", key);
    return buf;
}

const char *keys_list(enum request r, char *buf, size_t n)
{
    if (n == 0)
        return buf;
    buf[0] = '\0';
    for (size_t i = 0; i < NREQ; i++) {
        if (table[i].req != r)
            continue;
        size_t len = 0;
        for (int k = 0; k < KEYS_PER_REQUEST && table[i].keys[k]; k++) {
            char name[24];
            keys_name(table[i].keys[k], name, sizeof name);
            int w = snprintf(buf + len, n - len, "%s%s", k ? ", " : "", name);
            if (w < 0 || (size_t)w >= n - len)
                break;
            len += (size_t)w;
        }
    }
    return buf;
}

/* Help layout: the key column is this wide, the help text wraps after it. */
enum { HELP_KEYS_W = 22 };

/* Walks the help text once; copies line `want` into buf and returns the count. */
static size_t help_walk(int width, size_t want, char *buf, size_t n)
{
    size_t line = 0;
    const char *group = NULL;
    int textw = width - 2 - HELP_KEYS_W - 1;
    if (textw < 12)
        textw = 12;
#define EMIT(...) do { if (line == want && n) snprintf(buf, n, __VA_ARGS__); line++; } while (0)
    for (size_t i = 0; i < NREQ + NMOUSE; i++) {
        const char *g = i < NREQ ? table[i].group : "Mouse";
        if (!group || strcmp(group, g) != 0) {
            if (group)
                EMIT("%s", "");
            group = g;
            EMIT("%s", group);
        }
        char keys[64];
        if (i < NREQ)
            keys_list(table[i].req, keys, sizeof keys);
        else
            snprintf(keys, sizeof keys, "%s", mouse[i - NREQ][0]);
        const char *h = i < NREQ ? table[i].help : mouse[i - NREQ][1];
        int first = 1;
        while (*h || first) {
            size_t len = strlen(h), cut = len;
            if (len > (size_t)textw) {
                cut = (size_t)textw;
                while (cut > 0 && h[cut] != ' ')
                    cut--;
                if (cut == 0)
                    cut = (size_t)textw;
            }
            EMIT("  %-*s %.*s", HELP_KEYS_W, first ? keys : "", (int)cut, h);
            h += cut;
            while (*h == ' ')
                h++;
            first = 0;
        }
    }
#undef EMIT
    return line;
}

size_t keys_help_lines(int width)
{
    return help_walk(width, (size_t)-1, NULL, 0);
}

const char *keys_help_line(size_t i, int width, char *buf, size_t n)
{
    if (n)
        buf[0] = '\0';
    help_walk(width, i, buf, n);
    return buf;
}

void keys_write_markdown(FILE *f)
{
    const char *group = NULL;
    fprintf(f, "| Keys | Request | What it does |\n| --- | --- | --- |\n");
    for (size_t i = 0; i < NREQ; i++) {
        char keys[64], esc[160];
        keys_list(table[i].req, keys, sizeof keys);
        /* `|` would end a markdown cell. */
        size_t o = 0;
        for (const char *k = keys; *k && o + 3 < sizeof esc; k++) {
            if (*k == '|')
                esc[o++] = '\\';
            esc[o++] = *k;
        }
        esc[o] = '\0';
        if (!group || strcmp(group, table[i].group) != 0) {
            group = table[i].group;
            fprintf(f, "| **%s** | | |\n", group);
        }
        fprintf(f, "| `%s` | %s | %s |\n", esc, table[i].name, table[i].help);
    }
    fprintf(f, "| **Mouse** | | |\n");
    for (size_t i = 0; i < NMOUSE; i++)
        fprintf(f, "| `%s` | | %s |\n", mouse[i][0], mouse[i][1]);
    /* Keys read by the prompt line and the overlays, not requests: they only
     * mean something while those are open. */
    fprintf(f, "\nInside the `/`, `:` and `f` prompt line: typing edits (search updates as you "
               "type), `Enter` accepts, `Esc` cancels (a search returns to where it began), "
               "`Backspace` deletes, `C-u` clears. The export prompts edit the same way; the "
               "file name comes typed in (MODEL-GRAPH.yaml in the current folder) and `Tab` "
               "switches it between .yaml and .onnx. When the file exists, `y` replaces it, `n` "
               "goes back to the name and `Esc` cancels; symbolic links, the model itself and "
               "missing folders are refused with the reason in the status line. Marked nodes "
               "show a mark after their index and their count in the status line; marks stay "
               "in one graph. In the help and the consumer pick list: "
               "the move keys scroll, `Enter` picks, `Esc` or `q` closes. `Esc` also leaves the "
               "graph view.\n");
}
