#!/usr/bin/env python3
"""Replay qtest command files on qemu-system-riscv32: the inputs the fuzz
targets of tests/qtest/fuzz/tt-fuzz.c found, kept as regression tests.

    replay.py QEMU FILE.qtest...      replay, print TAP
    replay.py --from-trace TRACE --args ARGS
                                      turn a fuzzer's QTEST_LOG=1 output
                                      into a FILE.qtest on stdout

A FILE.qtest holds comment lines ('#'), one '# args: ...' line with the
machine options, and qtest protocol commands, one per line.  A replay
passes when QEMU answers every command, is still running after the last
one, and printed no sanitizer report or assertion (with a sanitized QEMU,
make sanitize, that covers memory errors and undefined behaviour too).
"""
import os
import re
import select
import subprocess
import sys
import tempfile
import time

BAD = re.compile(r'AddressSanitizer|LeakSanitizer|runtime error:|'
                 r'Assertion .* failed|assertion failed|\*\*\s*ERROR|'
                 r'Segmentation fault|Aborted')
TIMEOUT = 60


def from_trace(trace, args):
    print('# qtest commands of a fuzz input (tests/fuzz/run-fuzz.sh)')
    print('# args: ' + args)
    # a machine's own commands answer without a log line of their own,
    # so the next "[R" can follow an "[S" on the same line
    for line in open(trace, errors='replace'):
        for m in re.finditer(r'\[R \+[0-9.]+\] (.*?)\s*(?=\[S \+|$)',
                             line.rstrip('\n')):
            if not m.group(1).startswith(('endianness', 'qtest_')):
                print(m.group(1))


def load(path):
    args, cmds = None, []
    for line in open(path):
        line = line.rstrip('\n')
        if line.startswith('# args:'):
            args = line[len('# args:'):].strip()
        elif line and not line.startswith('#'):
            cmds.append(line)
    return args, cmds


def replay(qemu, path):
    args, cmds = load(path)
    if args is None:
        return 'no "# args:" line'
    err = tempfile.TemporaryFile()
    p = subprocess.Popen([qemu] + args.split() +
                         ['-qtest', 'stdio', '-display', 'none',
                          '-monitor', 'none', '-serial', 'none'],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=err, text=True, bufsize=1)
    deadline = time.monotonic() + TIMEOUT
    why = None
    # a final command that must answer OK: the machine still works
    for c in cmds + ['tt readl 1 2 brisc 0x0']:
        try:
            p.stdin.write(c + '\n')
            p.stdin.flush()
        except BrokenPipeError:
            why = 'QEMU exited before "%s"' % c
            break
        while True:
            left = deadline - time.monotonic()
            r, _, _ = select.select([p.stdout], [], [], max(left, 0))
            if not r:
                why = 'no answer to "%s" within %d s (a hang)' % (c, TIMEOUT)
                break
            line = p.stdout.readline()
            if not line:
                why = 'QEMU exited at "%s"' % c
                break
            if not line.startswith('IRQ'):
                break
        if why:
            break
    else:
        if not line.startswith('OK'):
            why = 'the machine no longer answers: ' + line.strip()
    if p.poll() is None:
        p.terminate()
    try:
        p.wait(30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    err.seek(0)
    text = err.read().decode(errors='replace')
    m = BAD.search(text)
    if m:
        why = (why + '; ' if why else '') + 'stderr: ' + \
              text[max(0, m.start() - 200):m.end() + 400].strip()
    return why


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == '--from-trace':
        from_trace(sys.argv[2], sys.argv[4])
        return 0
    qemu, files = sys.argv[1], sys.argv[2:]
    print('1..%d' % len(files))
    failed = 0
    for i, f in enumerate(files, 1):
        why = replay(qemu, f)
        name = os.path.basename(f)
        if why:
            failed += 1
            print('not ok %d - %s' % (i, name))
            for line in why.splitlines():
                print('# ' + line)
        else:
            print('ok %d - %s' % (i, name))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
