/* fuzz_types.c - the input is one TypeProto's bytes: the readers' decoded
 * type (typeproto.c, nnav_type_format) must render it exactly as protobuf-c's
 * reading did (tests/unit/type_oracle.h), at a large and a small buffer, and
 * keep its bounds; any difference aborts (but where protobuf-c departs from
 * the wire format, type_oracle.h's "(no oracle)"). */
#include <stdio.h>
#include <stdlib.h>

#include "../unit/type_oracle.h"
#include "model.h"
#include "readers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static nnav_model m;
    m.reader = &nnav_reader_onnx;
    /* An exactly sized copy: a read past the bytes is an ASan report. */
    uint8_t *p = malloc(size ? size : 1);
    if (!p)
        return 0;
    if (size)
        memcpy(p, data, size);
    static const size_t sizes[] = {4096, 13};
    for (size_t k = 0; k < 2; k++) {
        char want[4096], got[4096];
        int say = type_oracle(p, size, want, sizes[k]);
        nnav_type_format(&m, (nnav_span){p, size}, got, sizes[k]);
        if (say == 0 && strcmp(want, got) != 0) {
            fprintf(stderr, "protobuf-c: %s\ndecoded:    %s\n", want, got);
            abort();
        }
    }
    nnav_type t;
    int r = nnav_type_decode(&m, (nnav_span){p, size}, &t);
    if (t.nest > NNAV_TYPE_NEST_MAX || (r == -1) != (t.status == NNAV_TYPE_BROKEN))
        abort();
    free(p);
    return 0;
}
