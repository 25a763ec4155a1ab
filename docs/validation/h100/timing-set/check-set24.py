#!/usr/bin/env python3
"""Functional check of the fourth held-out timing set (set24.txt) on the simulator.

    python3 docs/validation/h100/timing-set/check-set24.py WARPSIM [SUBSTRING...]

For every line of set24.txt (or those whose text holds one of the SUBSTRINGs) it runs
`WARPSIM run ARGS --mode functional --dump NAME=FILE` for every buffer of the line, from the
repository root, reads the buffers back from the dumps (raw little-endian elements, docs/inputs.md)
and compares the outputs with a host reference written here in Python for that kernel. The inputs
are read from the same dumps (no kernel of the set writes its inputs), so the reference needs no copy
of warpsim's random generator; the `--nvcc-opt -DNAME=V` defines of a line (BINS, CHUNK, SCATTER)
are passed to its reference. Integer outputs (scan, histogram, compaction, bit operations,
downsampling, row moves) and those of kernels whose f32 or f64 arithmetic is emulated step by step
(jacobi, conv1d, branch, chunk smoothing; horner64's DFMAs exactly through fractions) must match
exactly; sgemm and l2norm, whose sums run in orders the check does not follow, within the rounding
bounds given at each check. Where a full reference would take minutes in Python, a fixed
pseudo-random sample of outputs (or of rows) plus the first and last ones is checked. Prints one
PASS/FAIL line per run and exits 1 if any failed. Stdlib only.
"""

import math
import os
import random
from fractions import Fraction
from itertools import accumulate

import setcheck
from setcheck import Fail, close, expect, f32, literal, main  # noqa: F401 (the references use them)

HERE = os.path.dirname(os.path.abspath(__file__))
SET = os.path.join(HERE, "set24.txt")

M32 = 0xFFFFFFFF
U = 2.0 ** -24  # the unit roundoff of f32


def fma64(a, b, c):
    """fma on doubles, rounded once: the exact a * b + c as a fraction, then int / int division, which
    Python rounds correctly to the nearest double."""
    return float(Fraction(a) * Fraction(b) + Fraction(c))


def sample(count, k=20000, seed=24):
    return setcheck.sample(count, k, seed)


# ---- the references, one per kernel: (args, bufs, defines) -> a short summary; raise Fail on a difference ----

def check_jacobi(a, b, d):
    nx, ny, h2 = a["nx"], a["ny"], f32(a["h2"])
    u, f, out = b["u"], b["f"], b["unew"]
    rng = random.Random(24)
    rows = sorted({0, 1, ny - 2, ny - 1} | set(rng.sample(range(ny), min(ny, 60))))
    for y in rows:
        for x in range(nx):
            i = y * nx + x
            if x == 0 or y == 0 or x == nx - 1 or y == ny - 1:
                want = u[i]
            else:  # 0.25f * (u[i-1] + u[i+1] + u[i-nx] + u[i+nx] - h2 * f[i]), each step rounded
                s = f32(f32(f32(u[i - 1] + u[i + 1]) + u[i - nx]) + u[i + nx])
                want = f32(0.25 * f32(s - f32(h2 * f[i])))
            expect(out[i] == want, f"unew[{y}][{x}] = {out[i]!r}, want {want!r}")
    return f"{len(rows)} of {ny} rows exact"


def check_sgemm(a, b, d):
    m, n, k = a["m"], a["n"], a["k"]
    A, B, C = b["A"], b["B"], b["C"]
    picked = sample(m * n, 1500)
    worst = 0.0
    for p in picked:
        r, c = divmod(p, n)
        terms = [A[r * k + j] * B[j * n + c] for j in range(k)]
        want = math.fsum(terms)
        # k f32 fmas in any order: |error| <= k * u * sum |terms| (the textbook bound for a sum of k terms)
        bound = k * U * math.fsum(abs(t) for t in terms)
        close(C[p], want, 0.0, bound, f"C[{r}][{c}]")
        worst = max(worst, abs(C[p] - want) / bound if bound else 0.0)
    return f"{len(picked)} of {m * n} entries within k*u*sum|terms| (largest error {worst:.3f} of the bound)"


def check_scan(a, b, d):
    n = a["n"]
    src, out, sums = b["in"], b["out"], b["block_sums"]
    blocks = len(sums)
    size = n // blocks
    expect(size * blocks == n, "the check needs n = blocks * block size")
    for blk in range(blocks):
        want = list(accumulate(src[blk * size:(blk + 1) * size]))
        got = out[blk * size:(blk + 1) * size]
        if got.tolist() != want:
            j = next(j for j in range(size) if got[j] != want[j])
            raise Fail(f"out[{blk * size + j}] (block {blk}) = {got[j]}, want {want[j]}")
        expect(sums[blk] == want[-1], f"block_sums[{blk}] = {sums[blk]}, want {want[-1]}")
    return f"{n} prefix sums in {blocks} blocks of {size} and the block totals exact"


def check_histo(a, b, d):
    n, bins = a["n"], int(d.get("BINS", 256))
    keys, histo = b["keys"], b["histo"]
    want = [0] * bins
    for key in keys[:n]:
        want[key % bins] += 1
    expect(len(histo) == bins, f"histo has {len(histo)} bins, the kernel {bins}")
    for j in range(bins):
        expect(histo[j] == want[j], f"histo[{j}] = {histo[j]}, want {want[j]}")
    used = sum(1 for c in want if c)
    return f"{bins} bins exact ({used} used, largest {max(want)})"


def check_compact(a, b, d):
    n, t = a["n"], f32(a["threshold"])
    src, out, count = b["in"], b["out_idx"], b["count"][0]
    want = [i for i in range(n) if src[i] > t]
    expect(count == len(want), f"count = {count}, want {len(want)}")
    got = sorted(out[:count])
    if got != want:
        j = next(j for j in range(count) if got[j] != want[j])
        raise Fail(f"the {j}-th smallest kept index is {got[j]}, want {want[j]}")
    expect(out[count:].count(0) == n - count, "out_idx past count was written")
    return f"{count} of {n} indices kept ({100.0 * count / n:.1f}%), each once"


def check_conv1d(a, b, d):
    n, r = a["n"], a["r"]
    src, filt, out = b["in"], b["filter"], b["out"]
    picked = sorted(set(sample(n, max(2000, 120000 // (2 * r + 1)))) | set(range(2 * r + 2)) |
                    set(range(n - 2 * r - 2, n)))
    for i in picked:
        s = 0.0
        for k in range(-r, r + 1):
            j = i + k
            if 0 <= j < n:
                s = f32(s + f32(filt[k + r] * src[j]))
        expect(out[i] == s, f"out[{i}] = {out[i]!r}, want {s!r}")
    return f"{len(picked)} of {n} outputs exact ({2 * r + 1} taps)"


def check_l2norm(a, b, d):
    cols = a["cols"]
    src, out = b["in"], b["out"]
    rows = len(src) // cols
    # each lane sums at most cols / 32 squares in a row, then at most 10 tree levels: the sum of squares
    # (positive terms) is within (cols / 32 + 10) * u relative, 1 / sqrt of it within half that plus 2
    # rounding steps, and the product one more
    rel = (cols / 32 + 10) * U / 2 + 4 * U
    rng = random.Random(24)
    picked = sorted({0, rows - 1} | set(rng.sample(range(rows), min(rows, 150))))
    for r in picked:
        row = src[r * cols:(r + 1) * cols]
        k = 1.0 / math.sqrt(math.fsum(v * v for v in row))
        for c in range(cols):
            close(out[r * cols + c], row[c] * k, rel, 0.0, f"out[{r}][{c}]")
    return f"{len(picked)} of {rows} rows within {rel:.2e} relative"


def check_bitops(a, b, d):
    n, rounds = a["n"], a["rounds"]
    keys, out = b["keys"], b["out"]
    picked = sample(n, max(1000, 200000 // max(rounds, 1)))
    for i in picked:
        v, crc, bits = keys[i], M32, 0
        for r in range(rounds):
            brev = int(f"{v:032b}"[::-1], 2)
            v = brev ^ ((v << 5) & M32) ^ (v >> 3) ^ r
            bits = (bits + bin(v).count("1")) & M32
            crc ^= v & 0xFF
            for _ in range(8):
                crc = (crc >> 1) ^ (0xEDB88320 if crc & 1 else 0)
        want = (~crc & M32) ^ ((bits << 24) & M32)
        expect(out[i] == want, f"out[{i}] = {out[i]:#x}, want {want:#x}")
    return f"{len(picked)} of {n} words exact after {rounds} rounds"


HORNER = [1.0 / math.factorial(k) for k in range(17)]  # as NVRTC folds 1.0 / 24, ...: exact k!, one rounding


def check_horner64(a, b, d):
    n = a["n"]
    x, y = b["x"], b["y"]
    picked = sample(n, 3000)
    for i in picked:
        p = HORNER[16]
        for k in range(15, -1, -1):
            p = fma64(p, x[i], HORNER[k])
        expect(y[i] == p, f"y[{i}] = {y[i]!r}, want {p!r}")
    return f"{len(picked)} of {n} polynomials exact (16 fmas each, rounded once per step)"


def check_branch(a, b, d):
    n, threshold, iters = a["n"], a["threshold"], a["iters"]
    key, x, out = b["key"], b["x"], b["out"]
    c39 = f32(3.9)
    picked = sample(n, max(1000, 1000000 // max(iters, 1)))
    taken = 0
    for i in picked:
        v = x[i]
        if key[i] < threshold:
            taken += 1
            for _ in range(iters):
                v = f32(f32(c39 * v) * f32(1.0 - v))
        else:
            for _ in range(iters):
                v = f32(f32(f32(v * v) * 0.5) + 0.25)
        expect(out[i] == v, f"out[{i}] = {out[i]!r}, want {v!r}")
    diverged = sum(1 for w in range(0, n, 32) if 0 < sum(1 for i in range(w, w + 32) if key[i] < threshold) < 32)
    return (f"{len(picked)} of {n} exact, {100.0 * taken / len(picked):.0f}% on the first path; "
            f"{diverged} of {n // 32} warps split")


def check_chunk(a, b, d):
    n, chunk = a["n"], int(d.get("CHUNK", 4096))
    src, out = b["in"], b["out"]
    segs = n // chunk
    rng = random.Random(24)
    edges = set()
    for s in {0, segs - 1} | set(rng.sample(range(segs), min(segs, 40))):
        edges |= {s * chunk, s * chunk + 1, (s + 1) * chunk - 2, (s + 1) * chunk - 1}
    picked = sorted(set(sample(n, 60000)) | edges)
    for i in picked:
        base, j = divmod(i, chunk)
        base *= chunk
        left = src[base + (j - 1 if j > 0 else 0)]
        right = src[base + (j + 1 if j < chunk - 1 else chunk - 1)]
        want = f32(f32(f32(0.25 * left) + f32(0.5 * src[i])) + f32(0.25 * right))
        expect(out[i] == want, f"out[{i}] = {out[i]!r}, want {want!r}")
    return f"{len(picked)} of {n} outputs exact, segment ends included"


def check_down_u8(a, b, d):
    w, h = a["width"], a["height"]
    src, out = b["in"], b["out"]
    ow, oh = w // 2, h // 2
    rng = random.Random(24)
    rows = sorted({0, oh - 1} | set(rng.sample(range(oh), min(oh, 80))))
    for y in rows:
        r0, r1 = 2 * y * w, (2 * y + 1) * w
        for x in range(ow):
            s = src[r0 + 2 * x] + src[r0 + 2 * x + 1] + src[r1 + 2 * x] + src[r1 + 2 * x + 1]
            expect(out[y * ow + x] == (s + 2) // 4, f"out[{y}][{x}] = {out[y * ow + x]}, want {(s + 2) // 4}")
    return f"{len(rows)} of {oh} output rows exact"


def check_down_rgba(a, b, d):
    w, h = a["width"], a["height"]
    src, out = b["in"], b["out"]
    ow, oh = w // 2, h // 2
    rng = random.Random(24)
    rows = sorted({0, oh - 1} | set(rng.sample(range(oh), min(oh, 40))))
    for y in rows:
        r0, r1 = 2 * y * w, (2 * y + 1) * w
        for x in range(ow):
            px = (src[r0 + 2 * x], src[r0 + 2 * x + 1], src[r1 + 2 * x], src[r1 + 2 * x + 1])
            want = 0
            for ch in (0, 8, 16, 24):
                s = sum((p >> ch) & 0xFF for p in px)
                want |= ((s + 2) // 4) << ch
            expect(out[y * ow + x] == want, f"out[{y}][{x}] = {out[y * ow + x]:#010x}, want {want:#010x}")
    return f"{len(rows)} of {oh} output rows exact (4 channels)"


def check_row_permute(a, b, d):
    rows, cols = a["rows"], a["cols"]
    src, out, idx = b["in"], b["out"], b["idx"]
    scatter = "SCATTER" in d
    if scatter:
        expect(sorted(idx[:rows]) == list(range(rows)), "a scatter needs idx to be a permutation")
    for r in range(rows):
        s, t = (r, idx[r]) if scatter else (idx[r], r)
        if out[t * cols:(t + 1) * cols] != src[s * cols:(s + 1) * cols]:
            raise Fail(f"out row {t} is not in row {s}")
    distinct = len(set(idx[:rows]))
    return f"{rows} rows of {cols} floats {'scattered' if scatter else 'gathered'} exactly ({distinct} distinct sources)"


CHECKS = {
    "jacobi_global.cu": check_jacobi,
    "jacobi_smem.cu": check_jacobi,
    "sgemm_reg.cu": check_sgemm,
    "scan_warp.cu": check_scan,
    "histo_smem.cu": check_histo,
    "compact.cu": check_compact,
    "conv1d.cu": check_conv1d,
    "l2norm_block.cu": check_l2norm,
    "l2norm_warp.cu": check_l2norm,
    "bitops.cu": check_bitops,
    "horner64.cu": check_horner64,
    "branch_data.cu": check_branch,
    "chunk_smooth.cu": check_chunk,
    "downsample_u8.cu": check_down_u8,
    "downsample_rgba.cu": check_down_rgba,
    "row_permute.cu": check_row_permute,
}


if __name__ == "__main__":
    main(__doc__, SET, CHECKS)
