#!/usr/bin/env python3
"""Writes kernels/microbench/mb_chain_*.kir: the dependent-chain microbenchmarks of `warpsim calibrate`.

One kernel per timing class and shape: `lat_CLASS` runs one chain of 16 dependent instructions per
round (latency); `tput_CLASS` runs four independent chains interleaved (issue throughput with many
warps). The chain starts from a value that depends on the first %clock64 read, so no compiler can
hoist it above the read; each thread writes its clock difference and its chain's value.
Run it again after editing; the .kir files are committed.
"""
import pathlib

# class: (register type, parameter types and setup, op for step i of chain c)
CLASSES = {
    "int": ("u32", "u32 a, u32 b", "add.u32 {x}, a, z32", lambda i, x: f"add.u32 {x}, {x}, b" if i % 2 == 0 else f"xor.u32 {x}, {x}, a"),
    # Full width (stop 36): both halves of every operand unknown to the compiler ((a << 32) + b and
    # (b << 32) + a) and both halves of the result stored. Until stop 35 its operands were zero-extended
    # 32-bit values and only the low half was stored, and ptxas made the chain 32-bit (IMAD.IADD and one
    # LOP3 a step: the SASS of stop 26's mb_chain_int64, h100/stop26b/sass-b.tgz), so it measured the
    # 32-bit add and xor (tput 1.37 cycles an op), not the 64-bit ones.
    "int64": ("u64", "u32 a, u32 b", "add.u64 {x}, wm, z",
              lambda i, x: f"add.u64 {x}, {x}, wb" if i % 2 == 0 else f"xor.u64 {x}, {x}, wa"),
    "imul": ("u32", "u32 a, u32 b", "add.u32 {x}, a, z32", lambda i, x: f"mul.u32 {x}, {x}, {x}"),
    "imul64": ("u64", "u32 a, u32 b", "cvt.u64.u32 {x}, a\nadd.u64 {x}, {x}, z",
               lambda i, x: f"mad.u64 {x}, {x}, {x}, wm"),
    # The logic64 class (stop 26): full-width 64-bit shifts and xors, x ^= x >> 29 as two dependent
    # steps, as set25's hash64 does them (SHF and LOP3 on each 32-bit half in its SASS); the int64 chain's
    # operands are zero-extended 32-bit values, whose high halves ptxas may leave out. Measured at stop 26
    # as lat-int64sx and tput-int64sx (stop26/, stop26b/).
    "logic64": ("u64", "u32 a, u32 b", "add.u64 {x}, wm, z",
                lambda i, x: f"shr.u64 s{x}, {x}, 29" if i % 2 == 0 else f"xor.b64 {x}, {x}, s{x}"),
    # The logic class (stop 26): the same with 32-bit values (SHF and LOP3 once each); measured at
    # stop 26 as lat-int32sx and tput-int32sx (stop26b/).
    "logic": ("u32", "u32 a, u32 b", "add.u32 {x}, a, z32",
                lambda i, x: f"shr.u32 s{x}, {x}, 7" if i % 2 == 0 else f"xor.b32 {x}, {x}, s{x}"),
    # Compared only (stop 26's third call): compares and selects (ISETP and SEL on the INT pipe), x =
    # (x > b) ? a : x as two dependent steps.
    "cmp": ("u32", "u32 a, u32 b", "add.u32 {x}, a, z32",
            lambda i, x: f"setp.gt.u32 q{x}, {x}, b" if i % 2 == 0 else f"selp.u32 {x}, a, {x}, q{x}"),
    "bits": ("u32", "u32 a, u32 b", "add.u32 {x}, a, z32",
             lambda i, x: f"clz.b32 {x}, {x}" if i % 2 == 0 else f"popc.b32 {x}, {x}"),
    "idiv": ("u32", "u32 a, u32 b", "add.u32 {x}, b, z32", lambda i, x: f"div.u32 {x}, a, {x}"),
    "fp32": ("f32", "f32 a, f32 b", "add.f32 {x}, a, zf", lambda i, x: f"add.f32 {x}, {x}, b"),
    "fp64": ("f64", "f32 a, f32 b", "add.f64 {x}, da, zd", lambda i, x: f"fma.rn.f64 {x}, {x}, da, db"),
    "fdiv": ("f32", "f32 a, f32 b", "add.f32 {x}, b, zf", lambda i, x: f"div.f32 {x}, a, {x}"),
    # f64 division and square root (stop 29): ptxas's sequences of DFMA from MUFU.RCP64H / RSQ64H.
    "ddiv": ("f64", "f32 a, f32 b", "add.f64 {x}, db, zd", lambda i, x: f"div.rn.f64 {x}, da, {x}"),
    "dsqrt": ("f64", "f32 a, f32 b", "add.f64 {x}, da, zd", lambda i, x: f"sqrt.rn.f64 {x}, {x}"),
    "drcp": ("f64", "f32 a, f32 b", "add.f64 {x}, da, zd", lambda i, x: f"rcp.rn.f64 {x}, {x}"),
    "sfu": ("f32", "f32 a, f32 b", "add.f32 {x}, a, zf", lambda i, x: f"sqrt.f32 {x}, {x}"),
    "cvt": ("u32", "u32 a, u32 b", "add.u32 {x}, a, z32",
            lambda i, x: f"cvt.f32.u32 f{x}, {x}" if i % 2 == 0 else f"cvt.u32.f32 {x}, f{x}"),
    "shfl": ("u32", "u32 a, u32 b", "add.u32 {x}, a, z32", lambda i, x: f"shfl.xor.u32 {x}, {x}, 1"),
    "vote": ("pred", "u32 a, u32 b", "setp.ne.u32 {x}, z32, a", lambda i, x: f"vote.any.pred {x}, {x}"),
}
OPS = 16  # dependent instructions per chain and round, lat; per round over all chains, tput


def kernel(cls, chains):
    rtype, params, init, op = CLASSES[cls]
    names = [f"x{c}" for c in range(chains)]
    name = ("lat_" if chains == 1 else "tput_") + cls
    lines = [f"kernel {name}(ptr.u64 out, ptr.u32 sink, u32 rounds, {params}) {{",
             f"    reg {rtype} " + ", ".join(names),
             "    reg u32 k, z32, gid, word",
             "    reg u64 t0, t1, z, off, p, wa, wb",
             "    reg f32 zf" + "".join(f", f{x}" for x in names),
             "    reg pred again", "",
             "    mov.u64 t0, %clock64",
             "    shr.u64 z, t0, 63",
             "    cvt.u32.u64 z32, z",
             "    cvt.f32.u32 zf, z32"]
    if cls == "int64":  # full-width operands: wa = (a << 32) + b, wb = (b << 32) + a, the start wm = wa
        lines[3] = lines[3] + ", wm, wc"
        lines += ["    cvt.u64.u32 wa, a", "    cvt.u64.u32 wb, b", "    shl.b64 wc, wa, 32", "    add.u64 wm, wc, wb",
                  "    shl.b64 wc, wb, 32", "    add.u64 wb, wc, wa", "    mov.u64 wa, wm"]
    if cls == "logic64":  # a start with both halves unknown to the compiler: (b << 32) + a, and the shifts' temporaries
        lines[3] = lines[3] + ", wm" + "".join(f", s{x}" for x in names)
        lines += ["    cvt.u64.u32 wa, a", "    cvt.u64.u32 wb, b", "    shl.b64 wb, wb, 32", "    add.u64 wm, wb, wa"]
    if cls == "logic":  # the shifts' temporaries
        lines[2] = lines[2] + "".join(f", s{x}" for x in names)
    if cls == "cmp":  # the compares' predicates
        lines[5] = lines[5] + "".join(f", q{x}" for x in names)
    if cls == "imul64":  # a multiplier with both halves unknown to the compiler: (b << 32) + a
        lines[3] = lines[3] + ", wm"
        lines += ["    cvt.u64.u32 wa, a", "    cvt.u64.u32 wb, b", "    shl.b64 wb, wb, 32", "    add.u64 wm, wb, wa"]
    if rtype == "f64":
        lines[5:5] = ["    reg f64 da, db, zd"]
        lines += ["    cvt.f64.f32 da, a", "    cvt.f64.f32 db, b", "    cvt.f64.u32 zd, z32"]
    for x in names:
        lines += ["    " + l for l in init.format(x=x).split("\n")]
    lines += ["    mov.u32 k, 0", "loop:"]
    for i in range(OPS // chains):
        for x in names:
            lines.append("    " + op(i, x))
    lines += ["    add.u32 k, k, 1",
              "    setp.lt.u32 again, k, rounds",
              "    @again bra loop",
              "    mov.u64 t1, %clock64",
                            "    mad.u32 gid, %ctaid.x, %ntid.x, %tid.x",
              "    mul.wide.u32 off, gid, 16",
              "    add.u64 p, out, off",
              "    st.global.u64 [p], t0",
              "    st.global.u64 [p+8], t1",
              "    mov.u32 word, 0"]
    for x in names:
        if rtype == "u32":
            lines.append(f"    xor.u32 word, word, {x}")
        elif rtype == "u64":
            lines += [f"    cvt.u32.u64 k, {x}", "    xor.u32 word, word, k"]
            if cls in ("imul64", "logic64", "int64"):  # the high half too: else only 32-bit products are needed
                lines += [f"    shr.u64 wa, {x}, 32", "    cvt.u32.u64 k, wa", "    xor.u32 word, word, k"]
        elif rtype == "f32":
            lines += [f"    cvt.u32.f32 k, {x}", "    xor.u32 word, word, k"]
        elif rtype == "f64":
            lines += [f"    cvt.u32.f64 k, {x}", "    xor.u32 word, word, k"]
        else:
            lines += [f"    selp.u32 k, 1, 0, {x}", "    xor.u32 word, word, k"]
    lines += ["    mul.wide.u32 off, gid, 4", "    add.u64 p, sink, off", "    st.global.u32 [p], word", "    exit", "}"]
    return "\n".join(lines) + "\n"


here = pathlib.Path(__file__).parent
for cls in CLASSES:
    text = (f"// Generated by kernels/microbench/generate.py: the {cls} class's dependent chain (lat_{cls}, one\n"
            f"// chain of {OPS} instructions per round) and four interleaved chains (tput_{cls}) for issue throughput.\n")
    text += kernel(cls, 1) + "\n" + kernel(cls, 4)
    (here / f"mb_chain_{cls}.kir").write_text(text)
