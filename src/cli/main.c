/* main.c - `nnav COMMAND MODEL ...` runs the CLI; `nnav MODEL` the explorer;
 * `nnav A B` the explorer's compare mode. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "nnav.h"
#include "shape.h"
#ifdef NNAV_HAVE_TUI
#include "tui.h"
#endif

int main(int argc, char **argv)
{
#ifdef NNAV_HAVE_TUI
    /* `nnav diff A B` on a terminal opens the explorer's compare mode. */
    nnav_cli_set_compare(nnav_tui_compare);
#endif
    /* `nnav --follow-links COMMAND ...` is `nnav COMMAND --follow-links ...`;
     * `nnav --follow-links MODEL` opens the explorer so. */
    int follow_links = 0;
    if (argc >= 3 && !strcmp(argv[1], "--follow-links")) {
        follow_links = 1;
        if (nnav_cli_is_command(argv[2])) {
            argv[1] = argv[2];
            argv[2] = "--follow-links";
        } else {
            argv[1] = argv[0];
            argv++;
            argc--;
        }
    }
    /* The explorer's own options, before or after MODEL: --no-declutter,
     * --dim NAME=N (or --dim=NAME=N), --follow-links. */
    int no_declutter = 0;
    nnav_bind bind[64];
    size_t n_bind = 0;
    if (argc >= 2 && !nnav_cli_is_command(argv[1]) && strcmp(argv[1], "-h") &&
        strcmp(argv[1], "--help") && strcmp(argv[1], "-V") && strcmp(argv[1], "--version")) {
        int k = 1;
        for (int i = 1; i < argc; i++) {
            char *dim = NULL;
            if (!strcmp(argv[i], "--no-declutter")) {
                no_declutter = 1;
                continue;
            }
            if (!strcmp(argv[i], "--follow-links")) {
                follow_links = 1;
                continue;
            }
            if (!strcmp(argv[i], "--dim")) {
                if (i + 1 >= argc) {
                    fprintf(stderr, "nnav: --dim takes NAME=N\nTry 'nnav --help'.\n");
                    return 1;
                }
                dim = argv[++i];
            } else if (!strncmp(argv[i], "--dim=", 6)) {
                dim = argv[i] + 6;
            }
            if (dim) {
                char why[300];
                if (nnav_bind_parse(dim, bind, sizeof bind / sizeof *bind,
                                    &n_bind, why, sizeof why) < 0) {
                    fprintf(stderr, "nnav: --dim takes %s\nTry 'nnav --help'.\n", why);
                    return 1;
                }
                continue;
            }
            argv[k++] = argv[i];
        }
        argv[k] = NULL;
        argc = k;
    }
    if (argc < 2) {
        nnav_cli_usage(stderr);
        return 1;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        nnav_cli_usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
        printf("nnav %s\n", NNAV_VERSION);
        return 0;
    }
    if (nnav_cli_is_command(argv[1]))
        return nnav_cli_run(argc, argv);
    /* A mistyped command is no file (nor a word with a '.' or '/', which
     * reads as one): "unknown command 'summry'; did you mean 'summary'?";
     * a file before its command: say the order. */
    struct stat st;
    char near[64], w1[256], w2[256];
    if (argv[1][0] != '-' && !strpbrk(argv[1], "./") && stat(argv[1], &st) != 0 &&
        nnav_cli_suggest_command(argv[1], near, sizeof near)) {
        nnav_text_escape_cstr(argv[1], w1, sizeof w1);
        fprintf(stderr, "nnav: unknown command '%s'; did you mean '%s'?\nTry 'nnav --help'.\n", w1, near);
        return 1;
    }
    if (argc >= 3 && argv[1][0] != '-' && nnav_cli_is_command(argv[2]) && stat(argv[2], &st) != 0) {
        nnav_text_escape_cstr(argv[1], w1, sizeof w1);
        nnav_text_escape_cstr(argv[2], w2, sizeof w2);
        fprintf(stderr, "nnav: the command comes first: nnav %s %s%s\nTry 'nnav %s --help'.\n", w2, w1,
                argc > 3 ? " ..." : "", w2);
        return 1;
    }
    if (argv[1][0] == '-' && strcmp(argv[1], "-") != 0) {
        char a[256];
        nnav_text_escape_cstr(argv[1], a, sizeof a);
        fprintf(stderr, "nnav: unknown option '%s'\nTry 'nnav --help'.\n", a);
        return 1;
    }
#ifdef NNAV_HAVE_TUI
    /* `nnav A B`: two models, the explorer's compare mode. */
    if (argc == 3 && (argv[2][0] != '-' || !strcmp(argv[2], "-")))
        return nnav_tui_compare(argv[1], argv[2], NULL, follow_links);
#else
    if (argc == 3 && (argv[2][0] != '-' || !strcmp(argv[2], "-")) && nnav_cli_is_command("diff")) {
        char *args[] = {argv[0], "diff", argv[1], argv[2], follow_links ? "--follow-links" : NULL, NULL};
        return nnav_cli_run(4 + follow_links, args);
    }
#endif
    if (argc > 2) {
        char a[256];
        nnav_text_escape_cstr(argv[1], a, sizeof a);
        fprintf(stderr, "nnav: unknown command '%s'\nTry 'nnav --help'.\n", a);
        return 1;
    }
#ifdef NNAV_HAVE_TUI
    nnav_tui_opts to = {.follow_links = follow_links, .no_declutter = no_declutter,
                        .bind = bind, .n_bind = n_bind};
    return nnav_tui_run(argv[1], &to);
#else
    (void)no_declutter;
    (void)n_bind;
    char *args[] = {argv[0], "info", argv[1], follow_links ? "--follow-links" : NULL, NULL};
    return nnav_cli_run(3 + follow_links, args);
#endif
}
