/*
 * Spin-parking echo (bare image, firmware=FILE), driven by the qtest
 * tt-spin-park-test: BRISC of every tile polls echo_cmd; each new value v
 * is answered in echo_ans with 3 v + 1 and counted in echo_count.  The
 * value echo_busy_cmd holds makes the core count in echo_busy forever
 * instead, a loop that stores on every iteration and so must never park.
 * The other cores stay in reset.  The qtest finds the words by their
 * symbols.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>

#define ECHO_BUSY   0xb0b0b0b0u

/* volatile: the host and the NOC write echo_cmd, the qtest reads the rest */
volatile uint32_t echo_cmd, echo_ans, echo_count, echo_busy;
/* in L1 too, so that the qtest reads the value instead of typing it */
const uint32_t echo_busy_cmd = ECHO_BUSY;

void core_main(int role, int kind)
{
    uint32_t seen = 0;

    (void)kind;
    while (role != 0) {
        __asm__ volatile("wfi");
    }
    for (;;) {
        uint32_t v;

        do {
            v = echo_cmd;
        } while (v == seen);
        seen = v;
        if (v == ECHO_BUSY) {
            for (;;) {
                echo_busy++;
            }
        }
        echo_ans = 3 * v + 1;
        echo_count++;
    }
}
