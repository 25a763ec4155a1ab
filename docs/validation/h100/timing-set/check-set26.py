#!/usr/bin/env python3
"""Functional check of the sixth held-out timing set (set26.txt) on the simulator.

    python3 docs/validation/h100/timing-set/check-set26.py WARPSIM [SUBSTRING...]

For every line of set26.txt (or those whose text holds one of the SUBSTRINGs) it runs
`WARPSIM run ARGS --mode functional --dump NAME=FILE` for every buffer of the line, from the
repository root, reads the buffers back from the dumps (raw little-endian elements, docs/inputs.md)
and compares the outputs with a host reference written here in Python for that kernel. The inputs
are read from the same dumps (no kernel of the set writes its inputs), so the reference needs no copy
of warpsim's random generator; the `--nvcc-opt -DNAME=V` defines of a line (ALGO, COARSE, S, MODE,
...) are passed to its reference. Every output must match exactly: the integer ones (block sums,
keyed totals, search positions, step counts, chase sums, a permuted copy) and the f32 ones too, whose
arithmetic is emulated step by step in the kernel's order (NVRTC runs with --fmad=false, so each
a * b and a + b is rounded once; divisions and sqrtf are correctly rounded; no kernel here has an
fmaf). The special functions are the simulator's (sim/lanes_float.cpp: the host libm's f32 log2 and
exp2 for lg2.approx and ex2.approx, 1 / sqrt for rsqrt.approx), called here through ctypes from the
same libm; where that library cannot be loaded, the double results rounded to f32 stand in (they
agree but for rare half-way cases). Where a full reference would take minutes in Python, a fixed
pseudo-random sample of outputs (or rows, threads) plus the first and last ones is checked. Prints
one PASS/FAIL line per run and exits 1 if any failed. Stdlib only.
"""

import bisect
import ctypes
import ctypes.util
import math
import os

import setcheck
from setcheck import Fail, expect, f32, main

HERE = os.path.dirname(os.path.abspath(__file__))
SET = os.path.join(HERE, "set26.txt")

M32 = (1 << 32) - 1


def sample(count, k=20000, seed=26):
    return setcheck.sample(count, k, seed)


def _libm_f32(name, fallback):
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        fn = getattr(lib, name)
    except (OSError, AttributeError):
        return lambda x: f32(fallback(x)), False
    fn.restype = ctypes.c_float
    fn.argtypes = [ctypes.c_float]
    return (lambda x: fn(x)), True


# lg2.approx.f32 and ex2.approx.f32 as the simulator computes them: std::log2 / std::exp2 of a float.
log2f, HAVE_LIBM = _libm_f32("log2f", math.log2)
exp2f, _ = _libm_f32("exp2f", math.exp2)


def rsqrt(x):
    """rsqrt.approx.f32 as the simulator computes it: 1 / sqrt(x), each rounded to f32."""
    return f32(1.0 / f32(math.sqrt(x)))


def d(defines, name, default):
    return int(defines.get(name, default))


# ---- the references, one per kernel: (args, bufs, defines) -> a short summary; raise Fail on a difference ----

def check_reduce_algo(a, b, dfs):
    n = a["n"]
    src, part = b["in"], b["partial"]
    per = 4 * 256  # 4 words a thread, blocks of 256 (the set's lines)
    blocks = (n + per - 1) // per
    expect(len(part) >= blocks, f"partial has {len(part)} words, the grid needs {blocks}")
    for blk in range(blocks):
        want = sum(src[blk * per:min(n, (blk + 1) * per)]) & M32
        expect(part[blk] == want, f"partial[{blk}] = {part[blk]}, want {want}")
    return f"all {blocks} block sums exact (ALGO {d(dfs, 'ALGO', 2)})"


W_R, W_G, W_B = f32(0.2126), f32(0.7152), f32(0.0722)


def check_luma(a, b, dfs):
    n = a["n"]
    src, lut, out = b["in"], b["lut"], b["out"]
    picked = sample(n, 200000)
    for i in picked:
        p = src[i]
        r, g, bl = lut[p & 255], lut[(p >> 8) & 255], lut[(p >> 16) & 255]
        want = f32(f32(f32(W_R * r) + f32(W_G * g)) + f32(W_B * bl))
        expect(out[i] == want, f"out[{i}] = {out[i]!r}, want {want!r} (pixel {p:#010x})")
    return f"{len(picked)} of {n} pixels exact (COARSE {d(dfs, 'COARSE', 1)})"


def check_kmeans(a, b, dfs):
    n, k = a["n"], a["k"]
    px, py, pz, cent, label = b["px"], b["py"], b["pz"], b["cent"], b["label"]
    expect(k <= 64, "the kernel stages at most 64 centroids")
    cs = [(cent[3 * j], cent[3 * j + 1], cent[3 * j + 2]) for j in range(k)]
    big = f32(3.4e38)
    picked = sample(n, 20000)
    for i in picked:
        x, y, z = px[i], py[i], pz[i]
        best, arg = big, 0
        for j, (cx, cy, cz) in enumerate(cs):
            dx, dy, dz = f32(x - cx), f32(y - cy), f32(z - cz)
            dd = f32(f32(f32(dx * dx) + f32(dy * dy)) + f32(dz * dz))
            if dd < best:
                best, arg = dd, j
        expect(label[i] == arg, f"label[{i}] = {label[i]}, want {arg}")
    return f"{len(picked)} of {n} labels exact ({k} centroids)"


def check_gemv32(a, b, dfs):
    batch = a["batch"]
    A, x, y = b["A"], b["x"], b["y"]
    picked = sample(batch * 32, 30000)
    for o in picked:
        m, r = divmod(o, 32)
        row = A[m * 1024 + r * 32:m * 1024 + r * 32 + 32]
        xv = x[m * 32:m * 32 + 32]
        acc = 0.0
        for kk in range(32):
            acc = f32(acc + f32(row[kk] * xv[kk]))
        expect(y[o] == acc, f"y[{m}][{r}] = {y[o]!r}, want {acc!r}")
    return f"{len(picked)} of {batch * 32} outputs exact (LAYOUT {d(dfs, 'LAYOUT', 0)})"


def check_aos(a, b, dfs):
    n, s = a["n"], d(dfs, "S", 1)
    p, out = b["p"], b["out"]
    expect(len(p) >= n * s, f"p holds {len(p)} floats, {n} structs of {s} need {n * s}")
    picked = sample(n, 200000)
    for i in picked:
        want = f32(p[i * s] * p[i * s + s // 2])
        expect(out[i] == want, f"out[{i}] = {out[i]!r}, want {want!r}")
    return f"{len(picked)} of {n} outputs exact ({4 * s}-byte structs)"


def check_atomic_agg(a, b, dfs):
    n = a["n"]
    keys, vals, sums = b["keys"], b["vals"], b["sums"]
    want = [0] * 8
    for kk, v in zip(keys[:n], vals[:n]):
        want[kk & 7] += v
    want = [w & M32 for w in want]
    for j in range(8):
        expect(sums[j] == want[j], f"sums[{j}] = {sums[j]}, want {want[j]}")
    return f"8 totals of {n} values exact (LEVEL {d(dfs, 'LEVEL', 0)})"


def check_bsearch(a, b, dfs):
    n, nq = a["n"], a["nq"]
    keys, queries, out = b["keys"], b["queries"], b["out"]
    expect(n & (n - 1) == 0, "the kernel needs n a power of two")
    expect(all(keys[j] <= keys[j + 1] for j in range(0, n - 1, 4099)), "keys are not sorted")
    for i in range(nq):
        want = bisect.bisect_left(keys, queries[i])
        if out[i] != want:
            raise Fail(f"out[{i}] = {out[i]}, want {want} (query {queries[i]})")
    return f"all {nq} lower bounds exact (STAGE {d(dfs, 'STAGE', 512)})"


C255 = f32(1.0 / 255.0)
T_LIN, C055, C1055, G24, C1292 = f32(0.04045), f32(0.055), f32(1.055), f32(2.4), f32(12.92)
MX = [[f32(v) for v in row] for row in ((0.4124, 0.3576, 0.1805), (0.2126, 0.7152, 0.0722), (0.0193, 0.1192, 0.9505))]
XN, ZN = f32(0.95047), f32(1.08883)
T_LAB, THIRD, C7787, C16_116 = f32(0.008856), f32(0.33333334), f32(7.787), f32(0.13793103)


def srgb_to_linear(byte):
    c = f32(byte * C255)
    if c > T_LIN:
        return exp2f(f32(log2f(f32(f32(c + C055) / C1055)) * G24))
    return f32(c / C1292)


def lab_f(t):
    if t > T_LAB:
        return exp2f(f32(log2f(t) * THIRD))
    return f32(f32(C7787 * t) + C16_116)


def mix(row, r, g, bl):
    return f32(f32(f32(row[0] * r) + f32(row[1] * g)) + f32(row[2] * bl))


def check_rgb2lab(a, b, dfs):
    n = a["n"]
    src, L, A, B = b["rgba"], b["L"], b["A"], b["B"]
    lin = [srgb_to_linear(v) for v in range(256)]
    picked = sample(n, 40000)
    for i in picked:
        p = src[i]
        r, g, bl = lin[p & 255], lin[(p >> 8) & 255], lin[(p >> 16) & 255]
        x = f32(mix(MX[0], r, g, bl) / XN)
        y = mix(MX[1], r, g, bl)
        z = f32(mix(MX[2], r, g, bl) / ZN)
        fx, fy, fz = lab_f(x), lab_f(y), lab_f(z)
        want = (f32(f32(116.0 * fy) - 16.0), f32(500.0 * f32(fx - fy)), f32(200.0 * f32(fy - fz)))
        got = (L[i], A[i], B[i])
        expect(got == want, f"pixel {i} ({p:#010x}): L, a, b = {got!r}, want {want!r}")
    how = "host libm log2f/exp2f" if HAVE_LIBM else "double log2/exp2 rounded (no libm found)"
    return f"{len(picked)} of {n} pixels' L, a, b exact ({how})"


def check_nchw(a, b, dfs):
    N, C, H, W = a["N"], a["C"], a["H"], a["W"]
    if d(dfs, "MODE", 0) == 2:
        expect((C, H, W) == (d(dfs, "CC", 24), d(dfs, "HH", 240), d(dfs, "WW", 360)),
               "MODE 2 needs the arguments to match the compile-time sizes")
    src, out = b["in"], b["out"]
    total = N * C * H * W
    picked = sample(total, 300000)
    for i in picked:
        t, c = divmod(i, C)
        t, w = divmod(t, W)
        nn, h = divmod(t, H)
        j = ((nn * C + c) * H + h) * W + w
        expect(out[i] == src[j], f"out[{i}] (n {nn}, h {h}, w {w}, c {c}) = {out[i]!r}, want in[{j}] = {src[j]!r}")
    return f"{len(picked)} of {total} elements exact (MODE {d(dfs, 'MODE', 0)})"


def collatz_steps(x):
    count = 0
    while x != 1 and count < 1000:
        x = 3 * x + 1 if x & 1 else x >> 1
        count += 1
    return count


def check_collatz(a, b, dfs):
    n, group = a["n"], a["group"]
    start, steps = b["start"], b["steps"]
    memo = {}

    def want_at(i):
        s = start[i - i % group] + 1
        if s not in memo:
            memo[s] = collatz_steps(s)
        return memo[s]

    picked = sample(n, 20000)
    for i in picked:
        want = want_at(i)
        expect(steps[i] == want, f"steps[{i}] = {steps[i]}, want {want} (start {start[i - i % group] + 1})")
    warps = range(0, n // 32, max(1, n // 32 // 200))
    longest = sum(max(want_at(j) for j in range(32 * w, 32 * w + 32)) for w in warps) / len(warps)
    mean = sum(memo.values()) / len(memo)
    return (f"{len(picked)} of {n} step counts exact (group {group}; mean trip {mean:.0f}, "
            f"a warp's longest {longest:.0f} on average)")


def check_resize(a, b, dfs):
    iw, ih, ow, oh = a["in_w"], a["in_h"], a["out_w"], a["out_h"]
    sx, sy = f32(a["sx"]), f32(a["sy"])
    src, out = b["in"], b["out"]
    picked = set(sample(ow * oh, 100000))
    picked |= set(range(ow)) | set(range((oh - 1) * ow, oh * ow))  # the first and last rows
    picked |= {y * ow + x for y in range(0, oh, 37) for x in (0, 1, ow - 2, ow - 1)}  # edge columns

    def coord(v, s, size):
        f = max(f32(f32(f32(float(v) + 0.5) * s) - 0.5), 0.0)
        i0 = min(int(f), size - 1)
        return f, i0, min(i0 + 1, size - 1), f32(f - float(i0))

    for o in sorted(picked):
        y, x = divmod(o, ow)
        _, x0, x1, ax = coord(x, sx, iw)
        _, y0, y1, ay = coord(y, sy, ih)
        p00, p01, p10, p11 = src[y0 * iw + x0], src[y0 * iw + x1], src[y1 * iw + x0], src[y1 * iw + x1]
        top = f32(p00 + f32(ax * f32(p01 - p00)))
        bot = f32(p10 + f32(ax * f32(p11 - p10)))
        want = f32(top + f32(ay * f32(bot - top)))
        expect(out[o] == want, f"out[{y}][{x}] = {out[o]!r}, want {want!r}")
    return f"{len(picked)} of {ow * oh} outputs exact, edges included ({iw}x{ih} -> {ow}x{oh})"


EPS = f32(1e-5)


def butterfly(part):
    m = 16
    while m:
        part = [f32(part[l] + part[l ^ m]) for l in range(32)]
        m //= 2
    expect(len(set(part)) == 1, "the butterfly left the lanes different")
    return part[0]


def layernorm_row(x, cols, threads, gamma, beta):
    """The kernels' order: thread t sums x[t], x[t + threads], ...; each warp's 32 sums by a xor
    butterfly; the warps' sums added in warp order from 0 (threads = 32: one warp, no shared step)."""
    fc = float(cols)

    def reduce(vals):
        per = []
        for t in range(threads):
            s = 0.0
            for c in range(t, cols, threads):
                s = f32(s + vals[c])
            per.append(s)
        warps = [butterfly(per[w * 32:w * 32 + 32]) for w in range(threads // 32)]
        if threads == 32:
            return warps[0]
        s = 0.0
        for v in warps:
            s = f32(s + v)
        return s

    mean = f32(reduce(x) / fc)
    dev = [f32(v - mean) for v in x]
    q = reduce([f32(v * v) for v in dev])
    rstd = rsqrt(f32(f32(q / fc) + EPS))
    return [f32(f32(f32(dev[c] * rstd) * gamma[c]) + beta[c]) for c in range(cols)]


def _check_layernorm(rows, cols, threads, b):
    src, gamma, beta, out = b["in"], b["gamma"], b["beta"], b["out"]
    picked = sample(rows, 160)
    for r in picked:
        want = layernorm_row(src[r * cols:(r + 1) * cols], cols, threads, gamma, beta)
        got = out[r * cols:(r + 1) * cols]
        if got.tolist() != want:
            c = next(c for c in range(cols) if got[c] != want[c])
            raise Fail(f"out[{r}][{c}] = {got[c]!r}, want {want[c]!r}")
    return picked


def check_layernorm_warp(a, b, dfs):
    rows, cols = a["rows"], a["cols"]
    picked = _check_layernorm(rows, cols, 32, b)
    return f"{len(picked)} of {rows} rows of {cols} exact (a warp per row)"


def check_layernorm_block(a, b, dfs):
    cols, threads = a["cols"], int(dfs["--block"].split(",")[0])
    expect(threads % 32 == 0 and threads <= 1024, f"block of {threads}: the kernel needs whole warps")
    rows = len(b["in"]) // cols
    picked = _check_layernorm(rows, cols, threads, b)
    return f"{len(picked)} of {rows} rows of {cols} exact (a block of {threads} per row)"


def check_chase(a, b, dfs):
    n, hops = a["n"], a["hops"]
    nxt, out = b["next"], b["out"]
    threads = len(out)
    picked = sample(threads, 1500)
    for t in picked:
        cur = (t * 2654435761) & M32 & (n - 1)
        acc = 0
        for _ in range(hops):
            cur = nxt[cur]
            acc += cur
        expect(out[t] == acc & M32, f"out[{t}] = {out[t]}, want {acc & M32}")
    return f"{len(picked)} of {threads} chains of {hops} hops exact"


CHECKS = {
    "reduce_algo.cu": check_reduce_algo,
    "luma_lut.cu": check_luma,
    "kmeans_assign.cu": check_kmeans,
    "batched_gemv32.cu": check_gemv32,
    "aos_fields.cu": check_aos,
    "atomic_agg.cu": check_atomic_agg,
    "bsearch_stage.cu": check_bsearch,
    "rgb2lab.cu": check_rgb2lab,
    "nchw_nhwc.cu": check_nchw,
    "collatz.cu": check_collatz,
    "resize_bilinear.cu": check_resize,
    "layernorm_warp.cu": check_layernorm_warp,
    "layernorm_block.cu": check_layernorm_block,
    "chase_chain.cu": check_chase,
}


def parse_with_block(argv, _parse=setcheck.parse):
    """setcheck.parse, plus the line's --block under the key "--block" of the defines (no -D name can
    be spelled so): layernorm_block's order of additions depends on its block size."""
    args, buffers, defines = _parse(argv)
    if "--block" in argv:
        defines["--block"] = argv[argv.index("--block") + 1]
    return args, buffers, defines


setcheck.parse = parse_with_block

if __name__ == "__main__":
    main(__doc__, SET, CHECKS)
