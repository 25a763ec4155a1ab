#!/usr/bin/env python3
"""Functional check of the eighth held-out timing set (set28.txt) on the simulator.

    python3 docs/validation/h100/timing-set/check-set28.py WARPSIM [SUBSTRING...]

For every line of set28.txt (or those whose text holds one of the SUBSTRINGs) it runs
`WARPSIM run ARGS --mode functional --dump NAME=FILE` for every buffer of the line, from the
repository root, reads the buffers back from the dumps (raw little-endian elements, docs/inputs.md)
and compares the outputs with a host reference written here in Python for that kernel. The inputs
are read from the same dumps, so the reference needs no copy of warpsim's random generator; the one
kernel that writes its input (redblack, in place) is checked from the points it does not write: a
red point's new value depends only on its black neighbours, which the sweep leaves as they were. The
`--nvcc-opt -DNAME=V` defines of a line (ACT, IMPL, COMPACT, VERT, R, PUSH, SMEM, ROUNDS, VAR, MARCH,
PERPIX) are passed to its reference. The integer outputs (hash table, SADs, mixed words, relaxed
distances) and the copies (im2col) must match exactly, and so must the f32 ones of the kernels
without special functions (fft_stage, redblack, sep_filter, lbm_d2q9 with its IEEE divisions,
batch_mm4, stencil3d, and sine_loop's fmaf polynomial), whose arithmetic is emulated step by step in
the kernel's order (NVRTC runs with --fmad=false, so each a * b, a + b and a / b is rounded once;
fmaf is emulated exactly, rounded once from the exact rational a b + c). Two families use special
functions and are compared within a stated tolerance against double-precision math: activation's
SiLU, GELU (tanh through expf) and softplus within 2e-6 + 1e-5 |want| (ReLU exactly), and
sine_loop's sinpif and __sinf sums (the reference adds f32-rounded double sines in f32 in the same
order) within 1e-5 a term, iters * 1e-5 absolute. Where a full reference would take minutes in
Python, a fixed pseudo-random sample of outputs (or pairs, points, macroblocks, slots) plus the
first and last ones is checked. Prints one PASS/FAIL line per run and exits 1 if any failed.
Stdlib only.
"""

import math
import os
import struct
from fractions import Fraction

import setcheck
from setcheck import Fail, close, expect, f32, main

HERE = os.path.dirname(os.path.abspath(__file__))
SET = os.path.join(HERE, "set28.txt")

M32 = (1 << 32) - 1


def sample(count, k=20000, seed=28):
    return setcheck.sample(count, k, seed)


def d(defines, name, default):
    return int(defines.get(name, default))


def fma32(a, b, c):
    """fmaf(a, b, c): the exact a b + c rounded once to the nearest f32 (ties to even; normal range)."""
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        return 0.0
    sign = -1 if exact < 0 else 1
    mag = abs(exact)
    e = mag.numerator.bit_length() - mag.denominator.bit_length()
    while Fraction(2) ** e > mag:
        e -= 1
    while Fraction(2) ** (e + 1) <= mag:
        e += 1
    scale = Fraction(2) ** (e - 23)  # mag / scale in [2^23, 2^24)
    q = mag / scale
    n = q.numerator // q.denominator
    rem = q - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2 == 1):
        n += 1
    return sign * float(n * scale)


# ---- the references, one per kernel: (args, bufs, defines) -> a short summary; raise Fail on a difference ----

def check_activation(a, b, dfs):
    n, act = a["n"], d(dfs, "ACT", 0)
    u, y = b["u"], b["y"]
    picked = sample(n, 200000)
    for i in picked:
        x = f32(f32(u[i] * 8.0) - 4.0)
        if act == 0:
            want = max(x, 0.0)
            expect(y[i] == want, f"y[{i}] = {y[i]!r}, want {want!r} (x {x!r})")
            continue
        if act == 1:
            want = x / (1.0 + math.exp(-x))
        elif act == 2:
            z = f32(f32(0.7978845608) * f32(x + f32(f32(f32(f32(0.044715) * x) * x) * x)))
            want = 0.5 * x * (1.0 + math.tanh(z))
        else:
            want = math.log(1.0 + math.exp(x))
        close(y[i], want, 1e-5, 2e-6, f"y[{i}] (x {x!r})")
    what = ("ReLU, exact", "SiLU", "GELU (tanh)", "softplus")[act]
    return f"{len(picked)} of {n} outputs ({what})"


PI32, HALFPI32 = f32(math.pi), f32(math.pi / 2)
TAYLOR = [f32(v) for v in (-7.6471637e-13, 1.6059044e-10, -2.5052108e-8, 2.7557319e-6, -1.9841270e-4,
                           8.3333333e-3, -1.6666667e-1, 1.0)]
STEP = f32(0.003)


def check_sine(a, b, dfs):
    iters, impl = a["iters"], d(dfs, "IMPL", 0)
    x, out = b["x"], b["out"]
    picked = sample(len(out), 1500 if impl == 2 else 4000)
    for i in picked:
        x0 = f32(x[i] - 0.5)
        acc = 0.0
        for k in range(iters):
            t = f32(x0 + f32(k * STEP))
            if impl == 0:
                s = f32(math.sin(math.pi * t))
            elif impl == 1:
                s = f32(math.sin(f32(PI32 * t)))
            else:
                aa = f32(PI32 * t)
                uu = f32(PI32 - aa) if aa > HALFPI32 else aa
                u2 = f32(uu * uu)
                p = TAYLOR[0]
                for c in TAYLOR[1:]:
                    p = fma32(p, u2, c)
                s = f32(p * uu)
            acc = f32(acc + s)
        if impl == 2:
            expect(out[i] == acc, f"out[{i}] = {out[i]!r}, want {acc!r}")
        else:
            close(out[i], acc, 0.0, iters * 1e-5, f"out[{i}]")
    what = ("sinpif, within tolerance", "__sinf, within tolerance", "fmaf polynomial, exact")[impl]
    return f"{len(picked)} of {len(out)} sums of {iters} sines ({what})"


def check_fft(a, b, dfs):
    logn, logs = a["logn"], a["logs"]
    src, tw, out = b["in"], b["tw"], b["out"]
    half = 1 << (logn - 1)
    s = 1 << logs
    picked = sample(half, 100000)
    for t in picked:
        j = t & (s - 1)
        i0 = ((t >> logs) << (logs + 1)) + j
        i1 = i0 + s
        wi = j << (logn - 1 - logs)
        wx, wy = tw[2 * wi], tw[2 * wi + 1]
        ax, ay, bx, by = src[2 * i0], src[2 * i0 + 1], src[2 * i1], src[2 * i1 + 1]
        wbx = f32(f32(wx * bx) - f32(wy * by))
        wby = f32(f32(wx * by) + f32(wy * bx))
        want = (f32(ax + wbx), f32(ay + wby), f32(ax - wbx), f32(ay - wby))
        got = (out[2 * i0], out[2 * i0 + 1], out[2 * i1], out[2 * i1 + 1])
        expect(got == want, f"butterfly {t} (elements {i0}, {i1}) = {got!r}, want {want!r}")
    return f"{len(picked)} of {half} butterflies exact (span 2^{logs})"


def check_redblack(a, b, dfs):
    n, h2 = a["n"], f32(a["h2"])
    u, f = b["u"], b["f"]
    picked = [o for o in sample(n * n, 300000) if (o % n + o // n) % 2 == 0]
    checked = 0
    for o in picked:
        y, x = divmod(o, n)
        if x == 0 or y == 0 or x == n - 1 or y == n - 1:
            continue
        s = f32(u[o - n] + u[o + n])
        s = f32(s + u[o - 1])
        s = f32(s + u[o + 1])
        want = f32(0.25 * f32(s - f32(h2 * f[o])))
        expect(u[o] == want, f"u[{y}][{x}] = {u[o]!r}, want {want!r}")
        checked += 1
    return f"{checked} of {(n - 2) * (n - 2) // 2} red points exact (COMPACT {d(dfs, 'COMPACT', 0)})"


def fmix32(h):
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & M32
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & M32
    h ^= h >> 16
    return h


def check_hash(a, b, dfs):
    n, cap = a["n"], a["cap"]
    keys, table = b["keys"], b["table"]
    expect(len(table) == cap, f"the table holds {len(table)} slots, cap is {cap}")
    want = {(k + 1) & M32 for k in keys[:n]}
    expect(0 not in want, "a key of 2^32 - 1 would insert 0")
    slots = [i for i, v in enumerate(table) if v]
    expect(len(slots) == len(want), f"{len(slots)} slots filled, want {len(want)} distinct keys")
    got = {table[i] for i in slots}
    expect(got == want, f"the table holds {len(got - want)} values that are no key + 1")
    picked = [slots[i] for i in sample(len(slots), 100000)]
    longest = 0
    for slot in picked:
        v = table[slot]
        home = fmix32(v - 1) % cap
        dist = (slot - home) % cap
        longest = max(longest, dist)
        for step in range(dist):
            expect(table[(home + step) % cap], f"slot {slot} (home {home}) is past an empty slot")
    return (f"all {len(want)} distinct keys stored once, {len(picked)} probe runs unbroken "
            f"(load {len(want) / cap:.2f}, longest {longest})")


def check_sep(a, b, dfs):
    w, h = a["width"], a["height"]
    vert, r = d(dfs, "VERT", 0), d(dfs, "R", 2)
    src, wt, out = b["in"], b["w"], b["out"]
    picked = set(sample(w * h, 100000)) | set(range(w)) | set(range((h - 1) * w, h * w))
    picked |= {y * w + x for y in range(0, h, 5) for x in (0, 1, w - 2, w - 1)}
    for o in sorted(picked):
        y, x = divmod(o, w)
        acc = 0.0
        for k in range(-r, r + 1):
            if vert:
                v = src[min(max(y + k, 0), h - 1) * w + x]
            else:
                v = src[y * w + min(max(x + k, 0), w - 1)]
            acc = f32(acc + f32(wt[k + r] * v))
        expect(out[o] == acc, f"out[{y}][{x}] = {out[o]!r}, want {acc!r}")
    return f"{len(picked)} of {w * h} outputs exact, edges included ({'columns' if vert else 'rows'}, R {r})"


LBM_C = ((0, 0), (1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, 1), (-1, -1), (1, -1))
LBM_W = [f32(v) for v in (0.44444445,) + (0.11111111,) * 4 + (0.027777778,) * 4]


def lbm_collide(f):
    rho = f[0]
    for v in f[1:]:
        rho = f32(rho + v)
    ux = f32(f32(f32(f32(f[1] - f[3]) + f32(f[5] - f[6])) + f32(f[8] - f[7])) / rho)
    uy = f32(f32(f32(f32(f[2] - f[4]) + f32(f[5] - f[8])) + f32(f[6] - f[7])) / rho)
    usq = f32(1.5 * f32(f32(ux * ux) + f32(uy * uy)))
    cus = (0.0, ux, uy, -ux, -uy, f32(ux + uy), f32(uy - ux), -f32(ux + uy), f32(ux - uy))
    g = []
    for i in range(9):
        cu = cus[i]
        poly = f32(f32(f32(1.0 + f32(3.0 * cu)) + f32(f32(4.5 * cu) * cu)) - usq)
        feq = f32(f32(LBM_W[i] * rho) * poly)
        g.append(f32(f[i] - f32(1.25 * f32(f[i] - feq))))
    return g


def check_lbm(a, b, dfs):
    w, h = a["width"], a["height"]
    push = d(dfs, "PUSH", 0)
    fin, fout = b["fin"], b["fout"]
    n = w * h
    picked = set(sample(n, 15000)) | set(range(w)) | set(range(n - w, n))
    for c in sorted(picked):
        y, x = divmod(c, w)
        if push:  # the cell collides its own populations, then streams them to c + c_i
            g = lbm_collide([fin[i * n + c] for i in range(9)])
            for i, (cx, cy) in enumerate(LBM_C):
                o = i * n + ((y + cy) % h) * w + (x + cx) % w
                expect(fout[o] == g[i], f"fout[{i}] at ({x + cx}, {y + cy}) = {fout[o]!r}, want {g[i]!r}")
        else:  # the cell pulls population i from c - c_i, collides, writes in place
            g = lbm_collide([fin[i * n + ((y - cy) % h) * w + (x - cx) % w] for i, (cx, cy) in enumerate(LBM_C)])
            for i in range(9):
                expect(fout[i * n + c] == g[i], f"fout[{i}] at ({x}, {y}) = {fout[i * n + c]!r}, want {g[i]!r}")
    return f"{len(picked)} of {n} cells' 9 populations exact, edges included ({'push' if push else 'pull'})"


def check_block_match(a, b, dfs):
    w, h, r = a["width"], a["height"], d(dfs, "R", 2)
    cur, ref, out = b["cur"].tobytes(), b["ref"].tobytes(), b["out"]
    mbw, mbh = w // 8, h // 8
    expect(len(out) >= mbw * mbh, "out is too small")
    picked = set(sample(mbw * mbh, 400)) | set(range(mbw)) | set(range(mbw * (mbh - 1), mbw * mbh))
    for mb in sorted(picked):
        by, bx = divmod(mb, mbw)
        x0, y0 = bx * 8, by * 8
        rows = [cur[(y0 + yy) * w + x0:(y0 + yy) * w + x0 + 8] for yy in range(8)]
        best = M32
        for dy in range(-r, r + 1):
            for dx in range(-r, r + 1):
                rx, ry = x0 + dx, y0 + dy
                if rx < 0 or ry < 0 or rx + 8 > w or ry + 8 > h:
                    continue
                sad = 0
                for yy in range(8):
                    o = (ry + yy) * w + rx
                    sad += sum(abs(p - q) for p, q in zip(rows[yy], ref[o:o + 8]))
                best = min(best, sad * 256 + (dy + r) * (2 * r + 1) + dx + r)
        expect(out[mb] == best, f"out[{mb}] = {out[mb]:#x}, want {best:#x}")
    return f"{len(picked)} of {mbw * mbh} macroblocks' best matches exact ({(2 * r + 1) ** 2} candidates)"


def check_sbox(a, b, dfs):
    n, rounds = a["n"], d(dfs, "ROUNDS", 8)
    src, table, out = b["in"], b["table"], b["out"]
    picked = sample(n, 200000)
    for i in picked:
        x = src[i]
        for r in range(rounds):
            x = table[x & 255] ^ (x >> 8) ^ ((x << 21) & M32) ^ r
        expect(out[i] == x, f"out[{i}] = {out[i]:#x}, want {x:#x}")
    return f"{len(picked)} of {n} words exact ({rounds} rounds, SMEM {d(dfs, 'SMEM', 0)})"


def check_batch(a, b, dfs):
    batch = a["batch"]
    A, B, C = b["A"], b["B"], b["C"]
    picked = sample(batch * 16, 200000)
    for o in picked:
        m, ij = divmod(o, 16)
        i, j = divmod(ij, 4)
        acc = f32(A[16 * m + 4 * i] * B[16 * m + j])
        for k in range(1, 4):
            acc = f32(acc + f32(A[16 * m + 4 * i + k] * B[16 * m + 4 * k + j]))
        expect(C[o] == acc, f"C[{m}][{i}][{j}] = {C[o]!r}, want {acc!r}")
    return f"{len(picked)} of {batch * 16} elements exact (VAR {d(dfs, 'VAR', 0)})"


def check_stencil3d(a, b, dfs):
    nx, ny, nz = a["nx"], a["ny"], a["nz"]
    c0, c1 = f32(a["c0"]), f32(a["c1"])
    src, out = b["in"], b["out"]
    sxy = nx * ny
    picked = sample(nx * ny * nz, 200000)
    inner = 0
    for i in picked:
        z, rem = divmod(i, sxy)
        y, x = divmod(rem, nx)
        if x == 0 or y == 0 or z == 0 or x == nx - 1 or y == ny - 1 or z == nz - 1:
            expect(out[i] == 0.0, f"out[{z}][{y}][{x}] (boundary) = {out[i]!r}, want 0")
            continue
        s = f32(src[i - 1] + src[i + 1])
        s = f32(s + src[i - nx])
        s = f32(s + src[i + nx])
        s = f32(s + src[i - sxy])
        s = f32(s + src[i + sxy])
        want = f32(f32(c0 * src[i]) + f32(c1 * s))
        expect(out[i] == want, f"out[{z}][{y}][{x}] = {out[i]!r}, want {want!r}")
        inner += 1
    return f"{len(picked)} of {nx * ny * nz} points exact, {inner} interior (MARCH {d(dfs, 'MARCH', 0)})"


def check_im2col(a, b, dfs):
    cc, h, logw = a["c_count"], a["h"], a["logw"]
    w = 1 << logw
    hw = h * w
    src, col = b["in"], b["col"]
    picked = sample(cc * 9 * hw, 300000)
    for t in picked:
        row, p = divmod(t, hw)
        c, k = divmod(row, 9)
        ky, kx = divmod(k, 3)
        yy, xx = p // w + ky - 1, p % w + kx - 1
        want = src[c * hw + yy * w + xx] if 0 <= yy < h and 0 <= xx < w else 0.0
        expect(col[t] == want, f"col[{row}][{p}] = {col[t]!r}, want {want!r}")
    return f"{len(picked)} of {cc * 9 * hw} elements exact (PERPIX {d(dfs, 'PERPIX', 0)})"


def check_relax(a, b, dfs):
    m, nv = a["m"], a["nv"]
    src, dst, weight, dist, best = b["src"], b["dst"], b["weight"], b["dist"], b["best"]
    want = [0] * nv
    for e in range(m):
        v = dst[e] % nv
        cand = ~((dist[src[e] % nv] + weight[e]) & M32) & M32
        if cand > want[v]:
            want[v] = cand
    if list(best) != want:
        v = next(i for i in range(nv) if best[i] != want[i])
        raise Fail(f"best[{v}] = {best[v]:#x}, want {want[v]:#x}")
    reached = sum(1 for v in want if v)
    return f"all {nv} vertices exact ({reached} with an incoming edge, {m} edges)"


CHECKS = {
    "activation.cu": check_activation,
    "sine_loop.cu": check_sine,
    "fft_stage.cu": check_fft,
    "redblack.cu": check_redblack,
    "hash_insert.cu": check_hash,
    "sep_filter.cu": check_sep,
    "lbm_d2q9.cu": check_lbm,
    "block_match.cu": check_block_match,
    "sbox_rounds.cu": check_sbox,
    "batch_mm4.cu": check_batch,
    "stencil3d.cu": check_stencil3d,
    "im2col.cu": check_im2col,
    "edge_relax.cu": check_relax,
}

if __name__ == "__main__":
    main(__doc__, SET, CHECKS)
