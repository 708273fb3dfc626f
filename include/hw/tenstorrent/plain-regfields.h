/*
 * Reads one of the emulator's register headers (niu-regs.h,
 * riscv-debug-regmap.h, ... beside this file) into plain C, the RV32
 * firmware's or a host tool's, with the same A_<REG>, R_<REG> and
 * R_<REG>_<FIELD>_SHIFT/_LENGTH/_MASK names QEMU's hw/registerfields.h
 * gives, as enum constants:
 *
 *   #define TT_PLAIN_REGS "niu-regs.h"
 *   #include ".../include/hw/tenstorrent/plain-regfields.h"
 *
 * A REG32(addr) of the includer (the firmware's volatile access) is set
 * aside meanwhile.  No include guard: each use reads one header.
 */
#pragma push_macro("REG32")
#undef REG32
#define REG32(reg, addr) \
    enum { A_##reg = (addr) }; \
    enum { R_##reg = (addr) / 4 };
#define FIELD(reg, field, shift, length) \
    enum { R_##reg##_##field##_SHIFT = (shift) }; \
    enum { R_##reg##_##field##_LENGTH = (length) }; \
    enum { R_##reg##_##field##_MASK = \
           (int)((0xffffffffu >> (32 - (length))) << (shift)) };

#include TT_PLAIN_REGS

#undef REG32
#undef FIELD
#undef TT_PLAIN_REGS
#pragma pop_macro("REG32")
