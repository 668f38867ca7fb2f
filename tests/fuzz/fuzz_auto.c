/* fuzz_auto.c - open and index a file whose format is decided by its content, then
 * decode everything the index offers. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    nnav_open_opts o = {0};
    o.force = 0; /* by content */
    nnav_model *m;
    nnav_error err;
    if (nnav_model_open(path, &o, &m, &err) == 0) {
        fuzz_touch(m);
        nnav_model_close(m);
    }
    close(fd);
    return 0;
}
