#!/usr/bin/env python3
"""Functional check of the seventh held-out timing set (set27.txt) on the simulator.

    python3 docs/validation/h100/timing-set/check-set27.py WARPSIM [SUBSTRING...]

For every line of set27.txt (or those whose text holds one of the SUBSTRINGs) it runs
`WARPSIM run ARGS --mode functional --dump NAME=FILE` for every buffer of the line, from the
repository root, reads the buffers back from the dumps (raw little-endian elements, docs/inputs.md)
and compares the outputs with a host reference written here in Python for that kernel. The inputs
are read from the same dumps (no kernel of the set writes its inputs), so the reference needs no copy
of warpsim's random generator; the `--nvcc-opt -DNAME=V` defines of a line (UNROLL, SMEM, VAR, LEVEL,
BITS, TILE, L, FLOATS, S, DOUBLE) and its --block are passed to its reference. Every output must match
exactly: the integer ones (life cells, digit counts, hit counts, match counts, u32 distances), the
f64 ones (Python floats are doubles: the same additions in the same order), and the f32 ones, whose
arithmetic is emulated step by step in the kernel's order (NVRTC runs with --fmad=false, so each
a * b and a + b is rounded once; no kernel here has an fmaf or a special function; fminf, fmaxf and
min.f32 are exact). The dot product's float atomics are exact in any order: every product and
partial sum is an integer below 2^24, which the check asserts. Where a full reference would take
minutes in Python, a fixed pseudo-random sample of outputs (or rows, columns, threads, blocks) plus
the first and last ones is checked. Prints one PASS/FAIL line per run and exits 1 if any failed.
Stdlib only.
"""

import operator
import os
import re

import setcheck
from setcheck import Fail, expect, f32, main

HERE = os.path.dirname(os.path.abspath(__file__))
SET = os.path.join(HERE, "set27.txt")

M32 = (1 << 32) - 1


def sample(count, k=20000, seed=27):
    return setcheck.sample(count, k, seed)


def d(defines, name, default):
    return int(defines.get(name, default))


def block_of(dfs):
    """The line's --block as (x, y, z)."""
    dims = [int(v) for v in dfs["--block"].replace("x", ",").split(",")]
    return tuple(dims + [1] * (3 - len(dims)))


def butterfly(part):
    """A __shfl_xor_sync sum over 32 lanes (offsets 16, 8, 4, 2, 1), f32 additions."""
    m = 16
    while m:
        part = [f32(part[l] + part[l ^ m]) for l in range(32)]
        m //= 2
    expect(len(set(part)) == 1, "the butterfly left the lanes different")
    return part[0]


# ---- the references, one per kernel: (args, bufs, defines) -> a short summary; raise Fail on a difference ----

def check_axpy(a, b, dfs):
    n, alpha = a["n"], f32(a["a"])
    x, y, z = b["x"], b["y"], b["z"]
    picked = sample(n, 200000)
    for i in picked:
        want = f32(f32(alpha * x[i]) + y[i])
        expect(z[i] == want, f"z[{i}] = {z[i]!r}, want {want!r}")
    return f"{len(picked)} of {n} outputs exact"


def check_unroll(a, b, dfs):
    x, out = b["x"], b["out"]
    T = len(out)  # the lines size out to the grid's threads
    expect(len(x) >= 256 * T, f"x holds {len(x)} floats, {T} threads of 256 need {256 * T}")
    picked = sample(T, 2500)
    for t in picked:
        acc = 0.0
        for k in range(256):
            acc = f32(acc + x[t + k * T])
        expect(out[t] == acc, f"out[{t}] = {out[t]!r}, want {acc!r}")
    return f"{len(picked)} of {T} threads' sums of 256 exact (UNROLL {d(dfs, 'UNROLL', 1)})"


def image_sample(w, h, k):
    """A sample of pixel indices with the first and last rows and columns' ends included."""
    picked = set(sample(w * h, k))
    picked |= set(range(w)) | set(range((h - 1) * w, h * w))
    picked |= {y * w + x for y in range(0, h, 7) for x in (0, 1, w - 2, w - 1)}
    return sorted(picked)


def check_median(a, b, dfs):
    w, h = a["width"], a["height"]
    src, out = b["in"], b["out"]
    picked = image_sample(w, h, 100000)
    for o in picked:
        y, x = divmod(o, w)
        xs = (max(x - 1, 0), x, min(x + 1, w - 1))
        ys = (max(y - 1, 0), y, min(y + 1, h - 1))
        want = sorted(src[yy * w + xx] for yy in ys for xx in xs)[4]
        expect(out[o] == want, f"out[{y}][{x}] = {out[o]!r}, want {want!r}")
    return f"{len(picked)} of {w * h} medians exact, edges included ({w}x{h})"


def check_life(a, b, dfs):
    w, h = a["width"], a["height"]
    src, out = b["in"], b["out"]
    expect(all(v <= 1 for v in src[:4096]), "the input cells are not 0 or 1")
    picked = image_sample(w, h, 200000)
    for o in picked:
        y, x = divmod(o, w)
        n = 0
        for yy in (y - 1, y, y + 1):
            if 0 <= yy < h:
                for xx in (x - 1, x, x + 1):
                    if 0 <= xx < w and (xx, yy) != (x, y):
                        n += src[yy * w + xx]
        want = 1 if n == 3 or (src[o] and n == 2) else 0
        expect(out[o] == want, f"out[{y}][{x}] = {out[o]}, want {want} ({n} live neighbours)")
    return f"{len(picked)} of {w * h} cells exact, edges included (SMEM {d(dfs, 'SMEM', 0)})"


def check_rowcol(a, b, dfs):
    rows, cols = a["rows"], a["cols"]
    A, out = b["A"], b["out"]
    var = d(dfs, "VAR", 0)
    if var == 0:
        picked = sample(cols, 96)
        for c in picked:
            acc = 0.0
            for r in range(rows):
                acc = f32(acc + A[r * cols + c])
            expect(out[c] == acc, f"out[{c}] (column sum) = {out[c]!r}, want {acc!r}")
        return f"{len(picked)} of {cols} column sums exact (a thread per column)"
    picked = sample(rows, 96)
    for r in picked:
        row = A[r * cols:(r + 1) * cols]
        if var == 1:
            acc = 0.0
            for v in row:
                acc = f32(acc + v)
        else:
            part = []
            for lane in range(32):
                s = 0.0
                for c in range(lane, cols, 32):
                    s = f32(s + row[c])
                part.append(s)
            acc = butterfly(part)
        expect(out[r] == acc, f"out[{r}] (row sum) = {out[r]!r}, want {acc!r}")
    how = "a thread per row" if var == 1 else "a warp per row"
    return f"{len(picked)} of {rows} row sums exact ({how})"


def check_dot(a, b, dfs):
    n = a["n"]
    total = sum(map(operator.mul, b["a"][:n], b["b"][:n]))
    expect(total < 1 << 24, f"the dot product {total} is not below 2^24: the f32 sums would not be exact")
    got = b["sum"][0]
    expect(got == float(total), f"sum = {got!r}, want {total}")
    return f"the sum of {n} products exact ({total}; LEVEL {d(dfs, 'LEVEL', 0)})"


def check_radix(a, b, dfs):
    n, shift = a["n"], a["shift"]
    bits = d(dfs, "BITS", 4)
    bins = 1 << bits
    keys, counts = b["keys"], b["counts"]
    grid = len(counts) // bins
    per = 256 * 16
    expect(grid * per >= n, f"counts holds {grid} blocks, {n} keys need {(n + per - 1) // per}")
    expect(sum(counts) == n, f"the counts add up to {sum(counts)}, want {n}")
    picked = sample(grid, 150)
    for blk in picked:
        want = [0] * bins
        for key in keys[blk * per:min(n, (blk + 1) * per)]:
            want[(key >> shift) & (bins - 1)] += 1
        got = [counts[dd * grid + blk] for dd in range(bins)]
        if got != want:
            dd = next(dd for dd in range(bins) if got[dd] != want[dd])
            raise Fail(f"counts[{dd}][block {blk}] = {got[dd]}, want {want[dd]}")
    return f"{len(picked)} of {grid} blocks' {bins} digit counts exact, all {n} keys counted"


def check_matmul(a, b, dfs):
    m, n, k = a["m"], a["n"], a["k"]
    A, B, C = b["A"], b["B"], b["C"]
    picked = sample(m * n, 2500)
    for o in picked:
        r, c = divmod(o, n)
        acc = 0.0
        for kk in range(k):
            acc = f32(acc + f32(A[r * k + kk] * B[kk * n + c]))
        expect(C[o] == acc, f"C[{r}][{c}] = {C[o]!r}, want {acc!r}")
    return f"{len(picked)} of {m * n} outputs exact (TILE {d(dfs, 'TILE', 16)})"


INV24 = f32(5.9604644775390625e-8)


def check_monte_carlo(a, b, dfs):
    iters = a["iters"]
    out = b["out"]
    picked = sample(len(out), 1500)
    total = 0
    for t in picked:
        s = ((t * 2654435761) & M32) ^ 0x9E3779B9
        s = s or 1
        hits = 0
        for _ in range(iters):
            s ^= (s << 13) & M32
            s ^= s >> 17
            s ^= (s << 5) & M32
            x = f32((s >> 8) * INV24)
            s ^= (s << 13) & M32
            s ^= s >> 17
            s ^= (s << 5) & M32
            y = f32((s >> 8) * INV24)
            if f32(f32(x * x) + f32(y * y)) < 1.0:
                hits += 1
        expect(out[t] == hits, f"out[{t}] = {out[t]}, want {hits}")
        total += hits
    pi = 4.0 * total / (len(picked) * iters)
    return f"{len(picked)} of {len(out)} threads' hit counts exact ({iters} trials; pi ~ {pi:.4f})"


def check_string_match(a, b, dfs):
    n, L = a["n"], d(dfs, "L", 4)
    bx, by, bz = block_of(dfs)
    per = bx * by * bz
    text, pat, counts = b["text"], b["pat"], b["counts"]
    expect(len(counts) * per >= n, f"counts holds {len(counts)} blocks, {n} positions need more")
    data = text[:n].tobytes()
    want = [0] * len(counts)
    found = 0
    for mo in re.finditer(b"(?=" + re.escape(pat[:L].tobytes()) + b")", data):
        want[mo.start() // per] += 1
        found += 1
    if list(counts) != want:
        blk = next(i for i in range(len(want)) if counts[i] != want[i])
        raise Fail(f"counts[{blk}] = {counts[blk]}, want {want[blk]}")
    return f"all {len(counts)} block counts exact ({found} matches of a {L}-byte pattern)"


def check_fw(a, b, dfs):
    n, k = a["n"], a["k"]
    src, out = b["in"], b["out"]
    floats = d(dfs, "FLOATS", 0)
    picked = sample(n * n, 200000)
    for o in picked:
        i, j = divmod(o, n)
        if floats:
            want = min(src[o], f32(src[i * n + k] + src[k * n + j]))
        else:
            want = min(src[o], (src[i * n + k] + src[k * n + j]) & M32)
        expect(out[o] == want, f"out[{i}][{j}] = {out[o]!r}, want {want!r}")
    return f"{len(picked)} of {n * n} distances exact ({'f32' if floats else 'u32'}, block {dfs['--block']})"


def check_smem_f64(a, b, dfs):
    iters, S = a["iters"], d(dfs, "S", 1)
    table, out = b["table"], b["out"]
    expect(31 * S + 31 < len(table), "the table is too small for the stride")
    picked = sample(len(out), 2000)
    for g in picked:
        lane, warp = g % 32, g // 32
        acc = 0.0
        for it in range(iters):
            acc += table[lane * S + ((it + warp) & 31)]
        expect(out[g] == acc, f"out[{g}] = {out[g]!r}, want {acc!r}")
    return f"{len(picked)} of {len(out)} threads' sums of {iters} exact (stride {S})"


def check_newton(a, b, dfs):
    n, iters = a["n"], a["iters"]
    x, out = b["x"], b["out"]
    dbl = d(dfs, "DOUBLE", 0)
    picked = sample(n, 3000)
    for i in picked:
        if dbl:
            aa = x[i] + 0.5
            y = 1.0
            for _ in range(iters):
                y = y * (1.5 - 0.5 * aa * y * y)
        else:
            aa = f32(x[i] + 0.5)
            y = 1.0
            for _ in range(iters):
                y = f32(y * f32(1.5 - f32(f32(f32(0.5 * aa) * y) * y)))
        expect(out[i] == y, f"out[{i}] = {out[i]!r}, want {y!r} (x {x[i]!r})")
    return f"{len(picked)} of {n} results of {iters} steps exact ({'f64' if dbl else 'f32'})"


CHECKS = {
    "grid_stride_axpy.cu": check_axpy,
    "unroll_sum.cu": check_unroll,
    "median3x3.cu": check_median,
    "life_step.cu": check_life,
    "rowcol_sum.cu": check_rowcol,
    "dot_atomic.cu": check_dot,
    "radix_count.cu": check_radix,
    "tiled_matmul.cu": check_matmul,
    "monte_carlo_pi.cu": check_monte_carlo,
    "string_match.cu": check_string_match,
    "fw_step.cu": check_fw,
    "smem_f64.cu": check_smem_f64,
    "newton_rsqrt.cu": check_newton,
}


def parse_with_block(argv, _parse=setcheck.parse):
    """setcheck.parse, plus the line's --block under the key "--block" of the defines (no -D name can
    be spelled so): string_match's blocks and fw_step's summary need it."""
    args, buffers, defines = _parse(argv)
    if "--block" in argv:
        defines["--block"] = argv[argv.index("--block") + 1]
    return args, buffers, defines


setcheck.parse = parse_with_block

if __name__ == "__main__":
    main(__doc__, SET, CHECKS)
