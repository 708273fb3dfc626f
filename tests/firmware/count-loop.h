/*
 * A core counting in L1 forever with three instructions whose effect a
 * debugger test works out by hand:
 *
 *   count_loop_body: addi a0, a0, 1
 *                    sw   a0, 0(a1)
 *                    j    count_loop_body
 *
 * count_loop(counter) enters it with a0 = 0 and a1 = counter.
 */
#ifndef TT_FW_COUNT_LOOP_H
#define TT_FW_COUNT_LOOP_H

#include <stdint.h>

void count_loop(uint32_t *counter);

__asm__(
    "   .text\n"
    "   .globl count_loop\n"
    "   .balign 16\n"
    "count_loop:\n"
    "   mv a1, a0\n"
    "   li a0, 0\n"
    "count_loop_body:\n"
    "   addi a0, a0, 1\n"
    "   sw a0, 0(a1)\n"
    "   j count_loop_body\n");

extern char count_loop_body[];

#endif
