/* The back/forward stack behaves like a browser's. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "history.h"

static place P(uint32_t id)
{
    return (place){ .kind = PLACE_NODE, .graph = 0, .id = id };
}

static void test_back_and_forward(void **state)
{
    (void)state;
    history h;
    place p;
    history_init(&h);
    assert_int_equal(history_back(&h, P(1), &p), 0);
    history_jump(&h, P(1), P(2));
    history_jump(&h, P(2), P(3));
    assert_int_equal(history_back(&h, P(3), &p), 1);
    assert_int_equal(p.id, 2);
    assert_int_equal(history_back(&h, P(2), &p), 1);
    assert_int_equal(p.id, 1);
    assert_int_equal(history_back(&h, P(1), &p), 0);
    assert_int_equal(history_forward(&h, P(1), &p), 1);
    assert_int_equal(p.id, 2);
    assert_int_equal(history_forward(&h, P(2), &p), 1);
    assert_int_equal(p.id, 3);
    assert_int_equal(history_forward(&h, P(3), &p), 0);
}

/* Going back remembers where the cursor was, not where the jump landed. */
static void test_back_refreshes_current(void **state)
{
    (void)state;
    history h;
    place p;
    history_init(&h);
    history_jump(&h, P(1), P(2));
    /* moved from 2 to 7 by arrow keys, then back */
    assert_int_equal(history_back(&h, P(7), &p), 1);
    assert_int_equal(p.id, 1);
    assert_int_equal(history_forward(&h, P(1), &p), 1);
    assert_int_equal(p.id, 7);
}

/* A new jump after going back drops the forward entries. */
static void test_jump_truncates(void **state)
{
    (void)state;
    history h;
    place p;
    history_init(&h);
    history_jump(&h, P(1), P(2));
    history_jump(&h, P(2), P(3));
    history_back(&h, P(3), &p);
    history_jump(&h, P(2), P(9));
    assert_int_equal(history_forward(&h, P(9), &p), 0);
    assert_int_equal(history_back(&h, P(9), &p), 1);
    assert_int_equal(p.id, 2);
    assert_int_equal(history_back(&h, P(2), &p), 1);
    assert_int_equal(p.id, 1);
}

static void test_jump_to_same_place_adds_nothing(void **state)
{
    (void)state;
    history h;
    place p;
    history_init(&h);
    history_jump(&h, P(1), P(1));
    assert_int_equal(history_back(&h, P(1), &p), 0);
}

/* Bounded: the oldest entries fall off, the newest survive. */
static void test_bounded(void **state)
{
    (void)state;
    history h;
    place p;
    history_init(&h);
    for (uint32_t i = 0; i < HISTORY_MAX * 3; i++)
        history_jump(&h, P(i), P(i + 1));
    assert_int_equal(h.len, HISTORY_MAX);
    size_t backs = 0;
    place here = P(HISTORY_MAX * 3);
    while (history_back(&h, here, &p)) {
        here = p;
        backs++;
    }
    assert_int_equal(backs, HISTORY_MAX - 1);
    assert_int_equal(here.id, HISTORY_MAX * 3 - (HISTORY_MAX - 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_back_and_forward),
        cmocka_unit_test(test_back_refreshes_current),
        cmocka_unit_test(test_jump_truncates),
        cmocka_unit_test(test_jump_to_same_place_adds_nothing),
        cmocka_unit_test(test_bounded),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
