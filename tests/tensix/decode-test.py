#!/usr/bin/env python3
"""Tensix decode test: for every opcode of hw/tenstorrent/data/tensix-isa.yaml
and random operand values, the emulator's decoder ("tt disas", the same
table the executor and logs use) must give the instruction's name and each
field's value, extracted here independently from the data file.  TAP output.

    decode-test.py BUILD_DIR SRC_DIR
"""
import os
import random
import subprocess
import sys

import yaml

sys.path.insert(0, os.path.join(sys.argv[2], "scripts"))
sys.path.insert(0, os.path.join(sys.argv[2], "scripts", "tenstorrent"))
from ttqtest import TTQemu  # noqa: E402
from tttap import ok, done  # noqa: E402


# units whose every instruction must execute (the rest say so in "tt isa"),
# with the instructions still allowed to lack a handler
COMPLETE_UNITS = {"sync": [], "adc": [], "unpack": [], "sfpu": []}


def main():
    build, src = sys.argv[1], sys.argv[2]
    isa = yaml.safe_load(open(os.path.join(
        src, "hw/tenstorrent/data/tensix-isa.yaml")))["instructions"]
    q = TTQemu(os.path.join(build, "qemu", "qemu-system-riscv32"),
               "harvested-tensix-cols=2:3:4:5:6:7:10:11:12:13:14:15:16",
               accel="qtest")
    rng = random.Random(20261122)
    for ins in isa:
        bad = []
        for _ in range(16):
            word = ins["opcode"] << 24 | rng.getrandbits(24)
            got = q.cmd("tt disas 0x%08x" % word)
            want = [ins["name"]]
            fields = sorted(ins.get("fields") or [], key=lambda f: -f["lsb"])
            if fields:
                want.append(",".join(
                    "%s=%d" % (f["name"], word >> f["lsb"] &
                               ((1 << f["width"]) - 1)) for f in fields))
            if got != want:
                bad.append("0x%08x: %s" % (word, " ".join(got)))
        ok(not bad, "%s (0x%02x) decodes with its %d fields%s" % (
            ins["name"], ins["opcode"], len(ins.get("fields") or []),
            " # " + bad[0] if bad else ""))
    # "tt isa": instructions without a handler, by unit (the generated
    # table's NULL entries), each a real instruction of that unit
    units = {i["name"]: i["unit"] for i in isa}
    got = q.cmd("tt isa")
    missing = {}
    for word in got[:-1]:
        unit, _, names = word.partition(":")
        missing[unit] = [m for m in names.split(",") if m]
    bad = [m for u, ms in missing.items() for m in ms if units.get(m) != u]
    impl, total = map(int, got[-1].split("=")[1].split("/"))
    ok(not bad and total == len(isa) and
       impl + sum(map(len, missing.values())) == total,
       "tt isa lists %d unimplemented instructions under their units; %d "
       "of %d implemented%s" % (total - impl, impl, total,
                                " # " + str(bad) if bad else ""))
    for unit, allowed in COMPLETE_UNITS.items():
        gaps = [m for m in missing.get(unit, [None]) if m not in allowed]
        ok(not gaps, "every %s instruction has a handler%s%s" % (
            unit, " but " + ",".join(allowed) if allowed else "",
            " # missing: " + ",".join(m or "unit" for m in gaps)
            if gaps else ""))
    unknown = q.cmd("tt disas 0xff123456")
    ok(unknown == [".ttinsn", "0xff123456"],
       "an opcode outside the table shows as .ttinsn")
    q.close()
    # -d in_asm names the inline words of TRISC code
    log = subprocess.run(
        [os.path.join(build, "qemu", "qemu-system-riscv32"), "-M",
         "blackhole,firmware=%s/firmware/tensix-test.elf,harvested-tensix-"
         "cols=2:3:4:5:6:7:10:11:12:13:14:15:16" % build,
         "-semihosting-config", "enable=on,target=native", "-display",
         "none", "-monitor", "none", "-serial", "none", "-d", "in_asm"],
        capture_output=True, text=True, timeout=300).stderr
    ok("ttinsn SETDMAREG payload_sig_sel_size=0,payload_sig_sel=4660" in log,
       "-d in_asm shows inline Tensix words by name")
    return done()


if __name__ == "__main__":
    sys.exit(main())
