#!/usr/bin/env python3
"""Control-flow summary of an sm_70+ cubin without cuobjdump (CUDA toolkits without it, CI).

Reads the ELF, walks each .text.<kernel> section in 16-byte instructions and prints the
control-flow instructions (BRA, BSSY, BSYNC, BREAK, EXIT, WARPSYNC, ...) with their guard
predicate and target, plus a count of every other opcode. Opcode numbers (low 12 bits of the
first 64-bit word; guard predicate in bits 12-15; BSSY's target offset in bits 32-63, BRA's in
4-byte units in bits 16-23 and 34+, both relative to the next instruction) are those of Mesa's NAK encoder (sm70_encode.rs) and of cuobjdump listings.
Where cuobjdump is available, `cuobjdump -sass` is the authority; this is a cross-check.

usage: sass_summary.py file.cubin [kernel]
"""
import struct
import sys
from collections import Counter

CONTROL = {0x947: "BRA", 0x945: "BSSY", 0x941: "BSYNC", 0x942: "BREAK", 0x94d: "EXIT",
           0x948: "WARPSYNC", 0x949: "BRX", 0x944: "CALL", 0x950: "RET", 0x946: "YIELD",
           0xb1d: "BAR", 0x918: "NOP", 0x806: "VOTE"}


def sections(data):
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strtab = headers[shstrndx]
    def name(off):
        start = strtab[4] + off
        return data[start:data.index(b"\0", start)].decode()
    return {name(h[0]): data[h[4]:h[4] + h[5]] for h in headers}


def branch_offset(lo):
    # BRA keeps its offset in 4-byte units: the low 8 bits in bits 16-23, the rest from bit 34
    # (read off listings: every decoded target lands on the BSYNC or loop head it should).
    units = ((lo >> 16) & 0xFF) | (((lo >> 34) & ((1 << 30) - 1)) << 8)
    if units & (1 << 37):
        units -= 1 << 38
    return units * 4


def summarize(text):
    lines, other = [], Counter()
    for pc in range(0, len(text), 16):
        lo, hi = struct.unpack_from("<QQ", text, pc)
        op = lo & 0xFFF
        pred = (lo >> 12) & 0xF
        guard = "" if pred == 7 else ("@!P%d " if pred & 8 else "@P%d ") % (pred & 7)
        if op not in CONTROL:
            other[op] += 1
            continue
        name = CONTROL[op]
        if name == "NOP":
            continue
        detail = ""
        if name == "BSSY":
            offset = struct.unpack("<i", struct.pack("<I", lo >> 32))[0]
            detail = " -> 0x%04x" % (pc + 16 + offset)
        if name in ("BRA", "CALL"):
            detail = " -> 0x%04x" % (pc + 16 + branch_offset(lo))
        if name in ("BSSY", "BSYNC", "BREAK"):
            detail = " B%d" % ((lo >> 16) & 0xF) + detail
        lines.append("  /*%04x*/ %s%s%s" % (pc, guard, name, detail))
    return lines, other, len(text) // 16


def main():
    data = open(sys.argv[1], "rb").read()
    want = sys.argv[2] if len(sys.argv) > 2 else None
    for name, text in sorted(sections(data).items()):
        if not name.startswith(".text.") or (want and name != ".text." + want):
            continue
        lines, other, count = summarize(text)
        print("%s: %d instructions" % (name[6:], count))
        print("\n".join(lines))
        print("  other opcodes: " + ", ".join("0x%03x x%d" % kv for kv in sorted(other.items())))


if __name__ == "__main__":
    main()
