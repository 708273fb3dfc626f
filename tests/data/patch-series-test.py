#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The QEMU patch series as a maintainer receives it: every
patches/qemu/*.patch is in git format-patch form (From:, a one-line
"Subject: [PATCH] area: summary", a message, Signed-off-by, "---", the
diff), changes files under a/ and b/ paths, and docs/devel/
tenstorrent-build.rst ("The QEMU patches") lists every patch, in order,
with its subject.  Prints TAP.

    patch-series-test.py [PROJECT_DIR]
"""
import glob
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "scripts", "tenstorrent"))
from tttap import ok, done  # noqa: E402


def parse(text):
    """(subject, message, sign-offs, diff) of a format-patch, or None"""
    head, sep, diff = text.partition("\n---\n")
    m = re.match(r"(?:From [0-9a-f]{40} [^\n]+\n)?From: [^\n]+\n"
                 r"(?: [^\n]+\n)?(?:Date: [^\n]+\n)?"
                 r"Subject: \[PATCH\] ([^\n]+(?:\n [^\n]+)*)\n\n(.*)\Z",
                 head, re.S)
    if not sep or not m:
        return None
    subject = " ".join(x.strip() for x in m.group(1).split("\n"))
    body = m.group(2)
    sobs = re.findall(r"^Signed-off-by: .+ <.+@.+>$", body, re.M)
    message = re.sub(r"^Signed-off-by: .*$", "", body, flags=re.M).strip()
    return subject, message, sobs, diff


def main():
    patches = sorted(glob.glob(os.path.join(ROOT, "patches", "qemu",
                                            "*.patch")))
    docs = open(os.path.join(ROOT, "docs", "devel",
                             "tenstorrent-build.rst")).read()
    listed = re.findall(r"^\* ``(\d{4}-[^`]+\.patch)``: (.+)$", docs, re.M)
    ok(patches, "patches/qemu holds a series")
    seen = []
    for path in patches:
        name = os.path.basename(path)
        p = parse(open(path).read())
        if not ok(p is not None, "%s: From, Subject: [PATCH], a message, "
                  "---" % name):
            continue
        subject, message, sobs, diff = p
        ok(re.match(r"[\w/,. -]+: \S", subject) and len(message) >= 80,
           "%s: 'area: summary' subject and a message saying why" % name)
        ok(sobs, "%s: Signed-off-by" % name)
        files = re.findall(r"^\+\+\+ b/(\S+)$", diff, re.M)
        ok(files and all(re.match(r"^--- (a/\S+|/dev/null)$", line)
                         for line in re.findall(r"^--- .*$", diff, re.M)),
           "%s: a diff of a/ and b/ paths (%d files)" % (name, len(files)))
        seen.append((name, subject))
    ok(listed == seen, "docs/devel/tenstorrent-build.rst lists the %d "
       "patches in order with their subjects%s" % (
           len(seen), "" if listed == seen else ": first difference %r" %
           (next(((a, b) for a, b in zip(listed + [None] * len(seen),
                                        seen) if a != b), None),)))
    return done()


if __name__ == "__main__":
    sys.exit(main())
