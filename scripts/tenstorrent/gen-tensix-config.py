#!/usr/bin/env python3
"""Generate the Tensix configuration field table from
hw/tenstorrent/data/tensix-config.yaml.

    gen-tensix-config.py INPUT.yaml OUTPUT.h

For every field NAME of the global configuration (Config[state][word]) the
header defines TT_CFG_<NAME>_WORD, _SHIFT and _WIDTH; for ThreadConfig
fields TT_THCFG_<NAME>_*.  A field repeated over consecutive words is
written NAME with "{n}" and count N in the data file; its C name has "n"
in place of "{n}", _WORD is the first word and _COUNT gives N.  A field
wider than a word (the 128-bit TileDescriptor) starts at shift 0 and
spans consecutive words; _WORDS gives how many.  tensix-common.h reads
fields through TT_CFG()/TT_THCFG() with these.
Fails on malformed data: fields outside their word, overlapping fields in
a word, words outside the space, duplicate names.
"""
import sys

import yaml

# yaml key: C prefix; each space's size comes from the data's spaces:
PREFIX = {
    "config": "TT_CFG",
    "thread_config": "TT_THCFG",
}


def fail(msg):
    sys.exit("gen-tensix-config: error: " + msg)


def check_space(key, fields, words, bits):
    used = {}
    names = set()
    for f in fields:
        for k in ("name", "word", "shift", "width"):
            if k not in f:
                fail("%s: %s: missing '%s'" % (key, f.get("name", "?"), k))
        name, count = f["name"], f.get("count", 1)
        if ("{n}" in name) != (count > 1 or "count" in f):
            fail("%s: %s: {n} and count go together" % (key, name))
        cname = name.replace("{n}", "n")
        if not cname.replace("_", "").isalnum() or cname in names:
            fail("%s: %s: bad or duplicate name" % (key, name))
        names.add(cname)
        span = 1
        if f["width"] > bits and f["shift"] == 0 and \
           f["width"] % bits == 0 and count == 1:
            span = f["width"] // bits       # a multi-word field
        elif f["width"] < 1 or f["shift"] < 0 or \
                f["shift"] + f["width"] > bits:
            fail("%s: %s: outside its %d-bit word" % (key, name, bits))
        if f["word"] < 0 or f["word"] + count * span > words:
            fail("%s: %s: word outside the space" % (key, name))
        mask = ((1 << min(f["width"], bits)) - 1) << f["shift"]
        for w in range(f["word"], f["word"] + count * span):
            if used.get(w, 0) & mask:
                fail("%s: %s overlaps another field in word %d" %
                     (key, name, w))
            used[w] = used.get(w, 0) | mask


def main():
    src, dst = sys.argv[1], sys.argv[2]
    data = yaml.safe_load(open(src))
    out = ["/*",
           " * Generated from %s" % src,
           " * (%s) by gen-tensix-config.py: do not edit." %
           data.get("revision", "no revision"),
           " */",
           "#ifndef TT_TENSIX_CONFIG_H", "#define TT_TENSIX_CONFIG_H", ""]
    spaces = data.get("spaces") or fail("no spaces")
    for key, prefix in PREFIX.items():
        sp = spaces.get(key) or fail("no size for space %s" % key)
        words, bits = sp.get("words"), sp.get("bits")
        if not isinstance(words, int) or words < 1 or bits not in (16, 32):
            fail("%s: bad words/bits" % key)
        fields = data.get(key) or fail("no %s fields" % key)
        check_space(key, fields, words, bits)
        out.append("/* %s: %d words of %d bits */" % (key, words, bits))
        out.append("#define %s_WORDS %d" % (prefix, words))
        if "global_word0" in sp:
            if not 0 <= sp["global_word0"] < words:
                fail("%s: global_word0 outside the space" % key)
            out.append("#define %s_GLOBAL_WORD0 %d" % (prefix,
                                                       sp["global_word0"]))
        for f in fields:
            c = "%s_%s" % (prefix, f["name"].replace("{n}", "n"))
            out.append("#define %s_WORD %d" % (c, f["word"]))
            out.append("#define %s_SHIFT %d" % (c, f["shift"]))
            out.append("#define %s_WIDTH %d" % (c, f["width"]))
            if "count" in f:
                out.append("#define %s_COUNT %d" % (c, f["count"]))
            if f["width"] > bits:
                out.append("#define %s_WORDS %d" % (c, f["width"] // bits))
        out.append("")
    out.append("#endif")
    open(dst, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
