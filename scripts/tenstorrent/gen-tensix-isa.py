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
and the disassembler.  SFP instructions (unit sfpu) all enter through the
Vector Unit's issue path, tt_sfpu_issue(), which runs the mnemonic's
handler tensix_<name>(t, thread, insn) from tt_sfpu_isa[] with the
sub-unit and operand layout of its "sfpu:" entry.  The table (defined where TT_TENSIX_ISA_TABLE is)
refers to the handlers weakly: an instruction nobody implements has a NULL
handler, and "tt isa" lists those.  Fails on malformed data: duplicate
opcodes or names, fields outside bits 23:0 or overlapping each other, block
groups naming unknown instructions.
"""
import sys

import yaml

# unit -> the file under hw/tenstorrent/ that implements its instructions
# (None: a unit the model leaves out; its instructions are unimplemented)
UNIT_FILES = {
    "misc": "tensix-frontend.c", "mop": "tensix-frontend.c",
    "sync": "tensix-sync.c", "cfg": "tensix-config.c",
    "gpr": "tensix-thcon.c", "adc": "tensix-adc.c",
    "unpack": "tensix-unpack.c", "pack": "tensix-pack.c",
    "math": "tensix-fpu.c", "sfpu": "tensix-sfpu.c",
    "mover": None,
}
UNITS = tuple(UNIT_FILES)
# an SFP instruction's sub-units and operand layouts (tensix-isa.yaml)
SFPU_SUBUNITS = ("simple", "mad", "round", "store", "load")
SFPU_OPERANDS = ("vd_hi", "no_door", "vb_vd", "vb_use", "vc_vd", "has_vb",
                 "no_vc")


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
    sfpu = ins.get("sfpu")
    if (sfpu is None) != (ins["unit"] != "sfpu"):
        fail("%s: an 'sfpu' entry belongs to, and only to, unit sfpu" %
             ins["name"])
    if sfpu is not None:
        if sfpu.get("subunit") not in SFPU_SUBUNITS:
            fail("%s: sfpu subunit is one of %s" % (ins["name"],
                                                    ", ".join(SFPU_SUBUNITS)))
        for o in sfpu.get("operands") or []:
            if o not in SFPU_OPERANDS:
                fail("%s: unknown sfpu operand layout '%s'" % (ins["name"],
                                                               o))
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
    out += ["",
            "/*",
            " * An instruction word inline in TRISC code (binutils .ttinsn,",
            " * tt-llk TRISC_OP_SWIZZLE): rotated left by two; a word whose",
            " * top two bits are both set reads as a RISC-V instruction",
            " */",
            "#define TT_ENC_INLINE(w) \\",
            "    ((unsigned)(((unsigned)(w) << 2) | ((unsigned)(w) >> 30)))",
            "#define TT_ENC_INLINE_OK(w) (((unsigned)(w) >> 30) != 3)",
            "", "#endif"]
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
    sfp = sorted(op for op in by_op if by_op[op]["unit"] == "sfpu")
    out += ["typedef struct TTTensix TTTensix;",
            "typedef struct TTSfpInsn TTSfpInsn;", "",
            "/* Execute w on thread; false: not yet (it stays queued) */",
            "typedef bool TTTensixHandler(TTTensix *t, int thread, "
            "uint32_t w);",
            "/* An SFP instruction, decoded, in the Vector Unit's cycle */",
            "typedef void TTSfpuHandler(TTTensix *t, int thread, "
            "const TTSfpInsn *i);", "",
            "/* Every SFP instruction's entry: the Vector Unit's issue */",
            "TTTensixHandler tt_sfpu_issue;", ""]
    for u in UNITS:
        names = sorted(i["name"] for i in by_op.values() if i["unit"] == u)
        out.append("/* %s: %s */" % (u, UNIT_FILES[u] or
                                     "not modelled (no handlers)"))
        out += ["%s tensix_%s;" % ("TTSfpuHandler" if u == "sfpu" else
                                   "TTTensixHandler", n.lower())
                for n in names]
        out.append("")
    out.append("enum {")
    out += ["    TT_SFP_U_%s," % u.upper() for u in SFPU_SUBUNITS]
    out.append("};")
    out.append("")
    out.append("enum {")
    out += ["    TT_SFP_%s = 0x%x," % (o.upper(), 1 << n)
            for n, o in enumerate(SFPU_OPERANDS)]
    out.append("};")
    out.append("")
    out += ["#define TT_SFPU_OP0 TT_OP_%s" % by_op[sfp[0]]["name"],
            "#define TT_SFPU_OPS %d" % (sfp[-1] - sfp[0] + 1), "",
            "typedef struct TTSfpuOpInfo {",
            "    TTSfpuHandler *run;     /* NULL: not an SFP instruction */",
            "    uint8_t subunit;        /* TT_SFP_U_* */",
            "    uint8_t operands;       /* TT_SFP_* */",
            "} TTSfpuOpInfo;", "",
            "extern const TTSfpuOpInfo tt_sfpu_isa[TT_SFPU_OPS];", "",
            "/* Opcode @op's SFP entry, or NULL */",
            "static inline const TTSfpuOpInfo *tt_sfpu_op(unsigned op)",
            "{",
            "    const TTSfpuOpInfo *i = op - TT_SFPU_OP0 < TT_SFPU_OPS ?",
            "                            &tt_sfpu_isa[op - TT_SFPU_OP0] : "
            "NULL;", "",
            "    return i && i->run ? i : NULL;",
            "}", ""]
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
            "/* Does the model implement opcode @op? */",
            "static inline bool tt_tensix_implemented(unsigned op)",
            "{",
            "    return op < 256 && tt_tensix_isa[op].exec &&",
            "           (tt_tensix_isa[op].unit != TT_UNIT_SFPU || "
            "tt_sfpu_op(op));",
            "}", "",
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
                   "%s }," % (
                       op, ins["name"], ins["unit"].upper(), n,
                       block.get(ins["name"], 0),
                       "tt_fields_%s" % ins["name"].lower() if n else "NULL",
                       "tt_sfpu_issue" if ins["unit"] == "sfpu"
                       else "tensix_" + ins["name"].lower()))
    out.append("};")
    out.append("")
    out.append("const TTSfpuOpInfo tt_sfpu_isa[TT_SFPU_OPS] = {")
    for op in sfp:
        ins = by_op[op]
        flags = " | ".join("TT_SFP_" + o.upper()
                           for o in ins["sfpu"].get("operands") or []) or "0"
        out.append("    [0x%02x - TT_SFPU_OP0] = { tensix_%s, TT_SFP_U_%s, "
                   "%s }," % (op, ins["name"].lower(),
                              ins["sfpu"]["subunit"].upper(), flags))
    out.append("};")
    out.append("#endif")
    out.append("")
    out.append("#endif")
    open(dst, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
