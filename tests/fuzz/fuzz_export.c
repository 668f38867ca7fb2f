/* fuzz_export.c - open whatever the bytes are, then export every graph to
 * YAML and (for ONNX) to a new ONNX model, in memory. */
#include "fuzz_common.h"
#include "export.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    nnav_model *m;
    nnav_error err;
    if (nnav_model_open(path, NULL, &m, &err) == 0) {
        uint32_t ng = nnav_graph_count(m);
        for (uint32_t g = 0; g < ng && g < 64; g++) {
            nnav_selection sel;
            if (nnav_select_graph(m, g, &sel, &err) != 0)
                continue;
            nnav_export_opts o = {NNAV_EXPORT_YAML, 64, 1, 0, NULL, 0};
            char *buf = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&buf, &len);
            if (f) {
                nnav_export_yaml(m, &sel, &o, f, &err);
                fclose(f);
                free(buf);
            }
            buf = NULL;
            f = open_memstream(&buf, &len);
            if (f) {
                o.format = NNAV_EXPORT_ONNX;
                nnav_export_onnx(m, &sel, &o, f, NULL, NULL, &err);
                fclose(f);
                free(buf);
            }
            nnav_selection_free(&sel);
        }
        if (nnav_node_count(m)) {
            nnav_selection sel;
            if (nnav_select_neighbours(m, nnav_node_count(m) / 2, 2, &sel, &err) == 0)
                nnav_selection_free(&sel);
        }
        nnav_model_close(m);
    }
    close(fd);
    return 0;
}
