/*
 * TAP output for bare test firmware: the tile at translated (1, 2) reports
 * through semihosting; every other tile runs silently.
 */
#ifndef TT_FW_TAP_H
#define TT_FW_TAP_H

#include "tt.h"

static int tap_failures, tap_tests, tap_reporter;

static char *fmt_u(char *p, unsigned v)
{
    char tmp[12];
    int n = 0;

    do {
        tmp[n++] = '0' + v % 10;
        v /= 10;
    } while (v);
    while (n) {
        *p++ = tmp[--n];
    }
    return p;
}

static void ok(int cond, const char *what)
{
    static char line[128];
    char *p = line;
    const char *s = cond ? "ok " : "not ok ";

    tap_tests++;
    tap_failures += !cond;
    if (!tap_reporter) {
        return;
    }
    while (*s) {
        *p++ = *s++;
    }
    p = fmt_u(p, tap_tests);
    *p++ = ' ';
    *p++ = '-';
    *p++ = ' ';
    while (*what && p < line + sizeof(line) - 2) {
        *p++ = *what++;
    }
    *p++ = '\n';
    *p = 0;
    sh_puts(line);
}

/* Reporter: print the plan and end QEMU with the failure count */
static void tap_done(void)
{
    if (tap_reporter) {
        static char line[16] = "1..";
        char *p = fmt_u(line + 3, tap_tests);

        *p++ = '\n';
        *p = 0;
        sh_puts(line);
        sh_exit(tap_failures);
    }
}

#endif
