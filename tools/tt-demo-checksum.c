/*
 * Host-side reference for the demo firmware's checksum
 * (tests/firmware/boot-fw.c work()): reads "TILE_ID ROLE ROUNDS" lines and
 * prints the checksum of each, in hex.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include <stdint.h>
#include <stdio.h>

int main(void)
{
    unsigned id, role, rounds;

    while (scanf("%u %u %u", &id, &role, &rounds) == 3) {
        uint32_t x = (id * 5 + role) ^ 0x9e3779b9u, acc = 0;

        for (unsigned i = 0; i < rounds; i++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            acc = acc * 31 + x;
        }
        printf("%08x\n", acc);
    }
    return 0;
}
