#!/usr/bin/env python3
"""Functional check of the third held-out timing set (set23.txt) on the simulator.

    python3 docs/validation/h100/timing-set/check-set23.py WARPSIM [SUBSTRING...]

For every line of set23.txt (or those whose text holds one of the SUBSTRINGs) it runs
`WARPSIM run ARGS --mode functional --dump NAME=FILE` for every buffer of the line, from the
repository root, reads the buffers back from the dumps (raw little-endian elements, docs/inputs.md)
and compares the outputs with a host reference written here in Python for that kernel. The inputs
are read from the same dumps (no kernel of the set writes its inputs), so the reference needs no copy
of warpsim's random generator. Integer outputs and those of kernels whose f32 arithmetic is emulated
step by step (mandelbrot, logistic, aos/soa) must match exactly; the others within the tolerances
given at each check. Where a full reference would take minutes in Python (n-body, black-scholes,
hash rounds, ELL SpMV, blur, mandelbrot), a fixed pseudo-random sample of outputs plus the first and
last ones is checked. Prints one PASS/FAIL line per run and exits 1 if any failed. Stdlib only.
"""

import math
import os
import random
from array import array

from setcheck import Fail, close, expect, f32, literal, main, sample  # noqa: F401 (the references use them)

HERE = os.path.dirname(os.path.abspath(__file__))
SET = os.path.join(HERE, "set23.txt")


def check_transpose(a, b):
    rows, cols = a["rows"], a["cols"]
    src, out = b["in"], b["out"]
    expect(len(out) == rows * cols, "out has the wrong size")
    for c in range(cols):  # row c of out is column c of in
        if out[c * rows:(c + 1) * rows] != src[c::cols]:
            got = out[c * rows:(c + 1) * rows]
            want = src[c::cols]
            r = next(i for i in range(rows) if got[i] != want[i])
            raise Fail(f"out[{c}][{r}] = {got[r]!r}, want in[{r}][{c}] = {want[r]!r}")
    return f"{rows}x{cols} transposed exactly"


def check_block_reduce(a, b):
    n = a["n"]
    want = math.fsum(b["in"][:n])
    # f32 partial sums added in an order the check does not know (one atomicAdd per block): 1e-4 of the
    # total is well above their rounding (about 5e-6 at 65,536 blocks) and below one block's share
    # for up to about 5,000 blocks
    close(b["total"][0], want, 1e-4, 0.0, "total")
    return f"total {b['total'][0]:.6g}, exact sum {want:.6g}"


def check_scatter(a, b):
    n = a["n"]
    src, idx, out = b["in"], b["idx"], b["out"]
    expect(src[:n] == array("f", range(n)), "this check needs in = iota (each value names its writer)")
    targets = set(idx[:n])
    nonzero = len(out) - out.count(0.0)
    seen = 0
    for j in targets:
        v = out[j]
        w = int(v)
        expect(w == v and 0 <= w < n and idx[w] == j,
               f"out[{j}] = {v!r}, which no thread i with idx[i] == {j} wrote")
        if v != 0.0:
            seen += 1
    expect(seen == nonzero, f"{nonzero - seen} elements of out that no index names are not 0")
    return f"{len(targets)} targets of {n} writes, each holds one of its writers; the rest 0"


def check_mandelbrot(a, b):
    w, h = a["width"], a["height"]
    x0, y0, dx, dy, maxiter = (f32(a["x0"]), f32(a["y0"]), f32(a["dx"]), f32(a["dy"]), a["maxiter"])
    out = b["out"]
    total = 0
    for p in sample(w * h, 4000):
        row, col = divmod(p, w)
        cr = f32(x0 + f32(col * dx))
        ci = f32(y0 + f32(row * dy))
        zr = zi = 0.0
        it = 0
        while it < maxiter and f32(f32(zr * zr) + f32(zi * zi)) <= 4.0:
            t = f32(f32(f32(zr * zr) - f32(zi * zi)) + cr)
            zi = f32(f32(f32(zr + zr) * zi) + ci)
            zr = t
            it += 1
        expect(out[p] == it, f"pixel ({col}, {row}): {out[p]} steps, want {it}")
        total += it
    n = len(sample(w * h, 4000))
    return f"{n} pixels exact (mean {total / n:.1f} steps of {maxiter})"


def check_black_scholes(a, b):
    n, r, v = a["n"], a["riskfree"], a["volatility"]
    A1, A2, A3, A4, A5 = 0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429

    def cnd(d):
        k = 1.0 / (1.0 + 0.2316419 * abs(d))
        c = 0.3989422804014327 * math.exp(-0.5 * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))))
        return 1.0 - c if d > 0 else c

    picked = sample(n)
    for i in picked:
        s = f32(5.0 + f32(25.0 * b["u_price"][i]))
        x = f32(1.0 + f32(99.0 * b["u_strike"][i]))
        t = f32(0.25 + f32(9.75 * b["u_years"][i]))
        st = math.sqrt(t)
        d1 = (math.log(s / x) + (r + 0.5 * v * v) * t) / (v * st)
        d2 = d1 - v * st
        ert = math.exp(-r * t)
        call = s * cnd(d1) - x * ert * cnd(d2)
        put = x * ert * (1.0 - cnd(d2)) - s * (1.0 - cnd(d1))
        # f32 rounding of s, x and the terms: a few ulp of the larger term (s or x, at most 100)
        close(b["call"][i], call, 1e-5, 2e-4, f"call[{i}]")
        close(b["put"][i], put, 1e-5, 2e-4, f"put[{i}]")
    return f"{len(picked)} of {n} options within 2e-4 + 1e-5 relative"


def check_nbody(a, b):
    n, eps2 = a["n"], a["eps2"]
    pos, acc = b["pos"], b["acc"]
    xs, ys, zs, ms = pos[0:4 * n:4], pos[1:4 * n:4], pos[2:4 * n:4], pos[3:4 * n:4]
    picked = sample(n, 48)
    for i in picked:
        px, py, pz = xs[i], ys[i], zs[i]
        sx = sy = sz = mag = 0.0
        for ox, oy, oz, m in zip(xs, ys, zs, ms):
            rx, ry, rz = ox - px, oy - py, oz - pz
            d2 = rx * rx + ry * ry + rz * rz + eps2
            s = m / (d2 * math.sqrt(d2))
            sx += rx * s
            sy += ry * s
            sz += rz * s
            mag += math.sqrt(rx * rx + ry * ry + rz * rz) * s
        # sums of n terms of both signs: bound the error by the sum of the terms' magnitudes
        for k, want in enumerate((sx, sy, sz)):
            close(acc[4 * i + k], want, 0.0, 2e-5 * mag, f"acc[{i}].{'xyz'[k]}")
        expect(acc[4 * i + 3] == 0.0, f"acc[{i}].w = {acc[4 * i + 3]}")
    return f"{len(picked)} of {n} bodies within 2e-5 of the sum of |terms|"


def check_spmv_ell(a, b):
    rows, width = a["rows"], a["width"]
    cols, vals, x, y = b["cols"], b["vals"], b["x"], b["y"]
    picked = sample(rows)
    for r in picked:
        terms = [vals[k * rows + r] * x[cols[k * rows + r]] for k in range(width)]
        close(y[r], math.fsum(terms), 1e-5, 1e-5 * math.fsum(abs(t) for t in terms) + 1e-30, f"y[{r}]")
    return f"{len(picked)} of {rows} rows within 1e-5 relative"


def check_blur(a, b):
    w, h = a["width"], a["height"]
    src, out = b["in"], b["out"]
    rng = random.Random(23)
    rows = sorted({0, 1, h - 2, h - 1} | set(rng.sample(range(h), min(h, 60))))
    for y in rows:
        for x in range(w):
            s = 0
            for yy in (max(y - 1, 0), y, min(y + 1, h - 1)):
                base = yy * w
                s += src[base + max(x - 1, 0)] + src[base + x] + src[base + min(x + 1, w - 1)]
            expect(out[y * w + x] == s // 9, f"out[{y}][{x}] = {out[y * w + x]}, want {s // 9}")
    return f"{len(rows)} of {h} rows exact"


def check_hash_mix(a, b):
    n, rounds = a["n"], a["rounds"]
    keys, out = b["keys"], b["out"]
    M = 0xFFFFFFFF
    picked = sample(n, max(500, 2000000 // max(rounds, 1)))
    for i in picked:
        h = keys[i]
        for r in range(rounds):
            h ^= h >> 16
            h = (h * 0x85EBCA6B) & M
            h ^= h >> 13
            h = (h * 0xC2B2AE35) & M
            h ^= h >> 16
            h = ((((h << 7) | (h >> 25)) & M) + 0x9E3779B9 * (r + 1)) & M
        expect(out[i] == h, f"out[{i}] = {out[i]:#x}, want {h:#x}")
    return f"{len(picked)} of {n} hashes exact"


def energy(vx, vy, vz, m):  # 0.5f * m * (vx*vx + vy*vy + vz*vz), f32 step by step as NVRTC orders it
    s = f32(f32(f32(vx * vx) + f32(vy * vy)) + f32(vz * vz))
    return f32(f32(0.5 * m) * s)


def check_aos(a, b):
    n = a["n"]
    p, e = b["p"], b["energy"]
    for i in range(n):
        want = energy(p[8 * i + 4], p[8 * i + 5], p[8 * i + 6], p[8 * i + 7])
        expect(e[i] == want, f"energy[{i}] = {e[i]!r}, want {want!r}")
    return f"{n} energies exact"


def check_soa(a, b):
    n = a["n"]
    e = b["energy"]
    for i, (vx, vy, vz, m) in enumerate(zip(b["vx"], b["vy"], b["vz"], b["mass"])):
        if i == n:
            break
        want = energy(vx, vy, vz, m)
        expect(e[i] == want, f"energy[{i}] = {e[i]!r}, want {want!r}")
    return f"{n} energies exact"


def check_copy(a, b):
    n = a["n"]
    expect(b["out"][:n] == b["in"][:n], "out differs from in")
    return f"{n} floats copied exactly"


def check_logistic(a, b):
    n, r, iters = a["n"], f32(a["r"]), a["iters"]
    x0, out = b["x0"], b["out"]
    picked = sample(n, max(200, 2000000 // max(iters, 1)))
    for i in picked:
        x = x0[i]
        for _ in range(iters):
            x = f32(f32(r * x) * f32(1.0 - x))
        expect(out[i] == x, f"out[{i}] = {out[i]!r}, want {x!r}")
    return f"{len(picked)} of {n} exact after {iters} steps"


_CHECKS = {
    "transpose_naive.cu": check_transpose,
    "transpose_smem.cu": check_transpose,
    "block_reduce.cu": check_block_reduce,
    "scatter.cu": check_scatter,
    "mandelbrot.cu": check_mandelbrot,
    "black_scholes.cu": check_black_scholes,
    "nbody.cu": check_nbody,
    "spmv_ell.cu": check_spmv_ell,
    "blur3x3_u8.cu": check_blur,
    "hash_mix.cu": check_hash_mix,
    "aos_read.cu": check_aos,
    "soa_read.cu": check_soa,
    "copy_vec.cu": check_copy,
    "logistic.cu": check_logistic,
}

CHECKS = {kernel: (lambda check: lambda args, bufs, defines: check(args, bufs))(check) for kernel, check in _CHECKS.items()}

if __name__ == "__main__":
    main(__doc__, SET, CHECKS)
