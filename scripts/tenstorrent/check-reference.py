#!/usr/bin/env python3
"""Cross-check the project's data files against ttsim's (Apache-2.0) data.

    check-reference.py PROJECT_DIR [REFERENCE_DIR]

REFERENCE_DIR defaults to PROJECT_DIR/../shared/reference/ttsim-bh.  The
reference is read here only, never by the build (style guide rule 6).
Prints TAP; when the reference is absent it says so and checks nothing.
"""
import json
import os
import re
import sys

import yaml

from tttap import ok, skip_all, done

# ttsim region name -> the project's tile-map region holding it
TILE_NAMES = {
    "riscv_local_mem": "LDM", "riscv_tdma_regs": "TDMA_RISC",
    "riscv_debug_regs": "DEBUG_REGS", "brisc_local_mem": "SLOW_LDM",
    "ncrisc_local_mem": "SLOW_LDM", "trisc0_local_mem": "SLOW_LDM",
    "trisc1_local_mem": "SLOW_LDM", "trisc2_local_mem": "SLOW_LDM",
    "noc0_regs": "NIU0", "noc1_regs": "NIU1", "noc_overlay": "NOC_OVERLAY",
    "tensix_mop_cfg": "MOP_CFG", "tensix_dst": "DEST_WINDOW",
    "tensix_regfile": "TENSIX_GPR", "tensix_inst": "INSTRN_BUF",
    "tensix_inst1": "INSTRN_BUF", "tensix_inst2": "INSTRN_BUF",
    "tensix_pc_buf": "PC_BUF", "tensix_pc1_buf": "PC_BUF",
    "tensix_pc2_buf": "PC_BUF", "tensix_mailbox0": "MAILBOX",
    "tensix_mailbox1": "MAILBOX", "tensix_mailbox2": "MAILBOX",
    "tensix_mailbox3": "MAILBOX", "tensix_cfg": "TENSIX_CFG",
}


def check_tile_map(project, ref):
    ours = yaml.safe_load(open(os.path.join(
        project, "hw/tenstorrent/data/tile-map.yaml")))["regions"]
    theirs = json.load(open(os.path.join(ref, "tile_regs.json")))
    for r in theirs["address_map"]:
        want = TILE_NAMES.get(r["name"])
        if want is None:
            continue            # Ethernet, ARC and PCIe tiles' regions
        base, limit = int(r["base"], 16), int(r["limit"], 16)
        hit = [o for o in ours
               if o["base"] <= base and limit < o["base"] + o["size"]]
        ok(len(hit) == 1 and hit[0]["name"] == want,
           "tile map: ttsim %s 0x%x-0x%x lies in %s" % (r["name"], base,
                                                      limit, want))


# our REG32 name -> ttsim's, where they differ
REG_ALIASES = {"wall_clock_l": "wall_clock_0", "wall_clock_h": "wall_clock_1_at"}


def check_registers(project, ref, header, block, resets):
    """REG32(NAME, OFFSET) of @header against ttsim's register @block."""
    theirs = json.load(open(os.path.join(ref, "tile_regs.json")))["regs"]
    regs = {r["name"]: r for b in theirs if b["name"] == block
            for r in b["regs"]}
    matched = 0
    for line in open(os.path.join(project, header)):
        m = re.match(r"REG32\((\w+), (0x[0-9a-fA-F]+)\)", line)
        if not m:
            continue
        name = m.group(1).lower()
        r = regs.get(REG_ALIASES.get(name, name))
        if r is None:
            continue
        matched += 1
        ok(int(r["offset"], 16) == int(m.group(2), 16),
           "%s: %s at %s (ttsim %s)" % (os.path.basename(header),
                                        m.group(1), m.group(2), r["offset"]))
        want = resets.get(m.group(1))
        if want is not None:
            ok(int(r["reset_value"], 16) == want,
               "%s: %s resets to 0x%x" % (block, m.group(1), want))
    ok(matched > 0, "%s: some registers matched by name" % block)

# Fields where the project's ISA file follows tt-isa-documentation or
# tt-llk and ttsim's data differs (hw/tenstorrent/data/tensix-isa.yaml)
ISA_KNOWN = {
    ("STALLWAIT", "wait_res"): "BH STALLWAIT page: 13 bits",
    ("SFPDIVP2", "imm12_math"): "SFPDIVP2 page: 8-bit immediate",
}


# ttsim names the Z/W counters of the *ZW instructions x and y
ISA_RENAME = {"ch0_x": "ch0_z", "ch0_y": "ch0_w", "ch1_x": "ch1_z",
              "ch1_y": "ch1_w"}


def norm(name):
    return name.replace("_", "").lower()


def check_isa(project, ref):
    ours = yaml.safe_load(open(os.path.join(
        project, "hw/tenstorrent/data/tensix-isa.yaml")))["instructions"]
    theirs = json.load(open(os.path.join(ref, "tensix_isa.json")))
    by_name = {i["name"]: i for i in ours}
    ok(len(ours) == len(theirs), "tensix-isa.yaml: %d instructions (ttsim "
       "%d)" % (len(ours), len(theirs)))
    for name, t in sorted(theirs.items(), key=lambda kv: kv[1]["opcode"]):
        mine = by_name.get(name)
        if not ok(mine is not None and mine["opcode"] == t["opcode"],
                  "tensix-isa.yaml: %s is opcode 0x%02x" % (name,
                                                            t["opcode"])):
            continue
        fields = {norm(f["name"]): f for f in mine.get("fields") or []}
        for arg, bits in sorted((t.get("args") or {}).items()):
            hi, lo = (int(v) for v in bits.split(":"))
            if name.endswith("ZW"):
                arg = ISA_RENAME.get(arg, arg)
            f = fields.get(norm(arg))
            if (name, arg) in ISA_KNOWN:
                ok(f is not None, "tensix-isa.yaml: %s.%s differs from ttsim "
                   "on purpose (%s)" % (name, arg, ISA_KNOWN[(name, arg)]))
                continue
            if hi == lo:    # ttsim gives only the low bit of some fields
                same = f is not None and f["lsb"] == lo
            else:
                same = f is not None and f["lsb"] == lo and \
                    f["width"] == hi - lo + 1
            ok(same, "tensix-isa.yaml: %s.%s at %s" % (name, arg, bits))


# Fields where tensix-config.yaml (cfg_defines.h) and ttsim's table differ on
# purpose (hw/tenstorrent/data/tensix-config.yaml)
CONFIG_KNOWN = {
    # cfg_defines.h gives the tile descriptor a 128-bit mask (words 64-67 /
    # 112-115); ttsim lists only its first 32-bit word.
    ("cfg", "THCON_SEC0_REG0_TileDescriptor"): "128 bits in cfg_defines.h",
    ("cfg", "THCON_SEC1_REG0_TileDescriptor"): "128 bits in cfg_defines.h",
}

# ttsim's tensix_regs.json key -> tensix-config.yaml's
CONFIG_SPACES = {"thread_cfg": "thread_config", "cfg": "config"}


def config_fields(entries):
    """name -> (word, shift, width), expanding {n} + count entries."""
    out = {}
    for e in entries:
        for i in range(e.get("count", 1)):
            name = e["name"].replace("{n}", str(i)) if "count" in e \
                else e["name"]
            out[name] = (e["word"] + i, e["shift"], e["width"])
    return out


def check_config(project, ref):
    ours = yaml.safe_load(open(os.path.join(
        project, "hw/tenstorrent/data/tensix-config.yaml")))
    theirs = json.load(open(os.path.join(ref, "tensix_regs.json")))
    for key, space in sorted(CONFIG_SPACES.items(), reverse=True):
        mine = config_fields(ours[space])
        seen = set()
        for word, fields in sorted(theirs[key].items(),
                                   key=lambda kv: int(kv[0])):
            for t in sorted(fields, key=lambda f: f["shift"]):
                want = (int(word), t["shift"], t["size"])
                got = mine.get(t["name"])
                seen.add(t["name"])
                why = CONFIG_KNOWN.get((key, t["name"]))
                if why is not None:
                    # ttsim's bits must still lie inside ours
                    ok(got is not None and got[0] == want[0] and
                       got[1] <= want[1] and
                       want[1] + want[2] <= got[1] + got[2],
                       "tensix-config.yaml: %s.%s differs from ttsim on "
                       "purpose (%s)" % (space, t["name"], why))
                    continue
                ok(got == want, "tensix-config.yaml: %s.%s at word %d "
                   "bits %d+%d" % (space, t["name"], want[0], want[1],
                                   want[2]))
        words = ours["spaces"][space]["words"]
        top = max(int(w) for w in theirs[key])
        ok(top < words, "tensix-config.yaml: %s has %d words, ttsim's "
           "highest is word %d" % (space, words, top))
        extra = sorted(set(mine) - seen, key=lambda n: mine[n])
        for name in extra:
            print("# tensix-config.yaml: %s.%s (word %d bits %d+%d) is not "
                  "in ttsim's table" % ((space, name) + mine[name]))
        print("# tensix-config.yaml: %s has %d fields, %d not in ttsim's "
              "table" % (space, len(mine), len(extra)))


def main():
    project = sys.argv[1]
    ref = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        project, "..", "shared", "reference", "ttsim-bh")
    if not os.path.isdir(ref):
        print("# reference data not found at %s: cross-check skipped" % ref)
        return skip_all("no reference data")
    check_tile_map(project, ref)
    check_registers(project, ref,
                    "include/hw/tenstorrent/riscv-debug-regmap.h",
                    "riscv_debug_regs", {"SOFT_RESET_0": 0x47800})
    check_registers(project, ref, "include/hw/tenstorrent/niu-regs.h",
                    "noc_regs", {})
    check_isa(project, ref)
    check_config(project, ref)
    return done()


if __name__ == "__main__":
    sys.exit(main())
