#!/usr/bin/env python3
"""Functional check of the fifth held-out timing set (set25.txt) on the simulator.

    python3 docs/validation/h100/timing-set/check-set25.py WARPSIM [SUBSTRING...]

For every line of set25.txt (or those whose text holds one of the SUBSTRINGs) it runs
`WARPSIM run ARGS --mode functional --dump NAME=FILE` for every buffer of the line, from the
repository root, reads the buffers back from the dumps (raw little-endian elements, docs/inputs.md)
and compares the outputs with a host reference written here in Python for that kernel. The inputs
are read from the same dumps (no kernel of the set writes its inputs), so the reference needs no copy
of warpsim's random generator; the `--nvcc-opt -DNAME=V` defines of a line (R, STEPS, KEYS, ...)
are passed to its reference. Every output must match exactly: the integer ones (the u64 sum, min
and max, 64-bit hashes, the sorted segments) and the f32 ones too, whose arithmetic is emulated step
by step in the kernel's order (NVRTC runs with --fmad=false, so each a * b and a + b is rounded once;
each fmaf is rounded once, emulated exactly here with a double product, TwoSum and a tie fix-up;
sqrtf and the divisions are correctly rounded). Where a full reference would take minutes in Python,
a fixed pseudo-random sample of outputs (or of rows, tiles, threads) plus the first and last ones is
checked. Prints one PASS/FAIL line per run and exits 1 if any failed. Stdlib only.
"""

import math
import os
import random
import struct

import setcheck
from setcheck import Fail, expect, f32, main

HERE = os.path.dirname(os.path.abspath(__file__))
SET = os.path.join(HERE, "set25.txt")

M64 = (1 << 64) - 1
_F = struct.Struct("<f")
_I = struct.Struct("<I")


def sample(count, k=20000, seed=25):
    return setcheck.sample(count, k, seed)


def next_f32(r, up):
    """The f32 next to the f32 r, towards +inf when up, else towards -inf."""
    if r == 0.0:
        tiny = _F.unpack(_I.pack(1))[0]
        return tiny if up else -tiny
    bits = _I.unpack(_F.pack(r))[0]
    bits += 1 if (r > 0) == up else -1
    return _F.unpack(_I.pack(bits))[0]


def fmaf(a, b, c):
    """fmaf of f32 values, rounded once to f32: a * b is exact in a double (two 24-bit significands),
    s = a * b + c rounded to a double and e its exact error (TwoSum), so a * b + c = s + e exactly.
    Rounding s to f32 is right unless s falls exactly half-way between two f32 values (a double
    rounding); then the sign of e picks the side."""
    p = a * b
    s = p + c
    bb = s - p
    e = (p - (s - bb)) + (c - bb)
    r = f32(s)
    if e == 0.0 or r == s:
        return r
    o = next_f32(r, s > r)
    if o - s != s - r:
        return r
    return max(r, o) if e > 0 else min(r, o)


# ---- the references, one per kernel: (args, bufs, defines) -> a short summary; raise Fail on a difference ----

def check_conv5x5(a, b, d):
    w, h = a["width"], a["height"]
    src, filt, out = b["in"], b["filter"], b["out"]
    picked = set(sample(w * h, 8000))
    picked |= set(range(w)) | set(range((h - 1) * w, h * w))  # the first and last rows
    rng = random.Random(25)
    for y in rng.sample(range(h), 100):
        picked |= {y * w, y * w + 1, y * w + w - 2, y * w + w - 1}  # the first and last two columns
    ry = int(d.get("RY", 1))
    for y in range(8 * ry - 2, h, 8 * ry * 37):  # rows on either side of a tile edge
        picked |= {y * w + x for x in range(0, w, 7)} | {(y + 1) * w + x for x in range(3, w, 7)}
    for p in sorted(picked):
        y, x = divmod(p, w)
        acc = 0.0
        for dy in range(5):
            gy = y + dy - 2
            for dx in range(5):
                gx = x + dx - 2
                v = src[gy * w + gx] if 0 <= gx < w and 0 <= gy < h else 0.0
                acc = fmaf(filt[dy * 5 + dx], v, acc)
        expect(out[p] == acc, f"out[{y}][{x}] = {out[p]!r}, want {acc!r}")
    return f"{len(picked)} of {w * h} outputs exact (25 fmaf each, borders and tile edges included)"


def check_matmul(a, b, d):
    m, n, k = a["m"], a["n"], a["k"]
    A, B, C = b["A"], b["B"], b["C"]
    picked = sample(m * n, 600)
    for p in picked:
        r, c = divmod(p, n)
        acc = 0.0
        for j in range(k):
            acc = fmaf(A[r * k + j], B[j * n + c], acc)
        expect(C[p] == acc, f"C[{r}][{c}] = {C[p]!r}, want {acc!r}")
    return f"{len(picked)} of {m * n} entries exact ({k} fmaf in k order each)"


def check_dct(a, b, d):
    w = a["width"]
    src, cf, out = b["in"], b["coef"], b["out"]
    h = len(src) // w
    tiles = (w // 8) * (h // 8)
    picked = sample(tiles, 400)
    for t in picked:
        ty, tx = divmod(t, w // 8)
        x0, y0 = 8 * tx, 8 * ty
        X = [[src[(y0 + i) * w + x0 + j] for j in range(8)] for i in range(8)]
        T = [[0.0] * 8 for _ in range(8)]
        for i in range(8):  # the row pass: T[i][u] = sum_k C[u][k] X[i][k]
            for u in range(8):
                s = 0.0
                for kk in range(8):
                    s = fmaf(cf[u * 8 + kk], X[i][kk], s)
                T[i][u] = s
        for v in range(8):  # the column pass: Y[v][j] = sum_k C[v][k] T[k][j]
            for j in range(8):
                s = 0.0
                for kk in range(8):
                    s = fmaf(cf[v * 8 + kk], T[kk][j], s)
                got = out[(y0 + v) * w + x0 + j]
                expect(got == s, f"out[{y0 + v}][{x0 + j}] = {got!r}, want {s!r}")
    return f"{len(picked)} of {tiles} 8x8 tiles exact (16 fmaf a pixel)"


def check_ilp(a, b, d):
    n, iters, fa, fb = a["n"], a["iters"], f32(a["a"]), f32(a["b"])
    ilp = int(d.get("ILP", 1))
    x, out = b["x"], b["out"]
    picked = sample(n, 24)
    for i in picked:
        accs = []
        for j in range(ilp):
            v = f32(x[i] + 0.25 * j)
            for _ in range(iters // ilp):
                nv = fmaf(v, fa, fb)
                if nv == v:  # a fixed point: every later step gives v again
                    break
                v = nv
            accs.append(v)
        s = accs[0]
        for v in accs[1:]:
            s = f32(s + v)
        expect(out[i] == s, f"out[{i}] = {out[i]!r}, want {s!r}")
    return f"{len(picked)} of {n} threads exact ({iters} fmaf over {ilp} chains each)"


def check_triad(a, b, d):
    n, s = a["n"], f32(a["s"])
    A, B, C = b["a"], b["b"], b["c"]
    picked = sample(n, 200000)
    for i in picked:
        want = f32(B[i] + f32(s * C[i]))
        expect(A[i] == want, f"a[{i}] = {A[i]!r}, want {want!r}")
    return f"{len(picked)} of {n} elements exact"


def check_reduce_u64(a, b, d):
    n = a["n"]
    src = b["in"][:n]
    want_sum, want_lo, want_hi = sum(src), min(src), max(src)
    got_sum, got_lo, got_hi = b["sum"][0], b["lo"][0], b["hi"][0]
    expect(got_sum == want_sum, f"sum = {got_sum}, want {want_sum}")
    expect(got_lo == want_lo, f"lo = {got_lo}, want {want_lo}")
    expect(got_hi == want_hi, f"hi = {got_hi}, want {want_hi}")
    return f"sum {want_sum}, min {want_lo} and max {want_hi} of {n} words exact"


def check_segsum_warp(a, b, d):
    rows, stride = a["rows"], a["stride"]
    vals, lens, out = b["vals"], b["lens"], b["out"]
    picked = sample(rows, 4000)
    for r in picked:
        ln = lens[r]
        expect(ln <= stride, f"lens[{r}] = {ln} is over the stride")
        base = r * stride
        part = []
        for lane in range(32):
            s = 0.0
            for c in range(lane, ln, 32):
                s = f32(s + vals[base + c])
            part.append(s)
        m = 16
        while m:
            part = [f32(part[l] + part[l ^ m]) for l in range(32)]
            m //= 2
        expect(out[r] == part[0], f"out[{r}] = {out[r]!r}, want {part[0]!r} (len {ln})")
    used = sum(lens[:rows])
    return f"{len(picked)} of {rows} row sums exact (mean row {used / rows:.1f} of {stride})"


def check_segsum_thread(a, b, d):
    rows, stride = a["rows"], a["stride"]
    vals, lens, out = b["vals"], b["lens"], b["out"]
    picked = sample(rows, 4000)
    for r in picked:
        ln = lens[r]
        expect(ln <= stride, f"lens[{r}] = {ln} is over the stride")
        s = 0.0
        for c in range(ln):
            s = f32(s + vals[r * stride + c])
        expect(out[r] == s, f"out[{r}] = {out[r]!r}, want {s!r} (len {ln})")
    return f"{len(picked)} of {rows} row sums exact"


def check_hash64(a, b, d):
    n, rounds = a["n"], a["rounds"]
    keys, out = b["keys"], b["out"]
    picked = sample(n, max(2000, 160000 // max(rounds, 1)))
    for i in picked:
        x = keys[i]
        for _ in range(rounds):
            x = (x + 0x9E3779B97F4A7C15) & M64
            z = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
            z ^= z >> 31
            x = (((z << 13) & M64) | (z >> 51)) ^ (bin(z).count("1") + 64 - (x | 1).bit_length())
        expect(out[i] == x, f"out[{i}] = {out[i]:#x}, want {x:#x}")
    return f"{len(picked)} of {n} keys exact after {rounds} rounds"


def check_gather(a, b, d):
    n = a["n"]
    wx, wy, wz, ww = (f32(a[k]) for k in ("wx", "wy", "wz", "ww"))
    table, idx, out = b["table"], b["idx"], b["out"]
    records = len(table) // 4
    picked = sample(n, 200000)
    for i in picked:
        j = idx[i]
        expect(j < records, f"idx[{i}] = {j} is past the table")
        x, y, z, v = table[4 * j:4 * j + 4]
        want = f32(f32(f32(f32(x * wx) + f32(y * wy)) + f32(z * wz)) + f32(v * ww))
        expect(out[i] == want, f"out[{i}] = {out[i]!r}, want {want!r} (record {j})")
    distinct = len(set(idx[:n]))
    return f"{len(picked)} of {n} outputs exact ({distinct} distinct records)"


def check_reg_window(a, b, d):
    n, r = a["n"], int(d.get("R", 8))
    src, out = b["in"], b["out"]
    nt = n // r
    expect(nt * r == n, "the check needs n = R * threads")
    inv, eps = f32(1.0 / r), f32(1e-6)
    picked = sample(nt, 5000)
    for t in picked:
        v = [src[t + j * nt] for j in range(r)]
        s = 0.0
        for x in v:
            s = f32(s + x)
        mean = f32(s * inv)
        q = 0.0
        for x in v:
            dv = f32(x - mean)
            q = f32(q + f32(dv * dv))
        k = f32(1.0 / f32(math.sqrt(f32(f32(q * inv) + eps))))
        for j in range(r):
            want = f32(f32(v[j] - mean) * k)
            got = out[t + j * nt]
            expect(got == want, f"out[{t + j * nt}] (thread {t}, value {j}) = {got!r}, want {want!r}")
    return f"{len(picked)} of {nt} threads' {r} outputs exact"


C04, C02, C008, C002 = f32(0.4), f32(0.2), f32(0.08), f32(0.02)


def check_stencil7(a, b, d):
    n = a["n"]
    src, out = b["in"], b["out"]
    edges = set(range(8)) | set(range(n - 8, n))
    for e in range(1024, n, 1024 * 97):  # either side of block edges (every block size divides 1,024)
        edges |= set(range(e - 4, e + 4))
    picked = sorted(set(sample(n, 200000)) | edges)

    def at(j):
        return src[j] if 0 <= j < n else 0.0

    for i in picked:
        s = f32(C04 * src[i])
        s = f32(s + f32(C02 * f32(at(i - 1) + at(i + 1))))
        s = f32(s + f32(C008 * f32(at(i - 2) + at(i + 2))))
        s = f32(s + f32(C002 * f32(at(i - 3) + at(i + 3))))
        expect(out[i] == s, f"out[{i}] = {out[i]!r}, want {s!r}")
    return f"{len(picked)} of {n} outputs exact, ends and block edges included"


def check_heat(a, b, d):
    n, alpha = a["n"], f32(a["alpha"])
    steps = int(d.get("STEPS", 4))
    src, out = b["in"], b["out"]
    edges = set(range(4)) | set(range(n - 4, n))
    for e in range(256, n, 256 * 89):
        edges |= set(range(e - 3, e + 3))
    picked = sorted(set(sample(n, max(2000, 60000 // steps))) | edges)
    for g in picked:
        lo = g - steps
        u = [src[j] if 0 <= j < n else 0.0 for j in range(lo, g + steps + 1)]
        for _ in range(steps):  # each step drops the window's two ends
            nu = []
            for j in range(1, len(u) - 1):
                c = u[j]
                if 0 <= lo + j < n:
                    c = f32(c + f32(alpha * f32(f32(u[j - 1] + u[j + 1]) - f32(2.0 * c))))
                nu.append(c)
            u, lo = nu, lo + 1
        expect(out[g] == u[0], f"out[{g}] = {out[g]!r}, want {u[0]!r}")
    return f"{len(picked)} of {n} outputs exact after {steps} steps, ends and block edges included"


def check_oddeven(a, b, d):
    keys = int(d.get("KEYS", 256))
    src, out = b["in"], b["out"]
    segs = len(src) // keys
    for s in range(segs):
        want = sorted(src[s * keys:(s + 1) * keys])
        if out[s * keys:(s + 1) * keys].tolist() != want:
            raise Fail(f"segment {s} (keys {s * keys}..{(s + 1) * keys - 1}) is not its input sorted")
    return f"{segs} segments of {keys} keys sorted exactly"


CHECKS = {
    "conv5x5_reg.cu": check_conv5x5,
    "matmul_rect.cu": check_matmul,
    "dct8x8.cu": check_dct,
    "ilp_fma.cu": check_ilp,
    "triad_vec.cu": check_triad,
    "reduce_u64.cu": check_reduce_u64,
    "segsum_warp.cu": check_segsum_warp,
    "segsum_thread.cu": check_segsum_thread,
    "hash64.cu": check_hash64,
    "gather_rec.cu": check_gather,
    "reg_window.cu": check_reg_window,
    "stencil7_smem.cu": check_stencil7,
    "heat_steps.cu": check_heat,
    "oddeven_sort.cu": check_oddeven,
}


if __name__ == "__main__":
    main(__doc__, SET, CHECKS)
