/* test_wcost.c - the whole model's cost (wcost.c) on models built here byte
 * by byte: the recurrent ops' MACs against the formula in shape.c's rule
 * (seq * batch * directions * gates * hidden * (input + hidden)), forward
 * and bidirectional; an If costs its dearer branch; a Loop its body times a
 * constant trip count, or once with the per-iteration flag when the count
 * is a graph input; a Scan its body times the scanned length; a call of a
 * local function its body; a function calling itself is partial and ends;
 * a Loop whose product passes 2^63 is an overflow, not a wrapped number.
 *
 * Expected MACs are worked out by hand from the shapes written here. */
#include "testutil.h"

#include "shape.h"

enum { DT_FLOAT = 1, DT_BOOL = 9, DT_INT64 = 7 };
enum { AT_INT = 2, AT_STRING = 3, AT_TENSOR = 4, AT_GRAPH = 5 };

/* A TensorProto of zeros (float) or one int64 scalar (nd 0). */
static void put_tensor(tu_pb *t, const char *name, int dt, const int64_t *dims, int nd, int64_t v)
{
    int64_t n = 1;
    for (int i = 0; i < nd; i++) {
        tu_pb_int(t, 1, (uint64_t)dims[i]);
        n *= dims[i];
    }
    tu_pb_int(t, 2, (uint64_t)dt);
    if (name)
        tu_pb_str(t, 8, name);
    if (dt == DT_INT64) {
        uint8_t le[8];
        for (int i = 0; i < 8; i++)
            le[i] = (uint8_t)((uint64_t)v >> (8 * i));
        tu_pb_bytes(t, 9, le, 8);
        return;
    }
    uint8_t *zeros = calloc((size_t)n, 4);
    assert_non_null(zeros);
    tu_pb_bytes(t, 9, zeros, (size_t)n * 4);
    free(zeros);
}

static void put_init(tu_pb *g, const char *name, int dt, const int64_t *dims, int nd, int64_t v)
{
    tu_pb t = {0};
    put_tensor(&t, name, dt, dims, nd, v);
    tu_pb_msg(g, 5, &t);
}

/* A value info of a known shape (nd < 0: no shape). */
static void put_io(tu_pb *g, uint32_t field, const char *name, int dt, const int64_t *dims, int nd)
{
    tu_pb vi = {0}, tp = {0}, tt = {0}, shape = {0};
    tu_pb_int(&tt, 1, (uint64_t)dt);
    if (nd >= 0) {
        for (int i = 0; i < nd; i++) {
            tu_pb dim = {0};
            tu_pb_int(&dim, 1, (uint64_t)dims[i]);
            tu_pb_msg(&shape, 1, &dim);
        }
        tu_pb_msg(&tt, 2, &shape);
    }
    tu_pb_msg(&tp, 1, &tt);
    tu_pb_str(&vi, 1, name);
    tu_pb_msg(&vi, 2, &tp);
    tu_pb_msg(g, field, &vi);
}

static void attr_i(tu_pb *node, const char *name, int64_t v)
{
    tu_pb a = {0};
    tu_pb_str(&a, 1, name);
    tu_pb_int(&a, 3, (uint64_t)v);
    tu_pb_int(&a, 20, AT_INT);
    tu_pb_msg(node, 5, &a);
}

static void attr_s(tu_pb *node, const char *name, const char *v)
{
    tu_pb a = {0};
    tu_pb_str(&a, 1, name);
    tu_pb_str(&a, 4, v);
    tu_pb_int(&a, 20, AT_STRING);
    tu_pb_msg(node, 5, &a);
}

/* Takes (and frees) the body. */
static void attr_g(tu_pb *node, const char *name, tu_pb *body)
{
    tu_pb a = {0};
    tu_pb_str(&a, 1, name);
    tu_pb_msg(&a, 6, body);
    tu_pb_int(&a, 20, AT_GRAPH);
    tu_pb_msg(node, 5, &a);
    tu_pb_free(body);
}

static void attr_t(tu_pb *node, const char *name, const int64_t *dims, int nd)
{
    tu_pb a = {0}, t = {0};
    tu_pb_str(&a, 1, name);
    put_tensor(&t, NULL, DT_FLOAT, dims, nd, 0);
    tu_pb_msg(&a, 5, &t);
    tu_pb_int(&a, 20, AT_TENSOR);
    tu_pb_msg(node, 5, &a);
}

static void put_node(tu_pb *g, tu_pb *node)
{
    tu_pb_msg(g, 1, node);
    tu_pb_free(node);
}

static void plain(tu_pb *g, const char *op, const char *ins, const char *outs)
{
    tu_pb n = {0};
    tu_pb_node(&n, NULL, op, ins, outs);
    put_node(g, &n);
}

typedef struct built {
    nnav_model *m;
    nnav_shapes *s;
    nnav_wcost *w;
} built;

/* funcs: FunctionProto messages (field 25 of the model), may be NULL. */
static built build(const char *tag, tu_pb *graph, tu_pb *funcs)
{
    tu_pb model = {0}, op = {0};
    tu_pb_str(graph, 2, tag);
    tu_pb_int(&model, 1, 8);
    tu_pb_str(&op, 1, "");
    tu_pb_int(&op, 2, 17);
    tu_pb_msg(&model, 8, &op);
    if (funcs) {
        tu_pb lo = {0};
        tu_pb_str(&lo, 1, "local");
        tu_pb_int(&lo, 2, 1);
        tu_pb_msg(&model, 8, &lo);
    }
    tu_pb_msg(&model, 7, graph);
    if (funcs && funcs->n)
        tu_pb_raw(&model, funcs->p, funcs->n);
    const char *path = tu_join(tu_tmpdir(tag), "model.onnx");
    tu_write(path, model.p, model.n);
    tu_pb_free(&model);
    tu_pb_free(graph);
    if (funcs)
        tu_pb_free(funcs);
    built b;
    b.m = tu_open(path);
    b.s = nnav_shapes_infer(b.m, NULL);
    assert_non_null(b.s);
    b.w = nnav_wcost_new(b.s);
    assert_non_null(b.w);
    return b;
}

static void done(built *b)
{
    nnav_wcost_free(b->w);
    nnav_shapes_free(b->s);
    nnav_model_close(b->m);
}

static uint32_t node_of(built *b, const char *op)
{
    for (uint32_t i = 0; i < nnav_node_count(b->m); i++)
        if (nnav_span_eqs(nnav_node_get(b->m, i)->op, op) && nnav_node_get(b->m, i)->graph == 0)
            return i;
    fail_msg("no %s node", op);
    return NNAV_NONE;
}

/* One recurrent node: X [seq 7, batch 2, input 3], hidden 5. */
static void rnn_case(const char *op, int gates, const char *direction, int dirs)
{
    const int64_t seq = 7, batch = 2, in = 3, hid = 5;
    tu_pb g = {0}, n = {0};
    int64_t xd[] = {seq, batch, in}, wd[] = {dirs, gates * hid, in}, rd[] = {dirs, gates * hid, hid};
    put_io(&g, 11, "X", DT_FLOAT, xd, 3);
    put_init(&g, "W", DT_FLOAT, wd, 3, 0);
    put_init(&g, "R", DT_FLOAT, rd, 3, 0);
    tu_pb_node(&n, NULL, op, "X,W,R", "Y");
    attr_i(&n, "hidden_size", hid);
    attr_s(&n, "direction", direction);
    put_node(&g, &n);
    put_io(&g, 12, "Y", DT_FLOAT, NULL, -1);
    built b = build(op, &g, NULL);
    double want = (double)(seq * batch * dirs * gates * hid * (in + hid));
    const nnav_cost *c = nnav_shapes_node_cost(b.s, node_of(&b, op));
    assert_true(c->known);
    assert_true(c->macs == want);
    const nnav_whole *h = nnav_wcost_graph(b.w, 0);
    assert_true(h->known && !h->overflow && !h->per_iter);
    assert_true(h->macs == want);
    done(&b);
}

static void recurrent(void **state)
{
    (void)state;
    rnn_case("RNN", 1, "forward", 1);       /* 7*2*1*1*5*8 = 560 */
    rnn_case("GRU", 3, "bidirectional", 2); /* 3360 */
    rnn_case("LSTM", 4, "bidirectional", 2); /* 4480 */
    rnn_case("LSTM", 4, "reverse", 1);
}

/* A body computing O = X @ W (X [1,4] from the outer graph, W [4,k]
 * its own): 4k MACs. in_names: the body's inputs ("" none), with shapes. */
static void matmul_body(tu_pb *body, const char *name, int64_t k, const char *x, const char *out)
{
    int64_t wd[] = {4, k};
    char w[32];
    snprintf(w, sizeof w, "W_%s", name);
    char ins[80];
    snprintf(ins, sizeof ins, "%s,%s", x, w);
    tu_pb_str(body, 2, name);
    put_init(body, w, DT_FLOAT, wd, 2, 0);
    plain(body, "MatMul", ins, out);
}

static void if_dearer(void **state)
{
    (void)state;
    tu_pb g = {0}, n = {0}, th = {0}, el = {0};
    int64_t xd[] = {1, 4};
    put_io(&g, 11, "X", DT_FLOAT, xd, 2);
    put_io(&g, 11, "C", DT_BOOL, NULL, 0);
    matmul_body(&th, "then", 4, "X", "T");  /* 16 MACs */
    put_io(&th, 12, "T", DT_FLOAT, NULL, -1);
    matmul_body(&el, "else", 4, "X", "E1"); /* 16 MACs, then 16 more */
    int64_t wd[] = {4, 4};
    put_init(&el, "W2", DT_FLOAT, wd, 2, 0);
    plain(&el, "MatMul", "E1,W2", "E");
    put_io(&el, 12, "E", DT_FLOAT, NULL, -1);
    tu_pb_node(&n, NULL, "If", "C", "Y");
    attr_g(&n, "then_branch", &th);
    attr_g(&n, "else_branch", &el);
    put_node(&g, &n);
    put_io(&g, 12, "Y", DT_FLOAT, NULL, -1);
    built b = build("wc_if", &g, NULL);
    const nnav_whole *h = nnav_wcost_graph(b.w, 0);
    assert_true(h->known && !h->per_iter && !h->overflow);
    assert_true(h->macs == 32);
    nnav_whole nb;
    char how[256];
    assert_int_equal(nnav_wcost_node(b.w, node_of(&b, "If"), &nb, how, sizeof how), 1);
    assert_true(nb.macs == 32);
    assert_non_null(strstr(how, "then 16 MACs, else 32 MACs: the dearer (else) counted"));
    done(&b);
}

/* Loop(M, cond) with one state s [1,4]: s = s @ W (16 MACs a trip). trip:
 * the constant M, or < 0 for M a graph input (unknown). */
static built loop_model(const char *tag, int64_t trip, int64_t k)
{
    tu_pb g = {0}, n = {0}, body = {0};
    int64_t sd[] = {1, k}, wd[] = {k, k};
    put_io(&g, 11, "S0", DT_FLOAT, sd, 2);
    put_io(&g, 11, "cond", DT_BOOL, NULL, 0);
    if (trip >= 0)
        put_init(&g, "M", DT_INT64, NULL, 0, trip);
    else
        put_io(&g, 11, "M", DT_INT64, NULL, 0);
    tu_pb_str(&body, 2, "body");
    put_io(&body, 11, "i", DT_INT64, NULL, 0);
    put_io(&body, 11, "c", DT_BOOL, NULL, 0);
    put_io(&body, 11, "s", DT_FLOAT, sd, 2);
    put_init(&body, "Wb", DT_FLOAT, wd, 2, 0);
    plain(&body, "Identity", "c", "c_out");
    plain(&body, "MatMul", "s,Wb", "s_out");
    put_io(&body, 12, "c_out", DT_BOOL, NULL, 0);
    put_io(&body, 12, "s_out", DT_FLOAT, sd, 2);
    tu_pb_node(&n, NULL, "Loop", "M,cond,S0", "S");
    attr_g(&n, "body", &body);
    put_node(&g, &n);
    put_io(&g, 12, "S", DT_FLOAT, NULL, -1);
    return build(tag, &g, NULL);
}

static void loop_trips(void **state)
{
    (void)state;
    built b = loop_model("wc_loop5", 5, 4);
    const nnav_whole *h = nnav_wcost_graph(b.w, 0);
    assert_true(h->known && !h->per_iter && !h->overflow);
    assert_true(h->macs == 80); /* 5 x 16 */
    done(&b);

    b = loop_model("wc_loopm", -1, 4);
    h = nnav_wcost_graph(b.w, 0);
    assert_true(h->per_iter && !h->overflow);
    assert_true(h->macs == 16); /* once, flagged */
    nnav_whole nb;
    char how[256];
    nnav_wcost_node(b.w, node_of(&b, "Loop"), &nb, how, sizeof how);
    assert_non_null(strstr(how, "per iteration"));
    done(&b);
}

/* 2^40 trips of a [1,4096] x [4096,4096] product (2^24 MACs): 2^64 is
 * past 2^63, unknown. INT64_MAX - 1 trips is past the dims' range
 * (NNAV_DIM_MAX), so not folded: the body once, per iteration. */
static void loop_overflow(void **state)
{
    (void)state;
    built b = loop_model("wc_loopbig", (int64_t)1 << 40, 4096);
    const nnav_whole *h = nnav_wcost_graph(b.w, 0);
    assert_true(h->overflow);
    nnav_cost c;
    nnav_whole_to_cost(h, &c);
    assert_false(c.known);
    assert_true(c.macs == 0);
    done(&b);

    b = loop_model("wc_loopmax", INT64_MAX - 1, 4096);
    h = nnav_wcost_graph(b.w, 0);
    assert_true(h->per_iter && !h->overflow);
    assert_true(h->macs == 4096.0 * 4096);
    done(&b);
}

/* Scan over X [6,1,4] along axis 0, no state: each step y = x @ W (16). */
static void scan_steps(void **state)
{
    (void)state;
    tu_pb g = {0}, n = {0}, body = {0};
    int64_t xd[] = {6, 1, 4}, td[] = {1, 4};
    put_io(&g, 11, "X", DT_FLOAT, xd, 3);
    tu_pb_str(&body, 2, "body");
    put_io(&body, 11, "xt", DT_FLOAT, td, 2);
    matmul_body(&body, "body", 4, "xt", "yt");
    put_io(&body, 12, "yt", DT_FLOAT, td, 2);
    tu_pb_node(&n, NULL, "Scan", "X", "Y");
    attr_i(&n, "num_scan_inputs", 1);
    attr_g(&n, "body", &body);
    put_node(&g, &n);
    put_io(&g, 12, "Y", DT_FLOAT, NULL, -1);
    built b = build("wc_scan", &g, NULL);
    const nnav_whole *h = nnav_wcost_graph(b.w, 0);
    assert_true(!h->per_iter && !h->overflow);
    assert_true(h->macs == 96); /* 6 x 16 */
    done(&b);
}

/* Local function F(a) = a @ Constant [4,4]; calls: F itself too when
 * recursive. */
static built func_model(const char *tag, int recursive)
{
    tu_pb g = {0}, n = {0}, f = {0}, funcs = {0}, c = {0}, op = {0};
    int64_t xd[] = {1, 4}, wd[] = {4, 4};
    tu_pb_str(&f, 1, "F");
    tu_pb_str(&f, 4, "a");
    tu_pb_str(&f, 5, "b");
    tu_pb_node(&c, NULL, "Constant", "", "Wc");
    attr_t(&c, "value", wd, 2);
    tu_pb_msg(&f, 7, &c);
    tu_pb_free(&c);
    tu_pb_node(&c, NULL, "MatMul", "a,Wc", recursive ? "m" : "b");
    tu_pb_msg(&f, 7, &c);
    tu_pb_free(&c);
    if (recursive) {
        tu_pb_node(&c, NULL, "F", "m", "b");
        tu_pb_str(&c, 7, "local");
        tu_pb_msg(&f, 7, &c);
        tu_pb_free(&c);
    }
    tu_pb_str(&op, 1, "");
    tu_pb_int(&op, 2, 17);
    tu_pb_msg(&f, 9, &op);
    tu_pb_str(&f, 10, "local");
    tu_pb_msg(&funcs, 25, &f);
    tu_pb_free(&f);
    put_io(&g, 11, "X", DT_FLOAT, xd, 2);
    tu_pb_node(&n, NULL, "F", "X", "Y");
    tu_pb_str(&n, 7, "local");
    put_node(&g, &n);
    put_io(&g, 12, "Y", DT_FLOAT, NULL, -1);
    return build(tag, &g, &funcs);
}

static void local_function(void **state)
{
    (void)state;
    built b = func_model("wc_func", 0);
    const nnav_whole *h = nnav_wcost_graph(b.w, 0);
    assert_true(h->known && !h->overflow);
    assert_true(h->macs == 16);
    done(&b);
}

/* F calls F: the inner call is cut (partial), the figure ends. */
static void recursive_function(void **state)
{
    (void)state;
    built b = func_model("wc_recur", 1);
    const nnav_whole *h = nnav_wcost_graph(b.w, 0);
    assert_false(h->known);
    assert_false(h->overflow);
    assert_true(h->macs == 16); /* the one body counted, its self-call not */
    done(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(recurrent),     cmocka_unit_test(if_dearer),
        cmocka_unit_test(loop_trips),    cmocka_unit_test(loop_overflow),
        cmocka_unit_test(scan_steps),    cmocka_unit_test(local_function),
        cmocka_unit_test(recursive_function),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
