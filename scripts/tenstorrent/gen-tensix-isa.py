#!/usr/bin/env python3
"""Generate the Tensix instruction table from hw/tenstorrent/data/tensix-isa.yaml.

    gen-tensix-isa.py INPUT.yaml OUTPUT.h
    gen-tensix-isa.py --encoders INPUT.yaml OUTPUT.h

With --encoders the header holds only TT_ENC_<NAME>(field, ...) macros that
build an instruction word from its fields, most significant first (as
tt-llk's TT_OP_* take them), in plain C for RV32 firmware and host tests.

The header gives, for every opcode: TT_OP_<NAME>, one accessor per operand
field (tt_<name>_<field>(word)), the prototype of its handler
tensix_<name>() (defined in the file of its unit, UNIT_FILES), and
tt_tensix_isa[256] with the name, unit, wait-gate block groups, fields and
handler, which drives the executor's dispatch, its wait gate, its logging
and the disassembler.  The table (defined where TT_TENSIX_ISA_TABLE is)
refers to the handlers weakly: an instruction nobody implements has a NULL
handler, and "tt isa" lists those.  Fails on malformed data: duplicate
opcodes or names, fields outside bits 23:0 or overlapping each other, block
groups naming unknown instructions.
"""
import sys

import yaml

# unit -> the file under hw/tenstorrent/ that implements its instructions
UNIT_FILES = {
    "misc": "tensix-frontend.c", "mop": "tensix-frontend.c",
    "sync": "tensix-sync.c", "cfg": "tensix-config.c",
    "gpr": "tensix-thcon.c", "adc": "tensix-adc.c",
    "unpack": "tensix-unpack.c", "pack": "tensix-pack.c",
    "math": "tensix-fpu.c", "sfpu": "tensix-sfpu.c",
    "mover": "tensix-mover.c",
}
UNITS = tuple(UNIT_FILES)


def fail(msg):
    sys.exit("gen-tensix-isa: error: " + msg)


def check(ins):
    for k in ("name", "opcode", "unit"):
        if k not in ins:
            fail("%s: missing '%s'" % (ins.get("name", "?"), k))
    if not ins["name"].replace("_", "").isalnum():
        fail("%s: bad name" % ins["name"])
    if not 0 <= ins["opcode"] < 256:
        fail("%s: opcode out of range" % ins["name"])
    if ins["unit"] not in UNITS:
        fail("%s: unknown unit '%s'" % (ins["name"], ins["unit"]))
    used = 0
    names = set()
    for f in ins.get("fields") or []:
        lsb, width = f["lsb"], f["width"]
        if width < 1 or lsb < 0 or lsb + width > 24:
            fail("%s.%s: outside bits 23:0" % (ins["name"], f["name"]))
        mask = ((1 << width) - 1) << lsb
        if used & mask:
            fail("%s.%s: overlaps another field" % (ins["name"], f["name"]))
        if f["name"] in names or not f["name"].isidentifier():
            fail("%s.%s: duplicate or bad field name" % (ins["name"],
                                                          f["name"]))
        used |= mask
        names.add(f["name"])


def block_groups(groups, names):
    """Instruction name -> mask of the block bits B0-B8 that hold it."""
    block = {}
    for bit, members in groups.items():
        mask = 0x1ff if bit == "all" else 1 << int(bit)
        if mask > 0x1ff:
            fail("wait_block_groups: no block bit %s" % bit)
        for name in members:
            if name not in names:
                fail("wait_block_groups: unknown instruction %s" % name)
            block[name] = block.get(name, 0) | mask
    return block


def encoders(src, by_op):
    """TT_ENC_<NAME>(fields...) word builders; a field's excess bits are cut."""
    out = ["/* Generated from %s by gen-tensix-isa.py --encoders: do not "
           "edit. */" % src, "#ifndef TT_TENSIX_ENC_H",
           "#define TT_TENSIX_ENC_H", ""]
    for op in sorted(by_op):
        ins = by_op[op]
        fields = sorted(ins.get("fields") or [], key=lambda f: -f["lsb"])
        args = ", ".join(f["name"] for f in fields)
        body = " | ".join(["0x%02xu << 24" % op] + [
            "(((unsigned)(%s) & 0x%xu) << %d)" % (f["name"],
                                                 (1 << f["width"]) - 1,
                                                 f["lsb"]) for f in fields])
        out.append("#define TT_ENC_%s(%s) \\\n    (%s)" % (ins["name"], args,
                                                     body))
    out += ["", "#endif"]
    return out


def main():
    enc = sys.argv[1] == "--encoders"
    if enc:
        del sys.argv[1]
    src, dst = sys.argv[1], sys.argv[2]
    data = yaml.safe_load(open(src))
    insns = data.get("instructions") or fail("no instructions")
    by_op, by_name = {}, set()
    for ins in insns:
        check(ins)
        if ins["opcode"] in by_op or ins["name"] in by_name:
            fail("%s: duplicate opcode or name" % ins["name"])
        by_op[ins["opcode"]] = ins
        by_name.add(ins["name"])
    block = block_groups(data.get("wait_block_groups") or {}, by_name)
    if enc:
        open(dst, "w").write("\n".join(encoders(src, by_op)) + "\n")
        return
    out = ["/* Generated from %s by gen-tensix-isa.py: do not edit. */" % src,
           "#ifndef TT_TENSIX_ISA_H", "#define TT_TENSIX_ISA_H", "",
           "#include \"qemu/bitops.h\"", ""]
    out.append("enum {")
    for u in UNITS:
        out.append("    TT_UNIT_%s," % u.upper())
    out.append("};")
    out.append("")
    for op in sorted(by_op):
        out.append("#define TT_OP_%s 0x%02x" % (by_op[op]["name"], op))
    out.append("")
    for op in sorted(by_op):
        ins = by_op[op]
        for f in ins.get("fields") or []:
            out.append("static inline uint32_t tt_%s_%s(uint32_t w)" %
                       (ins["name"].lower(), f["name"]))
            out.append("{")
            out.append("    return extract32(w, %d, %d);" % (f["lsb"],
                                                             f["width"]))
            out.append("}")
    out.append("")
    out += ["typedef struct TTTensix TTTensix;", "",
            "/* Execute w on thread; false: not yet (it stays queued) */",
            "typedef bool TTTensixHandler(TTTensix *t, int thread, "
            "uint32_t w);", ""]
    for u in UNITS:
        names = sorted(i["name"] for i in by_op.values() if i["unit"] == u)
        out.append("/* %s: %s */" % (u, UNIT_FILES[u]))
        out += ["TTTensixHandler tensix_%s;" % n.lower() for n in names]
        out.append("")
    out += ["typedef struct TTTensixField {", "    const char *name;",
            "    uint8_t lsb, width;", "} TTTensixField;", "",
            "typedef struct TTTensixOpInfo {", "    const char *name;",
            "    uint8_t unit;", "    uint8_t nfields;",
            "    uint16_t block;     /* wait gate groups B0-B8 holding it */",
            "    const TTTensixField *fields;",
            "    TTTensixHandler *exec;  /* NULL: not implemented */",
            "} TTTensixOpInfo;", "",
            "extern const char *const tt_tensix_unit_name[];",
            "extern const TTTensixOpInfo tt_tensix_isa[256];", "",
            "#ifdef TT_TENSIX_ISA_TABLE"]
    out.append("const char *const tt_tensix_unit_name[] = {")
    out += ["    \"%s\"," % u for u in UNITS]
    out.append("    NULL,")
    out.append("};")
    out.append("")
    for op in sorted(by_op):
        out.append("#pragma weak tensix_%s" % by_op[op]["name"].lower())
    out.append("")
    for op in sorted(by_op):
        ins = by_op[op]
        fields = ins.get("fields") or []
        if fields:
            out.append("static const TTTensixField tt_fields_%s[] = {" %
                       ins["name"].lower())
            for f in sorted(fields, key=lambda f: -f["lsb"]):
                out.append("    { \"%s\", %d, %d }," % (f["name"], f["lsb"],
                                                        f["width"]))
            out.append("};")
    out.append("")
    out.append("const TTTensixOpInfo tt_tensix_isa[256] = {")
    for op in sorted(by_op):
        ins = by_op[op]
        n = len(ins.get("fields") or [])
        out.append("    [0x%02x] = { \"%s\", TT_UNIT_%s, %d, 0x%03x, %s, "
                   "tensix_%s }," % (
                       op, ins["name"], ins["unit"].upper(), n,
                       block.get(ins["name"], 0),
                       "tt_fields_%s" % ins["name"].lower() if n else "NULL",
                       ins["name"].lower()))
    out.append("};")
    out.append("#endif")
    out.append("")
    out.append("#endif")
    open(dst, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
